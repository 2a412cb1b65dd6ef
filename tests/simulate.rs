//! `adjudicate simulate`: a fixed seed gives the same bytes whatever the threads; every simulated
//! game is a legal game that the tick (files, templates, the built binary) plays to the same end;
//! the God Race bot's view is exactly what its player's reports say; bad flags are refused with
//! the flag and the key named.

use crate::support::adjudicate;
use adjudicate::games::Game;
use adjudicate::games::final_ritual::FinalRitual;
use adjudicate::games::god_race::GodRace;
use adjudicate::games::god_race::bots::View;
use adjudicate::games::god_race::gods::God;
use adjudicate::games::planar_control::PlanarControl;
use adjudicate::games::room_swap::RoomSwap;
use adjudicate::games::tribal_council::TribalCouncil;
use adjudicate::simulate::plan::{Base, Request, Simulation};
use adjudicate::simulate::{Simulated, game_seed, play_recorded};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_fixed_seed_prints_and_writes_the_same_bytes_on_one_thread_or_two() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |jobs: &str, out: &str, seed: &str| {
        let out = tmp.path().join(out);
        let r = adjudicate([
            "simulate",
            "final-ritual",
            "--games",
            "600",
            "--sweep",
            "options.selfish_hand=6..8",
            "--bots",
            "random=2,greedy",
            "--seed",
            seed,
            "-j",
            jobs,
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stderr, "", "-q prints nothing on stderr");
        (r.stdout, files(&out))
    };
    let (one, one_files) = run("1", "one", "5");
    let (two, two_files) = run("2", "two", "5");
    assert_eq!(one, two);
    assert_eq!(one_files, two_files);
    let (other, _) = run("2", "other", "6");
    assert_ne!(one, other, "another seed plays other games");

    // What was printed and written: a block per setting, the sweep, the files.
    for v in 6..=8 {
        assert!(one.contains(&format!("\nselfish_hand = {v}\n")), "{one}");
    }
    assert!(one.contains("sweep of selfish_hand"), "{one}");
    let names: Vec<&String> = one_files.keys().collect();
    assert_eq!(
        names,
        [
            "index.html",
            "lengths.csv",
            "lengths.svg",
            "results.csv",
            "settings.csv",
            "wins.svg"
        ]
    );
    let settings = String::from_utf8(one_files["settings.csv"].clone()).unwrap();
    assert_eq!(
        settings.lines().count(),
        4,
        "a header and a line per setting"
    );
    let results = String::from_utf8(one_files["results.csv"].clone()).unwrap();
    for role in ["loyal", "selfish", "traitor"] {
        assert_eq!(
            results
                .lines()
                .filter(|l| l.contains(&format!(",role,{role},")))
                .count(),
            3,
            "{role} once per setting"
        );
    }
    // Each setting's games add up: wins of the three roles and games without a winner.
    for name in one_files.keys() {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(tmp.path().join("one").join(name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(
            mode & 0o044,
            0o044,
            "{name} is {mode:o}: everyone may read what is published"
        );
    }
    let html = String::from_utf8(one_files["index.html"].clone()).unwrap();
    assert_eq!(html.matches("<svg").count(), 2);
    assert_eq!(html.matches("role=\"img\"").count(), 2);
    assert!(html.contains("<title>final-ritual: share of games won</title>"));
}

#[test]
fn without_quiet_the_time_taken_goes_to_stderr_and_not_into_the_tables() {
    let r = adjudicate(["simulate", "god-race", "--games", "50"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("simulate: 50 game(s) in "),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains(" s ("), "{}", r.stdout);
    assert!(r.stdout.contains("by strategy"), "{}", r.stdout);
}

fn setting<G: Simulated>(bots: &str) -> adjudicate::simulate::plan::Setting {
    let request = Request {
        target: G::ID.name().into(),
        games: 1,
        players: None,
        garnets: None,
        set: Vec::new(),
        sweep: None,
        bots: Some(bots.into()),
        seed: 11,
        jobs: Some(1),
        out: None,
        quiet: true,
    };
    let base = Base::find(G::ID.name()).unwrap();
    Simulation::new::<G>(&request, base)
        .unwrap()
        .settings
        .remove(0)
}

/// A game directory for game `index` of `setting`: the same players, options and seed.
fn game_dir<G: Simulated>(
    setting: &adjudicate::simulate::plan::Setting,
    index: u64,
) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let mut text = format!(
        "game = \"{}\"\ntitle = \"Replay\"\nseed = {}\n\n[mail]\nfrom = \"Host <host@example.org>\"\ntransport = \"none\"\n\n",
        G::ID.name(),
        game_seed(setting.seed, index)
    );
    if !setting.options.is_empty() {
        text.push_str(&format!(
            "[options]\n{}\n",
            toml::to_string(&setting.options).unwrap()
        ));
    }
    for p in &setting.players {
        text.push_str(&format!(
            "[[players]]\nid = \"{}\"\nname = \"{}\"\ngarnets = {}\n\n",
            p.id, p.name, p.garnets
        ));
    }
    fs::write(tmp.path().join("game.toml"), text).unwrap();
    tmp
}

fn tick(dir: &Path, force: bool) {
    let mut args = vec!["round".to_owned(), dir.display().to_string(), "-q".into()];
    if force {
        args.push("--force".into());
    }
    let r = adjudicate(&args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

/// The replayed game's state, as the rules hold it.
fn state_of<G: Game>(dir: &Path) -> G::State {
    let mut table: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("state.toml")).unwrap()).unwrap();
    table.remove("receipts_applied");
    table.remove("seed");
    toml::Value::Table(table).try_into().unwrap()
}

/// Plays simulated games through the tick: every version sent reaches the game directory as a
/// file, in the order sent (one tick per version where the order matters: Room Swap's Peeks
/// answer about earlier senders), and each round resolves with `--force`. The tick must end
/// every game in the very state the simulation did. `after_round` sees the directory and the
/// round just resolved.
fn replay<G: Simulated>(
    bots: &str,
    games: u64,
    order_matters: bool,
    mut after_round: impl FnMut(&Path, u32),
) {
    let setting = setting::<G>(bots);
    for index in 0..games {
        let (end, transcript, tally) = play_recorded::<G>(&setting, index).unwrap();
        assert!(tally.finished, "game {index} ended");
        assert_eq!(tally.defaults, 0, "every bot submission was valid");
        let dir = game_dir::<G>(&setting, index);
        tick(dir.path(), false); // set-up (and the opening)
        for (round, versions) in &transcript {
            let folder = dir.path().join(format!("rounds/{round:03}/submissions"));
            fs::create_dir_all(&folder).unwrap();
            for (player, text) in versions {
                fs::write(folder.join(format!("{player}.toml")), text).unwrap();
                if order_matters {
                    tick(dir.path(), false);
                }
            }
            tick(dir.path(), true);
            after_round(dir.path(), *round);
        }
        assert_eq!(
            state_of::<G>(dir.path()),
            end,
            "{} game {index}: the tick's end differs from the simulation's",
            G::ID.name()
        );
    }
}

#[test]
fn simulated_room_swap_games_are_legal_games_the_tick_ends_the_same_way() {
    replay::<RoomSwap>("random=2,best-response", 3, true, |_, _| {});
}

#[test]
fn simulated_planar_control_games_are_legal_games_the_tick_ends_the_same_way() {
    replay::<PlanarControl>("random=5,hunter", 2, false, |_, _| {});
}

#[test]
fn simulated_final_ritual_games_are_legal_games_the_tick_ends_the_same_way() {
    replay::<FinalRitual>("random=3,greedy", 3, false, |_, _| {});
}

/// The God Race bot chooses from a `View`; after every round of a replayed game, the view the
/// simulator builds from the state equals the view built from nothing but that round's
/// result.toml: the announcement's track and the player's own private part.
#[test]
fn simulated_god_races_replay_through_the_tick_and_a_bots_view_is_what_its_reports_say() {
    let mut checked = 0;
    replay::<GodRace>("random=3,leader", 2, false, |dir, round| {
        let state: <GodRace as Game>::State = state_of::<GodRace>(dir);
        if state.finished {
            return;
        }
        let result: toml::Table = toml::from_str(
            &fs::read_to_string(dir.join(format!("rounds/{round:03}/result.toml"))).unwrap(),
        )
        .unwrap();
        let public = result["public"].as_table().unwrap();
        let gods = |v: &toml::Value| -> Vec<God> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|g| toml::Value::try_into(g.clone()).unwrap())
                .collect()
        };
        let mut spaces = [None; 5];
        for (god, space) in public["spaces"].as_table().unwrap() {
            let god: God = toml::Value::String(god.clone()).try_into().unwrap();
            spaces[god as usize] = Some(space.as_integer().unwrap() as u32);
        }
        for (id, p) in &state.players {
            let private = result["private"][id.as_str()].as_table().unwrap();
            let (support, hand, candles) = (
                gods(&private["support"]),
                gods(&private["hand"]),
                gods(&private["candles"]),
            );
            let from_reports = View {
                round: public["next_round"].as_integer().unwrap() as u32,
                goal: 14, // the opening announces it; these games keep the default
                spaces,
                meadow: toml::Value::try_into(private["meadow"].clone()).unwrap(),
                support: &support,
                hand: &hand,
                candles: &candles,
                garnets: private["garnets"].as_integer().unwrap(),
            };
            assert_eq!(from_reports, View::of(&state, p), "round {round}, {id}");
            checked += 1;
        }
    });
    assert!(checked > 50, "{checked} views compared");
}

