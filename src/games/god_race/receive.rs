//! Checking one version of a God Race submission against the round and applying it: each part
//! (meadow; support or orb placement; candles) on its own (spec god-race.md, "Submissions"). A
//! valid part replaces the part on file; an invalid one is explained and leaves the part on file
//! (or the default) in place. A file is read into a `Version` first (`version.rs`); a bot's
//! version comes here as is.

use super::GodRace;
use super::gods::{Counts, God, counts, words};
use super::state::{CANDLE_PRICE, CandlePlan, Gift, Live, Orbs, Placement, State};
use super::version::{self, Version};
use crate::doc::{Choice, Doc, Writer};
use crate::games::Outcome;
use crate::games::version::{Given, Seat, Versioned, problem_at};
use crate::player_id::PlayerId;
use crate::problem::Problem;

/// The candles a player may light or give: those held and those bought (a few, held inline).
type Candles = smallvec::SmallVec<[God; 8]>;

/// Every key of any round (`Game::KEYS`).
pub const KEYS: &[&str] = &[
    "meadow",
    "support",
    "ceremony1",
    "ceremony2",
    "ceremony3",
    "light",
    "buy",
    "give",
    "token",
];

impl Versioned for GodRace {
    type Version = Version;

    fn seat_of(state: &State, player: &PlayerId) -> Result<usize, Problem> {
        let at = state.players.index_of(player);
        at.ok_or_else(|| Problem::general("you are not a player of this game"))
    }

    fn refuse(state: &State, _: Seat<'_>) -> Option<Problem> {
        state
            .finished
            .then(|| Problem::general("the race is over; no more submissions are read"))
    }

    fn read(state: &State, _: Seat<'_>, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        Version::read(state, doc, problems)
    }

    fn apply(state: &mut State, player: Seat<'_>, mut version: Version, out: &mut Outcome) {
        let at = player.at;
        let mut invalid = false;
        let me = state.players.at(at);
        match version.meadow.as_ref().map(|m| check_meadow(m, me.meadow)) {
            Some(Ok(m)) => {
                out.understand(|| format!("move to the {} meadow", m.title()));
                state.players.at_mut(at).live.meadow = Some(m);
            }
            Some(Err(p)) => {
                out.problems.push(p);
                invalid = true;
            }
            None => {}
        }
        if state.round == 0 {
            match version.support.as_ref().map(check_support) {
                Some(Ok(s)) => {
                    out.understand(|| format!("support {} and {}", s[0].title(), s[1].title()));
                    state.players.at_mut(at).live.support = Some(s);
                }
                Some(Err(p)) => {
                    out.problems.push(p);
                    invalid = true;
                }
                None => {}
            }
        } else {
            match check_placement(&mut version.ceremonies, &state.players.at(at).hand) {
                Some(Ok(p)) => {
                    out.understand(|| {
                        p.ceremonies()
                            .iter()
                            .enumerate()
                            .map(|(i, c)| format!("ceremony {}: {}", i + 1, words(c)))
                            .collect::<Vec<_>>()
                            .join("; ")
                    });
                    state.players.at_mut(at).live.placement = Some(p);
                }
                Some(Err(p)) => {
                    out.problems.extend(p);
                    invalid = true;
                }
                None => {}
            }
            match check_candles(state, player, &mut version) {
                Some(Ok(plan)) => {
                    out.understand(|| candle_words(&plan));
                    state.players.at_mut(at).live.candles = Some(plan);
                }
                Some(Err(p)) => {
                    out.problems.extend(p);
                    invalid = true;
                }
                None => {}
            }
        }
        let live = &state.players.at(at).live;
        out.valid = !invalid && on_file(state, live);
        if !out.valid {
            out.problems.extend(missing_parts(state, at, &version));
        }
        out.if_not_fixed_in(|| if_not_fixed_of(state, live));
    }

    fn write(version: &Version) -> Writer {
        version.write()
    }
}

/// One problem per required part that neither this version nor an earlier one gave (a part this
/// version gets wrong has its own problem): a version that is not valid always says why
/// (ruling 13).
fn missing_parts(state: &State, at: usize, version: &Version) -> Vec<Problem> {
    let me = state.players.at(at);
    let mut out = Vec::new();
    if me.live.meadow.is_none() && version.meadow.is_none() {
        let others: Vec<God> = me.meadow.others().collect();
        out.push(Problem::general(format!(
            "meadow is missing: add a line like meadow = \"{}\" (any meadow but your {}: {})",
            others[0].name(),
            me.meadow.name(),
            God::join(&others)
        )));
    }
    if state.round == 0 && me.live.support.is_none() && version.support.is_none() {
        out.push(Problem::general(format!(
            "support is missing: add a line like support = [\"white\", \"blue\"] (your two scoring orbs, two different gods of {})",
            God::join(God::ALL)
        )));
    }
    let placed = version.ceremonies.iter().any(Option::is_some);
    if state.round > 0 && me.live.placement.is_none() && !placed {
        let hand: Vec<String> = me
            .hand
            .iter()
            .map(|g| format!("\"{}\"", g.name()))
            .collect();
        out.push(Problem::general(format!(
            "ceremony1, ceremony2 and ceremony3 are missing: place exactly your orbs over them, e.g. ceremony1 = [{}], ceremony2 = [], ceremony3 = []",
            hand.join(", ")
        )));
    }
    out
}

