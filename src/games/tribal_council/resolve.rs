//! Resolving one vote of a council (spec tribal-council.md, "Resolution" and "Jury mode"): idols
//! first, then the ballots, read in an order drawn from the seed that keeps the deciding vote
//! last; the most counted votes goes home (or wins a jury vote); a tie opens a revote or a
//! deadlock settled by rocks or countback.

use super::state::{Missing, Mode, Reveal, Stage, State};
use crate::games::{PrivatePart, Resolution, RoundResult, Seats};
use crate::player_id::PlayerId;
use crate::rng;
use rand::seq::{IndexedRandom, SliceRandom};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One vote as read out.
#[derive(Debug, Clone, Serialize)]
pub struct Ballot {
    /// The player voted for.
    pub player: PlayerId,
    /// False: cast against a player an idol protects.
    pub counted: bool,
    /// Who cast it (published only with `reveal = "ballots"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voter: Option<PlayerId>,
    /// An Extra Vote.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub extra: bool,
}

#[derive(Serialize)]
struct Rocks {
    drew: Vec<PlayerId>,
    /// Who drew the odd rock: out of the game, or (a jury) out of the running.
    out: PlayerId,
    /// A jury's later draws, while more than one finalist is left in the running (ruling 7).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    then_out: Vec<PlayerId>,
}

#[derive(Serialize)]
struct Public {
    round: u32,
    mode: Mode,
    stage: Stage,
    /// Who could receive votes in this vote.
    candidates: Vec<PlayerId>,
    idols_played: Vec<PlayerId>,
    reading: Vec<Ballot>,
    defaults: Vec<PlayerId>,
    /// The defaults whose missing vote was cast against themselves (`missing_vote = "self"`,
    /// ruling 3); the others' were simply not cast.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    self_votes: Vec<PlayerId>,
    tied: Vec<PlayerId>,
    /// How the council ended this round: "vote", "alone" (the only one who could receive
    /// votes), "countback", "rocks", "left" (withdrawn by the host).
    #[serde(skip_serializing_if = "Option::is_none")]
    how: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<PlayerId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rocks: Option<Rocks>,
    /// Countback: each deadlocked player's votes at the first vote plus `votes_before`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    countback: BTreeMap<PlayerId, u32>,
    next: Next,
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    fin: Option<Final>,
}

#[derive(Serialize)]
struct Next {
    stage: Stage,
    /// Who can receive votes, and who votes, in the next vote.
    candidates: Vec<PlayerId>,
    voters: Vec<PlayerId>,
}

#[derive(Serialize)]
struct Final {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    winners: Vec<PlayerId>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    eliminated: Vec<PlayerId>,
}

#[derive(Serialize)]
struct Private {
    #[serde(skip_serializing_if = "Option::is_none")]
    vote: Option<PlayerId>,
    /// Whether the vote (and extra votes) counted; absent when none was cast.
    #[serde(skip_serializing_if = "Option::is_none")]
    counted: Option<bool>,
    /// The vote was the missing-vote default.
    defaulted: bool,
    extra_votes: Vec<PlayerId>,
    idols: Vec<PlayerId>,
    idols_left: u32,
    extra_votes_left: u32,
    protected: bool,
    immune: bool,
    /// Whether this player votes in the next vote.
    votes_next: bool,
}

pub fn resolve(state: &State, seed: u64) -> Resolution<State> {
    let mut next = state.clone();
    let idols_played = play_idols(state, &mut next);
    let candidates = state.candidates();
    let (mut ballots, defaults, self_votes) = cast(state, &next, &candidates);
    let mut tally: BTreeMap<PlayerId, u32> = BTreeMap::new();
    for b in ballots.iter().filter(|b| b.counted) {
        *tally.entry(b.player.clone()).or_default() += 1;
    }
    if state.stage == Stage::First && state.options.mode == Mode::Elimination {
        next.first_votes = tally.clone();
    }
    let mut public = Public {
        round: state.round,
        mode: state.options.mode,
        stage: state.stage,
        candidates,
        idols_played,
        reading: Vec::new(),
        defaults,
        self_votes,
        tied: Vec::new(),
        how: None,
        out: None,
        winner: None,
        rocks: None,
        countback: BTreeMap::new(),
        next: Next {
            stage: Stage::Over,
            candidates: Vec::new(),
            voters: Vec::new(),
        },
        fin: None,
    };
    let decided = decide(state, &mut next, &mut public, &tally, seed);
    if decided.as_ref().is_some_and(|(_, how)| *how == "left") {
        // ruling 10: settled outside the vote, no vote is read
        ballots.clear();
        public.defaults.clear();
        public.self_votes.clear();
    }
    public.reading = reading(ballots, decided.as_ref().map(|(p, _)| p), seed, state);
    next.rounds_played += 1;
    for p in next.players.values_mut() {
        p.live = Default::default();
    }
    match decided {
        Some((who, how)) => {
            public.how = Some(how);
            next.stage = Stage::Over;
            next.decided = Some(who.clone());
            let listed = vec![who.clone()];
            public.fin = Some(match state.options.mode {
                Mode::Jury => {
                    public.winner = Some(who);
                    Final {
                        winners: listed,
                        eliminated: Vec::new(),
                    }
                }
                Mode::Elimination => {
                    public.out = Some(who);
                    Final {
                        winners: Vec::new(),
                        eliminated: listed,
                    }
                }
            });
        }
        None => {
            next.round = state.round + 1;
            if next.stage == Stage::Fresh {
                next.tied.clear();
            }
        }
    }
    public.next = Next {
        stage: next.stage,
        candidates: next.candidates(),
        voters: next.voters(),
    };
    let private = private_reports(state, &next, &public);
    Resolution {
        result: RoundResult::without_garnets(&public, private),
        state: next,
    }
}

