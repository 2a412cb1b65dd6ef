//! Resolving a Planar Control round: banishment by weighted votes with seeded tie-breaks, the
//! simultaneous moves, control of the large planes, divinations, the end of the six rounds and
//! the elimination vote (spec planar-control.md, "Resolution" and "End of the game").

use super::state::{Alignment, LargePlanes, Live, Phase, Plane, State};
use crate::doc::Choice;
use crate::games::{Detail, PrivatePart, Resolution, RoundResult, Seats, garnet_changes};
use crate::player_id::PlayerId;
use crate::rng;
use rand::seq::IndexedRandom;
use serde::Serialize;
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// A round's announcement, `[public]`: also what the simulator's bots hear (`Simulated::Heard`).
#[derive(Serialize)]
pub struct Public {
    round: u32,
    phase: Phase,
    banished: LargePlanes<PlayerId>,
    pub control: LargePlanes<Alignment>,
    planes: Seats<Plane>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_round: Option<u32>,
    next_phase: Phase,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#final: Option<Final>,
}

#[derive(Serialize, Default)]
pub struct Final {
    #[serde(skip_serializing_if = "Seats::is_empty")]
    alignments: Seats<Alignment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<Alignment>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tokens: Vec<PlayerId>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub elimination: BTreeMap<Alignment, PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_pick: Option<PlayerId>,
}

#[derive(Serialize)]
struct Private {
    alignment: Alignment,
    plane: Plane,
    garnets: i64,
    garnets_change: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    voted: Option<PlayerId>,
    spent: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divination: Option<Divination>,
    /// What to send next: "vote", "divine", "eliminate" or "none".
    next: &'static str,
    /// Whom the next vote may name (the player's plane, after the moves).
    choices: Vec<PlayerId>,
    /// Elimination round, for a winner: the members of each losing alignment.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    losers: BTreeMap<Alignment, Vec<PlayerId>>,
}

#[derive(Serialize)]
struct Divination {
    players: [PlayerId; 2],
    /// "first" (the first is stronger), "second", or "same".
    answer: &'static str,
}

/// Control of a plane (spec ruling 3): the most numerous alignment; a tie of two goes to the
/// stronger; a three-way tie is nobody's.
pub fn control(state: &State, plane: Plane) -> Option<Alignment> {
    // counts[i]: players of `Alignment::ALL[i]`
    let mut counts = [0usize; Alignment::ALL.len()];
    for p in state
        .players
        .values()
        .filter(|p| p.plane == plane && !p.left)
    {
        let slot = Alignment::ALL.iter().position(|a| *a == p.alignment);
        counts[slot.expect("every alignment is in ALL")] += 1;
    }
    let top = counts.iter().copied().max().filter(|n| *n > 0)?;
    let mut leaders = Alignment::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n == top)
        .map(|(a, _)| *a);
    match (leaders.next(), leaders.next(), leaders.next()) {
        (Some(one), None, _) => Some(one),
        (Some(a), Some(b), None) => Some(Alignment::stronger(a, b)),
        _ => None,
    }
}

/// The opening announcement: who is where, and control if the options reveal it.
pub fn opening_public(state: &State) -> Public {
    Public {
        round: 0,
        phase: Phase::Main,
        banished: LargePlanes::default(),
        control: if state.options.reveal_initial_control {
            controls(state)
        } else {
            LargePlanes::default()
        },
        planes: state
            .players
            .iter()
            .map(|(id, p)| (id.clone(), p.plane))
            .collect(),
        next_round: Some(state.round),
        next_phase: Phase::Main,
        r#final: None,
    }
}

/// The opening: its announcement and each player's alignment, plane and choices.
pub fn opening(state: &State) -> RoundResult {
    let private = state
        .players
        .keys()
        .map(|id| {
            (
                id.clone(),
                PrivatePart::typed(private_of(state, state, id, None)),
            )
        })
        .collect();
    RoundResult::without_garnets(&opening_public(state), private)
}

fn controls(state: &State) -> LargePlanes<Alignment> {
    [Plane::Earth, Plane::Thera]
        .into_iter()
        .filter_map(|p| control(state, p).map(|a| (p, a)))
        .collect()
}

