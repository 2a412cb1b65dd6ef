//! Host files are input too (issue: "no panic on any game directory"). Each case edits one file of
//! a game in progress the way a host's hand might (truncated, mistyped, misspelt, negative, huge,
//! inconsistent) and runs every command on it through the binary: none may panic, `check` must
//! refuse it with exit 65 naming the file, and a refused `round` must leave the directory as it was.

use crate::support::{
    adjudicate, assert_check_error, example_dir, god_race_example_dir, play_ticks, snapshot,
};
use std::fs;
use std::path::Path;

/// One hand edit: the file (relative to the game directory), how it is changed, and what the
/// error must say besides the file's name.
struct Edit {
    file: &'static str,
    what: &'static str,
    change: fn(&str) -> String,
    says: &'static str,
}

/// A Room Swap in round 2: round 1 resolved, round 2's receipts written.
fn room_swap_in_round_2() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(
        example_dir().join("game.toml"),
        tmp.path().join("game.toml"),
    )
    .unwrap();
    play_ticks(tmp.path(), &example_dir(), 5, |_| {});
    assert!(tmp.path().join("rounds/002/receipts.toml").is_file());
    tmp
}

fn replace_first(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in\n{text}");
    text.replacen(from, to, 1)
}

fn edits() -> Vec<Edit> {
    vec![
        // game.toml
        Edit {
            file: "game.toml",
            what: "truncated",
            change: |t| t[..t.len() / 2].to_owned(),
            says: "",
        },
        Edit {
            file: "game.toml",
            what: "mistyped seed",
            change: |t| replace_first(t, "seed = 20261130", "seed = \"x\""),
            says: "",
        },
        Edit {
            file: "game.toml",
            what: "seed beyond what state.toml can hold",
            change: |t| replace_first(t, "seed = 20261130", "seed = 12000000000000000000"),
            says: "seed: is 12000000000000000000; a seed is a whole number from 0 to 9223372036854775807",
        },
        Edit {
            file: "game.toml",
            what: "misspelt key",
            change: |t| replace_first(t, "title =", "titel ="),
            says: "titel",
        },
        Edit {
            file: "game.toml",
            what: "negative garnets",
            change: |t| replace_first(t, "garnets = 3", "garnets = -2"),
            says: "garnets",
        },
        Edit {
            file: "game.toml",
            what: "huge garnets",
            change: |t| replace_first(t, "garnets = 3", "garnets = 9223372036854775807"),
            says: "garnets",
        },
        Edit {
            file: "game.toml",
            what: "negative Tokens of Life",
            change: |t| replace_first(t, "garnets = 3", "garnets = 3\ntokens_of_life = -1"),
            says: "game.toml:42:1: players[3].tokens_of_life: is -1; from 0 to 100",
        },
        Edit {
            file: "game.toml",
            what: "Tokens of Life as text",
            change: |t| replace_first(t, "garnets = 3", "garnets = 3\ntokens_of_life = \"one\""),
            says: "game.toml:42:18: invalid type: string \"one\"",
        },
        Edit {
            file: "game.toml",
            what: "seed changed",
            change: |t| replace_first(t, "seed = 20261130", "seed = 5"),
            says: "seed cannot change",
        },
        Edit {
            file: "game.toml",
            what: "player renamed",
            change: |t| replace_first(t, "id = \"frank\"", "id = \"fred\""),
            says: "players cannot change",
        },
        Edit {
            file: "game.toml",
            what: "player added",
            change: |t| format!("{t}\n[[players]]\nid = \"zoe\"\nname = \"Zoe\"\n"),
            says: "",
        },
        Edit {
            file: "game.toml",
            what: "player removed",
            change: |t| t[..t.rfind("[[players]]").unwrap()].to_owned(),
            says: "",
        },
        // secrets.toml (absent in the example: each edit writes one)
        Edit {
            file: "secrets.toml",
            what: "unknown player",
            change: |_| "[tokens]\nzed = \"abcdefgh\"\n".into(),
            says: "tokens.zed",
        },
        Edit {
            file: "secrets.toml",
            what: "short token",
            change: |_| "[tokens]\nalice = \"ab\"\n".into(),
            says: "at least 6",
        },
        Edit {
            file: "secrets.toml",
            what: "shared token",
            change: |_| "[tokens]\nalice = \"abcdefgh\"\nbob = \"abcdefgh\"\n".into(),
            says: "same as the token",
        },
        Edit {
            file: "secrets.toml",
            what: "misspelt key",
            change: |_| "[token]\nalice = \"abcdefgh\"\n".into(),
            says: "token",
        },
        Edit {
            file: "secrets.toml",
            what: "truncated",
            change: |_| "[tokens]\nalice = \"abc".into(),
            says: "",
        },
        // state.toml
        Edit {
            file: "state.toml",
            what: "truncated",
            change: |t| t[..t.len() / 2].to_owned(),
            says: "",
        },
        Edit {
            file: "state.toml",
            what: "misspelt key",
            change: |t| replace_first(t, "garnets =", "garnet ="),
            says: "unknown key `garnet`",
        },
        Edit {
            file: "state.toml",
            what: "negative garnets",
            change: |t| replace_first(t, "garnets = 3", "garnets = -2"),
            says: "garnets: is -2",
        },
        Edit {
            file: "state.toml",
            what: "huge garnets",
            change: |t| replace_first(t, "garnets = 3", "garnets = 9223372036854775807"),
            says: "garnets",
        },
        Edit {
            file: "state.toml",
            what: "mistyped round",
            change: |t| replace_first(t, "round = 2", "round = \"two\""),
            says: "",
        },
        Edit {
            file: "state.toml",
            what: "deleted player",
            change: |t| {
                let start = t.find("[players.frank]").unwrap();
                let end = t[start + 1..]
                    .find("\n[")
                    .map_or(t.len(), |e| start + 1 + e + 1);
                format!("{}{}", &t[..start], &t[end..])
            },
            says: "`frank` is in game.toml but not in state.toml",
        },
        Edit {
            file: "state.toml",
            what: "unknown player referred to",
            change: |t| replace_first(t, "round = 2\n", "round = 2\ncontenders = [\"zed\"]\n"),
            says: "zed",
        },
        // receipts.toml of the round being played
        Edit {
            file: "rounds/002/receipts.toml",
            what: "truncated",
            change: |t| t[..t.len() / 2].to_owned(),
            says: "",
        },
        Edit {
            file: "rounds/002/receipts.toml",
            what: "changed sha256 digit",
            change: |t| {
                let at = t.find("sha256 = \"").unwrap() + 10;
                let digit = if &t[at..at + 1] == "0" { "1" } else { "0" };
                format!("{}{digit}{}", &t[..at], &t[at + 1..])
            },
            says: "does not match",
        },
        Edit {
            file: "rounds/002/receipts.toml",
            what: "unknown player",
            change: |t| replace_first(t, "player = \"alice\"", "player = \"zed\""),
            says: "zed",
        },
        Edit {
            file: "rounds/002/receipts.toml",
            what: "gap in n",
            change: |t| replace_first(t, "n = 1", "n = 3"),
            says: "numbered",
        },
        Edit {
            file: "rounds/002/receipts.toml",
            what: "misspelt key",
            change: |t| replace_first(t, "valid =", "valdi ="),
            says: "missing field `valid`",
        },
        // result.toml of a resolved round
        Edit {
            file: "rounds/001/result.toml",
            what: "truncated",
            change: |t| t[..t.len() / 3].to_owned(),
            says: "",
        },
        Edit {
            file: "rounds/001/result.toml",
            what: "unknown player",
            change: |t| replace_first(t, "[garnets]\n", "[garnets]\nzed = 1\n"),
            says: "garnets.zed",
        },
        Edit {
            file: "rounds/001/result.toml",
            what: "misspelt key",
            change: |t| replace_first(t, "[meta]\n", "[meta]\nrond = 1\n"),
            says: "rond",
        },
        Edit {
            file: "rounds/001/result.toml",
            what: "round moved",
            change: |t| replace_first(t, "round = 1\n", "round = 4\n"),
            says: "meta.round",
        },
        Edit {
            file: "rounds/001/result.toml",
            what: "a private value the rules never wrote",
            change: |t| replace_first(t, "[private.alice]\n", "[private.alice]\nbonus = -1\n"),
            says: "private.alice.bonus",
        },
        // state.toml against what the archive gives (`check` replays it)
        Edit {
            file: "state.toml",
            what: "a balance the archive contradicts",
            change: |t| {
                let at = t.find("[players.bob]").unwrap();
                let (head, tail) = t.split_at(at);
                head.to_owned() + &replace_first(tail, "garnets = 2\n", "garnets = 9\n")
            },
            says: "state.toml: players.bob.garnets: the archive has `garnets = 9` where the rules give `garnets = 2`",
        },
        Edit {
            file: "state.toml",
            what: "a count the archive contradicts",
            change: |t| replace_first(t, "points = 1\n", "points = 3\n"),
            says: "players.alice.points",
        },
        Edit {
            file: "state.toml",
            what: "a table removed",
            change: |t| {
                replace_first(
                    t,
                    "[players.alice.live]\nroom = \"basement\"\ninitial_room = \"basement\"\nvalid_versions = 1\n\n",
                    "",
                )
            },
            says: "players.alice",
        },
        // state.toml checked for sense against the archive
        Edit {
            file: "state.toml",
            what: "rounds_played moved",
            change: |t| replace_first(t, "rounds_played = 1\n", "rounds_played = 2\n"),
            says: "rounds_played",
        },
    ]
}

