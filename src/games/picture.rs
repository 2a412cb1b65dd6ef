//! What every game's site picture (`Game::picture`) shares: reading `[public]` of a result.toml
//! that may have been edited by hand. A key that is missing or of the wrong type leaves the
//! picture out (the announcement is still there); it never stops the site.

use std::collections::BTreeMap;
use toml::{Table, Value};

/// Player ids to the names the page shows.
pub type Names = BTreeMap<String, String>;

/// A chart of a whole game with its heading ("Across rounds").
pub type Chart = (&'static str, String);

/// A player's name, or the id when game.toml has none for it.
pub fn name(names: &Names, id: &str) -> String {
    names.get(id).cloned().unwrap_or_else(|| id.to_owned())
}

pub fn int(table: &Table, key: &str) -> Option<i64> {
    table.get(key)?.as_integer()
}

pub fn sub<'a>(table: &'a Table, key: &str) -> Option<&'a Table> {
    table.get(key)?.as_table()
}

/// The strings of an array value; anything else reads as none.
pub fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn names() -> Names {
        [("alice", "Alice"), ("bob", "Bob")]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .into()
    }
}
