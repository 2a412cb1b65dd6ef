//! What earlier ticks saw, kept in `GAME_DIR/.cache/` so that a cron tick costs about what
//! listing the game directory costs (issue #17). Both files are caches: never archived (the
//! `.gitignore` of `new` lists `.cache/`), never trusted beyond file metadata, and a missing,
//! unreadable or foreign cache only means the work is done again.
//!
//! - `.cache/seen-NNN`: for each file of round NNN's `submissions/`, its size, mtime, ctime,
//!   inode and sha256 when a tick last hashed it. A file whose metadata still match is not read
//!   again. A file modified within two seconds of being hashed is not cached (it could change
//!   again within the same timestamp, as git's "racily clean" index entries can).
//! - `.cache/idle.toml`: written by a tick that found nothing to do, with a key over the metadata
//!   of every input a tick reads (game.toml, secrets.toml, state.toml, the round's receipts,
//!   submissions, the previous round's submissions, the folders a killed tick leaves temp files
//!   in) and the first moment the clock would make a tick act (a reminder, the deadline). While
//!   the key matches, the outbox is empty and that moment has not come, a tick only prints the
//!   same summary again. Any tick that writes removes the stamp first.

use crate::submission::sha256_hex;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const FOLDER: &str = ".cache";
const IDLE: &str = "idle.toml";

fn folder(root: &Path) -> PathBuf {
    root.join(FOLDER)
}

/// The metadata that says a file is unchanged: size, mtime and ctime (ns) and inode. The ctime
/// changes with every write and cannot be set back, unlike the mtime (`touch -d`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    inode: u64,
}

impl Stat {
    pub fn of(meta: &fs::Metadata) -> Stat {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i128);
        #[cfg(unix)]
        let (inode, ctime_ns) = {
            use std::os::unix::fs::MetadataExt;
            (
                meta.ino(),
                i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
            )
        };
        #[cfg(not(unix))]
        let (inode, ctime_ns) = (0, 0);
        Stat {
            size: meta.len(),
            mtime_ns,
            ctime_ns,
            inode,
        }
    }

    /// Modified so recently that a change within the same mtime could go unseen.
    fn racy(&self) -> bool {
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as i128);
        now - self.mtime_ns.max(self.ctime_ns) < Duration::from_secs(2).as_nanos() as i128
    }
}

/// What `Seen::probe` found of one file.
#[derive(Debug)]
pub struct Probe {
    pub sha256: String,
    /// The file's bytes, when it had to read them.
    pub bytes: Option<Vec<u8>>,
    /// The metadata to remember the hash by; `None`: changed while read, or too recently.
    keep: Option<Stat>,
}

/// The hashes of one round's submission files, by file name.
#[derive(Debug, Default)]
pub struct Seen {
    round: u32,
    known: HashMap<String, (Stat, String)>,
    /// What this tick hashed or confirmed, written back by `save`.
    now: Vec<(String, Stat, String)>,
    /// Whether `keep` and `save` record anything (`forget`).
    remember: bool,
}

impl Seen {
    fn path(root: &Path, round: u32) -> PathBuf {
        folder(root).join(format!("seen-{round:03}"))
    }

    pub fn load(root: &Path, round: u32) -> Seen {
        let mut known = HashMap::new();
        let text = fs::read_to_string(Seen::path(root, round)).unwrap_or_default();
        for line in text.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let [name, size, mtime, ctime, inode, sha] = f[..] else {
                continue;
            };
            let (Ok(size), Ok(mtime_ns), Ok(ctime_ns), Ok(inode)) =
                (size.parse(), mtime.parse(), ctime.parse(), inode.parse())
            else {
                continue;
            };
            if sha.len() == 64 {
                let stat = Stat {
                    size,
                    mtime_ns,
                    ctime_ns,
                    inode,
                };
                known.insert(name.to_owned(), (stat, sha.to_owned()));
            }
        }
        Seen {
            round,
            known,
            now: Vec::new(),
            remember: true,
        }
    }

    /// For a tick that resolves the round whatever arrives: the hashes already known still
    /// spare reading files, but nothing is recorded, since no later tick reads a closed round's
    /// cache (a 100,000-player round's list is 19 MB of the tick's peak memory).
    pub fn forget(&mut self) {
        self.remember = false;
    }

    /// The sha256 of the file at `path` (named `name` in its folder): from the cache when its
    /// metadata match, else read and hashed (with the bytes it had to read). Takes `&self`, so
    /// that a big round's files are looked at on every core; `keep` records what it saw.
    pub fn probe(&self, name: &str, path: &Path) -> std::io::Result<Probe> {
        let stat = fs::metadata(path).map(|m| Stat::of(&m))?;
        if let Some((known, sha)) = self.known.get(name)
            && *known == stat
        {
            return Ok(Probe {
                sha256: sha.clone(),
                bytes: None,
                keep: Some(stat),
            });
        }
        let bytes = fs::read(path)?;
        // metadata again after the read: a file written meanwhile is not cached as this content
        let after = fs::metadata(path).map(|m| Stat::of(&m))?;
        Ok(Probe {
            sha256: sha256_hex(&bytes),
            bytes: Some(bytes),
            keep: (after == stat && !stat.racy()).then_some(stat),
        })
    }

    /// Records what `probe` saw of the file `name`, for `save`.
    pub fn keep(&mut self, name: &str, probe: &Probe) {
        if let Some(stat) = probe.keep.filter(|_| self.remember) {
            self.now.push((name.to_owned(), stat, probe.sha256.clone()));
        }
    }

    /// Writes what this tick saw, if it differs from what was loaded. Errors are ignored: the
    /// cache only saves work.
    pub fn save(&self, root: &Path) {
        if !self.remember {
            return;
        }
        let unchanged = self.now.len() == self.known.len()
            && self
                .now
                .iter()
                .all(|(name, stat, sha)| self.known.get(name) == Some(&(*stat, sha.clone())));
        if unchanged {
            return;
        }
        let mut text = String::with_capacity(self.now.len() * 110);
        for (name, stat, sha) in &self.now {
            let _ = writeln!(
                text,
                "{name} {} {} {} {} {sha}",
                stat.size, stat.mtime_ns, stat.ctime_ns, stat.inode
            );
        }
        let _ = crate::game_dir::replace(&Seen::path(root, self.round), text.as_bytes(), false);
    }
}

