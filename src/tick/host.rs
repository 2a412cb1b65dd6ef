//! The host's levers on the round being played (spec README, "Host actions"): `extend`,
//! `pause`, `resume`, `announce`, `remind`. Each is checked, then recorded in
//! `rounds/NNN/host.toml` (committed on its own, before anything it causes), then its notice is
//! written to `rounds/NNN/notices/<n>-<kind>.txt` and mailed to every player like an
//! announcement (a reminder goes to each player without a valid version instead), and the send
//! step runs. What it changes for the tick (the deadline, whether the round may resolve) the tick
//! reads back from the record (`GameContext::deadline`, `paused`).

mod remind;

use super::TickReport;
use super::queue::Mailer;
use crate::clock;
use crate::context::{GameContext, Known};
use crate::error::{Error, Result};
use crate::games::Game;
use crate::host_record::{self, Action, Kind};
use crate::mail::{Mail, MailKind, Recipient, SendReport, Sender, send_outbox};
use crate::plan::Plan;
use crate::render::{HostContext, Kind as Template};
use jiff::{SignedDuration, Timestamp};

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
    /// A player leaves the game (the game's ruling for a seat that leaves applies when the
    /// round resolves).
    Withdraw {
        player: String,
    },
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
    let file = set_up::<G>(ctx)?;
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
    let player = match &lever {
        Lever::Withdraw { player } => Some(withdrawable::<G>(ctx, state, player)?),
        _ => None,
    };
    let (kind, new_deadline, text) = check(ctx, &lever, index, deadline, paused, now)?;
    // what a killed run left half-written: under the lock, nobody else's
    ctx.dir.sweep_temp(&[round], false)?;
    let action = Action {
        deadline: new_deadline.map(clock::rfc3339),
        was: new_deadline.and(deadline).map(clock::rfc3339),
        text,
        player,
        ..Action::next(&ctx.actions, kind, index, now, reason)
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
    // what a killed earlier action left unpublished goes first
    finish_notices::<G>(&mut mail, state)?;
    let mut info = ctx.game_info(round, index, None);
    info.deadline_at = new_deadline.or(deadline);
    info.deadline = info
        .deadline_at
        .map(|t| clock::human_in(t, ctx.config.zone()));
    info.paused = action.kind == Kind::Pause;
    if action.kind == Kind::Remind {
        let renderer = ctx.renderer()?;
        let received = remind::received(ctx, round)?;
        let d = deadline.expect("checked: the round has a deadline");
        remind::remind_all::<G>(
            &renderer,
            &mut mail,
            &info,
            state,
            &received,
            (now, d, &action),
        )?;
    } else {
        let notice = Publish {
            action: &action,
            info: &info,
            new_deadline,
            deadline,
            paused,
            now,
        };
        done.notice = Some(publish::<G>(&mut mail, state, round, &notice)?);
    }
    done.queued = mail.report.queued.len();
    done.unmailed = mail.report.unmailed.len();
    plan.commit()?;
    if send && let Some(sender) = Sender::new(&ctx.config.mail, &ctx.secrets)? {
        done.mail = Some(send_outbox(&ctx.dir, &sender)?);
    }
    Ok(done)
}

/// What a notice is written from.
struct Publish<'a> {
    action: &'a Action,
    /// The game's view of the round, in the game's zone, with the deadline from now on.
    info: &'a crate::render::GameInfo,
    new_deadline: Option<Timestamp>,
    deadline: Option<Timestamp>,
    paused: Option<Timestamp>,
    now: Timestamp,
}

