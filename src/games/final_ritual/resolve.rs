//! Resolving a Final Ritual round into the next state and `result.toml`: the public turn-by-turn
//! account with marks, executions and card counts, and each player's private report (role, hand,
//! what moved to or from them, the oracles they hold for the next submission). Also the opening
//! (round 0) that tells every player their role and hand.

use super::cards::{Cards, Goal, Oracle, Resource, ResourceOrder, Role, Targets};
use super::log::{Seen, Turn};
use super::state::{Dedication, Orders, State, WinBy};
use super::turn::Table;
use crate::games::{Detail, PrivatePart, Resolution, RoundResult, Seats, to_table};
use crate::player_id::PlayerId;
use serde::Serialize;
use smallvec::SmallVec;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct Public {
    round: u32,
    /// Seat order, clockwise.
    seats: Vec<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<PlayerId>,
    turns: Vec<Turn>,
    /// Players who sent nothing: the rules' defaults played for them.
    defaults: Vec<PlayerId>,
    marks: BTreeMap<PlayerId, u32>,
    /// Every player executed so far.
    executed: Vec<PlayerId>,
    altar_count: u32,
    hand_counts: BTreeMap<PlayerId, HandCount>,
    resource_deck: usize,
    oracle_deck: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_round: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_first: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#final: Option<Final>,
}

#[derive(Serialize)]
struct HandCount {
    resources: u32,
    oracles: usize,
}

#[derive(Serialize)]
struct Final {
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<Role>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<GoalInfo>,
    roles: BTreeMap<PlayerId, Role>,
}

/// A goal in words a template can use: `altar` / `hand` with a resource and a count,
/// `execution`, or `last-alive`.
#[derive(Serialize)]
struct GoalInfo {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource: Option<Resource>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u32>,
}

fn goal_info(state: &State, role: Role) -> GoalInfo {
    let (kind, resource, count) = match role.goal() {
        Goal::Altar(r) => ("altar", Some(r), Some(state.options.loyal_altar)),
        Goal::Hand(r) => ("hand", Some(r), Some(state.options.selfish_hand)),
        Goal::Execution => ("execution", None, None),
    };
    GoalInfo {
        kind,
        resource,
        count,
    }
}

#[derive(Serialize)]
struct Private {
    role: Role,
    goal: GoalInfo,
    alive: bool,
    marks: u32,
    hand: Cards,
    oracles: Vec<InHand>,
    /// What happened to or by this player, in order, with whose turn it was.
    events: Vec<Seen>,
    /// The player sent nothing this round (the rules played for them).
    defaulted: bool,
    /// Whether a submission is expected for the next round.
    next: bool,
    /// Living players other than this one (the targets the skeleton may name).
    others: Vec<PlayerId>,
    /// This round's choices, to fill the skeleton.
    dedicate: Dedication,
    refuse: SmallVec<[PlayerId; 5]>,
    give: ResourceOrder,
    take: ResourceOrder,
}

#[derive(Serialize)]
struct InHand {
    oracle: Oracle,
    targets: Targets,
}

pub fn opening(state: &State) -> RoundResult {
    let public = public_of(state, 0, Vec::new(), Vec::new());
    let private = state
        .players
        .keys()
        .map(|id| {
            (
                id.clone(),
                PrivatePart::typed(private_of(state, None, id, Vec::new(), false)),
            )
        })
        .collect();
    RoundResult::without_garnets(&public, private)
}

pub fn resolve(state: &State, seed: u64, detail: Detail) -> Resolution<State> {
    let mut next = state.clone();
    let result = advance(&mut next, seed, detail);
    Resolution {
        state: next,
        result,
    }
}

