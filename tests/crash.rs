//! The crash matrix (issue 56), as SQLite tests its own crash safety: every shape of run a host
//! makes (the ticks of every game of the registry, a season's, `season match`, `season report`,
//! `ingest`, `send`, every host lever) is killed (SIGKILL through strace's fault injection: no
//! hook in the code) before the Nth call of each syscall that touches the disk, for every N;
//! then the run that comes next (the same command again, or cron's next tick) must leave the
//! whole workspace (the game or season directory with its outbox and sent mail, the Maildir, the
//! chat export) as an uninterrupted run leaves it, byte for byte, with no temp file or folder
//! left. A lever records its action before it takes effect: killed before the record, the
//! workspace is what the next tick alone leaves. A run whose work the host can see is missing
//! (`season match`, `enter`) is run again by the host first.
//!
//! Mail goes through the `file` transport, where being in `sent/` is the delivery: a message
//! lost or sent twice is a file missing from `sent/` or one too many.
//!
//! `make crash` tries every kill point (`ADJUDICATE_CRASH=all`) and prints how many each shape
//! has. `make test` tries every kill point of the tick that receives a round's first versions
//! and resolves it (for the first game of the registry), and elsewhere every call that commits
//! (rename, mkdir, unlink, fsync, …) and a stride of the many writes and opens: a change that
//! breaks a kill point of a commit fails CI whatever the stride.

use crate::first_game::{change_values, latest_reports, skeleton};
use crate::support::{adjudicate, copy_dir, submit};
use adjudicate::games::GameId;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The calls that make a run's work durable or visible: every one of them is a kill point in
/// every run of the matrix.
const COMMITS: [&str; 13] = [
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "unlink",
    "unlinkat",
    "rmdir",
    "fsync",
    "fdatasync",
    "ftruncate",
    "link",
    "linkat",
];

/// The calls that write or open: many (an open per file read), tried with a stride unless the
/// shape is tried in full.
const WRITES: [&str; 5] = ["write", "writev", "pwrite64", "openat", "creat"];

/// The stride over `WRITES` of a sampled shape.
const STRIDE: usize = 7;

/// The clock of the games made with `new`: before their first deadline (pinned below), so every
/// version counts; a round resolves at its deadline, or (played ahead) with `--force`.
const NOW: &str = "2026-12-01T00:00:00Z";

/// One shape of run, ready to be killed: its workspace as the run finds it, the run, and what
/// comes after it.
struct Shape {
    name: String,
    start: tempfile::TempDir,
    /// The run killed; `{root}` stands for the workspace.
    run: Vec<String>,
    /// What comes next, in order (the same run again, cron's next tick); each must succeed.
    next: Vec<Vec<String>>,
    /// The run records an action before it acts (a lever): killed before the record, the
    /// workspace may end as `next` alone leaves it.
    recorded: bool,
    /// Every kill point of every call, whatever `ADJUDICATE_CRASH` says.
    full: bool,
    /// Whether the run's work is on disk: if not, the host, told the run failed, runs it again
    /// before `next` (`season match`, `enter`).
    redo_unless: Option<fn(&Path) -> bool>,
}

/// A workspace as files and folders (`None`), the lock and `.cache/` aside (a cache is never
/// trusted, only saves work); the workspace's own path in a text is written `ROOT`.
type Tree = BTreeMap<PathBuf, Option<Vec<u8>>>;

fn tree(root: &Path) -> Tree {
    let at = root.display().to_string();
    walkdir::WalkDir::new(root)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".cache")
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != ".adjudicate.lock")
        .map(|e| {
            let path = e.path().strip_prefix(root).unwrap().to_path_buf();
            let bytes = e.file_type().is_file().then(|| {
                let bytes = fs::read(e.path()).unwrap();
                match String::from_utf8(bytes) {
                    Ok(text) => text.replace(&at, "ROOT").into_bytes(),
                    Err(e) => e.into_bytes(),
                }
            });
            (path, bytes)
        })
        .collect()
}

