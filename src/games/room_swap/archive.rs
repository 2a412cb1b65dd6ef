//! Room Swap's public record read back: its ending (for the season: the winners, the Token gift,
//! who may be picked for the Death Match) and its pictures (for the site: each round's players,
//! the final points).

use super::RoomSwap;
use crate::games::Archive;
use crate::games::ending::{Ending, finals, ids, one_each};
use crate::games::picture::{Chart, Names, int, name, strings, sub};
use crate::player_id::PlayerId;
use crate::svg::{Bar, bar_chart};
use toml::{Table, Value};

impl Archive for RoomSwap {
    /// The winners, the candidates and the Tokens of the last `[final]`, plus the Token gift and
    /// who may be picked: the last word of the final or of the gift.
    fn ending(publics: &[&Table]) -> Ending {
        let mut out = Ending::default();
        if let Some(f) = finals(publics).last() {
            out.winners = ids(f.get("winners"));
            out.elimination = ids(f.get("elimination"));
            out.tokens = one_each(ids(f.get("tokens")));
        }
        out.eligible = publics
            .iter()
            .filter_map(|p| {
                let from = p.get("token_gift").or_else(|| p.get("final"))?;
                from.get("eligible_opponents").map(|e| ids(Some(e)))
            })
            .next_back();
        let gift = publics
            .iter()
            .filter_map(|p| p.get("token_gift")?.get("to")?.as_str())
            .filter_map(PlayerId::parse)
            .next_back();
        if let Some(to) = gift {
            *out.tokens.entry(to).or_default() += 1;
        }
        out
    }

    /// The game page's chart: the final points.
    fn chart(publics: &[&Table], names: &Names, title: &str) -> Option<Chart> {
        let last = publics.iter().rev().find(|p| p.contains_key("final"))?;
        Some((
            "Final points",
            Self::picture(last, None, names, "chart", title)?,
        ))
    }

    /// The final points as a bar chart; a round before the end: how many scored, Peeks and Blocks.
    fn picture(
        public: &Table,
        _opening: Option<&Table>,
        names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String> {
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
        if public.get("phase").and_then(Value::as_str) == Some("token")
            || int(public, "round")? == 0
        {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ending::tests::{id, table};

    #[test]
    fn the_ending_adds_the_token_gift() {
        let end = table("[final]\nwinners = [\"d\"]\nelimination = [\"f\"]\ntokens = [\"d\"]\n");
        let gift = table("[token_gift]\ngiver = \"d\"\nto = \"a\"\n");
        let o = RoomSwap::ending(&[&end, &gift]);
        assert_eq!(o.tokens, [(id("a"), 1), (id("d"), 1)].into());
        assert_eq!(o.winners, [id("d")]);
    }
}
