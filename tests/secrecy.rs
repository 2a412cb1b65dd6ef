//! Hidden information stays hidden, checked over many random Room Swap games played in-process
//! through the real tick on real directories: no public text names a room, a scorer before the end,
//! a Peek answer or a blocker; no player's report or mail holds another player's private fact.

use crate::support::{example_dir, snapshot, submit};
use adjudicate::context::GameContext;
use adjudicate::game_dir::GameDir;
use adjudicate::games::room_swap::RoomSwap;
use adjudicate::tick::{TickOptions, tick};
use rand::RngExt;
use rand::seq::IndexedRandom;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

const PLAYERS: [(&str, &str); 6] = [
    ("alice", "Alice"),
    ("bob", "Bob"),
    ("carol", "Carol"),
    ("dave", "Dave"),
    ("erin", "Erin"),
    ("frank", "Frank"),
];
const ROOMS: [&str; 3] = ["attic", "basement", "cellar"];

fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Undoes quoted-printable (soft breaks and =XX) in a whole .eml.
fn decode_qp(raw: &str) -> String {
    let joined = raw.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn ticker(dir: &Path, now: jiff::Timestamp) {
    let ctx = GameContext::load(GameDir::open(dir).unwrap()).unwrap();
    let opts = TickOptions {
        now,
        force: false,
        dry_run: false,
        no_send: false,
    };
    tick::<RoomSwap>(&ctx, &opts).unwrap();
}

/// Plays one random game to its end (or 12 rounds); returns the directory's state.
fn play_random_game(dir: &Path, seed: u64) {
    fs::copy(example_dir().join("game.toml"), dir.join("game.toml")).unwrap();
    let text = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .replace("seed = 20261130", &format!("seed = {seed}"));
    let text = text.replace("garnets = 0", "garnets = 9"); // give Frank items too
    fs::write(dir.join("game.toml"), text).unwrap();
    let mut rng = adjudicate::rng::stream(seed, 0, "secrecy-test");
    let first: jiff::Timestamp = "2026-12-02T15:00:00Z".parse().unwrap();
    for index in 0..12i64 {
        let deadline = first + jiff::SignedDuration::from_hours(24 * index);
        ticker(dir, deadline - jiff::SignedDuration::from_hours(6)); // sets up / shows the round
        let state: toml::Table =
            toml::from_str(&fs::read_to_string(dir.join("state.toml")).unwrap()).unwrap();
        if state["phase"].as_str() == Some("over") {
            return;
        }
        let round = state["round"].as_integer().unwrap() as u32;
        for wave in [5, 3] {
            for (id, _) in PLAYERS {
                if rng.random_bool(0.2) {
                    continue; // missing this wave
                }
                let other = PLAYERS.choose(&mut rng).unwrap().0;
                let mut text = format!("room = \"{}\"\n", ROOMS.choose(&mut rng).unwrap());
                if rng.random_bool(0.3) {
                    text.push_str(&format!(
                        "fallback = \"{}\"\n",
                        ROOMS.choose(&mut rng).unwrap()
                    ));
                }
                match rng.random_range(0..10) {
                    0..=2 => text.push_str(&format!("peek = [\"{other}\"]\n")),
                    3 => text.push_str(&format!(
                        "block = {{ player = \"{other}\", room = \"{}\" }}\n",
                        ROOMS.choose(&mut rng).unwrap()
                    )),
                    _ => {}
                }
                if state["phase"].as_str() == Some("token") {
                    text = format!("give_token = \"{other}\"\n");
                }
                submit(dir, round, id, &text);
            }
            ticker(dir, deadline - jiff::SignedDuration::from_hours(wave));
        }
        ticker(dir, deadline);
    }
}

/// Everything one round's archive says, read back from disk.
struct Round {
    public: toml::Table,
    private: BTreeMap<String, toml::Table>,
    public_text: String,
    private_text: BTreeMap<String, String>,
}

fn rounds(dir: &Path) -> Vec<Round> {
    let mut out = Vec::new();
    for n in 1.. {
        let folder = dir.join(format!("rounds/{n:03}"));
        let Ok(result) = fs::read_to_string(folder.join("result.toml")) else {
            break;
        };
        let result: toml::Table = toml::from_str(&result).unwrap();
        let private: BTreeMap<String, toml::Table> = result["private"]
            .as_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_table().unwrap().clone()))
            .collect();
        out.push(Round {
            public: result["public"].as_table().unwrap().clone(),
            private_text: PLAYERS
                .iter()
                .map(|(id, _)| {
                    (
                        id.to_string(),
                        fs::read_to_string(folder.join(format!("private/{id}.txt"))).unwrap(),
                    )
                })
                .collect(),
            public_text: fs::read_to_string(folder.join("public.txt")).unwrap(),
            private,
        });
    }
    out
}

fn notes(round: &Round, player: &str) -> Vec<String> {
    round.private[player]
        .get("notes")
        .and_then(|n| n.as_array())
        .map(|a| a.iter().map(|v| normalize(v.as_str().unwrap())).collect())
        .unwrap_or_default()
}

