//! Tokens never leak (spec README, `secrets.toml`): whatever place a player writes a token in
//! (their own or another's), no file the tool writes holds it, only secrets.toml and the
//! submission files themselves; and the redacted archive replays to the same verdicts.

use crate::support::{adjudicate, example_game, snapshot, submit, tick};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use std::fs;
use std::path::Path;

const PLAYERS: [&str; 6] = ["alice", "bob", "carol", "dave", "erin", "frank"];

fn token_of(player: &str) -> String {
    format!("{player}-t0k3n-9x")
}

/// A submission with `token` written at one of the places players put it.
fn with_token_at(place: usize, own: &str, token: &str, room: &str) -> String {
    let room_line = format!("room = \"{room}\"\n");
    match place {
        0 => format!("token = \"{own}\"\n{room_line}"),
        1 => format!("{room_line}[extra]\ntoken = \"{token}\"\n"),
        2 => format!("token = \"{own}\"\n# my token: {token}\n{room_line}"),
        3 => format!("tokn = \"{token}\"\n{room_line}"),
        4 => format!("token.x = \"{token}\"\n{room_line}"),
        5 => format!("token = {{ value = \"{token}\" }}\n{room_line}"),
        6 => format!("{room_line}[token]\nvalue = '{token}'\n"),
        7 => format!("token = \"{own}\"\n{token} = 1\n{room_line}"),
        8 => format!("token = \"{own}\"\nroom = \"{token}\"\n"),
        9 => format!("token = \"{own}\"\n{room_line}peek = [\"{token}\"]\n"),
        10 => format!("token = \"{token}\nroom = \"{room}\n"),
        11 => format!("token = \"{own}\"\nfallback = \"{token}\"\n{room_line}"),
        _ => format!("token = \"{own}\"\n{room_line}[{token}]\nx = 1\n[{token}.y]\nz = 2\n"),
    }
}

#[test]
fn a_token_written_anywhere_is_found_nowhere_the_tool_writes_and_replay_agrees() {
    let game = example_game();
    let dir = game.path();
    let secrets: String = PLAYERS
        .iter()
        .map(|p| format!("{p} = \"{}\"\n", token_of(p)))
        .collect();
    fs::write(dir.join("secrets.toml"), format!("[tokens]\n{secrets}")).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let rooms = ["attic", "basement", "cellar"];
    for minute in 0..12 {
        for player in PLAYERS {
            let other = PLAYERS.choose(&mut rng).unwrap();
            let token = if rng.random_bool(0.5) {
                token_of(player)
            } else {
                token_of(other)
            };
            let place = rng.random_range(0..13);
            let room = rooms.choose(&mut rng).unwrap();
            submit(
                dir,
                1,
                player,
                &with_token_at(place, &token_of(player), &token, room),
            );
        }
        tick(dir, &format!("2026-12-02T09:{minute:02}:00Z"), &["-q"]);
    }
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    assert!(dir.join("rounds/001/result.toml").is_file());

    for (path, bytes) in snapshot(dir) {
        let shown = path.display().to_string();
        if shown == "secrets.toml" || shown.contains("/submissions/") {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        for player in PLAYERS {
            assert!(
                !text.contains(&token_of(player)),
                "{shown} holds {player}'s token:\n{text}"
            );
        }
    }
    let replay = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
}

#[test]
fn check_of_one_file_never_quotes_a_token_back() {
    let game = example_game();
    let dir = game.path();
    fs::write(
        dir.join("secrets.toml"),
        format!(
            "[tokens]\nalice = \"{}\"\nbob = \"{}\"\n",
            token_of("alice"),
            token_of("bob")
        ),
    )
    .unwrap();
    let file = dir.join("mine.toml");
    fs::write(
        &file,
        format!(
            "token = \"{}\"\nroom = \"{}\"\n",
            token_of("alice"),
            token_of("bob")
        ),
    )
    .unwrap();
    let run = adjudicate([
        "check".as_ref(),
        dir.as_os_str(),
        file.as_os_str(),
        "--player".as_ref(),
        "alice".as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("room must be one of attic, basement, cellar, not \"<redacted>\""),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("t0k3n") && !run.stderr.contains("t0k3n"));
}

#[test]
fn a_missing_and_a_wrong_token_are_two_messages() {
    let game = example_game();
    let dir: &Path = game.path();
    fs::write(
        dir.join("secrets.toml"),
        format!("[tokens]\nalice = \"{}\"\n", token_of("alice")),
    )
    .unwrap();
    let receipts = |dir: &Path| fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    submit(
        dir,
        1,
        "alice",
        "room = \"attic\"\n[respond]\ntoken = \"x\"\n",
    );
    tick(dir, "2026-12-02T09:00:00Z", &["-q"]);
    let first = receipts(dir);
    assert!(
        first.contains("line 3: token is missing: add token = "),
        "{first}"
    );
    assert!(
        first.contains("the token here belongs to the table [respond]"),
        "{first}"
    );
    submit(
        dir,
        1,
        "alice",
        "token = \"guess-1234\"\nroom = \"attic\"\n",
    );
    tick(dir, "2026-12-02T09:01:00Z", &["-q"]);
    assert!(
        receipts(dir).contains("line 1: token does not match"),
        "{}",
        receipts(dir)
    );
}

#[test]
fn a_token_in_the_prose_of_a_mail_reaches_neither_the_log_nor_the_acknowledgement() {
    let game = example_game();
    let dir = game.path();
    fs::write(
        dir.join("secrets.toml"),
        format!("[tokens]\nalice = \"{}\"\n", token_of("alice")),
    )
    .unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let mails = tempfile::tempdir().unwrap();
    let eml = mails.path().join("a.eml");
    fs::write(
        &eml,
        format!(
            "From: alice@example.org\r\nSubject: my token is {t}\r\nMessage-ID: <a1@x>\r\n\r\ntoken = \"{t}\"\r\nroom = \"attic\"\r\nis {t} the right token?\r\n",
            t = token_of("alice")
        ),
    )
    .unwrap();
    let run = adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        "--eml".as_ref(),
        eml.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T09:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("t0k3n"), "{}", run.stdout);
    tick(dir, "2026-12-02T09:05:00Z", &["-q"]);
    for (path, bytes) in snapshot(dir) {
        let shown = path.display().to_string();
        if shown == "secrets.toml" || shown.contains("/submissions/") {
            continue;
        }
        assert!(
            !String::from_utf8_lossy(&bytes).contains(&token_of("alice")),
            "{shown} holds the token"
        );
    }
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(log.contains("is <redacted> the right token?"), "{log}");
}
