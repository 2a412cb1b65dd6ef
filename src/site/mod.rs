//! `adjudicate site ROOT OUT_DIR`: the public archive of every game under ROOT as a static web
//! site. Everything on it comes from `[public]` and `[meta]` of each round's result.toml and the
//! players' display names of game.toml: never `[private]`, `[garnets]`, state.toml, receipts,
//! submissions or secrets, so no private fact can reach a page (tests change hidden facts and
//! check that the site does not change).
//!
//! Pages are rendered through tera templates (`templates/site/`, overridden from
//! `ROOT/templates/site/`), pictures are inline SVG (`pictures.rs`), the pages need no script and
//! no resource from elsewhere. Writes go through a `Plan`: a page whose bytes did not change is
//! not written again, so a cron line can follow every tick.

pub mod pictures;

use crate::clock;
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::game_dir::GameDir;
use crate::plan::Plan;
use crate::result_file::ResultFile;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tera::Tera;

/// (name, built-in source) of the site's templates.
const BUILT_IN: &[(&str, &str)] = &[
    (
        "base.html.tera",
        include_str!("../../templates/site/base.html.tera"),
    ),
    (
        "index.html.tera",
        include_str!("../../templates/site/index.html.tera"),
    ),
    (
        "game.html.tera",
        include_str!("../../templates/site/game.html.tera"),
    ),
    (
        "round.html.tera",
        include_str!("../../templates/site/round.html.tera"),
    ),
    (
        "feed.xml.tera",
        include_str!("../../templates/site/feed.xml.tera"),
    ),
    (
        "season.html.tera",
        include_str!("../../templates/site/season.html.tera"),
    ),
];

/// What `site` did.
#[derive(Debug, Default)]
pub struct SiteReport {
    pub games: usize,
    pub pages: usize,
    pub bytes: usize,
    /// The files written because they were new or changed.
    pub written: Vec<PathBuf>,
    /// Games left out, with why (each names its file).
    pub errors: Vec<Error>,
}

/// One game as the templates see it.
#[derive(Debug, Serialize)]
struct GameView {
    title: String,
    game: &'static str,
    /// The folder of its pages, relative to the site root ("season/matches/01-god-race").
    path: String,
    /// "../../" back to the site root from the game's folder.
    root: String,
    status: String,
    over: bool,
    winners: Vec<String>,
    rounds: Vec<RoundView>,
    /// A chart of the whole game, where the game has one (God Race: every god's position across
    /// rounds; Room Swap: the final points), and its heading.
    chart: Option<Chart>,
    /// The host's public notices (`rounds/NNN/notices/`), in the order taken.
    notices: Vec<NoticeView>,
}

#[derive(Debug, Serialize)]
struct NoticeView {
    round: u32,
    text: String,
}

#[derive(Debug, Serialize)]
struct Chart {
    heading: &'static str,
    svg: String,
}

#[derive(Debug, Clone, Serialize)]
struct RoundView {
    /// The page's file name in the game's folder ("round-003.html").
    file: String,
    label: String,
    announcement: String,
    picture: Option<String>,
    /// RFC 3339: when the round closed (its deadline), for the feed.
    updated: String,
    /// A stable id for the feed.
    id: String,
}

/// A season as the site shows it: Tokens of Life, eliminations and match results, which are
/// public; never a garnet balance, which is private.
#[derive(Debug, Serialize)]
struct SeasonView {
    title: String,
    path: String,
    root: String,
    standings: Vec<SeasonStanding>,
    matches: Vec<SeasonMatch>,
    events: Vec<String>,
    living: usize,
    /// The season's winner: the last jury vote's (a Tribal Council in jury mode).
    winner: Option<String>,
}

#[derive(Debug, Serialize)]
struct SeasonStanding {
    name: String,
    tokens: i64,
    eliminated: bool,
}

#[derive(Debug, Serialize)]
struct SeasonMatch {
    title: String,
    game: &'static str,
    /// The match's page, relative to the season's.
    href: String,
    status: String,
    winners: Vec<String>,
    elimination: Vec<String>,
}

