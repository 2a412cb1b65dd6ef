//! The host's levers, part 1 (spec README, "Host actions"): extend, pause, resume, announce,
//! remind, through the binary. Each is recorded in rounds/NNN/host.toml before it takes effect,
//! told to the players, and replayed where it happened.

use crate::support::{
    OTHERS, adjudicate, bobs_mail, everyone_but_bob, first_resolved, flat, lever, messages, ok,
    play_to_end, submit, text, tick, toml_of,
};
use std::fs;
use std::path::Path;

/// The Room Swap example, everyone but Bob on file since 09:00.
fn game() -> tempfile::TempDir {
    everyone_but_bob("")
}

/// Bob's mail reaches the host at 16:00, after round 1's scheduled deadline (Wed 2 Dec 15:00):
/// ingest reads it at 16:05, and the tick at 16:10 receives it as a valid version (the deadline
/// moved, or the round is paused).
fn bobs_mail_counts_after_the_old_deadline(dir: &Path) {
    let eml = bobs_mail(dir, "16:00");
    ok(adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        "--eml".as_ref(),
        eml.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T16:05:00Z".as_ref(),
    ]));
    let run = tick(dir, "2026-12-02T16:10:00Z", &[]);
    assert!(
        run.stdout.contains("received bob version 1: valid"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_game_extended_twice_paused_over_its_deadline_and_resumed_plays_to_its_end_and_replays() {
    let game = game();
    let dir = game.path();
    // 1. a day more for round 1: Thu 3 Dec 15:00
    let run = ok(lever(
        "extend",
        dir,
        &["--by", "24h", "--reason", "Bob is travelling"],
        "2026-12-02T10:00:00Z",
    ));
    assert!(
        run.stdout.contains("deadline now Thu 3 Dec 15:00 UTC"),
        "{}",
        run.stdout
    );
    let notice = flat(&messages(dir, "r001-host-bcc0001-1")[0]);
    assert!(
        notice.contains("The host has moved the deadline of round 1 from Wed 2 Dec 15:00 UTC to Thu 3 Dec 15:00 UTC."),
        "{notice}"
    );
    assert!(notice.contains("Why: Bob is travelling"), "{notice}");
    // 2. Bob's mail reaches the host after the old deadline, before the new one: it counts
    bobs_mail_counts_after_the_old_deadline(dir);
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "the old deadline resolves nothing"
    );
    // 3. a second extension, then a pause with 6 h left, over the deadline
    ok(lever(
        "extend",
        dir,
        &[
            "--to",
            "2026-12-03T18:00:00Z",
            "--reason",
            "the server was down",
        ],
        "2026-12-02T17:00:00Z",
    ));
    ok(lever(
        "pause",
        dir,
        &["--reason", "the host is away"],
        "2026-12-03T12:00:00Z",
    ));
    let run = tick(dir, "2026-12-03T19:00:00Z", &[]);
    assert!(
        run.stdout
            .contains("round 1 is paused (since Thu 3 Dec 12:00 UTC)"),
        "{}",
        run.stdout
    );
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "paused: the passed deadline resolves nothing"
    );
    let status = adjudicate([
        "status".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-03T19:00:00Z".as_ref(),
    ]);
    assert!(
        status
            .stdout
            .contains("Paused since Thu 3 Dec 2026 12:00 UTC"),
        "{}",
        status.stdout
    );
    // 4. resumed the next morning with the 6 h that were left: Fri 4 Dec 15:00
    let run = ok(lever(
        "resume",
        dir,
        &["--reason", "back"],
        "2026-12-04T09:00:00Z",
    ));
    assert!(
        run.stdout.contains("deadline now Fri 4 Dec 15:00 UTC"),
        "{}",
        run.stdout
    );
    tick(dir, "2026-12-04T14:59:00Z", &["-q"]);
    assert!(!dir.join("rounds/001/result.toml").exists());
    tick(dir, "2026-12-04T15:00:00Z", &["-q"]);
    let result = toml_of(&dir.join("rounds/001/result.toml"));
    assert_eq!(
        result["meta"]["closed"].as_str(),
        Some("2026-12-04T15:00:00Z")
    );
    // the later deadlines of the `every` schedule follow the new one
    assert_eq!(
        result["meta"]["next_deadline"].as_str(),
        Some("2026-12-05T15:00:00Z")
    );
    assert!(
        result["public"]
            .get("defaults")
            .and_then(|d| d.as_array())
            .is_none_or(|d| d.is_empty()),
        "Bob's version was used"
    );
    let record = toml_of(&dir.join("rounds/001/host.toml"));
    let kinds: Vec<&str> = record["action"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["extend", "extend", "pause", "resume"]);
    for n in ["1-extend", "2-extend", "3-pause", "4-resume"] {
        assert!(
            dir.join(format!("rounds/001/notices/{n}.txt")).is_file(),
            "{n}"
        );
    }
    // 5. the rest of the game, to its end
    play_to_end(dir, 1_764_946_800); // Sat 5 Dec 15:00
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status.stdout.contains("The game is over"),
        "{}",
        status.stdout
    );
    // 6. replayed where each action happened: every file byte for byte
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("reproduced byte for byte"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_paused_game_acknowledges_versions_and_says_so() {
    let game = everyone_but_bob("remind_before = \"4h\"\n");
    let dir = game.path();
    ok(lever(
        "pause",
        dir,
        &["--reason", "a weekend away"],
        "2026-12-02T10:00:00Z",
    ));
    let pause = flat(&messages(dir, "r001-host-bcc0001-1")[0]);
    assert!(
        pause.contains("The host has paused the game during round 1"),
        "{pause}"
    );
    assert!(
        pause.contains("the 5 h 0 min that were left of the round will be given back"),
        "{pause}"
    );
    submit(dir, 1, "bob", "room = \"basement\"\n");
    tick(dir, "2026-12-02T11:00:00Z", &["-q"]);
    let ack = flat(&messages(dir, "r001-ack-bob-1")[0]);
    assert!(
        ack.contains("The game is paused by the host: you may send new versions, and nothing is resolved until the game resumes; round 1 is then resolved 5 h 0 min later, the time that was left when it paused."),
        "{ack}"
    );
    assert!(
        !ack.contains("until Wed 2 Dec"),
        "no deadline while paused: {ack}"
    );
    // no reminder while paused, whatever remind_before says
    assert!(messages(dir, "r001-reminder").is_empty());
    // --force still resolves
    // the site says so
    let site = tempfile::tempdir().unwrap();
    ok(adjudicate([
        "site".as_ref(),
        dir.as_os_str(),
        site.path().as_os_str(),
        "-q".as_ref(),
    ]));
    let index = text(&site.path().join("index.html"));
    let pages: String = fs::read_dir(site.path())
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("index.html").is_file())
        .map(|e| text(&e.path().join("index.html")))
        .collect();
    assert!(
        index.contains("paused by the host") || pages.contains("paused by the host"),
        "{index}{pages}"
    );
    // --force still resolves
    let run = tick(dir, "2026-12-02T16:00:00Z", &["--force"]);
    assert!(run.stdout.contains("resolved round 1"), "{}", run.stdout);
}

