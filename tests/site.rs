//! `adjudicate site ROOT OUT`: the public archive of the sample games, built by the binary from
//! real game directories; what no page may hold (a private fact, a hidden fact changed must not
//! change the site); incremental writes; a broken game; and, where Chromium is installed (CI
//! installs it), every page kind loaded in headless Chromium at phone and desktop widths, with
//! tidy's HTML check.

use crate::support::{adjudicate, manifest_dir, play_example, snapshot, text};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The sample games played to their end (as `make demo` does) under one root, built once for
/// every test of this module; tests copy it before changing anything.
fn played_root() -> &'static Path {
    static ROOT: OnceLock<tempfile::TempDir> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = tempfile::tempdir().unwrap();
        for game in crate::support::matches() {
            let example = manifest_dir().join("games").join(game).join("example");
            let dir = root.path().join(game);
            fs::create_dir_all(&dir).unwrap();
            fs::copy(example.join("game.toml"), dir.join("game.toml")).unwrap();
            play_example(&dir, &example, |_| {});
        }
        root
    })
    .path()
}

fn build(root: &Path, out: &Path) -> crate::support::Run {
    adjudicate(["site".as_ref(), root.as_os_str(), out.as_os_str()])
}

/// Every resolved round of a game directory: (folder of its result.toml, page file).
fn resolved_rounds(dir: &Path) -> Vec<String> {
    let mut pages = Vec::new();
    if dir.join("rounds/000/opening/result.toml").is_file() {
        pages.push("opening.html".to_owned());
    }
    let mut rounds: Vec<String> = fs::read_dir(dir.join("rounds"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| dir.join("rounds").join(n).join("result.toml").is_file())
        .collect();
    rounds.sort();
    pages.extend(rounds.iter().map(|n| format!("round-{n}.html")));
    pages
}

#[test]
fn every_game_gets_an_index_entry_a_page_per_round_a_picture_and_a_feed_entry() {
    let out = tempfile::tempdir().unwrap();
    let run = build(played_root(), out.path());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("site: 4 game(s)"), "{}", run.stdout);

    let index = text(&out.path().join("index.html"));
    let feed = text(&out.path().join("feed.xml"));
    let mut entries = 0;
    for game in crate::support::matches() {
        let config: toml::Table =
            toml::from_str(&text(&played_root().join(game).join("game.toml"))).unwrap();
        let title = config["title"].as_str().unwrap();
        assert!(
            index.contains(&format!("<a href=\"{game}/index.html\">{title}</a>")),
            "{game} not in the index"
        );
        let page = text(&out.path().join(game).join("index.html"));
        let rounds = resolved_rounds(&played_root().join(game));
        assert!(rounds.len() >= 2, "{game}: {rounds:?}");
        for round in &rounds {
            assert!(
                page.contains(&format!("<a href=\"{round}\">")),
                "{game}: {round} not listed"
            );
            let html = text(&out.path().join(game).join(round));
            assert!(
                html.contains("<pre class=\"announcement\">"),
                "{game}/{round}"
            );
            assert!(
                feed.contains(&format!("href=\"{game}/{round}\"")),
                "{game}/{round} not in the feed"
            );
            entries += 1;
        }
        // every game is over: its status says so, with its winners
        assert!(page.contains("· Over"), "{game}: {page}");
        // every game's page has a picture: its chart, or its latest round's
        assert!(page.contains("<svg"), "{game}: no picture on its page");
    }
    assert_eq!(feed.matches("<entry>").count(), entries);
    // God Race: the track on every round page after the opening, and the chart on its page
    let race = text(&out.path().join("god-race/index.html"));
    assert!(
        race.contains("Every god&#39;s space after each round")
            || race.contains("Every god's space after each round"),
        "{race}"
    );
    // nothing from elsewhere: no script, no external stylesheet, image or font
    for (path, html) in site_files(out.path()) {
        if path.extension().is_some_and(|e| e == "html") {
            assert!(!html.contains("<script"), "{}", path.display());
            assert!(!html.contains("<link"), "{}", path.display());
            assert!(!html.contains("src="), "{}", path.display());
            assert!(!html.contains("url("), "{}", path.display());
            assert_eq!(
                html.matches("<svg").count(),
                html.matches("<title>").count() - 1,
                "{}: an SVG without a title",
                path.display()
            );
        }
    }
}

