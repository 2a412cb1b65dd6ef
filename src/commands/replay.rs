//! `adjudicate replay GAME_DIR|SEASON`: every round re-resolved from the archive and compared
//! byte for byte; a season's matches each, then its ledger.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::game_dir::GameDir;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(after_help = "Example: adjudicate replay ~/games/match7")]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
}

pub fn run(args: Args) -> Result<u8> {
    if args.game_dir.join("season.toml").is_file() {
        return replay_season(&args.game_dir);
    }
    let ctx = GameContext::load(GameDir::open(args.game_dir)?)?;
    let outcome = crate::games::dispatch(ctx.config.game, crate::replay::Replay { ctx: &ctx })?;
    for line in &outcome.differences {
        println!("{line}");
    }
    if outcome.differences.is_empty() {
        println!(
            "replay: {} round(s) and {} file(s) reproduced byte for byte",
            outcome.rounds, outcome.files
        );
        Ok(exit::OK)
    } else {
        println!("replay: {} difference(s)", outcome.differences.len());
        Ok(exit::DIFFERENCE)
    }
}

/// `replay SEASON`: every match replayed from its archive, then the season's ledger recomputed
/// from them (which checks each match's balances against it).
fn replay_season(season: &Path) -> Result<u8> {
    let dir = crate::season::SeasonDir::new(season);
    let ledger = crate::season::ledger::compute(&dir)?;
    let (mut rounds, mut files, mut differences) = (0, 0, 0);
    for m in &ledger.matches {
        let ctx = GameContext::load(GameDir::open(dir.matches().join(&m.folder))?)?;
        if ctx.dir.state_toml().is_file() {
            let outcome =
                crate::games::dispatch(ctx.config.game, crate::replay::Replay { ctx: &ctx })?;
            for line in &outcome.differences {
                println!("{}: {line}", m.folder);
            }
            rounds += outcome.rounds;
            files += outcome.files;
            differences += outcome.differences.len();
        }
    }
    if differences > 0 {
        println!("replay: {differences} difference(s)");
        return Ok(exit::DIFFERENCE);
    }
    println!(
        "replay: {} match(es), {rounds} round(s) and {files} file(s) reproduced byte for byte; the ledger of {} player(s) recomputed from them",
        ledger.matches.len(),
        ledger.standings.len()
    );
    Ok(exit::OK)
}