/// The action's public notice, written to `rounds/NNN/notices/` and mailed to every player in
/// the time zone they read; returns the file's path.
fn publish<G: Game>(
    mail: &mut Mailer<'_>,
    state: &G::State,
    round: u32,
    notice: &Publish<'_>,
) -> Result<std::path::PathBuf> {
    let ctx = mail.ctx;
    let Publish {
        action,
        info,
        new_deadline,
        deadline,
        paused,
        now,
    } = *notice;
    let left = paused
        .or(Some(now))
        .zip(deadline)
        .map(|(p, d)| d.duration_since(p))
        .filter(|l| l.is_positive())
        .map(|l| {
            clock::relative(now, now + l)
                .trim_start_matches("in ")
                .to_owned()
        });
    let renderer = ctx.renderer()?;
    // the notice as players in `info.zone` read it (the game's zone: the public file)
    let render = |info: &crate::render::GameInfo| -> Result<(String, String)> {
        let heading = heading(action, info, who_leaves(ctx, action));
        let human = |t: Option<Timestamp>| t.map(|t| clock::human_in(t, info.zone.as_ref()));
        let context = HostContext {
            game: info,
            kind: action.kind.name(),
            heading: heading.clone(),
            deadline: human(new_deadline),
            was: human(
                action
                    .was
                    .as_deref()
                    .and_then(|w| clock::parse_instant(w).ok()),
            ),
            left: (action.kind == Kind::Pause).then(|| left.clone()).flatten(),
            text: action.text.as_deref(),
            reason: &action.reason,
            player: who_leaves(ctx, action),
            newcomer: action.person.as_ref().map(|p| p.name.clone()),
            seat_leaves: G::SEAT_LEAVES,
        };
        Ok((heading, renderer.render(Template::Host, &context)?))
    };
    let (heading, body) = render(info)?;
    let path = notice_path(ctx, round, action);
    let public = Notice {
        round,
        n: action.n,
        heading: &heading,
        body: &body,
        now,
    };
    let mut batch = 0;
    for (zone, players) in by_zone::<G>(ctx, state, action) {
        batch = match zone {
            None => notify(mail, &players, &public, batch)?,
            Some(zone) => {
                let (heading, body) = render(&info.in_zone(Some(zone)))?;
                let notice = Notice {
                    heading: &heading,
                    body: &body,
                    ..public
                };
                notify(mail, &players, &notice, batch)?
            }
        };
    }
    if crate::mail::chat::any(&ctx.config) {
        mail.queue_chat(crate::mail::chat::PUBLIC, &public.to(ctx, Recipient::List))?;
    }
    if action.kind == Kind::Substitute {
        super::substitute::welcome::<G>(mail, &renderer, state, round, action)?;
    }
    // written last: a run killed before it publishes the notice again (`finish_notices`)
    mail.plan.dir(ctx.dir.notices(round));
    mail.plan.file(path.clone(), body);
    Ok(path)
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
            let new = extension(ctx, *how, index, deadline, now)?;
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
        Lever::Withdraw { .. } => Ok((Kind::Withdraw, None, None)),
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

/// The player `name` names, if they play this game and have not left it; `gone` says what
/// having left means for the command ("nothing is entered for them").
pub(super) fn in_the_game(
    ctx: &GameContext,
    name: &str,
    gone: &str,
) -> Result<crate::player_id::PlayerId> {
    let id = ctx
        .config
        .known_player(name)
        .ok_or_else(|| Error::Usage(ctx.config.not_a_player(name)))?;
    match ctx.left(&id) {
        Some(left) => Err(Error::Usage(format!(
            "{id} has left the game ({}): {gone}",
            left.reason
        ))),
        None => Ok(id),
    }
}

/// The player a withdrawal names, if they can leave now: a player of the game who has not left,
/// and whom the game's ruling lets go (never the last one).
fn withdrawable<G: Game>(
    ctx: &GameContext,
    state: &G::State,
    player: &str,
) -> Result<crate::player_id::PlayerId> {
    let usage = |m: String| Err(Error::Usage(m));
    let Some(id) = ctx.config.known_player(player) else {
        return usage(ctx.config.not_a_player(player));
    };
    if let Some(left) = ctx.left(&id) {
        return usage(format!("{id} has already left the game ({})", left.reason));
    }
    let index = G::rounds_played(state);
    let mut after = state.clone();
    for (gone, _) in ctx.withdrawals(index) {
        // those already leaving this round leave first
        let _ = G::withdraw(&mut after, gone);
    }
    if let Err(why) = G::withdraw(&mut after, &id) {
        return usage(format!("{id} cannot leave the game now: {why}"));
    }
    Ok(id)
}

/// The round's deadline after an extension: later than now and than the current one, and
/// before the next deadline of a `deadlines` list.
fn extension(
    ctx: &GameContext,
    how: Extension,
    index: u32,
    deadline: Option<Timestamp>,
    now: Timestamp,
) -> Result<Timestamp> {
    let usage = |m: String| Err(Error::Usage(m));
    let human = clock::human;
    let new = match (how, deadline) {
        (Extension::By(by), Some(d)) => {
            d.checked_add(by).map_err(|e| Error::Usage(e.to_string()))?
        }
        (Extension::By(_), None) => {
            return usage("the round has no deadline to extend: give one with --to TIME".into());
        }
        (Extension::To(to), _) => to,
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
    Ok(new)
}

/// Who leaves a seat: the player who withdraws, or the person a substitute replaces.
fn who_leaves(ctx: &GameContext, action: &Action) -> Option<String> {
    match (&action.left, &action.player) {
        (Some(left), _) => Some(left.name.clone()),
        (None, Some(id)) if action.kind == Kind::Withdraw => {
            Some(ctx.name_at(id, Some(action.index)))
        }
        _ => None,
    }
}

/// After the title on a notice's first line, and in its subject.
fn heading(action: &Action, info: &crate::render::GameInfo, leaves: Option<String>) -> String {
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
        Kind::Enter => format!("round {round}: a version entered by the host"),
        Kind::Undo => format!("round {round}'s results are withdrawn"),
        Kind::Withdraw => format!(
            "{} has left the game",
            leaves.as_deref().unwrap_or("a player")
        ),
        Kind::Substitute => format!(
            "{} takes over {}'s seat",
            action
                .person
                .as_ref()
                .map_or("a new player", |p| p.name.as_str()),
            leaves.as_deref().unwrap_or("a player")
        ),
    }
}

/// A notice as mailed.
struct Notice<'a> {
    round: u32,
    n: u32,
    heading: &'a str,
    body: &'a str,
    now: Timestamp,
}

