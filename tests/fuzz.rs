//! Fuzzing on stable (issue: hardening): proptest mutates a corpus of real inputs (the sample
//! games' game.toml and state, the players' submissions of the sample scripts, every mail
//! fixture in `tests/mail/`, the seeds in `tests/fuzz/`) by flipping, inserting, deleting and
//! truncating bytes, and feeds each mutant to the layer that reads it. Nothing may panic; a
//! submission's redacted archive parses exactly when the original does; a mail yields a
//! submission or a reason, never both.
//!
//! `make test` runs `FUZZ_CASES` cases per target (default 64, seconds); `make fuzz` runs 20,000
//! (`FUZZ_CASES=200000 make fuzz` for longer). A failure is shrunk to a minimal input and kept in
//! `tests/fuzz.proptest-regressions`, which is committed and replayed first on every run.

use adjudicate::config::GameConfig;
use adjudicate::games::{Game, Setup};
use adjudicate::player_id::PlayerId;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use std::fs;
use std::path::{Path, PathBuf};

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/fuzz.proptest-regressions",
        ))),
        ..Config::default()
    })
}

fn files(dir: &Path, ext: &str) -> Vec<Vec<u8>> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.sort();
    found
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| fs::read(p).unwrap())
        .collect()
}

fn root() -> PathBuf {
    crate::support::manifest_dir()
}

/// A seed of the corpus, mutated: (seed index, edits of (position, kind, byte), cut).
fn mutant(corpus: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let n = corpus.len();
    (
        0..n,
        proptest::collection::vec((any::<u16>(), 0u8..4, any::<u8>()), 0..8),
        proptest::option::of(any::<u16>()),
    )
        .prop_map(move |(i, edits, cut)| {
            let mut bytes = corpus[i].clone();
            for (at, kind, byte) in edits {
                let at = if bytes.is_empty() {
                    0
                } else {
                    usize::from(at) % bytes.len()
                };
                match kind {
                    0 if !bytes.is_empty() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    2 if !bytes.is_empty() => {
                        bytes.remove(at);
                    }
                    // a character players and tools really produce
                    _ => {
                        let pick = [
                            "\"", "\n", "“", "\r\n", "=", "[", "]", "\\u00", "-- \n", ">",
                            "\u{feff}", "```\n", "\0",
                        ];
                        let s = pick[usize::from(byte) % pick.len()].as_bytes();
                        bytes.splice(at..at, s.iter().copied());
                    }
                }
            }
            if let Some(c) = cut.filter(|_| !bytes.is_empty()) {
                bytes.truncate(usize::from(c) % bytes.len());
            }
            bytes
        })
}

/// A game set up from its sample game.toml, and one of its players.
fn sample<G: Game>(dir: &str) -> (G::State, PlayerId) {
    let path = root().join("games").join(dir).join("example/game.toml");
    let config = GameConfig::parse(&path, &fs::read_to_string(&path).unwrap()).unwrap();
    let state = G::setup(&Setup {
        players: adjudicate::config::seats(&config.players),
        options: &config.options,
        seed: config.seed,
    })
    .unwrap();
    (state, config.players[0].id.clone())
}

/// Submissions: every game's own validation, on mutants of its sample players' files.
fn fuzz_submissions<G: Game>(dir: &str) {
    let (state, player) = sample::<G>(dir);
    let mut corpus: Vec<Vec<u8>> = walkdir::WalkDir::new(root().join("games").join(dir))
        .into_iter()
        .flatten()
        .filter(|e| {
            e.path().extension().is_some_and(|x| x == "toml")
                && e.path()
                    .components()
                    .any(|c| c.as_os_str() == "submissions")
        })
        .map(|e| fs::read(e.path()).unwrap())
        .collect();
    corpus.extend(files(&root().join("tests/fuzz"), "toml"));
    let redactor = adjudicate::redact::Redactor::new(["opal-7f3k-token"]);
    runner()
        .run(&mutant(corpus), |bytes| {
            let screened = adjudicate::submission::screen(&bytes, None, &redactor);
            let mut state = state.clone();
            if let Ok(doc) = &screened.doc {
                let outcome = G::receive(&mut state, &player, doc);
                prop_assert!(
                    outcome.valid || !outcome.problems.is_empty() || !G::plays(&state, &player)
                );
            }
            if let Ok(text) = std::str::from_utf8(&bytes) {
                let redacted = redactor.redact_toml(text);
                prop_assert_eq!(
                    toml::de::DeTable::parse(text).is_ok(),
                    toml::de::DeTable::parse(&redacted).is_ok()
                );
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn fuzz_submissions_of_every_game() {
    use adjudicate::games::{final_ritual, god_race, planar_control, room_swap};
    fuzz_submissions::<room_swap::RoomSwap>("room-swap");
    fuzz_submissions::<god_race::GodRace>("god-race");
    fuzz_submissions::<planar_control::PlanarControl>("planar-control");
    fuzz_submissions::<final_ritual::FinalRitual>("final-ritual");
}

#[test]
fn fuzz_mail_bodies_and_whole_messages() {
    let mut corpus = files(&root().join("tests/mail"), "eml");
    corpus.extend(files(&root().join("tests/fuzz"), "eml"));
    let keys = ["room", "fallback", "peek", "block", "give_token", "token"];
    runner()
        .run(&mutant(corpus), |bytes| {
            if let Ok(incoming) =
                adjudicate::ingest::message::from_mail(&bytes, None, 1_900_000_000)
            {
                let found = incoming.submission(&keys, Some("room = \"attic\"\n"));
                // a submission has a line map of its own length, or none (an attachment)
                if let Ok(text) = &found.toml {
                    prop_assert!(
                        found.lines.is_empty() || found.lines.len() == text.lines().count()
                    );
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let _ = adjudicate::ingest::flowed::decode(&text, true);
            let _ = adjudicate::ingest::extract::extract(&text, &keys, None);
            Ok(())
        })
        .unwrap();
}

#[test]
fn fuzz_host_files() {
    let mut corpus = Vec::new();
    for game in crate::support::matches() {
        corpus.push(fs::read(root().join("games").join(game).join("example/game.toml")).unwrap());
    }
    runner()
        .run(&mutant(corpus), |bytes| {
            if let Ok(text) = std::str::from_utf8(&bytes)
                && let Ok(config) = GameConfig::parse(Path::new("game.toml"), text)
            {
                // a game.toml that reads must deal a game or say why, never panic
                let setup = Setup {
                    players: adjudicate::config::seats(&config.players),
                    options: &config.options,
                    seed: config.seed,
                };
                let _ = adjudicate::games::dispatch(config.game, Deal(&setup));
            }
            Ok(())
        })
        .unwrap();
}

/// Sets a game up (any game id) and throws the state away.
struct Deal<'a, 'b>(&'a Setup<'b>);

impl adjudicate::games::WithGame for Deal<'_, '_> {
    type Output = adjudicate::error::Result<()>;
    fn run<G: Game>(self) -> Self::Output {
        if let Ok(state) = G::setup(self.0) {
            let text = toml::to_string(&state).unwrap_or_default();
            let _ = toml::from_str::<G::State>(&text).map(|s| G::check_state(&s));
        }
        Ok(())
    }
}
