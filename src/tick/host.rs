//! The host's levers on the round being played (spec README, "Host actions"): `extend`,
//! `pause`, `resume`, `announce`, `remind`. Each is checked, then recorded in
//! `rounds/NNN/host.toml` (committed on its own, before anything it causes), then its notice is
//! written to `rounds/NNN/notices/<n>-<kind>.txt` and mailed to every player like an
//! announcement (a reminder goes to each player without a valid version instead), and the send
//! step runs. What it changes for the tick (the deadline, whether the round may resolve) the tick
//! reads back from the record (`GameContext::deadline`, `paused`).

use super::TickReport;
use super::queue::Mailer;
use super::receive::Receiving;
use crate::clock;
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::games::Game;
use crate::host_record::{self, Action, Kind};
use crate::mail::{Mail, MailKind, Recipient, SendReport, Sender, send_outbox};
use crate::plan::Plan;
use crate::render::{HostContext, Kind as Template};
use jiff::{SignedDuration, Timestamp};
use std::collections::BTreeMap;

/// What the host asks for.
#[derive(Debug, Clone)]
pub enum Lever {
    /// Move the deadline later: by a duration, or to a time.
    Extend(Extension),
    Pause,
    /// Resume, giving back the time that was left, or to a deadline of the host's.
    Resume {
        to: Option<Timestamp>,
    },
    Announce {
        text: String,
    },
    Remind,
}

#[derive(Debug, Clone, Copy)]
pub enum Extension {
    By(SignedDuration),
    To(Timestamp),
}

/// What an action did, for the command's summary.
#[derive(Debug)]
pub struct Done {
    pub action: Action,
    pub round: u32,
    /// The public notice written (`rounds/NNN/notices/…`), if the action has one.
    pub notice: Option<std::path::PathBuf>,
    pub queued: usize,
    /// Players the notice was meant for who have no address.
    pub unmailed: usize,
    pub mail: Option<SendReport>,
}

/// Takes the action: checks it against the round, records it, then carries it out.
pub fn act<G: Game>(
    ctx: &GameContext,
    lever: Lever,
    reason: &str,
    now: Timestamp,
    send: bool,
) -> Result<Done> {
    let usage = |m: String| Error::Usage(m);
    let file = ctx
        .load_state::<G>()?
        .ok_or_else(|| usage("the game is not set up yet: run `adjudicate round` first".into()))?;
    let state = &file.game;
    let (round, index) = (G::round(state), G::rounds_played(state));
    if G::is_over(state) && !matches!(lever, Lever::Announce { .. }) {
        return Err(usage(
            "the game is over: there is no round to act on".into(),
        ));
    }
    if reason.trim().is_empty() && !matches!(lever, Lever::Announce { .. }) {
        return Err(usage(
            "say why with --reason: it goes into the players' notice".into(),
        ));
    }
    let deadline = ctx.deadline(index);
    let paused = ctx.paused(index);
    let (kind, new_deadline, text) = check(ctx, &lever, index, deadline, paused, now)?;
    let action = Action {
        n: ctx.actions.iter().filter(|a| a.index == index).count() as u32 + 1,
        at: clock::rfc3339(now),
        kind,
        index,
        deadline: new_deadline.map(clock::rfc3339),
        was: new_deadline.and(deadline).map(clock::rfc3339),
        text,
        reason: reason.trim().to_owned(),
    };
    // Recorded before it takes effect: a run killed after this line leaves the action taken
    // (the tick reads the record), and at worst its notice unsent.
    host_record::append(&ctx.dir, round, &action)?;
    crate::tick_cache::clear_idle(ctx.dir.root())?;
    let mut plan = Plan::default();
    let mut report = TickReport::default();
    let mut mail = Mailer::new(ctx, &mut plan, &mut report, new_deadline.or(deadline));
    let mut done = Done {
        action: action.clone(),
        round,
        notice: None,
        queued: 0,
        unmailed: 0,
        mail: None,
    };
    let mut info = ctx.game_info(round, index, None);
    info.deadline = new_deadline.or(deadline).map(clock::human);
    info.paused = action.kind == Kind::Pause;
    if action.kind == Kind::Remind {
        let renderer = ctx.renderer()?;
        let received = received(ctx, round)?;
        let d = deadline.expect("checked: the round has a deadline");
        remind_all::<G>(
            &renderer,
            &mut mail,
            &info,
            state,
            &received,
            (now, d, &action),
        )?;
    } else {
        let left = paused
            .or(Some(now))
            .zip(deadline)
            .map(|(p, d)| d.duration_since(p));
        let context = HostContext {
            game: &info,
            kind: action.kind.name(),
            heading: heading(&action, &info),
            deadline: new_deadline.map(clock::human),
            was: action
                .was
                .as_deref()
                .and_then(|w| clock::parse_instant(w).ok())
                .map(clock::human),
            left: (action.kind == Kind::Pause)
                .then_some(left)
                .flatten()
                .filter(|l| l.is_positive())
                .map(|l| {
                    clock::relative(now, now + l)
                        .trim_start_matches("in ")
                        .to_owned()
                }),
            text: action.text.as_deref(),
            reason: &action.reason,
        };
        let body = ctx.renderer()?.render(Template::Host, &context)?;
        let path = ctx
            .dir
            .notices(round)
            .join(format!("{}-{}.txt", action.n, action.kind.name()));
        mail.plan.dir(ctx.dir.notices(round));
        mail.plan.file(path.clone(), body.clone());
        notify_all::<G>(
            &mut mail,
            state,
            &action,
            round,
            &context.heading,
            &body,
            now,
        )?;
        done.notice = Some(path);
    }
    done.queued = mail.report.queued.len();
    done.unmailed = mail.report.unmailed.len();
    plan.commit()?;
    if send && let Some(sender) = Sender::new(&ctx.config.mail, &ctx.secrets)? {
        done.mail = Some(send_outbox(&ctx.dir, &sender)?);
    }
    Ok(done)
}

