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
pub mod message;

use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::game_dir::{read_optional, write_atomic};
use crate::games::Game;
use crate::player_id::PlayerId;
use crate::submission::{TOKEN_KEY, sha256_hex};
use message::Incoming;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where messages come from.
#[derive(Debug, Clone)]
pub enum Source {
    Maildir(PathBuf),
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
    /// Lines also appended to `ingest.log`.
    pub reported: Vec<String>,
}

/// `rounds/NNN/submissions/.ingest.toml`: where each player's current file came from, so the
/// tick can record the source and reply to the message, and an older message never wins.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Origins {
    #[serde(default)]
    pub origin: BTreeMap<PlayerId, Origin>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// "mail" or "chat"
    pub source: String,
    pub date: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Of the file written, to tell whether the file is still the ingested one.
    pub sha256: String,
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

pub fn ingest<G: Game>(
    ctx: &GameContext,
    source: &Source,
    now: jiff::Timestamp,
) -> Result<IngestReport> {
    let round = match ctx.load_state::<G>()? {
        Some(file) if G::is_over(&file.game) => {
            return Err(Error::Usage("the game is over: nothing to ingest".into()));
        }
        Some(file) => G::round(&file.game),
        None => {
            return Err(Error::Usage(
                "the game is not set up yet: run `adjudicate round` first".into(),
            ));
        }
    };
    let items = read_source(source)?;
    let kind = if matches!(source, Source::Chat(_)) {
        "chat"
    } else {
        "mail"
    };
    let mut report = IngestReport {
        round,
        ..IngestReport::default()
    };
    let mut renderer = None;
    let mut origins = read_origins(ctx, round)?;
    // The newest message of each player wins within a run.
    let mut best: BTreeMap<PlayerId, (Incoming, String)> = BTreeMap::new();
    for item in &items {
        let incoming = match &item.incoming {
            Ok(i) => i,
            Err(why) => {
                report
                    .reported
                    .push(format!("{}: {why}; ignored", item.label));
                continue;
            }
        };
        let Some(player) = player_of(ctx, incoming, kind) else {
            report.reported.push(format!(
                "{}: unknown sender {}; ignored",
                item.label, incoming.sender
            ));
            continue;
        };
        let text = match &incoming.toml {
            Ok(t) => t,
            Err(why) => {
                report
                    .reported
                    .push(format!("{}: from {player}: {why}; ignored", item.label));
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
                report.reported.push(format!(
                    "{}: from {} claiming to be {player}: token does not match; rejected, the sender is told",
                    item.label, incoming.sender
                ));
                if kind == "mail" && ctx.config.mail.transport.queues() {
                    // templates are compiled once per run, and only if a reply is needed
                    if renderer.is_none() {
                        renderer = Some(ctx.renderer()?);
                    }
                    let renderer = renderer.as_ref().expect("just set");
                    reply_rejected(ctx, renderer, round, incoming, now)?;
                }
                continue;
            }
        }
        let newer = best
            .get(&player)
            .is_none_or(|(b, _)| incoming.date >= b.date);
        if newer {
            best.insert(player, (incoming.clone(), item.label.clone()));
        }
    }
    for (player, (incoming, label)) in best {
        if let Some(on_file) = origins.origin.get(&player)
            && incoming.date < on_file.date
        {
            report.reported.push(format!(
                "{label}: from {player}: older than the version on file; not applied"
            ));
            continue;
        }
        let text = incoming.toml.expect("only messages with TOML are kept");
        let path = ctx.dir.submissions(round).join(format!("{player}.toml"));
        write_atomic(&path, text.as_bytes())?;
        origins.origin.insert(
            player.clone(),
            Origin {
                source: kind.into(),
                date: incoming.date,
                message_id: incoming.message_id,
                sha256: sha256_hex(text.as_bytes()),
            },
        );
        report.written.push((player, label));
    }
    if !report.written.is_empty() {
        write_atomic(
            &origins_path(ctx, round),
            toml::to_string(&origins)
                .expect("origins serialize")
                .as_bytes(),
        )?;
    }
    if !report.reported.is_empty() {
        let log = ctx.dir.root().join("ingest.log");
        let mut text = read_optional(&log)?.unwrap_or_default();
        for line in &report.reported {
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

/// Tells the sender of a message with a wrong or missing token that it was not accepted. The
/// reply goes to the address the message came from and names neither player nor token.
fn reply_rejected(
    ctx: &GameContext,
    renderer: &crate::render::Renderer,
    round: u32,
    incoming: &Incoming,
    now: jiff::Timestamp,
) -> Result<()> {
    use crate::mail::{Mail, MailKind, Recipient, format_message};
    let info = ctx.game_info(round, 0, None);
    let context = crate::render::RejectContext {
        game: &info,
        subject: &incoming.subject,
    };
    // One reply per rejected message: the sequence number comes from its Message-ID.
    let id_hash = sha256_hex(
        incoming
            .message_id
            .as_deref()
            .unwrap_or_default()
            .as_bytes(),
    );
    let mail = Mail {
        round,
        kind: MailKind::Reject,
        to: Recipient::Address(incoming.sender.clone()),
        seq: u32::from_str_radix(&id_hash[..7], 16).unwrap_or(0),
        subject: format!("{}: your message was not accepted", ctx.config.title),
        body: renderer.render(crate::render::Kind::Reject, &context)?,
        date: now,
        in_reply_to: incoming.message_id.clone().filter(|id| id.starts_with('<')),
    };
    let name = mail.file_name();
    if [
        ctx.dir.outbox(),
        ctx.dir.sent(),
        ctx.dir.root().join("failed"),
    ]
    .iter()
    .any(|d| d.join(&name).exists())
    {
        return Ok(());
    }
    let bytes = format_message(
        &mail,
        &ctx.config.mail,
        &ctx.game_key(),
        "",
        &incoming.sender,
    )?;
    write_atomic(&ctx.dir.outbox().join(name), &bytes)
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

fn read_source(source: &Source) -> Result<Vec<Item>> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| Error::io(p, e));
    Ok(match source {
        Source::Eml(path) => vec![Item {
            incoming: message::from_mail(&read(path)?),
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
                        Ok(m) => message::from_mail(m.contents()),
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
        Source::Maildir(dir) => {
            let new = dir.join("new");
            let mut files: Vec<PathBuf> = std::fs::read_dir(&new)
                .map_err(|e| Error::io(&new, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            files
                .into_iter()
                .map(|f| {
                    Ok(Item {
                        incoming: message::from_mail(&read(&f)?),
                        label: f.display().to_string(),
                        maildir_file: Some(f),
                    })
                })
                .collect::<Result<_>>()?
        }
        Source::Chat(path) => {
            let text = crate::game_dir::read_string(path)?;
            chat::read(&text)
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