impl Notice<'_> {
    fn to(&self, ctx: &GameContext, to: Recipient) -> Mail {
        Mail {
            round: self.round,
            kind: MailKind::Host,
            to,
            seq: self.n,
            subject: format!("{}: {}", ctx.config.title, self.heading),
            body: self.body.to_owned(),
            date: self.now,
            in_reply_to: None,
        }
    }
}

/// The game's players in roster order, grouped by the zone they read times in
/// (`GameConfig::by_zone`), but those who left before this action (the one leaving now reads
/// its own notice).
fn by_zone<'s, G: Game>(
    ctx: &'s GameContext,
    state: &'s G::State,
    action: &Action,
) -> Vec<(
    Option<&'s jiff::tz::TimeZone>,
    Vec<crate::player_id::PlayerId>,
)> {
    let gone = |id: &crate::player_id::PlayerId| {
        ctx.left(id)
            .is_some_and(|a| (a.index, a.n) != (action.index, action.n))
    };
    let roster = G::roster(state).into_iter().filter(|id| !gone(id)).cloned();
    ctx.config.by_zone(roster)
}

/// The notice to `players` by the announcements' Bcc batches (numbered on from `batch`), or to
/// the list once; returns the last batch number used.
fn notify(
    mail: &mut Mailer<'_>,
    players: &[crate::player_id::PlayerId],
    notice: &Notice<'_>,
    mut batch: u32,
) -> Result<u32> {
    let ctx = mail.ctx;
    let config = &ctx.config;
    if !config.mail.transport.queues() {
        return Ok(batch);
    }
    if config.mail.public_to.is_some() {
        if batch == 0 {
            mail.queue(notice.to(ctx, Recipient::List))?;
        }
        return Ok(batch + 1);
    }
    let mut mailed = Vec::new();
    for id in players {
        match config.player(id) {
            Some(p) if p.email.is_some() => mailed.push(id.clone()),
            _ if crate::mail::chat::by_chat(config, id) => {}
            _ => {
                mail.report.unmailed.insert(id.clone());
            }
        }
    }
    for to in crate::mail::outbox::batches(&mailed, config.mail.bcc_batch, batch + 1) {
        batch += 1;
        mail.queue(notice.to(ctx, to))?;
    }
    Ok(batch)
}

