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

/// A token in every place of a mail a player (or a stranger) may put it: headers, escapes, a
/// line continuation, one character off, quoted history, an attachment's name. None of it
/// reaches a file, a mail or the output, and each mail still gets its answer.
#[test]
fn a_token_in_any_spelling_and_any_part_of_a_mail_is_found_nowhere() {
    let game = example_game();
    let dir = game.path();
    let token = token_of("alice"); // "alice-t0k3n-9x"
    fs::write(
        dir.join("secrets.toml"),
        format!("[tokens]\nalice = \"{token}\"\n"),
    )
    .unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let escaped = token.replacen('a', "\\u0061", 1);
    let continued = format!("{}\\\n    {}", &token[..5], &token[5..]);
    let near = token.replace("9x", "9y");
    let mail = |n: usize, id: &str, subject: &str, extra: &str, body: &str| {
        format!(
            "Received: from mx by host; Wed, 2 Dec 2026 09:{n:02}:00 +0000\r\nFrom: alice@example.org\r\nTo: host@example.org\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\nDate: Wed, 2 Dec 2026 09:00:00 +0000\r\n{extra}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
        )
    };
    let cases = [
        mail(
            1,
            &format!("{token}@phone"),
            "r1",
            "",
            &format!("token = \"{token}\"\r\nroom = \"attic\"\r\n"),
        ),
        mail(
            2,
            "m2@x",
            &format!("my token {token}"),
            "",
            &format!("token = \"{token}\"\r\nroom = \"cellar\"\r\n"),
        ),
        mail(
            3,
            "m3@x",
            "r1",
            &format!("References: <{token}@x>\r\nIn-Reply-To: <{token}@x>\r\n"),
            &format!("token = \"{token}\"\r\nroom = \"basement\"\r\n"),
        ),
        mail(
            4,
            "m4@x",
            "r1",
            "",
            &format!("token = \"{escaped}\"\r\nroom = \"attic\"\r\n"),
        ),
        mail(
            5,
            "m5@x",
            "r1",
            "",
            &format!(
                "token = \"{token}\"\r\nnote = \"\"\"{continued}\"\"\"\r\nroom = \"cellar\"\r\n"
            ),
        ),
        mail(
            6,
            "m6@x",
            "r1",
            "",
            &format!("token = \"{near}\"\r\nroom = \"attic\"\r\n"),
        ),
        mail(
            7,
            "m7@x",
            "r1",
            "",
            &format!("token = \"{token}\"\r\nroom = \"basement\"\r\n# oops, {near}\r\n"),
        ),
        mail(
            8,
            "m8@x",
            "r1",
            "",
            &format!(
                "Cellar please, my token is {token}\r\n\r\nOn Tue, Host wrote:\r\n> token = \"{token}\"\r\n"
            ),
        ),
        mail(
            9,
            "m9@x",
            "r1",
            "",
            &format!("I forgot, it is {near} I think\r\n"),
        ),
        mail(
            10,
            "m10@x",
            "r1",
            "",
            &format!("token = \"{token}\"\r\n{token} = 1\r\nroom = \"cellar\"\r\n"),
        ),
    ];
    let spool = tempfile::tempdir().unwrap();
    let mut output = String::new();
    for (k, case) in cases.iter().enumerate() {
        let path = spool.path().join(format!("{k}.eml"));
        fs::write(&path, case).unwrap();
        let run = adjudicate([
            "ingest".as_ref(),
            dir.as_os_str(),
            "--eml".as_ref(),
            path.as_os_str(),
            "--now".as_ref(),
            format!("2026-12-02T09:{:02}:30Z", k + 1).as_ref(),
        ]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        output.push_str(&run.stdout);
        output.push_str(&run.stderr);
        let t = tick(
            dir,
            &format!("2026-12-02T09:{:02}:40Z", k + 1),
            &["--no-send"],
        );
        output.push_str(&t.stdout);
        output.push_str(&t.stderr);
    }
    // an attachment whose name holds the token
    let attached = spool.path().join("attached.eml");
    fs::write(
        &attached,
        format!(
            "Received: from mx by host; Wed, 2 Dec 2026 10:00:00 +0000\r\nFrom: alice@example.org\r\nSubject: file\r\nMessage-ID: <att@x>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nattached\r\n--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"{token}.toml\"\r\n\r\ntoken = \"{token}\"\r\nroom = \"attic\"\r\n--b--\r\n"
        ),
    )
    .unwrap();
    let run = adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        "--eml".as_ref(),
        attached.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T10:01:00Z".as_ref(),
    ]);
    output.push_str(&run.stdout);
    output.push_str(&run.stderr);
    output.push_str(&tick(dir, "2026-12-02T10:02:00Z", &["--no-send"]).stdout);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(receipts.matches("[[receipt]]").count() >= 8, "{receipts}");
    let secrets_leak = |text: &str| {
        text.contains(&token)
            || text.contains(&near)
            || text.contains(&escaped)
            || text.contains(&continued)
    };
    assert!(!secrets_leak(&output), "{output}");
    for (path, bytes) in snapshot(dir) {
        let shown = path.display().to_string();
        if shown == "secrets.toml" || shown.contains("/submissions/") {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        assert!(!secrets_leak(&text), "{shown} holds the token:\n{text}");
        // what a TOML reader decodes from an archived copy holds no token either
        if shown.contains("/received/")
            && let Ok(table) = toml::from_str::<toml::Table>(&text)
        {
            assert!(
                !secrets_leak(&format!("{table:?}")),
                "{shown} decodes to the token"
            );
        }
    }
}
