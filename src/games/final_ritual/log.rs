//! What happened during a round, as typed events in the order they happened. Each event is
//! written once with every detail; `public()` is the version the announcement may show (the cards
//! of an "any" transfer, a dedicated resource, a drawn oracle and the reason for a disobedience
//! are stripped) and `readers()` are the players whose private report gets the full version
//! (spec final-ritual.md, "Information").

use super::cards::{Cards, Oracle, Resource, Role};
use super::state::Announcement;
use crate::player_id::PlayerId;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// The turn's dedication (step 1); `resource` is private.
    Dedicated {
        player: PlayerId,
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<Resource>,
    },
    /// The dedication refused ("refuse" in `dedicate`), or impossible with an empty hand.
    NoDedication {
        player: PlayerId,
        empty_hand: bool,
        marks: u32,
    },
    Announced {
        /// The announcer (`player` is the target of some oracles).
        by: PlayerId,
        #[serde(flatten)]
        announcement: Announcement,
        /// Chosen by the rules for a player who held 4 oracles and played none (private: the
        /// announcement shows it like any other, so skipped entries stay unknown).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        forced: bool,
    },
    /// Cards moved between two players; `resource` when the oracle names it (public), `cards`
    /// for "any" transfers (private to the two).
    Gave {
        from: PlayerId,
        to: PlayerId,
        count: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<Resource>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// Cards a player put on the altar because an oracle ordered it.
    Offered {
        player: PlayerId,
        count: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<Resource>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// Cards taken from the altar (fewer than ordered when it held fewer).
    Took {
        player: PlayerId,
        count: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// An order not obeyed: +1 Betray Mark. `refused` (private): refused by `respond.refuse`
    /// rather than unable to pay.
    Disobeyed {
        player: PlayerId,
        oracle: Oracle,
        marks: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        refused: Option<bool>,
    },
    Forgiven {
        player: PlayerId,
        marks: u32,
    },
    Executed {
        player: PlayerId,
        #[serde(skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
    },
    Harvested {
        player: PlayerId,
        count: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    DrewOracle {
        player: PlayerId,
        #[serde(skip_serializing_if = "Option::is_none")]
        oracle: Option<Oracle>,
    },
    /// The oracle deck ran out: the announced oracles were shuffled into it (spec ruling 5).
    Reshuffled {
        count: usize,
    },
    /// An entry of `announce` that could not be played when the turn came (private).
    Skipped {
        by: PlayerId,
        #[serde(flatten)]
        announcement: Announcement,
        /// The named player who was executed earlier; none: the oracle was no longer held.
        #[serde(skip_serializing_if = "Option::is_none")]
        dead: Option<PlayerId>,
        /// The named player is out because they left the game (ruling 17), not executed.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        left: bool,
    },
}

impl Event {
    /// What the announcement may show; `None` for private-only events.
    pub fn public(&self) -> Option<Event> {
        let mut e = self.clone();
        match &mut e {
            Event::Dedicated { resource, .. } => *resource = None,
            Event::Gave { cards, .. }
            | Event::Offered { cards, .. }
            | Event::Took { cards, .. }
            | Event::Harvested { cards, .. } => *cards = None,
            Event::DrewOracle { oracle, .. } => *oracle = None,
            Event::Disobeyed { refused, .. } => *refused = None,
            Event::Announced { forced, .. } => *forced = false,
            Event::Skipped { .. } => return None,
            Event::NoDedication { .. }
            | Event::Forgiven { .. }
            | Event::Executed { .. }
            | Event::Reshuffled { .. } => {}
        }
        Some(e)
    }

    /// The players whose private report shows this event in full.
    pub fn readers(&self) -> Vec<&PlayerId> {
        match self {
            Event::Gave { from, to, .. } => vec![from, to],
            Event::Dedicated { player, .. }
            | Event::NoDedication { player, .. }
            | Event::Offered { player, .. }
            | Event::Took { player, .. }
            | Event::Disobeyed { player, .. }
            | Event::Forgiven { player, .. }
            | Event::Executed { player, .. }
            | Event::Harvested { player, .. }
            | Event::DrewOracle { player, .. } => vec![player],
            Event::Skipped { by, .. } => vec![by],
            Event::Announced { by, forced, .. } if *forced => vec![by],
            Event::Announced { .. } | Event::Reshuffled { .. } => vec![],
        }
    }
}

/// One player's turn as the announcement shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    pub player: PlayerId,
    pub events: Vec<Event>,
}

/// An event in a private report, with whose turn it happened in.
#[derive(Debug, Clone, Serialize)]
pub struct Seen {
    pub turn: PlayerId,
    pub event: Event,
}

#[derive(Debug, Default)]
pub struct Log {
    pub turns: Vec<Turn>,
    pub private: BTreeMap<PlayerId, Vec<Seen>>,
    /// Records nothing: a resolution whose result nobody reads (`Detail::State`). The rules
    /// never read the log.
    pub off: bool,
}

impl Log {
    pub fn begin_turn(&mut self, player: &PlayerId) {
        if self.off {
            return;
        }
        self.turns.push(Turn {
            player: player.clone(),
            events: Vec::new(),
        });
    }

    pub fn event(&mut self, event: Event) {
        if self.off {
            return;
        }
        let Some(turn) = self.turns.last_mut() else {
            debug_assert!(false, "events happen inside a turn");
            return;
        };
        for reader in event.readers() {
            self.private.entry(reader.clone()).or_default().push(Seen {
                turn: turn.player.clone(),
                event: event.clone(),
            });
        }
        if let Some(public) = event.public() {
            turn.events.push(public);
        }
    }
}
