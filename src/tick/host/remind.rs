//! `remind`: the host's reminder now, to each expected player without a valid version, and
//! the reminders of a `remind` a killed run recorded but did not queue in full.

use super::super::answer;
use super::super::queue::Mailer;
use super::super::receive::Receiving;
use crate::clock;
use crate::context::GameContext;
use crate::error::Result;
use crate::games::Game;
use crate::host_record::{Action, Kind};
use jiff::Timestamp;
use std::collections::BTreeMap;

/// The round's receipts as the tick's receive stage would hand them on, to remind from.
pub(super) fn received(ctx: &GameContext, round: u32) -> Result<Receiving> {
    let receipts = crate::receipts::Receipts::load(&ctx.dir, &ctx.config, round)?;
    let mut latest = BTreeMap::new();
    for (i, r) in receipts.list.iter().enumerate().filter(|(_, r)| !r.late) {
        latest.insert(r.player.clone(), i);
    }
    Ok(Receiving {
        origins: crate::ingest::read_origins(ctx, round)?,
        receipts,
        latest,
        pending: Vec::new(),
    })
}

/// `remind`: the reminder now, to each expected player without a valid version, numbered apart
/// from the scheduled ones (100 + the action's number).
pub(super) fn remind_all<G: Game>(
    renderer: &crate::render::Renderer,
    mail: &mut Mailer<'_>,
    info: &crate::render::GameInfo,
    state: &G::State,
    received: &Receiving,
    (now, deadline, action): (Timestamp, Timestamp, &Action),
) -> Result<usize> {
    let expected = mail.ctx.expected::<G>(state);
    let left = clock::relative(now, deadline);
    answer::remind_players::<G>(
        renderer,
        mail,
        info,
        state,
        &expected,
        received,
        (now, left, 100 + action.n),
    )
}

/// The reminders of a `remind` that a killed run recorded but did not queue in full: queued
/// now, as they would have been. A reminder has no notice to mark it done, so they are queued
/// again (those already queued or sent are known by name and skipped) as long as nothing
/// happened in the round since: the remind is the round's last action and no version was
/// received after it, so its players and words are still the same.
pub(super) fn finish<G: Game>(mail: &mut Mailer<'_>, state: &G::State) -> Result<()> {
    let ctx = mail.ctx;
    let (round, index) = (G::round(state), G::rounds_played(state));
    let Some(action) = ctx
        .actions
        .iter()
        .rfind(|a| a.index == index)
        .filter(|a| a.kind == Kind::Remind)
    else {
        return Ok(());
    };
    let Some(deadline) = ctx.deadline(index) else {
        return Ok(());
    };
    let at = action.at();
    let received = received(ctx, round)?;
    if received.receipts.received_after(at) {
        return Ok(());
    }
    let mut info = ctx.game_info(round, index, None);
    info.deadline_at = Some(deadline);
    info.deadline = Some(clock::human_in(deadline, ctx.config.zone()));
    info.paused = false;
    let renderer = ctx.renderer()?;
    remind_all::<G>(
        &renderer,
        mail,
        &info,
        state,
        &received,
        (at, deadline, action),
    )?;
    Ok(())
}
