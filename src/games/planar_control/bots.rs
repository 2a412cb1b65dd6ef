//! Planar Control bots for `simulate`: a uniformly random legal player (a random plane-mate
//! voted with a random number of garnets, or two random players divined) and `hunter`, who
//! fights for a plane its alignment does not control (all its votes, up to two garnets, on a
//! plane-mate) and saves garnets where it does, and divines players it has not divined yet,
//! preferring those on the plane it is about to join. Bots hand their versions to the checks a
//! player's file meets (`version::send`). A bot
//! knows its own alignment, plane and garnets, where everyone is and who controls each plane
//! (the announcements), and whom it has divined (its own reports).

use super::PlanarControl;
use super::resolve::Public;
use super::state::{Alignment, LargePlanes, Phase, Plane, State};
use crate::doc::Choice;
use crate::player_id::PlayerId;

use super::version::{Eliminate, Version, Vote};
use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
use crate::games::version::{Given, Name, Seat, send};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};

/// What Planar Control bots remember: the last announced control of each plane, whom each
/// player has divined, and (for the tally) the Elimination Candidates announced at the end.
#[derive(Debug, Default)]
pub struct Memory {
    control: LargePlanes<Alignment>,
    /// By seat (players in id order): the seats each has divined.
    divined: Vec<Vec<usize>>,
    elimination: Vec<PlayerId>,
    /// The seats a bot picks from, reused from player to player (nothing allocated per bot).
    picks: Vec<usize>,
    /// Every player and their plane, in id order (`seats`), refilled every round.
    seats: Vec<(PlayerId, Plane)>,
}

/// The submission `bot` sends for seat `me`, and the two seats it divines; `None` if it has
/// nothing to send. Reads only what the player knows: everyone's plane, its own alignment and
/// garnets, the announced control, whom it has divined, and (in the elimination round, when
/// they are public) the alignments. `seats`: every player and their plane, in id order.
fn choose(
    state: &State,
    seats: &[(PlayerId, Plane)],
    me: usize,
    bot: Strategy,
    memory: &mut Memory,
    rng: &mut BotRng,
) -> Option<(Version, Option<[usize; 2]>)> {
    let plane = &seats[me].1;
    let mine = state.players.at(me);
    if state.phase == Phase::Elimination {
        // The alignments are public now: one member of each losing alignment.
        let mut votes = Vec::new();
        for loser in state.losing_alignments() {
            let members: Vec<&PlayerId> = state
                .players
                .iter()
                .filter(|(_, p)| p.alignment == loser)
                .map(|(id, _)| id)
                .collect();
            if let Some(pick) = members.choose(rng) {
                votes.push((loser, Given::typed(Name::Id((*pick).clone()))));
            }
        }
        let eliminate = Eliminate {
            unknown: Vec::new(),
            votes,
        };
        let version = Version {
            eliminate: Some(Given::typed(eliminate)),
            ..Version::default()
        };
        return Some((version, None));
    }
    let picks = &mut memory.picks;
    picks.clear();
    if plane.is_large() {
        picks.extend((0..seats.len()).filter(|&i| i != me && seats[i].1 == *plane));
        let version = match picks.choose(rng) {
            None => Version {
                vote: Some(Given::typed(Vote::Abstain)),
                ..Version::default()
            },
            Some(&target) => {
                let spend = match bot {
                    Strategy::Random => rng.random_range(0..=mine.garnets.clamp(0, 3)),
                    Strategy::Smart => {
                        let ours = memory.control.get(plane) == Some(&mine.alignment);
                        if ours { 0 } else { mine.garnets.clamp(0, 2) }
                    }
                };
                let target = Name::Id(seats[target].0.clone());
                Version {
                    vote: Some(Given::typed(Vote::Banish(target))),
                    garnets: Some(Given::typed(spend)),
                    ..Version::default()
                }
            }
        };
        return Some((version, None));
    }
    picks.extend((0..seats.len()).filter(|&i| i != me));
    picks.shuffle(rng);
    let pair = match bot {
        Strategy::Random => [picks.first(), picks.get(1)],
        Strategy::Smart => {
            let seen = memory.divined.get(me).map_or(&[][..], Vec::as_slice);
            let next = plane.drifts_to();
            // Not yet divined first, then those on the next plane; in shuffled order within each:
            // the two lowest by (rank, place in the shuffle), in one pass.
            let rank =
                |p: usize| 2 * usize::from(seen.contains(&p)) + usize::from(seats[p].1 != next);
            let mut first: [Option<(usize, &usize)>; 2] = [None, None];
            for p in picks.iter() {
                let r = rank(*p);
                if first[0].is_none_or(|(best, _)| r < best) {
                    first = [Some((r, p)), first[0]];
                } else if first[1].is_none_or(|(second, _)| r < second) {
                    first[1] = Some((r, p));
                }
            }
            first.map(|f| f.map(|(_, p)| p))
        }
    };
    match pair {
        [Some(&a), Some(&b)] => {
            let pair = [a, b].map(|p| Name::Id(seats[p].0.clone()));
            let version = Version {
                divine: Some(Given::typed_each(pair)),
                ..Version::default()
            };
            Some((version, Some([a, b])))
        }
        _ => None,
    }
}

