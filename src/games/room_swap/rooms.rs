//! Rooms and the scoring tables (spec room-swap.md, "Scoring per round"). Only the sizes of the
//! rooms matter: the sorted sizes select a row, and the row names the size of room whose occupants
//! score (a 2-2-2 row names size 2, so everyone scores).

use super::state::Rooms;
use crate::doc::Choice;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    Attic,
    Basement,
    Cellar,
}

impl Choice for Room {
    const ALL: &'static [Room] = &[Room::Attic, Room::Basement, Room::Cellar];
    fn name(self) -> &'static str {
        match self {
            Room::Attic => "attic",
            Room::Basement => "basement",
            Room::Cellar => "cellar",
        }
    }
}

impl Room {
    /// "Attic": the form used in sentences.
    pub fn title(self) -> &'static str {
        match self {
            Room::Attic => "Attic",
            Room::Basement => "Basement",
            Room::Cellar => "Cellar",
        }
    }
}

/// One row: room sizes in decreasing order, and the size of room whose occupants score.
pub type Row = ([usize; 3], Option<usize>);

/// The six-player table of the rules.
pub const SIX_PLAYER_TABLE: &[Row] = &[
    ([2, 2, 2], Some(2)),
    ([3, 2, 1], Some(3)),
    ([4, 1, 1], Some(4)),
    ([4, 2, 0], Some(2)),
    ([5, 1, 0], Some(1)),
    ([3, 3, 0], None),
    ([6, 0, 0], None),
];

/// The five-player table of the tiebreak rounds.
pub const FIVE_PLAYER_TABLE: &[Row] = &[
    ([2, 2, 1], Some(2)),
    ([3, 1, 1], Some(3)),
    ([3, 2, 0], Some(2)),
    ([4, 1, 0], Some(1)),
    ([5, 0, 0], None),
];

/// The table for `players` people, if the rules have one.
pub fn table_for(players: usize) -> Option<&'static [Row]> {
    match players {
        6 => Some(SIX_PLAYER_TABLE),
        5 => Some(FIVE_PLAYER_TABLE),
        _ => None,
    }
}

/// The rooms whose occupants score, given where everyone is. `None` if the table has no row for
/// these sizes (which cannot happen when `table` matches the number of players).
pub fn scoring_rooms<'a, I>(table: &[Row], rooms: I) -> Option<Rooms>
where
    I: IntoIterator<Item = &'a Room>,
{
    // counts by room, in `Room::ALL` order (every round of every simulated game asks)
    let mut counts = [0usize; 3];
    for room in rooms {
        counts[*room as usize] += 1;
    }
    let mut sizes = counts;
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let (_, scoring_size) = table.iter().find(|(row, _)| *row == sizes)?;
    Some(match scoring_size {
        Some(size) => Room::ALL
            .iter()
            .zip(counts)
            .filter(|(_, n)| n == size)
            .map(|(r, _)| *r)
            .collect(),
        None => Rooms::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_six_player_partition_has_a_row() {
        // all 3^6 assignments of six players to rooms map to some row
        for code in 0..729u32 {
            let rooms: Vec<Room> = (0..6)
                .map(|i| Room::ALL[(code / 3u32.pow(i) % 3) as usize])
                .collect();
            assert!(
                scoring_rooms(SIX_PLAYER_TABLE, &rooms).is_some(),
                "{rooms:?}"
            );
        }
    }

    #[test]
    fn every_five_player_partition_has_a_row() {
        for code in 0..243u32 {
            let rooms: Vec<Room> = (0..5)
                .map(|i| Room::ALL[(code / 3u32.pow(i) % 3) as usize])
                .collect();
            assert!(
                scoring_rooms(FIVE_PLAYER_TABLE, &rooms).is_some(),
                "{rooms:?}"
            );
        }
    }
}
