//! A loaded game directory: game.toml, secrets.toml and the state file, read and checked once per
//! command. Also the per-round facts every command derives the same way (deadlines, the `game`
//! part of template contexts).

use crate::clock;
use crate::config::{GameConfig, Secrets};
use crate::error::{Error, Result};
use crate::game_dir::{GameDir, read_optional, read_string};
use crate::games::Game;
use crate::host_file::memo::Counts;
use crate::host_record::{Action, Kind as HostKind};
use crate::player_id::PlayerId;
use crate::render::GameInfo;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

pub struct GameContext {
    pub dir: GameDir,
    pub config: GameConfig,
    pub secrets: Secrets,
    /// Every round's host actions (`host_record`), in the order taken.
    pub actions: Vec<Action>,
    /// Substitutions recorded whose game.toml edit a killed run did not make (game.toml still
    /// names the person who left): `tick::substitute::finish` makes it.
    pub unfinished: Vec<Action>,
}

/// Which host actions a deadline is computed with: those known when a round was resolved (a
/// result written then must read the same when `replay` writes it again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// None: the game's set-up (an opening).
    Nothing,
    /// Those taken while the rounds at schedule index up to this one were current.
    Through(u32),
    /// Those taken before the round at this index, and in it up to action `n`: when that
    /// action was taken.
    Until(u32, u32),
    /// All of them: now.
    All,
}

/// The round versions are taken for: which round, how many were resolved before it, and when
/// the one before it closed.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub round: u32,
    pub index: u32,
    pub closed: Option<jiff::Timestamp>,
    /// The game is over: every player's message is answered so, and nothing is read.
    pub over: bool,
}

/// state.toml: the engine's state plus the tick's own bookkeeping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateFile<S> {
    /// How many receipts of the current round have been applied to `game`. A tick killed after
    /// writing receipts but before state.toml applies the rest at its next run.
    pub receipts_applied: usize,
    /// game.toml's seed when the game was set up: changing it later would re-deal a game in
    /// progress, so a tick refuses to run with another (absent in files of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// When the current round began taking versions: the moment the round before it was
    /// resolved (its deadline, or earlier when it closed early or was forced), in Unix seconds,
    /// written as a TOML time. A version that reached the host after it counts for this round.
    /// Absent before the first resolution and in files of older versions.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::clock::toml_time"
    )]
    pub opened: Option<i64>,
    #[serde(flatten)]
    pub game: S,
}

impl<S> StateFile<S> {
    pub fn new(ctx: &GameContext, receipts_applied: usize, game: S) -> StateFile<S> {
        StateFile {
            receipts_applied,
            seed: Some(ctx.config.seed),
            opened: None,
            game,
        }
    }
}

/// state.toml as a tick writes it: its text, and its memo (`StateFile::memo`).
#[derive(Debug)]
pub struct StateText {
    pub text: String,
    pub memo: Option<Vec<u8>>,
}

impl<S: Serialize> StateFile<S> {
    /// This file's text (sealed: `seal`) and memo.
    pub fn to_text(&self) -> StateText {
        let text = seal(&toml::to_string(self).expect("state serializes"));
        let memo = self.memo(&text);
        StateText { text, memo }
    }

    /// The memo of `text`, this file as written (`host_file::memo`): the game's part and the
    /// tick's own keys, as `load_state` reads them back; `None` for a small file.
    pub fn memo(&self, text: &str) -> Option<Vec<u8>> {
        let mut counts = Counts::new();
        let applied = i64::try_from(self.receipts_applied).ok()?;
        counts.insert("receipts_applied".into(), applied);
        if let Some(seed) = self.seed {
            counts.insert("seed".into(), i64::try_from(seed).ok()?);
        }
        if let Some(opened) = self.opened {
            counts.insert("opened".into(), opened);
        }
        crate::host_file::memo::encode(text, &self.game, &counts)
    }
}

/// The first line of state.toml as the tick writes it, before the sha256 of the rest: a text
/// whose line does not match the rest was edited by hand, and is refused (`Error::Edited`) until
/// restored; a text without the line was written by an older version and is read as it is.
const SEAL: &str = "# Written by adjudicate: a hand edit is refused. sha256 of the rest: ";

