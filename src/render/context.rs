//! The typed contexts templates are rendered with: what every template knows of the game and
//! the round (`GameInfo`), of the player (`PlayerInfo`), and each kind of message's own.

use serde::Serialize;
use std::borrow::Cow;

/// What every template knows about the game and the round.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    pub id: &'static str,
    pub title: String,
    pub round: u32,
    /// Human form, e.g. "Tue 2 Dec 15:00 UTC".
    pub deadline: Option<String>,
    pub next_round: Option<u32>,
    pub next_deadline: Option<String>,
    /// The host has paused the game (`adjudicate pause`): nothing resolves until it resumes.
    pub paused: bool,
    /// While paused, the time that was left of the round ("1 d 5 h"): the round resolves that
    /// long after the host resumes the game.
    pub paused_left: Option<String>,
    /// `deadline` and `next_deadline` as instants, to write them in a player's zone.
    #[serde(skip)]
    pub deadline_at: Option<jiff::Timestamp>,
    #[serde(skip)]
    pub next_deadline_at: Option<jiff::Timestamp>,
    /// The zone its times are written in (`None`: UTC).
    #[serde(skip)]
    pub zone: Option<jiff::tz::TimeZone>,
}

impl GameInfo {
    /// The same, with its times as a player in `zone` reads them.
    pub fn in_zone(&self, zone: Option<&jiff::tz::TimeZone>) -> GameInfo {
        let human = |t: Option<jiff::Timestamp>, text: &Option<String>| match t {
            Some(t) => Some(crate::clock::human_in(t, zone)),
            None => text.clone(),
        };
        GameInfo {
            deadline: human(self.deadline_at, &self.deadline),
            next_deadline: human(self.next_deadline_at, &self.next_deadline),
            zone: zone.cloned(),
            ..self.clone()
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerInfo {
    pub id: String,
    pub name: String,
    /// Whether the player's submissions must carry a token (skeletons then have a token line).
    pub token: bool,
}

#[derive(Serialize)]
pub struct PublicContext<'a> {
    pub game: &'a GameInfo,
    pub public: &'a crate::games::Public,
}

#[derive(Serialize)]
pub struct PrivateContext<'a> {
    pub game: &'a GameInfo,
    pub player: PlayerInfo,
    pub public: &'a toml::Table,
    pub private: &'a crate::games::PrivatePart,
    pub garnets: i64,
}

impl PrivateContext<'_> {
    /// The part every private report of a round shares (`game`, `public`), built once.
    pub fn shared(game: &GameInfo, public: &toml::Table) -> tera::Context {
        let mut ctx = tera::Context::new();
        ctx.insert("game", game);
        ctx.insert("public", public);
        ctx
    }

    /// One player's names over `shared` (`player`, `private`, `garnets`): the same names as
    /// serializing a `PrivateContext`, without copying the shared part (`Layered`).
    pub fn for_player<'a>(
        shared: &'a tera::Context,
        player: &PlayerInfo,
        private: &'a serde_json::Value,
        garnets: i64,
    ) -> Layered<'a> {
        let player = serde_json::to_value(player).expect("contexts serialize");
        Layered {
            shared,
            own: vec![
                ("player", Cow::Owned(player)),
                ("private", Cow::Borrowed(private)),
                ("garnets", Cow::Owned(garnets.into())),
            ],
        }
    }
}

/// A context in two layers: a few names of its own (a player's) over a part many contexts
/// share (a round's `game` and `public`), which is read where it is instead of copied.
pub struct Layered<'a> {
    pub shared: &'a tera::Context,
    pub own: Vec<(&'static str, Cow<'a, serde_json::Value>)>,
}

impl Layered<'_> {
    /// The one context tera reads: a copy of the shared part with the own names added.
    pub(super) fn merged(&self) -> tera::Context {
        let mut ctx = self.shared.clone();
        for (name, value) in &self.own {
            ctx.insert(*name, value.as_ref());
        }
        ctx
    }
}

#[derive(Serialize)]
pub struct AckContext<'a> {
    pub game: &'a GameInfo,
    pub player: PlayerInfo,
    pub version: u32,
    pub received_at: String,
    pub valid: bool,
    pub understood: &'a [String],
    pub problems: &'a [crate::problem::Problem],
    pub answers: &'a [String],
    pub if_not_fixed: Option<&'a str>,
    /// The sender's own text around the submission that was not read (a question to the host).
    pub ignored: &'a [String],
    /// Whether the sender plays this round: only then are new versions invited.
    pub plays: bool,
    /// How ingest read the message (several blocks, curly quotes, an answer in the quote …).
    pub notes: &'a [String],
    /// Where problem lines point: "of your message" when they are lines of the mail, not of the
    /// file.
    pub lines_of: &'a str,
    /// This tick resolves the round: no new version can count any more.
    pub closing: bool,
}

