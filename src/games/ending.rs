//! What a finished game's announcements say of its end, read from `[public.final]` of its
//! results by each game's `Game::ending`: winners, Tokens of Life won, Elimination Candidates, who
//! picks first and who may be picked, the meadows assigned. One reading of each game's keys for
//! the season's ledger and the web site. A key missing or of the wrong type (a hand-edited
//! result) reads as nothing.

use crate::player_id::PlayerId;
use std::collections::BTreeMap;
use toml::{Table, Value};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ending {
    /// The players who won (Planar Control: the winning alignment's members).
    pub winners: Vec<PlayerId>,
    /// Planar Control: the alignment that won.
    pub alignment: Option<String>,
    /// Tokens of Life won.
    pub tokens: BTreeMap<PlayerId, i64>,
    /// The Elimination Candidates.
    pub elimination: Vec<PlayerId>,
    /// The candidate who picks a Death Match opponent first (Planar Control).
    pub first_pick: Option<PlayerId>,
    /// Who the candidates may pick, when the game says (Room Swap's `eligible_opponents`).
    pub eligible: Option<Vec<PlayerId>>,
    /// The meadows a meadow assignment settled.
    pub meadows: Option<BTreeMap<PlayerId, String>>,
    /// Who went home (a Tribal Council's vote): they leave the season.
    pub out: Vec<PlayerId>,
}

impl Ending {
    /// The same ending with every seat named by `who` holds it (a season credits the person
    /// who held a seat at the end, `season::ledger`).
    pub fn map_ids(self, who: impl Fn(&PlayerId) -> PlayerId) -> Ending {
        let list = |ids: Vec<PlayerId>| ids.iter().map(&who).collect::<Vec<_>>();
        Ending {
            winners: list(self.winners),
            alignment: self.alignment,
            tokens: self.tokens.iter().map(|(id, n)| (who(id), *n)).collect(),
            elimination: list(self.elimination),
            first_pick: self.first_pick.as_ref().map(&who),
            eligible: self.eligible.map(list),
            meadows: self
                .meadows
                .map(|m| m.iter().map(|(id, v)| (who(id), v.clone())).collect()),
            out: list(self.out),
        }
    }
}

/// The player ids of an array value; anything else reads as none.
pub(crate) fn ids(value: Option<&Value>) -> Vec<PlayerId> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().and_then(PlayerId::parse))
                .collect()
        })
        .unwrap_or_default()
}

/// The `[final]` tables of a game's announcements, in order.
pub(crate) fn finals<'a>(publics: &[&'a Table]) -> Vec<&'a Table> {
    publics
        .iter()
        .filter_map(|p| p.get("final").and_then(Value::as_table))
        .collect()
}

/// One Token for each of `ids`.
pub(crate) fn one_each(ids: Vec<PlayerId>) -> BTreeMap<PlayerId, i64> {
    ids.into_iter().map(|id| (id, 1)).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn table(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    pub fn id(text: &str) -> PlayerId {
        PlayerId::parse(text).unwrap()
    }
}
