//! God Race (`god-race`): players support two gods with secret scoring orbs, then push the gods
//! along a 14-space track with orbs drawn from a shared box, placed in three ceremonies, and
//! candles that trigger the gods' abilities. Spec: `../shared/spec/god-race.md`; our rulings:
//! `games/god-race/README.md`.

mod archive;
pub mod bots;
pub mod gods;
pub mod race;
mod receive;
mod report;
pub mod resolve;
pub mod standings;
pub mod state;
mod version;

use crate::doc::{Choice, Doc};
use crate::games::{Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError};
use crate::player_id::PlayerId;
use gods::God;
use rand::seq::IndexedRandom;
use state::{Options, PlayerState, State};
use std::collections::BTreeMap;

pub struct GodRace;

pub const MAX_PLAYERS: usize = 100_000;

impl Game for GodRace {
    const ID: GameId = GameId::GodRace;
    const NAME: &'static str = "god-race";
    const NEW_TOML: &'static str = new_toml!("god-race");
    const SAMPLE_PLAYERS: usize = 7;
    const TEMPLATES: &'static [(&'static str, &'static str)] =
        templates!("god-race": "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    const KEYS: &'static [&'static str] = receive::KEYS;
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        let bad = |key: String, message: String| SetupError { key, message };
        let options: Options =
            crate::games::options(setup, "God Race options: spaces, max_rounds")?;
        if options.spaces < 4 {
            return Err(bad("options.spaces".into(), "must be at least 4".into()));
        }
        // ruling 15: the rules are written for about 7 players and work for any number; the
        // limit only keeps a typo from making a million-player game.
        if !(2..=MAX_PLAYERS).contains(&setup.players.len()) {
            return Err(bad(
                "players".into(),
                format!(
                    "God Race takes 2 to {MAX_PLAYERS} players; game.toml has {}",
                    setup.players.len()
                ),
            ));
        }
        let mut players = BTreeMap::new();
        for (i, p) in setup.players.iter().enumerate() {
            if let Some(key) = p.extra.keys().find(|k| *k != "meadow") {
                return Err(bad(
                    format!("players[{i}].{key}"),
                    "unknown key; a God Race player may have `meadow`".into(),
                ));
            }
            let meadow = match p.extra.get("meadow") {
                Some(v) => v.as_str().and_then(God::parse).ok_or_else(|| {
                    bad(
                        format!("players[{i}].meadow"),
                        format!("must be one of {}", God::all_names().join(", ")),
                    )
                })?,
                // ruling 12: no meadow given: a seeded random colour
                None => {
                    let purpose = ["god-race/start-meadow/", p.id.as_str()];
                    let mut stream = crate::rng::stream_of(setup.seed, 0, &purpose);
                    *God::ALL.choose(&mut stream).expect("five colours")
                }
            };
            players.insert(
                p.id.clone(),
                PlayerState {
                    left: false,
                    meadow,
                    support: Vec::new(),
                    candles: Vec::new(),
                    garnets: p.garnets,
                    hand: Vec::new(),
                    meadow_orb: None,
                    live: Default::default(),
                },
            );
        }
        Ok(State {
            round: 0,
            finished: false,
            rounds_played: 0,
            gods: God::ALL.iter().map(|g| (*g, 1)).collect(),
            options,
            // (room for the three finishers from the start: a simulated game's rounds allocate
            // nothing, issue #30)
            podium: Vec::with_capacity(3),
            orb_box: Default::default(),
            discarded: 0,
            players: players.into(),
        })
    }

    /// The spec's `check`: orbs are conserved (box + drawn + discarded = 3n + 5), the gods are on
    /// the track or the podium, once each.
    fn check_state(state: &State) -> Result<(), SetupError> {
        let bad = |key: &str, message: String| {
            Err(SetupError {
                key: key.into(),
                message,
            })
        };
        crate::games::check_balances(&state.players, |p| p.garnets)?;
        for (id, p) in &state.players {
            let gifts = p.live.candles.iter().flat_map(|c| &c.give).map(|g| &g.to);
            crate::games::check_refs(
                &state.players,
                &format!("players.{id}.live.candles.give"),
                gifts,
            )?;
        }
        let expected = 3 * state.players.len() as u32 + 5;
        let in_play = resolve::orbs_in_play(state);
        if state.round >= 1 && !state.finished && in_play != expected {
            return bad(
                "box",
                format!(
                    "box + drawn orbs + discarded = {in_play}, not 3 x {} players + 5 = {expected}",
                    state.players.len()
                ),
            );
        }
        if let Some((g, s)) = state
            .gods
            .iter()
            .find(|(_, s)| **s < 1 || **s >= state.options.spaces)
        {
            return bad(
                "gods",
                format!(
                    "{} is on space {s}; racing gods are on 1 to {}",
                    g.name(),
                    state.options.spaces - 1
                ),
            );
        }
        let mut seen: Vec<God> = state.podium.clone();
        seen.extend(state.gods.keys());
        seen.sort();
        if seen != God::ALL {
            return bad(
                "podium",
                "every god must be either racing ([gods]) or on the podium, once".into(),
            );
        }
        Ok(())
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
            let playing = state.players.iter().filter(|(_, p)| !p.left);
            playing.map(|(id, _)| id.clone()).collect()
        }
    }

    fn plays(state: &State, player: &PlayerId) -> bool {
        !state.finished && state.players.get(player).is_some_and(|p| !p.left)
    }

    const SEAT_LEAVES: &'static str = "\
        its god places no orbs and lights, buys and gives no candles, and stays in its meadow; \
        at the end its score is announced, but it is neither a winner nor an Elimination \
        Candidate";

    fn withdraw(state: &mut State, player: &PlayerId) -> Result<(), String> {
        state.withdraw(player)
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state.players.contains_key(player) && receive::required_on_file(state, player)
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        receive::if_not_fixed(state, player)
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        crate::games::version::receive::<GodRace>(state, player, doc, detail)
    }

    /// The private report needs the round, the podium and the gods' points, not every player's
    /// meadow, score or scoring orbs (each player's own are in their private part).
    fn opening(state: &State) -> Option<crate::games::RoundResult> {
        Some(resolve::opening(state))
    }

    fn private_view(public: &toml::Table) -> toml::Table {
        let mut view: toml::Table = [
            "round",
            "next_round",
            "podium",
            "places",
            "rituals",
            "phase",
            "goal",
        ]
        .iter()
        .filter_map(|k| public.get(*k).map(|v| (k.to_string(), v.clone())))
        .collect();
        if let Some(points) = public.get("final").and_then(|f| f.get("god_points")) {
            let mut fin = toml::Table::new();
            fin.insert("god_points".into(), points.clone());
            view.insert("final".into(), toml::Value::Table(fin));
        }
        view
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        let mut next = state.clone();
        let result = resolve::resolve(&mut next, seed);
        Resolution {
            state: next,
            result,
        }
    }

    fn resolve_in_place(state: &mut State, seed: u64) -> RoundResult {
        resolve::resolve(state, seed)
    }
}
