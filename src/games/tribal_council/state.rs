//! Tribal Council's state.toml (spec tribal-council.md): who attends and what each holds (immunity,
//! idols, extra votes, whether they vote, their earlier votes), where the council is (the first
//! vote, a revote among the tied, a fresh vote, over), and the live choices of the vote being
//! taken.

use crate::games::Seats;
use crate::games::{Setup, SetupError};
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Each player votes to send another home.
    #[default]
    Elimination,
    /// The jurors vote for the finalist who should win.
    Jury,
}

/// How a tie is settled (spec, "Resolution" 3–4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tie {
    #[default]
    RevoteRocks,
    RevoteCountback,
    Rocks,
    Countback,
}

impl Tie {
    pub fn revotes(self) -> bool {
        matches!(self, Tie::RevoteRocks | Tie::RevoteCountback)
    }
    pub fn countback(self) -> bool {
        matches!(self, Tie::RevoteCountback | Tie::Countback)
    }
}

/// What a player who sends no valid vote does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Missing {
    /// Votes for themselves (the usual ORG rule).
    #[default]
    #[serde(rename = "self")]
    OwnName,
    /// Casts no vote.
    None,
}

/// What the announcement reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reveal {
    /// Each counted vote's name, one by one.
    #[default]
    Counts,
    /// Also who cast each vote.
    Ballots,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    pub mode: Mode,
    pub tie: Tie,
    pub missing_vote: Missing,
    pub reveal: Reveal,
    /// Jury mode: the finalists by id (or `finalist = true` on each; `season match … --option`
    /// can only say it here).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub finalists: Vec<String>,
}

/// Which vote the council is taking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The first vote: idols and extra votes may be played.
    First,
    /// A revote after a tie: only the tied can receive votes, and they do not vote.
    Revote,
    /// A first vote again, after a vote in which no vote counted: no idols.
    Fresh,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The council's vote: 1, then 2 (and 3) for the votes that follow a tie.
    pub round: u32,
    pub rounds_played: u32,
    pub options: Options,
    pub stage: Stage,
    /// The tied players a revote chooses among.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tied: Vec<PlayerId>,
    /// Counted votes each player received at the first vote (for countback).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub first_votes: BTreeMap<PlayerId, u32>,
    /// Who went home (elimination) or won (jury), once decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided: Option<PlayerId>,
    pub players: Seats<PlayerState>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayerState {
    /// Individual immunity: cannot receive votes.
    pub immune: bool,
    /// Protected by an idol played at this council.
    pub protected: bool,
    pub idols: u32,
    pub extra_votes: u32,
    pub can_vote: bool,
    pub votes_before: u32,
    pub finalist: bool,
    /// Left the council (`adjudicate withdraw`): no vote, cannot receive one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
    #[serde(skip_serializing_if = "Live::is_empty")]
    pub live: Live,
}

/// The latest valid version's choices for the vote being taken.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Live {
    pub valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vote: Option<PlayerId>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub idol: Vec<PlayerId>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra_vote: Vec<PlayerId>,
}

impl Live {
    pub fn is_empty(&self) -> bool {
        *self == Live::default()
    }
}

/// The most of anything a game.toml player may hold (idols, extra votes, earlier votes).
const MAX_HELD: i64 = 1000;

/// The council as game.toml sets it up.
pub fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
    let options: Options = crate::games::options(
        setup,
        "Tribal Council options: mode, tie, missing_vote, reveal, finalists",
    )?;
    let mut players = BTreeMap::new();
    for (i, seat) in setup.players.iter().enumerate() {
        players.insert(seat.id.clone(), player(i, seat.extra)?);
    }
    for (i, text) in options.finalists.iter().enumerate() {
        let finalist = PlayerId::parse(text)
            .and_then(|id| players.get_mut(&id))
            .ok_or_else(|| SetupError {
                key: format!("options.finalists[{i}]"),
                message: format!("`{text}` is not a player of this council"),
            })?;
        finalist.finalist = true;
    }
    let state = State {
        round: 1,
        rounds_played: 0,
        options,
        stage: Stage::First,
        tied: Vec::new(),
        first_votes: BTreeMap::new(),
        decided: None,
        players: players.into(),
    };
    check(&state)?;
    Ok(state)
}

