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

// Each command's one-line description is on its variant, where the top-level help finds it:
// a command's arguments are built only when it is the one run (or its help is asked for), so
// that a cron tick does not build every other command's parser first.
#[derive(Subcommand)]
#[command(defer = true)]
enum Command {
    /// Create a game directory with a sample game.toml.
    New(new::Args),
    /// Check the game directory, or one submission file, and print every problem.
    Check(check::Args),
    /// Show the round, its deadline, and who has a valid submission.
    Status(status::Args),
    /// Run one tick: receive, answer, resolve when due, render, queue and send mail.
    Round(round::Args),
    /// Re-render the reports of a resolved round from its result.toml (after a template edit).
    Render(render::Args),
    /// Re-resolve every round from the archive and report any difference (exit 1 if any).
    Replay(replay::Args),
    /// Send the messages waiting in outbox/.
    Send(send::Args),
    /// Write the public archive of every game under ROOT as a static web site.
    Site(site::Args),
    /// Seasons: one cast across many matches; garnets, Tokens of Life and eliminations kept by
    /// the tool (season.toml, events.toml, matches/NN-<game>/).
    Season(season::Args),
    /// Play many whole games with bots, in memory, to see who wins a design before players do.
    Simulate(simulate::Args),
    /// Take submissions from mail or a chat export into the current round's submissions/.
    Ingest(ingest::Args),
    /// Move the current round's deadline later; every player is told.
    Extend(extend::Args),
    /// Pause the game: nothing resolves (but by `round --force`) and no reminder goes until `resume`.
    Pause(pause::Args),
    /// Resume a paused game: the round gets back the time that was left when it paused (or `--to`).
    Resume(resume::Args),
    /// Mail a message of the host's to every player, archived with the round's notices.
    Announce(announce::Args),
    /// Remind now every player without a valid version of the round's deadline.
    Remind(remind::Args),
    /// Enter a version for a player who sent it another way (a chat DM, a phone call).
    Enter(enter::Args),
    /// Withdraw the last resolved round's results; it resolves again at its next due tick.
    Undo(undo::Args),
    /// A player leaves the game (quits, or is removed): the game's ruling for a seat that leaves
    /// applies from the resolution of the round being played.
    Withdraw(withdraw::Args),
    /// A new person takes over a seat: same id, state and hidden facts; new name, address, token.
    Substitute(substitute::Args),
}

/// Parses the process arguments and runs the command. On `--help`, `--version` or a usage
/// error, clap prints and exits.
pub fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
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

/// The help of `new`'s GAME, listing the games from the registry.
fn new_game_help() -> String {
    let (matches, rounds) = game_names();
    format!("The game: {matches}; or a season round ({rounds}), which `season match` makes for you")
}

/// The help of `season match`'s GAME.
fn any_game_help() -> String {
    format!("The game: {}", GameId::all_names().join(", "))
}

/// The help of `simulate`'s GAME.
fn simulate_game_help() -> String {
    let (matches, _) = game_names();
    format!(
        "A game id ({matches}) or a game directory whose game.toml gives the options and players"
    )
}

/// `simulate`'s after-help: the bots each game has, then `examples`.
fn simulate_after_help(examples: &str) -> String {
    let strategies: Vec<String> = GameId::ALL
        .iter()
        .filter_map(|&g| dispatch_match(g, StrategyName).map(|s| format!("{} {s}", g.name())))
        .collect();
    format!(
        "Bots: `random` (a uniformly random legal player) and each game's strategy: {}.\n{examples}",
        strategies.join(", ")
    )
}

/// The names of the games played as matches, and of those only a season plays as its rounds.
fn game_names() -> (String, String) {
    let (matches, rounds): (Vec<GameId>, Vec<GameId>) =
        GameId::ALL.iter().partition(|g| !g.is_season_round());
    let names = |games: &[GameId]| {
        games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    (names(&matches), names(&rounds))
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
    // a hand edit of state.toml: named by the first key the archive contradicts, if it has one
    let explained = match e {
        Error::Edited { path } => crate::replay::explain_edit(path),
        _ => None,
    };
    let e = explained.as_ref().unwrap_or(e);
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
        Cli::command().debug_assert();
    }

    #[test]
    fn the_help_lists_every_game_from_the_registry() {
        let mut cli = Cli::command();
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
