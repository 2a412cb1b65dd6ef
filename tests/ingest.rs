//! `adjudicate ingest` through the built binary: mail from a real Maildir, an mbox, one .eml and a
//! chat export, into the round, then the tick's acknowledgement replying to the mail.

use crate::support::{adjudicate, example_game, tick};
use std::fs;
use std::path::Path;

fn mail(from: &str, id: &str, date: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: submit@example.org\r\nSubject: my room\r\nMessage-ID: <{id}>\r\nDate: {date}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
}

fn maildir(root: &Path, messages: &[(&str, String)]) {
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(root.join(sub)).unwrap();
    }
    for (name, text) in messages {
        let path = root.join("new").join(name);
        fs::write(&path, text).unwrap();
        // Delivered at a fixed time (the Maildir's delivery time is the file's mtime), so that
        // the round a message counts for never depends on when the test runs.
        delivered_at(&path, "2026-12-02T10:00:00Z");
    }
}

/// Sets a Maildir file's delivery time.
pub fn delivered_at(path: &Path, when: &str) {
    let t: jiff::Timestamp = when.parse().unwrap();
    let file = fs::File::options().write(true).open(path).unwrap();
    let secs = std::time::Duration::from_secs(t.as_second().try_into().unwrap());
    file.set_modified(std::time::UNIX_EPOCH + secs).unwrap();
}

/// `adjudicate ingest DIR FLAG PATH` at 11:00 on 2 Dec (round 1 closes at 15:00).
pub fn ingest(dir: &Path, flag: &str, path: &Path) -> crate::support::Run {
    adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        flag.as_ref(),
        path.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T11:00:00Z".as_ref(),
    ])
}

const D1: &str = "Wed, 2 Dec 2026 09:00:00 +0000";
const D2: &str = "Wed, 2 Dec 2026 09:30:00 +0000";

#[test]
fn mail_in_a_maildir_becomes_a_submission_and_its_acknowledgement_replies_to_it() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let md = tempfile::tempdir().unwrap();
    maildir(
        md.path(),
        &[
            (
                "1.alice",
                mail(
                    "Alice <ALICE@example.org>",
                    "a1@mail",
                    D1,
                    "room = \"cellar\"\n\nOn Tue, Host wrote:\n> room = \"attic\"\n-- \nAlice\n",
                ),
            ),
            (
                "2.bob",
                mail(
                    "bob@example.org",
                    "b1@mail",
                    D1,
                    "Here it is\n```toml\nroom = \"basement\"\nfallback = \"attic\"\n```\n",
                ),
            ),
            (
                "3.bob",
                mail(
                    "bob@example.org",
                    "b2@mail",
                    D2,
                    "```toml\nroom = \"attic\"\n```\n",
                ),
            ),
            (
                "4.zed",
                mail("zed@example.net", "z1@mail", D1, "room = \"attic\"\n"),
            ),
            (
                "5.carol",
                mail("carol@example.org", "c1@mail", D1, "see you tomorrow\n"),
            ),
        ],
    );
    let run = ingest(dir, "--maildir", md.path());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/alice.toml")).unwrap(),
        "room = \"cellar\"\n"
    );
    // the newest of Bob's two messages wins
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/bob.toml")).unwrap(),
        "room = \"attic\"\n"
    );
    assert!(!dir.join("rounds/001/submissions/carol.toml").exists());
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.contains("from zed@example.net, who is not a player: not used, not answered"),
        "{log}"
    );
    assert!(
        log.contains("from carol: no submission found (no line sets one of the game's keys); the player is told [text besides the submission: \"see you tomorrow\"]"),
        "{log}"
    );
    assert!(
        log.contains("2.bob: from bob: superseded by a newer message in this run"),
        "{log}"
    );
    assert_eq!(log.lines().count(), 5, "one line per message:\n{log}");
    assert_eq!(
        fs::read_dir(md.path().join("new")).unwrap().count(),
        0,
        "every message handled moves to cur/"
    );
    assert_eq!(fs::read_dir(md.path().join("cur")).unwrap().count(), 5);

    tick(dir, "2026-12-02T11:05:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(
        receipts.contains("source = \"mail\"\nmessage_id = \"<a1@mail>\""),
        "{receipts}"
    );
    let ack = fs::read_to_string(dir.join("sent/r001-ack-alice-1.eml")).unwrap();
    assert!(ack.contains("In-Reply-To: <a1@mail>"), "{ack}");
    assert!(ack.contains("Understood: room: Cellar."), "{ack}");
    // a second run finds nothing new
    let run = ingest(dir, "--maildir", md.path());
    assert!(run.stdout.contains("nothing to ingest"), "{}", run.stdout);
}

