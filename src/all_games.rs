//! `--all ROOT`: every game directory under a root, so that one cron line serves a host's whole
//! world. A game directory is a folder holding game.toml (season matches included); it is not
//! searched further. Games run in path order, each on its own: one game's error is printed with
//! its path and the others still run.
//!
//! The exit status is the most serious of all the games' (`most_serious`): a game directory that
//! needs the host (65, 74) outranks one that only has to wait (75), which outranks a replay
//! difference (1) and success (0).

use crate::error::{Error, Result, exit};
use std::path::{Path, PathBuf};

/// The game directories under `root`, in path order.
pub fn game_dirs(root: &Path) -> Result<Vec<PathBuf>> {
    Ok(games_and_seasons(root)?.0)
}

/// (game directories, season directories) under `root`, each in path order: `round --all`
/// ticks the games, then writes the seasons' reports; `site` publishes both. A game
/// directory's own folders are not searched; a season's are (its matches are games).
pub fn games_and_seasons(root: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    if !root.is_dir() {
        return Err(Error::Usage(format!("{} is not a folder", root.display())));
    }
    let (mut games, mut seasons) = (Vec::new(), Vec::new());
    let mut walk = walkdir::WalkDir::new(root).sort_by_file_name().into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.map_err(|e| Error::io(root, e.into()))?;
        if !entry.file_type().is_dir() {
            continue;
        }
        if entry.path().join("game.toml").is_file() {
            games.push(entry.path().to_path_buf());
            walk.skip_current_dir(); // a game's own folders hold no other game
        } else if entry.path().join("season.toml").is_file() {
            seasons.push(entry.path().to_path_buf());
        }
    }
    Ok((games, seasons))
}

/// The exit code that matters most among `codes`.
pub fn most_serious(codes: impl IntoIterator<Item = u8>) -> u8 {
    let rank = |code: u8| match code {
        exit::OK => 0,
        exit::DIFFERENCE => 1,
        exit::TEMPORARY => 2,
        exit::IO => 3,
        exit::INVALID => 4,
        _ => 5,
    };
    codes
        .into_iter()
        .max_by_key(|c| rank(*c))
        .unwrap_or(exit::OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_found_in_path_order_and_not_searched_inside() {
        let tmp = tempfile::tempdir().unwrap();
        for dir in ["b", "a", "season/matches/01-god-race", "a/rounds/000"] {
            std::fs::create_dir_all(tmp.path().join(dir)).unwrap();
            std::fs::write(tmp.path().join(dir).join("game.toml"), "").unwrap();
        }
        std::fs::create_dir_all(tmp.path().join("notes")).unwrap();
        let found: Vec<String> = game_dirs(tmp.path())
            .unwrap()
            .iter()
            .map(|p| p.strip_prefix(tmp.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(found, ["a", "b", "season/matches/01-god-race"]);
    }

    #[test]
    fn the_most_serious_code_wins() {
        assert_eq!(most_serious([0, 75, 0]), 75);
        assert_eq!(most_serious([75, 65, 74]), 65);
        assert_eq!(most_serious([1, 0]), 1);
        assert_eq!(most_serious([]), 0);
    }
}
