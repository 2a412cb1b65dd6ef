//! Reading one version of a vote (spec tribal-council.md, "Submissions"): `vote`, and at the first
//! vote of an elimination `idol` and `extra_vote`. A version is valid when every part of it is; a
//! valid version replaces the player's choices.

use super::state::{Live, Mode, Stage, State};
use crate::doc::{Doc, Node};
use crate::games::{Detail, Outcome};
use crate::player_id::PlayerId;
use crate::problem::Problem;

/// Every top-level key a vote may hold.
pub const KEYS: &[&str] = &["vote", "idol", "extra_vote", "token"];

pub fn receive(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
    let mut out = Outcome::new(detail);
    if state.stage == Stage::Over {
        out.problems.push(Problem::general(
            "the council is over; no more votes are read",
        ));
        return out;
    }
    let Some(me) = state.players.get(player) else {
        out.problems
            .push(Problem::general("you are not at this council"));
        return out;
    };
    out.problems
        .extend(doc.root().unknown_keys(KEYS, "a Tribal Council vote"));
    let mut live = Live {
        valid: false,
        ..Live::default()
    };
    let candidates = state.candidates();
    let allowed = PlayerId::join(&candidates);
    let votes = state.voters().contains(player);
    if let Some(node) = doc.get("vote") {
        match read_one(node, "vote", &candidates, &allowed) {
            Err(p) => out.problems.push(p),
            Ok(_) if !votes => out
                .problems
                .push(Problem::at(node.pos, cannot_vote(state, player))),
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
    if let Some(node) = doc.get("idol") {
        if !state.advantages() {
            out.problems
                .push(Problem::at(node.pos, not_now("idol", state)));
        } else {
            match read_list(node, "idol", &attending, &PlayerId::join(&attending)) {
                Err(p) => out.problems.extend(p),
                Ok(ids) if ids.len() as u32 > me.idols => out.problems.push(Problem::at(
                    node.pos,
                    format!(
                        "idol: you play {} but hold {}",
                        ids.len(),
                        held(me.idols, "idol")
                    ),
                )),
                Ok(ids) => live.idol = ids,
            }
        }
    }
    if let Some(node) = doc.get("extra_vote") {
        if !state.advantages() {
            out.problems
                .push(Problem::at(node.pos, not_now("extra_vote", state)));
        } else {
            match read_list(node, "extra_vote", &candidates, &allowed) {
                Err(p) => out.problems.extend(p),
                Ok(ids) if ids.len() as u32 > me.extra_votes => out.problems.push(Problem::at(
                    node.pos,
                    format!(
                        "extra_vote: you cast {} but hold {}",
                        ids.len(),
                        held(me.extra_votes, "Extra Vote")
                    ),
                )),
                Ok(ids) => live.extra_vote = ids,
            }
        }
    }
    if out.problems.is_empty() {
        live.valid = true;
        out.valid = true;
        understood(&live, &mut out);
        state.players.get_mut(player).expect("checked above").live = live;
    }
    out
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

/// One player of `allowed` named by a string.
fn read_one(
    node: &Node,
    key: &str,
    allowed: &[PlayerId],
    listed: &str,
) -> Result<PlayerId, Problem> {
    let text = node.as_str(key)?;
    PlayerId::named(text)
        .filter(|id| allowed.contains(id))
        .ok_or_else(|| {
            Problem::at(
                node.pos,
                format!("{key}: \"{text}\" cannot receive it; one of {listed}"),
            )
        })
}

/// A name or a list of names, each of `allowed`.
fn read_list(
    node: &Node,
    key: &str,
    allowed: &[PlayerId],
    listed: &str,
) -> Result<Vec<PlayerId>, Vec<Problem>> {
    if node.as_str(key).is_ok() {
        return read_one(node, key, allowed, listed)
            .map(|id| vec![id])
            .map_err(|p| vec![p]);
    }
    let items = node.as_array(key).map_err(|p| vec![p])?;
    let mut ids = Vec::new();
    let mut problems = Vec::new();
    for item in items {
        match read_one(item, key, allowed, listed) {
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