/// Resolution 1: idols are played before any vote is read (and extra votes spent); returns the
/// players they protect (an idol on an immune player protects nothing more).
fn play_idols(state: &State, next: &mut State) -> Vec<PlayerId> {
    let mut played = BTreeSet::new();
    if !state.advantages() {
        return Vec::new();
    }
    for p in state.players.values() {
        for target in &p.live.idol {
            if !state.players[target].immune {
                played.insert(target.clone());
            }
        }
    }
    for (id, p) in next.players.iter_mut() {
        p.idols -= state.players[id].live.idol.len() as u32;
        p.extra_votes -= state.players[id].live.extra_vote.len() as u32;
        p.protected |= played.contains(id);
    }
    played.into_iter().collect()
}

/// Every voter's ballots (their vote, or `missing_vote`'s, and their extra votes), the voters
/// the missing vote applied to, and those of them whose missing vote was cast against
/// themselves.
fn cast(
    state: &State,
    next: &State,
    candidates: &[PlayerId],
) -> (Vec<Ballot>, Vec<PlayerId>, Vec<PlayerId>) {
    let mut ballots = Vec::new();
    let mut defaults = Vec::new();
    let mut self_votes = Vec::new();
    for voter in state.voters() {
        let live = &state.players[&voter].live;
        let vote = match (&live.vote, state.options.missing_vote, state.options.mode) {
            (Some(v), ..) => Some(v.clone()),
            // ruling 3: only a player who can receive votes votes against themselves
            (None, Missing::OwnName, Mode::Elimination) if candidates.contains(&voter) => {
                defaults.push(voter.clone());
                self_votes.push(voter.clone());
                Some(voter.clone())
            }
            (None, ..) => {
                defaults.push(voter.clone());
                None
            }
        };
        let cast = vote.into_iter().map(|v| (v, false));
        let extra = live.extra_vote.iter().cloned().map(|v| (v, true));
        for (player, extra) in cast.chain(extra.filter(|_| state.advantages())) {
            let target = &next.players[&player];
            ballots.push(Ballot {
                counted: !target.protected && !target.left,
                voter: Some(voter.clone()),
                player,
                extra,
            });
        }
    }
    (ballots, defaults, self_votes)
}

/// Who the vote decides (and how), or `None` when another vote follows (`next` says which).
fn decide(
    state: &State,
    next: &mut State,
    public: &mut Public,
    tally: &BTreeMap<PlayerId, u32>,
    seed: u64,
) -> Option<(PlayerId, &'static str)> {
    let top = tally.values().copied().max().unwrap_or(0);
    let leaders: Vec<PlayerId> = tally
        .iter()
        .filter(|(_, n)| **n == top)
        .map(|(id, _)| id.clone())
        .collect();
    let open: Vec<PlayerId> = public
        .candidates
        .iter()
        .filter(|p| !next.players[*p].protected)
        .cloned()
        .collect();
    let left = state.players.iter().find(|(_, p)| p.left).map(|(id, _)| id);
    match (state.options.mode, leaders.as_slice()) {
        // ruling 10: a player withdrawn from an elimination council goes home
        (Mode::Elimination, _) if left.is_some() => left.map(|id| (id.clone(), "left")),
        (_, [one]) => Some((one.clone(), "vote")),
        (Mode::Jury, _) => {
            // spec, jury mode: a tie (or no vote at all) is broken by rocks among the tied
            let tied = if leaders.is_empty() {
                public.candidates.clone()
            } else {
                leaders
            };
            public.tied = tied.clone();
            Some((jury_rocks(public, seed, state.round, tied), "rocks"))
        }
        (Mode::Elimination, []) if open.len() == 1 => Some((open[0].clone(), "alone")),
        (Mode::Elimination, []) if state.stage == Stage::First => {
            // ruling 5: no counted vote, a fresh first vote without idols
            next.stage = Stage::Fresh;
            None
        }
        (Mode::Elimination, tied) => {
            let tied = if tied.is_empty() { open } else { tied.to_vec() };
            public.tied = tied.clone();
            if state.stage != Stage::Revote && state.options.tie.revotes() {
                next.stage = Stage::Revote;
                next.tied = tied;
                None
            } else {
                Some(deadlock(state, next, public, seed, tied))
            }
        }
    }
}

