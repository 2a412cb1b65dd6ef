//! A round's announcement, `[public]` of result.toml: a table, and beside it at most one part
//! that grows with the players (God Race's `meadows`: where every player is next round), held
//! as one value per seat until it is written (issue #30: a table of 10,000 entries keyed by
//! copied ids was a quarter of a 10,000-player resolution). Written, rendered and compared, it
//! is the one table it stands for: the part is serialized as the table it would be, at its
//! key's place among the others.

use super::Seats;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// `[public]`: its table, and the part per seat if the rules made one (a result read back from
/// result.toml holds it in its table).
#[derive(Debug, Clone, Default)]
pub struct Public {
    table: toml::Table,
    seated: Option<Seated>,
}

/// A part of an announcement with a name for each seat, written as `[public.<key>]`.
#[derive(Debug, Clone, PartialEq)]
struct Seated {
    key: &'static str,
    values: Seats<&'static str>,
}

impl Public {
    /// The announcement with `key` holding `values`, one per seat, as a table keyed by id
    /// would. `key` must not be one of the table's.
    pub fn with_seated(mut self, key: &'static str, values: Seats<&'static str>) -> Public {
        debug_assert!(!self.table.contains_key(key), "{key} is in the table");
        self.seated = Some(Seated { key, values });
        self
    }

    /// The table alone, without the part per seat: for a reader that needs only keys the rules
    /// keep in it (a game's `private_view`, which a part per seat would make grow with the
    /// players).
    pub fn table(&self) -> &toml::Table {
        &self.table
    }

    /// The whole announcement as one table (the part per seat put into it): what a reader of
    /// the written file sees.
    pub fn to_table(&self) -> Cow<'_, toml::Table> {
        let Some(seated) = &self.seated else {
            return Cow::Borrowed(&self.table);
        };
        let mut table = self.table.clone();
        let values = seated
            .values
            .iter()
            .map(|(id, v)| (id.to_string(), (*v).into()));
        table.insert(seated.key.into(), toml::Value::Table(values.collect()));
        Cow::Owned(table)
    }
}

impl From<toml::Table> for Public {
    fn from(table: toml::Table) -> Public {
        Public {
            table,
            seated: None,
        }
    }
}

/// The same announcement, however it is held.
impl PartialEq for Public {
    fn eq(&self, other: &Public) -> bool {
        if self.seated == other.seated {
            self.table == other.table
        } else {
            self.to_table() == other.to_table()
        }
    }
}

/// As the one table: the keys in order (a table's are sorted), the part per seat at its key's
/// place, so that every serializer (result.toml's, the templates') sees what it saw of the
/// table.
impl Serialize for Public {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Some(seated) = &self.seated else {
            return self.table.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(self.table.len() + 1))?;
        let mut pending = Some(seated);
        for (key, value) in &self.table {
            if let Some(s) = pending.filter(|s| s.key < key.as_str()) {
                map.serialize_entry(s.key, &s.values)?;
                pending = None;
            }
            map.serialize_entry(key, value)?;
        }
        if let Some(s) = pending {
            map.serialize_entry(s.key, &s.values)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Public {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        toml::Table::deserialize(deserializer).map(Public::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player_id::PlayerId;

    fn seats(pairs: &[(&str, &'static str)]) -> Seats<&'static str> {
        pairs
            .iter()
            .map(|(id, v)| (PlayerId::parse(id).unwrap(), *v))
            .collect()
    }

    fn table(text: &str) -> toml::Table {
        toml::from_str(text).unwrap()
    }

    /// Held apart or in the table, an announcement is written, rendered and read back as the
    /// same bytes and the same values, whatever keys come before and after the part.
    #[test]
    fn a_part_per_seat_is_written_as_the_table_it_stands_for() {
        let meadows = seats(&[("bob", "red"), ("alice", "white")]);
        for text in [
            "",
            "round = 2",
            "zeta = 1",
            "a = 1\nz = [1, 2]\n[places]\nwhite = \"1st\"\n[spaces]\nred = 3",
            "meadow = 1\nmeadowz = 2",
        ] {
            let apart = Public::from(table(text)).with_seated("meadows", meadows.clone());
            let mut whole = table(text);
            whole.insert(
                "meadows".into(),
                toml::Value::Table(table("alice = \"white\"\nbob = \"red\"")),
            );
            assert_eq!(*apart.to_table(), whole, "{text:?}");
            assert_eq!(
                toml::to_string(&apart).unwrap(),
                toml::to_string(&whole).unwrap(),
                "{text:?}"
            );
            assert_eq!(
                serde_json::to_string(&apart).unwrap(),
                serde_json::to_string(&whole).unwrap(),
                "{text:?}"
            );
            let read: Public = toml::from_str(&toml::to_string(&apart).unwrap()).unwrap();
            assert_eq!(read, apart, "{text:?}");
            assert_eq!(*read.table(), whole, "{text:?}");
            assert!(
                !apart.table().contains_key("meadows"),
                "the table alone has no part"
            );
        }
    }

    /// Ids sort as strings do, as serde's table of a map keyed by them (`a-z` before `a_`).
    #[test]
    fn a_part_per_seat_is_the_table_serde_makes_of_the_map() {
        let map: std::collections::BTreeMap<PlayerId, &str> = ["b", "a-z", "a", "a_", "0"]
            .iter()
            .enumerate()
            .map(|(i, id)| (PlayerId::parse(id).unwrap(), ["white", "red"][i % 2]))
            .collect();
        let public = Public::default().with_seated("m", map.clone().into_iter().collect());
        let mut whole = toml::Table::new();
        whole.insert("m".into(), toml::Value::Table(crate::games::to_table(&map)));
        assert_eq!(*public.to_table(), whole);
        assert_eq!(
            toml::to_string(&public).unwrap(),
            "[m]\n0 = \"white\"\na = \"white\"\na-z = \"red\"\na_ = \"red\"\nb = \"white\"\n"
        );
    }

    #[test]
    fn announcements_differ_when_their_parts_per_seat_do() {
        let one = Public::from(table("round = 1")).with_seated("meadows", seats(&[("a", "red")]));
        let other =
            Public::from(table("round = 1")).with_seated("meadows", seats(&[("a", "blue")]));
        assert_ne!(one, other);
        assert_ne!(one, Public::from(table("round = 1")));
    }
}
