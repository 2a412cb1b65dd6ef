//! A submission written by a program (the file a simulated bot's version stands for, when a
//! game is recorded: `games::version::Versioned::write`): the TOML text and the `Doc` the
//! parser makes of it, built together (every built `Doc` is checked against the parser in
//! debug builds, so the tests hold the two to the same tree).

use super::{Doc, Entry, Node, Table, Value};
use crate::problem::Pos;
use compact_str::CompactString;
use std::fmt::Write as _;

/// A value a program writes: a string, an integer, a list, or an inline table of strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item<'a> {
    Str(&'a str),
    Int(i64),
    List(Vec<Item<'a>>),
    Inline(Vec<(&'static str, &'a str)>),
}

/// Writes `key = value` lines, then `[section]`s, keeping every key's and value's position.
#[derive(Debug, Default, PartialEq)]
pub struct Writer {
    source: String,
    /// Byte offset where the current line starts.
    line_start: usize,
    /// Characters of the current line counted so far, up to a byte offset: positions are asked
    /// for in order along a line, so counting goes on from the last one (no line is counted
    /// twice, however many values it holds).
    counted: (usize, usize),
    line: usize,
    root: Table,
    /// The `[section]` being written, if any.
    section: Option<(CompactString, Table, Pos, std::ops::Range<usize>)>,
}

impl Writer {
    /// A writer for a one- or two-line submission.
    pub fn new() -> Writer {
        Writer::with_capacity(96)
    }

    /// A writer whose text will hold about `bytes` without growing.
    pub fn with_capacity(bytes: usize) -> Writer {
        Writer {
            source: String::with_capacity(bytes),
            line: 1,
            ..Writer::default()
        }
    }

    /// `key = "value"`.
    pub fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.item(key, &Item::Str(value))
    }

    /// `key = ["a", "b"]` (written straight from `values`, with no `Item` list in between: a
    /// bot's every submission holds a few).
    pub fn strs<S: AsRef<str>>(&mut self, key: &str, values: &[S]) -> &mut Self {
        self.entry(key, |w| {
            w.list(values.len(), |w, i| w.value(&Item::Str(values[i].as_ref())))
        })
    }

    /// `key = 3`.
    pub fn int(&mut self, key: &str, value: i64) -> &mut Self {
        self.item(key, &Item::Int(value))
    }

    /// `key = value`, one line, in the current section. Keys are bare TOML keys (a submission's
    /// own: `room`, `ember`), written as they are.
    pub fn item(&mut self, key: &str, value: &Item<'_>) -> &mut Self {
        self.entry(key, |w| w.value(value))
    }

    /// `key = ` and the value `write` writes, as one line of the current section.
    fn entry(&mut self, key: &str, write: impl FnOnce(&mut Writer) -> Node) -> &mut Self {
        debug_assert!(super::bare_key(key), "{key:?} is not a bare key");
        let key_pos = self.pos();
        self.source.push_str(key);
        self.source.push_str(" = ");
        let value = write(self);
        self.source.push('\n');
        self.line += 1;
        self.line_start = self.source.len();
        let table = match &mut self.section {
            Some((_, table, ..)) => table,
            None => &mut self.root,
        };
        table.insert(key.into(), Entry { key_pos, value });
        self
    }

    /// Starts `[name]` (after a blank line): the keys written next belong to it.
    pub fn section(&mut self, name: &str) -> &mut Self {
        self.close_section();
        if !self.source.is_empty() {
            self.source.push('\n');
            self.line += 1;
            self.line_start = self.source.len();
        }
        let pos = self.pos();
        let start = self.source.len();
        let _ = write!(self.source, "[{name}]");
        let span = start..self.source.len();
        self.source.push('\n');
        self.line += 1;
        self.line_start = self.source.len();
        self.section = Some((name.into(), Table::default(), pos, span));
        self
    }

    pub fn finish(mut self) -> Doc {
        self.close_section();
        let doc = Doc {
            source: self.source,
            root: self.root,
        };
        debug_assert_eq!(
            Doc::parse(&doc.source).as_ref(),
            Ok(&doc),
            "the writer and the parser disagree on {:?}",
            doc.source
        );
        doc
    }

    fn close_section(&mut self) {
        if let Some((name, table, pos, span)) = self.section.take() {
            let key_pos = Pos {
                line: pos.line,
                col: pos.col + 1,
            };
            let value = Node {
                pos,
                span,
                value: Value::Table(table),
            };
            self.root.insert(name, Entry { key_pos, value });
        }
    }

    fn pos(&mut self) -> Pos {
        if self.counted.0 < self.line_start {
            self.counted = (self.line_start, 0);
        }
        let end = self.source.len();
        self.counted.1 += self.source[self.counted.0..end].chars().count();
        self.counted.0 = end;
        Pos::new(self.line, self.counted.1 + 1)
    }

    /// `[a, b]`: the `len` values `each` writes, by index.
    fn list(&mut self, len: usize, mut each: impl FnMut(&mut Writer, usize) -> Node) -> Node {
        self.node(|w| {
            w.source.push('[');
            let mut nodes = Vec::with_capacity(len);
            for i in 0..len {
                if i > 0 {
                    w.source.push_str(", ");
                }
                nodes.push(each(w, i));
            }
            w.source.push(']');
            Value::Array(nodes)
        })
    }

    fn value(&mut self, item: &Item<'_>) -> Node {
        match item {
            Item::Str(s) => self.node(|w| {
                w.quoted(s);
                Value::String((*s).into())
            }),
            Item::Int(n) => self.node(|w| {
                let _ = write!(w.source, "{n}");
                Value::Integer(*n)
            }),
            Item::List(items) => self.list(items.len(), |w, i| w.value(&items[i])),
            Item::Inline(fields) => self.node(|w| {
                w.source.push_str("{ ");
                let mut table = Table::default();
                for (i, (key, text)) in fields.iter().enumerate() {
                    if i > 0 {
                        w.source.push_str(", ");
                    }
                    let key_pos = w.pos();
                    w.source.push_str(key);
                    w.source.push_str(" = ");
                    let value = w.value(&Item::Str(text));
                    table.insert((*key).into(), Entry { key_pos, value });
                }
                w.source.push_str(" }");
                Value::Table(table)
            }),
        }
    }

    /// The value `write` writes, with its position and span.
    fn node(&mut self, write: impl FnOnce(&mut Writer) -> Value) -> Node {
        let pos = self.pos();
        let start = self.source.len();
        let value = write(self);
        Node {
            pos,
            span: start..self.source.len(),
            value,
        }
    }

    /// A basic string: `"` and `\` escaped, control characters as `\uXXXX`.
    fn quoted(&mut self, s: &str) {
        self.source.push('"');
        if !s.chars().any(|c| c == '"' || c == '\\' || c.is_control()) {
            self.source.push_str(s); // an id or a name: nothing to escape
            self.source.push('"');
            return;
        }
        for c in s.chars() {
            match c {
                '"' => self.source.push_str("\\\""),
                '\\' => self.source.push_str("\\\\"),
                c if c.is_control() => {
                    let _ = write!(self.source, "\\u{:04X}", u32::from(c));
                }
                c => self.source.push(c),
            }
        }
        self.source.push('"');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_doc_is_the_parsed_doc_of_its_text() {
        let mut w = Writer::new();
        w.strs("dedicate", &["wine", "gems"]);
        w.item(
            "announce",
            &Item::List(vec![
                Item::Inline(vec![("oracle", "swap"), ("from", "bob"), ("to", "é\"x\\")]),
                Item::Inline(vec![("oracle", "calm")]),
            ]),
        );
        w.int("garnets", -3);
        w.section("respond");
        w.strs::<&str>("refuse", &[]);
        w.str("note", "tab\there");
        let doc = w.finish();
        assert_eq!(
            doc.source(),
            "dedicate = [\"wine\", \"gems\"]\nannounce = [{ oracle = \"swap\", from = \"bob\", to = \"é\\\"x\\\\\" }, { oracle = \"calm\" }]\ngarnets = -3\n\n[respond]\nrefuse = []\nnote = \"tab\\u0009here\"\n"
        );
        assert_eq!(Doc::parse(doc.source()).unwrap(), doc);
        let to = &doc.get("announce").unwrap().as_array("announce").unwrap()[0];
        assert_eq!(
            to.as_table("announce")
                .unwrap()
                .get("to")
                .unwrap()
                .as_str("to"),
            Ok("é\"x\\")
        );
    }
}
