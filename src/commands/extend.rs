//! `adjudicate extend GAME_DIR (--by DURATION | --to TIME) --reason TEXT`.

use crate::error::Result;
use crate::tick::host::{Extension, Lever};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    group(clap::ArgGroup::new("how").required(true).args(["by", "to"])),
    after_help = "Later deadlines of an `every` schedule follow the new one; a version that reaches the host \
before the new deadline counts. Recorded in rounds/NNN/host.toml.\n\
Example: adjudicate extend ~/games/match7 --by 24h --reason \"Bob is travelling\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// How much later, e.g. 24h, 90m, "1d 12h".
    #[arg(long, value_name = "DURATION", value_parser = parse_by, allow_hyphen_values = true)]
    by: Option<jiff::SignedDuration>,
    /// The new deadline (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    to: Option<jiff::Timestamp>,
    /// Why, for the players' notice and the record.
    #[arg(long)]
    reason: String,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

fn parse_by(text: &str) -> std::result::Result<jiff::SignedDuration, String> {
    crate::clock::parse_duration(text)
}

pub fn run(args: Args) -> Result<u8> {
    let how = match (args.by, args.to) {
        (Some(by), _) => Extension::By(by),
        (None, Some(to)) => Extension::To(to),
        (None, None) => unreachable!("clap requires --by or --to"),
    };
    super::lever::pull(args.game_dir, Lever::Extend(how), &args.reason, args.now)
}
