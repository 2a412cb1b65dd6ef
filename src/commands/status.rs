//! `adjudicate status GAME_DIR`: the round, its deadline, who has a valid version; `--all`, a
//! line per game under a root.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::game_dir::GameDir;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Example: adjudicate status ~/games/match7\n         adjudicate status --all ~/games"
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// GAME_DIR is a root: one line for every game directory under it.
    #[arg(long)]
    all: bool,
    /// The clock (RFC 3339), for time left.
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    if !args.all {
        print!("{}", status_of(args.game_dir, now)?);
        return Ok(exit::OK);
    }
    let mut codes = Vec::new();
    for dir in crate::all_games::game_dirs(&args.game_dir)? {
        match status_of(dir.clone(), now) {
            // one line: the title, then what is not a player's own line
            Ok(text) => {
                let mut lines = text.lines().filter(|l| !l.starts_with(' '));
                let title = lines.next().unwrap_or_default();
                let rest: Vec<&str> = lines.collect();
                println!("{}: {title}: {}", dir.display(), rest.join("; "));
                codes.push(exit::OK);
            }
            Err(e) => codes.push(super::report_error(&e)),
        }
    }
    Ok(crate::all_games::most_serious(codes))
}

/// `status` of one game directory, as text.
fn status_of(game_dir: PathBuf, now: jiff::Timestamp) -> Result<String> {
    let ctx = GameContext::load(GameDir::open(game_dir)?)?;
    crate::games::dispatch(ctx.config.game, crate::status::Status { ctx: &ctx, now })
}
