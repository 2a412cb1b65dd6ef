//! Receiving a Planar Control submission: a vote (with garnets) on Earth and Thera, a divination
//! on Limbo and Mobil, and the winners' elimination vote (spec planar-control.md, "Submissions").

use super::state::{Phase, Plane, State};
use crate::doc::{Choice, Doc, Node};
use crate::games::{Detail, Outcome};
use crate::player_id::PlayerId;
use crate::problem::Problem;

pub fn receive(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
    let mut out = Outcome::new(detail);
    match state.phase {
        Phase::Over => out.problems.push(Problem::general(
            "the game is over; no more submissions are read",
        )),
        Phase::Elimination => eliminate(state, player, doc, &mut out),
        Phase::Main => {
            let me = &state.players[player];
            let (plane, held) = (me.plane, me.garnets);
            if plane.is_large() {
                vote(state, player, plane, held, doc, &mut out);
            } else {
                divine(state, player, plane, doc, &mut out);
            }
        }
    }
    out
}

/// A vote of `player`, who is on `plane` holding `held` garnets.
fn vote(
    state: &mut State,
    player: &PlayerId,
    plane: Plane,
    held: i64,
    doc: &Doc,
    out: &mut Outcome,
) {
    out.problems.extend(
        doc.root()
            .unknown_keys(&["vote", "garnets", "token"], "a vote"),
    );
    if let Some(n) = doc.get("divine") {
        out.problems.push(Problem::at(
            n.pos,
            format!("you are on {}: you vote, you do not divine", title(plane)),
        ));
    }
    let target = match doc.get("vote") {
        None => None,
        Some(node) => match read_vote(node, state, player, plane) {
            Ok(t) => t,
            Err(p) => {
                out.problems.push(p);
                out.if_not_fixed = Some("you abstain".into());
                // spec: an invalid vote is an abstention
                let live = &mut state.players.get_mut(player).expect("checked").live;
                live.vote = None;
                live.spend = 0;
                live.submitted = true;
                return;
            }
        },
    };
    let spend = match doc.get("garnets") {
        None => 0,
        Some(node) => match (&node.value, &target) {
            (crate::doc::Value::Integer(n), Some(_)) if (0..=held).contains(n) => *n,
            (crate::doc::Value::Integer(n), Some(_)) => {
                out.problems.push(Problem::at(
                    node.pos,
                    format!("garnets = {n}: you hold {held}; your vote counts with none spent"),
                ));
                0
            }
            (crate::doc::Value::Integer(_), None) => {
                out.problems
                    .push(Problem::at(node.pos, "garnets need a vote; none spent"));
                0
            }
            (other, _) => {
                out.problems.push(Problem::at(
                    node.pos,
                    format!("garnets must be a whole number, not {}", other.type_name()),
                ));
                0
            }
        },
    };
    out.valid = true;
    out.understand(|| match &target {
        Some(t) if spend > 0 => format!(
            "vote to banish {t}, with {spend} garnet(s): {} votes",
            1 + 2 * spend
        ),
        Some(t) => format!("vote to banish {t}"),
        None => "abstain".to_owned(),
    });
    let live = &mut state.players.get_mut(player).expect("checked").live;
    live.vote = target;
    live.spend = spend;
    live.submitted = true;
}

/// The player `player` votes to banish: another player on `plane`, or nobody (`"abstain"`).
fn read_vote(
    node: &Node,
    state: &State,
    player: &PlayerId,
    plane: Plane,
) -> Result<Option<PlayerId>, Problem> {
    let text = node.as_str("vote")?.trim();
    if text.eq_ignore_ascii_case("abstain") || text.is_empty() {
        return Ok(None);
    }
    let mate = |id: &PlayerId| {
        id != player
            && state
                .players
                .get(id)
                .is_some_and(|p| p.plane == plane && !p.left)
    };
    PlayerId::named(text).filter(mate).map(Some).ok_or_else(|| {
        let others: Vec<PlayerId> = state.on(plane).into_iter().filter(mate).collect();
        Problem::at(
            node.pos,
            format!(
                "vote: \"{text}\" is not another player on {}; one of {} (or \"abstain\"); you abstain unless you fix it",
                title(plane),
                PlayerId::join(&others)
            ),
        )
    })
}