#[test]
fn every_hand_edit_is_refused_with_its_file_and_key_and_nothing_panics() {
    let game = room_swap_in_round_2();
    let pristine = snapshot(game.path());
    for edit in edits() {
        let dir = tempfile::tempdir().unwrap();
        for (path, bytes) in &pristine {
            let to = dir.path().join(path);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::write(to, bytes).unwrap();
        }
        let file = dir.path().join(edit.file);
        let before = fs::read_to_string(&file).unwrap_or_default();
        fs::write(&file, (edit.change)(&before)).unwrap();
        let name = Path::new(edit.file).file_name().unwrap().to_str().unwrap();
        let label = format!("{} {}", edit.file, edit.what);

        let check = adjudicate(["check".as_ref(), dir.path().as_os_str()]);
        assert_eq!(
            check.code, 65,
            "{label}: check: {}{}",
            check.stdout, check.stderr
        );
        assert!(check.stderr.contains(name), "{label}: {}", check.stderr);
        assert!(
            check.stderr.contains(edit.says),
            "{label}: {:?} not in {}",
            edit.says,
            check.stderr
        );

        let untouched = snapshot(dir.path());
        let round = adjudicate([
            "round".as_ref(),
            dir.path().as_os_str(),
            "--now".as_ref(),
            "2026-12-03T16:00:00Z".as_ref(),
        ]);
        if round.code != 0 {
            assert_eq!(round.code, 65, "{label}: round: {}", round.stderr);
            assert!(round.stderr.contains(name), "{label}: {}", round.stderr);
            assert_eq!(
                untouched,
                snapshot(dir.path()),
                "{label}: a refused round wrote"
            );
        }
        for command in ["status", "replay", "render"] {
            let run = adjudicate([command.as_ref(), dir.path().as_os_str()]);
            assert!(
                [0, 1, 65].contains(&run.code) && !run.stderr.contains("panicked"),
                "{label}: {command} exited {}: {}",
                run.code,
                run.stderr
            );
        }
    }
}

