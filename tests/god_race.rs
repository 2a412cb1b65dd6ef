//! The God Race sample game (`games/god-race/example`), played to its end through the built
//! binary as `make demo` does: the scores follow from the podium and the scoring orbs, the archive
//! replays byte for byte, and no secret reaches a public text or another player.

use crate::support::{adjudicate, god_race_example_dir, play_example};
use std::fs;
use std::path::Path;

fn play() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(
        god_race_example_dir().join("game.toml"),
        tmp.path().join("game.toml"),
    )
    .unwrap();
    play_example(tmp.path(), &god_race_example_dir(), |_| {});
    tmp
}

fn rounds(dir: &Path) -> Vec<(u32, toml::Table)> {
    (0..)
        .map_while(|n| {
            let text = fs::read_to_string(dir.join(format!("rounds/{n:03}/result.toml"))).ok()?;
            Some((n, toml::from_str(&text).unwrap()))
        })
        .collect()
}

#[test]
fn the_sample_race_runs_to_its_end_with_scores_from_the_podium_and_replays() {
    let game = play();
    let dir = game.path();
    let rounds = rounds(dir);
    let (last, result) = rounds.last().unwrap();
    let public = result["public"].as_table().unwrap();
    let fin = public["final"]
        .as_table()
        .expect("the last round carries [public.final]");
    let podium: Vec<&str> = public["podium"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(podium.len(), 3, "{podium:?}");
    // Each score is the sum of 3/2/1 for the player's two gods.
    for (player, support) in fin["support"].as_table().unwrap() {
        let expected: i64 = support
            .as_array()
            .unwrap()
            .iter()
            .map(
                |g| match podium.iter().position(|p| *p == g.as_str().unwrap()) {
                    Some(i) => 3 - i as i64,
                    None => 0,
                },
            )
            .sum();
        assert_eq!(
            fin["scores"][player].as_integer(),
            Some(expected),
            "{player}"
        );
    }
    let text = fs::read_to_string(dir.join(format!("rounds/{last:03}/public.txt"))).unwrap();
    assert!(text.contains("THE RACE IS OVER. "), "{text}");
    assert!(
        fs::read_to_string(dir.join("state.toml"))
            .unwrap()
            .contains("finished = true")
    );

    // Bob's first round-0 version was refused; Grace sent nothing and got random choices.
    let zero = fs::read_to_string(dir.join("rounds/000/public.txt")).unwrap();
    assert!(
        zero.contains("Some choices were made at random for: Grace"),
        "{zero}"
    );
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

/// Issue 57: a valid version's acknowledgement asks nothing to be fixed; an invalid one's says
/// what stands if it is not.
#[test]
fn only_an_invalid_versions_acknowledgement_says_what_stands_if_it_is_not_fixed() {
    let game = play();
    let body = |name: &str| {
        let raw = fs::read_to_string(game.path().join("sent").join(name)).unwrap();
        raw.replace("=\r\n", "").replace("\r\n", "\n")
    };
    let valid = body("r000-ack-alice-1.eml");
    assert!(valid.contains("It is valid."), "{valid}");
    assert!(!valid.contains("If this is not fixed"), "{valid}");
    let invalid = body("r000-ack-bob-1.eml");
    assert!(invalid.contains("It is NOT valid"), "{invalid}");
    assert!(invalid.contains("If this is not fixed by"), "{invalid}");
}

#[test]
fn scoring_orbs_and_private_facts_stay_secret_until_the_end() {
    let game = play();
    let dir = game.path();
    let allowed = crate::support::GOD_RACE_PUBLIC_KEYS;
    let state: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("state.toml")).unwrap()).unwrap();
    let players = state["players"].as_table().unwrap();
    for (n, result) in rounds(dir) {
        let public = result["public"].as_table().unwrap();
        for key in public.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "round {n}: [public] holds `{key}`"
            );
        }
        let text = fs::read_to_string(dir.join(format!("rounds/{n:03}/public.txt"))).unwrap();
        if !public.contains_key("final") {
            assert!(
                !text.to_lowercase().contains("scoring orb") || n == 0,
                "round {n} names scoring orbs:\n{text}"
            );
        }
        for (id, p) in players {
            let report =
                fs::read_to_string(dir.join(format!("rounds/{n:03}/private/{id}.txt"))).unwrap();
            let private = result["private"][id].as_table().unwrap();
            assert_eq!(
                private["support"], p["support"],
                "round {n}: {id}'s private result holds another support"
            );
            for (other, q) in players.iter().filter(|(o, _)| *o != id) {
                let secret = format!(
                    "Your scoring orbs (secret): {}",
                    q["support"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|g| title(g.as_str().unwrap()))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                if q["support"] != p["support"] {
                    assert!(
                        !report.contains(&secret),
                        "round {n}: {id}'s report holds {other}'s scoring orbs"
                    );
                }
            }
        }
    }
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[test]
fn the_readme_shows_real_output_of_the_sample_race() {
    let game = play();
    let readme = fs::read_to_string(crate::support::manifest_dir().join("README.md")).unwrap();
    for file in [
        "rounds/000/opening/private/erin.txt",
        "rounds/001/public.txt",
        "rounds/001/private/erin.txt",
    ] {
        let text = fs::read_to_string(game.path().join(file)).unwrap();
        assert!(
            readme.contains(&format!("```\n{text}```")),
            "README.md does not show the current {file}:\n{text}"
        );
    }
}

#[test]
fn a_hand_edited_state_that_loses_orbs_is_refused_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(
        god_race_example_dir().join("game.toml"),
        tmp.path().join("game.toml"),
    )
    .unwrap();
    crate::support::tick(tmp.path(), "2026-12-01T00:00:00Z", &["--force", "-q"]);
    let mut state: toml::Table =
        toml::from_str(&fs::read_to_string(tmp.path().join("state.toml")).unwrap()).unwrap();
    state["box"]
        .as_table_mut()
        .unwrap()
        .insert("white".into(), toml::Value::Integer(40));
    fs::write(
        tmp.path().join("state.toml"),
        toml::to_string(&state).unwrap(),
    )
    .unwrap();
    let run = adjudicate(["check".as_ref(), tmp.path().as_os_str()]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("state.toml: box: box + drawn orbs + discarded ="),
        "{}",
        run.stderr
    );
}