/// Paused before its deadline, a round stops its clock for mail too (issue 56): a version that
/// reaches the host after the old deadline, during the pause, counts; its acknowledgement says the
/// game is paused and when the round resolves; after `resume` the round resolves at its new
/// deadline with it.
#[test]
fn a_version_that_reaches_the_host_during_a_pause_after_the_old_deadline_counts() {
    let game = game();
    let dir = game.path();
    ok(lever(
        "pause",
        dir,
        &["--reason", "a weekend away"],
        "2026-12-02T10:00:00Z",
    ));
    // the old deadline (Wed 2 Dec 15:00) passes; Bob's mail reaches the host at 16:00
    bobs_mail_counts_after_the_old_deadline(dir);
    let receipts = text(&dir.join("rounds/001/receipts.toml"));
    assert!(!receipts.contains("late = true"), "{receipts}");
    let ack = flat(&messages(dir, "r001-ack-bob-1")[0]);
    assert!(!ack.contains("after the deadline"), "{ack}");
    assert!(
        ack.contains("The game is paused by the host")
            && ack.contains("round 1 is then resolved 5 h 0 min later"),
        "{ack}"
    );
    // resumed on Thursday at 09:00: the 5 h left give a deadline of 14:00
    ok(lever(
        "resume",
        dir,
        &["--reason", "back"],
        "2026-12-03T09:00:00Z",
    ));
    let early = tick(dir, "2026-12-03T13:59:00Z", &["-q"]);
    assert!(
        !dir.join("rounds/001/result.toml").exists(),
        "{}",
        early.stdout
    );
    tick(dir, "2026-12-03T14:00:00Z", &["-q"]);
    let result = toml_of(&dir.join("rounds/001/result.toml"));
    let defaults = result["public"].get("defaults").and_then(|d| d.as_array());
    assert!(
        defaults.is_none_or(|d| d.is_empty()),
        "Bob's version is used, nobody defaulted: {defaults:?}"
    );
    assert_eq!(
        result["private"]["bob"]["room"].as_str(),
        Some("basement"),
        "{result:?}"
    );
    ok(adjudicate(["replay".as_ref(), dir.as_os_str()]));
}

