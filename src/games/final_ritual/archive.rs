//! Final Ritual's public record read back: its winner (for the season) and the table of each
//! round (for the site: Betray Marks and cards in hand per seat, the altar).

use super::FinalRitual;
use crate::games::Archive;
use crate::games::ending::{Ending, finals};
use crate::games::picture::{Names, int, name, strings, sub};
use crate::player_id::PlayerId;
use crate::svg::Picture;
use toml::{Table, Value};

impl Archive for FinalRitual {
    /// The winner of the last `[final]`; Final Ritual names no Tokens or candidates.
    fn ending(publics: &[&Table]) -> Ending {
        let mut out = Ending::default();
        if let Some(w) = finals(publics)
            .last()
            .and_then(|f| f.get("winner")?.as_str())
            .and_then(PlayerId::parse)
        {
            out.winners = vec![w];
        }
        out
    }

    /// The table: seats in order with their Betray Marks and cards in hand, the altar.
    fn picture(
        public: &Table,
        _opening: Option<&Table>,
        names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ending::tests::{id, table};
    use crate::games::picture::tests::names;

    #[test]
    fn the_ending_is_the_winner() {
        let fr = table("[final]\nwinner = \"e\"\n");
        let o = FinalRitual::ending(&[&fr]);
        assert_eq!((o.winners, o.tokens.len()), (vec![id("e")], 0));
    }

    #[test]
    fn the_ritual_table_describes_every_seat() {
        let public = table(
            "seats = [\"alice\", \"bob\"]\nexecuted = [\"bob\"]\naltar_count = 4\n[marks]\nalice = 2\nbob = 0\n[hand_counts.alice]\nresources = 5\noracles = 1\n[hand_counts.bob]\nresources = 0\noracles = 0\n",
        );
        let svg = FinalRitual::picture(&public, None, &names(), "r", "t").unwrap();
        assert!(
            svg.contains("Alice: 2 Betray Mark(s), 5 resource(s) and 1 oracle(s) in hand"),
            "{svg}"
        );
        assert!(svg.contains("Bob (executed)"));
        assert!(svg.contains("Altar: 4 card(s)"));
        assert_eq!(svg.matches("class=\"marks\"").count(), 2);
    }
}
