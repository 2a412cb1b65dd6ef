//! The end-of-game announcements rendered through the real tick from a hand-edited state.toml (as
//! a host may correct a state): joint winners, five-way and six-way ties, a tiebreak that is
//! played again, and the Token round without a gift.

use crate::support::{example_game, submit, tick};
use std::fs;
use std::path::Path;

/// Sets everyone's points in state.toml, after the first tick has dealt the game, and jumps to
/// round `round` (the schedule index follows).
fn start_at(dir: &Path, round: u32, points: [u32; 6]) {
    tick(dir, "2026-12-01T00:00:00Z", &["-q"]);
    let mut state: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("state.toml")).unwrap()).unwrap();
    state.insert("round".into(), toml::Value::Integer(round.into()));
    state.insert(
        "rounds_played".into(),
        toml::Value::Integer((round - 1).into()),
    );
    let players = state["players"].as_table_mut().unwrap();
    for ((_, p), pts) in players.iter_mut().zip(points) {
        p.as_table_mut()
            .unwrap()
            .insert("points".into(), toml::Value::Integer(pts.into()));
    }
    fs::write(dir.join("state.toml"), toml::to_string(&state).unwrap()).unwrap();
}

fn play(dir: &Path, round: u32, rooms: &[(&str, &str)]) -> String {
    for (player, room) in rooms {
        submit(dir, round, player, &format!("room = \"{room}\"\n"));
    }
    // before any deadline: a file seen after its round's deadline would be late
    tick(dir, "2026-12-01T00:00:00Z", &["--force", "-q"]);
    fs::read_to_string(dir.join(format!("rounds/{round:03}/public.txt"))).unwrap()
}

const NOBODY_SCORES: [(&str, &str); 6] = [
    ("alice", "attic"),
    ("bob", "attic"),
    ("carol", "attic"),
    ("dave", "cellar"),
    ("erin", "cellar"),
    ("frank", "cellar"),
];

fn assert_has(text: &str, lines: &[&str]) {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for line in lines {
        assert!(flat.contains(line), "{line:?} missing from\n{text}");
    }
}

#[test]
fn joint_winners_are_announced_first() {
    let game = example_game();
    start_at(game.path(), 4, [3, 3, 2, 2, 2, 1]);
    let text = play(game.path(), 4, &NOBODY_SCORES);
    assert!(
        text.contains("\n\nTHE GAME IS OVER. Joint winners: Alice, Bob.\n"),
        "{text}"
    );
    assert_has(
        &text,
        &[
            "Joint winners: Alice, Bob: a Token of Life and 2 garnets each.",
            "Elimination Candidate: Frank.",
            "Death Match opponents may be chosen among: Carol, Dave, Erin.",
            "The game has ended.",
        ],
    );
}

#[test]
fn four_joint_winners_send_the_two_others_to_the_death_match() {
    let game = example_game();
    start_at(game.path(), 4, [3, 3, 3, 3, 2, 1]);
    let text = play(game.path(), 4, &NOBODY_SCORES);
    assert_has(
        &text,
        &[
            "Elimination Candidates: Erin, Frank.",
            "With four joint winners, the two others face each other in the Death Match.",
        ],
    );
}

