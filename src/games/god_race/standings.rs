//! The end of a God Race (rulings 11 and 14): the gods' points by podium, each player's score,
//! who wins Tokens of Life and who is an Elimination Candidate.

use super::gods::God;
use super::state::State;
use crate::doc::Choice;

/// The end of a race (ruling 11), per player in id order.
pub struct Standings {
    pub god_points: [u32; 5],
    pub scores: Vec<u32>,
    /// Ruling 20: seats that left the game, ranked with nobody.
    pub left: Vec<bool>,
    /// The highest and lowest scores of those still in the game.
    pub top: u32,
    pub bottom: u32,
}

impl Standings {
    /// Ruling 14: when every player has the same score, nobody wins and nobody is an
    /// Elimination Candidate (a tie of everyone decides nothing).
    fn decided(&self) -> bool {
        self.top != self.bottom
    }
    pub fn winner(&self, i: usize) -> bool {
        self.decided() && !self.left[i] && self.scores[i] == self.top
    }
    pub fn elimination(&self, i: usize) -> bool {
        self.decided() && !self.left[i] && self.scores[i] == self.bottom
    }
    /// Tokens of Life won by player `i`: two for a sole winner, one each for joint winners.
    pub fn tokens(&self, i: usize) -> u32 {
        let winners = (0..self.scores.len()).filter(|i| self.winner(*i)).count();
        match winners {
            _ if !self.winner(i) => 0,
            1 => 2,
            _ => 1,
        }
    }
}

/// Ruling 11: 3/2/1/0/0 by podium; a player scores the sum for their two gods and earns as many
/// garnets; the highest score wins a Token (two for a sole winner); the lowest are Elimination
/// Candidates.
pub(super) fn finish(state: &mut State) -> Standings {
    let standings = final_standings(state);
    for (p, score) in state.players.values_mut().zip(&standings.scores) {
        if !p.left {
            p.garnets += i64::from(*score);
        }
    }
    standings
}

/// The standings of the podium as it stands (the final ones once the race is over).
pub fn standings(state: &State) -> Standings {
    Standings::scored(state, podium_points(state))
}

/// The standings a race ends with: ruling 11's, or ruling 14's when the round cap stopped it
/// before three gods finished.
pub fn final_standings(state: &State) -> Standings {
    if state.podium.len() >= 3 {
        return standings(state);
    }
    // Ruling 14: the gods that did not finish are placed after the podium by how far they got;
    // gods on the same space share a place (and its points), so no place is decided by a draw.
    let mut god_points = podium_points(state);
    let space = |g: &God| state.gods.get(g).copied().unwrap_or(0);
    let mut rest: Vec<God> = God::ALL
        .iter()
        .copied()
        .filter(|g| !state.podium.contains(g))
        .collect();
    rest.sort_by_key(|g| std::cmp::Reverse(space(g)));
    for (k, god) in rest.iter().enumerate() {
        // competition ranking: the place of the first god on this space
        let first = rest
            .iter()
            .position(|g| space(g) == space(god))
            .unwrap_or(k);
        god_points[*god as usize] = place_points(state.podium.len() + first);
    }
    Standings::scored(state, god_points)
}

/// Ruling 11: places score 3/2/1/0/0 (place 0 is first).
fn place_points(place: usize) -> u32 {
    3u32.saturating_sub(place as u32)
}

/// The points of the gods on the podium (the others 0).
fn podium_points(state: &State) -> [u32; 5] {
    let mut god_points = [0u32; 5];
    for (place, god) in state.podium.iter().enumerate() {
        god_points[*god as usize] = place_points(place);
    }
    god_points
}

impl Standings {
    /// Each player's score: the points of the two gods they support.
    fn scored(state: &State, god_points: [u32; 5]) -> Standings {
        let scores: Vec<u32> = state
            .players
            .values()
            .map(|p| p.support.iter().map(|g| god_points[*g as usize]).sum())
            .collect();
        let left: Vec<bool> = state.players.values().map(|p| p.left).collect();
        let staying = || {
            scores
                .iter()
                .zip(&left)
                .filter(|(_, l)| !**l)
                .map(|(s, _)| *s)
        };
        Standings {
            god_points,
            top: staying().max().unwrap_or(0),
            bottom: staying().min().unwrap_or(0),
            left,
            scores,
        }
    }
}
