//! Room Swap bots for `simulate`: a uniformly random legal player (a random allowed room) and
//! `best-response`, who peeks at up to two other players while it can pay, then picks the room
//! most likely to score given what the peeks said, everyone else assumed random. Bots hand
//! their versions to the checks a player's file meets (`version::send`): the Peek answers they
//! read are the answers a player reads.
//! A bot knows its own allowed rooms and garnets, the round's table, and its Peek answers.

use super::RoomSwap;
use super::rooms::{Room, RoomSet, Row, table_for};
use super::state::{Phase, SeatList, State};
use super::version::Version;
use crate::doc::Choice;

use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
use crate::games::version::{Name, Seat, send};
use rand::seq::{IndexedRandom, SliceRandom};
use smallvec::SmallVec;

impl Simulated for RoomSwap {
    const STRATEGY: &'static str = "best-response";
    const STRATEGY_ABOUT: &'static str = "peeks at up to two players while it can pay, then takes the room most likely to score given the answers (others assumed random)";
    const GROUP: &'static str = "";
    const GROUPS: &'static [&'static str] = &[];
    const DEFAULT_PLAYERS: usize = 6;
    const POINTS: &'static str = "points";
    type Memory = ();
    type Heard = ();

    /// The round resolved in place, with no reports built (no bot reads one).
    fn resolve_heard(state: &mut State, seed: u64) -> Option<()> {
        super::resolve::advance(state, seed, crate::games::Detail::State);
        None
    }

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        _: &mut (),
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        // (by index in `state.players`, whose bot is `bots`' at the same index)
        let mut playing = state.playing_seats();
        // Submissions reach the host in some order: Peeks answer only about earlier senders.
        playing.shuffle(rng);
        for &i in &playing {
            let id = &state.players.id(i).clone();
            let seat = Seat { id, at: i };
            if state.phase == Phase::Token {
                let mut eligible = state.unprotected();
                eligible.retain(|p| p != id);
                if let Some(to) = eligible.choose(rng) {
                    let gift = Version::give_token(Name::Id(to.clone()));
                    send::<RoomSwap>(state, seat, gift, &mut record);
                }
                continue;
            }
            let allowed = State::allowed_rooms_of(state.players.at(i));
            let (first, peek) = first_choice(state, i, bots[i], &playing, rng);
            let version = Version::room(first, peek);
            let out = send::<RoomSwap>(state, seat, version, &mut record);
            if bots[i] == Strategy::Random {
                continue;
            }
            // best-response: a second version if the Peek answers favour another room
            let known: SmallVec<[Room; 2]> =
                out.answers.iter().filter_map(|a| peeked_room(a)).collect();
            let unknown = playing.len() - 1 - known.len();
            let best = best_rooms(&allowed, &known, unknown, playing.len());
            if !best.has(first) {
                let room = *best.choose(rng).expect("at least one allowed room");
                send::<RoomSwap>(state, seat, Version::room(room, Vec::new()), &mut record);
            }
        }
        playing.len() as u64
    }

    /// A main round's count in one pass over the seats (every seat that stays plays).
    fn defaulted(state: &State) -> u64 {
        if state.phase != Phase::Main {
            return crate::games::bots::defaulted::<RoomSwap>(state);
        }
        let staying = state.players.values().filter(|p| !p.left);
        staying.filter(|p| !state.has_choice(p)).count() as u64
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

/// The first version `bot` sends for player `at` (their index in `state.players`) in a round
/// (`playing`: who plays it, by index, in the order they send): its room, and the players it
/// peeks at (a version is built where it is sent: returned from here, it was copied once more).
/// Reads only what the player knows: their own allowed rooms and garnets, the price of a Peek,
/// and who plays.
fn first_choice(
    state: &State,
    at: usize,
    bot: Strategy,
    playing: &[usize],
    rng: &mut BotRng,
) -> (Room, Vec<Name>) {
    let me = state.players.at(at);
    let allowed = State::allowed_rooms_of(me);
    let first = *allowed.choose(rng).expect("a Block always leaves a room");
    let mut peek = Vec::new();
    if bot == Strategy::Smart {
        let affordable = (me.garnets / state.options.peek_cost.max(1)).clamp(0, 2) as usize;
        let mut others: SeatList = playing.iter().copied().filter(|&p| p != at).collect();
        others.shuffle(rng);
        others.truncate(affordable);
        let named = |o: usize| Name::Id(state.players.id(o).clone());
        peek = others.into_iter().map(named).collect();
    }
    (first, peek)
}

/// The room a Peek answer names ("Peek on bob: bob's initial room this round is the Attic."):
/// the answer's last word, read from the end (a search for the phrase from the start costs
/// more than the rest of a best-response bot's round).
fn peeked_room(answer: &str) -> Option<Room> {
    let (said, room) = answer.strip_suffix('.')?.rsplit_once(' ')?;
    if !said.ends_with("initial room this round is the") {
        return None;
    }
    Room::ALL.iter().copied().find(|r| r.title() == room)
}

/// The allowed rooms with the best chance of scoring, given the rooms of `known` others and
/// `unknown` others choosing uniformly at random, on the table for `players`.
fn best_rooms(allowed: &[Room], known: &[Room], unknown: usize, players: usize) -> RoomSet {
    let Some(table) = table_for(players) else {
        return allowed.iter().copied().collect();
    };
    let mut base = [0usize; 3];
    for r in known {
        base[*r as usize] += 1;
    }
    let weight = match odds(players) {
        Some(all) if known.len() + unknown + 1 == players => all[odds_index(base)],
        _ => room_weights(table, base, unknown),
    };
    let top = allowed
        .iter()
        .map(|r| weight[*r as usize])
        .max()
        .unwrap_or(0);
    allowed
        .iter()
        .copied()
        .filter(|r| weight[*r as usize] == top)
        .collect()
}

/// For each room (`Room::ALL` order), in how many of the ways `unknown` players can choose a
/// room the player joining it scores, with `base` players known in each: every split of the
/// unknown players over the three rooms, weighted by how many assignments give that split.
fn room_weights(table: &[Row], base: [usize; 3], unknown: usize) -> [usize; 3] {
    let factorial = |n: usize| (1..=n).product::<usize>().max(1);
    let mut weight = [0usize; 3];
    for a in 0..=unknown {
        for b in 0..=unknown - a {
            let c = unknown - a - b;
            let ways = factorial(unknown) / (factorial(a) * factorial(b) * factorial(c));
            for (mine, w) in weight.iter_mut().enumerate() {
                let mut sizes = [base[0] + a, base[1] + b, base[2] + c];
                sizes[mine] += 1;
                if scores(table, sizes, mine) {
                    *w += ways;
                }
            }
        }
    }
    weight
}

/// The most players of a game with a table, and so the most a room can hold (`odds_index`).
const MOST: usize = 6;

fn odds_index(base: [usize; 3]) -> usize {
    (base[0] * (MOST + 1) + base[1]) * (MOST + 1) + base[2]
}

/// `room_weights` of every way the other `players - 1` players can be split between known
/// rooms and unknown, by `odds_index` of the known: worked out once per table, since every
/// best-response bot asks it every round of every game.
fn odds(players: usize) -> Option<&'static [[usize; 3]]> {
    use std::sync::OnceLock;
    // by number of players: those `table_for` has a table for are filled in on first use
    static ODDS: [OnceLock<Vec<[usize; 3]>>; MOST + 1] = [const { OnceLock::new() }; MOST + 1];
    let table = table_for(players)?;
    let cell = ODDS.get(players)?;
    Some(cell.get_or_init(|| {
        let mut all = vec![[0; 3]; (MOST + 1).pow(3)];
        let others = players - 1;
        for a in 0..=others {
            for b in 0..=others - a {
                for c in 0..=others - a - b {
                    let base = [a, b, c];
                    all[odds_index(base)] = room_weights(table, base, others - a - b - c);
                }
            }
        }
        all
    }))
}

