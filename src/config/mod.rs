//! `game.toml` and `secrets.toml`: what the host wrote. Loading checks everything that can be
//! checked without the game's rules; every error names the file and the key (and the line when the
//! TOML itself is wrong). Nothing here writes to disk.

mod schedule;

pub use schedule::Schedule;

use crate::clock;
use crate::error::{Error, Result};
use crate::games::{Extra, GameId, Seat};
use crate::player_id::PlayerId;
use jiff::tz::TimeZone;
use schedule::{RawSchedule, parse_schedule};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct GameConfig {
    pub game: GameId,
    pub title: String,
    pub seed: u64,
    pub schedule: Option<Schedule>,
    pub mail: MailConfig,
    pub players: Vec<PlayerConfig>,
    pub options: toml::Table,
    /// Position of each player in `players`, for lookups in large games.
    index: BTreeMap<PlayerId, usize>,
}

#[derive(Debug, Clone)]
pub struct PlayerConfig {
    pub id: PlayerId,
    pub name: String,
    pub email: Option<String>,
    pub chat: Option<String>,
    pub garnets: i64,
    /// Tokens of Life carried into this game (a season's match; `season match` writes it): a
    /// player holding one cannot be picked for the Death Match.
    pub tokens_of_life: u32,
    /// Game-specific set-up keys (e.g. God Race `meadow`), checked by the engine.
    pub extra: Extra,
    /// The player's own time zone (`tz = "America/New_York"`): every time they read is in it.
    pub tz: Option<TimeZone>,
}

impl PlayerConfig {
    /// The player as the rules see them at set-up.
    pub fn seat(&self) -> Seat<'_> {
        Seat {
            id: &self.id,
            garnets: self.garnets,
            tokens_of_life: self.tokens_of_life,
            extra: &self.extra,
        }
    }
}

/// Every player as the rules see them at set-up, in game.toml's order.
pub fn seats(players: &[PlayerConfig]) -> Vec<Seat<'_>> {
    players.iter().map(PlayerConfig::seat).collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// No mail at all: reports are only written into the game directory.
    None,
    /// Each message is written as an .eml file into `outbox/` and moved to `sent/` by the send step.
    File,
    /// Messages in `outbox/` are sent to an SMTP server, then moved to `sent/`.
    Smtp(SmtpConfig),
    /// Messages in `outbox/` are piped to a sendmail-compatible command, then moved to `sent/`.
    Sendmail { command: PathBuf },
}

