//! Every player's own time zone (spec README, "Host actions": per-player time): times a player
//! reads are in their zone with UTC beside; the game's zone (`[schedule] tz`) for public texts
//! and players without their own; wall-time deadlines keep their wall time across a
//! daylight-saving change, and one that does not exist is refused.

use crate::support::{adjudicate, example_dir, flat, submit, text, tick};
use std::fs;
use std::path::Path;

/// The Room Swap example with `tz` lines after the named players' ids, and `schedule` lines.
fn game(zones: &[(&str, &str)], schedule: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let mut toml = text(&example_dir().join("game.toml"))
        .replace("every = \"24h\"\n", &format!("every = \"24h\"\n{schedule}"));
    for (player, zone) in zones {
        toml = toml.replace(
            &format!("id = \"{player}\"\n"),
            &format!("id = \"{player}\"\ntz = \"{zone}\"\n"),
        );
    }
    fs::write(tmp.path().join("game.toml"), toml).unwrap();
    tmp
}

fn sent(dir: &Path, name: &str) -> String {
    flat(&text(&dir.join("sent").join(name)))
}

#[test]
fn players_in_three_zones_read_their_own_times_and_the_public_reads_utc() {
    let game = game(
        &[
            ("alice", "America/New_York"),
            ("bob", "Europe/Berlin"),
            ("carol", "Asia/Tokyo"),
        ],
        "",
    );
    let dir = game.path();
    for player in ["alice", "bob", "carol", "dave"] {
        submit(dir, 1, player, "room = \"attic\"\n");
    }
    tick(dir, "2026-12-02T09:00:00Z", &["-q"]);
    let cases = [
        (
            "alice",
            "You may send new versions until Wed 2 Dec 10:00 EST (15:00 UTC).",
        ),
        (
            "bob",
            "You may send new versions until Wed 2 Dec 16:00 CET (15:00 UTC).",
        ),
        (
            "carol",
            "You may send new versions until Thu 3 Dec 00:00 JST (Wed 2 Dec 15:00 UTC).",
        ),
        (
            "dave",
            "You may send new versions until Wed 2 Dec 15:00 UTC.",
        ),
    ];
    for (player, line) in cases {
        let ack = sent(dir, &format!("r001-ack-{player}-1.eml"));
        assert!(ack.contains(line), "{player}: {ack}");
    }
    // the round's reports: the next deadline in each reader's zone, the announcement in UTC
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    let alice = text(&dir.join("rounds/001/private/alice.txt"));
    let carol = text(&dir.join("rounds/001/private/carol.txt"));
    let dave = text(&dir.join("rounds/001/private/dave.txt"));
    assert!(alice.contains("Thu 3 Dec 10:00 EST (15:00 UTC)"), "{alice}");
    assert!(
        carol.contains("Fri 4 Dec 00:00 JST (Thu 3 Dec 15:00 UTC)"),
        "{carol}"
    );
    assert!(
        dave.contains("Thu 3 Dec 15:00 UTC") && !dave.contains("EST"),
        "{dave}"
    );
    let public = text(&dir.join("rounds/001/public.txt"));
    assert!(
        !public.contains("EST") && !public.contains("JST"),
        "{public}"
    );
    // the mailed announcement reaches each zone in its own words (issue 57), one batch a zone:
    // the game's first, then each other zone
    let batches: Vec<(String, String)> = fs::read_dir(dir.join("sent"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("r001-public-bcc"))
        .map(|n| (n.clone(), sent(dir, &n)))
        .collect();
    assert_eq!(batches.len(), 4, "{batches:#?}");
    for (zone_time, bcc) in [
        ("deadline Thu 3 Dec 15:00 UTC.", "dave@example.org"),
        ("Thu 3 Dec 10:00 EST (15:00 UTC)", "alice@example.org"),
        ("Thu 3 Dec 16:00 CET (15:00 UTC)", "bob@example.org"),
        (
            "Fri 4 Dec 00:00 JST (Thu 3 Dec 15:00 UTC)",
            "carol@example.org",
        ),
    ] {
        let (name, body) = batches
            .iter()
            .find(|(_, b)| b.contains(zone_time))
            .unwrap_or_else(|| panic!("{zone_time}: {batches:#?}"));
        let raw = text(&dir.join("sent").join(name));
        let to = crate::support::header(&raw, "Bcc").unwrap_or_default();
        assert!(to.contains(bcc), "{zone_time}: {to}\n{body}");
    }
    // an extension reaches each zone in its own words
    let run = adjudicate([
        "extend",
        &dir.display().to_string(),
        "--by",
        "2h",
        "--reason",
        "a storm",
        "--now",
        "2026-12-02T16:00:00Z",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let notices: Vec<String> = fs::read_dir(dir.join("sent"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("r002-host-"))
        .map(|e| flat(&text(&e.path())))
        .collect();
    for expected in [
        "to Thu 3 Dec 17:00 UTC.",
        "to Thu 3 Dec 12:00 EST (17:00 UTC).",
        "to Fri 4 Dec 02:00 JST (Thu 3 Dec 17:00 UTC).",
        "to Thu 3 Dec 18:00 CET (17:00 UTC).",
    ] {
        assert!(
            notices.iter().any(|n| n.contains(expected)),
            "{expected}: {notices:#?}"
        );
    }
    assert_eq!(adjudicate(["replay", &dir.display().to_string()]).code, 0);
}

#[test]
fn a_wall_time_schedule_keeps_its_wall_time_across_the_change_to_winter_time() {
    // New York leaves daylight time on Sun 1 Nov 2026: 10:00 EDT is 14:00 UTC, 10:00 EST 15:00
    let game = game(&[], "");
    let dir = game.path();
    let path = dir.join("game.toml");
    let toml = text(&path).replace(
        "first_deadline = 2026-12-02T15:00:00Z",
        "tz = \"America/New_York\"\nfirst_deadline = 2026-10-31T10:00:00",
    );
    fs::write(&path, toml).unwrap();
    tick(dir, "2026-10-31T14:00:00Z", &["-q"]);
    let result: toml::Table = toml::from_str(&text(&dir.join("rounds/001/result.toml"))).unwrap();
    assert_eq!(
        result["meta"]["closed"].as_str(),
        Some("2026-10-31T14:00:00Z")
    );
    assert_eq!(
        result["meta"]["next_deadline"].as_str(),
        Some("2026-11-01T15:00:00Z")
    );
    let report = text(&dir.join("rounds/001/private/alice.txt"));
    assert!(
        report.contains("Sun 1 Nov 10:00 EST (15:00 UTC)"),
        "{report}"
    );
}

#[test]
fn an_unknown_zone_and_a_wall_time_the_clocks_skip_are_refused_naming_them() {
    let mars = game(&[("bob", "Mars/Olympus_Mons")], "");
    let run = adjudicate(["check", &mars.path().display().to_string()]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("players[1].tz") && run.stderr.contains("Mars/Olympus_Mons"),
        "{}",
        run.stderr
    );

    // 02:30 does not exist in New York on Sun 14 Mar 2027 (the clocks go from 02:00 to 03:00)
    let gap = game(&[], "");
    let path = gap.path().join("game.toml");
    let toml = text(&path).replace(
        "first_deadline = 2026-12-02T15:00:00Z",
        "tz = \"America/New_York\"\nfirst_deadline = 2027-03-14T02:30:00",
    );
    fs::write(&path, toml).unwrap();
    let run = adjudicate(["check", &gap.path().display().to_string()]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("schedule.first_deadline") && run.stderr.contains("America/New_York"),
        "{}",
        run.stderr
    );

    let atlantis = game(&[], "tz = \"Europe/Atlantis\"\n");
    let run = adjudicate(["check", &atlantis.path().display().to_string()]);
    assert!(
        run.code == 65 && run.stderr.contains("schedule.tz"),
        "{}",
        run.stderr
    );
}