/// The round resolved, with its announcement and private reports (the tick's `resolve`).
pub fn resolve(state: &State, seed: u64) -> Resolution<State> {
    let mut next = state.clone();
    let (result, _) = advance(&mut next, seed, Some(state));
    Resolution {
        state: next,
        result,
    }
}

/// Resolves the round in place: `state` becomes the next round's. Returns the result and the
/// announcement as the rules built it (what the simulator's bots hear); `reports`: the state
/// the round started from, when the announcement and the private reports are to be written
/// into the result (they tell each player what they did).
///
/// Without reports (the simulator), nothing is built that only a report reads: the players'
/// planes in the announcement and the garnet changes (the bots read the state itself).
pub fn advance(state: &mut State, seed: u64, reports: Option<&State>) -> (RoundResult, Public) {
    let public = match state.phase {
        Phase::Elimination => elimination(state, seed),
        _ => main_round(state, seed, reports.is_some()),
    };
    finish_round(state, public, reports)
}

/// A main round, in place: banishments, the moves, control, and the end of the main game
/// after the last round. Every vote is counted before anyone moves.
fn main_round(state: &mut State, seed: u64, reports: bool) -> Public {
    // Spending (spec: spent whatever happens) and tallies per large plane.
    let mut banished = LargePlanes::default();
    for plane in [Plane::Earth, Plane::Thera] {
        // the plane's players in id order, each with the votes against them
        let mut votes: SmallVec<[(&PlayerId, i64); 16]> = state
            .staying()
            .filter(|(_, p)| p.plane == plane)
            .map(|(id, _)| (id, 0))
            .collect();
        if votes.is_empty() {
            continue;
        }
        for (_, voter) in state.staying().filter(|(_, p)| p.plane == plane) {
            if let Some(target) = &voter.live.vote
                && let Ok(i) = votes.binary_search_by(|(id, _)| (*id).cmp(target))
            {
                votes[i].1 += 1 + 2 * voter.live.spend;
            }
        }
        // spec ruling 1: ties (all-zero included) are broken by a seeded draw among the tied
        let purpose = ["planar-control/banish/", plane.name()];
        let out = most_voted(&votes, &mut rng::stream_of(seed, state.round, &purpose))
            .expect("a plane with players has a maximum");
        banished.insert(plane, out);
    }
    for (id, p) in state.players.iter_mut() {
        p.garnets -= p.live.spend;
        p.plane = if banished.get(&p.plane) == Some(id) {
            p.plane.banished_to()
        } else if p.plane.is_large() {
            p.plane
        } else {
            p.plane.drifts_to()
        };
    }
    let control = controls(state);
    let mut public = Public {
        round: state.round,
        phase: Phase::Main,
        banished,
        control: control.clone(),
        planes: match reports {
            true => state
                .staying()
                .map(|(id, p)| (id.clone(), p.plane))
                .collect(),
            false => Seats::default(),
        },
        next_round: None,
        next_phase: Phase::Main,
        r#final: None,
    };
    state.rounds_played += 1;
    if state.round >= state.options.rounds {
        // End of the main game: small planes +1 garnet, alignments revealed, the winner.
        for p in state
            .players
            .values_mut()
            .filter(|p| !p.plane.is_large() && !p.left)
        {
            p.garnets += 1;
        }
        let winner = match (control.get(&Plane::Earth), control.get(&Plane::Thera)) {
            (Some(a), Some(b)) if a == b => Some(*a),
            (Some(a), Some(b)) => Some(Alignment::stronger(*a, *b)),
            (Some(a), None) | (None, Some(a)) => Some(*a),
            (None, None) => None,
        };
        state.winner = winner;
        let mut tokens = Vec::new();
        for (id, p) in state.players.iter_mut() {
            if Some(p.alignment) == winner && !p.left {
                p.token = true;
                p.garnets += 2;
                tokens.push(id.clone());
            }
        }
        state.phase = if winner.is_some() {
            Phase::Elimination
        } else {
            Phase::Over
        };
        public.r#final = Some(Final {
            alignments: state
                .players
                .iter()
                .map(|(id, p)| (id.clone(), p.alignment))
                .collect(),
            winner,
            tokens,
            ..Final::default()
        });
    }
    public
}

