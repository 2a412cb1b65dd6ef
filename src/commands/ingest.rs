//! `adjudicate ingest GAME_DIR|SEASON --maildir DIR`: mail (or a chat export) into the current
//! round's submissions/, a line per message.

use crate::context::GameContext;
use crate::error::{Error, Result, exit};
use crate::game_dir::GameDir;
use crate::games::{Game, WithGame};
use crate::ingest::Source;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate ingest ~/games/match7 --maildir ~/Maildir/match7")]
pub struct Args {
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
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

impl Args {
    fn source(self) -> Option<Source> {
        match (self.maildir, self.mbox, self.eml, self.chat) {
            (Some(d), ..) => Some(Source::Maildir(d)),
            (_, Some(f), ..) => Some(Source::Mbox(f)),
            (_, _, Some(f), _) => Some(Source::Eml(f)),
            (_, _, _, Some(f)) => Some(Source::Chat(f)),
            _ => None,
        }
    }
}

pub fn run(args: Args) -> Result<u8> {
    let game_dir = args.game_dir.clone();
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    let source = args
        .source()
        .ok_or_else(|| Error::Usage("say where from: --maildir, --mbox, --eml or --chat".into()))?;
    if game_dir.join("season.toml").is_file() {
        return season_ingest(&game_dir, &source, now);
    }
    let dir = GameDir::open(game_dir)?;
    let _lock = dir.lock()?;
    let ctx = GameContext::load(dir)?;
    let report = crate::games::dispatch(
        ctx.config.game,
        Ingest {
            ctx: &ctx,
            source: &source,
            now,
        },
    )?;
    // One line per message, as in ingest.log; late versions also on stderr, for cron.
    for line in &report.log {
        println!("{line}");
    }
    for line in &report.warnings {
        eprintln!("adjudicate: {line}");
    }
    if report.log.is_empty() {
        println!("nothing to ingest");
    } else {
        println!(
            "round {}: {} submission(s) written, {} message(s) read (see ingest.log)",
            report.round,
            report.written.len(),
            report.log.len()
        );
    }
    Ok(exit::OK)
}

/// `ingest SEASON --maildir DIR`: each message to its match (`season::ingest`).
fn season_ingest(season: &Path, source: &Source, now: jiff::Timestamp) -> Result<u8> {
    let Source::Maildir(maildir) = source else {
        return Err(Error::Usage(
            "a season reads one Maildir for all its matches: use --maildir".into(),
        ));
    };
    let done = crate::season::ingest::ingest(&crate::season::SeasonDir::new(season), maildir, now)?;
    for (folder, report) in &done.matches {
        for line in &report.log {
            println!("{folder}: {line}");
        }
        for line in &report.warnings {
            eprintln!("adjudicate: {folder}: {line}");
        }
    }
    for (file, why) in &done.left {
        eprintln!(
            "adjudicate: {}: {why}; not used, flagged in cur/ (see the season's ingest.log)",
            file.display()
        );
    }
    if done.matches.is_empty() && done.left.is_empty() {
        println!("nothing to ingest");
    }
    Ok(exit::OK)
}

struct Ingest<'a> {
    ctx: &'a GameContext,
    source: &'a Source,
    now: jiff::Timestamp,
}

impl WithGame for Ingest<'_> {
    type Output = Result<crate::ingest::IngestReport>;
    fn run<G: Game>(self) -> Self::Output {
        let window = self.ctx.window::<G>()?;
        crate::ingest::ingest(self.ctx, self.source, self.now, G::KEYS, &window)
    }
}
