//! Chat exports: the JSON that DiscordChatExporter writes (`--format Json`). We read
//! `messages[].author.name` (the handle matched against a player's `chat`), `content`, `id`,
//! `timestamp`, `timestampEdited` (an edited message counts when it was last edited, with its
//! edited text, the only text the export keeps) and `attachments`.
//!
//! The submission is a fenced block (```toml, ```TOML or a bare ```), or the message's TOML lines
//! (`extract`), or a `.toml` attachment that the export holds locally (`--media` writes it next to
//! the export; `url` is then a relative path). An attachment is read only from inside the
//! export's folder, never from a path that leaves it.

use super::message::{Content, Incoming, arrival};
use serde::Deserialize;
use std::path::{Component, Path};

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
    #[serde(default)]
    attachments: Vec<Attachment>,
}

#[derive(Deserialize)]
struct Author {
    name: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Attachment {
    url: String,
    file_name: String,
}

/// Reads an export whose file is in `folder`.
pub fn read(text: &str, folder: &Path, now: i64) -> Result<Vec<Incoming>, String> {
    let export: Export = serde_json::from_str(text)
        .map_err(|e| format!("not a DiscordChatExporter JSON export: {e}"))?;
    Ok(export
        .messages
        .into_iter()
        .map(|m| {
            let when = m.timestamp_edited.as_deref().unwrap_or(&m.timestamp);
            let stamp = when
                .parse::<jiff::Timestamp>()
                .map(|t| t.as_second())
                .map_err(|_| format!("the timestamp `{when}` is unreadable"));
            let (reached, reached_note) = arrival(Some(stamp), None, now);
            let attachment = m
                .attachments
                .iter()
                .find(|a| a.file_name.to_ascii_lowercase().ends_with(".toml"))
                .map(|a| attachment(folder, a));
            Incoming {
                sender: m.author.name.to_ascii_lowercase(),
                reached,
                reached_note,
                sent: reached,
                // the edit time keeps an edited message apart from its first text
                message_id: Some(match &m.timestamp_edited {
                    Some(edited) => format!("chat:{}@{edited}", m.id),
                    None => format!("chat:{}", m.id),
                }),
                subject: String::new(),
                automatic: None,
                content: Content::Text {
                    body: m.content,
                    attachment,
                },
            }
        })
        .collect())
}

/// The text of an attachment the export holds, if its path stays inside `folder`.
fn attachment(folder: &Path, a: &Attachment) -> Result<String, String> {
    let relative = Path::new(&a.url);
    let inside = !a.url.contains("://")
        && relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !inside {
        return Err(format!(
            "the attachment {} is not in the export's folder (export with --media to include it)",
            a.file_name
        ));
    }
    let path = folder.join(relative);
    let bytes = std::fs::read(&path)
        .map_err(|e| format!("the attachment {} cannot be read: {e}", a.file_name))?;
    if bytes.len() > crate::submission::MAX_BYTES {
        return Err(format!("the attachment {} is too big", a.file_name));
    }
    String::from_utf8(bytes)
        .map_err(|_| format!("the attachment {} is not UTF-8 text", a.file_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &["room", "token"];

    fn export(content: &str, attachments: &str) -> String {
        serde_json::json!({
            "messages": [{
                "id": "1", "timestamp": "2026-12-02T14:59:00+00:00", "timestampEdited": null,
                "content": content, "author": {"name": "Erin"},
                "attachments": serde_json::from_str::<serde_json::Value>(attachments).unwrap(),
            }]
        })
        .to_string()
    }

    #[test]
    fn fences_bare_toml_and_local_attachments_are_read() {
        let tmp = tempfile::tempdir().unwrap();
        let media = tmp.path().join("export_Files");
        std::fs::create_dir_all(&media).unwrap();
        std::fs::write(media.join("erin.toml"), "room = \"cellar\"\n").unwrap();
        std::fs::write(
            tmp.path().parent().unwrap().join("outside.toml"),
            "room = \"attic\"",
        )
        .ok();
        let cases = [
            ("```\nroom = \"attic\"\n```", "[]", Ok("room = \"attic\"\n")),
            (
                "```TOML\nroom = \"attic\"\n```",
                "[]",
                Ok("room = \"attic\"\n"),
            ),
            ("room = \"attic\"", "[]", Ok("room = \"attic\"\n")),
            (
                "here it is",
                r#"[{"id":"9","url":"export_Files/erin.toml","fileName":"erin.toml","fileSizeBytes":16}]"#,
                Ok("room = \"cellar\"\n"),
            ),
            (
                "",
                r#"[{"id":"9","url":"../outside.toml","fileName":"outside.toml","fileSizeBytes":16}]"#,
                Err("not in the export's folder"),
            ),
            (
                "",
                r#"[{"id":"9","url":"https://cdn.discordapp.com/attachments/1/2/erin.toml","fileName":"erin.toml","fileSizeBytes":16}]"#,
                Err("not in the export's folder"),
            ),
            ("good luck everyone", "[]", Err("no submission found")),
        ];
        for (content, attachments, expected) in cases {
            let got = read(&export(content, attachments), tmp.path(), 1_900_000_000).unwrap();
            let toml = got[0].submission(KEYS, None).toml;
            match expected {
                Ok(t) => assert_eq!(toml.as_deref(), Ok(t), "{content}"),
                Err(why) => assert!(toml.unwrap_err().short().contains(why), "{content}"),
            }
            assert_eq!(got[0].reached, 1_796_223_540);
        }
    }
}
