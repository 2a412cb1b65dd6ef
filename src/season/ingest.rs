//! `adjudicate ingest SEASON --maildir DIR`: one mailbox for a whole season. Each message in
//! `new/` goes to the running match its sender plays in; a player in two running matches is told
//! apart by the report the message answers (In-Reply-To or References naming a message in that
//! match's `outbox/` or `sent/`), else by the match's title in the subject. The messages of each
//! match are then ingested by the games' own `ingest` (which moves them to `cur/`). A message
//! that fits no running match (a sender outside the cast, a cast member who plays in no running
//! match, a player of two matches who named neither) is moved to `cur/` flagged for the host,
//! written once into the season's `ingest.log` and printed once, never lost and never read
//! again by a later match (whose rounds it was not meant for).

use super::SeasonDir;
use super::ledger::Ledger;
use crate::context::GameContext;
use crate::error::Result;
use crate::game_dir::GameDir;
use crate::games::Game;
use crate::games::{WithGame, dispatch};
use crate::ingest::{IngestReport, Source};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What a season's ingest did: each match's own report, and the messages no match took.
#[derive(Debug, Default)]
pub struct SeasonIngest {
    pub matches: Vec<(String, IngestReport)>,
    /// (message file, why no match took it): moved to `cur/` flagged.
    pub left: Vec<(PathBuf, String)>,
}

/// A running match, as routing needs it.
struct Running {
    folder: String,
    title: String,
    emails: BTreeSet<String>,
    /// Message-IDs of the mail it sent or queued (read on first need).
    sent: Option<BTreeSet<String>>,
    dir: PathBuf,
}

impl Running {
    fn sent_ids(&mut self) -> &BTreeSet<String> {
        let dir = self.dir.clone();
        self.sent.get_or_insert_with(|| message_ids(&dir))
    }
}

/// The Message-IDs of every message in a game's `outbox/` and `sent/`.
fn message_ids(game: &Path) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for folder in ["outbox", "sent"] {
        let Ok(entries) = std::fs::read_dir(game.join(folder)) else {
            continue;
        };
        for entry in entries.filter_map(|e| e.ok()) {
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let header_end = text
                .find("\r\n\r\n")
                .or_else(|| text.find("\n\n"))
                .unwrap_or(text.len());
            for line in text[..header_end].lines() {
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("message-id")
                {
                    ids.insert(bare_id(value));
                }
            }
        }
    }
    ids
}

fn bare_id(text: &str) -> String {
    text.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned()
}

/// Sender, the Message-IDs it answers, and its subject.
fn headers(bytes: &[u8]) -> Option<(String, Vec<String>, String)> {
    let message = mail_parser::MessageParser::default().parse(bytes)?;
    let sender = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())?
        .to_ascii_lowercase();
    let mut answers: Vec<String> = Vec::new();
    for value in [message.in_reply_to(), message.references()] {
        if let Some(list) = value.as_text_list() {
            answers.extend(list.iter().map(|id| bare_id(id)));
        }
    }
    Some((
        sender,
        answers,
        message.subject().unwrap_or_default().to_owned(),
    ))
}

struct IngestOne<'a> {
    ctx: &'a GameContext,
    source: &'a Source,
    now: jiff::Timestamp,
}

impl WithGame for IngestOne<'_> {
    type Output = Result<IngestReport>;
    fn run<G: Game>(self) -> Self::Output {
        let window = self.ctx.window::<G>()?;
        crate::ingest::ingest(self.ctx, self.source, self.now, G::KEYS, &window)
    }
}

/// The running match a message is for: the only one its sender plays in, else the one whose
/// report it answers, else the one whose title its subject holds; `Err` says why none.
fn route(running: &mut [Running], bytes: &[u8]) -> std::result::Result<usize, String> {
    let Some((sender, answers, subject)) = headers(bytes) else {
        return Err("not a mail message with a From address".into());
    };
    let playing: Vec<usize> = (0..running.len())
        .filter(|i| running[*i].emails.contains(&sender))
        .collect();
    let chosen = match playing.as_slice() {
        [] => return Err(format!("{sender} plays in no running match of this season")),
        [one] => Some(*one),
        several => {
            let by_reply = several
                .iter()
                .copied()
                .find(|i| answers.iter().any(|a| running[*i].sent_ids().contains(a)));
            // the longest title the subject holds ("Match 10" over "Match 1")
            let by_subject = || {
                several
                    .iter()
                    .copied()
                    .filter(|i| subject.contains(running[*i].title.as_str()))
                    .max_by_key(|i| running[*i].title.len())
            };
            by_reply.or_else(by_subject)
        }
    };
    chosen.ok_or_else(|| {
        let names: Vec<&str> = playing
            .iter()
            .map(|i| running[*i].folder.as_str())
            .collect();
        format!(
            "{sender} plays in {}: reply to a report of the match you mean, or put its title in the subject",
            names.join(" and ")
        )
    })
}

/// Routes and ingests every message of `maildir`'s `new/`.
pub fn ingest(season: &SeasonDir, maildir: &Path, now: jiff::Timestamp) -> Result<SeasonIngest> {
    let ledger: Ledger = super::ledger::compute(season)?;
    let mut running: Vec<Running> = Vec::new();
    // a match takes mail once its first tick has set it up, until it is over
    for m in ledger.matches.iter().filter(|m| !m.over) {
        let dir = season.matches().join(&m.folder);
        if !dir.join("state.toml").is_file() {
            continue;
        }
        running.push(Running {
            folder: m.folder.clone(),
            title: m.title.clone(),
            emails: m
                .players
                .iter()
                .filter_map(|p| p.email.as_deref().map(str::to_ascii_lowercase))
                .collect(),
            sent: None,
            dir,
        });
    }
    let mut routed: BTreeMap<usize, Vec<PathBuf>> = BTreeMap::new();
    let mut done = SeasonIngest::default();
    for file in crate::ingest::maildir_new(maildir)? {
        let bytes = std::fs::read(&file).map_err(|e| crate::error::Error::io(&file, e))?;
        match route(&mut running, &bytes) {
            Ok(i) => routed.entry(i).or_default().push(file),
            Err(why) => done.left.push((file, why)),
        }
    }
    for (i, files) in routed {
        let dir = GameDir::new(&running[i].dir);
        let _lock = dir.lock()?;
        let ctx = GameContext::load(dir)?;
        let report = dispatch(
            ctx.config.game,
            IngestOne {
                ctx: &ctx,
                source: &Source::MaildirFiles(files),
                now,
            },
        )?;
        done.matches.push((running[i].folder.clone(), report));
    }
    if !done.left.is_empty() {
        let log = season.root().join("ingest.log");
        let mut text = crate::game_dir::read_optional(&log)?.unwrap_or_default();
        for (file, why) in &done.left {
            text.push_str(&format!(
                "{} {}: {why}; not used, flagged in cur/\n",
                crate::clock::rfc3339(now),
                file.display()
            ));
        }
        crate::game_dir::write_atomic(&log, text.as_bytes())?;
        for (file, _) in &done.left {
            crate::ingest::mark(file, "FS")?;
        }
    }
    Ok(done)
}
