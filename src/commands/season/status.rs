//! `adjudicate season status SEASON`: the standings, the matches, the events.

use crate::error::{Result, exit};
use crate::season::{SeasonDir, commands};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    season: PathBuf,
}

pub fn run(args: Args) -> Result<u8> {
    let ledger = crate::season::ledger::compute(&SeasonDir::new(&args.season))?;
    print!("{}", commands::status(&ledger));
    Ok(exit::OK)
}
