//! `status`: where the game stands, for a host at a terminal. Reads only; never writes.

use crate::clock;
use crate::context::GameContext;
use crate::error::Result;
use crate::game_dir::SubmissionEntry;
use crate::games::Game;
use crate::games::WithGame;
use crate::receipts::Receipts;
use crate::submission::sha256_hex;
use std::fmt::Write;

pub struct Status<'a> {
    pub ctx: &'a GameContext,
    pub now: jiff::Timestamp,
}

/// Whether the round is paused, and its deadline with the time left.
fn schedule_lines(ctx: &GameContext, index: u32, now: jiff::Timestamp, out: &mut String) {
    if let Some(at) = ctx.paused(index) {
        let _ = writeln!(
            out,
            "Paused since {}: nothing resolves until `adjudicate resume` (or `round --force`)",
            clock::human_with_year(at)
        );
    }
    let _ = match ctx.deadline(index) {
        Some(d) => writeln!(
            out,
            "Deadline: {} ({})",
            clock::human_with_year(d),
            clock::relative(now, d)
        ),
        None => writeln!(
            out,
            "Deadline: none scheduled; resolve with `adjudicate round --force`"
        ),
    };
}

/// The host's actions while this round is current (host.toml), a line each.
fn action_lines(ctx: &GameContext, index: u32, out: &mut String) {
    for a in ctx.actions.iter().filter(|a| a.index == index) {
        let what = match (a.kind, &a.player, a.deadline(), a.round) {
            (crate::host_record::Kind::Enter, Some(p), _, _) => format!("enter for {p}"),
            (crate::host_record::Kind::Withdraw, Some(p), _, _) => format!("withdraw {p}"),
            (crate::host_record::Kind::Substitute, Some(p), _, _) => format!(
                "substitute {} for {} in seat {p}",
                a.person.as_ref().map_or("?", |x| x.name.as_str()),
                a.left.as_ref().map_or("?", |x| x.name.as_str())
            ),
            (crate::host_record::Kind::Undo, _, _, Some(r)) => {
                format!("undo of round {r}'s results")
            }
            (kind, _, Some(d), _) => format!("{} to {}", kind.name(), clock::human_with_year(d)),
            (kind, ..) => kind.name().to_owned(),
        };
        let at = clock::human_with_year(a.at());
        let _ = writeln!(out, "Host action {}: {what}, {at}: {}", a.n, a.reason);
    }
}

/// The people of the game who changed: each seat that changed hands with its holders, and each
/// player who left, a line each.
fn people_lines(ctx: &GameContext, out: &mut String) {
    use crate::host_record::Kind;
    for p in &ctx.config.players {
        let changes: Vec<_> = ctx
            .actions
            .iter()
            .filter(|a| a.kind == Kind::Substitute && a.player.as_ref() == Some(&p.id))
            .collect();
        if changes.is_empty() {
            continue;
        }
        let mut line = format!("Seat {}:", p.id);
        for (i, a) in changes.iter().enumerate() {
            let left = a.left.as_ref().map_or("?", |l| l.name.as_str());
            let sep = if i == 0 { " " } else { ", then " };
            let _ = write!(line, "{sep}{left} until {}", clock::human_with_year(a.at()));
        }
        let _ = writeln!(
            out,
            "{line}, then {} ({})",
            p.name,
            p.email.as_deref().unwrap_or("no address")
        );
    }
    for a in ctx.actions.iter().filter(|a| a.kind == Kind::Withdraw) {
        if let Some(id) = &a.player {
            let _ = writeln!(
                out,
                "Left the game: {} ({id}), {}: {}",
                ctx.name_at(id, Some(u32::MAX)),
                clock::human_with_year(a.at()),
                a.reason
            );
        }
    }
}

