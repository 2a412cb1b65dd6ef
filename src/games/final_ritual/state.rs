//! Final Ritual's state.toml (spec final-ritual.md, "State and result"): the seats, roles, Betray
//! Marks, hands and oracles of every player, the altar, both decks, the cards that left the game,
//! and each player's plan for the round being played.

use super::cards::{Cards, Goal, ORACLES, Oracle, PER_RESOURCE, Resource, ResourceOrder, Role};
use crate::doc::Choice;
use crate::games::Seats;
use crate::games::SetupError;
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// Betray Marks at which a player is executed (rules, "Execute").
pub const EXECUTION: u32 = 3;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    pub loyal_altar: u32,
    pub selfish_hand: u32,
    pub traitor: TraitorGoal,
    pub max_rounds: u32,
    pub reveal_executed_role: bool,
}

/// The Traitor's goal; the spec defines one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TraitorGoal {
    Execution,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            loyal_altar: 10,
            selfish_hand: 7,
            traitor: TraitorGoal::Execution,
            max_rounds: 30,
            reveal_executed_role: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    /// The seat that plays first this round (1-based).
    pub first: u32,
    pub finished: bool,
    pub rounds_played: u32,
    pub options: Options,
    pub altar: Cards,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Winner>,
    pub players: Seats<PlayerState>,
    /// The resource deck, next card first.
    pub resource_deck: Vec<Resource>,
    /// The oracle deck, next card first.
    pub oracle_deck: Vec<Oracle>,
    /// Announced oracles, reshuffled into the deck when it runs out (spec ruling 5).
    #[serde(default)]
    pub announced: Vec<Oracle>,
    /// Cards of executed players, out of the game (spec ruling 4).
    #[serde(default)]
    pub removed: Cards,
    #[serde(default)]
    pub removed_oracles: Vec<Oracle>,
    /// Roles dealt to nobody (secret).
    #[serde(default)]
    pub unused_roles: Vec<Role>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Winner {
    pub player: PlayerId,
    pub role: Role,
    /// `goal` (the role's goal held) or `last-alive`.
    pub how: WinBy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinBy {
    Goal,
    LastAlive,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub seat: u32,
    pub role: Role,
    pub alive: bool,
    /// Left the game (`adjudicate withdraw`, ruling 17): out of it like an executed priest, but
    /// not executed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
    pub marks: u32,
    pub hand: Cards,
    pub oracles: Vec<Oracle>,
    /// This round's plan from the latest version received; none: the rules' default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Orders>,
}

/// One dedication choice: a resource, or refusing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dedicate {
    Wine,
    Gems,
    Gold,
    Refuse,
}

impl Choice for Dedicate {
    const ALL: &'static [Dedicate] = &[
        Dedicate::Wine,
        Dedicate::Gems,
        Dedicate::Gold,
        Dedicate::Refuse,
    ];
    fn name(self) -> &'static str {
        match self {
            Dedicate::Wine => "wine",
            Dedicate::Gems => "gems",
            Dedicate::Gold => "gold",
            Dedicate::Refuse => "refuse",
        }
    }
}

impl Dedicate {
    /// Dedicating `r` (the inverse of `resource`).
    pub fn of(r: Resource) -> Dedicate {
        match r {
            Resource::Wine => Dedicate::Wine,
            Resource::Gems => Dedicate::Gems,
            Resource::Gold => Dedicate::Gold,
        }
    }

    pub fn resource(self) -> Option<Resource> {
        match self {
            Dedicate::Wine => Some(Resource::Wine),
            Dedicate::Gems => Some(Resource::Gems),
            Dedicate::Gold => Some(Resource::Gold),
            Dedicate::Refuse => None,
        }
    }
}

/// An oracle to announce, with its targets (which ones depends on the oracle).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Announcement {
    pub oracle: Oracle,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
}

impl Announcement {
    /// `oracle` with no targets yet.
    pub fn of(oracle: Oracle) -> Announcement {
        Announcement {
            oracle,
            from: None,
            to: None,
            player: None,
        }
    }

    /// The players it names.
    pub fn named(&self) -> impl Iterator<Item = &PlayerId> {
        [&self.from, &self.to, &self.player].into_iter().flatten()
    }
}

/// A dedication as listed: "refuse" or the three resources, each once, fit inline (a longer
/// list, which repeats one, is held too).
pub type Dedication = SmallVec<[Dedicate; 4]>;

/// The oracles a player announces, with their targets (at most two a turn).
pub type Announcements = SmallVec<[Announcement; 2]>;

/// The usable parts of a player's latest version (entries with problems are left out). Held
/// inline up to what a game at its largest table uses (two oracles a turn, refusing the five
/// others), so that a simulated round makes none (issue #30); written as the same lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Orders {
    /// None: the dedication part had problems; a random held resource is dedicated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dedicate: Option<Dedication>,
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub announce: Announcements,
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub refuse: SmallVec<[PlayerId; 5]>,
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub give: ResourceOrder,
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub take: ResourceOrder,
    /// The version had no problems.
    pub valid: bool,
}

