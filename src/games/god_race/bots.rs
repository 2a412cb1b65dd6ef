//! God Race bots for `simulate`: a uniformly random legal player and `leader`, who backs the
//! supported god nearest the goal. A bot sees a `View`: the public track and its own player's
//! private facts (meadow, scoring orbs, hand, candles, garnets), all of which the player's
//! reports tell them; never the box, other hands or other players' scoring orbs.
//!
//! A bot hands its version to the checks a player's file meets (`version::send`), so it can never
//! make a move a player cannot; the round then resolves in place through `resolve::advance`, the
//! tick's own rules, noting nothing.

use super::GodRace;
use super::gods::God;
use super::resolve::{self, Notes, Part};
use super::state::{CANDLE_PRICE, Orbs, PlayerState, State};
use super::version::Version;
use crate::doc::Choice;
use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
use crate::games::version::{Seat, send};
use rand::RngExt;

/// What one player knows when choosing a round's submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View<'a> {
    pub round: u32,
    pub goal: u32,
    /// Each god's space (`God::ALL` order); `None` once it is on the podium.
    pub spaces: [Option<u32>; 5],
    pub meadow: God,
    pub support: &'a [God],
    pub hand: &'a [God],
    pub candles: &'a [God],
    pub garnets: i64,
}

/// The public part of every view of a round: the round, the goal and the track.
#[derive(Clone, Copy)]
struct Track {
    round: u32,
    goal: u32,
    spaces: [Option<u32>; 5],
}

impl Track {
    fn of(state: &State) -> Track {
        let mut spaces = [None; 5];
        for (god, space) in &state.gods {
            spaces[*god as usize] = Some(*space);
        }
        Track {
            round: state.round,
            goal: state.options.spaces,
            spaces,
        }
    }
}

impl<'a> View<'a> {
    /// The view of player `me` of `state`: only the public track and `me`'s own facts.
    pub fn of(state: &State, me: &'a PlayerState) -> View<'a> {
        View::mine(Track::of(state), me)
    }

    fn mine(track: Track, me: &'a PlayerState) -> View<'a> {
        View {
            round: track.round,
            goal: track.goal,
            spaces: track.spaces,
            meadow: me.meadow,
            support: &me.support,
            hand: &me.hand,
            candles: &me.candles,
            garnets: me.garnets,
        }
    }

    fn racing(&self, god: God) -> bool {
        self.spaces[god as usize].is_some()
    }
}

/// The version `strategy` sends from `view`.
pub fn choose(view: &View<'_>, strategy: Strategy, rng: &mut BotRng) -> Version {
    match strategy {
        Strategy::Random => random(view, rng),
        Strategy::Smart => leader(view, rng),
    }
}

fn other_meadow(view: &View<'_>, rng: &mut BotRng) -> God {
    let k = rng.random_range(0..4usize);
    view.meadow.others().nth(k).expect("four other meadows")
}

fn random(view: &View<'_>, rng: &mut BotRng) -> Version {
    let meadow = other_meadow(view, rng);
    if view.round == 0 {
        let a = rng.random_range(0..5usize);
        let b = (a + 1 + rng.random_range(0..4usize)) % 5;
        let (a, b) = (God::ALL[a], God::ALL[b]);
        return Version::round0(meadow, [a.min(b), a.max(b)]);
    }
    let mut lists: [Orbs; 3] = Default::default();
    for god in view.hand {
        lists[rng.random_range(0..3usize)].push(*god);
    }
    let light: Orbs = view
        .candles
        .iter()
        .copied()
        .filter(|_| rng.random_bool(0.5))
        .collect();
    round(meadow, lists, light, Orbs::new())
}

/// Scores with the supported god nearest the goal: its orbs to ceremony 3, the other supported
/// god's to ceremony 2, the rest to ceremony 1; lights a candle of each supported god still
/// racing (buying one for the leader when it has garnets to spare); moves to the leader's meadow
/// for its orb. Round 0: supports its current and its next meadow (two garnets).
fn leader(view: &View<'_>, rng: &mut BotRng) -> Version {
    if view.round == 0 {
        let next = other_meadow(view, rng);
        return Version::round0(next, [view.meadow.min(next), view.meadow.max(next)]);
    }
    let mut racing: Orbs = view
        .support
        .iter()
        .copied()
        .filter(|g| view.racing(*g))
        .collect();
    racing.sort_by_key(|g| std::cmp::Reverse(view.spaces[*g as usize]));
    let Some(&lead) = racing.first() else {
        return random(view, rng);
    };
    let mut lists: [Orbs; 3] = Default::default();
    for god in view.hand {
        let c = if *god == lead {
            2
        } else if racing.contains(god) {
            1
        } else {
            0
        };
        lists[c].push(*god);
    }
    let mut light: Orbs = racing
        .iter()
        .copied()
        .filter(|g| view.candles.contains(g))
        .collect();
    let mut buy = Orbs::new();
    if !light.contains(&lead) && view.garnets >= 2 * CANDLE_PRICE {
        buy.push(lead);
        light.push(lead);
    }
    let meadow = racing
        .iter()
        .copied()
        .find(|g| *g != view.meadow)
        .unwrap_or_else(|| other_meadow(view, rng));
    round(meadow, lists, light, buy)
}

/// A race round's version, its lists in the canonical order the rules keep (so that the file it
/// stands for reads as it is stored).
fn round(meadow: God, mut lists: [Orbs; 3], mut light: Orbs, mut buy: Orbs) -> Version {
    let [a, b, c] = &mut lists;
    for list in [a, b, c, &mut light, &mut buy] {
        list.sort();
    }
    Version::round(meadow, lists, light, buy)
}

/// Counts the parts the rules chose at random.
struct Defaults(u64);

impl Notes for Defaults {
    fn defaulted(&mut self, _: usize, _: Part) {
        self.0 += 1;
    }
}

impl Simulated for GodRace {
    const STRATEGY: &'static str = "leader";
    const STRATEGY_ABOUT: &'static str = "supports its current and next meadow; puts the orbs of its supported god nearest the goal in ceremony 3, lights (or buys) its candles, moves to its meadow";
    const GROUP: &'static str = "";
    const GROUPS: &'static [&'static str] = &[];
    const DEFAULT_PLAYERS: usize = 7;
    const POINTS: &'static str = "score";
    type Memory = ();
    type Heard = ();

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        _: &mut (),
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        if state.finished {
            return 0;
        }
        let track = Track::of(state);
        let mut sent = 0;
        for (at, bot) in bots.iter().enumerate().take(state.players.len()) {
            let me = state.players.at(at);
            if me.left {
                continue;
            }
            let version = choose(&View::mine(track, me), *bot, rng);
            let id = state.players.id(at).clone();
            send::<GodRace>(state, Seat { id: &id, at }, version, &mut record);
            sent += 1;
        }
        sent
    }

