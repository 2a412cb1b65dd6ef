//! `adjudicate undo GAME_DIR --reason TEXT [--force]`.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::games::{Game, WithGame};
use crate::tick::host::Done;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "The round's reports move to rounds/NNN/withdrawn-K/, the versions the next round \
received to its withdrawn-K/, state.toml goes back to just before the round was resolved, and every \
player is told why. The round is then on hold, as if paused: correct what was wrong (enter, extend), then \
`adjudicate resume` resolves it again at the next tick (or `round --force` at once); its new reports say \
\"(corrected)\". Mail already sent is not recalled.\n\
Example: adjudicate undo ~/games/match7 --reason \"Bob's version was entered for Carol\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// Why, for the players' notice and the record.
    #[arg(long)]
    reason: String,
    /// Undo the last round of a game that is over.
    #[arg(long)]
    force: bool,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let (_lock, ctx) = super::lever_game(args.game_dir)?;
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    let done = crate::games::dispatch(
        ctx.config.game,
        Undo {
            ctx: &ctx,
            reason: &args.reason,
            force: args.force,
            now,
        },
    )?;
    println!(
        "{}: round {}'s results withdrawn (recorded as action {} in {}); it is on hold until you correct it and run `adjudicate resume` (or `round --force`)",
        ctx.config.title,
        done.round,
        done.action.n,
        ctx.dir.host_toml(done.round).display()
    );
    let sent = done.mail.as_ref().map_or(0, |m| m.sent);
    println!("mail: {} queued, {sent} sent", done.queued);
    Ok(done.mail.as_ref().map_or(exit::OK, super::mail_problems))
}

struct Undo<'a> {
    ctx: &'a GameContext,
    reason: &'a str,
    force: bool,
    now: jiff::Timestamp,
}

impl WithGame for Undo<'_> {
    type Output = Result<Done>;
    fn run<G: Game>(self) -> Self::Output {
        crate::tick::undo::act::<G>(self.ctx, self.reason, self.force, self.now, true)
    }
}
