//! Rule cases as data (`games/<id>/cases/*.toml`), run by one runner that names every failing
//! case. A case file holds one or more `[[case]]`:
//!
//! ```toml
//! [[case]]
//! name = "a Block moves the target to their fallback"
//! ruling = "spec room-swap.md, Instant actions: Block"
//! players = ["a", "b", "c", "d", "e", "f"]      # optional; these six by default
//! seed = 7                                       # optional
//! [case.options]                                 # optional: game.toml [options]
//! [case.extra]                                   # optional: players' game.toml set-up keys
//! a = { finalist = true }
//! [case.start]                                   # optional: merged into the set-up state
//! players.a.garnets = 1
//! [case.replace]                                 # optional: top-level state keys replaced whole
//! gods = { white = 9, red = 13 }
//! [[case.step]]                                  # a version received from a player…
//! player = "c"
//! submit = 'room = "attic"'
//! valid = true                                   # optional checks on the outcome
//! problems = ["forbidden"]                       # each a substring of one problem ([] = none)
//! answers = ["initial room"]
//! notices = { d = "forbids you the Basement" }
//! [[case.step]]                                  # …or the round resolved
//! resolve = true
//! public = { scorers = 4 }                       # subset of result.toml [public]
//! private.d = { room = "attic" }                 # subset of [private.d]
//! garnets = { c = -5 }                           # subset of [garnets]
//! state = { players.c.block_used = true }        # subset of the new state
//! public_events = [{ kind = "gave", from = "b" }] # event streams (Final Ritual): these appear
//! private_events.b = [{ kind = "gave" }]          #   in this order, each a subset of an event
//! absent_events = [{ kind = "executed" }]         # no public event matches any of these
//! [[case.step]]                                  # …or a player leaves (`adjudicate withdraw`):
//! withdraw = "c"                                 #   the game's ruling, applied as the tick
//! refused = "nobody else"                        #   does before the round resolves; optional:
//!                                                #   the ruling refuses it (substring of why)
//! ```

use crate::support::{manifest_dir, player, subset_mismatch};
use adjudicate::config::PlayerConfig;
use adjudicate::doc::Doc;
use adjudicate::games::{Detail, Game, GameId, Outcome, Setup};
use adjudicate::games::{WithGame, dispatch};
use adjudicate::player_id::PlayerId;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    case: Vec<Case>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    ruling: String,
    #[serde(default = "six_players")]
    players: Vec<String>,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default)]
    options: toml::Table,
    /// Each player's game.toml set-up keys (`a = { finalist = true }`).
    #[serde(default)]
    extra: toml::Table,
    #[serde(default)]
    start: toml::Table,
    /// Top-level state keys replaced whole (e.g. `gods`, when a god has finished).
    #[serde(default)]
    replace: toml::Table,
    step: Vec<Step>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Step {
    player: Option<String>,
    submit: Option<String>,
    valid: Option<bool>,
    problems: Option<Vec<String>>,
    answers: Option<Vec<String>>,
    /// Recipient -> substring of the notice; `{}` means no notice at all.
    notices: Option<toml::Table>,
    #[serde(default)]
    resolve: bool,
    /// A player who leaves the game (`Game::withdraw`), and, if the ruling refuses, why.
    withdraw: Option<String>,
    refused: Option<String>,
    public: Option<toml::Table>,
    #[serde(default)]
    private: toml::Table,
    garnets: Option<toml::Table>,
    state: Option<toml::Table>,
    /// `[public] turns[].events[]` holds these, in order (a subsequence of subsets).
    #[serde(default)]
    public_events: Vec<toml::Value>,
    /// `[private.<id>] events[].event` holds these, in order.
    #[serde(default)]
    private_events: toml::Table,
    /// No `[public]` event matches any of these.
    #[serde(default)]
    absent_events: Vec<toml::Value>,
}

fn six_players() -> Vec<String> {
    ["a", "b", "c", "d", "e", "f"].map(String::from).to_vec()
}

fn default_seed() -> u64 {
    20261130
}

struct RunCase<'a> {
    case: &'a Case,
}

impl WithGame for RunCase<'_> {
    type Output = adjudicate::error::Result<Vec<String>>;

    fn run<G: Game>(self) -> Self::Output {
        Ok(run_case::<G>(self.case))
    }
}

