//! `adjudicate season match SEASON GAME`: the next match's game directory.

use crate::error::{Result, exit};
use crate::season::{SeasonDir, commands};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    season: PathBuf,
    #[arg(help = crate::commands::any_game_help())]
    game: String,
    /// The match's title (default: "<season>: Match N").
    #[arg(long)]
    title: Option<String>,
    /// Only these living players (comma-separated ids), for a game with a fixed size.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    players: Option<Vec<String>>,
    /// A game option for the match's [options], as TOML (repeatable), e.g.
    /// --option 'planes = { earth = 3, limbo = 1, thera = 1, mobil = 1 }'.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

pub fn run(args: Args) -> Result<u8> {
    let players = args
        .players
        .map(|ids| {
            ids.iter()
                .map(|p| super::super::player_arg(p))
                .collect::<Result<Vec<_>>>()
        })
        .transpose()?;
    let options = commands::options_of(&args.options)?;
    let (dir, ledger) = commands::start_match(
        &SeasonDir::new(&args.season),
        &args.game,
        args.title.as_deref(),
        players.as_deref(),
        &options,
    )?;
    println!("Created {}.", dir.display());
    if ledger.matches.iter().any(|m| !m.over) {
        println!("Note: an earlier match is still running; both count in the ledger.");
    }
    println!(
        "Edit its [schedule] and [options], then: adjudicate round {}",
        dir.display()
    );
    Ok(exit::OK)
}