/// Whether the lever can be pulled now; what it records (its kind, the round's new deadline,
/// an announcement's text).
fn check(
    ctx: &GameContext,
    lever: &Lever,
    index: u32,
    deadline: Option<Timestamp>,
    paused: Option<Timestamp>,
    now: Timestamp,
) -> Result<(Kind, Option<Timestamp>, Option<String>)> {
    let usage = |m: String| Err(Error::Usage(m));
    let human = |t: Timestamp| clock::human(t);
    match lever {
        Lever::Extend(how) => {
            let new = match (how, deadline) {
                (Extension::By(by), Some(d)) => d
                    .checked_add(*by)
                    .map_err(|e| Error::Usage(e.to_string()))?,
                (Extension::By(_), None) => {
                    return usage(
                        "the round has no deadline to extend: give one with --to TIME".into(),
                    );
                }
                (Extension::To(to), _) => *to,
            };
            if new <= now {
                return usage(format!(
                    "{} is not after now ({}): a deadline moves into the future",
                    human(new),
                    human(now)
                ));
            }
            if let Some(d) = deadline.filter(|d| new <= *d) {
                return usage(format!(
                    "{} is not after the round's deadline, {}: extend moves a deadline later",
                    human(new),
                    human(d)
                ));
            }
            // a `deadlines` list keeps its dates: an extension may not pass the next one
            let listed = ctx
                .config
                .schedule
                .as_ref()
                .filter(|s| !s.deadlines.is_empty())
                .and_then(|s| s.deadlines.get(index as usize + 1).copied());
            if let Some(next) = listed.filter(|n| new >= *n) {
                return usage(format!(
                    "{} is not before the next round's deadline ({}), which game.toml's `deadlines` list fixes",
                    human(new),
                    human(next)
                ));
            }
            Ok((Kind::Extend, Some(new), None))
        }
        Lever::Pause => match paused {
            Some(at) => usage(format!("the game is already paused (since {})", human(at))),
            None => Ok((Kind::Pause, None, None)),
        },
        Lever::Resume { to } => {
            let Some(at) = paused else {
                return usage("the game is not paused".into());
            };
            let new = match (to, deadline) {
                (Some(to), _) if *to <= now => {
                    return usage(format!("{} is not after now ({})", human(*to), human(now)));
                }
                (Some(to), _) => Some(*to),
                // the time that was left when it paused, from now
                (None, Some(d)) => Some(now + d.duration_since(at).max(SignedDuration::ZERO)),
                (None, None) => None,
            };
            Ok((Kind::Resume, new, None))
        }
        Lever::Announce { text } => {
            if text.trim().is_empty() {
                return usage("the announcement is empty".into());
            }
            if text.len() > host_record::MAX_TEXT {
                return usage(format!(
                    "the announcement is {} bytes; at most {} (it is mail)",
                    text.len(),
                    host_record::MAX_TEXT
                ));
            }
            Ok((Kind::Announce, None, Some(text.trim_end().to_owned())))
        }
        Lever::Remind => {
            if let Some(at) = paused {
                return usage(format!(
                    "the game is paused (since {}): resume it first",
                    human(at)
                ));
            }
            match deadline {
                None => usage("the round has no deadline to remind players of".into()),
                Some(d) if d <= now => usage(format!(
                    "the deadline ({}) has passed: the next tick resolves the round",
                    human(d)
                )),
                Some(_) => Ok((Kind::Remind, None, None)),
            }
        }
    }
}

