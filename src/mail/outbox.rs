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
    /// A reply to a player's message after the game is over (ingest).
    Over,
    /// The answer to a player's `status` (or `help`) by mail (ingest).
    Status,
    /// The opening announcement and welcome of a game whose first round is round 0.
    Opening,
    Welcome,
    /// A reply to a message holding the version already on file (ingest).
    Same,
    /// A reply to a message in which no submission was found (ingest).
    Nothing,
    /// The notice of a host's action (`extend`, `pause`, `resume`, `announce`), numbered by the
    /// action.
    Host,
    /// The host's digest of what needs them after a tick (`[mail] host`).
    Digest,
    /// The welcome of a person who takes over a seat (`substitute`), to them alone.
    Takeover,
}

impl MailKind {
    /// Whether it answers a message the player sent (an acknowledgement, a refusal) or is sent
    /// of the program's own accord; every kind says which (no wildcard).
    pub fn is_reply(self) -> bool {
        match self {
            MailKind::Ack
            | MailKind::Reject
            | MailKind::Late
            | MailKind::Over
            | MailKind::Status
            | MailKind::Same
            | MailKind::Nothing => true,
            MailKind::Notice
            | MailKind::Reminder
            | MailKind::Public
            | MailKind::Private
            | MailKind::Opening
            | MailKind::Welcome
            | MailKind::Host
            | MailKind::Digest
            | MailKind::Takeover => false,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MailKind::Ack => "ack",
            MailKind::Notice => "notice",
            MailKind::Reminder => "reminder",
            MailKind::Public => "public",
            MailKind::Private => "private",
            MailKind::Reject => "reject",
            MailKind::Late => "late",
            MailKind::Over => "over",
            MailKind::Status => "status",
            MailKind::Opening => "opening",
            MailKind::Welcome => "welcome",
            MailKind::Same => "same",
            MailKind::Nothing => "nothing",
            MailKind::Host => "host",
            MailKind::Digest => "digest",
            MailKind::Takeover => "takeover",
        }
    }

    /// RFC 3834's `Auto-Submitted`: a reply to a message (`auto-replied`) or a message the
    /// program sends of its own accord (`auto-generated`). Auto-responders must not answer
    /// either, which keeps two programs from mailing each other forever.
    pub fn auto_submitted(self) -> &'static str {
        if self.is_reply() {
            "auto-replied"
        } else {
            "auto-generated"
        }
    }
}

/// The `Auto-Submitted:` header (RFC 3834), which lettre does not define.
#[derive(Debug, Clone)]
struct AutoSubmitted(&'static str);

impl lettre::message::header::Header for AutoSubmitted {
    fn name() -> lettre::message::header::HeaderName {
        lettre::message::header::HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(s: &str) -> std::result::Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        match s.trim() {
            "auto-replied" => Ok(AutoSubmitted("auto-replied")),
            "auto-generated" => Ok(AutoSubmitted("auto-generated")),
            "no" => Ok(AutoSubmitted("no")),
            other => Err(format!("unknown Auto-Submitted value {other:?}").into()),
        }
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(Self::name(), self.0.to_owned())
    }
}

/// Who a message is for: one player, or the list address `public_to` (public announcements).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recipient {
    Player(PlayerId),
    List,
    /// The `index`th batch of players (from 1) who get the announcement by Bcc when there is no
    /// `public_to`: one message per batch, never one copy per player.
    Batch {
        index: u32,
        players: Vec<PlayerId>,
    },
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
            Recipient::Batch { index, .. } => {
                hashed = format!("bcc{index:04}");
                hashed.as_str()
            }
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

/// A mailbox from a name (may be empty) and an address of game.toml.
pub fn mailbox(name: &str, email: &str) -> Result<Mailbox> {
    let address = email.parse().map_err(|e: lettre::address::AddressError| {
        Error::invalid("game.toml", "players.email", e.to_string())
    })?;
    Ok(Mailbox::new(
        (!name.is_empty()).then(|| name.to_owned()),
        address,
    ))
}

/// Players in batches of `size` (`mail.bcc_batch`): one announcement message per batch, by Bcc,
/// numbered from `first`.
pub fn batches(players: &[PlayerId], size: usize, first: u32) -> Vec<Recipient> {
    players
        .chunks(size)
        .zip(first..)
        .map(|(batch, index)| Recipient::Batch {
            index,
            players: batch.to_vec(),
        })
        .collect()
}

/// The To: mailbox and the Bcc: mailboxes of a message to `to`, the players found by `player`;
/// `None` when it reaches nobody (no `public_to` for a list message, an unknown player, a player
/// without an address). A batch goes To: the host's own address, the players by Bcc, unseen by
/// each other. `config_file` is where `[mail]` was read (for an error in `public_to`).
pub fn addressees<'c>(
    to: &Recipient,
    config: &MailConfig,
    config_file: &std::path::Path,
    player: impl Fn(&PlayerId) -> Option<&'c crate::config::PlayerConfig>,
) -> Result<Option<(Mailbox, Vec<Mailbox>)>> {
    Ok(Some(match to {
        Recipient::List => match &config.public_to {
            Some(list) => (
                list.parse()
                    .map_err(|e| Error::invalid(config_file, "mail.public_to", format!("{e}")))?,
                Vec::new(),
            ),
            None => return Ok(None),
        },
        Recipient::Address(address) => (mailbox("", address)?, Vec::new()),
        Recipient::Player(id) => match player(id) {
            Some(p) if p.email.is_some() => (
                mailbox(&p.name, p.email.as_deref().unwrap_or_default())?,
                Vec::new(),
            ),
            _ => return Ok(None),
        },
        Recipient::Batch { players, .. } => {
            let mut bcc = Vec::new();
            for id in players {
                if let Some(p) = player(id)
                    && let Some(email) = &p.email
                {
                    bcc.push(mailbox(&p.name, email)?);
                }
            }
            (from_mailbox(config)?, bcc)
        }
    }))
}

