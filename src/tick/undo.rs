//! `undo`: the last resolved round's results withdrawn (spec README, "Host actions"). The action
//! is recorded first; then, in an order a killed run can finish from, the round's reports and the
//! next round's receipts move into `withdrawn-K/` folders (`result.toml` last: while it is in
//! place the undo has not happened), and state.toml goes back to just before the round was
//! resolved, rebuilt from the archive as `replay` does. The round then resolves again at its next
//! due tick, with whatever the host corrected, and its reports are mailed under new names.

use super::TickReport;
use super::host::{Done, finish_notices, notice_path};
use super::queue::Mailer;
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::games::Game;
use crate::host_record::{self, Action, Kind};
use crate::mail::{Sender, send_outbox};
use crate::plan::Plan;
use jiff::Timestamp;
use std::path::Path;

/// The files of a resolved round an undo sets aside, `result.toml` last.
const RESULTS: [&str; 3] = ["private", "public.txt", "result.toml"];
/// What a next round received against results that no longer stand.
const RECEIVED: [&str; 2] = ["received", "receipts.toml"];

/// The last undo recorded, and the round it withdrew, if it is not finished yet: the round's
/// result.toml still in place as the one undone, or state.toml not yet taken back.
fn pending<G: Game>(ctx: &GameContext) -> Result<Option<(Action, u32)>> {
    let Some(action) = ctx.actions.iter().rev().find(|a| a.kind == Kind::Undo) else {
        return Ok(None);
    };
    let round = action.round.expect("checked on load");
    let k = undo_number(ctx, action);
    let withdrawn = ctx.dir.round(round).join(format!("withdrawn-{k}"));
    let moved = withdrawn.join("result.toml").is_file();
    let in_place = ctx.dir.result(round).is_file();
    let played = match ctx.dir.state_toml().is_file() {
        true => ctx.load_state::<G>()?.map(|f| G::rounds_played(&f.game)),
        false => None,
    };
    let rolled_back = played == Some(action.index);
    // moved and rolled back (or resolved again since): done
    if moved && (rolled_back || in_place) {
        return Ok(None);
    }
    Ok(Some((action.clone(), round)))
}

/// Which undo of its round an action is (1, 2, …): its `withdrawn-K/` folder.
fn undo_number(ctx: &GameContext, action: &Action) -> usize {
    ctx.actions
        .iter()
        .filter(|a| a.kind == Kind::Undo && a.round == action.round && a.index == action.index)
        .take_while(|a| a.at <= action.at && !(a.at == action.at && a.n > action.n))
        .count()
}

/// Finishes the last undo if a killed run left it unfinished (called before every tick and
/// lever); returns whether there was one.
pub fn finish<G: Game>(ctx: &GameContext) -> Result<bool> {
    let Some((action, round)) = pending::<G>(ctx)? else {
        return Ok(false);
    };
    let k = undo_number(ctx, &action);
    let folder = ctx.dir.round(round);
    let withdrawn = folder.join(format!("withdrawn-{k}"));
    // the next round's versions were received against results that no longer stand
    let next = crate::result_meta::Meta::read(&folder.join("result.toml"))?
        .or(crate::result_meta::Meta::read(
            &withdrawn.join("result.toml"),
        )?)
        .and_then(|m| m.next_round)
        .filter(|n| *n != round);
    if let Some(next) = next {
        let from = ctx.dir.round(next);
        set_aside(&from, &from.join(format!("withdrawn-{k}")), &RECEIVED)?;
    }
    set_aside(&folder, &withdrawn, &RESULTS)?;
    let (game, applied, opened) = super::apply::rebuild_before::<G>(ctx, action.index)?;
    let mut file = crate::context::StateFile::new(ctx, applied, game);
    file.opened = opened;
    let mut plan = crate::plan::Plan::default();
    plan.durable_file(ctx.dir.state_toml(), file.to_text().text);
    plan.commit()?;
    // what earlier ticks saw of the next round is no longer true
    let cache = ctx.dir.root().join(".cache");
    if cache.is_dir() {
        std::fs::remove_dir_all(&cache).map_err(|e| Error::io(&cache, e))?;
    }
    Ok(true)
}

