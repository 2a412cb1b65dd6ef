//! The game-independent tick, `adjudicate round GAME_DIR` (spec README, "The round lifecycle"):
//! set up if needed, receive new versions (archive, receipt, acknowledgement), apply instant
//! actions, resolve when due, render, queue mail, write state.toml last, send.
//!
//! Invariants: all writes go through a `Plan` committed in order with state.toml last; every
//! message and file is derived from the archive and the state, never from the clock except the
//! receipt time and a message's Date, so a repeated or interrupted tick converges to the same bytes;
//! a tick with nothing new plans nothing.

use crate::clock;
use crate::context::{GameContext, StateFile};
use crate::doc::Doc;
use crate::error::{Error, Result};
use crate::games::{Game, Outcome, Setup};
use crate::mail::{Mail, MailKind, Recipient, SendReport, Sender, format_message, send_outbox};
use crate::plan::Plan;
use crate::player_id::PlayerId;
use crate::problem::Problem;
use crate::receipts::{Receipt, Receipts};
use crate::render::{
    AckContext, GameInfo, Kind, LateContext, NoticeContext, ReminderContext, Renderer,
};
use crate::report::ResultFile;
use crate::submission::{screen, sha256_hex};
use jiff::Timestamp;
use std::path::PathBuf;

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
    let renderer = ctx.renderer()?;
    let mut plan = Plan::default();
    let mut report = TickReport::default();
    let loaded = ctx.load_state::<G>()?;
    let mut file = match &loaded {
        Some(f) => f.clone(),
        None => {
            report.set_up = true;
            StateFile::new(ctx, 0, setup::<G>(ctx)?)
        }
    };
    report.round = G::round(&file.game);
    report.over = G::is_over(&file.game);
    if !opts.dry_run {
        // A killed tick wrote only into round 0 (the opening) and the round being played.
        report.swept = ctx.dir.sweep_temp(&[0, report.round])?;
    }
    if report.set_up
        && let Some(opening) = G::opening(&file.game)
    {
        let result = ResultFile::opening(ctx, G::round(&file.game), opening);
        let mut mail = Mailer {
            ctx,
            plan: &mut plan,
            report: &mut report,
            deadline: None,
            known: None,
        };
        publish::<G>(&mut mail, &renderer, &result, true, opts.now)?;
    }
    // Taken before anything is read: a file changed while this tick runs makes the next one full.
    let idle_key = (!opts.dry_run)
        .then(|| crate::tick_cache::key(ctx.dir.root(), report.round))
        .flatten();
    let mut seen = crate::tick_cache::Seen::load(ctx.dir.root(), report.round);
    if !report.over {
        play_round::<G>(
            ctx,
            opts,
            &renderer,
            &mut plan,
            &mut file,
            &mut report,
            &mut seen,
        )?;
    }
    // state.toml last: everything it refers to is on disk before it; written only when the
    // state changed (so its bytes did too).
    if loaded.as_ref() != Some(&file) {
        let text = toml::to_string(&file).expect("state serializes");
        plan.durable_file(ctx.dir.state_toml(), text);
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
    if !opts.no_send
        && let Some(sender) = Sender::new(&ctx.config.mail, &ctx.secrets)?
    {
        report.mail = Some(send_outbox(&ctx.dir, &sender)?);
    }
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
            },
        );
    }
    Ok(report)
}

pub fn setup<G: Game>(ctx: &GameContext) -> Result<G::State> {
    let setup = Setup {
        players: &ctx.config.players,
        options: &ctx.config.options,
        seed: ctx.config.seed,
    };
    G::setup(&setup).map_err(|e| Error::invalid(ctx.dir.game_toml(), e.key, e.message))
}

