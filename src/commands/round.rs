//! `adjudicate round GAME_DIR`: one tick (`crate::tick`) under the game's lock, and its summary;
//! `--all`, every game under a root, then each season's reports.

use crate::clock;
use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::game_dir::GameDir;
use crate::games::{Game, WithGame};
use crate::tick::{TickOptions, TickReport};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate round ~/games/match7
         adjudicate round ~/games/match7 --now 2026-12-02T15:00:00Z --dry-run\n         adjudicate round --all ~/games -q      (every game under ~/games, for cron)")]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// The clock (RFC 3339), e.g. 2026-12-02T15:00:00Z.
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
    /// Resolve the current round now, whatever the deadline.
    #[arg(long)]
    force: bool,
    /// Do everything in memory and print what would be written; touch nothing.
    #[arg(long)]
    dry_run: bool,
    /// Queue mail in outbox/ but do not send it.
    #[arg(long)]
    no_send: bool,
    /// Print nothing unless there is an error (for cron).
    #[arg(short, long)]
    quiet: bool,
    /// GAME_DIR is a root: tick every game directory under it, in path order, each under its
    /// own lock; exit with the most serious status of all (65 > 74 > 75 > 0).
    #[arg(long)]
    all: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let opts = TickOptions {
        now: args.now.unwrap_or_else(jiff::Timestamp::now),
        force: args.force,
        dry_run: args.dry_run,
        no_send: args.no_send,
    };
    let quiet = args.quiet;
    if !args.all {
        return tick_game(args.game_dir, &opts, quiet);
    }
    let mut codes = Vec::new();
    let (games, seasons) = crate::all_games::games_and_seasons(&args.game_dir)?;
    for dir in games {
        if !quiet {
            println!("== {}", dir.display());
        }
        codes.push(tick_game(dir, &opts, quiet).unwrap_or_else(|e| super::report_error(&e)));
    }
    // then each season's reports of the matches that just ended
    if !opts.dry_run {
        for season in seasons {
            if !quiet {
                println!("== {} (season)", season.display());
            }
            codes.push(
                super::season::report::publish(&season, opts.now, !opts.no_send, quiet)
                    .unwrap_or_else(|e| super::report_error(&e)),
            );
        }
    }
    Ok(crate::all_games::most_serious(codes))
}

/// One tick of one game directory, under its lock, with its summary.
fn tick_game(game_dir: PathBuf, opts: &TickOptions, quiet: bool) -> Result<u8> {
    let started = Instant::now();
    let dir = GameDir::open(game_dir)?;
    let _lock = dir.lock()?;
    // Nothing new since a tick that found nothing to do: say the same again, reading nothing.
    if !opts.force
        && let Some(idle) = crate::tick_cache::idle(dir.root(), opts.now)
    {
        if !quiet {
            let report = TickReport {
                round: idle.round,
                over: idle.over,
                deadline: idle.deadline.and_then(|s| s.parse().ok()),
                valid: idle.valid,
                expected: idle.expected,
                strays: idle.strays,
                paused: idle.paused.and_then(|s| s.parse().ok()),
                ..TickReport::default()
            };
            print!("{}", summary(&idle.title, 0, &dir, opts, &report, started));
        }
        return Ok(exit::OK);
    }
    // a big game's state.toml read while its game.toml is
    let (ctx, early) = crate::early_state::load(dir)?;
    // a substitution a killed run recorded is finished first (a dry run writes nothing)
    let ctx = match opts.dry_run {
        true => ctx,
        false => crate::tick::substitute::finish(ctx)?,
    };
    let tick = Tick {
        ctx: &ctx,
        opts,
        early,
    };
    let report = crate::games::dispatch(ctx.config.game, tick)?;
    if !quiet {
        let (title, seed) = (&ctx.config.title, ctx.config.seed);
        print!("{}", summary(title, seed, &ctx.dir, opts, &report, started));
    }
    Ok(report.mail.as_ref().map_or(exit::OK, super::mail_problems))
}

struct Tick<'a> {
    ctx: &'a GameContext,
    opts: &'a TickOptions,
    early: Option<crate::early_state::EarlyState>,
}

impl WithGame for Tick<'_> {
    type Output = Result<TickReport>;
    fn run<G: Game>(self) -> Self::Output {
        crate::tick::tick_early::<G>(self.ctx, self.opts, self.early)
    }
}

/// What became of a version received, in a word or three.
fn verdict(v: &crate::tick::Received) -> String {
    match (v.valid, v.problems) {
        _ if v.late => "LATE: reached the host after the deadline; archived, not used".to_owned(),
        (true, 0) => "valid".to_owned(),
        (true, n) => format!("valid, {n} remark(s)"),
        (false, n) => format!("INVALID, {n} problem(s)"),
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
        line(format!(
            "received {} version {}: {}",
            v.player,
            v.n,
            verdict(v)
        ));
    }
    if r.answers > 0 {
        line(format!("answered {} instant action(s)", r.answers));
    }
    match (r.resolved, r.deadline) {
        (None, _) if r.paused.is_some() && !r.over => line(format!(
            "round {} is paused (since {}): nothing resolves until `adjudicate resume` (or --force); {} of {} valid",
            r.round,
            clock::human(r.paused.unwrap_or(opts.now)),
            r.valid,
            r.expected
        )),
        (Some(round), _) => line(format!(
            "resolved round {round}: result, announcement and reports written"
        )),
        (None, Some(d)) if !r.over => line(format!(
            "round {} not due: deadline {} ({}); {} of {} valid{}",
            r.round,
            clock::human(d),
            clock::relative(opts.now, d),
            r.valid,
            r.expected,
            latest_invalid(r)
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

/// "; latest version invalid: frank" (an earlier version may count for them, but not for an
/// early close), or nothing.
fn latest_invalid(r: &crate::tick::TickReport) -> String {
    match r.latest_invalid.as_slice() {
        [] => String::new(),
        players => {
            let names: Vec<&str> = players.iter().map(|p| p.as_str()).collect();
            format!("; latest version invalid: {}", names.join(", "))
        }
    }
}
