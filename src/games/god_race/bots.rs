//! God Race bots for `simulate`: a uniformly random legal player and `leader`, who backs the
//! supported god nearest the goal. A bot sees a `View`: the public track and its own player's
//! private facts (meadow, scoring orbs, hand, candles, garnets), all of which the player's
//! reports tell them; never the box, other hands or other players' scoring orbs.
//!
//! This is the simulator's fast path: a bot's choice is written into the player's live choices
//! as the validated submission would be (`to_toml` gives that submission; a test sends it through
//! `receive` and checks that the rules store the same), and the round resolves in place through
//! `resolve::advance`, the tick's own rules, noting nothing.

use super::GodRace;
use super::gods::God;
use super::resolve::{self, Notes, Part};
use super::state::{CANDLE_PRICE, CandlePlan, Live, Orbs, Placement, PlayerState, State};
use crate::doc::Choice;

use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
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

/// The submission `strategy` makes from `view`.
pub fn choose(view: &View<'_>, strategy: Strategy, rng: &mut BotRng) -> Live {
    match strategy {
        Strategy::Random => random(view, rng),
        Strategy::Smart => leader(view, rng),
    }
}

fn other_meadow(view: &View<'_>, rng: &mut BotRng) -> God {
    let k = rng.random_range(0..4usize);
    God::ALL
        .iter()
        .copied()
        .filter(|g| *g != view.meadow)
        .nth(k)
        .expect("four other meadows")
}

fn random(view: &View<'_>, rng: &mut BotRng) -> Live {
    let meadow = Some(other_meadow(view, rng));
    if view.round == 0 {
        let a = rng.random_range(0..5usize);
        let b = (a + 1 + rng.random_range(0..4usize)) % 5;
        let mut support = vec![God::ALL[a], God::ALL[b]];
        support.sort();
        return Live {
            meadow,
            support: Some(support),
            ..Live::default()
        };
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
    Live {
        meadow,
        support: None,
        placement: Some(placement(lists)),
        candles: plan(light, Orbs::new()),
    }
}

/// Scores with the supported god nearest the goal: its orbs to ceremony 3, the other supported
/// god's to ceremony 2, the rest to ceremony 1; lights a candle of each supported god still
/// racing (buying one for the leader when it has garnets to spare); moves to the leader's meadow
/// for its orb. Round 0: supports its current and its next meadow (two garnets).
fn leader(view: &View<'_>, rng: &mut BotRng) -> Live {
    if view.round == 0 {
        let next = other_meadow(view, rng);
        let mut support = vec![view.meadow, next];
        support.sort();
        return Live {
            meadow: Some(next),
            support: Some(support),
            ..Live::default()
        };
    }
    let mut racing: Vec<God> = view
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
    Live {
        meadow: Some(meadow),
        support: None,
        placement: Some(placement(lists)),
        candles: plan(light, buy),
    }
}

fn placement(lists: [Orbs; 3]) -> Placement {
    let [mut ceremony1, mut ceremony2, mut ceremony3] = lists;
    ceremony1.sort();
    ceremony2.sort();
    ceremony3.sort();
    Placement {
        ceremony1,
        ceremony2,
        ceremony3,
    }
}

/// The candle part as `receive` stores it (sorted lists), or none if there is nothing to do.
fn plan(mut light: Orbs, mut buy: Orbs) -> Option<CandlePlan> {
    light.sort();
    buy.sort();
    (!light.is_empty() || !buy.is_empty()).then_some(CandlePlan {
        light,
        buy,
        give: Vec::new(),
    })
}

/// The submission file that makes the rules store `live`.
pub fn to_toml(live: &Live) -> String {
    let list = |gods: &[God]| {
        let names: Vec<String> = gods.iter().map(|g| format!("\"{}\"", g.name())).collect();
        format!("[{}]", names.join(", "))
    };
    let mut text = String::new();
    if let Some(m) = live.meadow {
        text.push_str(&format!("meadow = \"{}\"\n", m.name()));
    }
    if let Some(s) = &live.support {
        text.push_str(&format!("support = {}\n", list(s)));
    }
    if let Some(p) = &live.placement {
        for (i, c) in p.ceremonies().iter().enumerate() {
            text.push_str(&format!("ceremony{} = {}\n", i + 1, list(c)));
        }
    }
    if let Some(c) = &live.candles {
        text.push_str(&format!("light = {}\n", list(&c.light)));
        if !c.buy.is_empty() {
            text.push_str(&format!("buy = {}\n", list(&c.buy)));
        }
    }
    text
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
        for ((id, p), bot) in state.players.iter_mut().zip(bots) {
            let live = choose(&View::mine(track, p), *bot, rng);
            if let Some(r) = record.as_deref_mut() {
                r.push((id.clone(), to_toml(&live)));
            }
            p.live = live;
        }
        bots.len() as u64
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
    use crate::simulate::play_recorded;

    fn setting(bots: &str) -> crate::simulate::plan::Setting {
        crate::simulate::plan::test_setting::<GodRace>(bots, 3)
    }

    /// The fast path stores exactly what the rules store when the bot's file is received: every
    /// submission of several whole games goes through `receive` too, and must be valid and give
    /// the same live choices.
    #[test]
    fn every_bot_choice_is_a_valid_submission_stored_as_the_rules_store_it() {
        let s = setting("random=4,leader=3");
        for game in 0..20 {
            let (_, transcript, tally) = play_recorded::<GodRace>(&s, game).unwrap();
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
            assert_eq!(GodRace::tally(&[0; 7], &state, &()).len(), 7);
        }
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
        let live = choose(
            &view,
            Strategy::Smart,
            &mut rand::SeedableRng::seed_from_u64(1),
        );
        let p = live.placement.unwrap();
        assert_eq!(p.ceremony3.as_slice(), [God::Blue]); // Blue (9) leads Red (7)
        assert_eq!(p.ceremony2.as_slice(), [God::Red, God::Red]);
        assert_eq!(p.ceremony1.as_slice(), [God::White]);
        assert_eq!(live.meadow, Some(God::Blue));
        assert_eq!(live.candles.unwrap().light.as_slice(), [God::Red]); // no Blue candle, no garnets
    }
}
