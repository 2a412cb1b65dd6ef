//! `adjudicate season report SEASON`: the season's reports of finished matches, then the send step
//! (also run by `round --all` after a season's matches).

use crate::error::{Result, exit};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    season: PathBuf,
    /// Queue the mail in SEASON/outbox/ but do not send it.
    #[arg(long)]
    no_send: bool,
    /// The clock (RFC 3339), for the mail's Date.
    #[arg(long, value_name = "TIME", value_parser = super::super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    publish(&args.season, now, !args.no_send, false)
}

/// The season reports of finished matches (written once), then the send step.
pub fn publish(season: &Path, now: jiff::Timestamp, send: bool, quiet: bool) -> Result<u8> {
    let published =
        crate::season::report::publish(&crate::season::SeasonDir::new(season), now, send)?;
    if !quiet {
        if published.matches.is_empty() {
            println!("season reports: nothing new");
        } else {
            println!(
                "season reports of {} written; {} message(s) queued",
                published.matches.join(", "),
                published.queued
            );
        }
        if let Some(send) = &published.send {
            println!("sent {} message(s)", send.sent);
        }
    }
    Ok(published
        .send
        .as_ref()
        .map_or(exit::OK, super::super::mail_problems))
}
