//! The outbox: formatting a `Mail` with lettre's message builder into `outbox/`, and the send step
//! that hands each file to the transport and moves it to `sent/` once accepted (or to `failed/`
//! when its recipient is refused for good).

use super::transport::{Delivery, Sender};
use crate::config::MailConfig;
use crate::error::{Error, Result};
use crate::game_dir::GameDir;
use crate::player_id::PlayerId;
use jiff::Timestamp;
use lettre::Address;
use lettre::address::Envelope;
use lettre::message::{Mailbox, SinglePart};
use std::time::{Duration, SystemTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    Ack,
    Notice,
    Reminder,
    Public,
    Private,
    Reject,
    /// A reply to a message that came too late for its round (ingest).
    Late,
    /// The opening announcement and welcome of a game whose first round is round 0.
    Opening,
    Welcome,
    /// A reply to a message holding the version already on file (ingest).
    Same,
}

impl MailKind {
    pub fn name(self) -> &'static str {
        match self {
            MailKind::Ack => "ack",
            MailKind::Notice => "notice",
            MailKind::Reminder => "reminder",
            MailKind::Public => "public",
            MailKind::Private => "private",
            MailKind::Reject => "reject",
            MailKind::Late => "late",
            MailKind::Opening => "opening",
            MailKind::Welcome => "welcome",
            MailKind::Same => "same",
        }
    }
}

/// Who a message is for: one player, or the list address `public_to` (public announcements).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recipient {
    Player(PlayerId),
    List,
    /// Someone who is not (or may not be) a player: the sender of a rejected message.
    Address(String),
}

/// One message to one recipient.
#[derive(Debug, Clone)]
pub struct Mail {
    pub round: u32,
    pub kind: MailKind,
    pub to: Recipient,
    /// Distinguishes messages of one kind to one player in one round (a version number).
    pub seq: u32,
    pub subject: String,
    pub body: String,
    pub date: Timestamp,
    /// The Message-ID this message answers (an acknowledgement of a mailed submission).
    pub in_reply_to: Option<String>,
}

impl Mail {
    /// `r001-ack-alice-2.eml`: stable, sortable, unique per message.
    pub fn file_name(&self) -> String {
        let hashed;
        let to = match &self.to {
            Recipient::Player(id) => id.as_str(),
            Recipient::List => "list",
            Recipient::Address(address) => {
                hashed = crate::submission::sha256_hex(address.as_bytes())[..12].to_owned();
                hashed.as_str()
            }
        };
        format!(
            "r{:03}-{}-{to}-{}.eml",
            self.round,
            self.kind.name(),
            self.seq
        )
    }
}

/// The complete message. `game_key` (title and seed) keeps Message-IDs of different games apart.
pub fn format_message(
    mail: &Mail,
    config: &MailConfig,
    game_key: &str,
    to_name: &str,
    to_email: &str,
) -> Result<Vec<u8>> {
    let bad =
        |key: &str, e: &dyn std::fmt::Display| Error::invalid("game.toml", key, e.to_string());
    let from: Mailbox = config
        .from
        .as_deref()
        .unwrap_or("adjudicate <adjudicate@localhost>")
        .parse()
        .map_err(|e| bad("mail.from", &e))?;
    let name = (!to_name.is_empty()).then(|| to_name.to_owned());
    let to = Mailbox::new(
        name,
        to_email.parse().map_err(|e| bad("players.email", &e))?,
    );
    let domain = from.email.domain().to_owned();
    let key = format!("{game_key}\0{}", mail.file_name());
    let id = &crate::submission::sha256_hex(key.as_bytes())[..24];
    let mut builder = lettre::Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .date(SystemTime::UNIX_EPOCH + Duration::from_secs(mail.date.as_second().max(0) as u64))
        .message_id(Some(format!(
            "<{id}.r{:03}.{}@{domain}>",
            mail.round,
            mail.kind.name()
        )));
    if let Some(id) = &mail.in_reply_to {
        builder = builder.in_reply_to(id.clone()).references(id.clone());
    }
    if let Some(reply_to) = &config.reply_to {
        builder = builder.reply_to(reply_to.parse().map_err(|e| bad("mail.reply_to", &e))?);
    }
    let message = builder
        .singlepart(SinglePart::plain(mail.body.clone()))
        .map_err(|e| Error::Mail(e.to_string()))?;
    Ok(message.formatted())
}