fn divine(state: &mut State, player: &PlayerId, plane: Plane, doc: &Doc, out: &mut Outcome) {
    out.problems.extend(
        doc.root()
            .unknown_keys(&["divine", "token"], "a divination"),
    );
    if let Some(n) = doc.get("vote").or(doc.get("garnets")) {
        out.problems.push(Problem::at(
            n.pos,
            format!("you are on {}: you divine, you do not vote", title(plane)),
        ));
    }
    let chosen = match doc.get("divine") {
        None => Ok(None),
        Some(node) => node.as_array("divine").and_then(|items| {
            let ids = items
                .iter()
                .map(|i| {
                    let text = i.as_str("divine")?;
                    PlayerId::named(text)
                        .filter(|id| id != player && state.players.contains_key(id))
                        .ok_or_else(|| {
                            Problem::at(
                                i.pos,
                                format!("divine: \"{text}\" is not another player of the game"),
                            )
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            match ids.as_slice() {
                [] => Ok(None),
                [a, b] if a != b => Ok(Some([a.clone(), b.clone()])),
                _ => Err(Problem::at(
                    node.pos,
                    "divine: name two different players other than you",
                )),
            }
        }),
    };
    let live = &mut state.players.get_mut(player).expect("checked").live;
    live.submitted = true;
    match chosen {
        Ok(pair) => {
            out.valid = true;
            out.understand(|| match &pair {
                Some([a, b]) => format!("divine {a} and {b}"),
                None => "no divination".to_owned(),
            });
            live.divine = pair;
        }
        Err(p) => {
            out.problems.push(p);
            out.if_not_fixed = Some("you divine nobody".into());
            live.divine = None;
        }
    }
}

fn eliminate(state: &mut State, player: &PlayerId, doc: &Doc, out: &mut Outcome) {
    if !state.winners().contains(player) {
        out.problems.push(Problem::general(
            "only the winning alignment votes in the elimination round; you have nothing to send",
        ));
        return;
    }
    out.problems.extend(
        doc.root()
            .unknown_keys(&["eliminate", "token"], "an elimination vote"),
    );
    let losing = state.losing_alignments();
    let table = match doc.get("eliminate").map(|n| n.as_table("eliminate")) {
        Some(Ok(t)) => t,
        Some(Err(p)) => return out.problems.push(p),
        None => {
            return out.problems.push(Problem::general(format!(
                "eliminate is missing: [eliminate] with one player for each of {}",
                losing
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    };
    let keys: Vec<&str> = losing.iter().map(|a| a.name()).collect();
    out.problems
        .extend(table.unknown_keys(&keys, "[eliminate]"));
    let mut votes = std::collections::BTreeMap::new();
    for alignment in &losing {
        let members: Vec<PlayerId> = state
            .players
            .iter()
            .filter(|(_, p)| p.alignment == *alignment)
            .map(|(id, _)| id.clone())
            .collect();
        match table.get(alignment.name()) {
            None => out.problems.push(Problem::general(format!(
                "eliminate.{}: missing; one of {}",
                alignment.name(),
                PlayerId::join(&members)
            ))),
            Some(node) => match node.as_str(&format!("eliminate.{}", alignment.name())) {
                Ok(text) => match PlayerId::named(text).filter(|id| members.contains(id)) {
                    Some(id) => {
                        out.understand(|| format!("{}: {id}", alignment.title()));
                        votes.insert(*alignment, id);
                    }
                    None => out.problems.push(Problem::at(
                        node.pos,
                        format!(
                            "eliminate.{}: \"{text}\" is not {}; one of {}",
                            alignment.name(),
                            alignment.title(),
                            PlayerId::join(&members)
                        ),
                    )),
                },
                Err(p) => out.problems.push(p),
            },
        }
    }
    out.valid = votes.len() == losing.len();
    let live = &mut state.players.get_mut(player).expect("checked").live;
    live.submitted = true;
    live.eliminate.extend(votes);
}

pub fn title(plane: Plane) -> &'static str {
    match plane {
        Plane::Earth => "Earth",
        Plane::Limbo => "Limbo",
        Plane::Thera => "Thera",
        Plane::Mobil => "Mobil",
    }
}
