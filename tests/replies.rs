//! Every message a player sends gets exactly one answer (issue: replies). Each shape of mail that
//! players really send (client fixtures from mutt and s-nail in `tests/mail/`, the rest written
//! here as the clients write them) goes through a real SMTP server into a Maildir, then
//! `ingest` and a tick; for each message the test checks how many replies answer it (by their
//! In-Reply-To), what the reply says, and what the round now holds for its sender.

use crate::support::{SmtpServer, adjudicate, example_game, header, manifest_dir, tick};
use std::fs;
use std::path::Path;

/// What must become of a message.
enum Expect {
    /// A version is written holding this line, and the tick acknowledges it; the
    /// acknowledgement says the second part.
    Used(&'static str, &'static str),
    /// No version; one reply saying this.
    Told(&'static str),
    /// Never answered (not a player, automatic mail).
    Silent,
}

struct Shape {
    name: &'static str,
    /// The sender's address.
    from: &'static str,
    /// The message as the client wrote it (headers and body), without the host's Received.
    message: Vec<u8>,
    expect: Expect,
}

/// A message as a client writes it, with `headers` (each ending in CRLF) before the body.
fn written(from: &str, id: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: host@example.org\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\nDate: Wed, 2 Dec 2026 08:00:00 +0000\r\nMIME-Version: 1.0\r\n{headers}\r\n{body}"
    )
    .into_bytes()
}

fn plain(from: &str, id: &str, body: &str) -> Vec<u8> {
    written(
        from,
        id,
        "Re: round 1",
        "Content-Type: text/plain; charset=utf-8\r\n",
        body,
    )
}

fn fixture(name: &str) -> Vec<u8> {
    fs::read(manifest_dir().join("tests/mail").join(name)).unwrap()
}

/// The private report a player got at the opening, quoted the way mail clients quote it.
fn quoted_report(dir: &Path, player: &str, edit: Option<(&str, &str)>) -> String {
    let report = fs::read_to_string(dir.join(format!("rounds/000/private/{player}.txt"))).unwrap();
    let report = match edit {
        Some((from, to)) => report.replace(from, to),
        None => report,
    };
    let quoted: Vec<String> = report
        .lines()
        .map(|l| {
            if l.is_empty() {
                ">".into()
            } else {
                format!("> {l}")
            }
        })
        .collect();
    format!(
        "On Wed, 2 Dec 2026 at 08:00, ORG Host <host@example.org> wrote:\r\n{}\r\n",
        quoted.join("\r\n")
    )
}