/// `body` with its seal line first.
pub fn seal(body: &str) -> String {
    let digest = crate::submission::sha256_hex(body.as_bytes());
    let mut text = String::with_capacity(SEAL.len() + digest.len() + 1 + body.len());
    text.push_str(SEAL);
    text.push_str(&digest);
    text.push('\n');
    text.push_str(body);
    text
}

/// state.toml's text without its seal line, and whether that line matches the rest (`None`:
/// there is none, a file of an older version).
pub fn unseal(text: &str) -> (&str, Option<bool>) {
    let Some(rest) = text.strip_prefix(SEAL) else {
        return (text, None);
    };
    let Some((digest, body)) = rest.split_once('\n') else {
        return (text, Some(false));
    };
    let intact = digest == crate::submission::sha256_hex(body.as_bytes());
    (body, Some(intact))
}

/// The keys of state.toml that are the tick's, not the game's.
pub(crate) const FILE_KEYS: &[&str] = &["receipts_applied", "seed", "opened"];

/// The tick's own keys of state.toml.
struct Progress {
    receipts_applied: usize,
    seed: Option<u64>,
    opened: Option<i64>,
}

impl GameContext {
    pub fn load(dir: GameDir) -> Result<GameContext> {
        let path = dir.game_toml();
        let config = GameConfig::parse(&path, &read_string(&path)?)?;
        let secrets = Secrets::load(dir.root(), &config)?;
        let actions = crate::host_record::load_all(&dir)?;
        let mut ctx = GameContext {
            dir,
            config,
            secrets,
            actions,
            unfinished: Vec::new(),
        };
        ctx.unfinished = ctx.check_tenures()?;
        Ok(ctx)
    }

    /// state.toml, refused if it was edited by hand (its seal, `seal`, does not match).
    pub fn load_state<G: Game>(&self) -> Result<Option<StateFile<G::State>>> {
        self.load_state_read::<G>(|_| None)
    }

    /// `load_state`, the seal unchecked: for `replay` and `check`, which compare the file with
    /// what the archive gives and name the first key a hand edit changed.
    pub fn load_state_unsealed<G: Game>(&self) -> Result<Option<StateFile<G::State>>> {
        self.load_state_with::<G>(|_| None, false)
    }

    /// `load_state`, taking the state and numbers `read` gives for the file's text if it gives
    /// them (`early_state`: read ahead from the same text).
    pub fn load_state_read<G: Game>(
        &self,
        read: impl FnOnce(&str) -> Option<(G::State, Counts)>,
    ) -> Result<Option<StateFile<G::State>>> {
        self.load_state_with::<G>(read, true)
    }

    fn load_state_with<G: Game>(
        &self,
        read: impl FnOnce(&str) -> Option<(G::State, Counts)>,
        sealed: bool,
    ) -> Result<Option<StateFile<G::State>>> {
        let path = self.dir.state_toml();
        let Some(text) = read_optional(&path)? else {
            return Ok(None);
        };
        if sealed && unseal(&text).1 == Some(false) {
            return Err(Error::Edited { path });
        }
        // Parsed in two passes rather than through `StateFile`'s flatten, which would lose the
        // line and column of an error in the game's part (and could not refuse unknown keys).
        let (game, counts): (G::State, _) = match read(&text) {
            Some(read) => read,
            None => {
                crate::host_file::parse_remembered(&path, &text, FILE_KEYS, &self.dir.memo(&path))?
            }
        };
        // The tick's own keys: whole numbers, never negative.
        let count = |key: &str| -> Result<Option<u64>> {
            counts
                .get(key)
                .map(|n| {
                    u64::try_from(*n)
                        .map_err(|_| Error::invalid(&path, key, "must not be negative"))
                })
                .transpose()
        };
        let progress = Progress {
            receipts_applied: count("receipts_applied")?.unwrap_or(0) as usize,
            seed: count("seed")?,
            opened: counts.get("opened").copied(),
        };
        if let Some(seed) = progress.seed.filter(|s| *s != self.config.seed) {
            return Err(Error::invalid(
                self.dir.game_toml(),
                "seed",
                format!(
                    "is {} but this game was dealt with seed = {seed} (state.toml): the seed cannot change once the game has started; restore seed = {seed}, or start a new game",
                    self.config.seed
                ),
            ));
        }
        self.check_roster(&G::roster(&game))?;
        G::check_state(&game).map_err(|e| Error::invalid(&path, e.key, e.message))?;
        self.check_progress::<G>(&game)?;
        Ok(Some(StateFile {
            receipts_applied: progress.receipts_applied,
            seed: progress.seed,
            opened: progress.opened,
            game,
        }))
    }

