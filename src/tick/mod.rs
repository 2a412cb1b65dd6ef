//! The game-independent tick, `adjudicate round GAME_DIR` (spec README, "The round lifecycle"):
//! set up if needed, then the round's stages, each a module with a typed hand-off: `receive`
//! (versions in arrival order, receipts; instant actions answer at once) → `answer`
//! (acknowledgements once the tick knows whether it resolves, reminders) → `resolve` (is the
//! round due; the rules' result) → `publish` (result.toml, reports, mail through `queue`); then
//! state.toml last, and the send step.
//!
//! Invariants: all writes go through a `Plan` committed in order with state.toml last; every
//! message and file is derived from the archive and the state, never from the clock except the
//! receipt time and a message's Date, so a repeated or interrupted tick converges to the same bytes;
//! a tick with nothing new plans nothing.

use crate::context::{GameContext, StateFile, StateText};
use crate::error::{Error, Result};
use crate::games::{Game, Setup};
use crate::mail::{SendReport, Sender, send_outbox};
use crate::plan::Plan;
use crate::player_id::PlayerId;
use crate::render::Renderer;
use crate::result_file::ResultFile;
use jiff::Timestamp;
use std::path::PathBuf;

mod answer;
mod apply;
mod digest;
pub mod enter;
pub mod host;
mod publish;
mod queue;
mod receive;
mod resolve;
pub mod substitute;
pub mod undo;

pub use apply::{check_applied, closed_round_files, finish, reapply, resolve_with_host};
use publish::publish;
use queue::Mailer;
use resolve::Due;

#[derive(Debug, Clone)]
pub struct TickOptions {
    pub now: Timestamp,
    pub force: bool,
    pub dry_run: bool,
    pub no_send: bool,
}

/// What a tick did, for the summary `round` prints.
#[derive(Debug, Default)]
pub struct TickReport {
    pub set_up: bool,
    pub round: u32,
    pub over: bool,
    pub received: Vec<Received>,
    /// Instant answers and notices produced.
    pub answers: usize,
    pub resolved: Option<u32>,
    pub deadline: Option<Timestamp>,
    pub valid: usize,
    pub expected: usize,
    /// Expected players whose latest version is invalid (an earlier one may count): early close
    /// waits for them.
    pub latest_invalid: Vec<PlayerId>,
    pub queued: Vec<String>,
    /// Players a message was meant for who have no mail address (a set: one lookup per message).
    pub unmailed: std::collections::BTreeSet<PlayerId>,
    /// What the send step did (`None`: mail is off, `--no-send`, or a dry run).
    pub mail: Option<SendReport>,
    pub strays: Vec<String>,
    /// Temp files of a killed run removed.
    pub swept: usize,
    /// Dry run: what would have been written (path, bytes; `None` for a folder).
    pub planned: Vec<(PathBuf, Option<usize>)>,
    /// The first moment the clock will make a tick act (a reminder window opens, the round is
    /// due); `None`: only a new file or `--force` will.
    pub until: Option<Timestamp>,
    /// Paused by the host since then (`adjudicate pause`).
    pub paused: Option<Timestamp>,
}

impl TickReport {
    /// Whether the tick found nothing to do and wrote nothing (then the next one may be idle).
    fn did_nothing(&self, wrote: bool) -> bool {
        !wrote
            && !self.set_up
            && self.swept == 0
            && self.received.is_empty()
            && self.answers == 0
            && self.resolved.is_none()
            && self.queued.is_empty()
            && self
                .mail
                .as_ref()
                .is_none_or(|m| m.sent == 0 && m.refused.is_empty() && m.deferred.is_none())
    }
}

#[derive(Debug)]
pub struct Received {
    pub player: PlayerId,
    pub n: u32,
    pub valid: bool,
    /// Reached the host after the deadline: archived, not used.
    pub late: bool,
    pub problems: usize,
}

pub fn tick<G: Game>(ctx: &GameContext, opts: &TickOptions) -> Result<TickReport> {
    tick_early::<G>(ctx, opts, None)
}

