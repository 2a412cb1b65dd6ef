//! Final Ritual's cards as data: the three resources, the seven roles and the 48 oracles (spec
//! final-ritual.md; rules `../shared/seeds/final-ritual.txt`, "Items"). Each oracle kind is one
//! row of `KINDS`: its id, how many copies the deck holds and what it orders.

use crate::doc::Choice;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Cards of each resource in the game (rules: 40 wine, 40 gems, 40 gold).
pub const PER_RESOURCE: u32 = 40;
/// Oracle cards in the game.
pub const ORACLES: usize = 48;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    Wine,
    Gems,
    Gold,
}

impl Choice for Resource {
    const ALL: &'static [Resource] = &[Resource::Wine, Resource::Gems, Resource::Gold];
    fn name(self) -> &'static str {
        match self {
            Resource::Wine => "wine",
            Resource::Gems => "gems",
            Resource::Gold => "gold",
        }
    }
}

/// A number of cards of each resource: a hand, the altar, a transfer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cards {
    pub wine: u32,
    pub gems: u32,
    pub gold: u32,
}

impl Cards {
    pub fn get(&self, r: Resource) -> u32 {
        match r {
            Resource::Wine => self.wine,
            Resource::Gems => self.gems,
            Resource::Gold => self.gold,
        }
    }

    fn slot(&mut self, r: Resource) -> &mut u32 {
        match r {
            Resource::Wine => &mut self.wine,
            Resource::Gems => &mut self.gems,
            Resource::Gold => &mut self.gold,
        }
    }

    pub fn add(&mut self, r: Resource, n: u32) {
        *self.slot(r) += n;
    }

    pub fn add_all(&mut self, other: Cards) {
        for r in Resource::ALL {
            self.add(*r, other.get(*r));
        }
    }

    /// Takes `n` cards of `r`; false (and nothing taken) if there are fewer.
    pub fn take(&mut self, r: Resource, n: u32) -> bool {
        let slot = self.slot(r);
        if *slot < n {
            return false;
        }
        *slot -= n;
        true
    }

    pub fn take_all(&mut self, other: Cards) {
        for r in Resource::ALL {
            let ok = self.take(*r, other.get(*r));
            debug_assert!(ok, "take_all of cards that are there");
        }
    }

    /// The most cards of any one resource.
    pub fn most(&self) -> u32 {
        self.wine.max(self.gems).max(self.gold)
    }

    pub fn total(&self) -> u32 {
        self.wine + self.gems + self.gold
    }

    pub fn one(r: Resource, n: u32) -> Cards {
        let mut c = Cards::default();
        c.add(r, n);
        c
    }

    /// Up to `n` cards chosen in `order` (as many of the first resource as there are, then the
    /// next…): how an "any" choice is paid (spec ruling 2).
    pub fn pick(&self, n: u32, order: &[Resource]) -> Cards {
        let mut out = Cards::default();
        let mut left = n;
        for r in order {
            let k = self.get(*r).min(left);
            out.add(*r, k);
            left -= k;
        }
        out
    }

    /// "2 wine, 1 gold"; "nothing" when empty.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = Resource::ALL
            .iter()
            .filter(|r| self.get(**r) > 0)
            .map(|r| format!("{} {}", self.get(*r), r.name()))
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// An order of resources (the three, each once, fit inline: a player's order for "any").
pub type ResourceOrder = smallvec::SmallVec<[Resource; 3]>;

/// The full preference order for an "any" choice: the listed resources, then the ones the list
/// leaves out in the order wine, gems, gold (spec ruling 2).
pub fn full_order(listed: &[Resource]) -> ResourceOrder {
    let mut order = ResourceOrder::new();
    for r in listed.iter().chain(Resource::ALL) {
        if !order.contains(r) {
            order.push(*r);
        }
    }
    order
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    LoyalWine,
    LoyalGems,
    LoyalGold,
    SelfishWine,
    SelfishGems,
    SelfishGold,
    Traitor,
}

impl Choice for Role {
    const ALL: &'static [Role] = &[
        Role::LoyalWine,
        Role::LoyalGems,
        Role::LoyalGold,
        Role::SelfishWine,
        Role::SelfishGems,
        Role::SelfishGold,
        Role::Traitor,
    ];
    fn name(self) -> &'static str {
        match self {
            Role::LoyalWine => "loyal-wine",
            Role::LoyalGems => "loyal-gems",
            Role::LoyalGold => "loyal-gold",
            Role::SelfishWine => "selfish-wine",
            Role::SelfishGems => "selfish-gems",
            Role::SelfishGold => "selfish-gold",
            Role::Traitor => "traitor",
        }
    }
}

