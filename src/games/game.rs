//! What every game is to the rest of the program: the `Game` trait, what set-up is told, what
//! receiving a version and resolving a round give back, and the checks engines share.

use super::GameId;
use super::PrivatePart;
use super::Public;
use super::ending::Ending;
use super::picture::{Chart, Names};
use super::season::{FromSeason, SoFar};
use super::seats::Seats;
use crate::doc::Doc;
use crate::player_id::PlayerId;
use crate::problem::Problem;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// What the engine is told at set-up: the players of game.toml and its `[options]`.
pub struct Setup<'a> {
    pub players: Vec<Seat<'a>>,
    pub options: &'a toml::Table,
    pub seed: u64,
}

/// One player as the rules see them at set-up: the id, the balances carried in, and the game's
/// own keys (God Race's `meadow`). Names and addresses are not the rules' business.
#[derive(Debug, Clone, Copy)]
pub struct Seat<'a> {
    pub id: &'a PlayerId,
    pub garnets: i64,
    pub tokens_of_life: u32,
    pub extra: &'a super::Extra,
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
    /// Whether the sender plays this round (set by `tick::finish`): only then does the
    /// acknowledgement invite new versions.
    pub plays: bool,
    /// Whether `understood` is put into words (`understand`).
    detail: Detail,
}

impl Outcome {
    /// An empty outcome; with `Detail::State` nothing will be put into `understood` (a
    /// simulator's bots never read an acknowledgement).
    pub fn new(detail: Detail) -> Outcome {
        Outcome {
            detail,
            ..Outcome::default()
        }
    }

    /// Adds what was understood, in words, when words are wanted: `words` is only called then.
    pub fn understand(&mut self, words: impl FnOnce() -> String) {
        if self.detail.reports() {
            self.understood.push(words());
        }
    }

    /// Says what the deadline does if nothing valid arrives, when words are wanted: `words` is
    /// only called then.
    pub fn if_not_fixed_in(&mut self, words: impl FnOnce() -> String) {
        if self.detail.reports() {
            self.if_not_fixed = Some(words());
        }
    }

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

/// What a resolution builds besides the next state, and what receiving a version builds
/// besides the live state and the problems (`Game::receive_with`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// The whole of result.toml: the tick, `replay`, the rule cases; an acknowledgement's words
    /// of what was understood.
    #[default]
    Everything,
    /// The next state alone (`[public]` and `[private]` left empty; a game may leave
    /// `[garnets]` empty too, since the balances are in the state): the simulator, whose bots
    /// learn from their own player's part of the state and, where a game's bots learn from
    /// announcements, from the typed announcement itself (`Simulated::Heard`). Every report a
    /// game writes is built from the same rules' run, so leaving them out changes nothing else.
    /// Received versions are checked alike and reach the state alike, without the words of an
    /// acknowledgement (`understood`, `if_not_fixed`).
    State,
}

impl Detail {
    /// Whether the announcement and the private reports are built.
    pub fn reports(self) -> bool {
        self == Detail::Everything
    }

    /// `[public]` of a result: the announcement's table if reports are built, else empty.
    pub(crate) fn public<P: Serialize>(self, announcement: &P) -> Public {
        if self.reports() {
            to_table(announcement).into()
        } else {
            Public::default()
        }
    }
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
    pub public: Public,
    #[serde(default)]
    pub private: Seats<PrivatePart>,
    #[serde(default)]
    pub garnets: Seats<i64>,
}

impl RoundResult {
    /// A result that changes nobody's garnets (an opening, a game without garnets): `[garnets]`
    /// holds 0 for every player with a private part.
    pub(crate) fn without_garnets<P: Serialize>(
        public: &P,
        private: Seats<PrivatePart>,
    ) -> RoundResult {
        let garnets = Seats::beside(&private, vec![0; private.len()]);
        RoundResult {
            public: to_table(public).into(),
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
    players: &Seats<V>,
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
    players: &Seats<V>,
    key: &str,
    ids: impl IntoIterator<Item = &'a PlayerId>,
) -> Result<(), SetupError> {
    match ids.into_iter().find(|id| !players.contains_key(id)) {
        Some(id) => Err(SetupError {
            key: key.to_owned(),
            message: format!("`{id}` is not a player of this game"),
        }),
        None => Ok(()),
    }
}

/// The player who leaves a game (`Game::withdraw`), once the checks every game's ruling shares
/// pass: the game is not over, `id` is a player, and someone else is still in the game
/// (`gone`: whether a player has left or is out already).
pub(crate) fn leaving<'a, P>(
    players: &'a mut Seats<P>,
    id: &PlayerId,
    over: bool,
    gone: impl Fn(&P) -> bool,
) -> Result<&'a mut P, String> {
    if over {
        return Err("the game is over".into());
    }
    if !players.iter().any(|(p, s)| p != id && !gone(s)) {
        return Err("nobody else is left in the game".into());
    }
    players
        .get_mut(id)
        .ok_or_else(|| format!("{id} is not a player of this game"))
}

/// `[garnets]`: each player's change over a round resolved in place, from `before`, the
/// balances the round started with in id order (a round moves no one in or out).
pub(crate) fn garnet_changes<P>(
    players: &Seats<P>,
    before: &[i64],
    garnets: impl Fn(&P) -> i64,
) -> Seats<i64> {
    debug_assert_eq!(players.len(), before.len(), "a round changed the players");
    let changes = players
        .values()
        .zip(before)
        .map(|(p, was)| garnets(p) - was)
        .collect();
    Seats::beside(players, changes)
}

