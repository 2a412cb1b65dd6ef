//! What a game gives the simulator (`crate::simulate`): its bots, and what a finished game says
//! of each player. A bot sees only what its player would see (`Simulated::play` hands each bot its
//! own view) and submits through the rules' own validation (`super::version::send`: a typed
//! version, to the checks a file meets once read) or, on a fast path, a choice that validation
//! accepts.

use super::Game;
use crate::player_id::PlayerId;
use serde::Serialize;

/// The random generator of the bots (never of the rules, which draw from `crate::rng`): a bot's
/// choices need to be reproducible, not unpredictable, so a fast generator (xoshiro256++) serves.
pub type BotRng = rand::rngs::Xoshiro256PlusPlus;

/// How a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strategy {
    /// A uniformly random legal choice.
    Random,
    /// The game's sensible strategy (`Simulated::STRATEGY`).
    Smart,
}

impl Strategy {
    pub const ALL: [Strategy; 2] = [Strategy::Random, Strategy::Smart];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name<G: Simulated>(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Smart => G::STRATEGY,
        }
    }
}

/// One round of a simulated game: every version each player sent, in the order sent, as the
/// files the tick would read.
pub type Submissions = Vec<(PlayerId, String)>;

/// What one finished game says of one player (players in id order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    /// Index into the game's `Simulated::GROUPS` (role, alignment), if the game groups players.
    pub group: Option<usize>,
    pub won: bool,
    pub elimination: bool,
    pub tokens: u32,
    /// The game's own points (God Race score, Room Swap points; 0 where a game has none).
    pub points: i64,
    /// Garnets won or spent over the game.
    pub garnets: i64,
}

/// A game the simulator can play: its bots and what a finished game says of each player.
pub trait Simulated: Game {
    /// The name of the game's sensible strategy (`random` is every game's other bot).
    const STRATEGY: &'static str;
    /// What the sensible strategy does, in a line (printed with the tables).
    const STRATEGY_ABOUT: &'static str;
    /// What players are grouped by besides strategy and seat ("role", "alignment"), and the
    /// groups; empty when the game has no such groups.
    const GROUP: &'static str;
    const GROUPS: &'static [&'static str];
    /// Players when `--players` is not given.
    const DEFAULT_PLAYERS: usize;
    /// What the game's points are called in the tables ("score", "points"); empty if none.
    const POINTS: &'static str;
    /// Whether the game deals in a season's stakes: garnets, Tokens of Life and Elimination
    /// Candidates (Final Ritual names only a winner).
    const STAKES: bool = true;

    /// What the bots remember between rounds, learnt only from what their players sent and
    /// from the announcements and their own private reports (`learn`): a Planar Control player's
    /// divinations. `()` for games whose state view says all a player knows.
    type Memory: Default;
    /// What the bots hear of an announcement: the game's own typed `[public]`, as the rules
    /// build it before it becomes a table (`()` for games whose bots learn nothing from one).
    type Heard: Serialize;

    /// Every bot of an expected player submits for the current round: `bots[i]` plays player i
    /// (id order) from that player's view alone. With `record`, each submission is also written
    /// as the TOML file a player would send. Returns how many players were expected.
    fn play(
        state: &mut Self::State,
        bots: &[Strategy],
        rng: &mut BotRng,
        memory: &mut Self::Memory,
        record: Option<&mut Submissions>,
    ) -> u64;

    /// Resolves the current round in place; returns how many expected players had their
    /// choice made by the rules' default.
    fn advance(state: &mut Self::State, seed: u64, memory: &mut Self::Memory) -> u64 {
        let defaults = Self::defaulted(state);
        if let Some(heard) = Self::resolve_heard(state, seed) {
            Self::learn(memory, &heard);
        }
        defaults
    }

    /// How many expected players have no valid choice on file (their choice will be the rules'
    /// default). A game may count it without listing the players.
    fn defaulted(state: &Self::State) -> u64 {
        defaulted::<Self>(state)
    }

    /// The opening's announcement (`Game::opening`) as the bots hear it, for games whose bots
    /// learn from it.
    fn opening_heard(state: &Self::State) -> Option<Self::Heard> {
        let _ = state;
        None
    }

    /// The round resolved in place with nothing built that no bot reads (`Detail::State` where
    /// a game can leave its reports out), and its announcement as the bots hear it (`None` if
    /// they learn nothing from it): the same rules, reaching the same state, as
    /// `Game::resolve`.
    fn resolve_heard(state: &mut Self::State, seed: u64) -> Option<Self::Heard> {
        Self::resolve_in_place(state, seed);
        None
    }

    /// What the bots learn from an announcement (the simulator builds no private reports; a
    /// bot's own facts are in its player's part of the state it is shown).
    fn learn(memory: &mut Self::Memory, heard: &Self::Heard) {
        let _ = (memory, heard);
    }

    /// Every player's garnets, in id order.
    fn garnets(state: &Self::State) -> Vec<i64>;

    /// A finished (or cut off) game, per player in id order; `start` is `garnets` at set-up.
    fn tally(start: &[i64], state: &Self::State, memory: &Self::Memory) -> Vec<End>;
}

/// `Simulated::defaulted` as every game can count it: the expected players listed, each checked.
pub fn defaulted<G: Simulated + ?Sized>(state: &G::State) -> u64 {
    G::expected(state)
        .iter()
        .filter(|p| !G::has_valid(state, p))
        .count() as u64
}
