//! One incoming message (mail or chat), reduced to what ingest needs: who sent it, when, its id,
//! and the TOML it carries, or why it carries none.

use super::extract::{Extracted, extract};
use super::nothing::Nothing;
use mail_parser::{HeaderName, MessageParser, MimeHeaders};

/// Larger messages are read for their headers only: the sender is told, the body is not read.
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
    /// Why no program should answer it (an auto-responder, a mailing list), if so.
    pub automatic: Option<String>,
    pub content: Content,
}

/// What a message carries, before the submission is looked for in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// The text the sender wrote and a `.toml` attachment, if any.
    Text {
        body: String,
        attachment: Option<Result<String, String>>,
    },
    /// Nothing that can be read (HTML only, too big).
    Nothing(Nothing),
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

/// Reads a mail message. `delivered` is when the mailbox received the file (a Maildir file's
/// modification time). `Err` when the bytes are not a mail message at all. A message over
/// `MAX_MESSAGE` is read for its headers only, so its sender still gets an answer.
pub fn from_mail(bytes: &[u8], delivered: Option<i64>, now: i64) -> Result<Incoming, String> {
    let too_big = bytes.len() > MAX_MESSAGE;
    let parsed = if too_big { head(bytes) } else { bytes };
    let message = MessageParser::default()
        .parse(parsed)
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
    let content = if too_big {
        Content::Nothing(Nothing::TooBig { bytes: bytes.len() })
    } else {
        content(&message)
    };
    Ok(Incoming {
        sender,
        reached,
        reached_note,
        sent: message.date().map_or(0, |d| d.to_timestamp()),
        message_id: message.message_id().map(|id| format!("<{id}>")),
        subject: message.subject().unwrap_or_default().to_owned(),
        automatic: automatic(&message),
        content,
    })
}

/// The header block of a message too big to read whole (at most 64 KiB of it).
fn head(bytes: &[u8]) -> &[u8] {
    let cap = &bytes[..bytes.len().min(64 * 1024)];
    let end = cap
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
        .or_else(|| cap.windows(2).position(|w| w == b"\n\n").map(|p| p + 2))
        .unwrap_or(cap.len());
    &cap[..end]
}

/// Headers that mark a message no program should answer (RFC 3834 and the common practice of
/// mailing lists and vacation responders): `Auto-Submitted` other than `no`, a `List-Id`,
/// `Precedence: bulk | list | junk`, `X-Autoreply`, `X-Autorespond`.
fn automatic(message: &mail_parser::Message<'_>) -> Option<String> {
    for header in message.root_part().headers() {
        let name = header.name();
        let value = header
            .value()
            .as_text()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        let why = match name.to_ascii_lowercase().as_str() {
            "auto-submitted" if value != "no" => format!("Auto-Submitted: {value}"),
            "list-id" => "a mailing list (List-Id)".to_owned(),
            "precedence" if ["bulk", "list", "junk"].contains(&value.as_str()) => {
                format!("Precedence: {value}")
            }
            "x-autoreply" | "x-autorespond" => format!("{name}: {value}"),
            _ => continue,
        };
        return Some(why);
    }
    None
}

/// The text a player wrote (every text/plain part, `format=flowed` decoded) and a `.toml`
/// attachment.
fn content(message: &mail_parser::Message<'_>) -> Content {
    let attachment = attachment_toml(message);
    let plain: Vec<_> = message
        .text_bodies()
        .filter(|p| !p.is_text_html())
        .collect();
    if plain.is_empty() && message.html_body_count() > 0 && attachment.is_none() {
        return Content::Nothing(Nothing::HtmlOnly);
    }
    let body = plain
        .iter()
        .filter_map(|p| {
            let text = p.text_contents()?;
            let ct = p.content_type();
            let flowed = ct
                .and_then(|c| c.attribute("format"))
                .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
            let delsp = ct
                .and_then(|c| c.attribute("delsp"))
                .is_some_and(|f| f.eq_ignore_ascii_case("yes"));
            Some(if flowed {
                super::flowed::decode(text, delsp)
            } else {
                text.to_owned()
            })
        })
        .collect::<Vec<_>>()
        .join("\n");
    Content::Text { body, attachment }
}

