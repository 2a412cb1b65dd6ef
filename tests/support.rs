//! Shared test helpers: fixture paths, real temporary game directories, running the built binary,
//! and the subset comparison the rule cases use.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The matches of the registry (not the season rounds), by id: every test that loops over the
/// games takes them from here, so a new game is tested without editing the tests.
pub fn matches() -> Vec<&'static str> {
    adjudicate::games::GameId::ALL
        .iter()
        .filter(|g| !g.is_season_round())
        .map(|g| g.name())
        .collect()
}

pub fn example_dir() -> PathBuf {
    manifest_dir().join("games/room-swap/example")
}

/// Every key God Race's `[public]` may hold: what the rules announce, nothing else.
pub const GOD_RACE_PUBLIC_KEYS: [&str; 14] = [
    "round",
    "orbs",
    "rituals",
    "winners",
    "moves",
    "podium",
    "places",
    "finished_now",
    "spaces",
    "meadows",
    "defaults",
    "picture",
    "next_round",
    "final",
];

pub fn god_race_example_dir() -> PathBuf {
    manifest_dir().join("games/god-race/example")
}

/// A player of game.toml with no mail, chat or game-specific keys, named by their id.
pub fn player(id: &str, garnets: i64) -> adjudicate::config::PlayerConfig {
    adjudicate::config::PlayerConfig {
        id: adjudicate::player_id::PlayerId::parse(id).expect("test player ids are valid"),
        name: id.to_owned(),
        email: None,
        chat: None,
        garnets,
        tokens_of_life: 0,
        extra: Default::default(),
        tz: None,
    }
}

/// Asserts that `check` refuses a game directory holding `game_toml` (exit 65) with a message
/// containing `expected` (the file and the key).
pub fn assert_check_error(game_toml: &str, expected: &str) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("game.toml"), game_toml).unwrap();
    let run = adjudicate(["check".as_ref(), tmp.path().as_os_str()]);
    assert_eq!(run.code, 65, "{expected}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(expected),
        "expected {expected:?} in {}",
        run.stderr
    );
}

/// `Some(description)` if `expected` is not contained in `actual`: tables are compared key by key
/// (extra keys in `actual` are fine), everything else must be equal.
pub fn subset_mismatch(expected: &toml::Value, actual: &toml::Value, path: &str) -> Option<String> {
    match (expected, actual) {
        (toml::Value::Table(e), toml::Value::Table(a)) => {
            e.iter().find_map(|(k, ev)| match a.get(k) {
                Some(av) => subset_mismatch(ev, av, &format!("{path}.{k}")),
                None => Some(format!("{path}.{k} is missing (expected {ev})")),
            })
        }
        (e, a) if e == a => None,
        (e, a) => Some(format!("{path} = {a}, expected {e}")),
    }
}

/// The result of one run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

pub fn adjudicate<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_adjudicate"))
        .args(args)
        .output()
        .expect("the binary runs")
        .into()
}

/// A fresh game directory holding a copy of the example's game.toml (and nothing else).
pub fn example_game() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        example_dir().join("game.toml"),
        tmp.path().join("game.toml"),
    )
    .unwrap();
    tmp
}

/// Writes a submission into the current round's folder, as a player or `ingest` would.
pub fn submit(dir: &Path, round: u32, player: &str, text: &str) {
    let folder = dir.join(format!("rounds/{round:03}/submissions"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(format!("{player}.toml")), text).unwrap();
}

/// `adjudicate round DIR --now NOW [extra…]`, asserting exit 0.
pub fn tick(dir: &Path, now: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "round".to_owned(),
        dir.display().to_string(),
        "--now".into(),
        now.into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let run = adjudicate(&args);
    assert_eq!(run.code, 0, "round failed: {}{}", run.stdout, run.stderr);
    run
}

/// Copies every file of `snapshot(from)` into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    for (path, bytes) in snapshot(from) {
        let target = to.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
}

