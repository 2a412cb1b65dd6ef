//! The Tribal Council engine against the televised show's own vote records, US01–US20
//! (`tests/data/survivor/`: the survivoR package's CSV files, MIT, copied unchanged from
//! `../shared/data/survivor/` with their README and licence). Each council becomes a game
//! directory: its attendees as players (immunity, a played idol, who could vote, the counted
//! votes each had received at earlier councils), the first vote and any revote as submissions,
//! through the built binary. The engine must send home the same player as the show at every
//! council decided by the vote (single votes, revotes, countback), draw rocks only among the
//! players the spec lets draw, and crown the same jury winner. Councils decided outside the vote
//! (fire-making, tiebreaker challenges, quits) are counted and skipped.

use crate::support::adjudicate;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    crate::support::manifest_dir().join("tests/data/survivor")
}

/// The rows of a CSV file (RFC 4180: quoted fields, `""` inside quotes), as header -> value.
fn csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut records: Vec<Vec<String>> = Vec::new();
    let (mut field, mut record, mut quoted) = (String::new(), Vec::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    let header = records.remove(0);
    records
        .into_iter()
        .map(|r| header.iter().cloned().zip(r).collect())
        .collect()
}

fn id(castaway_id: &str) -> String {
    castaway_id.to_lowercase()
}

/// One council of the show: `(season, episode, order)`, its rows in file order.
struct Council<'a> {
    season: String,
    key: (u32, u32),
    rows: Vec<&'a BTreeMap<String, String>>,
}

impl Council<'_> {
    fn at(&self, vote_order: &str) -> Vec<&BTreeMap<String, String>> {
        self.rows
            .iter()
            .copied()
            .filter(|r| r["vote_order"] == vote_order)
            .collect()
    }
    fn events(&self) -> BTreeSet<&str> {
        self.rows.iter().map(|r| r["vote_event"].as_str()).collect()
    }
    fn out(&self) -> String {
        id(&self.rows[0]["voted_out_id"])
    }
}

/// What decided a council, by its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Single,
    Revote,
    Countback,
    Rocks,
    /// Fire-making, a tiebreaker challenge or quiz, a quit: outside the vote.
    Skipped,
}

fn kind(c: &Council<'_>) -> Kind {
    let events = c.events();
    let outside = ["Fire challenge", "Nature quiz", "Quit"];
    if events.iter().any(|e| outside.contains(e)) {
        return Kind::Skipped;
    }
    if events.contains("Countback") {
        return Kind::Countback;
    }
    if events.contains("Rock draw") {
        return Kind::Rocks;
    }
    if c.rows.iter().any(|r| r["vote_order"] == "2") {
        return Kind::Revote;
    }
    Kind::Single
}

fn councils(rows: &[BTreeMap<String, String>]) -> Vec<Council<'_>> {
    let mut out: Vec<Council<'_>> = Vec::new();
    for r in rows {
        let season = r["version_season"].clone();
        let key = (r["episode"].parse().unwrap(), r["order"].parse().unwrap());
        match out.last_mut() {
            Some(c) if c.season == season && c.key == key => c.rows.push(r),
            _ => out.push(Council {
                season,
                key,
                rows: vec![r],
            }),
        }
    }
    out
}

