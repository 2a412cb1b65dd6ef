//! `new`: a ready game directory with a commented game.toml the host edits.

use crate::config::GameConfig;
use crate::error::{Error, Result};
use crate::game_dir::{read_string, write_atomic};
use crate::games::GameId;
use serde::Deserialize;
use std::fmt::Write;
use std::path::Path;

/// Sample players, as many as each game is written for; the host replaces them.
const SAMPLE_PLAYERS: [&str; 15] = [
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
    "niaj", "olivia", "peggy", "rupert",
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
.cache/
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
    let (template, sample) = (id.profile().new_toml, id.profile().sample_players);
    let players_toml = match players {
        // every column of the file is kept, the id first
        Some(path) => players_from_file(path)?,
        None => SAMPLE_PLAYERS[..sample].iter().fold(String::new(), |mut out, id| {
            let name = format!("{}{}", id[..1].to_ascii_uppercase(), &id[1..]);
            let _ = writeln!(
                out,
                "[[players]]\nid = \"{id}\"\nname = \"{name}\"\nemail = \"{id}@example.org\"\ngarnets = 10\n"
            );
            out
        }),
    };
    let text = template
        .replace("{seed}", &random_seed().to_string())
        .replace("{first_deadline}", &first_deadline())
        .replace("{players}", players_toml.trim_end());
    let path = game_dir.join("game.toml");
    GameConfig::parse(&path, &text)?; // what we write must load
    write_atomic(&path, text.as_bytes())?;
    write_atomic(&game_dir.join(".gitignore"), GITIGNORE.as_bytes())?;
    Ok("game.toml and .gitignore".into())
}

/// The `[[players]]` of a players file (`new --players`, `season new --players`) as TOML for
/// game.toml or season.toml: every column of the file kept, the id first.
pub(crate) fn players_from_file(path: &Path) -> Result<String> {
    let file: PlayersFile = crate::host_file::parse(path, &read_string(path)?)?;
    Ok(file
        .players
        .iter()
        .map(|p| {
            let mut rest = p.clone();
            let id = rest
                .remove("id")
                .map_or_else(String::new, |id| format!("id = {id}\n"));
            let rest = toml::to_string(&rest).expect("tables serialize");
            format!("[[players]]\n{id}{rest}")
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The `.gitignore` lines of a game directory (for a season's, under `matches/*/`).
pub(crate) fn gitignored() -> impl Iterator<Item = &'static str> {
    GITIGNORE.lines().filter(|l| !l.starts_with('#'))
}

/// A seed from the operating system's randomness, within what TOML can hold: every new game is
/// dealt differently, and only the host knows how.
pub(crate) fn random_seed() -> u64 {
    use rand::RngExt;
    rand::rng().random::<u64>() >> 1
}

/// The day after tomorrow at 15:00 UTC: a first deadline that has not passed yet.
fn first_deadline() -> String {
    let now = jiff::Timestamp::now();
    let later = now
        .checked_add(jiff::SignedDuration::from_hours(48))
        .unwrap_or(now);
    format!("{}T15:00:00Z", later.strftime("%Y-%m-%d"))
}