/// What a role must bring about (spec final-ritual.md, "Role goals").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// The altar holds at least `loyal_altar` cards of the resource.
    Altar(Resource),
    /// The player's own hand holds at least `selfish_hand` cards of the resource.
    Hand(Resource),
    /// At least one other player has been executed.
    Execution,
}

impl Role {
    pub fn goal(self) -> Goal {
        match self {
            Role::LoyalWine => Goal::Altar(Resource::Wine),
            Role::LoyalGems => Goal::Altar(Resource::Gems),
            Role::LoyalGold => Goal::Altar(Resource::Gold),
            Role::SelfishWine => Goal::Hand(Resource::Wine),
            Role::SelfishGems => Goal::Hand(Resource::Gems),
            Role::SelfishGold => Goal::Hand(Resource::Gold),
            Role::Traitor => Goal::Execution,
        }
    }
}

/// The 18 kinds of oracle; ids as in the spec (`give-2-wine`, `forgive`…).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Oracle {
    Give1Wine,
    Give1Gems,
    Give1Gold,
    Give2Wine,
    Give2Gems,
    Give2Gold,
    Give3Wine,
    Give3Gems,
    Give3Gold,
    GiveAny2,
    AllGiveAny1,
    Dedicate2Wine,
    Dedicate2Gems,
    Dedicate2Gold,
    AllDedicateAny1,
    TakeAny3,
    TakeAny2,
    AllTakeAny1,
    Forgive,
}

/// What an oracle orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// `from` gives `n` cards to `to`: of one resource, or "any" (`None`).
    Give(u32, Option<Resource>),
    /// Every living player but `to` gives 1 "any" card to `to`, clockwise from the announcer.
    AllGive,
    /// `player` dedicates 2 cards of the resource to the altar.
    Dedicate(Resource),
    /// Every living player dedicates 1 "any" card, clockwise from the announcer.
    AllDedicate,
    /// `player` takes up to `n` "any" cards from the altar.
    Take(u32),
    /// Every living player takes 1 "any" card from the altar, clockwise from the announcer.
    AllTake,
    /// One Betray Mark is removed from `player`.
    Forgive,
}

/// The targets an announcement names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Targets {
    FromTo,
    To,
    Player,
    Nobody,
}

impl Effect {
    pub fn targets(self) -> Targets {
        match self {
            Effect::Give(..) => Targets::FromTo,
            Effect::AllGive => Targets::To,
            Effect::Dedicate(_) | Effect::Take(_) | Effect::Forgive => Targets::Player,
            Effect::AllDedicate | Effect::AllTake => Targets::Nobody,
        }
    }
}

pub struct Kind {
    pub oracle: Oracle,
    pub id: &'static str,
    pub copies: usize,
    pub effect: Effect,
}

const fn kind(oracle: Oracle, id: &'static str, copies: usize, effect: Effect) -> Kind {
    Kind {
        oracle,
        id,
        copies,
        effect,
    }
}

use Effect as E;
use Resource::{Gems, Gold, Wine};

