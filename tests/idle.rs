//! The tick cache (`src/tick_cache.rs`): a cron tick that finds nothing new reads almost nothing,
//! and says exactly what a full tick would; anything that could change what a tick does (a new
//! or changed file, the clock reaching a deadline, mail waiting) makes the next tick a full one.

use crate::support::*;
use std::fs;
use std::path::Path;

const MORNING: &str = "2026-12-02T09:00:00Z";
const NOON: &str = "2026-12-02T12:00:00Z";
const DEADLINE: &str = "2026-12-02T15:00:00Z";

/// The summary without its last line (the time the tick took).
fn said(run: &Run) -> String {
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines.last().unwrap().starts_with("done in "),
        "{}",
        run.stdout
    );
    lines[..lines.len() - 1].join("\n")
}

fn stamped(dir: &Path) -> bool {
    dir.join(".cache/idle.toml").is_file()
}

/// Round 1 with alice's version received; then a tick that finds nothing new stamps the game.
fn quiet_game() -> tempfile::TempDir {
    let game = example_game();
    let dir = game.path();
    tick(dir, MORNING, &["-q"]);
    submit(dir, 1, "alice", "room = \"attic\"\n");
    tick(dir, MORNING, &["-q"]);
    assert!(!stamped(dir), "a tick that received something is not idle");
    tick(dir, MORNING, &["-q"]);
    assert!(
        stamped(dir),
        "a tick that found nothing new stamps the game"
    );
    game
}

/// The files a tick opens (strace).
fn opened_by_tick(dir: &Path, now: &str) -> String {
    let log = tempfile::NamedTempFile::new().unwrap();
    let status = std::process::Command::new("strace")
        .args(["-f", "-e", "trace=openat,open", "-o"])
        .arg(log.path())
        .arg(env!("CARGO_BIN_EXE_adjudicate"))
        .args([
            "round".as_ref(),
            dir.as_os_str(),
            "--now".as_ref(),
            now.as_ref(),
            "-q".as_ref(),
        ])
        .status()
        .expect("strace runs (.ci/run installs it)");
    assert!(status.success());
    fs::read_to_string(log.path()).unwrap()
}

#[test]
fn an_idle_tick_says_what_a_full_tick_says_and_writes_nothing() {
    let game = quiet_game();
    let dir = game.path();
    let before = snapshot(dir);
    let opened = opened_by_tick(dir, NOON);
    for file in ["game.toml", "state.toml", "receipts.toml", "alice.toml"] {
        assert!(
            !opened.contains(file),
            "an idle tick opened {file}:\n{opened}"
        );
    }
    let idle = tick(dir, NOON, &[]);
    assert_eq!(snapshot(dir), before);
    fs::remove_dir_all(dir.join(".cache")).unwrap();
    let full = tick(dir, NOON, &[]);
    assert_eq!(said(&idle), said(&full));
    assert!(
        said(&idle)
            .contains("round 1 not due: deadline Wed 2 Dec 15:00 UTC (in 3 h 0 min); 1 of 6 valid"),
        "{}",
        idle.stdout
    );
}

#[test]
fn a_new_file_ends_the_idle_spell() {
    let game = quiet_game();
    let dir = game.path();
    submit(dir, 1, "bob", "room = \"cellar\"\n");
    let run = tick(dir, NOON, &[]);
    assert!(
        run.stdout.contains("received bob version 1: valid"),
        "{}",
        run.stdout
    );
    assert!(!stamped(dir));
}

#[test]
fn a_file_rewritten_with_the_same_size_and_mtime_is_still_read_again() {
    let game = example_game();
    let dir = game.path();
    tick(dir, MORNING, &["-q"]);
    submit(dir, 1, "alice", "room = \"attic\"\n");
    // older than the cache's two seconds of doubt, so that its hash is cached
    std::thread::sleep(std::time::Duration::from_millis(2100));
    tick(dir, MORNING, &["-q"]);
    let seen = fs::read_to_string(dir.join(".cache/seen-001")).unwrap();
    assert!(seen.starts_with("alice.toml "), "{seen}");
    let path = dir.join("rounds/001/submissions/alice.toml");
    let mtime = fs::metadata(&path).unwrap().modified().unwrap();
    // same length as `room = "attic"\n`, written in place, mtime set back
    fs::write(&path, "room =\"cellar\"\n").unwrap();
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let run = tick(dir, NOON, &[]);
    assert!(
        run.stdout.contains("received alice version 2: valid"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_deadline_ends_the_idle_spell() {
    let game = quiet_game();
    let dir = game.path();
    let run = tick(dir, DEADLINE, &[]);
    assert!(run.stdout.contains("resolved round 1"), "{}", run.stdout);
    assert!(dir.join("rounds/001/result.toml").is_file());
}

#[test]
fn a_reminder_window_opening_ends_the_idle_spell() {
    let game = example_game();
    let dir = game.path();
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    let text = text.replacen(
        "every = \"24h\"\n",
        "every = \"24h\"\nremind_before = \"4h\"\n",
        1,
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    tick(dir, MORNING, &["-q"]);
    tick(dir, MORNING, &["-q"]);
    assert!(stamped(dir));
    let run = tick(dir, "2026-12-02T11:00:00Z", &[]);
    assert!(
        run.stdout.contains("mail: 6 queued"),
        "reminders: {}",
        run.stdout
    );
}

#[test]
fn mail_waiting_in_the_outbox_is_tried_again_by_every_tick() {
    let game = quiet_game();
    let dir = game.path();
    // a message the last send step could not deliver
    fs::create_dir_all(dir.join("outbox")).unwrap();
    fs::copy(
        dir.join("sent/r001-ack-alice-1.eml"),
        dir.join("outbox/r001-ack-alice-1.eml"),
    )
    .unwrap();
    let run = tick(dir, NOON, &[]);
    assert!(run.stdout.contains("1 sent"), "{}", run.stdout);
    assert!(!dir.join("outbox/r001-ack-alice-1.eml").exists());
}

/// A tick that resolves the round whatever arrives (its deadline passed) keeps no hashes of the
/// round's files: no later tick reads a closed round's cache. A tick that waits keeps them.
#[test]
fn a_tick_that_resolves_the_round_keeps_no_hashes_of_its_files() {
    let seen = |dir: &Path| dir.join(".cache/seen-001").exists();
    for (now, kept) in [(NOON, true), (DEADLINE, false)] {
        let game = example_game();
        let dir = game.path();
        tick(dir, MORNING, &["-q"]);
        submit(dir, 1, "alice", "room = \"attic\"\n");
        // older than the cache's two seconds of doubt, so that its hash could be kept
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let run = tick(dir, now, &[]);
        assert_eq!(
            run.stdout.contains("resolved round 1"),
            !kept,
            "{}",
            run.stdout
        );
        assert_eq!(seen(dir), kept, "{now}: {}", run.stdout);
    }
}
