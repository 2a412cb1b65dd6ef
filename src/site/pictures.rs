//! A picture of each round, drawn from `[public]` of its result.toml alone, and a game's winners
//! in words. result.toml may have been edited by hand: a key that is missing or of the wrong type
//! leaves the picture out (the announcement is still there), it never stops the site.
//!
//! God Race: the track (every god's space, the goal, the podium) and, for the game page, every
//! god's space across rounds. Planar Control: the planes with who is on each and who controls it.
//! Room Swap: the final points as a bar chart (a round before the end: how many scored, Peeks and
//! Blocks). Final Ritual: the table (Betray Marks and cards in hand per seat, the altar).

use super::svg::{Bar, Picture, Series, bar_chart, line_chart};
use crate::games::GameId;
use std::collections::BTreeMap;
use toml::{Table, Value};

type Names = BTreeMap<String, String>;

const GODS: [&str; 5] = ["white", "blue", "black", "red", "green"];

fn name(names: &Names, id: &str) -> String {
    names.get(id).cloned().unwrap_or_else(|| id.to_owned())
}

fn int(table: &Table, key: &str) -> Option<i64> {
    table.get(key)?.as_integer()
}

fn sub<'a>(table: &'a Table, key: &str) -> Option<&'a Table> {
    table.get(key)?.as_table()
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The picture of one round, if the game draws one for it. `opening` is the game's opening
/// announcement, where it has one (God Race says the goal there). `id` is unique on the page.
pub fn round(
    game: GameId,
    public: &Table,
    opening: Option<&Table>,
    names: &Names,
    id: &str,
    title: &str,
) -> Option<String> {
    match game {
        GameId::GodRace => god_race_track(public, opening, id, title),
        GameId::PlanarControl => planes(public, names, id, title),
        GameId::RoomSwap => room_swap(public, names, id, title),
        GameId::FinalRitual => ritual_table(public, names, id, title),
        GameId::DeathMatchPick | GameId::MeadowAssignment => None,
    }
}

/// A chart of the whole game for its page, with its heading (`publics` in order, openings left
/// out): God Race, every god's space across rounds; Room Swap, the final points.
pub fn chart(
    game: GameId,
    publics: &[&Table],
    names: &Names,
    title: &str,
) -> Option<(&'static str, String)> {
    match game {
        GameId::GodRace => Some(("Across rounds", god_race_chart(publics, title)?)),
        GameId::RoomSwap => {
            let last = publics.iter().rev().find(|p| p.contains_key("final"))?;
            Some(("Final points", room_swap(last, names, "chart", title)?))
        }
        _ => None,
    }
}

/// The winners of a finished game in words (`crate::outcome`, as the season reads them).
pub fn winners(game: GameId, publics: &[&Table], names: &Names) -> Vec<String> {
    let outcome = crate::ending::read(game, publics);
    // Planar Control is won by an alignment; the season rounds have no winners
    match outcome.alignment {
        Some(a) => vec![format!("{} alignment", capitalize(&a))],
        None => outcome
            .winners
            .iter()
            .map(|id| name(names, id.as_str()))
            .collect(),
    }
}

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

