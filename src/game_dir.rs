//! The game directory on disk: where every file lives (spec README, "A game directory"), reading
//! with errors that name the file, atomic writes, and the lock that makes a tick exclusive.
//!
//! Invariants: every write goes to a temporary file in the same folder and is renamed into place,
//! so a reader (or a killed run) never sees half a file; nothing here deletes or modifies a file in
//! `submissions/`.

use crate::error::{Error, Result};
use crate::player_id::PlayerId;
use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// The folder of chat players' texts under `outbox/` and `sent/`.
const CHAT: &str = "chat";

#[derive(Debug, Clone)]
pub struct GameDir {
    root: PathBuf,
}

/// Holds the exclusive lock on a game directory until dropped.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// One entry of a round's `submissions/` folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmissionEntry {
    /// `<player>.toml`, a regular file whose stem is a valid player id.
    File { player: PlayerId, path: PathBuf },
    /// Anything else: reported to the host, never opened.
    Stray { name: String, reason: &'static str },
}

impl GameDir {
    pub fn new(root: impl Into<PathBuf>) -> GameDir {
        GameDir { root: root.into() }
    }

    /// A game directory that exists and has a game.toml.
    pub fn open(root: impl Into<PathBuf>) -> Result<GameDir> {
        let dir = GameDir::new(root);
        if !dir.game_toml().is_file() {
            return Err(Error::invalid(
                dir.game_toml(),
                "",
                "no game.toml here; `adjudicate new` makes one",
            ));
        }
        Ok(dir)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn game_toml(&self) -> PathBuf {
        self.root.join("game.toml")
    }
    pub fn secrets_toml(&self) -> PathBuf {
        self.root.join("secrets.toml")
    }
    pub fn state_toml(&self) -> PathBuf {
        self.root.join("state.toml")
    }
    /// Where the parsed value of the host file `file` (a path inside this directory) is
    /// remembered (`host_file::memo`): `.cache/parsed/rounds%001%receipts.toml.json`.
    pub fn memo(&self, file: &Path) -> PathBuf {
        let inside = file.strip_prefix(&self.root).unwrap_or(file);
        let name: Vec<_> = inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect();
        self.root
            .join(".cache")
            .join("parsed")
            .join(format!("{}.json", name.join("%")))
    }
    pub fn rounds(&self) -> PathBuf {
        self.root.join("rounds")
    }
    pub fn round(&self, round: u32) -> PathBuf {
        self.rounds().join(format!("{round:03}"))
    }
    pub fn submissions(&self, round: u32) -> PathBuf {
        self.round(round).join("submissions")
    }
    pub fn received(&self, round: u32, player: &PlayerId, n: u32) -> PathBuf {
        self.received_dir(round).join(received_name(player, n))
    }
    /// The round's archive of the versions received (`received`).
    pub fn received_dir(&self, round: u32) -> PathBuf {
        self.round(round).join("received")
    }
    pub fn receipts(&self, round: u32) -> PathBuf {
        self.round(round).join("receipts.toml")
    }
    /// The numbers of the round folders under `rounds/` (three digits, `001`), in order; none
    /// when there is no `rounds/`.
    pub fn round_numbers(&self) -> Result<Vec<u32>> {
        let rounds = self.rounds();
        let entries = match fs::read_dir(&rounds) {
            Ok(entries) => entries,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(rounds, e)),
        };
        let mut numbers: Vec<u32> = entries
            .filter_map(|e| {
                let name = e.ok()?.file_name();
                let name = name.to_str()?;
                (name.len() == 3 && name.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| name.parse().ok())
                    .flatten()
            })
            .collect();
        numbers.sort_unstable();
        Ok(numbers)
    }

    /// `rounds/NNN/host.toml`: the host's actions while round NNN was current.
    pub fn host_toml(&self, round: u32) -> PathBuf {
        self.round(round).join("host.toml")
    }

    /// `rounds/NNN/notices/`: the public notices of the host's actions.
    pub fn notices(&self, round: u32) -> PathBuf {
        self.round(round).join("notices")
    }

    pub fn result(&self, round: u32) -> PathBuf {
        self.round(round).join("result.toml")
    }
    pub fn public(&self, round: u32) -> PathBuf {
        self.round(round).join("public.txt")
    }
    pub fn private(&self, round: u32, player: &PlayerId) -> PathBuf {
        self.round(round)
            .join("private")
            .join(format!("{player}.txt"))
    }
    pub fn outbox(&self) -> PathBuf {
        self.root.join("outbox")
    }
    pub fn sent(&self) -> PathBuf {
        self.root.join("sent")
    }
    pub fn templates(&self) -> PathBuf {
        self.root.join("templates")
    }

