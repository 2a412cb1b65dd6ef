//! Final Ritual bots for `simulate`: a uniformly random legal player (a random dedication order,
//! "refuse" among the four first choices; zero to two random oracles from its hand, at least one
//! when it holds four, with random living targets; each other player's orders refused with
//! probability 1/2; random "any" orders) and `greedy`, who pursues its role's goal: a Loyal X
//! priest feeds X to the altar and orders others to; a Selfish X priest keeps X and pulls cards
//! to its own hand, refusing the most-marked player's orders while it has no mark itself; the
//! Traitor orders the most-marked player to pay. Bots hand their versions to the checks a
//! player's file meets (`version::send`). A bot knows its
//! role, hand and oracles, and what is public: seats, who lives, Betray Marks. Ties between
//! targets are drawn at random, so that no seat is everyone's target by the bot's design.

use super::FinalRitual;
use super::cards::{Effect, Goal, Oracle, Resource, ResourceOrder, Role};
use super::state::{Dedicate, Dedication, PlayerState, State};
use super::version::{Entries, Entry, Names, Resources, Respond, Version};
use crate::player_id::PlayerId;

use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
use crate::games::version::{Given, Name, Seat, send};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use smallvec::SmallVec;

const RESOURCES: [Resource; 3] = [Resource::Wine, Resource::Gems, Resource::Gold];

/// One announcement: the oracle and the targets its kind needs.
fn entry(oracle: Oracle, from: &PlayerId, to: &PlayerId, player: &PlayerId) -> Given<Entry> {
    let name = |id: &PlayerId| Name::Id(id.clone());
    Given::typed(Entry::typed(oracle, name(from), name(to), name(player)))
}

/// The whole submission: `dedicate`, `announce`, and the `[respond]` table.
fn submission(
    dedicate: Dedication,
    announce: Entries,
    refuse: Names,
    give: Resources,
    take: Resources,
) -> Version {
    let respond = Respond {
        unknown: Vec::new(),
        refuse: Some(Given::typed(refuse)),
        give: Some(Given::typed(give)),
        take: Some(Given::typed(take)),
    };
    Version {
        dedicate: Some(Given::typed(dedicate)),
        announce: Some(Given::typed(announce)),
        respond: Some(Given::typed(respond)),
    }
}

/// The random bot of player `at` (their index in `state.players`); `living`: the living players
/// in seat order (`State::living_seats`), the same for every bot of the round.
fn random(state: &State, at: usize, living: &[usize], rng: &mut BotRng) -> Version {
    let p = state.players.at(at);
    let id = |i: usize| state.players.id(i);
    // (the short lists drawn from are shuffled where they are, on the stack)
    let mut order = RESOURCES.map(Dedicate::of);
    order.shuffle(rng);
    let refuses = rng.random_range(0..4) == 0;
    let dedicate = refuses
        .then_some(Dedicate::Refuse)
        .into_iter()
        .chain(order)
        .collect();
    let least = usize::from(p.oracles.len() >= 4);
    let count = rng.random_range(least..=2).min(p.oracles.len());
    let mut hand: SmallVec<[Oracle; 6]> = SmallVec::from_slice(&p.oracles);
    hand.shuffle(rng);
    let announce = hand[..count]
        .iter()
        .map(|o| {
            let from = *living.choose(rng).expect("the announcer lives");
            let others: SmallVec<[usize; 6]> =
                living.iter().copied().filter(|x| *x != from).collect();
            let to = others.choose(rng).copied().unwrap_or(from);
            let player = *living.choose(rng).expect("the announcer lives");
            entry(*o, id(from), id(to), id(player))
        })
        .collect();
    let refuse = Given::each(
        living
            .iter()
            .filter(|x| **x != at && rng.random_bool(0.5))
            .map(|x| Name::Id(id(*x).clone())),
    );
    let (mut give, mut take) = (RESOURCES, RESOURCES);
    give.shuffle(rng);
    take.shuffle(rng);
    submission(
        dedicate,
        announce,
        refuse,
        Given::each(give),
        Given::each(take),
    )
}