#[test]
fn without_the_right_token_a_message_is_rejected_with_a_reply_that_names_no_secret() {
    let game = example_game();
    let dir = game.path();
    fs::write(
        dir.join("secrets.toml"),
        "[tokens]\nalice = \"opal-7\"\nbob = \"ruby-3\"\n",
    )
    .unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let md = tempfile::tempdir().unwrap();
    maildir(
        md.path(),
        &[
            (
                "1",
                mail("alice@example.org", "spoof@evil", D1, "room = \"attic\"\n"),
            ),
            (
                "2",
                mail(
                    "alice@example.org",
                    "other@evil",
                    D1,
                    "token = \"ruby-3\"\nroom = \"attic\"\n",
                ),
            ),
            (
                "3",
                mail(
                    "bob@example.org",
                    "b@mail",
                    D1,
                    "token = \"ruby-3\"\nroom = \"cellar\"\n",
                ),
            ),
        ],
    );
    let run = ingest(dir, "--maildir", md.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.join("rounds/001/submissions/alice.toml").exists());
    let bob = fs::metadata(dir.join("rounds/001/submissions/bob.toml")).unwrap();
    // it holds Bob's token: readable by the host's account only
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(bob.permissions().mode() & 0o777, 0o600);
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    // the token is checked once the text is read: missing and wrong are told apart
    assert_eq!(
        log.matches("token is missing; rejected").count(),
        1,
        "{log}"
    );
    assert_eq!(
        log.matches("token does not match; rejected").count(),
        1,
        "{log}"
    );
    let replies: Vec<String> = fs::read_dir(dir.join("outbox"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|m| m.contains("was not accepted"))
        .collect();
    assert_eq!(replies.len(), 2);
    for reply in &replies {
        assert!(reply.contains("To: alice@example.org"), "{reply}");
        assert!(
            !reply.contains("opal-7") && !reply.contains("ruby-3") && !reply.contains("Alice"),
            "{reply}"
        );
    }
    tick(dir, "2026-12-02T11:05:00Z", &["-q"]);
    let archived = fs::read_to_string(dir.join("rounds/001/received/bob-1.toml")).unwrap();
    assert_eq!(archived, "token = \"<redacted>\"\nroom = \"cellar\"\n");
}

#[test]
fn an_mbox_with_a_malformed_message_in_the_middle_still_gives_the_rest() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let files = tempfile::tempdir().unwrap();
    let mbox = files.path().join("in.mbox");
    let text = format!(
        "From alice@example.org Wed Dec  2 09:00:00 2026\n{}\n\nFrom nobody Wed Dec  2 09:10:00 2026\nthis is not a mail at all\n\nFrom carol@example.org Wed Dec  2 09:20:00 2026\n{}\n",
        mail("alice@example.org", "a@m", D1, "room = \"attic\"\n").replace("\r\n", "\n"),
        mail("carol@example.org", "c@m", D2, "room = \"basement\"\n").replace("\r\n", "\n"),
    );
    fs::write(&mbox, text).unwrap();
    let run = ingest(dir, "--mbox", &mbox);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(dir.join("rounds/001/submissions/alice.toml").exists());
    assert!(dir.join("rounds/001/submissions/carol.toml").exists());
    assert!(run.stdout.contains("message 2"), "{}", run.stdout);
}