/// A hand edit of state.toml is never silently played (issue 56): the tick, a lever and `status`
/// refuse a file that no longer matches the seal the tick wrote on its first line, naming the
/// first key the archive contradicts and the way out, and write nothing; a file without a seal
/// (an older version's) is read as it is.
#[test]
fn a_hand_edited_state_toml_is_refused_by_the_tick_naming_the_key() {
    let game = room_swap_in_round_2();
    let dir = game.path();
    let state = fs::read_to_string(dir.join("state.toml")).unwrap();
    assert!(
        state.starts_with("# Written by adjudicate: a hand edit is refused. sha256 of the rest: "),
        "{state}"
    );
    let at = state.find("[players.bob]").unwrap();
    let edited =
        state[..at].to_owned() + &replace_first(&state[at..], "garnets = 2\n", "garnets = 9\n");
    fs::write(dir.join("state.toml"), &edited).unwrap();
    let before = snapshot(dir);
    let now = "2026-12-03T16:00:00Z";
    let runs = [
        adjudicate([
            "round".as_ref(),
            dir.as_os_str(),
            "--now".as_ref(),
            now.as_ref(),
        ]),
        adjudicate(["status".as_ref(), dir.as_os_str()]),
        adjudicate([
            "extend".as_ref(),
            dir.as_os_str(),
            "--by".as_ref(),
            "1h".as_ref(),
            "--reason".as_ref(),
            "x".as_ref(),
            "--now".as_ref(),
            now.as_ref(),
        ]),
    ];
    for run in runs {
        assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("state.toml: players.bob.garnets: the archive has `garnets = 9` where the rules give `garnets = 2`")
                && run.stderr.contains("restore the file from git, or see `adjudicate replay`"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(before, snapshot(dir), "a refused run wrote");
    // the seal line alone changed: the archive has no key to name, the file is still refused
    let resealed = state.replacen("sha256 of the rest: ", "sha256 of the rest: 0", 1);
    fs::write(dir.join("state.toml"), &resealed).unwrap();
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        now.as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr.contains("state.toml: edited by hand"),
        "{}",
        run.stderr
    );
    // an older version's file, without the line, is read as it is (and sealed when next written)
    let (_, body) = state.split_once('\n').unwrap();
    fs::write(dir.join("state.toml"), body).unwrap();
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        now.as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = fs::read_to_string(dir.join("state.toml")).unwrap();
    assert!(written.starts_with("# Written by adjudicate"), "{written}");
    assert_eq!(adjudicate(["replay".as_ref(), dir.as_os_str()]).code, 0);
}

#[test]
fn a_player_added_mid_game_is_refused_in_god_race_too() {
    // God Race read a new player's state in `receive` and panicked on every tick.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(
        god_race_example_dir().join("game.toml"),
        dir.join("game.toml"),
    )
    .unwrap();
    play_ticks(dir, &god_race_example_dir(), 3, |_| {});
    let toml = fs::read_to_string(dir.join("game.toml")).unwrap();
    fs::write(
        dir.join("game.toml"),
        format!("{toml}\n[[players]]\nid = \"zoe\"\nname = \"Zoe\"\nmeadow = \"white\"\n"),
    )
    .unwrap();
    fs::create_dir_all(dir.join("rounds/001/submissions")).unwrap();
    fs::write(dir.join("rounds/001/submissions/zoe.toml"), "").unwrap();
    for command in ["round", "check", "replay", "status"] {
        let mut args = vec![command.as_ref(), dir.as_os_str()];
        if command == "round" {
            args.push("--force".as_ref());
        }
        let run = adjudicate(args);
        assert_eq!(run.code, 65, "{command}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("game.toml: players: `zoe` is in game.toml but not in state.toml: players cannot change once the game has started"),
            "{command}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_killed_tick_leaves_temp_files_that_the_next_tick_sweeps() {
    let game = room_swap_in_round_2();
    let dir = game.path();
    // What a tick killed between a temp file's creation and its rename leaves behind.
    let litter = [
        dir.join(".adjudicate-Xy12ab"),
        dir.join("rounds/002/.adjudicate-Qw34cd"),
        dir.join("rounds/002/received/.adjudicate-Er56ef"),
    ];
    for path in &litter {
        fs::write(path, "half a file").unwrap();
    }
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-03T10:30:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("removed 3 temp file(s) left by an interrupted run"),
        "{}",
        run.stdout
    );
    assert!(litter.iter().all(|p| !p.exists()));
}

#[test]
fn new_writes_a_gitignore_that_keeps_secrets_and_temp_files_out_of_git() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    let run = adjudicate(["new".as_ref(), "room-swap".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ignore = fs::read_to_string(dir.join(".gitignore")).unwrap();
    for line in [
        ".adjudicate.lock",
        ".adjudicate-*",
        "secrets.toml",
        "rounds/*/submissions/",
    ] {
        assert!(ignore.lines().any(|l| l == line), "{line} not in\n{ignore}");
    }
}

#[test]
fn two_players_sharing_an_email_or_a_chat_handle_are_refused_naming_both() {
    let toml = fs::read_to_string(example_dir().join("game.toml")).unwrap();
    let shared_mail = replace_first(&toml, "bob@example.org", "ALICE@example.org");
    assert_check_error(
        &shared_mail,
        "game.toml:28:1: players[1].email: `ALICE@example.org` is the email of both `alice` and `bob`",
    );
    let with_chat = replace_first(
        &toml,
        "id = \"alice\"\n",
        "id = \"alice\"\nchat = \"Al#1\"\n",
    );
    let shared_chat = replace_first(
        &with_chat,
        "id = \"bob\"\n",
        "id = \"bob\"\nchat = \"al#1\"\n",
    );
    assert_check_error(
        &shared_chat,
        "game.toml:28:1: players[1].chat: `al#1` is the chat of both `alice` and `bob`",
    );
}

#[test]
fn every_problem_of_game_toml_is_reported_at_once_with_line_and_column() {
    let toml = fs::read_to_string(example_dir().join("game.toml")).unwrap();
    let broken = replace_first(&toml, "title = \"Attic Basement Cellar\"", "title = \" \"");
    let broken = replace_first(
        &broken,
        "email = \"bob@example.org\"",
        "email = \"not an address\"",
    );
    let broken = replace_first(&broken, "garnets = 12", "garnets = -3");
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("game.toml"), broken).unwrap();
    let run = adjudicate(["check".as_ref(), tmp.path().as_os_str()]);
    assert_eq!(run.code, 65);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stderr);
    for (line, expected) in lines.iter().zip([
        "game.toml:3:1: title: must not be empty",
        "game.toml:28:1: players[1].email: `not an address` is not a mail address",
        "game.toml:35:1: players[2].garnets: is -3",
    ]) {
        assert!(line.contains(expected), "{expected:?} not in {line:?}");
    }
}

