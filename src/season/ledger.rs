//! The season's state, derived, never stored: each player's garnets (the cast's starting balance,
//! plus every round's `[garnets]` change of every match, plus garnet events), Tokens of Life (won
//! in matches' `[public.final]`, plus token events), and who is eliminated (events). Every match
//! made by `season match` is checked against it: its players are of the cast, and its game.toml
//! balances are what the ledger gave when it was made (`entry.toml`).

use super::config::SeasonConfig;
use super::events::{Event, What};
use super::{ENTRY, SeasonDir};
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::game_dir::GameDir;
use crate::games::GameId;
use crate::games::ending::Ending;
use crate::player_id::PlayerId;
use crate::result_file::ResultFile;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use toml::Table;

/// `matches/NN-game/entry.toml`: what the match's starting balances were computed from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// How many events of events.toml were applied.
    pub events: usize,
    /// The earlier matches counted in full (those over when this one was made).
    pub matches: Vec<String>,
}

/// One match of the season, as its archive tells it.
#[derive(Debug, Clone)]
pub struct Match {
    /// The folder's name: "01-god-race".
    pub folder: String,
    pub number: u32,
    pub game: GameId,
    pub title: String,
    /// Its players as its game.toml starts them, in game.toml's order.
    pub players: Vec<Starting>,
    pub over: bool,
    /// "round 3", "over", "not started".
    pub status: String,
    /// The sum of every round's `[garnets]` changes so far.
    pub garnets: BTreeMap<PlayerId, i64>,
    /// What its announcements say of its end: winners, Tokens of Life won, candidates (empty
    /// until it is over), credited to the person who held each seat at the end.
    pub ending: Ending,
    pub entry: Option<Entry>,
    /// Who left the season in this match (`adjudicate withdraw`), and why.
    pub left: Vec<(PlayerId, String)>,
    /// Seats played for a while by someone outside the cast: their changes credit nobody.
    pub uncredited: Vec<String>,
    /// Cast members who took a seat over (`substitute`).
    pub newcomers: Vec<PlayerId>,
}

/// A player of a match, with the balance and Tokens its game.toml gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Starting {
    pub id: PlayerId,
    pub garnets: i64,
    pub tokens: u32,
    /// The match's own address for them (what its ingest maps mail by).
    pub email: Option<String>,
}

impl Match {
    /// Whether `id` held a seat of the match (from the start, or taking one over).
    pub fn plays(&self, id: &PlayerId) -> bool {
        self.players.iter().any(|p| &p.id == id) || self.newcomers.contains(id)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub id: PlayerId,
    pub name: String,
    pub garnets: i64,
    pub tokens: i64,
    /// Why, when eliminated.
    pub eliminated: Option<String>,
    /// The player's latest match, in words.
    pub last: String,
}

#[derive(Debug, Clone)]
pub struct Ledger {
    pub config: SeasonConfig,
    pub events: Vec<Event>,
    pub matches: Vec<Match>,
    pub standings: Vec<Standing>,
    /// Things the host should know (a match running beside another).
    pub notes: Vec<String>,
    /// Who is eliminated, and why (from the events).
    eliminated: BTreeMap<PlayerId, String>,
}

impl Ledger {
    pub fn standing(&self, id: &PlayerId) -> Option<&Standing> {
        self.standings.iter().find(|s| &s.id == id)
    }

    /// The standings as they were after match `number` (later matches not counted; every event
    /// is): what that match's season reports say, whenever they are written.
    pub fn after(&self, number: u32) -> Vec<Standing> {
        let counted: Vec<&Match> = self.matches.iter().filter(|m| m.number <= number).collect();
        standings(
            &self.config,
            &self.events,
            &counted,
            &self.eliminated,
            Path::new("events.toml"),
        )
        .unwrap_or_else(|_| self.standings.clone())
    }

    /// The season's winner: the winner of its last finished jury vote (a season round whose
    /// ending has winners), if any.
    pub fn winner(&self) -> Option<&PlayerId> {
        self.matches
            .iter()
            .rev()
            .filter(|m| m.over && m.game.is_season_round())
            .find_map(|m| m.ending.winners.first())
    }

