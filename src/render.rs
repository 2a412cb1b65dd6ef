//! Rendering with tera. The built-in templates are compiled into the binary; a file of the same name
//! in `GAME_DIR/templates/` (or `GAME_DIR/templates/common/`) replaces the built-in one. Templates
//! are compiled once per run, whatever the number of players.
//!
//! Contexts are typed structs: a template sees exactly what the struct holds, and a private report
//! sees only `result.toml`'s `[public]` and its own player's `[private.<id>]`.

mod ast_codec;
mod context;
mod fast;
mod filters;
mod precompiled;

pub use context::*;

use crate::error::{Error, Result};
use crate::games::GameId;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tera::Tera;

/// (name, built-in source) of the templates every game shares, `common/<file>`; a game's own
/// are its `Game::TEMPLATES`.
const COMMON: &[(&str, &str)] = &[
    (
        "common/ack.txt.tera",
        include_str!("../templates/common/ack.txt.tera"),
    ),
    (
        "common/notice.txt.tera",
        include_str!("../templates/common/notice.txt.tera"),
    ),
    (
        "common/footer.txt.tera",
        include_str!("../templates/common/footer.txt.tera"),
    ),
    (
        "common/reject.txt.tera",
        include_str!("../templates/common/reject.txt.tera"),
    ),
    (
        "common/reminder.txt.tera",
        include_str!("../templates/common/reminder.txt.tera"),
    ),
    (
        "common/late.txt.tera",
        include_str!("../templates/common/late.txt.tera"),
    ),
    (
        "common/over.txt.tera",
        include_str!("../templates/common/over.txt.tera"),
    ),
    (
        "common/status.txt.tera",
        include_str!("../templates/common/status.txt.tera"),
    ),
    (
        "common/same.txt.tera",
        include_str!("../templates/common/same.txt.tera"),
    ),
    (
        "common/token.txt.tera",
        include_str!("../templates/common/token.txt.tera"),
    ),
    (
        "common/nothing.txt.tera",
        include_str!("../templates/common/nothing.txt.tera"),
    ),
    (
        "common/host.txt.tera",
        include_str!("../templates/common/host.txt.tera"),
    ),
    (
        "common/takeover.txt.tera",
        include_str!("../templates/common/takeover.txt.tera"),
    ),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Public,
    Private,
    Ack,
    Notice,
    Reminder,
    Reject,
    Late,
    /// The reply to a player's message after the game is over.
    Over,
    /// The answer to a player's message that says only `status` (or `help`).
    Status,
    Same,
    /// The reply to a message in which no submission was found.
    Nothing,
    /// The notice of a host's action (`extend`, `pause`, `resume`, `announce`).
    Host,
    /// The welcome of a person who takes over a seat (`substitute`).
    Takeover,
}

impl Kind {
    pub const ALL: [Kind; 13] = [
        Kind::Public,
        Kind::Private,
        Kind::Ack,
        Kind::Notice,
        Kind::Reminder,
        Kind::Reject,
        Kind::Late,
        Kind::Over,
        Kind::Status,
        Kind::Same,
        Kind::Nothing,
        Kind::Host,
        Kind::Takeover,
    ];

    fn file(self) -> &'static str {
        match self {
            Kind::Public => "public.txt.tera",
            Kind::Private => "private.txt.tera",
            Kind::Ack => "ack.txt.tera",
            Kind::Notice => "notice.txt.tera",
            Kind::Reminder => "reminder.txt.tera",
            Kind::Reject => "reject.txt.tera",
            Kind::Late => "late.txt.tera",
            Kind::Over => "over.txt.tera",
            Kind::Status => "status.txt.tera",
            Kind::Same => "same.txt.tera",
            Kind::Nothing => "nothing.txt.tera",
            Kind::Host => "host.txt.tera",
            Kind::Takeover => "takeover.txt.tera",
        }
    }
}

pub struct Renderer {
    game: GameId,
    overrides: PathBuf,
    /// Shared with every compiled kind's `name` filter: a 100,000-player game's map is 9 MB.
    names: Arc<BTreeMap<String, String>>,
    /// Each kind's template compiled on first use: a tick with nothing to say (most cron runs)
    /// compiles nothing, and one that only acknowledges compiles only the acknowledgement.
    compiled: [std::sync::OnceLock<Compiled>; Kind::ALL.len()],
}

