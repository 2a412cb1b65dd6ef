//! `substitute`: a new person takes over a seat (spec README, "Host actions"). The seat keeps its
//! id, its place in the game and its hidden facts; what changes is who it belongs to. In order,
//! each step safe to repeat or to find half-done:
//! 1. the action is recorded in `rounds/NNN/host.toml`, naming the person who takes the seat and
//!    the one who leaves it (the tenures are read from these records);
//! 2. game.toml's player gets the newcomer's name, email and chat handle, edited in place (the
//!    host's comments and layout kept), and the seat a new token in secrets.toml if it had one;
//! 3. the game is loaded again and the action published like every host action: a public notice
//!    to every player, and to the newcomer alone a welcome holding every private text the seat
//!    received so far, in order, the new token, and the submission the seat owes now.
//!
//! A run killed after 1 leaves game.toml naming the person who left: the next command that acts
//! on the game (a tick, a lever) finishes 2 (`finish`), and the tick publishes 3 from the record.
//! Any other game.toml that contradicts the record is an error naming the seat
//! (`GameContext::check_tenures`).

use super::queue::Mailer;
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::games::Game;
use crate::host_record::{self, Action, Kind, Person};
use crate::mail::{Mail, MailKind, Recipient};
use crate::player_id::PlayerId;
use crate::render::{Kind as Template, TakeoverContext, Told};
use jiff::Timestamp;
use std::path::Path;

/// What `substitute` did, for its summary.
#[derive(Debug)]
pub struct Substituted {
    pub action: Action,
    pub round: u32,
    /// Whether the seat was given a new token.
    pub token: bool,
    pub done: super::host::Done,
}

/// Gives `seat` to `person`: checks, records, edits game.toml and secrets.toml, publishes.
pub fn substitute<G: Game>(
    ctx: &GameContext,
    seat: &str,
    person: Person,
    reason: &str,
    now: Timestamp,
    send: bool,
) -> Result<Substituted> {
    let usage = |m: String| Error::Usage(m);
    let file = super::host::set_up::<G>(ctx)?;
    let state = &file.game;
    let (round, index) = (G::round(state), G::rounds_played(state));
    if G::is_over(state) {
        return Err(usage("the game is over: no seat changes hands".into()));
    }
    let id = super::host::in_the_game(ctx, seat, "their seat is no longer played")?;
    if reason.trim().is_empty() {
        return Err(usage(
            "say why with --reason: it goes into the players' notice".into(),
        ));
    }
    check_person(ctx, &id, &person)?;
    let holder = ctx.config.player(&id).expect("checked above");
    let action = Action {
        player: Some(id.clone()),
        person: Some(person.clone()),
        left: Some(Person {
            name: holder.name.clone(),
            email: holder.email.clone(),
            chat: holder.chat.clone(),
        }),
        ..Action::next(&ctx.actions, Kind::Substitute, index, now, reason)
    };
    // what a killed run left half-written: under the lock, nobody else's
    ctx.dir.sweep_temp(&[round], false)?;
    // game.toml as it will be, checked before anything is recorded
    edited_game_toml(&ctx.dir.game_toml(), &id, &person)?;
    host_record::append(&ctx.dir, round, &action)?;
    crate::tick_cache::clear_idle(ctx.dir.root())?;
    let token = ctx.secrets.tokens.contains_key(&id);
    // the game as it is now: the newcomer's address, the new token, the action on record
    let ctx = finish(GameContext::load(ctx.dir.clone())?)?;
    let done = super::host::publish_recorded::<G>(&ctx, &action, round, send)?;
    Ok(Substituted {
        action,
        round,
        token,
        done,
    })
}

/// Carries out what the recorded substitutions of `ctx.unfinished` have not yet changed: a new
/// token in secrets.toml if the seat had one, then game.toml's player (in that order: once
/// game.toml names the newcomer, the token they will be told is already new). Every command
/// that acts on a game starts here, so a `substitute` killed after its record is finished by
/// the next command; the game is loaded again.
pub fn finish(ctx: GameContext) -> Result<GameContext> {
    if ctx.unfinished.is_empty() {
        return Ok(ctx);
    }
    for action in &ctx.unfinished {
        let (Some(id), Some(person)) = (&action.player, &action.person) else {
            continue;
        };
        if ctx.secrets.tokens.contains_key(id) {
            edit_secrets(&ctx.dir.secrets_toml(), id, &new_token()?)?;
        }
        let game_toml = edited_game_toml(&ctx.dir.game_toml(), id, person)?;
        crate::game_dir::write_atomic(&ctx.dir.game_toml(), game_toml.as_bytes())?;
    }
    GameContext::load(ctx.dir)
}

