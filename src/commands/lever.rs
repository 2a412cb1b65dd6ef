//! What the host's levers (`extend`, `pause`, `resume`, `announce`, `remind`) share on the
//! command line: the game's lock, the action (`tick::host::act`), and the summary.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::games::{Game, WithGame};
use crate::tick::host::{Done, Lever, act};
use std::path::PathBuf;

/// Takes the action on the game in `game_dir` under its lock (held by another run: exit 75,
/// nothing recorded), and prints what it did.
pub fn pull(
    game_dir: PathBuf,
    lever: Lever,
    reason: &str,
    now: Option<jiff::Timestamp>,
) -> Result<u8> {
    let (_lock, ctx) = super::lever_game(game_dir)?;
    let now = now.unwrap_or_else(jiff::Timestamp::now);
    let done = crate::games::dispatch(
        ctx.config.game,
        Act {
            ctx: &ctx,
            lever,
            reason,
            now,
        },
    )?;
    print!("{}", summary(&ctx, &done));
    Ok(done.mail.as_ref().map_or(exit::OK, super::mail_problems))
}

struct Act<'a> {
    ctx: &'a GameContext,
    lever: Lever,
    reason: &'a str,
    now: jiff::Timestamp,
}

impl WithGame for Act<'_> {
    type Output = Result<Done>;
    fn run<G: Game>(self) -> Self::Output {
        act::<G>(self.ctx, self.lever, self.reason, self.now, true)
    }
}

fn summary(ctx: &GameContext, done: &Done) -> String {
    let a = &done.action;
    let mut out = format!(
        "{}: round {}: {} recorded as action {} in {}\n",
        ctx.config.title,
        done.round,
        a.kind.name(),
        a.n,
        ctx.dir.host_toml(done.round).display()
    );
    if let Some(d) = a.deadline() {
        out.push_str(&format!("deadline now {}\n", crate::clock::human(d)));
    }
    if let Some(path) = &done.notice {
        out.push_str(&format!("notice: {}\n", path.display()));
    }
    let sent = done.mail.as_ref().map_or(0, |m| m.sent);
    out.push_str(&format!("mail: {} queued, {sent} sent\n", done.queued));
    if done.unmailed > 0 {
        out.push_str(&format!(
            "{} player(s) without a mail address: notice only on disk\n",
            done.unmailed
        ));
    }
    out
}
