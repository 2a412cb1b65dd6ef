//! Final Ritual (`final-ritual`): 4 to 6 priests with secret roles dedicate resources to an
//! altar, announce oracles that order each other to give, dedicate and take, and collect Betray
//! Marks; the first whose role goal holds completes the final ritual. Played by mail: a round is
//! one turn of every living player, and a submission carries the player's own turn plus standing
//! responses to the others'. Spec: `../shared/spec/final-ritual.md`; our rulings:
//! `games/final-ritual/README.md`.

mod archive;
pub mod bots;
pub mod cards;
pub mod log;
mod receive;
pub mod resolve;
pub mod state;
pub mod turn;
mod version;

use crate::doc::{Choice, Doc};
use crate::games::{Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError};
use crate::player_id::PlayerId;
use cards::{Cards, Oracle, PER_RESOURCE, Resource, Role};
use rand::seq::SliceRandom;
use state::{Options, PlayerState, State};

pub struct FinalRitual;

/// Cards each player is dealt (rules, "Preparation").
const START_RESOURCES: usize = 5;
const START_ORACLES: usize = 2;

impl Game for FinalRitual {
    const ID: GameId = GameId::FinalRitual;
    const NAME: &'static str = "final-ritual";
    const NEW_TOML: &'static str = new_toml!("final-ritual");
    const SAMPLE_PLAYERS: usize = 5;
    const TEMPLATES: &'static [(&'static str, &'static str)] = templates!("final-ritual": "macros.txt.tera", "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    const KEYS: &'static [&'static str] = receive::KEYS;
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        let bad = |key: &str, message: String| SetupError {
            key: key.into(),
            message,
        };
        let options: Options = crate::games::options(
            setup,
            "Final Ritual options: loyal_altar, selfish_hand, traitor, max_rounds, reveal_executed_role",
        )?;
        for (key, value) in [
            ("options.loyal_altar", options.loyal_altar),
            ("options.selfish_hand", options.selfish_hand),
            ("options.max_rounds", options.max_rounds),
        ] {
            if value == 0 {
                return Err(bad(key, "must be at least 1".into()));
            }
        }
        let n = setup.players.len();
        if !(4..=6).contains(&n) {
            return Err(bad(
                "players",
                format!("Final Ritual is for 4 to 6 players; game.toml has {n}"),
            ));
        }
        for (i, p) in setup.players.iter().enumerate() {
            if let Some(key) = p.extra.keys().find(|k| *k != "role") {
                return Err(bad(
                    &format!("players[{i}].{key}"),
                    "unknown key; a Final Ritual player may have `role` (a host who deals by hand)"
                        .into(),
                ));
            }
        }
        let (roles, unused_roles) = deal_roles(setup)?;
        let mut resource_deck: Vec<Resource> = Resource::ALL
            .iter()
            .flat_map(|r| std::iter::repeat_n(*r, PER_RESOURCE as usize))
            .collect();
        resource_deck.shuffle(&mut crate::rng::stream(
            setup.seed,
            0,
            "final-ritual/resources",
        ));
        let mut oracle_deck = Oracle::deck();
        // the piles an oracle goes to, each with room for every oracle: no round grows them
        let piles = || Vec::with_capacity(oracle_deck.len());
        let (announced, removed_oracles) = (piles(), piles());
        oracle_deck.shuffle(&mut crate::rng::stream(
            setup.seed,
            0,
            "final-ritual/oracles",
        ));
        let mut players = std::collections::BTreeMap::new();
        for (i, (p, role)) in setup.players.iter().zip(roles).enumerate() {
            let mut hand = Cards::default();
            for r in resource_deck.drain(..START_RESOURCES) {
                hand.add(r, 1);
            }
            let oracles = oracle_deck.drain(..START_ORACLES).collect();
            let seat = i as u32 + 1;
            players.insert(
                p.id.clone(),
                PlayerState {
                    left: false,
                    seat,
                    role,
                    alive: true,
                    marks: 0,
                    hand,
                    oracles,
                    plan: None,
                },
            );
        }
        // Every player then draws the oracle of their first turn.
        for p in &setup.players {
            let o = oracle_deck.remove(0);
            players.get_mut(p.id).expect("dealt").oracles.push(o);
        }
        Ok(State {
            round: 1,
            first: 1,
            finished: false,
            rounds_played: 0,
            options,
            altar: Cards::default(),
            winner: None,
            players: players.into(),
            resource_deck,
            oracle_deck,
            announced,
            removed: Cards::default(),
            removed_oracles,
            unused_roles,
        })
    }

    fn check_state(state: &State) -> Result<(), SetupError> {
        state.check()
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn rounds_played(state: &State) -> u32 {
        state.rounds_played
    }

    fn is_over(state: &State) -> bool {
        state.finished
    }

    fn roster(state: &State) -> Vec<&PlayerId> {
        state.players.keys().collect()
    }

    fn expected(state: &State) -> Vec<PlayerId> {
        if state.finished {
            Vec::new()
        } else {
            state.living()
        }
    }

    fn plays(state: &State, player: &PlayerId) -> bool {
        !state.finished && state.is_alive(player)
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state
            .players
            .get(player)
            .is_some_and(|p| p.has_valid_plan())
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        if state.players.get(player).is_some_and(|p| p.plan.is_some()) {
            receive::PARTLY.into()
        } else {
            "a random card of your hand is dedicated, you announce nothing (one random oracle if you hold 4), you obey every order, and \"any\" cards are chosen at random".into()
        }
    }

    const SEAT_LEAVES: &'static str = "\
        the priest is out of the game like an executed one (resources and oracles leave the \
        game, no more turns, entries naming them are skipped), but is not executed and their \
        role is not revealed early";

    fn withdraw(state: &mut State, player: &PlayerId) -> Result<(), String> {
        state.withdraw(player)
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        crate::games::version::receive::<FinalRitual>(state, player, doc, detail)
    }

    fn opening(state: &State) -> Option<RoundResult> {
        Some(resolve::opening(state))
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        resolve::resolve(state, seed, Detail::Everything)
    }

    fn resolve_in_place(state: &mut State, seed: u64) -> RoundResult {
        resolve::advance(state, seed, Detail::Everything)
    }
}

/// Roles from game.toml when every player has one (distinct), else shuffled from the seed;
/// returns the roles in seat order and the unused ones.
fn deal_roles(setup: &Setup<'_>) -> Result<(Vec<Role>, Vec<Role>), SetupError> {
    let roles = match crate::games::given::<Role>(setup, "role")? {
        None => {
            let mut deck = Role::ALL.to_vec();
            deck.shuffle(&mut crate::rng::stream(setup.seed, 0, "final-ritual/roles"));
            deck
        }
        Some(mut dealt) => {
            if let Some(i) = (1..dealt.len()).find(|i| dealt[..*i].contains(&dealt[*i])) {
                return Err(SetupError {
                    key: format!("players[{i}].role"),
                    message: format!(
                        "{} is dealt twice; there is one card of each role",
                        dealt[i].name()
                    ),
                });
            }
            let unused: Vec<Role> = Role::ALL
                .iter()
                .copied()
                .filter(|r| !dealt.contains(r))
                .collect();
            dealt.extend(unused);
            dealt
        }
    };
    let n = setup.players.len();
    Ok((roles[..n].to_vec(), roles[n..].to_vec()))
}