    /// The players still in the season, in cast order.
    pub fn living(&self) -> Vec<&Standing> {
        self.standings
            .iter()
            .filter(|s| s.eliminated.is_none())
            .collect()
    }
}

/// Balances from the cast, the first `events` events and the listed matches' changes.
fn balances(
    config: &SeasonConfig,
    events: &[Event],
    matches: &[&Match],
) -> BTreeMap<PlayerId, (i64, i64)> {
    let mut out: BTreeMap<PlayerId, (i64, i64)> = config
        .cast
        .iter()
        .map(|p| (p.id.clone(), (p.garnets, 0)))
        .collect();
    for m in matches {
        for (id, g) in &m.garnets {
            out.entry(id.clone()).or_default().0 += g;
        }
        for (id, t) in &m.ending.tokens {
            out.entry(id.clone()).or_default().1 += t;
        }
    }
    for e in events {
        match &e.what {
            What::Garnets { player, change } => out.entry(player.clone()).or_default().0 += change,
            What::Tokens { player, change } => out.entry(player.clone()).or_default().1 += change,
            _ => {}
        }
    }
    out
}

/// The season's ledger, from its files.
pub fn compute(dir: &SeasonDir) -> Result<Ledger> {
    compute_with(dir, super::events::load(&dir.events_toml())?)
}

/// The season's ledger with `events` in place of events.toml's (`season event` checks a new
/// event this way before writing it).
pub fn compute_with(dir: &SeasonDir, events: Vec<Event>) -> Result<Ledger> {
    let season_toml = dir.season_toml();
    let config = SeasonConfig::load(&season_toml)?;
    let events_toml = dir.events_toml();
    let eliminated = check_events(&config, &events, &season_toml, &events_toml)?;
    let matches = load_matches(dir, &config, &season_toml)?;
    let mut notes = Vec::new();
    let running: Vec<&str> = matches
        .iter()
        .filter(|m| !m.over)
        .map(|m| m.folder.as_str())
        .collect();
    if running.len() > 1 {
        notes.push(format!(
            "{} matches are running at once: {}",
            running.len(),
            running.join(", ")
        ));
    }
    for m in &matches {
        if m.entry.is_none() {
            notes.push(format!(
                "{}: no {ENTRY} (not made by `season match`): its balances are not checked",
                m.folder
            ));
        }
        check_entry(dir, &config, &events, &matches, m)?;
    }
    let mut eliminated = eliminated;
    for m in &matches {
        notes.extend(m.uncredited.iter().cloned());
        for (id, why) in &m.left {
            eliminated
                .entry(id.clone())
                .or_insert_with(|| format!("left the season in {}: {why}", m.folder));
        }
        // a Tribal Council's vote sends its player home
        for id in &m.ending.out {
            eliminated
                .entry(id.clone())
                .or_insert_with(|| format!("voted out at {}", m.folder));
        }
    }
    let all: Vec<&Match> = matches.iter().collect();
    let standings = standings(&config, &events, &all, &eliminated, &events_toml)?;
    Ok(Ledger {
        config,
        events,
        matches,
        standings,
        notes,
        eliminated,
    })
}

/// Every event's players are of the cast, and nobody is acted on after their elimination.
/// Returns who was eliminated, and why.
fn check_events(
    config: &SeasonConfig,
    events: &[Event],
    season_toml: &Path,
    events_toml: &Path,
) -> Result<BTreeMap<PlayerId, String>> {
    let cast: BTreeSet<&PlayerId> = config.cast.iter().map(|p| &p.id).collect();
    let mut eliminated: BTreeMap<PlayerId, String> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        for id in e.players() {
            if !cast.contains(id) {
                return Err(Error::invalid(
                    events_toml,
                    format!("event[{i}]"),
                    format!("`{id}` is not in the cast of {}", season_toml.display()),
                ));
            }
            if let Some(why) = eliminated.get(id) {
                return Err(Error::invalid(
                    events_toml,
                    format!("event[{i}]"),
                    format!("`{id}` was already eliminated ({why})"),
                ));
            }
        }
        match &e.what {
            What::Eliminate { player } => {
                eliminated.insert(player.clone(), e.reason.clone());
            }
            What::DeathMatch { winner, loser } => {
                let name = config
                    .player(winner)
                    .map_or_else(|| winner.to_string(), |p| p.name.clone());
                eliminated.insert(loser.clone(), format!("lost the Death Match to {name}"));
            }
            _ => {}
        }
    }
    Ok(eliminated)
}