    /// Files put into the `submissions/` of round `closed` after it was resolved (newer than its
    /// result.toml): nobody will ever read them, and the host should hear of it.
    pub fn late_files(&self, closed: u32) -> Vec<PathBuf> {
        let resolved = fs::metadata(self.result(closed)).and_then(|m| m.modified());
        let Ok(resolved) = resolved else {
            return Vec::new();
        };
        let mut late: Vec<PathBuf> = self
            .submission_entries(closed)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|e| match e {
                SubmissionEntry::File { path, .. } => Some(path),
                SubmissionEntry::Stray { .. } => None,
            })
            .filter(|p| {
                fs::metadata(p)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t > resolved)
            })
            .collect();
        late.sort();
        late
    }

    /// `outbox/chat/`: a folder per chat player with the texts to paste (`mail::chat`).
    pub fn chat_outbox(&self) -> PathBuf {
        self.outbox().join(CHAT)
    }

    /// `sent/chat/`: the texts the host has pasted.
    pub fn chat_sent(&self) -> PathBuf {
        self.sent().join(CHAT)
    }

    /// Removes the temp files a killed run left behind (named `.adjudicate-*`, never renamed into
    /// place) from the folders a tick or `ingest` writes into: the root, `outbox/`, and the given
    /// rounds' folders. Call it only under the lock: another run's temp files are live. Returns
    /// how many were removed. `parallel`: the folders are listed on every core (a big game's
    /// hold a file per player each).
    pub fn sweep_temp(&self, rounds: &[u32], parallel: bool) -> Result<usize> {
        let mut folders = vec![self.root.clone(), self.outbox()];
        // a chat player's files to paste (`mail::chat`)
        if let Ok(chats) = fs::read_dir(self.chat_outbox()) {
            folders.extend(chats.filter_map(|e| e.ok()).map(|e| e.path()));
        }
        let mut rounds = rounds.to_vec();
        rounds.sort_unstable();
        rounds.dedup(); // (a tick resolving round 1 names round 0 twice)
        for round in &rounds {
            let folder = self.round(*round);
            folders
                .extend(["received", "private", "submissions", "notices"].map(|f| folder.join(f)));
            folders.push(folder);
        }
        // the opening a game keeps apart from its round 0 (God Race), written by a tick too
        if rounds.contains(&0) {
            let opening = self.round(0).join("opening");
            folders.push(opening.join("private"));
            folders.push(opening);
        }
        if parallel {
            use rayon::prelude::*;
            folders
                .par_iter()
                .map(|f| sweep_temp_in(std::slice::from_ref(f)))
                .sum()
        } else {
            sweep_temp_in(&folders)
        }
    }

    /// Takes the exclusive lock, or fails at once with `Error::Locked` if another run holds it.
    pub fn lock(&self) -> Result<Lock> {
        let path = self.root.join(".adjudicate.lock");
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(Lock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(Error::Locked { path }),
            Err(fs::TryLockError::Error(e)) => Err(Error::io(&path, e)),
        }
    }

    /// The entries of a round's `submissions/`, sorted by name. A missing folder is empty.
    pub fn submission_entries(&self, round: u32) -> Result<Vec<SubmissionEntry>> {
        let folder = self.submissions(round);
        if !folder.is_dir() {
            return Ok(Vec::new());
        }
        let mut entries = Vec::new();
        for entry in walkdir::WalkDir::new(&folder)
            .min_depth(1)
            .max_depth(1)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| Error::io(&folder, e.into()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".toml");
            let player = stem.and_then(PlayerId::parse);
            entries.push(match player {
                _ if name.starts_with('.') => continue, // editors' swap files, our own temp files
                _ if !entry.file_type().is_file() => SubmissionEntry::Stray {
                    name,
                    reason: "not a regular file",
                },
                None if stem.is_none() => SubmissionEntry::Stray {
                    name,
                    reason: "not a .toml file",
                },
                None => SubmissionEntry::Stray {
                    name,
                    reason: "the file name is not <player-id>.toml",
                },
                Some(player) => SubmissionEntry::File {
                    player,
                    path: entry.into_path(),
                },
            });
        }
        Ok(entries)
    }
}

/// The name every temp file starts with (the lock is `.adjudicate.lock`, not swept).
pub const TEMP_PREFIX: &str = ".adjudicate-";

/// The name of the copy of `player`'s `n`th version of a round, in its `received/`.
pub fn received_name(player: &PlayerId, n: u32) -> String {
    format!("{player}-{n}.toml")
}

