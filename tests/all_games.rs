//! One cron line for a host's whole world: `round --all ROOT` ticks every game directory under
//! ROOT (season matches included) in path order, each under its own lock; one game's error is
//! printed with its path and the others still run; the exit status is the most serious one.

use crate::support::{adjudicate, example_dir, god_race_example_dir};
use std::fs;

#[test]
fn round_all_ticks_every_game_under_a_root_and_reports_the_broken_one() {
    let root = tempfile::tempdir().unwrap();
    let games = [
        ("alone", example_dir()),
        ("season/matches/01-god-race", god_race_example_dir()),
        ("broken", example_dir()),
    ];
    for (dir, example) in &games {
        fs::create_dir_all(root.path().join(dir)).unwrap();
        fs::copy(
            example.join("game.toml"),
            root.path().join(dir).join("game.toml"),
        )
        .unwrap();
    }
    let broken = root.path().join("broken/game.toml");
    let text = fs::read_to_string(&broken)
        .unwrap()
        .replace("transport = \"file\"", "transport = \"pigeon\"");
    fs::write(&broken, text).unwrap();

    let run = adjudicate([
        "round".as_ref(),
        "--all".as_ref(),
        root.path().as_os_str(),
        "--now".as_ref(),
        "2026-12-01T09:00:00Z".as_ref(),
    ]);
    assert_eq!(
        run.code, 65,
        "the broken game decides: {}{}",
        run.stdout, run.stderr
    );
    assert!(
        run.stderr.contains("broken/game.toml:12:1: mail.transport"),
        "{}",
        run.stderr
    );
    for dir in ["alone", "season/matches/01-god-race"] {
        assert!(
            root.path().join(dir).join("state.toml").is_file(),
            "{dir} was not ticked"
        );
    }
    // path order, a header per game
    let headers: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("== "))
        .collect();
    assert_eq!(headers.len(), 3, "{}", run.stdout);
    assert!(
        headers[0].ends_with("alone") && headers[2].ends_with("01-god-race"),
        "{headers:?}"
    );

    let status = adjudicate(["status".as_ref(), "--all".as_ref(), root.path().as_os_str()]);
    assert_eq!(status.code, 65);
    let lines: Vec<&str> = status.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", status.stdout);
    assert!(
        lines[0].contains("alone: Attic Basement Cellar (room-swap): Round 1; Deadline:"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("01-god-race: Main Match 7: God Race (god-race): Round 0"),
        "{}",
        lines[1]
    );
}