fn check_game(dir: &Path, seed: u64) -> Vec<String> {
    let mut leaks = Vec::new();
    let rounds = rounds(dir);
    assert!(!rounds.is_empty(), "seed {seed}: no round resolved");
    // (file name, To:, normalized text) of every mail sent
    let mails: Vec<(String, String, String)> = snapshot(&dir.join("sent"))
        .into_iter()
        .map(|(name, bytes)| {
            let text = decode_qp(&String::from_utf8(bytes).unwrap());
            let to = text
                .lines()
                .find_map(|l| l.strip_prefix("To: "))
                .unwrap()
                .to_owned();
            (name.display().to_string(), to, normalize(&text))
        })
        .collect();
    for (i, round) in rounds.iter().enumerate() {
        let label = format!("seed {seed} round {}", i + 1);
        // (the sample game's title, "Attic Basement Cellar", names every room: leave it out)
        let public = round
            .public_text
            .replace("Attic Basement Cellar", "")
            .to_lowercase();
        for room in ROOMS {
            if public.contains(room) {
                leaks.push(format!("{label}: the announcement names the {room}"));
            }
        }
        let is_final = round.public.contains_key("final")
            || round.public.contains_key("token_gift")
            || round.public.contains_key("tiebreak");
        if !is_final {
            let defaults: Vec<&str> = round.public["defaults"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            for (id, name) in PLAYERS {
                if !defaults.contains(&id) && round.public_text.contains(name) {
                    leaks.push(format!(
                        "{label}: the announcement names {name} before the end"
                    ));
                }
                if round.private[id].contains_key("points") {
                    leaks.push(format!(
                        "{label}: {id}'s private result holds points before the end"
                    ));
                }
            }
        }
        for (owner, _) in PLAYERS {
            for note in notes(round, owner) {
                for (reader, name) in PLAYERS {
                    if notes(round, reader).contains(&note) {
                        continue; // two players who peeked the same target learn the same fact
                    }
                    if reader != owner && normalize(&round.private_text[reader]).contains(&note) {
                        leaks.push(format!(
                            "{label}: {reader}'s report holds {owner}'s fact {note:?}"
                        ));
                    }
                    let address = format!("{reader}@example.org");
                    let this_round = format!("r{:03}-", i + 1);
                    for (file, to, body) in &mails {
                        if reader != owner
                            && file.starts_with(&this_round)
                            && to.contains(&address)
                            && body.contains(&note)
                        {
                            leaks.push(format!(
                                "{label}: a mail to {name} holds {owner}'s fact {note:?}"
                            ));
                        }
                    }
                }
                if normalize(&round.public_text).contains(&note) {
                    leaks.push(format!(
                        "{label}: the announcement holds {owner}'s fact {note:?}"
                    ));
                }
                // A blocked player never learns who blocked them.
                if let Some(rest) = note.strip_prefix("Your Block forbids ") {
                    let target = rest.split(' ').next().unwrap();
                    let owner_name = PLAYERS.iter().find(|(id, _)| *id == owner).unwrap().1;
                    for their in notes(round, target)
                        .iter()
                        .filter(|n| n.starts_with("A Block forbids you"))
                    {
                        if their.contains(owner) || their.contains(owner_name) {
                            leaks.push(format!("{label}: {target} is told the blocker: {their:?}"));
                        }
                    }
                }
            }
        }
    }
    leaks
}

#[test]
fn no_private_fact_reaches_a_public_text_or_another_player_over_many_random_games() {
    let mut leaks = Vec::new();
    let mut blocks = 0;
    let mut peeks = 0;
    for seed in 1..=25u64 {
        let tmp = tempfile::tempdir().unwrap();
        play_random_game(tmp.path(), seed);
        for round in rounds(tmp.path()) {
            blocks += round
                .public
                .get("blocks")
                .and_then(|v| v.as_integer())
                .unwrap_or(0);
            peeks += round
                .public
                .get("peeks")
                .and_then(|v| v.as_integer())
                .unwrap_or(0);
        }
        leaks.extend(check_game(tmp.path(), seed));
    }
    // the games did exercise the items whose secrecy is checked
    assert!(blocks > 10 && peeks > 20, "blocks {blocks}, peeks {peeks}");
    assert!(
        leaks.is_empty(),
        "{} leak(s):\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

#[test]
fn the_leak_check_finds_a_planted_leak() {
    let tmp = tempfile::tempdir().unwrap();
    play_random_game(tmp.path(), 3);
    let round = rounds(tmp.path()).into_iter().position(|r| {
        r.public
            .get("peeks")
            .and_then(|v| v.as_integer())
            .unwrap_or(0)
            > 0
    });
    let round = round.expect("seed 3 has a Peek") + 1;
    // Plant a Peek answer into the public announcement, as a careless template would.
    let r = &rounds(tmp.path())[round - 1];
    let (owner, note) = PLAYERS
        .iter()
        .find_map(|(id, _)| {
            notes(r, id)
                .into_iter()
                .find(|n| n.starts_with("Peek on"))
                .map(|n| (*id, n))
        })
        .unwrap();
    let path = tmp.path().join(format!("rounds/{round:03}/public.txt"));
    fs::write(
        &path,
        format!("{}\n{note}\n", fs::read_to_string(&path).unwrap()),
    )
    .unwrap();
    let leaks = check_game(tmp.path(), 3);
    assert!(
        leaks
            .iter()
            .any(|l| l.contains("the announcement holds") && l.contains(owner)),
        "{leaks:?}"
    );
}
