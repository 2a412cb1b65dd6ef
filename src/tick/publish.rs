//! The tick's last stage: publish. A result is written with the reports rendered from it
//! (`result.toml`, `public.txt`, `private/*.txt`) and queued as mail: the announcement once (to
//! the list, or by Bcc in batches), each private report to its player.

use super::queue::Mailer;
use crate::error::Result;
use crate::games::Game;
use crate::mail::{Mail, MailKind, Recipient};
use crate::player_id::PlayerId;
use crate::render::Renderer;
use crate::result_file::ResultFile;
use jiff::Timestamp;

/// Writes a result and its reports into its folder (`ResultFile::folder`) and queues them as
/// mail: an opening as "the game begins" and a welcome, a round as its results and reports.
pub(super) fn publish<G: Game>(
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
    } else if result.corrected(ctx) {
        // resolved again after the host withdrew its first results
        (
            format!("{title}: round {round} results (corrected)"),
            format!("{title}: round {round}, your private report (corrected)"),
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
    let folder = result.folder(&ctx.dir);
    // A new private/ is written by the threads rendering its reports, as they go (under a temp
    // name, renamed into place with the rest of the plan); where it cannot be (a dry run, a
    // round resolved again), its files are planned one by one below.
    let private_dir = folder.join("private");
    let early = mail.plan.early_folder(private_dir.clone())?;
    // Only the reports still to be mailed or written are kept once rendered.
    let mailing = ctx.config.mail.transport.queues();
    let mailed = |player: &PlayerId| mailing || crate::mail::chat::by_chat(&ctx.config, player);
    let keep = |player: &PlayerId| early.is_none() || mailed(player);
    let (reports, result_text) =
        result.render_with_text::<G>(ctx, renderer, early.as_ref(), keep)?;
    // a round resolved again after an undo is mailed under new names
    let seq = if opening {
        0
    } else {
        ctx.undos(result.meta.index)
    };
    mail.plan
        .file_parts(folder.join("result.toml"), result_text);
    mail.plan
        .file(folder.join("public.txt"), reports.public.clone());
    // The announcement is one message (to the list, or by Bcc in batches), never one per player;
    // players who read times in a zone of their own get it in that zone, by batches of their
    // own (issue 57), as the host's notices do.
    let public_to = match ctx.config.mail.public_to {
        Some(_) => vec![(None, Recipient::List)],
        None => bcc_batches(mail),
    };
    let mut zoned: Vec<(&jiff::tz::TimeZone, String)> = Vec::new();
    for (zone, to) in public_to {
        let body = match zone {
            None => reports.public.clone(),
            Some(zone) => match zoned.iter().find(|(z, _)| *z == zone) {
                Some((_, text)) => text.clone(),
                None => {
                    let text = result.render_public_in(ctx, renderer, Some(zone))?;
                    zoned.push((zone, text.clone()));
                    text
                }
            },
        };
        mail.queue(Mail {
            round,
            kind: public_kind,
            to,
            seq,
            subject: public_subject.clone(),
            body,
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
            seq,
            subject: public_subject.clone(),
            body: reports.public.clone(),
            date: dated,
            in_reply_to: None,
        };
        mail.queue_chat(crate::mail::chat::PUBLIC, &announcement)?;
    }
    // Each report moves into the plan (one copy in memory) unless it is written already, after
    // its message is formatted. A new private/ not written early (an opening whose folder is
    // new too) is planned as a folder after result.toml, so that the commit writes it whole
    // under a temp name and renames it into place once.
    if early.is_none() {
        mail.plan.dir(private_dir.clone());
    }
    for (player, text) in reports.private {
        if mailed(&player) {
            mail.queue(Mail {
                round,
                kind: private_kind,
                to: Recipient::Player(player.clone()),
                seq,
                subject: private_subject.clone(),
                body: text.clone(),
                date: dated,
                in_reply_to: None,
            })?;
        }
        if early.is_none() {
            mail.plan
                .file(private_dir.join(format!("{player}.txt")), text);
        }
    }
    Ok(())
}

/// The players who get the announcement, in id order, as batches of `mail.bcc_batch` (those
/// without an address are noted as unmailed).
fn bcc_batches<'c>(mail: &mut Mailer<'c>) -> Vec<(Option<&'c jiff::tz::TimeZone>, Recipient)> {
    let config = &mail.ctx.config;
    if !config.mail.transport.queues() {
        return Vec::new();
    }
    let mut mailed = Vec::new();
    for p in config
        .players_by_id()
        .filter(|p| mail.ctx.left(&p.id).is_none())
    {
        if p.email.is_some() {
            mailed.push(p.id.clone());
        } else {
            mail.report.unmailed.insert(p.id.clone());
        }
    }
    let mut out = Vec::new();
    for (zone, ids) in config.by_zone(mailed) {
        let first = out.len() as u32 + 1;
        let batches = crate::mail::outbox::batches(&ids, config.mail.bcc_batch, first);
        out.extend(batches.into_iter().map(|to| (zone, to)));
    }
    out
}
