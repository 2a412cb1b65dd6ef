//! Properties of the Room Swap engine over many seeded random rounds (a seeded loop rather than a
//! shrinking framework: every failure names its seed, so it can be replayed as a rule case).

use adjudicate::config::PlayerConfig;
use adjudicate::doc::Doc;
use adjudicate::games::room_swap::RoomSwap;
use adjudicate::games::room_swap::state::{Phase, State};
use adjudicate::games::{Game, Setup};
use adjudicate::player_id::PlayerId;
use rand::RngExt;
use rand::seq::IndexedRandom;

const IDS: [&str; 6] = ["a", "b", "c", "d", "e", "f"];
const ROOMS: [&str; 4] = ["attic", "basement", "cellar", "garden"];

fn new_game(seed: u64) -> State {
    let players: Vec<PlayerConfig> = IDS
        .iter()
        .enumerate()
        .map(|(i, id)| PlayerConfig {
            id: PlayerId::parse(id).unwrap(),
            name: id.to_string(),
            email: None,
            chat: None,
            garnets: (seed as i64 + i as i64) % 9,
            extra: toml::Table::new(),
        })
        .collect();
    RoomSwap::setup(&Setup {
        players: &players,
        options: &toml::Table::new(),
        seed,
    })
    .unwrap()
}

/// A random version: sometimes invalid, often with items aimed at anyone.
fn random_submission(rng: &mut impl rand::Rng) -> String {
    let mut text = format!("room = \"{}\"\n", ROOMS.choose(rng).unwrap());
    if rng.random_bool(0.3) {
        text.push_str(&format!("fallback = \"{}\"\n", ROOMS.choose(rng).unwrap()));
    }
    match rng.random_range(0..6) {
        0 => text.push_str(&format!(
            "peek = [\"{}\", \"{}\"]\n",
            IDS.choose(rng).unwrap(),
            IDS.choose(rng).unwrap()
        )),
        1 => text.push_str(&format!(
            "block = {{ player = \"{}\", room = \"{}\" }}\n",
            IDS.choose(rng).unwrap(),
            ROOMS.choose(rng).unwrap()
        )),
        2 if rng.random_bool(0.3) => {
            text = format!("give_token = \"{}\"\n", IDS.choose(rng).unwrap())
        }
        _ => {}
    }
    text
}

/// Plays one random game to its end; checks the invariants after every step.
fn play(seed: u64) -> Result<u32, String> {
    let mut rng = adjudicate::rng::stream(seed, 0, "properties");
    let mut state = new_game(seed);
    for _ in 0..40 {
        if state.phase == Phase::Over {
            return Ok(state.round);
        }
        for _ in 0..rng.random_range(0..14) {
            let player = PlayerId::parse(IDS.choose(&mut rng).unwrap()).unwrap();
            let doc = Doc::parse(&random_submission(&mut rng)).unwrap();
            let outcome = RoomSwap::receive(&mut state, &player, &doc);
            if outcome.valid && !RoomSwap::has_valid(&state, &player) {
                return Err(format!(
                    "seed {seed}: a valid version left {player} without a choice"
                ));
            }
            if let Some(p) = state.players.values().find(|p| p.garnets < 0) {
                return Err(format!("seed {seed}: negative garnets {p:?}"));
            }
            for (id, p) in &state.players {
                if p.live.room.is_some_and(|r| p.live.forbidden.contains(&r)) {
                    return Err(format!("seed {seed}: {id} holds a forbidden room"));
                }
                if p.live.forbidden.len() >= 3 {
                    return Err(format!("seed {seed}: {id} has no room left"));
                }
            }
        }
        let before = state.clone();
        let resolution = RoomSwap::resolve(&state, seed);
        let again = RoomSwap::resolve(&before, seed);
        if again.result != resolution.result || again.state != resolution.state {
            return Err(format!(
                "seed {seed}: resolving the same state twice differs"
            ));
        }
        for (id, p) in &resolution.result.private {
            let room = p.get("room").and_then(|r| r.as_str());
            let forbidden = &before.players[id].live.forbidden;
            if let Some(room) = room
                && forbidden
                    .iter()
                    .any(|f| format!("{f:?}").eq_ignore_ascii_case(room))
            {
                return Err(format!("seed {seed}: {id} was put in the forbidden {room}"));
            }
        }
        if before.phase == Phase::Main {
            let gained: u32 = IDS
                .iter()
                .map(|id| {
                    let id = PlayerId::parse(id).unwrap();
                    resolution.state.players[&id].points - before.players[&id].points
                })
                .sum();
            let scorers = resolution.result.public["scorers"].as_integer().unwrap() as u32;
            if gained != scorers || ![0, 1, 2, 3, 4, 6].contains(&scorers) {
                return Err(format!(
                    "seed {seed}: {scorers} announced scorers, {gained} points gained"
                ));
            }
        }
        state = resolution.state;
    }
    Err(format!(
        "seed {seed}: the game did not end within 40 rounds"
    ))
}

#[test]
fn random_games_keep_the_invariants_and_end() {
    let mut longest = 0;
    for seed in 0..400 {
        match play(seed) {
            Ok(rounds) => longest = longest.max(rounds),
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        longest > 4,
        "no random game needed extra rounds (longest {longest})"
    );
}
