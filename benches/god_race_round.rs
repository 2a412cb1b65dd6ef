//! A synthetic God Race round at 1,000 and 10,000 players, timed phase by phase: receiving every
//! submission (parse + validate), resolving, rendering every report, and writing the files
//! through the real tick: where a round's time goes, and that each phase is linear in players.
//! The targets (a tick within 1.5x its floor, issue #30) are `scripts/bench_big.sh`'s rows, each
//! beside its floor; this bench has none of its own. Run with `cargo bench --bench
//! god_race_round` (or `make bench`).

use adjudicate::context::GameContext;
use adjudicate::doc::Doc;
use adjudicate::game_dir::GameDir;
use adjudicate::games::god_race::GodRace;
use adjudicate::games::{Game, Setup};
use adjudicate::result_file::ResultFile;
use adjudicate::tick::{TickOptions, tick};
use std::time::{Duration, Instant};

const GODS: [&str; 5] = ["white", "blue", "black", "red", "green"];

fn game_dir(n: usize) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let mut text = String::from(
        "game = \"god-race\"\ntitle = \"Benchmark\"\nseed = 1\n\n[mail]\ntransport = \"none\"\n\n",
    );
    for i in 0..n {
        text.push_str(&format!(
            "[[players]]\nid = \"p{i:05}\"\nmeadow = \"{}\"\n\n",
            GODS[i % 5]
        ));
    }
    std::fs::write(tmp.path().join("game.toml"), text).unwrap();
    tmp
}

/// A round-1 submission for a player: every orb in ceremony 1, move on, light nothing.
fn submission(state: &<GodRace as Game>::State, id: &adjudicate::player_id::PlayerId) -> String {
    let me = &state.players[id];
    let orbs: Vec<String> = me
        .hand
        .iter()
        .map(|g| format!("\"{}\"", format!("{g:?}").to_lowercase()))
        .collect();
    let meadow = GODS
        .iter()
        .find(|g| format!("{:?}", me.meadow).to_lowercase() != **g)
        .unwrap();
    format!(
        "meadow = \"{meadow}\"\nceremony1 = [{}]\nceremony2 = []\nceremony3 = []\nlight = []\n",
        orbs.join(", ")
    )
}

fn run(n: usize) {
    let dir = game_dir(n);
    let ctx = GameContext::load(GameDir::open(dir.path()).unwrap()).unwrap();
    // Round 0 in memory, to reach a round with hands.
    let setup = Setup {
        players: adjudicate::config::seats(&ctx.config.players),
        options: &ctx.config.options,
        seed: 1,
    };
    let state0 = GodRace::setup(&setup).unwrap();
    let mut state = GodRace::resolve(&state0, 1).state;
    let texts: Vec<(adjudicate::player_id::PlayerId, String)> = state
        .players
        .keys()
        .map(|id| (id.clone(), submission(&state, id)))
        .collect();

    let t = Instant::now();
    for (id, text) in &texts {
        let doc = Doc::parse(text).unwrap();
        let outcome = GodRace::receive(&mut state, id, &doc);
        assert!(outcome.valid, "{:?}", outcome.problems);
    }
    let receive = t.elapsed();

    let t = Instant::now();
    let resolution = GodRace::resolve(&state, 1);
    let resolve = t.elapsed();

    let t = Instant::now();
    let renderer = ctx.renderer().unwrap();
    let result = ResultFile::new(&ctx, 1, 1, Some(2), None, resolution.result);
    let reports = result.render::<GodRace>(&ctx, &renderer).unwrap();
    let render = t.elapsed();
    let t = Instant::now();
    let toml = result.to_toml();
    let serialize = t.elapsed();
    assert_eq!(reports.private.len(), n);

    // End to end through the binary's own code path: a tick receiving every file and resolving.
    let tick_dir = game_dir(n);
    let tctx = GameContext::load(GameDir::open(tick_dir.path()).unwrap()).unwrap();
    let now: jiff::Timestamp = "2026-12-01T00:00:00Z".parse().unwrap();
    let force = TickOptions {
        now,
        force: true,
        dry_run: false,
        no_send: true,
    };
    tick::<GodRace>(&tctx, &force).unwrap(); // round 0 with random choices
    let live: <GodRace as Game>::State =
        toml::from_str(&std::fs::read_to_string(tick_dir.path().join("state.toml")).unwrap())
            .unwrap();
    let folder = tick_dir.path().join("rounds/001/submissions");
    for id in live.players.keys() {
        std::fs::write(folder.join(format!("{id}.toml")), submission(&live, id)).unwrap();
    }
    let t = Instant::now();
    tick::<GodRace>(&tctx, &force).unwrap();
    let end_to_end = t.elapsed();

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{n:>6} players: receive {:>7.1} ms, resolve {:>6.1} ms, render {:>7.1} ms, result.toml {:>6.1} ms ({} bytes); \
         tick end to end (receive {n} files, resolve, write ~{} files) {:>8.1} ms",
        ms(receive),
        ms(resolve),
        ms(render),
        ms(serialize),
        toml.len(),
        3 * n,
        ms(end_to_end)
    );
}

fn main() {
    adjudicate::allocator::configure(); // as `main` does
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` lists benches; nothing to list here
    }
    for n in [1_000, 10_000] {
        run(n);
    }
    println!(
        "(no target of its own: each phase should be linear in players; the tick against its floor is bench_big.sh's)"
    );
}
