//! The replies ingest sends itself: to a message with no submission, a wrong token, the version
//! already on file, or one that missed a resolved round (the tick answers every version it
//! receives). Each is queued once per message: its file name comes from the message's
//! Message-ID, and a reply already in `outbox/`, `sent/` or `failed/` is not queued again.

use super::message::Incoming;
use super::nothing::Nothing;
use crate::context::GameContext;
use crate::error::Result;
use crate::game_dir::write_atomic;
use crate::mail::{Mail, MailKind, Recipient, format_message};
use crate::player_id::PlayerId;
use crate::render::Kind;
use crate::submission::sha256_hex;
use serde::Serialize;

/// Templates are compiled on first use only.
pub struct Replies<'a> {
    pub ctx: &'a GameContext,
    pub info: crate::render::GameInfo,
    pub now: jiff::Timestamp,
    pub renderer: Option<crate::render::Renderer>,
    /// Whether replies go out by mail at all (mail on, a mail message).
    pub mail: bool,
    /// Whether the message came by chat (replies to chat players are files to paste).
    pub chat: bool,
}

impl Replies<'_> {
    /// Whether a reply to `player` goes out at all (by mail, or as a chat file); compiles the
    /// templates the first time the answer is yes.
    pub fn reaches(&mut self, player: Option<&PlayerId>) -> Result<bool> {
        let config = &self.ctx.config;
        let by_chat = player.is_some_and(|p| crate::mail::chat::by_chat(config, p));
        // a chat message is answered by mail only to a player's own address
        let mailed = self.mail
            && (!self.chat
                || player.is_some_and(|p| config.player(p).is_some_and(|p| p.email.is_some())));
        let on = by_chat || mailed;
        if on && self.renderer.is_none() {
            self.renderer = Some(self.ctx.renderer()?);
        }
        Ok(on)
    }

    /// Tells the sender of a message with a wrong or missing token that it was not accepted. The
    /// reply goes to the address the message came from and names neither player nor token.
    pub fn rejected(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        mismatch: bool,
    ) -> Result<bool> {
        if !self.reaches(Some(player))? {
            return Ok(false);
        }
        let context = crate::render::RejectContext {
            game: &self.info,
            subject: &self.ctx.secrets.redactor.redact(&incoming.subject),
            mismatch,
        };
        let subject = format!("{}: your message was not accepted", self.info.title);
        // by mail to the address it came from, which may not be the player's own
        let to = if self.chat {
            Recipient::Player(player.clone())
        } else {
            Recipient::Address(incoming.sender.clone())
        };
        self.send(
            to,
            MailKind::Reject,
            incoming,
            subject,
            Kind::Reject,
            &context,
        )?;
        Ok(true)
    }

    /// Tells a player their message reached the host before `round` closed but was fetched after
    /// the round was resolved.
    pub fn late(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        round: u32,
        closed: jiff::Timestamp,
    ) -> Result<bool> {
        if !self.reaches(Some(player))? {
            return Ok(false);
        }
        let arrived = jiff::Timestamp::from_second(incoming.reached).unwrap_or(self.now);
        let zone = self.ctx.config.zone_of(player);
        let (arrived, closed) = crate::clock::human_apart_in(arrived, closed, zone);
        let context = crate::render::LateContext {
            game: &self.ctx.info_for(&self.info, player),
            round,
            arrived,
            deadline: closed,
            resolved_first: true,
        };
        let subject = format!(
            "{}: round {round}, your message came too late",
            self.info.title
        );
        let to = Recipient::Player(player.clone());
        self.send(to, MailKind::Late, incoming, subject, Kind::Late, &context)?;
        Ok(true)
    }

    /// Tells a player their message came after the game ended, with their last report again
    /// (to them alone: their own address, or their chat).
    pub fn over(&mut self, player: &PlayerId, incoming: &Incoming) -> Result<bool> {
        if !self.reaches(Some(player))? {
            return Ok(false);
        }
        let arrived = jiff::Timestamp::from_second(incoming.reached).unwrap_or(self.now);
        let zone = self.ctx.config.zone_of(player);
        let last = last_report(self.ctx, player);
        let context = crate::render::OverContext {
            game: &self.ctx.info_for(&self.info, player),
            arrived: crate::clock::human_in(arrived, zone),
            report_round: last.as_ref().map(|(round, _)| *round),
            report: last.map(|(_, text)| text),
        };
        let subject = format!("{}: the game is over", self.info.title);
        let to = Recipient::Player(player.clone());
        self.send(to, MailKind::Over, incoming, subject, Kind::Over, &context)?;
        Ok(true)
    }

    /// Answers a player who asked for their `status`: their latest version of the round, the
    /// deadline in their zone, and the skeleton to send.
    pub fn status(&mut self, player: &PlayerId, incoming: &Incoming, round: u32) -> Result<bool> {
        if !self.reaches(Some(player))? {
            return Ok(false);
        }
        let ctx = self.ctx;
        let receipts = crate::receipts::Receipts::load(&ctx.dir, &ctx.config, round)?;
        let latest = receipts.list.iter().rev().find(|r| r.player == *player);
        let text = latest.and_then(|r| {
            let copy = ctx.dir.received(round, player, r.n);
            std::fs::read_to_string(copy).ok()
        });
        let received_at = latest.and_then(|r| {
            let at = r.reached.as_deref().unwrap_or(&r.at);
            let at = crate::clock::parse_instant(at).ok()?;
            Some(ctx.human_for(player, at))
        });
        let context = crate::render::StatusContext {
            game: &ctx.info_for(&self.info, player),
            version: latest.map(|r| r.n),
            received_at,
            valid: latest.is_some_and(|r| r.valid),
            late: latest.is_some_and(|r| r.late),
            problems: latest.map(|r| r.problems.clone()).unwrap_or_default(),
            // the version as the player wrote it, set off from the words around it
            text: text.map(|t| {
                let lines: Vec<String> = t.trim_end().lines().map(|l| format!("  {l}")).collect();
                lines.join("\n")
            }),
            left: self
                .info
                .deadline_at
                .filter(|d| *d > self.now)
                .map(|d| crate::clock::relative(self.now, d)),
            skeleton: crate::result_file::latest_skeleton(ctx, round, player),
        };
        let subject = format!("{}: round {round}, your status", self.info.title);
        let to = Recipient::Player(player.clone());
        self.send(
            to,
            MailKind::Status,
            incoming,
            subject,
            Kind::Status,
            &context,
        )?;
        Ok(true)
    }

    /// Tells a player the message holds the version already on file: acknowledged already (its
    /// version), or still to be (its acknowledgement follows).
    pub fn same(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        sha256: &str,
        on_file_reached: Option<i64>,
    ) -> Result<bool> {
        if !self.reaches(Some(player))? {
            return Ok(false);
        }
        let receipts =
            crate::receipts::Receipts::load(&self.ctx.dir, &self.ctx.config, self.info.round)?;
        let receipt = receipts
            .list
            .iter()
            .rev()
            .find(|r| &r.player == player && r.sha256 == sha256);
        let (version, received_at) = match receipt {
            Some(r) => {
                let when = r.reached();
                (
                    Some(r.n),
                    crate::clock::parse_instant(when)
                        .map_or_else(|_| when.to_owned(), |t| self.ctx.human_for(player, t)),
                )
            }
            None => (
                None,
                on_file_reached
                    .and_then(|t| jiff::Timestamp::from_second(t).ok())
                    .map_or_else(String::new, |t| self.ctx.human_for(player, t)),
            ),
        };
        let context = crate::render::SameContext {
            game: &self.ctx.info_for(&self.info, player),
            version,
            received_at,
        };
        let subject = format!(
            "{}: round {}, we already have this version",
            self.info.title, self.info.round
        );
        let to = Recipient::Player(player.clone());
        self.send(to, MailKind::Same, incoming, subject, Kind::Same, &context)?;
        Ok(true)
    }

    /// Tells a player that no submission was found in their message, why, and the first lines
    /// read.
    pub fn nothing(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        why: &Nothing,
        keys: &[&str],
    ) -> Result<bool> {
        if !self.reaches(Some(player))? {
            return Ok(false);
        }
        let redactor = &self.ctx.secrets.redactor;
        let first_lines = incoming
            .first_lines(5)
            .iter()
            .map(|l| redactor.redact(l).into_owned())
            .collect::<Vec<_>>();
        let (body, attachment) = match why {
            Nothing::Ambiguous { body, attachment } => (
                Some(redactor.redact(body).into_owned()),
                Some(redactor.redact(attachment).into_owned()),
            ),
            _ => (None, None),
        };
        let arrived = jiff::Timestamp::from_second(incoming.reached).unwrap_or(self.now);
        let context = crate::render::NothingContext {
            game: &self.ctx.info_for(&self.info, player),
            subject: &redactor.redact(&incoming.subject),
            received_at: self.ctx.human_for(player, arrived),
            headline: why.headline(),
            why: why.explain(keys),
            first_lines: &first_lines,
            body: body.as_deref(),
            attachment: attachment.as_deref(),
        };
        let subject = format!(
            "{}: round {}, {}",
            self.info.title,
            self.info.round,
            why.headline()
        );
        let to = Recipient::Player(player.clone());
        self.send(
            to,
            MailKind::Nothing,
            incoming,
            subject,
            Kind::Nothing,
            &context,
        )?;
        Ok(true)
    }

    /// Queues a reply into `outbox/`, once per message (the sequence number comes from its
    /// Message-ID), unless it is already queued or sent.
    fn send<C: Serialize>(
        &self,
        to: Recipient,
        kind: MailKind,
        incoming: &Incoming,
        subject: String,
        template: Kind,
        context: &C,
    ) -> Result<()> {
        let ctx = self.ctx;
        let Some(renderer) = &self.renderer else {
            return Ok(()); // `on` said no
        };
        let body = renderer.render(template, context)?;
        let id_hash = sha256_hex(
            incoming
                .message_id
                .as_deref()
                .unwrap_or_default()
                .as_bytes(),
        );
        let name = match &to {
            Recipient::Player(id) => ctx.config.player(id).map(|p| p.name.clone()),
            _ => None,
        };
        let mail = Mail {
            round: self.info.round,
            kind,
            to,
            seq: u32::from_str_radix(&id_hash[..7], 16).unwrap_or(0),
            subject,
            body,
            date: self.now,
            // a Message-ID a player's client could thread on: never one that holds a token
            in_reply_to: incoming
                .message_id
                .clone()
                .filter(|id| id.starts_with('<') && !ctx.secrets.redactor.finds(id)),
        };
        let file = mail.file_name();
        if let Recipient::Player(id) = &mail.to
            && crate::mail::chat::by_chat(&ctx.config, id)
        {
            if crate::mail::chat::known(&ctx.dir, id.as_str(), &file) {
                return Ok(());
            }
            let text = crate::mail::chat::text(&mail.subject, &mail.body);
            let path = crate::mail::chat::path(&ctx.dir, id.as_str(), &file);
            return write_atomic(&path, text.as_bytes());
        }
        if [
            ctx.dir.outbox(),
            ctx.dir.sent(),
            ctx.dir.root().join("failed"),
        ]
        .iter()
        .any(|d| d.join(&file).exists())
        {
            return Ok(());
        }
        // A reply goes to the address the message came from (a chat message's: the player's).
        let address = match (&mail.to, self.chat) {
            (Recipient::Player(id), true) => ctx
                .config
                .player(id)
                .and_then(|p| p.email.clone())
                .unwrap_or_default(),
            _ => incoming.sender.clone(),
        };
        let to = crate::mail::outbox::mailbox(&name.unwrap_or_default(), &address)?;
        let bytes = format_message(&mail, &ctx.config.mail, &ctx.game_key(), to, Vec::new())?;
        write_atomic(&ctx.dir.outbox().join(file), &bytes)
    }
}

/// A player's last private report (its round, and its text without the signature), if any.
fn last_report(ctx: &GameContext, player: &PlayerId) -> Option<(u32, String)> {
    let rounds = std::fs::read_dir(ctx.dir.root().join("rounds")).ok()?;
    let mut numbers: Vec<u32> = rounds
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect();
    numbers.sort_unstable();
    numbers.into_iter().rev().find_map(|round| {
        let text = std::fs::read_to_string(ctx.dir.private(round, player)).ok()?;
        let text = crate::result_file::without_signature(&text);
        Some((round, text.to_owned()))
    })
}
