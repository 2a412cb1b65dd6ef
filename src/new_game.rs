//! `new`: a ready game directory with a commented game.toml the host edits.

use crate::config::GameConfig;
use crate::error::{Error, Result};
use crate::game_dir::{read_string, write_atomic};
use crate::games::GameId;
use serde::Deserialize;
use std::fmt::Write;
use std::path::Path;

const SAMPLE_PLAYERS: [(&str, &str); 6] = [
    ("alice", "Alice"),
    ("bob", "Bob"),
    ("carol", "Carol"),
    ("dave", "Dave"),
    ("erin", "Erin"),
    ("frank", "Frank"),
];

#[derive(Deserialize)]
struct PlayersFile {
    players: Vec<toml::Table>,
}

/// What a game directory kept in git must not commit: the lock, temp files of an interrupted
/// run, the secrets, and the submission files as players sent them (they may hold a token; the
/// archive keeps each version in `received/`, redacted).
const GITIGNORE: &str = "\
# written by `adjudicate new`
.adjudicate.lock
.adjudicate-*
secrets.toml
rounds/*/submissions/
";

/// Writes `game_dir/game.toml` and `.gitignore`; returns a description of what was written.
pub fn create(game: &str, game_dir: &Path, players: Option<&Path>) -> Result<String> {
    let id = GameId::parse(game).ok_or_else(|| {
        Error::Usage(format!(
            "unknown game `{game}`; one of {}",
            GameId::all_names().join(", ")
        ))
    })?;
    if game_dir.exists()
        && std::fs::read_dir(game_dir)
            .map_err(|e| Error::io(game_dir, e))?
            .next()
            .is_some()
    {
        return Err(Error::Usage(format!(
            "{} exists and is not empty",
            game_dir.display()
        )));
    }
    let players_toml = match players {
        Some(path) => {
            let file: PlayersFile = crate::host_file::parse(path, &read_string(path)?)?;
            file.players
                .iter()
                .map(|p| format!("[[players]]\n{}", toml::to_string(p).expect("tables serialize")))
                .collect::<Vec<_>>()
                .join("\n")
        }
        None => SAMPLE_PLAYERS.iter().fold(String::new(), |mut out, (id, name)| {
            let _ = writeln!(out, "[[players]]\nid = \"{id}\"\nname = \"{name}\"\nemail = \"{id}@example.org\"\ngarnets = 10\n");
            out
        }),
    };
    let text = match id {
        GameId::RoomSwap => room_swap_toml(&players_toml),
        // The other games start from their sample game, with the players replaced if given.
        GameId::GodRace => with_players(
            include_str!("../games/god-race/example/game.toml"),
            players.map(|_| players_toml.as_str()),
        ),
        GameId::PlanarControl => with_players(
            include_str!("../games/planar-control/example/game.toml"),
            players.map(|_| players_toml.as_str()),
        ),
        GameId::FinalRitual => with_players(
            include_str!("../games/final-ritual/example/game.toml"),
            players.map(|_| players_toml.as_str()),
        ),
    };
    let path = game_dir.join("game.toml");
    GameConfig::parse(&path, &text)?; // what we write must load
    write_atomic(&path, text.as_bytes())?;
    write_atomic(&game_dir.join(".gitignore"), GITIGNORE.as_bytes())?;
    Ok("game.toml and .gitignore".into())
}

/// `sample` with its `[[players]]` replaced by `players`, if given.
fn with_players(sample: &str, players: Option<&str>) -> String {
    match players {
        Some(list) => {
            let head = sample.split("[[players]]").next().unwrap_or(sample);
            format!("{head}{list}")
        }
        None => sample.to_owned(),
    }
}

fn room_swap_toml(players_toml: &str) -> String {
    format!(
        r#"# A Room Swap game. Players' submissions go into rounds/NNN/submissions/<player>.toml.
game = "room-swap"
title = "Room Swap"
seed = {seed}                  # every random draw derives from it; keep it secret

[schedule]
first_deadline = 2026-12-02T15:00:00Z
every = "24h"
# remind_before = "3h"
early_close = false

[mail]
from = "Room Swap Host <host@example.org>"
transport = "file"             # none | file (.eml files in outbox/, moved to sent/)

[options]
rounds = 4
peek_cost = 2
block_cost = 5

{players_toml}"#,
        seed = 20261130
    )
}
