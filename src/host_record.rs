//! `rounds/NNN/host.toml`: the host's actions taken while round NNN was current (spec README,
//! "Host actions"), one `[[action]]` each, append-only, written before anything the action causes.
//! Read as strictly as every host file: a hand edit into nonsense is an error naming the key.
//!
//! What an action changes that the rules' results depend on is only the schedule: the deadline it
//! sets (`extend`, `resume`) and whether the round may resolve (`pause`). `GameContext` reads
//! every round's record once and answers "what is the deadline of the round at index i, as known
//! when round j was resolved" from it, so `replay` sees each action where it happened.

use crate::error::{Error, Result};
use crate::game_dir::{GameDir, read_optional, write_atomic};
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What the host did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Extend,
    Pause,
    Resume,
    Announce,
    Remind,
    /// A version entered by the host for a player who sent it another way.
    Enter,
    /// The last resolved round's results withdrawn; the round resolves again.
    Undo,
    /// A player leaves the game: from the resolution of the round it was taken in, the game's
    /// ruling for a seat that leaves applies (`Game::withdraw`).
    Withdraw,
    /// A new person takes over a seat (`person`), from the person who held it (`left`).
    Substitute,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Extend => "extend",
            Kind::Pause => "pause",
            Kind::Resume => "resume",
            Kind::Announce => "announce",
            Kind::Remind => "remind",
            Kind::Enter => "enter",
            Kind::Undo => "undo",
            Kind::Withdraw => "withdraw",
            Kind::Substitute => "substitute",
        }
    }

    /// Whether the action names a player (`player`).
    pub fn names_player(self) -> bool {
        matches!(self, Kind::Enter | Kind::Withdraw | Kind::Substitute)
    }
}

/// One `[[action]]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// 1, 2, … within the round.
    pub n: u32,
    /// When it was taken (the clock or `--now`), RFC 3339.
    pub at: String,
    pub kind: Kind,
    /// The schedule index of the round it was taken in (rounds resolved before it).
    pub index: u32,
    /// The round's deadline from now on (`extend`, `resume`), RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// The deadline it replaced, for the notice and the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub was: Option<String>,
    /// An announcement's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The player a version was entered for (`enter`), who left (`withdraw`) or whose seat
    /// changed hands (`substitute`); when an entered version was sent (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<crate::player_id::PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<String>,
    /// The round whose results an undo withdrew (its folder holds them in `withdrawn-K/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// `substitute`: the person who takes the seat over, and the one who held it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<Person>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<Person>,
    pub reason: String,
}

/// Who holds a seat: what game.toml says of them (the seat's id stays).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Person {
    pub name: String,
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat: Option<String>,
}

impl Action {
    /// The next action of the round at schedule index `index`, given every action so far:
    /// numbered after that round's others, taken `now`, nothing else set.
    pub fn next(
        actions: &[Action],
        kind: Kind,
        index: u32,
        now: Timestamp,
        reason: &str,
    ) -> Action {
        Action {
            n: actions.iter().filter(|a| a.index == index).count() as u32 + 1,
            at: crate::clock::rfc3339(now),
            kind,
            index,
            deadline: None,
            was: None,
            text: None,
            player: None,
            sent: None,
            round: None,
            person: None,
            left: None,
            reason: reason.trim().to_owned(),
        }
    }

    pub fn at(&self) -> Timestamp {
        self.at.parse().expect("checked on load")
    }