#[test]
fn bad_flags_are_refused_with_the_flag_and_the_key_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let cases: &[(&[&str], &str)] = &[
        (
            &["god-race", "--games", "0"],
            "--games 0: give 1 to 10000000 games",
        ),
        (&["god-race", "--games", "20000000"], "--games 20000000"),
        (&["chess", "--games", "5"], "`chess` is neither a game id"),
        (
            &["death-match-pick", "--games", "5"],
            "is a season round, not a match",
        ),
        (
            &["god-race", "--games", "5", "--set", "options.laps=3"],
            "unknown field `laps`",
        ),
        (
            &["god-race", "--games", "5", "--set", "options.spaces=2"],
            "options.spaces: must be at least 4",
        ),
        (
            &["god-race", "--games", "5", "--set", "spaces=12"],
            "write options.KEY=VALUE",
        ),
        (
            &[
                "final-ritual",
                "--games",
                "5",
                "--sweep",
                "options.traitor=1..3",
            ],
            "invalid type",
        ),
        (
            &[
                "final-ritual",
                "--games",
                "5",
                "--sweep",
                "options.selfish_hand=9..5",
            ],
            "the first end is above the second",
        ),
        (
            &["room-swap", "--games", "5", "--players", "5"],
            "(from --players)",
        ),
        (
            &["room-swap", "--games", "5", "--bots", "clever"],
            "`clever` is not a room-swap bot; the bots are random, best-response",
        ),
        (
            &["god-race", "--games", "5", "--bots", "random=9"],
            "the counts add up to 9, and the game has 7 players",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["simulate"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let r = adjudicate(&all);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!out.exists(), "{args:?} wrote something");
    }
}