#[test]
fn five_joint_winners_play_tiebreaks_until_separated() {
    let game = example_game();
    let dir = game.path();
    start_at(dir, 4, [3, 3, 3, 3, 3, 1]);
    let text = play(dir, 4, &NOBODY_SCORES);
    assert_has(
        &text,
        &[
            "Five players are tied at the top.",
            "Frank: 1",
            "Elimination Candidate: Frank.",
            "Tiebreak rounds between Alice, Bob, Carol, Dave, Erin follow",
            "Next: tiebreak round 5, deadline",
        ],
    );
    let frank = fs::read_to_string(dir.join("rounds/004/private/frank.txt")).unwrap();
    assert!(
        frank.contains("You do not play round 5: there is nothing to send."),
        "{frank}"
    );

    let all_cellar: Vec<(&str, &str)> = ["alice", "bob", "carol", "dave", "erin"]
        .iter()
        .map(|p| (*p, "cellar"))
        .collect();
    let text = play(dir, 5, &all_cellar);
    assert_has(
        &text,
        &[
            "tiebreak round 5 results",
            "No contender scored in the tiebreak.",
            "round 6 is played again by Alice, Bob, Carol, Dave, Erin.",
        ],
    );

    let split = [
        ("alice", "attic"),
        ("bob", "attic"),
        ("carol", "attic"),
        ("dave", "basement"),
        ("erin", "cellar"),
    ];
    let text = play(dir, 6, &split);
    assert_has(
        &text,
        &[
            "THE GAME IS OVER. Joint winners: Alice, Bob, Carol.",
            "3 contenders scored in the tiebreak.",
            "Death Match opponents may be chosen among: Dave, Erin.",
        ],
    );
}

#[test]
fn six_joint_winners_play_another_round_for_everyone() {
    let game = example_game();
    let dir = game.path();
    start_at(dir, 4, [2, 2, 2, 2, 2, 2]);
    let text = play(dir, 4, &NOBODY_SCORES);
    assert_has(
        &text,
        &[
            "All six players are tied at the top.",
            "Round 5 is an extra round for everyone, scored as usual.",
            "Next: round 5",
        ],
    );
    let text = play(
        dir,
        5,
        &[
            ("alice", "attic"),
            ("bob", "basement"),
            ("carol", "basement"),
            ("dave", "cellar"),
            ("erin", "cellar"),
            ("frank", "cellar"),
        ],
    );
    assert_has(
        &text,
        &["THE GAME IS OVER. Joint winners: Dave, Erin, Frank."],
    );
}

#[test]
fn a_sole_winner_who_gives_no_token() {
    let game = example_game();
    let dir = game.path();
    start_at(dir, 4, [3, 2, 2, 2, 2, 1]);
    play(dir, 4, &NOBODY_SCORES);
    // before any deadline: a file seen after its round's deadline would be late
    tick(dir, "2026-12-01T00:00:00Z", &["--force", "-q"]);
    let text = fs::read_to_string(dir.join("rounds/005/public.txt")).unwrap();
    assert_has(
        &text,
        &[
            "Alice, the sole winner, gives no second Token of Life.",
            "Death Match opponents may be chosen among: Bob, Carol, Dave, Erin.",
        ],
    );
}

#[test]
fn a_player_with_nothing_to_send_is_not_invited_to_send_versions() {
    let game = example_game();
    let dir = game.path();
    start_at(dir, 4, [3, 2, 2, 2, 2, 1]);
    play(dir, 4, &NOBODY_SCORES);
    // Round 5 is Alice's Token gift; Bob sends a file anyway.
    submit(dir, 5, "bob", "room = \"attic\"\n");
    tick(dir, "2026-12-01T00:00:00Z", &["-q"]);
    let raw = fs::read_to_string(dir.join("sent/r005-ack-bob-1.eml")).unwrap();
    let flat = raw
        .replace("=\r\n", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("You have nothing to send this round."),
        "{flat}"
    );
    assert!(!flat.contains("You may send new versions"), "{flat}");
}

#[test]
fn a_contender_is_told_they_play_the_tiebreak() {
    let game = example_game();
    let dir = game.path();
    start_at(dir, 4, [3, 3, 3, 3, 3, 1]);
    play(dir, 4, &NOBODY_SCORES);
    let alice = fs::read_to_string(dir.join("rounds/004/private/alice.txt")).unwrap();
    assert_has(
        &alice,
        &[
            "Round result: no player gained a point.",
            "You are tied at the top: you play tiebreak round 5 on the five-player table.",
            "room = \"attic\"",
        ],
    );
}
