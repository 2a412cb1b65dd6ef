//! `adjudicate ingest`: submissions from mail (a Maildir, an mbox, one .eml) or a chat export,
//! written into the current round's `submissions/` for the next tick. Senders are mapped to
//! players by `email` (case-insensitive) or `chat` handle; anything that cannot be mapped or read
//! is reported in `ingest.log` and never guessed at.
//!
//! Invariants: a submission file is written (atomically) before its Maildir message moves from
//! `new/` to `cur/`, so a crash leaves every message either ingested or still new; a message
//! older than the version on file never replaces it; tokens are checked here too, and a
//! rejection names no secret.

pub mod chat;
pub mod extract;
pub mod message;

use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::game_dir::{read_optional, write_atomic};
use crate::games::Game;
use crate::mail::{Mail, MailKind, Recipient, format_message};
use crate::player_id::PlayerId;
use crate::render::Kind;
use crate::submission::{TOKEN_KEY, sha256_hex};
use message::Incoming;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where messages come from.
#[derive(Debug, Clone)]
pub enum Source {
    Maildir(PathBuf),
    /// Some messages of a Maildir's `new/` (a season's ingest routes each to its match): read
    /// and moved to `cur/` like those of `Maildir`.
    MaildirFiles(Vec<PathBuf>),
    Mbox(PathBuf),
    Eml(PathBuf),
    Chat(PathBuf),
}

/// What ingest did, for the summary.
#[derive(Debug, Default)]
pub struct IngestReport {
    pub round: u32,
    /// (player, where from) of each submission written.
    pub written: Vec<(PlayerId, String)>,
    /// One line per message read (also appended to `ingest.log`), in the order they reached
    /// the host.
    pub log: Vec<String>,
    /// Lines the host must see at once (stderr): versions that came too late to count.
    pub warnings: Vec<String>,
}

/// `rounds/NNN/submissions/.ingest.toml`: where each player's current file came from, so the
/// tick can record the source and the time it reached the host, reply to the message, and tell
/// the player what text it ignored; and so that an older message never wins.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Origins {
    #[serde(default)]
    pub origin: BTreeMap<PlayerId, Origin>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// "mail" or "chat"
    pub source: String,
    /// When the message reached the host (Unix seconds).
    #[serde(alias = "date")]
    pub reached: i64,
    /// The sender's own Date (Unix seconds): orders two messages that reached the host in the
    /// same second.
    #[serde(default)]
    pub sent: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Of the file written, to tell whether the file is still the ingested one.
    pub sha256: String,
    /// The sender's text around the submission that was not read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

pub const ORIGINS: &str = ".ingest.toml";

pub fn origins_path(ctx: &GameContext, round: u32) -> PathBuf {
    ctx.dir.submissions(round).join(ORIGINS)
}

pub fn read_origins(ctx: &GameContext, round: u32) -> Result<Origins> {
    let path = origins_path(ctx, round);
    match read_optional(&path)? {
        Some(text) => crate::host_file::parse(&path, &text),
        None => Ok(Origins::default()),
    }
}

/// One message read from a source, with what to do with it once ingested.
struct Item {
    incoming: std::result::Result<Incoming, String>,
    /// A Maildir file to move from new/ to cur/ once handled.
    maildir_file: Option<PathBuf>,
    label: String,
}

impl Item {
    /// The order messages are handled in: when they reached the host, then the sender's date.
    fn order(&self) -> (i64, i64) {
        self.incoming
            .as_ref()
            .map_or((i64::MIN, 0), |i| (i.reached, i.sent))
    }
}

/// The sender's ignored text, quoted for the host's log (a question must reach the host).
fn besides(incoming: &Incoming) -> String {
    if incoming.ignored.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = incoming.ignored.iter().map(|l| format!("{l:?}")).collect();
    format!(" [text besides the submission: {}]", quoted.join(" / "))
}

/// Why the arrival time is a fallback, for the host's log.
fn time_note(incoming: &Incoming) -> String {
    incoming
        .reached_note
        .as_ref()
        .map_or_else(String::new, |n| format!(" (time: {n})"))
}

