//! One version of a Planar Control submission in the rules' own types (`Versioned`): a vote with
//! garnets (Earth, Thera), a divination (Limbo, Mobil), or the winners' elimination vote. Reading
//! knows the sender's plane only to say which keys their plane has; every check against the
//! round is `receive::apply`'s.

use super::receive::title;
use super::state::{Alignment, Phase, State};
use crate::doc::{Choice, Doc, Node, Value, Writer};
use crate::games::version::{Given, Name};
use crate::player_id::PlayerId;
use crate::problem::Problem;

/// The players a divination names, as read: two (inline), or however many a file lists.
pub type Divined = smallvec::SmallVec<[Given<Name>; 2]>;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Version {
    pub vote: Option<Given<Vote>>,
    /// Garnets spent on the vote (a whole number, checked against the sender's balance).
    pub garnets: Option<Given<i64>>,
    /// The two players divined, as named.
    pub divine: Option<Given<Divined>>,
    pub eliminate: Option<Given<Eliminate>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vote {
    /// `"abstain"` (or nothing written between the quotes).
    Abstain,
    Banish(Name),
}

/// `[eliminate]`: one member of each losing alignment, as named.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Eliminate {
    /// Keys that are not a losing alignment.
    pub unknown: Vec<Problem>,
    pub votes: Vec<(Alignment, Given<Name>)>,
}

impl Version {
    /// `player`'s file: the keys of their plane, or of the elimination vote (the others are
    /// problems, pushed first, as is a key of the other kind of plane).
    pub fn read(
        state: &State,
        player: &PlayerId,
        doc: &Doc,
        problems: &mut Vec<Problem>,
    ) -> Version {
        let root = doc.root();
        if state.phase == Phase::Elimination {
            problems.extend(root.unknown_keys(&["eliminate", "token"], "an elimination vote"));
            return Version {
                eliminate: root
                    .get("eliminate")
                    .map(|n| Given::read(n, |n| read_eliminate(state, n))),
                ..Version::default()
            };
        }
        let Some(plane) = state.players.get(player).map(|p| p.plane) else {
            return Version::default();
        };
        if plane.is_large() {
            problems.extend(root.unknown_keys(&["vote", "garnets", "token"], "a vote"));
            if let Some(n) = root.get("divine") {
                problems.push(Problem::at(
                    n.pos,
                    format!("you are on {}: you vote, you do not divine", title(plane)),
                ));
            }
            return Version {
                vote: root.get("vote").map(|n| Given::read(n, read_vote)),
                garnets: root.get("garnets").map(|n| Given::read(n, read_garnets)),
                ..Version::default()
            };
        }
        problems.extend(root.unknown_keys(&["divine", "token"], "a divination"));
        if let Some(n) = root.get("vote").or(root.get("garnets")) {
            problems.push(Problem::at(
                n.pos,
                format!("you are on {}: you divine, you do not vote", title(plane)),
            ));
        }
        Version {
            divine: root.get("divine").map(|n| {
                Given::read(n, |n| {
                    Ok(n.as_array("divine")?
                        .iter()
                        .map(|item| Given::read(item, |item| Name::read(item, "divine")))
                        .collect())
                })
            }),
            ..Version::default()
        }
    }

    /// The file a player would send for this version (its well-read values).
    pub fn write(&self) -> Writer {
        let mut w = Writer::new();
        let vote = self
            .vote
            .as_ref()
            .and_then(Given::ok)
            .map(|vote| match vote {
                Vote::Abstain => "abstain",
                Vote::Banish(name) => name.text(),
            });
        if let Some(vote) = vote {
            w.str("vote", vote);
        }
        if let Some(garnets) = self.garnets.as_ref().and_then(Given::ok) {
            w.int("garnets", *garnets);
        }
        if let Some(divine) = self.divine.as_ref().and_then(Given::ok) {
            let names: Vec<&str> = divine
                .iter()
                .filter_map(Given::ok)
                .map(Name::text)
                .collect();
            w.strs("divine", &names);
        }
        if let Some(eliminate) = self.eliminate.as_ref().and_then(Given::ok) {
            w.section("eliminate");
            for (alignment, name) in &eliminate.votes {
                if let Some(name) = name.ok() {
                    w.str(alignment.name(), name.text());
                }
            }
        }
        w
    }
}

fn read_vote(node: &Node) -> Result<Vote, Problem> {
    let text = node.as_str("vote")?;
    let trimmed = text.trim();
    Ok(
        if trimmed.eq_ignore_ascii_case("abstain") || trimmed.is_empty() {
            Vote::Abstain
        } else {
            Vote::Banish(Name::Written(text.to_owned()))
        },
    )
}

fn read_garnets(node: &Node) -> Result<i64, Problem> {
    match &node.value {
        Value::Integer(n) => Ok(*n),
        other => Err(Problem::at(
            node.pos,
            format!("garnets must be a whole number, not {}", other.type_name()),
        )),
    }
}

/// The table's keys the round has (the losing alignments) and each alignment's vote.
fn read_eliminate(state: &State, node: &Node) -> Result<Eliminate, Problem> {
    let table = node.as_table("eliminate")?;
    let losing = state.losing_alignments();
    let keys: Vec<&str> = losing.iter().map(|a| a.name()).collect();
    Ok(Eliminate {
        unknown: table.unknown_keys(&keys, "[eliminate]"),
        votes: losing
            .iter()
            .filter_map(|a| {
                let node = table.get(a.name())?;
                let key = format!("eliminate.{}", a.name());
                Some((*a, Given::read(node, |n| Name::read(n, &key))))
            })
            .collect(),
    })
}