    /// The round versions are taken for now (`ingest`), or the game's end (`over`): refused when
    /// the game is not set up yet.
    pub fn window<G: Game>(&self) -> Result<Window> {
        let file = match self.load_state::<G>()? {
            Some(file) => file,
            None => {
                return Err(Error::Usage(
                    "the game is not set up yet: run `adjudicate round` first".into(),
                ));
            }
        };
        let index = G::rounds_played(&file.game);
        // When the current round began taking versions: when the round before it was resolved
        // (state.toml's `opened`), or, for a game resolved by an older version, that round's
        // deadline. A message that reached the host before it was meant for that round: it
        // counts for neither (spec README, "When a version counts").
        let closed = match file.opened {
            Some(at) => jiff::Timestamp::from_second(at).ok(),
            None => index.checked_sub(1).and_then(|i| self.deadline(i)),
        };
        Ok(Window {
            round: G::round(&file.game),
            index,
            closed,
            over: G::is_over(&file.game),
        })
    }

    /// state.toml's count of resolved rounds agrees with the archive: the previous round's
    /// result.toml says how many rounds came before it (`[meta] index`). A hand edit of
    /// `rounds_played` would move every deadline of the schedule.
    fn check_progress<G: Game>(&self, game: &G::State) -> Result<()> {
        let (round, played) = (G::round(game), G::rounds_played(game));
        if G::is_over(game) {
            return Ok(());
        }
        if played == 0 || round == 0 {
            return self.check_announced(&self.opening_meta()?, 0, Known::Nothing);
        }
        let previous = self.dir.result(round - 1);
        // (a state set up by hand, as rule cases do, may have no archive before it)
        let Some(meta) = crate::result_meta::Meta::read(&previous)? else {
            return Ok(());
        };
        if meta.index + 1 != played {
            return Err(Error::invalid(
                self.dir.state_toml(),
                "rounds_played",
                format!(
                    "is {played}, but {} is the result of the round after {} resolved round(s), so {} have been resolved; restore rounds_played = {}",
                    previous.display(),
                    meta.index,
                    meta.index + 1,
                    meta.index + 1
                ),
            ));
        }
        self.check_announced(&Some((previous, meta)), played, Known::Through(played - 1))
    }

    /// The opening's `[meta]` (with its file), if the game has one: written at set-up, never
    /// closed; kept apart in `opening/` when the first round is round 0.
    fn opening_meta(&self) -> Result<Option<(std::path::PathBuf, crate::result_meta::Meta)>> {
        for path in [
            self.dir.round(0).join("opening").join("result.toml"),
            self.dir.result(0),
        ] {
            if let Some(meta) = crate::result_meta::Meta::read(&path)?
                && meta.closed.is_none()
                && meta.index == 0
            {
                return Ok(Some((path, meta)));
            }
        }
        Ok(None)
    }

    /// The deadline a result announced for the round at `index` is still the schedule's (with
    /// the host's actions `known` then): an edit of `[schedule]` would change what was announced
    /// and what `replay` gives, so a game in progress moves deadlines only by `extend`.
    fn check_announced(
        &self,
        announced: &Option<(std::path::PathBuf, crate::result_meta::Meta)>,
        index: u32,
        known: Known,
    ) -> Result<()> {
        let Some((path, meta)) = announced else {
            return Ok(());
        };
        let now = self.deadline_known(index, known).map(clock::rfc3339);
        if meta.next_deadline == now {
            return Ok(());
        }
        let said = |d: &Option<String>| d.clone().unwrap_or_else(|| "none".to_owned());
        Err(Error::invalid(
            self.dir.game_toml(),
            "schedule",
            format!(
                "gives the round being played the deadline {}, but {} announced {}: a game in progress keeps its schedule; restore [schedule], and move the deadline with `adjudicate extend`",
                said(&now),
                path.display(),
                said(&meta.next_deadline)
            ),
        ))
    }