/// Whether the parts without which the rules would draw at random are on file.
pub fn required_on_file(state: &State, player: &PlayerId) -> bool {
    on_file(state, &state.players[player].live)
}

fn on_file(state: &State, live: &Live) -> bool {
    live.meadow.is_some()
        && if state.round == 0 {
            live.support.is_some()
        } else {
            live.placement.is_some()
        }
}

/// What the deadline does to the parts not on file.
pub fn if_not_fixed(state: &State, player: &PlayerId) -> String {
    if_not_fixed_of(state, &state.players[player].live)
}

fn if_not_fixed_of(state: &State, live: &Live) -> String {
    let mut random = Vec::new();
    if live.meadow.is_none() {
        random.push("your next meadow");
    }
    if state.round == 0 && live.support.is_none() {
        random.push("your two scoring orbs");
    }
    if state.round > 0 && live.placement.is_none() {
        random.push("your orb placement");
    }
    let candles = if state.round > 0 && live.candles.is_none() {
        "; you light, buy and give no candle"
    } else {
        ""
    };
    match random.len() {
        0 => format!("your valid parts on file stand{candles}"),
        _ => format!("{} will be chosen at random{candles}", random.join(" and ")),
    }
}

/// The next meadow: any but the current one.
fn check_meadow(given: &Given<God>, current: God) -> Result<God, Problem> {
    let m = given.value.clone()?;
    if m != current {
        return Ok(m);
    }
    let others: Vec<God> = current.others().collect();
    Err(given.problem(format!(
        "meadow: you are in the {} meadow now and must move: one of {}",
        current.title(),
        God::join(&others)
    )))
}

/// Two different gods, kept in canonical order.
fn check_support(given: &Given<Orbs>) -> Result<Vec<God>, Problem> {
    let gods = given.value.as_ref().map_err(Clone::clone)?;
    match gods.as_slice() {
        [a, b] if a != b => Ok(vec![*a.min(b), *a.max(b)]),
        [a, b] if a == b => Err(given.problem(format!(
            "support: {} twice; name two different gods",
            a.title()
        ))),
        _ => Err(given.problem(format!(
            "support must name exactly two different gods, not {}",
            gods.len()
        ))),
    }
}

/// The three ceremonies together hold exactly the hand; each kept sorted. (The lists are taken
/// out of the version; what is left there is only asked whether it was given.)
fn check_placement(
    ceremonies: &mut [Option<Given<Orbs>>; 3],
    hand: &[God],
) -> Option<Result<Placement, Vec<Problem>>> {
    if ceremonies.iter().all(Option::is_none) {
        return None;
    }
    let mut problems = Vec::new();
    let lists = ceremonies.each_mut().map(|c| taken(c, &mut problems));
    if problems.is_empty() {
        let mut placed = Counts::default();
        lists.iter().flatten().for_each(|g| placed.add(*g, 1));
        let held = counts(hand);
        if placed != held {
            let at = ceremonies.iter().flatten().next().and_then(|g| g.at);
            let missing: Vec<&str> = placed
                .iter()
                .filter(|(g, _)| !held.has(*g))
                .map(|(g, _)| g.title())
                .collect();
            let mut message = if missing.is_empty() {
                format!(
                    "ceremonies 1-3 together must use exactly your orbs: {}",
                    words(hand)
                )
            } else {
                format!(
                    "you have no {} orb; ceremonies 1-3 together must use exactly your orbs: {}",
                    missing.join(" or "),
                    words(hand)
                )
            };
            let all: Vec<God> = lists.iter().flatten().copied().collect();
            message.push_str(&format!(" (you placed: {})", words(&all)));
            problems.push(problem_at(at, message));
        }
    }
    if !problems.is_empty() {
        return Some(Err(problems));
    }
    let [mut ceremony1, mut ceremony2, mut ceremony3] = lists;
    ceremony1.sort();
    ceremony2.sort();
    ceremony3.sort();
    Some(Ok(Placement {
        ceremony1,
        ceremony2,
        ceremony3,
    }))
}

/// The list `given` holds, taken out of it (empty when not given); a list of the wrong shape
/// adds its problem and counts as empty.
fn taken(given: &mut Option<Given<Orbs>>, problems: &mut Vec<Problem>) -> Orbs {
    match given.as_mut().map(|g| &mut g.value) {
        Some(Ok(list)) => std::mem::take(list),
        Some(Err(p)) => {
            problems.push(Problem::clone(p));
            Orbs::new()
        }
        None => Orbs::new(),
    }
}

