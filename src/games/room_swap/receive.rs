//! Checking one version of a Room Swap submission against the round and applying it: the
//! rooms, and the instant actions (Peek, Block) processed at once, in receipt order (spec
//! room-swap.md, "Submissions" and "Instant actions"). A file is read into a `Version` first
//! (`version.rs`); a bot's version comes here as is. Rulings are numbered as in
//! `games/room-swap/README.md`.

use super::RoomSwap;
use super::rooms::{Room, RoomSet};
use super::state::{BlockUse, Item, Phase, State};
use super::version::{self, Version};
use crate::doc::{Choice, Doc, Writer};
use crate::games::version::{Given, Name, Seat, Versioned, problem_at};
use crate::games::{Notice, Outcome};
use crate::player_id::PlayerId;
use crate::problem::{Pos, Problem};

/// Every key of any round (`Game::KEYS`).
pub const KEYS: &[&str] = &["room", "fallback", "peek", "block", "give_token", "token"];

impl Versioned for RoomSwap {
    type Version = Version;

    fn seat_of(state: &State, player: &PlayerId) -> Result<usize, Problem> {
        let at = state.players.index_of(player);
        at.ok_or_else(|| Problem::general(not_playing_message(state)))
    }

    fn refuse(state: &State, player: Seat<'_>) -> Option<Problem> {
        (!state.plays_seat(player)).then(|| Problem::general(not_playing_message(state)))
    }

    fn read(state: &State, _: Seat<'_>, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        Version::read(state, doc, problems)
    }

    fn apply(state: &mut State, player: Seat<'_>, version: Version, out: &mut Outcome) {
        match state.phase {
            Phase::Token => apply_token_gift(state, player.id, version, out),
            _ => apply_round(state, player, version, out),
        }
    }

    fn write(version: &Version) -> Writer {
        version.write()
    }
}

fn not_playing_message(state: &State) -> String {
    match state.phase {
        Phase::Tiebreak => format!(
            "round {} is a tiebreak between {} only; you have nothing to send",
            state.round,
            PlayerId::join(&state.contenders)
        ),
        Phase::Token => "the game is over; only the sole winner sends give_token now".to_owned(),
        _ => "the game is over; no more submissions are read".to_owned(),
    }
}

fn apply_round(state: &mut State, seat: Seat<'_>, version: Version, out: &mut Outcome) {
    let (player, at) = (seat.id, seat.at);
    let allowed = State::allowed_rooms_of(state.players.at(at));
    let room = checked_room(version.room.as_ref(), "room", allowed, out);
    let fallback = checked_room(version.fallback.as_ref(), "fallback", allowed, out);
    if version.room.is_none() {
        out.problems.push(Problem::general(format!(
            "room is missing; add a line like room = \"{}\" (one of {})",
            allowed.first().map_or("attic", |r| r.name()),
            Room::join(&allowed)
        )));
    }
    let Some(room) = room else {
        // Ruling 3: items only count in a version with a valid room.
        let items = [
            ("peek", version.peek.as_ref().map(|g| g.at)),
            ("block", version.block.as_ref().map(|g| g.at)),
        ];
        for (key, at) in items {
            if let Some(at) = at {
                out.problems.push(problem_at(
                    at,
                    format!("{key} ignored: items are only accepted together with a valid room"),
                ));
            }
        }
        return;
    };
    out.valid = true;
    let live = &mut state.players.at_mut(at).live;
    live.room = Some(room);
    live.initial_room.get_or_insert(room);
    live.fallback = fallback;
    live.room_note = None;
    live.valid_versions += 1;
    out.understand(|| format!("room: {}", room.title()));
    if let Some(fb) = fallback {
        out.understand(|| format!("fallback: {}", fb.title()));
    }

    match (version.peek, version.block) {
        (Some(p), Some(b)) => {
            // Ruling 4: a version with both kinds has both rejected, free of charge.
            for at in [p.at, b.at] {
                out.problems.push(problem_at(
                    at,
                    "a Peek and a Block cannot be used in the same round; both were ignored, nothing paid",
                ));
            }
        }
        (Some(p), None) => peeks(state, player, p, out),
        (None, Some(b)) => block(state, player, b, out),
        (None, None) => {}
    }
}

/// An optional room as read; a value that is not a room or is forbidden is a problem.
fn checked_room(
    given: Option<&Given<Room>>,
    key: &str,
    allowed: RoomSet,
    out: &mut Outcome,
) -> Option<Room> {
    let given = given?;
    match &given.value {
        Ok(room) if allowed.has(*room) => Some(*room),
        Ok(room) => {
            out.problems.push(given.problem(format!(
                "{key} = \"{}\": the {} is forbidden to you this round by a Block; allowed: {}",
                room.name(),
                room.title(),
                Room::join(&allowed)
            )));
            None
        }
        Err(p) => {
            out.problems.push(Problem::clone(p));
            None
        }
    }
}