    /// The players of a game in progress are game.toml's, exactly: one added, removed or renamed
    /// after set-up would leave the rules without their state or the tick without their address.
    fn check_roster(&self, roster: &[&PlayerId]) -> Result<()> {
        let added = self
            .config
            .players
            .iter()
            .map(|p| &p.id)
            .filter(|id| roster.binary_search(id).is_err());
        let removed = roster.iter().filter(|id| self.config.player(id).is_none());
        let mut changes: Vec<String> = added
            .map(|id| format!("`{id}` is in game.toml but not in state.toml"))
            .collect();
        changes.extend(removed.map(|id| format!("`{id}` is in state.toml but not in game.toml")));
        if changes.is_empty() {
            return Ok(());
        }
        Err(Error::invalid(
            self.dir.game_toml(),
            "players",
            format!(
                "{}: players cannot change once the game has started (state.toml holds a game of {} players); restore game.toml's [[players]] (or a hand-edited state.toml) from git, or start a new game with `adjudicate new`",
                changes.join(", "),
                roster.len()
            ),
        ))
    }

    /// The deadline of the round with schedule index `index` (rounds resolved before it), as
    /// the host's actions have set it so far.
    pub fn deadline(&self, index: u32) -> Option<Timestamp> {
        self.deadline_known(index, Known::All)
    }

    /// The deadline of the round at `index` with the host's actions `known`: the last deadline
    /// an action set for that round; else, on an `every` schedule, the latest moved deadline
    /// before it carried forward (later deadlines follow an extension); else the schedule's.
    pub fn deadline_known(&self, index: u32, known: Known) -> Option<Timestamp> {
        let counts = |a: &&Action| match known {
            Known::Nothing => false,
            Known::Through(through) => a.index <= through,
            Known::Until(index, n) => a.index < index || (a.index == index && a.n <= n),
            Known::All => true,
        };
        let schedule = self.config.schedule.as_ref();
        let moved = self
            .actions
            .iter()
            .filter(counts)
            .filter(|a| a.index <= index)
            .filter_map(|a| Some((a.index, a.deadline()?)))
            .next_back();
        let every = schedule.filter(|s| s.deadlines.is_empty() && s.every.is_some());
        match (moved, every) {
            (Some((at, d)), _) if at == index => Some(d),
            (Some((at, d)), Some(schedule)) => schedule.step(d, index - at),
            _ => schedule.and_then(|s| s.deadline(index)),
        }
    }

    /// When the round at `index` was paused, if it is paused now. An undo holds the round it
    /// withdrew as a pause does (issue 57): it waits for the host's correction, and resolves
    /// once the host resumes it (or forces it).
    pub fn paused(&self, index: u32) -> Option<Timestamp> {
        let holds = |kind: HostKind| matches!(kind, HostKind::Pause | HostKind::Undo);
        self.actions
            .iter()
            .rfind(|a| a.index == index && (holds(a.kind) || a.kind == HostKind::Resume))
            .filter(|a| holds(a.kind))
            .map(Action::at)
    }

    /// The moment after which a version of the round at `index` comes too late: its deadline,
    /// but none while the host has paused the round before that deadline. A pause stops the
    /// round's clock (spec README, "Host actions"): a version that reaches the host during it
    /// counts, and `resume` gives the round its new deadline.
    pub fn late_after(&self, index: u32) -> Option<Timestamp> {
        let deadline = self.deadline(index)?;
        match self.paused(index) {
            Some(paused) if paused <= deadline => None,
            _ => Some(deadline),
        }
    }

    /// The time that was left of the round at `index` when the host paused it, if it is paused
    /// now: what `resume` gives back.
    pub fn left_when_paused(&self, index: u32) -> Option<jiff::SignedDuration> {
        let paused = self.paused(index)?;
        let left = self.deadline(index)?.duration_since(paused);
        left.is_positive().then_some(left)
    }

    /// How many times the host withdrew the results of the round at `index` (its reports are
    /// mailed again under new names when it resolves again).
    pub fn undos(&self, index: u32) -> u32 {
        self.actions
            .iter()
            .filter(|a| a.index == index && a.kind == HostKind::Undo)
            .count() as u32
    }

    /// The host's withdrawal of `player`, if they left the game (taken in any round).
    pub fn left(&self, player: &PlayerId) -> Option<&Action> {
        self.actions
            .iter()
            .find(|a| a.kind == HostKind::Withdraw && a.player.as_ref() == Some(player))
    }

    /// Whether `player` had left the game by the round at schedule index `index` (a
    /// withdrawal taken in it or before).
    pub fn left_by(&self, player: &PlayerId, index: u32) -> bool {
        self.left(player).is_some_and(|a| a.index <= index)
    }

