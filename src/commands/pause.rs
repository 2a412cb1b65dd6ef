//! `adjudicate pause GAME_DIR --reason TEXT`.

use crate::error::Result;
use crate::tick::host::Lever;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Versions are still received and acknowledged while paused. `resume` gives back the \
time that was left.\nExample: adjudicate pause ~/games/match7 --reason \"the host is away this weekend\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// Why, for the players' notice and the record.
    #[arg(long)]
    reason: String,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    super::lever::pull(args.game_dir, Lever::Pause, &args.reason, args.now)
}