/// Resolves the current round in place: `state` becomes the next round's (the tick's road and
/// the simulator's), and the result says what happened. What the reports need of the round's
/// start (who was alive without a plan, the round) is read before it is played; the plans are
/// read by the turns and cleared after the reports.
pub fn advance(state: &mut State, seed: u64, detail: Detail) -> RoundResult {
    let round = state.round;
    // who lived without a plan: the announcement names them, and their reports say so
    let defaults: Vec<PlayerId> = if detail.reports() {
        let ids = state.living().into_iter();
        ids.filter(|id| state.players[id].plan.is_none()).collect()
    } else {
        Vec::new()
    };
    let mut table = Table::new(state, seed);
    table.log.off = !detail.reports();
    table.play_round();
    let log = table.log;
    state.rounds_played += 1;
    if !state.finished {
        if state.round >= state.options.max_rounds {
            state.finished = true;
        } else {
            state.round += 1;
            state.first = state.first % state.players.len() as u32 + 1;
        }
    }
    let mut private = BTreeMap::new();
    if detail.reports() {
        let mut seen = log.private;
        for (id, p) in &state.players {
            let events = seen.remove(id).unwrap_or_default();
            let defaulted = defaults.contains(id);
            let note = private_of(state, p.plan.as_ref(), id, events, defaulted);
            private.insert(id.clone(), PrivatePart::typed(note));
        }
    }
    for p in state.players.values_mut() {
        p.plan = None;
    }
    let public = if detail.reports() {
        to_table(&public_of(state, round, log.turns, defaults))
    } else {
        toml::Table::new()
    };
    // ruling 16: no garnets; every player's change is 0 (the simulator reads none)
    let garnets = match detail {
        Detail::Everything => Seats::beside(&state.players, vec![0; state.players.len()]),
        Detail::State => Seats::default(),
    };
    RoundResult {
        public: public.into(),
        private: private.into(),
        garnets,
    }
}

/// The announcement of `round`, from the state after it.
fn public_of(state: &State, round: u32, turns: Vec<Turn>, defaults: Vec<PlayerId>) -> Public {
    let over = state.finished;
    let r#final = over.then(|| {
        let winner = state.winner.as_ref();
        Final {
            winner: winner.map(|w| w.player.clone()),
            role: winner.map(|w| w.role),
            goal: winner.map(|w| match w.how {
                WinBy::Goal => goal_info(state, w.role),
                WinBy::LastAlive => GoalInfo {
                    kind: "last-alive",
                    resource: None,
                    count: None,
                },
            }),
            roles: state
                .players
                .iter()
                .map(|(id, p)| (id.clone(), p.role))
                .collect(),
        }
    });
    Public {
        round,
        seats: state.seats(),
        first: turns
            .first()
            .map(|t| t.player.clone())
            .or_else(|| state.first_player().filter(|_| round == 0)),
        turns,
        defaults,
        marks: state
            .players
            .iter()
            .map(|(id, p)| (id.clone(), p.marks))
            .collect(),
        executed: state
            .seats()
            .into_iter()
            .filter(|id| !state.players[id].alive && !state.players[id].left)
            .collect(),
        altar_count: state.altar.total(),
        hand_counts: state
            .players
            .iter()
            .map(|(id, p)| {
                (
                    id.clone(),
                    HandCount {
                        resources: p.hand.total(),
                        oracles: p.oracles.len(),
                    },
                )
            })
            .collect(),
        resource_deck: state.resource_deck.len(),
        oracle_deck: state.oracle_deck.len(),
        next_round: (!over).then_some(state.round),
        next_first: if over { None } else { state.first_player() },
        r#final,
    }
}

fn private_of(
    state: &State,
    plan: Option<&Orders>,
    id: &PlayerId,
    events: Vec<Seen>,
    defaulted: bool,
) -> Private {
    let me = &state.players[id];
    let plan = plan.cloned().unwrap_or_default();
    Private {
        role: me.role,
        goal: goal_info(state, me.role),
        alive: me.alive,
        marks: me.marks,
        hand: me.hand,
        oracles: me
            .oracles
            .iter()
            .map(|o| InHand {
                oracle: *o,
                targets: o.effect().targets(),
            })
            .collect(),
        events,
        defaulted,
        next: me.alive && !state.finished,
        others: state.living().into_iter().filter(|p| p != id).collect(),
        dedicate: plan.dedicate.unwrap_or_default(),
        refuse: plan.refuse,
        give: plan.give,
        take: plan.take,
    }
}
