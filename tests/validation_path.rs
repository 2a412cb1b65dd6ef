//! One validation path: `check FILE --player ID` and the tick give the same problems for every
//! file, in every game (random and broken files, through the binary), and a version the tick
//! finds not valid always lists at least one problem.

use crate::support::{adjudicate, tick};
use adjudicate::games::Game;
use adjudicate::games::{
    final_ritual::FinalRitual, god_race::GodRace, planar_control::PlanarControl,
    room_swap::RoomSwap,
};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use std::fs;
use std::path::Path;

const VALUES: &[&str] = &[
    "\"attic\"",
    "\"cellar\"",
    "\"Basement\"",
    "\"Bob\"",
    "\" carol \"",
    "[\"bob\", \"carol\"]",
    "[\"dave\", \"dave\"]",
    "3",
    "-1",
    "true",
    "{ player = \"dave\", room = \"cellar\" }",
    "\"white\"",
    "[\"white\", \"blue\"]",
    "[\"red\", \"red\", \"green\"]",
    "[]",
    "\"refuse\"",
    "[\"refuse\"]",
    "\"abstain\"",
    "[\"wine\", \"gems\", \"gold\"]",
    "[{ oracle = \"forgive\" }]",
    "\"earth\"",
    "\"\"",
];

const BROKEN: &[&str] = &[
    "= 1",
    "room = \"attic",
    "[respond",
    "peek = [\"bob\",",
    "x = 0x",
];

/// A random submission for a game with these keys: a few key lines, sometimes a broken one.
fn random_file(rng: &mut rand_chacha::ChaCha8Rng, keys: &[&str]) -> String {
    let mut text = String::new();
    for _ in 0..rng.random_range(0..6) {
        let key = if rng.random_bool(0.85) {
            *keys.choose(rng).unwrap()
        } else {
            *["rom", "tokn", "x"].choose(rng).unwrap()
        };
        if key == "token" {
            continue;
        }
        text.push_str(&format!("{key} = {}\n", VALUES.choose(rng).unwrap()));
    }
    if rng.random_bool(0.1) {
        text.push_str(BROKEN.choose(rng).unwrap());
        text.push('\n');
    }
    text
}

/// `file:12:3: message` as `check` prints it, in the receipts' form (`line 12: message`).
fn from_check(line: &str, file: &str) -> String {
    let rest = line.strip_prefix(file).unwrap().strip_prefix(':').unwrap();
    let mut parts = rest.splitn(3, ':');
    let first = parts.next().unwrap_or_default();
    match first.parse::<usize>() {
        Ok(n) => {
            let second = parts.next().unwrap_or_default();
            let message = match second.parse::<usize>() {
                Ok(_) => parts.next().unwrap_or_default(),
                Err(_) => second,
            };
            format!("line {n}: {}", message.trim_start())
        }
        Err(_) => rest.trim_start().to_owned(),
    }
}

fn latest_receipt(dir: &Path, round: u32, player: &str) -> toml::Table {
    let text = fs::read_to_string(dir.join(format!("rounds/{round:03}/receipts.toml"))).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    table["receipt"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|r| r["player"].as_str() == Some(player))
        .and_then(|r| r.as_table().cloned())
        .unwrap()
}

fn current_round(dir: &Path) -> u32 {
    let table: toml::Table =
        toml::from_str(&fs::read_to_string(dir.join("state.toml")).unwrap()).unwrap();
    table["round"].as_integer().unwrap() as u32
}

#[test]
fn check_and_the_tick_say_the_same_of_every_file() {
    let games: [(&str, &[&str]); 4] = [
        ("room-swap", RoomSwap::KEYS),
        ("god-race", GodRace::KEYS),
        ("planar-control", PlanarControl::KEYS),
        ("final-ritual", FinalRitual::KEYS),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    for (game, keys) in games {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(game);
        assert_eq!(
            adjudicate(["new".as_ref(), game.as_ref(), dir.as_os_str()]).code,
            0
        );
        tick(&dir, "2026-12-01T00:00:00Z", &["-q"]);
        let round = current_round(&dir);
        let (mut with_problems, mut valid) = (0, 0);
        let welcome = [
            "rounds/000/opening/private/bob.txt",
            "rounds/000/private/bob.txt",
        ]
        .iter()
        .find_map(|p| fs::read_to_string(dir.join(p)).ok())
        .unwrap();
        let start = welcome.find("# Reply with this").unwrap();
        let end = welcome.rfind("\n-- \n").unwrap();
        let skeleton = welcome[start..end + 1].to_owned();
        for i in 0..40 {
            // a comment keeps every version distinct, so the tick receives each one
            // a third of the files start from bob's own skeleton, so that valid ones occur too
            let base = if i % 3 == 0 {
                skeleton.clone()
            } else {
                String::new()
            };
            let text = format!("{base}{}# version {i}\n", random_file(&mut rng, keys));
            let file = tmp.path().join("mine.toml");
            fs::write(&file, &text).unwrap();
            let shown = file.display().to_string();
            let check = adjudicate([
                "check".as_ref(),
                dir.as_os_str(),
                file.as_os_str(),
                "--player".as_ref(),
                "bob".as_ref(),
            ]);
            assert!([0, 65].contains(&check.code), "{game}: {}", check.stderr);
            let from_check: Vec<String> = check
                .stdout
                .lines()
                .filter(|l| l.starts_with(&shown))
                .map(|l| from_check(l, &shown))
                .collect();
            // the tick receives the same bytes as bob's next version, against the same state
            let folder = dir.join(format!("rounds/{round:03}/submissions"));
            fs::create_dir_all(&folder).unwrap();
            fs::write(folder.join("bob.toml"), &text).unwrap();
            tick(&dir, "2026-12-01T00:00:00Z", &["-q"]);
            let receipt = latest_receipt(&dir, round, "bob");
            let from_tick: Vec<String> = receipt["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(
                from_check, from_tick,
                "{game}: check and tick disagree on\n{text}"
            );
            if receipt["valid"].as_bool() == Some(false) {
                assert!(
                    !from_tick.is_empty(),
                    "{game}: not valid, and no problem said why:\n{text}"
                );
            } else {
                valid += 1;
            }
            with_problems += usize::from(!from_tick.is_empty());
        }
        // the files were varied enough to say something
        assert!(
            with_problems >= 5 && valid >= 1,
            "{game}: {with_problems} with problems, {valid} valid"
        );
    }
}
