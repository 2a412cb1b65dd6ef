//! `adjudicate new GAME GAME_DIR`: a ready game directory with a commented game.toml.

use crate::error::{Result, exit};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate new room-swap ~/games/match7 --players players.toml")]
pub struct Args {
    #[arg(help = super::new_game_help())]
    game: String,
    /// The game directory to create (must not exist or be empty).
    game_dir: PathBuf,
    /// A TOML file with [[players]] entries (id, name, email) to use instead of sample players.
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<u8> {
    let written = crate::new_game::create(&args.game, &args.game_dir, args.players.as_deref())?;
    println!("Created {} with {written}.", args.game_dir.display());
    println!(
        "Edit game.toml, then run: adjudicate round {}",
        args.game_dir.display()
    );
    Ok(exit::OK)
}