/// A match's starting balances are what the ledger gave when it was made (its `entry.toml`:
/// the events and the matches counted then).
fn check_entry(
    dir: &SeasonDir,
    config: &SeasonConfig,
    events: &[Event],
    matches: &[Match],
    m: &Match,
) -> Result<()> {
    let Some(entry) = &m.entry else {
        return Ok(());
    };
    let (season_toml, events_toml) = (dir.season_toml(), dir.events_toml());
    let game_toml = dir.matches().join(&m.folder).join("game.toml");
    let entry_toml = dir.matches().join(&m.folder).join(ENTRY);
    let counted: Vec<&Match> = entry
        .matches
        .iter()
        .map(|f| {
            matches.iter().find(|o| &o.folder == f).ok_or_else(|| {
                Error::invalid(
                    &entry_toml,
                    "matches",
                    format!("`{f}` is not a match of this season"),
                )
            })
        })
        .collect::<Result<_>>()?;
    if entry.events > events.len() {
        return Err(Error::invalid(
            &entry_toml,
            "events",
            format!(
                "is {} but {} holds {}",
                entry.events,
                events_toml.display(),
                events.len()
            ),
        ));
    }
    let expected = balances(config, &events[..entry.events], &counted);
    for (i, p) in m.players.iter().enumerate() {
        let (garnets, tokens) = expected.get(&p.id).copied().unwrap_or_default();
        for (key, has, wants) in [
            ("garnets", p.garnets, garnets),
            ("tokens_of_life", i64::from(p.tokens), tokens.max(0)),
        ] {
            if has != wants {
                return Err(Error::invalid(
                    &game_toml,
                    format!("players[{i}].{key}"),
                    format!(
                        "{} has {has} but the season's ledger ({}, {}, and the matches before it) gives {wants}; correct the season with `adjudicate season event`, not the match",
                        p.id,
                        season_toml.display(),
                        events_toml.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Every player's standing from the cast, `events` and `matches`.
fn standings(
    config: &SeasonConfig,
    events: &[Event],
    matches: &[&Match],
    eliminated: &BTreeMap<PlayerId, String>,
    events_toml: &Path,
) -> Result<Vec<Standing>> {
    let totals = balances(config, events, matches);
    let mut standings = Vec::new();
    for p in &config.cast {
        let (garnets, tokens) = totals.get(&p.id).copied().unwrap_or_default();
        if garnets < 0 {
            return Err(Error::invalid(
                events_toml,
                "event",
                format!(
                    "the garnet events leave {} with {garnets} garnets; a balance cannot go below 0",
                    p.id
                ),
            ));
        }
        if tokens < 0 {
            return Err(Error::invalid(
                events_toml,
                "event",
                format!(
                    "the token events leave {} with {tokens} Tokens of Life; they cannot go below 0",
                    p.id
                ),
            ));
        }
        let last = matches
            .iter()
            .rev()
            .find(|m| m.plays(&p.id) && !m.game.is_season_round())
            .map_or_else(|| "–".to_owned(), |m| result_in(m, &p.id));
        standings.push(Standing {
            id: p.id.clone(),
            name: p.name.clone(),
            garnets,
            tokens,
            eliminated: eliminated.get(&p.id).cloned(),
            last,
        });
    }
    Ok(standings)
}

/// "01-god-race: winner, +2 Tokens, +5 garnets", "02-room-swap: round 3".
fn result_in(m: &Match, id: &PlayerId) -> String {
    if !m.over {
        return format!("{}: {}", m.folder, m.status);
    }
    let mut parts = Vec::new();
    if m.ending.winners.contains(id) {
        parts.push("winner".to_owned());
    }
    if m.ending.elimination.contains(id) {
        parts.push("Elimination Candidate".to_owned());
    }
    if let Some(t) = m.ending.tokens.get(id).filter(|t| **t != 0) {
        parts.push(format!("{t:+} Token(s)"));
    }
    parts.push(format!(
        "{:+} garnets",
        m.garnets.get(id).copied().unwrap_or(0)
    ));
    format!("{}: {}", m.folder, parts.join(", "))
}

/// The match folders (`NN-<game>`, by number), each read through its archive.
fn load_matches(dir: &SeasonDir, config: &SeasonConfig, season_toml: &Path) -> Result<Vec<Match>> {
    let folder = dir.matches();
    let entries = match std::fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(folder, e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&folder, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(number) = match_number(&name) else {
            continue; // a temp folder of an interrupted `season match`, notes…
        };
        if entry.path().join("game.toml").is_file() {
            found.push((number, name));
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|(number, name)| read_match(dir, config, season_toml, number, name))
        .collect()
}

/// The number of a match folder's name: "03-planar-control" is 3.
pub fn match_number(name: &str) -> Option<u32> {
    let (digits, rest) = name.split_once('-')?;
    (digits.len() >= 2 && digits.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty())
        .then(|| digits.parse().ok())
        .flatten()
}

fn read_match(
    dir: &SeasonDir,
    config: &SeasonConfig,
    season_toml: &Path,
    number: u32,
    folder: String,
) -> Result<Match> {
    let path = dir.matches().join(&folder);
    let ctx = GameContext::load(GameDir::new(&path))?;
    for (i, p) in ctx.config.players.iter().enumerate() {
        if config.player(&p.id).is_none() {
            return Err(Error::invalid(
                ctx.dir.game_toml(),
                format!("players[{i}].id"),
                format!("`{}` is not in the cast of {}", p.id, season_toml.display()),
            ));
        }
    }
    let entry_path = path.join(ENTRY);
    let entry = crate::game_dir::read_optional(&entry_path)?
        .map(|text| crate::host_file::parse::<Entry>(&entry_path, &text))
        .transpose()?;
    let results = ResultFile::all(&ctx)?;
    // Each round's changes credit the person who held the seat then (`substitute`).
    let mut garnets: BTreeMap<PlayerId, i64> = BTreeMap::new();
    let mut uncredited = BTreeSet::new();
    for r in &results {
        for (seat, g) in &r.garnets {
            match holder(&ctx, config, seat, r.held()) {
                Some(id) => *garnets.entry(id).or_default() += g,
                None => {
                    uncredited.insert(format!(
                        "{folder}: seat {seat} was held by {}, who is not in the cast: their rounds credit nobody",
                        ctx.name_at(seat, r.held())
                    ));
                }
            }
        }
    }
    let newcomers = ctx
        .actions
        .iter()
        .filter(|a| a.kind == crate::host_record::Kind::Substitute)
        .filter_map(|a| holder(&ctx, config, a.player.as_ref()?, Some(a.index)))
        .collect();
    let left = ctx
        .actions
        .iter()
        .filter(|a| a.kind == crate::host_record::Kind::Withdraw)
        .filter_map(|a| {
            let seat = a.player.as_ref()?;
            let who = holder(&ctx, config, seat, Some(a.index))?;
            Some((who, a.reason.clone()))
        })
        .collect();
    let last = results.last();
    let over = last.is_some_and(|r| r.meta.next_round.is_none());
    let status = match last {
        None => "not started".to_owned(),
        Some(_) if over => "over".to_owned(),
        Some(r) => format!("round {}", r.meta.next_round.unwrap_or(r.meta.round)),
    };
    let publics: Vec<_> = results.iter().map(|r| r.public.to_table()).collect();
    let publics: Vec<&Table> = publics.iter().map(|p| p.as_ref()).collect();
    let ending = if over {
        let end = Some(u32::MAX);
        ctx.config
            .game
            .ending(&publics)
            .map_ids(|seat| holder(&ctx, config, seat, end).unwrap_or_else(|| seat.clone()))
    } else {
        Ending::default()
    };
    Ok(Match {
        folder,
        number,
        game: ctx.config.game,
        title: ctx.config.title.clone(),
        players: ctx
            .config
            .players
            .iter()
            .map(|p| Starting {
                id: p.id.clone(),
                garnets: p.garnets,
                tokens: p.tokens_of_life,
                email: p.email.clone(),
            })
            .collect(),
        over,
        status,
        garnets,
        ending,
        entry,
        left,
        uncredited: uncredited.into_iter().collect(),
        newcomers,
    })
}

/// The cast member who held `seat` when the round at `index` was resolved (`None`: at set-up):
/// the seat's own until it changed hands, then the cast member with the newcomer's address;
/// `None` for someone outside the cast.
fn holder(
    ctx: &GameContext,
    config: &SeasonConfig,
    seat: &PlayerId,
    index: Option<u32>,
) -> Option<PlayerId> {
    let (changed, person) = ctx.holder_at(seat, index);
    if changed == 0 {
        return Some(seat.clone());
    }
    let email = person?.email?;
    config
        .cast
        .iter()
        .find(|p| {
            p.email
                .as_deref()
                .is_some_and(|e| e.eq_ignore_ascii_case(&email))
        })
        .map(|p| p.id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_folders_are_numbered() {
        assert_eq!(match_number("03-planar-control"), Some(3));
        assert_eq!(match_number("12-god-race"), Some(12));
        assert_eq!(match_number("3-god-race"), None);
        assert_eq!(match_number(".03-god-race.tmp"), None);
        assert_eq!(match_number("notes"), None);
    }
}
