//! Resolving a Room Swap round: defaults for players without a room, scoring by the table, and the
//! end of the game with its tie rules (spec room-swap.md, "Scoring per round", "End of the game").

use super::receive::token_candidates;
use super::rooms::{FIVE_PLAYER_TABLE, Room, SIX_PLAYER_TABLE, scoring_rooms};
use super::state::{Live, MainEnd, Phase, PlayerState, State};
use crate::doc::Choice;
use crate::games::{Detail, PrivatePart, Resolution, RoundResult, Seats};
use crate::player_id::PlayerId;
use crate::rng;
use rand::seq::IndexedRandom;
use serde::Serialize;
use smallvec::{SmallVec, smallvec};
use std::collections::BTreeMap;

#[derive(Serialize)]
struct Public {
    round: u32,
    phase: Phase,
    /// How many players gained a point (tiebreak: how many scored).
    #[serde(skip_serializing_if = "Option::is_none")]
    scorers: Option<usize>,
    peeks: usize,
    blocks: usize,
    defaults: Vec<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiebreak: Option<Tiebreak>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#final: Option<Final>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token_gift: Option<TokenGift>,
    next: Next,
}

/// Announced when the main game ends in a tie that needs more play.
#[derive(Serialize)]
struct Tiebreak {
    /// "everyone": six joint winners, another scored round for all; "five": five joint winners play
    /// tiebreak rounds; "again": a tiebreak round did not separate them.
    kind: &'static str,
    contenders: Vec<PlayerId>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    points: BTreeMap<PlayerId, u32>,
    elimination: Vec<PlayerId>,
}

#[derive(Serialize)]
struct Final {
    points: BTreeMap<PlayerId, u32>,
    winners: Vec<PlayerId>,
    elimination: Vec<PlayerId>,
    tokens: Vec<PlayerId>,
    eligible_opponents: Vec<PlayerId>,
    sole_winner: bool,
    /// Ruling 17: the seats that left the game (their 0 points are theirs by the ruling).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    left: Vec<PlayerId>,
}

#[derive(Serialize)]
struct TokenGift {
    giver: PlayerId,
    elimination: Vec<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<PlayerId>,
    eligible_opponents: Vec<PlayerId>,
}

#[derive(Serialize)]
struct Next {
    round: u32,
    phase: Phase,
    players: Vec<PlayerId>,
}

#[derive(Serialize)]
struct Private {
    played: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<Room>,
    #[serde(skip_serializing_if = "Option::is_none")]
    room_source: Option<Source>,
    #[serde(skip_serializing_if = "Option::is_none")]
    room_note: Option<String>,
    notes: Vec<String>,
    garnets: i64,
    garnets_change: i64,
    block_used: bool,
    next: NextPrivate,
}

/// What the private report needs to write the next submission's skeleton.
#[derive(Serialize)]
struct NextPrivate {
    /// "room", "give_token" or "none"
    kind: &'static str,
    round: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<Room>,
    rooms: Vec<Room>,
    others: Vec<PlayerId>,
    peek_cost: i64,
    block_cost: i64,
    max_peeks: i64,
    can_block: bool,
}

/// The opening announcement and reports (round 0 of the archive): who plays, the items' prices,
/// and each player's garnets and first submission, ready to fill in.
pub fn opening(state: &State) -> RoundResult {
    let public = Public {
        round: 0,
        phase: state.phase,
        scorers: None,
        peeks: 0,
        blocks: 0,
        defaults: Vec::new(),
        tiebreak: None,
        r#final: None,
        token_gift: None,
        next: Next {
            round: state.round,
            phase: state.phase,
            players: state.playing(),
        },
    };
    let private = state
        .players
        .iter()
        .map(|(id, p)| {
            let report = Private {
                played: false,
                room: None,
                room_source: None,
                room_note: None,
                notes: Vec::new(),
                garnets: p.garnets,
                garnets_change: 0,
                block_used: p.block_used,
                next: next_private(state, id, None),
            };
            (id.clone(), PrivatePart::typed(report))
        })
        .collect();
    RoundResult::without_garnets(&public, private)
}

/// How a player's room for the round was settled (written as its name, `room_source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Source {
    Chosen,
    Fallback,
    /// Nothing valid arrived: the rules' default.
    Default,
    /// A seat that left the game (ruling 17): the default, scoring nothing.
    Left,
}

