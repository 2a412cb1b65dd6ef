//! A player's mistake, as data: where it is (line and column of the submission, when known) and a
//! message that says what is wrong and what is allowed. Problems are rendered into
//! acknowledgements and printed by `check` as `file:line:col: message`.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// 1-based line, if the problem is about one place in the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    pub message: String,
}

impl Problem {
    /// A problem about the submission as a whole (no position).
    pub fn general(message: impl Into<String>) -> Self {
        Problem {
            line: None,
            col: None,
            message: message.into(),
        }
    }

    pub fn at(pos: Pos, message: impl Into<String>) -> Self {
        Problem {
            line: Some(pos.line as usize),
            col: Some(pos.col as usize),
            message: message.into(),
        }
    }

    /// `line 3: message`, or just the message: the form receipts and acknowledgements use.
    pub fn short(&self) -> String {
        match self.line {
            Some(line) => format!("line {line}: {}", self.message),
            None => self.message.clone(),
        }
    }

    /// `file:line:col: message`, the form `check` prints.
    pub fn with_file(&self, file: &str) -> String {
        match (self.line, self.col) {
            (Some(l), Some(c)) => format!("{file}:{l}:{c}: {}", self.message),
            (Some(l), None) => format!("{file}:{l}: {}", self.message),
            _ => format!("{file}: {}", self.message),
        }
    }
}

/// A boxed problem (a `Given` value's) is the problem: `?` unboxes it.
impl From<Box<Problem>> for Problem {
    fn from(problem: Box<Problem>) -> Problem {
        *problem
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short())
    }
}

/// What the toml parser says of a number it cannot hold (too big, `0x` with no digits, …).
const NUMBER_ERRORS: &[&str] = &[
    "integer number overflowed",
    "as i128",
    "invalid hexadecimal",
    "invalid octal",
    "invalid binary",
];

/// The toml parser's message in words a player or host can act on: the key of a duplicate, what a
/// number must look like. `at` is the text the parser pointed at (a key, a value).
pub fn toml_message(message: &str, at: &str) -> String {
    let message = message.trim_end();
    let at = at.trim();
    if message == "duplicate key" && !at.is_empty() {
        return format!("duplicate key `{at}`: a key may appear once; keep one of the lines");
    }
    if NUMBER_ERRORS.iter().any(|n| message.contains(n)) {
        let what = if at.is_empty() {
            "a number".to_owned()
        } else {
            format!("`{at}`")
        };
        return format!(
            "{what} is not a number this file can hold: write digits only, a whole number from 0 to 9223372036854775807"
        );
    }
    message.to_owned()
}

/// A 1-based position in a text file (a `u32` each: a `Given` value carries one, and a
/// submission is far from four billion lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl Pos {
    /// The position at `line` and `col` (1-based), held at `u32::MAX` beyond it.
    pub fn new(line: usize, col: usize) -> Pos {
        let held = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Pos {
            line: held(line),
            col: held(col),
        }
    }
}

/// Maps byte offsets of a text to 1-based line and column (columns count characters).
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        Pos::new(line + 1, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_messages_name_the_key_and_say_what_a_number_must_be() {
        assert_eq!(
            toml_message("duplicate key", "room"),
            "duplicate key `room`: a key may appear once; keep one of the lines"
        );
        assert!(
            toml_message("integer number overflowed", "0x").starts_with("`0x` is not a number")
        );
        assert_eq!(toml_message("expected `=`", "x"), "expected `=`");
    }

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let idx = LineIndex::new("a = 1\nbé = 2\n");
        assert_eq!(idx.pos(0), Pos { line: 1, col: 1 });
        assert_eq!(idx.pos(6), Pos { line: 2, col: 1 });
        // "bé" is 3 bytes; the space after it is the 3rd character
        assert_eq!(idx.pos(9), Pos { line: 2, col: 3 });
    }
}
