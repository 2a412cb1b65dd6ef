//! `adjudicate render GAME_DIR`: re-renders resolved rounds' reports from their result.toml.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::game_dir::GameDir;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate render ~/games/match7 --round 3")]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// The round (default: every resolved round).
    #[arg(long, value_name = "N")]
    round: Option<u32>,
}

pub fn run(args: Args) -> Result<u8> {
    let ctx = GameContext::load(GameDir::open(args.game_dir)?)?;
    let rounds = crate::games::dispatch(
        ctx.config.game,
        crate::replay::Rerender {
            ctx: &ctx,
            round: args.round,
        },
    )?;
    println!(
        "Re-rendered round(s): {}",
        rounds
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(exit::OK)
}