#[derive(Serialize)]
struct RoundPage<'a> {
    game: &'a GameView,
    round: &'a RoundView,
    previous: Option<&'a RoundView>,
    next: Option<&'a RoundView>,
}

#[derive(Serialize)]
struct FeedEntry<'a> {
    game: &'a GameView,
    round: &'a RoundView,
}

/// Builds the site of every game under `root` into `out`. When a game or season cannot be read,
/// nothing is written unless `skip_broken` (the report lists them either way).
pub fn build(root: &Path, out: &Path, skip_broken: bool) -> Result<SiteReport> {
    let tera = templates(&root.join("templates").join("site"))?;
    let mut report = SiteReport::default();
    let (game_dirs, season_dirs) = crate::all_games::games_and_seasons(root)?;
    let mut games = Vec::new();
    for dir in game_dirs {
        let path = site_path(root, &dir);
        match load_game(dir, path) {
            Ok(game) => games.push(game),
            Err(e) => report.errors.push(e),
        }
    }
    report.games = games.len();
    let mut seasons = Vec::new();
    for dir in season_dirs {
        let path = site_path(root, &dir);
        match load_season(&dir, path) {
            Ok(season) => seasons.push(season),
            Err(e) => report.errors.push(e),
        }
    }
    if !report.errors.is_empty() && !skip_broken {
        return Ok(report);
    }

    let mut plan = Plan::public();
    let mut page = |plan: &mut Plan, path: PathBuf, text: String| {
        report.pages += 1;
        report.bytes += text.len();
        plan.file(path, text);
    };
    plan.dir(out.to_path_buf());
    for season in &seasons {
        let folder = out.join(&season.path);
        plan.dir(folder.clone());
        let mut ctx = tera::Context::new();
        ctx.insert("root", &season.root);
        ctx.insert("season", season);
        page(
            &mut plan,
            folder.join("index.html"),
            crate::render::render_fixed(&tera, "season.html.tera", &ctx)?,
        );
    }
    let mut ctx = tera::Context::new();
    ctx.insert("root", "");
    ctx.insert("seasons", &seasons);
    ctx.insert("games", &games);
    page(
        &mut plan,
        out.join("index.html"),
        crate::render::render_fixed(&tera, "index.html.tera", &ctx)?,
    );
    for game in &games {
        plan.dir(out.join(&game.path));
        for (path, text) in game_pages(&tera, out, game)? {
            page(&mut plan, path, text);
        }
    }
    // The feed: newest first; ties in path, then round order.
    let mut entries: Vec<FeedEntry> = games
        .iter()
        .flat_map(|game| {
            game.rounds
                .iter()
                .map(move |round| FeedEntry { game, round })
        })
        .collect();
    entries.sort_by(|a, b| b.round.updated.cmp(&a.round.updated));
    let mut ctx = tera::Context::new();
    ctx.insert(
        "updated",
        entries
            .first()
            .map_or("1970-01-01T00:00:00Z", |e| e.round.updated.as_str()),
    );
    ctx.insert("entries", &entries);
    page(
        &mut plan,
        out.join("feed.xml"),
        crate::render::render_fixed(&tera, "feed.xml.tera", &ctx)?,
    );
    report.written = plan
        .entries()
        .filter(|(_, size)| size.is_some())
        .map(|(p, _)| p.to_path_buf())
        .collect();
    plan.commit()?;
    Ok(report)
}

/// A game's page and its rounds' pages: (path, text).
fn game_pages(tera: &Tera, out: &Path, game: &GameView) -> Result<Vec<(PathBuf, String)>> {
    let folder = out.join(&game.path);
    let mut ctx = tera::Context::new();
    ctx.insert("root", &game.root);
    ctx.insert("game", game);
    let mut pages = vec![(
        folder.join("index.html"),
        crate::render::render_fixed(tera, "game.html.tera", &ctx)?,
    )];
    for (i, round) in game.rounds.iter().enumerate() {
        let view = RoundPage {
            game,
            round,
            previous: i.checked_sub(1).map(|p| &game.rounds[p]),
            next: game.rounds.get(i + 1),
        };
        let mut ctx = tera::Context::from_serialize(&view).expect("pages serialize");
        ctx.insert("root", &game.root);
        pages.push((
            folder.join(&round.file),
            crate::render::render_fixed(tera, "round.html.tera", &ctx)?,
        ));
    }
    Ok(pages)
}