/// A God Race player's valid version is on file (receipts.toml) but state.toml lost their choice
/// (a hand edit deleted their live table): every command refuses it, naming the player.
#[test]
fn a_state_that_lost_a_valid_choice_is_refused_naming_the_player() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(
        god_race_example_dir().join("game.toml"),
        dir.join("game.toml"),
    )
    .unwrap();
    crate::support::tick(dir, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let welcome = fs::read_to_string(dir.join("rounds/000/opening/private/alice.txt")).unwrap();
    let skeleton = crate::first_game::skeleton(&welcome).unwrap();
    crate::support::submit(dir, 0, "alice", &skeleton);
    crate::support::tick(dir, "2026-12-02T09:00:00Z", &["-q", "--no-send"]);
    let state = fs::read_to_string(dir.join("state.toml")).unwrap();
    let start = state
        .find("[players.alice.live")
        .expect("alice's live choices");
    let end = state[start + 1..]
        .find("\n[players.b")
        .map_or(state.len(), |e| start + 1 + e + 1);
    fs::write(
        dir.join("state.toml"),
        format!("{}{}", &state[..start], &state[end..]),
    )
    .unwrap();
    for command in ["check", "round"] {
        let run = adjudicate([command.as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 65, "{command}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("state.toml") && run.stderr.contains("players.alice"),
            "{command}: {}",
            run.stderr
        );
    }
}
