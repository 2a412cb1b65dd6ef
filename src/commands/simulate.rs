//! `adjudicate simulate GAME`: whole games played by bots, in memory (`crate::simulate`).

use crate::error::{Result, exit};
use crate::simulate::plan::Request;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    long_about = "Plays N whole games with bots through the same rules the tick uses (no files, \
no templates), on every core, and prints who wins (by role, alignment, strategy and seat), how long \
games last, points, garnets, Elimination Candidates and Tokens, with 95% confidence intervals. The \
same command prints the same numbers (every game is seeded from --seed).",
    after_help = super::simulate_after_help("Examples:\n  adjudicate simulate god-race --games 100000\n  \
adjudicate simulate final-ritual --games 20000 --sweep options.selfish_hand=5..10 --out balance/\n  \
adjudicate simulate ~/games/match7 --games 5000 --bots random=3,leader\n\
Exit codes: 0 done, 2 usage error (a bad flag or option), 65 invalid game directory, 74 I/O error.")
)]
pub struct Args {
    #[arg(help = super::simulate_game_help())]
    game: String,
    /// Games per setting (1 to 10,000,000).
    #[arg(long, short = 'n', value_name = "N")]
    games: u64,
    /// Players per game (a game id's default: the rules' number; a game directory: its own).
    #[arg(long, value_name = "K")]
    players: Option<usize>,
    /// Garnets every player starts with (default 10 for a game id; a directory's balances).
    #[arg(long, value_name = "G")]
    garnets: Option<i64>,
    /// Change an option, as in game.toml's [options] (repeatable).
    #[arg(long, value_name = "options.KEY=VALUE")]
    set: Vec<String>,
    /// Play every whole-number value of one option, A to B; one table per value.
    #[arg(long, value_name = "options.KEY=A..B")]
    sweep: Option<String>,
    /// Which bots play: NAME for all, or NAME=COUNT,… (a name without count takes the rest).
    /// Default: every player plays the game's strategy.
    #[arg(long, value_name = "MIX")]
    bots: Option<String>,
    /// The seed every game's seed comes from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long, short = 'j', value_name = "J")]
    jobs: Option<usize>,
    /// Also write results.csv, lengths.csv, SVG charts and index.html into DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar and no timing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let request = Request {
        target: args.game,
        games: args.games,
        players: args.players,
        garnets: args.garnets,
        set: args.set,
        sweep: args.sweep,
        bots: args.bots,
        seed: args.seed,
        jobs: args.jobs,
        out: args.out,
        quiet: args.quiet,
    };
    crate::simulate::simulate(&request).map(|()| exit::OK)
}
