//! `adjudicate season new SEASON --players FILE`.

use crate::error::{Result, exit};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The season directory to create.
    season: PathBuf,
    /// A TOML file with [[players]] entries (id, name, email, chat, garnets: the starting
    /// balance).
    #[arg(long, value_name = "FILE")]
    players: PathBuf,
    /// The season's title (default: the folder's name).
    #[arg(long)]
    title: Option<String>,
    /// The season's seed (default: drawn at random); every match's seed derives from it.
    #[arg(long)]
    seed: Option<u64>,
}

pub fn run(args: Args) -> Result<u8> {
    let path = crate::season::commands::new(
        &args.season,
        &args.players,
        args.title.as_deref(),
        args.seed,
    )?;
    println!("Created {}.", path.display());
    println!(
        "Edit its [mail], then start a match: adjudicate season match {} GAME_ID",
        args.season.display()
    );
    Ok(exit::OK)
}
