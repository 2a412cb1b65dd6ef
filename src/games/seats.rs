//! The players of an engine's state by index (issue #30): their ids in order in one list, what
//! each holds in another at the same place. A round walks the players as two slices (no tree to
//! climb, nothing to allocate per player when a state is copied but what the players hold), a
//! rule that names a player (a gift's receiver) finds them by binary search, and a note a
//! resolution keeps per player is a list read by the same index. In state.toml it is the same
//! table keyed by id that a `BTreeMap` is, in the same order. The ids never change once seated,
//! so they are shared: a copy of a state, and what a round makes per player (its reports, its
//! garnets), hold the one list (`Seats::beside`) and copy no id.

use crate::player_id::PlayerId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Players in id order, each with a `T`. Ids are unique and sorted, always: a `Seats` is built
/// only from a map or by collecting pairs (a later pair for the same id replaces the earlier one,
/// as in a map).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats<T> {
    /// `None` when nobody is seated: an empty `Arc` would still allocate its counts, and an
    /// empty `Seats` is what a result the simulator never reads holds, every round.
    ids: Option<Arc<[PlayerId]>>,
    seats: Vec<T>,
}

impl<T> Default for Seats<T> {
    fn default() -> Self {
        Seats {
            ids: None,
            seats: Vec::new(),
        }
    }
}

/// The shared list of `ids` (none for nobody).
fn shared(ids: Vec<PlayerId>) -> Option<Arc<[PlayerId]>> {
    (!ids.is_empty()).then(|| ids.into())
}

impl<T> Seats<T> {
    /// One `T` for each of `seats`' players, by index: the same players, whose ids are shared,
    /// not copied. Panics if `values` is not one per player (a bug in the engine).
    pub fn beside<S>(seats: &Seats<S>, values: Vec<T>) -> Seats<T> {
        assert_eq!(seats.len(), values.len(), "one value per seat");
        Seats {
            ids: seats.ids.clone(),
            seats: values,
        }
    }

    /// The players' ids, in order.
    fn ids(&self) -> &[PlayerId] {
        self.ids.as_deref().unwrap_or_default()
    }

    pub fn len(&self) -> usize {
        self.ids().len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids().is_empty()
    }

    pub fn keys(&self) -> std::slice::Iter<'_, PlayerId> {
        self.ids().iter()
    }

    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.seats.iter()
    }

    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.seats.iter_mut()
    }

    pub fn iter(&self) -> Iter<'_, T> {
        self.ids().iter().zip(self.seats.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        // (the ids and the seats are borrowed apart: `ids()` would hold the whole `self`)
        let ids = self.ids.as_deref().unwrap_or_default();
        ids.iter().zip(self.seats.iter_mut())
    }

    /// Where `id` sits: the index of its entry in `ids`, `values` and every list read beside them.
    pub fn index_of(&self, id: &PlayerId) -> Option<usize> {
        self.ids().binary_search(id).ok()
    }

    pub fn get(&self, id: &PlayerId) -> Option<&T> {
        self.index_of(id).map(|i| &self.seats[i])
    }

    pub fn get_mut(&mut self, id: &PlayerId) -> Option<&mut T> {
        self.index_of(id).map(|i| &mut self.seats[i])
    }

    pub fn contains_key(&self, id: &PlayerId) -> bool {
        self.index_of(id).is_some()
    }

    /// The id at index `i` (panics past the end, as a slice does).
    pub fn id(&self, i: usize) -> &PlayerId {
        &self.ids()[i]
    }

    /// The seat at index `i` (panics past the end, as a slice does).
    pub fn at(&self, i: usize) -> &T {
        &self.seats[i]
    }

    /// The seat at index `i` (panics past the end, as a slice does).
    pub fn at_mut(&mut self, i: usize) -> &mut T {
        &mut self.seats[i]
    }
}

pub type Iter<'a, T> = std::iter::Zip<std::slice::Iter<'a, PlayerId>, std::slice::Iter<'a, T>>;
pub type IterMut<'a, T> =
    std::iter::Zip<std::slice::Iter<'a, PlayerId>, std::slice::IterMut<'a, T>>;

impl<T> From<BTreeMap<PlayerId, T>> for Seats<T> {
    fn from(map: BTreeMap<PlayerId, T>) -> Self {
        let (ids, seats): (Vec<PlayerId>, Vec<T>) = map.into_iter().unzip();
        Seats {
            ids: shared(ids),
            seats,
        }
    }
}

