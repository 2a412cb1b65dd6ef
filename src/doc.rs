//! A submission parsed from TOML with the position of every key and value, so that every problem a
//! player makes is reported at its `line:col`. Engines read submissions only through this type; it
//! is the one place that knows the toml crate's spanned parser.
//!
//! Invariant: a `Doc` was parsed from valid UTF-8 TOML; positions are 1-based.

use crate::problem::{LineIndex, Pos, Problem};

mod writer;
pub use writer::{Item, Writer};

use compact_str::CompactString;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    source: String,
    root: Table,
}

/// A table's entries in key order, each key once. A submission's tables hold a handful of
/// keys, so a sorted list (found by binary search) serves them with one allocation where a
/// `BTreeMap` would make a node per table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    entries: Vec<(CompactString, Entry)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key_pos: Pos,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub pos: Pos,
    pub span: Range<usize>,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    String(CompactString),
    Integer(i64),
    Float(f64),
    Boolean(bool),
    Datetime(String),
    Array(Vec<Node>),
    Table(Table),
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) => "a string",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Boolean(_) => "true/false",
            Value::Datetime(_) => "a date",
            Value::Array(_) => "a list",
            Value::Table(_) => "a table",
        }
    }
}

/// Quotes a phone or word processor puts in place of `"` and `'`.
const CURLY: [char; 5] = ['“', '”', '„', '‘', '’'];

impl Doc {
    /// Parses `source`; a syntax error becomes a problem at the place the parser stopped.
    pub fn parse(source: &str) -> Result<Doc, Problem> {
        let index = LineIndex::new(source);
        match DeTable::parse(source) {
            Ok(table) => Ok(Doc {
                source: source.to_owned(),
                root: convert_table(table.get_ref(), &index),
            }),
            Err(e) => {
                let at = e.span().and_then(|r| source.get(r)).unwrap_or_default();
                // A phone's curly quotes are the likeliest cause: say so, not "must be quoted".
                let line = e.span().map_or("", |r| {
                    let start = source[..r.start.min(source.len())]
                        .rfind('\n')
                        .map_or(0, |n| n + 1);
                    source[start..].lines().next().unwrap_or_default()
                });
                let message = if line.contains(CURLY) {
                    format!(
                        "not valid TOML: {} has curly quotes (“ ” ‘ ’), which TOML does not read as quotes; write straight quotes, e.g. room = \"cellar\"",
                        line.trim()
                    )
                } else {
                    format!(
                        "not valid TOML: {}",
                        crate::problem::toml_message(e.message(), at)
                    )
                };
                Err(match e.span() {
                    Some(span) => Problem::at(index.pos(span.start), message),
                    None => Problem::general(message),
                })
            }
        }
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn root(&self) -> &Table {
        &self.root
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.root.get(key)
    }

    /// The source with the value of the top-level `key` replaced by `"<redacted>"` (used for tokens:
    /// the archived copy of a submission must not hold the secret).
    pub fn redacted(&self, key: &str) -> String {
        match self.root.get(key) {
            Some(node) => {
                let mut out = self.source.clone();
                out.replace_range(node.span.clone(), "\"<redacted>\"");
                out
            }
            None => self.source.clone(),
        }
    }
}

/// Whether `key` can be written without quotes (a TOML bare key).
pub(crate) fn bare_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl Table {
    /// The table of `entries`, each key once (the parser refuses a key given twice), in any
    /// order.
    fn from_entries(mut entries: Vec<(CompactString, Entry)>) -> Table {
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "a key twice");
        Table { entries }
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// Adds `key` (replacing an entry of the same key).
    fn insert(&mut self, key: CompactString, entry: Entry) {
        match self.find(&key) {
            Ok(i) => self.entries[i].1 = entry,
            Err(i) => self.entries.insert(i, (key, entry)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.find(key).ok().map(|i| &self.entries[i].1.value)
    }

    /// The entries in key order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|(k, e)| (k.as_str(), e))
    }

    /// One problem per key that is not in `allowed`, with a suggestion when one is close;
    /// `what` names the table in the hint, and is written only when there is a problem (a
    /// caller may pass `format_args!`, which costs nothing on a good file).
    pub fn unknown_keys(&self, allowed: &[&str], what: impl std::fmt::Display) -> Vec<Problem> {
        self.entries()
            .filter(|(k, _)| !allowed.contains(k))
            .map(|(k, e)| {
                let hint = match did_you_mean(k, allowed) {
                    Some(s) => format!(", did you mean `{s}`?"),
                    None => format!("; {what} may hold: {}", allowed.join(", ")),
                };
                Problem::at(e.key_pos, format!("unknown key `{k}`{hint}"))
            })
            .collect()
    }
}

impl Node {
    pub fn as_str(&self, key: &str) -> Result<&str, Problem> {
        match &self.value {
            Value::String(s) => Ok(s),
            other => Err(self.type_problem(key, "a string", other)),
        }
    }

    pub fn as_array(&self, key: &str) -> Result<&[Node], Problem> {
        match &self.value {
            Value::Array(items) => Ok(items),
            other => Err(self.type_problem(key, "a list", other)),
        }
    }

    pub fn as_table(&self, key: &str) -> Result<&Table, Problem> {
        match &self.value {
            Value::Table(t) => Ok(t),
            other => Err(self.type_problem(key, "a table", other)),
        }
    }

    /// Reads one of a closed set of names (rooms, colours…).
    pub fn as_choice<C: Choice>(&self, key: &str) -> Result<C, Problem> {
        let text = self.as_str(key)?;
        C::parse(text).ok_or_else(|| {
            Problem::at(
                self.pos,
                format!(
                    "{key} must be one of {}, not \"{text}\"",
                    C::all_names().join(", ")
                ),
            )
        })
    }

    fn type_problem(&self, key: &str, expected: &str, found: &Value) -> Problem {
        Problem::at(
            self.pos,
            format!("{key} must be {expected}, not {}", found.type_name()),
        )
    }
}

/// A closed set of lowercase names, as used in submissions (`"attic"`, `"white"`).
pub trait Choice: Copy + Sized + 'static {
    const ALL: &'static [Self];
    fn name(self) -> &'static str;

    /// The choice named `text`, whatever its case and the spaces around it (names are lower
    /// case: `choice_names_are_lower_case`).
    fn parse(text: &str) -> Option<Self> {
        let wanted = text.trim();
        // a name as the rules write it (most files, every bot) is found by plain comparison
        let exact = Self::ALL.iter().copied().find(|c| c.name() == wanted);
        exact.or_else(|| {
            Self::ALL
                .iter()
                .copied()
                .find(|c| c.name().eq_ignore_ascii_case(wanted))
        })
    }

    fn all_names() -> Vec<&'static str> {
        Self::ALL.iter().map(|c| c.name()).collect()
    }

