//! `rounds/NNN/receipts.toml`: one `[[receipt]]` per distinct version of a submission, in the
//! order received. Receipts are append-only; they and the `received/` copies are the archive from
//! which `replay` re-resolves every round.

use crate::config::parse_host_file;
use crate::error::Result;
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipts {
    #[serde(default, rename = "receipt")]
    pub list: Vec<Receipt>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub player: PlayerId,
    pub n: u32,
    /// When the tick received it (RFC 3339, UTC).
    pub at: String,
    /// Of the submission file's bytes as found, before any redaction.
    pub sha256: String,
    pub source: String,
    /// The mail's Message-ID (or chat message id) the version came in, when `ingest` wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub valid: bool,
    pub problems: Vec<String>,
    /// Refused before the rules read it (size, encoding, TOML syntax, token): replay takes the
    /// verdict from here instead of re-reading the archived copy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
}

impl Receipts {
    pub fn parse(path: &Path, text: &str) -> Result<Receipts> {
        parse_host_file(path, text)
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("receipts serialize")
    }

    pub fn last_for(&self, player: &PlayerId) -> Option<&Receipt> {
        self.list.iter().rev().find(|r| &r.player == player)
    }
}