fn play_round<G: Game>(
    ctx: &GameContext,
    opts: &TickOptions,
    renderer: &Renderer,
    plan: &mut Plan,
    file: &mut StateFile<G::State>,
    report: &mut TickReport,
    seen: &mut crate::tick_cache::Seen,
) -> Result<()> {
    let round = G::round(&file.game);
    let index = G::rounds_played(&file.game);
    let info = ctx.game_info(round, index, None);
    report.strays.extend(closed_round_files(ctx, round));
    plan.dir(ctx.dir.submissions(round));
    let receipts_path = ctx.dir.receipts(round);
    let mut receipts = Receipts::load(&ctx.dir, &ctx.config, round)?;
    if file.receipts_applied > receipts.list.len() {
        return Err(Error::invalid(
            ctx.dir.state_toml(),
            "receipts_applied",
            format!(
                "is {} but {} holds {} receipts",
                file.receipts_applied,
                receipts_path.display(),
                receipts.list.len()
            ),
        ));
    }
    check_applied::<G>(ctx, &file.game, &receipts.list[..file.receipts_applied])?;
    let deadline = ctx.deadline(index);
    let mut mail = Mailer {
        ctx,
        plan,
        report,
        deadline,
        known: None,
    };
    // Where ingest got each file from (mail, chat): to record it, to date it by when it reached
    // the host, to reply to the message, and to tell the player what text was not read.
    let origins = crate::ingest::read_origins(ctx, round)?;

    // Acknowledgements wait until the tick knows whether it resolves the round: one written by
    // the tick that closes the round says so, instead of inviting new versions.
    let mut pending: Vec<Pending> = Vec::new();
    // A previous tick may have written receipts and died before state.toml: apply the rest.
    for seq in file.receipts_applied..receipts.list.len() {
        let receipt = receipts.list[seq].clone();
        let outcome = reapply::<G>(ctx, &mut file.game, round, &receipt)?;
        pending.push(Pending {
            seq,
            outcome,
            origin: origin_of(&origins, &receipt).cloned(),
            receipt,
        });
    }

    // The latest receipt of each player, by position: one lookup per file, whatever the size.
    let mut latest: std::collections::BTreeMap<PlayerId, usize> = receipts
        .list
        .iter()
        .enumerate()
        .map(|(i, r)| (r.player.clone(), i))
        .collect();
    // New versions are received in the order they reached the host (ties: player id), so an
    // instant action sees every version that reached the host before it, whatever the ids.
    let mut arrivals = Vec::new();
    for entry in ctx.dir.submission_entries(round)? {
        let (player, path) = match entry {
            crate::game_dir::SubmissionEntry::Stray { name, reason } => {
                mail.report
                    .strays
                    .push(format!("submissions/{name}: {reason}; ignored"));
                continue;
            }
            crate::game_dir::SubmissionEntry::File { player, path } => (player, path),
        };
        if ctx.config.player(&player).is_none() {
            mail.report.strays.push(format!(
                "submissions/{player}.toml: no player `{player}` in game.toml; ignored"
            ));
            continue;
        }
        // Hashed only if its size, mtime or inode changed since a tick last hashed it.
        let (sha256, bytes) = seen
            .hash(&format!("{player}.toml"), &path)
            .map_err(|e| Error::io(&path, e))?;
        if latest
            .get(&player)
            .is_some_and(|i| receipts.list[*i].sha256 == sha256)
        {
            continue;
        }
        let bytes = match bytes {
            Some(bytes) => bytes,
            None => std::fs::read(&path).map_err(|e| Error::io(&path, e))?,
        };
        // Where ingest got the file from, if it is still the file ingest wrote.
        let origin = origins.origin.get(&player).filter(|o| o.sha256 == sha256);
        // A file put in by hand reaches the host when a tick first sees it.
        let reached = origin
            .and_then(|o| Timestamp::from_second(o.reached).ok())
            .unwrap_or(opts.now);
        arrivals.push((reached, player, bytes, sha256, origin));
    }
    arrivals.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let mut new_receipts = false;
    for (reached, player, bytes, sha256, origin) in arrivals {
        let last = latest.get(&player).map(|i| &receipts.list[*i]);
        if let Some(i) = latest.get(&player) {
            // A new version: the one it follows must be what its receipt says, or a hand edit
            // of receipts.toml would pass for a version the player never sent.
            receipts.list[*i].verify(&ctx.dir, round, *i)?;
        }
        let n = last.map_or(1, |r| r.n + 1);
        let screened = screen(
            &bytes,
            ctx.secrets.tokens.get(&player).map(String::as_str),
            &ctx.secrets.redactor,
        );
        // Spec README, "When a version counts": after the deadline, archived but never applied.
        let late = deadline.filter(|d| reached > *d);
        let refused = screened.doc.is_err() || late.is_some();
        let mut outcome = match (&screened.doc, late) {
            (_, Some(d)) => {
                let (at, deadline) = clock::human_apart(reached, d);
                Outcome::refused(Problem::general(format!(
                    "reached the host {at}, after the deadline ({deadline}); not used"
                )))
            }
            (Ok(doc), None) => G::receive(&mut file.game, &player, doc),
            (Err(problem), None) => Outcome::refused(problem.clone()),
        };
        if late.is_none() {
            finish::<G>(ctx, &file.game, &player, &mut outcome);
        }
        let archived = (screened.archive != bytes).then(|| sha256_hex(&screened.archive));
        mail.plan
            .file(ctx.dir.received(round, &player, n), screened.archive);
        let receipt = Receipt {
            player: player.clone(),
            n,
            at: clock::rfc3339(opts.now),
            reached: Some(clock::rfc3339(reached)),
            sha256,
            archived,
            source: origin.map_or_else(|| "file".to_owned(), |o| o.source.clone()),
            message_id: origin.and_then(|o| o.message_id.clone()),
            valid: outcome.valid,
            problems: outcome.problems.iter().map(Problem::short).collect(),
            refused,
            late: late.is_some(),
        };
        mail.report.received.push(Received {
            player,
            n,
            valid: outcome.valid,
            late: receipt.late,
            problems: outcome.problems.len(),
        });
        pending.push(Pending {
            receipt: receipt.clone(),
            seq: receipts.list.len(),
            outcome,
            origin: origin.cloned(),
        });
        latest.insert(receipt.player.clone(), receipts.list.len());
        receipts.list.push(receipt);
        new_receipts = true;
    }
    if new_receipts {
        mail.plan.file(receipts_path, receipts.to_toml());
    }
    file.receipts_applied = receipts.list.len();

    let expected = G::expected(&file.game);
    mail.report.expected = expected.len();
    mail.report.valid = expected
        .iter()
        .filter(|p| G::has_valid(&file.game, p))
        .count();
    let deadline = ctx.deadline(index);
    mail.report.deadline = deadline;
    if let (Some(d), Some(before)) = (
        deadline,
        ctx.config.schedule.as_ref().and_then(|s| s.remind_before),
    ) {
        let from = d.checked_sub(before).unwrap_or(d);
        if opts.now >= from && opts.now < d {
            for player in expected.iter().filter(|p| !G::has_valid(&file.game, p)) {
                if !mail.mails(&Recipient::Player(player.clone())) {
                    continue;
                }
                let latest = latest.get(player).map(|i| &receipts.list[*i]);
                let context = ReminderContext {
                    game: &info,
                    player: ctx.player_info(player),
                    time_left: clock::relative(from, d),
                    unused: origins
                        .unused
                        .iter()
                        .filter(|u| u.player.as_ref() == Some(player))
                        .count(),
                    version: latest.map(|r| r.n),
                    problems: latest.map_or(&[][..], |r| &r.problems),
                    if_not_fixed: G::if_not_fixed(&file.game, player),
                    skeleton: latest_skeleton(ctx, round, player),
                };
                // Dated at the moment reminders are due, so a repeated tick writes the same bytes.
                mail.queue(Mail {
                    round,
                    kind: MailKind::Reminder,
                    to: Recipient::Player(player.clone()),
                    seq: 0,
                    subject: format!("{}: round {round} closes {}", info.title, context.time_left),
                    body: renderer.render(Kind::Reminder, &context)?,
                    date: from,
                    in_reply_to: None,
                })?;
            }
        }
    }
    let early = ctx.config.schedule.as_ref().is_some_and(|s| s.early_close)
        && !expected.is_empty()
        && mail.report.valid == expected.len();
    // `grace`: a due round waits a little, so that mail fetched every few minutes still counts.
    let grace = ctx.config.schedule.as_ref().and_then(|s| s.grace);
    let due_at = deadline.map(|d| grace.map_or(d, |g| d.saturating_add(g).unwrap_or(d)));
    let due = due_at.is_some_and(|d| opts.now >= d);
    if !(opts.force || early || due) {
        let remind_from = deadline.zip(ctx.config.schedule.as_ref().and_then(|s| s.remind_before));
        let remind_from = remind_from.map(|(d, before)| d.checked_sub(before).unwrap_or(d));
        mail.report.until = [remind_from.filter(|r| opts.now < *r), due_at]
            .into_iter()
            .flatten()
            .min();
        return mail.acknowledge_all(renderer, &info, pending, false);
    }
    mail.acknowledge_all(renderer, &info, pending, true)?;

    // Reports are dated at the deadline that made them due (so a tick that is re-run after a crash
    // writes the same bytes); a forced or early resolution is dated now.
    let dated = deadline.filter(|d| opts.now >= *d).unwrap_or(opts.now);
    let resolution = G::resolve(&file.game, ctx.config.seed);
    let next_round = (!G::is_over(&resolution.state)).then(|| G::round(&resolution.state));
    // The round closes at `dated`: the next round takes every version that reaches the host
    // after it, even before this round's scheduled deadline (an early close, `--force`).
    let result = ResultFile::new(
        ctx,
        round,
        index,
        next_round,
        Some(dated),
        resolution.result,
    );
    publish::<G>(&mut mail, renderer, &result, false, dated)?;
    if let Some(next) = next_round {
        mail.plan.dir(ctx.dir.submissions(next));
    }
    *file = StateFile::new(ctx, 0, resolution.state);
    file.opened = Some(dated.as_second());
    mail.report.resolved = Some(round);
    Ok(())
}

