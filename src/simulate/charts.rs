//! `simulate --out DIR`: the tables as CSV (`settings.csv`, `results.csv`, `lengths.csv`), two
//! charts drawn with plotters' SVG backend (the share of games each group wins, across the sweep
//! or per group; the histogram of game lengths), and `index.html`, which shows the charts inline
//! (each titled and described for screen readers) and the printed report. Every file is written
//! whole through a temporary file and a rename, readable by everyone (to be published).

use super::plan::Simulation;
use super::stats::{Group, Stats, wilson};
use super::{Simulated, Strategy};
use crate::error::{Error, Result};
use crate::game_dir::write_public;
use crate::svg::escape;
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

pub fn write<G: Simulated>(out: &Path, plan: &Simulation, all: &[Stats]) -> Result<()> {
    let svg_wins = wins_chart::<G>(plan, all).map_err(|e| chart_error(out, "wins.svg", e))?;
    let svg_lengths =
        lengths_chart::<G>(plan, all).map_err(|e| chart_error(out, "lengths.svg", e))?;
    let files = [
        ("settings.csv", settings_csv(plan, all)),
        ("results.csv", results_csv::<G>(plan, all)),
        ("lengths.csv", lengths_csv(plan, all)),
        ("wins.svg", svg_wins.clone()),
        ("lengths.svg", svg_lengths.clone()),
        ("index.html", html::<G>(plan, all, &svg_wins, &svg_lengths)),
    ];
    for (name, text) in files {
        write_public(&out.join(name), text.as_bytes())?;
    }
    Ok(())
}

fn chart_error(out: &Path, name: &str, e: impl std::fmt::Display) -> Error {
    Error::io(
        out.join(name),
        std::io::Error::other(format!("drawing the chart: {e}")),
    )
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn value(v: Option<i64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn settings_csv(plan: &Simulation, all: &[Stats]) -> String {
    let mut text = String::from(
        "setting,value,games,rounds_mean,rounds_ci95,rounds_median,no_winner,no_winner_low,no_winner_high,unfinished,defaults,submissions\n",
    );
    for (s, st) in plan.settings.iter().zip(all) {
        let (p, lo, hi) = wilson(st.no_winner, st.games);
        let _ = writeln!(
            text,
            "{},{},{},{:.4},{:.4},{},{p:.4},{lo:.4},{hi:.4},{},{},{}",
            csv_field(&s.label),
            value(s.value),
            st.games,
            st.rounds.mean(),
            st.rounds.ci95(),
            st.median_rounds(),
            st.unfinished,
            st.defaults,
            st.submissions
        );
    }
    text
}

fn results_csv<G: Simulated>(plan: &Simulation, all: &[Stats]) -> String {
    let mut text = String::from(
        "setting,value,by,group,players_per_game,games_won,games_won_low,games_won_high,player_wins,player_wins_low,player_wins_high,elimination_per_player,tokens_per_player,points_mean,points_ci95,garnets_mean,garnets_ci95\n",
    );
    let strategies: Vec<String> = Strategy::ALL
        .iter()
        .map(|s| s.name::<G>().to_owned())
        .collect();
    let groups: Vec<String> = G::GROUPS.iter().map(|s| s.to_string()).collect();
    for (s, st) in plan.settings.iter().zip(all) {
        let seats: Vec<String> = (1..=st.by_seat.len()).map(|i| i.to_string()).collect();
        let kinds: [(&str, &[String], &[Group]); 3] = [
            (G::GROUP, &groups, &st.by_group),
            ("strategy", &strategies, &st.by_strategy),
            ("seat", &seats, &st.by_seat),
        ];
        for (by, names, list) in kinds {
            for (name, g) in names.iter().zip(list) {
                if g.players == 0 {
                    continue;
                }
                let (gw, gl, gh) = wilson(g.games_won, st.games);
                let (pw, pl, ph) = wilson(g.wins, g.players);
                let per = |k: u64| k as f64 / g.players as f64;
                let _ = writeln!(
                    text,
                    "{},{},{by},{},{:.4},{gw:.4},{gl:.4},{gh:.4},{pw:.4},{pl:.4},{ph:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
                    csv_field(&s.label),
                    value(s.value),
                    csv_field(name),
                    g.players as f64 / st.games as f64,
                    per(g.elimination),
                    per(g.tokens),
                    g.points.mean(),
                    g.points.ci95(),
                    g.garnets.mean(),
                    g.garnets.ci95(),
                );
            }
        }
    }
    text
}

fn lengths_csv(plan: &Simulation, all: &[Stats]) -> String {
    let mut text = String::from("setting,value,rounds,games\n");
    for (s, st) in plan.settings.iter().zip(all) {
        for (r, n) in st.lengths.iter().enumerate().filter(|(_, n)| **n > 0) {
            let _ = writeln!(text, "{},{},{r},{n}", csv_field(&s.label), value(s.value));
        }
    }
    text
}

/// A colour-blind-safe palette (Okabe–Ito).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(0, 0, 0),
];

type Drawn = std::result::Result<String, Box<dyn std::error::Error>>;

/// The share of games each group wins, with 95% intervals: a line per group across a sweep, or
/// a point per group for a single setting.
fn wins_chart<G: Simulated>(plan: &Simulation, all: &[Stats]) -> Drawn {
    let (series, pick) = super::headline::<G>(all);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 420)).into_drawing_area();
        root.fill(&WHITE)?;
        let xs: Vec<f64> = match &plan.sweep {
            Some(_) => plan
                .settings
                .iter()
                .map(|s| s.value.unwrap_or(0) as f64)
                .collect(),
            None => vec![0.0],
        };
        let (x0, x1) = (xs[0] - 0.5, xs[xs.len() - 1] + 0.5);
        let x_desc = plan.sweep.clone().unwrap_or_else(|| "as given".into());
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{}: share of games won", G::ID.name()),
                ("sans-serif", 22),
            )
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1, 0f64..100f64)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("% of games won")
            .x_labels(xs.len().clamp(2, 12))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()?;
        for (n, (k, name)) in series.iter().enumerate() {
            let (k, colour) = (*k, PALETTE[n % PALETTE.len()]);
            let points: Vec<(f64, f64, f64, f64)> = xs
                .iter()
                .zip(all)
                .map(|(x, st)| {
                    let g = &pick(st)[k];
                    let (p, lo, hi) = wilson(g.games_won, st.games);
                    // Offset the groups a little so their intervals do not hide each other.
                    let dx = (n as f64 - series.len() as f64 / 2.0) * 0.04;
                    (x + dx, 100.0 * lo, 100.0 * p, 100.0 * hi)
                })
                .collect();
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|(x, _, p, _)| (*x, *p)),
                    colour.stroke_width(2),
                ))?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart.draw_series(points.iter().map(|(x, lo, p, hi)| {
                ErrorBar::new_vertical(*x, *lo, *p, *hi, colour.filled(), 8)
            }))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