struct Compiled {
    tera: Tera,
    /// Where each overridden template came from, for error messages.
    sources: HashMap<String, PathBuf>,
    /// If `fast` can render this kind's template (and what it includes), the literal
    /// arguments of their filter calls.
    fast: Option<fast::Consts>,
}

impl Renderer {
    /// The templates of `game`, built in or overridden by files in `overrides`, compiled when
    /// first needed. `names` maps player ids to display names, for the `name` filter
    /// (`{{ id | name }}`): held once here rather than copied into every report's context.
    pub fn new(
        game: GameId,
        overrides: &Path,
        names: BTreeMap<String, String>,
    ) -> Result<Renderer> {
        Ok(Renderer {
            game,
            overrides: overrides.to_path_buf(),
            names: Arc::new(names),
            compiled: Default::default(),
        })
    }

    /// Whether `fast` renders this kind's template (the tests' view of it).
    #[cfg(test)]
    pub(crate) fn reads_fast(&self, kind: Kind) -> Result<bool> {
        Ok(self.compiled(kind)?.fast.is_some())
    }

    /// The display names the `name` filter uses.
    pub fn names(&self) -> &BTreeMap<String, String> {
        &self.names
    }

    /// Compiles every template now (`check`: a broken override is an error before any tick).
    pub fn check(&self) -> Result<()> {
        Kind::ALL
            .iter()
            .try_for_each(|kind| self.compiled(*kind).map(|_| ()))
    }

