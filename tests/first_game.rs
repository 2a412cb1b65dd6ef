//! A host's first game and a player's first round: nothing to guess. Each game is made with
//! `adjudicate new` and played to its end by players who only copy the skeleton at the end of
//! their latest report (the welcome first) and send it back: no player may ever get a random
//! default for want of instructions.

use crate::support::{adjudicate, tick};
use std::fs;
use std::path::{Path, PathBuf};

/// The skeleton of a report: from "# Reply with this" up to the signature.
pub fn skeleton(report: &str) -> Option<String> {
    let start = report.find("# Reply with this")?;
    let end = report[start..]
        .find("\n-- \n")
        .map_or(report.len(), |e| start + e + 1);
    Some(report[start..end].to_owned())
}

/// The latest report of each player: the opening first, then each round in order.
pub fn latest_reports(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut rounds: Vec<PathBuf> = fs::read_dir(dir.join("rounds"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    rounds.sort();
    let mut latest = std::collections::BTreeMap::new();
    for folder in std::iter::once(dir.join("rounds/000/opening")).chain(rounds) {
        let Ok(entries) = fs::read_dir(folder.join("private")) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().replace(".txt", "");
            latest.insert(name, entry.path());
        }
    }
    latest.into_iter().collect()
}

/// What a player changes in their skeleton, as the skeleton's comments invite: in Room Swap the
/// room, in God Race how the orbs are spread over the ceremonies (kept as pre-filled, six rooms
/// alike tie for ever, and a race with every orb in one ceremony barely moves).
pub fn change_values(game: &str, skeleton: &str, turn: usize) -> String {
    let change = |line: &str| -> Option<String> {
        match game {
            "room-swap" if line.starts_with("room = ") => {
                let room = ["attic", "attic", "attic", "basement", "basement", "cellar"][turn % 6];
                Some(format!("room = \"{room}\""))
            }
            "god-race" if line.starts_with("ceremony1 = ") => {
                let orbs: Vec<&str> = line["ceremony1 = ".len()..]
                    .trim_matches(['[', ']'])
                    .split(", ")
                    .filter(|o| !o.is_empty())
                    .collect();
                let mut ceremonies = [vec![], vec![], vec![]];
                for (k, orb) in orbs.into_iter().enumerate() {
                    ceremonies[(k + turn) % 3].push(orb);
                }
                Some(format!(
                    "ceremony1 = [{}]\nceremony2 = [{}]\nceremony3 = [{}]",
                    ceremonies[0].join(", "),
                    ceremonies[1].join(", "),
                    ceremonies[2].join(", ")
                ))
            }
            "god-race" if line.starts_with("ceremony2 = ") || line.starts_with("ceremony3 = ") => {
                Some(String::new())
            }
            _ => None,
        }
    };
    skeleton
        .lines()
        .map(|l| change(l).unwrap_or_else(|| l.to_owned()))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn current_round(dir: &Path) -> Option<u32> {
    let state = fs::read_to_string(dir.join("state.toml")).ok()?;
    let table: toml::Table = toml::from_str(&state).unwrap();
    let over = table.get("finished").and_then(|v| v.as_bool()) == Some(true)
        || table.get("phase").and_then(|v| v.as_str()) == Some("over");
    (!over).then(|| table["round"].as_integer().unwrap() as u32)
}

#[test]
fn every_game_made_with_new_plays_to_its_end_from_the_skeletons_alone() {
    for game in crate::support::matches() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(game);
        let run = adjudicate(["new".as_ref(), game.as_ref(), dir.as_os_str()]);
        assert_eq!(run.code, 0, "{game}: {}", run.stderr);
        // Before the first deadline, forced: no version is ever late.
        let now = "2026-12-01T00:00:00Z";
        tick(&dir, now, &["-q"]);
        let mut rounds = 0;
        while let Some(round) = current_round(&dir) {
            assert!(rounds < 40, "{game}: still going after {rounds} rounds");
            let mut sent = 0;
            for (i, (player, report)) in latest_reports(&dir).into_iter().enumerate() {
                let text = fs::read_to_string(&report).unwrap();
                if let Some(skeleton) = skeleton(&text) {
                    let skeleton = change_values(game, &skeleton, i + round as usize);
                    let folder = dir.join(format!("rounds/{round:03}/submissions"));
                    fs::create_dir_all(&folder).unwrap();
                    fs::write(folder.join(format!("{player}.toml")), skeleton).unwrap();
                    sent += 1;
                }
            }
            assert!(
                sent > 0,
                "{game}: round {round}: nobody has a skeleton to send"
            );
            tick(&dir, now, &["--force", "-q"]);
            let result = fs::read_to_string(dir.join(format!("rounds/{round:03}/result.toml")))
                .unwrap_or_else(|_| panic!("{game}: round {round} was not resolved"));
            let table: toml::Table = toml::from_str(&result).unwrap();
            let defaults = table["public"]
                .get("defaults")
                .and_then(|d| d.as_array())
                .cloned()
                .unwrap_or_default();
            assert!(
                defaults.is_empty(),
                "{game}: round {round}: {defaults:?} got a random default although they sent their skeleton"
            );
            let receipts = fs::read_to_string(dir.join(format!("rounds/{round:03}/receipts.toml")))
                .unwrap_or_default();
            assert!(
                !receipts.contains("valid = false"),
                "{game}: round {round}: a skeleton was not valid:\n{receipts}"
            );
            rounds += 1;
        }
        assert!(rounds >= 2, "{game}: only {rounds} rounds");
        // The last report tells each player their outcome first, and asks for nothing more.
        for (player, report) in latest_reports(&dir) {
            let text = fs::read_to_string(&report).unwrap();
            let lead = text.split("\n\n").nth(1).unwrap_or_default().to_lowercase();
            assert!(
                lead.contains("is over") || lead.starts_with("you win"),
                "{game}: {player}'s last report leads with {lead:?}"
            );
            assert!(
                !text.contains("# Reply with this"),
                "{game}: {player} is asked for more:\n{text}"
            );
            assert!(
                !text.contains("(secret"),
                "{game}: {player}'s secret stays 'secret' at the end:\n{text}"
            );
        }
        // Everything a player reads fits a 72-column terminal or mail client.
        for entry in walkdir::WalkDir::new(dir.join("rounds"))
            .into_iter()
            .flatten()
        {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "txt") {
                let text = fs::read_to_string(path).unwrap();
                for line in text.lines() {
                    assert!(
                        line.chars().count() <= 72,
                        "{game}: {} has a line of {} columns:\n{line}",
                        path.display(),
                        line.chars().count()
                    );
                }
            }
        }
        let replay = adjudicate(["replay".as_ref(), dir.as_os_str()]);
        assert_eq!(replay.code, 0, "{game}: {}", replay.stdout);
    }
}
