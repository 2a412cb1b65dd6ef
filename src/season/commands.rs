//! `adjudicate season new | match | event | status`.

use super::events::{Event, What};
use super::ledger::{self, Entry, Ledger};
use super::{ENTRY, SeasonDir};
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::game_dir::{GameDir, write_atomic};
use crate::games::season::{PastMatch, SoFar};
use crate::games::{Game, GameId, WithGame, dispatch};
use crate::player_id::PlayerId;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `season new SEASON --players FILE [--seed N]`: season.toml with the cast of FILE (`[[players]]` with id,
/// name, email, chat, garnets, as for `new --players`), `matches/`, and a .gitignore.
pub fn new(
    season: &Path,
    players: &Path,
    title: Option<&str>,
    seed: Option<u64>,
) -> Result<PathBuf> {
    if season.join("season.toml").exists() {
        return Err(Error::Usage(format!(
            "{} already holds a season.toml",
            season.display()
        )));
    }
    let title = title.map(str::to_owned).unwrap_or_else(|| {
        season
            .file_name()
            .map_or_else(|| "Season".into(), |n| n.to_string_lossy().into_owned())
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# A season: one cast across many matches (adjudicate season --help).\n\
         # Garnets here are the starting balances; the season's ledger adds every match and\n\
         # events.toml to them (`adjudicate season status`). Keep the seed secret.\n"
    );
    let head = SeasonHead {
        title: &title,
        seed: seed.unwrap_or_else(crate::new_game::random_seed),
    };
    out.push_str(&toml::to_string(&head).expect("season heads serialize"));
    out.push_str(
        "\n[mail]                   # copied into every match's game.toml\n\
         from = \"Season Host <host@example.org>\"\n\
         transport = \"file\"       # none | file | smtp | sendmail (see README, Mail)\n\n",
    );
    out.push_str(&crate::new_game::players_from_file(players)?);
    let path = season.join("season.toml");
    super::config::SeasonConfig::parse(&path, &out)?; // what we write must load
    write_atomic(&path, out.as_bytes())?;
    crate::game_dir::create_dir(&season.join("matches"))?;
    // each match's own ignores, and the temp folder of an interrupted `season match`
    let mut ignore = String::from("# written by `adjudicate season new`\n");
    for line in crate::new_game::gitignored() {
        let _ = writeln!(ignore, "matches/*/{line}");
    }
    ignore.push_str("matches/.*.tmp\n");
    write_atomic(&season.join(".gitignore"), ignore.as_bytes())?;
    Ok(path)
}

#[derive(Serialize)]
struct SeasonHead<'a> {
    title: &'a str,
    seed: u64,
}

/// A match's seed: drawn from the season's seed and the match number (so a season replays).
pub fn match_seed(season_seed: u64, number: u32) -> u64 {
    let digest = crate::submission::sha256_hex(
        format!("adjudicate season {season_seed} match {number}").as_bytes(),
    );
    u64::from_str_radix(&digest[..15], 16).expect("hex digits")
}

#[derive(Serialize)]
struct MatchToml<'a> {
    game: &'a str,
    title: &'a str,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    mail: Option<&'a toml::Table>,
    #[serde(skip_serializing_if = "toml::Table::is_empty")]
    options: &'a toml::Table,
    players: Vec<MatchPlayer<'a>>,
}

#[derive(Serialize)]
struct MatchPlayer<'a> {
    id: &'a PlayerId,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chat: Option<&'a str>,
    garnets: i64,
    #[serde(skip_serializing_if = "is_zero")]
    tokens_of_life: i64,
    /// The person's time zone, from the cast.
    #[serde(skip_serializing_if = "Option::is_none")]
    tz: Option<&'a str>,
    /// The game's own set-up keys from the season (God Race's `meadow`).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    keys: Option<&'a toml::Table>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// Checks a match's game.toml the way its first tick would (the engine's set-up: player counts,
/// options), without writing anything.
struct SetupCheck<'a> {
    ctx: &'a GameContext,
}

impl WithGame for SetupCheck<'_> {
    type Output = Result<()>;
    fn run<G: Game>(self) -> Result<()> {
        crate::tick::setup::<G>(self.ctx).map(|_| ())
    }
}

