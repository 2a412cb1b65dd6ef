//! The command line (the only module that knows clap). Parses arguments into `app::Command`.

use crate::app::{Command, Verbosity};
use crate::clock;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

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
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Create a game directory with a sample game.toml.
    #[command(
        after_help = "Example: adjudicate new room-swap ~/games/match7 --players players.toml"
    )]
    New {
        /// The game: god-race, room-swap, planar-control, final-ritual, or death-match-pick (a
        /// season round; `season match` makes it for you).
        game: String,
        /// The game directory to create (must not exist or be empty).
        game_dir: PathBuf,
        /// A TOML file with [[players]] entries (id, name, email) to use instead of sample players.
        #[arg(long, value_name = "FILE")]
        players: Option<PathBuf>,
    },
    /// Check the game directory, or one submission file, and print every problem.
    #[command(after_help = "Example: adjudicate check ~/games/match7
         adjudicate check ~/games/match7 alice.toml --player alice")]
    Check {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
        /// A submission file to check against the current round.
        file: Option<PathBuf>,
        /// The player the file is from (default: the file's stem).
        #[arg(long, value_name = "ID")]
        player: Option<String>,
    },
    /// Show the round, its deadline, and who has a valid submission.
    #[command(
        after_help = "Example: adjudicate status ~/games/match7\n         adjudicate status --all ~/games"
    )]
    Status {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
        /// GAME_DIR is a root: one line for every game directory under it.
        #[arg(long)]
        all: bool,
        /// The clock (RFC 3339), for time left.
        #[arg(long, value_name = "TIME", value_parser = parse_now)]
        now: Option<jiff::Timestamp>,
    },
    /// Run one tick: receive, answer, resolve when due, render, queue and send mail.
    #[command(after_help = "Example: adjudicate round ~/games/match7
         adjudicate round ~/games/match7 --now 2026-12-02T15:00:00Z --dry-run\n         adjudicate round --all ~/games -q      (every game under ~/games, for cron)")]
    Round {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
        /// The clock (RFC 3339), e.g. 2026-12-02T15:00:00Z.
        #[arg(long, value_name = "TIME", value_parser = parse_now)]
        now: Option<jiff::Timestamp>,
        /// Resolve the current round now, whatever the deadline.
        #[arg(long)]
        force: bool,
        /// Do everything in memory and print what would be written; touch nothing.
        #[arg(long)]
        dry_run: bool,
        /// Queue mail in outbox/ but do not send it.
        #[arg(long)]
        no_send: bool,
        /// Print nothing unless there is an error (for cron).
        #[arg(short, long)]
        quiet: bool,
        /// GAME_DIR is a root: tick every game directory under it, in path order, each under its
        /// own lock; exit with the most serious status of all (65 > 74 > 75 > 0).
        #[arg(long)]
        all: bool,
    },
    /// Re-render the reports of a resolved round from its result.toml (after a template edit).
    #[command(after_help = "Example: adjudicate render ~/games/match7 --round 3")]
    Render {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
        /// The round (default: every resolved round).
        #[arg(long, value_name = "N")]
        round: Option<u32>,
    },
    /// Re-resolve every round from the archive and report any difference (exit 1 if any).
    #[command(after_help = "Example: adjudicate replay ~/games/match7")]
    Replay {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
    },
    /// Send the messages waiting in outbox/.
    #[command(after_help = "Example: adjudicate send ~/games/match7")]
    Send {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
    },
    /// Write the public archive of every game under ROOT as a static web site.
    #[command(
        after_help = "Built from the public part of each round's result.toml alone: an index, a page per game and per round \
with its announcement and a picture, and an Atom feed (feed.xml). Files whose bytes did not change are not \
written again. Templates: ROOT/templates/site/ overrides templates/site/ of the tool.\n\
Example: adjudicate site ~/games ~/public_html/games\n\
Cron:    */5 * * * * adjudicate round --all -q ~/games && adjudicate site -q ~/games ~/public_html/games"
    )]
    Site {
        /// A game directory, or a folder holding game directories at any depth.
        root: PathBuf,
        /// Where to write the site (created if missing).
        out_dir: PathBuf,
        /// Publish the games that can be read even when one cannot (by default a broken game
        /// stops the whole site: nothing is written).
        #[arg(long)]
        skip_broken: bool,
        /// Print nothing unless there is an error (for cron).
        #[arg(short, long)]
        quiet: bool,
    },
    /// Seasons: one cast across many matches; garnets, Tokens of Life and eliminations kept by
    /// the tool (season.toml, events.toml, matches/NN-<game>/).
    #[command(
        after_help = "Example: adjudicate season new ~/games/s1 --players cast.toml
         adjudicate season match ~/games/s1 god-race
         adjudicate season event ~/games/s1 death-match --winner carol --loser bob --reason \"DM 1\"
         adjudicate season status ~/games/s1