    /// Compiles the templates of `kinds` now. The built-in ones were parsed when the binary was
    /// built (`precompiled`): adding them takes microseconds, less than starting a thread. A
    /// host's override is parsed here, about a microsecond a byte, so with overrides each kind
    /// compiles on its own thread (a round that resolves needs the public and private reports).
    pub fn prepare(&self, kinds: &[Kind]) -> Result<()> {
        if !self.overrides.is_dir() {
            return kinds
                .iter()
                .try_for_each(|kind| self.compiled(*kind).map(|_| ()));
        }
        let pending: Vec<Kind> = kinds
            .iter()
            .copied()
            .filter(|k| self.compiled[*k as usize].get().is_none())
            .collect();
        let Some((first, rest)) = pending.split_first() else {
            return Ok(());
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = rest
                .iter()
                .map(|kind| scope.spawn(move || self.compiled(*kind).map(|_| ())))
                .collect();
            let mine = self.compiled(*first).map(|_| ());
            handles
                .into_iter()
                .try_for_each(|h| h.join().expect("a template thread panicked"))?;
            mine
        })
    }

    fn compiled(&self, kind: Kind) -> Result<&Compiled> {
        let slot = &self.compiled[kind as usize];
        if let Some(compiled) = slot.get() {
            return Ok(compiled);
        }
        let compiled = self.compile(kind)?;
        Ok(slot.get_or_init(|| compiled))
    }

    /// The template a kind renders: the game's own, or a common one.
    fn template_name(&self, kind: Kind) -> String {
        match kind {
            Kind::Notice
            | Kind::Reminder
            | Kind::Reject
            | Kind::Late
            | Kind::Over
            | Kind::Status
            | Kind::Same
            | Kind::Nothing
            | Kind::Host
            | Kind::Takeover => {
                format!("common/{}", kind.file())
            }
            _ => format!("{}/{}", self.game.name(), kind.file()),
        }
    }

    /// The text of a template of this game (`common/…` or `<game>/…`): the host's override if
    /// there is one (with its path), else the built-in one; `None` for any other name.
    fn source(&self, name: &str, any_overrides: bool) -> Result<Option<(String, Option<PathBuf>)>> {
        let Some((_, builtin)) = COMMON
            .iter()
            .chain(self.game.profile().templates)
            .find(|(n, _)| *n == name)
        else {
            return Ok(None);
        };
        let (folder, file) = name.split_once('/').expect("names have a folder");
        if folder != "common" && folder != self.game.name() {
            return Ok(None);
        }
        let local = match folder {
            "common" => self.overrides.join("common").join(file),
            _ => self.overrides.join(file),
        };
        if any_overrides && let Some(text) = crate::game_dir::read_optional(&local)? {
            return Ok(Some((text, Some(local))));
        }
        Ok(Some((builtin.to_string(), None)))
    }

    /// Compiles the template of `kind` and the templates it includes, extends or imports (by
    /// their quoted names), and nothing else: parsing templates is most of a small tick's work.
    fn compile(&self, kind: Kind) -> Result<Compiled> {
        let mut tera = Tera::default();
        tera.autoescape_on(Vec::new());
        tera.register_filter("wrap", wrap_filter);
        tera.register_filter("title", filters::title);
        tera.register_filter("join", filters::join);
        tera.register_filter(
            "name",
            NameFilter {
                names: Arc::clone(&self.names),
            },
        );
        // most games override nothing: one look at the folder instead of one per template
        let any_overrides = self.overrides.is_dir();
        let mut sources = HashMap::new();
        let mut templates = Vec::new();
        let template = self.template_name(kind);
        let mut pending = vec![template.clone()];
        let mut seen = std::collections::HashSet::new();
        while let Some(name) = pending.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some((text, local)) = self.source(&name, any_overrides)? else {
                continue; // not a template name of ours: tera reports it if it is used
            };
            pending.extend(
                text.split('"')
                    .skip(1)
                    .step_by(2)
                    .filter(|quoted| quoted.ends_with(".tera"))
                    .map(String::from),
            );
            if let Some(local) = local {
                sources.insert(name.clone(), local);
            }
            templates.push((name, text));
        }
        if let Err(e) = precompiled::add_templates(&mut tera, templates) {
            let path = sources
                .values()
                .next()
                .cloned()
                .unwrap_or_else(|| self.overrides.to_path_buf());
            return Err(Error::invalid(path, "template", error_chain(&e)));
        }
        // (no template here is escaped: `fast` renders as tera does without escaping)
        let fast = fast::prepare(&tera, &template);
        Ok(Compiled {
            tera,
            sources,
            fast,
        })
    }

    pub fn render<C: Serialize>(&self, kind: Kind, context: &C) -> Result<String> {
        let ctx = tera::Context::from_serialize(context).expect("contexts serialize to maps");
        self.render_context(kind, &ctx)
    }

    /// Renders a context built by the caller.
    pub fn render_context(&self, kind: Kind, ctx: &tera::Context) -> Result<String> {
        self.render_names(kind, ctx, &[], || Cow::Borrowed(ctx))
    }

    /// Renders a context in two layers: the private reports of a round share one base context
    /// (`game`, `public`) built once, each adds its player's names over it.
    pub fn render_layered(&self, kind: Kind, ctx: &Layered<'_>) -> Result<String> {
        self.render_names(kind, ctx.shared, &ctx.own, || Cow::Owned(ctx.merged()))
    }

    /// `own` over `shared` rendered by the faster road where it can, else by tera from the
    /// whole context (`whole`, built only then, or in debug builds to check the faster road).
    fn render_names<'c>(
        &self,
        kind: Kind,
        shared: &tera::Context,
        own: &[(&'static str, Cow<'_, serde_json::Value>)],
        whole: impl Fn() -> Cow<'c, tera::Context>,
    ) -> Result<String> {
        let name = self.template_name(kind);
        let compiled = self.compiled(kind)?;
        let fast = compiled.fast.as_ref().map(|consts| {
            let names = fast::Names { ctx: shared, own };
            fast::render(&compiled.tera, consts, &name, names)
        });
        if let Some(Some(text)) = &fast {
            if cfg!(debug_assertions) {
                // every test proves the faster road against tera itself
                let tera = compiled
                    .tera
                    .render(&name, &whole())
                    .map_err(|e| error_chain(&e));
                assert_eq!(
                    tera.as_deref(),
                    Ok(text.as_str()),
                    "{name}: fast::render differs from tera"
                );
            }
            return Ok(tidy(text));
        }
        let text = compiled.tera.render(&name, &whole()).map_err(|e| {
            let path = compiled
                .sources
                .get(&name)
                .cloned()
                .unwrap_or_else(|| PathBuf::from(format!("templates/{name}")));
            Error::invalid(path, "template", error_chain(&e))
        })?;
        // tera rendered a built-in template the faster road reads but gave up on: a case it
        // should know (a host's own template may use what it leaves to tera)
        debug_assert!(
            fast.is_none() || !compiled.sources.is_empty(),
            "{name}: fast::render gave up on a built-in template tera rendered"
        );
        Ok(tidy(&text))
    }
}

