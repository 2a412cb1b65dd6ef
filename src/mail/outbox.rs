//! The outbox: formatting a `Mail` with lettre's message builder, and the `file` transport's send
//! step (a rename from `outbox/` into `sent/`).

use crate::config::MailConfig;
use crate::error::{Error, Result};
use crate::game_dir::GameDir;
use crate::player_id::PlayerId;
use jiff::Timestamp;
use lettre::message::{Mailbox, SinglePart};
use std::time::{Duration, SystemTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    Ack,
    Notice,
    Public,
    Private,
}

impl MailKind {
    pub fn name(self) -> &'static str {
        match self {
            MailKind::Ack => "ack",
            MailKind::Notice => "notice",
            MailKind::Public => "public",
            MailKind::Private => "private",
        }
    }
}

/// One message to one player.
#[derive(Debug, Clone)]
pub struct Mail {
    pub round: u32,
    pub kind: MailKind,
    pub to: PlayerId,
    /// Distinguishes messages of one kind to one player in one round (a version number).
    pub seq: u32,
    pub subject: String,
    pub body: String,
    pub date: Timestamp,
}

impl Mail {
    /// `r001-ack-alice-2.eml`: stable, sortable, unique per message.
    pub fn file_name(&self) -> String {
        format!(
            "r{:03}-{}-{}-{}.eml",
            self.round,
            self.kind.name(),
            self.to,
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
    let to = Mailbox::new(
        Some(to_name.to_owned()),
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
    if let Some(reply_to) = &config.reply_to {
        builder = builder.reply_to(reply_to.parse().map_err(|e| bad("mail.reply_to", &e))?);
    }
    let message = builder
        .singlepart(SinglePart::plain(mail.body.clone()))
        .map_err(|e| Error::Mail(e.to_string()))?;
    Ok(message.formatted())
}

/// The `file` transport: every message in `outbox/` moves to `sent/` (oldest name first).
pub fn send_outbox(dir: &GameDir) -> Result<usize> {
    let outbox = dir.outbox();
    if !outbox.is_dir() {
        return Ok(0);
    }
    let sent = dir.sent();
    crate::game_dir::create_dir(&sent)?;
    let mut count = 0;
    for entry in walkdir::WalkDir::new(&outbox)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| Error::io(&outbox, e.into()))?;
        let name = entry.file_name();
        if !entry.file_type().is_file() || !name.to_string_lossy().ends_with(".eml") {
            continue;
        }
        std::fs::rename(entry.path(), sent.join(name)).map_err(|e| Error::io(entry.path(), e))?;
        count += 1;
    }
    Ok(count)
}
