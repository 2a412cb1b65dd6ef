//! The resolve phase of a God Race round at N players, alone: the Rust side of the comparison
//! with `scripts/god_race_model.py` that `make bench` prints. Every player has sent the bench's
//! submission (every orb in ceremony 1, move to the next meadow, light nothing).
//!
//! Usage: `cargo run --release --example race_resolve -- N [RUNS]`.

use adjudicate::config::PlayerConfig;
use adjudicate::doc::Doc;
use adjudicate::games::god_race::GodRace;
use adjudicate::games::{Game, Setup};
use adjudicate::player_id::PlayerId;
use std::time::Instant;

const GODS: [&str; 5] = ["white", "blue", "black", "red", "green"];

fn main() {
    adjudicate::allocator::configure(); // as `main` does
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let players: Vec<PlayerConfig> = (0..n)
        .map(|i| PlayerConfig {
            id: PlayerId::parse(&format!("p{i:06}")).unwrap(),
            name: format!("p{i:06}"),
            email: None,
            chat: None,
            garnets: 0,
            tokens_of_life: 0,
            extra: toml::from_str(&format!("meadow = \"{}\"", GODS[i % 5])).unwrap(),
            tz: None,
        })
        .collect();
    let options = toml::Table::new();
    let setup = Setup {
        players: adjudicate::config::seats(&players),
        options: &options,
        seed: 1,
    };
    let state0 = GodRace::setup(&setup).unwrap();
    let mut state = GodRace::resolve(&state0, 1).state;
    let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
    for id in &ids {
        let me = &state.players[id];
        let orbs: Vec<String> = me
            .hand
            .iter()
            .map(|g| format!("\"{}\"", format!("{g:?}").to_lowercase()))
            .collect();
        let here = format!("{:?}", me.meadow).to_lowercase();
        let meadow = GODS.iter().find(|g| **g != here).unwrap();
        let text = format!(
            "meadow = \"{meadow}\"\nceremony1 = [{}]\nceremony2 = []\nceremony3 = []\nlight = []\n",
            orbs.join(", ")
        );
        let outcome = GodRace::receive(&mut state, id, &Doc::parse(&text).unwrap());
        assert!(outcome.valid, "{:?}", outcome.problems);
    }
    let mut times = Vec::new();
    for _ in 0..runs {
        // the tick resolves the state it loaded, in place (`Game::resolve_in_place`)
        let mut round = state.clone();
        let t = Instant::now();
        let result = GodRace::resolve_in_place(&mut round, 1);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(result.private.len(), n);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{n} players: resolve {:.1} ms (median of {runs})",
        times[times.len() / 2]
    );
}
