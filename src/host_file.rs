//! Host files (game.toml, secrets.toml, state.toml, receipts.toml, result.toml) are input too, read
//! as strictly as a submission: a syntax or type error is `file:line:col: message`, and a key the
//! format does not have is an error naming it, never skipped (a misspelt `garnet = 7` must not
//! silently become a balance of 0).

use crate::error::{Error, Result};
use crate::problem::LineIndex;
use serde::de::DeserializeOwned;
use std::path::Path;
use toml::de::{DeTable, DeValue};

pub mod memo;
mod sections;

/// A big host file's sections, each written on its own (which is linear where the toml
/// crate's whole document grew faster than that), as the parts of its text: each but the last
/// followed by the blank line between sections. A tick writes the parts one after another
/// (`Plan::file_parts`); `join_parts` makes them one text.
pub fn parts_of(mut sections: Vec<String>) -> Vec<String> {
    if let Some((_, before)) = sections.split_last_mut() {
        before.iter_mut().for_each(|s| s.push('\n'));
    }
    sections
}

/// The text of `parts`, of exactly their size, each part freed once copied: never held at
/// twice its size nor grown by copies.
pub fn join_parts(parts: Vec<String>) -> String {
    let mut out = String::with_capacity(parts.iter().map(String::len).sum());
    for part in parts {
        out.push_str(&part);
    }
    out
}

/// Deserializes a host file; every key must be one `T` reads.
pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    parse_allowing(path, text, &[])
}

/// Like `parse`, for a file read in more than one pass: the top-level keys in `others` belong to
/// another pass and are not unknown.
pub fn parse_allowing<T: DeserializeOwned>(path: &Path, text: &str, others: &[&str]) -> Result<T> {
    parse_with_counts(path, text, others).map(|(value, _)| value)
}

/// Like `parse_allowing`, for a file whose own top-level keys `others` are whole numbers next
/// to `T`'s (state.toml's bookkeeping): they come back by name, from the same single parse.
pub fn parse_with_counts<T: DeserializeOwned>(
    path: &Path,
    text: &str,
    others: &[&str],
) -> Result<(T, std::collections::BTreeMap<String, i64>)> {
    if let Some(found) = sections::read(text, others) {
        return Ok(found);
    }
    let syntax = |e: toml::de::Error| {
        let pointed = e.span().and_then(|r| text.get(r)).unwrap_or_default();
        let message = crate::problem::toml_message(e.message(), pointed);
        let at = e
            .span()
            .map_or_else(String::new, |span| at(text, span.start));
        Error::invalid(path, at, message)
    };
    let table = DeTable::parse(text).map_err(syntax)?;
    let mut counts = std::collections::BTreeMap::new();
    for (key, value) in table.get_ref().iter() {
        let name = key.get_ref().as_ref();
        if !others.contains(&name) {
            continue;
        }
        // a time (`opened`) comes back as Unix seconds
        let (number, expected) = match value.get_ref() {
            DeValue::Integer(i) => (
                i64::from_str_radix(i.as_str(), i.radix()).ok(),
                "a whole number",
            ),
            DeValue::Datetime(d) => (
                seconds(d),
                "a time with an offset (e.g. 2026-12-02T15:00:00Z)",
            ),
            _ => (None, "a whole number, or a time for a time"),
        };
        let Some(number) = number else {
            return Err(Error::invalid(
                path,
                at(text, key.span().start),
                format!("{name} must be {expected}"),
            ));
        };
        counts.insert(name.to_owned(), number);
    }
    let de = toml::Deserializer::from(table);
    let mut unknown: Option<Vec<String>> = None;
    let value: T = serde_ignored::deserialize(de, |p| {
        let key = segments(&p);
        let other = key.len() == 1 && others.contains(&key[0].as_str());
        if unknown.is_none() && !other {
            unknown = Some(key);
        }
    })
    .map_err(syntax)?;
    match unknown {
        None => Ok((value, counts)),
        Some(key) => {
            let dotted = dotted(&key);
            let place = DeTable::parse(text)
                .ok()
                .and_then(|t| locate(t.get_ref(), &key))
                .map(|offset| format!("{} ", at(text, offset)))
                .unwrap_or_default();
            Err(Error::invalid(
                path,
                dotted.clone(),
                format!(
                    "{place}unknown key `{}`: this file has no such key (misspelt? remove it or fix its name)",
                    key.last().map_or(dotted.as_str(), String::as_str)
                ),
            ))
        }
    }
}

/// `parse_with_counts` of a file a tick may have remembered (`memo`, its memo file): when the
/// memo stands for exactly this text, its value without parsing.
pub fn parse_remembered<T: DeserializeOwned + serde::Serialize>(
    path: &Path,
    text: &str,
    others: &[&str],
    memo: &Path,
) -> Result<(T, memo::Counts)> {
    let Some(found) = memo::recall::<T>(memo, text) else {
        return parse_with_counts(path, text, others);
    };
    if cfg!(debug_assertions) {
        // every test that reads a memo proves it against the text
        let parsed = parse_with_counts::<T>(path, text, others).unwrap_or_else(|e| {
            panic!(
                "{}: the memo has a value the text does not parse to: {e}",
                memo.display()
            )
        });
        let json = |v: &T| serde_json::to_value(v).expect("a memo's value is JSON");
        assert!(
            json(&parsed.0) == json(&found.0) && parsed.1 == found.1,
            "{}: the memo's value differs from the text's",
            memo.display()
        );
    }
    Ok(found)
}

