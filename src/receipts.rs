//! `rounds/NNN/receipts.toml`: one `[[receipt]]` per distinct version of a submission, in the
//! order received. Receipts are append-only; they and the `received/` copies are the archive from
//! which `replay` re-resolves every round.
//!
//! A hand-edited receipts.toml is checked on load (every player a player of game.toml, versions
//! numbered 1, 2, … per player, well-formed hashes and times), and `verify_archive` checks each
//! receipt against the copy it archives: a changed digit must not make a phantom version.

use crate::config::GameConfig;
use crate::error::{Error, Result};
use crate::game_dir::GameDir;
use crate::player_id::PlayerId;
use crate::submission::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// When the version reached the host (spec README, "When a version counts"): the mail's
    /// arrival, the chat message's time, or for a file put in by hand, `at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reached: Option<String>,
    /// Of the submission file's bytes as found, before any redaction.
    pub sha256: String,
    /// Of the copy in `received/`, when redacting tokens made it differ from the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<String>,
    pub source: String,
    /// Why the host entered it (`source = "host"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The mail's Message-ID (or chat message id) the version came in, when `ingest` wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub valid: bool,
    pub problems: Vec<String>,
    /// Refused before the rules read it (size, encoding, TOML syntax, token, too late): replay
    /// takes the verdict from here instead of re-reading the archived copy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
    /// Reached the host after the round's deadline: archived, never applied.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub late: bool,
}

impl Receipts {
    /// Whether a tick received a version after `at` (a receipt's `at`): something happened in
    /// the round since a host's action taken then.
    pub fn received_after(&self, at: jiff::Timestamp) -> bool {
        self.list
            .iter()
            .any(|r| crate::clock::parse_instant(&r.at).is_ok_and(|t| t > at))
    }

    /// A round's receipts (none if the file does not exist yet), checked against game.toml.
    pub fn load(dir: &GameDir, config: &GameConfig, round: u32) -> Result<Receipts> {
        let path = dir.receipts(round);
        let Some(text) = crate::game_dir::read_optional(&path)? else {
            return Ok(Receipts::default());
        };
        let memo = dir.memo(&path);
        let (receipts, _): (Receipts, _) =
            crate::host_file::parse_remembered(&path, &text, &[], &memo)?;
        receipts
            .check(config)
            .map_err(|(key, m)| Error::invalid(&path, key, m))?;
        Ok(receipts)
    }

    /// What a hand edit can break: `Err((key, message))`.
    fn check(&self, config: &GameConfig) -> std::result::Result<(), (String, String)> {
        let mut last: BTreeMap<&PlayerId, u32> = BTreeMap::new();
        for (i, r) in self.list.iter().enumerate() {
            let key = |field: &str| format!("receipt[{i}].{field}");
            if config.player(&r.player).is_none() {
                return Err((
                    key("player"),
                    format!("`{}` is not a player of game.toml", r.player),
                ));
            }
            let expected = last.get(&r.player).map_or(1, |n| n + 1);
            if r.n != expected {
                return Err((
                    key("n"),
                    format!(
                        "is {} but {}'s versions are numbered 1, 2, … in order: expected {expected}",
                        r.n, r.player
                    ),
                ));
            }
            last.insert(&r.player, r.n);
            for (field, hash) in [
                ("sha256", Some(&r.sha256)),
                ("archived", r.archived.as_ref()),
            ] {
                if let Some(h) = hash.filter(|h| !is_sha256(h)) {
                    return Err((key(field), format!("`{h}` is not a sha256 (64 hex digits)")));
                }
            }
            crate::clock::parse_instant(&r.at).map_err(|m| (key("at"), m))?;
            if let Some(reached) = &r.reached {
                crate::clock::parse_instant(reached).map_err(|m| (key("reached"), m))?;
            }
            if r.late && !r.refused {
                return Err((key("late"), "a late version is also refused".into()));
            }
            if !["file", "mail", "chat", "host"].contains(&r.source.as_str()) {
                return Err((
                    key("source"),
                    format!("`{}` is not one of file, mail, chat, host", r.source),
                ));
            }
            if r.refused && r.valid {
                return Err((key("valid"), "a refused version cannot be valid".into()));
            }
        }
        Ok(())
    }

