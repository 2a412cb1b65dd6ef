//! Planar Control's state.toml (spec planar-control.md, "State"): every player's alignment,
//! plane and garnets, and the live choices of the round being played.

use crate::doc::Choice;
use crate::games::Seats;
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Alignment {
    Ember,
    Nature,
    Torrent,
}

impl Choice for Alignment {
    const ALL: &'static [Alignment] = &[Alignment::Ember, Alignment::Nature, Alignment::Torrent];
    fn name(self) -> &'static str {
        match self {
            Alignment::Ember => "ember",
            Alignment::Nature => "nature",
            Alignment::Torrent => "torrent",
        }
    }
}

impl Alignment {
    /// The alignment this one beats: ember > nature > torrent > ember.
    pub fn beats(self) -> Alignment {
        match self {
            Alignment::Ember => Alignment::Nature,
            Alignment::Nature => Alignment::Torrent,
            Alignment::Torrent => Alignment::Ember,
        }
    }

    /// Of two different alignments, the stronger one.
    pub fn stronger(a: Alignment, b: Alignment) -> Alignment {
        if a.beats() == b { a } else { b }
    }

    pub fn title(self) -> &'static str {
        match self {
            Alignment::Ember => "Ember",
            Alignment::Nature => "Nature",
            Alignment::Torrent => "Torrent",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Plane {
    Earth,
    Limbo,
    Thera,
    Mobil,
}

impl Choice for Plane {
    const ALL: &'static [Plane] = &[Plane::Earth, Plane::Limbo, Plane::Thera, Plane::Mobil];
    fn name(self) -> &'static str {
        match self {
            Plane::Earth => "earth",
            Plane::Limbo => "limbo",
            Plane::Thera => "thera",
            Plane::Mobil => "mobil",
        }
    }
}

impl Plane {
    /// Large planes vote; small ones divine.
    pub fn is_large(self) -> bool {
        matches!(self, Plane::Earth | Plane::Thera)
    }

    /// Where a player banished from this large plane goes (spec: Earth -> Limbo, Thera -> Mobil).
    pub fn banished_to(self) -> Plane {
        match self {
            Plane::Earth => Plane::Limbo,
            _ => Plane::Mobil,
        }
    }

    /// Where a player on this small plane moves at the end of the round (Limbo -> Thera,
    /// Mobil -> Earth).
    pub fn drifts_to(self) -> Plane {
        match self {
            Plane::Limbo => Plane::Thera,
            _ => Plane::Earth,
        }
    }
}

/// A value for each large plane, at most one each: what an announcement says of control and
/// of banishment. Held inline (the simulator's bots hear one every round) and written as the
/// table of the planes that have one, Earth first, as the map it replaces was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LargePlanes<T> {
    earth: Option<T>,
    thera: Option<T>,
}

impl<T> Default for LargePlanes<T> {
    fn default() -> Self {
        LargePlanes {
            earth: None,
            thera: None,
        }
    }
}

impl<T> LargePlanes<T> {
    fn slot(&mut self, plane: Plane) -> Option<&mut Option<T>> {
        match plane {
            Plane::Earth => Some(&mut self.earth),
            Plane::Thera => Some(&mut self.thera),
            Plane::Limbo | Plane::Mobil => None,
        }
    }

    pub fn get(&self, plane: &Plane) -> Option<&T> {
        match plane {
            Plane::Earth => self.earth.as_ref(),
            Plane::Thera => self.thera.as_ref(),
            Plane::Limbo | Plane::Mobil => None,
        }
    }