/// One player's keys (`immune`, `idols`, …), each of the right type and range.
fn player(i: usize, extra: &crate::games::Extra) -> Result<PlayerState, SetupError> {
    const KEYS: &[&str] = &[
        "immune",
        "idols",
        "extra_votes",
        "can_vote",
        "votes_before",
        "finalist",
    ];
    let bad = |key: &str, message: String| SetupError {
        key: format!("players[{i}].{key}"),
        message,
    };
    if let Some(key) = extra.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(bad(
            key,
            format!(
                "unknown key; a Tribal Council player has id, name, email, chat, {}",
                KEYS.join(", ")
            ),
        ));
    }
    let flag = |key: &str, default: bool| match extra.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad(key, "must be true or false".into())),
    };
    let count = |key: &str| match extra.get(key) {
        None => Ok(0),
        Some(v) => v
            .as_integer()
            .filter(|n| (0..=MAX_HELD).contains(n))
            .map(|n| n as u32)
            .ok_or_else(|| bad(key, format!("must be a whole number from 0 to {MAX_HELD}"))),
    };
    Ok(PlayerState {
        immune: flag("immune", false)?,
        idols: count("idols")?,
        extra_votes: count("extra_votes")?,
        can_vote: flag("can_vote", true)?,
        votes_before: count("votes_before")?,
        finalist: flag("finalist", false)?,
        ..PlayerState::default()
    })
}

/// What the rules need of any state, set up or edited: a council of at least three, someone
/// who can receive a vote; in jury mode finalists and jurors, and nothing of the elimination.
pub fn check(state: &State) -> Result<(), SetupError> {
    let err = |key: &str, message: &str| {
        Err(SetupError {
            key: key.into(),
            message: message.into(),
        })
    };
    if state.players.len() < 3 {
        return err(
            "players",
            "a council needs at least three players (with two, nobody can be outvoted)",
        );
    }
    match state.options.mode {
        Mode::Elimination => {
            if state.players.values().any(|p| p.finalist) {
                return err("players", "finalist is for mode = \"jury\"");
            }
            if state.players.values().all(|p| p.immune) {
                return err(
                    "players",
                    "every player is immune: nobody can receive a vote",
                );
            }
        }
        Mode::Jury => {
            let finalists = state.players.values().filter(|p| p.finalist).count();
            if finalists < 2 {
                return err("players", "a jury vote needs at least two finalists");
            }
            if finalists == state.players.len() {
                return err("players", "a jury vote needs jurors (finalist = false)");
            }
            if state
                .players
                .values()
                .any(|p| p.immune || p.idols > 0 || p.extra_votes > 0)
            {
                return err(
                    "players",
                    "immunity, idols and extra votes do not exist in a jury vote",
                );
            }
        }
    }
    Ok(())
}

impl State {
    /// Who can receive a vote in the vote being taken.
    pub fn candidates(&self) -> Vec<PlayerId> {
        let stays = |p: &PlayerState| !p.left;
        match (self.options.mode, self.stage) {
            (_, Stage::Over) => Vec::new(),
            (Mode::Jury, _) => self.ids(|p| p.finalist && stays(p)),
            (Mode::Elimination, Stage::Revote) => self.tied.clone(),
            (Mode::Elimination, Stage::First) => self.ids(|p| !p.immune && stays(p)),
            (Mode::Elimination, Stage::Fresh) => {
                self.ids(|p| !p.immune && !p.protected && stays(p))
            }
        }
    }

    /// Who votes in the vote being taken.
    pub fn voters(&self) -> Vec<PlayerId> {
        match (self.options.mode, self.stage) {
            (_, Stage::Over) => Vec::new(),
            (Mode::Jury, _) => self.ids(|p| !p.finalist && p.can_vote && !p.left),
            (Mode::Elimination, Stage::Revote) => {
                let mut v = self.ids(|p| p.can_vote && !p.left);
                v.retain(|id| !self.tied.contains(id));
                v
            }
            (Mode::Elimination, _) => self.ids(|p| p.can_vote && !p.left),
        }
    }

    /// Whether idols and extra votes may be played now (the first vote of an elimination).
    pub fn advantages(&self) -> bool {
        self.options.mode == Mode::Elimination && self.stage == Stage::First
    }

    fn ids(&self, keep: impl Fn(&PlayerState) -> bool) -> Vec<PlayerId> {
        self.players
            .iter()
            .filter(|(_, p)| keep(p))
            .map(|(id, _)| id.clone())
            .collect()
    }
}
