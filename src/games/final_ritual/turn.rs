//! One round of Final Ritual played out: every living player's turn, clockwise from the first
//! seat, each step applied in order (spec final-ritual.md, "Rounds" and "Rulings"). Goals are
//! checked after every step; the game can end in the middle of a round.
//!
//! A player with a plan acts by it; a player without one gets the rules' defaults, drawn from
//! their own seeded stream so that nobody's default depends on another player's.

use super::cards::{Cards, Effect, Oracle, Resource, Targets, full_order};
use super::log::{Event, Log};
use super::state::{
    Announcement, Dedicate, EXECUTION, Orders, PlayerState, SeatOrder, State, WinBy, Winner,
};
use crate::doc::Choice;
use crate::games::Seats;
use crate::player_id::PlayerId;
use crate::rng::{self, GameRng};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use smallvec::{SmallVec, smallvec};

/// Players by index, inline (a table has at most six).
type Seated = SmallVec<[usize; 6]>;

/// The round's table: the state being changed, what happened, and the default streams. Players
/// are their index in `state.players` (ids only in the log and in what a plan names); the seats'
/// order is worked out once per round.
pub struct Table<'s> {
    /// The state the round is played on, in place.
    pub state: &'s mut State,
    pub log: Log,
    seed: u64,
    round: u32,
    seats: SeatOrder,
    /// The default streams drawn from so far, by index (inline: a table of six makes none).
    defaults: SmallVec<[Option<GameRng>; 6]>,
    /// Whether a priest has been executed (`State::anyone_executed`), kept as the round goes.
    executed: bool,
}

/// Which "any" list a choice follows (spec ruling 2).
#[derive(Clone, Copy)]
enum Any {
    Give,
    Take,
}