/// `season match SEASON GAME_ID`: the next match's game directory, `matches/NN-<game>/`, with the
/// living cast (or `players`, who must be living), their balances and Tokens from the ledger,
/// the season's mail settings, what the game takes from the season (`Game::season_match`: the
/// Death Match pick's candidates, a God Race's meadows) and a seed drawn from the season's.
/// Built in a temp folder and renamed into place: a killed run leaves no match or a whole one.
pub fn start_match(
    season: &SeasonDir,
    game: &str,
    title: Option<&str>,
    players: Option<&[PlayerId]>,
    options: &toml::Table,
) -> Result<(PathBuf, Ledger)> {
    let id = GameId::parse(game).ok_or_else(|| {
        Error::Usage(format!(
            "unknown game `{game}`; one of {}",
            GameId::all_names().join(", ")
        ))
    })?;
    let ledger = ledger::compute(season)?;
    let chosen = chosen_cast(&ledger, players)?;
    let from_season = id
        .season_match(&so_far(&ledger, &chosen), options)
        .map_err(Error::Usage)?;
    let mut options = options.clone();
    options.extend(from_season.options);
    let number = ledger.matches.iter().map(|m| m.number).max().unwrap_or(0) + 1;
    let folder = format!("{number:02}-{}", id.name());
    let title = title.map_or_else(
        || match from_season.title {
            Some(what) => format!("{}: {what}", ledger.config.title),
            None => format!("{}: Match {number}", ledger.config.title),
        },
        str::to_owned,
    );
    let text = match_toml(
        &ledger,
        id,
        number,
        &title,
        &options,
        &chosen,
        &from_season.player_keys,
    );
    let entry = Entry {
        events: ledger.events.len(),
        matches: ledger
            .matches
            .iter()
            .filter(|m| m.over)
            .map(|m| m.folder.clone())
            .collect(),
    };
    let explain = |e: Error| {
        let (key, why) = match &e {
            Error::Invalid { at, message, .. } => (at.clone(), message.clone()),
            other => (String::new(), other.to_string()),
        };
        let hint = if key == "players" && players.is_none() {
            format!(
                " (the living cast is {}; choose with --players)",
                chosen.len()
            )
        } else if key.starts_with("options") {
            " (set it with --option 'KEY = VALUE')".to_owned()
        } else {
            String::new()
        };
        Error::Usage(format!(
            "{} cannot start with this cast: {key}: {why}{hint}",
            id.name()
        ))
    };
    let target = build_match(season, &folder, &text, &entry, id).map_err(|e| match e {
        Built::SetUp(e) => explain(e),
        Built::Other(e) => e,
    })?;
    Ok((target, ledger))
}

/// The match's players: the living cast, or those the host named, who must be living.
fn chosen_cast<'a>(
    ledger: &'a Ledger,
    players: Option<&[PlayerId]>,
) -> Result<Vec<&'a ledger::Standing>> {
    let Some(ids) = players else {
        return Ok(ledger.living());
    };
    ids.iter()
        .map(|p| match ledger.standing(p) {
            None => Err(Error::Usage(format!("`{p}` is not in the season's cast"))),
            Some(s) if s.eliminated.is_some() => Err(Error::Usage(format!(
                "`{p}` is eliminated ({})",
                s.eliminated.as_deref().unwrap_or_default()
            ))),
            Some(s) => Ok(s),
        })
        .collect()
}

/// The season so far as a game sees it (`Game::season_match`).
fn so_far<'a>(ledger: &'a Ledger, chosen: &[&'a ledger::Standing]) -> SoFar<'a> {
    SoFar {
        matches: ledger
            .matches
            .iter()
            .map(|m| PastMatch {
                folder: &m.folder,
                number: m.number,
                game: m.game,
                over: m.over,
                ending: &m.ending,
            })
            .collect(),
        living: ledger.living().iter().map(|s| (&s.id, s.tokens)).collect(),
        cast: chosen.iter().map(|s| &s.id).collect(),
    }
}

/// The match's game.toml.
fn match_toml(
    ledger: &Ledger,
    id: GameId,
    number: u32,
    title: &str,
    options: &toml::Table,
    chosen: &[&ledger::Standing],
    keys: &BTreeMap<PlayerId, toml::Table>,
) -> String {
    let players = chosen
        .iter()
        .map(|s| {
            let p = ledger
                .config
                .player(&s.id)
                .expect("standings are of the cast");
            MatchPlayer {
                id: &s.id,
                name: &p.name,
                email: p.email.as_deref(),
                chat: p.chat.as_deref(),
                garnets: s.garnets,
                tokens_of_life: s.tokens,
                tz: p.tz.as_ref().and_then(|z| z.iana_name()),
                keys: keys.get(&s.id),
            }
        })
        .collect();
    let mut text = format!(
        "# Match {number} of {}, written by `adjudicate season match`: the cast still in the\n\
         # season, with the garnets and Tokens of Life of the season's ledger. Edit [schedule] and\n\
         # [options] before the first tick; never the balances (correct them with\n\
         # `adjudicate season event`).\n",
        ledger.config.title
    );
    text.push_str(
        &toml::to_string(&MatchToml {
            game: id.name(),
            title,
            seed: match_seed(ledger.config.seed, number),
            mail: ledger.config.mail_table.as_ref(),
            options,
            players,
        })
        .expect("game.toml serializes"),
    );
    text
}

/// Why a match could not be built: its set-up refused it, or anything else.
enum Built {
    SetUp(Error),
    Other(Error),
}

/// Writes the match into `matches/.<folder>.tmp`, checks that its game sets up, and renames it
/// into place; a failure leaves nothing behind.
fn build_match(
    season: &SeasonDir,
    folder: &str,
    game_toml: &str,
    entry: &Entry,
    id: GameId,
) -> std::result::Result<PathBuf, Built> {
    let matches = season.matches();
    crate::game_dir::create_dir(&matches).map_err(Built::Other)?;
    let tmp = matches.join(format!(".{folder}.tmp"));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| Built::Other(Error::io(&tmp, e)))?;
    }
    let built = (|| {
        crate::game_dir::create_dir(&tmp).map_err(Built::Other)?;
        write_atomic(&tmp.join("game.toml"), game_toml.as_bytes()).map_err(Built::Other)?;
        write_atomic(
            &tmp.join(ENTRY),
            format!(
                "# How `adjudicate season match` computed this match's balances; do not edit.\n{}",
                toml::to_string(entry).expect("entries serialize")
            )
            .as_bytes(),
        )
        .map_err(Built::Other)?;
        let ctx = GameContext::load(GameDir::new(&tmp)).map_err(Built::Other)?;
        dispatch(id, SetupCheck { ctx: &ctx }).map_err(Built::SetUp)
    })();
    if let Err(e) = built {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let target = matches.join(folder);
    std::fs::rename(&tmp, &target).map_err(|e| Built::Other(Error::io(&target, e)))?;
    Ok(target)
}