/// The newcomer is new to the game: a name, an address no other seat has (nor this one).
fn check_person(ctx: &GameContext, id: &PlayerId, person: &Person) -> Result<()> {
    let usage = |m: String| Err(Error::Usage(m));
    if person.name.trim().is_empty() {
        return usage("--name is empty".into());
    }
    let same = |a: &Option<String>, b: &Option<String>| {
        a.as_deref()
            .zip(b.as_deref())
            .is_some_and(|(a, b)| a.trim().eq_ignore_ascii_case(b.trim()))
    };
    for p in &ctx.config.players {
        let whose = if &p.id == id {
            "this seat's own".to_owned()
        } else {
            format!("{}'s", p.id)
        };
        if same(&p.email, &person.email) {
            return usage(format!(
                "{} is already {whose} address: the person who takes a seat over is new to the game",
                person.email.as_deref().unwrap_or_default()
            ));
        }
        if same(&p.chat, &person.chat) {
            return usage(format!(
                "chat handle {} is already {whose}",
                person.chat.as_deref().unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// game.toml with the seat's `name`, `email` and `chat` set to the newcomer's (a key the
/// newcomer has none of is removed), everything else as the host wrote it; checked as a loaded
/// game.toml is.
fn edited_game_toml(path: &Path, id: &PlayerId, person: &Person) -> Result<String> {
    let text = crate::game_dir::read_string(path)?;
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| Error::invalid(path, "", e.to_string()))?;
    let seat = doc
        .get_mut("players")
        .and_then(|p| p.as_array_of_tables_mut())
        .and_then(|players| {
            players
                .iter_mut()
                .find(|t| t.get("id").and_then(|v| v.as_str()) == Some(id.as_str()))
        })
        .ok_or_else(|| {
            Error::invalid(path, "players", format!("has no [[players]] id = \"{id}\""))
        })?;
    for (key, value) in [
        ("name", Some(&person.name)),
        ("email", person.email.as_ref()),
        ("chat", person.chat.as_ref()),
    ] {
        match value {
            Some(v) => {
                seat[key] = toml_edit::value(v.as_str());
            }
            None => {
                seat.remove(key);
            }
        }
    }
    let edited = doc.to_string();
    crate::config::GameConfig::parse(path, &edited)?;
    Ok(edited)
}

/// secrets.toml with `[tokens] <id>` set (the file and the table made if need be).
fn edit_secrets(path: &Path, id: &PlayerId, token: &str) -> Result<()> {
    let text = crate::game_dir::read_optional(path)?.unwrap_or_default();
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| Error::invalid(path, "", e.to_string()))?;
    let tokens = doc
        .entry("tokens")
        .or_insert(toml_edit::table())
        .as_table_mut()
        .ok_or_else(|| Error::invalid(path, "tokens", "is not a table"))?;
    tokens[id.as_str()] = toml_edit::value(token);
    crate::game_dir::write_atomic(path, doc.to_string().as_bytes())
}

/// A new token: 16 bytes from the operating system's generator, as 32 hex digits.
fn new_token() -> Result<String> {
    use std::io::Read;
    let path = Path::new("/dev/urandom");
    let mut bytes = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| Error::io(path, e))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The newcomer's welcome, to them alone (`host::publish` queues it with the public notice).
pub(super) fn welcome<G: Game>(
    mail: &mut Mailer<'_>,
    renderer: &crate::render::Renderer,
    state: &G::State,
    round: u32,
    action: &Action,
) -> Result<()> {
    let ctx = mail.ctx;
    let (Some(id), Some(left)) = (&action.player, &action.left) else {
        return Ok(());
    };
    let info = ctx.game_info(round, G::rounds_played(state), None);
    let info = ctx.info_for(&info, id);
    let context = TakeoverContext {
        game: &info,
        player: ctx.player_info(id),
        left: &left.name,
        reason: &action.reason,
        token: ctx.secrets.tokens.get(id).map(String::as_str),
        history: history(ctx, id)?,
        skeleton: crate::result_file::latest_skeleton(ctx, round, id),
    };
    let body = renderer.render(Template::Takeover, &context)?;
    mail.queue(Mail {
        round,
        kind: MailKind::Takeover,
        to: Recipient::Player(id.clone()),
        seq: action.n,
        subject: format!(
            "{}: welcome, you take over {}'s seat",
            ctx.config.title, left.name
        ),
        body,
        date: action.at(),
        in_reply_to: None,
    })
}

/// Every private text seat `id` was sent, in order: round by round, the answers to its versions
/// and the notices it got (the messages in `outbox/` and `sent/`, and the chat files), then the
/// round's private report.
fn history(ctx: &GameContext, id: &PlayerId) -> Result<Vec<Told>> {
    let mut history = Vec::new();
    for round in ctx.dir.round_numbers()? {
        let prefix = format!("r{round:03}-");
        let mut answers: Vec<(i64, String, Told)> = Vec::new();
        for folder in [ctx.dir.outbox(), ctx.dir.sent()] {
            for (name, path) in files(&folder) {
                let Some(kind) = answer_kind(&name, &prefix, id, ".eml") else {
                    continue;
                };
                let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
                let Some(message) = mail_parser::MessageParser::default().parse(&bytes) else {
                    continue;
                };
                let at = message.date().map_or(0, |d| d.to_timestamp());
                let subject = message.subject().unwrap_or(kind);
                let title = subject
                    .strip_prefix(&format!("{}: ", ctx.config.title))
                    .unwrap_or(subject);
                let text = message.body_text(0).unwrap_or_default();
                let told = told(title, &text);
                answers.push((at, name, told));
            }
        }
        for folder in [ctx.dir.chat_outbox(), ctx.dir.chat_sent()] {
            for (name, path) in files(&folder.join(id.as_str())) {
                let Some(kind) = answer_kind(&name, &prefix, id, ".txt").map(str::to_owned) else {
                    continue;
                };
                let text = crate::game_dir::read_string(&path)?;
                let at = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_secs() as i64);
                let told = told(&kind, &text);
                answers.push((at, name, told));
            }
        }
        answers.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let opening = ctx.dir.round(round).join("opening").join("private");
        let reports = [
            (
                opening.join(format!("{id}.txt")),
                "the game begins: your welcome",
            ),
            (ctx.dir.private(round, id), report_name(ctx, round)?),
        ];
        let mut reports = reports
            .into_iter()
            .filter_map(|(path, what)| {
                let text = std::fs::read_to_string(&path).ok()?;
                Some(told(&format!("round {round}, {what}"), &text))
            })
            .collect::<Vec<_>>();
        // the opening's welcome comes before anything answered in its round
        if reports.len() == 2 {
            history.push(reports.remove(0));
        }
        history.extend(answers.into_iter().map(|(_, _, t)| t));
        history.extend(reports);
    }
    Ok(history)
}

/// One message as the welcome quotes it: its title, and its text without the signature (every
/// message ends with the same one; the welcome has its own).
fn told(title: &str, text: &str) -> Told {
    let text = text.replace("\r\n", "\n");
    let text = crate::result_file::without_signature(&text);
    Told {
        title: title.to_owned(),
        text: text.to_owned(),
    }
}

/// The messages to one player that tell them something privately. (A takeover welcome is not
/// passed on: it holds the token of its time.)
const TOLD: &[MailKind] = &[
    MailKind::Ack,
    MailKind::Late,
    MailKind::Over,
    MailKind::Status,
    MailKind::Same,
    MailKind::Nothing,
    MailKind::Notice,
    MailKind::Reminder,
];

/// What a round's private report is: the welcome of an opening archived as its round (a result
/// that closed no round), else the round's report.
fn report_name(ctx: &GameContext, round: u32) -> Result<&'static str> {
    let meta = crate::result_meta::Meta::read(&ctx.dir.result(round))?;
    Ok(if meta.is_some_and(|m| m.opening || m.closed.is_none()) {
        "your welcome"
    } else {
        "your private report"
    })
}

/// The files of a folder, by name (none if it does not exist).
fn files(folder: &Path) -> Vec<(String, std::path::PathBuf)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
        .filter(|(_, p)| p.is_file())
        .collect();
    files.sort();
    files
}

/// The kind of a message file of round `prefix` to seat `id` that answers it privately (an
/// acknowledgement, a reminder, a notice…); reports and public texts are read from the rounds.
fn answer_kind<'n>(name: &'n str, prefix: &str, id: &PlayerId, ext: &str) -> Option<&'n str> {
    let rest = name.strip_prefix(prefix)?.strip_suffix(ext)?;
    let (kind, rest) = rest.split_once('-')?;
    let (to, seq) = rest.rsplit_once('-')?;
    let private = TOLD.iter().any(|k| k.name() == kind);
    (to == id.as_str() && seq.parse::<u32>().is_ok() && private).then_some(kind)
}