/// The greedy bot of player `at` (their index in `state.players`).
fn greedy(state: &State, at: usize, rng: &mut BotRng) -> Version {
    let (me, p) = (state.players.id(at), state.players.at(at));
    // The other living players with their public state (seats, marks), in seat order.
    let others = state.in_seat_order(|id, q| q.alive && id != me);
    if others.is_empty() {
        return Version {
            dedicate: Some(Given::typed(
                RESOURCES.map(Dedicate::of).into_iter().collect(),
            )),
            ..Version::default()
        };
    }
    let seats = state.players.len() as u32;
    let mut after = others.clone();
    after.sort_by_key(|(_, q)| (q.seat + seats - p.seat) % seats);
    // The most-marked player, ties drawn at random (not by seat: that would make one seat
    // everyone's target and show up as a seat effect of the game).
    let most = others.iter().map(|(_, q)| q.marks).max().unwrap_or(0);
    let tied: SmallVec<[&(&PlayerId, &PlayerState); 6]> =
        others.iter().filter(|(_, q)| q.marks == most).collect();
    let (victim, victim_state) = **tied.choose(rng).expect("someone else lives");
    let next = after[0].0;
    let mine = match p.role.goal() {
        Goal::Altar(r) | Goal::Hand(r) => Some(r),
        Goal::Execution => None,
    };
    // The resources, the bot's own first or last, the others in their order.
    let with = |first: bool| -> ResourceOrder {
        let (lead, tail) = if first { (mine, None) } else { (None, mine) };
        lead.into_iter()
            .chain(RESOURCES.into_iter().filter(|r| Some(*r) != mine))
            .chain(tail)
            .collect()
    };
    let (dedicate, give, take, refuse) = match p.role.goal() {
        Goal::Altar(_) => (with(true), with(false), with(false), None),
        Goal::Hand(_) => {
            let refuse = (p.marks == 0 && victim_state.marks > 0).then(|| victim.clone());
            (with(false), with(false), with(true), refuse)
        }
        Goal::Execution => (with(true), with(true), with(true), None),
    };
    let last = after[after.len() - 1].0;
    let wanted = announcements(p, me, Aims { next, victim, last }, mine);
    let dedicate = dedicate.into_iter().map(Dedicate::of).collect();
    let refuse = Given::each(refuse.map(Name::Id));
    let (give, take) = (Given::each(give), Given::each(take));
    submission(dedicate, wanted, refuse, give, take)
}

/// Whom the greedy bot's oracles aim at: the next living player in seat order, the most-marked
/// other player, and the last one before the bot's own seat.
struct Aims<'a> {
    next: &'a PlayerId,
    victim: &'a PlayerId,
    last: &'a PlayerId,
}

/// The oracles the greedy bot announces (at most two that serve its goal; one of a full hand of
/// four, the least harmful, when none does).
fn announcements(
    p: &super::state::PlayerState,
    me: &PlayerId,
    aims: Aims<'_>,
    mine: Option<Resource>,
) -> Entries {
    let selfish = matches!(p.role.goal(), Goal::Hand(_));
    let loyal = matches!(p.role.goal(), Goal::Altar(_));
    let traitor = p.role == Role::Traitor;
    let mut wanted = Entries::new();
    for oracle in &p.oracles {
        let fits = match oracle.effect() {
            Effect::Forgive => p.marks > 0,
            Effect::Take(_) => true,
            Effect::Give(_, r) => traitor || r.is_none() || r == mine,
            Effect::AllGive => selfish,
            Effect::Dedicate(r) => traitor || (loyal && Some(r) == mine),
            Effect::AllDedicate => loyal,
            Effect::AllTake => selfish,
        };
        if !fits || wanted.len() >= 2 {
            continue;
        }
        let chosen = match oracle.effect() {
            // The Traitor makes the most-marked player give what they may not have.
            Effect::Give(..) if traitor => {
                let to = if aims.next != aims.victim {
                    aims.next
                } else {
                    aims.last
                };
                entry(*oracle, aims.victim, to, me)
            }
            Effect::Give(..) => entry(*oracle, aims.next, me, me),
            Effect::Dedicate(_) => entry(*oracle, me, me, aims.victim),
            _ => entry(*oracle, me, me, me),
        };
        wanted.push(chosen);
    }
    if wanted.is_empty() && p.oracles.len() >= 4 {
        // A hand of four must announce one: the least harmful, aimed at the next player.
        wanted.push(entry(p.oracles[0], aims.next, me, aims.next));
    }
    wanted
}

