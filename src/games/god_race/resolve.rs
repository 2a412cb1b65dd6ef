//! Resolving a God Race round: defaults for missing parts, round 0 (scoring orbs, garnets, the
//! box), rounds 1+ (candles, rituals, the race, returning and recolouring orbs, gifts), the draws
//! for the next round, and the end of the game (spec god-race.md, rulings 1, 2, 9–11).

use super::gods::{Counts, God, counts, total};
use super::race::{self, Move, Track};
use super::state::{CANDLE_PRICE, CandlePlan, Gift, Live, Placement, State};
use crate::doc::Choice;
use crate::games::{Resolution, RoundResult, to_table};
use crate::player_id::PlayerId;
use crate::rng::{self, GameRng};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Serialize)]
struct Public {
    round: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    orbs: Vec<Counts>,
    rituals: Vec<God>,
    /// Per ceremony processed: the winner's name or "none".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    winners: Vec<String>,
    moves: Vec<Move>,
    podium: Vec<God>,
    /// "1st", "2nd"… of each god on the podium.
    places: BTreeMap<God, String>,
    finished_now: Vec<God>,
    spaces: BTreeMap<God, u32>,
    /// Where every player is for the next round.
    meadows: BTreeMap<PlayerId, God>,
    defaults: Vec<PlayerId>,
    /// The track after the round, two lines of text (spaces; gods on them).
    picture: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_round: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#final: Option<Final>,
}

#[derive(Serialize)]
struct Final {
    god_points: BTreeMap<God, u32>,
    support: BTreeMap<PlayerId, Vec<God>>,
    scores: BTreeMap<PlayerId, u32>,
    winners: Vec<PlayerId>,
    elimination: Vec<PlayerId>,
    tokens: BTreeMap<PlayerId, u32>,
}

#[derive(Serialize)]
struct Private {
    support: Vec<God>,
    /// Parts chosen at random for this player this round, in words.
    defaulted: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    placed: Option<Placement>,
    lit: Vec<God>,
    bought: Vec<God>,
    gave: Vec<Gift>,
    received: Vec<God>,
    garnets: i64,
    garnets_change: i64,
    /// The next round: meadow, hand, candles.
    meadow: God,
    hand: Vec<God>,
    candles: Vec<God>,
    next_meadows: Vec<God>,
    max_buy: i64,
    playing: bool,
    /// At the end: this player's score, Tokens, and standing.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u32>,
    tokens: u32,
    winner: bool,
    elimination: bool,
}

impl Private {
    fn new(meadow: God) -> Private {
        Private {
            support: Vec::new(),
            defaulted: Vec::new(),
            placed: None,
            lit: Vec::new(),
            bought: Vec::new(),
            gave: Vec::new(),
            received: Vec::new(),
            garnets: 0,
            garnets_change: 0,
            meadow,
            hand: Vec::new(),
            candles: Vec::new(),
            next_meadows: Vec::new(),
            max_buy: 0,
            playing: false,
            score: None,
            tokens: 0,
            winner: false,
            elimination: false,
        }
    }
}

/// The opening (issue 13: round 0 is a submission round, so players must learn the format before
/// it): who plays, the goal, and to each player their meadow and balance, with a skeleton for
/// round 0 in the private welcome.
pub fn opening(state: &State) -> RoundResult {
    #[derive(Serialize)]
    struct Opening<'a> {
        round: u32,
        phase: &'static str,
        next_round: u32,
        players: Vec<&'a PlayerId>,
        /// The goal's space.
        goal: u32,
    }
    #[derive(Serialize)]
    struct Welcome {
        meadow: God,
        garnets: i64,
        next_meadows: Vec<God>,
    }
    let public = Opening {
        round: 0,
        phase: "opening",
        next_round: state.round,
        players: state.players.keys().collect(),
        goal: state.options.spaces,
    };
    let private = state
        .players
        .iter()
        .map(|(id, p)| {
            let welcome = Welcome {
                meadow: p.meadow,
                garnets: p.garnets,
                next_meadows: God::ALL
                    .iter()
                    .copied()
                    .filter(|g| *g != p.meadow)
                    .collect(),
            };
            (id.clone(), to_table(&welcome))
        })
        .collect();
    RoundResult::without_garnets(&public, private)
}

