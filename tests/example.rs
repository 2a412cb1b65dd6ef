//! The sample game (`games/room-swap/example`) played through the built binary, as `make demo`
//! does: correct announcements, replay byte for byte, and idempotent ticks.

use crate::support::{
    adjudicate, example_game, play_script, play_script_with, script, snapshot, tick,
};
use std::fs;

fn read(dir: &std::path::Path, path: &str) -> String {
    fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_sample_game_plays_to_its_end_with_the_right_announcements() {
    let game = example_game();
    let dir = game.path();
    play_script(dir);

    let r1 = read(dir, "rounds/001/public.txt");
    // spec worked example 2: A B C and D (moved by the Block to the attic) score, 4-1-1
    assert!(r1.contains("4 players gained a point this round."), "{r1}");
    assert!(r1.contains("Items used: 1 Peek, 1 Block."), "{r1}");
    let r2 = read(dir, "rounds/002/public.txt");
    assert!(
        r2.contains("No valid room from Frank: a random room was used."),
        "{r2}"
    );
    assert!(
        r2.contains("no Peek"),
        "Erin's Peek on Frank was not used: {r2}"
    );
    let r4 = read(dir, "rounds/004/public.txt");
    for line in [
        "Dave: 4  winner",
        "Frank: 1  Elimination Candidate",
        "Alice: 2",
        "Dave is the sole winner",
    ] {
        assert!(r4.contains(line), "{line:?} missing from\n{r4}");
    }
    let r5 = read(dir, "rounds/005/public.txt");
    assert!(
        r5.contains("Dave, the sole winner, gives a Token of Life to Alice."),
        "{r5}"
    );
    assert!(
        r5.contains("Death Match opponents may be chosen among:\nBob, Carol, Erin."),
        "{r5}"
    );

    let dave = read(dir, "rounds/001/private/dave.txt");
    assert!(
        dave.contains("your fallback, as a Block forbade the\nBasement"),
        "{dave}"
    );
    let bob = read(dir, "rounds/001/private/bob.txt");
    assert!(
        bob.contains("Peek on dave: dave's initial room this round is the Basement."),
        "{bob}"
    );
    assert!(bob.contains("Garnets: 2 (-2 this round)"), "{bob}");

    let state = read(dir, "state.toml");
    assert!(state.contains("phase = \"over\""), "{state}");
    // garnets: Dave 3 + 4 points + 4 as sole winner
    let end: toml::Table = toml::from_str(&state).unwrap();
    assert_eq!(end["players"]["dave"]["garnets"].as_integer(), Some(11));
    assert_eq!(end["players"]["alice"]["token"].as_bool(), Some(true));
    assert_eq!(end["players"]["frank"]["token"].as_bool(), Some(false));
}

#[test]
fn replay_reproduces_every_file_and_finds_a_tampered_one() {
    let game = example_game();
    let dir = game.path();
    play_script(dir);
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("replay: 5 round(s) and 49 file(s) reproduced byte for byte"),
        "{}",
        run.stdout
    );

    let public = dir.join("rounds/003/public.txt");
    let text = fs::read_to_string(&public)
        .unwrap()
        .replace("3 players", "2 players");
    fs::write(&public, text).unwrap();
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("rounds/003/public.txt: differs at line 3"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_seed_changed_mid_game_is_refused_by_replay_round_and_check() {
    let game = example_game();
    let dir = game.path();
    play_script(dir);
    let toml = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .replace("seed = 20261130", "seed = 7");
    fs::write(dir.join("game.toml"), toml).unwrap();
    for command in ["replay", "round", "check", "status"] {
        let run = adjudicate([command.as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 65, "{command}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("game.toml: seed: is 7 but this game was dealt with seed = 20261130"),
            "{command}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_second_tick_with_nothing_new_writes_nothing() {
    let game = example_game();
    let dir = game.path();
    play_script(dir);
    let before = snapshot(dir);
    for (now, _) in script() {
        tick(dir, &now, &["-q"]);
        tick(dir, &now, &["--force", "-q"]); // the game is over: even --force has nothing to do
    }
    assert_eq!(before, snapshot(dir));
}

#[test]
fn ticks_repeated_at_every_step_give_the_same_archive_as_single_ticks() {
    let once = example_game();
    play_script(once.path());
    let twice = example_game();
    play_script_with(twice.path(), |now| {
        let after_first = snapshot(twice.path());
        tick(twice.path(), now, &["-q"]);
        assert_eq!(
            after_first,
            snapshot(twice.path()),
            "second tick at {now} changed files"
        );
    });
    assert_eq!(snapshot(once.path()), snapshot(twice.path()));
}

#[test]
fn the_readme_shows_real_output_of_the_sample_game() {
    let game = example_game();
    let dir = game.path();
    play_script(dir);
    let readme = fs::read_to_string(crate::support::manifest_dir().join("README.md")).unwrap();
    for file in [
        "rounds/001/public.txt",
        "rounds/001/private/dave.txt",
        "rounds/004/public.txt",
    ] {
        let text = read(dir, file);
        assert!(
            readme.contains(&format!("```\n{text}```")),
            "README.md does not show the current {file}:\n{text}"
        );
    }
}

#[test]
fn the_readme_shows_a_real_acknowledgement() {
    let game = example_game();
    play_script(game.path());
    let raw = fs::read_to_string(game.path().join("sent/r001-ack-frank-1.eml"))
        .unwrap()
        .replace("\r\n", "\n");
    let body = raw.split_once("\n\n").unwrap().1;
    let readme = fs::read_to_string(crate::support::manifest_dir().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("```\n{body}```")),
        "README.md does not show Frank's current acknowledgement:\n{body}"
    );
    let last = fs::read_to_string(game.path().join("rounds/004/private/frank.txt")).unwrap();
    assert!(
        readme.contains(&format!("```\n{last}```")),
        "README.md does not show Frank's current last report:\n{last}"
    );
}

#[test]
fn the_first_tick_welcomes_every_player_with_their_first_submission() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-01T00:00:00Z", &["-q"]);
    let public = read(dir, "rounds/000/public.txt");
    assert!(
        public.contains("the game begins")
            && public.contains("Players: Alice, Bob, Carol, Dave, Erin, Frank."),
        "{public}"
    );
    let carol = read(dir, "rounds/000/private/carol.txt");
    assert!(
        carol.contains("welcome, Carol")
            && carol.contains("Garnets: 12.")
            && carol.contains("\nroom = \"attic\"\n"),
        "{carol}"
    );
    assert!(dir.join("sent/r000-private-carol-0.eml").is_file());
}
