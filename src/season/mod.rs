//! Seasons (issue #14): one cast across many matches. A season directory holds
//!
//! ```text
//! SEASON/
//!   season.toml        host-written: title, seed, [mail], the cast with starting garnets
//!   events.toml        eliminations, Death Match results, Token and garnet corrections
//!                      (appended by `season event`, each dated and with a reason)
//!   matches/NN-<game>/ game directories, made by `season match`; each holds entry.toml,
//!                      what its starting balances were computed from
//! ```
//!
//! The season's state (garnets, Tokens of Life, who is eliminated) is never stored: `ledger`
//! derives it from season.toml, events.toml and the archive of every match (each round's
//! `[garnets]` changes, the Tokens and Elimination Candidates of `[public.final]`), so nothing
//! can be counted twice, and a hand edit of a match's balances is found.

pub mod commands;
pub mod config;
pub mod events;
pub mod ingest;
pub mod ledger;
pub mod report;

use std::path::{Path, PathBuf};

/// The paths of a season directory (all relative to its root, so the folder can move).
#[derive(Debug, Clone)]
pub struct SeasonDir {
    root: PathBuf,
}

impl SeasonDir {
    pub fn new(root: impl Into<PathBuf>) -> SeasonDir {
        SeasonDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn season_toml(&self) -> PathBuf {
        self.root.join("season.toml")
    }

    pub fn events_toml(&self) -> PathBuf {
        self.root.join("events.toml")
    }

    pub fn matches(&self) -> PathBuf {
        self.root.join("matches")
    }
}

/// What a match folder records of how `season match` made it (`matches/NN-game/entry.toml`):
/// its starting balances are the cast's, plus the first `events` events, plus every change of
/// the `matches` listed (those that were over when it was made).
pub const ENTRY: &str = "entry.toml";
