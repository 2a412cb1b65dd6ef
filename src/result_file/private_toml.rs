//! One player's `[private.<id>]` part of result.toml written directly, for the shapes reports
//! are made of (plain keys of short strings, integers, booleans and lists of them, and tables of
//! those), with the text `toml::to_string` gives; any other shape is left to it (`None`). A
//! 10,000-player round spent most of writing result.toml in the toml crate building a document
//! per player. Debug builds (every test) check each text written here against the toml crate.

use crate::doc::bare_key;
use serde_json::{Map, Value};
use std::fmt::Write;

/// The text of `[private.<id>]` with `table`, as `toml::to_string` writes it; `None` if the
/// table holds anything but the shapes above.
pub fn private_part(id: &str, table: &Map<String, Value>) -> Option<String> {
    if !bare_key(id) {
        return None;
    }
    let mut out = String::with_capacity(512);
    section(&mut out, &format!("private.{id}"), table)?;
    Some(out)
}

/// `[header]` then the plain keys, then each sub-table as its own section after a blank line.
/// Refuses a table with no plain keys (the toml crate leaves such a header out) and a key that
/// would need quotes.
fn section(out: &mut String, header: &str, table: &Map<String, Value>) -> Option<()> {
    let (tables, plain): (Vec<_>, Vec<_>) = table.iter().partition(|(_, v)| v.is_object());
    if plain.is_empty() || !table.keys().all(|k| bare_key(k)) {
        return None;
    }
    let _ = writeln!(out, "[{header}]");
    for (key, value) in plain {
        out.push_str(key);
        out.push_str(" = ");
        inline(out, value)?;
        out.push('\n');
    }
    for (key, value) in tables {
        out.push('\n');
        section(out, &format!("{header}.{key}"), value.as_object()?)?;
    }
    Some(())
}

/// A value on one line: a plain string, an integer, a boolean, or a list of them.
fn inline(out: &mut String, value: &Value) -> Option<()> {
    match value {
        Value::String(s) if plain(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Value::Number(n) => {
            let _ = write!(out, "{}", n.as_i64()?);
        }
        Value::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if item.is_array() {
                    return None;
                }
                inline(out, item)?;
            }
            out.push(']');
        }
        _ => return None,
    }
    Some(())
}

/// A string the toml crate writes between double quotes as it is: printable ASCII without
/// quotes or backslashes (anything else it may escape or quote otherwise).
fn plain(s: &str) -> bool {
    s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && !matches!(b, b'"' | b'\\' | b'\''))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::PrivatePart;

    fn object(part: &PrivatePart) -> Map<String, Value> {
        part.value()
            .as_object()
            .expect("a part is an object")
            .clone()
    }

    fn toml_crate(id: &str, part: &PrivatePart) -> String {
        let mut outer = toml::Table::new();
        let mut private = toml::Table::new();
        private.insert(id.to_owned(), toml::Value::try_from(part).unwrap());
        outer.insert("private".into(), toml::Value::Table(private));
        toml::to_string(&outer).unwrap()
    }

    #[test]
    fn writes_what_the_toml_crate_writes_or_leaves_it_to_it() {
        let written = [
            "a = 1",
            "hand = [\"white\", \"blue\"]\nempty = []\nflag = true\nn = -3",
            "x = \"a plain sentence, with: punctuation (and) #signs!\"\n[sub]\ny = [1, 2]\n[sub.deeper]\nz = false\n[other]\nq = \"r\"",
            "mixed = [1, \"a\", true]",
        ];
        for text in written {
            let table: PrivatePart = toml::from_str(text).unwrap();
            assert_eq!(
                private_part("p-1_x", &object(&table)).as_deref(),
                Some(toml_crate("p-1_x", &table).as_str()),
                "{text}"
            );
        }
        let left = [
            "quote = \"say \\\"hi\\\"\"",
            "apostrophe = \"it's\"",
            "accent = \"é\"",
            "line = \"a\\nb\"",
            "f = 1.5",
            "when = 1979-05-27",
            "nested = [[1], [2]]",
            "tables = [{ a = 1 }]",
            "\"quoted key\" = 1",
            "[only]\nsub = 1",
            "",
        ];
        for text in left {
            let table: PrivatePart = toml::from_str(text).unwrap();
            assert_eq!(private_part("p1", &object(&table)), None, "{text}");
        }
        let table: PrivatePart = toml::from_str("a = 1").unwrap();
        assert_eq!(private_part("needs quotes", &object(&table)), None);
    }
}