pub fn ingest<G: Game>(
    ctx: &GameContext,
    source: &Source,
    now: jiff::Timestamp,
) -> Result<IngestReport> {
    let state = match ctx.load_state::<G>()? {
        Some(file) if G::is_over(&file.game) => {
            return Err(Error::Usage("the game is over: nothing to ingest".into()));
        }
        Some(file) => file.game,
        None => {
            return Err(Error::Usage(
                "the game is not set up yet: run `adjudicate round` first".into(),
            ));
        }
    };
    let round = G::round(&state);
    let index = G::rounds_played(&state);
    // A message that reached the host by the previous round's deadline was meant for that
    // round, which is resolved: it counts for neither (spec README, "When a version counts").
    let closed = index.checked_sub(1).and_then(|i| ctx.deadline(i));
    let mut items = read_source(source, G::KEYS, now.as_second())?;
    items.sort_by_key(Item::order);
    let kind = if matches!(source, Source::Chat(_)) {
        "chat"
    } else {
        "mail"
    };
    let mut report = IngestReport {
        round,
        ..IngestReport::default()
    };
    let mut replies = Replies {
        ctx,
        info: ctx.game_info(round, index, None),
        now,
        renderer: None,
        mail: kind == "mail" && ctx.config.mail.transport.queues(),
    };
    let mut origins = read_origins(ctx, round)?;
    // Exactly one line per message: `lines[i]` is item i's, set once it is decided.
    let mut lines: Vec<Option<String>> = vec![None; items.len()];
    // The newest message of each player wins within a run (items are in arrival order).
    let mut best: BTreeMap<PlayerId, usize> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let label = &item.label;
        let incoming = match &item.incoming {
            Ok(incoming) => incoming,
            Err(why) => {
                lines[i] = Some(format!("{label}: {why}; ignored"));
                continue;
            }
        };
        let Some(player) = player_of(ctx, incoming, kind) else {
            lines[i] = Some(format!(
                "{label}: unknown sender {}; ignored{}",
                incoming.sender,
                besides(incoming)
            ));
            continue;
        };
        let text = match &incoming.toml {
            Ok(t) => t,
            Err(why) => {
                lines[i] = Some(format!(
                    "{label}: from {player}: {why}; ignored{}",
                    besides(incoming)
                ));
                continue;
            }
        };
        if let Some(expected) = ctx.secrets.tokens.get(&player) {
            let doc = crate::doc::Doc::parse(text).ok();
            let given = doc
                .as_ref()
                .and_then(|d| d.get(TOKEN_KEY))
                .and_then(|n| n.as_str(TOKEN_KEY).ok());
            if given != Some(expected.as_str()) {
                lines[i] = Some(format!(
                    "{label}: from {} claiming to be {player}: token does not match; rejected, the sender is told",
                    incoming.sender
                ));
                replies.rejected(incoming)?;
                continue;
            }
        }
        let reached = jiff::Timestamp::from_second(incoming.reached).unwrap_or(now);
        if let Some(deadline) = closed.filter(|d| reached <= *d) {
            let missed = round.saturating_sub(1);
            let warning = format!(
                "{label}: from {player}: reached the host {}, before round {missed}'s deadline ({}), but round {missed} was resolved before it was fetched; used for neither round {missed} nor round {round}, the player is told{}{}",
                crate::clock::human(reached),
                crate::clock::human(deadline),
                time_note(incoming),
                besides(incoming)
            );
            report.warnings.push(warning.clone());
            lines[i] = Some(warning);
            replies.late(&player, incoming, missed, deadline)?;
            continue;
        }
        if let Some(previous) = best.insert(player.clone(), i) {
            lines[previous] = Some(format!(
                "{}: from {player}: superseded by a newer message in this run ({label})",
                items[previous].label
            ));
        }
    }
    let mut written_origin = false;
    for (player, i) in best {
        let item = &items[i];
        let label = &item.label;
        // only readable messages with a submission are kept in `best`
        let Ok(incoming) = &item.incoming else {
            continue;
        };
        let Ok(text) = &incoming.toml else {
            continue;
        };
        let sha256 = sha256_hex(text.as_bytes());
        let path = ctx.dir.submissions(round).join(format!("{player}.toml"));
        let on_file = origins.origin.get(&player);
        if on_file.is_some_and(|o| (incoming.reached, incoming.sent) < (o.reached, o.sent)) {
            lines[i] = Some(format!(
                "{label}: from {player}: older than the version on file; not applied"
            ));
            continue;
        }
        let current = std::fs::read(&path).ok().map(|b| sha256_hex(&b));
        if current.as_deref() == Some(sha256.as_str()) {
            lines[i] = Some(format!(
                "{label}: from {player}: the version already on file; not written, the player is told{}",
                besides(incoming)
            ));
            replies.same(&player, incoming, &sha256)?;
            continue;
        }
        write_atomic(&path, text.as_bytes())?;
        origins.origin.insert(
            player.clone(),
            Origin {
                source: kind.into(),
                reached: incoming.reached,
                sent: incoming.sent,
                message_id: incoming.message_id.clone(),
                sha256,
                ignored: incoming
                    .ignored
                    .iter()
                    .map(|l| cut(&ctx.secrets.redactor.redact(l)))
                    .collect(),
            },
        );
        written_origin = true;
        let reached = jiff::Timestamp::from_second(incoming.reached).unwrap_or(now);
        lines[i] = Some(format!(
            "{label}: from {player}: written as the round {round} submission (reached the host {}){}{}",
            crate::clock::rfc3339(reached),
            time_note(incoming),
            besides(incoming)
        ));
        report.written.push((player, label.clone()));
    }
    if written_origin {
        write_atomic(
            &origins_path(ctx, round),
            toml::to_string(&origins)
                .expect("origins serialize")
                .as_bytes(),
        )?;
    }
    // A player may write a token anywhere, prose included: none reaches the log or stderr.
    let redactor = &ctx.secrets.redactor;
    report.log = lines
        .into_iter()
        .flatten()
        .map(|l| redactor.redact(&l).into_owned())
        .collect();
    for warning in &mut report.warnings {
        *warning = redactor.redact(warning).into_owned();
    }
    if !report.log.is_empty() {
        let log = ctx.dir.root().join("ingest.log");
        let mut text = read_optional(&log)?.unwrap_or_default();
        for line in &report.log {
            text.push_str(&format!("{} {line}\n", crate::clock::rfc3339(now)));
        }
        write_atomic(&log, text.as_bytes())?;
    }
    // Only now, with every submission and the log written, are the messages handled.
    for item in &items {
        if let Some(file) = &item.maildir_file {
            let cur = file
                .parent()
                .and_then(Path::parent)
                .map(|m| m.join("cur"))
                .expect("a Maildir file is in new/");
            crate::game_dir::create_dir(&cur)?;
            let name = file.file_name().expect("a file").to_string_lossy();
            let target = cur.join(if name.contains(":2,") {
                name.into_owned()
            } else {
                format!("{name}:2,S")
            });
            std::fs::rename(file, &target).map_err(|e| Error::io(file, e))?;
        }
    }
    Ok(report)
}