#[test]
fn a_toml_attachment_wins_and_its_file_name_is_never_a_path() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let files = tempfile::tempdir().unwrap();
    let eml = files.path().join("attached.eml");
    let text = "From: dave@example.org\r\nSubject: mine\r\nMessage-ID: <d@m>\r\nDate: Wed, 2 Dec 2026 09:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nattached, see file\r\n--XX\r\nContent-Type: application/toml\r\nContent-Disposition: attachment; filename=\"../../evil.toml\"\r\nContent-Transfer-Encoding: base64\r\n\r\ncm9vbSA9ICJjZWxsYXIiCg==\r\n--XX--\r\n";
    fs::write(&eml, text).unwrap();
    let run = ingest(dir, "--eml", &eml);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/dave.toml")).unwrap(),
        "room = \"cellar\"\n"
    );
    assert!(!files.path().join("../evil.toml").exists() && !dir.join("rounds/evil.toml").exists());
}

#[test]
fn html_only_oversized_and_older_messages_are_reported_not_applied() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let md = tempfile::tempdir().unwrap();
    let html = "From: erin@example.org\r\nSubject: x\r\nMessage-ID: <e@m>\r\nDate: Wed, 2 Dec 2026 09:00:00 +0000\r\nContent-Type: text/html\r\n\r\n<p>room = \"attic\"</p>\r\n";
    let big = mail(
        "frank@example.org",
        "f@m",
        D1,
        &format!("room = \"attic\"\n{}", "# pad\n".repeat(50_000)),
    );
    maildir(
        md.path(),
        &[
            ("1", html.to_owned()),
            ("2", big),
            (
                "3",
                mail("alice@example.org", "a2@m", D2, "room = \"attic\"\n"),
            ),
        ],
    );
    let run = ingest(dir, "--maildir", md.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(log.contains("HTML-only mail"), "{log}");
    assert!(log.contains("over the 256 KiB limit"), "{log}");
    // An older message from Alice arrives later: reported, not applied.
    let md2 = tempfile::tempdir().unwrap();
    maildir(
        md2.path(),
        &[(
            "4",
            mail("alice@example.org", "a1@m", D1, "room = \"cellar\"\n"),
        )],
    );
    let run = ingest(dir, "--maildir", md2.path());
    assert!(
        run.stdout
            .contains("older than the version on file; not applied"),
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/alice.toml")).unwrap(),
        "room = \"attic\"\n"
    );
}

/// Gives Bob the chat handle "bobby" and sets the game up.
fn bob_chats_as_bobby(dir: &Path) {
    let text = fs::read_to_string(dir.join("game.toml")).unwrap().replace(
        "email = \"bob@example.org\"",
        "email = \"bob@example.org\"\nchat = \"bobby\"",
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
}

#[test]
fn a_chat_export_counts_edited_messages_as_edited() {
    let game = example_game();
    let dir = game.path();
    bob_chats_as_bobby(dir);
    let files = tempfile::tempdir().unwrap();
    let export = files.path().join("chat.json");
    fs::write(
        &export,
        r#"{ "guild": { "name": "ORG" }, "channel": { "name": "bobby" }, "messages": [
          { "id": "1", "type": "Default", "timestamp": "2026-12-02T09:00:00+00:00", "timestampEdited": "2026-12-02T10:30:00+00:00",
            "content": "```toml\nroom = \"cellar\"\n```", "author": { "id": "9", "name": "Bobby", "nickname": "Bob" } },
          { "id": "2", "type": "Default", "timestamp": "2026-12-02T10:00:00+00:00", "timestampEdited": null,
            "content": "```toml\nroom = \"attic\"\n```", "author": { "id": "9", "name": "bobby", "nickname": "Bob" } },
          { "id": "3", "type": "Default", "timestamp": "2026-12-02T10:00:00+00:00", "timestampEdited": null,
            "content": "good luck all", "author": { "id": "9", "name": "bobby" } }
        ] }"#,
    )
    .unwrap();
    let run = ingest(dir, "--chat", &export);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // message 1 was edited at 10:30, after message 2: its edited text is the newest
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/bob.toml")).unwrap(),
        "room = \"cellar\"\n"
    );
    tick(dir, "2026-12-02T11:05:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(receipts.contains("source = \"chat\""), "{receipts}");
}