/// The elimination round, in place: the candidates of each losing alignment.
fn elimination(state: &mut State, seed: u64) -> Public {
    let winner = state.winner.expect("the elimination round has a winner");
    let mut candidates = BTreeMap::new();
    for alignment in state.losing_alignments() {
        // the alignment's players in id order, each with the votes against them
        let mut votes: SmallVec<[(&PlayerId, u32); 16]> = state
            .staying()
            .filter(|(_, p)| p.alignment == alignment)
            .map(|(id, _)| (id, 0))
            .collect();
        for (_, voter) in state.staying().filter(|(_, p)| p.alignment == winner) {
            if let Some(target) = voter.live.eliminate.get(&alignment)
                && let Ok(i) = votes.binary_search_by(|(id, _)| (*id).cmp(target))
            {
                votes[i].1 += 1;
            }
        }
        // spec: ties, and no votes at all, are broken by a seeded draw
        let purpose = ["planar-control/eliminate/", alignment.name()];
        if let Some(c) = most_voted(&votes, &mut rng::stream_of(seed, state.round, &purpose)) {
            candidates.insert(alignment, c);
        }
    }
    // The candidate whose alignment beats the winning one picks a Death Match opponent first.
    let first_pick = candidates
        .iter()
        .find(|(a, _)| a.beats() == winner)
        .map(|(_, id)| id.clone());
    state.phase = Phase::Over;
    state.rounds_played += 1;
    Public {
        round: state.round,
        phase: Phase::Elimination,
        banished: LargePlanes::default(),
        control: LargePlanes::default(),
        planes: Seats::default(),
        next_round: None,
        next_phase: Phase::Over,
        r#final: Some(Final {
            elimination: candidates,
            first_pick,
            winner: Some(winner),
            ..Final::default()
        }),
    }
}

/// The next round's number, with reports (see `advance`) each player's garnet change since the
/// state the round started from and their private report, and the live choices cleared.
fn finish_round(
    state: &mut State,
    mut public: Public,
    reports: Option<&State>,
) -> (RoundResult, Public) {
    if state.phase != Phase::Over {
        state.round += 1;
        public.next_round = Some(state.round);
    }
    public.next_phase = state.phase;
    let garnets = match reports {
        Some(started) => {
            let before: Vec<i64> = started.players.values().map(|p| p.garnets).collect();
            garnet_changes(&state.players, &before, |p| p.garnets)
        }
        None => Seats::default(),
    };
    let mut private = BTreeMap::new();
    let detail = match reports {
        Some(_) => Detail::Everything,
        None => Detail::State,
    };
    if let Some(started) = reports {
        for ((id, was), change) in started.players.iter().zip(garnets.values()) {
            let mut note = private_of(started, state, id, Some(*change));
            if started.phase == Phase::Main {
                note.divination = was
                    .live
                    .divine
                    .clone()
                    .map(|pair| divination(started, pair));
            }
            private.insert(id.clone(), PrivatePart::typed(note));
        }
    }
    for p in state.players.values_mut() {
        p.live = Live::default();
    }
    let result = RoundResult {
        public: detail.public(&public),
        private: private.into(),
        garnets,
    };
    (result, public)
}

/// The player with the most votes, a tie (all-zero included) drawn from `draw`.
fn most_voted<N: Copy + Ord + Default>(
    votes: &[(&PlayerId, N)],
    draw: &mut rng::GameRng,
) -> Option<PlayerId> {
    let top = votes.iter().map(|(_, n)| *n).max().unwrap_or_default();
    let tied: SmallVec<[&PlayerId; 16]> = votes
        .iter()
        .filter(|(_, n)| *n == top)
        .map(|(id, _)| *id)
        .collect();
    tied.choose(draw).map(|id| (*id).clone())
}

