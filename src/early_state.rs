//! state.toml read while game.toml is (issue #30). A big game's tick begins with two host files
//! that each take one core a while to read (a 100,000-player game.toml is 4 MB of TOML, its
//! state.toml's memo 30 MB of JSON), and the engine that reads state.toml is named by
//! game.toml's `game` key. TOML puts top-level keys before the file's first table, so that part
//! alone is read first (`peek_game`); then game.toml is read on one core and state.toml on the
//! other.
//!
//! This is only a faster road to the same value. The tick uses the state read early only if
//! state.toml still holds exactly the text it was read from when the tick reads it itself (a
//! killed run's undo or substitution, finished meanwhile, rewrites it), and only as the state of
//! the engine the tick runs (`EarlyState::take`). A file that does not read is left for the
//! tick's own read, which reports it.

use crate::context::{FILE_KEYS, GameContext};
use crate::error::Result;
use crate::game_dir::{GameDir, read_optional};
use crate::games::{Game, GameId, WithGame};
use crate::host_file::memo::{Counts, MIN_BYTES};
use std::any::Any;
use std::io::BufRead;

/// A state.toml read ahead of the tick, and the text it was read from.
pub struct EarlyState {
    text: String,
    /// `(G::State, Counts)` of the engine it was read for.
    parsed: Box<dyn Any + Send>,
}

impl EarlyState {
    /// The state and its bookkeeping numbers, if read from exactly `text` for state `S`.
    pub fn take<S: 'static>(self, text: &str) -> Option<(S, Counts)> {
        if self.text != text {
            return None;
        }
        self.parsed
            .downcast::<(S, Counts)>()
            .ok()
            .map(|parsed| *parsed)
    }
}

/// `GameContext::load`, with a big game's state.toml read on another core meanwhile.
pub fn load(dir: GameDir) -> Result<(GameContext, Option<EarlyState>)> {
    let Some(game) = big_game(&dir) else {
        return Ok((GameContext::load(dir)?, None));
    };
    let ahead = dir.clone();
    let (ctx, early) = rayon::join(
        || GameContext::load(dir),
        || crate::games::dispatch(game, Read { dir: &ahead }),
    );
    Ok((ctx?, early))
}

/// The game named by game.toml, if state.toml is big enough to be worth reading early (a
/// smaller one has no memo, and is read in less time than a thread takes to start).
fn big_game(dir: &GameDir) -> Option<GameId> {
    let size = std::fs::metadata(dir.state_toml()).ok()?.len();
    if size < MIN_BYTES as u64 {
        return None;
    }
    let file = std::fs::File::open(dir.game_toml()).ok()?;
    let mut head = String::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.ok()?;
        if line.trim_start().starts_with('[') {
            break;
        }
        head.push_str(&line);
        head.push('\n');
    }
    peek_game(&head)
}

/// The `game` key of the top-level part of game.toml (before its first table), if that part
/// reads alone and names a game.
fn peek_game(head: &str) -> Option<GameId> {
    #[derive(serde::Deserialize)]
    struct Head {
        game: String,
    }
    GameId::parse(&toml::from_str::<Head>(head).ok()?.game)
}

/// Reads state.toml as `G`'s state, as the tick would.
struct Read<'a> {
    dir: &'a GameDir,
}

impl WithGame for Read<'_> {
    type Output = Option<EarlyState>;

    fn run<G: Game>(self) -> Option<EarlyState> {
        let path = self.dir.state_toml();
        let text = read_optional(&path).ok()??;
        let memo = self.dir.memo(&path);
        let parsed: (G::State, Counts) =
            crate::host_file::parse_remembered(&path, &text, FILE_KEYS, &memo).ok()?;
        Some(EarlyState {
            text,
            parsed: Box::new(parsed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_is_read_from_the_part_before_the_first_table() {
        assert_eq!(
            peek_game("title = \"x\"\ngame = \"room-swap\"\nseed = 3\n"),
            Some(GameId::RoomSwap)
        );
        assert_eq!(peek_game("game = \"chess\"\n"), None);
        assert_eq!(peek_game("title = \"x\"\n"), None);
        assert_eq!(
            peek_game("game = \"room-swap\"\ngame = \"god-race\"\n"),
            None
        );
        assert_eq!(peek_game("game = \"\"\"\n"), None);
    }

    #[test]
    fn only_a_big_state_is_read_early() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        std::fs::write(
            dir.game_toml(),
            "game = \"god-race\"\ntitle = \"t\"\n\n[[players]]\nid = \"a\"\n",
        )
        .unwrap();
        assert_eq!(big_game(&dir), None, "no state.toml");
        std::fs::write(dir.state_toml(), "x".repeat(MIN_BYTES - 1)).unwrap();
        assert_eq!(big_game(&dir), None, "a small state.toml");
        std::fs::write(dir.state_toml(), "x".repeat(MIN_BYTES)).unwrap();
        assert_eq!(big_game(&dir), Some(GameId::GodRace));
        // a game named only after a table is not a top-level key: the tick reads it as ever
        std::fs::write(dir.game_toml(), "[mail]\ngame = \"god-race\"\n").unwrap();
        assert_eq!(big_game(&dir), None);
    }

    #[test]
    fn a_state_is_taken_only_for_the_same_text_and_type() {
        let early = || EarlyState {
            text: "round = 1\n".into(),
            parsed: Box::new((7u32, Counts::new())),
        };
        assert_eq!(early().take::<u32>("round = 1\n").map(|(s, _)| s), Some(7));
        assert!(early().take::<u32>("round = 2\n").is_none());
        assert!(early().take::<i64>("round = 1\n").is_none());
    }
}