/// The `--option KEY=VALUE` lines of `season match` as the match's [options] table.
pub fn options_of(lines: &[String]) -> Result<toml::Table> {
    let mut options = toml::Table::new();
    for line in lines {
        let table: toml::Table = toml::from_str(line).map_err(|e| {
            Error::Usage(format!(
                "--option {line}: not `KEY = VALUE` in TOML ({})",
                e.message()
            ))
        })?;
        options.extend(table);
    }
    Ok(options)
}

/// `season event`: appends an event to events.toml, after checking the season with it (the
/// players are of the cast and not eliminated; balances stay at 0 or more).
pub fn add_event(season: &SeasonDir, event: Event) -> Result<Ledger> {
    let path = season.events_toml();
    let mut events = super::events::load(&path)?;
    events.push(event);
    let ledger = ledger::compute_with(season, events)?;
    write_atomic(&path, super::events::to_toml(&ledger.events).as_bytes())?;
    Ok(ledger)
}

/// `season status`: the standings table, the matches, the events.
pub fn status(ledger: &Ledger) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", ledger.config.title);
    let width = ledger
        .standings
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "  {:<width$}  {:>7}  {:>6}  {:<10}  last match",
        "player", "garnets", "tokens", "status"
    );
    for s in &ledger.standings {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>7}  {:>6}  {:<10}  {}",
            s.name,
            s.garnets,
            s.tokens,
            if s.eliminated.is_some() {
                "eliminated"
            } else {
                "in"
            },
            s.last
        );
    }
    for m in &ledger.matches {
        for (id, why) in &m.left {
            let name = ledger.standing(id).map_or(id.as_str(), |s| s.name.as_str());
            let _ = writeln!(out, "{name} left the season in {}: {why}", m.folder);
        }
    }
    if ledger.matches.is_empty() {
        let _ = writeln!(out, "No match yet: adjudicate season match SEASON GAME_ID");
    } else {
        let _ = writeln!(out, "Matches:");
        for m in &ledger.matches {
            let _ = writeln!(
                out,
                "  {}  {} ({}, {} players): {}",
                m.folder,
                m.title,
                m.game.name(),
                m.players.len(),
                m.status
            );
        }
    }
    if !ledger.events.is_empty() {
        let _ = writeln!(out, "Events:");
        for e in &ledger.events {
            let _ = writeln!(out, "  {}", e.describe());
        }
    }
    for note in &ledger.notes {
        let _ = writeln!(out, "Note: {note}");
    }
    out
}

/// The event a `season event` command line describes.
pub fn event_of(
    kind: &str,
    player: Option<PlayerId>,
    winner: Option<PlayerId>,
    loser: Option<PlayerId>,
    change: Option<i64>,
    reason: String,
    at: jiff::Timestamp,
) -> Result<Event> {
    let need = |p: Option<PlayerId>, what: &str| {
        p.ok_or_else(|| Error::Usage(format!("`season event {kind}` needs {what}")))
    };
    let change = || match change {
        Some(c) if c != 0 => Ok(c),
        _ => Err(Error::Usage(format!(
            "`season event {kind}` needs --change N (N other than 0, e.g. 1 or -1)"
        ))),
    };
    let what = match kind {
        "eliminate" => What::Eliminate {
            player: need(player, "the player's id")?,
        },
        "death-match" => What::DeathMatch {
            winner: need(winner, "--winner ID")?,
            loser: need(loser, "--loser ID")?,
        },
        "tokens" => What::Tokens {
            player: need(player, "the player's id")?,
            change: change()?,
        },
        "garnets" => What::Garnets {
            player: need(player, "the player's id")?,
            change: change()?,
        },
        other => {
            return Err(Error::Usage(format!(
                "`{other}` is not an event; one of {}",
                super::events::KINDS.join(", ")
            )));
        }
    };
    if reason.trim().is_empty() {
        return Err(Error::Usage("say why with --reason".into()));
    }
    Ok(Event { at, what, reason })
}