/// Where a game's pages go, relative to the site root: its folder relative to ROOT, or, when ROOT
/// is itself the game directory, the folder's own name.
fn site_path(root: &Path, dir: &Path) -> String {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        let name = root
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
        return name.unwrap_or_else(|| "game".into());
    }
    parts.join("/")
}

/// A season's public standings, from its ledger (which reads `[public.final]` and events).
fn load_season(dir: &Path, path: String) -> Result<SeasonView> {
    use crate::season::events::What;
    let ledger = crate::season::ledger::compute(&crate::season::SeasonDir::new(dir))?;
    let name = |id: &crate::player_id::PlayerId| {
        ledger
            .config
            .player(id)
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    };
    let depth = path.split('/').count();
    Ok(SeasonView {
        title: ledger.config.title.clone(),
        root: "../".repeat(depth),
        living: ledger.living().len(),
        standings: ledger
            .standings
            .iter()
            .map(|s| SeasonStanding {
                name: s.name.clone(),
                tokens: s.tokens,
                eliminated: s.eliminated.is_some(),
            })
            .collect(),
        matches: ledger
            .matches
            .iter()
            .map(|m| SeasonMatch {
                title: m.title.clone(),
                game: m.game.name(),
                href: format!("matches/{}/index.html", m.folder),
                status: m.status.clone(),
                winners: m.ending.winners.iter().map(name).collect(),
                elimination: m.ending.elimination.iter().map(name).collect(),
            })
            .collect(),
        // garnet corrections are private
        events: ledger
            .events
            .iter()
            .filter(|e| !matches!(e.what, What::Garnets { .. }))
            .map(|e| e.describe_with(&name))
            .collect(),
        winner: ledger.winner().map(name),
        path,
    })
}

/// Every public notice of the host's actions, round by round, each without its footer.
fn notices(dir: &GameDir) -> Result<Vec<NoticeView>> {
    let mut out = Vec::new();
    for round in dir.round_numbers()? {
        let Ok(files) = std::fs::read_dir(dir.notices(round)) else {
            continue;
        };
        let mut files: Vec<(u32, std::path::PathBuf)> = files
            .filter_map(|e| {
                let path = e.ok()?.path();
                let n = path
                    .file_name()?
                    .to_str()?
                    .split('-')
                    .next()?
                    .parse()
                    .ok()?;
                Some((n, path))
            })
            .collect();
        files.sort();
        for (_, path) in files {
            let text = crate::game_dir::read_string(&path)?;
            let text = crate::result_file::without_signature(&text);
            out.push(NoticeView {
                round,
                text: text.to_owned(),
            });
        }
    }
    Ok(out)
}

/// What the game page says of where the game is, and whether it is over.
fn status_of(ctx: &GameContext, last: Option<&ResultFile>) -> (String, bool) {
    let Some(last) = last else {
        let status = match ctx.deadline(0) {
            Some(d) => format!("Not started: first deadline {}", clock::human_with_year(d)),
            None => "Not started".to_owned(),
        };
        return (status, false);
    };
    let Some(n) = last.meta.next_round else {
        return ("Over".to_owned(), true);
    };
    // the round being played: the first (after an opening, which closes nothing) or the next
    let index = match last.meta.closed {
        None => last.meta.index,
        Some(_) => last.meta.index + 1,
    };
    if ctx.paused(index).is_some() {
        return (format!("Round {n}: paused by the host"), false);
    }
    // the deadline announced, unless the host has moved it since
    let deadline = if ctx.actions.iter().any(|a| a.index == index) {
        ctx.deadline(index)
    } else {
        last.meta
            .next_deadline
            .as_deref()
            .and_then(|d| clock::parse_instant(d).ok())
    };
    let status = match deadline {
        Some(d) => format!("Round {n}: deadline {}", clock::human_with_year(d)),
        None => format!("Round {n}"),
    };
    (status, false)
}