#[test]
fn announce_mails_every_player_and_the_site_shows_it() {
    let game = game();
    let dir = game.path();
    let file = dir.join("note.txt");
    fs::write(&file, "Round 2 starts after the holiday.\nEnjoy!\n").unwrap();
    let run = ok(adjudicate([
        "announce".as_ref(),
        dir.as_os_str(),
        file.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T10:00:00Z".as_ref(),
    ]));
    assert!(
        run.stdout.contains("rounds/001/notices/1-announce.txt"),
        "{}",
        run.stdout
    );
    let message = &messages(dir, "r001-host-bcc0001-1")[0];
    assert!(
        message.contains("Subject: Attic Basement Cellar: a message from the host"),
        "{message}"
    );
    assert!(
        message.contains("Bcc: "),
        "by the announcements' Bcc batches: {message}"
    );
    assert!(
        flat(message).contains("Round 2 starts after the holiday. Enjoy!"),
        "{message}"
    );
    let site = tempfile::tempdir().unwrap();
    ok(adjudicate([
        "site".as_ref(),
        dir.as_os_str(),
        site.path().as_os_str(),
        "-q".as_ref(),
    ]));
    let page = text(&site.path().join("index.html"));
    let game_page = fs::read_dir(site.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("index.html").is_file())
        .map(|p| text(&p.join("index.html")))
        .unwrap_or(page);
    assert!(game_page.contains("From the host"), "{game_page}");
    assert!(
        game_page.contains("Round 2 starts after the holiday."),
        "{game_page}"
    );
}

#[test]
fn remind_reminds_now_only_players_without_a_valid_version() {
    let game = game();
    let dir = game.path();
    ok(lever(
        "extend",
        dir,
        &["--by", "1h", "--reason", "x"],
        "2026-12-02T09:30:00Z",
    ));
    ok(lever(
        "remind",
        dir,
        &["--reason", "one player has not sent"],
        "2026-12-02T10:00:00Z",
    ));
    let bob = messages(dir, "r001-reminder-bob-102");
    assert_eq!(bob.len(), 1, "one reminder to Bob");
    let text = flat(&bob[0]);
    assert!(
        text.contains("Reminder: round 1 closes at Wed 2 Dec 16:00 UTC (in 6 h 0 min)"),
        "{text}"
    );
    // the skeleton from the welcome tells the deadline as it is now
    assert!(
        text.contains("# Reply with this, edited. Round 1, deadline Wed 2 Dec 16:00 UTC."),
        "{text}"
    );
    assert!(
        messages(dir, "r001-reminder-alice").is_empty(),
        "Alice has a valid version"
    );
}