/// Writes a result and its reports into its folder (`ResultFile::folder`) and queues them as
/// mail: an opening as "the game begins" and a welcome, a round as its results and reports.
fn publish<G: Game>(
    mail: &mut Mailer<'_>,
    renderer: &Renderer,
    result: &ResultFile,
    opening: bool,
    dated: Timestamp,
) -> Result<()> {
    let ctx = mail.ctx;
    let round = result.meta.round;
    let title = &ctx.config.title;
    let (public_subject, private_subject) = if opening {
        (
            format!("{title}: the game begins"),
            format!("{title}: welcome, and your first submission"),
        )
    } else {
        (
            format!("{title}: round {round} results"),
            format!("{title}: round {round}, your private report"),
        )
    };
    // An opening kept apart from round 0 is mailed under its own names, so that round 0's own
    // results are queued too.
    let (public_kind, private_kind) = if result.meta.opening {
        (MailKind::Opening, MailKind::Welcome)
    } else {
        (MailKind::Public, MailKind::Private)
    };
    let reports = result.render::<G>(ctx, renderer)?;
    let folder = result.folder(&ctx.dir);
    mail.plan.file(folder.join("result.toml"), result.to_toml());
    mail.plan
        .file(folder.join("public.txt"), reports.public.clone());
    // The announcement is one message (to the list, or by Bcc in batches), never one per player.
    let public_to = match ctx.config.mail.public_to {
        Some(_) => vec![Recipient::List],
        None => bcc_batches(mail, reports.private.keys()),
    };
    for to in public_to {
        mail.queue(Mail {
            round,
            kind: public_kind,
            to,
            seq: 0,
            subject: public_subject.clone(),
            body: reports.public.clone(),
            date: dated,
            in_reply_to: None,
        })?;
    }
    // Chat players read the announcement in the channel: one file for the host to post.
    if crate::mail::chat::any(&ctx.config) {
        let announcement = Mail {
            round,
            kind: public_kind,
            to: Recipient::List,
            seq: 0,
            subject: public_subject.clone(),
            body: reports.public.clone(),
            date: dated,
            in_reply_to: None,
        };
        mail.queue_chat(crate::mail::chat::PUBLIC, &announcement)?;
    }
    // Each report moves into the plan (one copy in memory), after its message is formatted.
    let mailing = ctx.config.mail.transport.queues();
    for (player, text) in reports.private {
        if mailing || crate::mail::chat::by_chat(&ctx.config, &player) {
            mail.queue(Mail {
                round,
                kind: private_kind,
                to: Recipient::Player(player.clone()),
                seq: 0,
                subject: private_subject.clone(),
                body: text.clone(),
                date: dated,
                in_reply_to: None,
            })?;
        }
        mail.plan
            .file(folder.join("private").join(format!("{player}.txt")), text);
    }
    Ok(())
}