pub fn read_string(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| match e.kind() {
        ErrorKind::InvalidData => Error::invalid(path, "", "not UTF-8 text"),
        _ => Error::io(path, e),
    })
}

/// The file's text, or `None` if it does not exist.
pub fn read_optional(path: &Path) -> Result<Option<String>> {
    match read_string(path) {
        Ok(s) => Ok(Some(s)),
        Err(Error::Io { source, .. }) if source.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Removes the temp files a killed run left in `folders` (see `GameDir::sweep_temp`); call it
/// only under the lock that guards them. Returns how many were removed.
pub fn sweep_temp_in(folders: &[PathBuf]) -> Result<usize> {
    let mut removed = 0;
    for folder in folders {
        let Ok(entries) = fs::read_dir(folder) else {
            continue; // not created yet
        };
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(folder, e))?;
            let ours = entry
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(TEMP_PREFIX));
            let kind = entry.file_type();
            if ours && kind.as_ref().is_ok_and(|t| t.is_file()) {
                let path = entry.path();
                fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                removed += 1;
            } else if ours && kind.is_ok_and(|t| t.is_dir()) {
                // a folder a killed run was writing whole (`Plan`)
                let path = entry.path();
                fs::remove_dir_all(&path).map_err(|e| Error::io(&path, e))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, creating the
/// folder if needed. Writes nothing if the file already holds exactly these bytes. A process
/// killed at any point leaves the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if unchanged(path, bytes) {
        return Ok(());
    }
    replace(path, bytes, false)
}

/// Whether `path` already holds exactly `bytes`.
pub fn unchanged(path: &Path, bytes: &[u8]) -> bool {
    unchanged_parts(path, &[bytes])
}

/// Whether `path` already holds exactly `parts`, one after another.
pub fn unchanged_parts(path: &Path, parts: &[&[u8]]) -> bool {
    fs::read(path).is_ok_and(|old| {
        let mut rest = &old[..];
        old.len() == parts.iter().map(|p| p.len()).sum::<usize>()
            && parts.iter().all(|part| {
                let (head, tail) = rest.split_at(part.len());
                rest = tail;
                head == *part
            })
    })
}

/// The temp-file-and-rename write itself, without comparing first (for callers that already did,
/// like `Plan`). `durable` syncs the data before the rename: for state.toml, the one file whose
/// loss after a power cut would lose a tick's work (syncing every report as well would make a
/// 10,000-player round take minutes).
pub fn replace(path: &Path, bytes: &[u8], durable: bool) -> Result<()> {
    replace_as(path, bytes, durable, Access::Owner)
}

/// Who may read a file written here: a game directory's files (reports, state, receipts) are
/// the owner's alone; a web site's pages and `simulate --out` are for everyone (subject to the
/// umask), or a web server running as another user could not serve them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Access {
    #[default]
    Owner,
    Everyone,
}

impl Access {
    fn mode(self) -> u32 {
        match self {
            Access::Owner => 0o600,
            Access::Everyone => 0o644,
        }
    }
}

/// `write_atomic` for a file everyone may read.
pub fn write_public(path: &Path, bytes: &[u8]) -> Result<()> {
    if unchanged(path, bytes) {
        return Ok(());
    }
    replace_as(path, bytes, false, Access::Everyone)
}

/// `replace` with the given access.
pub fn replace_as(path: &Path, bytes: &[u8], durable: bool, access: Access) -> Result<()> {
    replace_parts_as(path, &[bytes], durable, access)
}

/// `replace_as`, the file being `parts` one after another.
pub fn replace_parts_as(path: &Path, parts: &[&[u8]], durable: bool, access: Access) -> Result<()> {
    let folder = path.parent().unwrap_or(Path::new("."));
    // The folder usually exists: create it only when the temp file cannot be made without it.
    let tmp = match write_temp(folder, parts, durable, access) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            create_dir(folder)?;
            write_temp(folder, parts, durable, access)
        }
        other => other,
    }
    .map_err(|e| Error::io(path, e))?;
    rename_into_place(&tmp, path)
}

/// Renames the temp file `tmp` to `path`; if that fails, the temp file is removed.
pub fn rename_into_place(tmp: &Path, path: &Path) -> Result<()> {
    fs::rename(tmp, path).map_err(|e| {
        let _ = fs::remove_file(tmp);
        Error::io(path, e)
    })
}

/// A new temp file beside `path` holding `parts`, to be renamed into place later
/// (`Plan::early_file`); a killed run's is removed by `sweep_temp_in`.
pub fn temp_beside(path: &Path, parts: &[&[u8]], access: Access) -> Result<PathBuf> {
    let folder = path.parent().unwrap_or(Path::new("."));
    write_temp(folder, parts, false, access).map_err(|e| Error::io(path, e))
}

