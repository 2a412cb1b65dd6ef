//! The season's reports after each match: a public one (the match's winners, Tokens and
//! Elimination Candidates; every player's Tokens and who is out; never a garnet) and a private
//! one per player of the match (their own balance, what the match changed, their Tokens).
//! `season report` writes them once per finished match into `SEASON/reports/NN-<game>/`
//! (`public.txt` last, so a killed run is redone whole) and queues them as mail in
//! `SEASON/outbox/` with the season's mail settings; the send step is the games' own.

use super::SeasonDir;
use super::events::What;
use super::ledger::{Ledger, Match};
use crate::error::Result;
use crate::game_dir::GameDir;
use crate::mail::outbox::{Mail, MailKind, Recipient, addressees, batches, format_message};
use crate::plan::Plan;
use crate::player_id::PlayerId;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tera::Tera;

const BUILT_IN: &[(&str, &str)] = &[
    (
        "public.txt.tera",
        include_str!("../../templates/season/public.txt.tera"),
    ),
    (
        "private.txt.tera",
        include_str!("../../templates/season/private.txt.tera"),
    ),
];

#[derive(Serialize)]
struct SeasonView<'a> {
    title: &'a str,
}

#[derive(Serialize)]
struct MatchView {
    number: u32,
    title: String,
    winners: Vec<String>,
    tokens: Vec<TokenView>,
    elimination: Vec<String>,
}

#[derive(Serialize)]
struct TokenView {
    name: String,
    count: i64,
}

#[derive(Serialize)]
struct StandingView {
    name: String,
    pad: usize,
    tokens: i64,
    eliminated: bool,
}

#[derive(Serialize)]
struct PlayerView {
    name: String,
    garnets: i64,
    before: i64,
    change: i64,
    /// `-change`, for a match that cost garnets (tera has no unary minus).
    cost: i64,
    tokens: i64,
    won: i64,
    eliminated: Option<String>,
    candidate: bool,
}

/// The reports of one finished match.
pub struct Reports {
    pub public: String,
    pub private: BTreeMap<PlayerId, String>,
}

/// What `season report` did.
#[derive(Debug, Default)]
pub struct Published {
    /// The matches whose reports were written now.
    pub matches: Vec<String>,
    pub queued: usize,
    pub send: Option<crate::mail::SendReport>,
}

fn templates(overrides: &Path) -> Result<Tera> {
    let mut tera = crate::render::fixed_templates(BUILT_IN, overrides)?;
    tera.autoescape_on(Vec::new());
    tera.register_filter("wrap", crate::render::wrap_filter);
    Ok(tera)
}

/// The reports of match `m`, from the ledger.
pub fn render_match(ledger: &Ledger, m: &Match, tera: &Tera) -> Result<Reports> {
    let name = |id: &PlayerId| {
        ledger
            .config
            .player(id)
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    };
    let view = MatchView {
        number: m.number,
        title: game_name(m.game),
        winners: m.ending.winners.iter().map(name).collect(),
        tokens: m
            .ending
            .tokens
            .iter()
            .filter(|(_, n)| **n != 0)
            .map(|(id, n)| TokenView {
                name: name(id),
                count: *n,
            })
            .collect(),
        elimination: m.ending.elimination.iter().map(name).collect(),
    };
    let after = ledger.after(m.number);
    let width = after
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    let standings: Vec<StandingView> = after
        .iter()
        .map(|s| StandingView {
            name: s.name.clone(),
            pad: width - s.name.chars().count(),
            tokens: s.tokens,
            eliminated: s.eliminated.is_some(),
        })
        .collect();
    // garnet corrections are private: only eliminations, Death Matches and Tokens are public
    let events: Vec<String> = ledger
        .events
        .iter()
        .filter(|e| !matches!(e.what, What::Garnets { .. }))
        .map(|e| e.describe_with(&name))
        .collect();
    let season = SeasonView {
        title: &ledger.config.title,
    };
    let mut ctx = tera::Context::new();
    ctx.insert("season", &season);
    ctx.insert("match", &view);
    ctx.insert("standings", &standings);
    ctx.insert("events", &events);
    let public = crate::render::render_fixed(tera, "public.txt.tera", &ctx)?;

    let mut private = BTreeMap::new();
    for start in &m.players {
        let id = &start.id;
        let Some(s) = after.iter().find(|s| &s.id == id) else {
            continue;
        };
        let change = m.garnets.get(id).copied().unwrap_or(0);
        let player = PlayerView {
            name: s.name.clone(),
            garnets: s.garnets,
            before: start.garnets,
            change,
            cost: -change,
            tokens: s.tokens,
            won: m.ending.tokens.get(id).copied().unwrap_or(0),
            eliminated: s.eliminated.clone(),
            candidate: m.ending.elimination.contains(id),
        };
        let mut ctx = tera::Context::new();
        ctx.insert("season", &season);
        ctx.insert("match", &view);
        ctx.insert("player", &player);
        private.insert(
            id.clone(),
            crate::render::render_fixed(tera, "private.txt.tera", &ctx)?,
        );
    }
    Ok(Reports { public, private })
}