/// What a tick that found nothing to do printed, and when that stops being true.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Idle {
    pub key: String,
    pub title: String,
    /// The first moment (unix seconds) the clock makes a tick act (a reminder, the deadline);
    /// none: never.
    pub until: Option<i64>,
    pub round: u32,
    pub over: bool,
    /// RFC 3339, as the summary shows it.
    pub deadline: Option<String>,
    pub valid: usize,
    pub expected: usize,
    pub strays: Vec<String>,
    /// RFC 3339: paused by the host since then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<String>,
}

/// The key over every input of a tick of `round`: names and metadata, never contents.
pub fn key(root: &Path, round: u32) -> Option<String> {
    let rounds = root.join("rounds");
    let here = rounds.join(format!("{round:03}"));
    let mut text = format!("{}\n", env!("CARGO_PKG_VERSION"));
    for file in ["game.toml", "secrets.toml", "state.toml"] {
        stat_line(&mut text, &root.join(file))?;
    }
    stat_line(&mut text, &here.join("receipts.toml"))?;
    // the host's actions move the deadline and pause the round
    stat_line(&mut text, &here.join("host.toml"))?;
    // names only: where a killed tick leaves temp files
    for listed in [root.to_path_buf(), here.clone()] {
        list(&mut text, &listed, false)?;
    }
    list(&mut text, &here.join("submissions"), true)?;
    if let Some(closed) = round.checked_sub(1) {
        let closed = rounds.join(format!("{closed:03}"));
        stat_line(&mut text, &closed.join("result.toml"))?;
        list(&mut text, &closed.join("submissions"), true)?;
    }
    Some(sha256_hex(text.as_bytes()))
}

fn stat_line(text: &mut String, path: &Path) -> Option<()> {
    match fs::metadata(path) {
        Ok(meta) => {
            let s = Stat::of(&meta);
            let _ = writeln!(text, "{} {:?}", path.display(), s);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let _ = writeln!(text, "{} -", path.display());
        }
        Err(_) => return None,
    }
    Some(())
}

/// The entries of a folder, sorted, each with its metadata when `stat`.
fn list(text: &mut String, folder: &Path, stat: bool) -> Option<()> {
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let _ = writeln!(text, "{} absent", folder.display());
            return Some(());
        }
        Err(_) => return None,
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.ok()?;
        let mut line = entry.file_name().to_string_lossy().into_owned();
        if line == FOLDER {
            continue; // the cache itself
        }
        if stat {
            let _ = write!(line, " {:?}", Stat::of(&entry.metadata().ok()?));
        }
        names.push(line);
    }
    names.sort_unstable();
    let _ = writeln!(text, "{}: {}", folder.display(), names.join("/"));
    Some(())
}

/// Whether `outbox/` holds a message waiting to be sent (then a tick is never idle).
fn mail_waiting(root: &Path) -> bool {
    fs::read_dir(root.join("outbox")).is_ok_and(|mut entries| {
        entries.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".eml")))
    })
}

/// The stamp of the last idle tick, if a tick at `now` would still find nothing to do.
pub fn idle(root: &Path, now: Timestamp) -> Option<Idle> {
    let text = fs::read_to_string(folder(root).join(IDLE)).ok()?;
    let stamp: Idle = toml::from_str(&text).ok()?;
    let due = stamp.until.is_some_and(|until| now.as_second() >= until);
    if due || mail_waiting(root) || key(root, stamp.round)? != stamp.key {
        return None;
    }
    Some(stamp)
}

/// Records an idle tick. Its key must have been taken before the tick read anything, so that
/// a file changed while the tick ran makes the next tick a full one.
pub fn save_idle(root: &Path, stamp: &Idle) {
    if let Ok(text) = toml::to_string(stamp) {
        let _ = crate::game_dir::replace(&folder(root).join(IDLE), text.as_bytes(), false);
    }
}

/// Forgets the idle stamp: called before a tick writes anything.
pub fn clear_idle(root: &Path) -> crate::error::Result<()> {
    let path = folder(root).join(IDLE);
    match fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(crate::error::Error::io(&path, e))
        }
        _ => Ok(()),
    }
}
