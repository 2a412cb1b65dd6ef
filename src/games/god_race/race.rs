//! The race itself, pure: ceremony winners and every move of a round's evaluation, with its cause
//! (spec god-race.md, rulings 3 to 9). No orbs, players or candles here: only spaces, rituals and
//! the orb counts of the three ceremonies.

use super::gods::{Counts, God, GodSet};
use serde::Serialize;
use smallvec::SmallVec;
use std::collections::BTreeMap;
use std::fmt;

/// The track during one evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Track {
    /// Spaces of the gods still racing (1 = start, `goal`).
    pub spaces: BTreeMap<God, u32>,
    pub podium: Vec<God>,
    pub goal: u32,
}

/// One move, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Move {
    pub god: God,
    pub from: u32,
    pub to: u32,
    /// Why, in words: "ceremony 2", "ceremony 2, +1 Green", "followed Green", "pushed back by Black".
    pub cause: Cause,
    /// What changed the move, if anything: "stopped by Blue", "skipped occupied spaces", "goal, 1st".
    #[serde(skip_serializing_if = "Notes::is_empty")]
    pub notes: Notes,
}

/// Why a god moved; written in words in the result (no string is built while the race runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    Ceremony(u32),
    /// Green won the ceremony with its ritual: one space more.
    GreenBonus(u32),
    Followed(God),
    PushedBack,
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Ceremony(c) => write!(f, "ceremony {c}"),
            Cause::GreenBonus(c) => write!(f, "ceremony {c}, +1 Green"),
            Cause::Followed(g) => write!(f, "followed {}", g.title()),
            Cause::PushedBack => f.write_str("pushed back by Black"),
        }
    }
}

/// What changed a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    SkippedOccupied,
    StoppedByBlue,
    /// Reached the goal, in this place (1 = first).
    Goal(usize),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::SkippedOccupied => f.write_str("skipped occupied spaces"),
            Note::StoppedByBlue => f.write_str("stopped by Blue"),
            Note::Goal(place) => write!(f, "goal, {}", self::place(*place)),
        }
    }
}

impl Serialize for Cause {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Serialize for Note {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A move's notes: at most all three (held inline, as the log's lists are).
pub type Notes = SmallVec<[Note; 3]>;

/// What one evaluation did. Its lists are held inline (three ceremonies, a few moves, three
/// finishers at most), so that a simulated round makes no allocation for its log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Log {
    /// Per ceremony processed: its winner, or `None`.
    pub winners: SmallVec<[Option<God>; 3]>,
    pub moves: SmallVec<[Move; 8]>,
    /// Gods that reached the goal in this evaluation, in podium order.
    pub finished: SmallVec<[God; 3]>,
}

/// Ruling 3: among racing gods, the god whose count is the largest count held by exactly one god
/// (a count of 0 counts; orbs of finished gods are ignored).
pub fn ceremony_winner(spaces: &BTreeMap<God, u32>, orbs: &Counts) -> Option<God> {
    // The racing gods' counts, read once (at most five).
    let mut racing = [(God::White, 0u32); 5];
    let mut n = 0;
    for god in spaces.keys() {
        racing[n] = (*god, orbs.get(*god));
        n += 1;
    }
    let racing = &racing[..n];
    racing
        .iter()
        .filter(|(_, count)| racing.iter().filter(|(_, c)| c == count).count() == 1)
        .max_by_key(|(_, count)| *count)
        .map(|(god, _)| *god)
}

const FINISHERS: usize = 3;