    pub fn deadline(&self) -> Option<Timestamp> {
        self.deadline
            .as_deref()
            .map(|d| d.parse().expect("checked on load"))
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    action: Vec<Action>,
}

/// The longest reason or announcement a record takes (a notice is mail, not a document).
pub const MAX_TEXT: usize = 64 * 1024;

/// The actions of one round's record, checked: numbered 1, 2, … in order, times in order, every
/// time RFC 3339, what each kind needs present.
pub fn load(path: &Path) -> Result<Vec<Action>> {
    let Some(text) = read_optional(path)? else {
        return Ok(Vec::new());
    };
    let file: File = crate::host_file::parse(path, &text)?;
    let mut last: Option<Timestamp> = None;
    for (i, a) in file.action.iter().enumerate() {
        let bad = |key: &str, message: String| {
            Error::invalid(path, format!("action[{i}].{key}"), message)
        };
        if a.n as usize != i + 1 {
            return Err(bad(
                "n",
                format!(
                    "is {}; actions are numbered 1, 2, … in order (expected {})",
                    a.n,
                    i + 1
                ),
            ));
        }
        let at = crate::clock::parse_instant(&a.at).map_err(|m| bad("at", m))?;
        if last.is_some_and(|l| at < l) {
            return Err(bad(
                "at",
                "is before the action above it; actions are recorded in the order taken".into(),
            ));
        }
        last = Some(at);
        for (key, value) in [("deadline", &a.deadline), ("was", &a.was)] {
            if let Some(v) = value {
                crate::clock::parse_instant(v).map_err(|m| bad(key, m))?;
            }
        }
        match (a.kind, a.deadline.is_some()) {
            (Kind::Extend, false) => {
                return Err(bad(
                    "deadline",
                    "is missing: an extend sets the round's deadline".into(),
                ));
            }
            (
                Kind::Pause
                | Kind::Announce
                | Kind::Remind
                | Kind::Enter
                | Kind::Undo
                | Kind::Withdraw
                | Kind::Substitute,
                true,
            ) => {
                return Err(bad(
                    "deadline",
                    format!("is not taken by a {}", a.kind.name()),
                ));
            }
            _ => {}
        }
        if (a.kind == Kind::Undo) != a.round.is_some() {
            return Err(bad(
                "round",
                "an undo, and only an undo, names the round it withdrew".into(),
            ));
        }
        if a.kind.names_player() != a.player.is_some() {
            return Err(bad(
                "player",
                "an enter, a withdraw and a substitute, and only these, name the player".into(),
            ));
        }
        let substitute = a.kind == Kind::Substitute;
        if substitute != a.person.is_some() || substitute != a.left.is_some() {
            return Err(bad(
                "person",
                "a substitute, and only a substitute, names the person who takes the seat (`person`) and the one who leaves it (`left`)".into(),
            ));
        }
        if let Some(p) = a.person.as_ref().filter(|p| p.name.trim().is_empty()) {
            return Err(bad(
                "person.name",
                format!("is empty (email {:?})", p.email),
            ));
        }
        if let Some(sent) = &a.sent {
            crate::clock::parse_instant(sent).map_err(|m| bad("sent", m))?;
        }
        if (a.kind == Kind::Announce) != a.text.is_some() {
            return Err(bad(
                "text",
                "an announcement, and only an announcement, has a text".into(),
            ));
        }
        if a.reason.trim().is_empty() && a.kind != Kind::Announce {
            return Err(bad(
                "reason",
                "must say why (it goes into the notice)".into(),
            ));
        }
    }
    Ok(file.action)
}

/// Every round's actions, in round order (a round folder without a record has none).
pub fn load_all(dir: &GameDir) -> Result<Vec<Action>> {
    let mut all = Vec::new();
    for round in dir.round_numbers()? {
        all.extend(load(&dir.host_toml(round))?);
    }
    Ok(all)
}

/// Appends `action` to round `round`'s record (temp file + rename), before it takes effect.
pub fn append(dir: &GameDir, round: u32, action: &Action) -> Result<()> {
    let path = dir.host_toml(round);
    let mut actions = load(&path)?;
    actions.push(action.clone());
    let mut text = String::from(
        "# The host's actions in this round (extend, pause, resume, announce, remind, enter,\n\
         # undo, withdraw, substitute), written by adjudicate and replayed. Do not edit.\n",
    );
    text.push_str(&toml::to_string(&File { action: actions }).expect("records serialize"));
    crate::game_dir::create_dir(&dir.round(round))?;
    write_atomic(&path, text.as_bytes())
}