/// Games by length, one histogram per setting stacked side by side (the first setting of a
/// sweep, its middle and its last, at most).
fn lengths_chart<G: Simulated>(plan: &Simulation, all: &[Stats]) -> Drawn {
    let mut shown: Vec<usize> = vec![0, all.len() / 2, all.len() - 1];
    shown.dedup();
    let longest = all.iter().map(|s| s.lengths.len()).max().unwrap_or(1) as u32;
    let highest = all
        .iter()
        .flat_map(|s| {
            s.lengths
                .iter()
                .map(move |n| 100.0 * *n as f64 / s.games as f64)
        })
        .fold(1.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 420)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{}: game length", G::ID.name()), ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(0u32..longest, 0f64..highest * 1.1)?;
        chart
            .configure_mesh()
            .x_desc("rounds resolved (God Race counts its round 0)")
            .y_desc("% of games")
            .draw()?;
        for (k, i) in shown.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let st = &all[*i];
            chart
                .draw_series(LineSeries::new(
                    st.lengths
                        .iter()
                        .enumerate()
                        .map(|(r, n)| (r as u32, 100.0 * *n as f64 / st.games as f64)),
                    colour.stroke_width(2),
                ))?
                .label(plan.settings[*i].label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

/// An SVG of plotters, made accessible: `role="img"`, a label, a `<title>` and a `<desc>` that
/// says in words what the chart shows.
fn accessible(svg: &str, title: &str, desc: &str) -> String {
    let body = svg
        .trim_start_matches(|c| c != '<')
        .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .trim_start();
    let Some(end) = body.find('>') else {
        return body.to_owned();
    };
    format!(
        "{} role=\"img\" aria-label=\"{}\"><title>{}</title><desc>{}</desc>{}",
        &body[..end],
        escape(title),
        escape(title),
        escape(desc),
        &body[end + 1..]
    )
}

fn html<G: Simulated>(plan: &Simulation, all: &[Stats], wins: &str, lengths: &str) -> String {
    let (series, pick) = super::headline::<G>(all);
    let mut desc_wins = String::new();
    for (s, st) in plan.settings.iter().zip(all) {
        let _ = write!(desc_wins, "{}: ", s.label);
        for (k, name) in &series {
            let g = &pick(st)[*k];
            let (p, lo, hi) = wilson(g.games_won, st.games);
            let _ = write!(
                desc_wins,
                "{name} {:.1}% ({:.1} to {:.1}); ",
                100.0 * p,
                100.0 * lo,
                100.0 * hi
            );
        }
    }
    let desc_lengths: String = plan
        .settings
        .iter()
        .zip(all)
        .map(|(s, st)| {
            format!(
                "{}: mean {:.2} rounds, median {}; ",
                s.label,
                st.rounds.mean(),
                st.median_rounds()
            )
        })
        .collect();
    let report = super::table::report::<G>(plan, all);
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{game}: simulated balance</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 60rem; padding: 0 1rem; color: #1a1a1a; background: #fff; }}
figure {{ margin: 1rem 0; }}
figure svg {{ width: 100%; height: auto; }}
.table-wrap {{ overflow-x: auto; }}
pre {{ font-size: 0.8rem; }}
</style>
</head>
<body>
<h1>{game}: simulated balance</h1>
<p>{games} game(s) per setting, seed {seed}. Files: <a href="settings.csv">settings.csv</a>, <a href="results.csv">results.csv</a>, <a href="lengths.csv">lengths.csv</a>.</p>
<figure>{wins}<figcaption>Share of games won, with 95% confidence intervals.</figcaption></figure>
<figure>{lengths}<figcaption>How many rounds games last.</figcaption></figure>
<h2>The tables</h2>
<div class="table-wrap"><pre>{report}</pre></div>
</body>
</html>
"#,
        game = escape(G::ID.name()),
        games = plan.games,
        seed = plan.seed,
        wins = accessible(
            wins,
            &format!("{}: share of games won", G::ID.name()),
            &desc_wins
        ),
        lengths = accessible(
            lengths,
            &format!("{}: game length", G::ID.name()),
            &desc_lengths
        ),
        report = escape(&report),
    )
}
