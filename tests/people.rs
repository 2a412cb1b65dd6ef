//! The host's levers, part 2 (spec README, "Host actions"; issue #28): `substitute` and
//! `withdraw`, through the binary. A seat that changes hands keeps everything but its person; a
//! player who leaves is answered, never read, and the game goes on by its ruling for a seat
//! that leaves; both are recorded and replayed where they happened.

use crate::support::{
    adjudicate, everyone_but_bob, first_resolved, lever, manifest_dir, matches, ok, play_example,
    play_to_end, submit, text, tick, toml_of,
};
use std::fs;
use std::path::{Path, PathBuf};

/// A message's plain-text body, decoded, and its raw headers.
fn body(path: &Path) -> (String, String) {
    let bytes = fs::read(path).unwrap();
    let message = mail_parser::MessageParser::default()
        .parse(&bytes)
        .unwrap_or_else(|| panic!("{}: not a message", path.display()));
    let text = message
        .body_text(0)
        .unwrap_or_default()
        .replace("\r\n", "\n");
    let raw = String::from_utf8_lossy(&bytes);
    let headers = raw.split("\r\n\r\n").next().unwrap_or_default().to_owned();
    (text, headers)
}

/// Every message file in outbox/ and sent/ (name, path), by name.
fn mail_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = ["outbox", "sent"]
        .iter()
        .filter_map(|f| fs::read_dir(dir.join(f)).ok())
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    out
}

/// A text without its signature and with its lines joined: what a quote of it must hold.
fn gist(text: &str) -> String {
    let text = text.split("\n-- \n").next().unwrap_or(text);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// game.toml's players: (id, name, email).
fn seats(dir: &Path) -> Vec<(String, String, String)> {
    let config = toml_of(&dir.join("game.toml"));
    config["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("").to_owned();
            (s("id"), s("name"), s("email"))
        })
        .collect()
}

