//! One player's report of a God Race round, as the resolution notes it (`resolve::Record`) and
//! the templates and result.toml read it: what they placed, lit, bought, gave and received,
//! the parts chosen for them at random, and what they hold and send next.

use super::gods::God;
use super::state::{Gift, Orbs, Placement};
use crate::doc::Choice;
use serde::Serialize;

/// One player's report of the round. Its sorted lists of orbs and candles are held as counts
/// per god (`Sorted`, 5 bytes, not a 24-byte list) and the parts chosen at random as a byte
/// (`Defaulted`): a 100,000-player round builds 100,000 of these, in memory the resolution
/// touches for the first time (160 bytes each, where they were 336).
#[derive(Serialize)]
pub(super) struct Private {
    pub(super) support: Orbs,
    /// Parts chosen at random for this player this round, in words.
    pub(super) defaulted: Defaulted,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) placed: Option<SortedPlacement>,
    pub(super) lit: Sorted,
    pub(super) bought: Sorted,
    pub(super) gave: Vec<Gift>,
    pub(super) received: Orbs,
    pub(super) garnets: i64,
    pub(super) garnets_change: i64,
    /// The next round: meadow, hand, candles.
    pub(super) meadow: God,
    pub(super) hand: Sorted,
    pub(super) candles: Sorted,
    pub(super) next_meadows: Sorted,
    pub(super) max_buy: i64,
    pub(super) playing: bool,
    /// At the end: this player's score, Tokens, and standing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) score: Option<u32>,
    pub(super) tokens: u32,
    pub(super) winner: bool,
    pub(super) elimination: bool,
}

/// A list of gods as a count per god, serialized as the list in `God::ALL` order (which is their
/// order): the same list for every list the rules keep sorted (hands, candles, placements and
/// candle plans as received), and a hand-edited one is shown sorted.
#[derive(Clone, Copy, Default)]
pub(super) struct Sorted([u8; 5]);

impl Sorted {
    pub(super) fn of(gods: &[God]) -> Sorted {
        let mut counts = [0; 5];
        for god in gods {
            counts[*god as usize] += 1;
        }
        Sorted(counts)
    }

    /// Every god but `god`, once each (the meadows a player may move to).
    pub(super) fn all_but(god: God) -> Sorted {
        let mut others = Sorted([1; 5]);
        others.0[god as usize] = 0;
        others
    }
}

impl Serialize for Sorted {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let len = self.0.iter().map(|n| usize::from(*n)).sum();
        let mut seq = s.serialize_seq(Some(len))?;
        for (god, n) in God::ALL.iter().zip(self.0) {
            for _ in 0..n {
                seq.serialize_element(god)?;
            }
        }
        seq.end()
    }
}

/// A part of a submission the rules choose at random when no valid one was sent.
#[derive(Clone, Copy)]
pub enum Part {
    Meadow,
    Support,
    Placement,
}

impl Part {
    /// In the order a resolution chooses them (`advance`: the next meadow first).
    const ALL: [Part; 3] = [Part::Meadow, Part::Support, Part::Placement];

    /// The line of the report that says so.
    fn words(self) -> &'static str {
        match self {
            Part::Meadow => "your next meadow (no valid meadow was sent)",
            Part::Support => "your scoring orbs (none valid was sent)",
            Part::Placement => "your orb placement (no valid placement was sent)",
        }
    }
}

/// The parts chosen at random for one player in one round, one bit each (a report holds a byte,
/// not a list of strings), serialized as their lines in the order they were chosen.
#[derive(Clone, Copy, Default)]
pub(super) struct Defaulted(u8);

impl Defaulted {
    pub(super) fn insert(&mut self, part: Part) {
        self.0 |= 1 << part as u8;
    }

    pub(super) fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn parts(self) -> impl Iterator<Item = Part> {
        Part::ALL
            .into_iter()
            .filter(move |p| self.0 & (1 << *p as u8) != 0)
    }
}

impl Serialize for Defaulted {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.parts().map(Part::words))
    }
}

/// A `Placement` in a report (its three lists are sorted).
#[derive(Serialize)]
pub(super) struct SortedPlacement {
    ceremony1: Sorted,
    ceremony2: Sorted,
    ceremony3: Sorted,
}

impl SortedPlacement {
    pub(super) fn of(placement: &Placement) -> SortedPlacement {
        SortedPlacement {
            ceremony1: Sorted::of(&placement.ceremony1),
            ceremony2: Sorted::of(&placement.ceremony2),
            ceremony3: Sorted::of(&placement.ceremony3),
        }
    }
}

impl Private {
    pub(super) fn new(meadow: God) -> Private {
        Private {
            support: Orbs::new(),
            defaulted: Defaulted::default(),
            placed: None,
            lit: Sorted::default(),
            bought: Sorted::default(),
            gave: Vec::new(),
            received: Orbs::new(),
            garnets: 0,
            garnets_change: 0,
            meadow,
            hand: Sorted::default(),
            candles: Sorted::default(),
            next_meadows: Sorted::default(),
            max_buy: 0,
            playing: false,
            score: None,
            tokens: 0,
            winner: false,
            elimination: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sorted_list_is_written_in_god_order_however_it_was_held() {
        let held = [God::Green, God::White, God::Green, God::Black];
        let json = serde_json::to_string(&Sorted::of(&held)).unwrap();
        assert_eq!(json, r#"["white","black","green","green"]"#);
        let others = serde_json::to_string(&Sorted::all_but(God::Blue)).unwrap();
        assert_eq!(others, r#"["white","black","red","green"]"#);
    }

    #[test]
    fn defaulted_parts_are_written_in_the_order_a_round_chooses_them() {
        let mut parts = Defaulted::default();
        assert!(parts.is_empty());
        parts.insert(Part::Placement);
        parts.insert(Part::Meadow);
        parts.insert(Part::Placement);
        assert!(!parts.is_empty());
        let lines: Vec<String> =
            serde_json::from_str(&serde_json::to_string(&parts).unwrap()).unwrap();
        assert_eq!(
            lines,
            [Part::Meadow.words(), Part::Placement.words()],
            "the next meadow first, each part once"
        );
    }
}
