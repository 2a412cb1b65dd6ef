//! One incoming message (mail or chat), reduced to what ingest needs: who sent it, when, its id,
//! and the TOML it carries, or why it carries none.

use mail_parser::{MessageParser, MimeHeaders};

/// Larger messages are reported to the host and never read.
pub const MAX_MESSAGE: usize = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// A mail address (lowercased) or a chat handle.
    pub sender: String,
    /// Unix seconds; messages without a date sort first.
    pub date: i64,
    pub message_id: Option<String>,
    pub subject: String,
    pub toml: Result<String, String>,
}

/// Reads a mail message. `Err` when the bytes are not a mail message at all.
pub fn from_mail(bytes: &[u8]) -> Result<Incoming, String> {
    if bytes.len() > MAX_MESSAGE {
        return Err(format!(
            "message of {} bytes is over the {} KiB limit",
            bytes.len(),
            MAX_MESSAGE / 1024
        ));
    }
    let message = MessageParser::default()
        .parse(bytes)
        .ok_or("not a mail message")?;
    let sender = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(str::to_ascii_lowercase)
        .ok_or("no From address")?;
    let toml = attachment_toml(&message).unwrap_or_else(|| {
        let plain: Vec<_> = message
            .text_bodies()
            .filter(|p| !p.is_text_html())
            .collect();
        if plain.is_empty() {
            return Err(if message.html_body_count() > 0 {
                "HTML-only mail (send plain text)"
            } else {
                "no text in the mail"
            }
            .into());
        }
        let text: String = plain
            .iter()
            .filter_map(|p| p.text_contents())
            .collect::<Vec<_>>()
            .join("\n");
        toml_in_text(&text)
    });
    Ok(Incoming {
        sender,
        date: message.date().map_or(0, |d| d.to_timestamp()),
        message_id: message.message_id().map(|id| format!("<{id}>")),
        subject: message.subject().unwrap_or_default().to_owned(),
        toml,
    })
}

/// The first attachment whose file name ends in `.toml` (the name itself is never used as a path).
fn attachment_toml(message: &mail_parser::Message<'_>) -> Option<Result<String, String>> {
    let part = message.attachments().find(|p| {
        p.attachment_name()
            .is_some_and(|n| n.to_ascii_lowercase().ends_with(".toml"))
    })?;
    Some(match std::str::from_utf8(part.contents()) {
        Ok(text) => Ok(text.to_owned()),
        Err(_) => Err("the .toml attachment is not UTF-8 text".into()),
    })
}

/// The submission in a text body: a ```toml fenced block if there is one, else the body without
/// quoted lines (`>`) and without the signature (from a `-- ` line on).
pub fn toml_in_text(text: &str) -> Result<String, String> {
    let text = text.replace("\r\n", "\n");
    if let Some(start) = text.find("```toml").or_else(|| text.find("```TOML")) {
        let rest = &text[start + 7..];
        let rest = rest.strip_prefix('\n').unwrap_or(rest);
        return match rest.find("```") {
            Some(end) => Ok(rest[..end].to_owned()),
            None => Err("a ```toml block that is never closed".into()),
        };
    }
    let mut kept = Vec::new();
    for line in text.lines() {
        if line == "-- " || line == "--" {
            break; // the signature
        }
        if line.trim_start().starts_with('>')
            || (line.starts_with("On ") && line.trim_end().ends_with("wrote:"))
        {
            continue; // a quoted reply and its attribution line
        }
        kept.push(line);
    }
    let body = kept.join("\n").trim().to_owned();
    if body.is_empty() || !body.lines().any(|l| l.contains('=')) {
        return Err("no TOML in the mail (no `key = value` line)".into());
    }
    Ok(body + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_lose_quotes_and_signatures_and_fenced_blocks_win() {
        let body = "room = \"attic\"\n\nOn Tue, Bob wrote:\n> room = \"cellar\"\n-- \nBob\nroom = \"basement\"\n";
        assert_eq!(toml_in_text(body).unwrap(), "room = \"attic\"\n");
        let fenced = "Here you go!\n```toml\nroom = \"cellar\"\n```\nthanks\n";
        assert_eq!(toml_in_text(fenced).unwrap(), "room = \"cellar\"\n");
        assert!(toml_in_text("see you tomorrow\n").is_err());
    }

    #[test]
    fn quoted_printable_and_latin1_bodies_are_decoded() {
        let mail = b"From: Alice <Alice@Example.org>\r\nSubject: r1\r\nMessage-ID: <m1@x>\r\nDate: Wed, 2 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nroom =3D \"attic\"\r\n# caf=E9\r\n";
        let m = from_mail(mail).unwrap();
        assert_eq!(m.sender, "alice@example.org");
        assert_eq!(m.message_id.as_deref(), Some("<m1@x>"));
        assert_eq!(m.toml.unwrap(), "room = \"attic\"\n# caf\u{e9}\n");
    }
}
