//! `adjudicate withdraw GAME_DIR PLAYER --reason TEXT`.

use crate::error::Result;
use crate::tick::host::Lever;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Every player gets a public notice with the reason (the player who leaves too: it is \
the last message they get, but for answers to what they still send). From now on nothing they send is \
read, they are not waited for or reminded, and when the round resolves the game's ruling applies (each \
game's README, \"A seat that leaves\"). In a season, the person leaves the season.\n\
Example: adjudicate withdraw ~/games/match7 bob --reason \"Bob has quit the season\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// The player who leaves (their id in game.toml).
    player: String,
    /// Why, for the players' notice and the record.
    #[arg(long)]
    reason: String,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let lever = Lever::Withdraw {
        player: args.player,
    };
    super::lever::pull(args.game_dir, lever, &args.reason, args.now)
}
