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

    pub fn commit(self) -> Result<()> {
        for step in self.steps {
            match step {
                Step::Dir(p) => create_dir(&p)?,
                // planned only if different: no second comparison
                Step::File(p, bytes) => replace_as(&p, &bytes, false, self.access)?,
                Step::Durable(p, bytes) => replace_as(&p, &bytes, true, self.access)?,
            }
        }
        Ok(())
    }
}