pub fn resolve(state: &State, seed: u64) -> Resolution<State> {
    let mut next = state.clone();
    let mut private: BTreeMap<PlayerId, Private> = BTreeMap::new();
    let mut defaults = BTreeSet::new();
    let round = state.round;
    let rand_for =
        |what: &str, id: &PlayerId| rng::stream(seed, round, &format!("god-race/{what}/{id}"));

    // Meadows for the next round (ruling 1): the latest valid choice, or a random other meadow.
    let mut meadows = BTreeMap::new();
    for (id, p) in &state.players {
        let mut note = private
            .entry(id.clone())
            .or_insert_with(|| Private::new(p.meadow));
        let m = p.live.meadow.unwrap_or_else(|| {
            defaults.insert(id.clone());
            note.defaulted
                .push("your next meadow (no valid meadow was sent)".into());
            let others: Vec<God> = God::ALL
                .iter()
                .copied()
                .filter(|g| *g != p.meadow)
                .collect();
            *others
                .choose(&mut rand_for("default-meadow", id))
                .expect("four other meadows")
        });
        meadows.insert(id.clone(), m);
        note = private.get_mut(id).expect("just inserted");
        note.support = p.support.clone();
    }

    let mut public = Public {
        round,
        orbs: Vec::new(),
        rituals: Vec::new(),
        winners: Vec::new(),
        moves: Vec::new(),
        podium: state.podium.clone(),
        places: BTreeMap::new(),
        finished_now: Vec::new(),
        spaces: BTreeMap::new(),
        meadows: meadows.clone(),
        defaults: Vec::new(),
        picture: Vec::new(),
        next_round: None,
        r#final: None,
    };
    let garnets_before: BTreeMap<PlayerId, i64> = state
        .players
        .iter()
        .map(|(id, p)| (id.clone(), p.garnets))
        .collect();

    if round == 0 {
        round_zero(
            state,
            &mut next,
            &meadows,
            &mut private,
            &mut defaults,
            seed,
        );
    } else {
        race_round(
            state,
            &mut next,
            &mut public,
            &mut private,
            &mut defaults,
            seed,
        );
    }
    for (id, p) in next.players.iter_mut() {
        p.meadow = meadows[id];
        p.live = Live::default();
    }

    let over = next.podium.len() >= 3
        || (state.options.max_rounds > 0 && round >= state.options.max_rounds);
    if over {
        next.finished = true;
        public.r#final = Some(finish(&mut next));
        for p in next.players.values_mut() {
            p.hand.clear();
            p.meadow_orb = None;
        }
    } else {
        draw_hands(&mut next, seed, round + 1);
        next.round = round + 1;
        public.next_round = Some(next.round);
    }
    next.rounds_played += 1;
    public.podium = next.podium.clone();
    public.places = next
        .podium
        .iter()
        .enumerate()
        .map(|(i, g)| (*g, race::place(i + 1).to_owned()))
        .collect();
    public.spaces = next.gods.clone();
    public.defaults = defaults.into_iter().collect();
    public.picture = picture(&next);

    let garnets: BTreeMap<PlayerId, i64> = next
        .players
        .iter()
        .map(|(id, p)| (id.clone(), p.garnets - garnets_before[id]))
        .collect();
    let private = private
        .into_iter()
        .map(|(id, mut note)| {
            let p = &next.players[&id];
            note.garnets = p.garnets;
            note.garnets_change = garnets[&id];
            note.meadow = p.meadow;
            note.hand = p.hand.clone();
            note.candles = p.candles.clone();
            note.next_meadows = God::ALL
                .iter()
                .copied()
                .filter(|g| *g != p.meadow)
                .collect();
            note.max_buy = p.garnets / CANDLE_PRICE;
            note.playing = !next.finished;
            if let Some(f) = &public.r#final {
                note.score = f.scores.get(&id).copied();
                note.tokens = f.tokens.get(&id).copied().unwrap_or(0);
                note.winner = f.winners.contains(&id);
                note.elimination = f.elimination.contains(&id);
            }
            (id, to_table(&note))
        })
        .collect();
    Resolution {
        state: next,
        result: RoundResult {
            public: to_table(&public),
            private,
            garnets,
        },
    }
}