    /// "attic, cellar": the names of `items`, in order.
    fn join(items: &[Self]) -> String {
        let mut text = String::with_capacity(8 * items.len());
        for (i, c) in items.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(c.name());
        }
        text
    }
}

fn convert_table(table: &DeTable<'_>, index: &LineIndex<'_>) -> Table {
    let entries = table
        .iter()
        .map(|(k, v)| {
            let entry = Entry {
                key_pos: index.pos(k.span().start),
                value: convert_value(v.get_ref(), v.span(), index),
            };
            (CompactString::from(k.get_ref().as_ref()), entry)
        })
        .collect();
    Table::from_entries(entries)
}

fn convert_value(value: &DeValue<'_>, span: Range<usize>, index: &LineIndex<'_>) -> Node {
    let value = match value {
        DeValue::String(s) => Value::String(CompactString::from(s.as_ref())),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Value::Integer(n),
            Err(_) => Value::Float(f64::NAN),
        },
        DeValue::Float(f) => Value::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Value::Boolean(*b),
        DeValue::Datetime(d) => Value::Datetime(d.to_string()),
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| convert_value(item.get_ref(), item.span(), index))
                .collect(),
        ),
        DeValue::Table(t) => Value::Table(convert_table(t, index)),
    };
    Node {
        pos: index.pos(span.start),
        span,
        value,
    }
}

/// The allowed name closest to `word`, if it is within two edits (a typo, not another word).
pub fn did_you_mean<'a>(word: &str, allowed: &[&'a str]) -> Option<&'a str> {
    allowed
        .iter()
        .map(|a| (edit_distance(word, a), *a))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, a)| a)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_carry_positions() {
        let doc = Doc::parse("room = \"attic\"\n\npeek = [\"bob\", 3]\n").unwrap();
        let peek = doc.get("peek").unwrap();
        assert_eq!(peek.pos.line, 3);
        let items = peek.as_array("peek").unwrap();
        assert_eq!(items[1].pos.col, 16);
        let err = items[1].as_str("peek").unwrap_err();
        assert_eq!(err.message, "peek must be a string, not an integer");
    }

    #[test]
    fn unknown_keys_suggest_the_closest_allowed_key() {
        let doc = Doc::parse("rom = \"attic\"\nzzz = 1\n").unwrap();
        let problems = doc.root().unknown_keys(&["room", "peek"], "a submission");
        assert_eq!(
            problems[0].message,
            "unknown key `rom`, did you mean `room`?"
        );
        assert_eq!(problems[0].line, Some(1));
        assert!(problems[1].message.contains("may hold: room, peek"));
    }

    #[test]
    fn syntax_errors_have_a_line() {
        let err = Doc::parse("room = \"attic\"\nfallback = \n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.starts_with("not valid TOML"));
    }

    #[test]
    fn curly_quotes_are_named_as_the_problem() {
        let err = Doc::parse("room = “cellar”\n").unwrap_err();
        assert_eq!(err.line, Some(1));
        assert!(err.message.contains("curly quotes"), "{}", err.message);
        assert!(err.message.contains("room = “cellar”"), "{}", err.message);
    }

    #[test]
    fn redaction_replaces_only_the_value() {
        let doc = Doc::parse("token = \"s3cret\" # mine\nroom = \"attic\"\n").unwrap();
        assert_eq!(
            doc.redacted("token"),
            "token = \"<redacted>\" # mine\nroom = \"attic\"\n"
        );
    }
}