/// `tick`, with state.toml read ahead (`early_state`), used if it is still the file.
pub fn tick_early<G: Game>(
    ctx: &GameContext,
    opts: &TickOptions,
    early: Option<crate::early_state::EarlyState>,
) -> Result<TickReport> {
    let renderer = ctx.renderer()?;
    if !opts.dry_run {
        // an undo a killed run recorded but did not finish
        undo::finish::<G>(ctx)?;
    }
    let mut plan = Plan::for_tick(opts.dry_run);
    let mut report = TickReport::default();
    let mut working = load_working::<G>(ctx, early, &mut report)?;
    let file = &mut working.file;
    report.round = G::round(&file.game);
    report.over = G::is_over(&file.game);
    if !opts.dry_run {
        // A killed tick wrote only into round 0 (the opening) and the round being played; a
        // killed undo, into the round before it.
        let before = report.round.saturating_sub(1);
        let big = ctx.config.players.len() >= crate::result_file::PARALLEL_FROM;
        report.swept = ctx.dir.sweep_temp(&[0, before, report.round], big)?;
    }
    if report.set_up
        && let Some(opening) = G::opening(&file.game)
    {
        let result = ResultFile::opening(ctx, G::round(&file.game), opening);
        let mut mail = Mailer::new(ctx, &mut plan, &mut report, None);
        publish::<G>(&mut mail, &renderer, &result, true, opts.now)?;
    }
    let resolves = resolves_whatever_arrives::<G>(ctx, opts, &file.game);
    let idle_key = idle_key(ctx, opts, resolves, report.round);
    let mut seen = crate::tick_cache::Seen::load(ctx.dir.root(), report.round);
    if resolves {
        seen.forget();
    }
    let mut text = None;
    if !report.over {
        text = play_round::<G>(
            ctx,
            opts,
            &renderer,
            &mut plan,
            &mut working,
            &mut report,
            &mut seen,
        )?;
    }
    // state.toml last: everything it refers to is on disk before it; written only when the
    // state changed (so its bytes did too).
    let file = &working.file;
    if working.changed() {
        plan_state(ctx, &mut plan, file, text);
    }
    if opts.dry_run {
        report.planned = plan.entries().map(|(p, n)| (p.to_path_buf(), n)).collect();
        return Ok(report);
    }
    let root = ctx.dir.root();
    let wrote = !plan.is_empty();
    if wrote {
        crate::tick_cache::clear_idle(root)?;
    }
    plan.commit()?;
    seen.save(root);
    let sender = if opts.no_send {
        None
    } else {
        Sender::new(&ctx.config.mail, &ctx.secrets)?
    };
    if let Some(sender) = &sender {
        report.mail = Some(send_outbox(&ctx.dir, sender)?);
    }
    // the host's digest of what needs them, sent at once
    send_digest::<G>(ctx, opts, &mut report, &file.game, sender.as_ref())?;
    if let Some(key) = idle_key.filter(|_| report.did_nothing(wrote)) {
        crate::tick_cache::save_idle(
            root,
            &crate::tick_cache::Idle {
                key,
                title: ctx.config.title.clone(),
                // rounded up: never idle past the moment itself
                until: report
                    .until
                    .map(|t| t.as_second() + i64::from(t.subsec_nanosecond() > 0)),
                round: report.round,
                over: report.over,
                deadline: report.deadline.map(|t| t.to_string()),
                valid: report.valid,
                expected: report.expected,
                strays: report.strays.clone(),
                paused: report.paused.map(|t| t.to_string()),
            },
        );
    }
    Ok(report)
}

/// Plans state.toml (and its memo) as `file`: the text made while the reports rendered, when
/// the round resolved (`text`), or made now.
fn plan_state<S: serde::Serialize>(
    ctx: &GameContext,
    plan: &mut Plan,
    file: &StateFile<S>,
    text: Option<StateText>,
) {
    let text = match text {
        Some(early) => {
            debug_assert_eq!(
                early.text,
                file.to_text().text,
                "state.toml's text made early"
            );
            early
        }
        None => file.to_text(),
    };
    let path = ctx.dir.state_toml();
    if let Some(memo) = text.memo {
        plan.cache_file(ctx.dir.memo(&path), memo);
    }
    plan.durable_file(path, text.text);
}

/// The key of this tick's inputs for its idle stamp (`tick_cache`), taken before anything is
/// read, so that a file changed while the tick runs makes the next one full; none for a dry run,
/// or for a tick that `resolves` whatever arrives (it writes, so is never idle).
fn idle_key(ctx: &GameContext, opts: &TickOptions, resolves: bool, round: u32) -> Option<String> {
    if opts.dry_run || resolves {
        return None;
    }
    crate::tick_cache::key(ctx.dir.root(), round)
}

/// Whether the round resolves in this tick whatever arrives: forced, or its deadline (and grace)
/// passed while not paused. Receiving can only make a round more due (an early close), never
/// less.
fn resolves_whatever_arrives<G: Game>(
    ctx: &GameContext,
    opts: &TickOptions,
    game: &G::State,
) -> bool {
    if G::is_over(game) {
        return false;
    }
    let index = G::rounds_played(game);
    let paused = ctx.paused(index).is_some();
    matches!(
        resolve::due(ctx, opts, ctx.deadline(index), false, paused),
        Due::Now { .. }
    )
}

