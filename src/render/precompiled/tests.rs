use super::*;
use std::path::{Path, PathBuf};

/// Every `.tera` file of the repository's built-in template folders, as `build.rs` finds them.
fn template_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "tera") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("templates"), &mut files);
    for game in std::fs::read_dir(root.join("games")).unwrap() {
        walk(&game.unwrap().path().join("templates"), &mut files);
    }
    files
}

/// Every field of a `Template` but its name (tera's `Template` has no `PartialEq`).
fn assert_same_template(ours: &Template, teras: &Template, what: &str) {
    assert_eq!(ours.ast, teras.ast, "{what}: AST");
    assert_eq!(ours.path, teras.path, "{what}: path");
    assert_eq!(ours.parent, teras.parent, "{what}: parent");
    assert_eq!(ours.blocks, teras.blocks, "{what}: blocks");
    assert_eq!(ours.macros, teras.macros, "{what}: macros");
    assert_eq!(
        ours.imported_macro_files, teras.imported_macro_files,
        "{what}: imported macros"
    );
    assert_eq!(ours.from_extend, teras.from_extend, "{what}: from_extend");
    assert_eq!(ours.parents, teras.parents, "{what}: parents");
    assert_eq!(
        ours.blocks_definitions, teras.blocks_definitions,
        "{what}: block definitions"
    );
}

#[test]
fn every_built_in_template_is_stored_as_tera_parses_it() {
    let files = template_files();
    assert!(files.len() >= 30, "found the template folders: {files:?}");
    assert_eq!(PRECOMPILED.len(), files.len(), "one stored AST per file");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let what = file.display().to_string();
        let ast = stored_ast(&text).unwrap_or_else(|| panic!("{what}: no stored AST"));
        let teras = Template::new("t", None, &text).unwrap();
        assert_same_template(&from_ast("t", ast).unwrap(), &teras, &what);
    }
}

#[test]
fn a_tera_built_from_stored_asts_is_the_one_tera_builds() {
    // a game whose reports import a macro file and whose acknowledgement extends the common
    // one: inheritance and macro checks run on both
    let game = crate::games::GameId::ALL
        .iter()
        .map(|g| g.profile().templates)
        .find(|t| t.iter().any(|(_, text)| text.contains("{%- import")))
        .expect("a game's templates import macros");
    let sources: Vec<(&str, &str)> = super::super::COMMON.iter().chain(game).copied().collect();
    assert!(sources.iter().any(|(_, text)| text.contains("{%- extends")));
    let mut ours = Tera::default();
    add_templates(&mut ours, sources.iter().copied()).unwrap();
    let mut teras = Tera::default();
    teras.add_raw_templates(sources.iter().copied()).unwrap();
    assert_eq!(ours.templates.len(), sources.len());
    for (name, _) in &sources {
        assert_same_template(&ours.templates[*name], &teras.templates[*name], name);
    }
}

/// A template with every kind of node and expression tera has (what the built-in ones lack too).
const EVERY_NODE: &str = r#"{% import "macros.tera" as m %}{% macro greet(who, loud=true) %}Hi {{ who }}{% if loud %}!{% endif %}{% endmacro %}
{# a comment #}{%- raw -%} {{ not parsed }} {%- endraw -%}
{% set x = 1 + 2 * 3 - 4 / 5 % 6 %}{% set_global y = [1, -2, 3.5, "s", true, false, z] %}
{{ a.b[0] | upper | replace(from="a", to="b") }} {{ not a and b or c }} {{ a ~ "x" ~ b }}
{{ a is defined }} {{ a is not divisibleby(3) }} {{ "a" in list }} {{ b not in list }}
{{ m::thing(x=1) }} {{ self::greet(who="you", loud=false) }} {{ now(utc=true) }} {{ -1.25 }}
{% for k, v in map | items %}{{ k }}{% if loop.first %}{% continue %}{% endif %}{% break %}{% else %}none{% endfor %}
{% if a > 1 %}a{% elif a >= 2 %}b{% elif a < 3 or a <= 4 %}c{% elif a == 5 and a != 6 %}d{% else %}e{% endif %}
{% filter upper %}shout{% endfilter %}{% include ["missing.tera", "other.tera"] ignore missing %}
"#;

const EXTENDS: &str = r#"{% extends "base.tera" %}{% block main %}{{ super() }}{% block inner %}in{% endblock inner %}{% endblock main %}"#;

#[test]
fn every_node_reads_back_as_written() {
    for text in [EVERY_NODE, EXTENDS] {
        let ast = Template::new("t", None, text).unwrap().ast;
        let bytes = ast_codec::encode(&ast);
        assert_eq!(ast_codec::decode(&bytes).as_ref(), Some(&ast), "{text}");
        let teras = Template::new("t", None, text).unwrap();
        assert_same_template(&from_ast("t", ast).unwrap(), &teras, text);
    }
}

#[test]
fn bytes_the_build_did_not_write_read_as_nothing() {
    let ast = Template::new("t", None, EVERY_NODE).unwrap().ast;
    let bytes = ast_codec::encode(&ast);
    for cut in 0..bytes.len() {
        assert_eq!(ast_codec::decode(&bytes[..cut]), None, "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(ast_codec::decode(&longer), None, "a byte left over");
    // a count far beyond the bytes there are is refused before anything is allocated
    assert_eq!(ast_codec::decode(&[0xff, 0xff, 0xff, 0xff, 0x0f]), None);
    // every single byte changed: no panic, whatever it reads as
    for at in 0..bytes.len() {
        let mut changed = bytes.clone();
        changed[at] ^= 0xa5;
        let _ = ast_codec::decode(&changed);
    }
}

#[test]
fn a_hosts_override_is_parsed_even_under_a_built_in_name() {
    let (name, builtin) = crate::games::GameId::ALL[0].profile().templates[0];
    let mut tera = Tera::default();
    add_templates(&mut tera, [(name, "Hello {{ who }}.")]).unwrap();
    let mut ctx = tera::Context::new();
    ctx.insert("who", "host");
    assert_eq!(tera.render(name, &ctx).unwrap(), "Hello host.");
    assert_ne!(builtin, "Hello {{ who }}.");
}

#[test]
fn a_broken_override_fails_as_tera_fails() {
    let (name, _) = crate::games::GameId::ALL[0].profile().templates[0];
    let broken = [(name, "{% if %}")];
    let ours = add_templates(&mut Tera::default(), broken).unwrap_err();
    let teras = Tera::default().add_raw_templates(broken).unwrap_err();
    let chain = super::super::error_chain;
    assert_eq!(chain(&ours), chain(&teras));
    assert!(chain(&ours).contains(&format!("Failed to parse '{name}'")));
}
