//! `adjudicate season …`: one cast across many matches (`crate::season`), a file per subcommand.

mod event;
mod r#match;
mod new;
pub mod report;
mod status;

use crate::error::Result;
use clap::Subcommand;

/// Seasons: one cast across many matches; garnets, Tokens of Life and eliminations kept by
/// the tool (season.toml, events.toml, matches/NN-<game>/).
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

#[derive(Subcommand)]
enum Command {
    New(new::Args),
    Match(r#match::Args),
    Event(event::Args),
    Status(status::Args),
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