    fn advance(state: &mut State, seed: u64, _: &mut ()) -> u64 {
        let mut defaults = Defaults(0);
        resolve::advance(state, seed, &mut defaults);
        defaults.0
    }

    fn garnets(state: &State) -> Vec<i64> {
        state.players.values().map(|p| p.garnets).collect()
    }

    fn tally(start: &[i64], state: &State, _: &()) -> Vec<End> {
        let standings = super::standings::final_standings(state);
        state
            .players
            .values()
            .enumerate()
            .map(|(i, p)| End {
                group: None,
                won: state.finished && standings.winner(i),
                elimination: state.finished && standings.elimination(i),
                tokens: if state.finished {
                    standings.tokens(i)
                } else {
                    0
                },
                points: i64::from(standings.scores[i]),
                garnets: p.garnets - start[i],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Doc;
    use crate::games::Game;
    use crate::games::version::Given;
    use crate::simulate::play_recorded;

    fn setting(bots: &str) -> crate::simulate::plan::Setting {
        crate::simulate::plan::test_setting::<GodRace>(bots, 3)
    }

    /// A bot's every version is valid, and the file it stands for, received as a player's file
    /// is, plays the same game: several whole games replayed from their recorded files end in
    /// the state the simulator reached.
    #[test]
    fn every_bot_choice_is_a_valid_submission_stored_as_the_rules_store_it() {
        let s = setting("random=4,leader=3");
        for game in 0..20 {
            let (end, transcript, tally) = play_recorded::<GodRace>(&s, game).unwrap();
            assert!(tally.finished && tally.defaults == 0, "{tally:?}");
            // Replay the game through receive: the same submissions, the rules' own validation.
            let seed = crate::simulate::game_seed(s.seed, game);
            let (mut state, ()) = crate::simulate::start::<GodRace>(&s, seed).unwrap();
            for (_, round) in &transcript {
                for (id, text) in round {
                    let out = GodRace::receive(&mut state, id, &Doc::parse(text).unwrap());
                    assert!(
                        out.valid,
                        "round {}: {text}\n{:?}",
                        state.round, out.problems
                    );
                }
                state = GodRace::resolve(&state, seed).state;
            }
            assert!(state.finished);
            assert_eq!(state, end);
            assert_eq!(GodRace::tally(&[0; 7], &state, &()).len(), 7);
        }
    }

    /// Issue #30: the simulator allocates nothing per round in steady state. Counted by the test
    /// build's allocator on this thread, every round of 40 games of both bots from round 2 (round
    /// 0 makes the scoring orbs, round 1 each hand's room) to the last but one (the last one
    /// makes the final standings).
    #[test]
    fn a_simulated_round_allocates_nothing() {
        let s = setting("random=4,leader=3");
        let steady = |rounds: usize| 2..rounds - 1;
        let rounds =
            crate::simulate::assert_steady_rounds_allocate_nothing::<GodRace>(&s, 40, steady);
        assert!(rounds > 200, "{rounds}");
    }

    #[test]
    fn leader_backs_its_supported_god_nearest_the_goal() {
        let hand = [God::White, God::Blue, God::Red, God::Red];
        let view = View {
            round: 3,
            goal: 14,
            spaces: [Some(5), Some(9), Some(2), Some(7), None],
            meadow: God::White,
            support: &[God::Red, God::Blue],
            hand: &hand,
            candles: &[God::Red],
            garnets: 0,
        };
        let version = choose(
            &view,
            Strategy::Smart,
            &mut rand::SeedableRng::seed_from_u64(1),
        );
        let list = |given: &Option<Given<Orbs>>| given.as_ref().and_then(Given::ok).cloned();
        let [c1, c2, c3] = version.ceremonies.each_ref().map(list);
        assert_eq!(c3.unwrap().as_slice(), [God::Blue]); // Blue (9) leads Red (7)
        assert_eq!(c2.unwrap().as_slice(), [God::Red, God::Red]);
        assert_eq!(c1.unwrap().as_slice(), [God::White]);
        assert_eq!(version.meadow.and_then(|m| m.value.ok()), Some(God::Blue));
        // no Blue candle, and no garnets to buy one
        assert_eq!(list(&version.light).unwrap().as_slice(), [God::Red]);
        assert_eq!(version.buy, None);
    }
}
