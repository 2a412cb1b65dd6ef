//! What a finished game's announcements say of its end, read from `[public.final]` of its
//! results: winners, Tokens of Life won, Elimination Candidates, who picks first and who may be
//! picked, the meadows assigned. One reading of each game's keys for the season's ledger and the
//! web site. A key missing or of the wrong type (a hand-edited result) reads as nothing.

use crate::games::GameId;
use crate::player_id::PlayerId;
use std::collections::BTreeMap;
use toml::{Table, Value};

#[derive(Debug, Default, PartialEq)]
pub struct Ending {
    /// The players who won (Planar Control: the winning alignment's members).
    pub winners: Vec<PlayerId>,
    /// Planar Control: the alignment that won.
    pub alignment: Option<String>,
    /// Tokens of Life won.
    pub tokens: BTreeMap<PlayerId, i64>,
    /// The Elimination Candidates.
    pub elimination: Vec<PlayerId>,
    /// The candidate who picks a Death Match opponent first (Planar Control).
    pub first_pick: Option<PlayerId>,
    /// Who the candidates may pick, when the game says (Room Swap's `eligible_opponents`).
    pub eligible: Option<Vec<PlayerId>>,
    /// The meadows a meadow assignment settled.
    pub meadows: Option<BTreeMap<PlayerId, String>>,
}

fn ids(value: Option<&Value>) -> Vec<PlayerId> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().and_then(PlayerId::parse))
                .collect()
        })
        .unwrap_or_default()
}

/// What a finished game's announcements (`publics`, in order) say in `[public.final]` (and Room
/// Swap's Token gift): each game's own keys (spec, "State and result").
pub fn read(game: GameId, publics: &[&Table]) -> Ending {
    let finals: Vec<&Table> = publics
        .iter()
        .filter_map(|p| p.get("final").and_then(Value::as_table))
        .collect();
    let mut out = Ending::default();
    let one_each = |ids: Vec<PlayerId>| ids.into_iter().map(|id| (id, 1)).collect();
    match game {
        GameId::GodRace => {
            if let Some(f) = finals.last() {
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
        }
        GameId::RoomSwap => {
            if let Some(f) = finals.last() {
                out.winners = ids(f.get("winners"));
                out.elimination = ids(f.get("elimination"));
                out.tokens = one_each(ids(f.get("tokens")));
            }
            // who may be picked: the last word of the final or of the Token gift
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
        }
        GameId::PlanarControl => {
            // round 6: the winning alignment's Tokens; round 7: the candidates, one per loser
            for f in &finals {
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
        }
        // gives the season nothing: the Death Match's result is an event
        GameId::DeathMatchPick => {}
        GameId::MeadowAssignment => {
            out.meadows = finals
                .last()
                .and_then(|f| f.get("meadows"))
                .and_then(Value::as_table)
                .map(|t| {
                    t.iter()
                        .filter_map(|(id, g)| Some((PlayerId::parse(id)?, g.as_str()?.to_owned())))
                        .collect()
                });
        }
        GameId::FinalRitual => {
            if let Some(w) = finals
                .last()
                .and_then(|f| f.get("winner")?.as_str())
                .and_then(PlayerId::parse)
            {
                out.winners = vec![w];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    fn id(text: &str) -> PlayerId {
        PlayerId::parse(text).unwrap()
    }

    #[test]
    fn each_game_gives_its_winners_tokens_and_candidates() {
        let race =
            table("[final]\nwinners = [\"a\"]\nelimination = [\"g\"]\n[final.tokens]\na = 2\n");
        let o = read(GameId::GodRace, &[&race]);
        assert_eq!(o.tokens, [(id("a"), 2)].into());
        assert_eq!(o.elimination, [id("g")]);

        let end = table("[final]\nwinners = [\"d\"]\nelimination = [\"f\"]\ntokens = [\"d\"]\n");
        let gift = table("[token_gift]\ngiver = \"d\"\nto = \"a\"\n");
        let o = read(GameId::RoomSwap, &[&end, &gift]);
        assert_eq!(o.tokens, [(id("a"), 1), (id("d"), 1)].into());
        assert_eq!(o.winners, [id("d")]);

        let r6 = table("[final]\nwinner = \"ember\"\ntokens = [\"a\", \"b\"]\n");
        let r7 = table(
            "[final]\nfirst_pick = \"c\"\n[final.elimination]\nnature = \"c\"\ntorrent = \"d\"\n",
        );
        let o = read(GameId::PlanarControl, &[&r6, &r7]);
        assert_eq!(o.tokens.len(), 2);
        assert_eq!(o.alignment.as_deref(), Some("ember"));
        assert_eq!(o.elimination, [id("c"), id("d")]);

        let fr = table("[final]\nwinner = \"e\"\n");
        let o = read(GameId::FinalRitual, &[&fr]);
        assert_eq!((o.winners, o.tokens.len()), (vec![id("e")], 0));
    }
}