/// The notices of this round's actions that a killed run recorded but did not publish (its
/// notice file is written last): published now, from the record alone, as they would have been.
pub(super) fn finish_notices<G: Game>(mail: &mut Mailer<'_>, state: &G::State) -> Result<usize> {
    let ctx = mail.ctx;
    let (round, index) = (G::round(state), G::rounds_played(state));
    let missing: Vec<Action> = ctx
        .actions
        .iter()
        .filter(|a| a.index == index && has_notice(a.kind))
        .filter(|a| !notice_path(ctx, round, a).is_file())
        .cloned()
        .collect();
    for action in &missing {
        let before = ctx.deadline_known(index, Known::Until(index, action.n - 1));
        let after = ctx.deadline_known(index, Known::Until(index, action.n));
        let mut info = ctx.game_info(round, index, None);
        info.deadline_at = after;
        info.deadline = after.map(|t| clock::human_in(t, ctx.config.zone()));
        info.paused = action.kind == Kind::Pause;
        let notice = Publish {
            action,
            info: &info,
            new_deadline: action.deadline(),
            deadline: before,
            paused: None,
            now: action.at(),
        };
        publish::<G>(mail, state, round, &notice)?;
    }
    remind::finish::<G>(mail, state)?;
    Ok(missing.len())
}

/// Whether an action of this kind has a public notice.
fn has_notice(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Extend
            | Kind::Pause
            | Kind::Resume
            | Kind::Announce
            | Kind::Undo
            | Kind::Withdraw
            | Kind::Substitute
    )
}

/// `rounds/NNN/notices/<n>-<kind>.txt`.
pub(super) fn notice_path(ctx: &GameContext, round: u32, action: &Action) -> std::path::PathBuf {
    ctx.dir
        .notices(round)
        .join(format!("{}-{}.txt", action.n, action.kind.name()))
}

/// Publishes what the round's recorded actions have not published yet (`action` among them),
/// as a tick would, and runs the send step: for a command that changed game.toml after
/// recording its action (`substitute`), with the game loaded again.
pub(super) fn publish_recorded<G: Game>(
    ctx: &GameContext,
    action: &Action,
    round: u32,
    send: bool,
) -> Result<Done> {
    let file = set_up::<G>(ctx)?;
    let mut plan = Plan::default();
    let mut report = TickReport::default();
    let deadline = ctx.deadline(G::rounds_played(&file.game));
    let mut mail = Mailer::new(ctx, &mut plan, &mut report, deadline);
    finish_notices::<G>(&mut mail, &file.game)?;
    let mut done = Done {
        action: action.clone(),
        round,
        notice: Some(notice_path(ctx, round, action)),
        queued: mail.report.queued.len(),
        unmailed: mail.report.unmailed.len(),
        mail: None,
    };
    plan.commit()?;
    if send && let Some(sender) = Sender::new(&ctx.config.mail, &ctx.secrets)? {
        done.mail = Some(send_outbox(&ctx.dir, &sender)?);
    }
    Ok(done)
}

/// The game's state for a lever: one needs a game the first tick has set up.
pub(super) fn set_up<G: Game>(ctx: &GameContext) -> Result<crate::context::StateFile<G::State>> {
    ctx.load_state::<G>()?.ok_or_else(|| {
        Error::Usage("the game is not set up yet: run `adjudicate round` first".into())
    })
}
