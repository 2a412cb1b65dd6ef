//! `adjudicate ingest`: submissions from mail (a Maildir, an mbox, one .eml) or a chat export,
//! written into the current round's `submissions/` for the next tick. Senders are mapped to
//! players by `email` (case-insensitive) or `chat` handle; anything that cannot be mapped or read
//! is reported in `ingest.log` and never guessed at.
//!
//! Every message a player sends gets exactly one answer: the tick acknowledges a version written
//! here; ingest itself answers a message with no submission (once an hour per sender at most), a
//! wrong token, the version already on file, and one that missed a resolved round. Mail from a
//! sender who is not a player, and automatic mail (auto-responders, lists), is never answered:
//! it is logged, recorded as "mail not used" and moved out of `new/` flagged.
//!
//! A round takes versions from the moment the round before it was resolved (`StateFile::opened`),
//! not from that round's scheduled deadline: after an early close the next round's mail counts
//! at once.
//!
//! Invariants: a submission file is written (atomically) before its Maildir message moves from
//! `new/` to `cur/`, so a crash leaves every message either ingested or still new; a message
//! older than the version on file never replaces it; tokens are checked here too, after the
//! text is read, and a rejection names no secret.

pub mod chat;
pub mod extract;
pub mod flowed;
mod markers;
pub mod message;
pub mod nothing;
pub mod origins;
mod replies;
mod run;
pub mod seen;

use crate::context::GameContext;
use crate::context::Window;
use crate::error::{Error, Result};
use crate::player_id::PlayerId;
use message::Incoming;
pub use origins::{ORIGINS, Origin, Origins, Unused, origins_path, read_origins};
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
    /// Lines the host must see at once (stderr): versions that came too late to count, mail
    /// from senders who are not players, messages without a submission.
    pub warnings: Vec<String>,
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

/// Reads every message of `source` into the round `window` says (`GameContext::window`):
/// `keys` are the game's submission keys (`Game::KEYS`), how a submission is told from prose.
pub fn ingest(
    ctx: &GameContext,
    source: &Source,
    now: jiff::Timestamp,
    keys: &'static [&'static str],
    window: &Window,
) -> Result<IngestReport> {
    // What a killed run (of ingest or a tick) left half-written: under the lock, nobody else's.
    ctx.dir.sweep_temp(&[window.round], false)?;
    let mut items = read_source(source, now.as_second())?;
    items.sort_by_key(Item::order);
    let mut run = run::Run::new(ctx, source, now, keys, window, items.len())?;
    for (i, item) in items.iter().enumerate() {
        run.sort_out(i, item, &items)?;
    }
    let files = run.settle(&items)?;
    run.commit(&items, files)
}

/// Moves a Maildir message from `new/` to `cur/` with `flags` (`S` seen; `F` flagged: for the
/// host to look at in a mail client).
pub fn mark(file: &Path, flags: &str) -> Result<()> {
    let cur = file
        .parent()
        .and_then(Path::parent)
        .map(|m| m.join("cur"))
        .ok_or_else(|| Error::io(file, std::io::Error::other("not in a Maildir's new/")))?;
    crate::game_dir::create_dir(&cur)?;
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let target = cur.join(if name.contains(":2,") {
        name.into_owned()
    } else {
        format!("{name}:2,{flags}")
    });
    std::fs::rename(file, &target).map_err(|e| Error::io(file, e))
}

fn read_source(source: &Source, now: i64) -> Result<Vec<Item>> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| Error::io(p, e));
    Ok(match source {
        Source::Eml(path) => vec![Item {
            incoming: message::from_mail(&read(path)?, None, now),
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
                        Ok(m) => message::from_mail(m.contents(), None, now),
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
        Source::Maildir(dir) => maildir_items(maildir_new(dir)?, now)?,
        Source::MaildirFiles(files) => maildir_items(files.clone(), now)?,
        Source::Chat(path) => {
            let text = crate::game_dir::read_string(path)?;
            let folder = path.parent().unwrap_or(Path::new("."));
            chat::read(&text, folder, now)
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

fn maildir_items(files: Vec<PathBuf>, now: i64) -> Result<Vec<Item>> {
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
                incoming: message::from_mail(&read(&f)?, delivered, now),
                label: f.display().to_string(),
                maildir_file: Some(f),
            })
        })
        .collect()
}