#[test]
fn when_the_submission_cannot_be_written_the_message_stays_in_new() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let md = tempfile::tempdir().unwrap();
    maildir(
        md.path(),
        &[(
            "1",
            mail("alice@example.org", "a@m", D1, "room = \"attic\"\n"),
        )],
    );
    // The submissions folder is replaced by a file: writing into it fails.
    let subs = dir.join("rounds/001/submissions");
    fs::remove_dir_all(&subs).unwrap();
    fs::write(&subs, "").unwrap();
    let run = ingest(dir, "--maildir", md.path());
    assert_eq!(run.code, 74, "{}{}", run.stdout, run.stderr);
    assert_eq!(fs::read_dir(md.path().join("new")).unwrap().count(), 1);
}

#[test]
fn mail_delivered_by_a_real_smtp_server_into_its_maildir_is_ingested() {
    let server = crate::support::SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    // Players' mail clients: Python's smtplib, speaking SMTP to the server on 127.0.0.1.
    let script = format!(
        "import smtplib\nfrom email.message import EmailMessage\nfor who, room in [('erin', 'cellar'), ('frank', 'attic')]:\n    m = EmailMessage()\n    m['From'] = who + '@example.org'\n    m['To'] = 'submit@example.org'\n    m['Subject'] = 'round 1'\n    m['Message-ID'] = '<' + who + '@phone>'\n    m['Date'] = 'Wed, 2 Dec 2026 09:00:00 +0000'\n    m.set_content('room = \"' + room + '\"\\n')\n    with smtplib.SMTP('127.0.0.1', {}) as s:\n        s.send_message(m)\n",
        server.port
    );
    let status = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .status()
        .unwrap();
    assert!(status.success());
    let maildir = server.maildir.path().join("box");
    let run = ingest(dir, "--maildir", &maildir);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/erin.toml")).unwrap(),
        "room = \"cellar\"\n"
    );
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/frank.toml")).unwrap(),
        "room = \"attic\"\n"
    );
    tick(dir, "2026-12-02T11:05:00Z", &["--no-send", "-q"]);
    let ack = fs::read_to_string(dir.join("outbox/r001-ack-erin-1.eml")).unwrap();
    assert!(
        ack.contains("In-Reply-To: <erin@phone>") && ack.contains("Understood: room: Cellar."),
        "{ack}"
    );
}

