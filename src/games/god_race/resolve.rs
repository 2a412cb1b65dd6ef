//! Resolving a God Race round: defaults for missing parts, round 0 (scoring orbs, garnets, the
//! box), rounds 1+ (candles, rituals, the race, returning and recolouring orbs, gifts), the draws
//! for the next round, and the end of the game (spec god-race.md, rulings 1, 2, 9–11).

use super::gods::{Counts, God, GodSet, counts, total};
use super::race::{self, Move, Track};
pub use super::report::Part;
use super::report::{Private, Sorted, SortedPlacement};
use super::standings::{Standings, finish};
use super::state::{CANDLE_PRICE, CandlePlan, Gift, Live, Orbs, Placement, PlayerState, State};
use crate::doc::Choice;
use crate::games::{PrivatePart, RoundResult, Seats, garnet_changes, to_table};
use crate::player_id::PlayerId;
use crate::rng::{self, GameRng};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde::Serialize;
use std::collections::BTreeMap;

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
    // `meadows`, where every player is for the next round, is put into the table after
    // (`player_table`: it grows with the players).
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
    /// Ruling 20: the seats that left the game, ranked with nobody.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    left: Vec<PlayerId>,
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
                next_meadows: p.meadow.others().collect(),
            };
            (id.clone(), PrivatePart::typed(welcome))
        })
        .collect();
    RoundResult::without_garnets(&public, private)
}

/// What a resolution tells the players, noted as the rules run. The tick notes everything
/// (`Record`); the simulator notes nothing (`()`), so both run the same rules, in place, and only
/// the tick pays for the announcement and the reports. Players are numbered in id order.
pub trait Notes {
    /// A part chosen at random for player `i`.
    fn defaulted(&mut self, i: usize, part: Part) {
        let _ = (i, part);
    }
    fn placed(&mut self, i: usize, placement: &Placement) {
        let _ = (i, placement);
    }
    fn candles(&mut self, i: usize, plan: &CandlePlan) {
        let _ = (i, plan);
    }
    /// Player `i` received `candle` as a gift.
    fn received(&mut self, i: usize, candle: God) {
        let _ = (i, candle);
    }
}

impl Notes for () {}

/// What a round of the race did, for the announcement.
pub struct Race {
    pub ceremonies: [Counts; 3],
    pub rituals: GodSet,
    pub log: race::Log,
}

/// What `advance` did: the race (rounds 1+) and, at the end, the standings.
pub struct Step {
    pub race: Option<Race>,
    pub standings: Option<Standings>,
}

/// Resolves the current round in place (rulings 1, 2, 9–11): the rules themselves, shared by the
/// tick (`resolve`) and the simulator, which plays whole games without building results.
pub fn advance(state: &mut State, seed: u64, notes: &mut impl Notes) -> Step {
    let round = state.round;
    // Meadows for the next round (ruling 1): the latest valid choice, or a random other meadow,
    // settled in the live choices (a seat that left keeps its meadow, ruling 20).
    for (i, (id, p)) in state.players.iter_mut().enumerate() {
        if p.left || p.live.meadow.is_some() {
            continue;
        }
        notes.defaulted(i, Part::Meadow);
        let others: Vec<God> = p.meadow.others().collect();
        let stream = &mut rng::stream_of(seed, round, &["god-race/default-meadow/", id.as_str()]);
        p.live.meadow = others.choose(stream).copied();
    }
    let race = if round == 0 {
        round_zero(state, notes, seed);
        None
    } else {
        Some(race_round(state, notes, seed))
    };
    for p in state.players.values_mut() {
        p.meadow = next_meadow(p);
        p.live = Live::default();
    }
    let over = state.podium.len() >= 3
        || (state.options.max_rounds > 0 && round >= state.options.max_rounds);
    let standings = if over {
        state.finished = true;
        for p in state.players.values_mut() {
            p.hand.clear();
            p.meadow_orb = None;
        }
        Some(finish(state))
    } else {
        draw_hands(state, seed, round + 1);
        state.round = round + 1;
        None
    };
    state.rounds_played += 1;
    Step { race, standings }
}

/// The notes of one resolution, per player in id order, for the private reports.
struct Record {
    private: Vec<Private>,
}

impl Notes for Record {
    fn defaulted(&mut self, i: usize, part: Part) {
        self.private[i].defaulted.insert(part);
    }
    fn placed(&mut self, i: usize, placement: &Placement) {
        self.private[i].placed = Some(SortedPlacement::of(placement));
    }
    fn candles(&mut self, i: usize, plan: &CandlePlan) {
        let note = &mut self.private[i];
        note.lit = Sorted::of(&plan.light);
        note.bought = Sorted::of(&plan.buy);
        note.gave = plan.give.clone();
    }
    fn received(&mut self, i: usize, candle: God) {
        self.private[i].received.push(candle);
    }
}