/// The players who get the announcement, in roster order, as batches of `mail.bcc_batch` (those
/// without an address are noted as unmailed).
fn bcc_batches<'p>(
    mail: &mut Mailer<'_>,
    players: impl Iterator<Item = &'p PlayerId>,
) -> Vec<Recipient> {
    let config = &mail.ctx.config;
    if !config.mail.transport.queues() {
        return Vec::new();
    }
    let mut mailed = Vec::new();
    for id in players {
        if config.player(id).is_some_and(|p| p.email.is_some()) {
            mailed.push(id.clone());
        } else {
            mail.report.unmailed.insert(id.clone());
        }
    }
    crate::mail::outbox::batches(&mailed, config.mail.bcc_batch)
}

/// A line for each file put into the previous round's `submissions/` after it was resolved:
/// nobody will read it, and the host should hear of it (the tick's summary, `status`).
pub fn closed_round_files(ctx: &GameContext, round: u32) -> Vec<String> {
    let Some(closed) = round.checked_sub(1) else {
        return Vec::new();
    };
    ctx.dir
        .late_files(closed)
        .into_iter()
        .map(|path| {
            format!(
                "{}: round {closed} is closed and this file came after it was resolved; it is not read (round {round}'s files go into {})",
                path.display(),
                ctx.dir.submissions(round).display()
            )
        })
        .collect()
}