/// Where each player ends the round, and how, by their index in `players`, in id order (a
/// handful of seats, looked up by a search along the list; small, so returned without a copy
/// through memcpy).
type FinalRooms = SmallVec<[(usize, (Room, Source)); 6]>;

/// The round resolved, with its announcement and private reports (the tick's `resolve`).
pub fn resolve(state: &State, seed: u64) -> Resolution<State> {
    let mut next = state.clone();
    let result = advance(&mut next, seed, Detail::Everything);
    Resolution {
        state: next,
        result,
    }
}

/// Resolves the current round in place: `state` becomes the next round's (what the simulator
/// plays), and the result says what happened (with `Detail::State`, nothing: the simulator's
/// bots read only the state).
pub fn advance(state: &mut State, seed: u64, detail: Detail) -> RoundResult {
    let reports = detail.reports();
    let final_rooms = final_rooms(state, seed);
    let table = if state.phase == Phase::Tiebreak {
        FIVE_PLAYER_TABLE
    } else {
        SIX_PLAYER_TABLE
    };
    let scoring = scoring_rooms(table, final_rooms.iter().map(|(_, (r, _))| r)).unwrap_or_default();
    // Ruling 17: a seat that left is in a room but scores nothing
    let scorers: Scorers = final_rooms
        .iter()
        .filter(|(i, (r, _))| scoring.has(*r) && !state.players.at(*i).left)
        .map(|(i, _)| *i)
        .collect();

    // End-of-game garnets by index; the round's item costs were paid when the items were used.
    let mut bonus: SmallVec<[i64; 6]> = smallvec![0; state.players.len()];
    let mut public = Public {
        round: state.round,
        phase: state.phase,
        scorers: (state.phase != Phase::Token).then_some(scorers.len()),
        peeks: state.players.values().map(|p| p.live.peeked.len()).sum(),
        blocks: state
            .players
            .values()
            .filter(|p| p.live.blocked.is_some())
            .count(),
        defaults: if reports {
            defaulted(state, &final_rooms)
        } else {
            Vec::new()
        },
        tiebreak: None,
        r#final: None,
        token_gift: None,
        next: Next {
            round: state.round + 1,
            phase: Phase::Over,
            players: Vec::new(),
        },
    };
    let round = state.round;
    let announce = reports.then_some(&mut public);
    play_phase(state, announce, &mut bonus, scorers);

    // The next round: each player's live choices end here (the reports still tell them).
    state.rounds_played += 1;
    if state.phase != Phase::Over {
        state.round = round + 1;
    }
    // (the simulator's road has a loop of its own: one loop for both roads, each player's
    // change recorded when reports are built, made 200,000 simulated games 5-10% slower)
    if !reports {
        for (p, extra) in state.players.values_mut().zip(bonus) {
            p.garnets += extra;
            p.live = Live::default();
        }
        return RoundResult::default();
    }
    let mut garnets = Vec::with_capacity(state.players.len());
    let mut lives = Vec::with_capacity(state.players.len());
    for (p, extra) in state.players.values_mut().zip(bonus) {
        p.garnets += extra;
        garnets.push(extra - p.live.spent);
        lives.push(std::mem::take(&mut p.live));
    }
    let garnets = Seats::beside(&state.players, garnets);
    public.next = Next {
        round: state.round,
        phase: state.phase,
        players: state.playing(),
    };
    let private = private_reports(state, &lives, &final_rooms, &garnets);
    RoundResult {
        public: detail.public(&public),
        private,
        garnets,
    }
}

/// The players who score a round, by index (at most the six there are).
type Scorers = SmallVec<[usize; 6]>;

/// Every playing player's room: the one chosen (or its fallback), else the rules' default. A
/// Token round has no rooms.
fn final_rooms(state: &State, seed: u64) -> FinalRooms {
    let mut final_rooms = FinalRooms::new();
    if state.phase == Phase::Token {
        return final_rooms;
    }
    let mut seated = state.seated_seats();
    // in id order (a tiebreak's contenders are listed in their own)
    seated.sort_unstable();
    for i in seated {
        let (id, player) = (state.players.id(i), state.players.at(i));
        let live = &player.live;
        let choice = match live.room {
            _ if player.left => (default_room(state, id, player, seed), Source::Left),
            Some(room) if live.room_note.is_some() => (room, Source::Fallback),
            Some(room) => (room, Source::Chosen),
            None => (default_room(state, id, player, seed), Source::Default),
        };
        final_rooms.push((i, choice));
    }
    final_rooms
}

