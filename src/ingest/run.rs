//! One run of ingest: every message of a source sorted out (a player's candidate version, or
//! answered and recorded at once), the candidates settled against what is on file, and
//! everything committed in the order that keeps a killed run finishable: origins, submissions,
//! the chat record, the log, and only then the Maildir moves. Takes the game's keys and the
//! round's window, never a `Game`.

use super::extract;
use super::message::{Content, Incoming};
use super::nothing::Nothing;
use super::origins::{Origin, Origins, Unused, origins_path, read_origins};
use super::replies::Replies;
use super::{IngestReport, Item, Source, mark, seen};
use crate::context::GameContext;
use crate::context::Window;
use crate::error::Result;
use crate::game_dir::{read_optional, write_atomic};
use crate::player_id::PlayerId;
use crate::submission::{TOKEN_KEY, sha256_hex};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What became of one message.
enum Fate {
    /// Not yet decided (a candidate for its player's version).
    Open,
    /// Handled: moved to `cur/` as seen.
    Done,
    /// Not used and the host should look at it: moved to `cur/` seen and flagged.
    Flagged,
    /// Already read from an earlier export: skipped without a word.
    Skipped,
}

/// The log's words for a message whose player gets no reply: the game has neither mail nor chat
/// files for them.
const NOT_TOLD: &str = "the player is not told (no mail or chat for them)";

/// Where a version came from, for the tick: its message, how it was read, what was not read.
fn origin_of(
    kind: &str,
    incoming: &Incoming,
    message_id: Option<String>,
    sha256: String,
    found: &extract::Extracted,
    replaced: Option<&u32>,
    ctx: &GameContext,
) -> Origin {
    let redactor = &ctx.secrets.redactor;
    let mut notes: Vec<String> = found.notes.iter().map(extract::Note::text).collect();
    if let Some(n) = replaced {
        notes.push(format!(
            "This message replaces {n} earlier message{} of yours that reached us before it; only this one counts.",
            if *n == 1 { "" } else { "s" }
        ));
    }
    let identity = found
        .lines
        .iter()
        .enumerate()
        .all(|(k, l)| *l as usize == k + 1);
    Origin {
        source: kind.into(),
        reason: None,
        reached: incoming.reached,
        sent: incoming.sent,
        message_id,
        sha256,
        ignored: found
            .ignored
            .iter()
            .map(|l| cut(&redactor.redact(l)))
            .collect(),
        notes,
        lines: if identity {
            Vec::new()
        } else {
            found.lines.clone()
        },
    }
}

/// A message's id as we may store and quote it: none when it holds a token.
fn safe_id(incoming: &Incoming, redactor: &crate::redact::Redactor) -> Option<String> {
    incoming.message_id.clone().filter(|id| !redactor.finds(id))
}

/// The sender's ignored text, quoted for the host's log (a question must reach the host).
fn besides(ignored: &[String]) -> String {
    if ignored.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = ignored.iter().map(|l| format!("{l:?}")).collect();
    format!(" [text besides the submission: {}]", quoted.join(" / "))
}

/// Why the arrival time is a fallback, for the host's log.
fn time_note(incoming: &Incoming) -> String {
    incoming
        .reached_note
        .as_ref()
        .map_or_else(String::new, |n| format!(" (time: {n})"))
}

/// A candidate version: the item and what was read from it.
struct Candidate {
    item: usize,
    text: String,
    found: extract::Extracted,
}

