//! Receiving a God Race submission: each part (meadow; support or orb placement; candles) is
//! validated on its own (spec god-race.md, "Submissions"). A valid part replaces the part on file;
//! an invalid one is explained and leaves the part on file (or the default) in place.

use super::gods::{God, counts, words};
use super::state::{CANDLE_PRICE, CandlePlan, Gift, Placement, State};
use crate::doc::{Choice, Doc, Node};
use crate::games::{Detail, Outcome};
use crate::player_id::PlayerId;
use crate::problem::Problem;

const ROUND0_KEYS: &[&str] = &["meadow", "support", "token"];
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
const ROUND_KEYS: &[&str] = &[
    "meadow",
    "ceremony1",
    "ceremony2",
    "ceremony3",
    "light",
    "buy",
    "give",
    "token",
];
const CEREMONIES: [&str; 3] = ["ceremony1", "ceremony2", "ceremony3"];

pub fn receive(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
    let mut out = Outcome::new(detail);
    if state.finished {
        out.problems.push(Problem::general(
            "the race is over; no more submissions are read",
        ));
        return out;
    }
    let keys = if state.round == 0 {
        ROUND0_KEYS
    } else {
        ROUND_KEYS
    };
    out.problems
        .extend(doc.root().unknown_keys(keys, "a God Race submission"));
    let mut invalid = false;
    let me = state.players[player].clone();

    match read_meadow(doc, me.meadow) {
        Some(Ok(m)) => {
            out.understand(|| format!("move to the {} meadow", m.title()));
            live(state, player).meadow = Some(m);
        }
        Some(Err(p)) => {
            out.problems.push(p);
            invalid = true;
        }
        None => {}
    }
    if state.round == 0 {
        match doc.get("support").map(read_support) {
            Some(Ok(s)) => {
                out.understand(|| format!("support {} and {}", s[0].title(), s[1].title()));
                live(state, player).support = Some(s);
            }
            Some(Err(p)) => {
                out.problems.push(p);
                invalid = true;
            }
            None => {}
        }
    } else {
        match read_placement(doc, &me.hand) {
            Some(Ok(p)) => {
                out.understand(|| {
                    p.ceremonies()
                        .iter()
                        .enumerate()
                        .map(|(i, c)| format!("ceremony {}: {}", i + 1, words(c)))
                        .collect::<Vec<_>>()
                        .join("; ")
                });
                live(state, player).placement = Some(p);
            }
            Some(Err(p)) => {
                out.problems.extend(p);
                invalid = true;
            }
            None => {}
        }
        match read_candles(state, player, doc) {
            Some(Ok(plan)) => {
                out.understand(|| candle_words(&plan));
                live(state, player).candles = Some(plan);
            }
            Some(Err(p)) => {
                out.problems.extend(p);
                invalid = true;
            }
            None => {}
        }
    }
    out.valid = !invalid && required_on_file(state, player);
    if !out.valid {
        out.problems.extend(missing_parts(state, player, doc));
    }
    out.if_not_fixed = Some(if_not_fixed(state, player));
    out
}

/// One problem per required part that neither this version nor an earlier one gave (a part this
/// version gets wrong has its own problem): a version that is not valid always says why
/// (ruling 13).
fn missing_parts(state: &State, player: &PlayerId, doc: &Doc) -> Vec<Problem> {
    let me = &state.players[player];
    let mut out = Vec::new();
    if me.live.meadow.is_none() && doc.get("meadow").is_none() {
        let others: Vec<God> = God::ALL
            .iter()
            .copied()
            .filter(|g| *g != me.meadow)
            .collect();
        out.push(Problem::general(format!(
            "meadow is missing: add a line like meadow = \"{}\" (any meadow but your {}: {})",
            others[0].name(),
            me.meadow.name(),
            God::join(&others)
        )));
    }
    if state.round == 0 && me.live.support.is_none() && doc.get("support").is_none() {
        out.push(Problem::general(format!(
            "support is missing: add a line like support = [\"white\", \"blue\"] (your two scoring orbs, two different gods of {})",
            God::join(God::ALL)
        )));
    }
    let placed = CEREMONIES.iter().any(|c| doc.get(c).is_some());
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

fn live<'a>(state: &'a mut State, player: &PlayerId) -> &'a mut super::state::Live {
    &mut state
        .players
        .get_mut(player)
        .expect("players are checked by the tick")
        .live
}

