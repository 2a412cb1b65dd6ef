//! The Final Ritual sample game (`games/final-ritual/example`), five priests played to a win by
//! a role goal through the built binary, as `make demo` does; and what the rendered texts let
//! each reader see.

use crate::support::{adjudicate, assert_check_error, manifest_dir, play_example};
use std::fs;

/// How reports name the seven roles.
pub const ROLE_TITLES: [&str; 7] = [
    "Loyal Wine Priest",
    "Loyal Gems Priest",
    "Loyal Gold Priest",
    "Selfish Wine Priest",
    "Selfish Gems Priest",
    "Selfish Gold Priest",
    "Traitor Priest",
];

/// The sample game played to its end in a temporary directory.
fn play() -> tempfile::TempDir {
    let example = manifest_dir().join("games/final-ritual/example");
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(example.join("game.toml"), tmp.path().join("game.toml")).unwrap();
    play_example(tmp.path(), &example, |_| {});
    tmp
}

#[test]
fn the_sample_game_ends_with_a_role_goal_and_no_text_shows_a_private_fact() {
    let tmp = play();
    let dir = tmp.path();

    let state: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("state.toml")).unwrap()).unwrap();
    assert_eq!(state["finished"].as_bool(), Some(true));
    assert_eq!(
        state["winner"]["how"].as_str(),
        Some("goal"),
        "the demo must end by a role goal: {:?}",
        state["winner"]
    );
    let last = state["rounds_played"].as_integer().unwrap();
    assert!(last >= 3, "a longer demo shows more: {last} rounds");
    let fin = fs::read_to_string(dir.join(format!("rounds/{last:03}/public.txt"))).unwrap();
    assert!(
        fin.contains("THE GAME IS OVER.") && fin.contains("completed the final ritual and wins"),
        "{fin}"
    );

    // Bob's broken second version: both problems named, with the line and what he holds.
    let ack = fs::read_to_string(dir.join("sent/r001-ack-bob-2.eml")).unwrap();
    for want in [
        "Problem, line 6: oracle: you do not hold take-any-3; you hold",
        "unknown key `refsue`, did you mean `refuse`?",
    ] {
        assert!(ack.contains(want), "{want:?} not in\n{ack}");
    }

    let roles: toml::Table = state["players"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(id, p)| (id.clone(), p["role"].clone()))
        .collect();
    let title = |role: &str| {
        ROLE_TITLES
            .iter()
            .find(|t| t.to_lowercase().replace(' ', "-").starts_with(role))
            .copied()
            .unwrap()
    };
    for n in 0..last {
        let public = fs::read_to_string(dir.join(format!("rounds/{n:03}/public.txt"))).unwrap();
        for t in ROLE_TITLES {
            assert!(!public.contains(t), "round {n} announces a role:\n{public}");
        }
        // Drawn oracles, a dedication's resource, "any" cards: private (fixed gives are not).
        for leak in [
            "drew an oracle:",
            "You ",
            "dedicated 1 wine",
            "dedicated 1 gems",
            "dedicated 1 gold",
            "gave 1 wine, ",
        ] {
            assert!(!public.contains(leak), "round {n}: {leak:?} in\n{public}");
        }
        for (id, role) in &roles {
            let report =
                fs::read_to_string(dir.join(format!("rounds/{n:03}/private/{id}.txt"))).unwrap();
            let mine = title(role.as_str().unwrap());
            assert!(report.contains(mine), "{id} is not told their role");
            for t in ROLE_TITLES.iter().filter(|t| **t != mine) {
                assert!(!report.contains(t), "round {n}: {id}'s report names {t}");
            }
        }
    }
    let run = adjudicate(["replay".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn a_set_up_that_cannot_work_is_a_check_error_naming_the_key() {
    let text =
        fs::read_to_string(manifest_dir().join("games/final-ritual/example/game.toml")).unwrap();
    let cases = [
        (
            text.replace("max_rounds = 30", "max_rounds = 0"),
            "game.toml: options.max_rounds: must be at least 1",
        ),
        (
            text.replace("traitor = \"execution\"", "traitor = \"chaos\""),
            "game.toml: options: unknown variant `chaos`",
        ),
        (
            text.replace(
                "email = \"alice@example.org\"",
                "email = \"alice@example.org\"\nrole = \"traitor\"",
            ),
            "game.toml: players[1].role: every player needs `role` once one has it",
        ),
        (
            text.split("[[players]]\nid = \"dave\"")
                .next()
                .unwrap()
                .to_owned(),
            "game.toml: players: Final Ritual is for 4 to 6 players; game.toml has 3",
        ),
        (
            ["alice", "bob", "carol", "dave", "erin"]
                .iter()
                .zip([
                    "traitor",
                    "loyal-wine",
                    "traitor",
                    "loyal-gems",
                    "loyal-gold",
                ])
                .fold(text.clone(), |t, (id, role)| {
                    t.replace(
                        &format!("email = \"{id}@example.org\""),
                        &format!("email = \"{id}@example.org\"\nrole = \"{role}\""),
                    )
                }),
            "game.toml: players[2].role: traitor is dealt twice",
        ),
    ];
    for (broken, expected) in cases {
        assert_check_error(&broken, expected);
    }
}

#[test]
fn a_hand_edited_state_that_loses_a_card_is_refused_naming_the_key() {
    let example = manifest_dir().join("games/final-ritual/example");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(example.join("game.toml"), dir.join("game.toml")).unwrap();
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-01T09:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let state = fs::read_to_string(dir.join("state.toml")).unwrap();
    let edited = state.replacen("wine = 0", "wine = 1", 1);
    assert_ne!(edited, state);
    fs::write(dir.join("state.toml"), edited).unwrap();
    let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("state.toml") && run.stderr.contains("the game has 40 wine cards"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_readme_shows_real_output_of_the_sample_game() {
    let tmp = play();
    let dir = tmp.path();
    let readme = fs::read_to_string(manifest_dir().join("README.md")).unwrap();
    for file in ["rounds/003/public.txt", "rounds/001/private/bob.txt"] {
        let text = fs::read_to_string(dir.join(file)).unwrap();
        assert!(
            readme.contains(&format!("```\n{text}```")),
            "README.md does not show the current {file}:\n{text}"
        );
    }
}