/// The oracle deck (rules, "Items: 48* Oracle").
pub const KINDS: [Kind; 19] = [
    kind(Oracle::Give1Wine, "give-1-wine", 3, E::Give(1, Some(Wine))),
    kind(Oracle::Give1Gems, "give-1-gems", 3, E::Give(1, Some(Gems))),
    kind(Oracle::Give1Gold, "give-1-gold", 3, E::Give(1, Some(Gold))),
    kind(Oracle::Give2Wine, "give-2-wine", 2, E::Give(2, Some(Wine))),
    kind(Oracle::Give2Gems, "give-2-gems", 2, E::Give(2, Some(Gems))),
    kind(Oracle::Give2Gold, "give-2-gold", 2, E::Give(2, Some(Gold))),
    kind(Oracle::Give3Wine, "give-3-wine", 1, E::Give(3, Some(Wine))),
    kind(Oracle::Give3Gems, "give-3-gems", 1, E::Give(3, Some(Gems))),
    kind(Oracle::Give3Gold, "give-3-gold", 1, E::Give(3, Some(Gold))),
    kind(Oracle::GiveAny2, "give-any-2", 5, E::Give(2, None)),
    kind(Oracle::AllGiveAny1, "all-give-any-1", 1, E::AllGive),
    kind(
        Oracle::Dedicate2Wine,
        "dedicate-2-wine",
        3,
        E::Dedicate(Wine),
    ),
    kind(
        Oracle::Dedicate2Gems,
        "dedicate-2-gems",
        3,
        E::Dedicate(Gems),
    ),
    kind(
        Oracle::Dedicate2Gold,
        "dedicate-2-gold",
        3,
        E::Dedicate(Gold),
    ),
    kind(
        Oracle::AllDedicateAny1,
        "all-dedicate-any-1",
        3,
        E::AllDedicate,
    ),
    kind(Oracle::TakeAny3, "take-any-3", 2, E::Take(3)),
    kind(Oracle::TakeAny2, "take-any-2", 5, E::Take(2)),
    kind(Oracle::AllTakeAny1, "all-take-any-1", 1, E::AllTake),
    kind(Oracle::Forgive, "forgive", 4, E::Forgive),
];

impl Oracle {
    fn kind(self) -> &'static Kind {
        KINDS
            .iter()
            .find(|k| k.oracle == self)
            .expect("every oracle has a row in KINDS")
    }

    pub fn effect(self) -> Effect {
        self.kind().effect
    }

    /// The whole deck, in table order (shuffled at set-up).
    pub fn deck() -> Vec<Oracle> {
        KINDS
            .iter()
            .flat_map(|k| std::iter::repeat_n(k.oracle, k.copies))
            .collect()
    }
}

const ALL_ORACLES: [Oracle; 19] = {
    let mut all = [Oracle::Forgive; 19];
    let mut i = 0;
    while i < KINDS.len() {
        all[i] = KINDS[i].oracle;
        i += 1;
    }
    all
};

impl Choice for Oracle {
    const ALL: &'static [Oracle] = &ALL_ORACLES;
    fn name(self) -> &'static str {
        self.kind().id
    }
}

impl Serialize for Oracle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Oracle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Oracle::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{text}` is not an oracle id; one of {}",
                Oracle::all_names().join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_is_the_rules_48_oracles() {
        let deck = Oracle::deck();
        assert_eq!(deck.len(), ORACLES);
        let count = |o: Oracle| deck.iter().filter(|x| **x == o).count();
        assert_eq!(count(Oracle::GiveAny2), 5);
        assert_eq!(count(Oracle::TakeAny2), 5);
        assert_eq!(count(Oracle::Forgive), 4);
        assert_eq!(count(Oracle::AllDedicateAny1), 3);
        for o in Oracle::ALL {
            assert_eq!(Oracle::parse(o.name()), Some(*o));
        }
    }

    #[test]
    fn any_choices_follow_the_list_then_wine_gems_gold() {
        assert_eq!(
            *full_order(&[Gold]),
            [Resource::Gold, Resource::Wine, Resource::Gems]
        );
        let hand = Cards {
            wine: 1,
            gems: 0,
            gold: 1,
        };
        assert_eq!(
            hand.pick(2, &full_order(&[Gems, Gold])),
            Cards {
                wine: 1,
                gems: 0,
                gold: 1
            }
        );
        assert_eq!(hand.pick(5, &full_order(&[])).total(), 2);
    }
}
