//! One version of a Final Ritual submission in the rules' own types (`Versioned`): the
//! dedication, the announced oracles with their targets, and the `[respond]` table. Reading
//! checks shapes alone (a dedication names resources or "refuse", an entry's keys are its
//! oracle's); what the round decides (oracles held, living targets) is `receive::apply`'s.

use super::cards::{Oracle, Resource, Targets};
use super::state::{Dedicate, Dedication};
use crate::doc::{Choice, Doc, Item, Node, Value, Writer};
use crate::games::version::{Given, Name};
use crate::problem::Problem;
use smallvec::SmallVec;

/// The keys of a submission (`Game::KEYS`).
pub const KEYS: &[&str] = &["dedicate", "announce", "respond", "token"];

/// The lists of a version, inline up to what a bot sends at the largest table (two oracles,
/// the five others refused, the three resources): a bot's version allocates nothing.
pub type Entries = SmallVec<[Given<Entry>; 2]>;
pub type Names = SmallVec<[Given<Name>; 5]>;
pub type Resources = SmallVec<[Given<Resource>; 3]>;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Version {
    /// The resources to dedicate, first held first (or refusing); `Err`: the first problem.
    pub dedicate: Option<Given<Dedication>>,
    pub announce: Option<Given<Entries>>,
    pub respond: Option<Given<Respond>>,
}

/// One `announce` entry: its oracle and targets, as written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    /// `Err(text)`: a string that is no oracle's id.
    pub oracle: Option<Given<Result<Oracle, String>>>,
    /// The first key the oracle's kind does not have (read once the oracle is known).
    pub unknown: Option<Problem>,
    pub from: Option<Given<Name>>,
    pub to: Option<Given<Name>>,
    pub player: Option<Given<Name>>,
}

/// `[respond]`: whose orders are refused, and how "any" is given and taken.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Respond {
    pub unknown: Vec<Problem>,
    pub refuse: Option<Given<Names>>,
    pub give: Option<Given<Resources>>,
    pub take: Option<Given<Resources>>,
}

impl Entry {
    /// An oracle a bot announces, with the targets its kind needs.
    pub fn typed(oracle: Oracle, from: Name, to: Name, player: Name) -> Entry {
        let (from, to, player) = match oracle.effect().targets() {
            Targets::FromTo => (Some(from), Some(to), None),
            Targets::To => (None, Some(to), None),
            Targets::Player => (None, None, Some(player)),
            Targets::Nobody => (None, None, None),
        };
        Entry {
            oracle: Some(Given::typed(Ok(oracle))),
            unknown: None,
            from: from.map(Given::typed),
            to: to.map(Given::typed),
            player: player.map(Given::typed),
        }
    }
}

impl Version {
    /// The keys of `doc` (the others are problems, pushed first).
    pub fn read(doc: &Doc, problems: &mut Vec<Problem>) -> Version {
        let root = doc.root();
        problems.extend(root.unknown_keys(KEYS, "a Final Ritual submission"));
        Version {
            dedicate: root.get("dedicate").map(|n| Given::read(n, read_dedicate)),
            announce: root.get("announce").map(|n| {
                Given::read(n, |n| {
                    Ok(n.as_array("announce")?
                        .iter()
                        .map(|item| Given::read(item, read_entry))
                        .collect())
                })
            }),
            respond: root.get("respond").map(|n| Given::read(n, read_respond)),
        }
    }

    /// The file a player would send for this version (its well-read values).
    pub fn write(&self) -> Writer {
        // three lists of resources, up to two oracles with their targets, the refused
        let mut w = Writer::with_capacity(320);
        if let Some(dedicate) = self.dedicate.as_ref().and_then(Given::ok) {
            let names: Vec<&str> = dedicate.iter().map(|d| d.name()).collect();
            w.strs("dedicate", &names);
        }
        if let Some(announce) = self.announce.as_ref().and_then(Given::ok) {
            let entries = announce.iter().filter_map(Given::ok).map(Entry::item);
            w.item("announce", &Item::List(entries.collect()));
        }
        if let Some(respond) = self.respond.as_ref().and_then(Given::ok) {
            w.section("respond");
            if let Some(refuse) = respond.refuse.as_ref().and_then(Given::ok) {
                let names: Vec<&str> = refuse
                    .iter()
                    .filter_map(Given::ok)
                    .map(Name::text)
                    .collect();
                w.strs("refuse", &names);
            }
            for (key, list) in [("give", &respond.give), ("take", &respond.take)] {
                if let Some(list) = list.as_ref().and_then(Given::ok) {
                    let names: Vec<&str> = list
                        .iter()
                        .filter_map(Given::ok)
                        .map(|r| r.name())
                        .collect();
                    w.strs(key, &names);
                }
            }
        }
        w
    }
}

