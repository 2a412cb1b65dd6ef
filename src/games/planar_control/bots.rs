//! Planar Control bots for `simulate`: a uniformly random legal player (a random plane-mate
//! voted with a random number of garnets, or two random players divined) and `hunter`, who
//! fights for a plane its alignment does not control (all its votes, up to two garnets, on a
//! plane-mate) and saves garnets where it does, and divines players it has not divined yet,
//! preferring those on the plane it is about to join. Bots submit through `receive`. A bot
//! knows its own alignment, plane and garnets, where everyone is and who controls each plane
//! (the announcements), and whom it has divined (its own reports).

use super::PlanarControl;
use super::state::{Alignment, Phase, State};
use crate::doc::Choice;
use crate::games::{GameId, RoundResult};
use crate::player_id::PlayerId;
use crate::simulate::stats::End;
use crate::simulate::{BotRng, Simulated, Strategy, Submissions, submit};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use std::collections::{BTreeMap, BTreeSet};

/// What Planar Control bots remember: the last announced control of each plane, whom each
/// player has divined, and (for the tally) the Elimination Candidates announced at the end.
#[derive(Debug, Default)]
pub struct Memory {
    control: BTreeMap<String, String>,
    divined: BTreeMap<PlayerId, BTreeSet<PlayerId>>,
    elimination: Vec<PlayerId>,
}

fn quoted(ids: &[&PlayerId]) -> String {
    let names: Vec<String> = ids.iter().map(|p| format!("\"{p}\"")).collect();
    names.join(", ")
}

impl Simulated for PlanarControl {
    const STRATEGY: &'static str = "hunter";
    const STRATEGY_ABOUT: &'static str = "on a plane its alignment does not control, votes a plane-mate with up to two garnets (none where it controls); divines players it has not divined, those on its next plane first";
    const GROUP: &'static str = "alignment";
    const GROUPS: &'static [&'static str] = &["ember", "nature", "torrent"];
    const DEFAULT_PLAYERS: usize = 15;
    const POINTS: &'static str = "";
    type Memory = Memory;
    const LEARNS: bool = true;

    fn play(
        state: &mut State,
        bots: &[Strategy],
        rng: &mut BotRng,
        memory: &mut Memory,
        mut record: Option<&mut Submissions>,
    ) -> u64 {
        let ids: Vec<PlayerId> = state.players.keys().cloned().collect();
        let expected = <PlanarControl as crate::games::Game>::expected(state);
        for (i, id) in ids.iter().enumerate() {
            if !expected.contains(id) {
                continue;
            }
            let me = &state.players[id];
            let text = if state.phase == Phase::Elimination {
                // The alignments are public now: one member of each losing alignment.
                let mut lines = vec!["[eliminate]".to_owned()];
                for loser in state.losing_alignments() {
                    let members: Vec<&PlayerId> = state
                        .players
                        .iter()
                        .filter(|(_, p)| p.alignment == loser)
                        .map(|(id, _)| id)
                        .collect();
                    if let Some(pick) = members.choose(rng) {
                        lines.push(format!("{} = \"{pick}\"", loser.name()));
                    }
                }
                lines.join("\n") + "\n"
            } else if me.plane.is_large() {
                let mates: Vec<&PlayerId> = state
                    .players
                    .iter()
                    .filter(|(other, p)| *other != id && p.plane == me.plane)
                    .map(|(other, _)| other)
                    .collect();
                match mates.choose(rng) {
                    None => "vote = \"abstain\"\n".to_owned(),
                    Some(target) => {
                        let spend = match bots[i] {
                            Strategy::Random => rng.random_range(0..=me.garnets.clamp(0, 3)),
                            Strategy::Smart => {
                                let ours = memory.control.get(me.plane.name())
                                    == Some(&me.alignment.name().to_owned());
                                if ours { 0 } else { me.garnets.clamp(0, 2) }
                            }
                        };
                        format!("vote = \"{target}\"\ngarnets = {spend}\n")
                    }
                }
            } else {
                let mut others: Vec<&PlayerId> = ids.iter().filter(|p| *p != id).collect();
                others.shuffle(rng);
                if bots[i] == Strategy::Smart {
                    let seen = memory.divined.get(id);
                    let next = me.plane.drifts_to();
                    // Not yet divined first, then those on the next plane.
                    others.sort_by_key(|p| {
                        (
                            seen.is_some_and(|s| s.contains(*p)),
                            state.players[*p].plane != next,
                        )
                    });
                }
                let pair = &others[..2.min(others.len())];
                if pair.len() < 2 {
                    continue;
                }
                memory
                    .divined
                    .entry(id.clone())
                    .or_default()
                    .extend(pair.iter().map(|p| (*p).clone()));
                format!("divine = [{}]\n", quoted(pair))
            };
            submit::<PlanarControl>(state, id, text, &mut record);
        }
        expected.len() as u64
    }

    fn learn(memory: &mut Memory, result: &RoundResult) {
        if let Some(control) = result.public.get("control").and_then(|c| c.as_table()) {
            memory.control = control
                .iter()
                .filter_map(|(plane, a)| Some((plane.clone(), a.as_str()?.to_owned())))
                .collect();
        }
        let outcome = crate::outcome::read(GameId::PlanarControl, &[&result.public]);
        if !outcome.elimination.is_empty() {
            memory.elimination = outcome.elimination;
        }
    }

    fn garnets(state: &State) -> Vec<i64> {
        state.players.values().map(|p| p.garnets).collect()
    }

    fn tally(start: &[i64], state: &State, memory: &Memory) -> Vec<End> {
        state
            .players
            .iter()
            .enumerate()
            .map(|(i, (id, p))| End {
                group: Alignment::ALL.iter().position(|a| *a == p.alignment),
                won: state.winner == Some(p.alignment),
                elimination: memory.elimination.contains(id),
                tokens: u32::from(p.token),
                points: 0,
                garnets: p.garnets - start[i],
            })
            .collect()
    }
}