/// A line of ignored text, cut for the acknowledgement.
fn cut(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

/// The replies ingest sends itself (the tick answers everything it receives); templates are
/// compiled on first use only.
struct Replies<'a> {
    ctx: &'a GameContext,
    info: crate::render::GameInfo,
    now: jiff::Timestamp,
    renderer: Option<crate::render::Renderer>,
    /// Whether replies go out at all (mail on, a mail message).
    mail: bool,
}

impl Replies<'_> {
    /// Whether to reply at all; compiles the templates the first time the answer is yes.
    fn on(&mut self) -> Result<bool> {
        if self.mail && self.renderer.is_none() {
            self.renderer = Some(self.ctx.renderer()?);
        }
        Ok(self.mail)
    }

    /// Tells the sender of a message with a wrong or missing token that it was not accepted. The
    /// reply goes to the address the message came from and names neither player nor token.
    fn rejected(&mut self, incoming: &Incoming) -> Result<()> {
        if !self.on()? {
            return Ok(());
        }
        let context = crate::render::RejectContext {
            game: &self.info,
            subject: &self.ctx.secrets.redactor.redact(&incoming.subject),
        };
        let subject = format!("{}: your message was not accepted", self.info.title);
        let to = Recipient::Address(incoming.sender.clone());
        self.send(
            to,
            MailKind::Reject,
            incoming,
            subject,
            Kind::Reject,
            &context,
        )
    }

    /// Tells a player their message reached the host before `round`'s deadline but was
    /// fetched after the round was resolved.
    fn late(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        round: u32,
        deadline: jiff::Timestamp,
    ) -> Result<()> {
        if !self.on()? {
            return Ok(());
        }
        let arrived = jiff::Timestamp::from_second(incoming.reached).unwrap_or(self.now);
        let context = crate::render::LateContext {
            game: &self.info,
            round,
            arrived: crate::clock::human(arrived),
            deadline: crate::clock::human(deadline),
            resolved_first: true,
        };
        let subject = format!(
            "{}: round {round}, your message came too late",
            self.info.title
        );
        let to = Recipient::Player(player.clone());
        self.send(to, MailKind::Late, incoming, subject, Kind::Late, &context)
    }

    /// Tells a player the message holds the version already on file, once a tick has
    /// acknowledged it (before that, its acknowledgement is still to come).
    fn same(&mut self, player: &PlayerId, incoming: &Incoming, sha256: &str) -> Result<()> {
        if !self.on()? {
            return Ok(());
        }
        let receipts =
            crate::receipts::Receipts::load(&self.ctx.dir, &self.ctx.config, self.info.round)?;
        let Some(receipt) = receipts
            .list
            .iter()
            .rev()
            .find(|r| &r.player == player && r.sha256 == sha256)
        else {
            return Ok(());
        };
        let when = receipt.reached();
        let context = crate::render::SameContext {
            game: &self.info,
            version: receipt.n,
            received_at: crate::clock::parse_instant(when)
                .map_or_else(|_| when.to_owned(), crate::clock::human),
        };
        let subject = format!(
            "{}: round {}, we already have this version",
            self.info.title, self.info.round
        );
        let to = Recipient::Player(player.clone());
        self.send(to, MailKind::Same, incoming, subject, Kind::Same, &context)
    }

    /// Queues a reply into `outbox/`, once per message (the sequence number comes from its
    /// Message-ID), unless it is already queued or sent.
    fn send<C: Serialize>(
        &self,
        to: Recipient,
        kind: MailKind,
        incoming: &Incoming,
        subject: String,
        template: Kind,
        context: &C,
    ) -> Result<()> {
        let ctx = self.ctx;
        let Some(renderer) = &self.renderer else {
            return Ok(()); // `on` said no
        };
        let body = renderer.render(template, context)?;
        let id_hash = sha256_hex(
            incoming
                .message_id
                .as_deref()
                .unwrap_or_default()
                .as_bytes(),
        );
        let name = match &to {
            Recipient::Player(id) => ctx.config.player(id).map(|p| p.name.clone()),
            _ => None,
        };
        let mail = Mail {
            round: self.info.round,
            kind,
            to,
            seq: u32::from_str_radix(&id_hash[..7], 16).unwrap_or(0),
            subject,
            body,
            date: self.now,
            in_reply_to: incoming.message_id.clone().filter(|id| id.starts_with('<')),
        };
        let file = mail.file_name();
        if [
            ctx.dir.outbox(),
            ctx.dir.sent(),
            ctx.dir.root().join("failed"),
        ]
        .iter()
        .any(|d| d.join(&file).exists())
        {
            return Ok(());
        }
        // A reply goes to the address the message came from.
        let to = crate::mail::outbox::mailbox(&name.unwrap_or_default(), &incoming.sender)?;
        let bytes = format_message(&mail, &ctx.config.mail, &ctx.game_key(), to, Vec::new())?;
        write_atomic(&ctx.dir.outbox().join(file), &bytes)
    }
}

