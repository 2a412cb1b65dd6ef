//! Tribal Council through the binary (spec tribal-council.md): what `check` refuses, what the
//! announcement reads and never says, the revote's skeleton, and a council in a season (its `out`
//! leaves the season; a jury's winner is the season's winner). The show's own councils are in
//! `survivor.rs`.

use crate::support::{adjudicate, ok, submit, text, tick};
use std::fs;
use std::path::Path;

/// A council of `players` (`(id, extra keys)`), no schedule: rounds close with `--force`.
fn council(dir: &Path, options: &str, players: &[(&str, &str)]) {
    let mut toml = format!(
        "game = \"tribal-council\"\ntitle = \"Day 12: Tribal Council\"\nseed = 7\n\n[mail]\nfrom = \"Host <host@example.org>\"\ntransport = \"file\"\n\n[options]\n{options}\n"
    );
    for (id, extra) in players {
        let name = format!("{}{}", id[..1].to_uppercase(), &id[1..]);
        toml.push_str(&format!(
            "\n[[players]]\nid = \"{id}\"\nname = \"{name}\"\nemail = \"{id}@example.org\"\n{extra}\n"
        ));
    }
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("game.toml"), toml).unwrap();
}

const NOW: &str = "2026-12-02T12:00:00Z";

#[test]
fn check_refuses_a_council_where_nobody_can_receive_a_vote_and_a_council_of_two() {
    let tmp = tempfile::tempdir().unwrap();
    for (players, expected) in [
        (
            &[
                ("a", "immune = true"),
                ("b", "immune = true"),
                ("c", "immune = true"),
            ][..],
            "every player is immune",
        ),
        (&[("a", ""), ("b", "")][..], "at least three players"),
        (
            &[("a", "finalist = true"), ("b", ""), ("c", "")][..],
            "at least two finalists",
        ),
    ] {
        let dir = tmp.path().join(expected.replace(' ', "-"));
        let options = if expected.contains("finalist") {
            "mode = \"jury\""
        } else {
            ""
        };
        council(&dir, options, players);
        let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 65, "{expected}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("game.toml") && run.stderr.contains(expected),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn the_announcement_reads_the_votes_and_never_says_who_cast_them_or_who_holds_an_idol() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    council(
        dir,
        "",
        &[
            ("stacy", ""),
            ("yau", "idols = 1"),
            ("earl", "idols = 1"),
            ("dreamz", ""),
            ("cassandra", "immune = true"),
        ],
    );
    tick(dir, NOW, &["-q"]);
    submit(dir, 1, "stacy", "vote = \"yau\"\n");
    submit(dir, 1, "dreamz", "vote = \"yau\"\n");
    submit(dir, 1, "yau", "vote = \"stacy\"\nidol = [\"yau\"]\n");
    submit(dir, 1, "earl", "vote = \"stacy\"\n");
    submit(dir, 1, "cassandra", "vote = \"stacy\"\n");
    tick(dir, NOW, &["-q", "--force"]);
    let public = text(&dir.join("rounds/001/public.txt"));
    for line in [
        "A hidden immunity idol was played for Yau",
        "I'll read the votes.",
        "First vote:",
        "Fifth vote:",
        "Yau. Does not count.",
        "Stacy, the tribe has spoken: Stacy is out.",
    ] {
        assert!(public.contains(line), "{line:?} missing:\n{public}");
    }
    // the deciding vote is read last
    let votes: Vec<&str> = public
        .lines()
        .filter(|l| l.ends_with(" vote: Stacy."))
        .collect();
    assert_eq!(votes.len(), 3, "{public}");
    let last = public.lines().rfind(|l| l.contains(" vote: ")).unwrap();
    assert!(last.ends_with("vote: Stacy."), "{public}");
    // nobody's ballot, and not Earl's idol, which he kept
    assert!(!public.contains("cast by"), "{public}");
    assert!(!public.contains("Earl"), "{public}");
    let report = text(&dir.join("rounds/001/private/earl.txt"));
    assert!(report.contains("Your vote: Stacy. It counted."), "{report}");
    assert!(report.contains("You hold 1 idol"), "{report}");
    let dreamz = text(&dir.join("rounds/001/private/dreamz.txt"));
    assert!(
        dreamz.contains("Your vote: Yau. It did not count: an idol protected Yau."),
        "{dreamz}"
    );
    for other in ["stacy", "dreamz", "cassandra", "yau"] {
        assert!(!text(&dir.join(format!("rounds/001/private/{other}.txt"))).contains("Earl"));
    }
    ok(adjudicate(["replay".as_ref(), dir.as_os_str()]));
}

