//! `adjudicate enter GAME_DIR PLAYER FILE --reason TEXT [--at TIME]`.

use crate::context::GameContext;
use crate::error::{Error, Result, exit};
use crate::games::{Game, WithGame};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "The version goes into the round's submissions/ with source = \"host\"; the next tick \
receives it like any version (an invalid one is archived and answered as such) and acknowledges it to the \
player: \"Entered for you by the host: …\". Recorded in rounds/NNN/host.toml.\n\
Example: adjudicate enter ~/games/match7 bob bob.toml --reason \"sent by Discord DM\" --at 2026-12-02T14:10:00Z"
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// The player it is entered for.
    player: String,
    /// The version, as a submission file.
    file: PathBuf,
    /// Why, for the record and the player's acknowledgement.
    #[arg(long)]
    reason: String,
    /// When the player sent it (RFC 3339; not after the clock). Default: now.
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    at: Option<jiff::Timestamp>,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let bytes = std::fs::read(&args.file).map_err(|e| Error::io(&args.file, e))?;
    let (_lock, ctx) = super::lever_game(args.game_dir)?;
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    let (round, player) = crate::games::dispatch(
        ctx.config.game,
        Enter {
            ctx: &ctx,
            player: &args.player,
            bytes: &bytes,
            at: args.at,
            reason: &args.reason,
            now,
        },
    )?;
    println!(
        "{}: round {round}: a version entered for {player} (recorded in {})",
        ctx.config.title,
        ctx.dir.host_toml(round).display()
    );
    println!("the next `adjudicate round` receives it and acknowledges it to {player}");
    Ok(exit::OK)
}

struct Enter<'a> {
    ctx: &'a GameContext,
    player: &'a str,
    bytes: &'a [u8],
    at: Option<jiff::Timestamp>,
    reason: &'a str,
    now: jiff::Timestamp,
}

impl WithGame for Enter<'_> {
    type Output = Result<(u32, crate::player_id::PlayerId)>;
    fn run<G: Game>(self) -> Self::Output {
        crate::tick::enter::enter::<G>(
            self.ctx,
            self.player,
            self.bytes,
            self.at,
            self.reason,
            self.now,
        )
    }
}
