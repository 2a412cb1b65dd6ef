//! `replay` and `render`: the archive is the truth. `replay` re-resolves every round from the seed
//! and the `received/` copies, in memory, and compares each file it would write with the one on
//! disk; `render` re-renders reports from `result.toml` after a template edit.

use crate::context::{GameContext, StateFile};
use crate::error::{Error, Result};
use crate::game_dir::write_atomic;
use crate::games::Game;
use crate::games::WithGame;
use crate::problem::Problem;
use crate::receipts::Receipts;
use crate::result_file::ResultFile;
use crate::tick::{reapply, setup};
use std::path::Path;

pub struct Replay<'a> {
    pub ctx: &'a GameContext,
}

#[derive(Debug, Default)]
pub struct ReplayOutcome {
    pub rounds: u32,
    pub files: usize,
    pub differences: Vec<String>,
    /// The result.toml files that differ from what the rules give: (file, key, what differs).
    pub results: Vec<(std::path::PathBuf, String, String)>,
}

/// Checks every result.toml of a game against what the rules give (a replay in memory): a hand
/// edit, or a file broken so that a template would fail on it, is an error naming the file and
/// the first key that differs. `render` and `site` read results only after this.
pub struct CheckResults<'a> {
    pub ctx: &'a GameContext,
    /// `Mode::Results` (every part), `Mode::Archive` (and state.toml) or `Mode::Public`
    /// (what the site reads).
    pub mode: Mode,
}

impl WithGame for CheckResults<'_> {
    type Output = Result<()>;

    fn run<G: Game>(self) -> Self::Output {
        let outcome = replay::<G>(self.ctx, self.mode)?;
        match outcome.results.into_iter().next() {
            Some((path, key, what)) => Err(Error::invalid(
                path.clone(),
                key,
                format!(
                    "{what}: the archive gives another {} (a hand edit?); restore the file from git, or see `adjudicate replay`",
                    if path.ends_with("state.toml") {
                        "state"
                    } else {
                        "result"
                    }
                ),
            )),
            None => Ok(()),
        }
    }
}

impl WithGame for Replay<'_> {
    type Output = Result<ReplayOutcome>;

    fn run<G: Game>(self) -> Self::Output {
        replay::<G>(self.ctx, Mode::Full)
    }
}

/// What a replay compares with the archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Everything: results, reports, state.toml (`adjudicate replay`).
    Full,
    /// Each result.toml whole (`render`): state.toml is not read, nothing is rendered.
    Results,
    /// Each result.toml whole and state.toml (`check`): a hand edit of either that the archive
    /// contradicts is named by its first key; nothing is rendered.
    Archive,
    /// Each result.toml's `[meta]` and `[public]` only (`site`, which reads nothing else).
    Public,
}

fn replay<G: Game>(ctx: &GameContext, mode: Mode) -> Result<ReplayOutcome> {
    let full = mode == Mode::Full;
    // The same checks as a tick: a seed or players changed since set-up are an error.
    let loaded = match full || mode == Mode::Archive {
        true => ctx.load_state_unsealed::<G>()?,
        false => None,
    };
    let renderer = if full { Some(ctx.renderer()?) } else { None };
    let mut out = ReplayOutcome::default();
    let mut state = setup::<G>(ctx)?;
    if let Some(opening) = G::opening(&state) {
        let result = ResultFile::opening(ctx, G::round(&state), opening);
        out.compare_round::<G>(ctx, renderer.as_ref(), mode, &result)?;
    }
    let mut applied = 0;
    let mut closed = None;
    while !G::is_over(&state) {
        let round = G::round(&state);
        let index = G::rounds_played(&state);
        let receipts_path = ctx.dir.receipts(round);
        let receipts = Receipts::load(&ctx.dir, &ctx.config, round)?;
        receipts.verify_archive(&ctx.dir, round)?;
        // the round being played: the receipts state.toml has applied (a killed tick leaves
        // the rest to the next)
        let current = !ctx.dir.result(round).is_file();
        let take = match (&loaded, current) {
            (Some(file), true) => file.receipts_applied.min(receipts.list.len()),
            _ => receipts.list.len(),
        };
        for receipt in &receipts.list[..take] {
            let outcome = reapply::<G>(ctx, &mut state, round, receipt)?;
            let problems: Vec<String> = outcome.problems.iter().map(Problem::short).collect();
            if !receipt.refused && (outcome.valid != receipt.valid || problems != receipt.problems)
            {
                out.differences.push(format!(
                    "{}: {} version {}: the rules now say valid = {}, problems = {:?}",
                    receipts_path.display(),
                    receipt.player,
                    receipt.n,
                    outcome.valid,
                    problems
                ));
            }
        }
        applied = take;
        if current {
            break; // the round being played now
        }
        let resolved = crate::tick::resolve_with_host::<G>(ctx, &mut state)?;
        let next_round = (!G::is_over(&state)).then(|| G::round(&state));
        // When the round closed is the tick's clock, not the rules': read from the archive.
        // (a broken file gives none, and the comparison below reports the difference)
        closed = crate::result_meta::Meta::read(&ctx.dir.result(round))
            .ok()
            .flatten()
            .and_then(|m| m.closed)
            .and_then(|c| crate::clock::parse_instant(&c).ok());
        let result = ResultFile::new(ctx, round, index, next_round, closed, resolved);
        out.compare_round::<G>(ctx, renderer.as_ref(), mode, &result)?;
        applied = 0;
        out.rounds += 1;
    }
    if full || mode == Mode::Archive {
        let mut file = StateFile::new(ctx, applied, state);
        file.opened = closed.map(|t| t.as_second());
        out.compare(&ctx.dir.state_toml(), file.to_text().text.as_bytes())?;
    }
    Ok(out)
}