/// Whether the players of room `mine` score when the rooms hold `sizes`: the rules' table, read
/// as `scoring_rooms` reads it.
fn scores(table: &[Row], sizes: [usize; 3], mine: usize) -> bool {
    let mut sorted = sizes;
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    table
        .iter()
        .find(|(row, _)| *row == sorted)
        .and_then(|(_, size)| *size)
        .is_some_and(|size| sizes[mine] == size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player_id::PlayerId;
    use rand::{RngExt, SeedableRng};

    /// `state` with everything `me` cannot see redrawn: the other players' choices on file
    /// (rooms, items, Peeks), garnets, points and Blocks used.
    fn scrambled(state: &State, me: &PlayerId, rng: &mut BotRng) -> State {
        let mut s = state.clone();
        for (_, p) in s.players.iter_mut().filter(|(id, _)| *id != me) {
            let room = *Room::ALL.choose(rng).expect("three rooms");
            p.live.room = Some(room);
            p.live.initial_room = Some(room);
            p.garnets = rng.random_range(0..20);
            p.points = rng.random_range(0..5);
            p.block_used = rng.random_bool(0.5);
        }
        s
    }

    /// Issue #30: the simulator allocates nothing per round in steady state. Counted by the test
    /// build's allocator on this thread, every main round of 40 games of random bots but the
    /// last (which scores the game and may start a tiebreak). (The best-response bot still
    /// does: the rules answer its Peeks in words, each a string, and it reads them back.)
    #[test]
    fn a_simulated_round_allocates_nothing() {
        let s = crate::simulate::plan::test_setting::<RoomSwap>("random", 3);
        // the default options: four scored rounds
        let rounds =
            crate::simulate::assert_steady_rounds_allocate_nothing::<RoomSwap>(&s, 40, |_| 0..3);
        assert_eq!(rounds, 120);
    }

    /// Whatever is hidden from a player, the first version their bot sends is the same (the
    /// second one follows from the rules' answers to its Peeks): checked for every player at
    /// every point of the sending order of 20 simulated games, both bots.
    #[test]
    fn what_a_player_cannot_see_does_not_change_what_their_bot_sends() {
        let setting = crate::simulate::plan::test_setting::<RoomSwap>("random=3,best-response", 4);
        let mut checked = 0;
        let mut scramble_rng = BotRng::seed_from_u64(9);
        for game in 0..20 {
            let seed = crate::simulate::game_seed(setting.seed, game);
            let (mut state, _) = crate::simulate::start::<RoomSwap>(&setting, seed).unwrap();
            let mut rng = BotRng::seed_from_u64(seed);
            let bots = [Strategy::Random, Strategy::Smart].repeat(3);
            while matches!(state.phase, Phase::Main | Phase::Tiebreak) {
                let playing = state.playing_seats();
                for &i in &playing {
                    let id = state.players.id(i);
                    for bot in Strategy::ALL {
                        let other = scrambled(&state, id, &mut scramble_rng);
                        let (mut a, mut b) = (rng.clone(), rng.clone());
                        assert_eq!(
                            first_choice(&state, i, bot, &playing, &mut a),
                            first_choice(&other, i, bot, &playing, &mut b),
                            "{id}"
                        );
                        checked += 1;
                    }
                }
                RoomSwap::play(&mut state, &bots, &mut rng, &mut (), None);
                RoomSwap::advance(&mut state, seed, &mut ());
            }
        }
        assert!(checked > 400, "{checked}");
    }

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
        assert_eq!(
            peeked_room("Peek on bob: bob's initial room this round is the Kitchen."),
            None
        );
    }

    /// The odds worked out once are the odds worked out on the spot, for every way the other
    /// players can be split between known rooms and unknown (no two splits share an entry).
    #[test]
    fn odds_worked_out_once_are_the_odds_of_each_split() {
        for players in [5, 6] {
            let table = table_for(players).unwrap();
            let all = odds(players).unwrap();
            let mut splits = 0;
            for a in 0..players {
                for b in 0..players - a {
                    for c in 0..players - a - b {
                        let unknown = players - 1 - a - b - c;
                        assert_eq!(
                            all[odds_index([a, b, c])],
                            room_weights(table, [a, b, c], unknown),
                            "{players} players, known {a}/{b}/{c}"
                        );
                        splits += 1;
                    }
                }
            }
            assert_eq!(splits, (players..players + 3).product::<usize>() / 6);
        }
        assert_eq!(odds(7), None);
    }

    #[test]
    fn best_response_joins_a_pair_rather_than_a_crowd() {
        // Four known in the attic, one unknown: joining the attic makes 5-x-x (only a lone
        // player can score then), the basement or cellar may make 4-2-0 or 4-1-1.
        let all = [Room::Attic, Room::Basement, Room::Cellar];
        let best = best_rooms(&all, &[Room::Attic; 4], 1, 6);
        assert!(!best.contains(&Room::Attic), "{best:?}");
        // Nothing known: every room is alike.
        assert_eq!(*best_rooms(&all, &[], 5, 6), all);
        // The same answer as the rules' own reading of the table, room by room.
        for sizes in [
            [2, 2, 2],
            [3, 2, 1],
            [4, 1, 1],
            [1, 4, 1],
            [5, 1, 0],
            [3, 3, 0],
        ] {
            let rooms: Vec<Room> = (0..3)
                .flat_map(|r| std::iter::repeat_n(Room::ALL[r], sizes[r]))
                .collect();
            let table = table_for(6).unwrap();
            let scoring = super::super::rooms::scoring_rooms(table, &rooms).unwrap();
            for r in 0..3 {
                assert_eq!(
                    scores(table, sizes, r),
                    scoring.contains(&Room::ALL[r]),
                    "{sizes:?} {r}"
                );
            }
        }
    }
}