Cron: adjudicate round --all -q ~/games   (season matches included)"
    )]
    Season {
        #[command(subcommand)]
        command: SeasonSub,
    },
    /// Play many whole games with bots, in memory, to see who wins a design before players do.
    #[command(
        long_about = "Plays N whole games with bots through the same rules the tick uses (no files, \
no templates), on every core, and prints who wins (by role, alignment, strategy and seat), how long \
games last, points, garnets, Elimination Candidates and Tokens, with 95% confidence intervals. The \
same command prints the same numbers (every game is seeded from --seed).",
        after_help = "Bots: `random` (a uniformly random legal player) and each game's strategy: \
god-race leader, room-swap best-response, planar-control hunter, final-ritual greedy.\n\
Examples:\n  adjudicate simulate god-race --games 100000\n  \
adjudicate simulate final-ritual --games 20000 --sweep options.selfish_hand=5..10 --out balance/\n  \
adjudicate simulate ~/games/match7 --games 5000 --bots random=3,leader\n\
Exit codes: 0 done, 2 usage error (a bad flag or option), 65 invalid game directory, 74 I/O error."
    )]
    Simulate {
        /// A game id (god-race, room-swap, planar-control, final-ritual) or a game directory
        /// whose game.toml gives the options and players.
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
    },
    /// Take submissions from mail or a chat export into the current round's submissions/.
    #[command(after_help = "Example: adjudicate ingest ~/games/match7 --maildir ~/Maildir/match7")]
    Ingest {
        /// The game directory: the folder that holds game.toml, state.toml and rounds/.
        game_dir: PathBuf,
        /// A Maildir: messages in new/ are read, then moved to cur/.
        #[arg(long, value_name = "DIR", group = "source")]
        maildir: Option<PathBuf>,
        /// An mbox file.
        #[arg(long, value_name = "FILE", group = "source")]
        mbox: Option<PathBuf>,
        /// One message file.
        #[arg(long, value_name = "FILE", group = "source")]
        eml: Option<PathBuf>,
        /// A DiscordChatExporter JSON export.
        #[arg(long, value_name = "FILE", group = "source")]
        chat: Option<PathBuf>,
        /// The clock, for the log (RFC 3339).
        #[arg(long, value_name = "TIME", value_parser = parse_now)]
        now: Option<jiff::Timestamp>,
    },
}