/// A new file `.adjudicate-<pid>-<n>` in `folder` holding `parts` (owner-only unless `access`
/// says everyone), synced if `durable`: one open, one write (or a buffer's worth at a time, for
/// many parts), one close.
fn write_temp(
    folder: &Path,
    parts: &[&[u8]],
    durable: bool,
    access: Access,
) -> std::io::Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = folder.join(format!("{TEMP_PREFIX}{}-{n}", std::process::id()));
        let mut options = File::options();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, access.mode());
        let mut file = match options.open(&tmp) {
            // left by a killed run with the same pid: take the next name
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            other => other?,
        };
        let written = write_parts(&mut file, parts)
            .and_then(|()| if durable { file.sync_all() } else { Ok(()) });
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        return Ok(tmp);
    }
}

/// A new empty folder `.adjudicate-<pid>-dir-<n>` in `parent`, for a folder written whole and
/// renamed into place (`Plan`); a killed run's is removed by `sweep_temp_in`.
pub fn temp_dir_in(parent: &Path) -> Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = parent.join(format!("{TEMP_PREFIX}{}-dir-{n}", std::process::id()));
        match fs::create_dir(&path) {
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            other => {
                return other
                    .map(|()| path.clone())
                    .map_err(|e| Error::io(&path, e));
            }
        }
    }
}

/// A new file written in place (in a folder nobody sees yet: a staged folder of `Plan`), its
/// bytes `parts` one after another.
pub fn write_new(path: &Path, parts: &[&[u8]], access: Access) -> Result<()> {
    let mut options = File::options();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, access.mode());
    options
        .open(path)
        .and_then(|mut f| write_parts(&mut f, parts))
        .map_err(|e| Error::io(path, e))
}

/// Writes `parts` one after another: a single part at once, many through a buffer (a
/// 100,000-player result.toml is as many sections, and a write each would be as many calls).
fn write_parts(file: &mut File, parts: &[&[u8]]) -> std::io::Result<()> {
    match parts {
        [one] => file.write_all(one),
        _ => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
            parts.iter().try_for_each(|part| out.write_all(part))?;
            out.flush()
        }
    }
}

pub fn create_dir(path: &Path) -> Result<()> {
    fs::create_dir_all(path).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a/b.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    }

    #[test]
    fn temp_files_left_by_a_killed_run_are_swept_and_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        let keep = [
            dir.root().join(".adjudicate.lock"),
            dir.root().join("state.toml"),
            dir.submissions(1).join("alice.toml"),
            dir.submissions(1).join(".alice.toml.swp"),
            dir.round(2).join(".adjudicate-old"), // not a round being swept
        ];
        let swept = [
            dir.root().join(".adjudicate-Ab12"),
            dir.outbox().join(".adjudicate-x"),
            dir.round(1).join("private").join(".adjudicate-y"),
            dir.round(1).join("received").join(".adjudicate-z"),
            dir.submissions(1).join(".adjudicate-w"),
            dir.round(0).join(".adjudicate-v"),
            dir.round(0).join("opening").join(".adjudicate-1-dir-0"),
            dir.round(0).join("opening/private").join(".adjudicate-u"),
        ];
        for path in keep.iter().chain(&swept) {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        assert_eq!(dir.sweep_temp(&[0, 1], false).unwrap(), swept.len());
        assert!(keep.iter().all(|p| p.exists()));
        assert!(swept.iter().all(|p| !p.exists()));
    }

    #[test]
    fn a_second_lock_is_refused_while_the_first_is_held() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        let held = dir.lock().unwrap();
        assert!(matches!(dir.lock(), Err(Error::Locked { .. })));
        drop(held);
        assert!(dir.lock().is_ok());
    }

    #[test]
    fn submissions_with_bad_names_are_strays() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        let subs = dir.submissions(1);
        fs::create_dir_all(subs.join("carol.toml")).unwrap();
        for name in [
            "alice.toml",
            "Bob.toml",
            "notes.txt",
            "..toml",
            ".alice.toml.swp",
        ] {
            fs::write(subs.join(name), "room = \"attic\"").unwrap();
        }
        let entries = dir.submission_entries(1).unwrap();
        let files: Vec<_> = entries
            .iter()
            .filter_map(|e| match e {
                SubmissionEntry::File { player, .. } => Some(player.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(files, ["alice"]);
        let strays: Vec<_> = entries
            .iter()
            .filter_map(|e| match e {
                SubmissionEntry::Stray { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(strays, ["Bob.toml", "carol.toml", "notes.txt"]);
    }
}
