//! Memos of big host files (`src/host_file/memo.rs`): a tick that writes a big state.toml or
//! receipts.toml remembers its parsed value in `.cache/parsed/`, and the next tick reads that
//! instead of parsing. A game played with its memos gives the same bytes as one without; a hand
//! edit is never covered by a memo. (Debug builds also parse the file on every memo they use and
//! require the same value: every tick below checks that.)

use crate::support::*;
use std::fs;
use std::path::Path;

/// Enough players that state.toml and receipts.toml pass the memo's threshold (64 KiB).
const PLAYERS: usize = 500;
// and that a resolving tick makes state.toml on a thread of its own
const _: () = assert!(PLAYERS >= adjudicate::result_file::PARALLEL_FROM);

fn big_race() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let gods = ["white", "blue", "black", "red", "green"];
    let mut game = String::from(
        "game = \"god-race\"\ntitle = \"Memo race\"\nseed = 3\n\n[mail]\ntransport = \"none\"\n\n",
    );
    for i in 0..PLAYERS {
        game.push_str(&format!(
            "[[players]]\nid = \"p{i:04}\"\nmeadow = \"{}\"\n\n",
            gods[i % 5]
        ));
    }
    fs::write(tmp.path().join("game.toml"), game).unwrap();
    tmp
}

fn memo(dir: &Path, name: &str) -> std::path::PathBuf {
    dir.join(".cache/parsed").join(name)
}

#[test]
fn a_big_game_read_through_its_memos_gives_the_same_bytes_and_a_hand_edit_is_parsed() {
    let game = big_race();
    let dir = game.path();
    tick(dir, "2026-12-01T00:00:00Z", &["--force", "-q"]);
    assert!(memo(dir, "state.toml.json").is_file());
    for i in 0..PLAYERS {
        // valid or not, each is a receipt
        submit(dir, 1, &format!("p{i:04}"), "meadow = \"white\"\n");
    }
    tick(dir, "2026-12-01T00:01:00Z", &["-q"]);
    assert!(memo(dir, "rounds%001%receipts.toml.json").is_file());

    // the same game without its memos
    let bare = tempfile::tempdir().unwrap();
    copy_dir(dir, bare.path());
    assert!(!bare.path().join(".cache").exists());
    for d in [dir, bare.path()] {
        tick(d, "2026-12-01T00:02:00Z", &["--force", "-q"]);
    }
    assert_eq!(snapshot(dir), snapshot(bare.path()));
    // the resolving tick's state.toml, made on a thread of its own (more players than
    // `PARALLEL_FROM`), which writes its memo as soon as it is made: a memo of exactly it
    let state = fs::read(dir.join("state.toml")).unwrap();
    let memo_head = fs::read_to_string(memo(dir, "state.toml.json")).unwrap();
    let sha = adjudicate::submission::sha256_hex(&state);
    assert!(
        memo_head.lines().next().unwrap().ends_with(&sha),
        "{}",
        &memo_head[..200]
    );
    // receipts.toml, written early under a temp name (`Plan::early_file`), was renamed into place
    let temps: Vec<_> = snapshot(dir)
        .into_keys()
        .filter(|p| {
            p.to_string_lossy()
                .contains(adjudicate::game_dir::TEMP_PREFIX)
        })
        .collect();
    assert!(temps.is_empty(), "{temps:?}");

    // a hand edit after the memo was written: the file itself is read, and its error named
    let state = dir.join("state.toml");
    let text = fs::read_to_string(&state).unwrap();
    assert!(memo(dir, "state.toml.json").is_file());
    fs::write(&state, text.replacen("garnets = ", "garnet = ", 1)).unwrap();
    let run = adjudicate([
        "round",
        &dir.display().to_string(),
        "--now",
        "2026-12-01T00:03:00Z",
        "--force",
    ]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stderr.contains("state.toml:") && run.stderr.contains("missing field `garnets`"),
        "{}",
        run.stderr
    );
}
