//! `PlayerId`: a validated player id (`[a-z0-9][a-z0-9_-]{0,31}`, spec README). Because ids are
//! checked on construction, an id can be used as a file name stem without any path escaping.

use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct PlayerId(String);

impl PlayerId {
    pub fn parse(text: &str) -> Option<PlayerId> {
        let mut chars = text.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        let rest_ok =
            chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        (first_ok && rest_ok && text.len() <= 32).then(|| PlayerId(text.to_owned()))
    }

    /// An id as a player writes it when naming another player in a submission: spaces around it
    /// and letter case do not matter (`" Erin"` names `erin`); the canonical id is what is echoed.
    pub fn named(text: &str) -> Option<PlayerId> {
        PlayerId::parse(&text.trim().to_ascii_lowercase())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// "alice, bob, carol": ids as players' messages list them.
    pub fn join(ids: &[PlayerId]) -> String {
        ids.iter()
            .map(PlayerId::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for PlayerId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
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
    fn ids_that_could_escape_a_directory_are_refused() {
        for bad in ["", "..", "../x", "Bob", "a/b", "-x", "a.b", &"x".repeat(33)] {
            assert!(PlayerId::parse(bad).is_none(), "{bad:?} accepted");
        }
        for good in ["alice", "p1", "0", "a_b-c", &"x".repeat(32)] {
            assert!(PlayerId::parse(good).is_some(), "{good:?} refused");
        }
    }
}