/// Three batches, at most one message per player in each (two from one player in one fetch
/// would be one version), two hours apart (so the one-reply-an-hour limit never applies).
fn batches(dir: &Path) -> Vec<Vec<Shape>> {
    // 5 MB in lines of 100 characters, as a long quoted history would be
    let big = format!(
        "room = \"attic\"\r\n{}",
        format!("> {}\r\n", "x".repeat(98)).repeat(50_000)
    );
    let multipart_html = "Content-Type: text/html; charset=utf-8\r\n";
    vec![
        vec![
            Shape {
                name: "top-posted prose above the quoted report",
                from: "carol@example.org",
                message: plain(
                    "Carol <carol@example.org>",
                    "top@gmail",
                    &format!(
                        "Cellar for me please!\r\n\r\n{}",
                        quoted_report(dir, "carol", None)
                    ),
                ),
                expect: Expect::Told("No line of your message sets one of this game's keys"),
            },
            Shape {
                name: "HTML only",
                from: "dave@example.org",
                message: written(
                    "Dave <dave@example.org>",
                    "html@outlook",
                    "Re: round 1",
                    multipart_html,
                    "<html><body><p>room = &quot;cellar&quot;</p></body></html>\r\n",
                ),
                expect: Expect::Told("sent as HTML only"),
            },
            Shape {
                name: "subject only, empty body",
                from: "erin@example.org",
                message: plain("erin@example.org", "empty@phone", "\r\n"),
                expect: Expect::Told("Your message has no text"),
            },
            Shape {
                name: "a key with a capital, outside a fence",
                from: "frank@example.org",
                message: plain("frank@example.org", "caps@phone", "Room = \"attic\"\r\n"),
                expect: Expect::Used("room = \"attic\"", "We read `Room` as `room`."),
            },
            Shape {
                name: "an edit inside the quoted skeleton",
                from: "alice@example.org",
                message: plain(
                    "Alice <alice@example.org>",
                    "inline@thunderbird",
                    &quoted_report(
                        dir,
                        "alice",
                        Some(("room = \"attic\"", "room = \"cellar\"")),
                    ),
                ),
                expect: Expect::Used(
                    "room = \"cellar\"",
                    "We found your choices inside or below the report you quoted.",
                ),
            },
            Shape {
                name: "bottom-posted below the quoted report (mutt)",
                from: "bob@example.org",
                message: fixture("mutt-bottom-posted.eml"),
                expect: Expect::Used(
                    "room = \"basement\"",
                    "We found your choices inside or below the report you quoted.",
                ),
            },
        ],
        vec![
            Shape {
                name: "a mail of 5 MB",
                from: "carol@example.org",
                message: plain("carol@example.org", "big@client", &big),
                expect: Expect::Told("more than the 256 KiB we read"),
            },
            Shape {
                name: "a question to the host only",
                from: "dave@example.org",
                message: plain(
                    "dave@example.org",
                    "question@client",
                    "Hi, does a Block also stop a Peek?\r\n\r\nDave\r\n",
                ),
                expect: Expect::Told("No line of your message sets one of this game's keys"),
            },
            Shape {
                name: "curly quotes from a phone",
                from: "erin@example.org",
                message: plain(
                    "erin@example.org",
                    "curly@iphone",
                    "room = \u{201c}cellar\u{201d}\r\n\r\nSent from my iPhone\r\n",
                ),
                expect: Expect::Used("room = \"cellar\"", "We read the curly quotes"),
            },
            Shape {
                name: "a signature holding TOML-looking lines (s-nail)",
                from: "frank@example.org",
                message: fixture("s-nail-signature.eml"),
                expect: Expect::Used("room = \"cellar\"", "It is valid"),
            },
            Shape {
                name: "three fenced blocks",
                from: "alice@example.org",
                message: plain(
                    "alice@example.org",
                    "fences@client",
                    "```\r\nroom = \"attic\"\r\n```\r\nno wait\r\n```toml\r\nroom = \"cellar\"\r\n```\r\nActually no, make it:\r\n```\r\nroom = \"basement\"\r\n```\r\n",
                ),
                expect: Expect::Used(
                    "room = \"basement\"",
                    "Your message had 3 fenced blocks: we used the last one",
                ),
            },
            Shape {
                name: "a BOM, CRLF and tabs",
                from: "bob@example.org",
                message: plain(
                    "bob@example.org",
                    "bom@windows",
                    "\u{feff}room = \"attic\"\r\n\tfallback = \"cellar\"\r\n",
                ),
                expect: Expect::Used("\tfallback = \"cellar\"", "It is valid"),
            },
        ],
        vec![
            Shape {
                name: "format=flowed",
                from: "carol@example.org",
                message: written(
                    "carol@example.org",
                    "flowed@thunderbird",
                    "Re: round 1",
                    "Content-Type: text/plain; charset=utf-8; format=flowed\r\n",
                    "I thought about it for a long time and I am going to the cellar \r\nthis round, whatever the others do.\r\nroom = \"cellar\"\r\n",
                ),
                expect: Expect::Used(
                    "room = \"cellar\"",
                    "\"I thought about it for a long time and I am going to the cellar this round, whatever the others do.\"",
                ),
            },
            Shape {
                name: "a body and a differing .toml attachment (mutt)",
                from: "dave@example.org",
                message: fixture("mutt-attachment-differs.eml"),
                expect: Expect::Told("two different submissions"),
            },
            Shape {
                name: "a problem is told at the line of the mail",
                from: "frank@example.org",
                message: plain(
                    "frank@example.org",
                    "garage@client",
                    "Hi!\r\n\r\nHere goes:\r\nroom = \"garage\"\r\n",
                ),
                expect: Expect::Used("room = \"garage\"", "line 4 of your message"),
            },
            Shape {
                name: "an auto-responder",
                from: "erin@example.org",
                message: written(
                    "erin@example.org",
                    "vacation@erin",
                    "Out of office: Re: round 1",
                    "Auto-Submitted: auto-replied\r\nContent-Type: text/plain\r\n",
                    "I am away until Monday.\r\n",
                ),
                expect: Expect::Silent,
            },
            Shape {
                name: "a reply loop: our own acknowledgement mailed back to us",
                from: "host@example.org",
                message: written(
                    "\"ORG Host\" <host@example.org>",
                    "loop@example.org",
                    "Attic Basement Cellar: round 1, submission received (version 1)",
                    "Auto-Submitted: auto-replied\r\nContent-Type: text/plain\r\n",
                    "Received your round 1 submission (version 1).\r\nroom = \"attic\"\r\n",
                ),
                expect: Expect::Silent,
            },
            Shape {
                name: "a stranger",
                from: "zed@example.net",
                message: plain("zed@example.net", "spam@zed", "room = \"attic\"\r\n"),
                expect: Expect::Silent,
            },
        ],
    ]
}

