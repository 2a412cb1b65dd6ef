//! Filter arguments that are all literals (`join(sep=", ")`, `wrap(width=72)`), evaluated once
//! when the templates are compiled instead of once per use: tera hands a filter its arguments as
//! a map of owned names and values, which made each such call build a map and its strings.
//! A call is known by where it stands in the compiled templates (their ASTs do not move while
//! the `Tera` that holds them lives, and `Consts` is built from and kept with that `Tera`); the
//! calls are found by the walk that checks what `fast` supports (`support::prepare`).

use std::collections::HashMap;
use tera::ast::{ExprVal, FunctionCall};
use tera::{Number, Value};

/// The argument maps of every filter call of a `Tera` whose arguments are all literals.
#[derive(Default)]
pub struct Consts {
    /// (the call's address, its arguments), sorted by address.
    calls: Vec<(usize, HashMap<String, Value>)>,
}

/// What the walk of the templates found (`support::prepare`), in the order it found it.
pub struct Found(Vec<(usize, HashMap<String, Value>)>);

impl Found {
    pub fn new() -> Found {
        Found(Vec::new())
    }

    /// Notes `call` if its arguments are all literals.
    pub fn note(&mut self, call: &FunctionCall) {
        if let Some(args) = literal_args(call) {
            self.0.push((address(call), args));
        }
    }
}

impl From<Found> for Consts {
    fn from(Found(mut calls): Found) -> Consts {
        // (a template included twice is walked twice)
        calls.sort_unstable_by_key(|(at, _)| *at);
        calls.dedup_by_key(|(at, _)| *at);
        Consts { calls }
    }
}

impl Consts {
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

#[cfg(test)]
mod tests {
    use super::*;
    use tera::Tera;
    use tera::ast::Node;

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
        let consts = super::super::support::prepare(&tera, "t").expect("supported");
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