/// A second tie (or a first one without a revote): countback, then rocks.
fn deadlock(
    state: &State,
    next: &State,
    public: &mut Public,
    seed: u64,
    tied: Vec<PlayerId>,
) -> (PlayerId, &'static str) {
    if state.options.tie.countback() {
        let score = |p: &PlayerId| {
            next.first_votes.get(p).copied().unwrap_or(0) + state.players[p].votes_before
        };
        public.countback = tied.iter().map(|p| (p.clone(), score(p))).collect();
        let most = tied.iter().map(score).max().unwrap_or(0);
        let still: Vec<PlayerId> = tied.iter().filter(|p| score(p) == most).cloned().collect();
        if let [one] = still.as_slice() {
            return (one.clone(), "countback");
        }
        // still tied: rocks among them
        return (rocks(public, seed, state.round, still), "rocks");
    }
    // rocks: everyone but the tied, the immune and the protected draws
    let drawers: Vec<PlayerId> = next
        .players
        .iter()
        .filter(|(id, p)| !tied.contains(id) && !p.immune && !p.protected && !p.left)
        .map(|(id, _)| id.clone())
        .collect();
    let drawers = if drawers.is_empty() { tied } else { drawers };
    (rocks(public, seed, state.round, drawers), "rocks")
}

/// The rock draw among `drew`, uniformly from the seed's `rocks` stream.
fn rocks(public: &mut Public, seed: u64, round: u32, drew: Vec<PlayerId>) -> PlayerId {
    let mut rng = rng::stream(seed, round, "tribal-council/rocks");
    let out = drew.choose(&mut rng).expect("someone draws").clone();
    public.rocks = Some(Rocks {
        drew,
        out: out.clone(),
        then_out: Vec::new(),
    });
    out
}

/// A tied jury's rock draws (ruling 7): the finalist who draws the odd rock is out of the
/// running, and the rest draw again, from the same stream, until one is left: the winner.
fn jury_rocks(public: &mut Public, seed: u64, round: u32, tied: Vec<PlayerId>) -> PlayerId {
    let mut rng = rng::stream(seed, round, "tribal-council/rocks");
    let mut left = tied.clone();
    let mut out = Vec::new();
    while left.len() > 1 {
        let odd = left.choose(&mut rng).expect("someone draws").clone();
        left.retain(|p| *p != odd);
        out.push(odd);
    }
    let winner = left.pop().expect("one finalist is left");
    let first = out.remove(0);
    public.rocks = Some(Rocks {
        drew: tied,
        out: first,
        then_out: out,
    });
    winner
}

/// The ballots in reading order: drawn from the seed, then the last counted vote for `decided`
/// moved to the end (the deciding vote is read last, as a host reads it); voters kept only when
/// revealed.
fn reading(
    ballots: Vec<Ballot>,
    decided: Option<&PlayerId>,
    seed: u64,
    state: &State,
) -> Vec<Ballot> {
    let mut order: Vec<usize> = (0..ballots.len()).collect();
    order.shuffle(&mut rng::stream(
        seed,
        state.round,
        "tribal-council/reading",
    ));
    if let Some(out) = decided
        && let Some(k) = order
            .iter()
            .rposition(|&i| ballots[i].counted && &ballots[i].player == out)
    {
        let deciding = order.remove(k);
        order.push(deciding);
    }
    let reveal = state.options.reveal == Reveal::Ballots;
    order
        .into_iter()
        .map(|i| {
            let mut b = ballots[i].clone();
            if !reveal {
                b.voter = None;
            }
            b
        })
        .collect()
}

fn private_reports(state: &State, next: &State, public: &Public) -> Seats<PrivatePart> {
    let (voters, voters_next) = (state.voters(), next.voters());
    state
        .players
        .iter()
        .map(|(id, p)| {
            let defaulted = public.defaults.contains(id);
            // what counted as this player's vote: theirs, or their own name by default
            let vote = match (&p.live.vote, voters.contains(id)) {
                (Some(v), true) => Some(v.clone()),
                (None, true) if defaulted => (state.options.missing_vote == Missing::OwnName
                    && state.options.mode == Mode::Elimination
                    && public.candidates.contains(id))
                .then(|| id.clone()),
                _ => None,
            };
            let private = Private {
                counted: vote
                    .as_ref()
                    .filter(|_| state.options.mode == Mode::Elimination)
                    .map(|v| !next.players[v].protected),
                vote,
                defaulted,
                extra_votes: p.live.extra_vote.clone(),
                idols: p.live.idol.clone(),
                idols_left: next.players[id].idols,
                extra_votes_left: next.players[id].extra_votes,
                protected: next.players[id].protected,
                immune: p.immune,
                votes_next: voters_next.contains(id),
            };
            (id.clone(), PrivatePart::typed(private))
        })
        .collect()
}