/// The skeleton that ends `player`'s latest report (the one that asked for `round`: the previous
/// round's, or the opening's), copied into a reminder so that it too can be answered by editing.
pub(crate) fn latest_skeleton(ctx: &GameContext, round: u32, player: &PlayerId) -> Option<String> {
    let file = format!("{player}.txt");
    let reports = [
        round.checked_sub(1).map(|r| ctx.dir.private(r, player)),
        Some(ctx.dir.round(0).join("opening").join("private").join(&file)),
    ];
    let text = reports
        .into_iter()
        .flatten()
        .find_map(|p| std::fs::read_to_string(p).ok())?;
    let start = text.find("# Reply with this")?;
    let end = text[start..]
        .find("\n-- \n")
        .map_or(text.len(), |e| start + e + 1);
    Some(text[start..end].to_owned())
}

/// state.toml agrees with the receipts it says it applied: a player whose latest applied version
/// was valid has a valid choice on file. A hand edit that deleted it (a live table, a meadow)
/// would otherwise drop the player's submission without a word.
pub fn check_applied<G: Game>(
    ctx: &GameContext,
    state: &G::State,
    applied: &[Receipt],
) -> Result<()> {
    if !G::VALID_STAYS {
        return Ok(());
    }
    let mut latest: std::collections::BTreeMap<&PlayerId, &Receipt> =
        std::collections::BTreeMap::new();
    for r in applied.iter().filter(|r| !r.refused) {
        latest.insert(&r.player, r);
    }
    for (player, r) in latest {
        if r.valid && G::plays(state, player) && !G::has_valid(state, player) {
            return Err(Error::invalid(
                ctx.dir.state_toml(),
                format!("players.{player}"),
                format!(
                    "holds no valid choice for {player}, but their version {} of this round was valid and is applied (receipts.toml); restore state.toml from git (or remove it and run `adjudicate replay` to see what it should be)",
                    r.n
                ),
            ));
        }
    }
    Ok(())
}

/// Where ingest got a receipt's version from, if it did (the file is still the one it wrote).
fn origin_of<'a>(
    origins: &'a crate::ingest::Origins,
    receipt: &Receipt,
) -> Option<&'a crate::ingest::Origin> {
    origins
        .origin
        .get(&receipt.player)
        .filter(|o| o.sha256 == receipt.sha256)
}

/// A version received this tick, to acknowledge once the tick knows whether it resolves.
struct Pending {
    receipt: Receipt,
    /// Its position among the round's receipts.
    seq: usize,
    outcome: Outcome,
    origin: Option<crate::ingest::Origin>,
}

/// What every path that reads a version (tick, crash recovery, `replay`, `check`) does to the
/// rules' outcome, so all say the same: an invalid version of a player who plays this round says
/// what the deadline will do; no token is quoted back; the problems are in line order and
/// bounded (`Outcome::bound`).
pub fn finish<G: Game>(
    ctx: &GameContext,
    state: &G::State,
    player: &PlayerId,
    outcome: &mut Outcome,
) {
    outcome.plays = G::plays(state, player);
    if !outcome.valid && outcome.if_not_fixed.is_none() && outcome.plays {
        outcome.if_not_fixed = Some(G::if_not_fixed(state, player));
    }
    outcome.redact(&ctx.secrets.redactor);
    outcome.bound();
}

