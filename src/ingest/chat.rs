//! Chat exports: the JSON that DiscordChatExporter writes (`--format Json`). We read
//! `messages[].author.name` (the handle matched against a player's `chat`), `content` (which
//! must hold a ```toml block), `id`, `timestamp`, and `timestampEdited`: an edited message counts
//! as sent when it was last edited, with its edited text (the only text the export keeps).

use super::message::{Incoming, toml_in_text};
use serde::Deserialize;

#[derive(Deserialize)]
struct Export {
    messages: Vec<Message>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Message {
    id: String,
    timestamp: String,
    timestamp_edited: Option<String>,
    content: String,
    author: Author,
}

#[derive(Deserialize)]
struct Author {
    name: String,
}

pub fn read(text: &str) -> Result<Vec<Incoming>, String> {
    let export: Export = serde_json::from_str(text)
        .map_err(|e| format!("not a DiscordChatExporter JSON export: {e}"))?;
    Ok(export
        .messages
        .into_iter()
        .map(|m| {
            let when = m.timestamp_edited.as_deref().unwrap_or(&m.timestamp);
            let date = when.parse::<jiff::Timestamp>().map_or(0, |t| t.as_second());
            let toml = if m.content.contains("```toml") {
                toml_in_text(&m.content)
            } else {
                Err("no ```toml block in the message".into())
            };
            Incoming {
                sender: m.author.name.to_ascii_lowercase(),
                date,
                message_id: Some(format!("chat:{}", m.id)),
                subject: String::new(),
                toml,
            }
        })
        .collect())
}
