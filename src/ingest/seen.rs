//! `GAME_DIR/chat-seen.toml`: the chat messages ingest has already read, so that a cumulative
//! export (DiscordChatExporter exports the whole channel every time) is read once per message:
//! a message with the same id (which holds its edit time) and the same text is skipped without a
//! word on the next export. Mail needs no such record: a Maildir message leaves `new/` once read.

use super::message::{Content, Incoming};
use crate::context::GameContext;
use crate::error::Result;
use crate::game_dir::{read_optional, write_atomic};
use crate::submission::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FILE: &str = "chat-seen.toml";

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Seen {
    /// Message id (with its edit time) -> SHA-256 of its text.
    #[serde(default)]
    chat: BTreeMap<String, String>,
    #[serde(skip)]
    changed: bool,
}

impl Seen {
    pub fn load(ctx: &GameContext) -> Result<Seen> {
        let path = ctx.dir.root().join(FILE);
        match read_optional(&path)? {
            Some(text) => crate::host_file::parse(&path, &text),
            None => Ok(Seen::default()),
        }
    }

    fn key(incoming: &Incoming) -> Option<(String, String)> {
        let id = incoming.message_id.clone()?;
        let text = match &incoming.content {
            Content::Text { body, attachment } => format!("{body}\0{attachment:?}"),
            Content::Nothing(why) => format!("{why:?}"),
        };
        Some((id, sha256_hex(text.as_bytes())))
    }

    /// Whether this very message (same id, same text) was read before.
    pub fn has(&self, incoming: &Incoming) -> bool {
        Seen::key(incoming).is_some_and(|(id, hash)| self.chat.get(&id) == Some(&hash))
    }

    pub fn add(&mut self, incoming: &Incoming) {
        if let Some((id, hash)) = Seen::key(incoming) {
            self.changed |= self.chat.insert(id, hash.clone()).as_ref() != Some(&hash);
        }
    }

    pub fn save(&self, ctx: &GameContext) -> Result<()> {
        if !self.changed {
            return Ok(());
        }
        let text = toml::to_string(self).expect("seen serializes");
        write_atomic(&ctx.dir.root().join(FILE), text.as_bytes())
    }
}