impl ReplayOutcome {
    /// Compares a round's result.toml (and, with a renderer, the reports rendered from it) with
    /// the archive.
    fn compare_round<G: Game>(
        &mut self,
        ctx: &GameContext,
        renderer: Option<&crate::render::Renderer>,
        mode: Mode,
        result: &ResultFile,
    ) -> Result<()> {
        let folder = result.folder(&ctx.dir);
        let path = folder.join("result.toml");
        if mode == Mode::Public {
            return self.compare_public(&path, result);
        }
        let Some(renderer) = renderer else {
            return self.compare(&path, result.to_toml().as_bytes());
        };
        let then = ctx.renderer_for(result.held(), renderer)?;
        let (reports, text) =
            result.render_with_text::<G>(ctx, then.as_ref().unwrap_or(renderer), None, |_| true)?;
        self.compare(&path, crate::host_file::join_parts(text).as_bytes())?;
        self.compare(&folder.join("public.txt"), reports.public.as_bytes())?;
        for (player, text) in &reports.private {
            let path = folder.join("private").join(format!("{player}.txt"));
            self.compare(&path, text.as_bytes())?;
        }
        Ok(())
    }

    /// Compares only `[meta]` and `[public]` of a result.toml.
    fn compare_public(&mut self, path: &Path, expected: &ResultFile) -> Result<()> {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            meta: &'a crate::result_meta::Meta,
            public: &'a crate::games::Public,
        }
        let text = |meta, public| toml::to_string(&Shown { meta, public }).unwrap_or_default();
        let want = text(&expected.meta, &expected.public);
        let have = match crate::game_dir::read_optional(path)? {
            None => String::new(),
            Some(raw) => match toml::from_str::<ResultFile>(&raw) {
                Ok(r) => text(&r.meta, &r.public),
                Err(e) => {
                    let key = e.span().map_or_else(String::new, |s| {
                        let line = raw[..s.start.min(raw.len())].lines().count();
                        format!("line {line}")
                    });
                    self.results
                        .push((path.to_path_buf(), key, e.message().to_owned()));
                    return Ok(());
                }
            },
        };
        self.files += 1;
        if have != want {
            let (key, what) = first_key_difference(have.as_bytes(), want.as_bytes());
            self.results.push((path.to_path_buf(), key, what));
            self.differences
                .push(format!("{}: [meta] or [public] differs", path.display()));
        }
        Ok(())
    }

    fn compare(&mut self, path: &Path, expected: &[u8]) -> Result<()> {
        self.files += 1;
        let state = path.ends_with("state.toml");
        match std::fs::read(path) {
            // state.toml's body, its seal aside: a broken seal is the load's to refuse, and a
            // file of an older version has none
            Ok(actual) if state && unsealed(&actual) == unsealed(expected) => {}
            Ok(actual) if actual == expected => {}
            Ok(actual) => {
                if path.ends_with("result.toml") || state {
                    let (actual, expected) = match state {
                        true => (unsealed(&actual), unsealed(expected)),
                        false => (&actual[..], expected),
                    };
                    let (key, what) = first_key_difference(actual, expected);
                    self.results.push((path.to_path_buf(), key, what));
                }
                self.differences.push(format!(
                    "{}: differs{}",
                    path.display(),
                    first_difference(&actual, expected)
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self
                .differences
                .push(format!("{}: missing from the archive", path.display())),
            Err(e) => return Err(Error::io(path, e)),
        }
        Ok(())
    }
}

/// state.toml's bytes without the seal line.
fn unsealed(bytes: &[u8]) -> &[u8] {
    match std::str::from_utf8(bytes) {
        Ok(text) => crate::context::unseal(text).0.as_bytes(),
        Err(_) => bytes,
    }
}

/// Why a command refused state.toml as edited by hand (`Error::Edited`), with the first key
/// the archive contradicts: the error to show instead, if the archive names one.
pub fn explain_edit(path: &Path) -> Option<Error> {
    let dir = crate::game_dir::GameDir::open(path.parent()?.to_path_buf()).ok()?;
    let ctx = GameContext::load(dir).ok()?;
    let check = CheckResults {
        ctx: &ctx,
        mode: Mode::Archive,
    };
    crate::games::dispatch(ctx.config.game, check).err()
}

/// The table a `[table]` or `[[table]]` header line names.
fn header(line: &str) -> Option<&str> {
    line.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .map(|h| h.trim_matches(['[', ']']))
}

/// The first key of a TOML file whose line differs from the expected text (`[table]` headers
/// followed), and what the archive has there.
fn first_key_difference(actual: &[u8], expected: &[u8]) -> (String, String) {
    let actual = String::from_utf8_lossy(actual);
    let expected = String::from_utf8_lossy(expected);
    let mut table = String::new();
    let mut a = actual.lines();
    for e in expected.lines() {
        let line = a.next();
        if line != Some(e) {
            let shown = line.unwrap_or("");
            // the archive's key there (a value changed, a key added); where the archive has
            // none (a table removed, the file ends), the table or key the rules give
            let name = |l: &str| match header(l) {
                Some(_) => String::new(),
                None => l.split('=').next().unwrap_or("").trim().to_owned(),
            };
            let in_table = |key: String| match table.is_empty() {
                true => key,
                false => format!("{table}.{key}"),
            };
            let key = match (name(shown), header(e), name(e)) {
                (key, ..) if !key.is_empty() => in_table(key),
                (_, Some(header), _) => header.to_owned(),
                (_, None, key) if !key.is_empty() => in_table(key),
                _ => table.clone(),
            };
            let what = if line.is_some() {
                format!("the archive has `{shown}` where the rules give `{e}`")
            } else {
                format!("the archive ends where the rules give `{e}`")
            };
            return (key, what);
        }
        if let Some(header) = header(e) {
            table = header.to_owned();
        }
    }
    (table, "the archive has more than the rules give".to_owned())
}

fn first_difference(actual: &[u8], expected: &[u8]) -> String {
    let actual = String::from_utf8_lossy(actual);
    let expected = String::from_utf8_lossy(expected);
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        if a != e {
            return format!(" at line {}: archive has {a:?}, replay gives {e:?}", i + 1);
        }
    }
    format!(
        " in length ({} vs {} lines)",
        actual.lines().count(),
        expected.lines().count()
    )
}

/// The resolved rounds on disk, in order.
pub fn resolved_rounds(ctx: &GameContext) -> Result<Vec<u32>> {
    Ok(round_folders(ctx)?
        .into_iter()
        .filter(|n| ctx.dir.result(*n).is_file())
        .collect())
}

/// Every round folder on disk (`rounds/NNN`), in order.
pub fn round_folders(ctx: &GameContext) -> Result<Vec<u32>> {
    let rounds = ctx.dir.rounds();
    if !rounds.is_dir() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(&rounds)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| Error::io(&rounds, e.into()))?;
        if let Some(n) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        {
            found.push(n);
        }
    }
    Ok(found)
}

