//! `adjudicate season event SEASON KIND …`: what happened between matches, for the ledger.

use super::super::player_arg;
use crate::error::{Result, exit};
use crate::season::{SeasonDir, commands};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
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
    #[arg(long, value_name = "TIME", value_parser = super::super::parse_now)]
    at: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let event = commands::event_of(
        &args.kind,
        args.player.as_deref().map(player_arg).transpose()?,
        args.winner.as_deref().map(player_arg).transpose()?,
        args.loser.as_deref().map(player_arg).transpose()?,
        args.change,
        args.reason,
        args.at.unwrap_or_else(jiff::Timestamp::now),
    )?;
    let line = event.describe();
    commands::add_event(&SeasonDir::new(&args.season), event)?;
    println!("Recorded: {line}");
    Ok(exit::OK)
}
