//! The tick's first stage: receive. Applies what a killed tick left unapplied, then every new
//! version of the current round in the order it reached the host (ties: player id): archived
//! (redacted) in `received/`, screened, given to the rules (whose instant actions answer at
//! once), and recorded in receipts.toml. Hands on the receipts and what waits to be
//! acknowledged.

use super::answer::{Pending, origin_of};
use super::queue::Mailer;
use super::{Received, TickOptions, check_applied, finish, reapply};
use crate::clock;
use crate::context::StateFile;
use crate::error::{Error, Result};
use crate::games::{Game, Outcome};
use crate::ingest::Origins;
use crate::player_id::PlayerId;
use crate::problem::Problem;
use crate::receipts::{Receipt, Receipts};
use crate::submission::{screen, sha256_hex};
use jiff::Timestamp;
use std::collections::BTreeMap;

/// What the receive stage hands on.
pub(super) struct Receiving {
    pub receipts: Receipts,
    /// The latest receipt of each player, by position.
    pub latest: BTreeMap<PlayerId, usize>,
    /// Where ingest got each file from (mail, chat), and the messages that gave no version.
    pub origins: Origins,
    /// The versions to acknowledge, once the tick knows whether it resolves the round.
    pub pending: Vec<Pending>,
}

pub(super) fn receive<G: Game>(
    opts: &TickOptions,
    mail: &mut Mailer<'_>,
    file: &mut StateFile<G::State>,
    seen: &mut crate::tick_cache::Seen,
) -> Result<Receiving> {
    let ctx = mail.ctx;
    let round = G::round(&file.game);
    let receipts = Receipts::load(&ctx.dir, &ctx.config, round)?;
    if file.receipts_applied > receipts.list.len() {
        return Err(Error::invalid(
            ctx.dir.state_toml(),
            "receipts_applied",
            format!(
                "is {} but {} holds {} receipts",
                file.receipts_applied,
                ctx.dir.receipts(round).display(),
                receipts.list.len()
            ),
        ));
    }
    check_applied::<G>(ctx, &file.game, &receipts.list[..file.receipts_applied])?;
    let mut received = Receiving {
        // Where ingest got each file from (mail, chat): to record it, to date it by when it
        // reached the host, to reply to the message, and to tell the player what was not read.
        origins: crate::ingest::read_origins(ctx, round)?,
        receipts,
        latest: BTreeMap::new(),
        // Acknowledgements wait until the tick knows whether it resolves the round: one written
        // by the tick that closes the round says so, instead of inviting new versions.
        pending: Vec::new(),
    };
    // A previous tick may have written receipts and died before state.toml: apply the rest.
    for seq in file.receipts_applied..received.receipts.list.len() {
        let receipt = received.receipts.list[seq].clone();
        let outcome = reapply::<G>(ctx, &mut file.game, round, &receipt)?;
        received.pending.push(Pending {
            seq,
            outcome,
            origin: origin_of(&received.origins, &receipt).cloned(),
        });
    }
    // The latest receipt of each player, by position: one lookup per file, whatever the size.
    received.latest = received
        .receipts
        .list
        .iter()
        .enumerate()
        .map(|(i, r)| (r.player.clone(), i))
        .collect();
    let arrivals = arrivals(opts, mail, round, &received, seen)?;
    let new_receipts = !arrivals.is_empty();
    received.receipts.list.reserve_exact(arrivals.len());
    // The round's first versions: their copies go straight into a new received/ written early
    // (`Plan::early_folder`), not held for the commit.
    let archive = if new_receipts {
        mail.plan.early_folder(ctx.dir.received_dir(round))?
    } else {
        None
    };
    for arrival in arrivals {
        let at = (round, archive.as_ref());
        receive_one::<G>(opts, mail, file, at, &mut received, arrival)?;
    }
    if new_receipts {
        received.receipts.plan(mail.plan, &ctx.dir, round)?;
    }
    file.receipts_applied = received.receipts.list.len();
    Ok(received)
}

/// A new version of a player's file, as it reached the host.
struct Arrival {
    reached: Timestamp,
    player: PlayerId,
    bytes: Vec<u8>,
    sha256: String,
    /// Where ingest got it from, if it is still the file ingest wrote.
    origin: Option<crate::ingest::Origin>,
}