/// In `outbox/`: why the last send step stopped, until a send step empties the outbox.
pub const WHY_FILE: &str = ".why";

/// What a send step did.
#[derive(Debug, Default)]
pub struct SendReport {
    pub sent: usize,
    /// (file name, why) of messages refused for good, now in `failed/`.
    pub refused: Vec<(String, String)>,
    /// Why sending stopped with messages still queued (exit 75).
    pub deferred: Option<String>,
    pub waiting: usize,
}

/// Hands every message in `outbox/` (oldest name first) to `sender`: accepted ones move to
/// `sent/`, refused ones to `failed/`; the first "unavailable" stops the step, leaving the rest.
/// Killed between "accepted" and the move, a message is sent again next time, with the same
/// Message-ID, and it is the only one.
pub fn send_outbox(dir: &GameDir, sender: &Sender) -> Result<SendReport> {
    let mut report = SendReport::default();
    let names = outbox_names(dir)?;
    for (i, name) in names.iter().enumerate() {
        let path = dir.outbox().join(name);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let delivery = match envelope_of(&bytes) {
            Ok(envelope) => sender.deliver(&envelope, &bytes),
            Err(why) => Delivery::Refused(why),
        };
        let target = match delivery {
            Delivery::Accepted => {
                report.sent += 1;
                dir.sent()
            }
            Delivery::Refused(why) => {
                report.refused.push((name.clone(), why));
                dir.root().join("failed")
            }
            Delivery::Unavailable(why) => {
                // kept for `status`: why the outbox is not empty
                crate::game_dir::write_atomic(&dir.outbox().join(WHY_FILE), why.as_bytes())?;
                report.deferred = Some(why);
                report.waiting = names.len() - i;
                break;
            }
        };
        crate::game_dir::create_dir(&target)?;
        std::fs::rename(&path, target.join(name)).map_err(|e| Error::io(&path, e))?;
    }
    if report.deferred.is_none() {
        let _ = std::fs::remove_file(dir.outbox().join(WHY_FILE));
    }
    Ok(report)
}

/// The `.eml` files waiting in `outbox/`, sorted.
pub fn outbox_names(dir: &GameDir) -> Result<Vec<String>> {
    let outbox = dir.outbox();
    if !outbox.is_dir() {
        return Ok(Vec::new());
    }
    let mut names = Vec::new();
    for entry in walkdir::WalkDir::new(&outbox)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| Error::io(&outbox, e.into()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().is_file() && name.ends_with(".eml") {
            names.push(name);
        }
    }
    Ok(names)
}

/// The SMTP envelope of one of our own messages: the addresses of its From and To headers.
pub fn envelope_of(message: &[u8]) -> std::result::Result<Envelope, String> {
    let text = String::from_utf8_lossy(message);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    // unfold continuation lines, then find the two headers
    let head = head.replace("\r\n ", " ").replace("\r\n\t", " ");
    let header = |name: &str| {
        head.split("\r\n")
            .find_map(|line| line.strip_prefix(name))
            .map(str::trim)
            .ok_or_else(|| format!("no {name} header"))
    };
    let addresses = |value: &str| -> std::result::Result<Vec<Address>, String> {
        let found: Vec<&str> = value
            .split('<')
            .skip(1)
            .filter_map(|s| s.split('>').next())
            .collect();
        let raw = if found.is_empty() { vec![value] } else { found };
        raw.into_iter()
            .map(|a| {
                a.trim()
                    .parse::<Address>()
                    .map_err(|e| format!("`{a}`: {e}"))
            })
            .collect()
    };
    let from = addresses(header("From:")?)?.into_iter().next();
    let to = addresses(header("To:")?)?;
    Envelope::new(from, to).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_comes_from_our_own_headers() {
        let raw = b"From: \"ORG Host\" <host@example.org>\r\nTo: =?utf-8?b?w4lyaW4=?=\r\n <erin@example.org>\r\nSubject: x\r\n\r\nTo: <spoof@example.org>\r\n";
        let envelope = envelope_of(raw).unwrap();
        assert_eq!(envelope.from().unwrap().to_string(), "host@example.org");
        assert_eq!(
            envelope
                .to()
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>(),
            ["erin@example.org"]
        );
        assert!(envelope_of(b"Subject: none\r\n\r\n").is_err());
    }
}
