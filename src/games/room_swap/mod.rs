//! Room Swap (`room-swap`): six players choose among three rooms for four rounds; only the sizes of
//! the rooms score. Peek and Block are instant actions paid in garnets. The spec is
//! `../shared/spec/room-swap.md`; our rulings are numbered in `games/room-swap/README.md`.

mod archive;
pub mod bots;
mod receive;
mod resolve;
pub mod rooms;
pub mod state;
mod version;

use crate::doc::Doc;
use crate::games::{Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError};
use crate::player_id::PlayerId;
use state::{Options, Phase, PlayerState, State};

pub const PLAYERS: usize = 6;

pub struct RoomSwap;

impl Game for RoomSwap {
    const ID: GameId = GameId::RoomSwap;
    const NAME: &'static str = "room-swap";
    const NEW_TOML: &'static str = new_toml!("room-swap");
    const SAMPLE_PLAYERS: usize = 6;
    const TEMPLATES: &'static [(&'static str, &'static str)] =
        templates!("room-swap": "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    // ruling 7: a Block forbids the target's chosen room (without a fallback, it is unset)
    const VALID_STAYS: bool = false;
    const KEYS: &'static [&'static str] = receive::KEYS;
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        let options: Options =
            crate::games::options(setup, "Room Swap options: rounds, peek_cost, block_cost")?;
        let bad = |key: &str, message: String| SetupError {
            key: key.into(),
            message,
        };
        if options.rounds == 0 {
            return Err(bad("options.rounds", "must be at least 1".into()));
        }
        if options.peek_cost < 0 || options.block_cost < 0 {
            return Err(bad(
                "options",
                "peek_cost and block_cost must not be negative".into(),
            ));
        }
        if setup.players.len() != PLAYERS {
            return Err(bad(
                "players",
                format!(
                    "Room Swap is played by exactly {PLAYERS} players; game.toml has {}",
                    setup.players.len()
                ),
            ));
        }
        crate::games::no_game_keys(setup, "a Room Swap player")?;
        Ok(State {
            round: 1,
            phase: Phase::Main,
            rounds_played: 0,
            options,
            players: setup
                .players
                .iter()
                .map(|p| {
                    (
                        p.id.clone(),
                        PlayerState {
                            garnets: p.garnets,
                            carried_tokens: p.tokens_of_life,
                            ..PlayerState::default()
                        },
                    )
                })
                .collect(),
            contenders: Vec::new(),
            token_giver: None,
            outcome: None,
        })
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn rounds_played(state: &State) -> u32 {
        state.rounds_played
    }

    fn is_over(state: &State) -> bool {
        state.phase == Phase::Over
    }

    /// Balances in range, and every player the state names is a player of the game.
    fn check_state(state: &State) -> Result<(), SetupError> {
        use crate::games::{check_balances, check_refs};
        let players = &state.players;
        check_balances(players, |p| p.garnets)?;
        check_refs(players, "contenders", &state.contenders)?;
        check_refs(players, "token_giver", &state.token_giver)?;
        if let Some(o) = &state.outcome {
            check_refs(players, "outcome.winners", &o.winners)?;
            check_refs(players, "outcome.elimination", &o.elimination)?;
        }
        for (id, p) in players {
            let key = format!("players.{id}.live");
            check_refs(players, &format!("{key}.peeked"), &p.live.peeked)?;
            check_refs(
                players,
                &format!("{key}.blocked"),
                p.live.blocked.iter().map(|b| &b.player),
            )?;
            check_refs(players, &format!("{key}.give_token"), &p.live.give_token)?;
        }
        Ok(())
    }

    fn roster(state: &State) -> Vec<&PlayerId> {
        state.players.keys().collect()
    }

    fn expected(state: &State) -> Vec<PlayerId> {
        state.playing()
    }

    fn plays(state: &State, player: &PlayerId) -> bool {
        state.is_playing(player)
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state
            .players
            .get(player)
            .is_some_and(|p| state.has_choice(p))
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        let live = state.players.get(player).map(|p| &p.live);
        match (
            state.phase,
            live.and_then(|l| l.room),
            live.and_then(|l| l.give_token.clone()),
        ) {
            (Phase::Token, _, Some(to)) => format!("your earlier choice (a Token for {to}) stands"),
            (Phase::Token, _, None) => "no Token will be given".into(),
            (_, Some(room), _) => {
                format!("your earlier valid choice, the {}, stands", room.title())
            }
            (_, None, _) => receive::default_text(state, player),
        }
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        crate::games::version::receive::<RoomSwap>(state, player, doc, detail)
    }

    fn opening(state: &State) -> Option<crate::games::RoundResult> {
        Some(resolve::opening(state))
    }

    const SEAT_LEAVES: &'static str = "\
        the seat stays in the rooms as an empty chair whose room is drawn each round like a \
        default; it scores nothing, its points drop to 0, it cannot be named by a Peek or a \
        Block, and it gives no Token";

    fn withdraw(state: &mut State, player: &PlayerId) -> Result<(), String> {
        state.withdraw(player)
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        resolve::resolve(state, seed)
    }

    fn resolve_in_place(state: &mut State, seed: u64) -> RoundResult {
        resolve::advance(state, seed, Detail::Everything)
    }
}