    /// The players expected to submit in the round at `index`: the rules' list without those
    /// who left the game (whose withdrawal the rules apply when the round resolves).
    pub fn expected<G: Game>(&self, state: &G::State) -> Vec<PlayerId> {
        let index = G::rounds_played(state);
        let mut expected = G::expected(state);
        expected.retain(|id| !self.left_by(id, index));
        expected
    }

    /// The withdrawals taken while the round at `index` was current, in order.
    pub fn withdrawals(&self, index: u32) -> impl Iterator<Item = (&PlayerId, &Action)> {
        self.actions
            .iter()
            .filter(move |a| a.index == index && a.kind == HostKind::Withdraw)
            .filter_map(|a| Some((a.player.as_ref()?, a)))
    }

    /// How many times the host moved the deadline of the round at `index` (reminders are sent
    /// again before a moved deadline).
    pub fn deadline_moves(&self, index: u32) -> usize {
        self.actions
            .iter()
            .filter(|a| a.index == index && a.deadline.is_some())
            .count()
    }

    pub fn game_key(&self) -> String {
        format!("{}\0{}", self.config.title, self.config.seed)
    }

    /// What templates know of the game and the round being played now.
    pub fn game_info(&self, round: u32, index: u32, next_round: Option<u32>) -> GameInfo {
        self.game_info_known(round, index, next_round, Known::All)
    }

    /// What templates knew of the game and a round, with the host's actions `known` then.
    pub fn game_info_known(
        &self,
        round: u32,
        index: u32,
        next_round: Option<u32>,
        known: Known,
    ) -> GameInfo {
        let known = match known {
            Known::Through(_) => Known::Through(index),
            other => other,
        };
        let (deadline, next_deadline) = (
            self.deadline_known(index, known),
            next_round.and_then(|_| self.deadline_known(index + 1, known)),
        );
        let zone = self.config.zone();
        GameInfo {
            id: self.config.game.name(),
            title: self.config.title.clone(),
            round,
            deadline: deadline.map(|d| clock::human_in(d, zone)),
            next_round,
            next_deadline: next_deadline.map(|d| clock::human_in(d, zone)),
            paused: known == Known::All && self.paused(index).is_some(),
            paused_left: (known == Known::All)
                .then(|| self.left_when_paused(index))
                .flatten()
                .and_then(clock::length),
            deadline_at: deadline,
            next_deadline_at: next_deadline,
            zone: zone.cloned(),
        }
    }

