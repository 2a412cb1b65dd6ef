//! `adjudicate resume GAME_DIR --reason TEXT [--to TIME]`.

use crate::error::Result;
use crate::tick::host::Lever;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Example: adjudicate resume ~/games/match7 --reason \"back from the weekend\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// Why, for the players' notice and the record.
    #[arg(long)]
    reason: String,
    /// The round's new deadline (RFC 3339) instead of the time that was left.
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    to: Option<jiff::Timestamp>,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    super::lever::pull(
        args.game_dir,
        Lever::Resume { to: args.to },
        &args.reason,
        args.now,
    )
}