/// Every private report seat `id` was given so far, in round order.
fn reports(dir: &Path, id: &str) -> Vec<String> {
    let mut rounds: Vec<PathBuf> = fs::read_dir(dir.join("rounds"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    rounds.sort();
    rounds
        .iter()
        .flat_map(|r| {
            [
                r.join("opening/private").join(format!("{id}.txt")),
                r.join("private").join(format!("{id}.txt")),
            ]
        })
        .filter(|p| p.is_file())
        .map(|p| text(&p))
        .collect()
}

/// `substitute`'s arguments giving Bob's seat to Nia.
const NIA: [&str; 7] = [
    "bob",
    "--name",
    "Nia",
    "--email",
    "nia@example.org",
    "--reason",
    "x",
];

fn later(now: &str, seconds: i64) -> String {
    let t: jiff::Timestamp = now.parse().unwrap();
    t.checked_add(jiff::SignedDuration::from_secs(seconds))
        .unwrap()
        .to_string()
}

/// What happened when the first round had been resolved: who was substituted (id, the old
/// address), who withdrew (id, address), and the mail files that existed by then.
struct Changed {
    seat: String,
    old_email: String,
    gone: String,
    gone_email: String,
    before: Vec<String>,
}

#[test]
fn every_game_plays_to_its_end_with_a_seat_substituted_and_a_player_withdrawn_and_replays() {
    for game in matches() {
        let example = manifest_dir().join("games").join(game).join("example");
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::copy(example.join("game.toml"), dir.join("game.toml")).unwrap();
        let mut changed: Option<Changed> = None;
        play_example(dir, &example, |now| {
            if changed.is_some() || first_resolved(dir).is_none() {
                return;
            }
            let seats = seats(dir);
            let (seat, old_name, old_email) = seats[0].clone();
            let (gone, _, gone_email) = seats[seats.len() - 1].clone();
            let told = reports(dir, &seat);
            let answers: Vec<String> = mail_files(dir)
                .iter()
                .filter(|(name, _)| name.contains(&format!("-ack-{seat}-")))
                .map(|(_, p)| body(p).0)
                .collect();
            let run = ok(lever(
                "substitute",
                dir,
                &[
                    &seat,
                    "--name",
                    "Nia Newcomer",
                    "--email",
                    "nia@example.org",
                    "--reason",
                    "the first alternate steps in",
                ],
                &later(now, 10),
            ));
            assert!(
                run.stdout
                    .contains(&format!("seat {seat} goes from {old_name} to Nia Newcomer")),
                "{game}: {}",
                run.stdout
            );
            let welcome = mail_files(dir)
                .into_iter()
                .find(|(name, _)| name.contains(&format!("-takeover-{seat}-")))
                .unwrap_or_else(|| panic!("{game}: no welcome for the newcomer"));
            let (welcome, headers) = body(&welcome.1);
            assert!(headers.contains("nia@example.org"), "{game}: {headers}");
            assert!(!headers.contains(&old_email), "{game}: {headers}");
            assert!(
                welcome.contains(&format!("You take over the seat of {old_name}")),
                "{game}: {welcome}"
            );
            // every private text of the seat; its reports in order
            let quoted = gist(&welcome);
            for text in &answers {
                assert!(
                    quoted.contains(&gist(text)),
                    "{game}: the welcome lacks {text}"
                );
            }
            let at: Vec<usize> = told
                .iter()
                .map(|t| {
                    quoted
                        .find(&gist(t))
                        .unwrap_or_else(|| panic!("{game}: the welcome lacks {t}"))
                })
                .collect();
            assert!(at.is_sorted(), "{game}: reports out of order: {at:?}");
            assert!(
                !told.is_empty() && !answers.is_empty(),
                "{game}: nothing to quote"
            );
            ok(lever(
                "withdraw",
                dir,
                &[&gone, "--reason", "they quit the season"],
                &later(now, 20),
            ));
            // the notice says what the game's rules do with the seat, not where to read it
            let notice = fs::read_dir(dir.join("rounds"))
                .unwrap()
                .flatten()
                .filter_map(|r| fs::read_to_string(r.path().join("notices/2-withdraw.txt")).ok())
                .next()
                .unwrap_or_else(|| panic!("{game}: no withdrawal notice"));
            let rules = adjudicate::games::GameId::parse(game)
                .unwrap()
                .seat_leaves();
            let flat = notice.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(rules), "{game}: {notice}");
            assert!(!notice.contains("README"), "{game}: {notice}");
            let config = text(&dir.join("game.toml"));
            assert!(config.contains("name = \"Nia Newcomer\""), "{game}");
            assert!(
                !config.contains(&old_email),
                "{game}: the old address stays"
            );
            changed = Some(Changed {
                seat,
                old_email,
                gone,
                gone_email,
                before: mail_files(dir).into_iter().map(|(n, _)| n).collect(),
            });
        });
        let changed = changed.unwrap_or_else(|| panic!("{game}: no round was resolved"));
        // the example's script was written for the game as it went without the changes
        play_to_end(dir, 1_830_000_000);
        let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
        assert!(
            status.stdout.contains("The game is over"),
            "{game}: {}",
            status.stdout
        );
        let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 0, "{game}: {}{}", run.stdout, run.stderr);
        // after the changes: nothing to the person who left the seat; to the player who left,
        // only answers to what they still sent
        for (name, path) in mail_files(dir) {
            if changed.before.contains(&name) {
                continue;
            }
            let (_, headers) = body(&path);
            assert!(
                !headers.contains(&changed.old_email),
                "{game}: {name} went to the person who left {}'s seat",
                changed.seat
            );
            let reply = ["-ack-", "-late-", "-same-", "-nothing-"]
                .iter()
                .any(|k| name.contains(k));
            assert!(
                reply || !headers.contains(&changed.gone_email),
                "{game}: {name} went to {}, who left",
                changed.gone
            );
        }
    }
}

