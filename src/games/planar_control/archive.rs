//! Planar Control's public record read back: its ending (for the season: the winning alignment and
//! its Tokens, then the candidates and who picks first) and the planes of each round (for the
//! site: who is on each plane and who controls it).

use super::PlanarControl;
use crate::games::Archive;
use crate::games::ending::{Ending, finals, ids, one_each};
use crate::games::picture::{Names, capitalize, name, sub};
use crate::player_id::PlayerId;
use crate::svg::Picture;
use std::collections::BTreeMap;
use toml::{Table, Value};

impl Archive for PlanarControl {
    /// Round 6's `[final]`: the winning alignment's Tokens; round 7's: the candidates, one per
    /// loser, and who picks first.
    fn ending(publics: &[&Table]) -> Ending {
        let mut out = Ending::default();
        for f in finals(publics) {
            if f.contains_key("tokens") {
                out.winners = ids(f.get("tokens"));
                out.tokens = one_each(ids(f.get("tokens")));
            }
            if let Some(winner) = f.get("winner").and_then(Value::as_str) {
                out.alignment = Some(winner.to_owned());
            }
            if let Some(first) = f.get("first_pick").and_then(Value::as_str) {
                out.first_pick = PlayerId::parse(first);
            }
            if let Some(e) = f.get("elimination").and_then(Value::as_table) {
                out.elimination = e
                    .values()
                    .filter_map(|v| v.as_str().and_then(PlayerId::parse))
                    .collect();
            }
        }
        out
    }

    /// The planes, with who is on each, who controls it and who was banished from it.
    fn picture(
        public: &Table,
        _opening: Option<&Table>,
        names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ending::tests::{id, table};
    use crate::games::picture::tests::names;

    #[test]
    fn the_ending_reads_both_finals() {
        let r6 = table("[final]\nwinner = \"ember\"\ntokens = [\"a\", \"b\"]\n");
        let r7 = table(
            "[final]\nfirst_pick = \"c\"\n[final.elimination]\nnature = \"c\"\ntorrent = \"d\"\n",
        );
        let o = PlanarControl::ending(&[&r6, &r7]);
        assert_eq!(o.tokens.len(), 2);
        assert_eq!(o.alignment.as_deref(), Some("ember"));
        assert_eq!(o.elimination, [id("c"), id("d")]);
        assert_eq!(o.first_pick, Some(id("c")));
    }

    #[test]
    fn planes_show_who_is_where_and_who_controls() {
        let public = table(
            "[planes]\nalice = \"earth\"\nbob = \"thera\"\n[control]\nearth = \"ember\"\n[banished]\nthera = \"bob\"\n",
        );
        let svg = PlanarControl::picture(&public, None, &names(), "r", "t").unwrap();
        assert!(svg.contains("Earth: Alice; controlled by Ember"), "{svg}");
        assert!(svg.contains("Thera: Bob; Bob banished"));
        assert!(svg.contains("Limbo: nobody"));
    }
}