#[derive(Subcommand)]
enum SeasonSub {
    /// Create a season directory: season.toml with the cast, matches/, .gitignore.
    New {
        /// The season directory to create.
        season: PathBuf,
        /// A TOML file with [[players]] entries (id, name, email, chat, garnets: the starting
        /// balance).
        #[arg(long, value_name = "FILE")]
        players: PathBuf,
        /// The season's title (default: the folder's name).
        #[arg(long)]
        title: Option<String>,
        /// The season's seed (default: drawn at random); every match's seed derives from it.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Start the next match: matches/NN-<game>/ with the living cast, their garnets and Tokens
    /// of Life from the ledger, the season's mail settings and a seed drawn from the season's.
    Match {
        season: PathBuf,
        /// The game: god-race, room-swap, planar-control, final-ritual, or death-match-pick
        /// (the pick after a match with Elimination Candidates).
        game: String,
        /// The match's title (default: "<season>: Match N").
        #[arg(long)]
        title: Option<String>,
        /// Only these living players (comma-separated ids), for a game with a fixed size
        /// (Room Swap takes exactly six).
        #[arg(long, value_name = "IDS", value_delimiter = ',')]
        players: Option<Vec<String>>,
        /// A game option for the match's [options], as TOML (repeatable), e.g.
        /// --option 'planes = { earth = 3, limbo = 1, thera = 1, mobil = 1 }'.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
    },
    /// Record what happened between matches: eliminate ID, death-match --winner --loser,
    /// tokens ID --change N, garnets ID --change N; each with --reason.
    Event {
        season: PathBuf,
        /// eliminate, death-match, tokens or garnets.
        #[arg(value_parser = crate::season::events::KINDS)]
        kind: String,
        /// The player (eliminate, tokens, garnets).
        player: Option<String>,
        #[arg(long, value_name = "ID")]
        winner: Option<String>,
        #[arg(long, value_name = "ID")]
        loser: Option<String>,
        /// Tokens or garnets gained (negative: spent or taken).
        #[arg(long, allow_hyphen_values = true)]
        change: Option<i64>,
        /// Why, for the season's record.
        #[arg(long)]
        reason: String,
        /// When it happened (RFC 3339; default: now).
        #[arg(long, value_name = "TIME", value_parser = parse_now)]
        at: Option<jiff::Timestamp>,
    },
    /// The standings (garnets, Tokens, who is in), the matches and the events; recomputed from
    /// the archive each time.
    Status { season: PathBuf },
    /// Write and mail the season's reports of every finished match that has none yet: a public
    /// one (Tokens, eliminations, the match's result) and a private one per player (garnets).
    /// `round --all` does this after ticking the season's matches.
    Report {
        season: PathBuf,
        /// Queue the mail in SEASON/outbox/ but do not send it.
        #[arg(long)]
        no_send: bool,
        /// The clock (RFC 3339), for the mail's Date.
        #[arg(long, value_name = "TIME", value_parser = parse_now)]
        now: Option<jiff::Timestamp>,
    },
}

fn verbosity(quiet: bool) -> Verbosity {
    if quiet {
        Verbosity::Quiet
    } else {
        Verbosity::Normal
    }
}

fn parse_now(text: &str) -> Result<jiff::Timestamp, String> {
    clock::parse_instant(text)
}

/// Parses the process arguments. On `--help`, `--version` or a usage error, clap prints and exits.
pub fn parse() -> Command {
    into_command(Cli::parse())
}

fn into_command(cli: Cli) -> Command {
    match cli.command {
        Sub::New {
            game,
            game_dir,
            players,
        } => Command::New {
            game,
            game_dir,
            players,
        },
        Sub::Check {
            game_dir,
            file,
            player,
        } => Command::Check {
            game_dir,
            file,
            player,
        },
        Sub::Status { game_dir, now, all } => Command::Status { game_dir, now, all },
        Sub::Round {
            game_dir,
            now,
            force,
            dry_run,
            no_send,
            quiet,
            all,
        } => Command::Round {
            game_dir,
            now,
            force,
            dry_run,
            no_send,
            all,
            verbosity: verbosity(quiet),
        },
        Sub::Render { game_dir, round } => Command::Render { game_dir, round },
        Sub::Replay { game_dir } => Command::Replay { game_dir },
        Sub::Send { game_dir } => Command::Send { game_dir },
        Sub::Season { command } => Command::Season(match command {
            SeasonSub::New {
                season,
                players,
                title,
                seed,
            } => crate::app::SeasonCommand::New {
                season,
                players,
                title,
                seed,
            },
            SeasonSub::Match {
                season,
                game,
                title,
                players,
                options,
            } => crate::app::SeasonCommand::Match {
                season,
                game,
                title,
                players,
                options,
            },
            SeasonSub::Event {
                season,
                kind,
                player,
                winner,
                loser,
                change,
                reason,
                at,
            } => crate::app::SeasonCommand::Event {
                season,
                kind,
                player,
                winner,
                loser,
                change,
                reason,
                at,
            },
            SeasonSub::Status { season } => crate::app::SeasonCommand::Status { season },
            SeasonSub::Report {
                season,
                no_send,
                now,
            } => crate::app::SeasonCommand::Report {
                season,
                no_send,
                now,
            },
        }),
        Sub::Simulate {
            game,
            games,
            players,
            garnets,
            set,
            sweep,
            bots,
            seed,
            jobs,
            out,
            quiet,
        } => Command::Simulate(crate::simulate::plan::Request {
            target: game,
            games,
            players,
            garnets,
            set,
            sweep,
            bots,
            seed,
            jobs,
            out,
            quiet,
        }),
        Sub::Site {
            root,
            out_dir,
            skip_broken,
            quiet,
        } => Command::Site {
            root,
            out_dir,
            skip_broken,
            verbosity: verbosity(quiet),
        },
        Sub::Ingest {
            game_dir,
            maildir,
            mbox,
            eml,
            chat,
            now,
        } => {
            use crate::ingest::Source;
            let source = match (maildir, mbox, eml, chat) {
                (Some(d), ..) => Some(Source::Maildir(d)),
                (_, Some(f), ..) => Some(Source::Mbox(f)),
                (_, _, Some(f), _) => Some(Source::Eml(f)),
                (_, _, _, Some(f)) => Some(Source::Chat(f)),
                _ => None,
            };
            Command::Ingest {
                game_dir,
                source,
                now,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
