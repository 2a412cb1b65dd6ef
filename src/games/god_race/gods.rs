//! The five gods (and meadow, orb and candle colours), in the canonical order of the spec, and
//! multisets of them.

use crate::doc::Choice;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum God {
    White,
    Blue,
    Black,
    Red,
    Green,
}

impl Choice for God {
    const ALL: &'static [God] = &[God::White, God::Blue, God::Black, God::Red, God::Green];
    fn name(self) -> &'static str {
        match self {
            God::White => "white",
            God::Blue => "blue",
            God::Black => "black",
            God::Red => "red",
            God::Green => "green",
        }
    }
}

impl God {
    pub fn title(self) -> &'static str {
        match self {
            God::White => "White",
            God::Blue => "Blue",
            God::Black => "Black",
            God::Red => "Red",
            God::Green => "Green",
        }
    }

    /// The four other gods, in canonical order (the meadows a player in this one may move to).
    pub fn others(self) -> impl Iterator<Item = God> {
        God::ALL.iter().copied().filter(move |g| *g != self)
    }

    /// One letter for the track picture: W U K R G.
    pub fn letter(self) -> char {
        match self {
            God::White => 'W',
            God::Blue => 'U',
            God::Black => 'K',
            God::Red => 'R',
            God::Green => 'G',
        }
    }
}

/// A multiset of colours: a count per god, in `God::ALL` order. Written as the table of its
/// non-zero counts (`{ white = 2, red = 1 }`), as the spec's state and results show it; held as
/// an array so that counting orbs allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts([u32; 5]);

impl Counts {
    pub fn get(&self, god: God) -> u32 {
        self.0[god as usize]
    }

    pub fn add(&mut self, god: God, n: u32) {
        let slot = &mut self.0[god as usize];
        *slot = slot.saturating_add(n);
    }

    /// Empties one colour, giving how many there were.
    pub fn take(&mut self, god: God) -> u32 {
        std::mem::take(&mut self.0[god as usize])
    }

    pub fn has(&self, god: God) -> bool {
        self.get(god) > 0
    }

    pub fn total(&self) -> u32 {
        self.0.iter().fold(0u32, |a, b| a.saturating_add(*b))
    }

    /// The colours present, with their counts, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (God, u32)> + '_ {
        God::ALL
            .iter()
            .map(|g| (*g, self.get(*g)))
            .filter(|(_, n)| *n > 0)
    }
}

impl FromIterator<(God, u32)> for Counts {
    fn from_iter<I: IntoIterator<Item = (God, u32)>>(iter: I) -> Counts {
        let mut c = Counts::default();
        for (g, n) in iter {
            c.add(g, n);
        }
        c
    }
}

impl Serialize for Counts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (g, n) in self.iter() {
            map.serialize_entry(&g, &n)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Counts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Counts, D::Error> {
        Ok(BTreeMap::<God, u32>::deserialize(d)?.into_iter().collect())
    }
}

/// A set of colours (the rituals of a round), as bits in `God::ALL` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GodSet(u8);

impl GodSet {
    pub fn insert(&mut self, god: God) {
        self.0 |= 1 << god as u8;
    }

    pub fn contains(&self, god: God) -> bool {
        self.0 & (1 << god as u8) != 0
    }

    pub fn iter(&self) -> impl Iterator<Item = God> + '_ {
        God::ALL.iter().copied().filter(|g| self.contains(*g))
    }
}

impl FromIterator<God> for GodSet {
    fn from_iter<I: IntoIterator<Item = God>>(iter: I) -> GodSet {
        let mut set = GodSet::default();
        for g in iter {
            set.insert(g);
        }
        set
    }
}

pub fn counts(items: &[God]) -> Counts {
    items.iter().map(|g| (*g, 1)).collect()
}

pub fn total(c: &Counts) -> u32 {
    c.total()
}

/// "White, Red, Red": a multiset in words, canonical order.
pub fn words(items: &[God]) -> String {
    let mut sorted = items.to_vec();
    sorted.sort();
    if sorted.is_empty() {
        return "none".into();
    }
    sorted
        .iter()
        .map(|g| g.title())
        .collect::<Vec<_>>()
        .join(", ")
}
