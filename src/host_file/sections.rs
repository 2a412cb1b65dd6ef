//! A large host file (a 10,000-player state.toml is 3.75 MB) read section by section: the toml
//! crate holds a token for every piece of the text and a spanned tree built from them, some 27
//! times the file at once, and that was the whole peak memory of a big tick. Here the text is
//! cut before its first `[a.b…]` or `[[a]]` header and then into pieces of about `PIECE` bytes
//! at headers that open a new `[players.<id>]` (or any other `[a.b]` whose first two keys
//! change) or a new element of an array of tables (game.toml's `[[players]]`, receipts.toml's
//! `[[receipt]]`); each piece is parsed alone into plain tables, and the pieces are joined: the
//! tables' keys put together, the arrays' elements one after another.
//!
//! This is only a faster road to the same value: `read` gives `None` whenever the pieces could
//! mean anything other than the whole file (a piece that does not parse alone, a key that two
//! pieces both define, a value of the wrong type, an unknown key), and the caller then parses
//! the whole text as before, for the same value or the same error with its line and column.

use crate::doc::bare_key;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};

/// Pieces are cut at the first new section after this many bytes.
const PIECE: usize = 64 * 1024;

/// The file's value and its top-level whole numbers among `others`, if the pieces say exactly
/// what the whole says; `None` to parse the whole.
pub fn read<T: DeserializeOwned>(
    text: &str,
    others: &[&str],
) -> Option<(T, BTreeMap<String, i64>)> {
    if text.len() < PIECE {
        // a small file is parsed whole, and on this thread: handing its two pieces to other
        // cores started a thread pool that cost more than the file (a third of a small tick)
        return None;
    }
    let pieces = pieces(text);
    if pieces.len() < 2 {
        return None; // no `[a.b…]` sections: one piece is the whole parse
    }
    let mut root = toml::Table::new();
    // The top-level tables and arrays of tables the cuts' headers open (`players`): only those
    // may be joined, and only if the first piece does not have them: it holds no `[a.b…]` or
    // `[[a]]` header, so a value of that name there is inline, dotted or `[a]` itself, which
    // the whole parse decides.
    let opened: BTreeSet<&str> = pieces[1..]
        .iter()
        .filter_map(|p| header(p).map(|h| h.top()))
        .collect();
    // Each piece is parsed alone, so they are parsed on every core (all but the first are
    // `PIECE` bytes or more, much more work than handing one to a thread); joined in order.
    let tables: Vec<toml::Table> = {
        use rayon::prelude::*;
        pieces
            .par_iter()
            .map(|piece| toml::from_str(piece).ok())
            .collect::<Option<_>>()?
    };
    for (i, table) in tables.into_iter().enumerate() {
        if i == 0 {
            if table.keys().any(|k| opened.contains(k.as_str())) {
                return None;
            }
            root = table;
            continue;
        }
        for (key, value) in table {
            match (root.get_mut(&key), value) {
                (None, value) => {
                    root.insert(key, value);
                }
                (Some(toml::Value::Table(mine)), toml::Value::Table(theirs))
                    if opened.contains(key.as_str()) =>
                {
                    for (k, v) in theirs {
                        if mine.contains_key(&k) {
                            return None; // defined twice: the whole parse says where
                        }
                        mine.insert(k, v);
                    }
                }
                // `[[a]]` elements on both sides of a cut (a piece that begins with a header
                // cannot hold an inline array at the top)
                (Some(toml::Value::Array(mine)), toml::Value::Array(theirs))
                    if opened.contains(key.as_str()) =>
                {
                    mine.extend(theirs);
                }
                _ => return None,
            }
        }
    }
    let mut counts = BTreeMap::new();
    for (key, value) in &root {
        if !others.contains(&key.as_str()) {
            continue;
        }
        let number = match value {
            toml::Value::Integer(n) => *n,
            toml::Value::Datetime(d) => super::seconds(d)?,
            _ => return None,
        };
        counts.insert(key.clone(), number);
    }
    let mut unknown = false;
    let value: T = serde_ignored::deserialize(toml::Value::Table(root), |p| {
        let key = super::segments(&p);
        if !(key.len() == 1 && others.contains(&key[0].as_str())) {
            unknown = true;
        }
    })
    .ok()?;
    (!unknown).then_some((value, counts))
}

