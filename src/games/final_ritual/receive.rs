//! Checking a Final Ritual submission against the round (spec final-ritual.md, "Submissions"):
//! the player's own turn (`dedicate`, `announce`) and their standing responses to the other
//! turns (`[respond]`). A file is read into a `Version` first (`version.rs`); a bot's version
//! comes here as is. Every entry is checked against the state as it is when the version
//! arrives; an entry with a problem is left out and the rest of the version stands. Whether an
//! entry is still possible when the turn comes is decided then (`turn.rs` skips it and says
//! why).

use super::FinalRitual;
use super::cards::{Oracle, Resource, Targets};
use super::state::{Announcement, Announcements, Dedicate, Dedication, Orders, State};
use super::version::{self, Entries, Entry, Respond, Version};
use crate::doc::{Choice, Doc, Writer};
use crate::games::Outcome;
use crate::games::version::{Given, Name, Seat, Versioned, problem_at};
use crate::player_id::PlayerId;
use crate::problem::Problem;

/// What happens when a version has problems.
pub const PARTLY: &str = "the entries with problems are left out and the rest of your latest version is used (a dedication with problems becomes a random card of your hand)";

/// The keys of a submission (`Game::KEYS`).
pub const KEYS: &[&str] = version::KEYS;

impl Versioned for FinalRitual {
    type Version = Version;

    fn seat_of(state: &State, player: &PlayerId) -> Result<usize, Problem> {
        let at = state.players.index_of(player);
        at.ok_or_else(|| Problem::general("you are not a priest of this game"))
    }

    fn refuse(state: &State, player: Seat<'_>) -> Option<Problem> {
        if state.finished {
            Some(Problem::general(
                "the game is over; no more submissions are read",
            ))
        } else if !state.players.at(player.at).alive {
            Some(Problem::general(
                "you were executed; there is nothing for you to send",
            ))
        } else {
            None
        }
    }

    fn read(_: &State, _: Seat<'_>, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        Version::read(doc, problems)
    }

    /// (The version's lists are read in place: a bot's are inline, and moving them from step
    /// to step cost more than reading them.)
    fn apply(state: &mut State, player: Seat<'_>, version: Version, out: &mut Outcome) {
        let mut plan = Orders {
            dedicate: dedicate(version.dedicate, out),
            announce: announce(state, player.at, version.announce.as_ref(), out),
            ..Orders::default()
        };
        if let Some(given) = &version.respond {
            match &given.value {
                Ok(table) => respond(table, state, player.id, &mut plan, out),
                Err(p) => out.problems.push(Problem::clone(p)),
            }
        }
        plan.valid = out.problems.is_empty();
        out.valid = plan.valid;
        if !out.valid {
            out.if_not_fixed_in(|| PARTLY.into());
        }
        understood(&plan, out);
        state.players.at_mut(player.at).plan = Some(plan);
    }

    fn write(version: &Version) -> Writer {
        version.write()
    }
}

fn dedicate(given: Option<Given<Dedication>>, out: &mut Outcome) -> Option<Dedication> {
    let Some(given) = given else {
        out.problems.push(Problem::general(
            "dedicate is missing: list the resources to dedicate, first held first, e.g. dedicate = [\"wine\", \"gems\", \"gold\"], or [\"refuse\"] (+1 Betray Mark)",
        ));
        return None;
    };
    given.value.map_err(|p| out.problems.push(*p)).ok()
}