/// Ruling 4: the evaluation of a round.
pub fn evaluate(track: &mut Track, rituals: &GodSet, ceremonies: &[Counts; 3]) -> Log {
    let mut log = Log::default();
    black_check(track, rituals, &mut log);
    for (i, orbs) in ceremonies.iter().enumerate() {
        if track.podium.len() >= FINISHERS {
            break;
        }
        let c = i as u32 + 1;
        let winner = ceremony_winner(&track.spaces, orbs);
        log.winners.push(winner);
        let Some(winner) = winner else {
            black_check(track, rituals, &mut log);
            continue;
        };
        // Ruling 4/5: whether White follows is decided before the winner moves.
        let white_follows = rituals.contains(God::White)
            && winner != God::White
            && track
                .spaces
                .get(&God::White)
                .is_some_and(|w| Some(w) == track.spaces.get(&winner));
        let green_bonus = winner == God::Green && rituals.contains(God::Green);
        let (steps, cause) = if green_bonus {
            (c + 1, Cause::GreenBonus(c))
        } else {
            (c, Cause::Ceremony(c))
        };
        let red_skips = winner == God::Red && rituals.contains(God::Red);
        move_forward(track, rituals, winner, steps, red_skips, cause, &mut log);
        if track.podium.len() >= FINISHERS {
            break; // ruling 4: stop when the third god finishes
        }
        if white_follows && track.spaces.contains_key(&God::White) {
            let cause = Cause::Followed(winner);
            move_forward(track, rituals, God::White, c, false, cause, &mut log);
            if track.podium.len() >= FINISHERS {
                break;
            }
        }
        black_check(track, rituals, &mut log);
    }
    log
}

/// Rulings 5–7 and 9: one forward move, with Red's skipping, Blue's stop and the goal.
fn move_forward(
    track: &mut Track,
    rituals: &GodSet,
    god: God,
    steps: u32,
    red_skips: bool,
    cause: Cause,
    log: &mut Log,
) {
    let Some(&from) = track.spaces.get(&god) else {
        return;
    };
    let goal = track.goal;
    let mut notes = Notes::new();
    let mut to = if red_skips {
        // ruling 7: only spaces free of other racing gods count; the goal always counts
        let occupied = |space: u32| track.spaces.iter().any(|(g, s)| *g != god && *s == space);
        let (mut at, mut left) = (from, steps);
        while left > 0 && at < goal {
            at += 1;
            if at == goal || !occupied(at) {
                left -= 1;
            }
        }
        if at > from + steps {
            notes.push(Note::SkippedOccupied);
        }
        at
    } else {
        (from + steps).min(goal)
    };
    // ruling 6: Blue stops a god from behind that would pass it
    if god != God::Blue
        && rituals.contains(God::Blue)
        && let Some(&blue) = track.spaces.get(&God::Blue)
        && from < blue
        && to > blue
    {
        to = blue;
        notes.push(Note::StoppedByBlue);
    }
    if to == goal {
        track.spaces.remove(&god);
        track.podium.push(god);
        log.finished.push(god);
        notes.push(Note::Goal(track.podium.len()));
    } else {
        track.spaces.insert(god, to);
    }
    log.moves.push(Move {
        god,
        from,
        to,
        cause,
        notes,
    });
}

/// Ruling 8: with Black's ritual, every other racing god on Black's space moves back one, unless
/// Black is on the start. Push-backs do not chain and do not trigger White.
fn black_check(track: &mut Track, rituals: &GodSet, log: &mut Log) {
    if !rituals.contains(God::Black) {
        return;
    }
    let Some(&black) = track.spaces.get(&God::Black) else {
        return;
    };
    if black <= 1 {
        return;
    }
    for god in God::Black.others() {
        if track.spaces.get(&god) == Some(&black) {
            track.spaces.insert(god, black - 1);
            log.moves.push(Move {
                god,
                from: black,
                to: black - 1,
                cause: Cause::PushedBack,
                notes: Notes::new(),
            });
        }
    }
}

pub fn place(n: usize) -> &'static str {
    match n {
        1 => "1st",
        2 => "2nd",
        3 => "3rd",
        4 => "4th",
        _ => "5th",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Choice;

    #[test]
    fn a_count_of_zero_can_win_and_full_ties_have_no_winner() {
        let spaces: BTreeMap<God, u32> = God::ALL.iter().map(|g| (*g, 1)).collect();
        let orbs: Counts = [
            (God::White, 1),
            (God::Blue, 3),
            (God::Black, 3),
            (God::Red, 1),
        ]
        .into_iter()
        .collect();
        assert_eq!(ceremony_winner(&spaces, &orbs), Some(God::Green));
        let all_two: Counts = God::ALL.iter().map(|g| (*g, 2)).collect();
        assert_eq!(ceremony_winner(&spaces, &all_two), None);
        assert_eq!(ceremony_winner(&spaces, &Counts::default()), None);
    }
}