fn fill(template: &[String], root: &Path) -> Vec<String> {
    let root = root.display().to_string();
    template
        .iter()
        .map(|a| a.replace("{root}", &root))
        .collect()
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// A copy of the shape's workspace.
fn fresh(shape: &Shape) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    copy_dir(shape.start.path(), copy.path());
    copy
}

/// Runs `next` in `root`; each run must exit 0.
fn run_next(shape: &Shape, root: &Path, when: &str) {
    for next in &shape.next {
        let run = adjudicate(fill(next, root));
        assert_eq!(
            run.code,
            0,
            "{}: {when}: the next run `{}` fails: {}{}",
            shape.name,
            next.join(" "),
            run.stdout,
            run.stderr
        );
    }
}

/// Whether the run was killed before the `n`th call of `syscall` (`false`: no thread of it
/// made `n` such calls, and it ran to its end).
fn killed(syscall: &str, n: usize, run: &[String]) -> bool {
    let status = Command::new("strace")
        .args(["-f", "-o", "/dev/null", "-e"])
        .arg(format!("inject={syscall}:signal=SIGKILL:when={n}"))
        .arg(env!("CARGO_BIN_EXE_adjudicate"))
        // cargo's library path for tests makes the loader try a hundred files before `main`:
        // kill points where the binary has not started
        .env_remove("LD_LIBRARY_PATH")
        .args(run)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("strace runs (apt-get install strace; .ci/run installs it)");
    !status.success()
}

/// The paths where two trees differ, with the first line that differs in a text.
fn differences(got: &Tree, want: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in want {
        match got.get(path) {
            None => out.push(format!("{} missing", path.display())),
            Some(b) if b == bytes => {}
            Some(b) => {
                let (got, want) = (
                    String::from_utf8_lossy(b.as_deref().unwrap_or(b"<folder>")).into_owned(),
                    String::from_utf8_lossy(bytes.as_deref().unwrap_or(b"<folder>")).into_owned(),
                );
                let line = got
                    .lines()
                    .zip(want.lines())
                    .position(|(g, w)| g != w)
                    .map_or_else(|| "its length".to_owned(), |i| format!("line {}", i + 1));
                out.push(format!("{} differs at {line}", path.display()));
            }
        }
    }
    out.extend(
        got.keys()
            .filter(|p| !want.contains_key(*p))
            .map(|p| format!("{} is extra", p.display())),
    );
    out
}

/// Whether every kill point is tried (`make crash`), not a sample.
fn all_points() -> bool {
    std::env::var("ADJUDICATE_CRASH").is_ok_and(|v| v == "all")
}

/// Kills the shape's run at every kill point the setting asks for, and checks each. Returns the
/// kill points tried per call.
fn matrix(shape: Shape) -> BTreeMap<&'static str, usize> {
    let all = shape.full || all_points();
    // what an uninterrupted run and the runs after it leave; and, for a run that may not
    // have happened, what the next runs alone leave
    let whole = fresh(&shape);
    let run = adjudicate(fill(&shape.run, whole.path()));
    assert_eq!(
        run.code, 0,
        "{}: the uninterrupted run fails: {}{}",
        shape.name, run.stdout, run.stderr
    );
    run_next(&shape, whole.path(), "uninterrupted");
    let mut ends = vec![tree(whole.path())];
    if shape.recorded {
        let untouched = fresh(&shape);
        run_next(&shape, untouched.path(), "not run");
        ends.push(tree(untouched.path()));
    }
    let mut tried = BTreeMap::new();
    for syscall in COMMITS.into_iter().chain(WRITES) {
        let stride = if all || COMMITS.contains(&syscall) {
            1
        } else {
            STRIDE
        };
        let mut n = 1;
        loop {
            let copy = fresh(&shape);
            if !killed(syscall, n, &fill(&shape.run, copy.path())) {
                break;
            }
            let when = format!("killed before {syscall} #{n}");
            if shape.redo_unless.is_some_and(|done| !done(copy.path())) {
                let again = adjudicate(fill(&shape.run, copy.path()));
                assert_eq!(
                    again.code, 0,
                    "{}: {when}: run again, it fails: {}{}",
                    shape.name, again.stdout, again.stderr
                );
            }
            run_next(&shape, copy.path(), &when);
            let got = tree(copy.path());
            let litter: Vec<_> = got
                .keys()
                .filter(|p| p.to_string_lossy().contains(".adjudicate-"))
                .collect();
            assert!(
                litter.is_empty(),
                "{}: {when}: temp files left: {litter:?}",
                shape.name
            );
            if !ends.contains(&got) {
                panic!(
                    "{}: {when}: the workspace differs from an uninterrupted run: {:?}",
                    shape.name,
                    differences(&got, &ends[0])
                );
            }
            *tried.entry(syscall).or_default() += 1;
            n += stride;
        }
    }
    let total: usize = tried.values().sum();
    let calls: Vec<String> = tried.iter().map(|(s, n)| format!("{s} {n}")).collect();
    println!(
        "crash: {}: {total} kill points ({})",
        shape.name,
        calls.join(", ")
    );
    assert!(total > 0, "{}: no kill point", shape.name);
    tried
}

