//! The tables `simulate` prints: one block per setting (game length, who wins by the game's
//! groups, by strategy and by seat, Elimination Candidates, Tokens, points and garnets, defaults
//! taken), each rate with its 95% confidence interval, and for a sweep one line per setting.
//! Only the plan and the sums reach this text, so a fixed seed prints the same bytes.

use super::plan::Simulation;
use super::stats::{Group, Stats, wilson};
use super::{Simulated, Strategy};
use std::fmt::Write;

/// "43.1% (42.2–44.0)".
pub fn rate(k: u64, n: u64) -> String {
    let (p, lo, hi) = wilson(k, n);
    format!("{:5.1}% ({:.1}–{:.1})", 100.0 * p, 100.0 * lo, 100.0 * hi)
}

/// The heading of a run: game, games, players, bots, seed.
pub fn heading<G: Simulated>(plan: &Simulation) -> String {
    let first = &plan.settings[0];
    let mut bots = String::new();
    for s in Strategy::ALL {
        let n = first.bots.iter().filter(|b| **b == s).count();
        if n > 0 {
            if !bots.is_empty() {
                bots.push_str(", ");
            }
            let _ = write!(bots, "{} x{n}", s.name::<G>());
        }
    }
    let mut text = format!(
        "{}: {} game(s) of {} players per setting, seed {}; bots: {bots}\n",
        G::ID.name(),
        plan.games,
        first.players.len(),
        plan.seed,
    );
    let _ = writeln!(text, "  from {}", plan.source);
    for set in &plan.set {
        let _ = writeln!(text, "  --set {set}");
    }
    let _ = writeln!(text, "  {}: {}", G::STRATEGY, G::STRATEGY_ABOUT);
    text
}

fn group_rows(
    text: &mut String,
    title: &str,
    names: &[String],
    groups: &[Group],
    stats: &Stats,
    (points, stakes): (&str, bool),
) {
    let dash = || "-".to_owned();
    let _ = writeln!(
        text,
        "  {:<14} {:>8}  {:<22} {:<22} {:>6} {:>6} {:>13} {:>13}",
        title,
        "per game",
        "wins a game (95% CI)",
        "player wins (95% CI)",
        if stakes { "elim." } else { "-" },
        if stakes { "tokens" } else { "-" },
        if points.is_empty() { "-" } else { points },
        if stakes { "garnets" } else { "-" },
    );
    for (name, g) in names.iter().zip(groups) {
        if g.players == 0 {
            continue;
        }
        let per_player = |k: u64| k as f64 / g.players as f64;
        let moments = |m: &super::stats::Moments| format!("{:+.2} ±{:.2}", m.mean(), m.ci95());
        let _ = writeln!(
            text,
            "  {:<14} {:>8.2}  {:<22} {:<22} {:>6} {:>6} {:>13} {:>13}",
            name,
            g.players as f64 / stats.games as f64,
            rate(g.games_won, stats.games),
            rate(g.wins, g.players),
            if stakes {
                format!("{:.3}", per_player(g.elimination))
            } else {
                dash()
            },
            if stakes {
                format!("{:.3}", per_player(g.tokens))
            } else {
                dash()
            },
            if points.is_empty() {
                dash()
            } else {
                moments(&g.points)
            },
            if stakes { moments(&g.garnets) } else { dash() },
        );
    }
}

/// Above this share of games without a winner, a setting's block warns.
const DEGENERATE_PERCENT: u64 = 10;

/// The block of one setting.
pub fn setting<G: Simulated>(label: &str, stats: &Stats) -> String {
    let mut text = format!("\n{label}\n");
    let n = stats.games;
    let longest = stats.lengths.len().saturating_sub(1);
    let shortest = stats.lengths.iter().position(|c| *c > 0).unwrap_or(0);
    let _ = writeln!(
        text,
        "  length: {:.2} rounds ±{:.2} (95% CI); median {}, {} to {}",
        stats.rounds.mean(),
        stats.rounds.ci95(),
        stats.median_rounds(),
        shortest,
        longest
    );
    let _ = writeln!(
        text,
        "  no winner: {}; cut off after {} rounds: {} game(s)",
        rate(stats.no_winner, n).trim_start(),
        super::MAX_ROUNDS,
        stats.unfinished
    );
    // A setting that leaves most games undecided is more likely a mistake than a design.
    if n > 0 && stats.no_winner * 100 > n * DEGENERATE_PERCENT {
        let _ = writeln!(
            text,
            "  WARNING: {} of games end without a winner at this setting; check the options (a round cap that ends games before they are decided?)",
            rate(stats.no_winner, n).trim_start()
        );
    }
    let _ = writeln!(
        text,
        "  defaults taken: {} of {} expected submissions ({:.2}%)",
        stats.defaults,
        stats.submissions,
        if stats.submissions == 0 {
            0.0
        } else {
            100.0 * stats.defaults as f64 / stats.submissions as f64
        }
    );
    if !G::GROUPS.is_empty() {
        let names: Vec<String> = G::GROUPS.iter().map(|s| s.to_string()).collect();
        group_rows(
            &mut text,
            &format!("by {}", G::GROUP),
            &names,
            &stats.by_group,
            stats,
            (G::POINTS, G::STAKES),
        );
    }
    let names: Vec<String> = Strategy::ALL
        .iter()
        .map(|s| s.name::<G>().to_owned())
        .collect();
    group_rows(
        &mut text,
        "by strategy",
        &names,
        &stats.by_strategy,
        stats,
        (G::POINTS, G::STAKES),
    );
    let seats: Vec<String> = (1..=stats.by_seat.len())
        .map(|i| format!("seat {i}"))
        .collect();
    if stats.by_seat.len() <= 20 {
        group_rows(
            &mut text,
            "by seat",
            &seats,
            &stats.by_seat,
            stats,
            (G::POINTS, G::STAKES),
        );
    }
    text
}

/// For a sweep: one line per setting, the share of games each group (or strategy) wins.
pub fn sweep<G: Simulated>(key: &str, plan: &Simulation, all: &[Stats]) -> String {
    let (series, pick) = super::headline::<G>(all);
    let mut text = format!("\nsweep of {key}: share of games won (95% CI), mean length\n");
    let _ = write!(text, "  {:>8}", key.chars().take(8).collect::<String>());
    for (_, name) in &series {
        let _ = write!(text, "  {name:<22}");
    }
    let _ = writeln!(text, "  {:<22}  rounds", "no winner");
    for (setting, stats) in plan.settings.iter().zip(all) {
        let _ = write!(text, "  {:>8}", setting.value.unwrap_or_default());
        for (k, _) in &series {
            let g = &pick(stats)[*k];
            let _ = write!(text, "  {:<22}", rate(g.games_won, stats.games));
        }
        let _ = writeln!(
            text,
            "  {:<22}  {:.2}",
            rate(stats.no_winner, stats.games),
            stats.rounds.mean()
        );
    }
    text
}

/// Everything printed on stdout.
pub fn report<G: Simulated>(plan: &Simulation, all: &[Stats]) -> String {
    let mut text = heading::<G>(plan);
    for (s, stats) in plan.settings.iter().zip(all) {
        text.push_str(&setting::<G>(&s.label, stats));
    }
    if let Some(key) = &plan.sweep {
        text.push_str(&sweep::<G>(key, plan, all));
    }
    text
}