    /// Sets `plane`'s value; a small plane has none (nothing is kept for it).
    pub fn insert(&mut self, plane: Plane, value: T) {
        debug_assert!(plane.is_large(), "{plane:?} is not a large plane");
        if let Some(slot) = self.slot(plane) {
            *slot = Some(value);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.earth.is_none() && self.thera.is_none()
    }

    /// The planes that have a value, Earth first.
    pub fn iter(&self) -> impl Iterator<Item = (Plane, &T)> {
        let earth = self.earth.as_ref().map(|v| (Plane::Earth, v));
        earth
            .into_iter()
            .chain(self.thera.as_ref().map(|v| (Plane::Thera, v)))
    }
}

impl<T> FromIterator<(Plane, T)> for LargePlanes<T> {
    fn from_iter<I: IntoIterator<Item = (Plane, T)>>(items: I) -> Self {
        let mut planes = LargePlanes::default();
        for (plane, value) in items {
            planes.insert(plane, value);
        }
        planes
    }
}

impl<T: Serialize> Serialize for LargePlanes<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    pub rounds: u32,
    pub reveal_initial_control: bool,
    pub planes: BTreeMap<Plane, usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: 6,
            reveal_initial_control: true,
            planes: [
                (Plane::Earth, 8),
                (Plane::Limbo, 1),
                (Plane::Thera, 5),
                (Plane::Mobil, 1),
            ]
            .into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Main,
    Elimination,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub phase: Phase,
    pub rounds_played: u32,
    pub options: Options,
    pub players: Seats<PlayerState>,
    /// The winning alignment, once the six rounds are over (none if neither plane is controlled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Alignment>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub alignment: Alignment,
    pub plane: Plane,
    pub garnets: i64,
    #[serde(default)]
    pub token: bool,
    #[serde(default, skip_serializing_if = "Live::is_empty")]
    pub live: Live,
    /// Left the game (`adjudicate withdraw`, ruling 7): on no plane from then on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
}

/// The latest valid choice of the round being played.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Live {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vote: Option<PlayerId>,
    #[serde(skip_serializing_if = "is_zero")]
    pub spend: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divine: Option<[PlayerId; 2]>,
    /// Elimination vote: losing alignment -> player.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub eliminate: BTreeMap<Alignment, PlayerId>,
    /// A version was received (an explicit abstention counts).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub submitted: bool,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl Live {
    pub fn is_empty(&self) -> bool {
        *self == Live::default()
    }
}

impl State {
    pub fn on(&self, plane: Plane) -> Vec<PlayerId> {
        self.players
            .iter()
            .filter(|(_, p)| p.plane == plane && !p.left)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Ruling 7: a seat that leaves leaves the planes: from the round it leaves it is on
    /// none, so it is not counted for control, cannot be banished, and votes cast for it are
    /// void; its own votes and divinations of that round do not count; at the end it wins
    /// nothing, votes for nobody and cannot be an Elimination Candidate.
    pub fn withdraw(&mut self, id: &PlayerId) -> Result<(), String> {
        let over = self.phase == Phase::Over;
        let me = crate::games::leaving(&mut self.players, id, over, |p| p.left)?;
        me.left = true;
        me.live = Live::default();
        Ok(())
    }

    /// The players still in the game.
    pub fn staying(&self) -> impl Iterator<Item = (&PlayerId, &PlayerState)> {
        self.players.iter().filter(|(_, p)| !p.left)
    }

    /// Whether a player of this state sends a submission now: everyone still in the game in
    /// the main rounds; the winning alignment's players in the elimination round.
    pub fn plays(&self, p: &PlayerState) -> bool {
        !p.left
            && match self.phase {
                Phase::Main => true,
                Phase::Elimination => self.winner == Some(p.alignment),
                Phase::Over => false,
            }
    }

    /// The winners of the main game (elimination phase).
    pub fn winners(&self) -> Vec<PlayerId> {
        match self.winner {
            Some(w) => self
                .players
                .iter()
                .filter(|(_, p)| p.alignment == w && !p.left)
                .map(|(id, _)| id.clone())
                .collect(),
            None => Vec::new(),
        }
    }

    pub fn losing_alignments(&self) -> Vec<Alignment> {
        Alignment::ALL
            .iter()
            .copied()
            .filter(|a| Some(*a) != self.winner)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// What an announcement says of the large planes is written as the map that held it was:
    /// the planes that have a value, Earth first, whatever order they were set in.
    #[test]
    fn large_planes_are_written_as_the_map_was() {
        let set = [
            (Plane::Thera, Alignment::Nature),
            (Plane::Earth, Alignment::Ember),
        ];
        let planes: LargePlanes<Alignment> = set.into_iter().collect();
        let map: BTreeMap<Plane, Alignment> = set.into_iter().collect();
        assert_eq!(
            toml::to_string(&planes).unwrap(),
            toml::to_string(&map).unwrap()
        );
        assert_eq!(planes.get(&Plane::Thera), Some(&Alignment::Nature));
        assert_eq!(planes.get(&Plane::Limbo), None);
        let thera: LargePlanes<Alignment> = [set[0]].into_iter().collect();
        assert_eq!(toml::to_string(&thera).unwrap(), "thera = \"nature\"\n");
        assert!(LargePlanes::<Alignment>::default().is_empty() && !thera.is_empty());
    }
}
