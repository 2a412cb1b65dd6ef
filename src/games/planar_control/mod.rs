//! Planar Control (`planar-control`): fifteen mages of three alignments vote each other off two
//! large planes, with garnet-weighted votes and private divinations on the small planes; control
//! of the large planes after six rounds decides the winning alignment, whose members then vote the
//! Elimination Candidates. Spec: `../shared/spec/planar-control.md`; our rulings:
//! `games/planar-control/README.md`.

mod archive;
pub mod bots;
mod receive;
pub mod resolve;
pub mod state;
mod version;

use crate::doc::{Choice, Doc};
use crate::games::{Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError};
use crate::player_id::PlayerId;
use rand::seq::SliceRandom;
use state::{Alignment, Options, Phase, Plane, PlayerState, State};

pub struct PlanarControl;

impl Game for PlanarControl {
    const ID: GameId = GameId::PlanarControl;
    const NAME: &'static str = "planar-control";
    const NEW_TOML: &'static str = new_toml!("planar-control");
    const SAMPLE_PLAYERS: usize = 15;
    const TEMPLATES: &'static [(&'static str, &'static str)] =
        templates!("planar-control": "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    const KEYS: &'static [&'static str] = &["vote", "garnets", "divine", "eliminate", "token"];
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        let bad = |key: String, message: String| SetupError { key, message };
        let options: Options = crate::games::options(
            setup,
            "Planar Control options: rounds, reveal_initial_control, planes",
        )?;
        let n = setup.players.len();
        if n < 6 || !n.is_multiple_of(3) {
            return Err(bad(
                "players".into(),
                format!(
                    "Planar Control needs a multiple of 3 players, at least 6; game.toml has {n}"
                ),
            ));
        }
        if options.rounds == 0 {
            return Err(bad("options.rounds".into(), "must be at least 1".into()));
        }
        let sizes: usize = options.planes.values().sum();
        if sizes != n || Plane::ALL.iter().any(|p| !options.planes.contains_key(p)) {
            return Err(bad(
                "options.planes".into(),
                format!(
                    "the four plane sizes (earth, limbo, thera, mobil) must add up to the {n} players; they add up to {sizes}"
                ),
            ));
        }
        for (i, p) in setup.players.iter().enumerate() {
            if let Some(key) = p.extra.keys().find(|k| *k != "alignment" && *k != "plane") {
                return Err(bad(
                    format!("players[{i}].{key}"),
                    "unknown key; a Planar Control player may have `alignment` and `plane`".into(),
                ));
            }
        }
        let (alignments, planes) = deal(setup, &options)?;
        Ok(State {
            round: 1,
            phase: Phase::Main,
            rounds_played: 0,
            players: setup
                .players
                .iter()
                .zip(alignments.into_iter().zip(planes))
                .map(|(p, (alignment, plane))| {
                    (
                        p.id.clone(),
                        PlayerState {
                            left: false,
                            alignment,
                            plane,
                            garnets: p.garnets,
                            token: false,
                            live: Default::default(),
                        },
                    )
                })
                .collect(),
            options,
            winner: None,
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

    /// Balances in range, a plan's cost within its balance, every player it names a player.
    fn check_state(state: &State) -> Result<(), SetupError> {
        use crate::games::{check_balances, check_refs};
        let players = &state.players;
        check_balances(players, |p| p.garnets)?;
        for (id, p) in players {
            let key = format!("players.{id}.live");
            let live = &p.live;
            check_refs(players, &format!("{key}.vote"), &live.vote)?;
            check_refs(
                players,
                &format!("{key}.divine"),
                live.divine.iter().flatten(),
            )?;
            check_refs(
                players,
                &format!("{key}.eliminate"),
                live.eliminate.values(),
            )?;
            if !(0..=p.garnets).contains(&live.spend) {
                return Err(SetupError {
                    key: format!("{key}.spend"),
                    message: format!(
                        "is {}; a vote spends from 0 to the player's {} garnets",
                        live.spend, p.garnets
                    ),
                });
            }
        }
        Ok(())
    }

    fn roster(state: &State) -> Vec<&PlayerId> {
        state.players.keys().collect()
    }

    fn expected(state: &State) -> Vec<PlayerId> {
        state
            .players
            .iter()
            .filter(|(_, p)| state.plays(p))
            .map(|(id, _)| id.clone())
            .collect()
    }

    fn plays(state: &State, player: &PlayerId) -> bool {
        state.players.get(player).is_some_and(|p| state.plays(p))
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state.players.get(player).is_some_and(|p| p.live.submitted)
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        match (state.phase, state.players.get(player).map(|p| p.plane)) {
            (Phase::Elimination, _) => {
                "your vote does not count for the alignments left out".into()
            }
            (_, Some(plane)) if plane.is_large() => "you abstain".into(),
            _ => "you divine nobody".into(),
        }
    }

    const SEAT_LEAVES: &'static str = "\
        it leaves the planes: it counts for no plane's control and cannot be banished, votes \
        cast for it count as abstentions, and its own vote, garnets and divination of this round \
        do not count";

    fn withdraw(state: &mut State, player: &PlayerId) -> Result<(), String> {
        state.withdraw(player)
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        crate::games::version::receive::<PlanarControl>(state, player, doc, detail)
    }

    fn opening(state: &State) -> Option<RoundResult> {
        Some(resolve::opening(state))
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        resolve::resolve(state, seed)
    }
}

/// Every player's alignment and plane: game.toml's, when every player has one (as many of
/// each alignment, as many on each plane as `[options] planes` says), else dealt from the seed.
fn deal(setup: &Setup<'_>, options: &Options) -> Result<(Vec<Alignment>, Vec<Plane>), SetupError> {
    let bad = |key: String, message: String| SetupError { key, message };
    let n = setup.players.len();
    let alignments = crate::games::given::<Alignment>(setup, "alignment")?.unwrap_or_else(|| {
        let mut deck: Vec<Alignment> = (0..n).map(|i| Alignment::ALL[i % 3]).collect();
        deck.shuffle(&mut crate::rng::stream(
            setup.seed,
            0,
            "planar-control/alignments",
        ));
        deck
    });
    for a in Alignment::ALL {
        if alignments.iter().filter(|x| *x == a).count() != n / 3 {
            return Err(bad(
                "players".into(),
                format!(
                    "alignments given by hand must be equal in number: {} {} of {n}",
                    alignments.iter().filter(|x| *x == a).count(),
                    a.name()
                ),
            ));
        }
    }
    let planes = crate::games::given::<Plane>(setup, "plane")?.unwrap_or_else(|| {
        let mut deck: Vec<Plane> = options
            .planes
            .iter()
            .flat_map(|(p, k)| std::iter::repeat_n(*p, *k))
            .collect();
        deck.shuffle(&mut crate::rng::stream(
            setup.seed,
            0,
            "planar-control/planes",
        ));
        deck
    });
    for plane in Plane::ALL {
        let k = planes.iter().filter(|p| *p == plane).count();
        if k != options.planes[plane] {
            return Err(bad(
                "players".into(),
                format!(
                    "planes given by hand: {k} on {}, options.planes says {}",
                    plane.name(),
                    options.planes[plane]
                ),
            ));
        }
    }
    Ok((alignments, planes))
}
