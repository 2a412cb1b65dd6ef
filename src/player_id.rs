//! `PlayerId`: a validated player id (`[a-z0-9][a-z0-9_-]{0,31}`, spec README). Because ids are
//! checked on construction, an id can be used as a file name stem without any path escaping.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// The longest id.
pub const MAX_LEN: usize = 32;

/// The id's ASCII bytes, held inline: an id is cloned wherever results and reports are keyed by
/// player, and a copy of 33 bytes costs no allocation (ten thousand players' results, a
/// simulator's millions of rounds). Ordered, compared and printed as the text it is.
#[derive(Clone, Eq)]
pub struct PlayerId {
    len: u8,
    bytes: [u8; MAX_LEN],
}

impl PlayerId {
    pub fn parse(text: &str) -> Option<PlayerId> {
        Self::from_bytes(text.as_bytes(), |b| b)
    }

    /// An id as a player writes it when naming another player in a submission: spaces around it
    /// and letter case do not matter (`" Erin"` names `erin`); the canonical id is what is echoed.
    pub fn named(text: &str) -> Option<PlayerId> {
        Self::from_bytes(text.trim().as_bytes(), |b| b.to_ascii_lowercase())
    }

    /// The id of `text`'s bytes, each mapped by `byte` as it is copied (no copy of the text is
    /// made first: ids are read from every submission a simulator's bots send).
    fn from_bytes(text: &[u8], byte: impl Fn(u8) -> u8) -> Option<PlayerId> {
        let first = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
        let rest = |b: u8| first(b) || b == b'_' || b == b'-';
        if text.is_empty() || text.len() > MAX_LEN {
            return None;
        }
        let mut bytes = [0; MAX_LEN];
        for (i, (&b, to)) in text.iter().zip(&mut bytes).enumerate() {
            *to = byte(b);
            let ok = if i == 0 { first(*to) } else { rest(*to) };
            if !ok {
                return None;
            }
        }
        Some(PlayerId {
            len: text.len() as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)])
            .expect("an id is checked to be ASCII when it is made")
    }

    /// "alice, bob, carol": ids as players' messages list them.
    pub fn join(ids: &[PlayerId]) -> String {
        ids.iter()
            .map(PlayerId::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl AsRef<str> for PlayerId {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PlayerId").field(&self.as_str()).finish()
    }
}

impl PlayerId {
    /// The bytes as two big-endian numbers: they order as the bytes do, in two comparisons.
    fn halves(&self) -> (u128, u128) {
        let (a, b) = self.bytes.split_at(MAX_LEN / 2);
        (
            u128::from_be_bytes(a.try_into().expect("16 bytes")),
            u128::from_be_bytes(b.try_into().expect("16 bytes")),
        )
    }
}

impl std::hash::Hash for PlayerId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.halves().hash(state);
    }
}

impl PartialEq for PlayerId {
    fn eq(&self, other: &Self) -> bool {
        self.halves() == other.halves()
    }
}

/// The order of the texts: the bytes after an id's end are 0, below every byte an id may hold,
/// so comparing the whole arrays orders "a" before "a_" as `str` does.
impl Ord for PlayerId {
    fn cmp(&self, other: &Self) -> Ordering {
        self.halves().cmp(&other.halves())
    }
}

impl PartialOrd for PlayerId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for PlayerId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for PlayerId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        PlayerId::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{text}` is not a player id: use 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::PlayerId;

    #[test]
    fn ids_order_and_print_as_their_text() {
        let ids: Vec<PlayerId> = ["b", "a-z", "a", "a_", "ab", "a0"]
            .iter()
            .map(|t| PlayerId::parse(t).unwrap())
            .collect();
        let mut sorted = ids.clone();
        sorted.sort();
        let mut texts: Vec<&str> = ids.iter().map(PlayerId::as_str).collect();
        texts.sort();
        assert_eq!(
            sorted.iter().map(PlayerId::as_str).collect::<Vec<_>>(),
            texts
        );
        assert_eq!(format!("{:?}", ids[0]), "PlayerId(\"b\")");
        let long = "x".repeat(32);
        assert_eq!(PlayerId::parse(&long).unwrap().to_string(), long);
    }

    #[test]
    fn ids_that_could_escape_a_directory_are_refused() {
        for bad in ["", "..", "../x", "Bob", "a/b", "-x", "a.b", &"x".repeat(33)] {
            assert!(PlayerId::parse(bad).is_none(), "{bad:?} accepted");
        }
        for good in ["alice", "p1", "0", "a_b-c", &"x".repeat(32)] {
            assert!(PlayerId::parse(good).is_some(), "{good:?} refused");
        }
    }

    #[test]
    fn a_named_id_ignores_case_and_the_spaces_around_it_and_nothing_else() {
        let cases = [
            (" Erin ", Some("erin")),
            ("ALICE", Some("alice")),
            ("\tp1\n", Some("p1")),
            ("a_B-c", Some("a_b-c")),
            ("er in", None),
            ("", None),
            ("   ", None),
            ("-x", None),
            ("É", None),
            ("ß", None),
        ];
        for (text, want) in cases {
            assert_eq!(
                PlayerId::named(text).as_ref().map(PlayerId::as_str),
                want,
                "{text:?}"
            );
        }
        let long = format!(" {} ", "X".repeat(32));
        assert_eq!(PlayerId::named(&long).unwrap().as_str(), "x".repeat(32));
        assert!(PlayerId::named(&"X".repeat(33)).is_none());
    }
}