/// A target named in an item: a known player, not the sender, playing this round.
fn checked_target(
    state: &State,
    player: &PlayerId,
    given: Given<Name>,
    key: &str,
) -> Result<PlayerId, Problem> {
    let name = given.value.as_ref().map_err(Clone::clone)?;
    match name.id() {
        Some(id) if &id == player => Err(given.problem(format!("{key}: you cannot name yourself"))),
        Some(id) if state.is_playing(&id) => Ok(id),
        _ => Err(given.problem(format!(
            "{key}: \"{}\" is not a player you can name; one of {}",
            name.text(),
            PlayerId::join(
                &state
                    .playing()
                    .into_iter()
                    .filter(|p| p != player)
                    .collect::<Vec<_>>()
            )
        ))),
    }
}

fn peeks(state: &mut State, player: &PlayerId, given: Given<Vec<Given<Name>>>, out: &mut Outcome) {
    let items = match given.value {
        Ok(items) => items,
        Err(p) => {
            let example = example_target(state, player);
            out.problems.push(Problem {
                message: format!("{} (e.g. peek = [\"{example}\"])", p.message),
                ..*p
            });
            return;
        }
    };
    let cost = state.options.peek_cost;
    let mut seen = Vec::new();
    for item in items {
        let at = item.at;
        let target = match checked_target(state, player, item, "peek") {
            Ok(t) => t,
            Err(p) => {
                out.problems.push(p);
                continue;
            }
        };
        if seen.contains(&target) {
            out.problems.push(problem_at(
                at,
                format!("peek: {target} is named twice; once is enough"),
            ));
            continue;
        }
        seen.push(target.clone());
        let me = &state.players[player].live;
        if me.peeked.contains(&target) {
            // Ruling 5: an item is processed once; a later version repeating it does not repeat it.
            out.understand(|| {
                format!("peek on {target}: already answered this round, not repeated")
            });
            continue;
        }
        if me.item == Some(Item::Block) {
            out.problems.push(problem_at(
                at,
                "peek ignored: you used a Block this round, and Peek and Block cannot both be used in one round; nothing paid",
            ));
            continue;
        }
        let Some(answer) = state.players[&target].live.initial_room else {
            // Ruling 6: the target has not submitted: not used, nothing paid, not counted.
            out.answers.push(format!(
                // the spec's "not used", and no more: why would tell whether the target has sent anything
                "Peek on {target}: not used. Nothing was paid; you may peek again in a later version."
            ));
            continue;
        };
        let me = &mut state.players.get_mut(player).expect("sender exists");
        if me.garnets < cost {
            out.problems.push(problem_at(
                at,
                format!(
                    "peek on {target} needs {cost} garnets and you have {}; not used, nothing paid",
                    me.garnets
                ),
            ));
            continue;
        }
        me.garnets -= cost;
        me.live.spent += cost;
        me.live.item = Some(Item::Peek);
        me.live.peeked.push(target.clone());
        let text = format!(
            "Peek on {target}: {target}'s initial room this round is the {}.",
            answer.title()
        );
        me.live.notes.push(text.clone());
        out.understand(|| format!("peek on {target} ({cost} garnets)"));
        out.answers.push(text);
    }
}

fn block(state: &mut State, player: &PlayerId, given: Given<version::Block>, out: &mut Outcome) {
    let at = given.at;
    let table = match given.value {
        Ok(t) => t,
        Err(p) => {
            let message = format!(
                "{} (e.g. block = {{ player = \"{}\", room = \"attic\" }})",
                p.message,
                example_target(state, player)
            );
            return out.problems.push(Problem { message, ..*p });
        }
    };
    out.problems.extend(table.unknown);
    let target = match table.player {
        Some(n) => checked_target(state, player, n, "block.player"),
        None => Err(problem_at(
            at,
            "block needs a player: one of the other players",
        )),
    };
    let room = match table.room {
        Some(r) => r.value.map_err(|p| *p),
        None => Err(problem_at(
            at,
            "block needs a room: one of attic, basement, cellar",
        )),
    };
    let (target, room) = match (target, room) {
        (Ok(t), Ok(r)) => (t, r),
        (t, r) => {
            out.problems.extend(t.err().into_iter().chain(r.err()));
            return;
        }
    };
    use_block(state, player, at, target, room, out);
}

