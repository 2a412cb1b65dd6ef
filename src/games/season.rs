//! What a game is told when a season starts a match of it (`Game::season_match`): the season so
//! far, as the season's ledger reads it, in the games' own terms.

use super::GameId;
use super::ending::Ending;
use crate::player_id::PlayerId;
use std::collections::BTreeMap;

/// The season before the new match.
pub struct SoFar<'a> {
    /// Every match so far, in number order.
    pub matches: Vec<PastMatch<'a>>,
    /// The players still in the season, with the Tokens of Life they hold, in cast order.
    pub living: Vec<(&'a PlayerId, i64)>,
    /// The players of the new match.
    pub cast: Vec<&'a PlayerId>,
}

/// A match of the season so far.
pub struct PastMatch<'a> {
    /// Its folder's name, "01-god-race": how messages name it.
    pub folder: &'a str,
    pub number: u32,
    pub game: GameId,
    pub over: bool,
    /// What its announcements say of its end (empty until it is over).
    pub ending: &'a Ending,
}

/// What a game takes from the season for its new match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FromSeason {
    /// `[options]` the game fills in from the season (the host's own options win).
    pub options: toml::Table,
    /// The match's title after the season's, when it is not "Match N" ("Death Match pick").
    pub title: Option<&'static str>,
    /// Set-up keys per player of the cast (God Race's `meadow`).
    pub player_keys: BTreeMap<PlayerId, toml::Table>,
}

impl SoFar<'_> {
    /// The last finished match of `game`, if any.
    pub fn last_finished(&self, game: GameId) -> Option<&PastMatch<'_>> {
        self.matches.iter().rev().find(|m| m.over && m.game == game)
    }
}

/// A list of ids as a TOML array, for `[options]`.
pub fn id_list(ids: &[PlayerId]) -> toml::Value {
    toml::Value::Array(ids.iter().map(|i| i.to_string().into()).collect())
}
