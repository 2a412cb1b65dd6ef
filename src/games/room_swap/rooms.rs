//! Rooms and the scoring tables (spec room-swap.md, "Scoring per round"). Only the sizes of the
//! rooms matter: the sorted sizes select a row, and the row names the size of room whose occupants
//! score (a 2-2-2 row names size 2, so everyone scores).

use crate::doc::Choice;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::Deref;

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

/// A set of rooms, one bit each (bit `room as usize`): no room twice, nothing to allocate,
/// and read as the slice of its rooms in `Room::ALL` order (one of eight, built in). What a
/// Block forbids, what a player may choose, what scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RoomSet(u8);

/// Every subset of the rooms, by its bits.
const SUBSETS: [&[Room]; 8] = {
    use Room::{Attic as A, Basement as B, Cellar as C};
    [&[], &[A], &[B], &[A, B], &[C], &[A, C], &[B, C], &[A, B, C]]
};

impl RoomSet {
    pub const ALL: RoomSet = RoomSet(0b111);
    pub const EMPTY: RoomSet = RoomSet(0);

    /// Whether `room` is in the set (a bit test, not a search).
    pub fn has(self, room: Room) -> bool {
        self.0 & (1 << room as u8) != 0
    }

    /// The set and `room`.
    pub fn with(self, room: Room) -> RoomSet {
        RoomSet(self.0 | 1 << room as u8)
    }

    /// The rooms of the set that are not in `other`.
    pub fn without(self, other: RoomSet) -> RoomSet {
        RoomSet(self.0 & !other.0)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

impl Deref for RoomSet {
    type Target = [Room];
    fn deref(&self) -> &[Room] {
        SUBSETS[usize::from(self.0)]
    }
}

impl FromIterator<Room> for RoomSet {
    fn from_iter<I: IntoIterator<Item = Room>>(rooms: I) -> RoomSet {
        rooms.into_iter().fold(RoomSet::EMPTY, RoomSet::with)
    }
}

/// A list of room names in `Room::ALL` order (state.toml's `forbidden`, as it was when a
/// `BTreeSet` held it).
impl Serialize for RoomSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// A list of room names; a room named twice is in the set once.
impl<'de> Deserialize<'de> for RoomSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RoomSet, D::Error> {
        let rooms = Vec::<Room>::deserialize(deserializer)?;
        Ok(rooms.into_iter().collect())
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
pub fn scoring_rooms<'a, I>(table: &[Row], rooms: I) -> Option<RoomSet>
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
        None => RoomSet::EMPTY,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set reads as its rooms in `Room::ALL` order, each once, whatever order they were
    /// added in; it is written as the list of their names and read back from it.
    #[test]
    fn a_room_set_is_its_rooms_once_in_order() {
        use Room::{Attic, Basement, Cellar};
        let set: RoomSet = [Cellar, Attic, Cellar].into_iter().collect();
        assert_eq!(*set, [Attic, Cellar]);
        assert!(set.has(Cellar) && !set.has(Basement));
        assert_eq!(*RoomSet::ALL.without(set), [Basement]);
        assert_eq!(set.with(Basement), RoomSet::ALL);
        assert!(RoomSet::EMPTY.is_empty() && !set.is_empty());
        for bits in 0..8u8 {
            let set = RoomSet(bits);
            let rooms: Vec<Room> = Room::ALL.iter().copied().filter(|r| set.has(*r)).collect();
            assert_eq!(*set, rooms, "{bits:03b}");
            assert_eq!(set.iter().copied().collect::<RoomSet>(), set);
        }
        #[derive(Serialize, Deserialize)]
        struct Live {
            forbidden: RoomSet,
        }
        let text = toml::to_string(&Live { forbidden: set }).unwrap();
        assert_eq!(text, "forbidden = [\"attic\", \"cellar\"]\n");
        let read: Live = toml::from_str("forbidden = [\"cellar\", \"attic\", \"attic\"]").unwrap();
        assert_eq!(read.forbidden, set);
    }

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
