//! One player's `[private.<id>]` of a result: what the rules tell that player alone.

use super::to_table;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// One player's `[private.<id>]`, as the JSON object the templates read (always an object) and
/// result.toml is written from. An engine hands over its typed struct (`typed`), and the object
/// is built from it each time it is read (`value`) and kept by nobody: resolving a round builds
/// no tree of maps per player, the simulator, which renders nothing, never builds one, and a
/// tick builds each player's once, in the thread that renders that player's report and writes
/// their part of result.toml from it, so that no more than one tree a thread is alive at once.
/// A key whose value is `None` is left out, as TOML leaves it out, so a part reads back from
/// result.toml as it was built.
#[derive(Clone)]
pub struct PrivatePart {
    source: Source,
}

/// Where a part's object comes from: an object read back from a file, a struct of its own, or
/// row `i` of every player's structs, kept together (`PrivatePart::rows`).
#[derive(Clone)]
enum Source {
    Object(serde_json::Value),
    One(Arc<dyn Typed>),
    Row(Arc<dyn Rows>, usize),
}

/// An engine's private struct, kept until its part is read.
trait Typed: Send + Sync {
    fn json(&self) -> serde_json::Value;
}

/// Every player's private struct, in one list.
trait Rows: Send + Sync {
    fn json_at(&self, i: usize) -> serde_json::Value;
}

impl<T: Serialize + Send + Sync> Rows for Vec<T> {
    fn json_at(&self, i: usize) -> serde_json::Value {
        self[i].json()
    }
}

impl<T: Serialize + Send + Sync> Typed for T {
    /// The struct's JSON object, without its null keys.
    fn json(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(self).expect("result structs serialize");
        assert!(json.is_object(), "a private part is a table");
        without_nulls(&mut json);
        // every test proves the part is what the TOML table of the same struct reads as
        debug_assert_eq!(
            serde_json::to_value(to_table(self)).ok().as_ref(),
            Some(&json),
            "a private part as JSON and as TOML"
        );
        json
    }
}

impl PrivatePart {
    /// The part an engine's private struct makes, built when read.
    pub fn typed<T: Serialize + Send + Sync + 'static>(value: T) -> PrivatePart {
        PrivatePart {
            source: Source::One(Arc::new(value)),
        }
    }

    /// The parts of a list of private structs, one per item, in order: the list is kept whole,
    /// shared by the parts, so a round of 100,000 players neither copies its structs nor
    /// allocates one per player.
    pub fn rows<T: Serialize + Send + Sync + 'static>(
        rows: Vec<T>,
    ) -> impl ExactSizeIterator<Item = PrivatePart> {
        let n = rows.len();
        let rows: Arc<dyn Rows> = Arc::new(rows);
        (0..n).map(move |i| PrivatePart {
            source: Source::Row(rows.clone(), i),
        })
    }

    /// The part as the templates read it, a JSON object: the one read from a file, or one built
    /// now from the engine's struct (and not kept: read it once where it is needed twice).
    pub fn value(&self) -> Cow<'_, serde_json::Value> {
        match &self.source {
            Source::Object(json) => Cow::Borrowed(json),
            Source::One(typed) => Cow::Owned(typed.json()),
            Source::Row(rows, i) => Cow::Owned(rows.json_at(*i)),
        }
    }

    /// The part as the table result.toml holds.
    pub fn to_table(&self) -> toml::Table {
        toml::Table::try_from(self.value().as_ref()).expect("a private part is a table")
    }
}

impl Default for PrivatePart {
    fn default() -> PrivatePart {
        PrivatePart {
            source: Source::Object(serde_json::Value::Object(serde_json::Map::new())),
        }
    }
}

impl PartialEq for PrivatePart {
    fn eq(&self, other: &PrivatePart) -> bool {
        self.value() == other.value()
    }
}

impl fmt::Debug for PrivatePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value().fmt(f)
    }
}

impl Serialize for PrivatePart {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for PrivatePart {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PrivatePart, D::Error> {
        let map = serde_json::Map::deserialize(d)?;
        Ok(PrivatePart {
            source: Source::Object(serde_json::Value::Object(map)),
        })
    }
}

/// `value` with every object key whose value is null removed, at every depth (`None` fields).
fn without_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(without_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_nulls),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Note {
        hand: Vec<&'static str>,
        score: Option<u32>,
        inner: Inner,
    }

    #[derive(Serialize)]
    struct Inner {
        gone: Option<bool>,
        kept: u8,
    }

    fn note() -> Note {
        Note {
            hand: vec!["red", "blue"],
            score: None,
            inner: Inner {
                gone: None,
                kept: 3,
            },
        }
    }

    #[test]
    fn a_part_reads_as_its_struct_without_the_nones() {
        let part = PrivatePart::typed(note());
        assert_eq!(
            part.value().as_ref(),
            &serde_json::json!({"hand": ["red", "blue"], "inner": {"kept": 3}})
        );
        assert_eq!(part.to_table(), to_table(&note()));
    }

    #[test]
    fn a_typed_part_is_built_on_each_read_and_kept_by_nobody() {
        let part = PrivatePart::typed(note());
        let (first, second) = (part.value(), part.value());
        assert!(matches!(first, Cow::Owned(_)), "built from the struct");
        assert_eq!(first, second, "the same object every time");
        assert!(
            !std::ptr::eq(first.as_ref(), second.as_ref()),
            "no object kept between reads"
        );
        // a part read back from a file lends the object it holds
        let read: PrivatePart = toml::from_str("kept = 3\n").unwrap();
        assert!(matches!(read.value(), Cow::Borrowed(_)));
    }

    #[test]
    fn parts_of_one_list_each_read_as_their_own_row() {
        let mut second = note();
        second.score = Some(7);
        second.hand = vec![];
        let parts: Vec<PrivatePart> = PrivatePart::rows(vec![note(), second]).collect();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0], PrivatePart::typed(note()));
        assert_eq!(
            parts[1].value().as_ref(),
            &serde_json::json!({"hand": [], "score": 7, "inner": {"kept": 3}})
        );
        assert_ne!(parts[0], parts[1]);
    }

    #[test]
    fn a_part_read_back_from_toml_is_the_table_it_was_written_from() {
        let part: PrivatePart = toml::from_str("hand = [\"red\"]\nscore = 4\n").unwrap();
        assert_eq!(
            part.value().as_ref(),
            &serde_json::json!({"hand": ["red"], "score": 4})
        );
    }
}
