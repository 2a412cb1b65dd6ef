//! One incoming message (mail or chat), reduced to what ingest needs: who sent it, when, its id,
//! and the TOML it carries, or why it carries none.

use super::extract::extract;
use mail_parser::{HeaderName, MessageParser, MimeHeaders};

/// Larger messages are reported to the host and never read.
pub const MAX_MESSAGE: usize = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// A mail address (lowercased) or a chat handle.
    pub sender: String,
    /// When the message reached the host, in Unix seconds (spec README, "When a version counts").
    pub reached: i64,
    /// Why `reached` is not the first choice (a malformed `Received:` date, a future time), for
    /// the host's log.
    pub reached_note: Option<String>,
    /// The sender's own `Date:` (Unix seconds, 0 if none): only orders two messages of one
    /// sender that reached the host in the same second.
    pub sent: i64,
    pub message_id: Option<String>,
    pub subject: String,
    /// The submission, or why the message holds none.
    pub toml: Result<String, String>,
    /// The sender's own text that is neither the submission nor a greeting or closing.
    pub ignored: Vec<String>,
}

/// When a message reached the host: `found` (a header's time, or `Err` with why it is unusable),
/// else the time the mailbox delivered it, else the run's clock; never later than `now`.
pub fn arrival(
    found: Option<Result<i64, String>>,
    delivered: Option<i64>,
    now: i64,
) -> (i64, Option<String>) {
    let mut note = None;
    let time = match found {
        Some(Ok(t)) => Some(t),
        Some(Err(why)) => {
            note = Some(why);
            None
        }
        None => None,
    };
    let (time, fallback) = match (time, delivered) {
        (Some(t), _) => (t, None),
        (None, Some(d)) => (d, Some("the delivery time")),
        (None, None) => (now, Some("the time of this run")),
    };
    if let (Some(why), Some(used)) = (&note, fallback) {
        note = Some(format!("{why}; used {used}"));
    }
    if time > now {
        let why = note.map_or_else(String::new, |n| format!("{n}; "));
        return (
            now,
            Some(format!(
                "{why}a time in the future; used the time of this run"
            )),
        );
    }
    (time, note)
}

/// Reads a mail message. `keys` are the game's submission keys; `delivered` is when the mailbox
/// received the file (a Maildir file's modification time). `Err` when the bytes are not a mail
/// message at all.
pub fn from_mail(
    bytes: &[u8],
    keys: &[&str],
    delivered: Option<i64>,
    now: i64,
) -> Result<Incoming, String> {
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
    // The top-most Received: header is the one the host's own server added.
    let received = message.header_values(HeaderName::Received).next().map(|h| {
        h.as_received()
            .and_then(|r| r.date())
            .filter(mail_parser::DateTime::is_valid) // the parser is lenient: "32 Foo" parses
            .map(|d| d.to_timestamp())
            .ok_or_else(|| "the top Received: header has no readable date".to_owned())
    });
    let (reached, reached_note) = arrival(received, delivered, now);
    let mut ignored = Vec::new();
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
        let found = extract(&text, keys);
        ignored = found.ignored;
        found.toml.ok_or_else(|| NO_SUBMISSION.to_owned())
    });
    Ok(Incoming {
        sender,
        reached,
        reached_note,
        sent: message.date().map_or(0, |d| d.to_timestamp()),
        message_id: message.message_id().map(|id| format!("<{id}>")),
        subject: message.subject().unwrap_or_default().to_owned(),
        toml,
        ignored,
    })
}

/// Why a message without a line of the game's keys is not a submission.
pub const NO_SUBMISSION: &str = "no submission found (no line sets one of the game's keys)";

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_printable_and_latin1_bodies_are_decoded() {
        let mail = b"From: Alice <Alice@Example.org>\r\nSubject: r1\r\nMessage-ID: <m1@x>\r\nDate: Wed, 2 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nroom =3D \"attic\"\r\n# caf=E9\r\n";
        let m = from_mail(mail, &["room"], None, 1_900_000_000).unwrap();
        assert_eq!(m.sender, "alice@example.org");
        assert_eq!(m.message_id.as_deref(), Some("<m1@x>"));
        assert_eq!(m.toml.unwrap(), "room = \"attic\"\n# caf\u{e9}\n");
        assert_eq!(m.sent, 1_796_205_600);
        assert_eq!(
            m.reached, 1_900_000_000,
            "no Received:, no delivery time: the run's clock"
        );
    }

    #[test]
    fn the_top_received_header_is_when_the_mail_reached_the_host() {
        let mail = b"Received: from mx.example.org by host.example.org; Wed, 2 Dec 2026 14:59:30 +0000\r\nReceived: from laptop by mx.example.org; Wed, 2 Dec 2026 14:50:00 +0000\r\nFrom: bob@example.org\r\nDate: Wed, 2 Dec 2026 16:00:00 +0000\r\n\r\nroom = \"attic\"\r\n";
        let m = from_mail(mail, &["room"], Some(1_796_223_000), 1_900_000_000).unwrap();
        assert_eq!(m.reached, 1_796_223_570, "14:59:30, not the sender's 16:00");
        assert_eq!(m.reached_note, None);
    }

    #[test]
    fn arrival_falls_back_and_says_why() {
        let (t, note) = arrival(Some(Err("bad date".into())), Some(50), 100);
        assert_eq!(
            (t, note.as_deref()),
            (50, Some("bad date; used the delivery time"))
        );
        let (t, note) = arrival(None, Some(500), 100);
        assert_eq!(t, 100);
        assert!(note.unwrap().contains("future"));
        assert_eq!(arrival(None, None, 100), (100, None));
    }
}
