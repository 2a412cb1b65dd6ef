//! Runs one command and maps its outcome to an exit code. Messages for the terminal are printed
//! here (summaries to stdout, errors to stderr); the modules below return data.

use crate::clock;
use crate::context::GameContext;
use crate::error::{Error, Result, exit};
use crate::game_dir::GameDir;
use crate::games::{
    Game, GameId, death_match_pick::DeathMatchPick, final_ritual::FinalRitual, god_race::GodRace,
    meadow_assignment::MeadowAssignment, planar_control::PlanarControl, room_swap::RoomSwap,
};
use crate::tick::{TickOptions, TickReport};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    Quiet,
    Normal,
}

#[derive(Debug, Clone)]
pub enum Command {
    New {
        game: String,
        game_dir: PathBuf,
        players: Option<PathBuf>,
    },
    Check {
        game_dir: PathBuf,
        file: Option<PathBuf>,
        player: Option<String>,
    },
    Status {
        game_dir: PathBuf,
        now: Option<jiff::Timestamp>,
        /// `game_dir` is a root: every game under it, a line each.
        all: bool,
    },
    Round {
        game_dir: PathBuf,
        now: Option<jiff::Timestamp>,
        force: bool,
        dry_run: bool,
        no_send: bool,
        verbosity: Verbosity,
        /// `game_dir` is a root: every game under it (`crate::all_games`).
        all: bool,
    },
    Render {
        game_dir: PathBuf,
        round: Option<u32>,
    },
    Replay {
        game_dir: PathBuf,
    },
    Send {
        game_dir: PathBuf,
    },
    Site {
        root: PathBuf,
        out_dir: PathBuf,
        skip_broken: bool,
        verbosity: Verbosity,
    },
    Season(SeasonCommand),
    Simulate(crate::simulate::plan::Request),
    Ingest {
        game_dir: PathBuf,
        source: Option<crate::ingest::Source>,
        now: Option<jiff::Timestamp>,
    },
}

#[derive(Debug, Clone)]
pub enum SeasonCommand {
    New {
        season: PathBuf,
        players: PathBuf,
        title: Option<String>,
        seed: Option<u64>,
    },
    Match {
        season: PathBuf,
        game: String,
        title: Option<String>,
        players: Option<Vec<String>>,
        /// `KEY = VALUE` lines for the match's [options].
        options: Vec<String>,
    },
    Event {
        season: PathBuf,
        kind: String,
        player: Option<String>,
        winner: Option<String>,
        loser: Option<String>,
        change: Option<i64>,
        reason: String,
        at: Option<jiff::Timestamp>,
    },
    Status {
        season: PathBuf,
    },
    Report {
        season: PathBuf,
        no_send: bool,
        now: Option<jiff::Timestamp>,
    },
}

/// Work that needs the concrete game type: `dispatch` picks it from game.toml.
pub trait WithGame {
    type Output;
    fn run<G: Game>(self) -> Result<Self::Output>;
}

/// The one place that maps a game id to its engine.
pub fn dispatch<W: WithGame>(game: GameId, work: W) -> Result<W::Output> {
    match game {
        GameId::RoomSwap => work.run::<RoomSwap>(),
        GameId::GodRace => work.run::<GodRace>(),
        GameId::PlanarControl => work.run::<PlanarControl>(),
        GameId::FinalRitual => work.run::<FinalRitual>(),
        GameId::DeathMatchPick => work.run::<DeathMatchPick>(),
        GameId::MeadowAssignment => work.run::<MeadowAssignment>(),
    }
}

pub fn run(command: Command) -> ExitCode {
    match execute(command) {
        Ok(code) => ExitCode::from(code),
        Err(e) => ExitCode::from(report_error(&e)),
    }
}

/// Prints an error on stderr, a line each (every message names its file), and gives its code.
fn report_error(e: &Error) -> u8 {
    for line in e.to_string().lines() {
        eprintln!("adjudicate: {line}");
    }
    e.exit_code()
}

