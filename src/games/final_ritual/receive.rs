//! Receiving a Final Ritual submission (spec final-ritual.md, "Submissions"): the player's own
//! turn (`dedicate`, `announce`) and their standing responses to the other turns (`[respond]`).
//! Every entry is checked against the state as it is when the version arrives; an entry with a
//! problem is left out and the rest of the version stands. Whether an entry is still possible
//! when the turn comes is decided then (`turn.rs` skips it and says why).

use super::cards::{Oracle, Resource, Targets};
use super::state::{Announcement, Dedicate, Orders, State};
use crate::doc::{Choice, Doc, Node, Table};
use crate::games::{Detail, Outcome};
use crate::player_id::PlayerId;
use crate::problem::Problem;

/// What happens when a version has problems.
pub const PARTLY: &str = "the entries with problems are left out and the rest of your latest version is used (a dedication with problems becomes a random card of your hand)";

/// The keys of a submission (`Game::KEYS`).
pub const KEYS: &[&str] = &["dedicate", "announce", "respond", "token"];

pub fn receive(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
    let mut out = Outcome::new(detail);
    if state.finished {
        out.problems.push(Problem::general(
            "the game is over; no more submissions are read",
        ));
        return out;
    }
    if !state.is_alive(player) {
        out.problems.push(Problem::general(
            "you were executed; there is nothing for you to send",
        ));
        return out;
    }
    out.problems
        .extend(doc.root().unknown_keys(KEYS, "a Final Ritual submission"));
    let mut plan = Orders {
        dedicate: dedicate(doc.get("dedicate"), &mut out),
        announce: announce(state, player, doc.get("announce"), &mut out),
        ..Orders::default()
    };
    if let Some(node) = doc.get("respond") {
        match node.as_table("respond") {
            Ok(table) => respond(table, state, player, &mut plan, &mut out),
            Err(p) => out.problems.push(p),
        }
    }
    plan.valid = out.problems.is_empty();
    out.valid = plan.valid;
    if !out.valid {
        out.if_not_fixed = Some(PARTLY.into());
    }
    understood(&plan, &mut out);
    state.players.get_mut(player).expect("a living player").plan = Some(plan);
    out
}

fn strings<'a>(node: &'a Node, key: &str) -> Result<Vec<(&'a Node, &'a str)>, Problem> {
    match &node.value {
        crate::doc::Value::String(s) => Ok(vec![(node, s.as_str())]),
        _ => node
            .as_array(key)?
            .iter()
            .map(|item| item.as_str(key).map(|s| (item, s)))
            .collect(),
    }
}

fn dedicate(node: Option<&Node>, out: &mut Outcome) -> Option<Vec<Dedicate>> {
    let Some(node) = node else {
        out.problems.push(Problem::general(
            "dedicate is missing: list the resources to dedicate, first held first, e.g. dedicate = [\"wine\", \"gems\", \"gold\"], or [\"refuse\"] (+1 Betray Mark)",
        ));
        return None;
    };
    let items = match strings(node, "dedicate") {
        Ok(items) => items,
        Err(p) => {
            out.problems.push(p);
            return None;
        }
    };
    if items.is_empty() {
        out.problems.push(Problem::at(
            node.pos,
            "dedicate is empty: name wine, gems or gold (first held is dedicated), or \"refuse\"",
        ));
        return None;
    }
    let mut list = Vec::new();
    for (item, text) in items {
        match Dedicate::parse(text) {
            Some(d) => list.push(d),
            None => {
                out.problems.push(Problem::at(
                    item.pos,
                    format!("dedicate: \"{text}\" is not wine, gems, gold or \"refuse\""),
                ));
                return None;
            }
        }
    }
    Some(list)
}

fn announce(
    state: &State,
    player: &PlayerId,
    node: Option<&Node>,
    out: &mut Outcome,
) -> Vec<Announcement> {
    let held = &state.players[player].oracles;
    let mut kept: Vec<Announcement> = Vec::new();
    if let Some(node) = node {
        match node.as_array("announce") {
            Err(p) => out.problems.push(p),
            Ok(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i == 2 {
                        out.problems.push(Problem::at(
                            item.pos,
                            "announce: at most 2 oracles a turn; the entries after the second are left out",
                        ));
                        break;
                    }
                    match entry(state, item, held, &kept) {
                        Ok(a) => kept.push(a),
                        Err(p) => out.problems.push(p),
                    }
                }
            }
        }
    }
    if held.len() > 3 && kept.is_empty() {
        out.problems.push(Problem::general(format!(
            "you hold 4 oracles ({}): announce at least 1, or one is announced for you at random",
            Oracle::join(held)
        )));
    }
    kept
}