/// Applies an archived version again (crash recovery and `replay`): a refused version changes
/// nothing; any other is read from its `received/` copy and given to the rules.
pub fn reapply<G: Game>(
    ctx: &GameContext,
    state: &mut G::State,
    round: u32,
    receipt: &Receipt,
) -> Result<Outcome> {
    let mut outcome = if receipt.refused {
        Outcome::refused(Problem::general(receipt.problems.join("; ")))
    } else {
        let path = ctx.dir.received(round, &receipt.player, receipt.n);
        let text = crate::game_dir::read_string(&path)?;
        let doc = Doc::parse(&text)
            .map_err(|p| Error::invalid(&path, format!("{}", p.line.unwrap_or(0)), p.message))?;
        G::receive(state, &receipt.player, &doc)
    };
    finish::<G>(ctx, state, &receipt.player, &mut outcome);
    Ok(outcome)
}

/// How a version came (ingest's record of its message) and whether its tick closes the round.
#[derive(Clone, Copy)]
struct How<'a> {
    origin: Option<&'a crate::ingest::Origin>,
    closing: bool,
}

/// Queues messages into the plan: one .eml per message, unless it is already in `outbox/` or
/// `sent/`, and only for players with a mail address when mail is on.
struct Mailer<'a> {
    ctx: &'a GameContext,
    plan: &'a mut Plan,
    report: &'a mut TickReport,
    /// The deadline of the round being received, for the reply to a late version.
    deadline: Option<Timestamp>,
    /// The names in `outbox/`, `sent/` and `failed/`, listed once when first needed.
    known: Option<std::collections::HashSet<String>>,
}