fn player_of(ctx: &GameContext, incoming: &Incoming, kind: &str) -> Option<PlayerId> {
    ctx.config
        .players
        .iter()
        .find(|p| match kind {
            "chat" => p
                .chat
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(&incoming.sender)),
            _ => p
                .email
                .as_deref()
                .is_some_and(|e| e.eq_ignore_ascii_case(&incoming.sender)),
        })
        .map(|p| p.id.clone())
}

fn read_source(source: &Source, keys: &[&str], now: i64) -> Result<Vec<Item>> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| Error::io(p, e));
    Ok(match source {
        Source::Eml(path) => vec![Item {
            incoming: message::from_mail(&read(path)?, keys, None, now),
            maildir_file: None,
            label: path.display().to_string(),
        }],
        Source::Mbox(path) => {
            let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
            mail_parser::mailbox::mbox::MessageIterator::new(std::io::BufReader::new(file))
                .enumerate()
                .map(|(i, m)| {
                    let label = format!("{} message {}", path.display(), i + 1);
                    let incoming = match m {
                        Ok(m) => message::from_mail(m.contents(), keys, None, now),
                        Err(_) => Err("unreadable mbox entry".into()),
                    };
                    Item {
                        incoming,
                        maildir_file: None,
                        label,
                    }
                })
                .collect()
        }
        Source::Maildir(dir) => maildir_items(maildir_new(dir)?, keys, now)?,
        Source::MaildirFiles(files) => maildir_items(files.clone(), keys, now)?,
        Source::Chat(path) => {
            let text = crate::game_dir::read_string(path)?;
            let folder = path.parent().unwrap_or(Path::new("."));
            chat::read(&text, folder, keys, now)
                .map_err(|m| Error::invalid(path, "", m))?
                .into_iter()
                .map(|i| Item {
                    label: format!(
                        "{} {}",
                        path.display(),
                        i.message_id.clone().unwrap_or_default()
                    ),
                    incoming: Ok(i),
                    maildir_file: None,
                })
                .collect()
        }
    })
}

/// The messages waiting in a Maildir's `new/`, by file name.
pub fn maildir_new(dir: &Path) -> Result<Vec<PathBuf>> {
    let new = dir.join("new");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&new)
        .map_err(|e| Error::io(&new, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

fn maildir_items(files: Vec<PathBuf>, keys: &[&str], now: i64) -> Result<Vec<Item>> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| Error::io(p, e));
    files
        .into_iter()
        .map(|f| {
            // Maildir delivery time: the file's modification time.
            let delivered = std::fs::metadata(&f)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| jiff::Timestamp::try_from(t).ok())
                .map(|t| t.as_second());
            Ok(Item {
                incoming: message::from_mail(&read(&f)?, keys, delivered, now),
                label: f.display().to_string(),
                maildir_file: Some(f),
            })
        })
        .collect()
}
