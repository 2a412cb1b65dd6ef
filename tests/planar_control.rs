//! The Planar Control sample game (`games/planar-control/example`), fifteen players played to the
//! end of the elimination vote through the built binary, as `make demo` does.

use crate::support::{adjudicate, assert_check_error, manifest_dir, play_example};
use std::fs;

#[test]
fn the_sample_game_runs_through_the_elimination_vote_and_replays() {
    let example = manifest_dir().join("games/planar-control/example");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(example.join("game.toml"), dir.join("game.toml")).unwrap();
    play_example(dir, &example, |_| {});

    let opening = fs::read_to_string(dir.join("rounds/000/private/alice.txt")).unwrap();
    assert!(opening.contains("Your alignment: "), "{opening}");
    let result: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("rounds/006/result.toml")).unwrap()).unwrap();
    let winner = result["public"]["final"]["winner"]
        .as_str()
        .expect("round 6 names a winner");
    let last = fs::read_to_string(dir.join("rounds/007/public.txt")).unwrap();
    assert!(
        last.contains("Elimination Candidate: ")
            && last.contains("picks a Death Match opponent first"),
        "{last}"
    );
    let fin: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("rounds/007/result.toml")).unwrap()).unwrap();
    let candidates = fin["public"]["final"]["elimination"].as_table().unwrap();
    assert_eq!(candidates.len(), 2);
    assert!(!candidates.contains_key(winner));
    // Alice's invalid vote in round 1 made her abstain, and she was told so.
    let ack = fs::read_to_string(dir.join("sent/r001-ack-alice-2.eml")).unwrap();
    assert!(
        ack.contains("If this is not fixed by Thu 3 Dec 15:00 UTC, you abstain."),
        "{ack}"
    );
    for n in 1..=6 {
        let public = fs::read_to_string(dir.join(format!("rounds/{n:03}/public.txt"))).unwrap();
        assert!(
            !public.contains("vote for") && !public.contains("garnet spent"),
            "round {n}:\n{public}"
        );
    }
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("7 round(s)"), "{}", run.stdout);
}

#[test]
fn a_set_up_that_cannot_work_is_a_check_error_naming_the_key() {
    let example = manifest_dir().join("games/planar-control/example/game.toml");
    let text = fs::read_to_string(example).unwrap();
    let cases = [
        (text.replace("[[players]]\nid = \"alice\"", "[options]\nplanes = { earth = 8, limbo = 1, thera = 4, mobil = 1 }\n\n[[players]]\nid = \"alice\""), "game.toml: options.planes: the four plane sizes"),
        (text.replace("garnets = 0\n\n[[players]]\nid = \"bob\"", "garnets = 0\nalignment = \"ember\"\n\n[[players]]\nid = \"bob\""), "game.toml: players[1].alignment: every player needs `alignment` once one has it"),
        (text.replacen("[[players]]\nid = \"rupert\"", "[[players]]\nid = \"rupert\"\n[[players]]\nid = \"zoe\"", 1), "game.toml: players: Planar Control needs a multiple of 3 players"),
    ];
    for (broken, expected) in cases {
        assert_check_error(&broken, expected);
    }
    // Alignments given by hand must be equal in number.
    let mut by_hand = String::new();
    for (i, block) in text.split("[[players]]").enumerate() {
        if i == 0 {
            by_hand.push_str(block);
        } else {
            let alignment = if i <= 7 {
                "ember"
            } else if i <= 11 {
                "nature"
            } else {
                "torrent"
            };
            by_hand.push_str(&format!(
                "[[players]]{}alignment = \"{alignment}\"\n\n",
                block.trim_end_matches('\n').to_owned() + "\n"
            ));
        }
    }
    assert_check_error(&by_hand, "alignments given by hand must be equal in number");
}
