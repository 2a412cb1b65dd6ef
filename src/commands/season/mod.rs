//! `adjudicate season …`: one cast across many matches (`crate::season`), a file per subcommand.

mod event;
mod r#match;
mod new;
pub mod report;
mod status;

use crate::error::Result;
use clap::Subcommand;

#[derive(clap::Args)]
#[command(
    after_help = "Example: adjudicate season new ~/games/s1 --players cast.toml
         adjudicate season match ~/games/s1 god-race
         adjudicate season event ~/games/s1 death-match --winner carol --loser bob --reason \"DM 1\"
         adjudicate season status ~/games/s1
Cron: adjudicate round --all -q ~/games   (season matches included)"
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

// As for the top-level commands (`super::Command`): descriptions on the variants, arguments
// built only for the one run.
#[derive(Subcommand)]
#[command(defer = true)]
enum Command {
    /// Create a season directory: season.toml with the cast, matches/, .gitignore.
    New(new::Args),
    /// Start the next match: matches/NN-<game>/ with the living cast, their garnets and Tokens
    /// of Life from the ledger, the season's mail settings and a seed drawn from the season's.
    Match(r#match::Args),
    /// Record what happened between matches: eliminate ID, death-match --winner --loser,
    /// tokens ID --change N, garnets ID --change N; each with --reason.
    Event(event::Args),
    /// The standings (garnets, Tokens, who is in), the matches and the events; recomputed from
    /// the archive each time.
    Status(status::Args),
    /// Write and mail the season's reports of every finished match that has none yet: a public
    /// one (Tokens, eliminations, the match's result) and a private one per player (garnets).
    /// `round --all` does this after ticking the season's matches.
    Report(report::Args),
}

pub fn run(args: Args) -> Result<u8> {
    match args.command {
        Command::New(args) => new::run(args),
        Command::Match(args) => r#match::run(args),
        Command::Event(args) => event::run(args),
        Command::Status(args) => status::run(args),
        Command::Report(args) => report::run(args),
    }
}