    /// `info` as `player` reads it: in their own time zone, borrowed when they have none.
    pub fn info_for<'a>(
        &self,
        info: &'a GameInfo,
        player: &PlayerId,
    ) -> std::borrow::Cow<'a, GameInfo> {
        match self.config.player(player).and_then(|p| p.tz.as_ref()) {
            None => std::borrow::Cow::Borrowed(info),
            Some(zone) => std::borrow::Cow::Owned(info.in_zone(Some(zone))),
        }
    }

    /// A time as `player` reads it (`clock::human_in` their zone).
    pub fn human_for(&self, player: &PlayerId, t: Timestamp) -> String {
        clock::human_in(t, self.config.zone_of(player))
    }

    /// The templates of this game, compiled once, with the players' display names.
    pub fn renderer(&self) -> Result<crate::render::Renderer> {
        self.renderer_with(self.names_at(Some(u32::MAX)))
    }

    /// The templates with `names` (`names_at`) for the `name` filter.
    pub fn renderer_with(
        &self,
        names: std::collections::BTreeMap<String, String>,
    ) -> Result<crate::render::Renderer> {
        crate::render::Renderer::new(self.config.game, &self.dir.templates(), names)
    }

    /// A renderer for a result's reports when `now`'s will not do: a seat has changed hands
    /// since the round was resolved (then one with the names of that time).
    /// (`held`: `ResultFile::held`).
    pub fn renderer_for(
        &self,
        held: Option<u32>,
        now: &crate::render::Renderer,
    ) -> Result<Option<crate::render::Renderer>> {
        if self.actions.iter().all(|a| a.kind != HostKind::Substitute) {
            return Ok(None);
        }
        let names = self.names_at(held);
        if names == *now.names() {
            return Ok(None);
        }
        self.renderer_with(names).map(Some)
    }

    pub fn player_info(&self, id: &crate::player_id::PlayerId) -> crate::render::PlayerInfo {
        self.player_info_at(id, Some(u32::MAX))
    }

    /// `player_info` as the seat's holder when the round at `index` was resolved (`None`: at
    /// set-up, before any host action).
    pub fn player_info_at(&self, id: &PlayerId, index: Option<u32>) -> crate::render::PlayerInfo {
        crate::render::PlayerInfo {
            id: id.to_string(),
            name: self.name_at(id, index),
            token: self.secrets.tokens.contains_key(id),
        }
    }

    /// Who held seat `id` when the round at schedule index `index` resolved (`None`: at
    /// set-up): how many times the seat had changed hands by then (a substitution taken while
    /// round i was current gives the seat to the newcomer from round i's resolution on), and the
    /// person: the one who left it at the next substitution, else game.toml's (the holder now).
    pub fn holder_at(
        &self,
        id: &PlayerId,
        index: Option<u32>,
    ) -> (usize, Option<crate::host_record::Person>) {
        let changes: Vec<&Action> = self
            .actions
            .iter()
            .filter(|a| a.kind == HostKind::Substitute && a.player.as_ref() == Some(id))
            .collect();
        let held = changes
            .iter()
            .filter(|a| index.is_some_and(|i| a.index <= i))
            .count();
        let person = match changes.get(held) {
            Some(next) => next.left.clone(),
            None => self.config.player(id).map(|p| crate::host_record::Person {
                name: p.name.clone(),
                email: p.email.clone(),
                chat: p.chat.clone(),
            }),
        };
        (held, person)
    }

    /// The display name of the person who held seat `id` when the round at `index` resolved
    /// (`holder_at`).
    pub fn name_at(&self, id: &PlayerId, index: Option<u32>) -> String {
        self.holder_at(id, index)
            .1
            .map_or_else(|| id.to_string(), |p| p.name)
    }

    /// Every seat's display name when the round at `index` resolved (`name_at`).
    pub fn names_at(&self, index: Option<u32>) -> std::collections::BTreeMap<String, String> {
        self.config
            .players
            .iter()
            .map(|p| (p.id.to_string(), self.name_at(&p.id, index)))
            .collect()
    }

    /// game.toml agrees with the recorded tenures: a seat that changed hands names the person
    /// the last substitution gave it to (a hand edit that gives it to someone else is an error
    /// naming the seat: seats change hands with `adjudicate substitute`).
    /// Returns the substitutions a killed run recorded but did not carry out: game.toml still
    /// names exactly the person who left.
    fn check_tenures(&self) -> Result<Vec<Action>> {
        let path = self.dir.game_toml();
        let mut last: std::collections::BTreeMap<&PlayerId, &Action> = Default::default();
        for a in self
            .actions
            .iter()
            .filter(|a| a.kind == HostKind::Substitute)
        {
            if let Some(id) = &a.player {
                last.insert(id, a);
            }
        }
        let mut unfinished = Vec::new();
        for (id, action) in last {
            let Some(i) = self.config.players.iter().position(|p| &p.id == id) else {
                return Err(Error::invalid(
                    &path,
                    "players",
                    format!(
                        "has no seat `{id}`, which changed hands in round {}'s host.toml (action {}): a seat stays in the game",
                        action.index, action.n
                    ),
                ));
            };
            let p = &self.config.players[i];
            let (Some(person), Some(left)) = (&action.person, &action.left) else {
                continue;
            };
            let holds = |x: &crate::host_record::Person| {
                x.name == p.name && x.email == p.email && x.chat == p.chat
            };
            if !holds(person) && holds(left) {
                unfinished.push(action.clone());
                continue;
            }
            for (key, has, recorded) in [
                ("name", Some(&p.name), Some(&person.name)),
                ("email", p.email.as_ref(), person.email.as_ref()),
                ("chat", p.chat.as_ref(), person.chat.as_ref()),
            ] {
                if has != recorded {
                    return Err(Error::invalid(
                        &path,
                        format!("players[{i}].{key}"),
                        format!(
                            "is {} but seat `{id}` was given to {} by `adjudicate substitute` (action {} of the round at index {}, host.toml), whose {key} is {}: a seat changes hands only with `adjudicate substitute`",
                            has.map_or("not set".to_owned(), |v| format!("{v:?}")),
                            person.name,
                            action.n,
                            action.index,
                            recorded.map_or("not set".to_owned(), |v| format!("{v:?}")),
                        ),
                    ));
                }
            }
        }
        Ok(unfinished)
    }
}