/// A time of a host file's bookkeeping (`opened`) as Unix seconds; `None` without an offset.
fn seconds(time: &toml::value::Datetime) -> Option<i64> {
    time.to_string()
        .parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.as_second())
}

/// An error about a key (`players[1].email`) given the key's `line:col` in `text` too, when the
/// key can be found: `game.toml:12:1: players[1].email: message`.
pub fn placed(error: Error, text: &str) -> Error {
    let Error::Invalid {
        path,
        at: key,
        message,
    } = error
    else {
        return error;
    };
    let segments: Vec<String> = key
        .split(['.', '['])
        .map(|s| s.trim_end_matches(']').to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    let found = DeTable::parse(text)
        .ok()
        .and_then(|t| locate(t.get_ref(), &segments));
    match found {
        Some(offset) if !key.is_empty() => Error::Invalid {
            path,
            at: at(text, offset),
            message: format!("{key}: {message}"),
        },
        _ => Error::Invalid {
            path,
            at: key,
            message,
        },
    }
}

/// `line:col` of a byte offset.
fn at(text: &str, offset: usize) -> String {
    let pos = LineIndex::new(text).pos(offset);
    format!("{}:{}", pos.line, pos.col)
}

/// The keys and indexes leading to an ignored value (options and newtypes are not keys).
fn segments(path: &serde_ignored::Path<'_>) -> Vec<String> {
    use serde_ignored::Path as P;
    let mut out = match path {
        P::Root => return Vec::new(),
        P::Seq { parent, .. }
        | P::Map { parent, .. }
        | P::Some { parent }
        | P::NewtypeStruct { parent }
        | P::NewtypeVariant { parent } => segments(parent),
    };
    match path {
        P::Seq { index, .. } => out.push(index.to_string()),
        P::Map { key, .. } => out.push(key.clone()),
        _ => {}
    }
    out
}

/// `players.alice.garnet`, `receipt[2].sha`.
fn dotted(key: &[String]) -> String {
    let mut out = String::new();
    for k in key {
        if k.parse::<usize>().is_ok() {
            out.push_str(&format!("[{k}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(k);
        }
    }
    out
}

/// The byte offset of the key at `key` in the document, if it can be found.
fn locate(table: &DeTable<'_>, key: &[String]) -> Option<usize> {
    let (first, rest) = key.split_first()?;
    let (k, v) = table.iter().find(|(k, _)| k.get_ref() == first)?;
    if rest.is_empty() {
        return Some(k.span().start);
    }
    locate_in(v.get_ref(), rest)
}

fn locate_in(value: &DeValue<'_>, key: &[String]) -> Option<usize> {
    match value {
        DeValue::Table(t) => locate(t, key),
        DeValue::Array(items) => {
            let (index, rest) = key.split_first()?;
            let item = items.get(index.parse::<usize>().ok()?)?;
            if rest.is_empty() {
                return Some(item.span().start);
            }
            locate_in(item.get_ref(), rest)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)] // read only to be deserialized
    struct Player {
        garnets: i64,
        #[serde(default)]
        live: Option<Live>,
    }

    #[derive(Debug, Deserialize, Default)]
    #[allow(dead_code)]
    struct Live {
        #[serde(default)]
        room: Option<String>,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct File {
        round: u32,
        players: BTreeMap<String, Player>,
        #[serde(default)]
        list: Vec<Live>,
    }

    fn error(text: &str) -> String {
        parse::<File>(Path::new("state.toml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_misspelt_key_is_named_with_its_place() {
        assert_eq!(
            error("round = 1\n[players.alice]\ngarnets = 1\ngarnet = 7\n"),
            "state.toml: players.alice.garnet: 4:1 unknown key `garnet`: this file has no such key (misspelt? remove it or fix its name)"
        );
        let e = error("round = 1\n[players.a]\ngarnets = 1\nlive = { rom = \"x\" }\n");
        assert!(
            e.contains("players.a.live.rom: 4:10 unknown key `rom`"),
            "{e}"
        );
        let e = error("round = 1\nplayers = {}\n[[list]]\nroom = \"a\"\n[[list]]\nx = 1\n");
        assert!(e.contains("list[1].x: 6:1"), "{e}");
    }

    #[test]
    fn type_and_range_errors_have_line_and_column() {
        assert!(error("round = -1\nplayers = {}\n").starts_with("state.toml:1:9:"));
        assert!(error("round = 1\n[players.a]\ngarnets = \"x\"\n").starts_with("state.toml:3:11:"));
        assert!(error("round = 1\n").contains("missing field `players`"));
    }

    #[test]
    fn keys_of_another_pass_are_allowed_at_the_top_only() {
        let text = "round = 1\nreceipts_applied = 2\nplayers = {}\n";
        assert!(parse_allowing::<File>(Path::new("s"), text, &["receipts_applied"]).is_ok());
        assert!(parse::<File>(Path::new("s"), text).is_err());
    }
}
