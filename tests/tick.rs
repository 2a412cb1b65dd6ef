//! The tick's contract (spec README, "The round lifecycle"): dry runs, the lock, broken host
//! files, deadlines and --force, early close, crash recovery, tokens.

use crate::support::{adjudicate, example_game, snapshot, submit, tick};
use std::fs;
use std::path::Path;

const BEFORE_DEADLINE: &str = "2026-12-02T09:00:00Z";
const AT_DEADLINE: &str = "2026-12-02T15:00:00Z";

fn all_six(dir: &Path, round: u32) {
    for (player, room) in [
        ("alice", "attic"),
        ("bob", "attic"),
        ("carol", "attic"),
        ("dave", "basement"),
        ("erin", "basement"),
        ("frank", "cellar"),
    ] {
        submit(dir, round, player, &format!("room = \"{room}\"\n"));
    }
}

fn edit_game_toml(dir: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    assert!(text.contains(from), "game.toml has no {from:?}");
    fs::write(dir.join("game.toml"), text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_dry_run_reports_what_it_would_write_and_writes_nothing() {
    let game = example_game();
    let dir = game.path();
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    all_six(dir, 1);
    let before = snapshot(dir);
    let run = tick(dir, AT_DEADLINE, &["--dry-run"]);
    assert_eq!(before, snapshot(dir));
    assert!(
        run.stdout.contains("dry run: nothing written"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("would write rounds/001/result.toml"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("would write state.toml"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_held_lock_makes_the_tick_exit_75_at_once() {
    let game = example_game();
    let lock = fs::File::create(game.path().join(".adjudicate.lock")).unwrap();
    lock.try_lock().unwrap();
    let run = adjudicate(["round".as_ref(), game.path().as_os_str()]);
    assert_eq!(run.code, 75, "{}", run.stderr);
    assert!(
        run.stderr.contains("another adjudicate run holds the lock"),
        "{}",
        run.stderr
    );
    assert!(!game.path().join("state.toml").exists());
}

#[test]
fn a_broken_game_toml_exits_65_naming_file_and_key_and_writes_nothing() {
    let cases = [
        (
            "seed = 20261130",
            "seed = \"soon\"",
            "game.toml:4:8: invalid type",
        ),
        (
            "transport = \"file\"",
            "transport = \"pigeon\"",
            "game.toml:12:1: mail.transport: `pigeon` is not one of",
        ),
        (
            "every = \"24h\"",
            "every = \"daily\"",
            "game.toml:8:1: schedule.every: `daily` is not a duration",
        ),
        (
            "id = \"bob\"",
            "id = \"alice\"",
            "game.toml:26:1: players[1].id: player id `alice` appears twice",
        ),
        ("id = \"bob\"", "id = \"Bob!\"", "is not a player id"),
        (
            "rounds = 4",
            "rounds = 4\nlives = 3",
            "game.toml: options: unknown field `lives`",
        ),
        (
            "game = \"room-swap\"",
            "game = \"chess\"",
            "game.toml:2:1: game: unknown game `chess`",
        ),
    ];
    for (from, to, expected) in cases {
        let game = example_game();
        edit_game_toml(game.path(), from, to);
        let before = snapshot(game.path());
        let run = adjudicate(["round".as_ref(), game.path().as_os_str()]);
        assert_eq!(run.code, 65, "{to}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(expected),
            "{to}: expected {expected:?} in {}",
            run.stderr
        );
        assert_eq!(before, snapshot(game.path()), "{to}: something was written");
    }
}

#[test]
fn a_game_with_the_wrong_number_of_players_is_refused() {
    let game = example_game();
    let text = fs::read_to_string(game.path().join("game.toml")).unwrap();
    let cut = text.find("[[players]]\nid = \"frank\"").unwrap();
    fs::write(game.path().join("game.toml"), &text[..cut]).unwrap();
    let run = adjudicate(["round".as_ref(), game.path().as_os_str()]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr.contains(
            "game.toml: players: Room Swap is played by exactly 6 players; game.toml has 5"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_broken_state_toml_exits_65_and_changes_nothing() {
    let game = example_game();
    let dir = game.path();
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    let state = fs::read_to_string(dir.join("state.toml")).unwrap();
    fs::write(
        dir.join("state.toml"),
        state.replace("phase = \"main\"", "phase = \"lunch\""),
    )
    .unwrap();
    all_six(dir, 1);
    let before = snapshot(dir);
    let run = adjudicate(["round".as_ref(), dir.as_os_str(), "--force".as_ref()]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr
            .contains("state.toml:5:9: unknown variant `lunch`"),
        "{}",
        run.stderr
    );
    assert_eq!(before, snapshot(dir));
}

#[test]
fn without_a_schedule_only_force_resolves() {
    let game = example_game();
    let dir = game.path();
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    let text = text.replace(
        "[schedule]\nfirst_deadline = 2026-12-02T15:00:00Z\nevery = \"24h\"\n",
        "",
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    all_six(dir, 1);
    let run = tick(dir, "2030-01-01T00:00:00Z", &[]);
    assert!(
        run.stdout
            .contains("round 1 has no deadline: resolve it with --force; 6 of 6 valid"),
        "{}",
        run.stdout
    );
    assert!(!dir.join("rounds/001/result.toml").exists());
    let run = tick(dir, "2030-01-01T00:00:00Z", &["--force"]);
    assert!(run.stdout.contains("resolved round 1"), "{}", run.stdout);
    assert!(dir.join("rounds/002/submissions").is_dir());
}

#[test]
fn a_round_resolves_at_its_deadline_and_not_before() {
    let game = example_game();
    let dir = game.path();
    all_six(dir, 1);
    let run = tick(dir, "2026-12-02T14:59:59Z", &[]);
    assert!(
        run.stdout
            .contains("round 1 not due: deadline Wed 2 Dec 15:00 UTC (in 0 min)")
            || run.stdout.contains("round 1 not due"),
        "{}",
        run.stdout
    );
    assert!(!dir.join("rounds/001/result.toml").exists());
    tick(dir, AT_DEADLINE, &["-q"]);
    assert!(dir.join("rounds/001/result.toml").exists());
    // round 2's deadline is 24 h later
    let run = tick(dir, "2026-12-03T14:00:00Z", &[]);
    assert!(
        run.stdout
            .contains("deadline Thu 3 Dec 15:00 UTC (in 1 h 0 min)"),
        "{}",
        run.stdout
    );
}

/// The Room Swap example with `early_close = true` and all six players' round 1 files (not yet
/// received).
fn early_closing_with_all_six() -> tempfile::TempDir {
    let game = example_game();
    let dir = game.path();
    edit_game_toml(
        dir,
        "every = \"24h\"",
        "every = \"24h\"\nearly_close = true",
    );
    all_six(dir, 1);
    game
}

#[test]
fn early_close_resolves_once_every_player_has_a_valid_room() {
    let game = early_closing_with_all_six();
    let dir = game.path();
    submit(dir, 1, "frank", "room = \"garden\"\n");
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "Frank has no valid room yet"
    );
    submit(dir, 1, "frank", "room = \"cellar\"\n");
    tick(dir, "2026-12-02T09:05:00Z", &["-q"]);
    assert!(dir.join("rounds/001/result.toml").exists());
}

/// Issue 57: early close waits until every expected player's *latest* version is valid; an
/// earlier valid version on file does not close the round while the player is still fixing a
/// later one.
#[test]
fn early_close_waits_while_a_players_latest_version_is_invalid() {
    let game = early_closing_with_all_six();
    let dir = game.path();
    fs::remove_file(dir.join("rounds/001/submissions/bob.toml")).unwrap();
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    // Frank's second version is invalid (his first room stays on file); Bob's first arrives
    submit(dir, 1, "frank", "room = \"garden\"\n");
    submit(dir, 1, "bob", "room = \"attic\"\n");
    let run = tick(dir, "2026-12-02T09:05:00Z", &[]);
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "Frank's latest version is invalid: {}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("6 of 6 valid; latest version invalid: frank"),
        "{}",
        run.stdout
    );
    submit(dir, 1, "frank", "room = \"basement\"\n");
    tick(dir, "2026-12-02T09:10:00Z", &["-q"]);
    assert!(dir.join("rounds/001/result.toml").exists());
    let result = fs::read_to_string(dir.join("rounds/001/result.toml")).unwrap();
    assert!(
        result.contains("closed = \"2026-12-02T09:10:00Z\""),
        "{result}"
    );
}

#[test]
fn a_tick_killed_before_state_toml_is_finished_by_the_next_one_byte_for_byte() {
    // The uninterrupted run.
    let whole = example_game();
    tick(whole.path(), BEFORE_DEADLINE, &["-q"]);
    all_six(whole.path(), 1);
    submit(
        whole.path(),
        1,
        "carol",
        "room = \"attic\"\nblock = { player = \"dave\", room = \"basement\" }\n",
    );
    tick(whole.path(), "2026-12-02T10:00:00Z", &["-q"]);
    tick(whole.path(), AT_DEADLINE, &["-q"]);
    let expected = snapshot(whole.path());

    // The same, but the receiving tick dies after writing received/ and receipts.toml and the
    // resolving tick dies after writing the round's reports: both before state.toml.
    let broken = example_game();
    let dir = broken.path();
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    all_six(dir, 1);
    submit(
        dir,
        1,
        "carol",
        "room = \"attic\"\nblock = { player = \"dave\", room = \"basement\" }\n",
    );
    let state = fs::read(dir.join("state.toml")).unwrap();
    tick(dir, "2026-12-02T10:00:00Z", &["--no-send", "-q"]);
    fs::write(dir.join("state.toml"), &state).unwrap();
    fs::remove_dir_all(dir.join("outbox")).unwrap();
    tick(dir, "2026-12-02T10:00:00Z", &["-q"]);

    let state = fs::read(dir.join("state.toml")).unwrap();
    tick(dir, AT_DEADLINE, &["--no-send", "-q"]);
    fs::write(dir.join("state.toml"), &state).unwrap();
    fs::remove_dir_all(dir.join("outbox")).unwrap();
    fs::remove_dir_all(dir.join("rounds/002")).unwrap();
    tick(dir, AT_DEADLINE, &["-q"]);

    assert_eq!(expected, snapshot(dir));
}

#[test]
fn tokens_are_required_checked_and_redacted_in_the_archive() {
    let game = example_game();
    let dir = game.path();
    fs::write(dir.join("secrets.toml"), "[tokens]\nalice = \"opal-7\"\n").unwrap();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(
        receipts.contains(
            "valid = false\nproblems = ['token is missing: add token = \"…\" as the first line']"
        ),
        "{receipts}"
    );

    submit(dir, 1, "alice", "token = \"opal-7\"\nroom = \"attic\"\n");
    tick(dir, "2026-12-02T09:10:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(
        receipts.ends_with("valid = true\nproblems = []\n"),
        "{receipts}"
    );
    let archived = fs::read_to_string(dir.join("rounds/001/received/alice-2.toml")).unwrap();
    assert_eq!(archived, "token = \"<redacted>\"\nroom = \"attic\"\n");
    // the submission file itself is never touched
    let original = fs::read_to_string(dir.join("rounds/001/submissions/alice.toml")).unwrap();
    assert!(original.contains("opal-7"));
    for mail in fs::read_dir(dir.join("sent")).unwrap() {
        assert!(
            !fs::read_to_string(mail.unwrap().path())
                .unwrap()
                .contains("opal-7")
        );
    }
}

#[test]
fn the_summary_says_what_the_tick_did() {
    let game = example_game();
    let dir = game.path();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    submit(dir, 1, "bob", "rom = \"attic\"\n");
    let run = tick(dir, BEFORE_DEADLINE, &[]);
    for line in [
        "Attic Basement Cellar: round 1",
        "set up the game from seed 20261130",
        "received alice version 1: valid",
        "received bob version 1: INVALID, 2 problem(s)",
        "round 1 not due: deadline Wed 2 Dec 15:00 UTC (in 6 h 0 min); 1 of 6 valid",
        "mail: 9 queued, 9 sent",
    ] {
        assert!(
            run.stdout.contains(line),
            "{line:?} missing from\n{}",
            run.stdout
        );
    }
    let quiet = tick(dir, BEFORE_DEADLINE, &["-q"]);
    assert_eq!(quiet.stdout, "");
}

#[test]
fn a_file_dropped_into_a_closed_round_is_named_by_round_and_status() {
    let game = example_game();
    let dir = game.path();
    tick(dir, BEFORE_DEADLINE, &["-q"]);
    all_six(dir, 1);
    tick(dir, AT_DEADLINE, &["-q"]);
    // mtimes have a resolution: make the late file clearly newer than result.toml
    std::thread::sleep(std::time::Duration::from_millis(20));
    submit(dir, 1, "bob", "room = \"cellar\"\n");
    let run = tick(dir, "2026-12-02T16:00:00Z", &[]);
    assert!(
        run.stdout.contains("rounds/001/submissions/bob.toml: round 1 is closed and this file came after it was resolved; it is not read"),
        "{}",
        run.stdout
    );
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status
            .stdout
            .contains("bob.toml: round 1 is closed and this file came after it was resolved"),
        "{}",
        status.stdout
    );
}
