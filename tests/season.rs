//! Seasons through the binary: a cast across matches, its garnets and Tokens of Life derived from
//! each match's archive (checked here against sums computed independently from result.toml),
//! events between matches, and what a host can get wrong (a hand-edited match, an event for
//! somebody unknown or eliminated, a game that does not fit the living cast, a killed
//! `season match`).

use crate::support::{adjudicate, manifest_dir, snapshot};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CAST: [(&str, i64); 7] = [
    ("alice", 10),
    ("bob", 12),
    ("carol", 8),
    ("dave", 10),
    ("erin", 11),
    ("frank", 9),
    ("grace", 10),
];

fn run_ok(args: &[&str]) -> String {
    let run = adjudicate(args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run.stdout
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A new season of seven in `root/s1`.
pub fn new_season(root: &Path) -> PathBuf {
    let cast = root.join("cast.toml");
    let text: String = CAST
        .iter()
        .map(|(id, g)| {
            format!("[[players]]\nid = \"{id}\"\nname = \"{}\"\nemail = \"{id}@example.org\"\ngarnets = {g}\n\n", id.to_uppercase())
        })
        .collect();
    fs::write(&cast, text).unwrap();
    let season = root.join("s1");
    run_ok(&[
        "season",
        "new",
        s(&season),
        "--players",
        s(&cast),
        "--title",
        "Season One",
        "--seed",
        "11",
    ]);
    season
}

/// Gives a match a schedule (the host's edit after `season match`) and plays it to its end,
/// `scripts/bot.py` answering for every player before each deadline.
fn play_to_the_end(game_dir: &Path) {
    give_schedule(game_dir);
    for day in 3..=28 {
        bots_answer(game_dir);
        run_ok(&[
            "round",
            s(game_dir),
            "--now",
            &format!("2026-12-{day:02}T15:00:00Z"),
            "-q",
        ]);
        if is_over(game_dir) {
            return;
        }
    }
    panic!("{} did not end", game_dir.display());
}

/// The host's edit after `season match`: a schedule (first deadline Thu 3 Dec 15:00 UTC, then
/// every 24 h); then the match's first tick, on Wed 2 Dec.
pub fn give_schedule(game_dir: &Path) {
    let game_toml = game_dir.join("game.toml");
    let text = fs::read_to_string(&game_toml).unwrap().replacen(
        "\n[mail]",
        "\n[schedule]\nfirst_deadline = 2026-12-03T15:00:00Z\nevery = \"24h\"\n\n[mail]",
        1,
    );
    fs::write(&game_toml, text).unwrap();
    run_ok(&["round", s(game_dir), "--now", "2026-12-02T09:00:00Z", "-q"]);
}

/// `scripts/bot.py` answers for every player of a match.
pub fn bots_answer(game_dir: &Path) {
    let status = std::process::Command::new("python3")
        .arg(manifest_dir().join("scripts/bot.py"))
        .arg(game_dir)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "bot.py: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

fn results(game_dir: &Path) -> Vec<toml::Table> {
    let mut paths: Vec<PathBuf> = walkdir::WalkDir::new(game_dir.join("rounds"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.file_name().is_some_and(|n| n == "result.toml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| toml::from_str(&fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

pub fn is_over(game_dir: &Path) -> bool {
    results(game_dir)
        .iter()
        .any(|r| r["public"].get("final").is_some() && r["meta"].get("next_round").is_none())
}

/// Each player's garnet change over a match: the sum of every result's `[garnets]`.
fn garnet_changes(game_dir: &Path) -> BTreeMap<String, i64> {
    let mut sums = BTreeMap::new();
    for r in results(game_dir) {
        if let Some(g) = r.get("garnets").and_then(|g| g.as_table()) {
            for (id, change) in g {
                *sums.entry(id.clone()).or_default() += change.as_integer().unwrap();
            }
        }
    }
    sums
}

/// The standings table of `season status`: id (lowercased name) -> (garnets, tokens, status).
fn standings(season: &Path) -> BTreeMap<String, (i64, i64, String)> {
    let out = run_ok(&["season", "status", s(season)]);
    out.lines()
        .skip(2)
        .take_while(|l| l.starts_with("  ") && !l.starts_with("  0"))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (
                cols[0].to_lowercase(),
                (
                    cols[1].parse().unwrap(),
                    cols[2].parse().unwrap(),
                    cols[3].to_owned(),
                ),
            )
        })
        .collect()
}

#[test]
fn a_season_carries_garnets_tokens_and_eliminations_from_match_to_match() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    let out = run_ok(&["season", "match", s(&season), "god-race"]);
    let race = season.join("matches/01-god-race");
    assert!(out.contains("Created"), "{out}");
    play_to_the_end(&race);

    // independently: the cast's balance plus every round's change; the final's Tokens
    let changes = garnet_changes(&race);
    let last = results(&race)
        .into_iter()
        .rev()
        .find(|r| r["public"].get("final").is_some())
        .unwrap();
    let fin = last["public"]["final"].as_table().unwrap();
    let tokens: BTreeMap<String, i64> = fin["tokens"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(id, n)| (id.clone(), n.as_integer().unwrap()))
        .collect();
    assert!(!tokens.is_empty());
    let table = standings(&season);
    for (id, start) in CAST {
        let (garnets, held, status) = &table[id];
        assert_eq!(
            *garnets,
            start + changes.get(id).copied().unwrap_or(0),
            "{id}'s garnets"
        );
        assert_eq!(*held, tokens.get(id).copied().unwrap_or(0), "{id}'s Tokens");
        assert_eq!(status, "in");
    }

    // the Elimination Candidate loses the Death Match to a player without a Token
    let candidate = fin["elimination"][0].as_str().unwrap().to_owned();
    let opponent = CAST
        .iter()
        .map(|(id, _)| *id)
        .find(|id| *id != candidate && !tokens.contains_key(*id))
        .unwrap();
    let out = run_ok(&[
        "season",
        "event",
        s(&season),
        "death-match",
        "--winner",
        opponent,
        "--loser",
        &candidate,
        "--reason",
        "Death Match after Match 1",
        "--at",
        "2026-12-20T18:00:00Z",
    ]);
    assert!(
        out.contains(&format!("{opponent} beat {candidate}")),
        "{out}"
    );
    assert_eq!(standings(&season)[candidate.as_str()].2, "eliminated");

    // a garnet correction, then the next match: six living players fit Room Swap exactly
    let correct = CAST
        .iter()
        .map(|(id, _)| *id)
        .find(|id| *id != candidate)
        .unwrap();
    run_ok(&[
        "season",
        "event",
        s(&season),
        "garnets",
        correct,
        "--change",
        "-2",
        "--reason",
        "a candle bought twice by the host's mistake",
    ]);
    run_ok(&["season", "match", s(&season), "room-swap"]);
    let swap = season.join("matches/02-room-swap");
    let config: toml::Table =
        toml::from_str(&fs::read_to_string(swap.join("game.toml")).unwrap()).unwrap();
    let players = config["players"].as_array().unwrap();
    assert_eq!(players.len(), 6);
    assert!(
        players
            .iter()
            .all(|p| p["id"].as_str() != Some(candidate.as_str()))
    );
    for p in players {
        let id = p["id"].as_str().unwrap();
        let start = CAST.iter().find(|(c, _)| *c == id).unwrap().1;
        let fix = if id == correct { -2 } else { 0 };
        assert_eq!(
            p["garnets"].as_integer().unwrap(),
            start + changes.get(id).copied().unwrap_or(0) + fix,
            "{id}"
        );
        assert_eq!(
            p.get("tokens_of_life")
                .and_then(|t| t.as_integer())
                .unwrap_or(0),
            tokens.get(id).copied().unwrap_or(0),
            "{id}"
        );
        assert_eq!(p["email"].as_str().unwrap(), format!("{id}@example.org"));
    }
    // the mail settings are the season's, the seed is drawn from it
    assert_eq!(config["mail"]["transport"].as_str(), Some("file"));
    // the carried Tokens reach Room Swap's state: a holder is protected from the Death Match pick
    run_ok(&[
        "round",
        s(&swap),
        "--force",
        "--now",
        "2026-12-21T09:00:00Z",
        "-q",
    ]);
    let state: toml::Table =
        toml::from_str(&fs::read_to_string(swap.join("state.toml")).unwrap()).unwrap();
    for (id, n) in &tokens {
        if let Some(p) = state["players"].get(id) {
            assert_eq!(p["carried_tokens"].as_integer(), Some(*n), "{id}");
        }
    }

    // a hand edit of a balance in the running match is found, naming both files
    let game_toml = swap.join("game.toml");
    let edited = fs::read_to_string(&game_toml)
        .unwrap()
        .replacen("garnets = ", "garnets = 1", 1);
    fs::write(&game_toml, edited).unwrap();
    let run = adjudicate(["season", "status", s(&season)]);
    assert_eq!(run.code, 65, "{}", run.stdout);
    assert!(
        run.stderr.contains("02-room-swap/game.toml"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("players[0].garnets"), "{}", run.stderr);
    assert!(run.stderr.contains("season.toml"), "{}", run.stderr);
}

#[test]
fn an_event_for_an_unknown_or_eliminated_player_is_refused_and_nothing_is_written() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    run_ok(&[
        "season",
        "event",
        s(&season),
        "eliminate",
        "grace",
        "--reason",
        "left the season",
    ]);
    let events = fs::read(season.join("events.toml")).unwrap();
    for (args, says) in [
        (vec!["eliminate", "zed"], "`zed` is not in the cast"),
        (
            vec!["tokens", "grace", "--change", "1"],
            "`grace` was already eliminated (left the season)",
        ),
        (
            vec!["garnets", "bob", "--change", "-13"],
            "leave bob with -1 garnets",
        ),
        (vec!["tokens", "bob", "--change", "-1"], "cannot go below 0"),
    ] {
        let mut all = vec!["season", "event", s(&season)];
        all.extend(args.iter().copied());
        all.extend(["--reason", "r"]);
        let run = adjudicate(&all);
        assert_eq!(run.code, 65, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("events.toml"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
        assert_eq!(
            fs::read(season.join("events.toml")).unwrap(),
            events,
            "{args:?} was written"
        );
    }
    // usage mistakes: exit 2
    let run = adjudicate([
        "season",
        "event",
        s(&season),
        "tokens",
        "bob",
        "--reason",
        "r",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--change"), "{}", run.stderr);
}

#[test]
fn a_game_that_does_not_fit_the_living_cast_says_so_and_leaves_no_match() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    let run = adjudicate(["season", "match", s(&season), "room-swap"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("room-swap cannot start with this cast: players: Room Swap is played by exactly 6 players; game.toml has 7"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("the living cast is 7; choose with --players"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_dir(season.join("matches")).unwrap().count(), 0);

    let run = adjudicate([
        "season",
        "match",
        s(&season),
        "room-swap",
        "--players",
        "alice,bob,zed",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("`zed` is not in the season's cast"),
        "{}",
        run.stderr
    );

    run_ok(&[
        "season",
        "match",
        s(&season),
        "room-swap",
        "--players",
        "alice,bob,carol,dave,erin,frank",
    ]);
    let config = fs::read_to_string(season.join("matches/01-room-swap/game.toml")).unwrap();
    assert!(!config.contains("grace"));

    // a game option the rules need for this cast: named, with how to set it
    let run = adjudicate([
        "season",
        "match",
        s(&season),
        "planar-control",
        "--players",
        "alice,bob,carol,dave,erin,frank",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("options.planes"), "{}", run.stderr);
    assert!(
        run.stderr.contains("--option 'KEY = VALUE'"),
        "{}",
        run.stderr
    );
    let run = adjudicate([
        "season",
        "match",
        s(&season),
        "god-race",
        "--option",
        "rounds =",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--option rounds =: not `KEY = VALUE`"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_dir(season.join("matches")).unwrap().count(), 1);
}

#[test]
fn a_match_player_outside_the_cast_is_named_with_both_files() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    run_ok(&["season", "match", s(&season), "god-race"]);
    let game_toml = season.join("matches/01-god-race/game.toml");
    let text =
        fs::read_to_string(&game_toml).unwrap() + "\n[[players]]\nid = \"zed\"\ngarnets = 0\n";
    fs::write(&game_toml, text).unwrap();
    let run = adjudicate(["season", "status", s(&season)]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr
            .contains("01-god-race/game.toml: players[7].id: `zed` is not in the cast of"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("season.toml"), "{}", run.stderr);
}

/// A season of seven whose first match, a God Race, has been played to its end.
pub fn season_after_one_race(root: &Path) -> PathBuf {
    let season = new_season(root);
    run_ok(&["season", "match", s(&season), "god-race"]);
    play_to_the_end(&season.join("matches/01-god-race"));
    season
}

fn report_files(season: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    snapshot(&season.join("reports"))
}

#[test]
fn round_all_writes_each_finished_match_s_season_reports_once_and_balances_stay_private() {
    let root = tempfile::tempdir().unwrap();
    let season = season_after_one_race(root.path());
    let twin = tempfile::tempdir().unwrap();
    crate::support::copy_dir(root.path(), twin.path());

    let out = run_ok(&[
        "round",
        "--all",
        s(root.path()),
        "--now",
        "2026-12-29T09:00:00Z",
    ]);
    assert!(
        out.contains("season reports of 01-god-race written; 8 message(s) queued"),
        "{out}"
    );
    let reports = report_files(&season);
    assert_eq!(reports.len(), 8, "{:?}", reports.keys());
    assert_eq!(fs::read_dir(season.join("sent")).unwrap().count(), 8);
    let table = standings(&season);
    let public = String::from_utf8(reports[Path::new("01-god-race/public.txt")].clone()).unwrap();
    for (id, _) in CAST {
        let private = String::from_utf8(
            reports[&PathBuf::from(format!("01-god-race/private/{id}.txt"))].clone(),
        )
        .unwrap();
        assert!(
            private.contains(&format!("Hello {},", id.to_uppercase())),
            "{private}"
        );
        assert!(
            private.contains(&format!("Garnets: {} (", table[id].0)),
            "{id}: {private}"
        );
        assert!(
            private.contains(&format!("Tokens of Life: {}", table[id].1)),
            "{private}"
        );
        // Tokens are public, garnets are not
        assert!(
            public.contains(&format!("{}  ", id.to_uppercase()))
                || public.contains(&id.to_uppercase())
        );
    }
    assert!(!public.contains("Garnets:"), "{public}");

    // once: a second run writes and queues nothing
    let out = run_ok(&[
        "round",
        "--all",
        s(root.path()),
        "--now",
        "2026-12-30T09:00:00Z",
    ]);
    assert!(out.contains("season reports: nothing new"), "{out}");
    assert_eq!(report_files(&season), reports);
    assert_eq!(fs::read_dir(season.join("sent")).unwrap().count(), 8);

    // a hidden fact changed (Bob's garnets, by a correction) changes Bob's report alone
    let twin_season = twin.path().join("s1");
    run_ok(&[
        "season",
        "event",
        s(&twin_season),
        "garnets",
        "bob",
        "--change",
        "5",
        "--reason",
        "refund",
        "--at",
        "2026-12-28T09:00:00Z",
    ]);
    run_ok(&[
        "round",
        "--all",
        s(twin.path()),
        "--now",
        "2026-12-29T09:00:00Z",
        "-q",
    ]);
    let other = report_files(&twin_season);
    for (path, bytes) in &reports {
        if path.ends_with("bob.txt") {
            assert_ne!(&other[path], bytes, "Bob's report must show his balance");
        } else {
            assert_eq!(
                &other[path],
                bytes,
                "{}: changed with Bob's garnets",
                path.display()
            );
        }
    }
}

#[test]
fn the_site_shows_a_season_s_tokens_and_eliminations_and_never_a_balance() {
    let root = tempfile::tempdir().unwrap();
    let season = season_after_one_race(root.path());
    run_ok(&[
        "season",
        "event",
        s(&season),
        "eliminate",
        "grace",
        "--reason",
        "left the season",
        "--at",
        "2026-12-28T09:00:00Z",
    ]);
    let out = tempfile::tempdir().unwrap();
    let printed = run_ok(&["site", s(root.path()), s(out.path())]);
    assert!(printed.contains("site: 1 game(s)"), "{printed}");
    let page = fs::read_to_string(out.path().join("s1/index.html")).unwrap();
    let table = standings(&season);
    for (id, _) in CAST {
        let (_, tokens, status) = &table[id];
        let row = format!(
            "<tr><td>{}</td><td>{tokens}</td><td>{status}</td></tr>",
            id.to_uppercase()
        );
        assert!(page.contains(&row), "{row} not in {page}");
    }
    assert!(
        page.contains("GRACE eliminated (left the season)"),
        "{page}"
    );
    let index = fs::read_to_string(out.path().join("index.html")).unwrap();
    assert!(
        index.contains("Season One</a>: 1 match, 6 of 7 players still in"),
        "{index}"
    );

    // balances are private: a garnet correction changes no page
    run_ok(&[
        "season",
        "event",
        s(&season),
        "garnets",
        "bob",
        "--change",
        "7",
        "--reason",
        "refund",
        "--at",
        "2026-12-28T10:00:00Z",
    ]);
    let again = tempfile::tempdir().unwrap();
    run_ok(&["site", s(root.path()), s(again.path())]);
    assert_eq!(snapshot(out.path()), snapshot(again.path()));
}

#[test]
fn the_season_page_passes_tidy_and_reads_in_chromium() {
    let root = tempfile::tempdir().unwrap();
    let season = season_after_one_race(root.path());
    run_ok(&[
        "season",
        "event",
        s(&season),
        "eliminate",
        "grace",
        "--reason",
        "left",
    ]);
    let out = tempfile::tempdir().unwrap();
    run_ok(&["site", s(root.path()), s(out.path())]);
    let pages = [
        out.path().join("s1/index.html"),
        out.path().join("index.html"),
    ];
    if let Some(tidy) = crate::site::tool("tidy") {
        for page in &pages {
            crate::site::assert_tidy(&tidy, page);
        }
    }
    let Some(chromium) = crate::site::tool("chromium") else {
        return;
    };
    for r in crate::site::in_chromium(&chromium, &out.path().join("shots"), &pages) {
        let at = format!("{} at {} px", r["page"], r["width"]);
        assert_eq!(r["overflow"], serde_json::json!([]), "{at}");
        assert_eq!(r["low_contrast"], serde_json::json!([]), "{at}");
        assert_eq!(r["h1"], 1, "{at}");
    }
}

/// Tokens of Life won in a match, read here from its results (the test's own reading of the
/// spec's `[public.final]`): a table of counts (God Race), a list (Room Swap, Planar Control),
/// and Room Swap's Token gift.
fn tokens_won(game_dir: &Path) -> BTreeMap<String, i64> {
    let mut won = BTreeMap::new();
    for r in results(game_dir) {
        let public = r["public"].as_table().unwrap();
        if let Some(tokens) = public.get("final").and_then(|f| f.get("tokens")) {
            match tokens {
                toml::Value::Table(t) => {
                    for (id, n) in t {
                        *won.entry(id.clone()).or_default() += n.as_integer().unwrap();
                    }
                }
                toml::Value::Array(a) => {
                    for id in a {
                        *won.entry(id.as_str().unwrap().to_owned()).or_default() += 1;
                    }
                }
                _ => panic!("tokens: {tokens}"),
            }
        }
        if let Some(to) = public.get("token_gift").and_then(|g| g.get("to")) {
            *won.entry(to.as_str().unwrap().to_owned()).or_default() += 1;
        }
    }
    won
}

/// The match's Elimination Candidates (a list, or Planar Control's table by alignment).
fn candidates(game_dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for r in results(game_dir) {
        match r["public"].get("final").and_then(|f| f.get("elimination")) {
            Some(toml::Value::Array(a)) => {
                found = a.iter().map(|v| v.as_str().unwrap().to_owned()).collect()
            }
            Some(toml::Value::Table(t)) => {
                found = t.values().map(|v| v.as_str().unwrap().to_owned()).collect()
            }
            _ => {}
        }
    }
    found
}

#[test]
fn a_whole_season_of_the_four_games_adds_up_to_the_sums_of_its_archives() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    let mut garnets: BTreeMap<String, i64> =
        CAST.iter().map(|(id, g)| (id.to_string(), *g)).collect();
    let mut tokens: BTreeMap<String, i64> = BTreeMap::new();
    let mut out: Vec<String> = Vec::new();
    // seven play the God Race; one is out; six play Room Swap, then Planar Control; one is out;
    // five play Final Ritual
    for (n, game, eliminate_after) in [
        (1, "god-race", true),
        (2, "room-swap", false),
        (3, "planar-control", true),
        (4, "final-ritual", false),
    ] {
        let mut args = vec!["season", "match", s(&season), game];
        if game == "planar-control" {
            // the rules' plane sizes are for fifteen: the host sets them for six
            args.extend([
                "--option",
                "planes = { earth = 2, limbo = 1, thera = 2, mobil = 1 }",
            ]);
        }
        run_ok(&args);
        let dir = season.join(format!("matches/{n:02}-{game}"));
        let config: toml::Table =
            toml::from_str(&fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
        let players: Vec<String> = config["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(
            players.len(),
            CAST.len() - out.len(),
            "match {n}: {players:?}"
        );
        for p in config["players"].as_array().unwrap() {
            let id = p["id"].as_str().unwrap();
            assert_eq!(
                p["garnets"].as_integer().unwrap(),
                garnets[id],
                "match {n}: {id}'s garnets"
            );
            assert_eq!(
                p.get("tokens_of_life")
                    .map_or(0, |t| t.as_integer().unwrap()),
                tokens.get(id).copied().unwrap_or(0),
                "match {n}: {id}'s Tokens"
            );
        }
        play_to_the_end(&dir);
        for (id, change) in garnet_changes(&dir) {
            *garnets.get_mut(&id).unwrap() += change;
        }
        for (id, won) in tokens_won(&dir) {
            *tokens.entry(id).or_default() += won;
        }
        if eliminate_after {
            let candidate = candidates(&dir).into_iter().next().expect("a candidate");
            run_ok(&[
                "season",
                "event",
                s(&season),
                "eliminate",
                &candidate,
                "--reason",
                &format!("Death Match after match {n}"),
            ]);
            out.push(candidate);
        }
        let table = standings(&season);
        for (id, _) in CAST {
            let (g, t, status) = &table[id];
            assert_eq!(*g, garnets[id], "after match {n}: {id}'s garnets");
            assert_eq!(
                *t,
                tokens.get(id).copied().unwrap_or(0),
                "after match {n}: {id}'s Tokens"
            );
            assert_eq!(
                status == "eliminated",
                out.iter().any(|o| o == id),
                "after match {n}: {id}"
            );
        }
    }
    // every match is over, and each got its season reports
    run_ok(&[
        "round",
        "--all",
        s(root.path()),
        "--now",
        "2027-02-01T00:00:00Z",
        "-q",
    ]);
    for folder in [
        "01-god-race",
        "02-room-swap",
        "03-planar-control",
        "04-final-ritual",
    ] {
        assert!(
            season
                .join("reports")
                .join(folder)
                .join("public.txt")
                .is_file(),
            "{folder}"
        );
    }

    // replay proves it: every match from its archive, then the ledger from them
    let out = run_ok(&["replay", s(&season)]);
    assert!(out.contains("replay: 4 match(es)"), "{out}");
    // the season folder moves: nothing in it names a path
    let before = standings(&season);
    let moved = root.path().join("elsewhere").join("season-one");
    fs::create_dir_all(moved.parent().unwrap()).unwrap();
    fs::rename(&season, &moved).unwrap();
    assert_eq!(standings(&moved), before);
    run_ok(&["replay", s(&moved)]);
    // a result edited by hand is a difference, named with its match
    let result = moved.join("matches/02-room-swap/rounds/001/result.toml");
    let text = fs::read_to_string(&result)
        .unwrap()
        .replacen("peeks = 0", "peeks = 1", 1);
    fs::write(&result, text).unwrap();
    let run = adjudicate(["replay", s(&moved)]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("02-room-swap: "), "{}", run.stdout);
}

#[test]
fn round_all_over_two_seasons_and_a_lone_game_runs_every_one_and_names_the_broken_season() {
    let root = tempfile::tempdir().unwrap();
    let a = tempfile::tempdir().unwrap();
    let one = new_season(a.path());
    crate::support::copy_dir(&one, &root.path().join("season-a"));
    crate::support::copy_dir(&one, &root.path().join("season-b"));
    for season in ["season-a", "season-b"] {
        run_ok(&["season", "match", s(&root.path().join(season)), "god-race"]);
    }
    crate::support::copy_dir(&crate::support::example_dir(), &root.path().join("lone"));
    // season-b's events.toml is broken by hand: its reports cannot be written, its match still runs
    fs::write(
        root.path().join("season-b/events.toml"),
        "[[event]]\nkind = \"smite\"\n",
    )
    .unwrap();

    let run = adjudicate([
        "round",
        "--all",
        s(root.path()),
        "--now",
        "2026-12-02T09:00:00Z",
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("season-b/events.toml"),
        "{}",
        run.stderr
    );
    for game in [
        "lone",
        "season-a/matches/01-god-race",
        "season-b/matches/01-god-race",
    ] {
        assert!(
            root.path().join(game).join("state.toml").is_file(),
            "{game} was not ticked"
        );
        assert!(
            run.stdout
                .contains(&format!("{}", root.path().join(game).display())),
            "{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("season-a (season)"), "{}", run.stdout);
    let status = adjudicate([
        "status",
        "--all",
        s(root.path()),
        "--now",
        "2026-12-02T09:00:00Z",
    ]);
    assert_eq!(status.stdout.lines().count(), 3, "{}", status.stdout);
}

fn add_schedule(game_dir: &Path, first: &str) {
    let game_toml = game_dir.join("game.toml");
    let text = fs::read_to_string(&game_toml).unwrap().replacen(
        "\n[mail]",
        &format!("\n[schedule]\nfirst_deadline = {first}\nevery = \"24h\"\n\n[mail]"),
        1,
    );
    fs::write(&game_toml, text).unwrap();
}

/// A message as a mail client sends it, `id` its Message-ID.
fn message(id: &str, from: &str, subject: &str, in_reply_to: Option<&str>, body: &str) -> String {
    let reply = in_reply_to.map_or_else(String::new, |r| {
        format!("In-Reply-To: {r}\r\nReferences: {r}\r\n")
    });
    format!(
        "From: {from}\r\nTo: host@example.org\r\nSubject: {subject}\r\n{reply}Message-ID: <{id}@client.example>\r\nDate: Wed, 2 Dec 2026 09:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
}

#[test]
fn one_maildir_for_a_season_sends_each_message_to_its_match_and_keeps_the_doubtful_ones() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    run_ok(&["season", "match", s(&season), "god-race"]);
    run_ok(&[
        "season",
        "match",
        s(&season),
        "final-ritual",
        "--players",
        "alice,bob,carol,dave,erin",
    ]);
    let race = season.join("matches/01-god-race");
    let ritual = season.join("matches/02-final-ritual");
    add_schedule(&race, "2026-12-03T15:00:00Z");
    add_schedule(&ritual, "2026-12-03T15:00:00Z");
    run_ok(&[
        "round",
        "--all",
        s(root.path()),
        "--now",
        "2026-12-02T09:00:00Z",
        "-q",
    ]);
    // the God Race welcomed Alice: her reply names that message
    let welcome = fs::read_dir(race.join("sent"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains("alice"))
        .expect("a message to alice");
    let text = fs::read_to_string(&welcome).unwrap();
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: "))
        .unwrap()
        .to_owned();

    let maildir = root.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let messages = [
        (
            "1.alice-race",
            message(
                "1.alice-race",
                "Alice <alice@example.org>",
                "Re: your report",
                Some(&id),
                "meadow = \"red\"\nsupport = [\"red\", \"blue\"]",
            ),
        ),
        (
            "2.alice-ritual",
            message(
                "2.alice-ritual",
                "alice@example.org",
                "Re: Season One: Match 2: round 1",
                None,
                "respond = []",
            ),
        ),
        (
            "3.grace",
            message(
                "3.grace",
                "Grace <grace@example.org>",
                "my orbs",
                None,
                "meadow = \"blue\"",
            ),
        ),
        (
            "4.bob-doubt",
            message(
                "4.bob-doubt",
                "bob@example.org",
                "hello",
                None,
                "meadow = \"red\"",
            ),
        ),
        (
            "5.zed",
            message("5.zed", "zed@example.org", "hi", None, "meadow = \"red\""),
        ),
    ];
    for (name, text) in &messages {
        let path = maildir.join("new").join(name);
        fs::write(&path, text).unwrap();
        crate::ingest::delivered_at(&path, "2026-12-02T10:00:00Z");
    }
    let run = adjudicate([
        "ingest",
        s(&season),
        "--maildir",
        s(&maildir),
        "--now",
        "2026-12-02T11:00:00Z",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        race.join("rounds/000/submissions/alice.toml").is_file(),
        "{}",
        run.stdout
    );
    assert!(
        race.join("rounds/000/submissions/grace.toml").is_file(),
        "{}",
        run.stdout
    );
    assert!(
        ritual.join("rounds/001/submissions/alice.toml").is_file(),
        "{}",
        run.stdout
    );
    assert!(!ritual.join("rounds/001/submissions/bob.toml").exists());
    assert!(!race.join("rounds/000/submissions/bob.toml").exists());
    assert!(run.stderr.contains("bob@example.org plays in 01-god-race and 02-final-ritual: reply to a report of the match you mean"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("zed@example.org plays in no running match"),
        "{}",
        run.stderr
    );
    // Nothing is left in new/ to be read again (or by a later match): the two no match took
    // are flagged in cur/ for the host and logged once.
    assert_eq!(fs::read_dir(maildir.join("new")).unwrap().count(), 0);
    let flagged: BTreeSet<String> = fs::read_dir(maildir.join("cur"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(":2,FS"))
        .collect();
    assert_eq!(
        flagged,
        ["4.bob-doubt:2,FS", "5.zed:2,FS"].map(String::from).into()
    );
    assert_eq!(fs::read_dir(maildir.join("cur")).unwrap().count(), 5);
    let log = fs::read_to_string(season.join("ingest.log")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    let again = adjudicate([
        "ingest",
        s(&season),
        "--maildir",
        s(&maildir),
        "--now",
        "2026-12-02T11:05:00Z",
    ]);
    assert_eq!(again.code, 0);
    assert!(
        again.stdout.contains("nothing to ingest"),
        "{}",
        again.stdout
    );
}

fn array(value: &toml::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn after_planar_control_its_candidates_pick_in_the_ruled_order_among_players_without_a_token() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    run_ok(&[
        "season",
        "event",
        s(&season),
        "eliminate",
        "grace",
        "--reason",
        "left",
    ]);
    run_ok(&[
        "season",
        "match",
        s(&season),
        "planar-control",
        "--option",
        "planes = { earth = 2, limbo = 1, thera = 2, mobil = 1 }",
    ]);
    let planar = season.join("matches/01-planar-control");
    play_to_the_end(&planar);
    let last = results(&planar).pop().unwrap();
    let fin = last["public"]["final"].as_table().unwrap();
    let first_pick = fin["first_pick"].as_str().unwrap().to_owned();
    let mut expected_candidates: Vec<String> = fin["elimination"]
        .as_table()
        .unwrap()
        .values()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    expected_candidates.retain(|c| *c != first_pick);
    expected_candidates.insert(0, first_pick.clone());
    let immune = tokens_won(&planar);

    let before = standings(&season);
    let out = run_ok(&["season", "match", s(&season), "death-match-pick"]);
    assert!(out.contains("02-death-match-pick"), "{out}");
    let pick = season.join("matches/02-death-match-pick");
    let config: toml::Table =
        toml::from_str(&fs::read_to_string(pick.join("game.toml")).unwrap()).unwrap();
    let candidates = array(&config["options"]["candidates"]);
    let eligible = array(&config["options"]["eligible"]);
    assert_eq!(
        candidates, expected_candidates,
        "the candidate strong against the winners picks first"
    );
    for (id, _) in CAST {
        let may = id != "grace" && !immune.contains_key(id) && !candidates.iter().any(|c| c == id);
        assert_eq!(
            eligible.iter().any(|e| e == id),
            may,
            "{id}: eligible {eligible:?}"
        );
    }

    // the first candidate replies with the skeleton of their report; the second sends nothing
    add_schedule(&pick, "2027-01-20T15:00:00Z");
    run_ok(&["round", s(&pick), "--now", "2027-01-19T09:00:00Z", "-q"]);
    let report =
        fs::read_to_string(pick.join(format!("rounds/000/private/{}.txt", candidates[0]))).unwrap();
    let reply = crate::first_game::skeleton(&report).expect("a skeleton for the first candidate");
    fs::create_dir_all(pick.join("rounds/001/submissions")).unwrap();
    fs::write(
        pick.join(format!("rounds/001/submissions/{}.toml", candidates[0])),
        reply,
    )
    .unwrap();
    run_ok(&["round", s(&pick), "--now", "2027-01-20T15:00:00Z", "-q"]);
    let result = results(&pick).pop().unwrap();
    let picks = result["public"]["picks"].as_array().unwrap();
    assert_eq!(picks[0]["candidate"].as_str(), Some(candidates[0].as_str()));
    assert_eq!(
        picks[0]["opponent"].as_str(),
        Some(eligible[0].as_str()),
        "the skeleton names the first who may be picked"
    );
    assert_eq!(picks[0]["how"].as_str(), Some("picked"));
    assert_eq!(picks[1]["how"].as_str(), Some("drawn"));
    assert_ne!(picks[1]["opponent"], picks[0]["opponent"]);
    // the pick changes no balance, and gets no season report of its own
    assert_eq!(standings(&season), before);
    run_ok(&[
        "round",
        "--all",
        s(root.path()),
        "--now",
        "2027-01-21T09:00:00Z",
        "-q",
    ]);
    assert!(
        season
            .join("reports/01-planar-control/public.txt")
            .is_file()
    );
    assert!(!season.join("reports/02-death-match-pick").exists());
}

#[test]
fn the_god_race_winners_assign_the_next_race_s_meadows_from_their_skeletons() {
    let root = tempfile::tempdir().unwrap();
    let season = season_after_one_race(root.path());
    let race = season.join("matches/01-god-race");
    let last = results(&race).pop().unwrap();
    let winners = array(&last["public"]["final"]["winners"]);
    assert!(
        (1..=2).contains(&winners.len()),
        "seed 11 gives {winners:?}: pick a seed with one or two winners"
    );

    run_ok(&["season", "match", s(&season), "meadow-assignment"]);
    let assign = season.join("matches/02-meadow-assignment");
    let config: toml::Table =
        toml::from_str(&fs::read_to_string(assign.join("game.toml")).unwrap()).unwrap();
    assert_eq!(array(&config["options"]["assigners"]), winners);
    add_schedule(&assign, "2027-01-10T15:00:00Z");
    run_ok(&["round", s(&assign), "--now", "2027-01-09T09:00:00Z", "-q"]);
    // each winner replies with the skeleton of their report: the first as it is (every player
    // "white"), the second with every player "green"
    fs::create_dir_all(assign.join("rounds/001/submissions")).unwrap();
    for (i, winner) in winners.iter().enumerate() {
        let report =
            fs::read_to_string(assign.join(format!("rounds/000/private/{winner}.txt"))).unwrap();
        let mut reply = crate::first_game::skeleton(&report).expect("a skeleton for a winner");
        if i == 1 {
            reply = reply.replace("\"white\"", "\"green\"");
        }
        fs::write(
            assign.join(format!("rounds/001/submissions/{winner}.toml")),
            reply,
        )
        .unwrap();
    }
    // a player who did not win has nothing to send
    let other = CAST
        .iter()
        .map(|(id, _)| *id)
        .find(|id| !winners.iter().any(|w| w == id))
        .unwrap();
    let report =
        fs::read_to_string(assign.join(format!("rounds/000/private/{other}.txt"))).unwrap();
    assert!(crate::first_game::skeleton(&report).is_none(), "{report}");
    run_ok(&["round", s(&assign), "--now", "2027-01-10T15:00:00Z", "-q"]);
    let result = results(&assign).pop().unwrap();
    let settled = result["public"]["final"]["meadows"]
        .as_table()
        .unwrap()
        .clone();
    assert_eq!(settled.len(), CAST.len());
    for (id, meadow) in &settled {
        let how = result["public"]["meadows"][id]["how"].as_str().unwrap();
        if winners.len() == 1 {
            assert_eq!((meadow.as_str(), how), (Some("white"), "assigned"), "{id}");
        } else {
            assert!(
                ["white", "green"].contains(&meadow.as_str().unwrap()),
                "{id}: {meadow}"
            );
            assert_eq!(how, "coin", "{id}");
        }
    }

    // the next God Race starts from these meadows
    run_ok(&["season", "match", s(&season), "god-race"]);
    let next = season.join("matches/03-god-race");
    let config: toml::Table =
        toml::from_str(&fs::read_to_string(next.join("game.toml")).unwrap()).unwrap();
    for p in config["players"].as_array().unwrap() {
        let id = p["id"].as_str().unwrap();
        assert_eq!(p["meadow"], settled[id], "{id}");
    }
    run_ok(&["round", s(&next), "--now", "2027-01-11T09:00:00Z", "-q"]);
    let state: toml::Table =
        toml::from_str(&fs::read_to_string(next.join("state.toml")).unwrap()).unwrap();
    for (id, meadow) in &settled {
        assert_eq!(
            &state["players"][id]["meadow"], meadow,
            "{id} starts in the assigned meadow"
        );
    }
    // and it gets no season report of its own
    run_ok(&["season", "report", s(&season), "--no-send"]);
    assert!(!season.join("reports/02-meadow-assignment").exists());
}

/// A token is the person's for the whole season: the season's secrets.toml holds it and every
/// match requires it; a match's own secrets.toml may override it.
#[test]
fn season_tokens_hold_in_every_match_and_a_match_may_override_them() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    fs::write(
        season.join("secrets.toml"),
        "[tokens]\nalice = \"season-opal-77\"\nbob = \"season-ruby-88\"\ncarol = \"season-jade-55\"\n",
    )
    .unwrap();
    run_ok(&["season", "match", s(&season), "god-race"]);
    run_ok(&[
        "season",
        "match",
        s(&season),
        "final-ritual",
        "--players",
        "alice,bob,dave,erin,frank",
    ]);
    let first = season.join("matches/01-god-race");
    let second = season.join("matches/02-final-ritual");
    fs::write(
        second.join("secrets.toml"),
        "[tokens]\nbob = \"match-two-bob-99\"\n",
    )
    .unwrap();
    let file = root.path().join("mine.toml");
    let check = |game: &Path, player: &str, text: &str| {
        fs::write(&file, text).unwrap();
        adjudicate(["check", s(game), s(&file), "--player", player])
    };
    for game in [&first, &second] {
        let run = check(game, "alice", "# nothing\n");
        assert!(
            run.stdout.contains("token is missing"),
            "{}: {}",
            game.display(),
            run.stdout
        );
        let run = check(game, "alice", "token = \"season-opal-77\"\n");
        assert!(
            !run.stdout.contains("token"),
            "{}: {}",
            game.display(),
            run.stdout
        );
    }
    let run = check(&second, "bob", "token = \"season-ruby-88\"\n");
    assert!(
        run.stdout.contains("token does not match"),
        "{}",
        run.stdout
    );
    let run = check(&second, "bob", "token = \"match-two-bob-99\"\n");
    assert!(!run.stdout.contains("token"), "{}", run.stdout);
    // a cast member's token is kept out of a match they do not play in as well
    // (Carol does not play in match 2)
    let run = check(&second, "dave", "respond = \"season-jade-55\"\n");
    assert!(
        run.code == 65 && !run.stdout.contains("season-jade-55"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_season_credits_each_person_with_their_own_tenure_and_a_withdrawal_leaves_the_season() {
    let root = tempfile::tempdir().unwrap();
    let season = new_season(root.path());
    run_ok(&["season", "match", s(&season), "god-race"]);
    let race = season.join("matches/01-god-race");
    // Hana joins the cast as an alternate; Frank's seat will be hers
    let mut toml = fs::read_to_string(season.join("season.toml")).unwrap();
    toml.push_str("\n[[players]]\nid = \"hana\"\nname = \"HANA\"\nemail = \"hana@example.org\"\ngarnets = 5\n");
    fs::write(season.join("season.toml"), toml).unwrap();
    let game_toml = race.join("game.toml");
    let text = fs::read_to_string(&game_toml).unwrap().replacen(
        "\n[mail]",
        "\n[schedule]\nfirst_deadline = 2026-12-03T15:00:00Z\nevery = \"24h\"\n\n[mail]",
        1,
    );
    fs::write(&game_toml, text).unwrap();
    run_ok(&["round", s(&race), "--now", "2026-12-02T09:00:00Z", "-q"]);
    for day in 3..=4 {
        let bot = std::process::Command::new("python3")
            .arg(manifest_dir().join("scripts/bot.py"))
            .arg(&race)
            .status()
            .unwrap();
        assert!(bot.success());
        let now = format!("2026-12-{day:02}T15:00:00Z");
        run_ok(&["round", s(&race), "--now", &now, "-q"]);
    }
    run_ok(&[
        "substitute",
        s(&race),
        "frank",
        "--name",
        "HANA",
        "--email",
        "hana@example.org",
        "--reason",
        "Frank left; Hana is the alternate",
        "--now",
        "2026-12-04T16:00:00Z",
    ]);
    run_ok(&[
        "withdraw",
        s(&race),
        "erin",
        "--reason",
        "Erin quit the season",
        "--now",
        "2026-12-04T16:05:00Z",
    ]);
    let record = walkdir::WalkDir::new(race.join("rounds"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .find(|p| p.ends_with("host.toml"))
        .expect("the actions are recorded");
    let record: toml::Table = toml::from_str(&fs::read_to_string(record).unwrap()).unwrap();
    let index = record["action"][0]["index"].as_integer().unwrap();
    // the rest of the race, the bot answering for every seat
    for day in 5..=28 {
        let bot = std::process::Command::new("python3")
            .arg(manifest_dir().join("scripts/bot.py"))
            .arg(&race)
            .status()
            .unwrap();
        assert!(bot.success());
        run_ok(&[
            "round",
            s(&race),
            "--now",
            &format!("2026-12-{day:02}T15:00:00Z"),
            "-q",
        ]);
        if is_over(&race) {
            break;
        }
    }
    assert!(is_over(&race));
    run_ok(&["replay", s(&race)]);

    // independently: each round's change goes to whoever held the seat when it resolved
    let mut changes: BTreeMap<String, i64> = BTreeMap::new();
    let mut tokens: BTreeMap<String, i64> = BTreeMap::new();
    for r in results(&race) {
        let at = r["meta"]["index"].as_integer().unwrap();
        let opening = r["meta"].get("opening").and_then(|o| o.as_bool()) == Some(true);
        for (id, change) in r
            .get("garnets")
            .and_then(|g| g.as_table())
            .into_iter()
            .flatten()
        {
            let who = if id == "frank" && !opening && at >= index {
                "hana"
            } else {
                id.as_str()
            };
            *changes.entry(who.to_owned()).or_default() += change.as_integer().unwrap();
        }
        if let Some(fin) = r["public"].get("final").and_then(|f| f.get("tokens")) {
            for (id, n) in fin.as_table().unwrap() {
                let who = if id == "frank" { "hana" } else { id.as_str() };
                *tokens.entry(who.to_owned()).or_default() += n.as_integer().unwrap();
            }
        }
    }
    assert!(changes.get("hana").is_some_and(|g| *g != 0), "{changes:?}");
    let table = standings(&season);
    for (id, start) in CAST.iter().copied().chain([("hana", 5)]) {
        let (garnets, held, status) = &table[id];
        assert_eq!(
            *garnets,
            start + changes.get(id).copied().unwrap_or(0),
            "{id}'s garnets"
        );
        assert_eq!(*held, tokens.get(id).copied().unwrap_or(0), "{id}'s Tokens");
        assert_eq!(status == "in", id != "erin", "{id}: {status}");
    }
    let out = run_ok(&["season", "status", s(&season)]);
    assert!(
        out.contains("left the season in 01-god-race: Erin quit the season"),
        "{out}"
    );
}
