//! God Race's public record read back: its ending (for the season), the track of each round and
//! every god's space across rounds (for the site), and the meadows a season gives a new race.

use super::GodRace;
use crate::games::Archive;
use crate::games::GameId;
use crate::games::ending::{Ending, finals, ids};
use crate::games::picture::{Chart, Names, capitalize, int, strings, sub};
use crate::games::season::{FromSeason, SoFar};
use crate::player_id::PlayerId;
use crate::svg::{Picture, Series, line_chart};
use toml::{Table, Value};

const GODS: [&str; 5] = ["white", "blue", "black", "red", "green"];

/// The goal's space: said by the opening (and by a round 0 result); else the last space of the
/// track picture's first line, which numbers every space.
fn goal(public: &Table, opening: Option<&Table>) -> Option<i64> {
    int(public, "goal")
        .or_else(|| opening.and_then(|o| int(o, "goal")))
        .or_else(|| {
            let numbers = strings(public.get("picture")).into_iter().next()?;
            numbers.split_whitespace().last()?.parse().ok()
        })
        .filter(|g| (1..=1000).contains(g))
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

impl Archive for GodRace {
    /// The winners, the Elimination Candidates and the Tokens of Life of the last `[final]`.
    fn ending(publics: &[&Table]) -> Ending {
        let mut out = Ending::default();
        if let Some(f) = finals(publics).last() {
            out.winners = ids(f.get("winners"));
            out.elimination = ids(f.get("elimination"));
            out.tokens = f
                .get("tokens")
                .and_then(Value::as_table)
                .map(|t| {
                    t.iter()
                        .filter_map(|(id, n)| Some((PlayerId::parse(id)?, n.as_integer()?)))
                        .collect()
                })
                .unwrap_or_default();
        }
        out
    }

    /// A race after a meadow assignment starts from the meadows its winners gave (for every player
    /// of the cast, or for none: the race then draws them).
    fn season_match(so_far: &SoFar<'_>, _options: &Table) -> Result<FromSeason, String> {
        let last_race = so_far
            .matches
            .iter()
            .filter(|m| m.game == GameId::GodRace)
            .map(|m| m.number)
            .max()
            .unwrap_or(0);
        let meadows = so_far
            .matches
            .iter()
            .rev()
            .find(|m| m.over && m.game == GameId::MeadowAssignment && m.number > last_race)
            .and_then(|m| m.ending.meadows.as_ref());
        let mut out = FromSeason::default();
        if let Some(meadows) = meadows
            && so_far.cast.iter().all(|p| meadows.contains_key(*p))
        {
            for p in &so_far.cast {
                let mut keys = Table::new();
                keys.insert("meadow".into(), meadows[*p].clone().into());
                out.player_keys.insert((*p).clone(), keys);
            }
        }
        Ok(out)
    }

    /// Every god's space across rounds; a god that finished stands at the goal from the round
    /// it reached it (it has left `spaces` then: ruling 11).
    fn chart(publics: &[&Table], _names: &Names, title: &str) -> Option<Chart> {
        let rounds: Vec<(i64, &Table, &Table)> = publics
            .iter()
            .filter_map(|p| Some((int(p, "round")?, sub(p, "spaces")?, *p)))
            .collect();
        if rounds.len() < 2 {
            return None;
        }
        let opening = publics.iter().copied().find(|p| p.contains_key("goal"));
        let goal = rounds.iter().find_map(|(_, _, p)| goal(p, opening));
        let xs: Vec<String> = rounds.iter().map(|(r, ..)| r.to_string()).collect();
        let space = |god: &str, spaces: &Table, public: &Table| {
            let finished = || strings(public.get("podium")).iter().any(|g| g == god);
            spaces
                .get(god)
                .and_then(Value::as_integer)
                .or_else(|| goal.filter(|_| finished()))
        };
        let series: Vec<Series> = GODS
            .iter()
            .map(|god| Series {
                label: capitalize(god),
                class: (*god).to_owned(),
                values: rounds
                    .iter()
                    .map(|(_, spaces, public)| space(god, spaces, public))
                    .collect(),
            })
            .collect();
        let chart = line_chart(
            "chart",
            title,
            "Every god's space after each round",
            &xs,
            &series,
        );
        Some(("Across rounds", chart))
    }

    /// The track: every god's space, the goal, the podium.
    fn picture(
        public: &Table,
        opening: Option<&Table>,
        _names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String> {
        let spaces = sub(public, "spaces")?;
        let goal = goal(public, opening)?;
        let podium = strings(public.get("podium"));
        const LEFT: f64 = 80.0;
        const ROW: f64 = 40.0;
        let width = 600.0;
        let cell = (width - LEFT - 20.0) / goal.max(1) as f64;
        let mut desc = Vec::new();
        let mut p_rows = Vec::new();
        for god in GODS {
            let place = podium.iter().position(|g| g == god);
            // a god on the podium has left the track: drawn at the goal
            let space = match (spaces.get(god).and_then(Value::as_integer), place) {
                (Some(space), _) => space,
                (None, Some(_)) => goal,
                (None, None) => return None,
            };
            desc.push(match place {
                Some(i) => format!("{}: finished, place {}", capitalize(god), i + 1),
                None => format!("{}: space {space} of {goal}", capitalize(god)),
            });
            p_rows.push((god, space, place));
        }
        let height = 20.0 + ROW * GODS.len() as f64 + 20.0;
        let mut p = Picture::new(
            id,
            title,
            &format!("The track: {}.", desc.join("; ")),
            width as u32,
            height as u32,
        );
        for (row, (god, space, place)) in p_rows.iter().enumerate() {
            let y = 20.0 + row as f64 * ROW;
            p.text(LEFT - 10.0, y + 24.0, "end", "label", &capitalize(god));
            for s in 1..=goal {
                p.rect(
                    LEFT + (s - 1) as f64 * cell + 1.0,
                    y + 6.0,
                    cell - 2.0,
                    ROW - 12.0,
                    "track",
                );
            }
            let at = (*space).clamp(1, goal.max(1));
            let cx = LEFT + (at as f64 - 0.5) * cell;
            p.circle(cx, y + ROW / 2.0, (cell / 2.0 - 3.0).clamp(4.0, 14.0), god);
            if let Some(i) = place {
                p.text(cx, y + 4.0, "middle", "small", &ordinal(i + 1));
            }
        }
        p.text(LEFT, 14.0, "start", "small", "start");
        p.text(
            width - 20.0,
            14.0,
            "end",
            "small",
            &format!("goal: space {goal}"),
        );
        Some(p.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ending::tests::{id, table};
    use crate::games::picture::tests::names;

    #[test]
    fn the_ending_gives_winners_tokens_and_candidates() {
        let race =
            table("[final]\nwinners = [\"a\"]\nelimination = [\"g\"]\n[final.tokens]\na = 2\n");
        let o = GodRace::ending(&[&race]);
        assert_eq!(o.tokens, [(id("a"), 2)].into());
        assert_eq!(o.elimination, [id("g")]);
    }

    #[test]
    fn the_track_places_every_god_and_the_podium() {
        let public = table(
            "goal = 8\npodium = [\"red\"]\n[spaces]\nwhite = 1\nblue = 3\nblack = 2\ngreen = 5\n",
        );
        let svg = GodRace::picture(&public, None, &names(), "r", "Round 2").unwrap();
        assert_eq!(svg.matches("<circle").count(), 5);
        assert!(svg.contains("Red: finished, place 1"), "{svg}");
        assert!(svg.contains("Blue: space 3 of 8"));
        assert!(svg.contains(">1st</text>"));
    }

    #[test]
    fn the_goal_comes_from_the_opening_or_from_the_numbered_track() {
        let public = table(
            "picture = [\"    1    2    3\", \"   KG    .    W\"]\n[spaces]\nwhite = 3\nblue = 1\nblack = 1\nred = 1\ngreen = 1\n",
        );
        let opening = table("goal = 14\n");
        let svg = GodRace::picture(&public, Some(&opening), &names(), "r", "t").unwrap();
        assert!(svg.contains("White: space 3 of 14"), "{svg}");
        let svg = GodRace::picture(&public, None, &names(), "r", "t").unwrap();
        assert!(svg.contains("White: space 3 of 3"), "{svg}");
    }

    /// Issue 57: a god that reached the goal is drawn at the goal, not at its last space.
    #[test]
    fn the_chart_draws_a_finished_god_at_the_goal() {
        let opening = table("goal = 14\n");
        let before = table("round = 6\n[spaces]\nwhite = 12\nblue = 5\n");
        let after = table("round = 7\npodium = [\"white\"]\n[spaces]\nblue = 6\n");
        let (_, svg) = GodRace::chart(&[&opening, &before, &after], &names(), "t").unwrap();
        assert!(svg.contains("White: 12, 14"), "{svg}");
        assert!(svg.contains("Blue: 5, 6"), "{svg}");
        assert!(svg.contains("Red: -, -"), "{svg}");
    }

    #[test]
    fn a_track_with_a_space_of_the_wrong_type_has_no_picture() {
        let partial = table("[spaces]\nred = \"far\"\n");
        assert_eq!(GodRace::picture(&partial, None, &names(), "r", "t"), None);
    }
}
