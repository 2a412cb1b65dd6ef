//! The registry: one line per game (`super`'s `registry!` call) gives the game ids, their list,
//! the dispatch from an id to the game's type, and a table of what the game-independent code
//! may ask of a game without knowing its type (`GameId::name`, `ending`, `picture`…).
//!
//! Invariant: a game's `GameId` variant, its place in `GameId::ALL` and its entry in `PROFILES`
//! are written by the macro from the same line, so they cannot disagree.

use super::Game;
use super::ending::Ending;
use super::picture::{Chart, Names};
use super::season::{FromSeason, SoFar};

/// Work that needs a game's type: `dispatch` picks it from the id.
pub trait WithGame {
    type Output;
    fn run<G: Game>(self) -> Self::Output;
}

/// Work that needs a match's bots: `dispatch_match` picks the type, or says the id is a season
/// round.
pub trait WithMatch {
    type Output;
    fn run<G: super::bots::Simulated>(self) -> Self::Output;
}

/// What the game-independent code asks of a game by its id: the `Game` items that need no
/// state, as plain values and function pointers.
pub struct Profile {
    pub name: &'static str,
    pub season_round: bool,
    pub new_toml: &'static str,
    pub sample_players: usize,
    pub templates: &'static [(&'static str, &'static str)],
    pub ending: fn(&[&toml::Table]) -> Ending,
    pub picture: Picture,
    pub chart: fn(&[&toml::Table], &Names, &str) -> Option<Chart>,
    pub season_match: fn(&SoFar<'_>, &toml::Table) -> Result<FromSeason, String>,
    pub seat_leaves: &'static str,
}

type Picture = fn(&toml::Table, Option<&toml::Table>, &Names, &str, &str) -> Option<String>;

impl Profile {
    pub const fn of<G: Game>(season_round: bool) -> Profile {
        Profile {
            name: G::NAME,
            season_round,
            new_toml: G::NEW_TOML,
            sample_players: G::SAMPLE_PLAYERS,
            templates: G::TEMPLATES,
            ending: G::ending,
            picture: G::picture,
            chart: G::chart,
            season_match: G::season_match,
            seat_leaves: G::SEAT_LEAVES,
        }
    }
}

/// The registry itself: `matches { Variant => path::Type, … } season_rounds { … }
/// simulated_rounds { … }`. Matches, and the season rounds `simulate` plays, must have bots
/// (`Simulated`); the compiler says so when one has none.
macro_rules! registry {
    (
        $(#[$matches_doc:meta])*
        matches { $($m:ident => $mt:ty,)* }
        $(#[$rounds_doc:meta])*
        season_rounds { $($s:ident => $st:ty,)* }
        $(#[$simulated_doc:meta])*
        simulated_rounds { $($b:ident => $bt:ty,)* }
    ) => {
        /// The games this build plays, as game.toml names them (`GameId::name`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum GameId {
            $($m,)*
            $($s,)*
            $($b,)*
        }

        static PROFILES: &[registry::Profile] = &[
            $(registry::Profile::of::<$mt>(false),)*
            $(registry::Profile::of::<$st>(true),)*
            $(registry::Profile::of::<$bt>(true),)*
        ];

        impl GameId {
            /// Every game: the matches, then the season rounds.
            pub const ALL: &'static [GameId] =
                &[$(GameId::$m,)* $(GameId::$s,)* $(GameId::$b,)*];

            /// What the game says of itself (`registry::Profile`).
            pub fn profile(self) -> &'static registry::Profile {
                &PROFILES[self as usize]
            }
        }

        /// The one place that maps a game id to its engine.
        pub fn dispatch<W: WithGame>(game: GameId, work: W) -> W::Output {
            match game {
                $(GameId::$m => work.run::<$mt>(),)*
                $(GameId::$s => work.run::<$st>(),)*
                $(GameId::$b => work.run::<$bt>(),)*
            }
        }

        /// A game's engine and bots; `None` for a season round without bots.
        pub fn dispatch_match<W: WithMatch>(game: GameId, work: W) -> Option<W::Output> {
            match game {
                $(GameId::$m => Some(work.run::<$mt>()),)*
                $(GameId::$s => { let _ = work; None })*
                $(GameId::$b => Some(work.run::<$bt>()),)*
            }
        }
    };
}

/// A game's built-in templates: `templates!("god-race": "public.txt.tera", …)` compiles in
/// `games/god-race/templates/<file>` under the name `god-race/<file>`.
macro_rules! templates {
    ($game:literal: $($file:literal),* $(,)?) => {
        &[$((
            concat!($game, "/", $file),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/games/", $game, "/templates/", $file)),
        ),)*]
    };
}

/// A game's `new.toml`, compiled in from `games/<name>/new.toml`.
macro_rules! new_toml {
    ($game:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/games/",
            $game,
            "/new.toml"
        ))
    };
}

impl super::GameId {
    /// The id as game.toml writes it ("god-race").
    pub fn name(self) -> &'static str {
        self.profile().name
    }

    pub fn parse(text: &str) -> Option<super::GameId> {
        Self::ALL.iter().copied().find(|g| g.name() == text)
    }

    pub fn all_names() -> Vec<&'static str> {
        Self::ALL.iter().map(|g| g.name()).collect()
    }

    /// A round between a season's matches, not a match: it has no winners, garnets or Tokens,
    /// and no season report of its own.
    pub fn is_season_round(self) -> bool {
        self.profile().season_round
    }

    /// `Game::ending` of this game.
    /// `Game::SEAT_LEAVES` of this game.
    pub fn seat_leaves(self) -> &'static str {
        self.profile().seat_leaves
    }

    pub fn ending(self, publics: &[&toml::Table]) -> Ending {
        (self.profile().ending)(publics)
    }

    /// `Game::picture` of this game.
    pub fn picture(
        self,
        public: &toml::Table,
        opening: Option<&toml::Table>,
        names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String> {
        (self.profile().picture)(public, opening, names, id, title)
    }

    /// `Game::chart` of this game.
    pub fn chart(self, publics: &[&toml::Table], names: &Names, title: &str) -> Option<Chart> {
        (self.profile().chart)(publics, names, title)
    }

    /// `Game::season_match` of this game.
    pub fn season_match(
        self,
        so_far: &SoFar<'_>,
        options: &toml::Table,
    ) -> Result<FromSeason, String> {
        (self.profile().season_match)(so_far, options)
    }
}