impl Simulated for FinalRitual {
    const STRATEGY: &'static str = "greedy";
    const STRATEGY_ABOUT: &'static str = "pursues its role's goal: Loyal feeds its resource to the altar and orders others to, Selfish keeps and pulls its resource (refusing the most-marked player while unmarked), the Traitor orders the most-marked player to pay";
    const GROUP: &'static str = "role";
    const GROUPS: &'static [&'static str] = &["loyal", "selfish", "traitor"];
    const DEFAULT_PLAYERS: usize = 6;
    const POINTS: &'static str = "";
    const STAKES: bool = false;
    type Memory = ();
    type Heard = ();

    fn resolve_heard(state: &mut State, seed: u64) -> Option<()> {
        super::resolve::advance(state, seed, crate::games::Detail::State);
        None
    }

    /// The living (whom `expected` lists) without a valid plan, in one pass over the seats.
    fn defaulted(state: &State) -> u64 {
        if state.finished {
            return 0;
        }
        let seats = state.players.values();
        seats.filter(|p| p.alive && !p.has_valid_plan()).count() as u64
    }

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        _: &mut (),
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        if state.finished {
            return 0;
        }
        // a version changes only its sender's plan: who lives is the same for every bot
        let living = state.living_seats();
        for (i, bot) in bots.iter().enumerate().take(state.players.len()) {
            if !state.players.at(i).alive {
                continue;
            }
            let id = state.players.id(i).clone();
            let version = match bot {
                Strategy::Random => random(state, i, &living, rng),
                Strategy::Smart => greedy(state, i, rng),
            };
            send::<FinalRitual>(state, Seat { id: &id, at: i }, version, &mut record);
        }
        living.len() as u64
    }

    fn garnets(state: &State) -> Vec<i64> {
        vec![0; state.players.len()]
    }

    fn tally(_: &[i64], state: &State, _: &()) -> Vec<End> {
        state
            .players
            .iter()
            .map(|(id, p)| End {
                group: Some(match p.role.goal() {
                    Goal::Altar(_) => 0,
                    Goal::Hand(_) => 1,
                    Goal::Execution => 2,
                }),
                won: state.winner.as_ref().is_some_and(|w| &w.player == id),
                elimination: false,
                tokens: 0,
                points: 0,
                garnets: 0,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Choice;
    use crate::games::Game;
    use rand::SeedableRng;

    /// `state` with everything `me` cannot know redrawn: the other players' roles, oracles and
    /// the make-up of their hands (not their sizes, which are public), the altar's make-up (not
    /// its size), the decks.
    fn scrambled(state: &State, me: &PlayerId, rng: &mut BotRng) -> State {
        let mut s = state.clone();
        let redraw = |total: u32, rng: &mut BotRng| {
            let mut cards = super::super::cards::Cards::default();
            for _ in 0..total {
                cards.add(RESOURCES[rng.random_range(0..3usize)], 1);
            }
            cards
        };
        for (_, p) in s.players.iter_mut().filter(|(id, _)| *id != me) {
            p.role = *<Role as Choice>::ALL.choose(rng).expect("seven roles");
            p.hand = redraw(p.hand.total(), rng);
            for o in p.oracles.iter_mut() {
                *o = *<Oracle as Choice>::ALL.choose(rng).expect("oracles");
            }
        }
        s.altar = redraw(s.altar.total(), rng);
        s.resource_deck.shuffle(rng);
        s.oracle_deck.shuffle(rng);
        s
    }

    /// Issue #30: the simulator allocates nothing per round in steady state. A Final Ritual
    /// is short (one to a handful of rounds), so every round counts, its first and its last
    /// too: counted by the test build's allocator on this thread over 40 games of both bots
    /// (versions, orders and seat lists inline; the oracle piles sized at set-up).
    #[test]
    fn a_simulated_round_allocates_nothing() {
        let s = crate::simulate::plan::test_setting::<FinalRitual>("random=3,greedy=3", 5);
        let every = |rounds: usize| 0..rounds;
        let rounds =
            crate::simulate::assert_steady_rounds_allocate_nothing::<FinalRitual>(&s, 40, every);
        assert!(rounds >= 60, "{rounds}");
    }

    /// Whatever is hidden from a player, the bots write the same submission for them: a bot sees
    /// its own role, hand and oracles and the public table, nothing else. Checked for every
    /// living player before every round of 30 simulated games, both bots, three redraws each.
    #[test]
    fn what_a_player_cannot_see_does_not_change_what_their_bot_sends() {
        let setting = crate::simulate::plan::test_setting::<FinalRitual>("random=3,greedy", 4);
        let mut checked = 0;
        let mut scramble_rng = BotRng::seed_from_u64(9);
        for game in 0..30 {
            let seed = crate::simulate::game_seed(setting.seed, game);
            let (mut state, _) = crate::simulate::start::<FinalRitual>(&setting, seed).unwrap();
            let mut rng = BotRng::seed_from_u64(seed);
            while !state.finished {
                for id in state.living() {
                    // (a scrambled state seats everyone where they were)
                    let seat = state.players.index_of(&id).expect("a player");
                    for _ in 0..3 {
                        let other = scrambled(&state, &id, &mut scramble_rng);
                        assert_ne!(other, state);
                        let at = rng.clone();
                        let (mut a, mut b) = (at.clone(), at.clone());
                        let living = state.living_seats();
                        assert_eq!(
                            random(&state, seat, &living, &mut a),
                            random(&other, seat, &living, &mut b)
                        );
                        let (mut a, mut b) = (at.clone(), at);
                        assert_eq!(greedy(&state, seat, &mut a), greedy(&other, seat, &mut b));
                        checked += 1;
                    }
                }
                let bots = [Strategy::Random, Strategy::Smart].repeat(3);
                FinalRitual::play(&mut state, &bots, &mut rng, &mut (), None);
                state = FinalRitual::resolve(&state, seed).state;
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