/// Runs one case; returns what went wrong (empty: the case passes).
fn run_case<G: Game>(case: &Case) -> Vec<String> {
    let players: Vec<PlayerConfig> = case
        .players
        .iter()
        .map(|id| {
            let mut p = player(id, 10);
            if let Some(extra) = case.extra.get(id).and_then(|e| e.as_table()) {
                p.extra = extra.clone().into();
            }
            p
        })
        .collect();
    let setup = Setup {
        players: adjudicate::config::seats(&players),
        options: &case.options,
        seed: case.seed,
    };
    let mut state = match G::setup(&setup) {
        Ok(s) => s,
        Err(e) => return vec![format!("setup failed: {}: {}", e.key, e.message)],
    };
    if !case.start.is_empty() || !case.replace.is_empty() {
        let mut tree = toml::Table::try_from(&state).expect("state serializes");
        merge(&mut tree, &case.start);
        tree.extend(case.replace.clone());
        state = match tree.try_into() {
            Ok(s) => s,
            Err(e) => return vec![format!("[start] does not make a valid state: {e}")],
        };
    }
    let mut failures = Vec::new();
    for (i, step) in case.step.iter().enumerate() {
        let at = format!("step {}", i + 1);
        if step.resolve {
            let resolution = G::resolve(&state, case.seed);
            let result = toml::Table::try_from(&resolution.result).expect("results serialize");
            let next = toml::Table::try_from(&resolution.state).expect("state serializes");
            let checks = [
                ("public", step.public.as_ref(), result.get("public")),
                ("garnets", step.garnets.as_ref(), result.get("garnets")),
            ];
            for (what, expected, actual) in checks {
                if let Some(expected) = expected {
                    let actual = actual
                        .cloned()
                        .unwrap_or(toml::Value::Table(Default::default()));
                    if let Some(m) =
                        subset_mismatch(&toml::Value::Table(expected.clone()), &actual, what)
                    {
                        failures.push(format!("{at}: {m}"));
                    }
                }
            }
            for (player, expected) in &case_private(step) {
                let actual = result
                    .get("private")
                    .and_then(|p| p.get(player))
                    .cloned()
                    .unwrap_or(toml::Value::Table(Default::default()));
                if let Some(m) = subset_mismatch(expected, &actual, &format!("private.{player}")) {
                    failures.push(format!("{at}: {m}"));
                }
            }
            failures.extend(
                event_failures(step, &result)
                    .into_iter()
                    .map(|f| format!("{at}: {f}")),
            );
            if let Some(expected) = &step.state
                && let Some(m) = subset_mismatch(
                    &toml::Value::Table(expected.clone()),
                    &toml::Value::Table(next),
                    "state",
                )
            {
                failures.push(format!("{at}: {m}"));
            }
            state = resolution.state;
            continue;
        }
        if let Some(who) = &step.withdraw {
            let id = PlayerId::parse(who).expect("step player ids are valid");
            match (G::withdraw(&mut state, &id), &step.refused) {
                (Ok(()), None) => {}
                (Err(why), Some(expected)) if why.contains(expected.as_str()) => {}
                (got, expected) => failures.push(format!(
                    "{at}: withdraw {who}: expected {}, got {got:?}",
                    expected
                        .as_deref()
                        .map_or("it to be accepted".into(), |e| format!(
                            "a refusal saying {e:?}"
                        ))
                )),
            }
            continue;
        }
        let (Some(player), Some(submit)) = (&step.player, &step.submit) else {
            failures.push(format!(
                "{at}: a step needs `resolve = true`, `withdraw`, or `player` and `submit`"
            ));
            break;
        };
        let player = PlayerId::parse(player).expect("step player ids are valid");
        let outcome = match Doc::parse(submit) {
            Ok(doc) => {
                let mut quiet = state.clone();
                let said = G::receive(&mut state, &player, &doc);
                let unsaid = G::receive_with(&mut quiet, &player, &doc, Detail::State);
                if let Some(differs) = same_but_the_words(&said, &unsaid, &state, &quiet) {
                    failures.push(format!("{at}: received for the simulator, {differs}"));
                }
                said
            }
            Err(problem) => adjudicate::games::Outcome::refused(problem),
        };
        let problems: Vec<String> = outcome.problems.iter().map(|p| p.short()).collect();
        if let Some(valid) = step.valid
            && valid != outcome.valid
        {
            failures.push(format!(
                "{at}: valid = {}, expected {valid} (problems: {problems:?})",
                outcome.valid
            ));
        }
        let lists = [
            ("problems", &step.problems, &problems),
            ("answers", &step.answers, &outcome.answers),
        ];
        for (what, expected, actual) in lists {
            match expected {
                Some(e) if e.is_empty() && !actual.is_empty() => {
                    failures.push(format!("{at}: expected no {what}, got {actual:?}"))
                }
                Some(e) => {
                    for want in e {
                        if !actual.iter().any(|a| a.contains(want.as_str())) {
                            failures
                                .push(format!("{at}: no {what} contains {want:?}; got {actual:?}"));
                        }
                    }
                }
                None => {}
            }
        }
        if let Some(notices) = &step.notices {
            for (to, want) in notices {
                let want = want.as_str().unwrap_or_default();
                if !outcome
                    .notices
                    .iter()
                    .any(|n| n.to.as_str() == to && n.text.contains(want))
                {
                    failures.push(format!(
                        "{at}: no notice to {to} contains {want:?}; got {:?}",
                        outcome.notices
                    ));
                }
            }
            if outcome.notices.len() != notices.len() {
                failures.push(format!(
                    "{at}: {} notice(s), expected {}: {:?}",
                    outcome.notices.len(),
                    notices.len(),
                    outcome.notices
                ));
            }
        }
    }
    failures
}