/// The text cut before the first `[a.b…]` or `[[a]]` header, then, once the piece holds
/// `PIECE` bytes, before the next header that opens a new `[a.b…]` (its first two keys differ
/// from the last header's) or a new element of an array of tables (every `[[a]]`). A cut
/// inside a multi-line string or array leaves a piece that does not parse alone, which sends
/// the caller to the whole parse.
fn pieces(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut last: Option<Header<'_>> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some(head) = header(line)
            && (matches!(head, Header::Element(_)) || last != Some(head))
        {
            if offset > start && (last.is_none() || offset - start >= PIECE) {
                pieces.push(&text[start..offset]);
                start = offset;
            }
            last = Some(head);
        }
        offset += line.len();
    }
    pieces.push(&text[start..]);
    pieces
}

/// A header line a piece may begin with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Header<'t> {
    /// `[a.b…]`: its first two bare keys.
    Table(&'t str, &'t str),
    /// `[[a]]`, one bare key: a new element of the array of tables `a`.
    Element(&'t str),
}

impl<'t> Header<'t> {
    /// The top-level key it opens.
    fn top(self) -> &'t str {
        match self {
            Header::Table(a, _) | Header::Element(a) => a,
        }
    }
}

fn header(line: &str) -> Option<Header<'_>> {
    let inside = line.strip_prefix('[')?;
    if let Some(element) = inside.strip_prefix('[') {
        let name = element.split("]]").next()?;
        return bare_key(name).then_some(Header::Element(name));
    }
    let name = inside.split(']').next()?;
    let mut keys = name.split('.');
    let (a, b) = (keys.next()?, keys.next()?);
    (bare_key(a) && bare_key(b)).then_some(Header::Table(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `head`, then `entry(i)` for each of `players`, then `extra`.
    fn file(head: &str, players: usize, entry: impl Fn(usize) -> String, extra: &str) -> String {
        let mut text = String::from(head);
        text.extend((0..players).map(entry));
        text.push_str(extra);
        text
    }

    /// state.toml's shape: top-level keys, a table, then a table per player.
    fn big(players: usize, extra: &str) -> String {
        let head = "round = 3\nopened = 2026-12-01T00:00:00Z\n\n[options]\nx = 1\n";
        let entry = |i| {
            format!(
                "\n[players.p{i:05}]\ngarnets = {i}\nhand = [\"a\", \"b\"]\n\n[players.p{i:05}.live]\nroom = \"attic\"\n"
            )
        };
        file(head, players, entry, extra)
    }

    /// Unknown keys are refused by `read` (through serde_ignored), as by the whole parse.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct State {
        options: toml::Table,
        players: BTreeMap<String, toml::Table>,
    }

    #[test]
    fn the_pieces_give_the_whole_files_value() {
        let text = big(3000, "");
        let cut = pieces(&text);
        assert!(cut.len() > 2);
        assert!(cut[0].ends_with("x = 1\n\n") && cut[1].starts_with("[players.p00000]"));
        let (state, counts): (State, _) = read(&text, &["round", "opened"]).unwrap();
        let whole: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(
            toml::Value::try_from(&state.players).unwrap(),
            whole["players"]
        );
        assert_eq!(counts["round"], 3);
        assert_eq!(counts["opened"], 1_796_083_200);
    }

    #[test]
    fn a_file_smaller_than_a_piece_is_parsed_whole() {
        let text = big(3, "");
        assert!(text.len() < PIECE && pieces(&text).len() == 2);
        assert!(read::<State>(&text, &["round"]).is_none());
    }

    /// game.toml's shape: top-level keys, a table, then an array of tables.
    fn roster(players: usize, extra: &str) -> String {
        let head = "game = \"god-race\"\nseed = 1\n\n[mail]\ntransport = \"none\"\n";
        let entry =
            |i| format!("\n[[players]]\nid = \"p{i:05}\"\nmeadow = \"white\"\ngarnets = {i}\n");
        file(head, players, entry, extra)
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Game {
        game: String,
        seed: i64,
        mail: toml::Table,
        players: Vec<toml::Table>,
        #[serde(default)]
        options: Option<toml::Table>,
        #[serde(default)]
        schedule: Option<Schedule>,
    }

    /// Times come through the pieces as they do through the whole parse.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Schedule {
        first_deadline: toml::value::Datetime,
        deadlines: Vec<toml::value::Datetime>,
        every: String,
    }

    #[test]
    fn an_array_of_tables_is_cut_between_elements_and_joined_in_order() {
        let text = roster(5000, "\n[options]\nlength = 4\n").replacen(
            "[mail]",
            "[schedule]\nfirst_deadline = 2026-12-01T18:00:00Z\ndeadlines = [2026-12-03T18:00:00, 2026-12-05]\nevery = \"2d\"\n\n[mail]",
            1,
        );
        let cut = pieces(&text);
        assert!(cut.len() > 3, "{} pieces", cut.len());
        assert!(cut[0].ends_with("transport = \"none\"\n\n"));
        assert!(cut[1..].iter().all(|p| p.starts_with("[[players]]\n")));
        let (ours, _): (Game, _) = read(&text, &[]).unwrap();
        let whole: Game = toml::from_str(&text).unwrap();
        assert_eq!(ours, whole);
        assert_eq!(ours.players.len(), 5000);
        assert_eq!(ours.players[4999]["garnets"].as_integer(), Some(4999));
        assert_eq!(ours.schedule.unwrap().deadlines.len(), 2);
    }

    #[test]
    fn an_array_of_tables_the_pieces_cannot_join_goes_to_the_whole_parse() {
        // `players` inline in the first piece: the whole parse refuses the `[[players]]` after
        let inline = roster(5000, "").replacen("seed = 1\n", "seed = 1\nplayers = []\n", 1);
        assert!(toml::from_str::<toml::Table>(&inline).is_err());
        assert!(read::<Game>(&inline, &[]).is_none());
        // a sub-table of the last element, cut from it: the piece alone says another thing
        let sub = roster(5000, "\n[players.extra]\nx = 1\n");
        let read_sub: Option<(toml::Table, _)> = read(&sub, &[]);
        match read_sub {
            None => {}
            Some((ours, _)) => assert_eq!(ours, toml::from_str::<toml::Table>(&sub).unwrap()),
        }
        // `[players]` as a table after the elements: an error for the whole parse
        let table = roster(5000, "\n[players]\nx = 1\n");
        assert!(toml::from_str::<toml::Table>(&table).is_err());
        assert!(read::<toml::Table>(&table, &[]).is_none());
    }

    #[test]
    fn anything_the_pieces_cannot_say_for_sure_goes_to_the_whole_parse() {
        let refused = [
            // a player defined twice, far apart (the whole parse: a duplicate key)
            "\n[players.p00001]\ngarnets = 1\n",
            // a player's table defined again in a later piece
            "\n[players.p00002.live]\nroom = \"cellar\"\n",
            // a top-level table defined again
            "\n[options]\ny = 2\n",
            // `players` inline in the first piece, which no header may extend
            "",
            // an unknown top-level key (the whole parse names it)
            "\n[extra.one]\nz = 1\n",
        ];
        for extra in refused {
            let mut text = format!("{}{}", big(3000, ""), extra);
            if extra.is_empty() {
                text = text.replacen("round = 3\n", "round = 3\nplayers = { a = {} }\n", 1);
            }
            assert!(pieces(&text).len() > 2);
            let read: Option<(State, _)> = read(&text, &["round", "opened"]);
            assert!(read.is_none(), "{extra}");
        }
        // a piece that is not TOML alone: a cut inside a multi-line string
        let text = big(3000, "").replacen(
            "[players.p02000]",
            "[players.p02000]\nnote = \"\"\"\n[players.zz.top]\n\"\"\"",
            1,
        );
        let read: Option<(State, _)> = read(&text, &["round", "opened"]);
        match read {
            None => {}
            Some((ours, _)) => {
                let whole: toml::Table = toml::from_str(&text).unwrap();
                assert_eq!(
                    toml::Value::try_from(&ours.players).unwrap(),
                    whole["players"]
                );
            }
        }
    }
}