/// Moves `names` of `from` into `to` (created), skipping what is already moved.
fn set_aside(from: &Path, to: &Path, names: &[&str]) -> Result<()> {
    crate::game_dir::create_dir(to)?;
    for name in names {
        let (source, target) = (from.join(name), to.join(name));
        if source.exists() && !target.exists() {
            std::fs::rename(&source, &target).map_err(|e| Error::io(&source, e))?;
        }
    }
    Ok(())
}

/// Checks that the last resolved round can be withdrawn: one has been resolved, it was not just
/// withdrawn, the game is not over (unless `force`), and it was resolved by this version (its
/// `[meta] closed`). Returns its round number and schedule index.
pub fn check<G: Game>(ctx: &GameContext, state: &G::State, force: bool) -> Result<(u32, u32)> {
    let usage = |m: String| Err(Error::Usage(m));
    let played = G::rounds_played(state);
    if ctx
        .actions
        .iter()
        .any(|a| a.kind == Kind::Undo && a.index == played)
        && !ctx.dir.result(G::round(state)).is_file()
    {
        return usage(format!(
            "round {}'s results are already withdrawn; it resolves again at its next tick (only the last resolved round can be undone)",
            G::round(state)
        ));
    }
    if played == 0 {
        return usage("no round has been resolved yet: there is nothing to undo".into());
    }
    if G::is_over(state) && !force {
        return usage("the game is over: undo its last round with --force".into());
    }
    let index = played - 1;
    for round in ctx.dir.round_numbers()?.into_iter().rev() {
        let Some(meta) = crate::result_meta::Meta::read(&ctx.dir.result(round))? else {
            continue;
        };
        if meta.index == index && !meta.opening && meta.closed.is_some() {
            return Ok((round, index));
        }
    }
    usage(
        "the last round was resolved by an older version of adjudicate: it cannot be undone".into(),
    )
}

/// `undo`: the last resolved round's results withdrawn (`super::undo`), every player told why;
/// the round resolves again at its next due tick.
pub fn act<G: Game>(
    ctx: &GameContext,
    reason: &str,
    force: bool,
    now: Timestamp,
    send: bool,
) -> Result<Done> {
    let usage = |m: String| Error::Usage(m);
    finish::<G>(ctx)?;
    let file = ctx
        .load_state::<G>()?
        .ok_or_else(|| usage("the game is not set up yet: there is nothing to undo".into()))?;
    let (round, index) = check::<G>(ctx, &file.game, force)?;
    if reason.trim().is_empty() {
        return Err(usage(
            "say why with --reason: it goes into the players' notice".into(),
        ));
    }
    let action = Action {
        round: Some(round),
        ..Action::next(&ctx.actions, Kind::Undo, index, now, reason)
    };
    // recorded first; everything after can be finished by the next run
    host_record::append(&ctx.dir, round, &action)?;
    let ctx = GameContext::load(ctx.dir.clone())?;
    finish::<G>(&ctx)?;
    let file = ctx
        .load_state::<G>()?
        .ok_or_else(|| usage("state.toml went missing".into()))?;
    let mut plan = Plan::default();
    let mut report = TickReport::default();
    let mut mail = Mailer::new(&ctx, &mut plan, &mut report, ctx.deadline(index));
    finish_notices::<G>(&mut mail, &file.game)?;
    let done_queued = mail.report.queued.len();
    let unmailed = mail.report.unmailed.len();
    plan.commit()?;
    let mail = if send {
        Sender::new(&ctx.config.mail, &ctx.secrets)?
            .map(|s| send_outbox(&ctx.dir, &s))
            .transpose()?
    } else {
        None
    };
    Ok(Done {
        notice: Some(notice_path(&ctx, round, &action)),
        action,
        round,
        queued: done_queued,
        unmailed,
        mail,
    })
}
