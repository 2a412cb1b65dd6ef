//! One version of a God Race submission in the rules' own types (`Versioned`): what a file's
//! keys hold, or a bot's choice handed over as is. Reading checks only shapes (a meadow is a
//! god, a ceremony a list of gods, a gift a table with `to` and `candle`); every check against
//! the round (the meadow left, the orbs held, the candles and garnets) is `receive::apply`'s.

use super::gods::God;
use super::state::{Orbs, State};
use crate::doc::{Choice, Doc, Item, Node, Writer};
use crate::games::version::{Given, Name};
use crate::problem::Problem;

/// The keys of round 0's submission (`token`, the player's secret, is read before the rules see
/// a file), and of every later round's.
pub const ROUND0_KEYS: &[&str] = &["meadow", "support", "token"];
pub const ROUND_KEYS: &[&str] = &[
    "meadow",
    "ceremony1",
    "ceremony2",
    "ceremony3",
    "light",
    "buy",
    "give",
    "token",
];
pub const CEREMONIES: [&str; 3] = ["ceremony1", "ceremony2", "ceremony3"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Version {
    pub meadow: Option<Given<God>>,
    /// Round 0 only: the two scoring orbs, as listed.
    pub support: Option<Given<Orbs>>,
    /// Rounds 1+: `ceremony1` to `ceremony3`, as listed.
    pub ceremonies: [Option<Given<Orbs>>; 3],
    pub light: Option<Given<Orbs>>,
    pub buy: Option<Given<Orbs>>,
    pub give: Option<Given<Vec<Given<Gift>>>>,
}

/// One `give` entry, `{ to = "…", candle = "…" }`, as read: a table with `to` (the entry's
/// `Given` holds what is wrong with its shape, a key it does not have, or a missing `to`).
#[derive(Debug, Clone, PartialEq)]
pub struct Gift {
    pub to: Given<Name>,
    pub candle: Option<Given<God>>,
}

const GIFT_EXAMPLE: &str = "give = [{ to = \"bob\", candle = \"white\" }]";

impl Version {
    /// Round 0's choice: the next meadow and the two scoring orbs.
    pub fn round0(meadow: God, support: [God; 2]) -> Version {
        Version {
            meadow: Some(Given::typed(meadow)),
            support: Some(Given::typed(Orbs::from_slice(&support))),
            ..Version::default()
        }
    }

    /// A race round's choice: the next meadow, the hand over the three ceremonies, and the
    /// candles to light and buy (no candle keys when both are empty).
    pub fn round(meadow: God, ceremonies: [Orbs; 3], light: Orbs, buy: Orbs) -> Version {
        let candles = !light.is_empty() || !buy.is_empty();
        Version {
            meadow: Some(Given::typed(meadow)),
            ceremonies: ceremonies.map(|c| Some(Given::typed(c))),
            light: candles.then(|| Given::typed(light)),
            buy: (!buy.is_empty()).then(|| Given::typed(buy)),
            ..Version::default()
        }
    }

    /// The keys of `doc` the round has (the others are problems, pushed first).
    pub fn read(state: &State, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        let root = doc.root();
        let gods = |key: &'static str| root.get(key).map(|n| Given::read(n, |n| orbs(n, key)));
        let meadow = root
            .get("meadow")
            .map(|n| Given::read(n, |n| n.as_choice::<God>("meadow")));
        if state.round == 0 {
            problems.extend(root.unknown_keys(ROUND0_KEYS, "a God Race submission"));
            return Version {
                meadow,
                support: gods("support"),
                ..Version::default()
            };
        }
        problems.extend(root.unknown_keys(ROUND_KEYS, "a God Race submission"));
        Version {
            meadow,
            support: None,
            ceremonies: CEREMONIES.map(gods),
            light: gods("light"),
            buy: gods("buy"),
            give: root.get("give").map(|n| {
                Given::read(n, |n| {
                    let items = n.as_array("give")?;
                    Ok(items.iter().map(|item| Given::read(item, gift)).collect())
                })
            }),
        }
    }

    /// The file a player would send for this version (its well-read values, in the order of
    /// the rules' README: meadow, support, ceremonies, light, buy, give).
    pub fn write(&self) -> Writer {
        let mut w = Writer::new();
        let names = |gods: &Orbs| -> Vec<&'static str> { gods.iter().map(|g| g.name()).collect() };
        if let Some(meadow) = self.meadow.as_ref().and_then(Given::ok) {
            w.str("meadow", meadow.name());
        }
        let lists = [("support", &self.support)]
            .into_iter()
            .chain(CEREMONIES.into_iter().zip(&self.ceremonies))
            .chain([("light", &self.light), ("buy", &self.buy)]);
        for (key, list) in lists {
            if let Some(list) = list.as_ref().and_then(Given::ok) {
                w.strs(key, &names(list));
            }
        }
        if let Some(gifts) = self.give.as_ref().and_then(Given::ok) {
            let items = gifts.iter().filter_map(Given::ok).map(|g| {
                let to = g.to.ok().map(|to| ("to", to.text()));
                let candle = g.candle.as_ref().and_then(Given::ok);
                Item::Inline(
                    to.into_iter()
                        .chain(candle.map(|c| ("candle", c.name())))
                        .collect(),
                )
            });
            w.item("give", &Item::List(items.collect()));
        }
        w
    }
}

/// A list of gods' names.
fn orbs(node: &Node, key: &str) -> Result<Orbs, Problem> {
    node.as_array(key)?
        .iter()
        .map(|item| item.as_choice::<God>(key))
        .collect()
}

/// A `give` entry's shape: a table of `to` and `candle` with `to` present.
fn gift(item: &Node) -> Result<Gift, Problem> {
    let table = item.as_table("give").map_err(|p| Problem {
        message: format!("{} ({GIFT_EXAMPLE})", p.message),
        ..p
    })?;
    if let Some(p) = (table.unknown_keys(&["to", "candle"], "a gift").into_iter()).next() {
        return Err(p);
    }
    let to = table.get("to").ok_or_else(|| {
        Problem::at(
            item.pos,
            format!("give: a gift needs `to` ({GIFT_EXAMPLE})"),
        )
    })?;
    Ok(Gift {
        to: Given::read(to, |n| Name::read(n, "give.to")),
        candle: (table.get("candle"))
            .map(|n| Given::read(n, |n| n.as_choice::<God>("give.candle"))),
    })
}

/// The problem of a gift without `candle`, at the gift.
pub fn gift_needs_candle(gift: &Given<Gift>) -> Problem {
    gift.problem(format!("give: a gift needs `candle` ({GIFT_EXAMPLE})"))
}