/// A result struct as the table it becomes in result.toml.
pub(crate) fn to_table<T: Serialize>(value: &T) -> toml::Table {
    toml::Table::try_from(value).expect("result structs serialize to tables")
}

/// What a game's public record says, read back (each game's `archive.rs`): its ending for the
/// season, its pictures for the site, and what it takes from a season when one starts it.
pub trait Archive {
    /// What a finished game's announcements (`publics`, in order) say of its end in
    /// `[public.final]`: winners, Tokens of Life, Elimination Candidates (`super::ending`). A key
    /// missing or of the wrong type (a hand-edited result) reads as nothing.
    fn ending(publics: &[&toml::Table]) -> Ending;

    /// The site's picture of one round, drawn from its `[public]` alone (`opening`: the game's
    /// opening announcement, if it has one); `None` when the game draws none, or when a key is
    /// missing or of the wrong type. `id` is unique on the page.
    fn picture(
        public: &toml::Table,
        opening: Option<&toml::Table>,
        names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String>;

    /// A chart of the whole game for its page, with its heading (`publics` in order, openings
    /// left out).
    fn chart(publics: &[&toml::Table], names: &Names, title: &str) -> Option<Chart> {
        let _ = (publics, names, title);
        None
    }

    /// `season match`: what a match of this game takes from the season so far (options the
    /// host did not give, a title, players' set-up keys); `Err` says why it cannot start now.
    fn season_match(so_far: &SoFar<'_>, options: &toml::Table) -> Result<FromSeason, String> {
        let _ = (so_far, options);
        Ok(FromSeason::default())
    }
}

/// The rules of one game, and what the rest of the program asks of it. The items without a
/// default are what a new game must say for itself; the registry (`super::registry`) lists it.
pub trait Game: Archive {
    const ID: GameId;
    /// The game's id in game.toml, in folder names and in template names ("god-race").
    const NAME: &'static str;
    /// The documented game.toml `adjudicate new` writes (`games/<name>/new.toml`, with
    /// `{seed}`, `{first_deadline}` and `{players}` to fill), and how many sample players it gets.
    const NEW_TOML: &'static str;
    const SAMPLE_PLAYERS: usize;
    /// The game's built-in templates, `(name, source)`, names as `<name>/<file>`
    /// (`games/<name>/templates/`, compiled in with `super::templates!`).
    const TEMPLATES: &'static [(&'static str, &'static str)];
    /// Every top-level key and table a submission of this game may hold, in any round: how
    /// `ingest` tells a submission from prose around it.
    const KEYS: &'static [&'static str];
    /// Everything the rules need between ticks, hidden information included (state.toml).
    /// `Send + Sync + 'static`: a big game's state.toml is read on a thread of its own while
    /// game.toml is (`early_state`), and written out while its reports render.
    type State: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync + 'static;

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
    /// receipts it applied (`tick::check_applied`). Room Swap's Block can forbid a chosen room.
    const VALID_STAYS: bool = true;

    /// What will happen to `player` at the deadline if nothing valid arrives (a sentence fragment
    /// for acknowledgements: "a random room among attic, cellar will be used for you").
    fn if_not_fixed(state: &Self::State, player: &PlayerId) -> String;

    /// Validates one version of a player's submission and applies it to the live state, instant
    /// actions included. Must never panic, whatever the document holds.
    fn receive(state: &mut Self::State, player: &PlayerId, doc: &Doc) -> Outcome {
        Self::receive_with(state, player, doc, Detail::Everything)
    }

    /// `receive`, with `Detail::State` leaving `Outcome::understood` empty (the simulator's
    /// bots): the same checks, problems, answers and live state either way.
    fn receive_with(
        state: &mut Self::State,
        player: &PlayerId,
        doc: &Doc,
        detail: Detail,
    ) -> Outcome;

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

    /// The game's ruling for a seat that leaves (README, "A seat that leaves") in words the
    /// players read in the host's notice of a withdrawal, after "From the end of round N the
    /// game goes on without them:".
    const SEAT_LEAVES: &'static str;

    /// The game's ruling for a seat that leaves (`adjudicate withdraw`, the game's README):
    /// applied to the state just before the round it was taken in resolves, so that round and
    /// every later one are played without the player. `Err` says why the rules cannot let this
    /// player leave now (the command refuses it; nothing is recorded).
    fn withdraw(state: &mut Self::State, player: &PlayerId) -> Result<(), String>;

    /// Resolves the current round. `seed` is the game's seed; draws use `crate::rng::stream`.
    fn resolve(state: &Self::State, seed: u64) -> Resolution<Self::State>;

    /// `resolve` in place: `state` becomes the next round's, and the round's result is returned.
    /// The tick, `replay` and every rebuild resolve this way (none of them needs the state
    /// before); a game whose rules run in place overrides it, so that its round makes no copy of
    /// the state.
    fn resolve_in_place(state: &mut Self::State, seed: u64) -> RoundResult {
        let resolution = Self::resolve(state, seed);
        *state = resolution.state;
        resolution.result
    }
}