/// One tick of one game directory, under its lock, with its summary.
fn tick_game(game_dir: PathBuf, opts: &TickOptions, verbosity: Verbosity) -> Result<u8> {
    let started = Instant::now();
    let dir = GameDir::open(game_dir)?;
    let _lock = dir.lock()?;
    // Nothing new since a tick that found nothing to do: say the same again, reading nothing.
    if !opts.force
        && let Some(idle) = crate::tick_cache::idle(dir.root(), opts.now)
    {
        if verbosity == Verbosity::Normal {
            let report = TickReport {
                round: idle.round,
                over: idle.over,
                deadline: idle.deadline.and_then(|s| s.parse().ok()),
                valid: idle.valid,
                expected: idle.expected,
                strays: idle.strays,
                ..TickReport::default()
            };
            print!("{}", summary(&idle.title, 0, &dir, opts, &report, started));
        }
        return Ok(exit::OK);
    }
    let ctx = GameContext::load(dir)?;
    let report = dispatch(ctx.config.game, Tick { ctx: &ctx, opts })?;
    if verbosity == Verbosity::Normal {
        let (title, seed) = (&ctx.config.title, ctx.config.seed);
        print!("{}", summary(title, seed, &ctx.dir, opts, &report, started));
    }
    Ok(report.mail.as_ref().map_or(exit::OK, mail_problems))
}

/// `status` of one game directory, as text.
fn status_of(game_dir: PathBuf, now: jiff::Timestamp) -> Result<String> {
    let ctx = GameContext::load(GameDir::open(game_dir)?)?;
    dispatch(ctx.config.game, crate::status::Status { ctx: &ctx, now })
}