/// The first attachment whose file name ends in `.toml` (the name itself is never used as a path).
fn attachment_toml(message: &mail_parser::Message<'_>) -> Option<Result<String, String>> {
    let part = message.attachments().find(|p| {
        p.attachment_name()
            .is_some_and(|n| n.to_ascii_lowercase().ends_with(".toml"))
    })?;
    Some(match std::str::from_utf8(part.contents()) {
        Ok(text) => Ok(text.strip_prefix('\u{feff}').unwrap_or(text).to_owned()),
        Err(_) => Err("the .toml attachment is not UTF-8 text".into()),
    })
}

impl Incoming {
    /// The first `n` lines of text the message holds (not blank; cut at 72 characters), to show
    /// a player what we read.
    pub fn first_lines(&self, n: usize) -> Vec<String> {
        let Content::Text { body, .. } = &self.content else {
            return Vec::new();
        };
        let body = body.strip_prefix('\u{feff}').unwrap_or(body);
        body.lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .take(n)
            .map(|l| match l.char_indices().nth(72) {
                Some((at, _)) => format!("{}…", &l[..at]),
                None => l.to_owned(),
            })
            .collect()
    }

    /// The submission the message carries, read the way players write them (`extract`);
    /// `skeleton` is the one we last sent this player (to tell an edit of a quoted skeleton).
    pub fn submission(&self, keys: &[&str], skeleton: Option<&str>) -> Extracted {
        let nothing = |why| Extracted {
            toml: Err(why),
            ignored: Vec::new(),
            lines: Vec::new(),
            notes: Vec::new(),
        };
        let (body, attachment) = match &self.content {
            Content::Nothing(why) => return nothing(why.clone()),
            Content::Text { body, attachment } => (body, attachment),
        };
        let found = extract(body, keys, skeleton);
        let Some(attachment) = attachment else {
            return found;
        };
        match (attachment, &found.toml) {
            (Err(_), Ok(_)) => found,
            (Err(why), Err(_)) => Extracted {
                ignored: found.ignored,
                ..nothing(Nothing::Unreadable(why.clone()))
            },
            (Ok(file), Ok(text)) if !same_submission(text, file) => Extracted {
                ignored: found.ignored,
                ..nothing(Nothing::Ambiguous {
                    body: text.to_string(),
                    attachment: file.to_string(),
                })
            },
            (Ok(_), Ok(_)) => found,
            (Ok(file), Err(_)) => Extracted {
                toml: Ok(file.clone()),
                ignored: found.ignored,
                lines: Vec::new(), // the attachment's own lines
                notes: Vec::new(),
            },
        }
    }
}

/// Whether two texts are the same submission: equal as TOML, or equal line by line.
fn same_submission(a: &str, b: &str) -> bool {
    match (
        toml::from_str::<toml::Table>(a),
        toml::from_str::<toml::Table>(b),
    ) {
        (Ok(x), Ok(y)) => x == y,
        _ => a.trim() == b.trim(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_printable_and_latin1_bodies_are_decoded() {
        let mail = b"From: Alice <Alice@Example.org>\r\nSubject: r1\r\nMessage-ID: <m1@x>\r\nDate: Wed, 2 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nroom =3D \"attic\"\r\n# caf=E9\r\n";
        let m = from_mail(mail, None, 1_900_000_000).unwrap();
        assert_eq!(m.sender, "alice@example.org");
        assert_eq!(m.message_id.as_deref(), Some("<m1@x>"));
        assert_eq!(
            m.submission(&["room"], None).toml.unwrap(),
            "room = \"attic\"\n# caf\u{e9}\n"
        );
        assert_eq!(m.sent, 1_796_205_600);
        assert_eq!(
            m.reached, 1_900_000_000,
            "no Received:, no delivery time: the run's clock"
        );
    }

    #[test]
    fn the_top_received_header_is_when_the_mail_reached_the_host() {
        let mail = b"Received: from mx.example.org by host.example.org; Wed, 2 Dec 2026 14:59:30 +0000\r\nReceived: from laptop by mx.example.org; Wed, 2 Dec 2026 14:50:00 +0000\r\nFrom: bob@example.org\r\nDate: Wed, 2 Dec 2026 16:00:00 +0000\r\n\r\nroom = \"attic\"\r\n";
        let m = from_mail(mail, Some(1_796_223_000), 1_900_000_000).unwrap();
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
