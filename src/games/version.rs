//! One receive path for a player's file and for a bot's typed choice (issue #30, item 2). A game
//! that implements `Versioned` receives a version in two steps: `read` turns the file into the
//! rules' own types (each key's value, or what is wrong with its shape, and where it was
//! written), and `apply` checks that version against the round and applies what is valid. A
//! bot hands `apply` a version it built directly (`send`): it meets every check a player's
//! file meets after reading, so it can never make a move a player cannot, and no text is
//! written or parsed unless the game is recorded.

use super::bots::Submissions;
use super::{Detail, Game, Outcome};
use crate::doc::{Doc, Node, Writer};
use crate::player_id::PlayerId;
use crate::problem::{Pos, Problem};

/// The player a version is from: their id, and their index in the state's players (`Seats`),
/// found once where the version arrives (a bot knows its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat<'p> {
    pub id: &'p PlayerId,
    pub at: usize,
}

/// A game whose submissions are read into a typed version before the rules check them.
pub trait Versioned: Game {
    /// One version of a submission in the rules' own types (`Given` values).
    type Version;

    /// Where `player` sits in the state's players; for someone who is not one of them, the one
    /// problem of anything they send (each game words it: a season player not at this council).
    fn seat_of(state: &Self::State, player: &PlayerId) -> Result<usize, Problem>;

    /// Why `player` may send nothing now (not playing this round): then this is the one problem
    /// of any version they send, and nothing of it is read.
    fn refuse(state: &Self::State, player: Seat<'_>) -> Option<Problem>;

    /// What `player`'s file says, key by key; keys the round does not have for them go to
    /// `problems` at once (they are the first problems of a version). Never fails: a value of
    /// the wrong shape is kept as its problem, for `apply` to report where the rules would have
    /// read it.
    fn read(
        state: &Self::State,
        player: Seat<'_>,
        doc: &Doc,
        problems: &mut Vec<Problem>,
    ) -> Self::Version;

    /// Checks `version` against the round and applies what is valid (instant actions included);
    /// must never panic, whatever the version holds.
    fn apply(state: &mut Self::State, player: Seat<'_>, version: Self::Version, out: &mut Outcome);

    /// The version as the file a player would send: what a simulated game records. Only values
    /// that were read well are written (a bot's versions hold nothing else).
    fn write(version: &Self::Version) -> Writer;
}

/// `Game::receive_with` of a `Versioned` game: the file read, then applied.
pub fn receive<G: Versioned>(
    state: &mut G::State,
    player: &PlayerId,
    doc: &Doc,
    detail: Detail,
) -> Outcome {
    let mut out = Outcome::new(detail);
    let at = match G::seat_of(state, player) {
        Ok(at) => at,
        Err(problem) => {
            out.problems.push(problem);
            return out;
        }
    };
    let player = Seat { id: player, at };
    if let Some(problem) = G::refuse(state, player) {
        out.problems.push(problem);
        return out;
    }
    let version = G::read(state, player, doc, &mut out.problems);
    G::apply(state, player, version, &mut out);
    out
}

/// A bot's version, applied as a received file's would be after reading (`Detail::State`: no
/// bot reads what was understood); with `record`, the file it stands for is recorded too.
pub fn send<G: Versioned>(
    state: &mut G::State,
    player: Seat<'_>,
    version: G::Version,
    record: &mut Option<&mut Submissions>,
) -> Outcome {
    debug_assert_eq!(G::seat_of(state, player.id).ok(), Some(player.at));
    if let Some(r) = record.as_deref_mut() {
        let text = G::write(&version).finish().source().to_owned();
        r.push((player.id.clone(), text));
    }
    let mut out = Outcome::new(Detail::State);
    match G::refuse(state, player) {
        Some(problem) => out.problems.push(problem),
        None => G::apply(state, player, version, &mut out),
    }
    out
}

/// A value as the rules read it: the value, or the problem with its shape (a number where a
/// room goes, a room that does not exist), and where it was written. The problem is boxed: a
/// bot's versions, moved whole every round, never hold one (a `Given<Room>` is 32 bytes, not
/// 80).
#[derive(Debug, Clone, PartialEq)]
pub struct Given<T> {
    pub value: Result<T, Box<Problem>>,
    /// Where the value was written; `None` for a value a bot hands over.
    pub at: Option<Pos>,
}

impl<T> Given<T> {
    /// A value handed over typed (by a bot): well read, written nowhere.
    pub fn typed(value: T) -> Given<T> {
        Given {
            value: Ok(value),
            at: None,
        }
    }

    /// The value of `node`, read by `read`.
    pub fn read(node: &Node, read: impl FnOnce(&Node) -> Result<T, Problem>) -> Given<T> {
        Given {
            value: read(node).map_err(Box::new),
            at: Some(node.pos),
        }
    }

    /// A problem with this value: at its place in the file, or of the version as a whole.
    pub fn problem(&self, message: impl Into<String>) -> Problem {
        problem_at(self.at, message)
    }

    /// The value, if it was read well.
    pub fn ok(&self) -> Option<&T> {
        self.value.as_ref().ok()
    }

    /// Items handed over typed, each `Given`, collected once: a bot's list is made as the list
    /// a version holds, not made first and copied into it.
    pub fn each<List: FromIterator<Given<T>>>(items: impl IntoIterator<Item = T>) -> List {
        items.into_iter().map(Given::typed).collect()
    }
}

impl<List> Given<List> {
    /// A list handed over typed, each of its items too (a bot's Peeks, a divination's pair).
    pub fn typed_each<T>(items: impl IntoIterator<Item = T>) -> Given<List>
    where
        List: FromIterator<Given<T>>,
    {
        Given::typed(Given::each(items))
    }
}

/// A problem at `at` in the file, or of the version as a whole when it was written nowhere.
pub fn problem_at(at: Option<Pos>, message: impl Into<String>) -> Problem {
    match at {
        Some(pos) => Problem::at(pos, message),
        None => Problem::general(message),
    }
}

/// A player named in a submission: an id a bot hands over, or the text a file holds (checked by
/// the rules, which quote it back when it names nobody they accept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    Id(PlayerId),
    Written(String),
}

impl Name {
    /// A string value naming a player (`key` names it in a problem).
    pub fn read(node: &Node, key: &str) -> Result<Name, Problem> {
        node.as_str(key).map(|text| Name::Written(text.to_owned()))
    }

