//! events.toml: what happens between matches, outside the games' rules, each dated and with a
//! reason: an elimination, a Death Match result (its loser is eliminated), a Token of Life granted
//! or spent, a garnet correction. `season event` appends to it (temp file, then rename); a host
//! may also edit it, and it is read as strictly as every host file.
//!
//! ```toml
//! [[event]]
//! at = "2026-12-08T18:00:00Z"
//! kind = "death-match"          # eliminate | death-match | tokens | garnets
//! winner = "carol"
//! loser = "bob"
//! reason = "Death Match after Main Match 1"
//! ```

use crate::error::{Error, Result};
use crate::player_id::PlayerId;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    Eliminate { player: PlayerId },
    DeathMatch { winner: PlayerId, loser: PlayerId },
    Tokens { player: PlayerId, change: i64 },
    Garnets { player: PlayerId, change: i64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub at: Timestamp,
    pub what: What,
    pub reason: String,
}

impl Event {
    /// The players the event is about.
    pub fn players(&self) -> Vec<&PlayerId> {
        match &self.what {
            What::Eliminate { player }
            | What::Tokens { player, .. }
            | What::Garnets { player, .. } => vec![player],
            What::DeathMatch { winner, loser } => vec![winner, loser],
        }
    }

    /// One line for `season status`, with players' ids.
    pub fn describe(&self) -> String {
        self.describe_with(&|id: &PlayerId| id.to_string())
    }

    /// One line with players as `name` gives them (reports use display names).
    pub fn describe_with(&self, name: &dyn Fn(&PlayerId) -> String) -> String {
        let what = match &self.what {
            What::Eliminate { player } => format!("{} eliminated", name(player)),
            What::DeathMatch { winner, loser } => format!(
                "Death Match: {} beat {}, who is eliminated",
                name(winner),
                name(loser)
            ),
            What::Tokens { player, change } => {
                format!("{}: {change:+} Token(s) of Life", name(player))
            }
            What::Garnets { player, change } => format!("{}: {change:+} garnet(s)", name(player)),
        };
        format!(
            "{} {what} ({})",
            crate::clock::human_with_year(self.at),
            self.reason
        )
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvents {
    #[serde(default)]
    event: Vec<RawEvent>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    at: String,
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loser: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<i64>,
    reason: String,
}

pub const KINDS: [&str; 4] = ["eliminate", "death-match", "tokens", "garnets"];

/// Reads events.toml (a missing file: no events). Every entry is checked: its kind and the keys
/// that kind needs; the players and the order of events are checked by the ledger.
pub fn load(path: &Path) -> Result<Vec<Event>> {
    let Some(text) = crate::game_dir::read_optional(path)? else {
        return Ok(Vec::new());
    };
    let raw: RawEvents = crate::host_file::parse(path, &text)?;
    raw.event
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            event(e).map_err(|(key, m)| Error::invalid(path, format!("event[{i}].{key}"), m))
        })
        .collect()
}

fn event(raw: RawEvent) -> std::result::Result<Event, (&'static str, String)> {
    let at = crate::clock::parse_instant(&raw.at).map_err(|m| ("at", m))?;
    if raw.reason.trim().is_empty() {
        return Err(("reason", "say why, for the season's record".into()));
    }
    let need = |value: Option<PlayerId>, key: &'static str| {
        value.ok_or((key, format!("a `{}` event needs `{key}`", raw.kind)))
    };
    let unused = |keys: &[(&'static str, bool)]| match keys.iter().find(|(_, set)| *set) {
        Some((key, _)) => Err((*key, format!("is not a key of a `{}` event", raw.kind))),
        None => Ok(()),
    };
    let change = |value: Option<i64>| match value {
        Some(0) | None => Err(("change", "a change other than 0 (e.g. 1 or -1)".to_owned())),
        Some(c) if c.abs() > crate::games::MAX_GARNETS => {
            Err(("change", format!("{c} is out of range")))
        }
        Some(c) => Ok(c),
    };
    let what = match raw.kind.as_str() {
        "eliminate" => {
            unused(&[
                ("winner", raw.winner.is_some()),
                ("loser", raw.loser.is_some()),
                ("change", raw.change.is_some()),
            ])?;
            What::Eliminate {
                player: need(raw.player, "player")?,
            }
        }
        "death-match" => {
            unused(&[
                ("player", raw.player.is_some()),
                ("change", raw.change.is_some()),
            ])?;
            let (winner, loser) = (need(raw.winner, "winner")?, need(raw.loser, "loser")?);
            if winner == loser {
                return Err(("loser", "the winner and the loser are one player".into()));
            }
            What::DeathMatch { winner, loser }
        }
        "tokens" | "garnets" => {
            unused(&[
                ("winner", raw.winner.is_some()),
                ("loser", raw.loser.is_some()),
            ])?;
            let player = need(raw.player, "player")?;
            let change = change(raw.change)?;
            if raw.kind == "tokens" {
                What::Tokens { player, change }
            } else {
                What::Garnets { player, change }
            }
        }
        other => {
            return Err((
                "kind",
                format!("`{other}` is not an event; one of {}", KINDS.join(", ")),
            ));
        }
    };
    Ok(Event {
        at,
        what,
        reason: raw.reason,
    })
}