impl Mailer<'_> {
    /// Acknowledges every version received this tick; `closing`: this tick resolves the round.
    fn acknowledge_all(
        &mut self,
        renderer: &Renderer,
        info: &GameInfo,
        pending: Vec<Pending>,
        closing: bool,
    ) -> Result<()> {
        for p in pending {
            let how = How {
                origin: p.origin.as_ref(),
                closing,
            };
            self.acknowledge(renderer, info, &p.receipt, p.seq, &p.outcome, how)?;
        }
        Ok(())
    }

    fn acknowledge(
        &mut self,
        renderer: &Renderer,
        info: &GameInfo,
        receipt: &Receipt,
        seq: usize,
        outcome: &Outcome,
        how: How<'_>,
    ) -> Result<()> {
        self.report.answers += outcome.answers.len() + outcome.notices.len();
        let at = clock::parse_instant(&receipt.at)
            .map_err(|m| Error::invalid(self.ctx.dir.receipts(info.round), "receipt.at", m))?;
        let sender = Recipient::Player(receipt.player.clone());
        if !self.mails(&sender) {
            return self.notices(renderer, info, seq, outcome, at);
        }
        if let (true, Some(deadline)) = (receipt.late, self.deadline) {
            let reached = clock::parse_instant(receipt.reached()).map_err(|m| {
                Error::invalid(self.ctx.dir.receipts(info.round), "receipt.reached", m)
            })?;
            let (arrived, deadline) = clock::human_apart(reached, deadline);
            let context = LateContext {
                game: info,
                round: info.round,
                arrived,
                deadline,
                resolved_first: false,
            };
            return self.queue(Mail {
                round: info.round,
                kind: MailKind::Ack,
                to: sender,
                seq: receipt.n,
                subject: format!(
                    "{}: round {}, your version {} came too late",
                    info.title, info.round, receipt.n
                ),
                body: renderer.render(Kind::Late, &context)?,
                date: at,
                in_reply_to: receipt.message_id.clone().filter(|id| id.starts_with('<')),
            });
        }
        // Problem lines are told as lines of the player's own message when ingest read the
        // version out of a longer text.
        let lines = how.origin.map_or(&[][..], |o| &o.lines);
        let mapped = !lines.is_empty();
        let problems: Vec<Problem> = outcome
            .problems
            .iter()
            .map(|p| Problem {
                line: p.line.map(|l| lines.get(l - 1).map_or(l, |m| *m as usize)),
                ..p.clone()
            })
            .collect();
        let context = AckContext {
            game: info,
            player: self.ctx.player_info(&receipt.player),
            version: receipt.n,
            // when it reached the host (a mail's arrival), not when the tick got to it
            received_at: clock::parse_instant(receipt.reached())
                .map_or_else(|_| clock::human(at), clock::human),
            valid: outcome.valid,
            understood: &outcome.understood,
            problems: &problems,
            answers: &outcome.answers,
            if_not_fixed: outcome.if_not_fixed.as_deref(),
            ignored: how.origin.map_or(&[][..], |o| &o.ignored),
            plays: outcome.plays,
            notes: how.origin.map_or(&[][..], |o| &o.notes),
            lines_of: if mapped { "of your message" } else { "" },
            closing: how.closing,
        };
        let body = renderer.render(Kind::Ack, &context)?;
        self.queue(Mail {
            round: info.round,
            kind: MailKind::Ack,
            to: Recipient::Player(receipt.player.clone()),
            seq: receipt.n,
            subject: format!(
                "{}: round {}, submission received (version {})",
                info.title, info.round, receipt.n
            ),
            body,
            date: at,
            // a mailed submission's acknowledgement is a reply to it (chat ids are not Message-IDs)
            in_reply_to: receipt.message_id.clone().filter(|id| id.starts_with('<')),
        })?;
        self.notices(renderer, info, seq, outcome, at)
    }

    /// The notices an instant action sends to other players (a Block's target).
    fn notices(
        &mut self,
        renderer: &Renderer,
        info: &GameInfo,
        seq: usize,
        outcome: &Outcome,
        at: Timestamp,
    ) -> Result<()> {
        for notice in &outcome.notices {
            let to = Recipient::Player(notice.to.clone());
            if !self.mails(&to) {
                continue;
            }
            let context = NoticeContext {
                game: info,
                player: self.ctx.player_info(&notice.to),
                text: &notice.text,
            };
            self.queue(Mail {
                round: info.round,
                kind: MailKind::Notice,
                to,
                seq: seq as u32 + 1,
                subject: format!("{}: round {}, a notice for you", info.title, info.round),
                body: renderer.render(Kind::Notice, &context)?,
                date: at,
                in_reply_to: None,
            })?;
        }
        Ok(())
    }

    /// Whether a message to `to` would be queued at all (mail on, an address known, or a chat
    /// player's file): rendering is skipped otherwise.
    fn mails(&self, to: &Recipient) -> bool {
        let config = &self.ctx.config;
        if let Recipient::Player(id) = to
            && crate::mail::chat::by_chat(config, id)
        {
            return true;
        }
        config.mail.transport.queues()
            && match to {
                Recipient::List => config.mail.public_to.is_some(),
                Recipient::Batch { .. } => true,
                Recipient::Player(id) => config.player(id).is_some_and(|p| p.email.is_some()),
                Recipient::Address(_) => true,
            }
    }

    /// A message as a chat file to paste (`mail::chat`), once.
    fn queue_chat(&mut self, to: &str, mail: &Mail) -> Result<()> {
        let dir = &self.ctx.dir;
        let name = mail.file_name();
        if crate::mail::chat::known(dir, to, &name) {
            return Ok(());
        }
        let path = crate::mail::chat::path(dir, to, &name);
        let text = crate::mail::chat::text(&mail.subject, &mail.body);
        self.plan.new_file(path, text);
        self.report.queued.push(format!("chat/{to}/{name}"));
        Ok(())
    }

    fn queue(&mut self, mail: Mail) -> Result<()> {
        let config = &self.ctx.config;
        if let Recipient::Player(id) = &mail.to
            && crate::mail::chat::by_chat(config, id)
        {
            return self.queue_chat(id.as_str(), &mail);
        }
        if !config.mail.transport.queues() {
            return Ok(());
        }
        if let Recipient::Player(id) = &mail.to
            && config.player(id).is_some_and(|p| p.email.is_none())
        {
            self.report.unmailed.insert(id.clone());
        }
        let addressed = crate::mail::outbox::addressees(
            &mail.to,
            &config.mail,
            &self.ctx.dir.game_toml(),
            |id| config.player(id),
        )?;
        let Some((to, bcc)) = addressed else {
            return Ok(());
        };
        let file = mail.file_name();
        let dir = &self.ctx.dir;
        let known = self.known.get_or_insert_with(|| {
            [dir.outbox(), dir.sent(), dir.root().join("failed")]
                .iter()
                .filter_map(|d| std::fs::read_dir(d).ok())
                .flatten()
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect()
        });
        if !known.insert(file.clone()) {
            return Ok(());
        }
        let bytes = format_message(&mail, &config.mail, &self.ctx.game_key(), to, bcc)?;
        // not in outbox/, sent/ or failed/ (just looked): a new file
        self.plan.new_file(dir.outbox().join(&file), bytes);
        self.report.queued.push(file);
        Ok(())
    }
}