/// Every file under `dir` (relative path -> bytes), the lock file excepted.
pub fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        // `.cache/` only saves work (tick_cache); it is not part of the archive
        .filter_entry(|e| e.depth() != 1 || e.file_name() != ".cache")
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && e.file_name() != ".adjudicate.lock")
        .map(|e| {
            (
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The Room Swap example's script (`games/room-swap/example/script`): one `(now, files)` per tick.
pub fn script() -> Vec<(String, Vec<String>)> {
    script_of(&example_dir())
}

pub fn script_of(example: &Path) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(example.join("script")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut words = line.split_whitespace().map(String::from);
            (words.next().unwrap(), words.collect())
        })
        .collect()
}

/// Plays the example's script into `dir` the way `make demo` does: each file is copied into its
/// round's `submissions/` (`r2/bob.v2.toml` -> `rounds/002/submissions/bob.toml`), then a tick runs
/// at `now`; `after` is called after each tick.
pub fn play_script_with(dir: &Path, after: impl FnMut(&str)) {
    play_example(dir, &example_dir(), after);
}

/// Plays the script of `example` into `dir`; the word `bot` runs `scripts/bot.py`, which answers
/// for every player of a God Race (as `make demo` does).
pub fn play_example(dir: &Path, example: &Path, after: impl FnMut(&str)) {
    play_ticks(dir, example, usize::MAX, after);
}

/// Plays the first `ticks` ticks of the script of `example` into `dir` (a game in progress).
pub fn play_ticks(dir: &Path, example: &Path, ticks: usize, mut after: impl FnMut(&str)) {
    for (now, files) in script_of(example).into_iter().take(ticks) {
        for file in files {
            if file == "bot" {
                let status = Command::new("python3")
                    .arg(manifest_dir().join("scripts/bot.py"))
                    .arg(dir)
                    .status()
                    .unwrap();
                assert!(status.success(), "bot.py failed");
                continue;
            }
            let (folder, name) = file.split_once('/').unwrap();
            let round: u32 = folder.trim_start_matches('r').parse().unwrap();
            let player = name.split('.').next().unwrap();
            let text = std::fs::read_to_string(example.join("submissions").join(&file)).unwrap();
            submit(dir, round, player, &text);
        }
        tick(dir, &now, &["-q"]);
        after(&now);
    }
}

pub fn play_script(dir: &Path) {
    play_script_with(dir, |_| {});
}

/// A real SMTP server (aiosmtpd, `tests/smtp_server.py`) on 127.0.0.1 that writes what it accepts
/// into a Maildir. Stopped when dropped.
pub struct SmtpServer {
    pub port: u16,
    pub maildir: tempfile::TempDir,
    child: std::process::Child,
}

/// The Python with aiosmtpd: `ADJUDICATE_TEST_PYTHON`, else the `.venv` that `make test` creates.
fn smtp_python() -> PathBuf {
    if let Ok(p) = std::env::var("ADJUDICATE_TEST_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = manifest_dir().join(".venv/bin/python");
    assert!(
        venv.exists(),
        "no {}: run `make test`, which installs aiosmtpd into .venv",
        venv.display()
    );
    venv
}

impl SmtpServer {
    pub fn start(args: &[&str]) -> SmtpServer {
        use std::io::BufRead;
        let maildir = tempfile::tempdir().unwrap();
        let mut child = Command::new(smtp_python())
            .arg(manifest_dir().join("tests/smtp_server.py"))
            .arg(maildir.path().join("box")) // a new path: the server's Maildir makes its own tree
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("the SMTP server said {line:?}"));
        SmtpServer {
            port,
            maildir,
            child,
        }
    }

    /// Every message received so far: (envelope recipients, whole message).
    pub fn received(&self) -> Vec<(String, String)> {
        let new = self.maildir.path().join("box/new");
        let mut out: Vec<(String, String)> = std::fs::read_dir(&new)
            .map(|d| {
                d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
                    .collect::<Vec<String>>()
            })
            .unwrap_or_default()
            .into_iter()
            .map(|text: String| {
                let rcpt = header(&text, "X-RcptTo").unwrap_or_default();
                (rcpt, text)
            })
            .collect();
        out.sort();
        out
    }
}

impl SmtpServer {
    /// Relays each message file as is, over SMTP, from its envelope sender (`(sender, file)`;
    /// `None`: the address of its From header) to host@example.org.
    pub fn relay(&self, messages: &[(Option<&str>, &Path)]) {
        let args: Vec<String> = messages
            .iter()
            .map(|(from, path)| format!("{}={}", from.unwrap_or(""), path.display()))
            .collect();
        let script = format!(
            "import smtplib, sys, email\nfor arg in sys.argv[1:]:\n    sender, path = arg.split('=', 1)\n    raw = open(path, 'rb').read()\n    sender = sender or email.message_from_bytes(raw)['From'].split('<')[-1].strip('>\\\" ')\n    with smtplib.SMTP('127.0.0.1', {}) as s:\n        s.sendmail(sender, ['host@example.org'], raw)\n",
            self.port
        );
        let status = Command::new("python3")
            .arg("-c")
            .arg(script)
            .args(&args)
            .status()
            .unwrap();
        assert!(status.success(), "the SMTP relay failed");
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of a header of a message (first occurrence, unfolded).
pub fn header(message: &str, name: &str) -> Option<String> {
    let head = message.replace("\r\n", "\n");
    let head = head
        .split("\n\n")
        .next()?
        .replace("\n ", " ")
        .replace("\n\t", " ");
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_owned))
}

/// A port nothing listens on.
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A file's text; a missing file fails the test naming it.
pub fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The body of a message, quoted-printable undone and whitespace runs made single spaces.
pub fn flat(message: &str) -> String {
    let body = message.split_once("\r\n\r\n").map_or(message, |(_, b)| b);
    let body = body.replace("=\r\n", "").replace("=3D", "=");
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rooms of the Room Swap example's players but Bob in round 1.
pub const OTHERS: [(&str, &str); 5] = [
    ("alice", "attic"),
    ("carol", "attic"),
    ("dave", "cellar"),
    ("erin", "cellar"),
    ("frank", "basement"),
];

/// The Room Swap example (round 1 closes Wed 2 Dec 15:00, then every 24 h) with everyone but Bob
/// on file since 09:00; `schedule` lines are added to its `[schedule]`.
pub fn everyone_but_bob(schedule: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let toml = std::fs::read_to_string(example_dir().join("game.toml"))
        .unwrap()
        .replace("every = \"24h\"\n", &format!("every = \"24h\"\n{schedule}"));
    std::fs::write(tmp.path().join("game.toml"), toml).unwrap();
    for (player, room) in OTHERS {
        submit(tmp.path(), 1, player, &format!("room = \"{room}\"\n"));
    }
    tick(tmp.path(), "2026-12-02T09:00:00Z", &["-q"]);
    tmp
}

/// Bob's mail as the host's server stored it: it reached the server at `reached` (the top
/// Received: header, added by the host's own server); Bob's phone dated it earlier.
pub fn bobs_mail(dir: &Path, reached: &str) -> std::path::PathBuf {
    let path = dir.join(format!("bob-{reached}.eml"));
    let text = format!(
        "Return-Path: <bob@example.org>\r\n\
         Received: from mail-wr1-f41.google.com (mail-wr1-f41.google.com [209.85.221.41])\r\n\
         \tby mx.host.example.org (Postfix) with ESMTPS id 4Q1x2y\r\n\
         \tfor <host@example.org>; Wed, 02 Dec 2026 {reached}:12 +0000 (UTC)\r\n\
         Received: by mail-wr1-f41.google.com with SMTP id x2so;\r\n\
         \tWed, 02 Dec 2026 {reached}:10 -0800 (PST)\r\n\
         From: Bob <bob@example.org>\r\n\
         To: host@example.org\r\n\
         Subject: Re: round 1\r\n\
         Date: Wed, 2 Dec 2026 14:30:00 +0000\r\n\
         Message-ID: <bob-{reached}@mail.gmail.com>\r\n\
         Content-Type: text/plain; charset=\"UTF-8\"\r\n\
         \r\n\
         room = \"basement\"\r\n\
         \r\n\
         Sent from my iPhone\r\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// `adjudicate <lever> DIR args… --now NOW`.
pub fn lever(name: &str, dir: &Path, args: &[&str], now: &str) -> Run {
    let mut all: Vec<String> = vec![name.into(), dir.display().to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    all.extend(["--now".into(), now.into()]);
    adjudicate(all)
}

pub fn ok(run: Run) -> Run {
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

pub fn toml_of(path: &Path) -> toml::Table {
    toml::from_str(&text(path)).unwrap()
}

/// Every message in outbox/ and sent/ whose name starts with `prefix`.
pub fn messages(dir: &Path, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for folder in ["outbox", "sent"] {
        if let Ok(entries) = std::fs::read_dir(dir.join(folder)) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().starts_with(prefix) {
                    out.push(text(&entry.path()));
                }
            }
        }
    }
    out
}

/// The first resolved round's result.toml (an opening closes nothing), if any.
pub fn first_resolved(dir: &Path) -> Option<std::path::PathBuf> {
    let mut rounds: Vec<_> = std::fs::read_dir(dir.join("rounds"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    rounds.sort();
    rounds
        .into_iter()
        .map(|r| r.join("result.toml"))
        .find(|r| r.is_file() && toml_of(r)["meta"].get("closed").is_some())
}

/// Ticks with `--force` a day apart from `from` (Unix seconds) until the game is over; returns
/// the clock of the last tick.
pub fn play_to_end(dir: &Path, from: i64) -> String {
    let mut at = jiff::Timestamp::from_second(from).unwrap();
    for _ in 0..20 {
        if tick(dir, &at.to_string(), &["--force"])
            .stdout
            .contains("the game is over")
        {
            return at.to_string();
        }
        at = at
            .checked_add(jiff::SignedDuration::from_hours(24))
            .unwrap();
    }
    panic!("{} is not over after 20 rounds", dir.display())
}
