//! `adjudicate announce GAME_DIR (FILE | --text TEXT)`.

use crate::error::{Error, Result};
use crate::host_record::MAX_TEXT;
use crate::tick::host::Lever;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    group(clap::ArgGroup::new("what").required(true).args(["file", "text"])),
    after_help = "Sent by the announcements' Bcc batches (or to [mail] public_to), archived as \
rounds/NNN/notices/<n>-announce.txt and shown on the site.\n\
Example: adjudicate announce ~/games/match7 --text \"Round 3 starts after the holiday.\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// A text file with the announcement (UTF-8, at most 64 KiB).
    file: Option<PathBuf>,
    /// The announcement itself.
    #[arg(long)]
    text: Option<String>,
    /// Why, for the record (optional for an announcement).
    #[arg(long, default_value = "")]
    reason: String,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let text = match (args.text, &args.file) {
        (Some(text), _) => text,
        (None, Some(path)) => read(path)?,
        (None, None) => unreachable!("clap requires FILE or --text"),
    };
    super::lever::pull(
        args.game_dir,
        Lever::Announce { text },
        &args.reason,
        args.now,
    )
}

/// The announcement file: refused unread when it is too large for a message.
fn read(path: &PathBuf) -> Result<String> {
    let size = std::fs::metadata(path)
        .map_err(|e| Error::io(path, e))?
        .len();
    if size > MAX_TEXT as u64 {
        return Err(Error::Usage(format!(
            "{} is {size} bytes; an announcement is at most {MAX_TEXT} (it is mail)",
            path.display()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Usage(format!("{} is not UTF-8 text", path.display())))
}
