//! The tick's answers: the acknowledgement of every version received (written once the tick
//! knows whether it resolves the round, so the one that closes it says so), the notices an
//! instant action sends to others (a Block's target), and the reminders of a round's last hours.

use super::queue::Mailer;
use super::receive::Receiving;
use crate::clock;
use crate::error::{Error, Result};
use crate::games::{Game, Outcome};
use crate::mail::{Mail, MailKind, Recipient};
use crate::player_id::PlayerId;
use crate::problem::Problem;
use crate::receipts::Receipt;
use crate::render::{
    AckContext, GameInfo, Kind, LateContext, NoticeContext, ReminderContext, Renderer,
};
use crate::result_file::latest_skeleton;
use jiff::Timestamp;

/// Where ingest got a receipt's version from, if it did (the file is still the one it wrote).
pub(super) fn origin_of<'a>(
    origins: &'a crate::ingest::Origins,
    receipt: &Receipt,
) -> Option<&'a crate::ingest::Origin> {
    origins
        .origin
        .get(&receipt.player)
        .filter(|o| o.sha256 == receipt.sha256)
}

/// A version received this tick, to acknowledge once the tick knows whether it resolves.
pub(super) struct Pending {
    /// Its receipt's position among the round's receipts.
    pub seq: usize,
    pub outcome: Outcome,
    pub origin: Option<crate::ingest::Origin>,
}

/// How a version came (ingest's record of its message) and whether its tick closes the round.
#[derive(Clone, Copy)]
struct How<'a> {
    origin: Option<&'a crate::ingest::Origin>,
    closing: bool,
}

impl Mailer<'_> {
    /// Acknowledges every version received this tick (`pending`, each with its receipt in
    /// `receipts`); `closing`: this tick resolves the round.
    pub(super) fn acknowledge_all(
        &mut self,
        renderer: &Renderer,
        info: &GameInfo,
        receipts: &[Receipt],
        pending: Vec<Pending>,
        closing: bool,
    ) -> Result<()> {
        for p in pending {
            let how = How {
                origin: p.origin.as_ref(),
                closing,
            };
            let receipt = &receipts[p.seq];
            self.acknowledge(renderer, info, receipt, p.seq, &p.outcome, how)?;
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
        let ctx = self.ctx;
        let info = &*ctx.info_for(info, &receipt.player);
        let zone = ctx.config.zone_of(&receipt.player);
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
            let (arrived, deadline) = clock::human_apart_in(reached, deadline, zone);
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
                line: p.line.map(|l| {
                    l.checked_sub(1)
                        .and_then(|k| lines.get(k))
                        .map_or(l, |m| *m as usize)
                }),
                ..p.clone()
            })
            .collect();
        let context = AckContext {
            game: info,
            player: self.ctx.player_info(&receipt.player),
            version: receipt.n,
            // when it reached the host (a mail's arrival), not when the tick got to it
            received_at: clock::human_in(
                clock::parse_instant(receipt.reached()).unwrap_or(at),
                zone,
            ),
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
                game: &self.ctx.info_for(info, &notice.to),
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
}

/// One reminder to each expected player without a valid version, in the `remind_before` window
/// before the deadline; dated at the window's start, so a repeated tick writes the same bytes.
pub(super) fn remind<G: Game>(
    now: Timestamp,
    renderer: &Renderer,
    mail: &mut Mailer<'_>,
    info: &GameInfo,
    state: &G::State,
    expected: &[PlayerId],
    received: &Receiving,
) -> Result<()> {
    let ctx = mail.ctx;
    if let (Some(d), Some(before)) = (
        mail.deadline,
        ctx.config.schedule.as_ref().and_then(|s| s.remind_before),
    ) {
        let from = d.checked_sub(before).unwrap_or(d);
        if now >= from && now < d {
            // numbered by the deadline's moves, so a moved deadline gets its own reminder
            let seq = ctx.deadline_moves(G::rounds_played(state)) as u32;
            let left = clock::relative(from, d);
            remind_players::<G>(
                renderer,
                mail,
                info,
                state,
                expected,
                received,
                (from, left, seq),
            )?;
        }
    }
    Ok(())
}

/// The reminder to each of `expected` without a valid version, dated `at`, numbered `seq`
/// (the host's `remind` numbers its own apart), saying `left` ("in 3 h 0 min").
pub(super) fn remind_players<G: Game>(
    renderer: &Renderer,
    mail: &mut Mailer<'_>,
    info: &GameInfo,
    state: &G::State,
    expected: &[PlayerId],
    received: &Receiving,
    (at, left, seq): (Timestamp, String, u32),
) -> Result<usize> {
    let ctx = mail.ctx;
    let round = info.round;
    let (latest, receipts, origins) = (&received.latest, &received.receipts, &received.origins);
    let mut sent = 0;
    for player in expected.iter().filter(|p| !G::has_valid(state, p)) {
        if !mail.mails(&Recipient::Player(player.clone())) {
            continue;
        }
        let latest = latest.get(player).map(|i| &receipts.list[*i]);
        let context = ReminderContext {
            game: &ctx.info_for(info, player),
            player: ctx.player_info(player),
            time_left: left.clone(),
            unused: origins
                .unused
                .iter()
                .filter(|u| u.player.as_ref() == Some(player))
                .count(),
            version: latest.map(|r| r.n),
            problems: latest.map_or(&[][..], |r| &r.problems),
            if_not_fixed: G::if_not_fixed(state, player),
            skeleton: latest_skeleton(ctx, round, player)
                .map(|s| with_deadline(s, ctx.info_for(info, player).deadline.as_deref())),
        };
        mail.queue(Mail {
            round,
            kind: MailKind::Reminder,
            to: Recipient::Player(player.clone()),
            seq,
            subject: format!("{}: round {round} closes {}", info.title, context.time_left),
            body: renderer.render(Kind::Reminder, &context)?,
            date: at,
            in_reply_to: None,
        })?;
        sent += 1;
    }
    Ok(sent)
}

/// A skeleton copied from an earlier report, its first line telling the round's deadline as it
/// is now (the host may have moved it since).
fn with_deadline(skeleton: String, deadline: Option<&str>) -> String {
    let (first, rest) = skeleton.split_once('\n').unwrap_or((&skeleton, ""));
    match (first.split_once(", deadline "), deadline) {
        (Some((head, _)), Some(d)) => format!("{head}, deadline {d}.\n{rest}"),
        _ => skeleton,
    }
}