#[test]
fn winners_and_statuses_read_as_the_announcements_say() {
    let out = tempfile::tempdir().unwrap();
    build(played_root(), out.path());
    let index = text(&out.path().join("index.html"));
    // each finished game's winners, in the names of game.toml, taken from its final announcement
    for game in crate::support::matches() {
        let page = text(&out.path().join(game).join("index.html"));
        let winners_line = page
            .lines()
            .find(|l| l.contains("class=\"status\""))
            .unwrap()
            .to_owned();
        assert!(winners_line.contains("Winners: "), "{game}: {winners_line}");
        let names = winners_line
            .split("Winners: ")
            .nth(1)
            .unwrap()
            .trim_end_matches("</p>");
        for name in names.split(", ") {
            let announced = resolved_rounds(&played_root().join(game)).iter().any(|r| {
                text(&out.path().join(game).join(r)).contains(name.trim_end_matches(" alignment"))
            });
            assert!(announced, "{game}: winner {name} is in no announcement");
            assert!(index.contains(name), "{game}: {name} not in the index");
        }
    }
}

fn site_files(out: &Path) -> BTreeMap<PathBuf, String> {
    walkdir::WalkDir::new(out)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(out).unwrap().to_path_buf(),
                text(e.path()),
            )
        })
        .collect()
}

/// Replaces every value of a table (recursively) by one that says SECRET, keeping its shape.
fn scramble(value: &mut toml::Value) {
    match value {
        toml::Value::String(s) => *s = format!("SECRET {s}"),
        toml::Value::Integer(i) => *i += 977,
        toml::Value::Boolean(b) => *b = !*b,
        toml::Value::Array(a) => a.iter_mut().for_each(scramble),
        toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| scramble(v)),
        _ => {}
    }
}