/// Who was given the rules' default room, in id order (as `final_rooms` lists them).
fn defaulted(state: &State, final_rooms: &FinalRooms) -> Vec<PlayerId> {
    let defaulted = final_rooms
        .iter()
        .filter(|(_, (_, s))| *s == Source::Default);
    defaulted
        .map(|(i, _)| state.players.id(*i).clone())
        .collect()
}

/// What the round's phase does with its scorers: points (and the end of the main game), a
/// tiebreak's outcome, the Token gift; with `public`, the announcement says so. Each phase
/// reads what it needs of the round before it changes the state.
fn play_phase(state: &mut State, public: Option<&mut Public>, bonus: &mut [i64], scorers: Scorers) {
    match state.phase {
        Phase::Main => {
            for &i in &scorers {
                state.players.at_mut(i).points += 1;
            }
            if state.round >= state.options.rounds {
                evaluate_main(state, public, bonus);
            }
        }
        Phase::Tiebreak => {
            let playing = state.playing_seats().len();
            if scorers.is_empty() || scorers.len() == playing {
                // spec: "if all or none score, play again"
                if let Some(public) = public {
                    public.tiebreak = Some(Tiebreak {
                        kind: "again",
                        contenders: state.contenders.clone(),
                        points: BTreeMap::new(),
                        elimination: state.elimination(),
                    });
                }
            } else {
                let ids = scorers.iter().map(|&i| state.players.id(i).clone());
                let elimination = state.elimination();
                finish(state, public, bonus, ids.collect(), elimination);
            }
        }
        Phase::Token => {
            let giver = state.token_giver.clone().expect("token phase has a giver");
            let to = state.players[&giver].live.give_token.clone();
            if let Some(to) = &to {
                state.players.get_mut(to).expect("checked on receipt").token = true;
            }
            state.phase = Phase::Over;
            if let Some(public) = public {
                public.token_gift = Some(TokenGift {
                    giver,
                    elimination: state.elimination(),
                    to,
                    eligible_opponents: state.unprotected(),
                });
            }
        }
        Phase::Over => {}
    }
}

/// Each player's private part: their room and how it was chosen, their notes (`lives`: the
/// round's live choices, taken out of `next`), their garnets and what they send next.
fn private_reports(
    next: &State,
    lives: &[Live],
    final_rooms: &FinalRooms,
    garnets: &Seats<i64>,
) -> Seats<PrivatePart> {
    next.players
        .iter()
        .zip(lives)
        .enumerate()
        .map(|(i, ((id, p), live))| {
            let (room, source) = match final_rooms.iter().find(|(seat, _)| *seat == i) {
                Some((_, (r, s))) => (Some(*r), Some(*s)),
                None => (None, None),
            };
            let report = Private {
                played: room.is_some(),
                room,
                room_source: source,
                room_note: live.room_note.clone(),
                notes: live.notes.clone(),
                garnets: p.garnets,
                garnets_change: garnets[id],
                block_used: p.block_used,
                next: next_private(next, id, room),
            };
            (id.clone(), PrivatePart::typed(report))
        })
        .collect()
}

/// After the last scheduled round (and every extra round of a six-way tie).
fn evaluate_main(next: &mut State, public: Option<&mut Public>, bonus: &mut [i64]) {
    let points = || -> BTreeMap<PlayerId, u32> {
        let each = next.players.iter().map(|(id, p)| (id.clone(), p.points));
        each.collect()
    };
    let top = next.players.values().map(|p| p.points).max().unwrap_or(0);
    let bottom = next.players.values().map(|p| p.points).min().unwrap_or(0);
    let winners: Vec<PlayerId> = ids_where(next, |p| p == top);
    let others: Vec<PlayerId> = ids_where(next, |p| p != top);
    match winners.len() {
        6 => {
            // spec: six joint winners: another round for everyone on the normal table
            next.phase = Phase::Main;
            if let Some(public) = public {
                public.tiebreak = Some(Tiebreak {
                    kind: "everyone",
                    contenders: winners,
                    points: points(),
                    elimination: Vec::new(),
                });
            }
        }
        5 => {
            // spec: the sixth is the Elimination Candidate; the five play tiebreak rounds
            next.phase = Phase::Tiebreak;
            if let Some(public) = public {
                public.tiebreak = Some(Tiebreak {
                    kind: "five",
                    contenders: winners.clone(),
                    points: points(),
                    elimination: others.clone(),
                });
            }
            next.contenders = winners;
            next.outcome = Some(MainEnd {
                winners: Vec::new(),
                elimination: others,
            });
        }
        4 => finish(next, public, bonus, winners, others), // the two others face each other
        _ => {
            let elimination = ids_where(next, |p| p == bottom);
            finish(next, public, bonus, winners, elimination);
        }
    }
}