// ---- the ticks of every game ----------------------------------------------------------------

/// A game made with `new` (seed and first deadline pinned, so a failure reproduces), ticked
/// once: set up.
fn new_game(game: &str, root: &Path) {
    let made = adjudicate(["new".as_ref(), game.as_ref(), root.as_os_str()]);
    assert_eq!(made.code, 0, "{game}: {}", made.stderr);
    let toml = root.join("game.toml");
    let text: String = fs::read_to_string(&toml)
        .unwrap()
        .lines()
        .map(|line| {
            if line.starts_with("seed = ") {
                "seed = 20261206".to_owned()
            } else if line.starts_with("first_deadline = ") {
                "first_deadline = 2026-12-02T15:00:00Z".to_owned()
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    fs::write(&toml, text + "\n").unwrap();
}

/// The round being played, `None` once the game is over (as `status` says).
fn round_of(root: &Path) -> Option<u32> {
    let status = adjudicate(["status".as_ref(), root.as_os_str()]);
    if status.stdout.contains("The game is over") {
        return None;
    }
    let state: toml::Table = toml::from_str(&fs::read_to_string(root.join("state.toml")).ok()?)
        .expect("state.toml parses");
    Some(state["round"].as_integer().expect("state.toml has a round") as u32)
}

/// The players asked for a version (their latest report ends with a skeleton), each with it.
fn skeletons(root: &Path) -> Vec<(String, String)> {
    latest_reports(root)
        .into_iter()
        .filter_map(|(player, report)| {
            skeleton(&fs::read_to_string(&report).unwrap()).map(|s| (player, s))
        })
        .collect()
}

/// Every player asked for a version (but the last of them, with `all_but_one`) sends the
/// skeleton of their latest report into the current round, as a careful first-time player
/// would. Returns the one left out, with their skeleton.
fn send_skeletons(game: &str, root: &Path, all_but_one: bool) -> Option<(String, String)> {
    let round = round_of(root).expect("the game is not over");
    let mut asked = skeletons(root);
    let left_out = if all_but_one { asked.pop() } else { None };
    for (i, (player, skeleton)) in asked.into_iter().enumerate() {
        let version = change_values(game, &skeleton, i + round as usize);
        submit(root, round, &player, &version);
    }
    left_out
}

fn tick_at(root: &Path, extra: &[&str]) {
    crate::support::tick(root, NOW, extra);
}

/// The current round's deadline, as `status` shows it (`Deadline: Wed 9 Dec 2026 15:00 UTC`).
fn deadline_of(root: &Path) -> String {
    let status = adjudicate(["status".as_ref(), root.as_os_str()]);
    let line = status
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("Deadline: "))
        .unwrap_or_else(|| panic!("no deadline in {}", status.stdout));
    let shown = line.split(" UTC").next().unwrap();
    let at = jiff::civil::DateTime::strptime("%a %d %b %Y %H:%M", shown)
        .unwrap_or_else(|e| panic!("{shown}: {e}"));
    jiff::tz::TimeZone::UTC
        .to_ambiguous_timestamp(at)
        .unambiguous()
        .unwrap()
        .to_string()
}

fn round_at(at: &str) -> Vec<String> {
    args(&["round", "{root}", "--now", at, "-q"])
}

/// The five ticks of a game: set-up; receiving only; receiving the round's first versions and
/// resolving at the deadline (the folder `received/` is new in that run: what cron does when
/// every version arrived since its last tick); resolving only; the game's last. Each is run
/// again as it was (what cron or the host does next).
fn game_shape(game: &str, which: &str) -> Shape {
    let start = tempfile::tempdir().unwrap();
    let root = start.path();
    new_game(game, root);
    let run = match which {
        "set-up" => round_at(NOW),
        "receive" => {
            tick_at(root, &["-q"]);
            send_skeletons(game, root, true);
            round_at(NOW)
        }
        "receive-and-resolve" => {
            tick_at(root, &["-q"]);
            send_skeletons(game, root, false);
            round_at(&deadline_of(root))
        }
        "resolve" => {
            tick_at(root, &["-q"]);
            send_skeletons(game, root, true);
            tick_at(root, &["-q"]);
            round_at(&deadline_of(root))
        }
        "last" => {
            tick_at(root, &["-q"]);
            // played ahead on a copy, a round at a time, until the round that ends the game
            for _ in 0..40 {
                send_skeletons(game, root, false);
                let ahead = tempfile::tempdir().unwrap();
                copy_dir(root, ahead.path());
                tick_at(ahead.path(), &["--force", "-q"]);
                if round_of(ahead.path()).is_none() {
                    break;
                }
                tick_at(root, &["--force", "-q"]);
            }
            // the last versions received before their deadline, resolved at it; or, in a game
            // that closes early once every version is in, as they are received
            let ahead = tempfile::tempdir().unwrap();
            copy_dir(root, ahead.path());
            tick_at(ahead.path(), &["-q"]);
            if round_of(ahead.path()).is_none() {
                round_at(NOW)
            } else {
                tick_at(root, &["-q"]);
                round_at(&deadline_of(root))
            }
        }
        other => unreachable!("no tick shape {other}"),
    };
    if which == "last" {
        let probe = tempfile::tempdir().unwrap();
        copy_dir(root, probe.path());
        assert_eq!(adjudicate(fill(&run, probe.path())).code, 0);
        assert_eq!(
            round_of(probe.path()),
            None,
            "{game}: the last tick ends the game"
        );
    }
    Shape {
        name: format!("{game} {which} tick"),
        start,
        next: vec![run.clone()],
        run,
        recorded: false,
        full: which == "receive-and-resolve" && game == GameId::ALL[0].name(),
        redo_unless: None,
    }
}

/// Every game of the registry (the matches and the season rounds, each made with `new`) through
/// one tick shape.
fn every_game(which: &str) {
    for game in GameId::ALL {
        matrix(game_shape(game.name(), which));
    }
}

#[test]
fn a_set_up_tick_killed_anywhere_is_finished_by_the_next() {
    every_game("set-up");
}

#[test]
fn a_tick_that_only_receives_killed_anywhere_is_finished_by_the_next() {
    every_game("receive");
}

#[test]
fn a_tick_that_receives_a_rounds_first_versions_and_resolves_killed_anywhere_is_finished() {
    every_game("receive-and-resolve");
}

#[test]
fn a_tick_that_only_resolves_killed_anywhere_is_finished_by_the_next() {
    every_game("resolve");
}

#[test]
fn the_last_tick_of_a_game_killed_anywhere_is_finished_by_the_next() {
    every_game("last");
}

// ---- a season ------------------------------------------------------------------------------

/// A season of seven (`root/s1`) with its first match, a God Race with a schedule.
fn season_with_a_race(root: &Path) -> PathBuf {
    let season = crate::season::new_season(root);
    let made = adjudicate([
        "season".as_ref(),
        "match".as_ref(),
        season.as_os_str(),
        "god-race".as_ref(),
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    season
}

#[test]
fn season_match_killed_anywhere_leaves_no_match_or_the_whole_one() {
    let start = tempfile::tempdir().unwrap();
    crate::season::new_season(start.path());
    matrix(Shape {
        name: "season match".into(),
        start,
        run: args(&["season", "match", "{root}/s1", "god-race"]),
        next: vec![args(&["season", "status", "{root}/s1"])],
        recorded: false,
        full: false,
        redo_unless: Some(|root| root.join("s1/matches/01-god-race").is_dir()),
    });
}

#[test]
fn a_season_tick_that_ends_a_match_killed_anywhere_is_finished_by_the_next() {
    let start = tempfile::tempdir().unwrap();
    let season = season_with_a_race(start.path());
    let race = season.join("matches/01-god-race");
    crate::season::give_schedule(&race);
    let tick_all = |now: &str| {
        args(&[
            "round",
            "--all",
            "{root}",
            "--now",
            &format!("2026-12-{now}T15:00:00Z"),
            "-q",
        ])
    };
    let mut last = None;
    for day in 3..=28 {
        crate::season::bots_answer(&race);
        let ahead = tempfile::tempdir().unwrap();
        copy_dir(start.path(), ahead.path());
        let run = adjudicate(fill(&tick_all(&format!("{day:02}")), ahead.path()));
        assert_eq!(run.code, 0, "{}", run.stderr);
        if crate::season::is_over(&ahead.path().join("s1/matches/01-god-race")) {
            last = Some(format!("{day:02}"));
            break;
        }
        let run = adjudicate(fill(&tick_all(&format!("{day:02}")), start.path()));
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let day = last.expect("the race ends within the month");
    matrix(Shape {
        name: "season tick that ends a match".into(),
        start,
        run: tick_all(&day),
        next: vec![tick_all(&day)],
        recorded: false,
        full: false,
        redo_unless: None,
    });
}

#[test]
fn season_report_killed_anywhere_is_finished_by_the_next() {
    let start = tempfile::tempdir().unwrap();
    crate::season::season_after_one_race(start.path());
    let report = args(&[
        "season",
        "report",
        "{root}/s1",
        "--no-send",
        "--now",
        "2026-12-29T09:00:00Z",
    ]);
    matrix(Shape {
        name: "season report".into(),
        start,
        run: report.clone(),
        next: vec![report],
        recorded: false,
        full: false,
        redo_unless: None,
    });
}

// ---- mail and chat in, mail out --------------------------------------------------------------

/// The Room Swap example in `root/game`, set up at 08:00 with its mail queued.
fn room_swap_in(root: &Path) -> PathBuf {
    let game = root.join("game");
    fs::create_dir_all(&game).unwrap();
    fs::copy(
        crate::support::example_dir().join("game.toml"),
        game.join("game.toml"),
    )
    .unwrap();
    game
}

/// `ingest` of `{root}/game` from `source` at 10:00, run again (it finds nothing new), then the
/// tick at `then` that receives what it wrote.
fn ingest_shape(name: &str, start: tempfile::TempDir, source: [&str; 2], then: &str) -> Shape {
    let mut ingest = args(&["ingest", "{root}/game"]);
    ingest.extend(args(&source));
    ingest.extend(args(&["--now", "2026-12-02T10:00:00Z"]));
    let tick = args(&["round", "{root}/game", "--now", then, "-q", "--no-send"]);
    Shape {
        name: name.into(),
        start,
        run: ingest.clone(),
        next: vec![ingest, tick],
        recorded: false,
        full: false,
        redo_unless: None,
    }
}

#[test]
fn an_ingest_of_a_maildir_killed_anywhere_is_finished_by_the_next() {
    let start = tempfile::tempdir().unwrap();
    let game = room_swap_in(start.path());
    crate::support::tick(&game, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let maildir = start.path().join("mail");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let at = "Wed, 2 Dec 2026 09:00:00 +0000";
    let later = "Wed, 2 Dec 2026 09:10:00 +0000";
    let mails = [
        (
            "1.alice",
            "alice@example.org",
            "a@x",
            at,
            "room = \"cellar\"\r\n",
        ),
        (
            "2.bob",
            "bob@example.org",
            "b@x",
            at,
            "I'll decide tonight\r\n",
        ),
        (
            "3.carol",
            "carol@example.org",
            "c1@x",
            at,
            "room = \"attic\"\r\n",
        ),
        (
            "4.carol",
            "carol@example.org",
            "c2@x",
            later,
            "room = \"basement\"\r\n",
        ),
        ("5.zed", "zed@example.net", "z@x", at, "buy now\r\n"),
    ];
    for (name, from, id, when, body) in mails {
        let text = crate::replies::mail_at(from, id, when, body);
        fs::write(maildir.join("new").join(name), text).unwrap();
    }
    matrix(ingest_shape(
        "ingest of a Maildir",
        start,
        ["--maildir", "{root}/mail"],
        "2026-12-02T10:00:00Z",
    ));
}

#[test]
fn an_ingest_of_a_chat_export_killed_anywhere_is_finished_by_the_next() {
    let start = tempfile::tempdir().unwrap();
    let game = room_swap_in(start.path());
    // Bob plays by chat only: no address.
    let toml = fs::read_to_string(game.join("game.toml"))
        .unwrap()
        .replace("email = \"bob@example.org\"", "chat = \"bobby\"");
    fs::write(game.join("game.toml"), toml).unwrap();
    crate::support::tick(&game, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    let message = |id: &str, at: &str, content: &str| {
        serde_json::json!({ "id": id, "type": "Default", "timestamp": at, "timestampEdited": null,
            "content": content, "author": { "id": "9", "name": "bobby" } })
    };
    let messages = [
        message(
            "1",
            "2026-12-02T09:00:00+00:00",
            "```toml\nroom = \"cellar\"\n```",
        ),
        message("2", "2026-12-02T09:05:00+00:00", "good luck all"),
        message("3", "2026-12-02T09:20:00+00:00", "room = \"attic\""),
    ];
    let json = serde_json::json!({ "guild": { "name": "ORG" }, "channel": { "name": "game" },
        "messages": messages });
    fs::write(start.path().join("chat.json"), json.to_string()).unwrap();
    matrix(ingest_shape(
        "ingest of a chat export",
        start,
        ["--chat", "{root}/chat.json"],
        "2026-12-02T10:01:00Z",
    ));
}

#[test]
fn send_killed_anywhere_is_finished_by_the_next_and_no_mail_is_lost_or_sent_twice() {
    let start = tempfile::tempdir().unwrap();
    let game = room_swap_in(start.path());
    crate::support::tick(&game, "2026-12-02T08:00:00Z", &["-q", "--no-send"]);
    for (player, room) in crate::support::OTHERS {
        submit(&game, 1, player, &format!("room = \"{room}\"\n"));
    }
    crate::support::tick(&game, "2026-12-02T09:00:00Z", &["-q", "--no-send"]);
    let send = args(&["send", "{root}/game"]);
    matrix(Shape {
        name: "send".into(),
        start,
        run: send.clone(),
        next: vec![send],
        recorded: false,
        full: false,
        redo_unless: None,
    });
}

// ---- the host's levers ---------------------------------------------------------------------

/// The lever shapes, each run on every game under `make crash` and on one game in the sample
/// (the `i`th lever on the `i`th game, so that every game meets a lever).
const LEVERS: [&str; 9] = [
    "extend",
    "pause",
    "resume",
    "announce",
    "remind",
    "enter",
    "undo",
    "substitute",
    "withdraw",
];

/// When a lever is pulled on a game made with `new` (set up at `NOW`), and the tick after it.
const PULLED: &str = "2026-12-01T01:00:00Z";
const AFTER: &str = "2026-12-01T01:05:00Z";

/// `lever` pulled on `game` made with `new` in `{root}/game`, every player but the last on file
/// (`{player}` stands for the last, whose skeleton is `{root}/entered.toml` for `enter`), killed
/// anywhere; then the tick after it. `None` where the game's rules refuse the lever.
fn lever_shape(game: &str, lever: &str) -> Option<Shape> {
    let start = tempfile::tempdir().unwrap();
    let root = start.path().join("game");
    new_game(game, &root);
    tick_at(&root, &["-q"]);
    let (player, skeleton) =
        send_skeletons(game, &root, true).expect("a player is asked for a version");
    fs::write(start.path().join("entered.toml"), skeleton).unwrap();
    tick_at(&root, &["-q"]);
    let pulled = |words: &[&str], now: &str| {
        let mut all = vec![words[0].to_owned(), root.display().to_string()];
        all.extend(args(&words[1..]));
        all.extend(args(&["--now", now]));
        crate::support::ok(adjudicate(all));
    };
    let mut redo_unless: Option<fn(&Path) -> bool> = None;
    let words: Vec<&str> = match lever {
        "extend" => vec!["--by", "24h", "--reason", "a player is away"],
        "pause" => vec!["--reason", "a holiday"],
        "resume" => {
            pulled(&["pause", "--reason", "a holiday"], "2026-12-01T00:30:00Z");
            vec!["--reason", "back"]
        }
        "announce" => vec!["--text", "The next round starts after the holiday."],
        "remind" => vec!["--reason", "one player has not sent"],
        "enter" => {
            // done once the entered file is among the round's submissions
            redo_unless = Some(|root| {
                let entered = fs::read(root.join("entered.toml")).unwrap();
                walkdir::WalkDir::new(root.join("game/rounds"))
                    .into_iter()
                    .flatten()
                    .filter(|e| {
                        e.path()
                            .parent()
                            .is_some_and(|p| p.ends_with("submissions"))
                    })
                    .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                    .any(|e| fs::read(e.path()).unwrap() == entered)
            });
            vec![&*player, "{root}/entered.toml", "--reason", "sent by phone"]
        }
        "undo" => {
            crate::support::tick(&root, "2026-12-01T00:30:00Z", &["--force", "-q"]);
            match round_of(&root) {
                Some(_) => vec!["--reason", "a mistake"],
                // a game of one round is over: its last round is undone by force
                None => vec!["--reason", "a mistake", "--force"],
            }
        }
        "substitute" => vec![
            &*player,
            "--name",
            "Nia",
            "--email",
            "nia@example.org",
            "--reason",
            "left",
        ],
        "withdraw" => vec![&*player, "--reason", "quit"],
        other => unreachable!("no lever {other}"),
    };
    let mut run = args(&[lever, "{root}/game"]);
    run.extend(words.iter().map(|w| w.to_string()));
    run.extend(args(&["--now", PULLED]));
    // a lever the game's rules refuse (a Death Match pick is not left: the season records it)
    let probe = tempfile::tempdir().unwrap();
    copy_dir(start.path(), probe.path());
    let tried = adjudicate(fill(&run, probe.path()));
    if tried.code == 2 {
        println!(
            "crash: {game} {lever} lever: refused by the game ({})",
            tried.stderr.trim()
        );
        return None;
    }
    Some(Shape {
        name: format!("{game} {lever} lever"),
        start,
        run,
        next: vec![args(&["round", "{root}/game", "--now", AFTER, "-q"])],
        recorded: redo_unless.is_none(),
        full: false,
        redo_unless,
    })
}

/// One lever through the games: every game under `make crash`, else the `i`th (or the next that
/// takes the lever).
fn every_game_pulls(lever: &str) {
    let i = LEVERS.iter().position(|l| *l == lever).expect("a lever");
    let games = GameId::ALL.len();
    let mut pulled = 0;
    for k in 0..games {
        let game = GameId::ALL[(i + k) % games].name();
        if let Some(shape) = lever_shape(game, lever) {
            matrix(shape);
            pulled += 1;
            if !all_points() {
                break;
            }
        }
    }
    assert!(pulled > 0, "no game takes {lever}");
}

#[test]
fn extend_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("extend");
}

#[test]
fn pause_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("pause");
}

#[test]
fn resume_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("resume");
}

#[test]
fn announce_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("announce");
}

#[test]
fn remind_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("remind");
}

/// A killed `enter` may leave its record without the version (the bytes were the host's file):
/// the host runs it again, which finishes that entry instead of recording a second.
#[test]
fn enter_killed_anywhere_is_finished_by_running_it_again() {
    every_game_pulls("enter");
}

#[test]
fn undo_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("undo");
}

#[test]
fn substitute_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("substitute");
}

#[test]
fn withdraw_killed_anywhere_is_finished_by_the_next_tick() {
    every_game_pulls("withdraw");
}
