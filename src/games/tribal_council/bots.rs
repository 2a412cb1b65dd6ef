//! Tribal Council bots for `simulate`: `random` votes for a random player who can receive votes
//! (never itself while another can), and `bloc` votes with the largest bloc: every `bloc` bot
//! votes for the same player, the first in id order who can receive votes and is not one of
//! them. Bots hand their votes to the checks a player's file meets
//! (`version::send`). A council ends in one to three votes.

use super::TribalCouncil;
use super::state::{Mode, Stage, State};
use super::version::Version;
use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
use crate::games::version::{Name, Seat, send};
use crate::player_id::PlayerId;
use rand::seq::IndexedRandom;

impl Simulated for TribalCouncil {
    const STRATEGY: &'static str = "bloc";
    const STRATEGY_ABOUT: &'static str = "votes with the largest bloc: every bloc bot names the first player (by id) who can receive votes and is not of the bloc";
    const GROUP: &'static str = "";
    const GROUPS: &'static [&'static str] = &[];
    const DEFAULT_PLAYERS: usize = 8;
    const POINTS: &'static str = "";
    const STAKES: bool = false;
    type Memory = ();
    type Heard = ();

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        _: &mut (),
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
        let bloc: Vec<&PlayerId> = ids
            .iter()
            .zip(bots)
            .filter(|(_, b)| **b == Strategy::Smart)
            .map(|(id, _)| id)
            .collect();
        let candidates = state.candidates();
        let voters = state.voters();
        for voter in &voters {
            let i = ids.iter().position(|p| p == voter).expect("a player");
            let others: Vec<&PlayerId> = candidates.iter().filter(|c| *c != voter).collect();
            let pool: Vec<&PlayerId> = if others.is_empty() {
                candidates.iter().collect()
            } else {
                others
            };
            let target = match bots[i] {
                Strategy::Random => pool.choose(rng).copied(),
                Strategy::Smart => pool
                    .iter()
                    .find(|c| !bloc.contains(c))
                    .or_else(|| pool.first())
                    .copied(),
            };
            if let Some(target) = target {
                let vote = Version::vote(Name::Id(target.clone()));
                send::<TribalCouncil>(state, Seat { id: voter, at: i }, vote, &mut record);
            }
        }
        voters.len() as u64
    }

    fn garnets(state: &State) -> Vec<i64> {
        vec![0; state.players.len()]
    }

    /// `won`: survived the council (elimination) or won the jury's vote; `elimination`: voted out.
    fn tally(_start: &[i64], state: &State, _: &()) -> Vec<End> {
        state
            .players
            .keys()
            .map(|id| {
                let decided = state.stage == Stage::Over && state.decided.as_ref() == Some(id);
                let jury = state.options.mode == Mode::Jury;
                End {
                    group: None,
                    won: if jury { decided } else { !decided },
                    elimination: decided && !jury,
                    tokens: 0,
                    points: 0,
                    garnets: 0,
                }
            })
            .collect()
    }
}