/// A mail with the given extra headers (before From) and body, as a Maildir would hold it.
fn raw_mail(headers: &str, body: &str) -> String {
    format!(
        "{headers}From: erin@example.org\r\nTo: submit@example.org\r\nSubject: round 1\r\nMessage-ID: <e-{}@mail>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn when_a_mail_reached_the_host_falls_back_and_the_log_says_why() {
    // (case, headers, Maildir delivery time, expected `reached`, note in the log)
    let cases = [
        (
            "malformed Received date",
            "Received: from x by mx.host.example.org; Wed, 32 Foo 2026 99:00:00 +0000\r\nDate: Wed, 2 Dec 2026 09:00:00 +0000\r\n",
            "2026-12-02T10:00:00Z",
            "2026-12-02T10:00:00Z",
            "(time: the top Received: header has no readable date; used the delivery time)",
        ),
        (
            "no date at all",
            "",
            "2026-12-02T10:00:00Z",
            "2026-12-02T10:00:00Z",
            "written as the round 1 submission (reached the host 2026-12-02T10:00:00Z)",
        ),
        (
            "delivery time in the future",
            "",
            "2027-01-01T00:00:00Z",
            "2026-12-02T11:00:00Z",
            "(time: a time in the future; used the time of this run)",
        ),
    ];
    for (case, headers, delivered, reached, note) in cases {
        let game = example_game();
        let dir = game.path();
        tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
        let md = tempfile::tempdir().unwrap();
        maildir(
            md.path(),
            &[("1.erin", raw_mail(headers, "room = \"attic\"\n"))],
        );
        delivered_at(&md.path().join("new/1.erin"), delivered);
        let run = ingest(dir, "--maildir", md.path());
        assert_eq!(run.code, 0, "{case}: {}{}", run.stdout, run.stderr);
        let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
        assert!(log.contains(note), "{case}: {note:?} not in {log}");
        assert!(
            log.contains(&format!("(reached the host {reached})")),
            "{case}: {log}"
        );
    }
}

#[test]
fn a_chat_export_out_of_order_is_read_in_the_order_of_its_timestamps() {
    let game = example_game();
    let dir = game.path();
    bob_chats_as_bobby(dir);
    let files = tempfile::tempdir().unwrap();
    let export = files.path().join("chat.json");
    // The newer message comes first in the file; a bare fence and a TOML fence.
    fs::write(
        &export,
        r#"{ "messages": [
          { "id": "2", "timestamp": "2026-12-02T10:00:00+00:00", "timestampEdited": null,
            "content": "```TOML\nroom = \"attic\"\n```", "author": { "name": "bobby" } },
          { "id": "1", "timestamp": "2026-12-02T09:00:00+00:00", "timestampEdited": null,
            "content": "```\nroom = \"cellar\"\n```", "author": { "name": "bobby" } }
        ] }"#,
    )
    .unwrap();
    let run = ingest(dir, "--chat", &export);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/bob.toml")).unwrap(),
        "room = \"attic\"\n"
    );
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.contains("chat:1: from bob: superseded by a newer message in this run"),
        "{log}"
    );
}

#[test]
fn a_ten_thousand_line_body_is_read_and_its_prose_reported_once() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let mut body = String::from("room = \"cellar\"\r\n");
    for i in 0..10_000 {
        body.push_str(&format!("line {i}\r\n"));
    }
    let files = tempfile::tempdir().unwrap();
    let eml = files.path().join("long.eml");
    fs::write(&eml, raw_mail("", &body)).unwrap();
    let run = ingest(dir, "--eml", &eml);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/erin.toml")).unwrap(),
        "room = \"cellar\"\n"
    );
    assert_eq!(
        fs::read_to_string(dir.join("ingest.log"))
            .unwrap()
            .lines()
            .count(),
        1
    );
}

#[test]
fn the_version_already_on_file_gets_a_short_reply_and_no_new_receipt() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let first = tempfile::tempdir().unwrap();
    maildir(
        first.path(),
        &[(
            "1.erin",
            mail("erin@example.org", "e1@mail", D1, "room = \"attic\"\n"),
        )],
    );
    assert_eq!(ingest(dir, "--maildir", first.path()).code, 0);
    tick(dir, "2026-12-02T11:05:00Z", &["-q"]);
    // The same choice again, in a new message (a resend, another client).
    let again = tempfile::tempdir().unwrap();
    maildir(
        again.path(),
        &[(
            "2.erin",
            mail("erin@example.org", "e2@mail", D2, "Hi!\nroom = \"attic\"\n"),
        )],
    );
    let run = ingest(dir, "--maildir", again.path());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("from erin: the version already on file; not written, the player is told"),
        "{}",
        run.stdout
    );
    tick(dir, "2026-12-02T11:10:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert_eq!(
        receipts.matches("player = \"erin\"").count(),
        1,
        "{receipts}"
    );
    let reply = fs::read_dir(dir.join("sent"))
        .unwrap()
        .flatten()
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("r001-same-erin-")
        })
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .expect("a reply");
    let flat = reply
        .replace("=\r\n", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains("This is the version we already have (version 1, received Wed 2 Dec 10:00 UTC): nothing changes."), "{flat}");
    assert!(reply.contains("In-Reply-To: <e2@mail>"), "{reply}");
}
