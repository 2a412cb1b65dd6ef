//! `adjudicate simulate`: whole games played by bots, in memory, through the same engines the
//! tick uses (no files, no templates), to measure a game's balance before players find out.
//!
//! Invariants:
//! - Every number printed is a function of the command line alone: game `i` of every setting is
//!   seeded from `--seed` and `i` (so the settings of a sweep are compared on the same deals),
//!   and the statistics are integer sums, merged in any order (`stats`).
//! - Memory is flat in the number of games: each game is folded into its thread's sums and
//!   dropped.
//! - A bot sees only what its player would see (`Simulated::play` hands each bot its own view),
//!   and submits through the rules' own validation (a file's, or a typed version's past the
//!   reading: `games::version`) or, on a fast path, a choice the rules' own validation accepts
//!   (tested by replaying simulated games through the tick).

pub mod charts;
pub mod plan;
pub mod run;
pub mod stats;
pub mod table;

pub use crate::games::bots::{BotRng, End, Simulated, Strategy, Submissions};
use crate::games::{Setup, SetupError};
use plan::Setting;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use stats::Tally;

/// A game cut off after this many resolutions counts as unfinished (a Room Swap that ties for
/// ever, a God Race whose ceremonies keep tying).
pub const MAX_ROUNDS: u32 = 500;

/// `adjudicate simulate`: checks the request, plays its games, prints the tables on stdout (and
/// the time taken on stderr), and writes `--out`.
pub fn simulate(request: &plan::Request) -> crate::error::Result<()> {
    let base = plan::Base::find(&request.target)?;
    let game = base.game;
    crate::games::dispatch_match(game, SimulateGame { request, base }).unwrap_or_else(|| {
        Err(crate::error::Error::Usage(format!(
            "{} is a season round, not a match: there is nothing to balance",
            game.name()
        )))
    })
}

struct SimulateGame<'a> {
    request: &'a plan::Request,
    base: plan::Base,
}

impl crate::games::WithMatch for SimulateGame<'_> {
    type Output = crate::error::Result<()>;
    fn run<G: Simulated>(self) -> Self::Output {
        simulate_game::<G>(self.request, self.base)
    }
}

fn simulate_game<G: Simulated>(
    request: &plan::Request,
    base: plan::Base,
) -> crate::error::Result<()> {
    let plan = plan::Simulation::new::<G>(request, base)?;
    let started = std::time::Instant::now();
    let all = run::run::<G>(&plan, request.quiet)?;
    let seconds = started.elapsed().as_secs_f64();
    print!("{}", table::report::<G>(&plan, &all));
    if let Some(out) = &request.out {
        charts::write::<G>(out, &plan, &all)?;
    }
    if !request.quiet {
        let games = plan.games * plan.settings.len() as u64;
        eprintln!(
            "simulate: {games} game(s) in {seconds:.2} s ({:.0} games/s on {} thread(s)){}",
            games as f64 / seconds.max(1e-9),
            plan.jobs,
            request
                .out
                .as_ref()
                .map(|o| format!("; wrote {}", o.join("index.html").display()))
                .unwrap_or_default()
        );
    }
    Ok(())
}

/// Picks one list of groups out of a setting's statistics.
pub type Pick = fn(&stats::Stats) -> &[stats::Group];

/// What the headline figures (a sweep's table, the win chart) compare: the game's own groups
/// (role, alignment), or the strategies for a game without any; only those that played in some
/// setting, each with its index in the picked list.
pub fn headline<G: Simulated>(all: &[stats::Stats]) -> (Vec<(usize, String)>, Pick) {
    let (names, pick): (Vec<String>, Pick) = if G::GROUPS.is_empty() {
        (
            Strategy::ALL
                .iter()
                .map(|s| s.name::<G>().to_owned())
                .collect(),
            |s| &s.by_strategy,
        )
    } else {
        (G::GROUPS.iter().map(|s| s.to_string()).collect(), |s| {
            &s.by_group
        })
    };
    let present = names
        .into_iter()
        .enumerate()
        .filter(|(k, _)| all.iter().any(|st| pick(st)[*k].players > 0))
        .collect();
    (present, pick)
}

/// A whole simulated game as it reached the host: per resolution, the game's round number and
/// the versions sent for it.
pub type Transcript = Vec<(u32, Submissions)>;

/// The seed of game `index`: the same for every setting of a run, so that a sweep compares its
/// settings on the same deals and draws. Below 2^63, as every seed game.toml may hold.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix(splitmix(seed) ^ index) >> 1
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One whole game of a setting: its tally and the strategy of each player (id order).
pub fn play_game<G: Simulated>(
    setting: &Setting,
    index: u64,
) -> Result<(Tally, Vec<Strategy>), SetupError> {
    let (_, tally, bots) = play::<G>(setting, index, None)?;
    Ok((tally, bots))
}

/// One whole game with everything sent in it, and its final state: to replay the game through
/// the tick and compare.
pub fn play_recorded<G: Simulated>(
    setting: &Setting,
    index: u64,
) -> Result<(G::State, Transcript, Tally), SetupError> {
    let mut transcript = Transcript::new();
    let (state, tally, _) = play::<G>(setting, index, Some(&mut transcript))?;
    Ok((state, transcript, tally))
}