impl<T> FromIterator<(PlayerId, T)> for Seats<T> {
    /// Pairs in id order (what an engine walking its seats makes) are taken as they come; any
    /// others are put in order through a map.
    fn from_iter<I: IntoIterator<Item = (PlayerId, T)>>(pairs: I) -> Self {
        let (ids, seats): (Vec<PlayerId>, Vec<T>) = pairs.into_iter().unzip();
        if ids.is_sorted_by(|a, b| a < b) {
            return Seats {
                ids: shared(ids),
                seats,
            };
        }
        ids.into_iter()
            .zip(seats)
            .collect::<BTreeMap<_, _>>()
            .into()
    }
}

impl<T> std::ops::Index<&PlayerId> for Seats<T> {
    type Output = T;

    /// Panics if `id` has no seat, as a map's index does.
    fn index(&self, id: &PlayerId) -> &T {
        self.get(id)
            .unwrap_or_else(|| panic!("{id} is not a player here"))
    }
}

impl<'a, T> IntoIterator for &'a Seats<T> {
    type Item = (&'a PlayerId, &'a T);
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Seats<T> {
    type Item = (&'a PlayerId, &'a mut T);
    type IntoIter = IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T: Serialize> Serialize for Seats<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Seats<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::<PlayerId, T>::deserialize(deserializer).map(Seats::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> PlayerId {
        PlayerId::parse(s).unwrap()
    }

    #[test]
    fn seats_are_in_id_order_and_found_by_id_or_index() {
        let seats: Seats<u32> = [("c", 3), ("a", 1), ("b", 2), ("a", 10)]
            .into_iter()
            .map(|(k, v)| (id(k), v))
            .collect();
        let ids: Vec<&str> = seats.keys().map(PlayerId::as_str).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        // a later pair for the same id replaces the earlier one, as in a map
        assert_eq!(seats.values().copied().collect::<Vec<_>>(), [10, 2, 3]);
        assert_eq!(seats.index_of(&id("b")), Some(1));
        assert_eq!(seats.get(&id("c")), Some(&3));
        assert_eq!(seats.get(&id("d")), None);
        assert!(!seats.contains_key(&id("0")));
        assert_eq!(seats[&id("a")], 10);
    }

    #[test]
    fn seats_read_and_write_the_table_a_map_does() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Holder<P> {
            players: P,
        }
        let text = "[players.b]\ngarnets = 2\n\n[players.a-1]\ngarnets = 1\n";
        let map: Holder<BTreeMap<PlayerId, toml::Table>> = toml::from_str(text).unwrap();
        let seats: Holder<Seats<toml::Table>> = toml::from_str(text).unwrap();
        assert_eq!(seats.players, Seats::from(map.players.clone()));
        assert_eq!(
            toml::to_string(&seats).unwrap(),
            toml::to_string(&map).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&seats).unwrap(),
            serde_json::to_string(&map).unwrap()
        );
        // a key that is not a player id is refused as the map refuses it
        let bad = "[players.\"not an id\"]\ngarnets = 1\n";
        assert!(toml::from_str::<Holder<Seats<toml::Table>>>(bad).is_err());
        assert!(toml::from_str::<Holder<BTreeMap<PlayerId, toml::Table>>>(bad).is_err());
    }

    #[test]
    fn values_beside_seats_are_read_by_the_same_ids() {
        let seats: Seats<&str> = [("b", "x"), ("a", "y")]
            .into_iter()
            .map(|(k, v)| (id(k), v))
            .collect();
        let changes = Seats::beside(&seats, vec![-1_i64, 2]);
        assert_eq!(changes.get(&id("a")), Some(&-1));
        assert_eq!(changes[&id("b")], 2);
        assert!(changes.keys().eq(seats.keys()));
        assert_eq!(
            toml::to_string(&changes).unwrap(),
            "a = -1\nb = 2\n",
            "the table a map of the same pairs is"
        );
    }

    /// What the simulator's rounds make and drop (an empty result) costs no allocation.
    #[test]
    fn an_empty_seats_allocates_nothing() {
        use crate::allocator::counting::allocations;
        let before = allocations();
        let empty: Seats<i64> = Seats::default();
        let from_map: Seats<i64> = BTreeMap::new().into();
        let collected: Seats<i64> = std::iter::empty().collect();
        let beside: Seats<u8> = Seats::beside(&empty, Vec::new());
        assert_eq!(allocations(), before);
        assert!(empty.is_empty() && from_map == empty && collected == empty);
        assert!(beside.keys().next().is_none() && beside.index_of(&id("a")).is_none());
    }

    #[test]
    #[should_panic(expected = "one value per seat")]
    fn values_beside_seats_must_be_one_per_seat() {
        let seats: Seats<u8> = [(id("a"), 1)].into_iter().collect();
        let _ = Seats::beside(&seats, vec![1, 2]);
    }
}