#[test]
fn levers_refuse_what_cannot_be_done_and_record_nothing() {
    let game = game();
    let dir = game.path();
    let now = "2026-12-02T10:00:00Z";
    let cases: [(&str, &[&str], &str); 8] = [
        (
            "extend",
            &["--to", "2026-12-02T09:00:00Z", "--reason", "x"],
            "is not after now",
        ),
        (
            "extend",
            &["--to", "2026-12-02T14:00:00Z", "--reason", "x"],
            "is not after the round's deadline",
        ),
        ("extend", &["--by", "0", "--reason", "x"], "duration"),
        (
            "extend",
            &["--by", "-1h", "--reason", "x"],
            "must be longer than zero",
        ),
        (
            "extend",
            &["--by", "1h", "--reason", " "],
            "say why with --reason",
        ),
        ("resume", &["--reason", "x"], "the game is not paused"),
        ("announce", &["--text", " \n"], "the announcement is empty"),
        ("extend", &["--reason", "x"], "--by"),
    ];
    for (name, args, why) in cases {
        let run = lever(name, dir, args, now);
        assert!(
            matches!(run.code, 2),
            "{name} {args:?}: {}{}",
            run.stdout,
            run.stderr
        );
        assert!(run.stderr.contains(why), "{name} {args:?}: {}", run.stderr);
    }
    assert!(
        !dir.join("rounds/001/host.toml").exists(),
        "nothing recorded"
    );
    ok(lever("pause", dir, &["--reason", "x"], now));
    let run = lever("pause", dir, &["--reason", "x"], now);
    assert!(
        run.code == 2 && run.stderr.contains("already paused"),
        "{}",
        run.stderr
    );
    // a 1 MB announcement is refused unread
    let big = dir.join("big.txt");
    fs::write(&big, "x".repeat(1 << 20)).unwrap();
    let run = adjudicate(["announce".as_ref(), dir.as_os_str(), big.as_os_str()]);
    assert!(
        run.code == 2 && run.stderr.contains("at most 65536"),
        "{}",
        run.stderr
    );
    let empty = dir.join("empty.txt");
    fs::write(&empty, "").unwrap();
    let run = adjudicate(["announce".as_ref(), dir.as_os_str(), empty.as_os_str()]);
    assert!(
        run.code == 2 && run.stderr.contains("empty"),
        "{}",
        run.stderr
    );
    let record = toml_of(&dir.join("rounds/001/host.toml"));
    assert_eq!(
        record["action"].as_array().unwrap().len(),
        1,
        "only the one pause"
    );
}

#[test]
fn a_held_lock_makes_a_lever_exit_75_and_record_nothing() {
    let game = game();
    let dir = game.path();
    let lock = fs::File::create(dir.join(".adjudicate.lock")).unwrap();
    lock.try_lock().unwrap();
    let run = lever(
        "extend",
        dir,
        &["--by", "1h", "--reason", "x"],
        "2026-12-02T10:00:00Z",
    );
    assert_eq!(run.code, 75, "{}", run.stderr);
    assert!(!dir.join("rounds/001/host.toml").exists());
}