/// Every player and their plane, in id order: what `choose` reads of where everyone is
/// (`seats` refilled: its room is the last round's).
fn fill_seats(state: &State, seats: &mut Vec<(PlayerId, Plane)>) {
    seats.clear();
    seats.extend(state.players.iter().map(|(id, p)| (id.clone(), p.plane)));
}

impl Simulated for PlanarControl {
    const STRATEGY: &'static str = "hunter";
    const STRATEGY_ABOUT: &'static str = "on a plane its alignment does not control, votes a plane-mate with up to two garnets (none where it controls); divines players it has not divined, those on its next plane first";
    const GROUP: &'static str = "alignment";
    const GROUPS: &'static [&'static str] = &["ember", "nature", "torrent"];
    const DEFAULT_PLAYERS: usize = 15;
    const POINTS: &'static str = "";
    type Memory = Memory;
    type Heard = Public;

    fn opening_heard(state: &State) -> Option<Public> {
        Some(super::resolve::opening_public(state))
    }

    /// The round resolved in place, with no reports built; the bots hear its announcement.
    fn resolve_heard(state: &mut State, seed: u64) -> Option<Public> {
        let (_, public) = super::resolve::advance(state, seed, None);
        Some(public)
    }

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        memory: &mut Memory,
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        let mut seats = std::mem::take(&mut memory.seats);
        fill_seats(state, &mut seats);
        // room for two divined a round, every round (none is made later)
        let room = 2 * state.options.rounds as usize;
        memory
            .divined
            .resize_with(seats.len(), || Vec::with_capacity(room));
        let mut expected = 0;
        for (i, (id, _)) in seats.iter().enumerate() {
            if !state.plays(state.players.at(i)) {
                continue;
            }
            expected += 1;
            let Some((version, divined)) = choose(state, &seats, i, bots[i], memory, rng) else {
                continue;
            };
            if let Some(pair) = divined {
                memory.divined[i].extend(pair);
            }
            send::<PlanarControl>(state, Seat { id, at: i }, version, &mut record);
        }
        memory.seats = seats;
        expected
    }

    fn learn(memory: &mut Memory, heard: &Public) {
        memory.control.clone_from(&heard.control);
        if let Some(end) = &heard.r#final
            && !end.elimination.is_empty()
        {
            memory.elimination = end.elimination.values().cloned().collect();
        }
    }

    fn defaulted(state: &State) -> u64 {
        let playing = state.players.values().filter(|p| state.plays(p));
        playing.filter(|p| !p.live.submitted).count() as u64
    }

    fn garnets(state: &State) -> Vec<i64> {
        state.players.values().map(|p| p.garnets).collect()
    }

    fn tally(start: &[i64], state: &State, memory: &Memory) -> Vec<End> {
        state
            .players
            .iter()
            .enumerate()
            .map(|(i, (id, p))| End {
                group: Alignment::ALL.iter().position(|a| *a == p.alignment),
                won: state.winner == Some(p.alignment),
                elimination: memory.elimination.contains(id),
                tokens: u32::from(p.token),
                points: 0,
                garnets: p.garnets - start[i],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #30: the simulator allocates nothing per round in steady state. Counted by the
    /// test build's allocator on this thread over 40 games of both bots, from the second main
    /// round to the fifth of six (the first makes each bot's list of whom it divined, with
    /// room for the game; the sixth reveals the alignments and the winners; the elimination
    /// round names the candidates).
    #[test]
    fn a_simulated_round_allocates_nothing() {
        let s = crate::simulate::plan::test_setting::<PlanarControl>("random=8,hunter=7", 5);
        // the default options: six main rounds
        let steady = |_| 1..5;
        let rounds =
            crate::simulate::assert_steady_rounds_allocate_nothing::<PlanarControl>(&s, 40, steady);
        assert_eq!(rounds, 160);
    }

    fn seats(state: &State) -> Vec<(PlayerId, Plane)> {
        let mut seats = Vec::new();
        fill_seats(state, &mut seats);
        seats
    }
    use rand::SeedableRng;

    /// `state` and `memory` with everything `me` cannot know redrawn during the six rounds: the
    /// other players' alignments, garnets and choices on file, and whom they divined.
    fn scrambled(
        state: &State,
        memory: &Memory,
        me: &PlayerId,
        rng: &mut BotRng,
    ) -> (State, Memory) {
        let mut s = state.clone();
        let ids: Vec<PlayerId> = s.players.keys().cloned().collect();
        for (id, p) in s.players.iter_mut().filter(|(id, _)| *id != me) {
            p.alignment = *Alignment::ALL.choose(rng).expect("three alignments");
            p.garnets = rng.random_range(0..20);
            p.live.vote = ids
                .iter()
                .filter(|o| *o != id)
                .collect::<Vec<_>>()
                .choose(rng)
                .map(|o| (*o).clone());
        }
        let mut m = Memory {
            control: memory.control.clone(),
            divined: memory.divined.clone(),
            ..Memory::default()
        };
        let seat = ids.iter().position(|id| id == me).expect("a player");
        for (_, seen) in m.divined.iter_mut().enumerate().filter(|(i, _)| *i != seat) {
            *seen = (0..ids.len()).filter(|_| rng.random_bool(0.3)).collect();
        }
        (s, m)
    }

    /// The hunter on a small plane divines first a player it has not divined, on the plane it
    /// drifts to; then, in the shuffle's order, one it has not divined elsewhere.
    #[test]
    fn the_hunter_divines_the_undivined_on_its_next_plane_first() {
        use super::super::state::{Live, Options, PlayerState};
        // seat 0 on Limbo (it drifts to Thera); 1 and 2 on Thera, 3 and 4 on Earth, 5 on Mobil
        let planes = [
            Plane::Limbo,
            Plane::Thera,
            Plane::Thera,
            Plane::Earth,
            Plane::Earth,
            Plane::Mobil,
        ];
        let state = State {
            round: 1,
            phase: Phase::Main,
            rounds_played: 0,
            options: Options::default(),
            players: (planes.iter().enumerate())
                .map(|(i, plane)| {
                    let p = PlayerState {
                        left: false,
                        alignment: Alignment::Ember,
                        plane: *plane,
                        garnets: 0,
                        token: false,
                        live: Live::default(),
                    };
                    (PlayerId::parse(&format!("p{i}")).unwrap(), p)
                })
                .collect(),
            winner: None,
        };
        let seated = seats(&state);
        let mut seconds = std::collections::BTreeSet::new();
        for seed in 0..40 {
            // seat 1 (on Thera) divined already
            let mut memory = Memory {
                divined: vec![vec![1]],
                ..Memory::default()
            };
            let mut rng = BotRng::seed_from_u64(seed);
            let chosen = choose(&state, &seated, 0, Strategy::Smart, &mut memory, &mut rng);
            let [first, second] = chosen.and_then(|(_, pair)| pair).expect("a divination");
            assert_eq!(
                first, 2,
                "the undivined player on Thera, whatever the shuffle"
            );
            assert!([3, 4, 5].contains(&second), "{second}");
            seconds.insert(second);
        }
        assert_eq!(
            seconds.len(),
            3,
            "the second in the shuffle's order: {seconds:?}"
        );
    }

    /// Whatever is hidden from a player, the bots write the same submission for them: checked
    /// for every player before every main round of 10 simulated games, each bot against its own
    /// redraw. (In the elimination round the alignments are public and nothing is redrawn.)
    #[test]
    fn what_a_player_cannot_see_does_not_change_what_their_bot_sends() {
        let setting = crate::simulate::plan::test_setting::<PlanarControl>("random=7,hunter", 4);
        let mut checked = 0;
        let mut scramble_rng = BotRng::seed_from_u64(9);
        for game in 0..10 {
            let seed = crate::simulate::game_seed(setting.seed, game);
            let (mut state, mut memory) =
                crate::simulate::start::<PlanarControl>(&setting, seed).unwrap();
            let mut rng = BotRng::seed_from_u64(seed);
            let bots: Vec<Strategy> = (0..15)
                .map(|i| {
                    if i % 2 == 0 {
                        Strategy::Smart
                    } else {
                        Strategy::Random
                    }
                })
                .collect();
            while state.phase == Phase::Main {
                let seated = seats(&state);
                memory.divined.resize_with(seated.len(), Vec::new);
                for (i, (id, _)) in seated.iter().enumerate() {
                    for bot in Strategy::ALL {
                        let (other, mut other_memory) =
                            scrambled(&state, &memory, id, &mut scramble_rng);
                        assert_ne!(other, state);
                        let (mut a, mut b) = (rng.clone(), rng.clone());
                        assert_eq!(
                            choose(&state, &seated, i, bot, &mut memory, &mut a),
                            choose(&other, &seats(&other), i, bot, &mut other_memory, &mut b),
                            "{id}"
                        );
                        checked += 1;
                    }
                }
                PlanarControl::play(&mut state, &bots, &mut rng, &mut memory, None);
                PlanarControl::advance(&mut state, seed, &mut memory);
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