#[test]
fn a_player_who_left_is_answered_never_read_and_not_waited_for() {
    let tmp = everyone_but_bob("");
    let dir = tmp.path();
    ok(lever(
        "withdraw",
        dir,
        &["bob", "--reason", "Bob quit"],
        "2026-12-02T10:00:00Z",
    ));
    let notice = text(&dir.join("rounds/001/notices/1-withdraw.txt"));
    assert!(notice.contains("Bob has left the game"), "{notice}");
    assert!(notice.contains("Why: Bob quit"), "{notice}");
    // everyone else is on file: the round is complete without Bob
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(status.stdout.contains("of 5"), "{}", status.stdout);
    assert!(!status.stdout.contains("  bob "), "{}", status.stdout);
    assert!(
        status
            .stdout
            .contains("Left the game: Bob (bob), Wed 2 Dec 2026 10:00 UTC: Bob quit"),
        "{}",
        status.stdout
    );
    submit(dir, 1, "bob", "room = \"attic\"\n");
    tick(dir, "2026-12-02T11:00:00Z", &["-q"]);
    let receipts = toml_of(&dir.join("rounds/001/receipts.toml"));
    let bobs = receipts["receipt"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"].as_str() == Some("bob"))
        .unwrap()
        .clone();
    assert_eq!(bobs["refused"].as_bool(), Some(true), "{bobs}");
    let ack = mail_files(dir)
        .into_iter()
        .find(|(n, _)| n.starts_with("r001-ack-bob-"))
        .expect("Bob's message is answered");
    assert!(body(&ack.1).0.contains("you have left this game"));
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    let public = text(&dir.join("rounds/001/public.txt"));
    assert!(public.contains("round 1 results"), "{public}");
    // the round's report is not mailed to Bob, nor the announcement
    for (name, path) in mail_files(dir) {
        if name.starts_with("r001-public") || name.starts_with("r001-private") {
            assert!(
                !body(&path).1.contains("bob@example.org"),
                "{name} went to Bob"
            );
        }
    }
    let state = toml_of(&dir.join("state.toml"));
    assert_eq!(state["players"]["bob"]["left"].as_bool(), Some(true));
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn substitute_and_withdraw_refuse_what_cannot_be_done_and_record_nothing() {
    let tmp = everyone_but_bob("");
    let dir = tmp.path();
    let now = "2026-12-02T10:00:00Z";
    ok(lever("withdraw", dir, &["erin", "--reason", "quit"], now));
    let record = text(&dir.join("rounds/001/host.toml"));
    let config = text(&dir.join("game.toml"));
    let refused: &[(&str, &[&str], &str)] = &[
        (
            "withdraw",
            &["erin", "--reason", "again"],
            "erin has already left the game",
        ),
        (
            "withdraw",
            &["zed", "--reason", "x"],
            "`zed` is not a player of this game",
        ),
        (
            "withdraw",
            &["bob", "--reason", " "],
            "say why with --reason",
        ),
        (
            "substitute",
            &[
                "erin",
                "--name",
                "Nia",
                "--email",
                "nia@example.org",
                "--reason",
                "x",
            ],
            "erin has left the game",
        ),
        (
            "substitute",
            &[
                "bob",
                "--name",
                "Nia",
                "--email",
                "carol@example.org",
                "--reason",
                "x",
            ],
            "carol@example.org is already carol's address",
        ),
        (
            "substitute",
            &[
                "bob",
                "--name",
                "Nia",
                "--email",
                "bob@example.org",
                "--reason",
                "x",
            ],
            "this seat's own address",
        ),
        (
            "substitute",
            &[
                "bob",
                "--name",
                "Nia",
                "--email",
                "not an address",
                "--reason",
                "x",
            ],
            "game.toml",
        ),
        (
            "enter",
            &["erin", "erin.toml", "--reason", "by phone"],
            "erin has left the game",
        ),
    ];
    fs::write(dir.join("erin.toml"), "room = \"attic\"\n").unwrap();
    for (command, args, expected) in refused {
        let mut args: Vec<&str> = args.to_vec();
        let file = dir.join("erin.toml");
        let file = file.to_str().unwrap();
        if *command == "enter" {
            args[1] = file;
        }
        let run = lever(command, dir, &args, now);
        assert_ne!(run.code, 0, "{command} {args:?}: {}", run.stdout);
        assert!(
            run.stderr.contains(expected),
            "{command} {args:?}: {}",
            run.stderr
        );
        assert_eq!(text(&dir.join("rounds/001/host.toml")), record, "{command}");
        assert_eq!(text(&dir.join("game.toml")), config, "{command}");
    }
}

#[test]
fn a_lever_on_people_with_the_lock_held_exits_75_and_records_nothing() {
    let tmp = everyone_but_bob("");
    let dir = tmp.path();
    let lock = fs::File::create(dir.join(".adjudicate.lock")).unwrap();
    lock.try_lock().unwrap();
    for (command, args) in [
        ("withdraw", &["bob", "--reason", "quit"][..]),
        ("substitute", &NIA[..]),
    ] {
        let run = lever(command, dir, args, "2026-12-02T10:00:00Z");
        assert_eq!(run.code, 75, "{command}: {}{}", run.stdout, run.stderr);
        assert!(!dir.join("rounds/001/host.toml").exists(), "{command}");
        assert!(text(&dir.join("game.toml")).contains("name = \"Bob\""));
    }
}

#[test]
fn a_game_toml_edit_that_contradicts_a_substitution_is_an_error_naming_the_seat() {
    let tmp = everyone_but_bob("");
    let dir = tmp.path();
    ok(lever("substitute", dir, &NIA, "2026-12-02T10:00:00Z"));
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status
            .stdout
            .contains("Seat bob: Bob until Wed 2 Dec 2026 10:00 UTC, then Nia (nia@example.org)"),
        "{}",
        status.stdout
    );
    let config = text(&dir.join("game.toml"));
    fs::write(
        dir.join("game.toml"),
        config.replace("nia@example.org", "bob@example.org"),
    )
    .unwrap();
    let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("players[1].email") && run.stderr.contains("seat `bob`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_substitute_gets_a_new_token_that_only_their_welcome_holds_and_the_old_one_stops_working() {
    let tmp = everyone_but_bob("");
    let dir = tmp.path();
    fs::write(
        dir.join("secrets.toml"),
        "# tokens the host handed out\n[tokens]\nbob = \"bob-secret-1\"\ncarol = \"carol-secret-1\"\n",
    )
    .unwrap();
    ok(lever("substitute", dir, &NIA, "2026-12-02T10:00:00Z"));
    let secrets = toml_of(&dir.join("secrets.toml"));
    let token = secrets["tokens"]["bob"].as_str().unwrap().to_owned();
    assert_ne!(token, "bob-secret-1");
    assert_eq!(secrets["tokens"]["carol"].as_str(), Some("carol-secret-1"));
    assert!(text(&dir.join("secrets.toml")).starts_with("# tokens the host handed out"));
    let mut holders = Vec::new();
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.path().is_file()
            && String::from_utf8_lossy(&fs::read(entry.path()).unwrap()).contains(&token)
        {
            holders.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    holders.sort();
    assert_eq!(
        holders,
        ["r001-takeover-bob-1.eml", "secrets.toml"],
        "{holders:?}"
    );
    submit(
        dir,
        1,
        "bob",
        "token = \"bob-secret-1\"\nroom = \"basement\"\n",
    );
    tick(dir, "2026-12-02T11:00:00Z", &["-q"]);
    let receipts = text(&dir.join("rounds/001/receipts.toml"));
    assert!(receipts.contains("refused = true"), "{receipts}");
    submit(
        dir,
        1,
        "bob",
        &format!("token = \"{token}\"\nroom = \"basement\"\n"),
    );
    tick(dir, "2026-12-02T12:00:00Z", &["-q"]);
    let state = toml_of(&dir.join("state.toml"));
    assert_eq!(
        state["players"]["bob"]["live"]["room"].as_str(),
        Some("basement")
    );
}

#[test]
fn a_seat_that_changed_hands_and_then_leaves_is_named_by_its_holder() {
    let tmp = everyone_but_bob("");
    let dir = tmp.path();
    ok(lever("substitute", dir, &NIA, "2026-12-02T10:00:00Z"));
    ok(lever(
        "withdraw",
        dir,
        &["bob", "--reason", "Nia quit too"],
        "2026-12-02T10:05:00Z",
    ));
    let notice = text(&dir.join("rounds/001/notices/2-withdraw.txt"));
    assert!(notice.contains("Nia has left the game"), "{notice}");
}