impl<'s> Table<'s> {
    pub fn new(state: &'s mut State, seed: u64) -> Table<'s> {
        let n = state.players.len();
        Table {
            executed: state.anyone_executed(),
            seats: SeatOrder::of(&state.players),
            round: state.round,
            state,
            log: Log::default(),
            seed,
            defaults: smallvec![None; n],
        }
    }

    /// Plays every living player's turn, until the round ends or the game does.
    pub fn play_round(&mut self) {
        // ruling 17: the others left the game; the last priest in it wins
        if let Some(last) = self.sole_living() {
            let how = if self.goal_holds(last) {
                WinBy::Goal
            } else {
                WinBy::LastAlive
            };
            self.win(last, how);
            return;
        }
        let Some(first) = self.seats.first_player(self.state) else {
            return;
        };
        for k in 0..self.state.players.len() {
            if self.state.finished {
                return;
            }
            let i = self.seats.clockwise(first, k);
            if self.alive(i) {
                self.log.begin_turn(self.state.players.id(i));
                self.turn(i);
            }
        }
    }

    /// The one player still alive, if only one is.
    fn sole_living(&self) -> Option<usize> {
        let mut living = (0..self.state.players.len()).filter(|&i| self.alive(i));
        match (living.next(), living.next()) {
            (Some(i), None) => Some(i),
            _ => None,
        }
    }

    fn alive(&self, i: usize) -> bool {
        self.state.players.at(i).alive
    }

    /// Whether living player `i`'s goal holds now.
    fn goal_holds(&self, i: usize) -> bool {
        self.state
            .goal_holds(self.state.players.at(i), self.executed)
    }

    /// Player `i`'s id, for the log.
    fn id(&self, i: usize) -> PlayerId {
        self.state.players.id(i).clone()
    }

    /// Notes an event in the log, made only when the log records (a simulated round's log is
    /// off: it neither copies the ids an event names nor moves the event).
    fn note(&mut self, event: impl FnOnce(&Seats<PlayerState>) -> Event) {
        if !self.log.off {
            let event = event(&self.state.players);
            self.log.event(event);
        }
    }

    fn turn(&mut self, i: usize) {
        self.dedication(i);
        if self.decided(i) || !self.alive(i) {
            return;
        }
        for k in 0..2 {
            let Some(entry) = self.plan(i).and_then(|p| p.announce.get(k)).cloned() else {
                break;
            };
            // issue 5: an entry no longer possible when the turn comes is skipped, and its
            // author told why (a named player was executed; the oracle is no longer held)
            let dead = entry.named().find(|p| !self.state.is_alive(p)).cloned();
            if dead.is_some() || !self.state.players.at(i).oracles.contains(&entry.oracle) {
                let left = dead
                    .as_ref()
                    .and_then(|p| self.state.players.get(p))
                    .is_some_and(|q| q.left);
                self.note(|seats| Event::Skipped {
                    by: seats.id(i).clone(),
                    announcement: entry,
                    dead,
                    left,
                });
                continue;
            }
            self.announce(i, entry, false);
            if self.decided(i) || !self.alive(i) {
                return;
            }
        }
        // spec ruling 6: a turn ends with at most 3 oracles in hand
        if self.state.players.at(i).oracles.len() > 3 {
            let entry = self.random_announcement(i);
            self.announce(i, entry, true);
            if self.decided(i) || !self.alive(i) {
                return;
            }
        }
        self.harvest(i);
        if self.decided(i) {
            return;
        }
        self.draw_oracle(i);
    }

    fn plan(&self, i: usize) -> Option<&Orders> {
        self.state.players.at(i).plan.as_ref()
    }

    fn rng(&mut self, i: usize) -> &mut GameRng {
        let (seed, round) = (self.seed, self.round);
        let id = self.state.players.id(i);
        self.defaults[i].get_or_insert_with(|| {
            rng::stream_of(seed, round, &["final-ritual/default/", id.as_str()])
        })
    }

    /// Step 1: the first resource of `dedicate` held, "refuse", or (no usable list) a random
    /// held card.
    fn dedication(&mut self, i: usize) {
        let hand = self.state.players.at(i).hand;
        // the first entry that is "refuse" or held; a list naming nothing held goes on with the
        // other resources, wine, gems, gold
        let listed = self.plan(i).and_then(|p| p.dedicate.as_ref()).map(|list| {
            list.iter()
                .copied()
                .find(|d| d.resource().is_none_or(|r| hand.get(r) > 0))
        });
        let held = |cards: Cards| Resource::ALL.iter().copied().find(|r| cards.get(*r) > 0);
        let choice: Option<Resource> = match listed {
            Some(Some(Dedicate::Refuse)) => return self.no_dedication(i, false),
            Some(Some(d)) => d.resource(),
            Some(None) => held(hand),
            None => self.random_cards(i, hand, 1).and_then(held),
        };
        match choice {
            Some(r) => {
                self.move_to_altar(i, Cards::one(r, 1));
                self.note(|seats| Event::Dedicated {
                    player: seats.id(i).clone(),
                    resource: Some(r),
                });
            }
            // spec ruling 1: a dedication with nothing in hand is a Betray Mark
            None => self.no_dedication(i, true),
        }
    }

    fn no_dedication(&mut self, i: usize, empty_hand: bool) {
        let marks = self.state.players.at(i).marks + 1;
        self.note(|seats| Event::NoDedication {
            player: seats.id(i).clone(),
            empty_hand,
            marks,
        });
        self.mark(i);
    }

    fn move_to_altar(&mut self, i: usize, cards: Cards) {
        self.hand(i).take_all(cards);
        self.state.altar.add_all(cards);
    }

    /// +1 Betray Mark; the third executes at once (spec ruling 4).
    fn mark(&mut self, i: usize) {
        let p = self.state.players.at_mut(i);
        p.marks += 1;
        if p.marks >= EXECUTION {
            self.execute(i);
        }
    }

    fn execute(&mut self, i: usize) {
        let p = self.state.players.at_mut(i);
        p.alive = false;
        self.executed = true;
        self.state.removed.add_all(std::mem::take(&mut p.hand));
        self.state
            .removed_oracles
            .append(&mut std::mem::take(&mut p.oracles));
        let role = self.state.options.reveal_executed_role.then_some(p.role);
        self.note(|seats| Event::Executed {
            player: seats.id(i).clone(),
            role,
        });
        // The last player alive wins at once (their own goal first, if it holds).
        if let Some(last) = self.sole_living() {
            let how = if self.goal_holds(last) {
                WinBy::Goal
            } else {
                WinBy::LastAlive
            };
            self.win(last, how);
        }
    }

    fn win(&mut self, i: usize, how: WinBy) {
        self.state.finished = true;
        self.state.winner = Some(Winner {
            player: self.id(i),
            role: self.state.players.at(i).role,
            how,
        });
    }

    /// After a step: the first living player clockwise from `active` whose goal holds wins.
    /// True when the game is over.
    fn decided(&mut self, active: usize) -> bool {
        if self.state.finished {
            return true;
        }
        if !self.may_be_decided() {
            return false;
        }
        let winner = {
            let (state, executed) = (&*self.state, self.executed);
            let holds = |p| state.goal_holds(p, executed);
            let mut walk = self.seats.clockwise_from(active);
            walk.find(|&i| state.players.at(i).alive && holds(state.players.at(i)))
        };
        if let Some(w) = winner {
            self.win(w, WinBy::Goal);
        }
        self.state.finished
    }

    /// Whether some living player's goal may hold: a bound that needs no player's role (a
    /// resource at `loyal_altar` on the altar, a living hand with `selfish_hand` of one, an
    /// execution), asked after every step, where it is almost always false; `decided` then
    /// checks each player's own goal.
    fn may_be_decided(&self) -> bool {
        let (state, options) = (&*self.state, &self.state.options);
        self.executed
            || state.altar.most() >= options.loyal_altar
            || (state.players.values()).any(|p| p.alive && p.hand.most() >= options.selfish_hand)
    }

    /// Whether `player` refuses orders from `announcer` (their own orders they cannot refuse).
    fn refuses(&self, player: usize, announcer: usize) -> bool {
        player != announcer
            && self
                .plan(player)
                .is_some_and(|p| p.refuse.contains(self.state.players.id(announcer)))
    }

    fn disobey(&mut self, player: usize, oracle: Oracle, refused: bool) {
        let marks = self.state.players.at(player).marks + 1;
        self.note(|seats| Event::Disobeyed {
            player: seats.id(player).clone(),
            oracle,
            marks,
            refused: Some(refused),
        });
        self.mark(player);
    }

    /// Up to `n` cards of `source` for an "any" choice of `player`: by their list, or at random
    /// when they sent nothing.
    fn any_cards(&mut self, player: usize, source: Cards, n: u32, which: Any) -> Cards {
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
    fn random_cards(&mut self, player: usize, source: Cards, n: u32) -> Option<Cards> {
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

    /// A random oracle of the hand with random legal targets (a hand of 4 that played none):
    /// the targets drawn from the living players in seat order.
    fn random_announcement(&mut self, i: usize) -> Announcement {
        let seats = self.seats.all().iter().copied();
        let living: Seated = seats.filter(|&p| self.alive(p)).collect();
        let oracles: SmallVec<[Oracle; 4]> =
            SmallVec::from_slice(&self.state.players.at(i).oracles);
        let rng = self.rng(i);
        let oracle = *oracles.choose(rng).expect("a hand of 4 oracles");
        let pick = |rng: &mut GameRng| *living.choose(rng).expect("the announcer lives");
        let (mut from, mut to, mut player) = (None, None, None);
        match oracle.effect().targets() {
            Targets::FromTo => {
                let giver = pick(rng);
                let others: Seated = living.iter().copied().filter(|p| *p != giver).collect();
                to = others.choose(rng).copied();
                from = Some(giver);
            }
            Targets::To => to = Some(pick(rng)),
            Targets::Player => player = Some(pick(rng)),
            Targets::Nobody => {}
        }
        Announcement {
            oracle,
            from: from.map(|p| self.id(p)),
            to: to.map(|p| self.id(p)),
            player: player.map(|p| self.id(p)),
        }
    }

    /// Step 2, one oracle: announced, then carried out in full.
    fn announce(&mut self, i: usize, a: Announcement, forced: bool) {
        let hand = &mut self.state.players.at_mut(i).oracles;
        if let Some(k) = hand.iter().position(|o| *o == a.oracle) {
            hand.remove(k);
        }
        self.state.announced.push(a.oracle);
        // the players it names (they lived when the turn checked them: a plan names players of
        // the game, and a forced announcement draws from them)
        let at = |named: &Option<PlayerId>| {
            named
                .as_ref()
                .and_then(|id| self.state.players.index_of(id))
        };
        let (from, to, player) = (at(&a.from), at(&a.to), at(&a.player));
        let oracle = a.oracle;
        self.note(|seats| Event::Announced {
            by: seats.id(i).clone(),
            announcement: a,
            forced,
        });
        // every player clockwise from the announcer: whom an order to all reaches, in turn
        let everyone = 0..self.state.players.len();
        match oracle.effect() {
            Effect::Give(n, what) => {
                if let (Some(from), Some(to)) = (from, to) {
                    self.give(i, oracle, from, to, n, what);
                }
            }
            Effect::AllGive => {
                let Some(to) = to else { return };
                for k in everyone {
                    let p = self.seats.clockwise(i, k);
                    if p != to && self.alive(p) && !self.state.finished {
                        self.give(i, oracle, p, to, 1, None);
                    }
                }
            }
            Effect::Dedicate(r) => {
                if let Some(p) = player {
                    self.offer(i, oracle, p, 2, Some(r));
                }
            }
            Effect::AllDedicate => {
                for k in everyone {
                    let p = self.seats.clockwise(i, k);
                    if self.alive(p) && !self.state.finished {
                        self.offer(i, oracle, p, 1, None);
                    }
                }
            }
            Effect::Take(n) => {
                if let Some(p) = player {
                    self.take(i, oracle, p, n);
                }
            }
            Effect::AllTake => {
                for k in everyone {
                    let p = self.seats.clockwise(i, k);
                    if self.alive(p) && !self.state.finished {
                        self.take(i, oracle, p, 1);
                    }
                }
            }
            Effect::Forgive => {
                // spec ruling 3: one mark off a living player; none to remove, no effect
                let Some(p) = player else { return };
                let q = self.state.players.at_mut(p);
                if q.alive && q.marks > 0 {
                    q.marks -= 1;
                    let marks = q.marks;
                    self.note(|seats| Event::Forgiven {
                        player: seats.id(p).clone(),
                        marks,
                    });
                }
            }
        }
    }

    /// What `player` pays for an order of `n` cards (of `what`, or "any" by their `give` list),
    /// taken from their hand; none, and a Betray Mark, if they refuse the announcer or cannot
    /// pay in full (spec ruling 1).
    fn pay(
        &mut self,
        announcer: usize,
        oracle: Oracle,
        player: usize,
        n: u32,
        what: Option<Resource>,
    ) -> Option<Cards> {
        if self.refuses(player, announcer) {
            self.disobey(player, oracle, true);
            return None;
        }
        let hand = self.state.players.at(player).hand;
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

    fn hand(&mut self, player: usize) -> &mut Cards {
        &mut self.state.players.at_mut(player).hand
    }

    /// `from` gives `n` cards (of `what`, or "any") to `to`.
    fn give(
        &mut self,
        announcer: usize,
        oracle: Oracle,
        from: usize,
        to: usize,
        n: u32,
        what: Option<Resource>,
    ) {
        let Some(cards) = self.pay(announcer, oracle, from, n, what) else {
            return;
        };
        self.hand(to).add_all(cards);
        self.note(|seats| Event::Gave {
            from: seats.id(from).clone(),
            to: seats.id(to).clone(),
            count: n,
            resource: what,
            cards: Some(cards),
        });
    }

    /// `player` dedicates `n` cards (of `what`, or "any") to the altar.
    fn offer(
        &mut self,
        announcer: usize,
        oracle: Oracle,
        player: usize,
        n: u32,
        what: Option<Resource>,
    ) {
        let Some(cards) = self.pay(announcer, oracle, player, n, what) else {
            return;
        };
        self.state.altar.add_all(cards);
        self.note(|seats| Event::Offered {
            player: seats.id(player).clone(),
            count: n,
            resource: what,
            cards: Some(cards),
        });
    }

    /// `player` takes up to `n` cards from the altar by their `take` list; taking fewer because
    /// the altar holds fewer is no fault (spec ruling 1).
    fn take(&mut self, announcer: usize, oracle: Oracle, player: usize, n: u32) {
        if self.refuses(player, announcer) {
            return self.disobey(player, oracle, true);
        }
        let altar = self.state.altar;
        let cards = self.any_cards(player, altar, n, Any::Take);
        self.state.altar.take_all(cards);
        self.hand(player).add_all(cards);
        self.note(|seats| Event::Took {
            player: seats.id(player).clone(),
            count: cards.total(),
            cards: Some(cards),
        });
    }

    /// Step 3: two resources from the deck (fewer, or none, when it runs out: spec ruling 5).
    fn harvest(&mut self, i: usize) {
        let k = self.state.resource_deck.len().min(2);
        let mut cards = Cards::default();
        for r in self.state.resource_deck.drain(..k) {
            cards.add(r, 1);
        }
        self.hand(i).add_all(cards);
        self.note(|seats| Event::Harvested {
            player: seats.id(i).clone(),
            count: cards.total(),
            cards: Some(cards),
        });
    }

    /// The oracle for the next turn; an empty deck is refilled from the announced oracles.
    fn draw_oracle(&mut self, i: usize) {
        if self.state.oracle_deck.is_empty() && !self.state.announced.is_empty() {
            // the pile becomes the deck, and the empty deck's room the next pile's
            let state = &mut *self.state;
            std::mem::swap(&mut state.oracle_deck, &mut state.announced);
            let id = state.players.id(i).as_str();
            let purpose = ["final-ritual/reshuffle/", id];
            let deck = &mut state.oracle_deck;
            deck.shuffle(&mut rng::stream_of(self.seed, self.round, &purpose));
            let count = deck.len();
            self.note(|_| Event::Reshuffled { count });
        }
        if self.state.oracle_deck.is_empty() {
            return;
        }
        let oracle = self.state.oracle_deck.remove(0);
        self.state.players.at_mut(i).oracles.push(oracle);
        self.note(|seats| Event::DrewOracle {
            player: seats.id(i).clone(),
            oracle: Some(oracle),
        });
    }
}