/// After the title on a notice's first line, and in its subject.
fn heading(action: &Action, info: &crate::render::GameInfo) -> String {
    let round = info.round;
    match action.kind {
        Kind::Extend => format!(
            "round {round}'s deadline moved to {}",
            info.deadline.as_deref().unwrap_or("?")
        ),
        Kind::Pause => "the game is paused".to_owned(),
        Kind::Resume => match &info.deadline {
            Some(d) => format!("the game resumes; round {round} closes {d}"),
            None => "the game resumes".to_owned(),
        },
        Kind::Announce => "a message from the host".to_owned(),
        Kind::Remind => format!("round {round}: a reminder"),
    }
}

/// The notice to every player of the game, by the announcements' Bcc batches (or the list),
/// and one file for the chat channel.
fn notify_all<G: Game>(
    mail: &mut Mailer<'_>,
    state: &G::State,
    action: &Action,
    round: u32,
    heading: &str,
    body: &str,
    now: Timestamp,
) -> Result<()> {
    let ctx = mail.ctx;
    let subject = format!("{}: {heading}", ctx.config.title);
    let notice = |to: Recipient| Mail {
        round,
        kind: MailKind::Host,
        to,
        seq: action.n,
        subject: subject.clone(),
        body: body.to_owned(),
        date: now,
        in_reply_to: None,
    };
    let config = &ctx.config;
    if config.mail.transport.queues() {
        let recipients = match config.mail.public_to {
            Some(_) => vec![Recipient::List],
            None => {
                let mut mailed = Vec::new();
                for id in G::roster(state) {
                    match config.player(id) {
                        Some(p) if p.email.is_some() => mailed.push(id.clone()),
                        _ if crate::mail::chat::by_chat(config, id) => {}
                        _ => {
                            mail.report.unmailed.insert(id.clone());
                        }
                    }
                }
                crate::mail::outbox::batches(&mailed, config.mail.bcc_batch)
            }
        };
        for to in recipients {
            mail.queue(notice(to))?;
        }
    }
    if crate::mail::chat::any(config) {
        mail.queue_chat(crate::mail::chat::PUBLIC, &notice(Recipient::List))?;
    }
    Ok(())
}

/// The round's receipts as the tick's receive stage would hand them on, to remind from.
fn received(ctx: &GameContext, round: u32) -> Result<Receiving> {
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
fn remind_all<G: Game>(
    renderer: &crate::render::Renderer,
    mail: &mut Mailer<'_>,
    info: &crate::render::GameInfo,
    state: &G::State,
    received: &Receiving,
    (now, deadline, action): (Timestamp, Timestamp, &Action),
) -> Result<usize> {
    let expected = G::expected(state);
    let left = clock::relative(now, deadline);
    super::answer::remind_players::<G>(
        renderer,
        mail,
        info,
        state,
        &expected,
        received,
        (now, left, 100 + action.n),
    )
}