#[test]
fn a_game_that_is_over_cannot_be_extended() {
    let game = game();
    let dir = game.path();
    let at = play_to_end(dir, 1_764_687_600); // Wed 2 Dec 15:00
    let run = lever(
        "extend",
        dir,
        &["--by", "1h", "--reason", "x"],
        &at.to_string(),
    );
    assert!(
        run.code == 2 && run.stderr.contains("the game is over"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_hand_edited_record_is_an_error_naming_the_key() {
    let game = game();
    let dir = game.path();
    ok(lever(
        "extend",
        dir,
        &["--by", "1h", "--reason", "x"],
        "2026-12-02T10:00:00Z",
    ));
    let path = dir.join("rounds/001/host.toml");
    for (edit, key) in [
        (text(&path).replace("n = 1", "n = 3"), "action[0].n"),
        (
            text(&path).replace("kind = \"extend\"", "kind = \"delay\""),
            "host.toml:6:8: unknown variant `delay`",
        ),
        (
            text(&path).replace(
                "deadline = \"2026-12-02T16:00:00Z\"",
                "deadline = \"tomorrow\"",
            ),
            "action[0].deadline",
        ),
        (
            text(&path).replace("reason = \"x\"", "reason = \"x\"\nmood = 3"),
            "mood",
        ),
    ] {
        fs::write(&path, edit).unwrap();
        let run = adjudicate([
            "round".as_ref(),
            dir.as_os_str(),
            "--now".as_ref(),
            "2026-12-02T11:00:00Z".as_ref(),
        ]);
        assert_eq!(run.code, 65, "{key}: {}", run.stderr);
        assert!(
            run.stderr.contains("host.toml") && run.stderr.contains(key),
            "{key}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_hand_edit_of_the_schedule_that_moves_an_announced_deadline_is_refused() {
    let game = game();
    let dir = game.path();
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    let path = dir.join("game.toml");
    fs::write(
        &path,
        text(&path).replace(
            "first_deadline = 2026-12-02T15:00:00Z",
            "first_deadline = 2026-12-02T18:00:00Z",
        ),
    )
    .unwrap();
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T16:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("game.toml") && run.stderr.contains("schedule"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("adjudicate extend"), "{}", run.stderr);
}

#[test]
fn the_host_digest_arrives_through_smtp_once_per_eventful_tick() {
    let server = crate::support::SmtpServer::start(&[]);
    let game = everyone_but_bob("missed_limit = 2\n");
    let dir = game.path();
    let path = dir.join("game.toml");
    let smtp = format!(
        "transport = \"smtp\"\nhost = \"Host <boss@example.org>\"\n\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\ntimeout = \"5s\"\n",
        server.port
    );
    let toml = text(&path)
        .replacen("transport = \"file\"\n", "", 1)
        .replacen("[options]", &format!("{smtp}\n[options]"), 1);
    fs::write(&path, toml).unwrap();
    let digests = || {
        server
            .received()
            .into_iter()
            .filter(|(to, _)| to == "boss@example.org")
            .map(|(_, m)| m)
            .collect::<Vec<_>>()
    };
    // a quiet tick: nothing for the host
    tick(dir, "2026-12-02T10:00:00Z", &["-q"]);
    assert!(digests().is_empty(), "{:?}", digests());
    // a stranger's mail and a late version: one digest
    let stranger = dir.join("stranger.eml");
    fs::write(
        &stranger,
        "From: Mallory <mallory@example.net>\r\nTo: host@example.org\r\nSubject: hi\r\nDate: Wed, 2 Dec 2026 10:30:00 +0000\r\nMessage-ID: <m1@example.net>\r\n\r\nroom = \"attic\"\r\n",
    )
    .unwrap();
    ok(adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        "--eml".as_ref(),
        stranger.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T10:31:00Z".as_ref(),
    ]));
    tick(dir, "2026-12-02T10:35:00Z", &["-q"]);
    let got = digests();
    assert_eq!(got.len(), 1, "{got:?}");
    let first = flat(&got[0]);
    assert!(
        first.contains("Mail not used: from mallory@example.net (not a player)"),
        "{first}"
    );
    // the same again: nothing new, no second digest
    tick(dir, "2026-12-02T10:40:00Z", &["-q"]);
    assert_eq!(digests().len(), 1);
    // Bob defaults in rounds 1 and 2: the tick that resolves round 2 tells the host, once
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    for (player, room) in OTHERS {
        submit(dir, 2, player, &format!("room = \"{room}\"\n"));
    }
    tick(dir, "2026-12-03T15:00:00Z", &["-q"]);
    let got = digests();
    let last = flat(got.last().unwrap());
    assert!(
        last.contains("Missed limit: bob got the rules' default in the last 2 round(s) in a row"),
        "{last}"
    );
    assert_eq!(
        got.iter()
            .filter(|m| flat(m).contains("Missed limit: bob"))
            .count(),
        1
    );
    let status = adjudicate([
        "status".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-03T16:00:00Z".as_ref(),
    ]);
    assert!(
        status
            .stdout
            .contains("Missed 2 round(s) in a row (missed_limit): bob"),
        "{}",
        status.stdout
    );
}

#[test]
fn enter_puts_a_version_in_for_a_player_who_sent_it_another_way() {
    let game = game();
    let dir = game.path();
    let file = dir.join("bob-by-phone.toml");
    fs::write(&file, "room = \"cellar\"\n").unwrap();
    let run = adjudicate([
        "enter".as_ref(),
        dir.as_os_str(),
        "bob".as_ref(),
        file.as_os_str(),
        "--reason".as_ref(),
        "sent by Discord DM".as_ref(),
        "--at".as_ref(),
        "2026-12-02T09:30:00Z".as_ref(),
        "--now".as_ref(),
        "2026-12-02T10:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = tick(dir, "2026-12-02T10:05:00Z", &[]);
    assert!(
        run.stdout.contains("received bob version 1: valid"),
        "{}",
        run.stdout
    );
    let receipts = text(&dir.join("rounds/001/receipts.toml"));
    let bob = receipts
        .split("[[receipt]]")
        .find(|r| r.contains("player = \"bob\""))
        .unwrap();
    assert!(
        bob.contains("source = \"host\"") && bob.contains("reason = \"sent by Discord DM\""),
        "{bob}"
    );
    assert!(
        bob.contains("reached = \"2026-12-02T09:30:00Z\""),
        "counts from when Bob sent it: {bob}"
    );
    let ack = flat(&messages(dir, "r001-ack-bob-1")[0]);
    assert!(
        ack.contains("Entered for you by the host: sent by Discord DM."),
        "{ack}"
    );
    assert!(
        ack.contains("Received your round 1 submission (version 1, Wed 2 Dec 09:30 UTC)"),
        "{ack}"
    );
    let record = toml_of(&dir.join("rounds/001/host.toml"));
    assert_eq!(record["action"][0]["kind"].as_str(), Some("enter"));
    assert_eq!(record["action"][0]["player"].as_str(), Some("bob"));
    // an invalid version entered is archived and answered like any invalid version
    fs::write(&file, "room = \"garden\"\n").unwrap();
    ok(lever(
        "enter",
        dir,
        &[
            "bob",
            &file.display().to_string(),
            "--reason",
            "again by phone",
        ],
        "2026-12-02T11:00:00Z",
    ));
    let run = tick(dir, "2026-12-02T11:05:00Z", &[]);
    assert!(
        run.stdout.contains("received bob version 2: INVALID"),
        "{}",
        run.stdout
    );
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    assert_eq!(adjudicate(["replay".as_ref(), dir.as_os_str()]).code, 0);
}

#[test]
fn enter_refuses_an_unknown_player_and_a_time_in_the_future() {
    let game = game();
    let dir = game.path();
    let file = dir.join("v.toml");
    fs::write(&file, "room = \"cellar\"\n").unwrap();
    let f = file.display().to_string();
    let cases: [(&[&str], &str); 3] = [
        (
            &["zed", &f, "--reason", "x"],
            "`zed` is not a player of this game",
        ),
        (
            &["bob", &f, "--reason", "x", "--at", "2026-12-02T11:00:00Z"],
            "is after now",
        ),
        (&["bob", &f, "--reason", " "], "say why with --reason"),
    ];
    for (args, why) in cases {
        let run = lever("enter", dir, args, "2026-12-02T10:00:00Z");
        assert!(
            run.code == 2 && run.stderr.contains(why),
            "{args:?}: {}",
            run.stderr
        );
    }
    assert!(
        !dir.join("rounds/001/host.toml").exists(),
        "nothing recorded"
    );
    assert!(
        !dir.join("rounds/001/submissions/bob.toml").exists(),
        "nothing written"
    );
    let lock = fs::File::create(dir.join(".adjudicate.lock")).unwrap();
    lock.try_lock().unwrap();
    let run = lever(
        "enter",
        dir,
        &["bob", &f, "--reason", "x"],
        "2026-12-02T10:00:00Z",
    );
    assert_eq!(run.code, 75, "{}", run.stderr);
    assert!(!dir.join("rounds/001/host.toml").exists());
}

/// The Room Swap example with round 1 resolved at its deadline (Bob defaulted), and a round 2
/// version of Alice's received.
fn resolved() -> tempfile::TempDir {
    let game = game();
    let dir = game.path();
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    submit(dir, 2, "alice", "room = \"cellar\"\n");
    tick(dir, "2026-12-02T16:00:00Z", &["-q"]);
    game
}

#[test]
fn undo_withdraws_the_last_round_which_resolves_again_with_what_the_host_corrected() {
    let game = resolved();
    let dir = game.path();
    let old = text(&dir.join("rounds/001/result.toml"));
    assert!(old.contains("defaults = [\"bob\"]"), "{old}");
    let run = ok(lever(
        "undo",
        dir,
        &["--reason", "Bob's phoned-in room was lost"],
        "2026-12-02T17:00:00Z",
    ));
    assert!(
        run.stdout.contains("round 1's results withdrawn"),
        "{}",
        run.stdout
    );
    // the reports set aside, the versions round 2 received against them too
    assert!(!dir.join("rounds/001/result.toml").exists());
    assert_eq!(text(&dir.join("rounds/001/withdrawn-1/result.toml")), old);
    assert!(dir.join("rounds/001/withdrawn-1/private/bob.txt").is_file());
    assert!(dir.join("rounds/002/withdrawn-1/receipts.toml").is_file());
    assert!(
        dir.join("rounds/002/submissions/alice.toml").is_file(),
        "a player's file is never touched"
    );
    let notice = flat(&messages(dir, "r001-host-bcc0001-1")[0]);
    assert!(
        notice.contains("The host has withdrawn the results of round 1: they no longer stand."),
        "{notice}"
    );
    assert!(
        notice.contains("Why: Bob's phoned-in room was lost"),
        "{notice}"
    );
    let status = adjudicate([
        "status".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T17:00:00Z".as_ref(),
    ]);
    assert!(status.stdout.contains("Round 1\n"), "{}", status.stdout);
    assert!(
        status.stdout.contains(
            "Host action 1: undo of round 1's results, Wed 2 Dec 2026 17:00 UTC: Bob's phoned-in room was lost"
        ),
        "{}",
        status.stdout
    );
    // twice in a row: refused
    let run = lever("undo", dir, &["--reason", "again"], "2026-12-02T17:01:00Z");
    assert!(
        run.code == 2 && run.stderr.contains("already withdrawn"),
        "{}",
        run.stderr
    );
    // the host enters what Bob sent before the deadline; the round resolves again
    let file = dir.join("bob.toml");
    fs::write(&file, "room = \"basement\"\n").unwrap();
    ok(lever(
        "enter",
        dir,
        &[
            "bob",
            &file.display().to_string(),
            "--reason",
            "phoned in",
            "--at",
            "2026-12-02T14:00:00Z",
        ],
        "2026-12-02T17:02:00Z",
    ));
    // the round holds until the host says the correction is done (issue 57)
    let run = tick(dir, "2026-12-02T17:05:00Z", &[]);
    assert!(
        run.stdout.contains("received bob version 1: valid"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("round 1 is paused (since Wed 2 Dec 17:00 UTC)"),
        "{}",
        run.stdout
    );
    assert!(!dir.join("rounds/001/result.toml").exists());
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status.stdout.contains("until `adjudicate resume`"),
        "{}",
        status.stdout
    );
    ok(lever(
        "resume",
        dir,
        &["--reason", "corrected"],
        "2026-12-02T17:06:00Z",
    ));
    let run = tick(dir, "2026-12-02T17:06:00Z", &[]);
    assert!(run.stdout.contains("resolved round 1"), "{}", run.stdout);
    let new = text(&dir.join("rounds/001/result.toml"));
    assert!(!new.contains("defaults = [\"bob\"]"), "{new}");
    // its reports mailed again under new names, saying they are corrected; round 2 receives
    // Alice's file again
    let again = messages(dir, "r001-private-bob-1");
    assert_eq!(again.len(), 1);
    let subject = crate::support::header(&again[0], "Subject").unwrap_or_default();
    assert!(
        subject.ends_with("your private report (corrected)"),
        "{subject}"
    );
    let public = text(&dir.join("rounds/001/public.txt"));
    assert!(
        public.lines().next().unwrap().ends_with(" (corrected)"),
        "{public}"
    );
    let withdrawn = text(&dir.join("rounds/001/withdrawn-1/public.txt"));
    assert!(!withdrawn.contains("(corrected)"), "{withdrawn}");
    tick(dir, "2026-12-02T17:10:00Z", &["-q"]);
    assert!(text(&dir.join("rounds/002/receipts.toml")).contains("player = \"alice\""));
    // to the end, then replayed
    play_to_end(dir, 1_764_774_000); // Thu 3 Dec 15:00
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn undo_refuses_a_game_without_a_resolved_round_and_one_that_is_over() {
    let game = game();
    let dir = game.path();
    let run = lever("undo", dir, &["--reason", "x"], "2026-12-02T10:00:00Z");
    assert!(
        run.code == 2 && run.stderr.contains("nothing to undo"),
        "{}",
        run.stderr
    );
    let at = play_to_end(dir, 1_764_687_600); // Wed 2 Dec 15:00
    let run = lever("undo", dir, &["--reason", "x"], &at.to_string());
    assert!(
        run.code == 2 && run.stderr.contains("--force"),
        "{}",
        run.stderr
    );
    ok(lever(
        "undo",
        dir,
        &["--reason", "the last round was wrong", "--force"],
        &at.to_string(),
    ));
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        !status.stdout.contains("The game is over"),
        "{}",
        status.stdout
    );
    let lock = fs::File::create(dir.join(".adjudicate.lock")).unwrap();
    lock.try_lock().unwrap();
    let run = lever("undo", dir, &["--reason", "x"], &at.to_string());
    assert_eq!(run.code, 75, "{}", run.stderr);
}

/// What the rules announced in a result: everything but `[meta]` (when it closed is the tick's).
fn announced(path: &Path) -> toml::Table {
    let mut table = toml_of(path);
    table.remove("meta");
    table
}

#[test]
fn an_undone_round_of_every_game_resolves_again_as_before_and_the_game_replays() {
    for game in crate::support::matches() {
        let example = crate::support::manifest_dir()
            .join("games")
            .join(game)
            .join("example");
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::copy(example.join("game.toml"), dir.join("game.toml")).unwrap();
        let mut undone = false;
        crate::support::play_example(dir, &example, |now| {
            let Some(result) = first_resolved(dir).filter(|_| !undone) else {
                return;
            };
            undone = true;
            let before = announced(&result);
            let later = |s: i64| {
                let t: jiff::Timestamp = now.parse().unwrap();
                t.checked_add(jiff::SignedDuration::from_secs(s))
                    .unwrap()
                    .to_string()
            };
            ok(lever("undo", dir, &["--reason", "a check"], &later(10)));
            assert!(!result.is_file(), "{game}: withdrawn");
            // nothing corrected: the round resolves again to what the rules said before
            let run = tick(dir, &later(20), &["--force"]);
            assert!(
                run.stdout.contains("resolved round"),
                "{game}: {}",
                run.stdout
            );
            assert_eq!(
                announced(&result),
                before,
                "{game}: resolved again differently"
            );
        });
        assert!(undone, "{game}: no round was resolved");
        let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
        assert!(
            status.stdout.contains("The game is over"),
            "{game}: {}",
            status.stdout
        );
        let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 0, "{game}: {}{}", run.stdout, run.stderr);
    }
}

#[test]
fn enter_works_in_every_game_from_the_players_own_skeleton() {
    for game in crate::support::matches() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(game);
        ok(adjudicate(["new".as_ref(), game.as_ref(), dir.as_os_str()]));
        let set_up = adjudicate(["round".as_ref(), dir.as_os_str(), "-q".as_ref()]);
        assert_eq!(set_up.code, 0, "{game}: {}", set_up.stderr);
        // a player who phoned their first submission in: the skeleton of their welcome, as is
        let (player, report) = crate::first_game::latest_reports(&dir)
            .into_iter()
            .find(|(_, r)| crate::first_game::skeleton(&text(r)).is_some())
            .unwrap_or_else(|| panic!("{game}: no skeleton"));
        let file = tmp.path().join("phoned.toml");
        fs::write(&file, crate::first_game::skeleton(&text(&report)).unwrap()).unwrap();
        let run = adjudicate([
            "enter".as_ref(),
            dir.as_os_str(),
            player.as_ref(),
            file.as_os_str(),
            "--reason".as_ref(),
            "by phone".as_ref(),
        ]);
        assert_eq!(run.code, 0, "{game}: {}", run.stderr);
        let run = adjudicate(["round".as_ref(), dir.as_os_str()]);
        assert!(
            run.stdout
                .contains(&format!("received {player} version 1: valid")),
            "{game}: {}",
            run.stdout
        );
        let receipts: String = fs::read_dir(dir.join("rounds"))
            .unwrap()
            .flatten()
            .filter_map(|r| fs::read_to_string(r.path().join("receipts.toml")).ok())
            .collect();
        assert!(receipts.contains("source = \"host\""), "{game}: {receipts}");
        assert_eq!(
            adjudicate(["replay".as_ref(), dir.as_os_str()]).code,
            0,
            "{game}"
        );
    }
}
