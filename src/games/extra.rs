//! A player's game-specific set-up keys in game.toml (God Race's `meadow = "white"`, Tribal
//! Council's `idols = 1`): whatever a `[[players]]` entry holds besides the keys every game has.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;

/// A player's set-up keys and their values, in key order. A short list, not a map: a player
/// has none to a handful, and a `BTreeMap`'s first node takes about 600 bytes however few keys
/// it holds (6 MB of a 10,000-player game's memory, for one key each).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extra(Vec<(String, toml::Value)>);

impl Extra {
    /// The value of `key`, if the player has it.
    pub fn get(&self, key: &str) -> Option<&toml::Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
}

impl From<toml::Table> for Extra {
    fn from(table: toml::Table) -> Extra {
        // a table's keys come in order and once each
        Extra(table.into_iter().collect())
    }
}

impl<'de> Deserialize<'de> for Extra {
    /// Any table (in game.toml, what `#[serde(flatten)]` leaves over): its keys sorted, a key
    /// given twice keeping its last value, as a map would.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Extra, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Extra;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Extra, M::Error> {
                let mut keys: Vec<(String, toml::Value)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, toml::Value>()? {
                    match keys.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = value,
                        None => keys.push((key, value)),
                    }
                }
                keys.sort_by(|a, b| a.0.cmp(&b.0));
                keys.shrink_to_fit(); // kept as long as the game's set-up
                Ok(Extra(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Player {
        #[allow(dead_code)]
        id: String,
        #[serde(flatten)]
        extra: Extra,
    }

    #[test]
    fn the_keys_besides_the_known_ones_read_in_order_as_a_table_would() {
        let text = "id = \"ann\"\nmeadow = \"white\"\nidols = 2\n[more]\nx = 1\n";
        let player: Player = toml::from_str(text).unwrap();
        let table: toml::Table = toml::from_str(text).unwrap();
        let mut table = table;
        table.remove("id");
        assert_eq!(player.extra, Extra::from(table));
        assert_eq!(
            player.extra.keys().collect::<Vec<_>>(),
            ["idols", "meadow", "more"]
        );
        assert_eq!(player.extra.get("idols"), Some(&toml::Value::Integer(2)));
        assert_eq!(
            player.extra.get("meadow").and_then(|v| v.as_str()),
            Some("white")
        );
        assert_eq!(player.extra.get("id"), None, "a known key is not extra");
        assert_eq!(player.extra.get("absent"), None);
    }

    #[test]
    fn a_player_without_keys_of_their_own_has_none() {
        let player: Player = toml::from_str("id = \"bo\"\n").unwrap();
        assert_eq!(player.extra, Extra::default());
        assert_eq!(player.extra.keys().count(), 0);
    }
}