/// Spec ruling 4: the answer compares the two alignments.
fn divination(state: &State, [a, b]: [PlayerId; 2]) -> Divination {
    let (x, y) = (state.players[&a].alignment, state.players[&b].alignment);
    let answer = if x == y {
        "same"
    } else if Alignment::stronger(x, y) == x {
        "first"
    } else {
        "second"
    };
    Divination {
        players: [a, b],
        answer,
    }
}

fn private_of(before: &State, after: &State, id: &PlayerId, change: Option<i64>) -> Private {
    let me = &after.players[id];
    let (next, choices) = match after.phase {
        Phase::Over => ("none", Vec::new()),
        Phase::Elimination if after.winners().contains(id) => ("eliminate", Vec::new()),
        Phase::Elimination => ("none", Vec::new()),
        Phase::Main if me.plane.is_large() => (
            "vote",
            after.on(me.plane).into_iter().filter(|p| p != id).collect(),
        ),
        // a divination names any two other players
        Phase::Main => (
            "divine",
            after.players.keys().filter(|p| *p != id).cloned().collect(),
        ),
    };
    let live = &before.players[id].live;
    let losers = match next {
        "eliminate" => after
            .losing_alignments()
            .into_iter()
            .map(|a| {
                (
                    a,
                    after
                        .players
                        .iter()
                        .filter(|(_, p)| p.alignment == a)
                        .map(|(id, _)| id.clone())
                        .collect(),
                )
            })
            .collect(),
        _ => BTreeMap::new(),
    };
    Private {
        losers,
        alignment: me.alignment,
        plane: me.plane,
        garnets: me.garnets,
        garnets_change: change.unwrap_or(0),
        voted: change.and(live.vote.clone()),
        spent: if change.is_some() { live.spend } else { 0 },
        divination: None,
        next,
        choices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::planar_control::state::{Options, PlayerState};

    /// A state with players of the given alignments on the given planes.
    fn state(seats: &[(Alignment, Plane)]) -> State {
        State {
            round: 1,
            phase: Phase::Main,
            rounds_played: 0,
            options: Options::default(),
            players: seats
                .iter()
                .enumerate()
                .map(|(i, (alignment, plane))| {
                    let p = PlayerState {
                        left: false,
                        alignment: *alignment,
                        plane: *plane,
                        garnets: 0,
                        token: false,
                        live: Live::default(),
                    };
                    (PlayerId::parse(&format!("p{i:02}")).unwrap(), p)
                })
                .collect(),
            winner: None,
        }
    }

    #[test]
    fn spec_example_1_ties_of_two_go_to_the_stronger_and_the_stronger_controller_wins() {
        use Alignment::*;
        let mut seats = vec![(Ember, Plane::Earth); 3];
        seats.extend([(Nature, Plane::Earth); 3]);
        seats.extend([(Torrent, Plane::Earth); 2]);
        seats.extend([
            (Nature, Plane::Thera),
            (Nature, Plane::Thera),
            (Torrent, Plane::Thera),
            (Torrent, Plane::Thera),
        ]);
        seats.push((Ember, Plane::Thera));
        let s = state(&seats);
        assert_eq!(control(&s, Plane::Earth), Some(Ember)); // E3 N3 T2: ember beats nature
        assert_eq!(control(&s, Plane::Thera), Some(Nature)); // N2 T2 E1: nature beats torrent
        assert_eq!(Alignment::stronger(Ember, Nature), Ember); // ember wins the game
    }

    #[test]
    fn a_three_way_tie_controls_nothing_and_an_empty_plane_neither() {
        use Alignment::*;
        let s = state(&[
            (Ember, Plane::Earth),
            (Nature, Plane::Earth),
            (Torrent, Plane::Earth),
        ]);
        assert_eq!(control(&s, Plane::Earth), None);
        assert_eq!(control(&s, Plane::Thera), None);
    }

    #[test]
    fn the_strength_cycle() {
        use Alignment::*;
        assert_eq!(
            (Ember.beats(), Nature.beats(), Torrent.beats()),
            (Nature, Torrent, Ember)
        );
        assert_eq!(Alignment::stronger(Torrent, Ember), Torrent);
        assert_eq!(Alignment::stronger(Nature, Torrent), Nature);
    }
}
