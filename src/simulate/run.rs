//! Playing a plan's games on every core: each setting's games are split among `--jobs` threads,
//! each thread folds its games into integer sums (`Stats`), and the sums are merged. A progress
//! bar (indicatif, on stderr) appears when a run takes over a second, unless quiet or stderr is
//! not a terminal; only the progress thread draws it.

use super::plan::Simulation;
use super::stats::Stats;
use super::{Simulated, Strategy, play_game};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The fewest games a thread takes at once (finer splits cost more than they balance).
const MIN_GAMES: usize = 8;

/// Every setting's statistics, in the plan's order.
pub fn run<G: Simulated>(plan: &Simulation, quiet: bool) -> Result<Vec<Stats>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs)
        .build()
        .map_err(|e| Error::Usage(format!("--jobs {}: {e}", plan.jobs)))?;
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let total = plan.games * plan.settings.len() as u64;
    let show = !quiet && std::io::stderr().is_terminal();
    std::thread::scope(|scope| {
        if show {
            scope.spawn(|| progress(&done, &finished, total));
        }
        let result = plan
            .settings
            .iter()
            .map(|setting| {
                pool.install(|| {
                    // Games are handed out one by one, so that both threads finish together (a
                    // chunk of games per item left one thread idle for the last chunk: a few
                    // percent of a short run); each thread folds its games into its own sums.
                    // (the plan bounds the count of games by MAX_GAMES, far below usize::MAX)
                    let games = usize::try_from(plan.games).unwrap_or(usize::MAX);
                    (0..games)
                        .into_par_iter()
                        .with_min_len(MIN_GAMES)
                        .try_fold(
                            || Stats::new(G::GROUPS.len(), Strategy::ALL.len()),
                            |mut stats, i| {
                                let (tally, bots) = play_game::<G>(setting, i as u64)?;
                                stats.add(&tally, &bots);
                                done.fetch_add(1, Ordering::Relaxed);
                                Ok(stats)
                            },
                        )
                        .try_reduce(
                            || Stats::new(G::GROUPS.len(), Strategy::ALL.len()),
                            |a, b| Ok(a.merge(b)),
                        )
                        .map_err(|e: crate::games::SetupError| {
                            Error::Usage(format!("{}: {}: {}", setting.label, e.key, e.message))
                        })
                })
            })
            .collect::<Result<Vec<Stats>>>();
        finished.store(true, Ordering::Relaxed);
        result
    })
}

/// Draws the bar from the shared counter, from the first second on, until the run ends.
fn progress(done: &AtomicU64, finished: &AtomicBool, total: u64) {
    let started = Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if bar.is_none() && started.elapsed() >= Duration::from_secs(1) {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "simulate {bar:30} {pos}/{len} games, {per_sec}, {eta} left",
                )
                .expect("a valid template"),
            );
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_position(done.load(Ordering::Relaxed));
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}
