//! The rules, one module per game behind one trait. Engines are pure: no file system, clock, mail or
//! global RNG; everything comes in as arguments (state, the parsed submission, the seed) so that rule
//! cases drive them as data and the round lifecycle (`crate::round`) is written once for all games.
//!
//! Adding a game: a module here, one arm in `GameId`, one arm in `crate::app::dispatch`.

pub mod death_match_pick;
pub mod final_ritual;
pub mod god_race;
pub mod meadow_assignment;
pub mod planar_control;
pub mod room_swap;

use crate::config::PlayerConfig;
use crate::doc::Doc;
use crate::player_id::PlayerId;
use crate::problem::Problem;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// The game ids of the spec. Only the games with an engine can be played; the others are known so
/// that a game.toml naming them gets a clear message rather than "unknown game".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameId {
    RoomSwap,
    GodRace,
    PlanarControl,
    FinalRitual,
    /// Not a match: the season round in which Elimination Candidates pick their Death Match
    /// opponents.
    DeathMatchPick,
    /// Not a match: the season round in which a God Race's winners assign the next one's
    /// meadows.
    MeadowAssignment,
}

impl GameId {
    pub const ALL: [GameId; 6] = [
        GameId::GodRace,
        GameId::RoomSwap,
        GameId::PlanarControl,
        GameId::FinalRitual,
        GameId::DeathMatchPick,
        GameId::MeadowAssignment,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameId::RoomSwap => "room-swap",
            GameId::GodRace => "god-race",
            GameId::PlanarControl => "planar-control",
            GameId::FinalRitual => "final-ritual",
            GameId::DeathMatchPick => "death-match-pick",
            GameId::MeadowAssignment => "meadow-assignment",
        }
    }

    pub fn parse(text: &str) -> Option<GameId> {
        Self::ALL.into_iter().find(|g| g.name() == text)
    }

    /// A round between a season's matches (the Death Match pick, the meadow assignment), not a
    /// match: it has no winners, garnets or Tokens, and no season report of its own.
    pub fn is_season_round(self) -> bool {
        matches!(self, GameId::DeathMatchPick | GameId::MeadowAssignment)
    }

    pub fn all_names() -> Vec<&'static str> {
        Self::ALL.iter().map(|g| g.name()).collect()
    }
}

/// What the engine is told at set-up: the players of game.toml and its `[options]`.
pub struct Setup<'a> {
    pub players: &'a [PlayerConfig],
    pub options: &'a toml::Table,
    pub seed: u64,
}

/// A set-up problem in game.toml: the key (`options.rounds`, `players`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    pub key: String,
    pub message: String,
}

/// Problems listed per version; more are counted, not listed.
pub const MAX_PROBLEMS: usize = 20;
/// Characters of one problem, answer or understood line.
pub const MAX_TEXT: usize = 240;

/// What receiving one version of a submission did. Private to the sender, except `notices`, which
/// go to the named players (and say nothing about who caused them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The version's main choice is valid (it counts if nothing newer replaces it).
    pub valid: bool,
    pub problems: Vec<Problem>,
    /// What was understood, in words ("room: Attic").
    pub understood: Vec<String>,
    /// Immediate answers to the sender (a Peek's answer).
    pub answers: Vec<String>,
    pub notices: Vec<Notice>,
    /// What happens at the deadline if nothing valid arrives.
    pub if_not_fixed: Option<String>,
    /// Whether the sender plays this round (set by `round::finish`): only then does the
    /// acknowledgement invite new versions.
    pub plays: bool,
}

impl Outcome {
    /// A version refused before the engine could read it (bad file, bad token, not UTF-8…).
    pub fn refused(problem: Problem) -> Outcome {
        Outcome {
            valid: false,
            problems: vec![problem],
            ..Outcome::default()
        }
    }

    /// Every text of the outcome a player or the archive will read.
    fn texts_mut(&mut self) -> impl Iterator<Item = &mut String> {
        self.problems
            .iter_mut()
            .map(|p| &mut p.message)
            .chain(self.understood.iter_mut())
            .chain(self.answers.iter_mut())
            .chain(self.notices.iter_mut().map(|n| &mut n.text))
            .chain(self.if_not_fixed.iter_mut())
    }

