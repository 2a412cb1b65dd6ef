//! Parses every built-in template (`templates/**.tera`, `games/*/templates/*.tera`) once, with
//! the tera the binary links, and stores each one's AST for the binary to read instead of
//! parsing the text on every run (`src/render/precompiled.rs`: parsing was most of a small
//! tick). A built-in template that does not parse fails the build, naming its file.

#[path = "src/render/ast_codec.rs"]
#[allow(dead_code)] // the build writes; only the binary reads
mod ast_codec;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets it"));
    let mut sources = Vec::new();
    collect(&root.join("templates"), &mut sources);
    for game in entries(&root.join("games")) {
        collect(&game.join("templates"), &mut sources);
    }
    sources.sort();

    // `&[(source, AST bytes)]`: the source as `include_str!` reads it, so the binary matches a
    // template by its text (a host's override never matches a built-in AST by name alone)
    let mut table = String::from("&[\n");
    for (i, path) in sources.iter().enumerate() {
        let text = fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
        let template = tera::Template::new("built-in", None, &text)
            .unwrap_or_else(|e| panic!("{}: does not parse: {e:?}", path.display()));
        let ast = out.join(format!("template-{i}.ast"));
        fs::write(&ast, ast_codec::encode(&template.ast))
            .unwrap_or_else(|e| panic!("{}: cannot write: {e}", ast.display()));
        writeln!(
            table,
            "    (include_str!({:?}), include_bytes!({:?})),",
            path.display().to_string(),
            ast.display().to_string()
        )
        .expect("writing to a String");
    }
    table.push_str("]\n");
    let generated = out.join("precompiled_templates.rs");
    fs::write(&generated, table)
        .unwrap_or_else(|e| panic!("{}: cannot write: {e}", generated.display()));

    // (a folder is watched whole: a new game's templates are found too)
    println!("cargo::rerun-if-changed=templates");
    println!("cargo::rerun-if-changed=games");
}

/// The `.tera` files under `dir`, at any depth.
fn collect(dir: &Path, sources: &mut Vec<PathBuf>) {
    if !dir.is_dir() {
        return;
    }
    for path in entries(dir) {
        if path.is_dir() {
            collect(&path, sources);
        } else if path.extension().is_some_and(|ext| ext == "tera") {
            sources.push(path);
        }
    }
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: cannot list: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .collect();
    paths.sort();
    paths
}