/// The event checks of a step against a result: each expected event matched, in order, by a
/// later event of the stream; no public event like an absent one.
fn event_failures(step: &Step, result: &toml::Table) -> Vec<String> {
    let list = |v: Option<&toml::Value>| -> Vec<toml::Value> {
        v.and_then(toml::Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let public: Vec<toml::Value> = list(result.get("public").and_then(|p| p.get("turns")))
        .iter()
        .flat_map(|turn| list(turn.get("events")))
        .collect();
    let mut checks = vec![(
        "public".to_owned(),
        public.clone(),
        step.public_events.clone(),
    )];
    for (player, expected) in &step.private_events {
        let seen = list(
            result
                .get("private")
                .and_then(|p| p.get(player))
                .and_then(|p| p.get("events")),
        );
        let events = seen
            .iter()
            .filter_map(|s| s.get("event").cloned())
            .collect();
        checks.push((format!("private.{player}"), events, list(Some(expected))));
    }
    let mut failures = Vec::new();
    for (what, stream, expected) in checks {
        let mut at = 0;
        for want in &expected {
            match stream[at..]
                .iter()
                .position(|e| subset_mismatch(want, e, "event").is_none())
            {
                Some(i) => at += i + 1,
                None => failures.push(format!(
                    "{what} events: none like {want} (in order) in\n    {}",
                    stream
                        .iter()
                        .map(toml::Value::to_string)
                        .collect::<Vec<_>>()
                        .join("\n    ")
                )),
            }
        }
    }
    for absent in &step.absent_events {
        if let Some(e) = public
            .iter()
            .find(|e| subset_mismatch(absent, e, "event").is_none())
        {
            failures.push(format!("public event {e} matches the absent {absent}"));
        }
    }
    failures
}

fn case_private(step: &Step) -> Vec<(String, toml::Value)> {
    step.private
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Deep-merges `over` into `base` (tables merge, everything else replaces).
fn merge(base: &mut toml::Table, over: &toml::Table) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

fn case_files(game: &str) -> Vec<PathBuf> {
    let folder = manifest_dir().join("games").join(game).join("cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

fn run_game_cases(game: GameId) -> usize {
    let files = case_files(game.name());
    assert!(!files.is_empty(), "no cases for {}", game.name());
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases: CaseFile =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for case in &cases.case {
            count += 1;
            assert!(
                !case.ruling.trim().is_empty(),
                "{}: {} names no ruling",
                file.display(),
                case.name
            );
            let result = dispatch(game, RunCase { case }).expect("game has an engine");
            for f in result {
                failures.push(format!("{} / {}: {f}", short(file), case.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing check(s) in {count} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    count
}

fn short(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Every game of the registry has rule cases (`games/<name>/cases/`) and passes them; each
/// game's own floor is below.
#[test]
fn every_game_of_the_registry_has_rule_cases() {
    for &game in GameId::ALL {
        let count = run_game_cases(game);
        assert!(count >= 3, "{}: only {count} rule cases", game.name());
    }
}

#[test]
fn final_ritual_rule_cases() {
    let count = run_game_cases(GameId::FinalRitual);
    assert!(count >= 40, "only {count} Final Ritual cases");
}

#[test]
fn god_race_rule_cases() {
    let count = run_game_cases(GameId::GodRace);
    assert!(count >= 40, "only {count} God Race cases");
}

#[test]
fn planar_control_rule_cases() {
    let count = run_game_cases(GameId::PlanarControl);
    assert!(count >= 12, "only {count} Planar Control cases");
}

#[test]
fn room_swap_rule_cases() {
    let count = run_game_cases(GameId::RoomSwap);
    assert!(count >= 40, "only {count} Room Swap cases");
}

#[test]
fn death_match_pick_rule_cases() {
    let count = run_game_cases(GameId::DeathMatchPick);
    assert!(count >= 4, "only {count} Death Match pick cases");
}

#[test]
fn meadow_assignment_rule_cases() {
    let count = run_game_cases(GameId::MeadowAssignment);
    assert!(count >= 3, "only {count} meadow assignment cases");
}

#[test]
fn tribal_council_rule_cases() {
    let count = run_game_cases(GameId::TribalCouncil);
    assert!(count >= 20, "only {count} Tribal Council cases");
}

/// What differs between a version received with its words (`said`, the tick's) and without
/// them (`unsaid`, the simulator's), besides the words themselves: nothing, or the first
/// difference found.
fn same_but_the_words<S: PartialEq>(
    said: &Outcome,
    unsaid: &Outcome,
    state: &S,
    quiet: &S,
) -> Option<&'static str> {
    if !unsaid.understood.is_empty() {
        Some("the words of what was understood were built")
    } else if unsaid.if_not_fixed.is_some() {
        Some("the words of what the deadline does were built")
    } else if said.valid != unsaid.valid || said.problems != unsaid.problems {
        Some("validity or problems differ")
    } else if said.answers != unsaid.answers || said.notices != unsaid.notices {
        Some("answers or notices differ")
    } else if state != quiet {
        Some("the state differs")
    } else {
        None
    }
}
