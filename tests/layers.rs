//! The layers of `src/` (ARCHITECTURE.md, "Layers"), checked from the code's text: what each part
//! must not know. A forbidden import is named with its file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Modules every layer may use: no file, mail, configuration or game in them.
const GROUND: &[&str] = &[
    "clock",
    "doc",
    "error",
    "host_file",
    "player_id",
    "problem",
    "redact",
    "rng",
    "submission",
    "svg",
];

/// (module, what it must not use, why).
const FORBIDDEN: &[(&str, &[&str], &str)] = &[
    (
        "games",
        &[
            "crate::clock",
            "crate::error",
            "crate::host_file",
            "crate::config",
            "crate::mail",
            "crate::game_dir",
            "crate::context",
            "std::fs",
            "std::io",
            "std::env",
            "std::time",
            "jiff",
        ],
        "engines are pure: no configuration, mail, files or clock",
    ),
    (
        "ingest",
        &["crate::games", "crate::tick"],
        "ingest takes the keys and the round window it needs, not a game",
    ),
    (
        "*",
        &["crate::commands", "clap::", "std::process::exit"],
        "only the command line (src/commands/) knows clap and exits",
    ),
];

struct Source {
    path: PathBuf,
    module: String,
    /// Code lines (comments and the unit tests at the end of a file left out), numbered from 1.
    lines: Vec<(usize, String)>,
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(&src).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(&src).unwrap();
        if rel == Path::new("main.rs") || rel == Path::new("lib.rs") {
            continue;
        }
        let module = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if code.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            lines.push((i + 1, code.to_owned()));
        }
        out.push(Source {
            path: rel.to_owned(),
            module,
            lines,
        });
    }
    out
}

/// `crate::X` references between top-level modules.
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<&str> = sources.iter().map(|s| s.module.as_str()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in sources {
        for (_, line) in &s.lines {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name != s.module && modules.contains(name.as_str()) {
                    graph.entry(s.module.clone()).or_default().insert(name);
                }
            }
        }
    }
    graph
}

#[test]
fn no_layer_uses_what_it_must_not_know() {
    let mut found = Vec::new();
    for s in sources() {
        for (module, words, why) in FORBIDDEN {
            if *module != "*" && s.module != *module || *module == "*" && s.module == "commands" {
                continue;
            }
            for (n, line) in &s.lines {
                for word in *words {
                    if line.contains(word) {
                        found.push(format!("src/{}:{n}: uses {word}: {why}", s.path.display()));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_ground_uses_only_the_ground() {
    let sources = sources();
    let graph = graph(&sources);
    for module in GROUND {
        let above: Vec<&String> = graph
            .get(*module)
            .into_iter()
            .flatten()
            .filter(|m| !GROUND.contains(&m.as_str()))
            .collect();
        assert!(above.is_empty(), "{module} uses {above:?}");
    }
    let engines: Vec<&String> = graph["games"]
        .iter()
        .filter(|m| !GROUND.contains(&m.as_str()))
        .collect();
    assert!(engines.is_empty(), "games uses {engines:?}");
}

#[test]
fn no_two_modules_import_each_other_even_through_others() {
    let graph = graph(&sources());
    // depth-first search; a module met again while still on the path closes a cycle
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|p| *p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m);
            return Some(cycle);
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        if let Some(cycle) = visit(m, &graph, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
}