/// Writes the council as a game directory in `dir`: who attends (not those removed from it),
/// immune, protected by an idol they play on themselves, unable to vote; countback's earlier
/// votes; the show's tie rule at this council.
fn game_dir(dir: &Path, c: &Council<'_>, kind: Kind, before: &BTreeMap<String, u32>) {
    let first = c.at("1");
    let tie = match kind {
        Kind::Countback => "revote-countback",
        // the show drew rocks straight after the tied vote (US04: no revote in the record)
        Kind::Rocks if c.at("2").iter().all(|r| r["vote"] == "NA") => "rocks",
        _ => "revote-rocks",
    };
    let mut toml = format!(
        "game = \"tribal-council\"\ntitle = \"{} episode {} council {}\"\nseed = 1\n\n[options]\ntie = \"{tie}\"\nmissing_vote = \"none\"\n",
        c.season, c.key.0, c.key.1
    );
    for r in first
        .iter()
        .filter(|r| r["vote_event_outcome"] != "Removed from tribal")
    {
        let who = id(&r["castaway_id"]);
        toml.push_str(&format!(
            "\n[[players]]\nid = \"{who}\"\nname = \"{}\"\n",
            r["castaway"].replace('"', "'")
        ));
        if r["immunity"] == "Individual" {
            toml.push_str("immune = true\n");
        }
        if r["immunity"] == "Hidden" {
            toml.push_str("idols = 1\n");
        }
        if r["vote"] == "NA" {
            toml.push_str("can_vote = false\n");
        }
        if let Some(n) = before.get(&who) {
            toml.push_str(&format!("votes_before = {n}\n"));
        }
    }
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("game.toml"), toml).unwrap();
}

/// Each voter's vote of `vote_order` (and an idol for a protected player) as their submission.
fn submit(dir: &Path, round: u32, rows: &[&BTreeMap<String, String>]) {
    let folder = dir.join(format!("rounds/{round:03}/submissions"));
    fs::create_dir_all(&folder).unwrap();
    for r in rows {
        let who = id(&r["castaway_id"]);
        let mut text = String::new();
        if r["vote_id"] != "NA" {
            text.push_str(&format!("vote = \"{}\"\n", id(&r["vote_id"])));
        }
        if round == 1 && r["immunity"] == "Hidden" {
            text.push_str(&format!("idol = [\"{who}\"]\n"));
        }
        if !text.is_empty() {
            fs::write(folder.join(format!("{who}.toml")), text).unwrap();
        }
    }
}

/// A tick; `force`: the vote closes now (the councils have no schedule).
fn tick(dir: &Path, force: bool) {
    let mut args = vec![
        "round",
        dir.to_str().unwrap(),
        "-q",
        "--now",
        "2026-12-02T12:00:00Z",
    ];
    if force {
        args.push("--force");
    }
    let run = adjudicate(&args);
    assert_eq!(
        run.code,
        0,
        "{}: {}{}",
        dir.display(),
        run.stdout,
        run.stderr
    );
}

fn public(dir: &Path, round: u32) -> toml::Table {
    let path = dir.join(format!("rounds/{round:03}/result.toml"));
    let table: toml::Table = toml::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    table["public"].as_table().unwrap().clone()
}

/// Plays one council through the binary; returns the last announcement.
fn play(dir: &Path, c: &Council<'_>) -> toml::Table {
    tick(dir, false); // set-up: the opening
    submit(dir, 1, &c.at("1"));
    tick(dir, true);
    let mut last = public(dir, 1);
    let revote = c.at("2");
    if last.get("out").is_none() && revote.iter().any(|r| r["vote"] != "NA") {
        submit(dir, 2, &revote);
        tick(dir, true);
        last = public(dir, 2);
    }
    last
}

