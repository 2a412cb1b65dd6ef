//! The `[meta]` table of a result.toml: which round it is, where it sits in the schedule, what
//! comes next and when the round stopped taking versions. Read on its own (from the top of the
//! file) wherever the tick needs to know how far a game has come.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Facts about the round itself, not about play: which round, where it sits in the schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub game: String,
    pub round: u32,
    /// How many rounds were resolved before this one (the schedule index).
    pub index: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_deadline: Option<String>,
    /// The opening of a game whose first round is round 0 (God Race): kept apart from that
    /// round's own result, in `rounds/000/opening/`, and mailed as a welcome.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opening: bool,
    /// When the round stopped taking versions (RFC 3339): its deadline when it was resolved as
    /// due, else the moment it was resolved (`early_close`, `--force`). The next round takes
    /// every version that reached the host after it; `replay` reads it from here. Absent in
    /// results of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<String>,
}

impl Meta {
    /// The `[meta]` of a result.toml, read from the top of the file only (it comes first, and a
    /// result of many players is large): `None` when there is no such file.
    pub fn read(path: &Path) -> Result<Option<Meta>> {
        use std::io::Read;
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(path, e)),
        };
        // room for the whole head at once: read_to_end would grow an empty buffer from 32
        // bytes, a read call per doubling
        let mut head = Vec::with_capacity(16 * 1024);
        file.take(16 * 1024)
            .read_to_end(&mut head)
            .map_err(|e| Error::io(path, e))?;
        let text = String::from_utf8_lossy(&head);
        let end = text.find("\n[public").map_or(text.len(), |e| e + 1);
        #[derive(Deserialize)]
        struct Head {
            meta: Meta,
        }
        let head: Head = toml::from_str(&text[..end])
            .map_err(|e| Error::invalid(path, "meta", e.message().to_owned()))?;
        Ok(Some(head.meta))
    }
}
