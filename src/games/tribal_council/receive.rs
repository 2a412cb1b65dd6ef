//! Checking one version of a vote against the council (spec tribal-council.md,
//! "Submissions"): `vote`, and at the first vote of an elimination `idol` and `extra_vote`. A
//! file is read into a `Version` first (`version.rs`); a bot's version comes here as is. A
//! version is valid when every part of it is; a valid version replaces the player's choices.

use super::TribalCouncil;
use super::state::{Live, Mode, Stage, State};
use super::version::Version;
use crate::doc::{Doc, Writer};
use crate::games::Outcome;
use crate::games::version::{Given, Name, Seat, Versioned};
use crate::player_id::PlayerId;
use crate::problem::Problem;

pub use super::version::KEYS;

impl Versioned for TribalCouncil {
    type Version = Version;

    fn seat_of(state: &State, player: &PlayerId) -> Result<usize, Problem> {
        let at = state.players.index_of(player);
        at.ok_or_else(|| {
            over(state).unwrap_or_else(|| Problem::general("you are not at this council"))
        })
    }

    fn refuse(state: &State, _: Seat<'_>) -> Option<Problem> {
        over(state)
    }

    fn read(_: &State, _: Seat<'_>, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        Version::read(doc, problems)
    }

    fn apply(state: &mut State, player: Seat<'_>, version: Version, out: &mut Outcome) {
        apply(state, player, version, out);
    }

    fn write(version: &Version) -> Writer {
        version.write()
    }
}

/// A council that is over reads nothing more, from anyone.
fn over(state: &State) -> Option<Problem> {
    (state.stage == Stage::Over)
        .then(|| Problem::general("the council is over; no more votes are read"))
}

fn apply(state: &mut State, seat: Seat<'_>, version: Version, out: &mut Outcome) {
    let (player, me) = (seat.id, state.players.at(seat.at));
    let mut live = Live {
        valid: false,
        ..Live::default()
    };
    let candidates = state.candidates();
    let allowed = PlayerId::join(&candidates);
    let votes = state.voters().contains(player);
    if let Some(given) = &version.vote {
        match checked_one(given, "vote", &candidates, &allowed) {
            Err(p) => out.problems.push(p),
            Ok(_) if !votes => out.problems.push(given.problem(cannot_vote(state, player))),
            Ok(id) => live.vote = Some(id),
        }
    } else if state.options.mode == Mode::Jury || state.stage != Stage::First {
        out.problems.push(Problem::general(if votes {
            format!("vote is missing: name one of {allowed}")
        } else {
            cannot_vote(state, player)
        }));
    }
    let attending: Vec<PlayerId> = state.players.keys().cloned().collect();
    if let Some(given) = &version.idol {
        if !state.advantages() {
            out.problems.push(given.problem(not_now("idol", state)));
        } else {
            match checked_list(given, "idol", &attending, &PlayerId::join(&attending)) {
                Err(p) => out.problems.extend(p),
                Ok(ids) if ids.len() as u32 > me.idols => {
                    out.problems.push(given.problem(format!(
                        "idol: you play {} but hold {}",
                        ids.len(),
                        held(me.idols, "idol")
                    )))
                }
                Ok(ids) => live.idol = ids,
            }
        }
    }
    if let Some(given) = &version.extra_vote {
        if !state.advantages() {
            out.problems
                .push(given.problem(not_now("extra_vote", state)));
        } else {
            match checked_list(given, "extra_vote", &candidates, &allowed) {
                Err(p) => out.problems.extend(p),
                Ok(ids) if ids.len() as u32 > me.extra_votes => {
                    out.problems.push(given.problem(format!(
                        "extra_vote: you cast {} but hold {}",
                        ids.len(),
                        held(me.extra_votes, "Extra Vote")
                    )))
                }
                Ok(ids) => live.extra_vote = ids,
            }
        }
    }
    if out.problems.is_empty() {
        live.valid = true;
        out.valid = true;
        understood(&live, out);
        state.players.get_mut(player).expect("checked above").live = live;
    }
}

/// Why `player` has no vote in the vote being taken.
fn cannot_vote(state: &State, player: &PlayerId) -> String {
    let me = &state.players[player];
    if state.options.mode == Mode::Jury && me.finalist {
        "finalists do not vote: the jury chooses among you".into()
    } else if state.stage == Stage::Revote && state.tied.contains(player) {
        "you are tied: the others vote between the tied players, and you do not vote in the revote"
            .into()
    } else {
        "you have no vote at this council (can_vote = false)".into()
    }
}

fn not_now(key: &str, state: &State) -> String {
    match state.options.mode {
        Mode::Jury => format!("{key}: there are no idols or extra votes in a jury vote"),
        Mode::Elimination => format!(
            "{key}: idols and extra votes are played at the first vote only, not in vote {}",
            state.round
        ),
    }
}

fn held(n: u32, what: &str) -> String {
    match n {
        0 => format!("no {what}"),
        1 => format!("one {what}"),
        n => format!("{n} {what}s"),
    }
}

/// One player of `allowed`, as named.
fn checked_one(
    given: &Given<Name>,
    key: &str,
    allowed: &[PlayerId],
    listed: &str,
) -> Result<PlayerId, Problem> {
    let name = given.value.as_ref().map_err(Clone::clone)?;
    name.id().filter(|id| allowed.contains(id)).ok_or_else(|| {
        given.problem(format!(
            "{key}: \"{}\" cannot receive it; one of {listed}",
            name.text()
        ))
    })
}

/// A name or a list of names, each of `allowed` (a problem for each that is not).
fn checked_list(
    given: &Given<Vec<Given<Name>>>,
    key: &str,
    allowed: &[PlayerId],
    listed: &str,
) -> Result<Vec<PlayerId>, Vec<Problem>> {
    let items = given.value.as_ref().map_err(|p| vec![Problem::clone(p)])?;
    let mut ids = Vec::new();
    let mut problems = Vec::new();
    for item in items {
        match checked_one(item, key, allowed, listed) {
            Ok(id) => ids.push(id),
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        Ok(ids)
    } else {
        Err(problems)
    }
}

fn understood(live: &Live, out: &mut Outcome) {
    out.understand(|| match &live.vote {
        Some(v) => format!("vote: {v}"),
        None => "vote: none (your missing vote applies)".into(),
    });
    if !live.idol.is_empty() {
        out.understand(|| format!("idol played for: {}", PlayerId::join(&live.idol)));
    }
    if !live.extra_vote.is_empty() {
        out.understand(|| format!("extra vote: {}", PlayerId::join(&live.extra_vote)));
    }
}