fn god_race_track(
    public: &Table,
    opening: Option<&Table>,
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

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

fn god_race_chart(publics: &[&Table], title: &str) -> Option<String> {
    let rounds: Vec<(i64, &Table)> = publics
        .iter()
        .filter_map(|p| Some((int(p, "round")?, sub(p, "spaces")?)))
        .collect();
    if rounds.len() < 2 {
        return None;
    }
    let xs: Vec<String> = rounds.iter().map(|(r, _)| r.to_string()).collect();
    let series: Vec<Series> = GODS
        .iter()
        .map(|god| Series {
            label: capitalize(god),
            class: (*god).to_owned(),
            values: rounds
                .iter()
                .map(|(_, spaces)| spaces.get(*god).and_then(Value::as_integer))
                .collect(),
        })
        .collect();
    Some(line_chart(
        "chart",
        title,
        "Every god's space after each round",
        &xs,
        &series,
    ))
}

fn planes(public: &Table, names: &Names, id: &str, title: &str) -> Option<String> {
    const PLANES: [&str; 4] = ["earth", "limbo", "thera", "mobil"];
    let on = sub(public, "planes")?;
    let control = sub(public, "control");
    let banished = sub(public, "banished");
    let mut by_plane: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (player, plane) in on {
        if let Some(plane) = plane.as_str() {
            by_plane.entry(plane).or_default().push(name(names, player));
        }
    }
    let tallest = PLANES
        .iter()
        .map(|p| by_plane.get(p).map_or(0, Vec::len))
        .max()
        .unwrap_or(0);
    let (width, col) = (600.0, 150.0);
    let height = 90.0 + 22.0 * tallest as f64 + 30.0;
    let mut desc = Vec::new();
    let mut cells = Vec::new();
    for plane in PLANES {
        let who = by_plane.get(plane).cloned().unwrap_or_default();
        let ruler = control
            .and_then(|c| c.get(plane))
            .and_then(Value::as_str)
            .map(capitalize);
        let gone = banished
            .and_then(|b| b.get(plane))
            .and_then(Value::as_str)
            .map(|p| name(names, p));
        desc.push(format!(
            "{}: {}{}{}",
            capitalize(plane),
            if who.is_empty() {
                "nobody".to_owned()
            } else {
                who.join(", ")
            },
            ruler
                .as_ref()
                .map_or(String::new(), |r| format!("; controlled by {r}")),
            gone.as_ref()
                .map_or(String::new(), |g| format!("; {g} banished")),
        ));
        cells.push((plane, who, ruler, gone));
    }
    let mut p = Picture::new(
        id,
        title,
        &format!("The planes: {}.", desc.join(". ")),
        width as u32,
        height as u32,
    );
    for (i, (plane, who, ruler, gone)) in cells.iter().enumerate() {
        let x = i as f64 * col;
        p.rect(x + 4.0, 4.0, col - 8.0, height - 8.0, "plane");
        p.text(x + col / 2.0, 28.0, "middle", "label", &capitalize(plane));
        let class = ruler
            .as_deref()
            .map_or("none".to_owned(), str::to_lowercase);
        p.rect(x + 14.0, 38.0, col - 28.0, 20.0, &class);
        p.text(
            x + col / 2.0,
            53.0,
            "middle",
            "small",
            ruler.as_deref().unwrap_or("no control"),
        );
        for (j, who) in who.iter().enumerate() {
            p.text(
                x + col / 2.0,
                82.0 + 22.0 * j as f64,
                "middle",
                "small",
                who,
            );
        }
        if let Some(gone) = gone {
            p.text(
                x + col / 2.0,
                height - 14.0,
                "middle",
                "small",
                &format!("banished: {gone}"),
            );
        }
    }
    Some(p.finish())
}

fn room_swap(public: &Table, names: &Names, id: &str, title: &str) -> Option<String> {
    if let Some(fin) = sub(public, "final") {
        let points = sub(fin, "points")?;
        let winners = strings(fin.get("winners"));
        let bars: Vec<Bar> = points
            .iter()
            .map(|(player, pts)| {
                Some(Bar {
                    label: name(names, player),
                    value: pts.as_integer()?,
                    class: if winners.contains(player) {
                        "winner"
                    } else {
                        ""
                    }
                    .to_owned(),
                })
            })
            .collect::<Option<_>>()?;
        return Some(bar_chart(id, &format!("{title}: final points"), &bars));
    }
    if public.get("phase").and_then(Value::as_str) == Some("token") || int(public, "round")? == 0 {
        return None;
    }
    let bars = [
        ("Gained a point", "scorers"),
        ("Peeks", "peeks"),
        ("Blocks", "blocks"),
    ]
    .into_iter()
    .map(|(label, key)| Bar {
        label: label.to_owned(),
        value: int(public, key).unwrap_or(0),
        class: String::new(),
    })
    .collect::<Vec<_>>();
    Some(bar_chart(id, &format!("{title}: players"), &bars))
}

fn ritual_table(public: &Table, names: &Names, id: &str, title: &str) -> Option<String> {
    let seats = strings(public.get("seats"));
    if seats.is_empty() {
        return None;
    }
    let marks = sub(public, "marks")?;
    let hands = sub(public, "hand_counts")?;
    let executed = strings(public.get("executed"));
    let altar = int(public, "altar_count")?;
    const ROW: f64 = 34.0;
    let (width, left) = (600.0, 130.0);
    let height = 40.0 + ROW * seats.len() as f64 + 34.0;
    let mut desc = Vec::new();
    let mut p = Picture::new(id, title, "", width as u32, height as u32);
    p.text(left, 20.0, "start", "small", "Betray Marks");
    p.text(370.0, 20.0, "start", "small", "Cards: resources + oracles");
    for (i, seat) in seats.iter().enumerate() {
        let y = 30.0 + i as f64 * ROW;
        let m = marks.get(seat).and_then(Value::as_integer).unwrap_or(0);
        let hand = hands.get(seat).and_then(Value::as_table);
        let resources = hand.and_then(|h| int(h, "resources")).unwrap_or(0);
        let oracles = hand.and_then(|h| int(h, "oracles")).unwrap_or(0);
        let dead = executed.contains(seat);
        let who = name(names, seat);
        p.text(
            left - 10.0,
            y + 22.0,
            "end",
            "label",
            &if dead {
                format!("{who} †")
            } else {
                who.clone()
            },
        );
        for k in 0..m.clamp(0, 10) {
            p.rect(left + k as f64 * 22.0, y + 8.0, 16.0, 18.0, "marks");
        }
        p.rect(
            370.0,
            y + 8.0,
            (resources.clamp(0, 30) * 6) as f64 + 1.0,
            18.0,
            "cards",
        );
        p.text(
            370.0 + (resources.clamp(0, 30) * 6) as f64 + 8.0,
            y + 22.0,
            "start",
            "small",
            &format!("{resources} + {oracles}"),
        );
        desc.push(format!(
            "{who}{}: {m} Betray Mark(s), {resources} resource(s) and {oracles} oracle(s) in hand",
            if dead { " (executed)" } else { "" }
        ));
    }
    p.text(
        left,
        height - 12.0,
        "start",
        "label",
        &format!("Altar: {altar} card(s)"),
    );
    p.describe(&format!(
        "Seats in order. {}. Altar: {altar} card(s).",
        desc.join("; ")
    ));
    Some(p.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    fn names() -> Names {
        [("alice", "Alice"), ("bob", "Bob")]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .into()
    }

    #[test]
    fn the_god_race_track_places_every_god_and_the_podium() {
        let public = table(
            "goal = 8\npodium = [\"red\"]\n[spaces]\nwhite = 1\nblue = 3\nblack = 2\ngreen = 5\n",
        );
        let svg = round(GameId::GodRace, &public, None, &names(), "r", "Round 2").unwrap();
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
        let svg = round(GameId::GodRace, &public, Some(&opening), &names(), "r", "t").unwrap();
        assert!(svg.contains("White: space 3 of 14"), "{svg}");
        let svg = round(GameId::GodRace, &public, None, &names(), "r", "t").unwrap();
        assert!(svg.contains("White: space 3 of 3"), "{svg}");
    }

    #[test]
    fn a_hand_edited_result_without_the_keys_has_no_picture_and_no_panic() {
        let broken = table("spaces = 3\nplanes = [1]\nseats = \"x\"\n[final]\npoints = 1\n");
        for game in GameId::ALL {
            assert_eq!(
                round(game, &broken, None, &names(), "r", "t"),
                None,
                "{game:?}"
            );
        }
        let partial = table("[spaces]\nred = \"far\"\n");
        assert_eq!(
            round(GameId::GodRace, &partial, None, &names(), "r", "t"),
            None
        );
    }

    #[test]
    fn planes_show_who_is_where_and_who_controls() {
        let public = table(
            "[planes]\nalice = \"earth\"\nbob = \"thera\"\n[control]\nearth = \"ember\"\n[banished]\nthera = \"bob\"\n",
        );
        let svg = round(GameId::PlanarControl, &public, None, &names(), "r", "t").unwrap();
        assert!(svg.contains("Earth: Alice; controlled by Ember"), "{svg}");
        assert!(svg.contains("Thera: Bob; Bob banished"));
        assert!(svg.contains("Limbo: nobody"));
    }

    #[test]
    fn winners_come_from_the_last_final_in_words() {
        let a = table("[final]\nwinners = [\"alice\"]\n");
        let b = table("round = 5\n");
        assert_eq!(winners(GameId::RoomSwap, &[&a, &b], &names()), ["Alice"]);
        let pc = table("[final]\nwinner = \"torrent\"\n");
        assert_eq!(
            winners(GameId::PlanarControl, &[&pc], &names()),
            ["Torrent alignment"]
        );
        assert!(winners(GameId::FinalRitual, &[&b], &names()).is_empty());
    }

    #[test]
    fn the_ritual_table_describes_every_seat() {
        let public = table(
            "seats = [\"alice\", \"bob\"]\nexecuted = [\"bob\"]\naltar_count = 4\n[marks]\nalice = 2\nbob = 0\n[hand_counts.alice]\nresources = 5\noracles = 1\n[hand_counts.bob]\nresources = 0\noracles = 0\n",
        );
        let svg = round(GameId::FinalRitual, &public, None, &names(), "r", "t").unwrap();
        assert!(
            svg.contains("Alice: 2 Betray Mark(s), 5 resource(s) and 1 oracle(s) in hand"),
            "{svg}"
        );
        assert!(svg.contains("Bob (executed)"));
        assert!(svg.contains("Altar: 4 card(s)"));
        assert_eq!(svg.matches("class=\"marks\"").count(), 2);
    }
}
