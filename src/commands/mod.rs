//! The command line: one file per subcommand, each with its clap arguments (`Args`) and its `run`,
//! which calls the library below and prints the command's own summary. The only module that
//! knows clap; nothing below it prints to the terminal. `run` gives the exit code (`crate::error::exit`).

mod announce;
mod check;
mod enter;
mod extend;
mod ingest;
mod lever;
mod new;
mod pause;
mod remind;
mod render;
mod replay;
mod resume;
mod round;
mod season;
mod send;
mod simulate;
mod site;
mod status;
mod substitute;
mod undo;
mod withdraw;

use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::games::{GameId, WithMatch, bots::Simulated, dispatch_match};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "adjudicate",
    version,
    about = "Runs online reality games: validates submissions, resolves rounds, renders reports",
    long_about = "Runs online reality games for a host. Players' TOML submissions are read from a game \
directory; each `round` tick receives new versions, answers instant actions, resolves the round when \
it is due, renders a public announcement and private reports, and queues them as mail.",
    after_help = "Exit codes: 0 done (also \"nothing due\"), 1 replay found a difference, 2 usage error, \
65 invalid game directory or file, 74 I/O error, 75 temporary (lock held, mail not sent).\n\
Cron: */5 * * * * adjudicate round -q /srv/games/match7"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    New(new::Args),
    Check(check::Args),
    Status(status::Args),
    Round(round::Args),
    Render(render::Args),
    Replay(replay::Args),
    Send(send::Args),
    Site(site::Args),
    Season(season::Args),
    Simulate(simulate::Args),
    Ingest(ingest::Args),
    Extend(extend::Args),
    Pause(pause::Args),
    Resume(resume::Args),
    Announce(announce::Args),
    Remind(remind::Args),
    Enter(enter::Args),
    Undo(undo::Args),
    Withdraw(withdraw::Args),
    Substitute(substitute::Args),
}

/// Parses the process arguments and runs the command. On `--help`, `--version` or a usage
/// error, clap prints and exits.
pub fn main() -> ExitCode {
    let matches = with_game_names(Cli::command()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let done = match cli.command {
        Command::New(args) => new::run(args),
        Command::Check(args) => check::run(args),
        Command::Status(args) => status::run(args),
        Command::Round(args) => round::run(args),
        Command::Render(args) => render::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Send(args) => send::run(args),
        Command::Site(args) => site::run(args),
        Command::Season(args) => season::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Ingest(args) => ingest::run(args),
        Command::Extend(args) => extend::run(args),
        Command::Pause(args) => pause::run(args),
        Command::Resume(args) => resume::run(args),
        Command::Announce(args) => announce::run(args),
        Command::Remind(args) => remind::run(args),
        Command::Enter(args) => enter::run(args),
        Command::Undo(args) => undo::run(args),
        Command::Withdraw(args) => withdraw::run(args),
        Command::Substitute(args) => substitute::run(args),
    };
    ExitCode::from(done.unwrap_or_else(|e| report_error(&e)))
}

/// The help texts that list the games, from the registry.
fn with_game_names(cli: clap::Command) -> clap::Command {
    let all = GameId::all_names().join(", ");
    let (matches, rounds): (Vec<GameId>, Vec<GameId>) =
        GameId::ALL.iter().partition(|g| !g.is_season_round());
    let names = |games: &[GameId]| {
        games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (matches, rounds) = (names(&matches), names(&rounds));
    let strategies: Vec<String> = GameId::ALL
        .iter()
        .filter_map(|&g| dispatch_match(g, StrategyName).map(|s| format!("{} {s}", g.name())))
        .collect();
    let help_of = |help: String| {
        move |a: clap::Arg| {
            if a.get_id() == "game" {
                a.help(help.clone())
            } else {
                a
            }
        }
    };
    cli.mut_subcommand("new", |c| {
        c.mut_args(help_of(format!(
            "The game: {matches}; or a season round ({rounds}), which `season match` makes for you"
        )))
    })
    .mut_subcommand("season", |c| {
        c.mut_subcommand("match", |c| {
            c.mut_args(help_of(format!("The game: {all}")))
        })
    })
    .mut_subcommand("simulate", |c| {
        let help = c
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        c.mut_args(help_of(format!(
            "A game id ({matches}) or a game directory whose game.toml gives the options and players"
        )))
        .after_help(format!(
            "Bots: `random` (a uniformly random legal player) and each game's strategy: {}.\n{help}",
            strategies.join(", ")
        ))
    })
}

/// A match's strategy name, for the help.
struct StrategyName;

impl WithMatch for StrategyName {
    type Output = &'static str;
    fn run<G: Simulated>(self) -> &'static str {
        G::STRATEGY
    }
}

/// Prints an error on stderr, a line each (every message names its file), and gives its code.
fn report_error(e: &Error) -> u8 {
    for line in e.to_string().lines() {
        eprintln!("adjudicate: {line}");
    }
    e.exit_code()
}

/// Tells the host (on stderr) about messages that were refused or could not be sent, and gives the
/// exit code: 75 when messages wait for a server that is unavailable.
fn mail_problems(report: &crate::mail::SendReport) -> u8 {
    for (name, why) in &report.refused {
        eprintln!("adjudicate: mail {name} refused for good, moved to failed/: {why}");
    }
    match &report.deferred {
        Some(why) => {
            eprintln!(
                "adjudicate: {} message(s) wait in outbox/: {why}",
                report.waiting
            );
            crate::error::exit::TEMPORARY
        }
        None => crate::error::exit::OK,
    }
}

/// The game in `game_dir` for a host's lever: its lock (held by another run: exit 75, nothing
/// done) and its context, with a substitution a killed run left half done finished first.
fn lever_game(game_dir: std::path::PathBuf) -> Result<(crate::game_dir::Lock, GameContext)> {
    let dir = crate::game_dir::GameDir::open(game_dir)?;
    let lock = dir.lock()?;
    let ctx = crate::tick::substitute::finish(GameContext::load(dir)?)?;
    Ok((lock, ctx))
}

/// `--now TIME` (RFC 3339).
fn parse_now(text: &str) -> std::result::Result<jiff::Timestamp, String> {
    crate::clock::parse_instant(text)
}

/// A player id given on the command line.
fn player_arg(text: &str) -> Result<crate::player_id::PlayerId> {
    crate::player_id::PlayerId::named(text)
        .ok_or_else(|| Error::Usage(format!("`{text}` is not a player id")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        with_game_names(Cli::command()).debug_assert();
    }

    #[test]
    fn the_help_lists_every_game_from_the_registry() {
        let mut cli = with_game_names(Cli::command());
        let new = cli
            .find_subcommand_mut("new")
            .unwrap()
            .render_help()
            .to_string();
        for game in GameId::ALL {
            assert!(new.contains(game.name()), "{new}");
        }
        let simulate = cli
            .find_subcommand_mut("simulate")
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(simulate.contains("god-race leader"), "{simulate}");
        assert!(!simulate.contains("death-match-pick"), "{simulate}");
    }
}