/// Round 0 (rulings 1 and 2): scoring orbs, garnets, the box and the first candles.
fn round_zero(
    state: &State,
    next: &mut State,
    meadows: &BTreeMap<PlayerId, God>,
    private: &mut BTreeMap<PlayerId, Private>,
    defaults: &mut BTreeSet<PlayerId>,
    seed: u64,
) {
    let mut orb_box: Counts = God::ALL.iter().map(|g| (*g, 1)).collect();
    for (id, p) in &state.players {
        let support = p.live.support.clone().unwrap_or_else(|| {
            defaults.insert(id.clone());
            private
                .get_mut(id)
                .expect("all players")
                .defaulted
                .push("your scoring orbs (none valid was sent)".into());
            let mut gods = God::ALL.to_vec();
            gods.shuffle(&mut rng::stream(
                seed,
                0,
                &format!("god-race/default-support/{id}"),
            ));
            let mut two = gods[..2].to_vec();
            two.sort();
            two
        });
        for god in God::ALL.iter().filter(|g| !support.contains(g)) {
            *orb_box.entry(*god).or_default() += 1;
        }
        let gained = support
            .iter()
            .filter(|g| **g == p.meadow || **g == meadows[id])
            .count() as i64;
        let me = next.players.get_mut(id).expect("all players");
        me.garnets += gained;
        me.support = support.clone();
        let mut candles = vec![p.meadow, meadows[id]];
        candles.sort();
        me.candles = candles;
        private.get_mut(id).expect("all players").support = support;
    }
    next.orb_box = orb_box;
}

/// Rounds 1+: candles and rituals, the race, orbs back to the box and recoloured, gifts.
fn race_round(
    state: &State,
    next: &mut State,
    public: &mut Public,
    private: &mut BTreeMap<PlayerId, Private>,
    defaults: &mut BTreeSet<PlayerId>,
    seed: u64,
) {
    let mut ceremonies: [Counts; 3] = Default::default();
    let mut rituals = BTreeSet::new();
    let mut gifts: Vec<Gift> = Vec::new();
    for (id, p) in &state.players {
        let note = private.get_mut(id).expect("all players");
        let placement = p.live.placement.clone().unwrap_or_else(|| {
            defaults.insert(id.clone());
            note.defaulted
                .push("your orb placement (no valid placement was sent)".into());
            random_placement(
                &p.hand,
                &mut rng::stream(
                    seed,
                    state.round,
                    &format!("god-race/default-placement/{id}"),
                ),
            )
        });
        for (c, orbs) in placement.ceremonies().iter().enumerate() {
            for god in orbs.iter() {
                *ceremonies[c].entry(*god).or_default() += 1;
            }
        }
        note.placed = Some(placement);
        // ruling 10 and the candle part: buy, then light and give from what is held
        let plan = p.live.candles.clone().unwrap_or_default();
        let me = next.players.get_mut(id).expect("all players");
        me.garnets -= CANDLE_PRICE * plan.buy.len() as i64;
        me.candles.extend(&plan.buy);
        for god in plan.light.iter().chain(plan.give.iter().map(|g| &g.candle)) {
            if let Some(i) = me.candles.iter().position(|c| c == god) {
                me.candles.remove(i);
            }
        }
        rituals.extend(plan.light.iter().copied());
        gifts.extend(plan.give.iter().cloned());
        let CandlePlan { light, buy, give } = plan;
        (note.lit, note.bought, note.gave) = (light, buy, give);
    }
    let mut track = Track {
        spaces: state.gods.clone(),
        podium: state.podium.clone(),
        goal: state.options.spaces,
    };
    let log = race::evaluate(&mut track, &rituals, &ceremonies);

    // Ruling 9: drawn orbs return to the box; the box orbs of gods that finished are recoloured.
    for p in state.players.values() {
        let mut drawn = p.hand.clone();
        if let Some(m) = p.meadow_orb
            && let Some(i) = drawn.iter().position(|g| *g == m)
        {
            drawn.remove(i);
        }
        for god in drawn {
            *next.orb_box.entry(god).or_default() += 1;
        }
    }
    for god in &log.finished {
        let k = next.orb_box.remove(god).unwrap_or(0);
        let racing: Vec<God> = track.spaces.keys().copied().collect();
        if racing.is_empty() {
            next.discarded += k;
            continue;
        }
        let share = k / racing.len() as u32;
        for g in &racing {
            if share > 0 {
                *next.orb_box.entry(*g).or_default() += share;
            }
        }
        next.discarded += k % racing.len() as u32;
    }
    next.orb_box.retain(|_, n| *n > 0);
    for gift in gifts {
        let to = next.players.get_mut(&gift.to).expect("checked on receipt");
        to.candles.push(gift.candle);
        private
            .get_mut(&gift.to)
            .expect("all players")
            .received
            .push(gift.candle);
    }
    for p in next.players.values_mut() {
        p.candles.sort();
    }
    next.gods = track.spaces;
    next.podium = track.podium;
    public.orbs = ceremonies.to_vec();
    public.rituals = rituals.into_iter().collect();
    public.winners = log
        .winners
        .iter()
        .map(|w| w.map_or("none", |g| g.name()).to_owned())
        .collect();
    public.moves = log.moves;
    public.finished_now = log.finished;
}