/// `--out`'s index.html in headless Chromium (phone and desktop widths, a screenshot each) and
/// through tidy: both charts drawn, titled, inside the page; nothing loaded from outside.
#[test]
fn the_out_page_shows_both_charts_in_a_browser() {
    let (Some(chromium), Some(tidy)) = (crate::site::tool("chromium"), crate::site::tool("tidy"))
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let r = adjudicate([
        "simulate",
        "god-race",
        "--games",
        "300",
        "--sweep",
        "options.spaces=12..14",
        "--bots",
        "random=3,leader",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = out.join("index.html");
    crate::site::assert_tidy(&tidy, &page);
    let html = fs::read_to_string(&page).unwrap();
    assert!(
        html.matches("<polyline").count() >= 2,
        "lines drawn in the charts"
    );
    let reports = crate::site::in_chromium(&chromium, &tmp.path().join("shots"), &[page]);
    assert_eq!(reports.len(), 2);
    for r in &reports {
        let at = format!("{} px", r["width"]);
        assert_eq!(r["lang"], "en", "{at}");
        assert_eq!(r["h1"], 1, "{at}");
        assert_eq!(r["svgs"], 2, "{at}");
        assert_eq!(r["svgs_without_title"], 0, "{at}");
        assert_eq!(r["overflow"], serde_json::json!([]), "{at}");
        assert_eq!(r["low_contrast"], serde_json::json!([]), "{at}");
        assert_eq!(r["external"], serde_json::json!([]), "{at}");
        assert!(
            r["text"].as_str().unwrap().contains("sweep of spaces"),
            "{at}"
        );
        let png = fs::read(r["screenshot"].as_str().unwrap()).unwrap();
        assert_eq!(&png[1..4], b"PNG", "{at}");
    }
}

/// Leaving out what no bot reads changes nothing else: round by round, the simulator's
/// resolution (`Simulated::resolve_heard`: in place, `Detail::State`) and the tick's own
/// (`Game::resolve_in_place`, with the same result too) reach `Game::resolve`'s next state
/// (balances included), and what the bots hear of the opening (`opening_heard`) and of each
/// round is the tick's announcement, as a table, but for the parts left empty because no bot
/// reads them (`NOT_HEARD`) (`hears`: whether the game's bots hear announcements).
/// Before every round, `Game::plays` (which the bots and the tick ask) agrees with
/// `Game::expected` for every player; before and after the bots play, the simulator's count of
/// defaults (`Simulated::defaulted`, which a game may count its own way) is the generic one.
fn same_resolution<G: Simulated>(bots: &str, games: u64, hears: bool) {
    use adjudicate::simulate::BotRng;
    use rand::SeedableRng;
    let setting = setting::<G>(bots);
    let (mut compared, mut heard) = (0, 0);
    for index in 0..games {
        let seed = game_seed(setting.seed, index);
        let (mut state, mut memory) = adjudicate::simulate::start::<G>(&setting, seed).unwrap();
        if let Some(quick) = G::opening_heard(&state) {
            let full = G::opening(&state).expect("a game the bots hear opens with a result");
            assert_eq!(
                table(&quick),
                *full.public.to_table(),
                "game {index}'s opening"
            );
        }
        let mut rng = BotRng::seed_from_u64(index);
        while !G::is_over(&state) {
            let expected = G::expected(&state);
            for id in G::roster(&state) {
                assert_eq!(
                    G::plays(&state, id),
                    expected.contains(id),
                    "game {index}: {id}"
                );
            }
            let defaulted = |state: &G::State| {
                let generic = adjudicate::games::bots::defaulted::<G>(state);
                assert_eq!(G::defaulted(state), generic, "game {index}: defaults");
                generic
            };
            assert_eq!(defaulted(&state), expected.len() as u64, "nobody has sent");
            G::play(&mut state, &setting.bots, &mut rng, &mut memory, None);
            defaulted(&state);
            let full = G::resolve(&state, seed);
            // the tick's road (`Game::resolve_in_place`): the same state and the same result
            let mut ticked = state.clone();
            let result = G::resolve_in_place(&mut ticked, seed);
            assert_eq!(ticked, full.state, "game {index}: in place");
            assert_eq!(result, full.result, "game {index}: in place");
            let hears = G::resolve_heard(&mut state, seed);
            assert_eq!(state, full.state, "game {index}");
            if let Some(hears) = &hears {
                let announced = full.result.public.to_table();
                assert_eq!(
                    heard_as_announced(table(hears), &announced),
                    *announced,
                    "game {index}"
                );
                G::learn(&mut memory, hears);
                heard += 1;
            }
            compared += 1;
        }
    }
    assert!(compared >= games, "every game was compared to its end");
    assert_eq!(heard, if hears { compared } else { 0 }, "rounds heard");
}

/// The parts of an announcement the simulator leaves empty, because no bot reads them: Planar
/// Control's list of every player's plane (its bots read the planes from the state).
const NOT_HEARD: &[&str] = &["planes"];

/// `heard` with each part the simulator leaves out (`NOT_HEARD`) filled in from `announced`,
/// once it is checked to be empty: then what the bots hear is the announcement, or not.
fn heard_as_announced(mut heard: toml::Table, announced: &toml::Table) -> toml::Table {
    for key in NOT_HEARD {
        if let Some(part) = heard.get_mut(*key) {
            assert_eq!(
                *part,
                toml::Value::Table(toml::Table::new()),
                "{key} is heard"
            );
            if let Some(full) = announced.get(*key) {
                part.clone_from(full);
            }
        }
    }
    heard
}

fn table<T: serde::Serialize>(value: &T) -> toml::Table {
    toml::Table::try_from(value).unwrap()
}

#[test]
fn the_simulators_resolution_reaches_the_ticks_state_in_every_game() {
    same_resolution::<RoomSwap>("random=3,best-response", 40, false);
    same_resolution::<PlanarControl>("random=7,hunter", 15, true);
    same_resolution::<FinalRitual>("random=3,greedy", 40, false);
    same_resolution::<GodRace>("random=3,leader", 20, false);
    same_resolution::<TribalCouncil>("random=3,bloc", 20, false);
}

/// The Python models of whole games (`scripts/<game>_games.py`, the peers `make bench` measures
/// `simulate` against) are independent plain implementations of the same rules: with random
/// players, the engine and each model give the same statistics (`scripts/model_agree.py`:
/// every rate within four standard errors, the mean length within 1%). Seeds are fixed, so the
/// verdict is the same every run; a rule the engine and the model read differently shows here.
#[test]
fn the_engine_and_the_python_models_play_the_same_games() {
    let scripts = crate::support::manifest_dir().join("scripts");
    for (game, games) in [("room-swap", 20_000), ("final-ritual", 10_000)] {
        let out = tempfile::tempdir().unwrap();
        let r = adjudicate([
            "simulate",
            game,
            "--games",
            &games.to_string(),
            "--bots",
            "random",
            "-q",
            "--out",
            &out.path().display().to_string(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let model = std::process::Command::new("python3")
            .arg(scripts.join(format!("{}_games.py", game.replace('-', "_"))))
            .args([games.to_string(), "7".into()])
            .output()
            .unwrap();
        assert!(
            model.status.success(),
            "{}",
            String::from_utf8_lossy(&model.stderr)
        );
        let stdout = String::from_utf8(model.stdout).unwrap();
        let line = stdout.lines().last().unwrap();
        let verdict = std::process::Command::new("python3")
            .arg(scripts.join("model_agree.py"))
            .args([
                game,
                &out.path().display().to_string(),
                line,
                &games.to_string(),
            ])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&verdict.stdout);
        assert!(verdict.status.success(), "{said}");
        assert!(said.contains(": agree"), "{said}");
    }
}
