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

/// Games played one after another by a thread between two looks at the progress counter.
const CHUNK: u64 = 512;

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
                    let chunks = plan.games.div_ceil(CHUNK);
                    (0..chunks)
                        .into_par_iter()
                        .map(|c| {
                            let mut stats = Stats::new(G::GROUPS.len(), Strategy::ALL.len());
                            let games = c * CHUNK..((c + 1) * CHUNK).min(plan.games);
                            let count = games.end - games.start;
                            for i in games {
                                let (tally, bots) = play_game::<G>(setting, i)?;
                                stats.add(&tally, &bots);
                            }
                            done.fetch_add(count, Ordering::Relaxed);
                            Ok(stats)
                        })
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