/// Relays each message over SMTP to the server, as the host's server received it at `at`
/// (its Received header on top, as a real MTA adds).
fn relay(server: &SmtpServer, shapes: &[Shape], at: &str, spool: &Path) {
    let mut files = Vec::new();
    for (i, shape) in shapes.iter().enumerate() {
        let path = spool.join(format!("{at}-{i}.eml"));
        let mut bytes =
            format!("Received: from mx.example.org by host.example.org; {at}\r\n").into_bytes();
        bytes.extend_from_slice(&shape.message);
        fs::write(&path, bytes).unwrap();
        files.push((shape.from, path));
    }
    let messages: Vec<(Option<&str>, &Path)> = files
        .iter()
        .map(|(from, path)| (Some(*from), path.as_path()))
        .collect();
    server.relay(&messages);
}

/// Every message in outbox/ and sent/: (file name, text).
fn outgoing(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for folder in ["outbox", "sent"] {
        let Ok(entries) = fs::read_dir(dir.join(folder)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".eml") {
                out.push((name, fs::read_to_string(e.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A message's body, quoted-printable undone and whitespace made single spaces.
pub fn flat(message: &str) -> String {
    let body = message.split_once("\r\n\r\n").map_or(message, |(_, b)| b);
    let body = body
        .replace("=\r\n", "")
        .replace("=3D", "=")
        .replace("=E2=80=9C", "“");
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn message_id(message: &[u8]) -> String {
    header(
        &String::from_utf8_lossy(&message[..message.len().min(4096)]),
        "Message-ID",
    )
    .unwrap()
}

#[test]
fn every_shape_of_mail_gets_exactly_one_answer_and_the_round_holds_what_the_player_meant() {
    let server = SmtpServer::start(&[]);
    let maildir = server.maildir.path().join("box");
    let game = example_game();
    let dir = game.path();
    let spool = tempfile::tempdir().unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let times = [
        ("Wed, 2 Dec 2026 08:30:00 +0000", "2026-12-02T08:31:00Z"),
        ("Wed, 2 Dec 2026 10:30:00 +0000", "2026-12-02T10:31:00Z"),
        ("Wed, 2 Dec 2026 12:30:00 +0000", "2026-12-02T12:31:00Z"),
    ];
    let all = batches(dir);
    let mut failures = Vec::new();
    for (batch, (received, now)) in all.iter().zip(times) {
        relay(&server, batch, received, spool.path());
        let run = adjudicate([
            "ingest",
            &dir.display().to_string(),
            "--maildir",
            &maildir.display().to_string(),
            "--now",
            now,
        ]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        tick(dir, now, &["-q", "--no-send"]);
        let out = outgoing(dir);
        for shape in batch {
            let id = message_id(&shape.message);
            let replies: Vec<&(String, String)> = out
                .iter()
                .filter(|(_, m)| header(m, "In-Reply-To").as_deref() == Some(id.as_str()))
                .collect();
            let player = shape.from.split('@').next().unwrap();
            let file = dir.join(format!("rounds/001/submissions/{player}.toml"));
            let on_file = fs::read_to_string(&file).unwrap_or_default();
            let problem = match (&shape.expect, replies.as_slice()) {
                (Expect::Silent, []) => None,
                (Expect::Silent, r) => Some(format!("{} replies, expected none", r.len())),
                (_, [(name, reply)]) => {
                    let body = flat(reply);
                    match &shape.expect {
                        Expect::Used(line, says) if !on_file.contains(line) => {
                            Some(format!("{line:?} not on file: {on_file:?}"))
                        }
                        Expect::Used(_, says) | Expect::Told(says) if !body.contains(says) => {
                            Some(format!("{name} does not say {says:?}: {body}"))
                        }
                        Expect::Used(..) if !name.contains("-ack-") => {
                            Some(format!("{name} is not an acknowledgement"))
                        }
                        Expect::Told(_) if !name.contains("-nothing-") => {
                            Some(format!("{name} is not a 'no submission found' reply"))
                        }
                        _ if header(reply, "Auto-Submitted").as_deref() != Some("auto-replied") => {
                            Some(format!("{name} has no Auto-Submitted: auto-replied"))
                        }
                        _ => None,
                    }
                }
                (_, r) => Some(format!("{} replies, expected exactly one", r.len())),
            };
            if let Some(p) = problem {
                failures.push(format!("{}: {p}", shape.name));
            }
        }
    }
    if let Ok(keep) = std::env::var("ADJUDICATE_KEEP") {
        crate::support::copy_dir(dir, Path::new(&keep));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Nothing stays in new/; what was not used is flagged for the host, and listed once.
    assert_eq!(fs::read_dir(maildir.join("new")).unwrap().count(), 0);
    let flagged = fs::read_dir(maildir.join("cur"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(":2,FS")
        })
        .count();
    // (our own acknowledgement mailed back to us is filed quietly, not flagged: issue 57)
    assert_eq!(flagged, 2, "the auto-reply and the stranger");
    let status = adjudicate([
        "status",
        &dir.display().to_string(),
        "--now",
        "2026-12-02T12:40:00Z",
    ]);
    assert!(
        status.stdout.contains("Mail not used (1)")
            && !status.stdout.contains("host@example.org")
            && status.stdout.contains("zed@example.net"),
        "{}",
        status.stdout
    );
    assert!(
        status.stdout.contains("message(s) gave no version"),
        "{}",
        status.stdout
    );
    // The 5 MB mail's line in the log names its sender.
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("from carol") && l.contains("over the 256 KiB limit")),
        "{log}"
    );
    // A question to the host reaches the host.
    assert!(log.contains("does a Block also stop a Peek?"), "{log}");
}

/// A mail as the host's server received it at `received` (RFC 2822), replying to nothing.
pub fn mail_at(from: &str, id: &str, received: &str, body: &str) -> String {
    format!(
        "Received: from mx.example.org by host.example.org; {received}\r\nFrom: {from}\r\nTo: host@example.org\r\nSubject: my choice\r\nMessage-ID: <{id}>\r\nDate: {received}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
}

fn ingest_at(dir: &Path, flag: &str, path: &Path, now: &str) -> crate::support::Run {
    let run = adjudicate([
        "ingest",
        &dir.display().to_string(),
        flag,
        &path.display().to_string(),
        "--now",
        now,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

#[test]
fn after_a_forced_close_the_next_rounds_mail_counts_at_once_and_only_earlier_mail_is_refused() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    // Round 1 closes at 10:00, five hours before its scheduled deadline (15:00).
    tick(dir, "2026-12-02T10:00:00Z", &["-q", "--force"]);
    let result = fs::read_to_string(dir.join("rounds/001/result.toml")).unwrap();
    assert!(
        result.contains("closed = \"2026-12-02T10:00:00Z\""),
        "{result}"
    );
    let state = fs::read_to_string(dir.join("state.toml")).unwrap();
    assert!(state.contains("opened = 2026-12-02T10:00:00Z"), "{state}");
    let spool = tempfile::tempdir().unwrap();
    let before = spool.path().join("before.eml");
    let after = spool.path().join("after.eml");
    // 09:59:30 reached the host before the close (fetched after it); 11:00 after it, before the
    // old deadline.
    fs::write(
        &before,
        mail_at(
            "alice@example.org",
            "a@x",
            "Wed, 2 Dec 2026 09:59:30 +0000",
            "room = \"attic\"\r\n",
        ),
    )
    .unwrap();
    fs::write(
        &after,
        mail_at(
            "bob@example.org",
            "b@x",
            "Wed, 2 Dec 2026 11:00:00 +0000",
            "room = \"cellar\"\r\n",
        ),
    )
    .unwrap();
    let refused = ingest_at(dir, "--eml", &before, "2026-12-02T11:05:00Z");
    assert!(
        refused
            .stderr
            .contains("before round 1 closed (Wed 2 Dec 10:00 UTC)"),
        "{}",
        refused.stderr
    );
    assert!(!dir.join("rounds/002/submissions/alice.toml").exists());
    let counted = ingest_at(dir, "--eml", &after, "2026-12-02T11:05:00Z");
    assert!(counted.stderr.is_empty(), "{}", counted.stderr);
    assert_eq!(
        fs::read_to_string(dir.join("rounds/002/submissions/bob.toml")).unwrap(),
        "room = \"cellar\"\n"
    );
    tick(dir, "2026-12-02T11:06:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/002/receipts.toml")).unwrap();
    assert!(
        receipts.contains("valid = true") && !receipts.contains("late = true"),
        "{receipts}"
    );
    // The archive explains itself: replay reads the close from result.toml.
    let replay = adjudicate(["replay", &dir.display().to_string()]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
}

#[test]
fn a_god_race_closed_early_takes_every_answer_sent_within_a_minute_through_smtp() {
    let server = SmtpServer::start(&[]);
    let maildir = server.maildir.path().join("box");
    let spool = tempfile::tempdir().unwrap();
    let game = tempfile::tempdir().unwrap();
    let dir = game.path();
    let toml = fs::read_to_string(crate::support::god_race_example_dir().join("game.toml"))
        .unwrap()
        .replace("every = \"24h\"", "every = \"24h\"\nearly_close = true");
    fs::write(dir.join("game.toml"), toml).unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    // Each round, every player answers the skeleton of their latest report, by mail, within a
    // minute of the moment the previous round closed early.
    let players = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"];
    let mut clock = jiff::Timestamp::from_second(1_796_198_400).unwrap(); // 08:00
    for round in 0..3u32 {
        let shapes: Vec<Shape> = players
            .iter()
            .filter_map(|p| {
                let skeleton = crate::first_game::skeleton(&latest_report(dir, p)?)?;
                let from = format!("{p}@example.org");
                Some(Shape {
                    name: "an answer",
                    message: plain(
                        &from,
                        &format!("r{round}-{p}@x"),
                        &skeleton.replace('\n', "\r\n"),
                    ),
                    from: Box::leak(from.into_boxed_str()),
                    expect: Expect::Silent,
                })
            })
            .collect();
        assert_eq!(
            shapes.len(),
            players.len(),
            "round {round}: a skeleton each"
        );
        let within = clock
            .checked_add(jiff::SignedDuration::from_secs(40))
            .unwrap();
        let received = within.strftime("%a, %-d %b %Y %H:%M:%S +0000").to_string();
        relay(&server, &shapes, &received, spool.path());
        let now = within
            .checked_add(jiff::SignedDuration::from_secs(60))
            .unwrap();
        let run = ingest_at(dir, "--maildir", &maildir, &now.to_string());
        assert!(
            !run.stderr.contains("resolved before it was fetched"),
            "round {round}: {}",
            run.stderr
        );
        tick(dir, &now.to_string(), &["-q", "--no-send"]);
        let receipts =
            fs::read_to_string(dir.join(format!("rounds/{round:03}/receipts.toml"))).unwrap();
        assert_eq!(
            receipts.matches("valid = true").count(),
            players.len(),
            "round {round}: every answer counted\n{receipts}"
        );
        let result = fs::read_to_string(dir.join(format!("rounds/{round:03}/result.toml")))
            .unwrap_or_else(|_| panic!("round {round} closed early"));
        assert!(
            result.contains(&format!(
                "closed = \"{}\"",
                now.strftime("%Y-%m-%dT%H:%M:%SZ")
            )),
            "{result}"
        );
        clock = now;
    }
}

/// The latest private report of a player: the newest round's, or the opening's.
fn latest_report(dir: &Path, player: &str) -> Option<String> {
    let mut rounds: Vec<_> = fs::read_dir(dir.join("rounds"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    rounds.sort();
    rounds.push(dir.join("rounds/000/opening"));
    let order = rounds.iter().rev().filter(|r| !r.ends_with("opening"));
    order
        .chain(std::iter::once(&dir.join("rounds/000/opening")))
        .find_map(|r| fs::read_to_string(r.join(format!("private/{player}.txt"))).ok())
}

/// The body of a message file in outbox/ (decoded).
fn body_of(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    flat(&text)
}

#[test]
fn a_cumulative_chat_export_is_read_once_per_message_and_a_chat_player_gets_files_to_paste() {
    let game = example_game();
    let dir = game.path();
    // Bob plays by chat only: no address.
    let text = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .replace("email = \"bob@example.org\"", "chat = \"bobby\"");
    fs::write(dir.join("game.toml"), text).unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let chat = dir.join("outbox/chat");
    assert!(
        chat.join("bob/r000-private-bob-0.txt").is_file(),
        "the welcome, to paste"
    );
    assert!(
        chat.join("_public/r000-public-list-0.txt").is_file(),
        "the announcement"
    );
    let files = tempfile::tempdir().unwrap();
    let export = files.path().join("chat.json");
    let message = |id: &str, at: &str, content: &str| {
        serde_json::json!({ "id": id, "type": "Default", "timestamp": at, "timestampEdited": null,
            "content": content, "author": { "id": "9", "name": "bobby" } })
    };
    let mut messages = vec![
        message(
            "1",
            "2026-12-02T09:00:00+00:00",
            "```toml\nroom = \"cellar\"\n```",
        ),
        message("2", "2026-12-02T09:05:00+00:00", "good luck all"),
    ];
    let write = |messages: &Vec<serde_json::Value>| {
        let json = serde_json::json!({ "guild": { "name": "ORG" }, "channel": { "name": "game" }, "messages": messages });
        fs::write(&export, json.to_string()).unwrap();
    };
    let log_lines = || {
        fs::read_to_string(dir.join("ingest.log"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    write(&messages);
    ingest_at(dir, "--chat", &export, "2026-12-02T10:00:00Z");
    assert_eq!(log_lines(), 2);
    let nothing: Vec<_> = fs::read_dir(chat.join("bob"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("-nothing-"))
        .collect();
    assert_eq!(
        nothing.len(),
        1,
        "\"good luck all\" is answered, as a file to paste"
    );
    tick(dir, "2026-12-02T10:01:00Z", &["-q", "--no-send"]);
    let ack = fs::read_to_string(chat.join("bob/r001-ack-bob-1.txt")).unwrap();
    assert!(
        ack.starts_with("**Attic Basement Cellar: round 1, submission received"),
        "{ack}"
    );
    tick(dir, "2026-12-02T12:00:00Z", &["-q", "--no-send", "--force"]);
    assert!(chat.join("bob/r001-private-bob-0.txt").is_file());
    // The next export holds everything again, and one new message for round 2.
    messages.push(message(
        "3",
        "2026-12-02T12:30:00+00:00",
        "room = \"attic\"",
    ));
    write(&messages);
    let second = ingest_at(dir, "--chat", &export, "2026-12-02T12:45:00Z");
    assert!(
        second.stderr.is_empty(),
        "old messages are not re-reported: {}",
        second.stderr
    );
    assert_eq!(log_lines(), 3, "one line for the one new message");
    assert_eq!(
        fs::read_to_string(dir.join("rounds/002/submissions/bob.toml")).unwrap(),
        "room = \"attic\"\n"
    );
    let third = ingest_at(dir, "--chat", &export, "2026-12-02T13:00:00Z");
    assert!(third.stderr.is_empty(), "{}", third.stderr);
    assert_eq!(
        log_lines(),
        3,
        "a third reading of the same export adds nothing"
    );
    let status = adjudicate([
        "status",
        &dir.display().to_string(),
        "--now",
        "2026-12-02T13:00:00Z",
    ]);
    assert!(
        status
            .stdout
            .contains("message(s) to paste, in outbox/chat/"),
        "{}",
        status.stdout
    );
    // Nothing for Bob went out as mail.
    assert!(
        outgoing(dir)
            .iter()
            .all(|(name, _)| !name.contains("-bob-")),
        "no mail for a chat-only player"
    );
}

#[test]
fn the_token_is_checked_after_the_text_is_read() {
    let game = example_game();
    let dir = game.path();
    fs::write(
        dir.join("secrets.toml"),
        "[tokens]\nerin = \"opal-7-erin\"\nfrank = \"ruby-3-frank\"\n",
    )
    .unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let spool = tempfile::tempdir().unwrap();
    let at = "Wed, 2 Dec 2026 09:00:00 +0000";
    // Curly quotes from a phone, with the right token: read, not "token does not match".
    let curly = spool.path().join("curly.eml");
    fs::write(
        &curly,
        mail_at(
            "erin@example.org",
            "c@x",
            at,
            "token = \u{201c}opal-7-erin\u{201d}\r\nroom = \u{201c}cellar\u{201d}\r\n",
        ),
    )
    .unwrap();
    // A file that does not parse, with the right token: a TOML problem, told at its line.
    let broken = spool.path().join("broken.eml");
    fs::write(
        &broken,
        mail_at(
            "frank@example.org",
            "b@x",
            at,
            "token = \"ruby-3-frank\"\r\nroom = [cellar\r\n",
        ),
    )
    .unwrap();
    for file in [&curly, &broken] {
        let run = ingest_at(dir, "--eml", file, "2026-12-02T09:05:00Z");
        assert!(!run.stdout.contains("token"), "{}", run.stdout);
    }
    tick(dir, "2026-12-02T09:06:00Z", &["-q", "--no-send"]);
    let erin = body_of(&dir.join("outbox/r001-ack-erin-1.eml"));
    assert!(erin.contains("It is valid"), "{erin}");
    assert!(erin.contains("curly quotes"), "{erin}");
    let frank = body_of(&dir.join("outbox/r001-ack-frank-1.eml"));
    assert!(frank.contains("not valid TOML"), "{frank}");
    assert!(!frank.contains("token does not match"), "{frank}");
    for (name, text) in outgoing(dir) {
        assert!(
            !text.contains("opal-7") && !text.contains("ruby-3"),
            "{name}"
        );
    }
}

#[test]
fn a_late_version_in_the_deadlines_minute_is_told_to_the_second() {
    let game = example_game();
    let dir = game.path();
    let text = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .replace("every = \"24h\"", "every = \"24h\"\ngrace = \"10m\"");
    fs::write(dir.join("game.toml"), text).unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let spool = tempfile::tempdir().unwrap();
    let late = spool.path().join("late.eml");
    fs::write(
        &late,
        mail_at(
            "alice@example.org",
            "l@x",
            "Wed, 2 Dec 2026 15:00:21 +0000",
            "room = \"attic\"\r\n",
        ),
    )
    .unwrap();
    ingest_at(dir, "--eml", &late, "2026-12-02T15:02:00Z");
    tick(dir, "2026-12-02T15:03:00Z", &["-q", "--no-send"]);
    let reply = body_of(&dir.join("outbox/r001-ack-alice-1.eml"));
    assert!(
        reply.contains("Your message reached us at Wed 2 Dec 15:00:21 UTC; the deadline of round 1 was Wed 2 Dec 15:00:00 UTC."),
        "{reply}"
    );
}

#[test]
fn the_acknowledgement_written_by_the_tick_that_closes_the_round_says_it_is_closed() {
    let game = example_game();
    let dir = game.path();
    let text = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .replace("every = \"24h\"", "every = \"24h\"\nearly_close = true");
    fs::write(dir.join("game.toml"), text).unwrap();
    tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let players = ["alice", "bob", "carol", "dave", "erin", "frank"];
    for p in &players[..5] {
        crate::support::submit(dir, 1, p, "room = \"attic\"\n");
    }
    tick(dir, "2026-12-02T09:00:00Z", &["-q", "--no-send"]);
    let early = body_of(&dir.join("outbox/r001-ack-alice-1.eml"));
    assert!(early.contains("You may send new versions until"), "{early}");
    crate::support::submit(dir, 1, "frank", "room = \"cellar\"\n");
    tick(dir, "2026-12-02T09:10:00Z", &["-q", "--no-send"]);
    assert!(dir.join("rounds/001/result.toml").is_file(), "closed early");
    let last = body_of(&dir.join("outbox/r001-ack-frank-1.eml"));
    assert!(
        last.contains("Round 1 is now closed: this version is the one used."),
        "{last}"
    );
    assert!(!last.contains("You may send new versions"), "{last}");
}

/// Issue 57: after the game, a player's message still gets one answer (the game is over, with
/// their last report again), by their own address; nothing in it is read; a stranger's gets none.
#[test]
fn a_players_message_after_the_game_is_over_is_answered_with_their_last_report() {
    let game = example_game();
    let dir = game.path();
    crate::support::play_script(dir);
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status.stdout.contains("The game is over"),
        "{}",
        status.stdout
    );
    let files = tempfile::tempdir().unwrap();
    let maildir = files.path().join("mail");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let at = "Mon, 7 Dec 2026 09:00:00 +0000";
    for (name, from, body) in [
        (
            "1.dave",
            "dave@example.org",
            "Sorry I am late!\r\nroom = \"attic\"\r\n",
        ),
        ("2.zed", "zed@example.net", "buy now\r\n"),
    ] {
        let text = mail_at(from, &format!("{name}@x"), at, body);
        fs::write(maildir.join("new").join(name), text).unwrap();
    }
    let run = ingest_at(dir, "--maildir", &maildir, "2026-12-07T09:05:00Z");
    assert!(
        run.stderr.lines().all(|l| !l.contains("dave")),
        "{}",
        run.stderr
    );
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.contains("1.dave: from dave: the game is over: answered so, with their last report"),
        "{log}"
    );
    let replies: Vec<_> = fs::read_dir(dir.join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("-over-"))
        .collect();
    let [reply] = &replies[..] else {
        panic!("one answer, to dave alone: {replies:?}")
    };
    let text = fs::read_to_string(reply).unwrap();
    assert!(
        header(&text, "To").is_some_and(|t| t.contains("dave@example.org")),
        "{text}"
    );
    let body = crate::support::flat(&text);
    assert!(
        body.contains("after the game ended: nothing in it is read"),
        "{body}"
    );
    let last = fs::read_to_string(dir.join("rounds/005/private/dave.txt")).unwrap();
    let first_line = last.lines().find(|l| !l.is_empty()).unwrap();
    assert!(body.contains(first_line.trim()), "{body}");
    // nothing was read into the game, and a second ingest answers nothing twice
    assert!(!dir.join("rounds/006/submissions/dave.toml").exists());
    let again = ingest_at(dir, "--maildir", &maildir, "2026-12-07T09:10:00Z");
    assert!(
        again.stdout.contains("nothing to ingest"),
        "{}",
        again.stdout
    );
    // the next tick sends it
    tick(dir, "2026-12-07T09:15:00Z", &["-q"]);
    let sent = dir.join("sent").join(reply.file_name().unwrap());
    assert!(sent.is_file(), "{}", sent.display());
}

/// Issue 57: the tool's own mail arriving in the host's inbox (a copy of an announcement sent
/// To: the host, the host's digest) is filed quietly: no answer, not listed as unused, nothing
/// on stderr.
#[test]
fn our_own_mail_in_the_hosts_inbox_is_filed_quietly() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    let files = tempfile::tempdir().unwrap();
    let maildir = files.path().join("mail");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    // the announcement's Bcc batch, as the host's server delivers it to the host
    let announcement = fs::read(dir.join("sent/r000-public-bcc0001-0.eml")).unwrap();
    let announcement = String::from_utf8(announcement).unwrap();
    let received = "Received: from mx by host; Wed, 2 Dec 2026 08:01:00 +0000\r\n";
    fs::write(
        maildir.join("new/1.ours"),
        format!("{received}{announcement}"),
    )
    .unwrap();
    // the same, forwarded through a list that rewrote its sender: known by its Message-ID
    let rewritten = announcement.replacen("From: ", "X-Original-From: ", 1);
    let rewritten = format!("{received}From: list@lists.example.net\r\n{rewritten}");
    fs::write(maildir.join("new/2.ours"), rewritten).unwrap();
    let run = ingest_at(dir, "--maildir", &maildir, "2026-12-02T08:05:00Z");
    assert_eq!(run.stderr, "", "nothing for the host's stderr");
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.contains("1.ours: our own mail (from the game's address); filed"),
        "{log}"
    );
    assert!(
        log.contains("2.ours: our own mail (its Message-ID is one we make); filed"),
        "{log}"
    );
    let outbox: Vec<_> = fs::read_dir(dir.join("outbox"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(outbox.is_empty(), "no answer: {outbox:?}");
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(!status.stdout.contains("not used"), "{}", status.stdout);
    let flagged = fs::read_dir(maildir.join("cur"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with('F'))
        .count();
    assert_eq!(flagged, 0, "not flagged for the host");
}

/// Issue 57: a message that says only `status` (or `help`) is answered with what the tool holds
/// for the player: their latest version and its verdict, the deadline in their zone, and the
/// skeleton to send; nothing is read as a version.
#[test]
fn status_by_mail_answers_with_the_latest_version_the_deadline_and_the_skeleton() {
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-02T08:00:00Z", &["-q"]);
    crate::support::submit(dir, 1, "bob", "room = \"cellar\"\n");
    tick(dir, "2026-12-02T08:30:00Z", &["-q"]);
    let files = tempfile::tempdir().unwrap();
    let maildir = files.path().join("mail");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let at = "Wed, 2 Dec 2026 09:00:00 +0000";
    for (name, from, body) in [
        ("1.bob", "bob@example.org", "status\r\n\r\n-- \r\nBob\r\n"),
        ("2.carol", "carol@example.org", "Help!\r\n"),
    ] {
        let text = mail_at(from, &format!("{name}@x"), at, body);
        fs::write(maildir.join("new").join(name), text).unwrap();
    }
    ingest_at(dir, "--maildir", &maildir, "2026-12-02T09:05:00Z");
    let log = fs::read_to_string(dir.join("ingest.log")).unwrap();
    assert!(
        log.contains("1.bob: from bob: asked for their status; answered"),
        "{log}"
    );
    let answer = |player: &str| {
        let found: Vec<_> = fs::read_dir(dir.join("outbox"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.contains(&format!("-status-{player}-"))
            })
            .collect();
        assert_eq!(found.len(), 1, "{player}: one answer: {found:?}");
        crate::support::flat(&fs::read_to_string(&found[0]).unwrap())
    };
    let bob = answer("bob");
    for line in [
        "Your latest version of round 1 is version 1, received Wed 2 Dec 08:30 UTC. It is valid.",
        "room = \"cellar\"",
        "The deadline is Wed 2 Dec 15:00 UTC, in 5 h 55 min.",
        "To send a version, reply with this, edited:",
    ] {
        assert!(bob.contains(line), "{line:?} not in {bob}");
    }
    let carol = answer("carol");
    assert!(
        carol.contains("We have no version of yours for round 1 yet."),
        "{carol}"
    );
    assert!(carol.contains("room = "), "the skeleton: {carol}");
    // nothing was read as a version
    tick(dir, "2026-12-02T09:10:00Z", &["-q"]);
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert!(!receipts.contains("carol"), "{receipts}");
    assert_eq!(
        receipts.matches("player = \"bob\"").count(),
        1,
        "{receipts}"
    );
}