/// The reply to a version that reached the host after its round's deadline, or before it but
/// fetched after the round was resolved (`resolved_first`).
#[derive(Serialize)]
pub struct LateContext<'a> {
    pub game: &'a GameInfo,
    pub round: u32,
    pub arrived: String,
    pub deadline: String,
    pub resolved_first: bool,
}

/// The reply to a player's message after the game is over: when it reached the host, and their
/// last private report again.
#[derive(Serialize)]
pub struct OverContext<'a> {
    pub game: &'a GameInfo,
    pub arrived: String,
    pub report: Option<String>,
    pub report_round: Option<u32>,
}

/// The answer to `status` by mail: the player's latest version of the round (its text as
/// archived, its verdict), the deadline, and the skeleton to send.
#[derive(Serialize)]
pub struct StatusContext<'a> {
    pub game: &'a GameInfo,
    pub version: Option<u32>,
    pub received_at: Option<String>,
    pub valid: bool,
    pub late: bool,
    pub problems: Vec<String>,
    pub text: Option<String>,
    /// The time left before the deadline ("in 5 h 55 min").
    pub left: Option<String>,
    pub skeleton: Option<String>,
}

/// The reply to a message holding the very version already on file.
#[derive(Serialize)]
pub struct SameContext<'a> {
    pub game: &'a GameInfo,
    /// `None`: the version is on file but not yet acknowledged (its acknowledgement follows).
    pub version: Option<u32>,
    pub received_at: String,
}

/// The reply to a message in which no submission was found.
#[derive(Serialize)]
pub struct NothingContext<'a> {
    pub game: &'a GameInfo,
    pub subject: &'a str,
    pub received_at: String,
    /// "no submission found in your message"
    pub headline: &'a str,
    /// What we found and what to do (`ingest::Nothing::explain`).
    pub why: String,
    /// The first lines we read, as the player wrote them (tokens redacted).
    pub first_lines: &'a [String],
    /// The two submissions of an ambiguous message (body, attachment).
    pub body: Option<&'a str>,
    pub attachment: Option<&'a str>,
}

#[derive(Serialize)]
pub struct NoticeContext<'a> {
    pub game: &'a GameInfo,
    pub player: PlayerInfo,
    pub text: &'a str,
}

/// The notice of a host's action, the same for every player it goes to.
#[derive(Serialize)]
pub struct HostContext<'a> {
    pub game: &'a GameInfo,
    /// "extend", "pause", "resume", "announce".
    pub kind: &'static str,
    /// After the title on the first line: "round 3's deadline moved".
    pub heading: String,
    /// The round's deadline from now on, and the one it replaced (human form).
    pub deadline: Option<String>,
    pub was: Option<String>,
    /// A pause: the time that was left of the round ("1 d 2 h").
    pub left: Option<String>,
    /// An announcement's text, as the host wrote it.
    pub text: Option<&'a str>,
    pub reason: &'a str,
    /// `withdraw`: who leaves; `substitute`: who leaves the seat and who takes it over.
    pub player: Option<String>,
    pub newcomer: Option<String>,
    /// `withdraw`: what the game's rules do with a seat that leaves (`Game::SEAT_LEAVES`).
    pub seat_leaves: &'static str,
}

/// The welcome of a person who takes over a seat: everything the seat was told privately so
/// far, in order, and the submission it owes now.
#[derive(Serialize)]
pub struct TakeoverContext<'a> {
    pub game: &'a GameInfo,
    pub player: PlayerInfo,
    /// Who held the seat before.
    pub left: &'a str,
    pub reason: &'a str,
    /// The seat's new token (only this message ever holds it).
    pub token: Option<&'a str>,
    pub history: Vec<Told>,
    pub skeleton: Option<String>,
}

/// One private message the seat received.
#[derive(Serialize)]
pub struct Told {
    pub title: String,
    pub text: String,
}

/// The reply to a message whose token did not match: it names no player and no token.
#[derive(Serialize)]
pub struct RejectContext<'a> {
    pub game: &'a GameInfo,
    pub subject: &'a str,
    /// The token line was read and differs (else: there is none).
    pub mismatch: bool,
}

#[derive(Serialize)]
pub struct ReminderContext<'a> {
    pub game: &'a GameInfo,
    pub player: PlayerInfo,
    /// "in 3 h 0 min"
    pub time_left: String,
    /// Messages from the player this round in which no submission was found.
    pub unused: usize,
    /// The latest version received, if any, and its problems.
    pub version: Option<u32>,
    pub problems: &'a [String],
    pub if_not_fixed: String,
    /// The skeleton of the player's latest report, to send back edited.
    pub skeleton: Option<String>,
}
