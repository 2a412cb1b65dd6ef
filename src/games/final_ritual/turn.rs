//! One round of Final Ritual played out: every living player's turn, clockwise from the first
//! seat, each step applied in order (spec final-ritual.md, "Rounds" and "Rulings"). Goals are
//! checked after every step; the game can end in the middle of a round.
//!
//! A player with a plan acts by it; a player without one gets the rules' defaults, drawn from
//! their own seeded stream so that nobody's default depends on another player's.

use super::cards::{Cards, Effect, Oracle, Resource, Targets, full_order};
use super::log::{Event, Log};
use super::state::{Announcement, Dedicate, EXECUTION, Orders, State, WinBy, Winner};
use crate::doc::Choice;
use crate::player_id::PlayerId;
use crate::rng::{self, GameRng};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use std::collections::BTreeMap;

/// The round's table: the state being changed, what happened, and the default streams.
pub struct Table<'s> {
    /// The state the round is played on, in place.
    pub state: &'s mut State,
    pub log: Log,
    seed: u64,
    round: u32,
    defaults: BTreeMap<PlayerId, GameRng>,
}

/// Which "any" list a choice follows (spec ruling 2).
#[derive(Clone, Copy)]
enum Any {
    Give,
    Take,
}

impl<'s> Table<'s> {
    pub fn new(state: &'s mut State, seed: u64) -> Table<'s> {
        Table {
            round: state.round,
            state,
            log: Log::default(),
            seed,
            defaults: BTreeMap::new(),
        }
    }

    /// Plays every living player's turn, until the round ends or the game does.
    pub fn play_round(&mut self) {
        // ruling 17: the others left the game; the last priest in it wins
        if let [last] = self.state.living().as_slice() {
            let last = last.clone();
            let how = if self.state.goal_holds(&last) {
                WinBy::Goal
            } else {
                WinBy::LastAlive
            };
            self.win(&last, how);
            return;
        }
        let Some(first) = self.state.first_player() else {
            return;
        };
        for id in self.state.clockwise_from(&first) {
            if self.state.finished {
                return;
            }
            if self.state.is_alive(&id) {
                self.log.begin_turn(&id);
                self.turn(&id);
            }
        }
    }

    fn turn(&mut self, id: &PlayerId) {
        self.dedication(id);
        if self.decided(id) || !self.state.is_alive(id) {
            return;
        }
        let entries: Vec<Announcement> = self
            .plan(id)
            .map(|p| p.announce.iter().take(2).cloned().collect())
            .unwrap_or_default();
        for entry in entries {
            // issue 5: an entry no longer possible when the turn comes is skipped, and its
            // author told why (a named player was executed; the oracle is no longer held)
            let dead = entry.named().find(|p| !self.state.is_alive(p)).cloned();
            if dead.is_some() || !self.state.players[id].oracles.contains(&entry.oracle) {
                let left = dead.as_ref().is_some_and(|p| self.state.players[p].left);
                self.log.event(Event::Skipped {
                    by: id.clone(),
                    announcement: entry,
                    dead,
                    left,
                });
                continue;
            }
            self.announce(id, entry, false);
            if self.decided(id) || !self.state.is_alive(id) {
                return;
            }
        }
        // spec ruling 6: a turn ends with at most 3 oracles in hand
        if self.state.players[id].oracles.len() > 3 {
            let entry = self.random_announcement(id);
            self.announce(id, entry, true);
            if self.decided(id) || !self.state.is_alive(id) {
                return;
            }
        }
        self.harvest(id);
        if self.decided(id) {
            return;
        }
        self.draw_oracle(id);
    }

    fn plan(&self, id: &PlayerId) -> Option<&Orders> {
        self.state.players.get(id).and_then(|p| p.plan.as_ref())
    }

    fn rng(&mut self, id: &PlayerId) -> &mut GameRng {
        let (seed, round) = (self.seed, self.round);
        self.defaults
            .entry(id.clone())
            .or_insert_with(|| rng::stream(seed, round, &format!("final-ritual/default/{id}")))
    }

    /// Step 1: the first resource of `dedicate` held, "refuse", or (no usable list) a random
    /// held card.
    fn dedication(&mut self, id: &PlayerId) {
        let hand = self.state.players[id].hand;
        let choice: Option<Resource> = match self.plan(id).and_then(|p| p.dedicate.clone()) {
            // the first entry that is "refuse" or held; a list naming nothing held goes on with
            // the other resources, wine, gems, gold
            Some(list) => match list
                .iter()
                .find(|d| d.resource().is_none_or(|r| hand.get(r) > 0))
            {
                Some(Dedicate::Refuse) => return self.no_dedication(id, false),
                Some(d) => d.resource(),
                None => Resource::ALL.iter().copied().find(|r| hand.get(*r) > 0),
            },
            None => self
                .random_cards(id, hand, 1)
                .and_then(|c| Resource::ALL.iter().copied().find(|r| c.get(*r) > 0)),
        };
        match choice {
            Some(r) => {
                self.move_to_altar(id, Cards::one(r, 1));
                self.log.event(Event::Dedicated {
                    player: id.clone(),
                    resource: Some(r),
                });
            }
            // spec ruling 1: a dedication with nothing in hand is a Betray Mark
            None => self.no_dedication(id, true),
        }
    }

    fn no_dedication(&mut self, id: &PlayerId, empty_hand: bool) {
        let marks = self.state.players[id].marks + 1;
        self.log.event(Event::NoDedication {
            player: id.clone(),
            empty_hand,
            marks,
        });
        self.mark(id);
    }

    fn move_to_altar(&mut self, id: &PlayerId, cards: Cards) {
        self.hand(id).take_all(cards);
        self.state.altar.add_all(cards);
    }

    /// +1 Betray Mark; the third executes at once (spec ruling 4).
    fn mark(&mut self, id: &PlayerId) {
        let p = self.state.players.get_mut(id).expect("a player");
        p.marks += 1;
        if p.marks >= EXECUTION {
            self.execute(id);
        }
    }

    fn execute(&mut self, id: &PlayerId) {
        let p = self.state.players.get_mut(id).expect("a player");
        p.alive = false;
        self.state.removed.add_all(std::mem::take(&mut p.hand));
        self.state
            .removed_oracles
            .append(&mut std::mem::take(&mut p.oracles));
        let role = self.state.options.reveal_executed_role.then_some(p.role);
        self.log.event(Event::Executed {
            player: id.clone(),
            role,
        });
        // The last player alive wins at once (their own goal first, if it holds).
        let living = self.state.living();
        if let [last] = living.as_slice() {
            let how = if self.state.goal_holds(last) {
                WinBy::Goal
            } else {
                WinBy::LastAlive
            };
            self.win(&last.clone(), how);
        }
    }

    fn win(&mut self, id: &PlayerId, how: WinBy) {
        self.state.finished = true;
        self.state.winner = Some(Winner {
            player: id.clone(),
            role: self.state.players[id].role,
            how,
        });
    }

    /// After a step: the first living player clockwise from `active` whose goal holds wins.
    /// True when the game is over.
    fn decided(&mut self, active: &PlayerId) -> bool {
        if self.state.finished {
            return true;
        }
        let winner = self
            .state
            .first_clockwise(active, |id, p| p.alive && self.state.goal_holds_for(id, p))
            .cloned();
        if let Some(w) = winner {
            self.win(&w, WinBy::Goal);
        }
        self.state.finished
    }

    /// Whether `player` refuses orders from `announcer` (their own orders they cannot refuse).
    fn refuses(&self, player: &PlayerId, announcer: &PlayerId) -> bool {
        player != announcer
            && self
                .plan(player)
                .is_some_and(|p| p.refuse.contains(announcer))
    }

    fn disobey(&mut self, player: &PlayerId, oracle: Oracle, refused: bool) {
        let marks = self.state.players[player].marks + 1;
        self.log.event(Event::Disobeyed {
            player: player.clone(),
            oracle,
            marks,
            refused: Some(refused),
        });
        self.mark(player);
    }

    /// Up to `n` cards of `source` for an "any" choice of `player`: by their list, or at random
    /// when they sent nothing.
    fn any_cards(&mut self, player: &PlayerId, source: Cards, n: u32, which: Any) -> Cards {
        match self.plan(player) {
            Some(plan) => {
                let listed = match which {
                    Any::Give => &plan.give,
                    Any::Take => &plan.take,
                };
                source.pick(n, &full_order(listed))
            }
            None => self.random_cards(player, source, n).unwrap_or_default(),
        }
    }

    /// `n` cards drawn at random from `source` (one at a time, each card equally likely).
    fn random_cards(&mut self, player: &PlayerId, source: Cards, n: u32) -> Option<Cards> {
        if source.total() == 0 {
            return None;
        }
        let mut left = source;
        let mut out = Cards::default();
        let rng = self.rng(player);
        for _ in 0..n.min(source.total()) {
            let mut k = rng.random_range(0..left.total());
            for r in Resource::ALL {
                if k < left.get(*r) {
                    left.take(*r, 1);
                    out.add(*r, 1);
                    break;
                }
                k -= left.get(*r);
            }
        }
        Some(out)
    }

    /// A random oracle of the hand with random legal targets (a hand of 4 that played none).
    fn random_announcement(&mut self, id: &PlayerId) -> Announcement {
        let living = self.state.living();
        let oracles = self.state.players[id].oracles.clone();
        let rng = self.rng(id);
        let oracle = *oracles.choose(rng).expect("a hand of 4 oracles");
        let pick = |rng: &mut GameRng| living.choose(rng).expect("the announcer lives").clone();
        let mut a = Announcement::of(oracle);
        match oracle.effect().targets() {
            Targets::FromTo => {
                let from = pick(rng);
                let others: Vec<&PlayerId> = living.iter().filter(|p| **p != from).collect();
                a.to = others.choose(rng).map(|p| (*p).clone());
                a.from = Some(from);
            }
            Targets::To => a.to = Some(pick(rng)),
            Targets::Player => a.player = Some(pick(rng)),
            Targets::Nobody => {}
        }
        a
    }

    /// Step 2, one oracle: announced, then carried out in full.
    fn announce(&mut self, id: &PlayerId, a: Announcement, forced: bool) {
        let hand = &mut self.state.players.get_mut(id).expect("a player").oracles;
        if let Some(i) = hand.iter().position(|o| *o == a.oracle) {
            hand.remove(i);
        }
        self.state.announced.push(a.oracle);
        self.log.event(Event::Announced {
            by: id.clone(),
            announcement: a.clone(),
            forced,
        });
        let oracle = a.oracle;
        // every player clockwise from the announcer: whom an order to all reaches, in turn
        let order = || self.state.clockwise_from(id);
        match oracle.effect() {
            Effect::Give(n, what) => {
                let (Some(from), Some(to)) = (a.from, a.to) else {
                    return;
                };
                self.give(id, oracle, &from, &to, n, what);
            }
            Effect::AllGive => {
                let Some(to) = a.to else { return };
                for p in &order() {
                    if *p != to && self.state.is_alive(p) && !self.state.finished {
                        self.give(id, oracle, p, &to, 1, None);
                    }
                }
            }
            Effect::Dedicate(r) => {
                if let Some(p) = a.player {
                    self.offer(id, oracle, &p, 2, Some(r));
                }
            }
            Effect::AllDedicate => {
                for p in &order() {
                    if self.state.is_alive(p) && !self.state.finished {
                        self.offer(id, oracle, p, 1, None);
                    }
                }
            }
            Effect::Take(n) => {
                if let Some(p) = a.player {
                    self.take(id, oracle, &p, n);
                }
            }
            Effect::AllTake => {
                for p in &order() {
                    if self.state.is_alive(p) && !self.state.finished {
                        self.take(id, oracle, p, 1);
                    }
                }
            }
            Effect::Forgive => {
                // spec ruling 3: one mark off a living player; none to remove, no effect
                if let Some(p) = a.player
                    && let Some(q) = self.state.players.get_mut(&p)
                    && q.alive
                    && q.marks > 0
                {
                    q.marks -= 1;
                    let marks = q.marks;
                    self.log.event(Event::Forgiven { player: p, marks });
                }
            }
        }
    }

    /// What `player` pays for an order of `n` cards (of `what`, or "any" by their `give` list),
    /// taken from their hand; none, and a Betray Mark, if they refuse the announcer or cannot
    /// pay in full (spec ruling 1).
    fn pay(
        &mut self,
        announcer: &PlayerId,
        oracle: Oracle,
        player: &PlayerId,
        n: u32,
        what: Option<Resource>,
    ) -> Option<Cards> {
        if self.refuses(player, announcer) {
            self.disobey(player, oracle, true);
            return None;
        }
        let hand = self.state.players[player].hand;
        let (cards, payable) = match what {
            Some(r) => (Cards::one(r, n), hand.get(r) >= n),
            None => {
                let cards = self.any_cards(player, hand, n, Any::Give);
                (cards, cards.total() == n)
            }
        };
        if !payable {
            self.disobey(player, oracle, false);
            return None;
        }
        self.hand(player).take_all(cards);
        Some(cards)
    }

    fn hand(&mut self, player: &PlayerId) -> &mut Cards {
        &mut self.state.players.get_mut(player).expect("a player").hand
    }

    /// `from` gives `n` cards (of `what`, or "any") to `to`.
    fn give(
        &mut self,
        announcer: &PlayerId,
        oracle: Oracle,
        from: &PlayerId,
        to: &PlayerId,
        n: u32,
        what: Option<Resource>,
    ) {
        let Some(cards) = self.pay(announcer, oracle, from, n, what) else {
            return;
        };
        self.hand(to).add_all(cards);
        self.log.event(Event::Gave {
            from: from.clone(),
            to: to.clone(),
            count: n,
            resource: what,
            cards: Some(cards),
        });
    }

    /// `player` dedicates `n` cards (of `what`, or "any") to the altar.
    fn offer(
        &mut self,
        announcer: &PlayerId,
        oracle: Oracle,
        player: &PlayerId,
        n: u32,
        what: Option<Resource>,
    ) {
        let Some(cards) = self.pay(announcer, oracle, player, n, what) else {
            return;
        };
        self.state.altar.add_all(cards);
        self.log.event(Event::Offered {
            player: player.clone(),
            count: n,
            resource: what,
            cards: Some(cards),
        });
    }

    /// `player` takes up to `n` cards from the altar by their `take` list; taking fewer because
    /// the altar holds fewer is no fault (spec ruling 1).
    fn take(&mut self, announcer: &PlayerId, oracle: Oracle, player: &PlayerId, n: u32) {
        if self.refuses(player, announcer) {
            return self.disobey(player, oracle, true);
        }
        let altar = self.state.altar;
        let cards = self.any_cards(player, altar, n, Any::Take);
        self.state.altar.take_all(cards);
        self.hand(player).add_all(cards);
        self.log.event(Event::Took {
            player: player.clone(),
            count: cards.total(),
            cards: Some(cards),
        });
    }

    /// Step 3: two resources from the deck (fewer, or none, when it runs out: spec ruling 5).
    fn harvest(&mut self, id: &PlayerId) {
        let k = self.state.resource_deck.len().min(2);
        let mut cards = Cards::default();
        for r in self.state.resource_deck.drain(..k) {
            cards.add(r, 1);
        }
        self.hand(id).add_all(cards);
        self.log.event(Event::Harvested {
            player: id.clone(),
            count: cards.total(),
            cards: Some(cards),
        });
    }

    /// The oracle for the next turn; an empty deck is refilled from the announced oracles.
    fn draw_oracle(&mut self, id: &PlayerId) {
        if self.state.oracle_deck.is_empty() && !self.state.announced.is_empty() {
            let mut pile = std::mem::take(&mut self.state.announced);
            let purpose = format!("final-ritual/reshuffle/{id}");
            pile.shuffle(&mut rng::stream(self.seed, self.round, &purpose));
            self.log.event(Event::Reshuffled { count: pile.len() });
            self.state.oracle_deck = pile;
        }
        if self.state.oracle_deck.is_empty() {
            return;
        }
        let oracle = self.state.oracle_deck.remove(0);
        self.state
            .players
            .get_mut(id)
            .expect("a player")
            .oracles
            .push(oracle);
        self.log.event(Event::DrewOracle {
            player: id.clone(),
            oracle: Some(oracle),
        });
    }
}