impl Transport {
    /// Whether messages are queued in `outbox/` at all.
    pub fn queues(&self) -> bool {
        *self != Transport::None
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain SMTP upgraded with STARTTLS (refused if the server does not offer it).
    Starttls,
    /// TLS from the first byte (SMTPS, usually port 465).
    Tls,
    /// No encryption: only for a server on the same machine.
    None,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: Option<String>,
    pub timeout: std::time::Duration,
    /// An extra root certificate (PEM) to trust, for a server with a private CA.
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub struct MailConfig {
    pub from: Option<String>,
    pub reply_to: Option<String>,
    /// A list address that receives the public announcement once, instead of every player.
    pub public_to: Option<String>,
    /// Without `public_to`, the announcement goes to the players by Bcc, this many per message.
    pub bcc_batch: usize,
    pub transport: Transport,
    /// The host's own address (`host = "Host <host@example.org>"`): a digest after a tick that
    /// needs the host (mail not used, late versions, players at the missed limit, mail refused).
    pub host: Option<String>,
}

/// `mail.bcc_batch` when not set: under the recipient limits of common providers (Gmail allows
/// 100 per message, many ISPs 50).
pub const DEFAULT_BCC_BATCH: usize = 50;
const MAX_BCC_BATCH: usize = 500;

/// The most Tokens of Life a player may hold (far above any real season).
pub const MAX_TOKENS: i64 = 100;

#[derive(Debug, Clone, Default)]
pub struct Secrets {
    pub tokens: BTreeMap<PlayerId, String>,
    /// Every token, to keep them out of what the tool writes.
    pub redactor: crate::redact::Redactor,
    /// From secrets.toml `smtp_password`; `ADJUDICATE_SMTP_PASSWORD` overrides it.
    pub smtp_password: Option<String>,
}

// ---- the raw file formats -------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    game: String,
    title: String,
    seed: u64,
    schedule: Option<RawSchedule>,
    mail: Option<RawMail>,
    #[serde(default)]
    players: Vec<RawPlayer>,
    #[serde(default)]
    options: toml::Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMail {
    from: Option<String>,
    reply_to: Option<String>,
    public_to: Option<String>,
    bcc_batch: Option<i64>,
    host: Option<String>,
    #[serde(default = "default_transport")]
    transport: String,
    smtp: Option<RawSmtp>,
    sendmail: Option<RawSendmail>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSmtp {
    host: String,
    port: Option<u16>,
    security: Security,
    username: Option<String>,
    timeout: Option<String>,
    ca_file: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSendmail {
    command: PathBuf,
}

fn default_transport() -> String {
    "none".into()
}

#[derive(Deserialize)]
pub(crate) struct RawPlayer {
    id: PlayerId,
    name: Option<String>,
    email: Option<String>,
    chat: Option<String>,
    #[serde(default)]
    garnets: i64,
    #[serde(default)]
    tokens_of_life: i64,
    tz: Option<String>,
    #[serde(flatten)]
    extra: Extra,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecrets {
    smtp_password: Option<String>,
    #[serde(default)]
    tokens: BTreeMap<String, String>,
}

/// The `[[players]]` of game.toml (or the cast of season.toml), each problem pushed to `errors`
/// with its key: ids unique, mail addresses valid, one email and one chat handle per player,
/// balances in range.
pub(crate) fn parse_players(
    path: &Path,
    raw: Vec<RawPlayer>,
    errors: &mut Vec<Error>,
) -> Vec<PlayerConfig> {
    let bad = |key: &str, msg: String| Error::invalid(path, key, msg);
    let mut seen = BTreeSet::new();
    // Mail and chat are mapped to players by address and handle: two players sharing one
    // would get each other's reports and have each other's messages filed as theirs.
    let mut emails: BTreeMap<String, PlayerId> = BTreeMap::new();
    let mut handles: BTreeMap<String, PlayerId> = BTreeMap::new();
    let mut players = Vec::with_capacity(raw.len());
    for (i, p) in raw.into_iter().enumerate() {
        let key = format!("players[{i}]");
        if !seen.insert(p.id.clone()) {
            errors.push(bad(
                &format!("{key}.id"),
                format!("player id `{}` appears twice", p.id),
            ));
        }
        if let Some(Err(e)) = p.email.as_ref().map(|e| e.parse::<lettre::Address>()) {
            errors.push(bad(
                &format!("{key}.email"),
                format!(
                    "`{}` is not a mail address ({e})",
                    p.email.as_deref().unwrap_or_default()
                ),
            ));
        }
        for (field, value, owners) in [
            ("email", &p.email, &mut emails),
            ("chat", &p.chat, &mut handles),
        ] {
            let Some(value) = value else { continue };
            if let Some(other) = owners.insert(value.trim().to_lowercase(), p.id.clone()) {
                errors.push(bad(
                    &format!("{key}.{field}"),
                    format!(
                        "`{value}` is the {field} of both `{other}` and `{}`; each player needs their own, or mail and reports would go to the wrong player",
                        p.id
                    ),
                ));
            }
        }
        if let Err(m) = crate::games::check_garnets(p.garnets) {
            errors.push(bad(&format!("{key}.garnets"), m));
        }
        let tz = match p.tz.as_deref().map(clock::zone).transpose() {
            Ok(tz) => tz,
            Err(m) => {
                errors.push(bad(&format!("{key}.tz"), m));
                None
            }
        };
        if !(0..=MAX_TOKENS).contains(&p.tokens_of_life) {
            errors.push(bad(
                &format!("{key}.tokens_of_life"),
                format!("is {}; from 0 to {MAX_TOKENS}", p.tokens_of_life),
            ));
        }
        players.push(PlayerConfig {
            name: p.name.unwrap_or_else(|| p.id.to_string()),
            id: p.id,
            email: p.email,
            chat: p.chat,
            garnets: p.garnets,
            tokens_of_life: p.tokens_of_life.clamp(0, MAX_TOKENS) as u32,
            extra: p.extra,
            tz,
        });
    }
    players
}

impl GameConfig {
    /// The game's time zone (`[schedule] tz`): what public texts and players without their own
    /// read times in; `None`: UTC.
    pub fn zone(&self) -> Option<&TimeZone> {
        self.schedule.as_ref().and_then(|s| s.zone.as_ref())
    }

    /// `players` grouped by the zone of their own they read times in (`None`: none, the game's
    /// zone), in the order given: the game's zone first, then each other zone in order of first
    /// appearance. Public texts go out one Bcc batch per zone.
    pub fn by_zone(
        &self,
        players: impl IntoIterator<Item = PlayerId>,
    ) -> Vec<(Option<&TimeZone>, Vec<PlayerId>)> {
        let mut groups: Vec<(Option<&TimeZone>, Vec<PlayerId>)> = vec![(None, Vec::new())];
        for id in players {
            let own = self.player(&id).and_then(|p| p.tz.as_ref());
            match groups.iter_mut().find(|(z, _)| *z == own) {
                Some((_, ids)) => ids.push(id),
                None => groups.push((own, vec![id])),
            }
        }
        groups
    }

    /// The time zone `player` reads times in: their own, else the game's.
    pub fn zone_of(&self, player: &PlayerId) -> Option<&TimeZone> {
        self.player(player)
            .and_then(|p| p.tz.as_ref())
            .or_else(|| self.zone())
    }

    /// Reads game.toml. A syntax or type error stops the reading at once; past that, every
    /// problem of the file is reported together, each with its key and line:col.
    pub fn parse(path: &Path, text: &str) -> Result<GameConfig> {
        let raw: RawGame = crate::host_file::parse(path, text)?;
        let mut errors: Vec<Error> = Vec::new();
        let bad = |key: &str, msg: String| Error::invalid(path, key, msg);
        let game = GameId::parse(&raw.game);
        if game.is_none() {
            errors.push(bad(
                "game",
                format!(
                    "unknown game `{}`; one of {}",
                    raw.game,
                    GameId::all_names().join(", ")
                ),
            ));
        }
        if raw.title.trim().is_empty() {
            errors.push(bad("title", "must not be empty".into()));
        }
        // TOML integers are signed 64-bit: a larger seed would be written into state.toml and
        // refused there at the next tick.
        if raw.seed > i64::MAX as u64 {
            errors.push(bad(
                "seed",
                format!(
                    "is {}; a seed is a whole number from 0 to {}",
                    raw.seed,
                    i64::MAX
                ),
            ));
        }
        let schedule = raw
            .schedule
            .map(|s| parse_schedule(path, s))
            .transpose()
            .unwrap_or_else(|e| {
                errors.push(e);
                None
            });
        let mail = parse_mail(path, raw.mail).map_err(|e| errors.push(e)).ok();
        if raw.players.is_empty() {
            errors.push(bad(
                "players",
                "at least one [[players]] entry is needed".into(),
            ));
        }
        let players = parse_players(path, raw.players, &mut errors);
        let (Some(game), Some(mail), true) = (game, mail, errors.is_empty()) else {
            return Err(Error::several(
                errors
                    .into_iter()
                    .map(|e| crate::host_file::placed(e, text))
                    .collect(),
            ));
        };
        let index = players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        Ok(GameConfig {
            game,
            title: raw.title,
            seed: raw.seed,
            schedule,
            mail,
            players,
            options: raw.options,
            index,
        })
    }

    pub fn player(&self, id: &PlayerId) -> Option<&PlayerConfig> {
        self.index.get(id).map(|i| &self.players[*i])
    }

    /// The players in id order (`players` is in the roster's).
    pub fn players_by_id(&self) -> impl Iterator<Item = &PlayerConfig> {
        self.index.values().map(|i| &self.players[*i])
    }

    /// The player a command line names (`bob`), if the game has them.
    pub fn known_player(&self, text: &str) -> Option<PlayerId> {
        PlayerId::named(text).filter(|id| self.player(id).is_some())
    }

    /// Why `text` names nobody, listing who the game has.
    pub fn not_a_player(&self, text: &str) -> String {
        let ids: Vec<&str> = self.players.iter().map(|p| p.id.as_str()).collect();
        format!("`{text}` is not a player of this game ({})", ids.join(", "))
    }

    pub fn player_ids(&self) -> Vec<PlayerId> {
        self.players.iter().map(|p| p.id.clone()).collect()
    }
}

/// `[mail.smtp]`, required with `transport = "smtp"`; `ca_file` is relative to game.toml.
fn parse_smtp(path: &Path, smtp: Option<RawSmtp>) -> Result<SmtpConfig> {
    let bad = |key: &str, msg: String| Error::invalid(path, format!("mail.{key}"), msg);
    let smtp = smtp.ok_or_else(|| {
        bad(
            "smtp",
            "is required with transport = \"smtp\" (host, port, security)".into(),
        )
    })?;
    if smtp.host.trim().is_empty() {
        return Err(bad("smtp.host", "must not be empty".into()));
    }
    let timeout = match &smtp.timeout {
        Some(t) => clock::parse_duration(t)
            .map_err(|m| bad("smtp.timeout", m))?
            .unsigned_abs(),
        None => std::time::Duration::from_secs(30),
    };
    let ca_file = smtp
        .ca_file
        .map(|f| path.parent().unwrap_or(Path::new(".")).join(f));
    if let Some(f) = &ca_file
        && !f.is_file()
    {
        return Err(bad(
            "smtp.ca_file",
            format!("{} is not a file", f.display()),
        ));
    }
    Ok(SmtpConfig {
        port: smtp.port.unwrap_or(match smtp.security {
            Security::Tls => 465,
            Security::Starttls => 587,
            Security::None => 25,
        }),
        host: smtp.host,
        security: smtp.security,
        username: smtp.username,
        timeout,
        ca_file,
    })
}

pub(crate) fn parse_mail(path: &Path, raw: Option<RawMail>) -> Result<MailConfig> {
    let Some(raw) = raw else {
        return Ok(MailConfig {
            from: None,
            reply_to: None,
            public_to: None,
            bcc_batch: DEFAULT_BCC_BATCH,
            transport: Transport::None,
            host: None,
        });
    };
    let bad = |key: &str, msg: String| Error::invalid(path, format!("mail.{key}"), msg);
    let transport = match raw.transport.as_str() {
        "none" => Transport::None,
        "file" => Transport::File,
        "smtp" => Transport::Smtp(parse_smtp(path, raw.smtp)?),
        "sendmail" => Transport::Sendmail {
            command: raw
                .sendmail
                .map_or_else(|| PathBuf::from("/usr/sbin/sendmail"), |s| s.command),
        },
        other => {
            return Err(bad(
                "transport",
                format!("`{other}` is not one of none, file, smtp, sendmail"),
            ));
        }
    };
    for (key, value) in [
        ("from", &raw.from),
        ("reply_to", &raw.reply_to),
        ("public_to", &raw.public_to),
        ("host", &raw.host),
    ] {
        if let Some(v) = value {
            v.parse::<lettre::message::Mailbox>().map_err(|e| {
                bad(
                    key,
                    format!("`{v}` is not a mailbox like \"Host <host@example.org>\" ({e})"),
                )
            })?;
        }
    }
    if transport.queues() && raw.from.is_none() {
        return Err(bad("from", "is required when mail is sent".into()));
    }
    let bcc_batch = match raw.bcc_batch {
        None => DEFAULT_BCC_BATCH,
        Some(n) if (1..=MAX_BCC_BATCH as i64).contains(&n) => n as usize,
        Some(n) => {
            return Err(bad(
                "bcc_batch",
                format!(
                    "is {n}; it must be 1 to {MAX_BCC_BATCH} (players per announcement message)"
                ),
            ));
        }
    };
    Ok(MailConfig {
        from: raw.from,
        reply_to: raw.reply_to,
        public_to: raw.public_to,
        bcc_batch,
        transport,
        host: raw.host,
    })
}

/// Tokens are redacted wherever they appear, so a short or common one would blank out ordinary
/// words; quotes, spaces and backslashes would need escaping in the player's `token = "…"` line.
const MIN_TOKEN_CHARS: usize = 6;

fn check_token(token: &str) -> std::result::Result<(), String> {
    if token.chars().count() < MIN_TOKEN_CHARS {
        return Err(format!(
            "must be at least {MIN_TOKEN_CHARS} characters (a token is a secret, and is blanked out wherever it appears)"
        ));
    }
    if let Some(c) = token
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '\\'))
    {
        return Err(format!(
            "must not contain {c:?}: use letters, digits and - _ . + / = ~"
        ));
    }
    Ok(())
}

impl Secrets {
    /// The secrets of the game in `root`: its own secrets.toml, over its season's when the game
    /// is a season's match (`SEASON/matches/NN-game/`): a token is the person's for the whole
    /// season, so every match requires it; a match's own file may add or override one. Every
    /// season token is kept out of what the match writes, whoever plays in it.
    pub fn load(root: &Path, config: &GameConfig) -> Result<Secrets> {
        let mut secrets = Secrets::default();
        let mut everyone: Vec<String> = Vec::new();
        let season = root
            .parent()
            .filter(|m| m.file_name().is_some_and(|n| n == "matches"))
            .and_then(Path::parent)
            .filter(|s| s.join("season.toml").is_file());
        if let Some(season) = season {
            let path = season.join("secrets.toml");
            if let Some(text) = crate::game_dir::read_optional(&path)? {
                let raw: RawSecrets = crate::host_file::parse(&path, &text)?;
                for (id, token) in raw.tokens {
                    let key = format!("tokens.{id}");
                    let player = PlayerId::parse(&id)
                        .ok_or_else(|| Error::invalid(&path, &key, "not a player id"))?;
                    check_token(&token).map_err(|m| Error::invalid(&path, &key, m))?;
                    everyone.push(token.clone());
                    if config.player(&player).is_some() {
                        secrets.tokens.insert(player, token);
                    }
                }
                secrets.smtp_password = raw.smtp_password;
            }
        }
        let path = root.join("secrets.toml");
        if let Some(text) = crate::game_dir::read_optional(&path)? {
            let own = Secrets::parse(&path, &text, config)?;
            everyone.extend(own.tokens.values().cloned());
            secrets.tokens.extend(own.tokens);
            secrets.smtp_password = own.smtp_password.or(secrets.smtp_password);
        }
        let mut seen: BTreeMap<&str, &PlayerId> = BTreeMap::new();
        for (id, token) in &secrets.tokens {
            if let Some(other) = seen.insert(token, id) {
                return Err(Error::invalid(
                    &path,
                    format!("tokens.{id}"),
                    format!(
                        "is the same as the token of `{other}` (with the season's secrets.toml); every player needs their own"
                    ),
                ));
            }
        }
        everyone.extend(secrets.tokens.values().cloned());
        secrets.redactor = crate::redact::Redactor::new(everyone.iter().map(String::as_str));
        Ok(secrets)
    }

    pub fn parse(path: &Path, text: &str, config: &GameConfig) -> Result<Secrets> {
        let raw: RawSecrets = crate::host_file::parse(path, text)?;
        let mut tokens = BTreeMap::new();
        for (id, token) in raw.tokens {
            let player = PlayerId::parse(&id)
                .filter(|p| config.player(p).is_some())
                .ok_or_else(|| {
                    Error::invalid(path, format!("tokens.{id}"), "not a player of game.toml")
                })?;
            check_token(&token).map_err(|m| Error::invalid(path, format!("tokens.{id}"), m))?;
            if let Some((other, _)) = tokens.iter().find(|(_, t)| **t == token) {
                return Err(Error::invalid(
                    path,
                    format!("tokens.{id}"),
                    format!("is the same as the token of `{other}`; every player needs their own"),
                ));
            }
            tokens.insert(player, token);
        }
        Ok(Secrets {
            redactor: crate::redact::Redactor::new(tokens.values().map(String::as_str)),
            tokens,
            smtp_password: raw.smtp_password,
        })
    }
}
