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

/// A multiset of colours, as counts (zero counts are not stored).
pub type Counts = BTreeMap<God, u32>;

pub fn counts(items: &[God]) -> Counts {
    let mut c = Counts::new();
    for g in items {
        *c.entry(*g).or_default() += 1;
    }
    c
}

pub fn total(c: &Counts) -> u32 {
    c.values().sum()
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
