//! Mail as real clients write it (`tests/mail/*.eml`): replies to a private report from
//! Thunderbird (format=flowed), Gmail web (multipart/alternative, quoted-printable, an
//! attribution wrapped over two lines), Gmail on iOS (base64, "Sent from my iPhone"), Outlook
//! (ISO-8859-1, its From/Sent block, "-----Original Message-----") and Apple Mail (German
//! attribution), Gmail in French and Spanish, and messages that hold no submission at all. Each
//! must yield exactly the submission its sender meant, and a question to the host must reach the
//! host.

use crate::ingest::ingest;
use crate::support::{SmtpServer, example_game, manifest_dir, tick};
use std::fs;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    manifest_dir().join("tests/mail").join(name)
}

/// (fixture, sender's player id, the submission it yields, text the host must find in the log)
const CASES: &[(&str, &str, Option<&str>, &str)] = &[
    (
        "thunderbird.eml",
        "alice",
        Some("room = \"cellar\"\nfallback = \"attic\"\n"),
        "written as the round 1 submission",
    ),
    (
        "gmail-web.eml",
        "bob",
        Some("room = \"basement\"\npeek = [\"dave\"]\n"),
        "written as the round 1 submission",
    ),
    (
        "gmail-ios.eml",
        "carol",
        Some("room = \"attic\"\n"),
        "written as the round 1 submission",
    ),
    (
        "outlook.eml",
        "dave",
        Some("room = \"cellar\"\nblock = { player = \"alice\", room = \"cellar\" }\n"),
        "[text besides the submission: \"Question: does the block cost 5 garnets even if nobody goes there?\"]",
    ),
    (
        "apple-mail-de.eml",
        "erin",
        Some("room = \"cellar\"\n"),
        "written as the round 1 submission",
    ),
    (
        "outlook-desktop.eml",
        "frank",
        Some("room = \"basement\"\nfallback = \"cellar\"\n"),
        "written as the round 1 submission",
    ),
    (
        "gmail-fr.eml",
        "alice",
        Some("room = \"basement\"\n"),
        "written as the round 1 submission",
    ),
    (
        "gmail-es.eml",
        "bob",
        Some("room = \"cellar\"\n"),
        "written as the round 1 submission",
    ),
    (
        "prose-only.eml",
        "carol",
        None,
        "no submission found (no line sets one of the game's keys); the player is told [text besides the submission: \"Sorry, I can't decide yet, I'll write tonight. 2 + 2 = 4 anyway.\"",
    ),
    ("html-source.eml", "dave", None, "no submission found"),
    ("uuencoded.eml", "erin", None, "no submission found"),
];

#[test]
fn every_client_fixture_yields_the_submission_its_sender_meant() {
    for (name, player, expected, logged) in CASES {
        let game = example_game();
        let dir = game.path();
        tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
        let run = ingest(dir, "--eml", &fixture(name));
        assert_eq!(run.code, 0, "{name}: {}{}", run.stdout, run.stderr);
        let file = dir.join(format!("rounds/001/submissions/{player}.toml"));
        assert_eq!(
            fs::read_to_string(&file).ok().as_deref(),
            *expected,
            "{name}"
        );
        let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
        assert!(log.contains(logged), "{name}: {logged:?} not in\n{log}");
        assert_eq!(log.lines().count(), 1, "{name}: one line per message");
        if expected.is_some() {
            // the time it reached the host is the top Received: header's, not the sender's Date
            let origins =
                fs::read_to_string(dir.join("rounds/001/submissions/.ingest.toml")).unwrap();
            let received = fs::read_to_string(fixture(name)).unwrap();
            let stamp = received
                .lines()
                .nth(2)
                .unwrap()
                .rsplit("; ")
                .next()
                .unwrap();
            let at = jiff::fmt::rfc2822::parse(stamp.trim_end_matches(" (UTC)")).unwrap();
            assert!(
                origins.contains(&format!("reached = {}", at.timestamp().as_second())),
                "{name}: {origins}"
            );
        }
    }
}

#[test]
fn replies_from_six_clients_delivered_by_a_real_smtp_server_become_the_round() {
    let server = SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let clients = &CASES[..6];
    let files: Vec<PathBuf> = clients.iter().map(|c| fixture(c.0)).collect();
    // Each fixture is relayed as is, over SMTP, to the server on 127.0.0.1.
    let messages: Vec<(Option<&str>, &std::path::Path)> =
        files.iter().map(|f| (None, f.as_path())).collect();
    server.relay(&messages);
    let run = ingest(dir, "--maildir", &server.maildir.path().join("box"));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for (name, player, expected, _) in clients {
        let file = dir.join(format!("rounds/001/submissions/{player}.toml"));
        assert_eq!(
            fs::read_to_string(&file).ok().as_deref(),
            *expected,
            "{name}"
        );
    }
    tick(dir, "2026-12-02T11:05:00Z", &["--no-send", "-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert_eq!(
        receipts.matches("source = \"mail\"").count(),
        6,
        "{receipts}"
    );
    // Dave's question reaches him back in his acknowledgement, and the host in the log.
    let ack = fs::read_to_string(dir.join("outbox/r001-ack-dave-1.eml")).unwrap();
    let body = ack.replace("=\r\n", "").replace("=3D", "=");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("We ignored this text in your message (the host sees it too; write to the host directly for anything that needs an answer): \"Question: does the block cost 5 garnets even if nobody goes there?\""),
        "{flat}"
    );
    assert!(ack.contains("In-Reply-To: <AM0PR07MB4531C2E0E5B2F1A9F6D7C8E9A9B21@AM0PR07MB4531.eurprd07.prod.outlook.com>"));
}