/// Re-renders `public.txt` and `private/*.txt` of one round (or all resolved rounds).
pub struct Rerender<'a> {
    pub ctx: &'a GameContext,
    pub round: Option<u32>,
}

impl WithGame for Rerender<'_> {
    type Output = Result<Vec<u32>>;

    fn run<G: Game>(self) -> Self::Output {
        let ctx = self.ctx;
        // Reports are rendered only from results the rules would give.
        CheckResults {
            ctx,
            mode: Mode::Results,
        }
        .run::<G>()?;
        let renderer = ctx.renderer()?;
        let rounds = match self.round {
            Some(n) if ctx.dir.result(n).is_file() => vec![n],
            Some(n) => {
                return Err(Error::Usage(format!(
                    "round {n} has no result.toml: it has not been resolved"
                )));
            }
            None => resolved_rounds(ctx)?,
        };
        for &n in &rounds {
            let result = ResultFile::load(ctx, n)?;
            let then = ctx.renderer_for(result.held(), &renderer)?;
            let reports = result.render::<G>(ctx, then.as_ref().unwrap_or(&renderer))?;
            write_atomic(&ctx.dir.public(n), reports.public.as_bytes())?;
            for (player, text) in &reports.private {
                write_atomic(&ctx.dir.private(n, player), text.as_bytes())?;
            }
        }
        Ok(rounds)
    }
}
