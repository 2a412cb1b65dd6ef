//! Filter arguments that are all literals (`join(sep=", ")`, `wrap(width=72)`), evaluated once
//! when the templates are compiled instead of once per use: tera hands a filter its arguments as
//! a map of owned names and values, which made each such call build a map and its strings.
//! A call is known by where it stands in the compiled templates (their ASTs do not move while
//! the `Tera` that holds them lives, and `Consts` is built from and kept with that `Tera`).

use std::collections::HashMap;
use tera::ast::{Expr, ExprVal, FunctionCall, Node};
use tera::{Number, Tera, Value};

/// The argument maps of every filter call of a `Tera` whose arguments are all literals.
#[derive(Default)]
pub struct Consts {
    /// (the call's address, its arguments), sorted by address.
    calls: Vec<(usize, HashMap<String, Value>)>,
}

impl Consts {
    pub fn of(tera: &Tera) -> Consts {
        let mut calls = Vec::new();
        for name in tera.get_template_names() {
            let Ok(template) = tera.get_template(name) else {
                continue;
            };
            nodes(&template.ast, &mut calls);
            for m in template.macros.values() {
                m.args.values().flatten().for_each(|e| expr(e, &mut calls));
                nodes(&m.body, &mut calls);
            }
        }
        calls.sort_unstable_by_key(|(at, _)| *at);
        calls.dedup_by_key(|(at, _)| *at);
        Consts { calls }
    }

    /// The arguments of `call`, if they are all literals.
    pub fn args(&self, call: &FunctionCall) -> Option<&HashMap<String, Value>> {
        let at = address(call);
        let i = self.calls.binary_search_by_key(&at, |(a, _)| *a).ok()?;
        Some(&self.calls[i].1)
    }
}

fn address(call: &FunctionCall) -> usize {
    std::ptr::from_ref(call) as usize
}

/// `call`'s arguments as the interpreter would evaluate them, if every one is a literal.
fn literal_args(call: &FunctionCall) -> Option<HashMap<String, Value>> {
    call.args
        .iter()
        .map(|(name, e)| {
            let plain = e.filters.is_empty() && !e.negated;
            let value = match &e.val {
                ExprVal::String(s) if plain => Value::String(s.clone()),
                ExprVal::Int(n) if plain => Value::Number((*n).into()),
                ExprVal::Float(f) if plain => Value::Number(Number::from_f64(*f)?),
                ExprVal::Bool(b) if plain => Value::Bool(*b),
                _ => return None,
            };
            Some((name.clone(), value))
        })
        .collect()
}

fn call(c: &FunctionCall, out: &mut Vec<(usize, HashMap<String, Value>)>) {
    if let Some(args) = literal_args(c) {
        out.push((address(c), args));
    }
    c.args.values().for_each(|e| expr(e, out));
}

fn nodes(list: &[Node], out: &mut Vec<(usize, HashMap<String, Value>)>) {
    for node in list {
        match node {
            Node::VariableBlock(_, e) => expr(e, out),
            Node::Set(_, set) => expr(&set.value, out),
            Node::FilterSection(_, section, _) => {
                call(&section.filter, out);
                nodes(&section.body, out);
            }
            Node::If(i, _) => {
                for (_, e, body) in &i.conditions {
                    expr(e, out);
                    nodes(body, out);
                }
                if let Some((_, body)) = &i.otherwise {
                    nodes(body, out);
                }
            }
            Node::Forloop(_, f, _) => {
                expr(&f.container, out);
                nodes(&f.body, out);
                if let Some(body) = &f.empty_body {
                    nodes(body, out);
                }
            }
            Node::Block(_, block, _) => nodes(&block.body, out),
            _ => {}
        }
    }
}

fn expr(e: &Expr, out: &mut Vec<(usize, HashMap<String, Value>)>) {
    e.filters.iter().for_each(|c| call(c, out));
    match &e.val {
        ExprVal::Math(m) => [&m.lhs, &m.rhs].into_iter().for_each(|x| expr(x, out)),
        ExprVal::Logic(l) => [&l.lhs, &l.rhs].into_iter().for_each(|x| expr(x, out)),
        ExprVal::In(i) => [&i.lhs, &i.rhs].into_iter().for_each(|x| expr(x, out)),
        ExprVal::Test(t) => t.args.iter().for_each(|x| expr(x, out)),
        ExprVal::Array(items) => items.iter().for_each(|x| expr(x, out)),
        ExprVal::MacroCall(m) => m.args.values().for_each(|x| expr(x, out)),
        ExprVal::FunctionCall(f) => f.args.values().for_each(|x| expr(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_whose_arguments_are_all_literals_are_kept_with_their_values() {
        let mut tera = Tera::default();
        tera.add_raw_template(
            "t",
            "{{ a | join(sep=\", \") }}{% filter wrap(width=72) %}x{% endfilter %}\
             {{ a | join(sep=s) }}{{ a | first }}{{ a | round(precision=2, method=\"floor\") }}",
        )
        .unwrap();
        tera.register_filter("wrap", crate::render::wrap_filter);
        let consts = Consts::of(&tera);
        let kept: Vec<&HashMap<String, Value>> = consts.calls.iter().map(|(_, a)| a).collect();
        let expect = [
            HashMap::from([("sep".to_string(), Value::from(", "))]),
            HashMap::from([("width".to_string(), Value::from(72))]),
            HashMap::new(),
            HashMap::from([
                ("precision".to_string(), Value::from(2)),
                ("method".to_string(), Value::from("floor")),
            ]),
        ];
        assert_eq!(kept.len(), expect.len(), "{kept:?}");
        for args in &expect {
            assert!(kept.contains(&args), "{args:?} in {kept:?}");
        }
        // and each is found from its call
        let template = tera.get_template("t").unwrap();
        let Node::VariableBlock(_, e) = &template.ast[0] else {
            panic!("a variable block first")
        };
        assert_eq!(consts.args(&e.filters[0]), Some(&expect[0]));
        let Node::VariableBlock(_, e) = &template.ast[2] else {
            panic!("a variable block third")
        };
        assert_eq!(consts.args(&e.filters[0]), None, "sep=s is not a literal");
    }
}
