//! A tick's writes, collected before anything touches the disk: `--dry-run` prints them, a real
//! run commits them in order. Tick code pushes `state.toml` last, so a run killed part-way leaves
//! the previous state, and the next tick redoes the rest with the same bytes.

use crate::error::Result;
use crate::game_dir::{Access, create_dir, replace_as, unchanged};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
pub struct Plan {
    steps: Vec<Step>,
    /// Whether each folder written into existed when first looked at: a file in a folder that
    /// did not exist is new, so it is not read back to compare (one failing open per report).
    folders: HashMap<PathBuf, bool>,
    /// Who may read the files written (owner-only unless `public`).
    access: Access,
    /// Whether new folders are written whole and renamed into place before the first durable
    /// file (`for_tick`).
    stage_new_folders: bool,
    /// Files of `.cache/` (`cache_file`): written after everything else, best effort.
    cache: Vec<(PathBuf, Vec<u8>)>,
}

#[derive(Debug)]
enum Step {
    Dir(PathBuf),
    File(PathBuf, Vec<u8>),
    /// Synced to disk before its rename: state.toml.
    Durable(PathBuf, Vec<u8>),
}

impl Plan {
    /// A plan whose files everyone may read (a web site).
    pub fn public() -> Plan {
        Plan {
            access: Access::Everyone,
            ..Plan::default()
        }
    }

    /// A tick's plan, whose only marker of work done is its last, durable file (state.toml):
    /// the files of a new folder may reach the disk later than planned, as long as they do
    /// before it, so a new folder (a round's `private/`, ten thousand reports) is written whole
    /// and renamed into place once. Plans whose files mark progress themselves (a season's
    /// reports) keep the plain order.
    pub fn for_tick() -> Plan {
        Plan {
            stage_new_folders: true,
            ..Plan::default()
        }
    }

    pub fn dir(&mut self, path: PathBuf) {
        if !self.exists(&path) {
            self.steps.push(Step::Dir(path));
        }
    }

    /// Plans a write unless the file already holds these bytes.
    pub fn file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        let bytes = bytes.into();
        if !self.unchanged(&path, &bytes) {
            self.steps.push(Step::File(path, bytes));
        }
    }

    /// Plans a write the caller knows to be a change (a file known not to exist, or whose
    /// content is known to differ): nothing is read back to compare.
    pub fn new_file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        self.steps.push(Step::File(path, bytes.into()));
    }

    /// Plans a changed file that reaches the disk before it replaces the old one (state.toml).
    pub fn durable_file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        self.steps.push(Step::Durable(path, bytes.into()));
    }

    /// Plans a file of `.cache/` (a memo): written once everything else is, and not at all if it
    /// cannot be (a cache only saves work); not among the `entries` a dry run lists.
    pub fn cache_file(&mut self, path: PathBuf, bytes: Vec<u8>) {
        self.cache.push((path, bytes));
    }

    /// Whether a folder existed before this plan (looked up once per folder).
    fn exists(&mut self, folder: &Path) -> bool {
        if let Some(known) = self.folders.get(folder) {
            return *known;
        }
        let known = folder.is_dir();
        self.folders.insert(folder.to_path_buf(), known);
        known
    }

    fn unchanged(&mut self, path: &Path, bytes: &[u8]) -> bool {
        let folder = path.parent().unwrap_or(Path::new("."));
        self.exists(folder) && unchanged(path, bytes)
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Each planned path with its size (`None` for a folder).
    pub fn entries(&self) -> impl Iterator<Item = (&Path, Option<usize>)> {
        self.steps.iter().map(|s| match s {
            Step::Dir(p) => (p.as_path(), None),
            Step::File(p, b) | Step::Durable(p, b) => (p.as_path(), Some(b.len())),
        })
    }

    /// Writes the plan in order. In a tick's plan (`for_tick`), a new folder whose parent exists
    /// (a round's `private/`) is written whole under a temp name and renamed into place before
    /// the first durable file (state.toml) and at the end: one rename for the folder instead of
    /// one per file, and a run killed before the rename leaves only a temp folder, which the
    /// next run sweeps.
    pub fn commit(self) -> Result<()> {
        let mut staged = Staged {
            enabled: self.stage_new_folders,
            folders: Vec::new(),
        };
        for step in self.steps {
            match step {
                Step::Dir(p) => staged.dir(&p)?,
                // planned only if different: no second comparison
                Step::File(p, bytes) => match staged.inside(&p) {
                    Some(path) => write_new(&path, &bytes, self.access)?,
                    None => replace_as(&p, &bytes, false, self.access)?,
                },
                Step::Durable(p, bytes) => {
                    staged.publish()?;
                    replace_as(&p, &bytes, true, self.access)?
                }
            }
        }
        staged.publish()?;
        for (path, bytes) in self.cache {
            let _ = replace_as(&path, &bytes, false, self.access);
        }
        Ok(())
    }
}

/// The new folders of a commit being written under temp names: (where it goes, where it is).
struct Staged {
    enabled: bool,
    folders: Vec<(PathBuf, PathBuf)>,
}

impl Staged {
    /// Creates a planned folder: under a temp name beside it when its parent exists and is not
    /// staged itself, inside its staged ancestor when it has one, else as it is.
    fn dir(&mut self, path: &Path) -> Result<()> {
        if self.folders.iter().any(|(to, _)| to == path) {
            return Ok(()); // planned twice
        }
        if let Some(inside) = self.inside(path) {
            return create_dir(&inside);
        }
        match path.parent().filter(|p| self.enabled && p.is_dir()) {
            Some(parent) if !path.exists() => {
                let temp = crate::game_dir::temp_dir_in(parent)?;
                self.folders.push((path.to_path_buf(), temp));
                Ok(())
            }
            _ => create_dir(path),
        }
    }

    /// Where a path inside a staged folder is written now.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        self.folders.iter().find_map(|(to, temp)| {
            path.strip_prefix(to)
                .ok()
                .filter(|rest| !rest.as_os_str().is_empty())
                .map(|rest| temp.join(rest))
        })
    }

    /// Renames every staged folder into place.
    fn publish(&mut self) -> Result<()> {
        for (to, temp) in self.folders.drain(..) {
            std::fs::rename(&temp, &to).map_err(|e| crate::error::Error::io(&to, e))?;
        }
        Ok(())
    }
}

/// A file in a staged folder: nobody else sees the folder yet, so it is written in place.
fn write_new(path: &Path, bytes: &[u8], access: Access) -> Result<()> {
    crate::game_dir::write_new(path, bytes, access)
}
