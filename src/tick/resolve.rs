//! The tick's third stage: resolve. Whether the round is due (its deadline and grace passed,
//! `early_close` with every expected player valid, or `--force`), and when due, the rules'
//! resolution: the result, published, and the next round's state, which opens at the moment
//! this one closed.

use super::TickOptions;
use super::publish::publish;
use super::queue::Mailer;
use crate::context::{GameContext, StateFile, StateText};
use crate::error::Result;
use crate::games::Game;
use crate::render::Renderer;
use crate::result_file::ResultFile;
use jiff::Timestamp;

/// Whether the round resolves in this tick.
pub(super) enum Due {
    /// Not yet: the first moment the clock will make a tick act (a reminder window opens, the
    /// round is due), if any.
    Waiting { until: Option<Timestamp> },
    /// Now, dated at the deadline that made it due (so a tick re-run after a crash writes the
    /// same bytes), or at the clock when it closes early or is forced.
    Now { dated: Timestamp },
}

pub(super) fn due(
    ctx: &GameContext,
    opts: &TickOptions,
    deadline: Option<Timestamp>,
    all_valid: bool,
    paused: bool,
) -> Due {
    // Paused by the host: nothing resolves but by `--force`, and the clock wakes no tick.
    if paused && !opts.force {
        return Due::Waiting { until: None };
    }
    let schedule = ctx.config.schedule.as_ref();
    let early = schedule.is_some_and(|s| s.early_close) && all_valid;
    // `grace`: a due round waits a little, so that mail fetched every few minutes still counts.
    let grace = schedule.and_then(|s| s.grace);
    let due_at = deadline.map(|d| grace.map_or(d, |g| d.saturating_add(g).unwrap_or(d)));
    if opts.force || early || due_at.is_some_and(|d| opts.now >= d) {
        return Due::Now {
            dated: deadline.filter(|d| opts.now >= *d).unwrap_or(opts.now),
        };
    }
    let remind_from = deadline
        .zip(schedule.and_then(|s| s.remind_before))
        .map(|(d, before)| d.checked_sub(before).unwrap_or(d));
    Due::Waiting {
        until: [remind_from.filter(|r| opts.now < *r), due_at]
            .into_iter()
            .flatten()
            .min(),
    }
}

/// Resolves the round: the result and its reports published, the next round's state in `file`.
/// A big round's state.toml text is made on a thread of its own while the reports render, and
/// returned (the tick writes it last); `None`: the tick makes it then.
pub(super) fn resolve_round<G: Game>(
    renderer: &Renderer,
    mail: &mut Mailer<'_>,
    file: &mut StateFile<G::State>,
    dated: Timestamp,
) -> Result<Option<StateText>> {
    let ctx = mail.ctx;
    let round = G::round(&file.game);
    let index = G::rounds_played(&file.game);
    // `file` becomes the next round's, in place, as `StateFile::new` would make it
    let resolved = super::apply::resolve_with_host::<G>(ctx, &mut file.game)?;
    // (what lets the tick write state.toml without comparing it with the state as read)
    debug_assert_eq!(
        G::rounds_played(&file.game),
        index + 1,
        "a resolution plays a round"
    );
    file.receipts_applied = 0;
    file.seed = Some(ctx.config.seed);
    file.opened = Some(dated.as_second());
    let next_round = (!G::is_over(&file.game)).then(|| G::round(&file.game));
    // The round closes at `dated`: the next round takes every version that reaches the host
    // after it, even before this round's scheduled deadline (an early close, `--force`).
    let result = ResultFile::new(ctx, round, index, next_round, Some(dated), resolved);
    let text = if result.private.len() < crate::result_file::PARALLEL_FROM {
        publish::<G>(mail, renderer, &result, false, dated)?;
        None
    } else {
        // (its memo is written as soon as it is made, not held beside the reports until the
        // commit: 16 MB of a 100,000-player tick's peak; `Plan::cache_file` says why it may)
        let memos = mail.plan.memo_writer();
        let memo_path = ctx.dir.memo(&ctx.dir.state_toml());
        let text = std::thread::scope(|scope| {
            // (if no thread can be had, the text is made here, after the reports)
            let next = &*file;
            let early = std::thread::Builder::new().spawn_scoped(scope, || {
                let mut text = next.to_text();
                if let Some(memos) = memos
                    && let Some(memo) = text.memo.take()
                {
                    memos.write(&memo_path, &memo);
                }
                text
            });
            publish::<G>(mail, renderer, &result, false, dated)?;
            let text = match early {
                Ok(thread) => thread.join().expect("state.toml's text"),
                Err(_) => next.to_text(),
            };
            Ok::<_, crate::error::Error>(text)
        })?;
        // A big result (a tree per player) is freed on a thread of its own while the tick
        // writes; a process that exits first leaves that to the system. (If no thread can be
        // had, the closure, and the result with it, is dropped here.)
        let _ = std::thread::Builder::new().spawn(move || drop(result));
        Some(text)
    };
    if let Some(next) = next_round {
        mail.plan.dir(ctx.dir.submissions(next));
    }
    mail.report.resolved = Some(round);
    Ok(text)
}
