//! Versions are received, and instant actions answered, in the order they reached the host (spec
//! README, "When a version counts"), never in the order player ids sort. A Peek sees every room
//! that reached the host before it; and a game whose players are renamed so that their ids sort
//! the other way round tells every player the same things, up to the names.

use crate::support::{adjudicate, example_dir, snapshot, tick};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// A mail from `player` that reached the host at `at` (HH:MM on 2 Dec), in a Maildir.
fn deliver(maildir: &Path, player: &str, at: &str, body: &str) {
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let text = format!(
        "Received: from mail.example.org by mx.host.example.org; Wed, 02 Dec 2026 {at}:00 +0000\r\n\
         From: {player}@example.org\r\nTo: host@example.org\r\nSubject: round 1\r\n\
         Message-ID: <{player}-{at}@example.org>\r\nDate: Wed, 2 Dec 2026 {at}:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    );
    fs::write(maildir.join("new").join(format!("{at}-{player}")), text).unwrap();
}

/// The example game with its players renamed by `ids` (old id -> new id; names unchanged).
fn game_with(ids: &BTreeMap<&str, &str>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let mut toml = fs::read_to_string(example_dir().join("game.toml")).unwrap();
    for (old, new) in ids {
        toml = toml
            .replace(&format!("id = \"{old}\""), &format!("id = \"{new}\""))
            .replace(&format!("{old}@example.org"), &format!("{new}@example.org"));
    }
    fs::write(tmp.path().join("game.toml"), toml).unwrap();
    tick(tmp.path(), "2026-12-02T08:00:00Z", &["-q"]);
    tmp
}

fn ingest_and_tick(dir: &Path, maildir: &Path, now: &str) {
    let run = adjudicate([
        "ingest".as_ref(),
        dir.as_os_str(),
        "--maildir".as_ref(),
        maildir.as_os_str(),
        "--now".as_ref(),
        now.as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    tick(dir, now, &["-q"]);
}

/// The body of a sent message, quoted-printable undone, whitespace runs single spaces.
fn body(dir: &Path, file: &str) -> String {
    let raw = fs::read_to_string(dir.join("sent").join(file)).unwrap();
    let body = raw.split_once("\r\n\r\n").unwrap().1;
    let body = body.replace("=\r\n", "").replace("=3D", "=");
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_peek_sees_the_room_that_reached_the_host_before_it_whatever_the_ids() {
    let ids = BTreeMap::new();
    // Bob's room at 10:00, Alice's Peek on Bob at 10:02: one tick receives both.
    let game = game_with(&ids);
    let md = tempfile::tempdir().unwrap();
    deliver(md.path(), "bob", "10:00", "room = \"cellar\"\n");
    deliver(
        md.path(),
        "alice",
        "10:02",
        "room = \"attic\"\npeek = [\"bob\"]\n",
    );
    ingest_and_tick(game.path(), md.path(), "2026-12-02T10:05:00Z");
    let ack = body(game.path(), "r001-ack-alice-1.eml");
    assert!(
        ack.contains("Peek on bob: bob's initial room this round is the Cellar"),
        "{ack}"
    );

    // The other way round: the Peek came first, so Bob had no room yet.
    let game = game_with(&ids);
    let md = tempfile::tempdir().unwrap();
    deliver(
        md.path(),
        "alice",
        "10:00",
        "room = \"attic\"\npeek = [\"bob\"]\n",
    );
    deliver(md.path(), "bob", "10:02", "room = \"cellar\"\n");
    ingest_and_tick(game.path(), md.path(), "2026-12-02T10:05:00Z");
    let ack = body(game.path(), "r001-ack-alice-1.eml");
    assert!(ack.contains("not used"), "{ack}");
}

/// Every text a player reads (mail sent, reports), with each renamed id put back.
fn player_texts(dir: &Path, back: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    snapshot(dir)
        .into_iter()
        .filter(|(p, _)| {
            let p = p.to_string_lossy();
            p.starts_with("sent/") || p.ends_with(".txt")
        })
        .map(|(path, bytes)| {
            let mut name = path.to_string_lossy().into_owned();
            let mut text = String::from_utf8(bytes).unwrap();
            // Message-IDs and file names carry ids and hashes of them; compare bodies only.
            if name.starts_with("sent/") {
                text = text.split_once("\r\n\r\n").unwrap().1.to_owned();
            }
            for (new, old) in back {
                name = name.replace(new.as_str(), old);
                text = text.replace(new.as_str(), old);
            }
            (name, normalize_lists(&text))
        })
        .collect()
}

/// Presentation that follows id order is set aside: lists of ids ("players: alice, bob")
/// compare as sets, and the player a skeleton's commented example names (`# peek = ["bob"]`, the
/// first other player by id) is blanked. Everything that happened (rooms, answers, notices,
/// points) must be identical.
fn normalize_lists(text: &str) -> String {
    text.lines()
        .map(|line| match line.rsplit_once(": ") {
            _ if line.starts_with("# peek = [\"") || line.starts_with("# block = {") => line
                .split('"')
                .enumerate()
                .map(|(i, part)| if i == 1 { "ID" } else { part })
                .collect::<Vec<_>>()
                .join("\""),
            Some((head, list)) if list.contains(", ") => {
                let mut items: Vec<&str> = list.trim_end_matches('.').split(", ").collect();
                items.sort();
                format!("{head}: {}", items.join(", "))
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn renaming_the_players_so_their_ids_sort_the_other_way_changes_nothing_a_player_reads() {
    let renamed: BTreeMap<&str, &str> = [
        // same lengths, so that line wrapping stays the same; the opposite order
        ("alice", "zorra"),
        ("bob", "yan"),
        ("carol", "xenia"),
        ("dave", "wynn"),
        ("erin", "vera"),
        ("frank", "uriel"),
    ]
    .into();
    let back: BTreeMap<String, String> = renamed
        .iter()
        .map(|(old, new)| (new.to_string(), old.to_string()))
        .collect();
    // Round 1 with instant actions racing: Peeks, a Block, and rooms that arrive in between.
    // Nobody is left to a default: a default room is drawn from a stream named by the player's
    // id, so it is the one thing a rename may change (games/room-swap/README.md, ruling 8).
    let mails = [
        (
            "dave",
            "09:00",
            "room = \"basement\"\nfallback = \"attic\"\n",
        ),
        (
            "carol",
            "09:01",
            "room = \"attic\"\nblock = { player = \"dave\", room = \"basement\" }\n",
        ),
        ("bob", "09:02", "room = \"attic\"\npeek = [\"dave\"]\n"),
        ("alice", "09:03", "room = \"cellar\"\npeek = [\"frank\"]\n"),
        ("frank", "09:04", "room = \"cellar\"\n"),
        (
            "erin",
            "09:05",
            "room = \"attic\"\npeek = [\"frank\", \"alice\"]\n",
        ),
    ];
    let play = |ids: &BTreeMap<&str, &str>| {
        let game = game_with(ids);
        let md = tempfile::tempdir().unwrap();
        let id = |p: &str| ids.get(p).copied().unwrap_or(p).to_owned();
        for (player, at, text) in mails {
            let mut text = text.to_owned();
            for (old, new) in ids {
                text = text.replace(&format!("\"{old}\""), &format!("\"{new}\""));
            }
            deliver(md.path(), &id(player), at, &text);
        }
        ingest_and_tick(game.path(), md.path(), "2026-12-02T10:00:00Z");
        tick(game.path(), "2026-12-02T15:00:00Z", &["-q"]);
        game
    };
    let original = play(&BTreeMap::new());
    let swapped = play(&renamed);
    let result = fs::read_to_string(original.path().join("rounds/001/result.toml")).unwrap();
    assert!(
        result.contains("defaults = []") || !result.contains("defaults"),
        "{result}"
    );
    let a = player_texts(original.path(), &BTreeMap::new());
    let b = player_texts(swapped.path(), &back);
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert!(a.len() > 20, "only {} texts", a.len());
    for (name, text) in &a {
        assert_eq!(
            text, &b[name],
            "{name} differs once the ids sort the other way"
        );
    }
}