fn execute(command: Command) -> Result<u8> {
    match command {
        Command::New {
            game,
            game_dir,
            players,
        } => {
            let written = crate::new_game::create(&game, &game_dir, players.as_deref())?;
            println!("Created {} with {written}.", game_dir.display());
            println!(
                "Edit game.toml, then run: adjudicate round {}",
                game_dir.display()
            );
            Ok(exit::OK)
        }
        Command::Check {
            game_dir,
            file,
            player,
        } => {
            let ctx = GameContext::load(GameDir::open(game_dir)?)?;
            let game = ctx.config.game;
            let problems = dispatch(
                game,
                crate::check::Check {
                    ctx: &ctx,
                    file,
                    player,
                },
            )?;
            for line in &problems {
                println!("{line}");
            }
            if problems.is_empty() {
                println!("ok: no problems found");
                Ok(exit::OK)
            } else {
                Err(Error::Problems {
                    count: problems.len(),
                })
            }
        }
        Command::Status { game_dir, now, all } => {
            let now = now.unwrap_or_else(jiff::Timestamp::now);
            if !all {
                print!("{}", status_of(game_dir, now)?);
                return Ok(exit::OK);
            }
            let mut codes = Vec::new();
            for dir in crate::all_games::game_dirs(&game_dir)? {
                match status_of(dir.clone(), now) {
                    // one line: the title, then what is not a player's own line
                    Ok(text) => {
                        let mut lines = text.lines().filter(|l| !l.starts_with(' '));
                        let title = lines.next().unwrap_or_default();
                        let rest: Vec<&str> = lines.collect();
                        println!("{}: {title}: {}", dir.display(), rest.join("; "));
                        codes.push(exit::OK);
                    }
                    Err(e) => codes.push(report_error(&e)),
                }
            }
            Ok(crate::all_games::most_serious(codes))
        }
        Command::Round {
            game_dir,
            now,
            force,
            dry_run,
            no_send,
            verbosity,
            all,
        } => {
            let opts = TickOptions {
                now: now.unwrap_or_else(jiff::Timestamp::now),
                force,
                dry_run,
                no_send,
            };
            if !all {
                return tick_game(game_dir, &opts, verbosity);
            }
            let mut codes = Vec::new();
            let (games, seasons) = crate::all_games::games_and_seasons(&game_dir)?;
            for dir in games {
                if verbosity == Verbosity::Normal {
                    println!("== {}", dir.display());
                }
                codes.push(tick_game(dir, &opts, verbosity).unwrap_or_else(|e| report_error(&e)));
            }
            // then each season's reports of the matches that just ended
            if !opts.dry_run {
                for season in seasons {
                    if verbosity == Verbosity::Normal {
                        println!("== {} (season)", season.display());
                    }
                    codes.push(
                        season_reports(&season, opts.now, !opts.no_send, verbosity)
                            .unwrap_or_else(|e| report_error(&e)),
                    );
                }
            }
            Ok(crate::all_games::most_serious(codes))
        }
        Command::Render { game_dir, round } => {
            let ctx = GameContext::load(GameDir::open(game_dir)?)?;
            let rounds = dispatch(
                ctx.config.game,
                crate::replay::Rerender { ctx: &ctx, round },
            )?;
            println!(
                "Re-rendered round(s): {}",
                rounds
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            Ok(exit::OK)
        }
        Command::Replay { game_dir } if game_dir.join("season.toml").is_file() => {
            replay_season(&game_dir)
        }
        Command::Replay { game_dir } => {
            let ctx = GameContext::load(GameDir::open(game_dir)?)?;
            let outcome = dispatch(ctx.config.game, crate::replay::Replay { ctx: &ctx })?;
            for line in &outcome.differences {
                println!("{line}");
            }
            if outcome.differences.is_empty() {
                println!(
                    "replay: {} round(s) and {} file(s) reproduced byte for byte",
                    outcome.rounds, outcome.files
                );
                Ok(exit::OK)
            } else {
                println!("replay: {} difference(s)", outcome.differences.len());
                Ok(exit::DIFFERENCE)
            }
        }
        Command::Ingest {
            game_dir,
            source,
            now,
        } => {
            let source = source.ok_or_else(|| {
                Error::Usage("say where from: --maildir, --mbox, --eml or --chat".into())
            })?;
            if game_dir.join("season.toml").is_file() {
                return season_ingest(&game_dir, &source, now.unwrap_or_else(jiff::Timestamp::now));
            }
            let dir = GameDir::open(game_dir)?;
            let _lock = dir.lock()?;
            let ctx = GameContext::load(dir)?;
            let now = now.unwrap_or_else(jiff::Timestamp::now);
            let report = dispatch(
                ctx.config.game,
                Ingest {
                    ctx: &ctx,
                    source: &source,
                    now,
                },
            )?;
            // One line per message, as in ingest.log; late versions also on stderr, for cron.
            for line in &report.log {
                println!("{line}");
            }
            for line in &report.warnings {
                eprintln!("adjudicate: {line}");
            }
            if report.log.is_empty() {
                println!("nothing to ingest");
            } else {
                println!(
                    "round {}: {} submission(s) written, {} message(s) read (see ingest.log)",
                    report.round,
                    report.written.len(),
                    report.log.len()
                );
            }
            Ok(exit::OK)
        }
        Command::Send { game_dir } => {
            let dir = GameDir::open(game_dir)?;
            let _lock = dir.lock()?;
            let ctx = GameContext::load(dir)?;
            let Some(sender) = crate::mail::Sender::new(&ctx.config.mail, &ctx.secrets)? else {
                println!("mail is off (transport = \"none\"): nothing to send");
                return Ok(exit::OK);
            };
            let report = crate::mail::send_outbox(&ctx.dir, &sender)?;
            println!("sent {} message(s)", report.sent);
            Ok(mail_problems(&report))
        }
        Command::Site {
            root,
            out_dir,
            skip_broken,
            verbosity,
        } => site(&root, &out_dir, skip_broken, verbosity),
        Command::Season(command) => season(command),
        Command::Simulate(request) => crate::simulate::simulate(&request).map(|()| exit::OK),
    }
}

/// `replay SEASON`: every match replayed from its archive, then the season's ledger recomputed
/// from them (which checks each match's balances against it).
fn replay_season(season: &std::path::Path) -> Result<u8> {
    let dir = crate::season::SeasonDir::new(season);
    let ledger = crate::season::ledger::compute(&dir)?;
    let (mut rounds, mut files, mut differences) = (0, 0, 0);
    for m in &ledger.matches {
        let ctx = GameContext::load(GameDir::open(dir.matches().join(&m.folder))?)?;
        if ctx.dir.state_toml().is_file() {
            let outcome = dispatch(ctx.config.game, crate::replay::Replay { ctx: &ctx })?;
            for line in &outcome.differences {
                println!("{}: {line}", m.folder);
            }
            rounds += outcome.rounds;
            files += outcome.files;
            differences += outcome.differences.len();
        }
    }
    if differences > 0 {
        println!("replay: {differences} difference(s)");
        return Ok(exit::DIFFERENCE);
    }
    println!(
        "replay: {} match(es), {rounds} round(s) and {files} file(s) reproduced byte for byte; the ledger of {} player(s) recomputed from them",
        ledger.matches.len(),
        ledger.standings.len()
    );
    Ok(exit::OK)
}

/// `ingest SEASON --maildir DIR`: each message to its match (`season::ingest`).
fn season_ingest(
    season: &std::path::Path,
    source: &crate::ingest::Source,
    now: jiff::Timestamp,
) -> Result<u8> {
    let crate::ingest::Source::Maildir(maildir) = source else {
        return Err(Error::Usage(
            "a season reads one Maildir for all its matches: use --maildir".into(),
        ));
    };
    let done = crate::season::ingest::ingest(&crate::season::SeasonDir::new(season), maildir, now)?;
    for (folder, report) in &done.matches {
        for line in &report.log {
            println!("{folder}: {line}");
        }
        for line in &report.warnings {
            eprintln!("adjudicate: {folder}: {line}");
        }
    }
    for (file, why) in &done.left {
        eprintln!(
            "adjudicate: {}: {why}; not used, flagged in cur/ (see the season's ingest.log)",
            file.display()
        );
    }
    if done.matches.is_empty() && done.left.is_empty() {
        println!("nothing to ingest");
    }
    Ok(exit::OK)
}

/// A player id given on the command line.
fn player_arg(text: &str) -> Result<crate::player_id::PlayerId> {
    crate::player_id::PlayerId::named(text)
        .ok_or_else(|| Error::Usage(format!("`{text}` is not a player id")))
}

fn season(command: SeasonCommand) -> Result<u8> {
    use crate::season::{SeasonDir, commands};
    match command {
        SeasonCommand::New {
            season,
            players,
            title,
            seed,
        } => {
            let path = commands::new(&season, &players, title.as_deref(), seed)?;
            println!("Created {}.", path.display());
            println!(
                "Edit its [mail], then start a match: adjudicate season match {} GAME_ID",
                season.display()
            );
        }
        SeasonCommand::Match {
            season,
            game,
            title,
            players,
            options,
        } => {
            let players = players
                .map(|ids| {
                    ids.iter()
                        .map(|p| player_arg(p))
                        .collect::<Result<Vec<_>>>()
                })
                .transpose()?;
            let options = commands::options_of(&options)?;
            let (dir, ledger) = commands::start_match(
                &SeasonDir::new(&season),
                &game,
                title.as_deref(),
                players.as_deref(),
                &options,
            )?;
            println!("Created {}.", dir.display());
            if ledger.matches.iter().any(|m| !m.over) {
                println!("Note: an earlier match is still running; both count in the ledger.");
            }
            println!(
                "Edit its [schedule] and [options], then: adjudicate round {}",
                dir.display()
            );
        }
        SeasonCommand::Event {
            season,
            kind,
            player,
            winner,
            loser,
            change,
            reason,
            at,
        } => {
            let event = commands::event_of(
                &kind,
                player.as_deref().map(player_arg).transpose()?,
                winner.as_deref().map(player_arg).transpose()?,
                loser.as_deref().map(player_arg).transpose()?,
                change,
                reason,
                at.unwrap_or_else(jiff::Timestamp::now),
            )?;
            let line = event.describe();
            commands::add_event(&SeasonDir::new(&season), event)?;
            println!("Recorded: {line}");
        }
        SeasonCommand::Status { season } => {
            let ledger = crate::season::ledger::compute(&SeasonDir::new(&season))?;
            print!("{}", commands::status(&ledger));
        }
        SeasonCommand::Report {
            season,
            no_send,
            now,
        } => {
            return season_reports(
                &season,
                now.unwrap_or_else(jiff::Timestamp::now),
                !no_send,
                Verbosity::Normal,
            );
        }
    }
    Ok(exit::OK)
}

/// The season reports of finished matches (written once), then the send step.
fn season_reports(
    season: &std::path::Path,
    now: jiff::Timestamp,
    send: bool,
    verbosity: Verbosity,
) -> Result<u8> {
    let published =
        crate::season::report::publish(&crate::season::SeasonDir::new(season), now, send)?;
    if verbosity == Verbosity::Normal {
        if published.matches.is_empty() {
            println!("season reports: nothing new");
        } else {
            println!(
                "season reports of {} written; {} message(s) queued",
                published.matches.join(", "),
                published.queued
            );
        }
        if let Some(send) = &published.send {
            println!("sent {} message(s)", send.sent);
        }
    }
    Ok(published.send.as_ref().map_or(exit::OK, mail_problems))
}

/// `site`: every game that cannot be read is reported with its file, and then nothing is written
/// (a site without a game would be a wrong site), unless `--skip-broken` publishes the rest; the
/// exit code is the most serious of theirs.
fn site(
    root: &std::path::Path,
    out: &std::path::Path,
    skip_broken: bool,
    verbosity: Verbosity,
) -> Result<u8> {
    let started = Instant::now();
    let report = crate::site::build(root, out, skip_broken)?;
    let codes: Vec<u8> = report.errors.iter().map(report_error).collect();
    if !report.errors.is_empty() && !skip_broken {
        eprintln!(
            "adjudicate: site: nothing written ({} game(s) could not be read); fix them, or publish the rest with --skip-broken",
            report.errors.len()
        );
        return Ok(crate::all_games::most_serious(codes));
    }
    if verbosity == Verbosity::Normal {
        println!(
            "site: {} game(s), {} page(s), {} KB in {}; {} file(s) written, in {} ms",
            report.games,
            report.pages,
            report.bytes.div_ceil(1024),
            out.display(),
            report.written.len(),
            started.elapsed().as_millis()
        );
    }
    Ok(crate::all_games::most_serious(codes))
}

/// Tells the host (on stderr) about messages that were refused or could not be sent, and gives the
/// exit code: 75 when messages wait for a server that is unavailable.
fn mail_problems(report: &crate::mail::SendReport) -> u8 {
    for (name, why) in &report.refused {
        eprintln!("adjudicate: mail {name} refused for good, moved to failed/: {why}");
    }
    match &report.deferred {
        Some(why) => {
            eprintln!(
                "adjudicate: {} message(s) wait in outbox/: {why}",
                report.waiting
            );
            exit::TEMPORARY
        }
        None => exit::OK,
    }
}

struct Ingest<'a> {
    ctx: &'a GameContext,
    source: &'a crate::ingest::Source,
    now: jiff::Timestamp,
}