impl PlayerState {
    /// The player's latest version had no problems (`Game::has_valid`).
    pub fn has_valid_plan(&self) -> bool {
        self.plan.as_ref().is_some_and(|plan| plan.valid)
    }
}

/// The players' indices in `State::players` in seat order (clockwise from seat 1), and each
/// one's place in that order: what every walk around the table reads, worked out once. Seats
/// tied by a hand edit (which `check` refuses) keep their id order.
pub struct SeatOrder {
    order: Places,
    place: Places,
}

/// Indices of a table's players, held inline (a table seats 4 to 6; every round makes two).
pub type Places = smallvec::SmallVec<[usize; 6]>;

impl SeatOrder {
    pub fn of(players: &Seats<PlayerState>) -> SeatOrder {
        let mut order: Places = (0..players.len()).collect();
        // stable: ties stay in id order
        order.sort_by_key(|&i| players.at(i).seat);
        let mut place: Places = smallvec::smallvec![0; order.len()];
        for (k, &i) in order.iter().enumerate() {
            place[i] = k;
        }
        SeatOrder { order, place }
    }

    /// Every player, seat 1 first.
    pub fn all(&self) -> &[usize] {
        &self.order
    }

    /// The `k`th player clockwise from player `from` (`from` itself at 0).
    pub fn clockwise(&self, from: usize, k: usize) -> usize {
        self.order[(self.place[from] + k) % self.order.len()]
    }

    /// Every player clockwise starting with `from` (the dead included).
    pub fn clockwise_from(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        let (before, from_on) = self.order.split_at(self.place[from]);
        from_on.iter().chain(before).copied()
    }

    /// Who plays first in `state`'s round: the player on its `first` seat, or the next living
    /// one clockwise when that seat's player is out.
    pub fn first_player(&self, state: &State) -> Option<usize> {
        let on_seat = *self.order.get(state.first.checked_sub(1)? as usize)?;
        self.clockwise_from(on_seat)
            .find(|&i| state.players.at(i).alive)
    }
}

/// The ids of `players`, in their order.
fn ids<'s>(players: impl IntoIterator<Item = (&'s PlayerId, &'s PlayerState)>) -> Vec<PlayerId> {
    players.into_iter().map(|(id, _)| id.clone()).collect()
}

impl State {
    /// Player ids in seat order (clockwise from seat 1).
    pub fn seats(&self) -> Vec<PlayerId> {
        ids(self.in_seat_order(|_, _| true))
    }

    /// The players `keep` keeps, with their states, in seat order: no lookup.
    pub fn in_seat_order(
        &self,
        keep: impl Fn(&PlayerId, &PlayerState) -> bool,
    ) -> SmallVec<[(&PlayerId, &PlayerState); 6]> {
        let players = &self.players;
        let order = SeatOrder::of(players);
        let pairs = order.all().iter().map(|&i| (players.id(i), players.at(i)));
        pairs.filter(|(id, p)| keep(id, p)).collect()
    }

    /// Who plays first this round: the player on the `first` seat, or the next living one
    /// clockwise when that seat's player is dead.
    pub fn first_player(&self) -> Option<PlayerId> {
        let first = SeatOrder::of(&self.players).first_player(self)?;
        Some(self.players.id(first).clone())
    }

    pub fn living(&self) -> Vec<PlayerId> {
        ids(self.in_seat_order(|_, p| p.alive))
    }

    /// `living` as the players' indices in `players` (inline: what the simulator's bots ask
    /// every round).
    pub fn living_seats(&self) -> Places {
        let order = SeatOrder::of(&self.players);
        let alive = |i: &usize| self.players.at(*i).alive;
        order.all().iter().copied().filter(alive).collect()
    }

    /// Ruling 17: a seat that leaves is out of the game from the start of the round's turns:
    /// its resources and oracles leave the game, it takes no more turns and orders naming it are
    /// skipped, as for an executed priest; but it is not executed (the Traitor's goal does not
    /// count it, and its role is revealed only with every role at the end). If one priest is
    /// left, they win as the last alive.
    pub fn withdraw(&mut self, id: &PlayerId) -> Result<(), String> {
        let me = crate::games::leaving(&mut self.players, id, self.finished, |p| !p.alive)?;
        if !me.alive {
            return Err(format!(
                "{id} has been executed: they are out of the game already"
            ));
        }
        me.alive = false;
        me.left = true;
        me.plan = None;
        self.removed.add_all(std::mem::take(&mut me.hand));
        self.removed_oracles.append(&mut me.oracles);
        Ok(())
    }

    pub fn is_alive(&self, id: &PlayerId) -> bool {
        self.players.get(id).is_some_and(|p| p.alive)
    }

    /// Whether another priest has been executed: the Traitor's goal (a living Traitor is not
    /// among them; a priest who left was not executed, ruling 17).
    pub fn anyone_executed(&self) -> bool {
        self.players.values().any(|q| !q.alive && !q.left)
    }

