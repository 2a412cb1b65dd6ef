//! A tick's writes, collected before anything touches the disk: `--dry-run` prints them, a real
//! run commits them in order. Tick code pushes `state.toml` last, so a run killed part-way leaves
//! the previous state, and the next tick redoes the rest with the same bytes.

use crate::error::Result;
use crate::game_dir::{create_dir, replace, unchanged};
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
pub struct Plan {
    steps: Vec<Step>,
}

#[derive(Debug)]
enum Step {
    Dir(PathBuf),
    File(PathBuf, Vec<u8>),
    /// Synced to disk before its rename: state.toml.
    Durable(PathBuf, Vec<u8>),
}

impl Plan {
    pub fn dir(&mut self, path: PathBuf) {
        if !path.is_dir() {
            self.steps.push(Step::Dir(path));
        }
    }

    /// Plans a write unless the file already holds these bytes.
    pub fn file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        let bytes = bytes.into();
        if !unchanged(&path, &bytes) {
            self.steps.push(Step::File(path, bytes));
        }
    }

    /// Plans a write that reaches the disk before it replaces the old file (state.toml).
    pub fn durable_file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        let bytes = bytes.into();
        if !unchanged(&path, &bytes) {
            self.steps.push(Step::Durable(path, bytes));
        }
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
                Step::File(p, bytes) => replace(&p, &bytes, false)?,
                Step::Durable(p, bytes) => replace(&p, &bytes, true)?,
            }
        }
        Ok(())
    }
}