impl Entry {
    /// The entry as an inline table (its well-read keys).
    fn item(&self) -> Item<'_> {
        let oracle = self
            .oracle
            .as_ref()
            .and_then(Given::ok)
            .and_then(|o| o.as_ref().ok());
        let oracle = oracle.map(|o| ("oracle", o.name()));
        let targets = [
            ("from", &self.from),
            ("to", &self.to),
            ("player", &self.player),
        ];
        let targets = targets
            .into_iter()
            .filter_map(|(key, name)| Some((key, name.as_ref().and_then(Given::ok)?.text())));
        Item::Inline(oracle.into_iter().chain(targets).collect())
    }
}

/// A string or a list of strings, each item read by `item` (`Err`: the list's shape, or the
/// first item that is not a string).
fn strings<T, List: FromIterator<Given<T>>>(
    node: &Node,
    key: &str,
    item: impl Fn(&str) -> Result<T, String>,
) -> Result<List, Problem> {
    let one = |node: &Node, text: &str| Given {
        value: item(text).map_err(|message| Box::new(Problem::at(node.pos, message))),
        at: Some(node.pos),
    };
    match &node.value {
        Value::String(s) => Ok(std::iter::once(one(node, s)).collect()),
        _ => node
            .as_array(key)?
            .iter()
            .map(|n| n.as_str(key).map(|s| one(n, s)))
            .collect(),
    }
}

/// A dedication: every item a resource or "refuse", at least one (the first problem otherwise).
fn read_dedicate(node: &Node) -> Result<Dedication, Problem> {
    let items: Vec<Given<Dedicate>> = strings(node, "dedicate", |text| {
        Dedicate::parse(text)
            .ok_or_else(|| format!("dedicate: \"{text}\" is not wine, gems, gold or \"refuse\""))
    })?;
    if items.is_empty() {
        return Err(Problem::at(
            node.pos,
            "dedicate is empty: name wine, gems or gold (first held is dedicated), or \"refuse\"",
        ));
    }
    items.into_iter().map(|g| g.value.map_err(|p| *p)).collect()
}

fn read_entry(item: &Node) -> Result<Entry, Problem> {
    let table = item.as_table("announce entry")?;
    let oracle = table.get("oracle").map(|n| {
        Given::read(n, |n| {
            let text = n.as_str("oracle")?;
            Ok(Oracle::parse(text).ok_or_else(|| text.to_owned()))
        })
    });
    let kind = oracle
        .as_ref()
        .and_then(Given::ok)
        .and_then(|o| o.as_ref().ok());
    let unknown = kind.and_then(|oracle| {
        table
            .unknown_keys(
                entry_keys(*oracle),
                format_args!("an entry for {}", oracle.name()),
            )
            .into_iter()
            .next()
    });
    let name = |key: &str| {
        table
            .get(key)
            .map(|n| Given::read(n, |n| Name::read(n, key)))
    };
    Ok(Entry {
        oracle,
        unknown,
        from: name("from"),
        to: name("to"),
        player: name("player"),
    })
}

/// The keys an entry for `oracle` has.
pub fn entry_keys(oracle: Oracle) -> &'static [&'static str] {
    match oracle.effect().targets() {
        Targets::FromTo => &["oracle", "from", "to"],
        Targets::To => &["oracle", "to"],
        Targets::Player => &["oracle", "player"],
        Targets::Nobody => &["oracle"],
    }
}

fn read_respond(node: &Node) -> Result<Respond, Problem> {
    let table = node.as_table("respond")?;
    let resources = |key: &str, path: &str| {
        table.get(key).map(|n| {
            Given::read(n, |n| {
                strings(n, path, |text| {
                    Resource::parse(text)
                        .ok_or_else(|| format!("{path}: \"{text}\" is not wine, gems or gold"))
                })
            })
        })
    };
    Ok(Respond {
        unknown: table.unknown_keys(&["refuse", "give", "take"], "[respond]"),
        refuse: table.get("refuse").map(|n| {
            Given::read(n, |n| {
                strings(n, "respond.refuse", |text| {
                    Ok(Name::Written(text.to_owned()))
                })
            })
        }),
        give: resources("give", "respond.give"),
        take: resources("take", "respond.take"),
    })
}
