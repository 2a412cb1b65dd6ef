//! God Race's state.toml (spec god-race.md, "State"): the track, the box, every player's meadow,
//! scoring orbs, candles, garnets and hand, and the live choices of the round being played.

use super::gods::{Counts, God};
use crate::games::Seats;
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// The goal's space (the start is 1).
    pub spaces: u32,
    /// 0: no cap; otherwise the game ends after this round.
    pub max_rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            spaces: 14,
            max_rounds: 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub finished: bool,
    pub rounds_played: u32,
    pub options: Options,
    /// Finishing order.
    pub podium: Vec<God>,
    /// Spaces of the gods still racing.
    pub gods: BTreeMap<God, u32>,
    /// Orbs left in the box after this round's draws.
    #[serde(rename = "box")]
    pub orb_box: Counts,
    /// Orbs discarded by recolouring (the remainders).
    pub discarded: u32,
    /// By index, in id order (`Seats`).
    pub players: Seats<PlayerState>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The meadow the player is in now.
    pub meadow: God,
    /// The two scoring orbs (empty until round 0 is resolved).
    #[serde(default)]
    pub support: Vec<God>,
    /// Candles held, a multiset in canonical order.
    #[serde(default)]
    pub candles: Vec<God>,
    pub garnets: i64,
    /// This round's orbs: those drawn from the box plus the meadow orb.
    #[serde(default)]
    pub hand: Vec<God>,
    /// The orb of `hand` that came from the meadow, not the box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meadow_orb: Option<God>,
    #[serde(default, skip_serializing_if = "Live::is_empty")]
    pub live: Live,
    /// Left the game (`adjudicate withdraw`, ruling 20): it draws, places, lights and moves
    /// nothing more, and is ranked with nobody at the end.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
}

/// The latest valid value of each part of this round's submission.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Live {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meadow: Option<God>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support: Option<Vec<God>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candles: Option<CandlePlan>,
}

impl Live {
    pub fn is_empty(&self) -> bool {
        *self == Live::default()
    }
}

/// A few orbs or candles, held inline: a hand has at most four orbs, so placing and lighting
/// them allocates nothing (the simulator plays millions of rounds). Written as a list.
pub type Orbs = smallvec::SmallVec<[God; 4]>;

/// The orbs of a hand over the three ceremonies.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Placement {
    pub ceremony1: Orbs,
    pub ceremony2: Orbs,
    pub ceremony3: Orbs,
}

impl Placement {
    pub fn ceremonies(&self) -> [&Orbs; 3] {
        [&self.ceremony1, &self.ceremony2, &self.ceremony3]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CandlePlan {
    pub light: Orbs,
    pub buy: Orbs,
    pub give: Vec<Gift>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gift {
    pub to: PlayerId,
    pub candle: God,
}

pub const CANDLE_PRICE: i64 = 4;

impl State {
    /// Ruling 20: a seat that leaves gives up what it would do this round (its hand goes back
    /// to the box unplayed when the round resolves), keeps its meadow, draws nothing more, and
    /// is ranked with nobody at the end. In round 0 its scoring orbs are drawn as for any
    /// missing submission, so the box holds what the rules put in it.
    pub fn withdraw(&mut self, id: &PlayerId) -> Result<(), String> {
        let me = crate::games::leaving(&mut self.players, id, self.finished, |p| p.left)?;
        me.left = true;
        let support = me.live.support.take();
        me.live = Live::default();
        if self.round == 0 {
            // round 0: the scoring orbs are the seat's whatever happens; what it chose stands
            me.live.support = support;
        }
        Ok(())
    }
}