    /// Checks that every receipt's copy in `received/` is there and holds the bytes it hashed.
    pub fn verify_archive(&self, dir: &GameDir, round: u32) -> Result<()> {
        for (i, r) in self.list.iter().enumerate() {
            r.verify(dir, round, i)?;
        }
        Ok(())
    }

    /// The file's text: the same as one `toml::to_string` of the whole, written a receipt at a
    /// time (`host_file::parts_of`).
    pub fn to_toml(&self) -> String {
        #[derive(Serialize)]
        struct One<'a> {
            receipt: [&'a Receipt; 1],
        }
        if self.list.is_empty() {
            // (`receipt = []`, which no receipt at a time writes)
            return toml::to_string(self).expect("receipts serialize");
        }
        let sections = self
            .list
            .iter()
            .map(|r| toml::to_string(&One { receipt: [r] }).expect("receipts serialize"))
            .collect();
        let text = crate::host_file::join_parts(crate::host_file::parts_of(sections));
        debug_assert_eq!(
            text,
            toml::to_string(self).expect("receipts serialize"),
            "receipts.toml a receipt at a time"
        );
        text
    }

    /// Plans round `round`'s receipts.toml, and its memo (`host_file::memo`) when it is big. A
    /// tick writes it at once and renames it into place at its commit (`Plan::early_file`):
    /// planned when the versions arrive, its text is not held while the round resolves.
    pub fn plan(&self, plan: &mut crate::plan::Plan, dir: &GameDir, round: u32) -> Result<()> {
        let path = dir.receipts(round);
        let text = self.to_toml();
        let none = crate::host_file::memo::Counts::new();
        if let Some(memo) = crate::host_file::memo::encode(&text, self, &none) {
            plan.cache_file(dir.memo(&path), memo);
        }
        plan.early_file(path, text.into_bytes())
    }
}

impl Receipt {
    /// When the version reached the host.
    pub fn reached(&self) -> &str {
        self.reached.as_deref().unwrap_or(&self.at)
    }

    /// Checks this receipt (the `index`-th of its round) against its copy in `received/`.
    pub fn verify(&self, dir: &GameDir, round: u32, index: usize) -> Result<()> {
        let copy = dir.received(round, &self.player, self.n);
        let bytes = std::fs::read(&copy).map_err(|e| Error::io(&copy, e))?;
        let expected = self.archived.as_ref().unwrap_or(&self.sha256);
        // Archives written before `archived` existed hold a redacted token without its hash.
        let older_redacted = self.archived.is_none()
            && bytes
                .windows(crate::redact::MARK.len())
                .any(|w| w == crate::redact::MARK.as_bytes());
        if sha256_hex(&bytes) != *expected && !older_redacted {
            let field = if self.archived.is_some() {
                "archived"
            } else {
                "sha256"
            };
            return Err(Error::invalid(
                dir.receipts(round),
                format!("receipt[{index}].{field}"),
                format!(
                    "does not match {} (the receipt or the copy was edited); restore both from git",
                    copy.display()
                ),
            ));
        }
        Ok(())
    }
}

fn is_sha256(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receipt(player: &str, n: u32) -> Receipt {
        Receipt {
            player: PlayerId::parse(player).unwrap(),
            n,
            at: "2026-12-01T10:00:00Z".into(),
            reached: None,
            sha256: "ab".repeat(32),
            archived: None,
            source: "file".into(),
            reason: None,
            message_id: None,
            valid: true,
            problems: vec![],
            refused: false,
            late: false,
        }
    }

    #[test]
    fn the_text_a_receipt_at_a_time_is_that_of_the_whole_and_reads_back() {
        let mut odd = receipt("bob", 2);
        odd.reached = Some("2026-12-01T09:59:00Z".into());
        odd.reason = Some("sent by \"post\"\nlate".into());
        odd.message_id = Some("<x@y>".into());
        odd.problems = vec!["line 3: `rooom` is not a key".into()];
        odd.valid = false;
        odd.refused = true;
        odd.late = true;
        for list in [
            vec![],
            vec![receipt("ann", 1)],
            vec![receipt("ann", 1), odd],
        ] {
            let receipts = Receipts { list };
            let text = receipts.to_toml();
            assert_eq!(text, toml::to_string(&receipts).unwrap());
            assert_eq!(toml::from_str::<Receipts>(&text).unwrap(), receipts);
        }
    }
}