#[test]
fn a_tie_sends_the_others_a_revote_skeleton_and_the_tied_are_told_they_do_not_vote() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    council(dir, "", &[("a", ""), ("b", ""), ("c", ""), ("d", "")]);
    tick(dir, NOW, &["-q"]);
    for (p, v) in [("a", "b"), ("b", "a"), ("c", "a"), ("d", "b")] {
        submit(dir, 1, p, &format!("vote = \"{v}\"\n"));
    }
    tick(dir, NOW, &["-q", "--force"]);
    let public = text(&dir.join("rounds/001/public.txt"));
    assert!(public.contains("We have a tie: A, B."), "{public}");
    let c = text(&dir.join("rounds/001/private/c.txt"));
    assert!(c.contains("# vote: one of a, b\nvote = \"a\""), "{c}");
    let a = text(&dir.join("rounds/001/private/a.txt"));
    let flat = a.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("You do not vote in the revote"), "{a}");
    assert!(!a.contains("vote = "), "{a}");
    submit(dir, 2, "a", "vote = \"b\"\n");
    submit(dir, 2, "c", "vote = \"b\"\n");
    submit(dir, 2, "d", "vote = \"b\"\n");
    tick(dir, NOW, &["-q", "--force"]);
    let receipts = text(&dir.join("rounds/002/receipts.toml"));
    assert!(receipts.contains("you are tied"), "{receipts}");
    let public = text(&dir.join("rounds/002/public.txt"));
    assert!(
        public.contains("B, the tribe has spoken: B is out."),
        "{public}"
    );
    ok(adjudicate(["replay".as_ref(), dir.as_os_str()]));
}

/// Issue 57: a missing vote is said to count against its player only where it was cast
/// against them (the first vote, a player who can receive votes); a revote's is simply not cast.
#[test]
fn a_missing_vote_is_said_to_count_against_its_player_only_where_it_did() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let five = [("a", ""), ("b", ""), ("c", ""), ("d", ""), ("e", "")];
    council(dir, "", &five);
    tick(dir, NOW, &["-q"]);
    // e sends nothing: its vote goes against e, and a tie between a and b follows
    for (p, v) in [("a", "b"), ("b", "a"), ("c", "a"), ("d", "b")] {
        submit(dir, 1, p, &format!("vote = \"{v}\"\n"));
    }
    tick(dir, NOW, &["-q", "--force"]);
    let first = text(&dir.join("rounds/001/public.txt"));
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat(&first).contains("Did not vote: E. As the rules say, a missing vote counts against the player who did not send it: E."),
        "{first}"
    );
    // at the revote, d sends nothing: not cast, and not said to count against d
    submit(dir, 2, "c", "vote = \"b\"\n");
    submit(dir, 2, "e", "vote = \"b\"\n");
    tick(dir, NOW, &["-q", "--force"]);
    let revote = flat(&text(&dir.join("rounds/002/public.txt")));
    assert!(revote.contains("Did not vote: D."), "{revote}");
    assert!(!revote.contains("counts against"), "{revote}");
}

