//! The meadow assignment (`meadow-assignment`): after a God Race with at most two winners, "the
//! winners will assign everyone's meadows for Main Match 8" (seed). A season round of one
//! submission: each winner sends `[meadows]`, a meadow for every player; `season match SEASON
//! god-race` then writes them into the next God Race's game.toml. The seed leaves the rules of
//! the assignment to a later episode; our rulings are in `games/meadow-assignment/README.md`.

use crate::doc::{Choice, Doc};
use crate::games::Seats;
use crate::games::ending::Ending;
use crate::games::god_race::gods::God;
use crate::games::picture::Names;
use crate::games::season::{FromSeason, SoFar, id_list};
use crate::games::{
    Archive, Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError,
};
use crate::player_id::PlayerId;
use crate::problem::Problem;
use rand::seq::IndexedRandom;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub struct MeadowAssignment;

pub const KEYS: &[&str] = &["meadows", "token"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Assign,
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub phase: Phase,
    /// The winners who assign (one or two).
    pub assigners: Vec<PlayerId>,
    pub players: Seats<PlayerState>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayerState {
    pub garnets: i64,
    /// An assigner's latest valid assignment.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub assigned: BTreeMap<PlayerId, God>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    assigners: Vec<String>,
}

/// How a player's meadow was settled.
#[derive(Serialize)]
struct Settled {
    meadow: God,
    /// "assigned" (by the only assigner, or both agreed), "coin" (the two differed: a seeded
    /// coin chose between them), or "drawn" (nobody assigned this player).
    how: &'static str,
}

impl Game for MeadowAssignment {
    const ID: GameId = GameId::MeadowAssignment;
    const NAME: &'static str = "meadow-assignment";
    const NEW_TOML: &'static str = new_toml!("meadow-assignment");
    const SAMPLE_PLAYERS: usize = 7;
    const TEMPLATES: &'static [(&'static str, &'static str)] =
        templates!("meadow-assignment": "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    const KEYS: &'static [&'static str] = KEYS;
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        let options: Options = crate::games::options(
            setup,
            "meadow assignment options: assigners, the God Race's winners (one or two)",
        )?;
        let mut assigners = Vec::new();
        for (i, text) in options.assigners.iter().enumerate() {
            let id = PlayerId::parse(text)
                .filter(|id| setup.players.iter().any(|p| p.id == id) && !assigners.contains(id))
                .ok_or_else(|| SetupError {
                    key: format!("options.assigners[{i}]"),
                    message: format!("`{text}` is not a player of this game, or is listed twice"),
                })?;
            assigners.push(id);
        }
        if !(1..=2).contains(&assigners.len()) {
            return Err(SetupError {
                key: "options.assigners".into(),
                message: format!(
                    "one or two winners assign the meadows (seed: \"if there are at most two winners\"); {} given",
                    assigners.len()
                ),
            });
        }
        crate::games::no_game_keys(setup, "a player of the assignment")?;
        Ok(State {
            round: 1,
            phase: Phase::Assign,
            assigners,
            players: setup
                .players
                .iter()
                .map(|p| {
                    (
                        p.id.clone(),
                        PlayerState {
                            garnets: p.garnets,
                            assigned: BTreeMap::new(),
                        },
                    )
                })
                .collect(),
        })
    }

    fn check_state(state: &State) -> Result<(), SetupError> {
        use crate::games::{check_balances, check_refs};
        check_balances(&state.players, |p| p.garnets)?;
        check_refs(&state.players, "assigners", &state.assigners)?;
        for (id, p) in &state.players {
            check_refs(
                &state.players,
                &format!("players.{id}.assigned"),
                p.assigned.keys(),
            )?;
        }
        Ok(())
    }

    fn roster(state: &State) -> Vec<&PlayerId> {
        state.players.keys().collect()
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn rounds_played(state: &State) -> u32 {
        u32::from(state.phase == Phase::Over)
    }

    fn is_over(state: &State) -> bool {
        state.phase == Phase::Over
    }

    fn expected(state: &State) -> Vec<PlayerId> {
        match state.phase {
            Phase::Assign => state.assigners.clone(),
            Phase::Over => Vec::new(),
        }
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state
            .players
            .get(player)
            .is_some_and(|p| !p.assigned.is_empty())
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        if state.assigners.contains(player) {
            if state.assigners.len() == 2 {
                "the other winner's assignment counts alone (or, if neither sends one, meadows are drawn at random)".into()
            } else {
                "meadows are drawn at random".into()
            }
        } else {
            "nothing: only the winners assign".into()
        }
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        let mut out = Outcome::new(detail);
        if state.phase == Phase::Over {
            out.problems.push(Problem::general(
                "the meadows are assigned; no more submissions are read",
            ));
            return out;
        }
        if !state.assigners.contains(player) {
            out.problems.push(Problem::general(format!(
                "only the God Race's winners ({}) assign meadows; you have nothing to send",
                PlayerId::join(&state.assigners)
            )));
            return out;
        }
        out.problems
            .extend(doc.root().unknown_keys(KEYS, "an assignment"));
        let Some(node) = doc.get("meadows") else {
            out.problems.push(Problem::general(
                "[meadows] is missing: give every player a meadow (white, blue, black, red, green)",
            ));
            out.if_not_fixed_in(|| Self::if_not_fixed(state, player));
            return out;
        };
        let table = match node.as_table("meadows") {
            Ok(t) => t,
            Err(p) => {
                out.problems.push(p);
                out.if_not_fixed_in(|| Self::if_not_fixed(state, player));
                return out;
            }
        };
        let mut assigned = BTreeMap::new();
        for (key, entry) in table.entries() {
            let Some(id) = PlayerId::named(key).filter(|id| state.players.contains_key(id)) else {
                out.problems.push(Problem::at(
                    entry.key_pos,
                    format!("meadows: `{key}` is not a player of this season's cast"),
                ));
                continue;
            };
            match entry.value.as_choice::<God>(&format!("meadows.{id}")) {
                Ok(god) => {
                    assigned.insert(id, god);
                }
                Err(p) => out.problems.push(p),
            }
        }
        let missing: Vec<PlayerId> = state
            .players
            .keys()
            .filter(|id| !assigned.contains_key(*id))
            .cloned()
            .collect();
        if !missing.is_empty() && !assigned.is_empty() {
            out.problems.push(Problem::general(format!(
                "no meadow for {}: {}",
                PlayerId::join(&missing),
                if state.assigners.len() == 2 {
                    "the other winner's counts for them, else a random one"
                } else {
                    "a random one will be drawn"
                }
            )));
        }
        if assigned.is_empty() {
            out.if_not_fixed_in(|| Self::if_not_fixed(state, player));
            return out;
        }
        out.valid = true;
        out.understand(|| {
            format!(
                "meadows: {}",
                assigned
                    .iter()
                    .map(|(id, g)| format!("{id} {}", g.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        state
            .players
            .get_mut(player)
            .expect("an assigner is a player")
            .assigned = assigned;
        out
    }

    fn opening(state: &State) -> Option<RoundResult> {
        #[derive(Serialize)]
        struct Opening<'a> {
            round: u32,
            assigners: &'a [PlayerId],
            players: Vec<&'a PlayerId>,
        }
        let private = state
            .players
            .keys()
            .map(|id| {
                let mut t = toml::Table::new();
                let role = if state.assigners.contains(id) {
                    "assigner"
                } else {
                    "player"
                };
                t.insert("role".into(), role.into());
                (id.clone(), crate::games::PrivatePart::typed(t))
            })
            .collect();
        Some(RoundResult::without_garnets(
            &Opening {
                round: 0,
                assigners: &state.assigners,
                players: state.players.keys().collect(),
            },
            private,
        ))
    }

    const SEAT_LEAVES: &'static str = "\
        a meadow assignment is not left: the season records the departure, and the assignment's \
        defaults apply";

    /// Ruling (README, "A seat that leaves"): the assignment is one round; a person who leaves
    /// the season during it is recorded as a season event, and the assignment runs with its
    /// defaults.
    fn withdraw(_: &mut State, _: &PlayerId) -> Result<(), String> {
        Err("a meadow assignment is not left: record the departure with `adjudicate season event` (the assignment's defaults apply)".into())
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        let lists: Vec<&BTreeMap<PlayerId, God>> = state
            .assigners
            .iter()
            .map(|a| &state.players[a].assigned)
            .collect();
        let defaults: Vec<PlayerId> = state
            .assigners
            .iter()
            .filter(|a| state.players[*a].assigned.is_empty())
            .cloned()
            .collect();
        let mut settled: BTreeMap<PlayerId, Settled> = BTreeMap::new();
        for id in state.players.keys() {
            let given: Vec<God> = lists.iter().filter_map(|l| l.get(id).copied()).collect();
            let mut rng = crate::rng::stream(seed, state.round, &format!("meadow-assignment/{id}"));
            let s = match given.as_slice() {
                [one] => Settled {
                    meadow: *one,
                    how: "assigned",
                },
                [a, b] if a == b => Settled {
                    meadow: *a,
                    how: "assigned",
                },
                [_, _] => Settled {
                    meadow: *given.choose(&mut rng).expect("two"),
                    how: "coin",
                },
                _ => Settled {
                    meadow: *God::ALL.choose(&mut rng).expect("five gods"),
                    how: "drawn",
                },
            };
            settled.insert(id.clone(), s);
        }
        #[derive(Serialize)]
        struct Public<'a> {
            round: u32,
            meadows: &'a BTreeMap<PlayerId, Settled>,
            defaults: &'a [PlayerId],
            r#final: Final<'a>,
        }
        #[derive(Serialize)]
        struct Final<'a> {
            meadows: BTreeMap<&'a PlayerId, God>,
        }
        let private = state
            .players
            .keys()
            .map(|id| {
                let mut t = toml::Table::new();
                t.insert("meadow".into(), settled[id].meadow.name().into());
                (id.clone(), crate::games::PrivatePart::typed(t))
            })
            .collect();
        let result = RoundResult::without_garnets(
            &Public {
                round: state.round,
                meadows: &settled,
                defaults: &defaults,
                r#final: Final {
                    meadows: settled.iter().map(|(id, s)| (id, s.meadow)).collect(),
                },
            },
            private,
        );
        let mut next = state.clone();
        next.phase = Phase::Over;
        for p in next.players.values_mut() {
            p.assigned.clear();
        }
        Resolution {
            state: next,
            result,
        }
    }
}

impl Archive for MeadowAssignment {
    /// The meadows the assignment settled, for the next God Race.
    fn ending(publics: &[&toml::Table]) -> Ending {
        Ending {
            meadows: crate::games::ending::finals(publics)
                .last()
                .and_then(|f| f.get("meadows"))
                .and_then(toml::Value::as_table)
                .map(|t| {
                    t.iter()
                        .filter_map(|(id, g)| Some((PlayerId::parse(id)?, g.as_str()?.to_owned())))
                        .collect()
                }),
            ..Ending::default()
        }
    }

    /// A season round has no picture: its announcement says it all.
    fn picture(
        _public: &toml::Table,
        _opening: Option<&toml::Table>,
        _names: &Names,
        _id: &str,
        _title: &str,
    ) -> Option<String> {
        None
    }

    /// The assigners are the winners of the last finished God Race, unless the host named them
    /// (seed: "if there are at most two winners").
    fn season_match(so_far: &SoFar<'_>, options: &toml::Table) -> Result<FromSeason, String> {
        let mut out = FromSeason {
            title: Some("the meadows"),
            ..FromSeason::default()
        };
        if options.contains_key("assigners") {
            return Ok(out);
        }
        let race = so_far
            .last_finished(GameId::GodRace)
            .ok_or("no finished God Race: nobody assigns meadows")?;
        let winners = &race.ending.winners;
        if !(1..=2).contains(&winners.len()) {
            return Err(format!(
                "{} has {} winners; meadows are assigned only after a God Race with one or two (the next God Race draws them)",
                race.folder,
                winners.len()
            ));
        }
        out.options.insert("assigners".into(), id_list(winners));
        Ok(out)
    }
}
