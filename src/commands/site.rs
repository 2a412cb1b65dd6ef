//! `adjudicate site ROOT OUT_DIR`: the public archive of every game under ROOT as a static site.

use crate::error::Result;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
#[command(
    after_help = "Built from the public part of each round's result.toml alone: an index, a page per game and per round \
with its announcement and a picture, and an Atom feed (feed.xml). Files whose bytes did not change are not \
written again. Templates: ROOT/templates/site/ overrides templates/site/ of the tool.\n\
Example: adjudicate site ~/games ~/public_html/games\n\
Cron:    */5 * * * * adjudicate round --all -q ~/games && adjudicate site -q ~/games ~/public_html/games"
)]
pub struct Args {
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
}

/// Every game that cannot be read is reported with its file, and then nothing is written (a site
/// without a game would be a wrong site), unless `--skip-broken` publishes the rest; the exit code
/// is the most serious of theirs.
pub fn run(args: Args) -> Result<u8> {
    let started = Instant::now();
    let report = crate::site::build(&args.root, &args.out_dir, args.skip_broken)?;
    let codes: Vec<u8> = report.errors.iter().map(super::report_error).collect();
    if !report.errors.is_empty() && !args.skip_broken {
        eprintln!(
            "adjudicate: site: nothing written ({} game(s) could not be read); fix them, or publish the rest with --skip-broken",
            report.errors.len()
        );
        return Ok(crate::all_games::most_serious(codes));
    }
    if !args.quiet {
        println!(
            "site: {} game(s), {} page(s), {} KB in {}; {} file(s) written, in {} ms",
            report.games,
            report.pages,
            report.bytes.div_ceil(1024),
            args.out_dir.display(),
            report.written.len(),
            started.elapsed().as_millis()
        );
    }
    Ok(crate::all_games::most_serious(codes))
}