/// One run of ingest over the messages of a source: each message sorted out (a candidate
/// version, or answered and recorded), then the candidates settled against what is on file,
/// then everything committed in a crash-safe order.
pub(super) struct Run<'a> {
    ctx: &'a GameContext,
    keys: &'static [&'static str],
    now: jiff::Timestamp,
    round: u32,
    closed: Option<jiff::Timestamp>,
    /// The game is over: every message is answered so, none read.
    over: bool,
    /// "mail" or "chat"
    kind: &'static str,
    report: IngestReport,
    replies: Replies<'a>,
    origins: Origins,
    /// The previous round's record (the one-reply-an-hour limit spans the change of round).
    before: Option<Origins>,
    seen: Option<seen::Seen>,
    /// How many messages that gave no version were on record before this run.
    unused_before: usize,
    written_origin: bool,
    /// Exactly one line per message: `lines[i]` is item i's, set once it is decided.
    lines: Vec<Option<String>>,
    fates: Vec<Fate>,
    /// The newest message of each player wins within a run (items are in arrival order).
    best: BTreeMap<PlayerId, Candidate>,
    replaced: BTreeMap<PlayerId, u32>,
}

impl<'a> Run<'a> {
    pub(super) fn new(
        ctx: &'a GameContext,
        source: &Source,
        now: jiff::Timestamp,
        keys: &'static [&'static str],
        window: &Window,
        messages: usize,
    ) -> Result<Run<'a>> {
        let chat = matches!(source, Source::Chat(_));
        let origins = read_origins(ctx, window.round)?;
        Ok(Run {
            unused_before: origins.unused.len(),
            ctx,
            keys,
            now,
            round: window.round,
            closed: window.closed,
            over: window.over,
            kind: if chat { "chat" } else { "mail" },
            report: IngestReport {
                round: window.round,
                ..IngestReport::default()
            },
            replies: Replies {
                ctx,
                info: ctx.game_info(window.round, window.index, None),
                now,
                renderer: None,
                mail: ctx.config.mail.transport.queues(),
                chat,
            },
            origins,
            before: read_origins(ctx, window.round.saturating_sub(1)).ok(),
            seen: if chat {
                Some(seen::Seen::load(ctx)?)
            } else {
                None
            },
            written_origin: false,
            lines: vec![None; messages],
            fates: (0..messages).map(|_| Fate::Open).collect(),
            best: BTreeMap::new(),
            replaced: BTreeMap::new(),
        })
    }

    /// Message `i`: answered and recorded now (unreadable, not a player, automatic, no
    /// submission, a token problem, before the previous round closed), or kept as its player's
    /// candidate version.
    pub(super) fn sort_out(&mut self, i: usize, item: &Item, items: &[Item]) -> Result<()> {
        let label = &item.label;
        let incoming = match &item.incoming {
            Ok(incoming) => incoming,
            Err(why) => {
                self.lines[i] = Some(format!("{label}: {why}; ignored"));
                self.fates[i] = Fate::Flagged;
                return Ok(());
            }
        };
        if let Some(seen) = &self.seen
            && seen.has(incoming)
        {
            self.fates[i] = Fate::Skipped;
            return Ok(());
        }
        if let Some(why) = ours(self.ctx, incoming) {
            // the tool's own mail (a digest, a copy of an announcement) filed quietly: no
            // answer, not listed as unused, nothing for the host's stderr
            self.lines[i] = Some(format!("{label}: {why}; filed"));
            self.fates[i] = Fate::Done;
            return Ok(());
        }
        let Some(player) = player_of(self.ctx, incoming, self.kind) else {
            let line = format!(
                "{label}: from {}, who is not a player: not used, not answered (listed under \"mail not used\"){}",
                incoming.sender,
                besides(&incoming.first_lines(2))
            );
            self.report.warnings.push(line.clone());
            self.lines[i] = Some(line);
            let entry = self.unused(None, incoming, "not a player".into(), false);
            self.origins.record(entry);
            self.fates[i] = Fate::Flagged;
            return Ok(());
        };
        if let Some(why) = &incoming.automatic {
            self.lines[i] = Some(format!(
                "{label}: from {player}: automatic mail ({why}); not used, not answered"
            ));
            let entry = self.unused(
                Some(&player),
                incoming,
                format!("automatic mail ({why})"),
                false,
            );
            self.origins.record(entry);
            self.fates[i] = Fate::Flagged;
            return Ok(());
        }
        self.sort_out_from_player(i, label, player, incoming, items)
    }

    /// Message `i` from `player`: answered now (the game is over, `status`, no submission, a
    /// token problem, before the previous round closed), or kept as their candidate version.
    fn sort_out_from_player(
        &mut self,
        i: usize,
        label: &str,
        player: PlayerId,
        incoming: &Incoming,
        items: &[Item],
    ) -> Result<()> {
        if self.over {
            return self.game_over(i, label, &player, incoming);
        }
        if asks_status(incoming) {
            return self.status(i, label, &player, incoming);
        }
        let skeleton = crate::result_file::latest_skeleton(self.ctx, self.round, &player);
        let found = incoming.submission(self.keys, skeleton.as_deref());
        let text = match &found.toml {
            Ok(t) => t.clone(),
            Err(nothing) => {
                let line = self.no_submission(&player, incoming, nothing)?;
                self.decide(
                    i,
                    format!("{label}: from {player}: {line}{}", besides(&found.ignored)),
                    true,
                );
                return Ok(());
            }
        };
        if let Some(line) = self.refused_token(&player, incoming, &text)? {
            self.decide(
                i,
                format!(
                    "{label}: from {} claiming to be {player}: {line}",
                    incoming.sender
                ),
                false,
            );
            return Ok(());
        }
        if let Some(line) = self.before_close(&player, incoming)? {
            let line = format!(
                "{label}: from {player}: {line}{}{}",
                time_note(incoming),
                besides(&found.ignored)
            );
            self.decide(i, line, true);
            return Ok(());
        }
        if let Some(previous) = self.best.insert(
            player.clone(),
            Candidate {
                item: i,
                text,
                found,
            },
        ) {
            let p = previous.item;
            self.lines[p] = Some(format!(
                "{}: from {player}: superseded by a newer message in this run ({label}); its acknowledgement says so",
                items[p].label
            ));
            self.fates[p] = Fate::Done;
            *self.replaced.entry(player.clone()).or_default() += 1;
        }
        Ok(())
    }

    /// Message `i` after the game is over: every message gets one answer, after the game too
    /// (spec README, "Replies"), and nothing is read.
    fn game_over(
        &mut self,
        i: usize,
        label: &str,
        player: &PlayerId,
        incoming: &Incoming,
    ) -> Result<()> {
        let line = match self.replies.over(player, incoming)? {
            true => "the game is over: answered so, with their last report",
            false => "the game is over: not used",
        };
        self.decide(i, format!("{label}: from {player}: {line}"), false);
        Ok(())
    }

    /// Message `i` asks for the player's `status` (njudge's LIST): what the tool holds for them,
    /// by return of mail; recorded as a message that gave no version.
    fn status(
        &mut self,
        i: usize,
        label: &str,
        player: &PlayerId,
        incoming: &Incoming,
    ) -> Result<()> {
        let told = self.replies.status(player, incoming, self.round)?;
        let why = "asked for their status".to_owned();
        let entry = self.unused(Some(player), incoming, why, told);
        self.origins.record(entry);
        let answer = if told { "answered" } else { NOT_TOLD };
        let line = format!("{label}: from {player}: asked for their status; {answer}");
        self.decide(i, line, false);
        Ok(())
    }

    /// Records message `i`'s one log line (also a warning for the host's stderr when `warn`).
    fn decide(&mut self, i: usize, line: String, warn: bool) {
        if warn {
            self.report.warnings.push(line.clone());
        }
        self.lines[i] = Some(line);
        self.fates[i] = Fate::Done;
    }

    /// The record of a message that gave no version (`player`: none for a sender who is not one).
    fn unused(
        &self,
        player: Option<&PlayerId>,
        incoming: &Incoming,
        why: String,
        replied: bool,
    ) -> Unused {
        let redactor = &self.ctx.secrets.redactor;
        Unused {
            player: player.cloned(),
            sender: redactor.redact(&incoming.sender).into_owned(),
            reached: incoming.reached,
            message_id: safe_id(incoming, redactor),
            why,
            replied,
        }
    }

    /// A player's message without a submission: answered (at most once an hour per sender) and
    /// recorded. Returns the rest of its log line.
    fn no_submission(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        nothing: &Nothing,
    ) -> Result<String> {
        let id = safe_id(incoming, &self.ctx.secrets.redactor);
        let limited = [Some(&self.origins), self.before.as_ref()]
            .into_iter()
            .flatten()
            .any(|o| o.replied_within_hour(&incoming.sender, incoming.reached, &id));
        let told = !limited && self.replies.nothing(player, incoming, nothing, self.keys)?;
        let answer = match (limited, told) {
            (true, _) => "not answered (one such reply an hour)",
            (false, true) => "the player is told",
            (false, false) => NOT_TOLD,
        };
        let entry = self.unused(Some(player), incoming, nothing.short(), told);
        self.origins.record(entry);
        Ok(format!("{}; {answer}", nothing.short()))
    }

    /// The token, checked once the text is read: a file that does not parse goes on to the tick,
    /// which reports the TOML problem first; a token is only said not to match when one was
    /// read. Returns the rest of the log line of a message refused for its token.
    fn refused_token(
        &mut self,
        player: &PlayerId,
        incoming: &Incoming,
        text: &str,
    ) -> Result<Option<String>> {
        let Some(expected) = self.ctx.secrets.tokens.get(player) else {
            return Ok(None);
        };
        let verdict = match token_in(text) {
            Some(given) if given == *expected => return Ok(None),
            Some(_) => "does not match",
            None if parses(text) => "is missing",
            None => return Ok(None), // the tick reports the TOML problem first
        };
        let told = self
            .replies
            .rejected(player, incoming, verdict == "does not match")?;
        let entry = self.unused(Some(player), incoming, format!("token {verdict}"), told);
        self.origins.record(entry);
        Ok(Some(format!(
            "token {verdict}; rejected, {}",
            if told { "the sender is told" } else { NOT_TOLD }
        )))
    }

    /// A message that reached the host before the previous round closed, fetched after it was
    /// resolved: used for neither round, answered. Returns the rest of its log line.
    fn before_close(&mut self, player: &PlayerId, incoming: &Incoming) -> Result<Option<String>> {
        let reached = jiff::Timestamp::from_second(incoming.reached).unwrap_or(self.now);
        let Some(close) = self.closed.filter(|c| reached <= *c) else {
            return Ok(None);
        };
        let (round, missed) = (self.round, self.round.saturating_sub(1));
        let (at, close_at) = crate::clock::human_apart(reached, close);
        let told = self.replies.late(player, incoming, missed, close)?;
        let why = format!("reached the host before round {missed} closed");
        let entry = self.unused(Some(player), incoming, why, told);
        self.origins.record(entry);
        Ok(Some(format!(
            "reached the host {at}, before round {missed} closed ({close_at}), but round {missed} was resolved before it was fetched; used for neither round {missed} nor round {round}, {}",
            if told { "the player is told" } else { NOT_TOLD }
        )))
    }

    /// Each player's candidate against what is on file: older (answered), the same (answered),
    /// or a new submission to write. Returns the files to write.
    pub(super) fn settle(&mut self, items: &[Item]) -> Result<Vec<(PathBuf, String)>> {
        self.written_origin |= self.origins.unused.len() != self.unused_before;
        // The submissions to write, once their origins are on disk.
        let mut files: Vec<(PathBuf, String)> = Vec::new();
        let best = std::mem::take(&mut self.best);
        for (player, candidate) in best {
            self.settle_one(items, player, candidate, &mut files)?;
        }
        Ok(files)
    }

    fn settle_one(
        &mut self,
        items: &[Item],
        player: PlayerId,
        candidate: Candidate,
        files: &mut Vec<(PathBuf, String)>,
    ) -> Result<()> {
        let i = candidate.item;
        let item = &items[i];
        let label = &item.label;
        self.fates[i] = Fate::Done;
        let Ok(incoming) = &item.incoming else {
            return Ok(()); // only readable messages are candidates
        };
        let text = candidate.text;
        let found = candidate.found;
        let sha256 = sha256_hex(text.as_bytes());
        let path = self
            .ctx
            .dir
            .submissions(self.round)
            .join(format!("{player}.toml"));
        let on_file = self.origins.origin.get(&player);
        if let Some(newer) =
            on_file.filter(|o| (incoming.reached, incoming.sent) < (o.reached, o.sent))
        {
            let why = Nothing::Older {
                newer: newer.reached,
            };
            let told = self.replies.nothing(&player, incoming, &why, self.keys)?;
            self.lines[i] = Some(format!(
                "{label}: from {player}: older than the version on file; not applied, {}",
                if told { "the player is told" } else { NOT_TOLD }
            ));
            let entry = self.unused(Some(&player), incoming, why.short(), told);
            self.origins.record(entry);
            self.written_origin = true;
            return Ok(());
        }
        let current = std::fs::read(&path).ok().map(|b| sha256_hex(&b));
        // This very message, recorded by a run that was killed self.before it finished: finish it.
        let id = safe_id(incoming, &self.ctx.secrets.redactor);
        let interrupted =
            on_file.is_some_and(|o| o.sha256 == sha256 && id.is_some() && o.message_id == id);
        if current.as_deref() == Some(sha256.as_str()) && !interrupted {
            let on_file_reached = on_file.map(|o| o.reached);
            let told = self
                .replies
                .same(&player, incoming, &sha256, on_file_reached)?;
            self.lines[i] = Some(format!(
                "{label}: from {player}: the version already on file; not written, {}{}",
                if told { "the player is told" } else { NOT_TOLD },
                besides(&found.ignored)
            ));
            return Ok(());
        }
        files.push((path, text));
        // An interrupted run's origin stands as it wrote it (the messages it superseded may
        // have left new/ since).
        if !interrupted {
            let origin = origin_of(
                self.kind,
                incoming,
                id,
                sha256,
                &found,
                self.replaced.get(&player),
                self.ctx,
            );
            self.origins.origin.insert(player.clone(), origin);
            self.written_origin = true;
        }
        let reached = jiff::Timestamp::from_second(incoming.reached).unwrap_or(self.now);
        self.lines[i] = Some(format!(
            "{label}: from {player}: written as the round {} submission (reached the host {}){}{}",
            self.round,
            crate::clock::rfc3339(reached),
            time_note(incoming),
            besides(&found.ignored)
        ));
        self.report.written.push((player, label.clone()));
        Ok(())
    }

    /// Writes what the run decided, in the order that keeps it crash-safe, and moves the
    /// Maildir messages last.
    pub(super) fn commit(
        mut self,
        items: &[Item],
        files: Vec<(PathBuf, String)>,
    ) -> Result<IngestReport> {
        // Crash safety: the self.origins first, then the files they describe. Killed in between, a file
        // and its origin disagree (the tick then ignores the origin and sees the old file), and the
        // re-run, which finds every message still in new/, finishes the job with the same bytes.
        if self.written_origin {
            crate::game_dir::create_dir(&self.ctx.dir.submissions(self.round))?;
            write_atomic(
                &origins_path(self.ctx, self.round),
                self.origins.to_toml().as_bytes(),
            )?;
        }
        for (path, text) in &files {
            write_atomic(path, text.as_bytes())?;
        }
        // A player may write a token anywhere, prose included: none reaches the log or stderr.
        let redactor = &self.ctx.secrets.redactor;
        self.report.log = self
            .lines
            .into_iter()
            .flatten()
            .map(|l| redactor.redact(&l).into_owned())
            .collect();
        for warning in &mut self.report.warnings {
            *warning = redactor.redact(warning).into_owned();
        }
        if !self.report.log.is_empty() {
            let log = self.ctx.dir.root().join("ingest.log");
            let mut text = read_optional(&log)?.unwrap_or_default();
            // a line already there was written by a run killed before it moved its messages
            let known: std::collections::HashSet<String> =
                text.lines().map(str::to_owned).collect();
            for line in &self.report.log {
                let line = format!("{} {line}", crate::clock::rfc3339(self.now));
                if !known.contains(&line) {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            write_atomic(&log, text.as_bytes())?;
        }
        // Only now, with every submission and the log written, are the messages handled: a
        // chat message by its line in chat-seen.toml, a mail by its move out of new/.
        if let Some(seen) = &mut self.seen {
            for (item, fate) in items.iter().zip(&self.fates) {
                if let (Ok(incoming), false) = (&item.incoming, matches!(fate, Fate::Skipped)) {
                    seen.add(incoming);
                }
            }
            seen.save(self.ctx)?;
        }
        for (item, fate) in items.iter().zip(&self.fates) {
            if let Some(file) = &item.maildir_file {
                let flags = match fate {
                    Fate::Flagged => "FS",
                    _ => "S",
                };
                mark(file, flags)?;
            }
        }
        Ok(self.report)
    }
}

/// The token a text sets at its top level, read line by line so that it is found in a file that
/// does not parse as a whole.
fn token_in(text: &str) -> Option<String> {
    if let Ok(doc) = crate::doc::Doc::parse(text) {
        return doc
            .get(TOKEN_KEY)
            .and_then(|n| n.as_str(TOKEN_KEY).ok())
            .map(str::to_owned);
    }
    text.lines()
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter(|l| l.trim_start().starts_with(TOKEN_KEY))
        .find_map(|l| {
            let table: toml::Table = toml::from_str(l).ok()?;
            table.get(TOKEN_KEY)?.as_str().map(str::to_owned)
        })
}

fn parses(text: &str) -> bool {
    crate::doc::Doc::parse(text).is_ok()
}

/// A line of ignored text, cut for the acknowledgement.
fn cut(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

fn player_of(ctx: &GameContext, incoming: &Incoming, kind: &str) -> Option<PlayerId> {
    ctx.config
        .players
        .iter()
        .find(|p| match kind {
            "chat" => p
                .chat
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(&incoming.sender)),
            _ => p
                .email
                .as_deref()
                .is_some_and(|e| e.eq_ignore_ascii_case(&incoming.sender)),
        })
        .map(|p| p.id.clone())
}

/// Why a message is the tool's own (sent from the game's `[mail] from`, or carrying a
/// Message-ID the tool makes), if it is.
fn ours(ctx: &GameContext, incoming: &Incoming) -> Option<&'static str> {
    let mail = &ctx.config.mail;
    let from = crate::mail::from_mailbox(mail).ok()?;
    if mail.from.is_some() && incoming.sender.eq_ignore_ascii_case(from.email.as_ref()) {
        return Some("our own mail (from the game's address)");
    }
    let id = incoming.message_id.as_deref()?;
    crate::mail::is_our_message_id(id, mail)
        .then_some("our own mail (its Message-ID is one we make)")
}

/// Whether a message's own text is only `status` or `help` (any case, a full stop allowed):
/// a player asking what the tool holds for them.
fn asks_status(incoming: &Incoming) -> bool {
    let Content::Text {
        body,
        attachment: None,
    } = &incoming.content
    else {
        return false;
    };
    let own: Vec<&str> = body
        .lines()
        .map(str::trim)
        .take_while(|l| *l != "--" && !l.starts_with('>'))
        .filter(|l| !l.is_empty())
        .collect();
    matches!(own.as_slice(), [word] if ["status", "help"]
        .contains(&word.trim_end_matches(['.', '!', '?']).to_ascii_lowercase().as_str()))
}