    /// Whether a living player's role goal holds now (spec "Role goals"), with `executed`:
    /// `anyone_executed`, which a round's table keeps rather than asks after every step.
    pub fn goal_holds(&self, p: &PlayerState, executed: bool) -> bool {
        match p.role.goal() {
            Goal::Altar(r) => self.altar.get(r) >= self.options.loyal_altar,
            Goal::Hand(r) => p.hand.get(r) >= self.options.selfish_hand,
            Goal::Execution => executed,
        }
    }

    /// Cards of each resource and oracles wherever they are; what `check_state` and the property
    /// tests compare with the 40 / 40 / 40 and 48 of the rules.
    pub fn card_totals(&self) -> (Cards, usize) {
        let mut cards = self.altar;
        cards.add_all(self.removed);
        for r in &self.resource_deck {
            cards.add(*r, 1);
        }
        let mut oracles =
            self.oracle_deck.len() + self.announced.len() + self.removed_oracles.len();
        for p in self.players.values() {
            cards.add_all(p.hand);
            oracles += p.oracles.len();
        }
        (cards, oracles)
    }

    /// The problems a hand edit can make (spec: cards are conserved, marks 0..3, seats 1..n).
    pub fn check(&self) -> Result<(), SetupError> {
        let bad = |key: &str, message: String| {
            Err(SetupError {
                key: key.into(),
                message,
            })
        };
        let (cards, oracles) = self.card_totals();
        for r in Resource::ALL {
            if cards.get(*r) != PER_RESOURCE {
                return bad(
                    "altar",
                    format!(
                        "the game has {PER_RESOURCE} {} cards; deck, hands, altar and removed hold {}",
                        r.name(),
                        cards.get(*r)
                    ),
                );
            }
        }
        if oracles != ORACLES {
            return bad(
                "oracle_deck",
                format!(
                    "the game has {ORACLES} oracles; deck, hands, announced and removed hold {oracles}"
                ),
            );
        }
        let n = self.players.len() as u32;
        let mut seats: Vec<u32> = self.players.values().map(|p| p.seat).collect();
        seats.sort_unstable();
        if seats != (1..=n).collect::<Vec<u32>>() {
            return bad("players", format!("seats must be 1 to {n}, each once"));
        }
        if !(1..=n).contains(&self.first) {
            return bad("first", format!("must be a seat, 1 to {n}"));
        }
        for (id, p) in &self.players {
            let most = if p.alive { EXECUTION - 1 } else { EXECUTION };
            if p.marks > most {
                return bad(
                    &format!("players.{id}.marks"),
                    format!(
                        "a {} player has 0 to {most} Betray Marks, not {}",
                        if p.alive { "living" } else { "dead" },
                        p.marks
                    ),
                );
            }
            if p.oracles.len() > 4 {
                return bad(
                    &format!("players.{id}.oracles"),
                    "a hand holds at most 4 oracles".into(),
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bots::{BotRng, Simulated, Strategy};
    use crate::games::final_ritual::FinalRitual;
    use rand::SeedableRng;

    /// The seat order read by the seats' numbers: a walk from any player meets the seats after
    /// theirs in turn, wrapping round; the first player is the first living one from the `first`
    /// seat on. Checked before every round of 100 simulated games, in which priests are
    /// executed and the first seat moves on.
    #[test]
    fn the_seat_order_walks_the_seats_clockwise() {
        let setting = crate::simulate::plan::test_setting::<FinalRitual>("random", 3);
        let (mut rounds, mut with_dead) = (0, 0);
        for game in 0..100 {
            let seed = crate::simulate::game_seed(setting.seed, game);
            let (mut state, ()) = crate::simulate::start::<FinalRitual>(&setting, seed).unwrap();
            let mut rng = BotRng::seed_from_u64(seed);
            while !state.finished {
                let n = state.players.len() as u32;
                let order = SeatOrder::of(&state.players);
                let seat = |i: usize| state.players.at(i).seat;
                let seats: Vec<u32> = order.all().iter().map(|&i| seat(i)).collect();
                assert_eq!(seats, (1..=n).collect::<Vec<_>>());
                for i in 0..state.players.len() {
                    let walk: Vec<u32> = order.clockwise_from(i).map(seat).collect();
                    let expected: Vec<u32> = (0..n).map(|k| (seat(i) - 1 + k) % n + 1).collect();
                    assert_eq!(walk, expected, "from seat {}", seat(i));
                    for (k, &s) in expected.iter().enumerate() {
                        assert_eq!(seat(order.clockwise(i, k)), s);
                    }
                }
                let first = (0..n).map(|k| (state.first - 1 + k) % n + 1).find_map(|s| {
                    let (id, p) = state.players.iter().find(|(_, p)| p.seat == s)?;
                    p.alive.then(|| id.clone())
                });
                assert_eq!(state.first_player(), first);
                with_dead += usize::from(state.living().len() < state.players.len());
                let bots = vec![Strategy::Random; state.players.len()];
                FinalRitual::play(&mut state, &bots, &mut rng, &mut (), None);
                FinalRitual::advance(&mut state, seed, &mut ());
                rounds += 1;
            }
        }
        assert!(
            rounds > 150 && with_dead > 15,
            "{rounds} rounds, {with_dead} with the dead"
        );
    }
}