impl WithGame for Ingest<'_> {
    type Output = crate::ingest::IngestReport;
    fn run<G: Game>(self) -> Result<Self::Output> {
        crate::ingest::ingest::<G>(self.ctx, self.source, self.now)
    }
}

struct Tick<'a> {
    ctx: &'a GameContext,
    opts: &'a TickOptions,
}

impl WithGame for Tick<'_> {
    type Output = TickReport;
    fn run<G: Game>(self) -> Result<TickReport> {
        crate::tick::tick::<G>(self.ctx, self.opts)
    }
}

/// The few lines `round` prints: what happened, what is next.
fn summary(
    title: &str,
    seed: u64,
    dir: &GameDir,
    opts: &TickOptions,
    r: &TickReport,
    started: Instant,
) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    let dry = if opts.dry_run {
        " (dry run: nothing written)"
    } else {
        ""
    };
    line(format!("{title}: round {}{dry}", r.round));
    if r.set_up {
        line(format!("set up the game from seed {seed}"));
    }
    if r.swept > 0 {
        line(format!(
            "removed {} temp file(s) left by an interrupted run",
            r.swept
        ));
    }
    for stray in &r.strays {
        line(format!("warning: {stray}"));
    }
    if r.over {
        line("the game is over; nothing to do".into());
    }
    for v in &r.received {
        let verdict = match (v.valid, v.problems) {
            _ if v.late => {
                "LATE: reached the host after the deadline; archived, not used".to_owned()
            }
            (true, 0) => "valid".to_owned(),
            (true, n) => format!("valid, {n} remark(s)"),
            (false, n) => format!("INVALID, {n} problem(s)"),
        };
        line(format!("received {} version {}: {verdict}", v.player, v.n));
    }
    if r.answers > 0 {
        line(format!("answered {} instant action(s)", r.answers));
    }
    match (r.resolved, r.deadline) {
        (Some(round), _) => line(format!(
            "resolved round {round}: result, announcement and reports written"
        )),
        (None, Some(d)) if !r.over => line(format!(
            "round {} not due: deadline {} ({}); {} of {} valid",
            r.round,
            clock::human(d),
            clock::relative(opts.now, d),
            r.valid,
            r.expected
        )),
        (None, None) if !r.over => line(format!(
            "round {} has no deadline: resolve it with --force; {} of {} valid",
            r.round, r.valid, r.expected
        )),
        _ => {}
    }
    let sent = r.mail.as_ref().map_or(0, |m| m.sent);
    if !r.queued.is_empty() || sent > 0 {
        let waiting = r.mail.as_ref().map_or(0, |m| m.waiting);
        let waiting = if waiting > 0 {
            format!(", {waiting} waiting")
        } else {
            String::new()
        };
        line(format!(
            "mail: {} queued, {sent} sent{waiting}",
            r.queued.len()
        ));
    }
    if !r.unmailed.is_empty() {
        let ids: Vec<_> = r.unmailed.iter().map(|p| p.as_str()).collect();
        line(format!(
            "no mail address, reports only on disk: {}",
            ids.join(", ")
        ));
    }
    for (path, size) in &r.planned {
        let shown = path.strip_prefix(dir.root()).unwrap_or(path).display();
        match size {
            Some(n) => line(format!("  would write {shown} ({n} bytes)")),
            None => line(format!("  would create {shown}/")),
        }
    }
    line(format!("done in {} ms", started.elapsed().as_millis()));
    out
}