    /// Sorts the problems into line order (those about the whole file last) and keeps an
    /// acknowledgement and a receipt small whatever the file holds: at most `MAX_PROBLEMS`
    /// problems, then one line saying how many more; every text cut at `MAX_TEXT` characters (a
    /// quoted value can be a whole file); no problem spans two lines.
    pub fn bound(&mut self) {
        self.problems
            .sort_by_key(|p| (p.line.unwrap_or(usize::MAX), p.col.unwrap_or(0)));
        let more = self.problems.len().saturating_sub(MAX_PROBLEMS);
        if more > 0 {
            self.problems.truncate(MAX_PROBLEMS);
            self.problems.push(Problem::general(format!(
                "… and {more} more problem(s) like these; fix the ones above and send the file again"
            )));
        }
        // One problem, one line (`check` prints `file:line:col: message`; a receipt lists them):
        // a line break in a quoted value is shown as `\n`.
        for problem in &mut self.problems {
            if problem.message.contains(['\n', '\r']) {
                problem.message = problem.message.replace('\r', "\\r").replace('\n', "\\n");
            }
        }
        for text in self.texts_mut() {
            if let Some((cut, _)) = text.char_indices().nth(MAX_TEXT) {
                text.truncate(cut);
                text.push('…');
            }
        }
    }

    /// Blanks out any token the texts quote back (a value written with escapes reaches the rules
    /// unredacted: `"\u0061bc"` is `"abc"`).
    pub fn redact(&mut self, redactor: &crate::redact::Redactor) {
        for text in self.texts_mut() {
            if redactor.finds(text) {
                *text = redactor.redact(text).into_owned();
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub to: PlayerId,
    pub text: String,
}

/// A resolved round: the next state and what the rules announce (see `RoundResult`).
#[derive(Debug, Clone)]
pub struct Resolution<S> {
    pub state: S,
    pub result: RoundResult,
}

/// The content of `result.toml`: `[public]` is what the rules announce to all, `[private.<id>]` what
/// that player alone learns, `[garnets]` each player's change this round. Reports are rendered from
/// this alone, so a fact that is not in `private.<id>` cannot reach player `id`'s report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct RoundResult {
    pub public: toml::Table,
    #[serde(default)]
    pub private: BTreeMap<PlayerId, toml::Table>,
    #[serde(default)]
    pub garnets: BTreeMap<PlayerId, i64>,
}

impl RoundResult {
    /// A result that changes nobody's garnets (an opening, a game without garnets): `[garnets]`
    /// holds 0 for every player with a private part.
    pub(crate) fn without_garnets<P: Serialize>(
        public: &P,
        private: BTreeMap<PlayerId, toml::Table>,
    ) -> RoundResult {
        let garnets = private.keys().map(|id| (id.clone(), 0)).collect();
        RoundResult {
            public: to_table(public),
            private,
            garnets,
        }
    }
}

/// The game's `[options]` from game.toml; an error lists the options the game has (`known`).
pub(crate) fn options<T: DeserializeOwned>(
    setup: &Setup<'_>,
    known: &str,
) -> Result<T, SetupError> {
    T::deserialize(toml::Value::Table(setup.options.clone())).map_err(|e| SetupError {
        key: "options".into(),
        message: format!("{} ({known})", e.message()),
    })
}

/// Every player's `key` from game.toml, if all have it; an error if only some do.
pub(crate) fn given<C: crate::doc::Choice>(
    setup: &Setup<'_>,
    key: &str,
) -> Result<Option<Vec<C>>, SetupError> {
    let values: Vec<Option<&toml::Value>> =
        setup.players.iter().map(|p| p.extra.get(key)).collect();
    if values.iter().all(Option::is_none) {
        return Ok(None);
    }
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.and_then(|v| v.as_str())
                .and_then(C::parse)
                .ok_or_else(|| SetupError {
                    key: format!("players[{i}].{key}"),
                    message: format!(
                        "every player needs `{key}` once one has it: one of {}",
                        C::all_names().join(", ")
                    ),
                })
        })
        .collect::<Result<Vec<C>, _>>()
        .map(Some)
}

/// Refuses game.toml player keys a game does not have (`game` names it: "a Room Swap player").
pub(crate) fn no_game_keys(setup: &Setup<'_>, game: &str) -> Result<(), SetupError> {
    match setup
        .players
        .iter()
        .enumerate()
        .find_map(|(i, p)| p.extra.keys().next().map(|k| (i, k)))
    {
        Some((i, key)) => Err(SetupError {
            key: format!("players[{i}].{key}"),
            message: format!(
                "unknown key; {game} has id, name, email, chat, garnets, tokens_of_life"
            ),
        }),
        None => Ok(()),
    }
}

/// The largest garnet balance game.toml or state.toml may hold: far above any real game, and far
/// enough below `i64::MAX` that no sum of a round's gains and costs can overflow.
pub const MAX_GARNETS: i64 = 1_000_000_000;

