//! The command line through the built binary: help on everything, exit codes, `check`, `status`,
//! `new`, `render` with a template override, `send`.

use crate::support::{adjudicate, example_game, submit, tick};
use std::fs;

#[test]
fn every_subcommand_has_help() {
    for sub in [
        "new", "check", "status", "round", "render", "replay", "send", "ingest",
    ] {
        let run = adjudicate([sub, "--help"]);
        assert_eq!(run.code, 0, "{sub}: {}", run.stderr);
        for text in [
            "Usage: adjudicate",
            "<GAME_DIR>  The game directory",
            "Example: adjudicate",
        ] {
            assert!(
                run.stdout.contains(text),
                "{sub}: {text:?} not in\n{}",
                run.stdout
            );
        }
    }
    let run = adjudicate(["--help"]);
    assert!(run.stdout.contains("Exit codes: 0 done"), "{}", run.stdout);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(adjudicate(["frobnicate"]).code, 2);
    assert_eq!(adjudicate(["round"]).code, 2);
    let run = adjudicate(["round", "/tmp", "--now", "tomorrow"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not an RFC 3339 time"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_missing_game_directory_is_an_invalid_directory() {
    let run = adjudicate(["round", "/nonexistent/game"]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("/nonexistent/game/game.toml: no game.toml here"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_prints_every_problem_with_file_line_and_column() {
    let game = example_game();
    let dir = game.path();
    let file = dir.join("mine.toml");
    fs::write(
        &file,
        "room = \"attic\"\nrom = \"cellar\"\nfallback = \"roof\"\n",
    )
    .unwrap();
    let run = adjudicate([
        "check".as_ref(),
        dir.as_os_str(),
        file.as_os_str(),
        "--player".as_ref(),
        "bob".as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    let shown = file.display().to_string();
    assert!(
        run.stdout.contains(&format!(
            "{shown}:3:12: fallback must be one of attic, basement, cellar, not \"roof\""
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!(
            "{shown}:2:1: unknown key `rom`, did you mean `room`?"
        )),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("2 problem(s) found"), "{}", run.stderr);

    fs::write(&file, "room = \"attic\"\n").unwrap();
    let run = adjudicate([
        "check".as_ref(),
        dir.as_os_str(),
        file.as_os_str(),
        "--player".as_ref(),
        "bob".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let run = adjudicate(["check".as_ref(), dir.as_os_str(), file.as_os_str()]);
    assert_eq!(run.code, 2, "`mine` is not a player: {}", run.stderr);
}

#[test]
fn check_of_a_directory_reads_the_current_round_without_writing() {
    let game = example_game();
    let dir = game.path();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    submit(dir, 1, "bob", "room = 7\n");
    fs::write(dir.join("rounds/001/submissions/zed.toml"), "").unwrap();
    let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 65);
    assert!(
        run.stdout
            .contains("rounds/001/submissions/bob.toml:1:8: room must be a string, not an integer"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("zed.toml: no player `zed` in game.toml"),
        "{}",
        run.stdout
    );
    assert!(!dir.join("state.toml").exists(), "check wrote state.toml");
}

#[test]
fn status_shows_the_deadline_and_who_is_missing() {
    let game = example_game();
    let dir = game.path();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    submit(dir, 1, "bob", "room = \"kitchen\"\n");
    tick(dir, "2026-12-02T09:00:00Z", &["--no-send", "-q"]);
    submit(dir, 1, "carol", "room = \"attic\"\n");
    let run = adjudicate([
        "status".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T11:30:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        "Attic Basement Cellar (room-swap)",
        "Round 1",
        "Deadline: Wed 2 Dec 2026 15:00 UTC (in 3 h 30 min)",
        "Valid submissions: 1 of 6",
        "alice        valid (latest version 1)",
        "bob          NO valid choice (version 1: 1 problem(s))",
        "carol        nothing received yet; a new version waits for the next tick",
        "dave         nothing received yet",
        "Outbox: 9 message(s) waiting to be sent",
    ] {
        assert!(
            run.stdout.contains(line),
            "{line:?} missing from\n{}",
            run.stdout
        );
    }
    let run = adjudicate(["send".as_ref(), dir.as_os_str()]);
    assert_eq!(run.stdout, "sent 9 message(s)\n");
    assert!(dir.join("sent/r001-ack-bob-1.eml").is_file());
}

#[test]
fn new_makes_a_game_that_plays_and_refuses_a_non_empty_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("match");
    let run = adjudicate(["new".as_ref(), "room-swap".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(adjudicate(["check".as_ref(), dir.as_os_str()]).code, 0);
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-01T00:00:00Z".as_ref(),
    ]);
    assert!(run.stdout.contains("set up the game"), "{}", run.stdout);
    let run = adjudicate(["new".as_ref(), "room-swap".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 2);
    let run = adjudicate([
        "new".as_ref(),
        "chess".as_ref(),
        tmp.path().join("x").as_os_str(),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown game `chess`"),
        "{}",
        run.stderr
    );
}

#[test]
fn new_takes_the_players_from_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let players = tmp.path().join("players.toml");
    let list: String = ["ann", "ben", "cat", "dan", "eve", "fay"]
        .iter()
        .map(|id| {
            format!("[[players]]\nid = \"{id}\"\nemail = \"{id}@example.net\"\ngarnets = 7\nchat = \"{id}#1\"\n")
        })
        .collect();
    fs::write(&players, list).unwrap();
    let dir = tmp.path().join("g");
    let run = adjudicate([
        "new".as_ref(),
        "room-swap".as_ref(),
        dir.as_os_str(),
        "--players".as_ref(),
        players.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let toml = fs::read_to_string(dir.join("game.toml")).unwrap();
    assert!(
        toml.contains("id = \"fay\"") && !toml.contains("alice"),
        "{toml}"
    );
    // every column is kept, the id first
    assert!(
        toml.contains("[[players]]\nid = \"ann\"\nchat = \"ann#1\"\nemail = \"ann@example.net\"\ngarnets = 7\n"),
        "{toml}"
    );
}

#[test]
fn new_draws_a_seed_of_its_own_for_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let seed = |name: &str| {
        let dir = tmp.path().join(name);
        let run = adjudicate(["new".as_ref(), "god-race".as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let toml: toml::Table =
            toml::from_str(&fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
        toml["seed"].as_integer().unwrap()
    };
    assert_ne!(seed("a"), seed("b"));
}

#[test]
fn render_applies_a_template_override_from_the_game_directory() {
    let game = example_game();
    let dir = game.path();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    fs::create_dir_all(dir.join("templates")).unwrap();
    fs::write(
        dir.join("templates/public.txt.tera"),
        "Round {{ public.round }}: {{ public.scorers }} scored.\n",
    )
    .unwrap();
    let run = adjudicate([
        "render".as_ref(),
        dir.as_os_str(),
        "--round".as_ref(),
        "1".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let public = fs::read_to_string(dir.join("rounds/001/public.txt")).unwrap();
    assert!(
        public.starts_with("Round 1: ") && public.ends_with(" scored.\n"),
        "{public}"
    );
    let run = adjudicate([
        "render".as_ref(),
        dir.as_os_str(),
        "--round".as_ref(),
        "9".as_ref(),
    ]);
    assert_eq!(run.code, 2, "round 9 was never resolved: {}", run.stderr);
    // a broken override is a host error naming the file
    fs::write(dir.join("templates/public.txt.tera"), "{{ public.round \n").unwrap();
    let run = adjudicate(["render".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr.contains("templates/public.txt.tera: template:"),
        "{}",
        run.stderr
    );
}

#[test]
fn new_makes_a_checked_game_directory_for_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    for game in crate::support::matches() {
        let dir = tmp.path().join(game);
        let run = adjudicate(["new".as_ref(), game.as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 0, "{game}: {}", run.stderr);
        let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 0, "{game}: {}{}", run.stdout, run.stderr);
        let text = fs::read_to_string(dir.join("game.toml")).unwrap();
        assert!(text.contains(&format!("game = \"{game}\"")), "{text}");
    }
}