/// The sender of every message: `mail.from`.
pub fn from_mailbox(config: &MailConfig) -> Result<Mailbox> {
    config
        .from
        .as_deref()
        .unwrap_or("adjudicate <adjudicate@localhost>")
        .parse()
        .map_err(|e: lettre::address::AddressError| {
            Error::invalid("game.toml", "mail.from", e.to_string())
        })
}

/// The complete message, to `to` and, by Bcc, to `bcc` (kept in the file, so the send step knows
/// the envelope; removed from what is sent). `game_key` (title and seed) keeps Message-IDs of
/// different games apart.
pub fn format_message(
    mail: &Mail,
    config: &MailConfig,
    game_key: &str,
    to: Mailbox,
    bcc: Vec<Mailbox>,
) -> Result<Vec<u8>> {
    let bad =
        |key: &str, e: &dyn std::fmt::Display| Error::invalid("game.toml", key, e.to_string());
    let from = from_mailbox(config)?;
    let domain = from.email.domain().to_owned();
    let key = format!("{game_key}\0{}", mail.file_name());
    let id = &crate::submission::sha256_hex(key.as_bytes())[..24];
    let mut builder = lettre::Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .date(SystemTime::UNIX_EPOCH + Duration::from_secs(mail.date.as_second().max(0) as u64))
        .message_id(Some(message_id(id, mail, &domain)))
        .header(AutoSubmitted(mail.kind.auto_submitted()));
    if let Some(id) = &mail.in_reply_to {
        builder = builder.in_reply_to(id.clone()).references(id.clone());
    }
    if let Some(reply_to) = &config.reply_to {
        builder = builder.reply_to(reply_to.parse().map_err(|e| bad("mail.reply_to", &e))?);
    }
    if !bcc.is_empty() {
        builder = bcc.into_iter().fold(builder.keep_bcc(), |b, m| b.bcc(m));
    }
    let message = builder
        .singlepart(SinglePart::plain(mail.body.clone()))
        .map_err(|e| Error::Mail(e.to_string()))?;
    Ok(message.formatted())
}

/// The Message-ID of one of our messages: `<24 hex digits.rNNN.kind@domain of [mail] from>`.
fn message_id(hash: &str, mail: &Mail, domain: &str) -> String {
    format!("<{hash}.r{:03}.{}@{domain}>", mail.round, mail.kind.name())
}