#[test]
fn in_a_season_the_voted_out_leaves_and_the_jury_s_winner_is_the_season_s() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let cast: String = ["ann", "ben", "cat", "dan", "eve"]
        .iter()
        .map(|id| format!("[[players]]\nid = \"{id}\"\nname = \"{}\"\nemail = \"{id}@example.org\"\ngarnets = 5\n\n", id.to_uppercase()))
        .collect();
    fs::write(root.join("cast.toml"), cast).unwrap();
    let season = root.join("s");
    let s = season.to_str().unwrap();
    ok(adjudicate([
        "season",
        "new",
        s,
        "--players",
        root.join("cast.toml").to_str().unwrap(),
        "--title",
        "Season Two",
        "--seed",
        "3",
    ]));
    ok(adjudicate(["season", "match", s, "tribal-council"]));
    let council = season.join("matches/01-tribal-council");
    tick(&council, NOW, &["-q"]);
    for (p, v) in [
        ("ann", "eve"),
        ("ben", "eve"),
        ("cat", "eve"),
        ("dan", "ann"),
        ("eve", "ann"),
    ] {
        submit(&council, 1, p, &format!("vote = \"{v}\"\n"));
    }
    tick(&council, NOW, &["-q", "--force"]);
    let status = ok(adjudicate(["season", "status", s])).stdout;
    let eve = status.lines().find(|l| l.contains("EVE")).unwrap();
    assert!(eve.contains("eliminated"), "{status}");
    // the final vote: Ann and Ben are the finalists, the others the jury
    ok(adjudicate([
        "season",
        "match",
        s,
        "tribal-council",
        "--option",
        "mode = \"jury\"",
        "--option",
        "finalists = [\"ann\", \"ben\"]",
    ]));
    let jury = season.join("matches/02-tribal-council");
    tick(&jury, NOW, &["-q"]);
    submit(&jury, 1, "cat", "vote = \"ben\"\n");
    submit(&jury, 1, "dan", "vote = \"ben\"\n");
    tick(&jury, NOW, &["-q", "--force"]);
    let site = root.join("site");
    ok(adjudicate([
        "site".as_ref(),
        root.as_os_str(),
        site.as_os_str(),
        "-q".as_ref(),
    ]));
    let page = text(&site.join("s/index.html"));
    assert!(
        page.contains("Winner of the season: <strong>BEN</strong>"),
        "{page}"
    );
}

#[test]
fn simulate_plays_councils_and_a_voting_bloc_survives_more_often_than_random_voters() {
    let run = ok(adjudicate([
        "simulate",
        "tribal-council",
        "--games",
        "2000",
        "--bots",
        "random=6,bloc=2",
    ]));
    let wins = |strategy: &str| -> f64 {
        let line = run
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{strategy} ")))
            .unwrap_or_else(|| panic!("{}", run.stdout));
        // "player wins": the second percentage of the line
        let pct: Vec<f64> = line
            .split_whitespace()
            .filter_map(|w| w.strip_suffix('%')?.parse().ok())
            .collect();
        pct[1]
    };
    assert!(wins("bloc") > wins("random") + 5.0, "{}", run.stdout);
    assert!(run.stdout.contains("no winner: 0.0%"), "{}", run.stdout);
}

/// Issue 57: at a tied jury vote the finalist who draws the odd rock is out of the running; the
/// other wins, and the announcement says so in that order.
#[test]
fn at_a_tied_jury_the_odd_rock_is_out_of_the_running_and_the_other_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let finalist = "finalist = true";
    let players = [
        ("a", finalist),
        ("b", finalist),
        ("c", ""),
        ("d", ""),
        ("e", ""),
        ("f", ""),
    ];
    council(dir, "mode = \"jury\"", &players);
    tick(dir, NOW, &["-q"]);
    for (p, v) in [("c", "a"), ("d", "b"), ("e", "a"), ("f", "b")] {
        submit(dir, 1, p, &format!("vote = \"{v}\"\n"));
    }
    tick(dir, NOW, &["-q", "--force"]);
    let result: toml::Table = toml::from_str(&text(&dir.join("rounds/001/result.toml"))).unwrap();
    let out = result["public"]["rocks"]["out"]
        .as_str()
        .unwrap()
        .to_uppercase();
    let winner = result["public"]["winner"].as_str().unwrap().to_uppercase();
    assert_ne!(out, winner, "the odd rock loses");
    let public = text(&dir.join("rounds/001/public.txt"));
    let flat = public.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!(
            "{out} drew the odd rock and is out of the running."
        )),
        "{public}"
    );
    assert!(
        flat.contains(&format!("The winner of Day 12: Tribal Council: {winner}.")),
        "{public}"
    );
    ok(adjudicate(["replay".as_ref(), dir.as_os_str()]));
}
