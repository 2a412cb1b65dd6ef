//! A player's bad input through the real binary: each gets a receipt, an acknowledgement naming the
//! line, what is wrong and what is allowed, and the rules' default; never a panic, never an
//! aborted round, and the submission file is never modified.

use crate::support::{example_game, snapshot, submit, tick};
use std::fs;
use std::path::Path;

const NOW: &str = "2026-12-02T09:00:00Z";

/// The body of the acknowledgement of `player`'s version `n`, quoted-printable undone and all
/// whitespace runs made single spaces (so that matching ignores line wrapping).
fn ack(dir: &Path, player: &str, n: u32) -> String {
    let path = dir.join(format!("sent/r001-ack-{player}-{n}.eml"));
    let raw = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let body = raw.split_once("\r\n\r\n").expect("headers end").1;
    let body = body.replace("=\r\n", "").replace("=3D", "=");
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn receipt(dir: &Path, player: &str) -> toml::Table {
    let text = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    let receipts: toml::Table = toml::from_str(&text).unwrap();
    receipts["receipt"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|r| r["player"].as_str() == Some(player))
        .and_then(|r| r.as_table().cloned())
        .unwrap_or_else(|| panic!("no receipt for {player}"))
}

#[test]
fn every_kind_of_bad_submission_is_answered_and_the_round_still_resolves() {
    let game = example_game();
    let dir = game.path();
    // (player, file content, what the acknowledgement must say)
    let cases: &[(&str, &[u8], &[&str])] = &[
        ("alice", b"room = \"attic\nfallback = 3\n", &["Problem, line 1: not valid TOML", "a random room among attic, basement, cellar will be used"]),
        ("bob", b"rom = \"attic\"\n", &["Problem, line 1: unknown key `rom`, did you mean `room`?", "room is missing"]),
        ("carol", b"room = [\"attic\"]\n", &["Problem, line 1: room must be a string, not a list"]),
        ("dave", b"room = \"caf\xe9\"\n", &["Problem, line 1: the file is not UTF-8 text"]),
        ("erin", b"room = \"attic\"\npeek = [\"frank\"]\nblock = { player = \"frank\", room = \"attic\" }\n", &[
            "It is valid, with the remarks below",
            "Problem, line 2: a Peek and a Block cannot be used in the same round",
            "Problem, line 3: a Peek and a Block",
        ]),
        ("frank", b"room = \"cellar\"\nblock = { player = \"frank\", room = \"attic\" }\n", &["block.player: you cannot name yourself"]),
    ];
    for (player, bytes, _) in cases {
        let folder = dir.join("rounds/001/submissions");
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join(format!("{player}.toml")), bytes).unwrap();
    }
    let submissions_before = snapshot(&dir.join("rounds/001/submissions"));
    let run = tick(dir, NOW, &[]);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    for (player, _, expected) in cases {
        let text = ack(dir, player, 1);
        for e in *expected {
            assert!(text.contains(e), "{player}: {e:?} missing from\n{text}");
        }
    }
    assert_eq!(receipt(dir, "dave")["valid"].as_bool(), Some(false));
    assert_eq!(receipt(dir, "erin")["valid"].as_bool(), Some(true));

    // Peek without garnets (Frank has none), and a second Block by Erin after a first one.
    submit(dir, 1, "frank", "room = \"cellar\"\npeek = [\"erin\"]\n");
    submit(
        dir,
        1,
        "erin",
        "room = \"attic\"\nblock = { player = \"bob\", room = \"cellar\" }\n",
    );
    tick(dir, "2026-12-02T10:00:00Z", &["-q"]);
    assert!(
        ack(dir, "frank", 2)
            .contains("peek on erin needs 2 garnets and you have 0; not used, nothing paid")
    );
    assert!(ack(dir, "erin", 2).contains("Your Block forbids bob the Cellar"));
    submit(
        dir,
        1,
        "erin",
        "room = \"attic\"\nblock = { player = \"carol\", room = \"cellar\" }\n",
    );
    tick(dir, "2026-12-02T10:30:00Z", &["-q"]);
    assert!(ack(dir, "erin", 3).contains("you have already used your Block (once per game)"));

    let run = tick(dir, "2026-12-02T15:00:00Z", &[]);
    assert!(run.stdout.contains("resolved round 1"), "{}", run.stdout);
    let public = fs::read_to_string(dir.join("rounds/001/public.txt")).unwrap();
    assert!(
        public.contains("No valid room from Alice, Bob, Carol, Dave: a random room was used."),
        "{public}"
    );
    assert!(public.contains("no Peek, 1 Block"), "{public}");
    let after: Vec<_> = snapshot(&dir.join("rounds/001/submissions"))
        .into_keys()
        .collect();
    assert_eq!(after, submissions_before.into_keys().collect::<Vec<_>>());
}

