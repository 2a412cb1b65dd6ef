//! `adjudicate check GAME_DIR [FILE]`: every problem of the game directory, or of one submission.

use crate::context::GameContext;
use crate::error::{Error, Result, exit};
use crate::game_dir::GameDir;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate check ~/games/match7
         adjudicate check ~/games/match7 alice.toml --player alice")]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// A submission file to check against the current round.
    file: Option<PathBuf>,
    /// The player the file is from (default: the file's stem).
    #[arg(long, value_name = "ID")]
    player: Option<String>,
}

pub fn run(args: Args) -> Result<u8> {
    let ctx = GameContext::load(GameDir::open(args.game_dir)?)?;
    let problems = crate::games::dispatch(
        ctx.config.game,
        crate::check::Check {
            ctx: &ctx,
            file: args.file,
            player: args.player,
        },
    )?;
    for line in &problems {
        println!("{line}");
    }
    if problems.is_empty() {
        println!("ok: no problems found");
        Ok(exit::OK)
    } else {
        Err(Error::Problems {
            count: problems.len(),
        })
    }
}