/// The main game has its winners: Tokens, garnets (`bonus`, by index), and the sole winner's
/// gift round.
fn finish(
    next: &mut State,
    public: Option<&mut Public>,
    bonus: &mut [i64],
    winners: Vec<PlayerId>,
    elimination: Vec<PlayerId>,
) {
    let sole = winners.len() == 1;
    let win_bonus = if sole { 4 } else { 2 };
    for ((id, p), bonus) in next.players.iter_mut().zip(bonus.iter_mut()) {
        // spec: +1 garnet per point for everyone, +4 for a sole winner or +2 for each joint winner
        *bonus += i64::from(p.points);
        if winners.contains(id) {
            p.token = true;
            *bonus += win_bonus;
        }
    }
    next.contenders.clear();
    let giver = winners.first().filter(|_| sole).cloned();
    next.outcome = Some(MainEnd {
        winners,
        elimination,
    });
    match giver {
        Some(giver) if !token_candidates(next, &giver).is_empty() => {
            next.phase = Phase::Token;
            next.token_giver = Some(giver);
        }
        _ => next.phase = Phase::Over,
    }
    let Some(public) = public else {
        return;
    };
    let outcome = next.outcome.as_ref().expect("set above");
    public.r#final = Some(Final {
        points: next
            .players
            .iter()
            .map(|(id, p)| (id.clone(), p.points))
            .collect(),
        tokens: next
            .players
            .iter()
            .filter(|(_, p)| p.token)
            .map(|(id, _)| id.clone())
            .collect(),
        eligible_opponents: next.unprotected(),
        winners: outcome.winners.clone(),
        elimination: outcome.elimination.clone(),
        sole_winner: sole,
        left: next
            .players
            .iter()
            .filter(|(_, p)| p.left)
            .map(|(id, _)| id.clone())
            .collect(),
    });
}

/// The players (in id order) whose points `keep`.
fn ids_where(state: &State, keep: impl Fn(u32) -> bool) -> Vec<PlayerId> {
    let players = state.players.iter();
    let kept = players.filter(|(_, p)| keep(p.points));
    kept.map(|(id, _)| id.clone()).collect()
}

/// Ruling 8: a player without a room gets a seeded random allowed room, drawn from a stream of its
/// own so that it does not depend on anyone else's draw.
fn default_room(state: &State, id: &PlayerId, player: &PlayerState, seed: u64) -> Room {
    let allowed = State::allowed_rooms_of(player);
    let purpose = ["room-swap/default-room/", id.as_str()];
    let mut rng = rng::stream_of(seed, state.round, &purpose);
    *allowed.choose(&mut rng).unwrap_or(&Room::ALL[0])
}

fn next_private(next: &State, id: &PlayerId, last_room: Option<Room>) -> NextPrivate {
    let playing = next.playing();
    let kind = match next.phase {
        Phase::Main | Phase::Tiebreak if playing.contains(id) => "room",
        Phase::Token if next.token_giver.as_ref() == Some(id) => "give_token",
        _ => "none",
    };
    let p = &next.players[id];
    let others = match kind {
        "give_token" => token_candidates(next, id),
        _ => playing.iter().filter(|o| *o != id).cloned().collect(),
    };
    NextPrivate {
        kind,
        round: next.round,
        room: last_room,
        rooms: Room::ALL.to_vec(),
        others,
        peek_cost: next.options.peek_cost,
        block_cost: next.options.block_cost,
        max_peeks: if next.options.peek_cost > 0 {
            p.garnets / next.options.peek_cost
        } else {
            0
        },
        can_block: !p.block_used && p.garnets >= next.options.block_cost,
    }
}
