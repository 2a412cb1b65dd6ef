//! Which templates `fast` renders: those that use only what it knows, checked once when the
//! templates are compiled.

use super::MAX_INCLUDES;
use tera::Tera;
use tera::ast::{Expr, ExprVal, FunctionCall, Node};

/// Whether `name` and every template it includes use only what this interpreter renders.
pub fn supports(tera: &Tera, name: &str) -> bool {
    template_supported(tera, name, 0)
}

fn template_supported(tera: &Tera, name: &str, depth: usize) -> bool {
    let Ok(template) = tera.get_template(name) else {
        return true; // a missing include is tera's error, reached at render time
    };
    depth < MAX_INCLUDES
        && template.parents.is_empty()
        && nodes_supported(tera, &template.ast, depth)
        && template.macros.values().all(|m| {
            m.args.values().flatten().all(expr_supported) && nodes_supported(tera, &m.body, depth)
        })
        && (template.imported_macro_files.iter())
            .all(|(file, _)| template_supported(tera, file, depth + 1))
}

fn nodes_supported(tera: &Tera, nodes: &[Node], depth: usize) -> bool {
    nodes.iter().all(|node| match node {
        Node::Text(_) | Node::Raw(..) | Node::Comment(..) | Node::Break(_) | Node::Continue(_) => {
            true
        }
        Node::VariableBlock(_, e) => expr_supported(e),
        Node::Set(_, set) => expr_supported(&set.value),
        Node::FilterSection(_, section, _) => {
            call_supported(&section.filter) && nodes_supported(tera, &section.body, depth)
        }
        Node::If(i, _) => {
            i.conditions
                .iter()
                .all(|(_, e, body)| expr_supported(e) && nodes_supported(tera, body, depth))
                && i.otherwise
                    .as_ref()
                    .is_none_or(|(_, body)| nodes_supported(tera, body, depth))
        }
        Node::Forloop(_, f, _) => {
            expr_supported(&f.container)
                && nodes_supported(tera, &f.body, depth)
                && f.empty_body
                    .as_ref()
                    .is_none_or(|body| nodes_supported(tera, body, depth))
        }
        Node::Include(_, names, _) => names.iter().all(|n| template_supported(tera, n, depth + 1)),
        // (a template's macros and imports are checked with the template)
        Node::MacroDefinition(..) | Node::ImportMacro(..) => true,
        Node::Super | Node::Extends(..) | Node::Block(..) => false,
    })
}

fn call_supported(call: &FunctionCall) -> bool {
    call.args.values().all(expr_supported)
}

fn expr_supported(e: &Expr) -> bool {
    e.filters.iter().all(call_supported) && val_supported(&e.val)
}

fn val_supported(v: &ExprVal) -> bool {
    match v {
        ExprVal::String(_)
        | ExprVal::Int(_)
        | ExprVal::Float(_)
        | ExprVal::Bool(_)
        | ExprVal::Ident(_) => true,
        ExprVal::Math(m) => expr_supported(&m.lhs) && expr_supported(&m.rhs),
        ExprVal::Logic(l) => expr_supported(&l.lhs) && expr_supported(&l.rhs),
        ExprVal::Test(t) => t.args.iter().all(expr_supported),
        ExprVal::Array(items) => items.iter().all(expr_supported),
        ExprVal::StringConcat(c) => c.values.iter().all(|v| {
            matches!(
                v,
                ExprVal::String(_) | ExprVal::Int(_) | ExprVal::Float(_) | ExprVal::Ident(_)
            )
        }),
        ExprVal::In(i) => expr_supported(&i.lhs) && expr_supported(&i.rhs),
        ExprVal::MacroCall(call) => call.args.values().all(expr_supported),
        ExprVal::FunctionCall(_) => false,
    }
}