/// The files of the round that differ from their player's latest receipt, in the order they
/// reached the host (ties: player id), so an instant action sees every version that reached the
/// host before it, whatever the ids. Strays are reported.
fn arrivals(
    opts: &TickOptions,
    mail: &mut Mailer<'_>,
    round: u32,
    received: &Receiving,
    seen: &mut crate::tick_cache::Seen,
) -> Result<Vec<Arrival>> {
    let ctx = mail.ctx;
    let mut files = Vec::new();
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
        files.push((format!("{player}.toml"), player, path));
    }
    // Hashed only if its size, mtime or inode changed since a tick last hashed it; a big
    // round's files are looked at on every core.
    let probe = |(name, _, path): &(String, PlayerId, std::path::PathBuf)| {
        seen.probe(name, path).map_err(|e| Error::io(path, e))
    };
    let probes: Vec<Result<crate::tick_cache::Probe>> =
        if files.len() < crate::result_file::PARALLEL_FROM {
            files.iter().map(probe).collect()
        } else {
            use rayon::prelude::*;
            files.par_iter().map(probe).collect()
        };
    let mut arrivals = Vec::new();
    for ((name, player, path), probe) in files.into_iter().zip(probes) {
        let probe = probe?;
        seen.keep(&name, &probe);
        let crate::tick_cache::Probe { sha256, bytes, .. } = probe;
        if received
            .latest
            .get(&player)
            .is_some_and(|i| received.receipts.list[*i].sha256 == sha256)
        {
            continue;
        }
        let bytes = match bytes {
            Some(bytes) => bytes,
            None => std::fs::read(&path).map_err(|e| Error::io(&path, e))?,
        };
        let origin = received
            .origins
            .origin
            .get(&player)
            .filter(|o| o.sha256 == sha256)
            .cloned();
        // A file put in by hand reaches the host when a tick first sees it.
        let reached = origin
            .as_ref()
            .and_then(|o| Timestamp::from_second(o.reached).ok())
            .unwrap_or(opts.now);
        arrivals.push(Arrival {
            reached,
            player,
            bytes,
            sha256,
            origin,
        });
    }
    arrivals.sort_by(|a, b| (a.reached, &a.player).cmp(&(b.reached, &b.player)));
    Ok(arrivals)
}

/// The copy of `player`'s `n`th version of the round `at.0`, as archived: written into the
/// round's new received/ if it is written early (`at.1`), else planned.
fn archive_copy(
    mail: &mut Mailer<'_>,
    at: (u32, Option<&crate::plan::EarlyFolder>),
    player: &PlayerId,
    n: u32,
    bytes: Vec<u8>,
) -> Result<()> {
    match at.1 {
        Some(folder) => folder.write(&crate::game_dir::received_name(player, n), &bytes),
        None => {
            let path = mail.ctx.dir.received(at.0, player, n);
            mail.plan.file(path, bytes);
            Ok(())
        }
    }
}

/// One new version: archived (redacted), screened, given to the rules unless it came after the
/// deadline, and recorded as the next receipt. `at`: the round, and its new received/ if it
/// is written early.
fn receive_one<G: Game>(
    opts: &TickOptions,
    mail: &mut Mailer<'_>,
    file: &mut StateFile<G::State>,
    at: (u32, Option<&crate::plan::EarlyFolder>),
    received: &mut Receiving,
    arrival: Arrival,
) -> Result<()> {
    let round = at.0;
    let ctx = mail.ctx;
    let Arrival {
        reached,
        player,
        bytes,
        sha256,
        origin,
    } = arrival;
    let receipts = &mut received.receipts;
    let last = received.latest.get(&player).map(|i| &receipts.list[*i]);
    let n = last.map_or(1, |r| r.n + 1);
    if let Some(i) = received.latest.get(&player) {
        // A new version: the one it follows must be what its receipt says, or a hand edit of
        // receipts.toml would pass for a version the player never sent.
        receipts.list[*i].verify(&ctx.dir, round, *i)?;
    }
    let screened = screen(
        &bytes,
        ctx.secrets.tokens.get(&player).map(String::as_str),
        &ctx.secrets.redactor,
    );
    // Spec README, "When a version counts": after the deadline, archived but never applied;
    // while the host has paused the round, nothing is late.
    let index = G::rounds_played(&file.game);
    let late = ctx.late_after(index).filter(|d| reached > *d);
    // A player who left the game is answered, never read (`adjudicate withdraw`).
    let gone = ctx
        .left(&player)
        .filter(|a| a.index <= G::rounds_played(&file.game));
    let refused = screened.doc.is_err() || late.is_some() || gone.is_some();
    let mut outcome = match (&screened.doc, late) {
        _ if gone.is_some() => Outcome::refused(Problem::general(format!(
            "you have left this game (the host withdrew you: {}); nothing you send is read",
            gone.map_or("", |a| a.reason.trim_end_matches('.'))
        ))),
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
    if gone.is_some() {
        outcome.plays = false;
        outcome.if_not_fixed = None;
    }
    let archived = (screened.archive != bytes).then(|| sha256_hex(&screened.archive));
    archive_copy(mail, at, &player, n, screened.archive)?;
    let receipt = Receipt {
        player: player.clone(),
        n,
        at: clock::rfc3339(opts.now),
        reached: Some(clock::rfc3339(reached)),
        sha256,
        archived,
        source: origin
            .as_ref()
            .map_or_else(|| "file".to_owned(), |o| o.source.clone()),
        reason: origin.as_ref().and_then(|o| o.reason.clone()),
        message_id: origin.as_ref().and_then(|o| o.message_id.clone()),
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
    received.pending.push(Pending {
        seq: receipts.list.len(),
        outcome,
        origin,
    });
    received
        .latest
        .insert(receipt.player.clone(), receipts.list.len());
    receipts.list.push(receipt);
    Ok(())
}