/// `at`: the announcer's index in `state.players`.
fn announce(
    state: &State,
    at: usize,
    given: Option<&Given<Entries>>,
    out: &mut Outcome,
) -> Announcements {
    let held = &state.players.at(at).oracles;
    let mut kept = Announcements::new();
    if let Some(given) = given {
        match &given.value {
            Err(p) => out.problems.push(Problem::clone(p)),
            Ok(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i == 2 {
                        out.problems.push(item.problem(
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
    item: &Given<Entry>,
    held: &[Oracle],
    kept: &[Announcement],
) -> Result<Announcement, Problem> {
    let at = item.at;
    let entry = item.value.as_ref().map_err(|p| Problem::clone(p))?;
    let given = entry.oracle.as_ref().ok_or_else(|| {
        problem_at(
            at,
            format!(
                "announce: an entry needs oracle = \"…\"; you hold {}",
                Oracle::join(held)
            ),
        )
    })?;
    let oracle = match &given.value {
        Ok(Ok(oracle)) => *oracle,
        Ok(Err(text)) => {
            return Err(given.problem(format!(
                "oracle: \"{text}\" is not an oracle id; you hold {}",
                Oracle::join(held)
            )));
        }
        Err(p) => return Err(Problem::clone(p)),
    };
    let wanted = kept.iter().filter(|a| a.oracle == oracle).count() + 1;
    if held.iter().filter(|o| **o == oracle).count() < wanted {
        return Err(given.problem(format!(
            "oracle: you do not hold {}{}; you hold {}",
            if wanted > 1 { "another " } else { "" },
            oracle.name(),
            Oracle::join(held)
        )));
    }
    if let Some(p) = &entry.unknown {
        return Err(p.clone());
    }
    let keys = version::entry_keys(oracle);
    // (the living are listed only in a problem; a target is checked alone)
    let living = || PlayerId::join(&state.living());
    let target = |key: &str, name: &Option<Given<Name>>| -> Result<PlayerId, Problem> {
        let given = name.as_ref().ok_or_else(|| {
            let needs = keys[1..].iter().map(|k| format!("{k} = \"…\""));
            let needs = needs.collect::<Vec<_>>().join(", ");
            let message = format!("{}: needs {needs}; one of {}", oracle.name(), living());
            problem_at(at, message)
        })?;
        let name = given.value.as_ref().map_err(Clone::clone)?;
        name.id().filter(|id| state.is_alive(id)).ok_or_else(|| {
            given.problem(format!(
                "{key}: \"{}\" is not a living player; one of {}",
                name.text(),
                living()
            ))
        })
    };
    let mut a = Announcement::of(oracle);
    match oracle.effect().targets() {
        Targets::FromTo => {
            let (from, to) = (target("from", &entry.from)?, target("to", &entry.to)?);
            if from == to {
                return Err(problem_at(
                    at,
                    format!("{}: `to` may not be the giver ({from})", oracle.name()),
                ));
            }
            a.from = Some(from);
            a.to = Some(to);
        }
        Targets::To => a.to = Some(target("to", &entry.to)?),
        Targets::Player => a.player = Some(target("player", &entry.player)?),
        Targets::Nobody => {}
    }
    Ok(a)
}

fn respond(
    table: &Respond,
    state: &State,
    player: &PlayerId,
    plan: &mut Orders,
    out: &mut Outcome,
) {
    out.problems.extend(table.unknown.iter().cloned());
    if let Some(given) = &table.refuse {
        match &given.value {
            Err(p) => out.problems.push(Problem::clone(p)),
            Ok(items) => {
                for item in items {
                    let name = match &item.value {
                        Ok(name) => name,
                        Err(p) => {
                            out.problems.push(Problem::clone(p));
                            continue;
                        }
                    };
                    match name.id().filter(|id| id != player && state.is_alive(id)) {
                        Some(id) if !plan.refuse.contains(&id) => plan.refuse.push(id),
                        Some(_) => {}
                        None => out.problems.push(item.problem(format!(
                            "respond.refuse: \"{}\" is not another living player; one of {}",
                            name.text(),
                            PlayerId::join(&others(state, player))
                        ))),
                    }
                }
            }
        }
    }
    for (path, given, list) in [
        ("respond.give", &table.give, &mut plan.give),
        ("respond.take", &table.take, &mut plan.take),
    ] {
        let Some(given) = given else { continue };
        let items = match &given.value {
            Ok(items) => items,
            Err(p) => {
                out.problems.push(Problem::clone(p));
                continue;
            }
        };
        for item in items {
            match &item.value {
                Ok(r) if !list.contains(r) => list.push(*r),
                Ok(r) => out
                    .problems
                    .push(item.problem(format!("{path}: {} is listed twice", r.name()))),
                Err(p) => out.problems.push(Problem::clone(p)),
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
