//! Tribal Council (`tribal-council`): the elimination vote of a Survivor-style season, and the
//! jury's final vote (spec `../shared/spec/tribal-council.md`; rulings in
//! `games/tribal-council/README.md`). A season round: one council, one or more votes (a revote
//! after a tie), played between a season's matches.

mod bots;
mod receive;
mod resolve;
pub mod state;
mod version;

use crate::doc::Doc;
use crate::games::ending::{Ending, ids};
use crate::games::picture::{Names, name};
use crate::games::{
    Archive, Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError,
};
use crate::player_id::PlayerId;
use serde::Serialize;
use state::{Mode, Stage, State};

pub use receive::KEYS;

pub struct TribalCouncil;

impl Game for TribalCouncil {
    const ID: GameId = GameId::TribalCouncil;
    const NAME: &'static str = "tribal-council";
    const NEW_TOML: &'static str = new_toml!("tribal-council");
    const SAMPLE_PLAYERS: usize = 8;
    const TEMPLATES: &'static [(&'static str, &'static str)] =
        templates!("tribal-council": "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    const KEYS: &'static [&'static str] = KEYS;
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        state::setup(setup)
    }

    fn check_state(state: &State) -> Result<(), SetupError> {
        use crate::games::check_refs;
        state::check(state)?;
        check_refs(&state.players, "tied", &state.tied)?;
        check_refs(&state.players, "decided", &state.decided)?;
        check_refs(&state.players, "first_votes", state.first_votes.keys())?;
        for (id, p) in &state.players {
            let key = format!("players.{id}.live");
            check_refs(&state.players, &format!("{key}.vote"), &p.live.vote)?;
            check_refs(&state.players, &format!("{key}.idol"), &p.live.idol)?;
            check_refs(
                &state.players,
                &format!("{key}.extra_vote"),
                &p.live.extra_vote,
            )?;
            if p.live.idol.len() as u32 > p.idols || p.live.extra_vote.len() as u32 > p.extra_votes
            {
                return Err(SetupError {
                    key,
                    message: "plays more idols or extra votes than the player holds".into(),
                });
            }
        }
        Ok(())
    }

    fn roster(state: &State) -> Vec<&PlayerId> {
        state.players.keys().collect()
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn rounds_played(state: &State) -> u32 {
        state.rounds_played
    }

    fn is_over(state: &State) -> bool {
        state.stage == Stage::Over
    }

    fn expected(state: &State) -> Vec<PlayerId> {
        state.voters()
    }

    fn plays(state: &State, player: &PlayerId) -> bool {
        state.voters().contains(player)
            || state.advantages() && state.players.get(player).is_some_and(|p| p.idols > 0)
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state.players.get(player).is_some_and(|p| p.live.valid)
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        if !state.voters().contains(player) {
            return "nothing: you have no vote in this one".into();
        }
        let own = state.options.missing_vote == state::Missing::OwnName
            && state.options.mode == Mode::Elimination
            && state.candidates().contains(player);
        if own {
            "your vote will be cast against yourself".into()
        } else {
            "you will cast no vote".into()
        }
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        crate::games::version::receive::<TribalCouncil>(state, player, doc, detail)
    }

    /// Who attends, who is immune, and each player's own holdings and skeleton.
    fn opening(state: &State) -> Option<RoundResult> {
        #[derive(Serialize)]
        struct Opening {
            round: u32,
            mode: Mode,
            candidates: Vec<PlayerId>,
            voters: Vec<PlayerId>,
            immune: Vec<PlayerId>,
        }
        #[derive(Serialize)]
        struct Mine {
            idols: u32,
            extra_votes: u32,
            votes: bool,
            immune: bool,
            finalist: bool,
        }
        let voters = state.voters();
        let private = state
            .players
            .iter()
            .map(|(id, p)| {
                let mine = Mine {
                    idols: p.idols,
                    extra_votes: p.extra_votes,
                    votes: voters.contains(id),
                    immune: p.immune,
                    finalist: p.finalist,
                };
                (id.clone(), crate::games::PrivatePart::typed(mine))
            })
            .collect();
        let opening = Opening {
            round: 0,
            mode: state.options.mode,
            candidates: state.candidates(),
            voters,
            immune: state
                .players
                .iter()
                .filter(|(_, p)| p.immune)
                .map(|(id, _)| id.clone())
                .collect(),
        };
        Some(RoundResult::without_garnets(&opening, private))
    }

    const SEAT_LEAVES: &'static str = "\
        at an elimination vote, the player who leaves is the one who goes home, and no vote is \
        read; from a jury vote, a juror who leaves casts no vote and a finalist who leaves \
        cannot win";

    /// Ruling (README, "A player who leaves"): a player withdrawn from an elimination council
    /// is the one who goes home (the host's way to settle a deadlock the show settles outside
    /// the vote, or a quit); from a jury vote, a juror casts no vote and a finalist cannot win.
    fn withdraw(state: &mut State, player: &PlayerId) -> Result<(), String> {
        if state.stage == Stage::Over {
            return Err("the council is over".into());
        }
        let jury = state.options.mode == Mode::Jury;
        if !jury && state.players.values().any(|p| p.left) {
            return Err("a player has left this council already: it sent them home".into());
        }
        let finalists = state.candidates();
        if jury && finalists.len() == 1 && finalists.contains(player) {
            return Err("no finalist would be left".into());
        }
        let me = state
            .players
            .get_mut(player)
            .ok_or_else(|| format!("{player} is not at this council"))?;
        me.left = true;
        me.live = Default::default();
        Ok(())
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        resolve::resolve(state, seed)
    }
}

impl Archive for TribalCouncil {
    /// A council of the season: every living player attends (the host marks immunity, idols and,
    /// for the final vote, `finalist` in game.toml before the first tick).
    fn season_match(
        _so_far: &crate::games::season::SoFar<'_>,
        _options: &toml::Table,
    ) -> Result<crate::games::season::FromSeason, String> {
        Ok(crate::games::season::FromSeason {
            title: Some("Tribal Council"),
            ..Default::default()
        })
    }