#[test]
fn an_oversized_file_is_refused_unread_and_reported() {
    let game = example_game();
    let dir = game.path();
    let mut big = String::from("room = \"attic\"\n");
    big.push_str(&"# padding\n".repeat(7000));
    submit(dir, 1, "alice", &big);
    tick(dir, NOW, &["-q"]);
    let r = receipt(dir, "alice");
    assert_eq!(r["valid"].as_bool(), Some(false));
    assert_eq!(r["refused"].as_bool(), Some(true));
    assert!(
        r["problems"][0]
            .as_str()
            .unwrap()
            .contains("a submission may be at most 64 KiB")
    );
    assert!(ack(dir, "alice", 1).contains("may be at most 64 KiB"));
    // the original is kept untouched
    assert_eq!(
        fs::read_to_string(dir.join("rounds/001/submissions/alice.toml")).unwrap(),
        big
    );
}

#[test]
fn files_that_are_not_a_players_submission_are_reported_and_never_opened() {
    let game = example_game();
    let dir = game.path();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    let folder = dir.join("rounds/001/submissions");
    fs::write(folder.join("zed.toml"), "room = \"attic\"\n").unwrap();
    fs::write(folder.join("Bob.toml"), "room = \"attic\"\n").unwrap();
    fs::write(folder.join("notes.txt"), "hello").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", folder.join("carol.toml")).unwrap();
    let run = tick(dir, NOW, &[]);
    for line in [
        "warning: submissions/Bob.toml: the file name is not <player-id>.toml; ignored",
        "warning: submissions/zed.toml: no player `zed` in game.toml; ignored",
        "warning: submissions/notes.txt: not a .toml file; ignored",
        "warning: submissions/carol.toml: not a regular file; ignored",
        "received alice version 1: valid",
    ] {
        assert!(
            run.stdout.contains(line),
            "{line:?} missing from\n{}",
            run.stdout
        );
    }
    let receipts = fs::read_to_string(dir.join("rounds/001/receipts.toml")).unwrap();
    assert_eq!(receipts.matches("[[receipt]]").count(), 1, "{receipts}");
    assert!(!dir.join("rounds/001/received/carol-1.toml").exists());
}

#[test]
fn a_file_of_thousands_of_bad_names_gets_an_acknowledgement_of_a_few_kilobytes() {
    let game = example_game();
    let dir = game.path();
    let names: Vec<String> = (0..4_000).map(|i| format!("\"nobody{i}\"")).collect();
    let long = "x".repeat(3_000);
    submit(
        dir,
        1,
        "alice",
        &format!(
            "room = \"attic\"\nfallback = \"{long}\"\npeek = [{}]\n",
            names.join(", ")
        ),
    );
    tick(dir, NOW, &["-q"]);
    let receipts = fs::read(dir.join("rounds/001/receipts.toml")).unwrap();
    let mail = fs::read(dir.join("sent/r001-ack-alice-1.eml")).unwrap();
    assert!(
        receipts.len() < 8_000,
        "receipts.toml is {} bytes",
        receipts.len()
    );
    assert!(
        mail.len() < 12_000,
        "the acknowledgement is {} bytes",
        mail.len()
    );
    let problems = receipt(dir, "alice")["problems"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(problems.len(), 21, "20 problems and the count of the rest");
    let last = problems.last().unwrap().as_str().unwrap();
    assert!(
        last.starts_with("… and ") && last.contains("more problem(s)"),
        "{last}"
    );
    // in line order: the fallback (line 2) before the names (line 3), its value cut short
    let first = problems[0].as_str().unwrap();
    assert!(
        first.starts_with("line 2:") && first.chars().count() < 260,
        "{first}"
    );
    assert!(ack(dir, "alice", 1).contains("more problem(s) like these"));
}

/// `check` prints one problem per line, `file:line:col: message`, even when a problem quotes a
/// value that spans lines.
#[test]
fn a_problem_quoting_a_multi_line_value_stays_on_one_line() {
    let game = crate::support::example_game();
    let dir = game.path();
    crate::support::tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "room = \"\"\"attic\nor maybe\ncellar\"\"\"\nfallback = \"\"\"x\r\ny\"\"\"\n",
    )
    .unwrap();
    let run = crate::support::adjudicate([
        "check".as_ref(),
        dir.as_os_str(),
        file.as_os_str(),
        "--player".as_ref(),
        "alice".as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines.len() >= 2, "{}", run.stdout);
    for line in &lines {
        assert!(
            line.contains("mine.toml:"),
            "a line that is not a problem: {line:?}"
        );
    }
    assert!(
        run.stdout.contains("attic\\nor maybe\\ncellar"),
        "{}",
        run.stdout
    );
}
