//! `adjudicate send GAME_DIR`: sends what waits in outbox/.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::game_dir::GameDir;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate send ~/games/match7")]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
}

pub fn run(args: Args) -> Result<u8> {
    let dir = GameDir::open(args.game_dir)?;
    let _lock = dir.lock()?;
    let ctx = GameContext::load(dir)?;
    let Some(sender) = crate::mail::Sender::new(&ctx.config.mail, &ctx.secrets)? else {
        println!("mail is off (transport = \"none\"): nothing to send");
        return Ok(exit::OK);
    };
    let report = crate::mail::send_outbox(&ctx.dir, &sender)?;
    println!("sent {} message(s)", report.sent);
    Ok(super::mail_problems(&report))
}
