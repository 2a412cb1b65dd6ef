//! Which templates `fast` renders: those that use only what it knows, checked once when the
//! templates are compiled; the same walk notes the filter calls whose arguments are all
//! literals (`Consts`).

use super::MAX_INCLUDES;
use super::consts::{Consts, Found};
use tera::Tera;
use tera::ast::{Expr, ExprVal, FunctionCall, Node};

/// If `name` and every template it includes use only what this interpreter renders, the
/// literal arguments of their filter calls.
pub fn prepare(tera: &Tera, name: &str) -> Option<Consts> {
    let mut found = Found::new();
    template_supported(tera, name, 0, &mut found).then(|| Consts::from(found))
}

fn template_supported(tera: &Tera, name: &str, depth: usize, out: &mut Found) -> bool {
    let Ok(template) = tera.get_template(name) else {
        return true; // a missing include is tera's error, reached at render time
    };
    depth < MAX_INCLUDES
        && template.parents.is_empty()
        && nodes_supported(tera, &template.ast, depth, out)
        && template.macros.values().all(|m| {
            m.args.values().flatten().all(|e| expr_supported(e, out))
                && nodes_supported(tera, &m.body, depth, out)
        })
        && (template.imported_macro_files.iter())
            .all(|(file, _)| template_supported(tera, file, depth + 1, out))
}

fn nodes_supported(tera: &Tera, nodes: &[Node], depth: usize, out: &mut Found) -> bool {
    nodes.iter().all(|node| match node {
        Node::Text(_) | Node::Raw(..) | Node::Comment(..) | Node::Break(_) | Node::Continue(_) => {
            true
        }
        Node::VariableBlock(_, e) => expr_supported(e, out),
        Node::Set(_, set) => expr_supported(&set.value, out),
        Node::FilterSection(_, section, _) => {
            call_supported(&section.filter, out) && nodes_supported(tera, &section.body, depth, out)
        }
        Node::If(i, _) => {
            i.conditions.iter().all(|(_, e, body)| {
                expr_supported(e, out) && nodes_supported(tera, body, depth, out)
            }) && i
                .otherwise
                .as_ref()
                .is_none_or(|(_, body)| nodes_supported(tera, body, depth, out))
        }
        Node::Forloop(_, f, _) => {
            expr_supported(&f.container, out)
                && nodes_supported(tera, &f.body, depth, out)
                && f.empty_body
                    .as_ref()
                    .is_none_or(|body| nodes_supported(tera, body, depth, out))
        }
        Node::Include(_, names, _) => names
            .iter()
            .all(|n| template_supported(tera, n, depth + 1, out)),
        // (a template's macros and imports are checked with the template)
        Node::MacroDefinition(..) | Node::ImportMacro(..) => true,
        Node::Super | Node::Extends(..) | Node::Block(..) => false,
    })
}

fn call_supported(call: &FunctionCall, out: &mut Found) -> bool {
    out.note(call);
    call.args.values().all(|e| expr_supported(e, out))
}

fn expr_supported(e: &Expr, out: &mut Found) -> bool {
    e.filters.iter().all(|c| call_supported(c, out)) && val_supported(&e.val, out)
}

fn val_supported(v: &ExprVal, out: &mut Found) -> bool {
    match v {
        ExprVal::String(_)
        | ExprVal::Int(_)
        | ExprVal::Float(_)
        | ExprVal::Bool(_)
        | ExprVal::Ident(_) => true,
        ExprVal::Math(m) => expr_supported(&m.lhs, out) && expr_supported(&m.rhs, out),
        ExprVal::Logic(l) => expr_supported(&l.lhs, out) && expr_supported(&l.rhs, out),
        ExprVal::Test(t) => t.args.iter().all(|e| expr_supported(e, out)),
        ExprVal::Array(items) => items.iter().all(|e| expr_supported(e, out)),
        ExprVal::StringConcat(c) => c.values.iter().all(|v| {
            matches!(
                v,
                ExprVal::String(_) | ExprVal::Int(_) | ExprVal::Float(_) | ExprVal::Ident(_)
            )
        }),
        ExprVal::In(i) => expr_supported(&i.lhs, out) && expr_supported(&i.rhs, out),
        ExprVal::MacroCall(call) => call.args.values().all(|e| expr_supported(e, out)),
        ExprVal::FunctionCall(_) => false,
    }
}