/// Whether `id` has the shape of a Message-ID we make (`message_id`) for the game mailing from
/// `config`: our own mail come back (a digest, the announcement's copy to the host).
pub fn is_our_message_id(id: &str, config: &MailConfig) -> bool {
    let Ok(from) = from_mailbox(config) else {
        return false;
    };
    let Some((local, domain)) = id
        .strip_prefix('<')
        .and_then(|i| i.strip_suffix('>'))
        .and_then(|i| i.split_once('@'))
    else {
        return false;
    };
    let parts: Vec<&str> = local.split('.').collect();
    let [hash, round, kind] = parts.as_slice() else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    hash.len() == 24
        && hash.bytes().all(|b| b.is_ascii_hexdigit())
        && round.len() == 4
        && round.strip_prefix('r').is_some_and(digits)
        && !kind.is_empty()
        && kind.bytes().all(|b| b.is_ascii_lowercase())
        && domain.eq_ignore_ascii_case(from.email.domain())
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
    let mut made = std::collections::HashSet::new();
    for (i, name) in names.iter().enumerate() {
        let path = dir.outbox().join(name);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let delivery = match sound(&bytes).and_then(|()| envelope_of(&bytes)) {
            Ok(envelope) => deliver(sender, &envelope, &without_bcc(&bytes), name, &mut report),
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
        if made.insert(target.clone()) {
            crate::game_dir::create_dir(&target)?;
        }
        std::fs::rename(&path, target.join(name)).map_err(|e| Error::io(&path, e))?;
    }
    if report.deferred.is_none() {
        let _ = std::fs::remove_file(dir.outbox().join(WHY_FILE));
    }
    Ok(report)
}

/// Delivers one message. A message to several recipients (an announcement by Bcc) that the
/// server refuses is tried again one recipient at a time, so that one closed mailbox does not
/// keep the announcement from the rest: the message counts as sent when any recipient took it,
/// and each refused recipient is reported.
fn deliver(
    sender: &Sender,
    envelope: &Envelope,
    bytes: &[u8],
    name: &str,
    report: &mut SendReport,
) -> Delivery {
    let whole = sender.deliver(envelope, bytes);
    let (Delivery::Refused(_), [_, _, ..]) = (&whole, envelope.to()) else {
        return whole;
    };
    let mut accepted = false;
    let mut refused = Vec::new();
    for to in envelope.to() {
        let one = match Envelope::new(envelope.from().cloned(), vec![to.clone()]) {
            Ok(one) => one,
            Err(e) => return Delivery::Refused(e.to_string()),
        };
        match sender.deliver(&one, bytes) {
            Delivery::Accepted => accepted = true,
            Delivery::Refused(why) => refused.push((format!("{name} (to {to})"), why)),
            unavailable @ Delivery::Unavailable(_) => return unavailable,
        }
    }
    if !accepted {
        return whole;
    }
    report.refused.extend(refused);
    Delivery::Accepted
}

/// The message as sent: without its Bcc header (and that header's continuation lines).
pub fn without_bcc(message: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let head_end = message
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(message.len(), |p| p + 2);
    let head = &message[..head_end];
    let Some(start) = head
        .split(|b| *b == b'\n')
        .scan(0, |offset, line| {
            let at = *offset;
            *offset += line.len() + 1;
            Some((at, line))
        })
        .find(|(_, line)| line.starts_with(b"Bcc:"))
        .map(|(at, _)| at)
    else {
        return std::borrow::Cow::Borrowed(message);
    };
    // the header ends at the first line break not followed by a space or tab
    let mut end = start;
    loop {
        match message[end..head_end].iter().position(|b| *b == b'\n') {
            Some(p) => end += p + 1,
            None => {
                end = head_end;
                break;
            }
        }
        if !matches!(message.get(end), Some(b' ' | b'\t')) {
            break;
        }
    }
    let mut out = Vec::with_capacity(message.len());
    out.extend_from_slice(&message[..start]);
    out.extend_from_slice(&message[end..]);
    std::borrow::Cow::Owned(out)
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

/// Whether a queued file is a whole message we could have written: UTF-8 (ours are 7-bit or
/// quoted-printable), no NUL byte, a header block with a Message-ID, and the CRLF every message
/// we format ends with (a file cut short by a full disk or a hand edit has lost it). A file that
/// fails is moved to `failed/` with the reason, never sent as it is.
pub fn sound(message: &[u8]) -> std::result::Result<(), String> {
    if message.contains(&0) {
        return Err("the file holds a NUL byte".into());
    }
    let text = std::str::from_utf8(message).map_err(|e| {
        format!(
            "the file is not UTF-8 text (byte {} is not); it was not written by adjudicate",
            e.valid_up_to()
        )
    })?;
    let Some((head, _)) = text.split_once("\r\n\r\n") else {
        return Err("the file has no header block (no blank line after the headers)".into());
    };
    let has = |name: &str| {
        head.split("\r\n").any(|l| {
            l.split_once(':')
                .is_some_and(|(n, _)| n.eq_ignore_ascii_case(name))
        })
    };
    if !has("Message-ID") {
        return Err("the message has no Message-ID header".into());
    }
    if !text.ends_with("\r\n") {
        return Err("the file is cut short (it does not end with a line break)".into());
    }
    Ok(())
}

/// The SMTP envelope of one of our own messages: the address of its From header, and those of
/// its Bcc header when it has one (an announcement: To shows the host's own address), else of
/// its To header.
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
    let from = addresses(header("From:")?)?.into_iter().next();
    let to = match header("Bcc:") {
        Ok(bcc) => addresses(bcc)?,
        Err(_) => addresses(header("To:")?)?,
    };
    Envelope::new(from, to).map_err(|e| e.to_string())
}

/// The addresses of an address-list header value: `"Name, Jr." <a@x>, b@y`.
fn addresses(value: &str) -> std::result::Result<Vec<Address>, String> {
    let mut parts = Vec::new();
    let (mut quoted, mut angle, mut start) = (false, false, 0);
    for (i, c) in value.char_indices() {
        match c {
            '"' if !angle => quoted = !quoted,
            '<' if !quoted => angle = true,
            '>' if !quoted => angle = false,
            ',' if !quoted && !angle => {
                parts.push(&value[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&value[start..]);
    parts
        .into_iter()
        .map(|part| {
            let bare = match (part.rfind('<'), part.rfind('>')) {
                (Some(open), Some(close)) if open < close => &part[open + 1..close],
                _ => part,
            };
            bare.trim()
                .parse::<Address>()
                .map_err(|e| format!("`{}`: {e}", bare.trim()))
        })
        .collect()
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

    #[test]
    fn a_bcc_header_is_the_envelope_and_is_never_sent() {
        let raw = b"From: Host <host@example.org>\r\nTo: Host <host@example.org>\r\nBcc: \"Doe, Jane\" <jane@example.org>,\r\n bob@example.org\r\nSubject: x\r\n\r\nBcc: <body@example.org>\r\n";
        let envelope = envelope_of(raw).unwrap();
        let to: Vec<String> = envelope.to().iter().map(|a| a.to_string()).collect();
        assert_eq!(to, ["jane@example.org", "bob@example.org"]);
        let sent = without_bcc(raw);
        assert_eq!(
            String::from_utf8_lossy(&sent),
            "From: Host <host@example.org>\r\nTo: Host <host@example.org>\r\nSubject: x\r\n\r\nBcc: <body@example.org>\r\n"
        );
        let plain = b"From: a@x.org\r\nTo: b@x.org\r\n\r\nbody\r\n";
        assert!(matches!(without_bcc(plain), std::borrow::Cow::Borrowed(_)));
    }

    /// What `format_message` writes as a Message-ID is what `is_our_message_id` knows; a
    /// player's client's, or ours from another domain, is not.
    #[test]
    fn our_message_ids_are_known_as_ours() {
        let config = MailConfig {
            from: Some("ORG Host <host@example.org>".into()),
            reply_to: None,
            public_to: None,
            bcc_batch: 50,
            transport: crate::config::Transport::File,
            host: None,
        };
        let mail = Mail {
            round: 3,
            kind: MailKind::Digest,
            to: Recipient::Address("host@example.org".into()),
            seq: 1,
            subject: "s".into(),
            body: "b".into(),
            date: jiff::Timestamp::UNIX_EPOCH,
            in_reply_to: None,
        };
        let to: Mailbox = "host@example.org".parse().unwrap();
        let bytes = format_message(&mail, &config, "game", to, Vec::new()).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("Message-ID: "))
            .unwrap();
        assert!(is_our_message_id(id, &config), "{id}");
        for other in [
            "<CAF=abc@mail.gmail.com>",
            &id.replace("example.org", "example.net"),
            &id.replace(".r003.", ".r3."),
            &id.replace(".digest@", ".digest.x@"),
        ] {
            assert!(!is_our_message_id(other, &config), "{other}");
        }
    }
}