/// Resolves the current round in place (the tick's road: `Game::resolve_in_place`): `state`
/// becomes the next round's; the result says what happened, to all and to each player.
pub fn resolve(state: &mut State, seed: u64) -> RoundResult {
    let round = state.round;
    let garnets_before: Vec<i64> = state.players.values().map(|p| p.garnets).collect();
    let mut record = Record {
        private: state
            .players
            .values()
            .map(|p| Private::new(p.meadow))
            .collect(),
    };
    let step = advance(state, seed, &mut record);
    let next = &*state;
    let mut public = Public {
        round,
        orbs: Vec::new(),
        rituals: Vec::new(),
        winners: Vec::new(),
        moves: Vec::new(),
        podium: next.podium.clone(),
        places: next
            .podium
            .iter()
            .enumerate()
            .map(|(i, g)| (*g, race::place(i + 1).to_owned()))
            .collect(),
        finished_now: Vec::new(),
        spaces: next.gods.clone(),
        defaults: next
            .players
            .keys()
            .zip(&record.private)
            .filter(|(_, note)| !note.defaulted.is_empty())
            .map(|(id, _)| id.clone())
            .collect(),
        picture: picture(next),
        next_round: (!next.finished).then_some(next.round),
        r#final: step.standings.map(|s| final_of(next, s)),
    };
    if let Some(race) = step.race {
        public.orbs = race.ceremonies.to_vec();
        public.rituals = race.rituals.iter().collect();
        public.winners = race
            .log
            .winners
            .iter()
            .map(|w| w.map_or("none", |g| g.name()).to_owned())
            .collect();
        public.moves = race.log.moves.into_vec();
        public.finished_now = race.log.finished.into_vec();
    }
    // (a round moves no one in or out: the balances before are by the same index)
    let garnets = garnet_changes(&next.players, &garnets_before, |p| p.garnets);
    let private = private_reports(next, record.private, &garnets, public.r#final.as_ref());
    let public = announcement(&public, next);
    RoundResult {
        public,
        private,
        garnets,
    }
}

/// `[public]`: the announcement, with where every player is for the next round (a name per
/// seat: a table keyed by copied ids was a quarter of a large round's resolution).
fn announcement(public: &Public, next: &State) -> crate::games::Public {
    let meadows = next.players.values().map(|p| p.meadow.name()).collect();
    crate::games::Public::from(to_table(public))
        .with_seated("meadows", Seats::beside(&next.players, meadows))
}

/// Each player's private part: the round's notes, then what they hold and send next, and at the
/// end their score and stakes.
fn private_reports(
    next: &State,
    mut notes: Vec<Private>,
    garnets: &Seats<i64>,
    last: Option<&Final>,
) -> Seats<PrivatePart> {
    // (the notes and the garnets are in id order, as the players are)
    for (((id, p), note), change) in next.players.iter().zip(&mut notes).zip(garnets.values()) {
        note.support = Orbs::from_slice(&p.support);
        note.garnets = p.garnets;
        note.garnets_change = *change;
        note.meadow = p.meadow;
        note.hand = Sorted::of(&p.hand);
        note.candles = Sorted::of(&p.candles);
        note.next_meadows = Sorted::all_but(p.meadow);
        note.max_buy = p.garnets / CANDLE_PRICE;
        note.playing = !next.finished;
        if let Some(f) = last {
            note.score = f.scores.get(id).copied();
            note.tokens = f.tokens.get(id).copied().unwrap_or(0);
            note.winner = f.winners.contains(id);
            note.elimination = f.elimination.contains(id);
        }
    }
    // every note stays where it is, in one list the parts share
    Seats::beside(&next.players, PrivatePart::rows(notes).collect())
}

/// Where `p` will be next round, once `advance` has settled the meadows in the live choices
/// (the current one is still `p.meadow`).
fn next_meadow(p: &PlayerState) -> God {
    match p.live.meadow {
        Some(m) if !p.left => m,
        _ => p.meadow,
    }
}

/// Round 0 (rulings 1 and 2): scoring orbs, garnets, the box and the first candles.
fn round_zero(state: &mut State, notes: &mut impl Notes, seed: u64) {
    let mut orb_box: Counts = God::ALL.iter().map(|g| (*g, 1)).collect();
    for (i, (id, me)) in state.players.iter_mut().enumerate() {
        let support = me.live.support.take().unwrap_or_else(|| {
            notes.defaulted(i, Part::Support);
            let mut gods = God::ALL.to_vec();
            gods.shuffle(&mut rng::stream_of(
                seed,
                0,
                &["god-race/default-support/", id.as_str()],
            ));
            let mut two = gods[..2].to_vec();
            two.sort();
            two
        });
        for god in God::ALL.iter().filter(|g| !support.contains(g)) {
            orb_box.add(*god, 1);
        }
        let next_meadow = next_meadow(me);
        let gained = support
            .iter()
            .filter(|g| **g == me.meadow || **g == next_meadow)
            .count() as i64;
        me.garnets += gained;
        me.support = support;
        let mut candles = vec![me.meadow, next_meadow];
        candles.sort();
        me.candles = candles;
    }
    state.orb_box = orb_box;
}

/// Rounds 1+: candles and rituals, the race, orbs back to the box and recoloured, gifts.
fn race_round(state: &mut State, notes: &mut impl Notes, seed: u64) -> Race {
    let mut ceremonies: [Counts; 3] = Default::default();
    let mut rituals = GodSet::default();
    let mut gifts: Vec<Gift> = Vec::new();
    let round = state.round;
    for (i, (id, me)) in state.players.iter_mut().enumerate() {
        if me.left {
            continue; // ruling 20: its hand goes back to the box unplayed
        }
        let placement = me.live.placement.take().unwrap_or_else(|| {
            notes.defaulted(i, Part::Placement);
            random_placement(
                &me.hand,
                &mut rng::stream_of(seed, round, &["god-race/default-placement/", id.as_str()]),
            )
        });
        for (c, orbs) in placement.ceremonies().iter().enumerate() {
            for god in orbs.iter() {
                ceremonies[c].add(*god, 1);
            }
        }
        notes.placed(i, &placement);
        // ruling 10 and the candle part: buy, then light and give from what is held
        let plan = me.live.candles.take().unwrap_or_default();
        me.garnets -= CANDLE_PRICE * plan.buy.len() as i64;
        me.candles.extend(&plan.buy);
        for god in plan.light.iter().chain(plan.give.iter().map(|g| &g.candle)) {
            if let Some(i) = me.candles.iter().position(|c| c == god) {
                me.candles.remove(i);
            }
        }
        for god in &plan.light {
            rituals.insert(*god);
        }
        notes.candles(i, &plan);
        gifts.extend(plan.give);
    }
    let mut track = Track {
        spaces: std::mem::take(&mut state.gods),
        podium: std::mem::take(&mut state.podium),
        goal: state.options.spaces,
    };
    let log = race::evaluate(&mut track, &rituals, &ceremonies);

    // Ruling 9: drawn orbs return to the box; the box orbs of gods that finished are recoloured.
    for p in state.players.values() {
        let mut skip_meadow = p.meadow_orb;
        for god in &p.hand {
            if skip_meadow == Some(*god) {
                skip_meadow = None;
                continue;
            }
            state.orb_box.add(*god, 1);
        }
    }
    for god in &log.finished {
        let k = state.orb_box.take(*god);
        let racing = track.spaces.len() as u32;
        if racing == 0 {
            state.discarded += k;
            continue;
        }
        let share = k / racing;
        if share > 0 {
            for g in track.spaces.keys() {
                state.orb_box.add(*g, share);
            }
        }
        state.discarded += k % racing;
    }
    for gift in gifts {
        if let Some(i) = state.players.index_of(&gift.to) {
            state.players.at_mut(i).candles.push(gift.candle);
            notes.received(i, gift.candle);
        }
    }
    for p in state.players.values_mut() {
        p.candles.sort();
    }
    state.gods = track.spaces;
    state.podium = track.podium;
    Race {
        ceremonies,
        rituals,
        log,
    }
}

/// Ruling 2: each player in id order draws min(3, what is left) orbs without replacement, and
/// receives the orb of their meadow if that god still races.
fn draw_hands(state: &mut State, seed: u64, round: u32) {
    let mut rng = rng::stream(seed, round, "god-race/draw");
    // (held inline up to a box of 64 orbs: 19 players' worth)
    let mut pool: smallvec::SmallVec<[God; 64]> = state
        .orb_box
        .iter()
        .flat_map(|(g, n)| std::iter::repeat_n(g, n as usize))
        .collect();
    for p in state.players.values_mut() {
        // The hand's allocation is reused from round to round.
        let hand = &mut p.hand;
        hand.clear();
        if p.left {
            p.meadow_orb = None; // ruling 20: a seat that left draws nothing
            continue;
        }
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
    }
    state.orb_box = counts(&pool);
}

fn random_placement(hand: &[God], rng: &mut GameRng) -> Placement {
    let mut lists: [Orbs; 3] = Default::default();
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

/// `[public.final]` of the last round.
fn final_of(state: &State, s: Standings) -> Final {
    let ids: Vec<&PlayerId> = state.players.keys().collect();
    let pick = |keep: &dyn Fn(usize) -> bool| -> Vec<PlayerId> {
        (0..ids.len())
            .filter(|i| keep(*i))
            .map(|i| ids[i].clone())
            .collect()
    };
    Final {
        god_points: God::ALL
            .iter()
            .map(|g| (*g, s.god_points[*g as usize]))
            .collect(),
        support: state
            .players
            .iter()
            .map(|(id, p)| (id.clone(), p.support.clone()))
            .collect(),
        tokens: (0..ids.len())
            .filter(|i| s.winner(*i))
            .map(|i| (ids[i].clone(), s.tokens(i)))
            .collect(),
        winners: pick(&|i| s.winner(i)),
        elimination: pick(&|i| s.elimination(i)),
        left: pick(&|i| s.left[i]),
        scores: ids.iter().map(|id| (*id).clone()).zip(s.scores).collect(),
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