    /// The player named, if the text is an id (spaces around it and letter case do not matter).
    pub fn id(&self) -> Option<PlayerId> {
        match self {
            Name::Id(id) => Some(id.clone()),
            Name::Written(text) => PlayerId::named(text),
        }
    }

    /// The name as written.
    pub fn text(&self) -> &str {
        match self {
            Name::Id(id) => id.as_str(),
            Name::Written(text) => text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bots::Simulated;
    use crate::simulate::{game_seed, play_recorded, start};

    /// Every file a simulated game recorded reads as a version that writes the same file, with
    /// no problem, at the point of the game it was sent (read depends on the round and the
    /// sender): reading loses nothing a bot's version holds.
    fn bots_files_read_back_as_written<G: Simulated + Versioned>(bots: &str) {
        let setting = crate::simulate::plan::test_setting::<G>(bots, 5);
        let mut files = 0;
        for game in 0..4 {
            let seed = game_seed(setting.seed, game);
            let (_, transcript, _) = play_recorded::<G>(&setting, game).unwrap();
            let (mut state, mut memory) = start::<G>(&setting, seed).unwrap();
            for (_, round) in transcript {
                for (player, text) in round {
                    let doc = Doc::parse(&text).unwrap();
                    let mut out = Outcome::new(Detail::State);
                    let at = G::seat_of(&state, &player).expect("a player");
                    let seat = Seat { id: &player, at };
                    let version = G::read(&state, seat, &doc, &mut out.problems);
                    assert_eq!(out.problems, [], "{text}");
                    assert_eq!(G::write(&version).finish().source(), text);
                    G::apply(&mut state, seat, version, &mut out);
                    files += 1;
                }
                G::advance(&mut state, seed, &mut memory);
            }
        }
        assert!(files >= 20, "{files}");
    }

    #[test]
    fn every_versioned_games_bot_files_read_back_as_written() {
        use crate::games::{final_ritual, god_race, planar_control, room_swap, tribal_council};
        bots_files_read_back_as_written::<god_race::GodRace>("random=3,leader");
        bots_files_read_back_as_written::<room_swap::RoomSwap>("random=3,best-response");
        bots_files_read_back_as_written::<planar_control::PlanarControl>("random=8,hunter");
        bots_files_read_back_as_written::<final_ritual::FinalRitual>("random=3,greedy");
        bots_files_read_back_as_written::<tribal_council::TribalCouncil>("random=3,bloc");
    }

    /// A file from someone who is not among the state's players (an id a substitution
    /// replaced, a season player not at this council) is refused with one problem, in the
    /// game's words, whatever it holds, and the state is left as it was.
    fn a_stranger_is_refused<G: Simulated + Versioned>() -> String {
        let setting = crate::simulate::plan::test_setting::<G>("random", 5);
        let (mut state, _) = start::<G>(&setting, game_seed(setting.seed, 0)).unwrap();
        let before = state.clone();
        let stranger = PlayerId::parse("stranger").unwrap();
        let doc = Doc::parse("vote = \"x\"\nroom = \"attic\"\n").unwrap();
        let out = receive::<G>(&mut state, &stranger, &doc, Detail::Everything);
        assert!(!out.valid);
        assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
        assert_eq!(state, before);
        out.problems[0].message.clone()
    }

    #[test]
    fn a_file_from_someone_not_in_the_game_is_refused_in_the_games_words() {
        use crate::games::{final_ritual, god_race, planar_control, room_swap, tribal_council};
        let race = a_stranger_is_refused::<god_race::GodRace>();
        assert!(race.contains("not a player of this game"), "{race}");
        let council = a_stranger_is_refused::<tribal_council::TribalCouncil>();
        assert_eq!(council, "you are not at this council");
        let ritual = a_stranger_is_refused::<final_ritual::FinalRitual>();
        assert!(ritual.contains("not a priest of this game"), "{ritual}");
        let planes = a_stranger_is_refused::<planar_control::PlanarControl>();
        assert!(planes.contains("not a player of this game"), "{planes}");
        a_stranger_is_refused::<room_swap::RoomSwap>();
    }

    #[test]
    fn a_written_name_is_read_as_players_write_ids_and_quoted_as_written() {
        let name = Name::Written(" Erin".into());
        assert_eq!(name.id(), PlayerId::parse("erin"));
        assert_eq!(name.text(), " Erin");
        assert_eq!(Name::Written("not an id!".into()).id(), None);
        let id = PlayerId::parse("bob").unwrap();
        assert_eq!(Name::Id(id.clone()).id(), Some(id));
    }

    #[test]
    fn a_typed_value_has_its_problems_about_the_whole_version() {
        let given = Given::typed(3);
        assert_eq!(given.ok(), Some(&3));
        assert_eq!(given.problem("no"), Problem::general("no"));
        let doc = Doc::parse("\nroom = 4\n").unwrap();
        let read = Given::read(doc.get("room").unwrap(), |n| n.as_str("room").map(str::len));
        assert_eq!(read.at, Some(Pos { line: 2, col: 8 }));
        assert_eq!(read.problem("no").line, Some(2));
        assert!(read.value.is_err());
    }
}
