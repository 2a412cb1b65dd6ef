//! A big host file's parsed value, remembered in `GAME_DIR/.cache/parsed/` by the tick that
//! wrote the file (issue #30): the TOML parser reads some 8 MB/s, so a 10,000-player state.toml
//! took a fifth of the next tick; the same value read back from JSON takes a few milliseconds.
//!
//! A memo is a cache, like the rest of `.cache/`: its first line holds the sha256 of the exact
//! text it stands for (and the program version and type it was written for), so it is used
//! only for that text, byte for byte. A hand edit, a file written by another command, a memo
//! missing, unreadable, of another version or that does not read back as the type, are all a
//! miss: the file is parsed as always, with every check and every error. Files under `MIN_BYTES`
//! get no memo: parsing them costs less than the memo's own write.
//!
//! Debug builds (every test) parse the file on every hit too and require the same value.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;

/// A host file's top-level bookkeeping numbers (`host_file::parse_with_counts`).
pub type Counts = BTreeMap<String, i64>;

/// Smaller files are parsed every time.
pub const MIN_BYTES: usize = 64 * 1024;

/// The memo's layout; a change makes every older memo a miss.
const LAYOUT: &str = "adjudicate-memo 1";

#[derive(Serialize)]
struct Written<'a, T> {
    counts: &'a Counts,
    value: &'a T,
}

#[derive(serde::Deserialize)]
struct Read<T> {
    counts: Counts,
    value: T,
}

/// The first line: what the memo stands for.
fn header<T>(text: &str) -> String {
    format!(
        "{LAYOUT} {} {} {}\n",
        env!("CARGO_PKG_VERSION"),
        std::any::type_name::<T>(),
        crate::submission::sha256_hex(text.as_bytes())
    )
}

/// The memo of `text` parsed as `(value, counts)`; `None` for a file too small to need one.
pub fn encode<T: Serialize>(text: &str, value: &T, counts: &Counts) -> Option<Vec<u8>> {
    if text.len() < MIN_BYTES {
        return None;
    }
    let mut out = header::<T>(text).into_bytes();
    out.reserve(text.len()); // about the memo's size: not grown by copies
    serde_json::to_writer(&mut out, &Written { counts, value }).ok()?;
    Some(out)
}

/// The value a memo holds for exactly `text`, if `memo` is one.
pub fn decode<T: DeserializeOwned>(text: &str, memo: &[u8]) -> Option<(T, Counts)> {
    let line = memo.iter().position(|b| *b == b'\n')? + 1;
    if memo[..line] != *header::<T>(text).as_bytes() {
        return None;
    }
    let read: Read<T> = serde_json::from_slice(&memo[line..]).ok()?;
    Some((read.value, read.counts))
}

/// The value of `text` remembered in the file `memo`, if there is one for exactly this text.
pub fn recall<T: DeserializeOwned>(memo: &std::path::Path, text: &str) -> Option<(T, Counts)> {
    if text.len() < MIN_BYTES {
        return None;
    }
    decode(text, &std::fs::read(memo).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Small {
        name: String,
        n: u32,
    }

    fn big_text(extra: &str) -> String {
        format!("{}{extra}", "# padding\n".repeat(MIN_BYTES / 10 + 1))
    }

    fn counts() -> Counts {
        [("seed".to_string(), 7)].into_iter().collect()
    }

    #[test]
    fn a_memo_stands_for_exactly_its_text_and_type() {
        let text = big_text("name = \"a\"\nn = 1\n");
        let value = Small {
            name: "a".into(),
            n: 1,
        };
        let memo = encode(&text, &value, &counts()).unwrap();
        assert_eq!(decode::<Small>(&text, &memo), Some((value, counts())));
        // one byte of the text changed: a miss
        let edited = text.replacen("n = 1", "n = 2", 1);
        assert_eq!(decode::<Small>(&edited, &memo), None);
        // read as another type: a miss, even where the JSON would fit it
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Other {
            name: String,
            n: u32,
        }
        assert!(decode::<Other>(&text, &memo).is_none());
    }

    #[test]
    fn a_damaged_memo_is_a_miss() {
        let text = big_text("");
        let value = Small {
            name: "a".into(),
            n: 1,
        };
        let memo = encode(&text, &value, &counts()).unwrap();
        assert_eq!(decode::<Small>(&text, &memo[..memo.len() - 3]), None);
        assert_eq!(decode::<Small>(&text, b""), None);
        assert_eq!(decode::<Small>(&text, b"no header"), None);
        let older =
            String::from_utf8(memo.clone())
                .unwrap()
                .replacen(LAYOUT, "adjudicate-memo 0", 1);
        assert_eq!(decode::<Small>(&text, older.as_bytes()), None);
    }

    #[test]
    fn small_files_get_no_memo() {
        let value = Small {
            name: "a".into(),
            n: 1,
        };
        assert_eq!(encode("n = 1\n", &value, &counts()), None);
        let missing = std::path::Path::new("/nonexistent/memo");
        assert_eq!(recall::<Small>(missing, &big_text("")), None);
    }
}