/// Queues the host's digest after this tick (`digest`), and sends it at once.
fn send_digest<G: Game>(
    ctx: &GameContext,
    opts: &TickOptions,
    report: &mut TickReport,
    state: &G::State,
    sender: Option<&Sender>,
) -> Result<()> {
    let items = digest::items::<G>(ctx, report, state)?;
    if digest::queue(ctx, report, &items, opts.now)?
        && let Some(sender) = sender
    {
        let again = send_outbox(&ctx.dir, sender)?;
        if let Some(mail) = report.mail.as_mut() {
            mail.sent += again.sent;
            mail.refused.extend(again.refused);
            mail.deferred = again.deferred;
            mail.waiting = again.waiting;
        }
    }
    Ok(())
}

pub fn setup<G: Game>(ctx: &GameContext) -> Result<G::State> {
    let setup = Setup {
        players: crate::config::seats(&ctx.config.players),
        options: &ctx.config.options,
        seed: ctx.config.seed,
    };
    G::setup(&setup).map_err(|e| Error::invalid(ctx.dir.game_toml(), e.key, e.message))
}

/// The state a tick works on, and state.toml as read while the two may still be equal.
struct Working<S> {
    file: StateFile<S>,
    /// Kept only to tell whether the tick changed the state; `None` once it surely has (a
    /// round resolved) or when there was no file.
    as_read: Option<StateFile<S>>,
}

/// state.toml as read (`early`: read ahead), and the state to work on: a copy of it, or a new
/// game's set-up (`report.set_up`) when there is no file yet.
fn load_working<G: Game>(
    ctx: &GameContext,
    early: Option<crate::early_state::EarlyState>,
    report: &mut TickReport,
) -> Result<Working<G::State>> {
    let as_read = ctx.load_state_read::<G>(|text| early.and_then(|e| e.take(text)))?;
    let file = match &as_read {
        Some(f) => f.clone(),
        None => {
            report.set_up = true;
            StateFile::new(ctx, 0, setup::<G>(ctx)?)
        }
    };
    Ok(Working { file, as_read })
}

impl<S: PartialEq> Working<S> {
    /// A round resolves: its state will never be the one read (one more round is played), so
    /// the copy is freed before the reports are rendered, where a large tick's memory peaks.
    fn resolving(&mut self) {
        self.as_read = None;
    }

    /// Whether state.toml is to be written.
    fn changed(&self) -> bool {
        self.as_read.as_ref() != Some(&self.file)
    }
}

/// One round's work, in its four stages: receive, answer, resolve (when due), publish. Returns
/// state.toml's text when resolving made it already (`resolve::resolve_round`).
fn play_round<G: Game>(
    ctx: &GameContext,
    opts: &TickOptions,
    renderer: &Renderer,
    plan: &mut Plan,
    working: &mut Working<G::State>,
    report: &mut TickReport,
    seen: &mut crate::tick_cache::Seen,
) -> Result<Option<StateText>> {
    let file = &mut working.file;
    let round = G::round(&file.game);
    let index = G::rounds_played(&file.game);
    let info = ctx.game_info(round, index, None);
    report.strays.extend(closed_round_files(ctx, round));
    plan.dir(ctx.dir.submissions(round));
    let deadline = ctx.deadline(index);
    let mut mail = Mailer::new(ctx, plan, report, deadline);
    // the notice of a host's action a killed run recorded but did not publish
    host::finish_notices::<G>(&mut mail, &file.game)?;
    let received = receive::receive::<G>(opts, &mut mail, file, seen)?;
    let expected = ctx.expected::<G>(&file.game);
    let valid = expected
        .iter()
        .filter(|p| G::has_valid(&file.game, p))
        .count();
    mail.report.expected = expected.len();
    mail.report.valid = valid;
    mail.report.deadline = deadline;
    mail.report.paused = ctx.paused(index);
    let paused = mail.report.paused.is_some();
    if !paused {
        answer::remind::<G>(
            opts.now, renderer, &mut mail, &info, &file.game, &expected, &received,
        )?;
    }
    // Early close waits for every expected player's latest version to be valid: an invalid one
    // says the player is still at it, whatever an earlier version left on file.
    let receipts = &received.receipts.list;
    mail.report.latest_invalid = expected
        .iter()
        .filter(|p| received.latest.get(*p).is_some_and(|i| !receipts[*i].valid))
        .map(|p| (*p).clone())
        .collect();
    let latest_valid = mail.report.latest_invalid.is_empty();
    let all_valid = !expected.is_empty() && valid == expected.len() && latest_valid;
    match resolve::due(ctx, opts, deadline, all_valid, paused) {
        Due::Waiting { until } => {
            mail.report.until = until;
            let receipts = &received.receipts.list;
            mail.acknowledge_all(renderer, &info, receipts, received.pending, false)?;
            Ok(None)
        }
        Due::Now { dated } => {
            let receipts = &received.receipts.list;
            mail.acknowledge_all(renderer, &info, receipts, received.pending, true)?;
            working.resolving();
            resolve::resolve_round::<G>(renderer, &mut mail, &mut working.file, dated)
        }
    }
}
