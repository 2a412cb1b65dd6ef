//! `rounds/NNN/submissions/.ingest.toml`: what ingest knows about the messages of a round that the
//! tick and `status` need. For each player's current file: where it came from, so the tick can
//! record the source and the time it reached the host, reply to the message, tell the player what
//! text it did not read and how it read the rest, and so that an older message never wins. For
//! each message that gave no version (`[[unused]]`): who sent it, when, and why, for `status`'s
//! "mail not used", the reminder, and the one-reply-an-hour limit.

use crate::context::GameContext;
use crate::error::Result;
use crate::game_dir::read_optional;
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Origins {
    #[serde(default)]
    pub origin: BTreeMap<PlayerId, Origin>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unused: Vec<Unused>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// "mail", "chat", or "host" (`adjudicate enter`)
    pub source: String,
    /// Why the host entered it (`enter --reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When the message reached the host (Unix seconds).
    #[serde(alias = "date")]
    pub reached: i64,
    /// The sender's own Date (Unix seconds): orders two messages that reached the host in the
    /// same second.
    #[serde(default)]
    pub sent: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Of the file written, to tell whether the file is still the ingested one.
    pub sha256: String,
    /// The sender's text around the submission that was not read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
    /// How the message was read (`extract::Note::text`, and earlier messages it replaced).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// For each line of the file, its line in the message (empty: the same lines).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
}

/// A message read this round that gave no version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unused {
    /// The player it came from; none: a sender who is not a player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
    pub sender: String,
    /// When it reached the host (Unix seconds).
    pub reached: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub why: String,
    /// Whether a reply was queued (at most one "no submission found" per sender and hour).
    #[serde(default)]
    pub replied: bool,
}

pub const ORIGINS: &str = ".ingest.toml";

pub fn origins_path(ctx: &GameContext, round: u32) -> PathBuf {
    ctx.dir.submissions(round).join(ORIGINS)
}

pub fn read_origins(ctx: &GameContext, round: u32) -> Result<Origins> {
    let path = origins_path(ctx, round);
    match read_optional(&path)? {
        Some(text) => crate::host_file::parse(&path, &text),
        None => Ok(Origins::default()),
    }
}

impl Origins {
    /// Whether a "no submission found" reply went to `sender` in the hour before `reached`,
    /// for another message than `message_id` (a run killed before it finished reads its own
    /// messages again).
    pub fn replied_within_hour(
        &self,
        sender: &str,
        reached: i64,
        message_id: &Option<String>,
    ) -> bool {
        self.unused.iter().any(|u| {
            u.replied
                && u.sender == sender
                && u.reached <= reached
                && reached - u.reached < HOUR
                && (message_id.is_none() || &u.message_id != message_id)
        })
    }

    /// Records a message that gave no version, once (a re-run after a kill reads it again).
    pub fn record(&mut self, unused: Unused) {
        let again = unused.message_id.is_some()
            && self
                .unused
                .iter()
                .any(|u| u.message_id == unused.message_id && u.sender == unused.sender);
        if !again {
            self.unused.push(unused);
        }
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("origins serialize")
    }
}

const HOUR: i64 = 3600;