/// Whether the parts without which the rules would draw at random are on file.
pub fn required_on_file(state: &State, player: &PlayerId) -> bool {
    let live = &state.players[player].live;
    live.meadow.is_some()
        && if state.round == 0 {
            live.support.is_some()
        } else {
            live.placement.is_some()
        }
}

/// What the deadline does to the parts not on file.
pub fn if_not_fixed(state: &State, player: &PlayerId) -> String {
    let live = &state.players[player].live;
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

fn read_meadow(doc: &Doc, current: God) -> Option<Result<God, Problem>> {
    let node = doc.get("meadow")?;
    Some(node.as_choice::<God>("meadow").and_then(|m| {
        if m == current {
            let others: Vec<God> = God::ALL.iter().copied().filter(|g| *g != current).collect();
            Err(Problem::at(
                node.pos,
                format!(
                    "meadow: you are in the {} meadow now and must move: one of {}",
                    current.title(),
                    God::join(&others)
                ),
            ))
        } else {
            Ok(m)
        }
    }))
}

/// A list of colour names.
fn read_gods(node: &Node, key: &str) -> Result<Vec<God>, Problem> {
    node.as_array(key)?
        .iter()
        .map(|item| item.as_choice::<God>(key))
        .collect()
}

fn read_support(node: &Node) -> Result<Vec<God>, Problem> {
    let gods = read_gods(node, "support")?;
    match gods.as_slice() {
        [a, b] if a != b => Ok(vec![*a.min(b), *a.max(b)]),
        [a, b] if a == b => Err(Problem::at(
            node.pos,
            format!("support: {} twice; name two different gods", a.title()),
        )),
        _ => Err(Problem::at(
            node.pos,
            format!(
                "support must name exactly two different gods, not {}",
                gods.len()
            ),
        )),
    }
}

fn read_placement(doc: &Doc, hand: &[God]) -> Option<Result<Placement, Vec<Problem>>> {
    let nodes: Vec<Option<&Node>> = CEREMONIES.iter().map(|k| doc.get(k)).collect();
    if nodes.iter().all(Option::is_none) {
        return None;
    }
    let mut problems = Vec::new();
    let mut lists = Vec::new();
    for (key, node) in CEREMONIES.iter().zip(&nodes) {
        match node.map(|n| read_gods(n, key)) {
            Some(Ok(list)) => lists.push(list),
            Some(Err(p)) => {
                problems.push(p);
                lists.push(Vec::new());
            }
            None => lists.push(Vec::new()),
        }
    }
    if problems.is_empty() {
        let placed = counts(&lists.concat());
        let held = counts(hand);
        if placed != held {
            let at = nodes.iter().flatten().next().map(|n| n.pos);
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
            message.push_str(&format!(" (you placed: {})", words(&lists.concat())));
            problems.push(match at {
                Some(pos) => Problem::at(pos, message),
                None => Problem::general(message),
            });
        }
    }
    if !problems.is_empty() {
        return Some(Err(problems));
    }
    let mut lists = lists.into_iter();
    let mut next = || {
        let mut l = lists.next().unwrap_or_default();
        l.sort();
        l
    };
    Some(Ok(Placement {
        ceremony1: next().into(),
        ceremony2: next().into(),
        ceremony3: next().into(),
    }))
}

fn read_candles(
    state: &State,
    player: &PlayerId,
    doc: &Doc,
) -> Option<Result<CandlePlan, Vec<Problem>>> {
    let (light, buy, give) = (doc.get("light"), doc.get("buy"), doc.get("give"));
    if light.is_none() && buy.is_none() && give.is_none() {
        return None;
    }
    let me = &state.players[player];
    let mut problems = Vec::new();
    let mut read = |node: Option<&Node>, key: &str| match node.map(|n| read_gods(n, key)) {
        Some(Ok(list)) => list,
        Some(Err(p)) => {
            problems.push(p);
            Vec::new()
        }
        None => Vec::new(),
    };
    let light_list = read(light, "light");
    let buy_list = read(buy, "buy");
    let cost = CANDLE_PRICE * buy_list.len() as i64;
    if cost > me.garnets {
        problems.push(Problem::at(
            buy.expect("buy is non-empty").pos,
            format!(
                "buy: {} candle(s) cost {cost} garnets and you have {}; you can afford {}",
                buy_list.len(),
                me.garnets,
                me.garnets / CANDLE_PRICE
            ),
        ));
    }
    // Candles to light or give come from those held plus those bought.
    let mut available = me.candles.clone();
    available.extend(&buy_list);
    for god in &light_list {
        match available.iter().position(|c| c == god) {
            Some(i) => {
                available.remove(i);
            }
            None => problems.push(Problem::at(
                light.expect("light is non-empty").pos,
                format!(
                    "light: you hold no {} candle to light; your candles: {}",
                    god.title(),
                    words(&me.candles)
                ),
            )),
        }
    }
    let mut gifts = Vec::new();
    if let Some(node) = give {
        match node.as_array("give") {
            Err(p) => problems.push(p),
            Ok(items) => {
                for item in items {
                    match read_gift(state, player, item, &mut available, &light_list) {
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
    let mut plan = CandlePlan {
        light: light_list.into(),
        buy: buy_list.into(),
        give: gifts,
    };
    plan.light.sort();
    plan.buy.sort();
    Some(Ok(plan))
}

fn read_gift(
    state: &State,
    player: &PlayerId,
    item: &Node,
    available: &mut Vec<God>,
    lit: &[God],
) -> Result<Gift, Problem> {
    let example = "give = [{ to = \"bob\", candle = \"white\" }]";
    let table = item.as_table("give").map_err(|p| Problem {
        message: format!("{} ({example})", p.message),
        ..p
    })?;
    if let Some(p) = table
        .unknown_keys(&["to", "candle"], "a gift")
        .into_iter()
        .next()
    {
        return Err(p);
    }
    let to_node = table
        .get("to")
        .ok_or_else(|| Problem::at(item.pos, format!("give: a gift needs `to` ({example})")))?;
    let to_text = to_node.as_str("give.to")?;
    let to = PlayerId::named(to_text)
        .filter(|id| state.players.contains_key(id))
        .ok_or_else(|| {
            Problem::at(
                to_node.pos,
                format!("give.to: \"{to_text}\" is not a player of this game"),
            )
        })?;
    if &to == player {
        return Err(Problem::at(
            to_node.pos,
            "give.to: you cannot give a candle to yourself",
        ));
    }
    let candle_node = table
        .get("candle")
        .ok_or_else(|| Problem::at(item.pos, format!("give: a gift needs `candle` ({example})")))?;
    let candle = candle_node.as_choice::<God>("give.candle")?;
    match available.iter().position(|c| *c == candle) {
        Some(i) => {
            available.remove(i);
            Ok(Gift { to, candle })
        }
        None if lit.contains(&candle) => Err(Problem::at(
            candle_node.pos,
            format!(
                "give: your {} candle is also lit; a candle cannot be both lit and given",
                candle.title()
            ),
        )),
        None => Err(Problem::at(
            candle_node.pos,
            format!("give: you hold no {} candle to give", candle.title()),
        )),
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
        let mut union: Vec<&str> = ROUND0_KEYS.iter().chain(ROUND_KEYS).copied().collect();
        union.sort_unstable();
        union.dedup();
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        assert_eq!(keys, union);
    }
}
