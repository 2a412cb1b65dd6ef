//! The host's digest (`[mail] host`): after a tick that needs the host, one message listing what
//! does: mail that gave no version this round (from players or strangers), versions that came too
//! late, players who just reached `[schedule] missed_limit`, mail refused or waiting. None when
//! there is nothing; never two for the same list (the message is named by a digest of its lines,
//! so a tick that finds the same things again queues nothing).

use super::TickReport;
use super::queue::Mailer;
use crate::clock;
use crate::context::GameContext;
use crate::error::Result;
use crate::games::Game;
use crate::mail::{Mail, MailKind, Recipient};
use crate::plan::Plan;

/// What needs the host after this tick, a line each.
pub(super) fn items<G: Game>(
    ctx: &GameContext,
    report: &TickReport,
    state: &G::State,
) -> Result<Vec<String>> {
    let mut items = Vec::new();
    let origins = crate::ingest::read_origins(ctx, report.round)?;
    for u in &origins.unused {
        let who = match &u.player {
            Some(p) => format!("{p} ({})", u.sender),
            None => format!("{} (not a player)", u.sender),
        };
        let at = jiff::Timestamp::from_second(u.reached)
            .map_or_else(|_| u.reached.to_string(), clock::human);
        items.push(format!(
            "Mail not used: from {who}, reached {at}: {}",
            u.why
        ));
    }
    for v in report.received.iter().filter(|v| v.late) {
        items.push(format!(
            "Too late: {}'s version {} reached the host after the deadline (archived, not used)",
            v.player, v.n
        ));
    }
    if report.resolved.is_some()
        && let Some(limit) = ctx.config.schedule.as_ref().and_then(|s| s.missed_limit)
        && !G::is_over(state)
    {
        let round = G::round(state);
        let expected = ctx.expected::<G>(state);
        let at_limit = crate::result_file::missed_in_a_row(ctx, round, &expected, limit)?;
        let beyond = crate::result_file::missed_in_a_row(ctx, round, &at_limit, limit + 1)?;
        for p in at_limit.iter().filter(|p| !beyond.contains(p)) {
            items.push(format!(
                "Missed limit: {p} got the rules' default in the last {limit} round(s) in a row (withdraw or substitute them, or write to them)"
            ));
        }
    }
    if let Some(mail) = &report.mail {
        for (name, why) in &mail.refused {
            items.push(format!("Mail refused for good (in failed/): {name}: {why}"));
        }
        if let Some(why) = &mail.deferred {
            items.push(format!(
                "Mail waiting in outbox/: {} message(s): {why}",
                mail.waiting
            ));
        }
    }
    Ok(items)
}

/// Queues the digest of `items` to the host, once; returns whether it was queued.
pub(super) fn queue(
    ctx: &GameContext,
    report: &mut TickReport,
    items: &[String],
    now: jiff::Timestamp,
) -> Result<bool> {
    let Some(host) = ctx.config.mail.host.as_deref() else {
        return Ok(false);
    };
    if items.is_empty() || !ctx.config.mail.transport.queues() {
        return Ok(false);
    }
    let address = host
        .parse::<lettre::message::Mailbox>()
        .map(|m| m.email.to_string())
        .unwrap_or_else(|_| host.to_owned());
    let body = format!(
        "{title}: round {round} needs you\n\n{lines}\n\nSee `adjudicate status` and ingest.log in the game directory.\n\n-- \n{title}, adjudicated by adjudicate\n",
        title = ctx.config.title,
        round = report.round,
        lines = items
            .iter()
            .map(|i| format!("- {i}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let digest = crate::submission::sha256_hex(body.as_bytes());
    let round = report.round;
    let mut plan = Plan::default();
    let queued = {
        let mut mail = Mailer::new(ctx, &mut plan, report, None);
        let before = mail.report.queued.len();
        mail.queue(Mail {
            round,
            kind: MailKind::Digest,
            to: Recipient::Address(address),
            seq: u32::from_str_radix(&digest[..8], 16).expect("hex"),
            subject: format!(
                "{}: round {round} needs you ({} item(s))",
                ctx.config.title,
                items.len()
            ),
            body,
            date: now,
            in_reply_to: None,
        })?;
        mail.report.queued.len() > before
    };
    plan.commit()?;
    Ok(queued)
}