/// One `announce` entry: an oracle held (as many times as it is announced) with the targets
/// its kind needs, each a living player.
fn entry(
    state: &State,
    item: &Node,
    held: &[Oracle],
    kept: &[Announcement],
) -> Result<Announcement, Problem> {
    let table = item.as_table("announce entry")?;
    let oracle_node = table.get("oracle").ok_or_else(|| {
        Problem::at(
            item.pos,
            format!(
                "announce: an entry needs oracle = \"…\"; you hold {}",
                Oracle::join(held)
            ),
        )
    })?;
    let text = oracle_node.as_str("oracle")?;
    let oracle = Oracle::parse(text).ok_or_else(|| {
        Problem::at(
            oracle_node.pos,
            format!(
                "oracle: \"{text}\" is not an oracle id; you hold {}",
                Oracle::join(held)
            ),
        )
    })?;
    let wanted = kept.iter().filter(|a| a.oracle == oracle).count() + 1;
    if held.iter().filter(|o| **o == oracle).count() < wanted {
        return Err(Problem::at(
            oracle_node.pos,
            format!(
                "oracle: you do not hold {}{}; you hold {}",
                if wanted > 1 { "another " } else { "" },
                oracle.name(),
                Oracle::join(held)
            ),
        ));
    }
    let keys: &[&str] = match oracle.effect().targets() {
        Targets::FromTo => &["oracle", "from", "to"],
        Targets::To => &["oracle", "to"],
        Targets::Player => &["oracle", "player"],
        Targets::Nobody => &["oracle"],
    };
    if let Some(p) = table
        .unknown_keys(keys, format_args!("an entry for {}", oracle.name()))
        .into_iter()
        .next()
    {
        return Err(p);
    }
    // (the living are listed only in a problem; a target is checked alone)
    let living = || PlayerId::join(&state.living());
    let target = |key: &str| -> Result<PlayerId, Problem> {
        let node = table.get(key).ok_or_else(|| {
            let needs = keys[1..].iter().map(|k| format!("{k} = \"…\""));
            let needs = needs.collect::<Vec<_>>().join(", ");
            let message = format!("{}: needs {needs}; one of {}", oracle.name(), living());
            Problem::at(item.pos, message)
        })?;
        let text = node.as_str(key)?;
        PlayerId::named(text)
            .filter(|id| state.is_alive(id))
            .ok_or_else(|| {
                Problem::at(
                    node.pos,
                    format!(
                        "{key}: \"{text}\" is not a living player; one of {}",
                        living()
                    ),
                )
            })
    };
    let mut a = Announcement::of(oracle);
    match oracle.effect().targets() {
        Targets::FromTo => {
            let (from, to) = (target("from")?, target("to")?);
            if from == to {
                return Err(Problem::at(
                    item.pos,
                    format!("{}: `to` may not be the giver ({from})", oracle.name()),
                ));
            }
            a.from = Some(from);
            a.to = Some(to);
        }
        Targets::To => a.to = Some(target("to")?),
        Targets::Player => a.player = Some(target("player")?),
        Targets::Nobody => {}
    }
    Ok(a)
}

fn respond(table: &Table, state: &State, player: &PlayerId, plan: &mut Orders, out: &mut Outcome) {
    out.problems
        .extend(table.unknown_keys(&["refuse", "give", "take"], "[respond]"));
    if let Some(node) = table.get("refuse") {
        match strings(node, "respond.refuse") {
            Err(p) => out.problems.push(p),
            Ok(items) => {
                for (item, text) in items {
                    match PlayerId::named(text).filter(|id| id != player && state.is_alive(id)) {
                        Some(id) if !plan.refuse.contains(&id) => plan.refuse.push(id),
                        Some(_) => {}
                        None => out.problems.push(Problem::at(
                            item.pos,
                            format!(
                                "respond.refuse: \"{text}\" is not another living player; one of {}",
                                PlayerId::join(&others(state, player))
                            ),
                        )),
                    }
                }
            }
        }
    }
    for (key, path, list) in [
        ("give", "respond.give", &mut plan.give),
        ("take", "respond.take", &mut plan.take),
    ] {
        let Some(node) = table.get(key) else { continue };
        let items = match strings(node, path) {
            Ok(items) => items,
            Err(p) => {
                out.problems.push(p);
                continue;
            }
        };
        for (item, text) in items {
            match Resource::parse(text) {
                Some(r) if !list.contains(&r) => list.push(r),
                Some(r) => out.problems.push(Problem::at(
                    item.pos,
                    format!("{path}: {} is listed twice", r.name()),
                )),
                None => out.problems.push(Problem::at(
                    item.pos,
                    format!("{path}: \"{text}\" is not wine, gems or gold"),
                )),
            }
        }
    }
}

/// The living players other than `player`, in seat order: whom `[respond] refuse` may name.
fn others(state: &State, player: &PlayerId) -> Vec<PlayerId> {
    state.living().into_iter().filter(|p| p != player).collect()
}

/// The plan in words, for the acknowledgement.
fn understood(plan: &Orders, out: &mut Outcome) {
    let words = |list: &[Resource]| Resource::join(&super::cards::full_order(list));
    out.understand(|| match &plan.dedicate {
        Some(list) if list.first() == Some(&Dedicate::Refuse) => {
            "refuse to dedicate (+1 Betray Mark)".into()
        }
        Some(list) => format!("dedicate the first you hold of {}", Dedicate::join(list)),
        None => "dedicate a random card of your hand".into(),
    });
    if plan.announce.is_empty() {
        out.understand(|| "announce no oracle".into());
    }
    for (i, a) in plan.announce.iter().enumerate() {
        out.understand(|| format!("oracle {}: {}", i + 1, describe(a)));
    }
    out.understand(|| {
        if plan.refuse.is_empty() {
            "obey every order".into()
        } else {
            format!("refuse every order of {}", PlayerId::join(&plan.refuse))
        }
    });
    out.understand(|| format!("give or dedicate \"any\" as {}", words(&plan.give)));
    out.understand(|| format!("take \"any\" from the altar as {}", words(&plan.take)));
}

/// "give-2-wine: bob gives to carol".
pub fn describe(a: &Announcement) -> String {
    let who = |p: &Option<PlayerId>| p.as_ref().map_or("?", PlayerId::as_str).to_owned();
    match a.oracle.effect().targets() {
        Targets::FromTo => format!(
            "{}: {} gives to {}",
            a.oracle.name(),
            who(&a.from),
            who(&a.to)
        ),
        Targets::To => format!("{}: everyone gives to {}", a.oracle.name(), who(&a.to)),
        Targets::Player => format!("{}: {}", a.oracle.name(), who(&a.player)),
        Targets::Nobody => a.oracle.name().to_owned(),
    }
}