/// A feed entry's id: a UUID-shaped digest of the game's title, its path and the page.
fn entry_id(title: &str, path: &str, file: &str) -> String {
    let hash = crate::submission::sha256_hex(format!("{title}\0{path}\0{file}").as_bytes());
    format!(
        "urn:uuid:{}-{}-{}-{}-{}",
        &hash[0..8],
        &hash[8..12],
        &hash[12..16],
        &hash[16..20],
        &hash[20..32]
    )
}

fn load_game(dir: PathBuf, path: String) -> Result<GameView> {
    let ctx = GameContext::load(GameDir::open(dir)?)?;
    // What the site shows comes only from results the rules would give.
    crate::games::dispatch(
        ctx.config.game,
        crate::replay::CheckResults {
            ctx: &ctx,
            mode: crate::replay::Mode::Public,
        },
    )?;
    let renderer = ctx.renderer()?;
    let game_id = ctx.config.game;
    let names: BTreeMap<String, String> = ctx
        .config
        .players
        .iter()
        .map(|p| (p.id.to_string(), p.name.clone()))
        .collect();
    let results = ResultFile::all(&ctx)?;
    let opening = results
        .first()
        .filter(|r| r.meta.opening || r.meta.round == 0)
        .map(|r| r.public.to_table());
    let mut rounds: Vec<RoundView> = Vec::new();
    let mut last_time = None;
    for result in &results {
        let meta = &result.meta;
        let (file, label) = if meta.opening {
            ("opening.html".to_owned(), "Opening".to_owned())
        } else {
            (
                format!("round-{:03}.html", meta.round),
                format!("Round {}", meta.round),
            )
        };
        // When the round closed: its deadline; a game without a schedule keeps the previous
        // round's time (the feed's order is then the rounds' order).
        let time = ctx.deadline(meta.index).or(last_time);
        last_time = time;
        let updated = time.map_or_else(|| "1970-01-01T00:00:00Z".to_owned(), clock::rfc3339);
        rounds.push(RoundView {
            label: label.clone(),
            announcement: result.render_public(&ctx, &renderer)?,
            picture: game_id.picture(
                &result.public.to_table(),
                opening.as_deref(),
                &names,
                &format!("{}-picture", file.trim_end_matches(".html")),
                &format!("{}, {label}", ctx.config.title),
            ),
            updated,
            id: entry_id(&ctx.config.title, &path, &file),
            file,
        });
    }
    let (status, over) = status_of(&ctx, results.last());
    let publics: Vec<_> = results
        .iter()
        .filter(|r| !r.meta.opening)
        .map(|r| r.public.to_table())
        .collect();
    let publics: Vec<&toml::Table> = publics.iter().map(|p| p.as_ref()).collect();
    let winners = if over {
        pictures::winners(game_id, &publics, &names)
    } else {
        Vec::new()
    };
    let depth = path.split('/').count();
    Ok(GameView {
        title: ctx.config.title.clone(),
        game: game_id.name(),
        chart: game_id
            .chart(&publics, &names, &ctx.config.title)
            .map(|(heading, svg)| Chart { heading, svg }),
        root: "../".repeat(depth),
        path,
        status,
        over,
        winners,
        rounds,
        notices: notices(&ctx.dir)?,
    })
}

/// The site's templates: built in, each replaceable by a file of the same name in `overrides`.
fn templates(overrides: &Path) -> Result<Tera> {
    let mut tera = crate::render::fixed_templates(BUILT_IN, overrides)?;
    tera.autoescape_on(vec![".html.tera", ".xml.tera"]);
    Ok(tera)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_keeps_its_folder_under_the_root() {
        let root = Path::new("/srv/games");
        assert_eq!(
            site_path(root, Path::new("/srv/games/season/matches/01-god-race")),
            "season/matches/01-god-race"
        );
        assert_eq!(site_path(root, Path::new("/srv/games/match7")), "match7");
    }

    #[test]
    fn every_built_in_template_compiles() {
        templates(Path::new("/nonexistent")).unwrap();
    }
}
