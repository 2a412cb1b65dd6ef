//! Properties of the Room Swap engine over many seeded random rounds (a seeded loop rather than a
//! shrinking framework: every failure names its seed, so it can be replayed as a rule case).

use crate::support::player;
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
        .map(|(i, id)| player(id, (seed as i64 + i as i64) % 9))
        .collect();
    RoomSwap::setup(&Setup {
        players: adjudicate::config::seats(&players),
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
            let p = p.value();
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
            let scorers = resolution.result.public.to_table()["scorers"]
                .as_integer()
                .unwrap() as u32;
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

mod god_race {
    use crate::support::player;
    use adjudicate::config::PlayerConfig;
    use adjudicate::doc::{Choice, Doc};
    use adjudicate::games::god_race::GodRace;
    use adjudicate::games::god_race::gods::God;
    use adjudicate::games::god_race::resolve::orbs_in_play;
    use adjudicate::games::god_race::state::State;
    use adjudicate::games::{Game, Setup};
    use adjudicate::player_id::PlayerId;
    use rand::RngExt;
    use rand::seq::{IndexedRandom, IteratorRandom, SliceRandom};
    use std::collections::BTreeSet;

    fn names(gods: &[God]) -> String {
        gods.iter()
            .map(|g| format!("\"{}\"", g.name()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A plausible version: mostly legal, sometimes not.
    fn random_submission(state: &State, id: &PlayerId, rng: &mut impl rand::Rng) -> String {
        let me = &state.players[id];
        let meadows: Vec<God> = God::ALL
            .iter()
            .copied()
            .filter(|g| *g != me.meadow || rng.random_bool(0.05))
            .collect();
        let mut text = format!("meadow = \"{}\"\n", meadows.choose(rng).unwrap().name());
        if state.round == 0 {
            let mut gods = God::ALL.to_vec();
            gods.shuffle(rng);
            return text + &format!("support = [{}]\n", names(&gods[..2]));
        }
        let mut split: [Vec<God>; 3] = Default::default();
        for g in &me.hand {
            split[rng.random_range(0..3)].push(*g);
        }
        if rng.random_bool(0.05) {
            split[0].push(God::Green); // an orb not held
        }
        for (i, c) in split.iter().enumerate() {
            text.push_str(&format!("ceremony{} = [{}]\n", i + 1, names(c)));
        }
        let light: Vec<God> = me
            .candles
            .iter()
            .copied()
            .filter(|_| rng.random_bool(0.4))
            .collect();
        text.push_str(&format!("light = [{}]\n", names(&light)));
        if rng.random_bool(0.2) {
            text.push_str(&format!(
                "buy = [\"{}\"]\n",
                God::ALL.choose(rng).unwrap().name()
            ));
        }
        let spare: Vec<God> = me
            .candles
            .iter()
            .copied()
            .filter(|c| !light.contains(c))
            .collect();
        if let Some(c) = spare.first().filter(|_| rng.random_bool(0.2)) {
            let to = state.players.keys().choose(rng).unwrap();
            text.push_str(&format!(
                "give = [{{ to = \"{to}\", candle = \"{}\" }}]\n",
                c.name()
            ));
        }
        text
    }

    /// Plays one random game; checks the invariants after every resolution.
    fn play(seed: u64) -> Result<u32, String> {
        let mut rng = adjudicate::rng::stream(seed, 0, "god-race-properties");
        let n = rng.random_range(2..=9usize);
        let players: Vec<PlayerConfig> = (0..n)
            .map(|i| player(&format!("p{i}"), rng.random_range(0..9)))
            .collect();
        let mut state = GodRace::setup(&Setup {
            players: adjudicate::config::seats(&players),
            options: &toml::Table::new(),
            seed,
        })
        .unwrap();
        let expected_orbs = 3 * n as u32 + 5;
        for _ in 0..300 {
            if state.finished {
                return Ok(state.round);
            }
            let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
            for id in &ids {
                if rng.random_bool(0.9) {
                    let text = random_submission(&state, id, &mut rng);
                    GodRace::receive(&mut state, id, &Doc::parse(&text).unwrap());
                }
            }
            let resolution = GodRace::resolve(&state, seed);
            if GodRace::resolve(&state, seed).result != resolution.result {
                return Err(format!("seed {seed}: resolving twice differs"));
            }
            // Secrecy, structurally: the public part holds only what the rules announce, and a
            // player's private part names no other player but the receivers of their own gifts.
            let public = resolution.result.public.to_table();
            for key in public.keys() {
                let allowed = crate::support::GOD_RACE_PUBLIC_KEYS;
                if !allowed.contains(&key.as_str()) {
                    return Err(format!("seed {seed}: [public] holds `{key}`"));
                }
            }
            for (id, private) in &resolution.result.private {
                let mut table = private.to_table();
                table.remove("gave");
                let text = toml::to_string(&table).unwrap();
                if let Some(other) = ids
                    .iter()
                    .find(|o| *o != id && text.contains(&format!("\"{o}\"")))
                {
                    return Err(format!(
                        "seed {seed}: {id}'s private result names {other}: {text}"
                    ));
                }
            }
            let next = resolution.state;
            if state.round == 0 {
                // ruling 2: per colour, 1 + the players who did not support it (box + drawn orbs)
                for god in God::ALL {
                    let not_supporting = next
                        .players
                        .values()
                        .filter(|p| !p.support.contains(god))
                        .count() as u32;
                    let drawn: u32 = next
                        .players
                        .values()
                        .map(|p| {
                            p.hand.iter().filter(|g| *g == god).count() as u32
                                - u32::from(p.meadow_orb == Some(*god))
                        })
                        .sum();
                    let in_box = next.orb_box.get(*god);
                    if in_box + drawn != 1 + not_supporting {
                        return Err(format!(
                            "seed {seed}: {god:?}: {in_box} in the box + {drawn} drawn, not 1 + {not_supporting}"
                        ));
                    }
                }
            }
            if !next.finished && orbs_in_play(&next) != expected_orbs {
                return Err(format!(
                    "seed {seed} round {}: {} orbs in play, not {expected_orbs}",
                    next.round,
                    orbs_in_play(&next)
                ));
            }
            if let Some((g, s)) = next.gods.iter().find(|(_, s)| !(1..14).contains(*s)) {
                return Err(format!("seed {seed}: {g:?} on space {s}"));
            }
            let podium: BTreeSet<God> = next.podium.iter().copied().collect();
            if podium.len() != next.podium.len()
                || next.gods.keys().any(|g| podium.contains(g))
                || podium.len() + next.gods.len() != 5
            {
                return Err(format!(
                    "seed {seed}: podium {:?} and racing {:?} do not partition the gods",
                    next.podium, next.gods
                ));
            }
            for (id, p) in &next.players {
                if p.garnets < 0 {
                    return Err(format!("seed {seed}: {id} has {} garnets", p.garnets));
                }
                let racing = next.gods.contains_key(&p.meadow);
                if !next.finished && (p.meadow_orb == Some(p.meadow)) != racing {
                    return Err(format!(
                        "seed {seed}: {id} in the {:?} meadow, meadow orb {:?}",
                        p.meadow, p.meadow_orb
                    ));
                }
            }
            state = next;
        }
        Err(format!("seed {seed}: no end after 300 rounds"))
    }

    #[test]
    fn random_races_conserve_orbs_keep_gods_on_the_track_and_end() {
        let mut rounds = Vec::new();
        for seed in 0..150 {
            rounds.push(play(seed).unwrap_or_else(|e| panic!("{e}")));
        }
        rounds.sort();
        assert!(rounds[0] >= 3, "a race ended in {} rounds", rounds[0]);
    }
}

mod planar_control {
    use crate::support::player;
    use adjudicate::config::PlayerConfig;
    use adjudicate::doc::Doc;
    use adjudicate::games::planar_control::PlanarControl;
    use adjudicate::games::planar_control::state::{Phase, Plane, State};
    use adjudicate::games::{Game, Setup};
    use adjudicate::player_id::PlayerId;
    use rand::RngExt;
    use rand::seq::IndexedRandom;
    use std::collections::BTreeMap;

    fn random_submission(state: &State, id: &PlayerId, rng: &mut impl rand::Rng) -> String {
        let ids: Vec<&PlayerId> = state.players.keys().collect();
        let me = &state.players[id];
        if state.phase == Phase::Elimination {
            return format!(
                "[eliminate]\nember = \"{}\"\nnature = \"{}\"\ntorrent = \"{}\"\n",
                ids.choose(rng).unwrap(),
                ids.choose(rng).unwrap(),
                ids.choose(rng).unwrap()
            );
        }
        if me.plane.is_large() {
            format!(
                "vote = \"{}\"\ngarnets = {}\n",
                ids.choose(rng).unwrap(),
                rng.random_range(0..4)
            )
        } else {
            format!(
                "divine = [\"{}\", \"{}\"]\n",
                ids.choose(rng).unwrap(),
                ids.choose(rng).unwrap()
            )
        }
    }

    /// One random game; the invariants after every round.
    fn play(seed: u64) -> Result<(), String> {
        let mut rng = adjudicate::rng::stream(seed, 0, "planar-properties");
        let players: Vec<PlayerConfig> = (0..15)
            .map(|i| player(&format!("p{i:02}"), rng.random_range(0..5)))
            .collect();
        let mut state = PlanarControl::setup(&Setup {
            players: adjudicate::config::seats(&players),
            options: &toml::Table::new(),
            seed,
        })
        .unwrap();
        let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
        while state.phase != Phase::Over {
            for id in &ids {
                if rng.random_bool(0.8) {
                    let text = random_submission(&state, id, &mut rng);
                    PlanarControl::receive(&mut state, id, &Doc::parse(&text).unwrap());
                }
            }
            // The votes as cast, to check the banishment against.
            let mut tally: BTreeMap<&PlayerId, i64> = BTreeMap::new();
            for p in state.players.values() {
                if let Some(t) = &p.live.vote {
                    *tally.entry(t).or_default() += 1 + 2 * p.live.spend;
                }
            }
            let resolution = PlanarControl::resolve(&state, seed);
            let public = resolution.result.public.to_table();
            let allowed = [
                "round",
                "phase",
                "banished",
                "control",
                "planes",
                "next_round",
                "next_phase",
                "final",
            ];
            if let Some(k) = public.keys().find(|k| !allowed.contains(&k.as_str())) {
                return Err(format!("seed {seed}: [public] holds `{k}`"));
            }
            let public_text = toml::to_string(public.as_ref()).unwrap();
            for word in ["vote", "spent", "divin", "garnets"] {
                if public_text.contains(word) {
                    return Err(format!(
                        "seed {seed}: [public] mentions {word}: {public_text}"
                    ));
                }
            }
            for (id, private) in &resolution.result.private {
                let mut own = private.to_table();
                own.remove("voted"); // the player's own vote
                own.remove("divination"); // the player's own divination
                own.remove("choices"); // the players on their own plane, public anyway
                own.remove("losers"); // alignments are public by then
                let text = toml::to_string(&own).unwrap();
                if let Some(o) = ids
                    .iter()
                    .find(|o| *o != id && text.contains(&format!("\"{o}\"")))
                {
                    return Err(format!(
                        "seed {seed}: {id}'s private result names {o}: {text}"
                    ));
                }
            }
            let next = &resolution.state;
            if state.phase == Phase::Main {
                let banished = public["banished"].as_table().unwrap();
                for plane in [Plane::Earth, Plane::Thera] {
                    let name = if plane == Plane::Earth {
                        "earth"
                    } else {
                        "thera"
                    };
                    let on: Vec<&PlayerId> = state
                        .players
                        .iter()
                        .filter(|(_, p)| p.plane == plane)
                        .map(|(id, _)| id)
                        .collect();
                    let out = banished
                        .get(name)
                        .and_then(|v| v.as_str())
                        .ok_or(format!("seed {seed}: nobody banished from {name}"))?;
                    let top = on
                        .iter()
                        .map(|id| tally.get(id).copied().unwrap_or(0))
                        .max()
                        .unwrap();
                    let got = tally
                        .get(&PlayerId::parse(out).unwrap())
                        .copied()
                        .unwrap_or(0);
                    if got != top {
                        return Err(format!(
                            "seed {seed}: {out} banished from {name} with {got} votes, the most was {top}"
                        ));
                    }
                }
                let sizes: Vec<usize> = [Plane::Earth, Plane::Limbo, Plane::Thera, Plane::Mobil]
                    .iter()
                    .map(|p| next.on(*p).len())
                    .collect();
                if sizes != [8, 1, 5, 1] {
                    return Err(format!("seed {seed}: plane sizes {sizes:?}"));
                }
            }
            if let Some((id, p)) = next.players.iter().find(|(_, p)| p.garnets < 0) {
                return Err(format!("seed {seed}: {id} has {} garnets", p.garnets));
            }
            state = resolution.state;
        }
        Ok(())
    }

    #[test]
    fn random_games_banish_the_most_voted_keep_8_1_5_1_and_leak_no_vote() {
        for seed in 0..200 {
            play(seed).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

mod final_ritual {
    use crate::support::player;
    use adjudicate::config::PlayerConfig;
    use adjudicate::doc::{Choice, Doc};
    use adjudicate::games::GameId;
    use adjudicate::games::final_ritual::FinalRitual;
    use adjudicate::games::final_ritual::cards::Role;
    use adjudicate::games::final_ritual::state::State;
    use adjudicate::games::{Game, Setup};
    use adjudicate::player_id::PlayerId;
    use adjudicate::render::{GameInfo, Kind, PlayerInfo, PrivateContext, PublicContext, Renderer};
    use rand::RngExt;
    use rand::seq::{IndexedRandom, SliceRandom};
    use std::collections::BTreeSet;

    const RESOURCES: [&str; 3] = ["wine", "gems", "gold"];

    /// A submission as a careless player might write it: random choices, some impossible.
    fn random_submission(state: &State, id: &PlayerId, rng: &mut impl rand::Rng) -> String {
        let ids: Vec<&PlayerId> = state.players.keys().collect();
        let me = &state.players[id];
        let mut order = RESOURCES.to_vec();
        order.shuffle(rng);
        let mut dedicate: Vec<&str> = order[..rng.random_range(1..=3)].to_vec();
        if rng.random_bool(0.1) {
            dedicate.insert(0, "refuse");
        }
        let quote = |xs: &[&str]| {
            xs.iter()
                .map(|x| format!("\"{x}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut entries = Vec::new();
        for oracle in me.oracles.iter().take(rng.random_range(0..=2)) {
            let who = |rng: &mut dyn rand::Rng| ids.choose(rng).unwrap().to_string();
            entries.push(format!(
                "{{ oracle = \"{}\", from = \"{}\", to = \"{}\", player = \"{}\" }}",
                oracle.name(),
                who(rng),
                who(rng),
                who(rng)
            ));
        }
        // Keep only the keys the oracle needs most of the time, so most entries are valid.
        let entries: Vec<String> = entries
            .into_iter()
            .map(|e| {
                let name = e.split('"').nth(1).unwrap().to_owned();
                let keep: &[&str] = if name.starts_with("give-") {
                    &["from", "to"]
                } else if name == "all-give-any-1" {
                    &["to"]
                } else if name.starts_with("all-") {
                    &[]
                } else {
                    &["player"]
                };
                let parts: Vec<&str> = e
                    .trim_matches(|c| c == '{' || c == '}' || c == ' ')
                    .split(", ")
                    .filter(|kv| {
                        let key = kv.split(' ').next().unwrap();
                        key == "oracle" || keep.contains(&key) || rng.random_bool(0.05)
                    })
                    .collect();
                format!("{{ {} }}", parts.join(", "))
            })
            .collect();
        let refuse: Vec<&str> = ids
            .iter()
            .filter(|_| rng.random_bool(0.15))
            .map(|p| p.as_str())
            .collect();
        order.shuffle(rng);
        let give = order.clone();
        order.shuffle(rng);
        format!(
            "dedicate = [{}]\nannounce = [{}]\n[respond]\nrefuse = [{}]\ngive = [{}]\ntake = [{}]\n",
            quote(&dedicate),
            entries.join(", "),
            quote(&refuse),
            quote(&give),
            quote(&order)
        )
    }

    /// Every `"key" = "value"` string pair of a TOML value, flattened.
    fn strings(value: &toml::Value, out: &mut Vec<(String, String)>, key: &str) {
        match value {
            toml::Value::String(s) => out.push((key.to_owned(), s.clone())),
            toml::Value::Array(items) => items.iter().for_each(|i| strings(i, out, key)),
            toml::Value::Table(t) => t.iter().for_each(|(k, v)| strings(v, out, k)),
            _ => {}
        }
    }

    /// The rendered announcement and reports of one round: templates must render every event
    /// the engine can produce, and no text may name a role it should not.
    fn render(
        renderer: &Renderer,
        state: &State,
        result: &adjudicate::games::RoundResult,
        seed: u64,
    ) -> Result<(), String> {
        let game = GameInfo {
            id: "final-ritual",
            title: "T".into(),
            round: state.round,
            deadline: None,
            next_round: None,
            next_deadline: None,
            paused: false,
            paused_left: None,
            deadline_at: None,
            next_deadline_at: None,
            zone: None,
        };
        let public = renderer
            .render(
                Kind::Public,
                &PublicContext {
                    game: &game,
                    public: &result.public,
                },
            )
            .map_err(|e| format!("seed {seed}: public: {e}"))?;
        let titles = |text: &str| -> Vec<&'static str> {
            TITLES
                .iter()
                .copied()
                .filter(|t| text.contains(t))
                .collect()
        };
        if !result.public.to_table().contains_key("final") && !titles(&public).is_empty() {
            return Err(format!(
                "seed {seed}: the announcement names a role:\n{public}"
            ));
        }
        for (id, private) in &result.private {
            let text = renderer
                .render(
                    Kind::Private,
                    &PrivateContext {
                        game: &game,
                        player: PlayerInfo {
                            id: id.to_string(),
                            name: id.to_string(),
                            token: false,
                        },
                        public: &result.public.to_table(),
                        private,
                        garnets: 0,
                    },
                )
                .map_err(|e| format!("seed {seed}: {id}'s report: {e}"))?;
            if titles(&text).len() != 1 {
                return Err(format!(
                    "seed {seed}: {id}'s report names {:?}",
                    titles(&text)
                ));
            }
        }
        Ok(())
    }

    use crate::final_ritual::ROLE_TITLES as TITLES;

    /// The living are the seats, in order, of whom is alive.
    fn seat_order_agrees(state: &State) -> Result<(), String> {
        let living: Vec<PlayerId> = state
            .seats()
            .into_iter()
            .filter(|id| state.is_alive(id))
            .collect();
        if state.living() != living {
            return Err(format!("living {:?}, not {living:?}", state.living()));
        }
        Ok(())
    }

    fn play(seed: u64, kinds: &mut BTreeSet<String>) -> Result<(), String> {
        let mut rng = adjudicate::rng::stream(seed, 0, "final-ritual-properties");
        let n = rng.random_range(4..=6);
        let players: Vec<PlayerConfig> = (0..n).map(|i| player(&format!("p{i}"), 0)).collect();
        let mut options = toml::Table::new();
        // Higher goals make longer games, so more rules get exercised.
        options.insert("loyal_altar".into(), rng.random_range(8..=16).into());
        options.insert("selfish_hand".into(), rng.random_range(7..=14).into());
        let mut state = FinalRitual::setup(&Setup {
            players: adjudicate::config::seats(&players),
            options: &options,
            seed,
        })
        .unwrap();
        let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
        let roles: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
        let names = ids
            .iter()
            .map(|id| (id.to_string(), id.to_string()))
            .collect();
        let renderer = Renderer::new(
            GameId::FinalRitual,
            std::path::Path::new("/nonexistent"),
            names,
        )
        .map_err(|e| e.to_string())?;
        let mut rounds = 0;
        while !state.finished {
            rounds += 1;
            state
                .check()
                .map_err(|e| format!("seed {seed}: {}: {}", e.key, e.message))?;
            for id in &ids {
                if rng.random_bool(0.85) {
                    let text = random_submission(&state, id, &mut rng);
                    let doc = Doc::parse(&text).map_err(|p| format!("{text}: {p}"))?;
                    FinalRitual::receive(&mut state, id, &doc);
                }
            }
            let dead_before: Vec<&PlayerId> =
                ids.iter().filter(|id| !state.players[*id].alive).collect();
            let resolution = FinalRitual::resolve(&state, seed);
            let next = &resolution.state;
            next.check()
                .map_err(|e| format!("seed {seed} round {rounds}: {}: {}", e.key, e.message))?;
            seat_order_agrees(next).map_err(|e| format!("seed {seed} round {rounds}: {e}"))?;
            let public = toml::Value::Table(resolution.result.public.to_table().into_owned());
            let mut pairs = Vec::new();
            strings(&public, &mut pairs, "");
            // A dead player never acts, and the announcement holds no private fact.
            for (key, value) in &pairs {
                if ["by", "from"].contains(&key.as_str())
                    && dead_before.iter().any(|d| d.as_str() == value)
                {
                    return Err(format!("seed {seed}: dead {value} acted: {public}"));
                }
                if roles.contains(&value.as_str()) && !next.finished {
                    return Err(format!(
                        "seed {seed}: the announcement names a role: {public}"
                    ));
                }
            }
            let events = public["turns"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|t| t["events"].as_array().unwrap());
            for e in events {
                let kind = e["kind"].as_str().unwrap();
                kinds.insert(kind.to_owned());
                let leak = e.get("cards").is_some()
                    || e.get("refused").is_some()
                    || e.get("forced").is_some()
                    || kind == "skipped"
                    || (kind == "dedicated" && e.get("resource").is_some())
                    || (kind == "drew-oracle" && e.get("oracle").is_some());
                if leak {
                    return Err(format!(
                        "seed {seed}: a public event holds a private fact: {e}"
                    ));
                }
            }
            for (id, private) in &resolution.result.private {
                let mine = next.players[id].role.name();
                let mut pairs = Vec::new();
                strings(&toml::Value::Table(private.to_table()), &mut pairs, "");
                if let Some((_, r)) = pairs
                    .iter()
                    .find(|(k, v)| k == "role" && v != mine && roles.contains(&v.as_str()))
                {
                    return Err(format!("seed {seed}: {id}'s report names the role {r}"));
                }
                // Cards of a transfer only to the players it involves.
                for seen in private
                    .value()
                    .get("events")
                    .and_then(|e| e.as_array())
                    .into_iter()
                    .flatten()
                {
                    let event = &seen["event"];
                    if event.get("cards").is_some() || event.get("resource").is_some() {
                        let involved = ["from", "to", "player"]
                            .iter()
                            .any(|k| event.get(*k).and_then(|v| v.as_str()) == Some(id.as_str()));
                        if !involved {
                            return Err(format!("seed {seed}: {id} sees {event}"));
                        }
                    }
                }
            }
            for private in resolution.result.private.values() {
                for seen in private
                    .value()
                    .get("events")
                    .and_then(|e| e.as_array())
                    .into_iter()
                    .flatten()
                {
                    kinds.insert(format!(
                        "private {}",
                        seen["event"]["kind"].as_str().unwrap()
                    ));
                }
            }
            render(&renderer, &state, &resolution.result, seed)?;
            if rounds > 30 && !next.finished {
                return Err(format!("seed {seed}: no end after the round cap"));
            }
            state = resolution.state;
        }
        Ok(())
    }

    #[test]
    fn random_games_conserve_cards_keep_marks_hide_hands_and_roles_and_end() {
        let mut kinds = BTreeSet::new();
        for seed in 0..200 {
            play(seed, &mut kinds).unwrap_or_else(|e| panic!("{e}"));
        }
        // The games reached every kind of event, so every one was rendered too.
        for kind in [
            "dedicated",
            "no-dedication",
            "announced",
            "gave",
            "offered",
            "took",
            "disobeyed",
            "forgiven",
            "executed",
            "harvested",
            "drew-oracle",
            "reshuffled",
            "private skipped",
            "private announced",
        ] {
            assert!(
                kinds.contains(kind),
                "no game produced a {kind} event: {kinds:?}"
            );
        }
    }
}