fn strings(value: Option<&toml::Value>) -> BTreeSet<String> {
    value
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_council_of_us01_to_us20_decided_by_the_vote_sends_home_the_show_s_player() {
    let rows = csv(&data().join("vote_history.csv"));
    let all = councils(&rows);
    let tmp = tempfile::tempdir().unwrap();
    let mut counts: BTreeMap<Kind, usize> = BTreeMap::new();
    let mut disagree = Vec::new();
    // counted votes received at earlier councils, per season
    let mut before: BTreeMap<String, u32> = BTreeMap::new();
    let mut season = String::new();
    for (n, c) in all.iter().enumerate() {
        if c.season != season {
            season = c.season.clone();
            before.clear();
        }
        let k = kind(c);
        *counts.entry(k).or_default() += 1;
        if k != Kind::Skipped {
            let dir = tmp.path().join(format!("{n:03}"));
            game_dir(&dir, c, k, &before);
            let last = play(&dir, c);
            let out = last.get("out").and_then(|o| o.as_str()).unwrap_or("none");
            let expected = c.out();
            if out != expected {
                disagree.push(format!(
                    "{} episode {} council {} ({k:?}): the show sent home {expected}, the engine {out}",
                    c.season, c.key.0, c.key.1
                ));
            }
            if k == Kind::Rocks {
                // the spec's drawers: everyone but the tied, the immune and the protected
                let drew = strings(last.get("rocks").and_then(|r| r.get("drew")));
                let safe: BTreeSet<String> = c
                    .at("2")
                    .iter()
                    .filter(|r| r["vote_event_outcome"] != "Eliminated")
                    .map(|r| id(&r["castaway_id"]))
                    .collect();
                assert!(drew.contains(&expected), "{}: {drew:?}", c.season);
                assert!(drew.is_disjoint(&safe), "{}: {drew:?} {safe:?}", c.season);
            }
        }
        for r in c
            .rows
            .iter()
            .filter(|r| r["vote_id"] != "NA" && r["nullified"] != "TRUE")
        {
            *before.entry(id(&r["vote_id"])).or_default() += 1;
        }
    }
    eprintln!("councils by kind: {counts:?}");
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    assert_eq!(all.len(), 293, "councils in US01–US20");
    assert!(counts[&Kind::Revote] > 0 && counts[&Kind::Countback] > 0 && counts[&Kind::Rocks] > 0);
}

#[test]
fn every_jury_of_us01_to_us20_crowns_the_show_s_winner() {
    let votes = csv(&data().join("jury_votes.csv"));
    let summary = csv(&data().join("season_summary.csv"));
    let tmp = tempfile::tempdir().unwrap();
    let seasons: BTreeSet<&str> = votes.iter().map(|r| r["version_season"].as_str()).collect();
    assert_eq!(seasons.len(), 20);
    for season in seasons {
        let rows: Vec<_> = votes
            .iter()
            .filter(|r| r["version_season"] == season)
            .collect();
        let finalists: BTreeSet<String> = rows.iter().map(|r| id(&r["finalist_id"])).collect();
        let jurors: BTreeMap<String, &str> = rows
            .iter()
            .map(|r| (id(&r["castaway_id"]), r["castaway"].as_str()))
            .collect();
        let names: BTreeMap<String, &str> = rows
            .iter()
            .map(|r| (id(&r["finalist_id"]), r["finalist"].as_str()))
            .collect();
        let dir = tmp.path().join(season);
        let mut toml = format!(
            "game = \"tribal-council\"\ntitle = \"{season}: the final vote\"\nseed = 1\n\n[options]\nmode = \"jury\"\n"
        );
        for f in &finalists {
            toml.push_str(&format!(
                "\n[[players]]\nid = \"{f}\"\nname = \"{}\"\nfinalist = true\n",
                names[f]
            ));
        }
        for (j, name) in &jurors {
            toml.push_str(&format!("\n[[players]]\nid = \"{j}\"\nname = \"{name}\"\n"));
        }
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("game.toml"), toml).unwrap();
        tick(&dir, false);
        let folder = dir.join("rounds/001/submissions");
        fs::create_dir_all(&folder).unwrap();
        for r in rows.iter().filter(|r| r["vote"] == "1") {
            let text = format!("vote = \"{}\"\n", id(&r["finalist_id"]));
            fs::write(folder.join(format!("{}.toml", id(&r["castaway_id"]))), text).unwrap();
        }
        tick(&dir, true);
        let last = public(&dir, 1);
        let winner = summary
            .iter()
            .find(|s| s["version_season"] == season)
            .map(|s| id(&s["winner_id"]))
            .unwrap();
        assert_eq!(
            last.get("winner").and_then(|w| w.as_str()),
            Some(winner.as_str()),
            "{season}"
        );
        assert_eq!(
            last.get("how").and_then(|h| h.as_str()),
            Some("vote"),
            "{season}"
        );
    }
}