/// A game of `setting` set up from `seed` (`game_seed`), and what its bots learn from the
/// opening.
pub fn start<G: Simulated>(
    setting: &Setting,
    seed: u64,
) -> Result<(G::State, G::Memory), SetupError> {
    let state = G::setup(&Setup {
        players: crate::config::seats(&setting.players),
        options: &setting.options,
        seed,
    })?;
    let mut memory = G::Memory::default();
    if let Some(opening) = G::opening_heard(&state) {
        G::learn(&mut memory, &opening);
    }
    Ok((state, memory))
}

fn play<G: Simulated>(
    setting: &Setting,
    index: u64,
    mut transcript: Option<&mut Transcript>,
) -> Result<(G::State, Tally, Vec<Strategy>), SetupError> {
    let seed = game_seed(setting.seed, index);
    let mut rng = BotRng::seed_from_u64(seed ^ 0xB075);
    // Strategies change seats every game, so a strategy's results are not a seat's.
    let mut bots = setting.bots.clone();
    bots.shuffle(&mut rng);
    let (mut state, mut memory) = start::<G>(setting, seed)?;
    let start = G::garnets(&state);
    let (mut rounds, mut submissions, mut defaults) = (0, 0, 0);
    while !G::is_over(&state) && rounds < MAX_ROUNDS {
        let number = G::round(&state);
        let mut round = transcript.as_ref().map(|_| Submissions::new());
        submissions += G::play(&mut state, &bots, &mut rng, &mut memory, round.as_mut());
        defaults += G::advance(&mut state, seed, &mut memory);
        rounds += 1;
        if let (Some(t), Some(r)) = (transcript.as_deref_mut(), round) {
            t.push((number, r));
        }
    }
    let tally = Tally {
        rounds,
        finished: G::is_over(&state),
        submissions,
        defaults,
        players: G::tally(&start, &state, &memory),
    };
    Ok((state, tally, bots))
}

/// What each round of game `index` of `setting` allocates (its bots' versions and its
/// resolution), counted on this thread by the test build's allocator, as `play` plays it.
#[cfg(test)]
pub(crate) fn allocations_by_round<G: Simulated>(setting: &Setting, index: u64) -> Vec<u64> {
    use crate::allocator::counting::allocations;
    let seed = game_seed(setting.seed, index);
    let mut rng = BotRng::seed_from_u64(seed ^ 0xB075);
    let mut bots = setting.bots.clone();
    bots.shuffle(&mut rng);
    let (mut state, mut memory) = start::<G>(setting, seed).expect("the setting sets up");
    let mut counts = Vec::with_capacity(MAX_ROUNDS as usize);
    while !G::is_over(&state) && counts.len() < MAX_ROUNDS as usize {
        let before = allocations();
        G::play(&mut state, &bots, &mut rng, &mut memory, None);
        G::advance(&mut state, seed, &mut memory);
        counts.push(allocations() - before);
    }
    counts
}

/// Issue #30's "the simulator allocates nothing per round in steady state", for a game's test:
/// counts each round of `games` games of `setting` (`allocations_by_round`), asserts that the
/// rounds `steady` names, given how many a game played, made none, and returns how many rounds
/// that checked.
#[cfg(test)]
pub(crate) fn assert_steady_rounds_allocate_nothing<G: Simulated>(
    setting: &Setting,
    games: u64,
    steady: impl Fn(usize) -> std::ops::Range<usize>,
) -> usize {
    let mut rounds = 0;
    for game in 0..games {
        let counts = allocations_by_round::<G>(setting, game);
        let checked = &counts[steady(counts.len())];
        assert!(checked.iter().all(|n| *n == 0), "game {game}: {counts:?}");
        rounds += checked.len();
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No game's ending makes a player both a winner and an Elimination Candidate, whatever the
    /// setting (God Race's round cap makes degenerate endings common: issue "hardening").
    fn endings_are_never_both<G: Simulated>(set: &[&str], games: u64) {
        for bots in ["random", G::STRATEGY] {
            let setting = plan::test_setting_with::<G>(bots, 41, set);
            for index in 0..games {
                let (tally, _) = play_game::<G>(&setting, index).expect("the defaults set up");
                for (seat, end) in tally.players.iter().enumerate() {
                    assert!(
                        !(end.won && end.elimination),
                        "{} {set:?} game {index}, seat {seat}: winner and Elimination Candidate",
                        G::ID.name()
                    );
                }
            }
        }
    }

    struct NeverBoth;

    impl crate::games::WithMatch for NeverBoth {
        type Output = ();
        fn run<G: Simulated>(self) {
            endings_are_never_both::<G>(&[], 100);
        }
    }

    #[test]
    fn no_ending_makes_a_player_both_winner_and_elimination_candidate() {
        for &game in crate::games::GameId::ALL {
            crate::games::dispatch_match(game, NeverBoth);
        }
        // God Race's round cap makes degenerate endings common
        use crate::games::god_race::GodRace;
        endings_are_never_both::<GodRace>(&["options.max_rounds=1"], 200);
        endings_are_never_both::<GodRace>(&["options.max_rounds=3"], 200);
    }

    #[test]
    fn game_seeds_differ_by_index_and_base_seed() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
