//! Built-in templates, parsed when the binary was built (`build.rs`, `ast_codec`): a run adds
//! them to tera from their stored AST instead of parsing their text. tera's parser takes about a
//! microsecond a byte (Room Swap's public report: 7 ms), so a small resolving tick spent most
//! of its time parsing the same built-in text every run; reading the stored AST takes
//! microseconds.
//!
//! A template is matched by its whole text, never by name alone: a host's override, or any text
//! the build did not see, is parsed by tera as before. What `add_templates` builds is what
//! `Tera::add_raw_templates` builds from the same text (the tests compare every built-in one).

use super::ast_codec;
use std::collections::HashMap;
use tera::ast::{Block, Node};
use tera::{Template, Tera};

/// `(source, AST bytes)` of every built-in template, written by `build.rs`.
static PRECOMPILED: &[(&str, &[u8])] =
    include!(concat!(env!("OUT_DIR"), "/precompiled_templates.rs"));

/// The AST the build stored for exactly this text, if it is a built-in template's.
fn stored_ast(source: &str) -> Option<Vec<Node>> {
    let (_, bytes) = PRECOMPILED.iter().find(|(text, _)| *text == source)?;
    let ast = ast_codec::decode(bytes);
    debug_assert!(ast.is_some(), "the build's stored AST reads back");
    ast
}

/// Adds `templates` (name, source) to `tera` as `Tera::add_raw_templates` does, each built-in
/// one from its stored AST.
pub fn add_templates<N: AsRef<str>, S: AsRef<str>>(
    tera: &mut Tera,
    templates: impl IntoIterator<Item = (N, S)>,
) -> tera::Result<()> {
    for (name, source) in templates {
        let (name, source) = (name.as_ref(), source.as_ref());
        let template = match stored_ast(source) {
            Some(ast) => from_ast(name, ast),
            None => Template::new(name, None, source),
        }
        .map_err(|e| tera::Error::chain(format!("Failed to parse '{name}'"), e))?;
        // `templates` is tera's own map (public, hidden from its docs): the one way to add a
        // template without parsing it
        tera.templates.insert(name.to_string(), template);
    }
    tera.build_inheritance_chains()?;
    tera.check_macro_files()
}

/// What `Template::new` builds once it has parsed the text into `ast` (tera 1.20's
/// `template.rs`, step by step): the blocks, macros, imports and parent the AST names.
fn from_ast(name: &str, ast: Vec<Node>) -> tera::Result<Template> {
    let mut blocks = HashMap::new();
    find_blocks(&ast, &mut blocks)?;
    let mut macros = HashMap::new();
    let mut imported_macro_files = Vec::new();
    let mut parent = None;
    for node in &ast {
        match node {
            Node::Extends(_, name) => parent = Some(name.to_string()),
            Node::MacroDefinition(_, definition, _) => {
                if macros.contains_key(&definition.name) {
                    return Err(tera::Error::msg(format!(
                        "Macro `{}` is duplicated",
                        definition.name
                    )));
                }
                macros.insert(definition.name.clone(), definition.clone());
            }
            Node::ImportMacro(_, file, namespace) => {
                imported_macro_files.push((file.to_string(), namespace.to_string()));
            }
            _ => {}
        }
    }
    Ok(Template {
        name: name.to_string(),
        path: None,
        ast,
        from_extend: false,
        macros,
        imported_macro_files,
        parent,
        blocks,
        parents: Vec::new(),
        blocks_definitions: HashMap::new(),
    })
}

/// Every block of `ast`, blocks within blocks included; a name used twice is an error.
fn find_blocks(ast: &[Node], blocks: &mut HashMap<String, Block>) -> tera::Result<()> {
    for node in ast {
        if let Node::Block(_, block, _) = node {
            if blocks.contains_key(&block.name) {
                return Err(tera::Error::msg(format!(
                    "Block `{}` is duplicated",
                    block.name
                )));
            }
            blocks.insert(block.name.to_string(), block.clone());
            find_blocks(&block.body, blocks)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
