//! The Death Match pick (`death-match-pick`): after a match, its Elimination Candidates choose
//! their Death Match opponents among the players who may be picked (no Token of Life, not a
//! candidate; Room Swap's own list after a tiebreak). A season round of one submission: each
//! candidate sends `opponent` and, in case an earlier candidate takes that player, `fallback`
//! players in order. Candidates pick in the order of `options.candidates` (Planar Control: the
//! candidate whose alignment beats the winners' first). The Death Match itself is played outside
//! the tool; its result is a season event. Rulings: `games/death-match-pick/README.md`.

use crate::doc::Doc;
use crate::games::Seats;
use crate::games::ending::Ending;
use crate::games::picture::Names;
use crate::games::season::{FromSeason, SoFar, id_list};
use crate::games::{
    Archive, Detail, Game, GameId, Outcome, Resolution, RoundResult, Setup, SetupError,
};
use crate::player_id::PlayerId;
use crate::problem::Problem;
use rand::seq::IndexedRandom;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub struct DeathMatchPick;

/// Every top-level key a pick may hold.
pub const KEYS: &[&str] = &["opponent", "fallback", "token"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Pick,
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub phase: Phase,
    /// In pick order.
    pub candidates: Vec<PlayerId>,
    pub eligible: Vec<PlayerId>,
    pub players: Seats<PlayerState>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayerState {
    pub garnets: i64,
    /// A candidate's latest valid pick: the opponent, then the fallbacks in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choice: Vec<PlayerId>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    candidates: Vec<String>,
    eligible: Vec<String>,
}

#[derive(Serialize)]
struct Pick {
    candidate: PlayerId,
    #[serde(skip_serializing_if = "Option::is_none")]
    opponent: Option<PlayerId>,
    /// "picked" (their opponent), "fallback", "drawn" (at random: no valid pick, or every
    /// player they named was taken), or "none" (nobody was left).
    how: &'static str,
}

impl State {
    fn is_candidate(&self, id: &PlayerId) -> bool {
        self.candidates.contains(id)
    }
}

fn ids(setup: &Setup<'_>, key: &str, list: &[String]) -> Result<Vec<PlayerId>, SetupError> {
    let mut out = Vec::new();
    for (i, text) in list.iter().enumerate() {
        let id = PlayerId::parse(text)
            .filter(|id| setup.players.iter().any(|p| p.id == id))
            .ok_or_else(|| SetupError {
                key: format!("options.{key}[{i}]"),
                message: format!("`{text}` is not a player of this game"),
            })?;
        if out.contains(&id) {
            return Err(SetupError {
                key: format!("options.{key}[{i}]"),
                message: format!("`{id}` is listed twice"),
            });
        }
        out.push(id);
    }
    Ok(out)
}

impl Game for DeathMatchPick {
    const ID: GameId = GameId::DeathMatchPick;
    const NAME: &'static str = "death-match-pick";
    const NEW_TOML: &'static str = new_toml!("death-match-pick");
    const SAMPLE_PLAYERS: usize = 6;
    const TEMPLATES: &'static [(&'static str, &'static str)] =
        templates!("death-match-pick": "public.txt.tera", "private.txt.tera", "ack.txt.tera");
    const KEYS: &'static [&'static str] = KEYS;
    type State = State;

    fn setup(setup: &Setup<'_>) -> Result<State, SetupError> {
        let options: Options = crate::games::options(
            setup,
            "Death Match pick options: candidates (in pick order) and eligible, lists of player ids",
        )?;
        let candidates = ids(setup, "candidates", &options.candidates)?;
        let eligible = ids(setup, "eligible", &options.eligible)?;
        if candidates.is_empty() {
            return Err(SetupError {
                key: "options.candidates".into(),
                message: "at least one Elimination Candidate picks".into(),
            });
        }
        if let Some(both) = eligible.iter().find(|e| candidates.contains(e)) {
            return Err(SetupError {
                key: "options.eligible".into(),
                message: format!("`{both}` is a candidate and cannot be picked"),
            });
        }
        if eligible.is_empty() {
            return Err(SetupError {
                key: "options.eligible".into(),
                message:
                    "nobody may be picked: record the Death Match with `adjudicate season event`"
                        .into(),
            });
        }
        crate::games::no_game_keys(setup, "a player of the pick")?;
        Ok(State {
            round: 1,
            phase: Phase::Pick,
            candidates,
            eligible,
            players: setup
                .players
                .iter()
                .map(|p| {
                    (
                        p.id.clone(),
                        PlayerState {
                            garnets: p.garnets,
                            choice: Vec::new(),
                        },
                    )
                })
                .collect(),
        })
    }

    fn check_state(state: &State) -> Result<(), SetupError> {
        use crate::games::{check_balances, check_refs};
        check_balances(&state.players, |p| p.garnets)?;
        check_refs(&state.players, "candidates", &state.candidates)?;
        check_refs(&state.players, "eligible", &state.eligible)?;
        for (id, p) in &state.players {
            check_refs(&state.players, &format!("players.{id}.choice"), &p.choice)?;
            if let Some(bad) = p.choice.iter().find(|c| !state.eligible.contains(c)) {
                return Err(SetupError {
                    key: format!("players.{id}.choice"),
                    message: format!("`{bad}` is not in eligible"),
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
        u32::from(state.phase == Phase::Over)
    }

    fn is_over(state: &State) -> bool {
        state.phase == Phase::Over
    }

    fn expected(state: &State) -> Vec<PlayerId> {
        match state.phase {
            Phase::Pick => state.candidates.clone(),
            Phase::Over => Vec::new(),
        }
    }

    fn has_valid(state: &State, player: &PlayerId) -> bool {
        state
            .players
            .get(player)
            .is_some_and(|p| !p.choice.is_empty())
    }

    fn if_not_fixed(state: &State, player: &PlayerId) -> String {
        if state.is_candidate(player) {
            format!(
                "an opponent will be drawn at random among {}",
                PlayerId::join(&state.eligible)
            )
        } else {
            "nothing: only the Elimination Candidates pick".into()
        }
    }

    fn receive_with(state: &mut State, player: &PlayerId, doc: &Doc, detail: Detail) -> Outcome {
        let mut out = Outcome::new(detail);
        if state.phase == Phase::Over {
            out.problems.push(Problem::general(
                "the picks are made; no more submissions are read",
            ));
            return out;
        }
        if !state.is_candidate(player) {
            out.problems.push(Problem::general(format!(
                "only the Elimination Candidates ({}) pick; you have nothing to send",
                PlayerId::join(&state.candidates)
            )));
            return out;
        }
        out.problems.extend(doc.root().unknown_keys(KEYS, "a pick"));
        let allowed = PlayerId::join(&state.eligible);
        let read = |text: &str| PlayerId::named(text).filter(|id| state.eligible.contains(id));
        let opponent = match doc.get("opponent") {
            None => {
                out.problems.push(Problem::general(format!(
                    "opponent is missing: name one of {allowed}"
                )));
                None
            }
            Some(node) => match node.as_str("opponent") {
                Err(p) => {
                    out.problems.push(p);
                    None
                }
                Ok(text) => {
                    let id = read(text);
                    if id.is_none() {
                        out.problems.push(Problem::at(
                            node.pos,
                            format!("opponent: \"{text}\" cannot be picked; one of {allowed}"),
                        ));
                    }
                    id
                }
            },
        };
        let mut fallback: Vec<PlayerId> = Vec::new();
        if let Some(node) = doc.get("fallback") {
            match node.as_array("fallback") {
                Err(p) => out.problems.push(p),
                Ok(items) => {
                    for item in items {
                        match item.as_str("fallback").map(|t| (t, read(t))) {
                            Err(p) => out.problems.push(p),
                            Ok((text, None)) => out.problems.push(Problem::at(
                                item.pos,
                                format!("fallback: \"{text}\" cannot be picked; one of {allowed}"),
                            )),
                            Ok((_, Some(id)))
                                if Some(&id) == opponent.as_ref() || fallback.contains(&id) =>
                            {
                                out.problems.push(Problem::at(
                                    item.pos,
                                    format!("fallback: {id} is named twice"),
                                ));
                            }
                            Ok((_, Some(id))) => fallback.push(id),
                        }
                    }
                }
            }
        }
        if let Some(opponent) = opponent {
            out.valid = true;
            out.understand(|| format!("opponent: {opponent}"));
            if !fallback.is_empty() {
                out.understand(|| format!("fallback: {}", PlayerId::join(&fallback)));
            }
            let mut choice = vec![opponent];
            choice.extend(fallback);
            state
                .players
                .get_mut(player)
                .expect("a candidate is a player")
                .choice = choice;
        } else {
            out.if_not_fixed_in(|| Self::if_not_fixed(state, player));
        }
        out
    }

    fn opening(state: &State) -> Option<RoundResult> {
        #[derive(Serialize)]
        struct Opening<'a> {
            round: u32,
            candidates: &'a [PlayerId],
            eligible: &'a [PlayerId],
        }
        let private = state
            .players
            .keys()
            .map(|id| {
                let role = if state.is_candidate(id) {
                    "candidate"
                } else if state.eligible.contains(id) {
                    "eligible"
                } else {
                    "safe"
                };
                let mut t = toml::Table::new();
                t.insert("role".into(), role.into());
                (id.clone(), crate::games::PrivatePart::typed(t))
            })
            .collect();
        Some(RoundResult::without_garnets(
            &Opening {
                round: 0,
                candidates: &state.candidates,
                eligible: &state.eligible,
            },
            private,
        ))
    }

    const SEAT_LEAVES: &'static str = "\
        a Death Match pick is not left: the season records the departure, and the pick's \
        defaults apply";

    /// Ruling (README, "A seat that leaves"): the pick is one round; a person who leaves the
    /// season during it is recorded as a season event, and the pick runs with its defaults.
    fn withdraw(_: &mut State, _: &PlayerId) -> Result<(), String> {
        Err("a Death Match pick is not left: record the departure with `adjudicate season event` (the pick's defaults apply)".into())
    }

    fn resolve(state: &State, seed: u64) -> Resolution<State> {
        let mut taken: BTreeSet<PlayerId> = BTreeSet::new();
        let mut picks = Vec::new();
        let mut defaults = Vec::new();
        for candidate in &state.candidates {
            let choice = &state.players[candidate].choice;
            let named = choice.iter().position(|o| !taken.contains(o));
            let (opponent, how) = match named {
                Some(0) => (Some(choice[0].clone()), "picked"),
                Some(i) => (Some(choice[i].clone()), "fallback"),
                None => {
                    if choice.is_empty() {
                        defaults.push(candidate.clone());
                    }
                    let left: Vec<&PlayerId> = state
                        .eligible
                        .iter()
                        .filter(|e| !taken.contains(*e))
                        .collect();
                    let mut rng = crate::rng::stream(
                        seed,
                        state.round,
                        &format!("death-match-pick/{candidate}"),
                    );
                    match left.choose(&mut rng) {
                        Some(o) => (Some((*o).clone()), "drawn"),
                        None => (None, "none"),
                    }
                }
            };
            if let Some(o) = &opponent {
                taken.insert(o.clone());
            }
            picks.push(Pick {
                candidate: candidate.clone(),
                opponent,
                how,
            });
        }
        #[derive(Serialize)]
        struct Public<'a> {
            round: u32,
            picks: &'a [Pick],
            defaults: &'a [PlayerId],
            r#final: Final<'a>,
        }
        #[derive(Serialize)]
        struct Final<'a> {
            picks: &'a [Pick],
        }
        let private = state
            .players
            .keys()
            .map(|id| {
                let mut t = toml::Table::new();
                if let Some(p) = picks.iter().find(|p| &p.candidate == id) {
                    t.insert("role".into(), "candidate".into());
                    if let Some(o) = &p.opponent {
                        t.insert("opponent".into(), o.to_string().into());
                    }
                    t.insert("how".into(), p.how.into());
                } else if let Some(p) = picks.iter().find(|p| p.opponent.as_ref() == Some(id)) {
                    t.insert("role".into(), "picked".into());
                    t.insert("by".into(), p.candidate.to_string().into());
                } else {
                    t.insert("role".into(), "safe".into());
                }
                (id.clone(), crate::games::PrivatePart::typed(t))
            })
            .collect();
        let result = RoundResult::without_garnets(
            &Public {
                round: state.round,
                picks: &picks,
                defaults: &defaults,
                r#final: Final { picks: &picks },
            },
            private,
        );
        let mut next = state.clone();
        next.phase = Phase::Over;
        for p in next.players.values_mut() {
            p.choice.clear();
        }
        Resolution {
            state: next,
            result,
        }
    }
}

impl Archive for DeathMatchPick {
    /// The pick's own result is an event of the season (the Death Match is fought outside the
    /// tool): its announcements give the season nothing.
    fn ending(_publics: &[&toml::Table]) -> Ending {
        Ending::default()
    }

    /// A season round has no picture: its announcement says it all.
    fn picture(
        _public: &toml::Table,
        _opening: Option<&toml::Table>,
        _names: &Names,
        _id: &str,
        _title: &str,
    ) -> Option<String> {
        None
    }

    /// The candidates and who they may pick come from the last finished match, unless the host gave
    /// them: its Elimination Candidates still in the season, in order (Planar Control's
    /// `first_pick` first), and the match's own list of who may be picked where it gives one (Room
    /// Swap), else every living player without a Token of Life who is not a candidate.
    fn season_match(so_far: &SoFar<'_>, options: &toml::Table) -> Result<FromSeason, String> {
        let mut out = FromSeason {
            title: Some("Death Match pick"),
            ..FromSeason::default()
        };
        if options.contains_key("candidates") {
            return Ok(out);
        }
        let last = so_far
            .matches
            .iter()
            .rev()
            .find(|m| m.over && !m.game.is_season_round())
            .ok_or("no finished match to pick after")?;
        let living: Vec<&PlayerId> = so_far.living.iter().map(|(id, _)| *id).collect();
        let mut candidates: Vec<PlayerId> = last
            .ending
            .elimination
            .iter()
            .filter(|c| living.contains(c))
            .cloned()
            .collect();
        if let Some(first) = &last.ending.first_pick
            && let Some(i) = candidates.iter().position(|c| c == first)
        {
            let first = candidates.remove(i);
            candidates.insert(0, first);
        }
        if candidates.is_empty() {
            return Err(format!(
                "{} has no Elimination Candidate still in the season: nothing to pick",
                last.folder
            ));
        }
        let eligible: Vec<PlayerId> = match &last.ending.eligible {
            Some(list) => list
                .iter()
                .filter(|p| living.contains(p) && !candidates.contains(p))
                .cloned()
                .collect(),
            None => so_far
                .living
                .iter()
                .filter(|(id, tokens)| *tokens == 0 && !candidates.contains(id))
                .map(|(id, _)| (*id).clone())
                .collect(),
        };
        if eligible.is_empty() {
            return Err(format!(
                "after {} nobody may be picked ({} face the Death Match as they are): record its result with `adjudicate season event SEASON death-match`",
                last.folder,
                PlayerId::join(&candidates)
            ));
        }
        out.options
            .insert("candidates".into(), id_list(&candidates));
        out.options.insert("eligible".into(), id_list(&eligible));
        Ok(out)
    }
}
