//! One version of a vote in the rules' own types (`Versioned`): `vote`, and at the first vote
//! of an elimination `idol` and `extra_vote`, each naming players as written. Whether a name can
//! receive a vote, and whether the voter holds what they play, is `receive::apply`'s.

use crate::doc::{Doc, Node, Value, Writer};
use crate::games::version::{Given, Name};
use crate::problem::Problem;

/// Every top-level key a vote may hold.
pub const KEYS: &[&str] = &["vote", "idol", "extra_vote", "token"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Version {
    pub vote: Option<Given<Name>>,
    /// Whom idols are played for (a name or a list of names).
    pub idol: Option<Given<Vec<Given<Name>>>>,
    pub extra_vote: Option<Given<Vec<Given<Name>>>>,
}

impl Version {
    /// A vote for `name`, and nothing else.
    pub fn vote(name: Name) -> Version {
        Version {
            vote: Some(Given::typed(name)),
            ..Version::default()
        }
    }

    /// The keys of `doc` (the others are problems, pushed first).
    pub fn read(doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        let root = doc.root();
        problems.extend(root.unknown_keys(KEYS, "a Tribal Council vote"));
        let list = |key: &'static str| root.get(key).map(|n| Given::read(n, |n| names(n, key)));
        Version {
            vote: root
                .get("vote")
                .map(|n| Given::read(n, |n| Name::read(n, "vote"))),
            idol: list("idol"),
            extra_vote: list("extra_vote"),
        }
    }

    /// The file a player would send for this version (its well-read values).
    pub fn write(&self) -> Writer {
        let mut w = Writer::new();
        if let Some(vote) = self.vote.as_ref().and_then(Given::ok) {
            w.str("vote", vote.text());
        }
        for (key, list) in [("idol", &self.idol), ("extra_vote", &self.extra_vote)] {
            if let Some(list) = list.as_ref().and_then(Given::ok) {
                let names: Vec<&str> = list.iter().filter_map(Given::ok).map(Name::text).collect();
                w.strs(key, &names);
            }
        }
        w
    }
}

/// A name, or a list of names (each item's own shape read alone).
fn names(node: &Node, key: &str) -> Result<Vec<Given<Name>>, Problem> {
    if let Value::String(_) = node.value {
        return Ok(vec![Given::read(node, |n| Name::read(n, key))]);
    }
    Ok(node
        .as_array(key)?
        .iter()
        .map(|item| Given::read(item, |n| Name::read(n, key)))
        .collect())
}