/// Trailing spaces removed (but for the signature separator), at most one blank line in a row, exactly one final newline.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = true; // also drops leading blank lines
    for line in text.lines() {
        // "-- " is the signature separator mail clients look for: keep its space.
        let line = if line == "-- " { line } else { line.trim_end() };
        if line.is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
        } else {
            out.push_str(line);
            out.push('\n');
            blank = false;
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// A fixed set of templates (`builtin`: name and source), each replaced by the file of the same
/// name in `overrides` when there is one: the site's pages and the season reports. An error
/// names the host's file (or the folder, when every template is built in).
pub fn fixed_templates(builtin: &[(&str, &str)], overrides: &Path) -> Result<Tera> {
    let mut tera = Tera::default();
    let mut sources = Vec::new();
    let mut local = Vec::new();
    for (name, text) in builtin {
        let path = overrides.join(name);
        match crate::game_dir::read_optional(&path)? {
            Some(text) => {
                local.push(path);
                sources.push((*name, text));
            }
            None => sources.push((*name, text.to_string())),
        }
    }
    precompiled::add_templates(&mut tera, sources).map_err(|e| {
        let path = local
            .first()
            .cloned()
            .unwrap_or_else(|| overrides.to_path_buf());
        Error::invalid(path, "template", error_chain(&e))
    })?;
    Ok(tera)
}

/// Renders template `name` of a `fixed_templates` set.
pub fn render_fixed(tera: &Tera, name: &str, ctx: &tera::Context) -> Result<String> {
    tera.render(name, ctx)
        .map_err(|e| Error::invalid(name, "template", error_chain(&e)))
}

pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// `{{ id | name }}`: a player's display name (the id itself if unknown).
struct NameFilter {
    names: Arc<BTreeMap<String, String>>,
}

impl tera::Filter for NameFilter {
    fn filter(
        &self,
        value: &tera::Value,
        _: &HashMap<String, tera::Value>,
    ) -> tera::Result<tera::Value> {
        let id = value
            .as_str()
            .ok_or_else(|| tera::Error::msg("name expects a player id"))?;
        Ok(tera::Value::String(
            self.names.get(id).cloned().unwrap_or_else(|| id.to_owned()),
        ))
    }
}

/// `{{ text | wrap(width=72, indent="  ") }}`: fills words into lines of at most `width` columns;
/// the first line keeps the text's leading spaces, lines after it start with `indent`.
pub(crate) fn wrap_filter(
    value: &tera::Value,
    args: &HashMap<String, tera::Value>,
) -> tera::Result<tera::Value> {
    let text = value
        .as_str()
        .ok_or_else(|| tera::Error::msg("wrap expects a string"))?;
    let width = args
        .get("width")
        .and_then(tera::Value::as_u64)
        .unwrap_or(72) as usize;
    let indent = args
        .get("indent")
        .and_then(tera::Value::as_str)
        .unwrap_or("");
    Ok(tera::Value::String(wrap(text, width, indent)))
}

pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut lines = Vec::new();
    // The first line keeps the text's own leading spaces (an item indented in a list).
    let lead = &text[..text.len() - text.trim_start_matches(' ').len()];
    let mut line = lead.to_owned();
    let mut fresh = true; // no word on this line yet
    for word in text.split_whitespace() {
        if !fresh && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
            line.push_str(indent);
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    lines.push(line);
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_the_first_lines_indent() {
        assert_eq!(
            wrap("  Bob gave 2 wine to Carol.", 16, "    "),
            "  Bob gave 2\n    wine to\n    Carol."
        );
    }

    #[test]
    fn wrap_fills_lines_and_indents_continuations() {
        let text = "Send a new version with an allowed room before the deadline, or a random room is used.";
        let wrapped = wrap(text, 30, "  ");
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 30),
            "{wrapped}"
        );
        assert!(
            wrapped
                .lines()
                .skip(1)
                .all(|l| l.starts_with("  ") && !l.starts_with("   "))
        );
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            text.split_whitespace().collect::<Vec<_>>()
        );
    }

    #[test]
    fn tidy_collapses_blank_lines() {
        assert_eq!(tidy("\n\na  \n\n\n\nb\n\n"), "a\n\nb\n");
    }
}