/// Buying what the garnets pay for, then lighting and giving candles held or bought, each
/// candle once.
fn check_candles(
    state: &State,
    player: Seat<'_>,
    version: &mut Version,
) -> Option<Result<CandlePlan, Vec<Problem>>> {
    if version.light.is_none() && version.buy.is_none() && version.give.is_none() {
        return None;
    }
    let me = state.players.at(player.at);
    let mut problems = Vec::new();
    let mut light_list = taken(&mut version.light, &mut problems);
    let mut buy_list = taken(&mut version.buy, &mut problems);
    let (light, give) = (&version.light, &version.give);
    let cost = CANDLE_PRICE * buy_list.len() as i64;
    if cost > me.garnets {
        let at = version.buy.as_ref().and_then(|g| g.at);
        problems.push(problem_at(
            at,
            format!(
                "buy: {} candle(s) cost {cost} garnets and you have {}; you can afford {}",
                buy_list.len(),
                me.garnets,
                me.garnets / CANDLE_PRICE
            ),
        ));
    }
    // Candles to light or give come from those held plus those bought.
    let mut available: Candles = me.candles.iter().chain(&buy_list).copied().collect();
    for god in &light_list {
        match available.iter().position(|c| c == god) {
            Some(i) => {
                available.remove(i);
            }
            None => problems.push(problem_at(
                light.as_ref().and_then(|g| g.at),
                format!(
                    "light: you hold no {} candle to light; your candles: {}",
                    god.title(),
                    words(&me.candles)
                ),
            )),
        }
    }
    let mut gifts = Vec::new();
    if let Some(given) = give {
        match &given.value {
            Err(p) => problems.push(Problem::clone(p)),
            Ok(items) => {
                for item in items {
                    match check_gift(state, player.id, item, &mut available, &light_list) {
                        Ok(g) => gifts.push(g),
                        Err(p) => problems.push(p),
                    }
                }
            }
        }
    }
    if !problems.is_empty() {
        return Some(Err(problems));
    }
    light_list.sort();
    buy_list.sort();
    Some(Ok(CandlePlan {
        light: light_list,
        buy: buy_list,
        give: gifts,
    }))
}

/// One gift: to another player of the game, a candle held (or bought) and not also lit.
fn check_gift(
    state: &State,
    player: &PlayerId,
    item: &Given<version::Gift>,
    available: &mut Candles,
    lit: &[God],
) -> Result<Gift, Problem> {
    let gift = item.value.as_ref().map_err(Clone::clone)?;
    let name = gift.to.value.as_ref().map_err(Clone::clone)?;
    let to = name
        .id()
        .filter(|id| state.players.contains_key(id))
        .ok_or_else(|| {
            gift.to.problem(format!(
                "give.to: \"{}\" is not a player of this game",
                name.text()
            ))
        })?;
    if &to == player {
        return Err(gift
            .to
            .problem("give.to: you cannot give a candle to yourself"));
    }
    let given = (gift.candle.as_ref()).ok_or_else(|| version::gift_needs_candle(item))?;
    let candle = given.value.clone()?;
    match available.iter().position(|c| *c == candle) {
        Some(i) => {
            available.remove(i);
            Ok(Gift { to, candle })
        }
        None if lit.contains(&candle) => Err(given.problem(format!(
            "give: your {} candle is also lit; a candle cannot be both lit and given",
            candle.title()
        ))),
        None => Err(given.problem(format!(
            "give: you hold no {} candle to give",
            candle.title()
        ))),
    }
}

fn candle_words(plan: &CandlePlan) -> String {
    let mut parts = Vec::new();
    if !plan.buy.is_empty() {
        parts.push(format!(
            "buy {} ({} garnets)",
            words(&plan.buy),
            CANDLE_PRICE * plan.buy.len() as i64
        ));
    }
    parts.push(format!(
        "light {}",
        if plan.light.is_empty() {
            "nothing".into()
        } else {
            words(&plan.light)
        }
    ));
    for g in &plan.give {
        parts.push(format!("give a {} candle to {}", g.candle.title(), g.to));
    }
    parts.join("; ")
}

#[cfg(test)]
mod keys_tests {
    use super::*;

    /// `KEYS` (how ingest finds a submission in a mail) is exactly the keys some round accepts.
    #[test]
    fn keys_are_the_union_of_every_rounds_keys() {
        let mut union: Vec<&str> = (version::ROUND0_KEYS.iter().chain(version::ROUND_KEYS))
            .copied()
            .collect();
        union.sort_unstable();
        union.dedup();
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        assert_eq!(keys, union);
    }
}
