//! Room Swap bots for `simulate`: a uniformly random legal player (a random allowed room) and
//! `best-response`, who peeks at up to two other players while it can pay, then picks the room
//! most likely to score given what the peeks said, everyone else assumed random. Bots submit
//! through `receive`, like players: the Peek answers they read are the answers a player reads.
//! A bot knows its own allowed rooms and garnets, the round's table, and its Peek answers.

use super::RoomSwap;
use super::rooms::{Room, scoring_rooms, table_for};
use super::state::{Phase, State};
use crate::doc::Choice;
use crate::player_id::PlayerId;
use crate::simulate::stats::End;
use crate::simulate::{BotRng, Simulated, Strategy, Submissions, submit};
use rand::seq::{IndexedRandom, SliceRandom};

impl Simulated for RoomSwap {
    const STRATEGY: &'static str = "best-response";
    const STRATEGY_ABOUT: &'static str = "peeks at up to two players while it can pay, then takes the room most likely to score given the answers (others assumed random)";
    const GROUP: &'static str = "";
    const GROUPS: &'static [&'static str] = &[];
    const DEFAULT_PLAYERS: usize = 6;
    const POINTS: &'static str = "points";
    type Memory = ();

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        _: &mut (),
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
        let mut playing = state.playing();
        // Submissions reach the host in some order: Peeks answer only about earlier senders.
        playing.shuffle(rng);
        for id in &playing {
            let i = ids.iter().position(|p| p == id).expect("a player");
            if state.phase == Phase::Token {
                let mut eligible = state.unprotected();
                eligible.retain(|p| p != id);
                if let Some(to) = eligible.choose(rng) {
                    submit::<RoomSwap>(state, id, format!("give_token = \"{to}\"\n"), &mut record);
                }
                continue;
            }
            let allowed = state.allowed_rooms(id);
            let first = *allowed.choose(rng).expect("a Block always leaves a room");
            if bots[i] == Strategy::Random {
                submit::<RoomSwap>(
                    state,
                    id,
                    format!("room = \"{}\"\n", first.name()),
                    &mut record,
                );
                continue;
            }
            let me = &state.players[id];
            let affordable = (me.garnets / state.options.peek_cost.max(1)).clamp(0, 2) as usize;
            let mut others: Vec<&PlayerId> = playing.iter().filter(|p| *p != id).collect();
            others.shuffle(rng);
            others.truncate(affordable);
            let mut text = format!("room = \"{}\"\n", first.name());
            if !others.is_empty() {
                let names: Vec<String> = others.iter().map(|p| format!("\"{p}\"")).collect();
                text.push_str(&format!("peek = [{}]\n", names.join(", ")));
            }
            let out = submit::<RoomSwap>(state, id, text, &mut record);
            let known: Vec<Room> = out.answers.iter().filter_map(|a| peeked_room(a)).collect();
            let unknown = playing.len() - 1 - known.len();
            let best = best_rooms(&allowed, &known, unknown, playing.len());
            if !best.contains(&first) {
                let room = *best.choose(rng).expect("at least one allowed room");
                submit::<RoomSwap>(
                    state,
                    id,
                    format!("room = \"{}\"\n", room.name()),
                    &mut record,
                );
            }
        }
        playing.len() as u64
    }

    fn garnets(state: &State) -> Vec<i64> {
        state.players.values().map(|p| p.garnets).collect()
    }

    fn tally(start: &[i64], state: &State, _: &()) -> Vec<End> {
        let (winners, elimination) = state
            .outcome
            .as_ref()
            .map(|o| (o.winners.clone(), o.elimination.clone()))
            .unwrap_or_default();
        state
            .players
            .iter()
            .enumerate()
            .map(|(i, (id, p))| End {
                group: None,
                won: winners.contains(id),
                elimination: elimination.contains(id),
                tokens: u32::from(p.token),
                points: i64::from(p.points),
                garnets: p.garnets - start[i],
            })
            .collect()
    }
}

/// The room a Peek answer names ("Peek on bob: bob's initial room this round is the Attic.").
fn peeked_room(answer: &str) -> Option<Room> {
    let (_, rest) = answer.split_once("initial room this round is the ")?;
    Room::ALL
        .iter()
        .copied()
        .find(|r| rest.starts_with(r.title()))
}

/// The allowed rooms with the best chance of scoring, given the rooms of `known` others and
/// `unknown` others choosing uniformly at random, on the table for `players`.
fn best_rooms(allowed: &[Room], known: &[Room], unknown: usize, players: usize) -> Vec<Room> {
    let Some(table) = table_for(players) else {
        return allowed.to_vec();
    };
    let mut wins = vec![0u32; allowed.len()];
    let cases = 3usize.pow(unknown as u32);
    let mut rooms: Vec<Room> = Vec::with_capacity(players);
    for case in 0..cases {
        for (k, mine) in allowed.iter().enumerate() {
            rooms.clear();
            rooms.extend_from_slice(known);
            let mut c = case;
            for _ in 0..unknown {
                rooms.push(Room::ALL[c % 3]);
                c /= 3;
            }
            rooms.push(*mine);
            if scoring_rooms(table, &rooms).is_some_and(|s| s.contains(mine)) {
                wins[k] += 1;
            }
        }
    }
    let top = wins.iter().copied().max().unwrap_or(0);
    allowed
        .iter()
        .zip(&wins)
        .filter(|(_, w)| **w == top)
        .map(|(r, _)| *r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peek_answers_are_read_as_players_read_them() {
        assert_eq!(
            peeked_room("Peek on bob: bob's initial room this round is the Cellar."),
            Some(Room::Cellar)
        );
        assert_eq!(
            peeked_room("Peek on bob: not used. Nothing was paid."),
            None
        );
    }

    #[test]
    fn best_response_joins_a_pair_rather_than_a_crowd() {
        // Four known in the attic, one unknown: joining the attic makes 5-x-x (only a lone
        // player can score then), the basement or cellar may make 4-2-0 or 4-1-1.
        let all = [Room::Attic, Room::Basement, Room::Cellar];
        let best = best_rooms(&all, &[Room::Attic; 4], 1, 6);
        assert!(!best.contains(&Room::Attic), "{best:?}");
        // Nothing known: every room is alike.
        assert_eq!(best_rooms(&all, &[], 5, 6), all.to_vec());
    }
}
