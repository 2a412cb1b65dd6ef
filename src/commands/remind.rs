//! `adjudicate remind GAME_DIR`.

use crate::error::Result;
use crate::tick::host::Lever;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Example: adjudicate remind ~/games/match7 --reason \"two players have not sent\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// Why, for the record.
    #[arg(long, default_value = "the host's reminder")]
    reason: String,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    super::lever::pull(args.game_dir, Lever::Remind, &args.reason, args.now)
}
