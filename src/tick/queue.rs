//! The tick's mail queue: each message rendered once into `outbox/` (or, for a player who plays
//! by chat, `outbox/chat/<player>/`) through the tick's `Plan`, unless it is already queued or
//! sent; only for players the game can reach.

use super::TickReport;
use crate::context::GameContext;
use crate::error::Result;
use crate::mail::{Mail, Recipient, format_message};
use crate::plan::Plan;
use jiff::Timestamp;

/// Queues messages into the plan: one .eml per message, unless it is already in `outbox/` or
/// `sent/`, and only for players with a mail address when mail is on.
pub(super) struct Mailer<'a> {
    pub ctx: &'a GameContext,
    pub plan: &'a mut Plan,
    pub report: &'a mut TickReport,
    /// The deadline of the round being received, for the reply to a late version.
    pub deadline: Option<Timestamp>,
    /// The names in `outbox/`, `sent/` and `failed/`, listed once when first needed.
    known: Option<std::collections::HashSet<String>>,
}

impl<'a> Mailer<'a> {
    pub(super) fn new(
        ctx: &'a GameContext,
        plan: &'a mut Plan,
        report: &'a mut TickReport,
        deadline: Option<Timestamp>,
    ) -> Mailer<'a> {
        Mailer {
            ctx,
            plan,
            report,
            deadline,
            known: None,
        }
    }
    /// Whether a message to `to` would be queued at all (mail on, an address known, or a chat
    /// player's file): rendering is skipped otherwise.
    pub(super) fn mails(&self, to: &Recipient) -> bool {
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
    pub(super) fn queue_chat(&mut self, to: &str, mail: &Mail) -> Result<()> {
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

    pub(super) fn queue(&mut self, mail: Mail) -> Result<()> {
        let config = &self.ctx.config;
        // A player who left the game gets answers to what they send, and nothing else.
        if let Recipient::Player(id) = &mail.to
            && !mail.kind.is_reply()
            && self.ctx.left(id).is_some()
        {
            return Ok(());
        }
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