#[test]
fn hidden_facts_changed_leave_the_site_byte_for_byte_the_same() {
    let root = tempfile::tempdir().unwrap();
    crate::support::copy_dir(played_root(), root.path());
    let before = tempfile::tempdir().unwrap();
    build(root.path(), before.path());

    // every private part and garnet change of every result, every player's email, the states
    for game in crate::support::matches() {
        let dir = root.path().join(game);
        for entry in walkdir::WalkDir::new(dir.join("rounds")) {
            let entry = entry.unwrap();
            if entry.file_name() != "result.toml" {
                continue;
            }
            let mut result: toml::Table = toml::from_str(&text(entry.path())).unwrap();
            for key in ["private", "garnets"] {
                if let Some(part) = result.get_mut(key) {
                    scramble(part);
                }
            }
            fs::write(entry.path(), toml::to_string(&result).unwrap()).unwrap();
        }
        let game_toml = dir.join("game.toml");
        let edited = text(&game_toml).replace("@example.", "@secret.example.");
        fs::write(&game_toml, edited).unwrap();
        fs::write(dir.join("state.toml"), "this = \"is not read\"\n").unwrap();
    }
    let emails: Vec<String> = crate::support::matches()
        .iter()
        .flat_map(|game| {
            let config: toml::Table =
                toml::from_str(&text(&root.path().join(game).join("game.toml"))).unwrap();
            config["players"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|p| p.get("email")?.as_str().map(String::from))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(emails.iter().any(|e| e.contains("@secret.example.")));
    let after = tempfile::tempdir().unwrap();
    let run = build(root.path(), after.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (a, b) = (site_files(before.path()), site_files(after.path()));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, html) in &a {
        assert_eq!(
            html,
            &b[path],
            "{} changed with a hidden fact",
            path.display()
        );
        assert!(!b[path].contains("SECRET"), "{}", path.display());
        for email in &emails {
            assert!(
                !b[path].contains(email.as_str()),
                "{}: {email}",
                path.display()
            );
        }
    }
}

#[test]
fn a_second_run_writes_nothing_and_a_new_round_rewrites_only_its_pages() {
    let out = tempfile::tempdir().unwrap();
    build(played_root(), out.path());
    let before = snapshot(out.path());
    let run = build(played_root(), out.path());
    assert!(run.stdout.contains("0 file(s) written"), "{}", run.stdout);
    assert_eq!(before, snapshot(out.path()));
    // Published pages: a web server running as another user can read every one.
    for page in before.keys() {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(out.path().join(page))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o044, 0o044, "{} is {mode:o}", page.display());
    }
}

#[test]
fn a_broken_game_is_named_and_nothing_is_written_unless_skip_broken_publishes_the_rest() {
    let root = tempfile::tempdir().unwrap();
    crate::support::copy_dir(played_root(), root.path());
    let broken = root.path().join("god-race/rounds/001/result.toml");
    fs::write(
        &broken,
        text(&broken).replacen("round = 1", "round = \"one\"", 1),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = build(root.path(), out.path());
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("god-race/rounds/001/result.toml"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("nothing written"), "{}", run.stderr);
    assert_eq!(
        fs::read_dir(out.path()).unwrap().count(),
        0,
        "a site without a game is not published"
    );
    let run = adjudicate([
        "site".as_ref(),
        root.path().as_os_str(),
        out.path().as_os_str(),
        "--skip-broken".as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("site: 3 game(s)"), "{}", run.stdout);
    assert!(!out.path().join("god-race").exists());
    assert!(out.path().join("room-swap/index.html").is_file());
}

/// A result.toml whose public part was edited by hand (or broken so that a template would fail
/// on a missing key) is named with its file and key; the site reads nothing the rules would not
/// have written.
#[test]
fn a_hand_edited_announcement_is_named_by_file_and_key() {
    for (game, from, to) in [
        ("room-swap", "[public]", "[public]\nsurprise = 1"),
        (
            "god-race",
            "[public.final",
            "[public.junk]\nx = 1\n\n[public.final",
        ),
    ] {
        let root = tempfile::tempdir().unwrap();
        crate::support::copy_dir(&played_root().join(game), &root.path().join(game));
        let last = resolved_rounds(&root.path().join(game))
            .into_iter()
            .rfind(|p| p.starts_with("round-"))
            .unwrap();
        let number = &last["round-".len()..last.len() - ".html".len()];
        let path = root
            .path()
            .join(game)
            .join(format!("rounds/{number}/result.toml"));
        let original = text(&path);
        assert!(original.contains(from), "{game}: {from} not in {original}");
        fs::write(&path, original.replacen(from, to, 1)).unwrap();
        let out = tempfile::tempdir().unwrap();
        let run = build(root.path(), out.path());
        assert_eq!(run.code, 65, "{game}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!("rounds/{number}/result.toml"))
                && run.stderr.contains("public"),
            "{game}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("Variable"), "{game}: {}", run.stderr);
    }
}

#[test]
fn a_host_template_replaces_the_built_in_one_and_a_broken_one_is_named() {
    let root = tempfile::tempdir().unwrap();
    crate::support::copy_dir(
        &played_root().join("room-swap"),
        &root.path().join("room-swap"),
    );
    fs::create_dir_all(root.path().join("templates/site")).unwrap();
    let template = root.path().join("templates/site/index.html.tera");
    fs::write(
        &template,
        "{% extends \"base.html.tera\" %}{% block main %}<h1>Our league</h1>{% endblock main %}",
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = build(root.path(), out.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(text(&out.path().join("index.html")).contains("<h1>Our league</h1>"));
    fs::write(&template, "{% if %}").unwrap();
    let run = build(root.path(), out.path());
    assert_eq!(run.code, 65);
    assert!(
        run.stderr.contains("templates/site/index.html.tera"),
        "{}",
        run.stderr
    );
}

/// The browser and the HTML checker, where installed; CI sets ADJUDICATE_BROWSER_TESTS=1 so that
/// a missing browser fails there rather than skipping.
pub fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() && std::env::var_os("ADJUDICATE_BROWSER_TESTS").is_some() {
        panic!("{name} is not installed, and ADJUDICATE_BROWSER_TESTS is set");
    }
    if found.is_none() {
        eprintln!("site: {name} not installed; skipped (CI installs it)");
    }
    found
}

/// Checks a page with tidy: no error, no warning.
pub fn assert_tidy(tidy: &Path, page: &Path) {
    let run = std::process::Command::new(tidy)
        .args([
            "-q",
            "-e",
            "--show-warnings",
            "yes",
            "--drop-empty-elements",
            "no",
        ])
        .arg(page)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{}:\n{report}", page.display());
}

/// Loads `pages` in headless Chromium (scripts/site_check.py) at phone and desktop widths,
/// screenshots into `shots`: one report per page and width.
pub fn in_chromium(chromium: &Path, shots: &Path, pages: &[PathBuf]) -> Vec<serde_json::Value> {
    let run = std::process::Command::new("python3")
        .arg(manifest_dir().join("scripts/site_check.py"))
        .arg(chromium)
        .arg(shots)
        .args(pages)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// One page of each kind per game: the index, each game's page, its first and last round.
fn page_kinds(out: &Path) -> Vec<PathBuf> {
    let mut pages = vec![out.join("index.html")];
    for game in crate::support::matches() {
        let rounds = resolved_rounds(&played_root().join(game));
        pages.push(out.join(game).join("index.html"));
        pages.push(out.join(game).join(rounds.first().unwrap()));
        pages.push(out.join(game).join(rounds.last().unwrap()));
    }
    pages
}

#[test]
fn pages_pass_tidy() {
    let Some(tidy) = tool("tidy") else { return };
    let out = tempfile::tempdir().unwrap();
    build(played_root(), out.path());
    for page in page_kinds(out.path()) {
        assert_tidy(&tidy, &page);
    }
}

#[test]
fn pages_render_in_headless_chromium_at_phone_and_desktop_widths() {
    let Some(chromium) = tool("chromium") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    build(played_root(), out.path());
    let shots = std::env::var_os("ADJUDICATE_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| out.path().join("screenshots"));
    let pages = page_kinds(out.path());
    let reports = in_chromium(&chromium, &shots, &pages);
    assert_eq!(reports.len(), pages.len() * 2);
    for r in &reports {
        let at = format!("{} at {} px", r["page"], r["width"]);
        assert_eq!(r["lang"], "en", "{at}");
        assert_eq!(r["h1"], 1, "{at}");
        assert_eq!(r["svgs_without_title"], 0, "{at}");
        assert_eq!(
            r["overflow"],
            serde_json::json!([]),
            "{at}: overflows the viewport"
        );
        assert_eq!(
            r["low_contrast"],
            serde_json::json!([]),
            "{at}: low contrast"
        );
        assert_eq!(
            r["external"],
            serde_json::json!([]),
            "{at}: loads from elsewhere"
        );
        assert_eq!(r["scripts"], 0, "{at}");
        let png = fs::read(r["screenshot"].as_str().unwrap()).unwrap();
        assert_eq!(&png[1..4], b"PNG", "{at}");
    }
    // the round pages show their announcement and picture as rendered text
    let last_race = reports
        .iter()
        .find(|r| {
            r["page"].as_str().unwrap().contains("god-race/round-") && r["svgs"].as_u64() == Some(1)
        })
        .expect("a God Race round page with its track");
    assert!(last_race["text"].as_str().unwrap().contains("Announcement"));
}
