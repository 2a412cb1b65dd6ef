//! One version of a Room Swap submission in the rules' own types (`Versioned`): what a file's
//! keys hold, or a bot's choice handed over as is. Reading checks only shapes (a room is one of
//! the three, a Peek is a list of strings); every check against the round is `receive::apply`'s.

use super::rooms::Room;
use super::state::{Phase, State};
use crate::doc::{Choice, Doc, Item, Writer};
use crate::games::version::{Given, Name};
use crate::problem::Problem;

/// The keys of a scored round's submission, and of the sole winner's gift (`token`, the
/// player's secret, is read before the rules see a file).
pub const ROUND_KEYS: &[&str] = &["room", "fallback", "peek", "block", "token"];
pub const TOKEN_KEYS: &[&str] = &["give_token", "token"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Version {
    pub room: Option<Given<Room>>,
    pub fallback: Option<Given<Room>>,
    /// The players peeked at, in the order named.
    pub peek: Option<Given<Vec<Given<Name>>>>,
    pub block: Option<Given<Block>>,
    /// The Token round's only key.
    pub give_token: Option<Given<Name>>,
}

/// `block = { player = "…", room = "…" }`, as read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Block {
    /// Keys a block does not have.
    pub unknown: Vec<Problem>,
    pub player: Option<Given<Name>>,
    pub room: Option<Given<Room>>,
}

impl Version {
    /// A scored round's choice: a room, and the players to peek at (none: no Peek).
    pub fn room(room: Room, peek: Vec<Name>) -> Version {
        // (every field named: `..Version::default()` builds a whole default and copies its
        // tail, a call to memcpy in every bot's every round)
        Version {
            room: Some(Given::typed(room)),
            fallback: None,
            peek: (!peek.is_empty()).then(|| Given::typed_each(peek)),
            block: None,
            give_token: None,
        }
    }

    /// The sole winner's gift.
    pub fn give_token(to: Name) -> Version {
        Version {
            give_token: Some(Given::typed(to)),
            ..Version::default()
        }
    }

    /// The keys of `doc` the round has (the others are problems, pushed first).
    pub fn read(state: &State, doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        let root = doc.root();
        if state.phase == Phase::Token {
            problems.extend(root.unknown_keys(TOKEN_KEYS, "a token gift"));
            return Version {
                give_token: root
                    .get("give_token")
                    .map(|n| Given::read(n, |n| Name::read(n, "give_token"))),
                ..Version::default()
            };
        }
        problems.extend(root.unknown_keys(ROUND_KEYS, "a Room Swap submission"));
        let room = |key: &'static str| {
            root.get(key)
                .map(|n| Given::read(n, |n| n.as_choice::<Room>(key)))
        };
        Version {
            room: room("room"),
            fallback: room("fallback"),
            peek: root.get("peek").map(|n| {
                Given::read(n, |n| {
                    let items = n.as_array("peek")?;
                    Ok(items
                        .iter()
                        .map(|item| Given::read(item, |item| Name::read(item, "peek")))
                        .collect())
                })
            }),
            block: root.get("block").map(|n| {
                Given::read(n, |n| {
                    let table = n.as_table("block")?;
                    Ok(Block {
                        unknown: table.unknown_keys(&["player", "room"], "block"),
                        player: table
                            .get("player")
                            .map(|n| Given::read(n, |n| Name::read(n, "block.player"))),
                        room: table
                            .get("room")
                            .map(|n| Given::read(n, |n| n.as_choice::<Room>("block.room"))),
                    })
                })
            }),
            give_token: None,
        }
    }

    /// The file a player would send for this version (its well-read values, in key order of
    /// the rules' README: room, fallback, peek, block, give_token).
    pub fn write(&self) -> Writer {
        let mut w = Writer::new();
        for (key, room) in [("room", &self.room), ("fallback", &self.fallback)] {
            if let Some(room) = room.as_ref().and_then(Given::ok) {
                w.str(key, room.name());
            }
        }
        if let Some(peek) = self.peek.as_ref().and_then(Given::ok) {
            let names: Vec<&str> = peek.iter().filter_map(|n| n.ok()).map(Name::text).collect();
            w.strs("peek", &names);
        }
        if let Some(block) = self.block.as_ref().and_then(Given::ok) {
            let player = block.player.as_ref().and_then(Given::ok).map(Name::text);
            let room = block.room.as_ref().and_then(Given::ok).map(|r| r.name());
            let fields = [("player", player), ("room", room)];
            let fields = fields
                .into_iter()
                .filter_map(|(k, v)| Some((k, v?)))
                .collect();
            w.item("block", &Item::Inline(fields));
        }
        if let Some(to) = self.give_token.as_ref().and_then(Given::ok) {
            w.str("give_token", to.text());
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::room_swap::RoomSwap;

    fn state(phase: Phase) -> State {
        let setting = crate::simulate::plan::test_setting::<RoomSwap>("random", 1);
        let (mut state, ()) = crate::simulate::start::<RoomSwap>(&setting, 1).unwrap();
        state.phase = phase;
        state
    }

    /// What a version writes reads back as the same version (positions aside).
    #[test]
    fn a_written_version_reads_back_as_itself() {
        let named = |t: &str| Name::Written(t.into());
        let versions = [
            Version::room(Room::Cellar, vec![named("bob"), named("carol")]),
            Version {
                fallback: Some(Given::typed(Room::Attic)),
                block: Some(Given::typed(Block {
                    player: Some(Given::typed(named("dave"))),
                    room: Some(Given::typed(Room::Basement)),
                    ..Block::default()
                })),
                ..Version::room(Room::Attic, Vec::new())
            },
        ];
        let unplaced = |mut v: Version| {
            let strip = |g: &mut Option<Given<Room>>| g.iter_mut().for_each(|g| g.at = None);
            strip(&mut v.room);
            strip(&mut v.fallback);
            if let Some(p) = &mut v.peek {
                p.at = None;
                p.value.iter_mut().flatten().for_each(|n| n.at = None);
            }
            if let Some(b) = &mut v.block {
                b.at = None;
                if let Ok(b) = &mut b.value {
                    strip(&mut b.room);
                    b.player.iter_mut().for_each(|p| p.at = None);
                }
            }
            v
        };
        for version in versions {
            let doc = version.write().finish();
            let mut problems = Vec::new();
            let read = Version::read(&state(Phase::Main), &doc, &mut problems);
            assert_eq!(problems, []);
            assert_eq!(unplaced(read), version, "{}", doc.source());
        }
        let gift = Version::give_token(named("erin"));
        let doc = gift.write().finish();
        assert_eq!(doc.source(), "give_token = \"erin\"\n");
        let mut problems = Vec::new();
        let read = Version::read(&state(Phase::Token), &doc, &mut problems);
        assert_eq!(
            read.give_token.and_then(|g| g.value.ok()),
            Some(named("erin"))
        );
    }

    #[test]
    fn a_round_reads_only_its_own_keys() {
        let doc = Doc::parse("room = \"attic\"\ngive_token = \"bob\"\n").unwrap();
        let mut problems = Vec::new();
        let read = Version::read(&state(Phase::Main), &doc, &mut problems);
        assert_eq!(read.give_token, None);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.contains("give_token"));
        let mut problems = Vec::new();
        let read = Version::read(&state(Phase::Token), &doc, &mut problems);
        assert_eq!(read.room, None);
        assert!(problems[0].message.contains("`room`"), "{problems:?}");
    }
}