impl WithGame for Status<'_> {
    type Output = Result<String>;

    fn run<G: Game>(self) -> Self::Output {
        let ctx = self.ctx;
        let mut out = String::new();
        let _ = writeln!(out, "{} ({})", ctx.config.title, ctx.config.game.name());
        let Some(file) = ctx.load_state::<G>()? else {
            let _ = writeln!(
                out,
                "Not set up yet: the first `adjudicate round` deals the game."
            );
            return Ok(out);
        };
        let state = &file.game;
        let round = G::round(state);
        people_lines(ctx, &mut out);
        if G::is_over(state) {
            let _ = writeln!(out, "The game is over (last round {round}).");
            return Ok(out);
        }
        let _ = writeln!(out, "Round {round}");
        schedule_lines(ctx, G::rounds_played(state), self.now, &mut out);
        action_lines(ctx, G::rounds_played(state), &mut out);
        let receipts = Receipts::load(&ctx.dir, &ctx.config, round)?;
        for line in crate::tick::closed_round_files(ctx, round) {
            let _ = writeln!(out, "Warning: {line}");
        }
        // Indexed by player: one lookup each, whatever the number of players.
        let on_disk: std::collections::BTreeMap<_, _> = ctx
            .dir
            .submission_entries(round)?
            .into_iter()
            .filter_map(|e| match e {
                SubmissionEntry::File { player, path } => Some((player, path)),
                SubmissionEntry::Stray { .. } => None,
            })
            .collect();
        let mut last_receipt = std::collections::BTreeMap::new();
        for r in &receipts.list {
            last_receipt.insert(&r.player, r);
        }
        // Messages of this round that gave no version, per player and from non-players.
        let origins = crate::ingest::read_origins(ctx, round)?;
        let mut unused: std::collections::BTreeMap<_, Vec<_>> = std::collections::BTreeMap::new();
        for u in &origins.unused {
            unused.entry(u.player.as_ref()).or_default().push(u);
        }
        let expected = ctx.expected::<G>(state);
        let valid = expected.iter().filter(|p| G::has_valid(state, p)).count();
        let _ = writeln!(out, "Valid submissions: {valid} of {}", expected.len());
        if let Some(limit) = ctx.config.schedule.as_ref().and_then(|s| s.missed_limit) {
            let missed = crate::result_file::missed_in_a_row(ctx, round, &expected, limit)?;
            if !missed.is_empty() {
                let _ = writeln!(
                    out,
                    "Missed {limit} round(s) in a row (missed_limit): {}",
                    crate::player_id::PlayerId::join(&missed)
                );
            }
        }
        for id in &expected {
            let last = last_receipt.get(id).copied();
            let mut text = standing(G::has_valid(state, id), last);
            let pending = on_disk.get(id).is_some_and(|path| {
                std::fs::read(path).is_ok_and(|b| last.is_none_or(|r| r.sha256 != sha256_hex(&b)))
            });
            if let Some(r) = last.filter(|r| r.late) {
                text.push_str(&format!(
                    "; version {} reached the host after the deadline ({}): archived, not used",
                    r.n,
                    r.reached()
                ));
            }
            if pending {
                text.push_str("; a new version waits for the next tick");
            }
            if let Some(list) = unused.get(&Some(id)) {
                let last = list.last().map_or("", |u| u.why.as_str());
                text.push_str(&format!(
                    "; {} message(s) gave no version (last: {last})",
                    list.len()
                ));
            }
            let _ = writeln!(out, "  {:<12} {text}", id.as_str());
        }
        if let Some(list) = unused.get(&None) {
            mail_not_used(list, &mut out);
        }
        mail_lines(ctx, &mut out)?;
        Ok(out)
    }
}

/// What waits in the mail queues: the outbox (and why the last send stopped), chat files to
/// paste, and messages the server refused.
fn mail_lines(ctx: &GameContext, out: &mut String) -> Result<()> {
    let waiting = crate::mail::outbox_names(&ctx.dir)?.len();
    if waiting > 0 {
        let _ = writeln!(
            out,
            "Outbox: {waiting} message(s) waiting to be sent (`adjudicate send`)"
        );
        let why = ctx.dir.outbox().join(crate::mail::outbox::WHY_FILE);
        if let Ok(why) = std::fs::read_to_string(why) {
            let _ = writeln!(out, "  last attempt: {why}");
        }
    }
    let chat = crate::mail::chat::waiting(&ctx.dir);
    if !chat.is_empty() {
        let each: Vec<String> = chat.iter().map(|(to, n)| format!("{to} {n}")).collect();
        let _ = writeln!(
            out,
            "Chat: {} message(s) to paste, in outbox/chat/ ({}); move each to sent/chat/ once pasted",
            chat.values().sum::<usize>(),
            each.join(", ")
        );
    }
    let failed = std::fs::read_dir(ctx.dir.root().join("failed")).map_or(0, |d| d.count());
    if failed > 0 {
        let _ = writeln!(
            out,
            "Failed: {failed} message(s) refused by the mail server, kept in failed/"
        );
    }
    Ok(())
}

/// Mail from senders who are not players: listed once here, never answered.
fn mail_not_used(list: &[&crate::ingest::Unused], out: &mut String) {
    let _ = writeln!(
        out,
        "Mail not used ({}): from senders who are not players, not answered",
        list.len()
    );
    for u in list {
        let at = jiff::Timestamp::from_second(u.reached)
            .map_or_else(|_| u.reached.to_string(), clock::human);
        let _ = writeln!(out, "  {at}  {}", u.sender);
    }
}

/// Where a player stands: whether a valid choice is on file, and what their latest version was.
fn standing(valid: bool, last: Option<&crate::receipts::Receipt>) -> String {
    match (valid, last) {
        (true, Some(r)) if r.valid => format!("valid (latest version {})", r.n),
        (true, Some(r)) => format!(
            "valid: an earlier version counts; the latest, version {}, is NOT valid ({} problem(s))",
            r.n,
            r.problems.len()
        ),
        (true, None) => "valid".to_owned(),
        (false, Some(r)) if r.late => "NO valid choice".to_owned(),
        (false, Some(r)) => format!(
            "NO valid choice (version {}: {} problem(s))",
            r.n,
            r.problems.len()
        ),
        (false, None) => "nothing received yet".to_owned(),
    }
}
