//! `check`: everything that can be wrong before a tick finds it. The game directory (game.toml,
//! secrets.toml, templates, state.toml, every round's receipts.toml against its `received/`
//! copies and result.toml, the current round's submissions) or one submission file,
//! each problem printed as `file:line:col: message`. Reads only; never writes.

use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::game_dir::SubmissionEntry;
use crate::games::Game;
use crate::games::WithGame;
use crate::player_id::PlayerId;
use crate::receipts::Receipts;
use crate::result_file::ResultFile;
use crate::submission::screen;
use std::path::{Path, PathBuf};

pub struct Check<'a> {
    pub ctx: &'a GameContext,
    pub file: Option<PathBuf>,
    pub player: Option<String>,
}

impl WithGame for Check<'_> {
    type Output = Result<Vec<String>>;

    fn run<G: Game>(self) -> Self::Output {
        let ctx = self.ctx;
        // Host files: these are errors (exit 65 with file and key), not a list.
        ctx.renderer()?.check()?;
        crate::mail::Sender::new(&ctx.config.mail, &ctx.secrets)?;
        let fresh = crate::tick::setup::<G>(ctx)?; // game.toml and its options must deal a game
        let loaded = ctx.load_state::<G>()?;
        // The same sense check as a tick: state.toml against the receipts it applied.
        if let (Some(file), None) = (&loaded, &self.file) {
            let receipts = Receipts::load(&ctx.dir, &ctx.config, G::round(&file.game))?;
            let applied = file.receipts_applied.min(receipts.list.len());
            crate::tick::check_applied::<G>(ctx, &file.game, &receipts.list[..applied])?;
        }
        let mut state = loaded.map_or(fresh, |file| file.game);
        // The archive: every receipt against its copy, every result against game.toml.
        for round in crate::replay::round_folders(ctx)? {
            Receipts::load(&ctx.dir, &ctx.config, round)?.verify_archive(&ctx.dir, round)?;
            if ctx.dir.result(round).is_file() {
                ResultFile::load(ctx, round)?;
            }
        }
        if let Some(file) = self.file {
            let stem = file
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_owned();
            let id = self.player.unwrap_or(stem);
            let player = PlayerId::parse(&id)
                .filter(|p| ctx.config.player(p).is_some())
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "`{id}` is not a player of this game; use --player ID"
                    ))
                })?;
            return check_file::<G>(ctx, &mut state, &player, &file);
        }
        // Every result, and state.toml, against what the rules give from the archive.
        crate::replay::CheckResults {
            ctx,
            mode: crate::replay::Mode::Archive,
        }
        .run::<G>()?;
        let mut lines = Vec::new();
        if G::is_over(&state) {
            return Ok(lines);
        }
        let round = G::round(&state);
        for entry in ctx.dir.submission_entries(round)? {
            match entry {
                SubmissionEntry::Stray { name, reason } => lines.push(format!(
                    "{}: {reason}",
                    ctx.dir.submissions(round).join(name).display()
                )),
                SubmissionEntry::File { player, path } if ctx.config.player(&player).is_none() => {
                    lines.push(format!(
                        "{}: no player `{player}` in game.toml",
                        path.display()
                    ))
                }
                SubmissionEntry::File { player, path } => {
                    lines.extend(check_file::<G>(ctx, &mut state, &player, &path)?)
                }
            }
        }
        Ok(lines)
    }
}

fn check_file<G: Game>(
    ctx: &GameContext,
    state: &mut G::State,
    player: &PlayerId,
    path: &Path,
) -> Result<Vec<String>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let shown = path.display().to_string();
    let screened = screen(
        &bytes,
        ctx.secrets.tokens.get(player).map(String::as_str),
        &ctx.secrets.redactor,
    );
    let mut outcome = match screened.doc {
        Ok(doc) => G::receive(state, player, &doc),
        Err(problem) => crate::games::Outcome::refused(problem),
    };
    crate::tick::finish::<G>(ctx, state, player, &mut outcome);
    let problems = outcome.problems;
    Ok(problems.iter().map(|p| p.with_file(&shown)).collect())
}
