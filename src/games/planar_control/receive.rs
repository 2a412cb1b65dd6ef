//! Checking a Planar Control submission against the round and applying it: a vote (with
//! garnets) on Earth and Thera, a divination on Limbo and Mobil, and the winners' elimination
//! vote (spec planar-control.md, "Submissions"). A file is read into a `Version` first
//! (`version.rs`); a bot's version comes here as is.

use super::PlanarControl;
use super::state::{Phase, Plane, State};
use super::version::{Divined, Eliminate, Version, Vote};
use crate::doc::{Choice, Doc, Writer};
use crate::games::Outcome;
use crate::games::version::{Given, Seat, Versioned};
use crate::player_id::PlayerId;
use crate::problem::Problem;

impl Versioned for PlanarControl {
    type Version = Version;

    fn seat_of(state: &State, player: &PlayerId) -> Result<usize, Problem> {
        let at = state.players.index_of(player);
        at.ok_or_else(|| Problem::general("you are not a player of this game"))
    }

    fn refuse(state: &State, player: Seat<'_>) -> Option<Problem> {
        match state.phase {
            Phase::Over => Some(Problem::general(
                "the game is over; no more submissions are read",
            )),
            Phase::Elimination if !state.winners().contains(player.id) => Some(Problem::general(
                "only the winning alignment votes in the elimination round; you have nothing to send",
            )),
            _ => None,
        }
    }

    fn read(state: &State, player: Seat<'_>, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        Version::read(state, player.id, doc, problems)
    }

    fn apply(state: &mut State, seat: Seat<'_>, version: Version, out: &mut Outcome) {
        match state.phase {
            Phase::Over => {}
            Phase::Elimination => eliminate(state, seat, version.eliminate, out),
            Phase::Main => {
                let me = state.players.at(seat.at);
                let (plane, held) = (me.plane, me.garnets);
                if plane.is_large() {
                    vote(state, seat, plane, held, version, out);
                } else {
                    divine(state, seat, version.divine, out);
                }
            }
        }
    }

    fn write(version: &Version) -> Writer {
        version.write()
    }
}

/// A vote of `player`, who is on `plane` holding `held` garnets.
fn vote(
    state: &mut State,
    player: Seat<'_>,
    plane: Plane,
    held: i64,
    version: Version,
    out: &mut Outcome,
) {
    let target = match version.vote {
        None => None,
        Some(given) => match checked_vote(given, state, player.id, plane) {
            Ok(t) => t,
            Err(p) => {
                out.problems.push(p);
                out.if_not_fixed_in(|| "you abstain".into());
                // spec: an invalid vote is an abstention
                let live = &mut state.players.at_mut(player.at).live;
                live.vote = None;
                live.spend = 0;
                live.submitted = true;
                return;
            }
        },
    };
    let spend = match version.garnets {
        None => 0,
        Some(given) => match (&given.value, &target) {
            (Ok(n), Some(_)) if (0..=held).contains(n) => *n,
            (Ok(n), Some(_)) => {
                out.problems.push(given.problem(format!(
                    "garnets = {n}: you hold {held}; your vote counts with none spent"
                )));
                0
            }
            (Ok(_), None) => {
                out.problems
                    .push(given.problem("garnets need a vote; none spent"));
                0
            }
            (Err(p), _) => {
                out.problems.push(Problem::clone(p));
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
    let live = &mut state.players.at_mut(player.at).live;
    live.vote = target;
    live.spend = spend;
    live.submitted = true;
}

/// The player `player` votes to banish: another player on `plane`, or nobody (`"abstain"`).
fn checked_vote(
    given: Given<Vote>,
    state: &State,
    player: &PlayerId,
    plane: Plane,
) -> Result<Option<PlayerId>, Problem> {
    let name = match &given.value {
        Ok(Vote::Abstain) => return Ok(None),
        Ok(Vote::Banish(name)) => name,
        Err(p) => return Err(Problem::clone(p)),
    };
    let mate = |id: &PlayerId| {
        id != player
            && state
                .players
                .get(id)
                .is_some_and(|p| p.plane == plane && !p.left)
    };
    name.id().filter(mate).map(Some).ok_or_else(|| {
        let others: Vec<PlayerId> = state.on(plane).into_iter().filter(mate).collect();
        given.problem(format!(
            "vote: \"{}\" is not another player on {}; one of {} (or \"abstain\"); you abstain unless you fix it",
            name.text().trim(),
            title(plane),
            PlayerId::join(&others)
        ))
    })
}

fn divine(state: &mut State, player: Seat<'_>, given: Option<Given<Divined>>, out: &mut Outcome) {
    let chosen = match given {
        None => Ok(None),
        Some(given) => checked_pair(state, player.id, given),
    };
    let live = &mut state.players.at_mut(player.at).live;
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
            out.if_not_fixed_in(|| "you divine nobody".into());
            live.divine = None;
        }
    }
}

/// Two different other players of the game, or none at all; the first problem otherwise.
fn checked_pair(
    state: &State,
    player: &PlayerId,
    given: Given<Divined>,
) -> Result<Option<[PlayerId; 2]>, Problem> {
    let items = given.value.as_ref().map_err(Clone::clone)?;
    let ids = items
        .iter()
        .map(|item| {
            let name = item.value.as_ref().map_err(Clone::clone)?;
            name.id()
                .filter(|id| id != player && state.players.contains_key(id))
                .ok_or_else(|| {
                    item.problem(format!(
                        "divine: \"{}\" is not another player of the game",
                        name.text()
                    ))
                })
        })
        .collect::<Result<smallvec::SmallVec<[PlayerId; 2]>, _>>()?;
    match ids.as_slice() {
        [] => Ok(None),
        [a, b] if a != b => Ok(Some([a.clone(), b.clone()])),
        _ => Err(given.problem("divine: name two different players other than you")),
    }
}

fn eliminate(
    state: &mut State,
    player: Seat<'_>,
    given: Option<Given<Eliminate>>,
    out: &mut Outcome,
) {
    let losing = state.losing_alignments();
    let table = match given.map(|g| g.value) {
        Some(Ok(t)) => t,
        Some(Err(p)) => return out.problems.push(*p),
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
    out.problems.extend(table.unknown);
    let mut votes = std::collections::BTreeMap::new();
    for alignment in &losing {
        let members: Vec<PlayerId> = state
            .players
            .iter()
            .filter(|(_, p)| p.alignment == *alignment)
            .map(|(id, _)| id.clone())
            .collect();
        let given = table
            .votes
            .iter()
            .find(|(a, _)| a == alignment)
            .map(|(_, g)| g);
        match given.map(|g| (g, &g.value)) {
            None => out.problems.push(Problem::general(format!(
                "eliminate.{}: missing; one of {}",
                alignment.name(),
                PlayerId::join(&members)
            ))),
            Some((given, Ok(name))) => match name.id().filter(|id| members.contains(id)) {
                Some(id) => {
                    out.understand(|| format!("{}: {id}", alignment.title()));
                    votes.insert(*alignment, id);
                }
                None => out.problems.push(given.problem(format!(
                    "eliminate.{}: \"{}\" is not {}; one of {}",
                    alignment.name(),
                    name.text(),
                    alignment.title(),
                    PlayerId::join(&members)
                ))),
            },
            Some((_, Err(p))) => out.problems.push(Problem::clone(p)),
        }
    }
    out.valid = votes.len() == losing.len();
    let live = &mut state.players.at_mut(player.at).live;
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