/// A Block read as valid: refused (nothing paid) or paid, and the target told at once.
fn use_block(
    state: &mut State,
    player: &PlayerId,
    at: Option<Pos>,
    target: PlayerId,
    room: Room,
    out: &mut Outcome,
) {
    let cost = state.options.block_cost;
    let me = &state.players[player];
    let this_block = BlockUse {
        player: target.clone(),
        room,
    };
    let refusal = if me.live.blocked.as_ref() == Some(&this_block) {
        out.understand(|| format!("block on {target}: already done this round, not repeated"));
        return;
    } else if me.block_used {
        "you have already used your Block (once per game)".to_owned()
    } else if me.live.item == Some(Item::Peek) {
        "you used a Peek this round, and Peek and Block cannot both be used in one round".to_owned()
    } else if state.players[&target].live.forbidden.with(room) == RoomSet::ALL {
        format!("{target} would have no room left")
    } else if me.garnets < cost {
        format!("a Block costs {cost} garnets and you have {}", me.garnets)
    } else {
        String::new()
    };
    if !refusal.is_empty() {
        out.problems.push(problem_at(
            at,
            format!("block ignored: {refusal}; nothing paid"),
        ));
        return;
    }
    let me = state.players.get_mut(player).expect("sender exists");
    me.garnets -= cost;
    me.block_used = true;
    me.live.spent += cost;
    me.live.item = Some(Item::Block);
    me.live.blocked = Some(this_block);
    let done = format!(
        "Your Block forbids {target} the {} this round ({cost} garnets).",
        room.title()
    );
    me.live.notes.push(done.clone());
    out.understand(|| format!("block {target} from the {} ({cost} garnets)", room.title()));
    out.answers.push(done);
    let text = forbid(state, &target, room);
    out.notices.push(Notice { to: target, text });
}

/// Ruling 7: a Block's target is told at once; their fallback takes over if it is allowed.
/// Returns what they are told.
fn forbid(state: &mut State, target: &PlayerId, room: Room) -> String {
    let t = &mut state.players.get_mut(target).expect("target exists").live;
    t.forbidden = t.forbidden.with(room);
    let allowed = RoomSet::ALL.without(t.forbidden);
    let mut text = format!(
        "A Block forbids you the {} this round. Allowed rooms: {}.",
        room.title(),
        Room::join(&allowed)
    );
    if t.room == Some(room) {
        match t.fallback.filter(|f| allowed.has(*f)) {
            Some(fb) => {
                t.room = Some(fb);
                t.room_note = Some(format!(
                    "your fallback, as a Block forbade the {}",
                    room.title()
                ));
                text.push_str(&format!(
                    " You had chosen it, so your fallback, the {}, is now your room.",
                    fb.title()
                ));
            }
            None => {
                t.room = None;
                t.room_note = Some(format!(
                    "a Block forbade the {} you had chosen",
                    room.title()
                ));
                text.push_str(
                    " You had chosen it: send a new version with an allowed room before the deadline, or a random allowed room will be used.",
                );
            }
        }
    }
    t.notes.push(text.clone());
    text
}

fn apply_token_gift(state: &mut State, player: &PlayerId, version: Version, out: &mut Outcome) {
    let eligible = token_candidates(state, player);
    let Some(given) = version.give_token else {
        out.problems.push(Problem::general(format!(
            "give_token is missing; name one of {} (or send nothing to give no token)",
            PlayerId::join(&eligible)
        )));
        return;
    };
    let chosen = given
        .value
        .as_ref()
        .map_err(|p| Problem::clone(p))
        .and_then(|name| {
            name.id().filter(|id| eligible.contains(id)).ok_or_else(|| {
                given.problem(format!(
                    "give_token: \"{}\" cannot receive a Token; one of {}",
                    name.text(),
                    PlayerId::join(&eligible)
                ))
            })
        });
    match chosen {
        Ok(id) => {
            out.valid = true;
            out.understand(|| format!("give a Token of Life to {id}"));
            state
                .players
                .get_mut(player)
                .expect("giver exists")
                .live
                .give_token = Some(id);
        }
        Err(p) => out.problems.push(p),
    }
}

/// Who the sole winner may give a Token to: not themselves, no Elimination Candidate, no holder.
pub fn token_candidates(state: &State, giver: &PlayerId) -> Vec<PlayerId> {
    state
        .unprotected()
        .into_iter()
        .filter(|p| p != giver)
        .collect()
}

/// Another player of this round, to show in examples.
fn example_target(state: &State, player: &PlayerId) -> String {
    state
        .playing()
        .into_iter()
        .find(|p| p != player)
        .map(|p| p.to_string())
        .unwrap_or_default()
}

pub fn default_text(state: &State, player: &PlayerId) -> String {
    let allowed = state.allowed_rooms(player);
    format!(
        "a random room among {} will be used for you",
        Room::join(&allowed)
    )
}

#[cfg(test)]
mod keys_tests {
    use super::*;

    /// `KEYS` (how ingest finds a submission in a mail) is exactly the keys some round accepts.
    #[test]
    fn keys_are_the_union_of_every_rounds_keys() {
        let mut union: Vec<&str> = version::ROUND_KEYS
            .iter()
            .chain(version::TOKEN_KEYS)
            .copied()
            .collect();
        union.sort_unstable();
        union.dedup();
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        assert_eq!(keys, union);
    }
}