fn raw(event: &Event) -> RawEvent {
    let mut raw = RawEvent {
        at: crate::clock::rfc3339(event.at),
        kind: String::new(),
        player: None,
        winner: None,
        loser: None,
        change: None,
        reason: event.reason.clone(),
    };
    match &event.what {
        What::Eliminate { player } => {
            raw.kind = "eliminate".into();
            raw.player = Some(player.clone());
        }
        What::DeathMatch { winner, loser } => {
            raw.kind = "death-match".into();
            raw.winner = Some(winner.clone());
            raw.loser = Some(loser.clone());
        }
        What::Tokens { player, change } | What::Garnets { player, change } => {
            raw.kind = if matches!(event.what, What::Tokens { .. }) {
                "tokens"
            } else {
                "garnets"
            }
            .into();
            raw.player = Some(player.clone());
            raw.change = Some(*change);
        }
    }
    raw
}

/// The text of events.toml holding `events`.
pub fn to_toml(events: &[Event]) -> String {
    let raw = RawEvents {
        event: events.iter().map(raw).collect(),
    };
    format!(
        "# The season's events, oldest first (written by `adjudicate season event`).\n\n{}",
        toml::to_string(&raw).expect("events serialize")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<Event>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.toml");
        std::fs::write(&path, text).unwrap();
        load(&path)
    }

    #[test]
    fn every_kind_reads_back_as_written() {
        let text = "[[event]]\nat = \"2026-12-08T18:00:00Z\"\nkind = \"death-match\"\nwinner = \"carol\"\nloser = \"bob\"\nreason = \"DM 1\"\n\n[[event]]\nat = \"2026-12-09T18:00:00Z\"\nkind = \"tokens\"\nplayer = \"dave\"\nchange = -1\nreason = \"spent\"\n\n[[event]]\nat = \"2026-12-09T19:00:00Z\"\nkind = \"garnets\"\nplayer = \"dave\"\nchange = 3\nreason = \"host error in match 1\"\n\n[[event]]\nat = \"2026-12-10T18:00:00Z\"\nkind = \"eliminate\"\nplayer = \"erin\"\nreason = \"quit\"\n";
        let events = parse(text).unwrap();
        assert_eq!(events.len(), 4);
        assert_eq!(
            events[0].what,
            What::DeathMatch {
                winner: PlayerId::parse("carol").unwrap(),
                loser: PlayerId::parse("bob").unwrap()
            }
        );
        assert_eq!(parse(&to_toml(&events)).unwrap(), events);
    }

    #[test]
    fn a_broken_event_is_refused_with_its_index_and_key() {
        for (text, says) in [
            (
                "kind = \"smite\"\nplayer = \"bob\"",
                "event[0].kind: `smite` is not an event",
            ),
            (
                "kind = \"eliminate\"",
                "event[0].player: a `eliminate` event needs `player`",
            ),
            (
                "kind = \"tokens\"\nplayer = \"bob\"\nchange = 0",
                "event[0].change",
            ),
            (
                "kind = \"eliminate\"\nplayer = \"bob\"\nchange = 2",
                "event[0].change: is not a key",
            ),
            (
                "kind = \"death-match\"\nwinner = \"bob\"\nloser = \"bob\"",
                "event[0].loser",
            ),
        ] {
            let text =
                format!("[[event]]\nat = \"2026-12-08T18:00:00Z\"\nreason = \"r\"\n{text}\n");
            let err = parse(&text).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
        let err = parse("[[event]]\nat = \"yesterday\"\nkind = \"eliminate\"\nplayer = \"bob\"\nreason = \"r\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("event[0].at"), "{err}");
    }
}