/// "God Race": a game's id as players read it.
fn game_name(game: crate::games::GameId) -> String {
    game.name()
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes temp files of a killed run from the folders `publish` writes into.
fn sweep(season: &SeasonDir) -> Result<usize> {
    let root = season.root();
    let mut folders = vec![root.to_path_buf(), root.join("outbox")];
    if let Ok(entries) = std::fs::read_dir(root.join("reports")) {
        for e in entries.filter_map(|e| e.ok()) {
            folders.push(e.path().join("private"));
            folders.push(e.path());
        }
    }
    crate::game_dir::sweep_temp_in(&folders)
}

fn reports_dir(season: &SeasonDir, m: &Match) -> PathBuf {
    season.root().join("reports").join(&m.folder)
}

/// Queues a finished match's season reports as mail (each only once: a message already in
/// outbox/, sent/ or failed/ is not queued again); returns how many were queued.
fn queue_reports(
    season: &SeasonDir,
    ledger: &Ledger,
    m: &Match,
    reports: &Reports,
    now: jiff::Timestamp,
    plan: &mut Plan,
) -> Result<usize> {
    let config = &ledger.config;
    let outbox_dir = GameDir::new(season.root());
    let game_key = format!("{}\0{}\0season", config.title, config.seed);
    let mut queued = 0;
    let subject = format!("{}: after Match {}", config.title, m.number);
    let mut queue = |to: Recipient, kind: MailKind, body: &str| -> Result<()> {
        let addressed = addressees(&to, &config.mail, &season.season_toml(), |id| {
            config.player(id)
        })?;
        let Some((target, bcc)) = addressed else {
            return Ok(());
        };
        let mail = Mail {
            round: m.number,
            kind,
            to,
            seq: 0,
            subject: subject.clone(),
            body: body.to_owned(),
            date: now,
            in_reply_to: None,
        };
        let file = mail.file_name();
        let known = [
            outbox_dir.outbox(),
            outbox_dir.sent(),
            season.root().join("failed"),
        ]
        .iter()
        .any(|d| d.join(&file).exists());
        if !known {
            plan.dir(outbox_dir.outbox());
            let bytes = format_message(&mail, &config.mail, &game_key, target, bcc)?;
            plan.new_file(outbox_dir.outbox().join(&file), bytes);
            queued += 1;
        }
        Ok(())
    };
    for (id, text) in &reports.private {
        queue(Recipient::Player(id.clone()), MailKind::Private, text)?;
    }
    let publics = match config.mail.public_to {
        Some(_) => vec![Recipient::List],
        None => {
            let with_mail: Vec<PlayerId> = config
                .cast
                .iter()
                .filter(|p| p.email.is_some())
                .map(|p| p.id.clone())
                .collect();
            batches(&with_mail, config.mail.bcc_batch, 1)
        }
    };
    for to in publics {
        queue(to, MailKind::Public, &reports.public)?;
    }
    Ok(queued)
}

/// Writes and queues the reports of every finished match that has none yet, then sends.
pub fn publish(season: &SeasonDir, now: jiff::Timestamp, send: bool) -> Result<Published> {
    // One run at a time writes the season's reports and outbox; what a killed one left
    // half-written goes first.
    let _lock = GameDir::new(season.root()).lock()?;
    sweep(season)?;
    let ledger = super::ledger::compute(season)?;
    let tera = templates(&season.root().join("templates").join("season"))?;
    let config = &ledger.config;
    let outbox_dir = GameDir::new(season.root());
    let mut published = Published::default();
    let mut plan = Plan::default();
    let mut last_steps = Vec::new();
    // a Death Match pick has its own reports; it changes nothing the season reports tell
    for m in ledger
        .matches
        .iter()
        .filter(|m| m.over && !m.game.is_season_round())
    {
        let folder = reports_dir(season, m);
        if folder.join("public.txt").is_file() {
            continue;
        }
        let reports = render_match(&ledger, m, &tera)?;
        plan.dir(folder.join("private"));
        for (id, text) in &reports.private {
            plan.file(
                folder.join("private").join(format!("{id}.txt")),
                text.clone(),
            );
        }
        if config.mail.transport.queues() {
            published.queued += queue_reports(season, &ledger, m, &reports, now, &mut plan)?;
        }
        // written last: a run killed before it writes this match's reports again
        last_steps.push((folder.join("public.txt"), reports.public));
        published.matches.push(m.folder.clone());
    }
    for (path, text) in last_steps {
        plan.file(path, text);
    }
    plan.commit()?;
    if send && config.mail.transport.queues() {
        let secrets = crate::config::Secrets {
            smtp_password: season_password(season)?,
            ..Default::default()
        };
        if let Some(sender) = crate::mail::Sender::new(&config.mail, &secrets)? {
            published.send = Some(crate::mail::send_outbox(&outbox_dir, &sender)?);
        }
    }
    Ok(published)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SeasonSecrets {
    smtp_password: Option<String>,
    /// Each person's token, for every match (read by `Secrets::load`).
    #[serde(default)]
    #[allow(dead_code)]
    tokens: std::collections::BTreeMap<String, String>,
}

/// `SEASON/secrets.toml` may hold `smtp_password` and `[tokens]` (never committed), like a
/// game's; the tokens hold in every match.
fn season_password(season: &SeasonDir) -> Result<Option<String>> {
    let path = season.root().join("secrets.toml");
    Ok(match crate::game_dir::read_optional(&path)? {
        Some(text) => crate::host_file::parse::<SeasonSecrets>(&path, &text)?.smtp_password,
        None => None,
    })
}