/// A balance read from a host file: `Err` says what is wrong with it.
pub fn check_garnets(garnets: i64) -> Result<(), String> {
    if (0..=MAX_GARNETS).contains(&garnets) {
        Ok(())
    } else {
        Err(format!(
            "is {garnets}; a balance is from 0 to {MAX_GARNETS}"
        ))
    }
}

/// Checks every player's balance in a state (`players.<id>.garnets`).
pub(crate) fn check_balances<V>(
    players: &BTreeMap<PlayerId, V>,
    garnets: impl Fn(&V) -> i64,
) -> Result<(), SetupError> {
    for (id, p) in players {
        check_garnets(garnets(p)).map_err(|message| SetupError {
            key: format!("players.{id}.garnets"),
            message,
        })?;
    }
    Ok(())
}

/// Checks that every id a state refers to (`key` names where) is a player of the game.
pub(crate) fn check_refs<'a, V>(
    players: &BTreeMap<PlayerId, V>,
    key: &str,
    ids: impl IntoIterator<Item = &'a PlayerId>,
) -> Result<(), SetupError> {
    match ids.into_iter().find(|id| !players.contains_key(*id)) {
        Some(id) => Err(SetupError {
            key: key.to_owned(),
            message: format!("`{id}` is not a player of this game"),
        }),
        None => Ok(()),
    }
}

/// A result struct as the table it becomes in result.toml.
pub(crate) fn to_table<T: Serialize>(value: &T) -> toml::Table {
    toml::Table::try_from(value).expect("result structs serialize to tables")
}

/// The rules of one game.
pub trait Game {
    const ID: GameId;
    /// Every top-level key and table a submission of this game may hold, in any round: how
    /// `ingest` tells a submission from prose around it.
    const KEYS: &'static [&'static str];
    /// Everything the rules need between ticks, hidden information included (state.toml).
    type State: Serialize + DeserializeOwned + Clone + PartialEq + Debug;

    fn setup(setup: &Setup<'_>) -> Result<Self::State, SetupError>;

    /// Checks a state that a host may have edited by hand (balances in range, every id it refers
    /// to a player, cards or orbs conserved); the error names the key. Whatever passes here, the
    /// rules must not panic on. The tick checks separately that `roster` is game.toml's players.
    fn check_state(state: &Self::State) -> Result<(), SetupError> {
        let _ = state;
        Ok(())
    }

    /// Every player of the game, eliminated ones included, in id order.
    fn roster(state: &Self::State) -> Vec<&PlayerId>;

    /// The game's own number of the round being played now.
    fn round(state: &Self::State) -> u32;

    /// How many rounds have been resolved so far (indexes the schedule's deadlines).
    fn rounds_played(state: &Self::State) -> u32;

    fn is_over(state: &Self::State) -> bool;

    /// The players expected to submit this round.
    fn expected(state: &Self::State) -> Vec<PlayerId>;

    /// Whether `player` is expected to submit this round (cheap: called once per version).
    fn plays(state: &Self::State, player: &PlayerId) -> bool {
        Self::expected(state).contains(player)
    }

    /// Whether `player` has a choice on file that will be used as is.
    fn has_valid(state: &Self::State, player: &PlayerId) -> bool;

    /// Whether a valid version keeps `has_valid` true until the round resolves: no other
    /// player's action can take the choice away. Then state.toml can be checked against the
    /// receipts it applied (`round::check_applied`). Room Swap's Block can forbid a chosen room.
    const VALID_STAYS: bool = true;

    /// What will happen to `player` at the deadline if nothing valid arrives (a sentence fragment
    /// for acknowledgements: "a random room among attic, cellar will be used for you").
    fn if_not_fixed(state: &Self::State, player: &PlayerId) -> String;

    /// Validates one version of a player's submission and applies it to the live state, instant
    /// actions included. Must never panic, whatever the document holds.
    fn receive(state: &mut Self::State, player: &PlayerId, doc: &Doc) -> Outcome;

    /// An announcement and private reports made when the game is set up (Planar Control tells each
    /// player their alignment), written as round 0's result; `None` for games that open with a
    /// round of their own.
    fn opening(state: &Self::State) -> Option<RoundResult> {
        let _ = state;
        None
    }

    /// What of `[public]` a private report's template sees. Every private report is rendered with
    /// it, so a game whose announcement grows with the number of players keeps here only what
    /// the private template needs (rendering stays linear in players).
    fn private_view(public: &toml::Table) -> toml::Table {
        public.clone()
    }

    /// Resolves the current round. `seed` is the game's seed; draws use `crate::rng::stream`.
    fn resolve(state: &Self::State, seed: u64) -> Resolution<Self::State>;
}
