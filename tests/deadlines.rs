//! When a version counts (spec README): by when it reached the host, never by when cron ran.
//! Round 1 of the Room Swap example closes at 15:00; Bob's mail reaches the host's server at
//! 14:59 or 16:00 and is fetched (`ingest`) a few minutes later, around ticks at 14:55, 15:00,
//! 15:06 and 16:00, with and without `grace`.

use crate::support::{Run, adjudicate, bobs_mail, everyone_but_bob as game, flat, submit, tick};
use std::fs;
use std::path::Path;

fn ingest(dir: &Path, eml: &Path, now: &str) -> Run {
    adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        "--eml".as_ref(),
        eml.as_os_str(),
        "--now".as_ref(),
        now.as_ref(),
    ])
}

fn result(dir: &Path, round: u32) -> toml::Table {
    let text = fs::read_to_string(dir.join(format!("rounds/{round:03}/result.toml"))).unwrap();
    toml::from_str(&text).unwrap()
}

fn defaults(dir: &Path, round: u32) -> Vec<String> {
    result(dir, round)["public"]
        .get("defaults")
        .and_then(|d| d.as_array())
        .map(|d| d.iter().map(|v| v.as_str().unwrap().to_owned()).collect())
        .unwrap_or_default()
}

fn outbox_or_sent(dir: &Path, prefix: &str) -> String {
    for folder in ["outbox", "sent"] {
        if let Ok(entries) = fs::read_dir(dir.join(folder)) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().starts_with(prefix) {
                    return fs::read_to_string(entry.path()).unwrap();
                }
            }
        }
    }
    panic!("no message {prefix}* in outbox/ or sent/")
}

#[test]
fn mail_that_reached_the_host_before_the_deadline_but_was_fetched_after_the_round_counts_for_neither_round()
 {
    let game = game("");
    let dir = game.path();
    let eml = bobs_mail(dir, "14:59");
    tick(dir, "2026-12-02T14:55:00Z", &["-q"]);
    assert!(!dir.join("rounds/001/result.toml").exists());
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    assert_eq!(defaults(dir, 1), ["bob"], "round 1 resolved without Bob");

    let run = ingest(dir, &eml, "2026-12-02T15:06:00Z");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("from bob: reached the host Wed 2 Dec 14:59 UTC, before round 1 closed (Wed 2 Dec 15:00 UTC), but round 1 was resolved before it was fetched"),
        "{}",
        run.stderr
    );
    assert!(
        !dir.join("rounds/002/submissions/bob.toml").exists(),
        "never applied to round 2"
    );
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.contains("used for neither round 1 nor round 2"),
        "{log}"
    );
    let reply = flat(&outbox_or_sent(dir, "r002-late-bob-"));
    assert!(
        reply.contains("Your message reached us at Wed 2 Dec 14:59 UTC, before round 1 closed (Wed 2 Dec 15:00 UTC), but round 1 had already been resolved when we fetched it"),
        "{reply}"
    );
    tick(dir, "2026-12-02T16:00:00Z", &["-q"]);
    assert!(!dir.join("rounds/002/received").exists());
}

#[test]
fn with_grace_the_same_mail_counts_for_its_round() {
    let game = game("grace = \"10m\"\n");
    let dir = game.path();
    let eml = bobs_mail(dir, "14:59");
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "the round waits out its grace"
    );
    let run = ingest(dir, &eml, "2026-12-02T15:06:00Z");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    tick(dir, "2026-12-02T15:06:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(
        receipts.contains("player = \"bob\"\nn = 1\nat = \"2026-12-02T15:06:00Z\"\nreached = \"2026-12-02T14:59:12Z\""),
        "{receipts}"
    );
    assert!(!dir.join("rounds/001/result.toml").exists());
    tick(dir, "2026-12-02T15:10:00Z", &["-q"]);
    assert!(
        defaults(dir, 1).is_empty(),
        "Bob's basement counted: {:?}",
        defaults(dir, 1)
    );
    let report = fs::read_to_string(dir.join("rounds/001/private/bob.txt")).unwrap();
    assert!(report.contains("Basement"), "{report}");
}

#[test]
fn mail_that_reached_the_host_after_the_deadline_is_archived_late_and_used_nowhere() {
    // No tick ran between 14:55 and 16:05: the round is still open when the mail is fetched,
    // but the mail reached the host at 16:00, after the 15:00 deadline.
    let game = game("");
    let dir = game.path();
    tick(dir, "2026-12-02T14:55:00Z", &["-q"]);
    let eml = bobs_mail(dir, "16:00");
    let run = ingest(dir, &eml, "2026-12-02T16:05:00Z");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let summary = tick(dir, "2026-12-02T16:05:00Z", &[]);
    assert!(
        summary.stdout.contains("received bob version 1: LATE"),
        "{}",
        summary.stdout
    );
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(
        receipts.contains("refused = true\nlate = true"),
        "{receipts}"
    );
    assert!(
        dir.join("rounds/001/received/bob-1.toml").is_file(),
        "archived"
    );
    assert_eq!(defaults(dir, 1), ["bob"], "not used for round 1");
    let reply = flat(&outbox_or_sent(dir, "r001-ack-bob-1"));
    assert!(
        reply.contains("Your message reached us at Wed 2 Dec 16:00 UTC; the deadline of round 1 was Wed 2 Dec 15:00 UTC. It does not count for round 1."),
        "{reply}"
    );
    assert!(!dir.join("rounds/002/submissions/bob.toml").exists());
    let replay = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(replay.code, 0, "{}", replay.stdout);
}

#[test]
fn a_file_put_in_by_hand_counts_from_the_tick_that_first_sees_it() {
    let game = game("");
    let dir = game.path();
    submit(dir, 1, "bob", "room = \"basement\"\n");
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    assert!(defaults(dir, 1).is_empty(), "seen at 15:00, on time");

    let late = self::game("");
    submit(late.path(), 1, "bob", "room = \"basement\"\n");
    tick(late.path(), "2026-12-02T15:01:00Z", &["-q"]);
    assert_eq!(
        defaults(late.path(), 1),
        ["bob"],
        "first seen at 15:01: late"
    );
}

#[test]
fn status_shows_a_late_version_while_the_round_waits_out_its_grace() {
    let game = game("grace = \"30m\"\n");
    let dir = game.path();
    let eml = bobs_mail(dir, "15:10");
    let run = ingest(dir, &eml, "2026-12-02T15:12:00Z");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    tick(dir, "2026-12-02T15:15:00Z", &["-q"]);
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "grace until 15:30"
    );
    let status = adjudicate([
        "status".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T15:20:00Z".as_ref(),
    ]);
    assert!(
        status.stdout.contains("bob          NO valid choice; version 1 reached the host after the deadline (2026-12-02T15:10:12Z): archived, not used"),
        "{}",
        status.stdout
    );
}