    /// The jury's winner; who went home (`out`).
    fn ending(publics: &[&toml::Table]) -> Ending {
        let mut out = Ending::default();
        if let Some(f) = crate::games::ending::finals(publics).last() {
            out.winners = ids(f.get("winners"));
            out.out = ids(f.get("eliminated"));
        }
        out
    }

    /// The tally as bars, one per player who received a vote; votes an idol cancelled drawn
    /// apart ("cancelled").
    fn picture(
        public: &toml::Table,
        _opening: Option<&toml::Table>,
        names: &Names,
        id: &str,
        title: &str,
    ) -> Option<String> {
        let reading = public.get("reading")?.as_array()?;
        let mut bars: Vec<crate::svg::Bar> = Vec::new();
        for ballot in reading {
            let ballot = ballot.as_table()?;
            let player = ballot.get("player")?.as_str()?;
            let counted = ballot.get("counted")?.as_bool()?;
            let label = if counted {
                name(names, player)
            } else {
                format!("{} (idol: not counted)", name(names, player))
            };
            match bars.iter_mut().find(|b| b.label == label) {
                Some(b) => b.value += 1,
                None => bars.push(crate::svg::Bar {
                    label,
                    value: 1,
                    class: if counted { "counted" } else { "cancelled" }.into(),
                }),
            }
        }
        if bars.is_empty() {
            return None;
        }
        bars.sort_by(|a, b| b.value.cmp(&a.value).then(a.label.cmp(&b.label)));
        Some(crate::svg::bar_chart(id, title, &bars))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_counts_each_players_votes_and_marks_the_cancelled_ones() {
        let public: toml::Table = toml::from_str(
            r#"reading = [
                { player = "a", counted = true },
                { player = "b", counted = false },
                { player = "a", counted = true },
            ]"#,
        )
        .unwrap();
        let names = Names::from([
            ("a".to_owned(), "Ann".to_owned()),
            ("b".to_owned(), "Ben".to_owned()),
        ]);
        let svg = TribalCouncil::picture(&public, None, &names, "r1", "Votes").unwrap();
        assert!(svg.contains("Ann: 2"), "{svg}");
        assert!(svg.contains("Ben (idol: not counted): 1"), "{svg}");
        assert!(svg.contains("bar cancelled"), "{svg}");
        let none: toml::Table = toml::from_str("reading = []").unwrap();
        assert!(TribalCouncil::picture(&none, None, &names, "r1", "Votes").is_none());
    }
}