/// Ruling 2: each player in id order draws min(3, what is left) orbs without replacement, and
/// receives the orb of their meadow if that god still races.
fn draw_hands(state: &mut State, seed: u64, round: u32) {
    let mut rng = rng::stream(seed, round, "god-race/draw");
    let mut pool: Vec<God> = state
        .orb_box
        .iter()
        .flat_map(|(g, n)| std::iter::repeat_n(*g, *n as usize))
        .collect();
    for p in state.players.values_mut() {
        let mut hand = Vec::new();
        for _ in 0..3 {
            if pool.is_empty() {
                break;
            }
            let i = rng.random_range(0..pool.len());
            hand.push(pool.swap_remove(i)); // order of the pool does not matter, and this is O(1)
        }
        p.meadow_orb = state.gods.contains_key(&p.meadow).then_some(p.meadow);
        hand.extend(p.meadow_orb);
        hand.sort();
        p.hand = hand;
    }
    state.orb_box = counts(&pool);
}

fn random_placement(hand: &[God], rng: &mut GameRng) -> Placement {
    let mut lists: [Vec<God>; 3] = Default::default();
    for god in hand {
        lists[rng.random_range(0..3)].push(*god);
    }
    let [mut a, mut b, mut c] = lists;
    a.sort();
    b.sort();
    c.sort();
    Placement {
        ceremony1: a,
        ceremony2: b,
        ceremony3: c,
    }
}

/// Ruling 11: 3/2/1/0/0 by podium; a player scores the sum for their two gods and earns as many
/// garnets; the highest score wins a Token (two for a sole winner); the lowest are Elimination
/// Candidates.
fn finish(state: &mut State) -> Final {
    let god_points: BTreeMap<God, u32> = God::ALL
        .iter()
        .map(|g| {
            (
                *g,
                state
                    .podium
                    .iter()
                    .position(|p| p == g)
                    .map_or(0, |i| 3u32.saturating_sub(i as u32)),
            )
        })
        .collect();
    let scores: BTreeMap<PlayerId, u32> = state
        .players
        .iter()
        .map(|(id, p)| (id.clone(), p.support.iter().map(|g| god_points[g]).sum()))
        .collect();
    for (id, p) in state.players.iter_mut() {
        p.garnets += i64::from(scores[id]);
    }
    let top = scores.values().copied().max().unwrap_or(0);
    let bottom = scores.values().copied().min().unwrap_or(0);
    let winners: Vec<PlayerId> = scores
        .iter()
        .filter(|(_, s)| **s == top)
        .map(|(id, _)| id.clone())
        .collect();
    let elimination: Vec<PlayerId> = scores
        .iter()
        .filter(|(_, s)| **s == bottom)
        .map(|(id, _)| id.clone())
        .collect();
    let per_winner = if winners.len() == 1 { 2 } else { 1 };
    Final {
        god_points,
        support: state
            .players
            .iter()
            .map(|(id, p)| (id.clone(), p.support.clone()))
            .collect(),
        tokens: winners.iter().map(|id| (id.clone(), per_winner)).collect(),
        scores,
        winners,
        elimination,
    }
}

/// The track as two lines of 5-column cells: the space numbers, and the gods on them (the podium
/// after the goal).
fn picture(state: &State) -> Vec<String> {
    let goal = state.options.spaces;
    let mut numbers = String::new();
    let mut gods = String::new();
    for space in 1..=goal {
        numbers.push_str(&format!("{space:>5}"));
        let here: String = state
            .gods
            .iter()
            .filter(|(_, s)| **s == space)
            .map(|(g, _)| g.letter())
            .collect();
        let cell = if here.is_empty() {
            ".".to_owned()
        } else {
            here
        };
        gods.push_str(&format!("{cell:>5}"));
    }
    let mut lines = vec![numbers, gods];
    // The podium goes under the goal, on a line of its own, so the track stays within 72 columns.
    let podium: String = state.podium.iter().map(|g| g.letter()).collect();
    if !podium.is_empty() {
        let width = 5 * goal as usize + 1;
        lines.push(format!("{:>width$}", format!("[{podium}]")));
    }
    lines
}

/// Orbs in the box, drawn into hands and discarded: always 3n + 5 between rounds.
pub fn orbs_in_play(state: &State) -> u32 {
    let drawn: u32 = state
        .players
        .values()
        .map(|p| p.hand.len() as u32 - u32::from(p.meadow_orb.is_some()))
        .sum();
    total(&state.orb_box) + drawn + state.discarded
}
