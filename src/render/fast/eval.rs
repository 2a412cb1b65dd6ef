//! Expressions, as tera's `eval_expression`, `eval_as_bool` and `eval_as_number` evaluate them.

use super::value::{as_f64, float, math, truthy};
use super::{State, Step, Stop, Val};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use tera::ast::{
    Expr, ExprVal, FunctionCall, In, LogicExpr, LogicOperator, MathExpr, StringConcat, Test,
};
use tera::{Number, Value};

impl<'a> State<'a> {
    /// tera's `eval_expression`.
    pub(super) fn eval(&mut self, expr: &'a Expr) -> Step<Val<'a>> {
        let mut value: Val<'a> = match &expr.val {
            ExprVal::Array(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(item)?.into_owned());
                }
                Cow::Owned(Value::Array(values))
            }
            ExprVal::In(i) => Cow::Owned(Value::Bool(self.is_in(i)?)),
            ExprVal::String(s) => Cow::Owned(Value::String(s.clone())),
            ExprVal::StringConcat(c) => Cow::Owned(Value::String(self.concat(c)?)),
            ExprVal::Int(n) => Cow::Owned(Value::Number((*n).into())),
            ExprVal::Float(f) => Cow::Owned(Value::Number(
                Number::from_f64(*f).ok_or(Stop::Unsupported)?,
            )),
            ExprVal::Bool(b) => Cow::Owned(Value::Bool(*b)),
            ExprVal::Ident(ident) => match self.lookup(ident) {
                Ok(found) if found.is_null() && expr.has_default_filter() => self.default(expr)?,
                Ok(found) => found,
                Err(Stop::Unsupported) => return Err(Stop::Unsupported),
                Err(Stop::Error) if expr.has_default_filter() => self.default(expr)?,
                // `not undefined` is true, not an error
                Err(Stop::Error) if expr.negated => return Ok(Cow::Owned(Value::Bool(true))),
                Err(stop) => return Err(stop),
            },
            ExprVal::Test(t) => Cow::Owned(Value::Bool(self.test(t)?)),
            ExprVal::Logic(_) => Cow::Owned(Value::Bool(self.truth(expr)?)),
            ExprVal::Math(_) => match self.number(&expr.val)? {
                Some(n) => Cow::Owned(Value::Number(n)),
                None => Cow::Owned(Value::String("NaN".to_owned())),
            },
            ExprVal::MacroCall(call) => Cow::Owned(Value::String(self.macro_call(call)?)),
            ExprVal::FunctionCall(_) => return Err(Stop::Unsupported),
        };
        for filter in &expr.filters {
            if filter.name == "safe" || filter.name == "default" {
                continue;
            }
            value = self.filter(&value, filter)?;
        }
        if expr.negated {
            return Ok(Cow::Owned(Value::Bool(!truthy(&value))));
        }
        Ok(value)
    }

    fn default(&mut self, expr: &'a Expr) -> Step<Val<'a>> {
        let value = expr.filters[0].args.get("value").ok_or(Stop::Error)?;
        self.eval(value)
    }

    pub(super) fn filter(&mut self, value: &Val<'a>, call: &'a FunctionCall) -> Step<Val<'a>> {
        let filter = self.tera.get_filter(&call.name).map_err(|_| Stop::Error)?;
        if let Some(args) = self.consts.args(call) {
            return (filter.filter(value, args))
                .map(Cow::Owned)
                .map_err(|_| Stop::Error);
        }
        let mut args = HashMap::with_capacity(call.args.len());
        for (name, expr) in &call.args {
            args.insert(name.clone(), self.eval(expr)?.into_owned());
        }
        filter
            .filter(value, &args)
            .map(Cow::Owned)
            .map_err(|_| Stop::Error)
    }

    fn test(&mut self, t: &'a Test) -> Step<bool> {
        let tester = self.tera.get_tester(&t.name).map_err(|_| Stop::Error)?;
        let mut args = Vec::with_capacity(t.args.len());
        for arg in &t.args {
            args.push(self.eval(arg)?.into_owned());
        }
        let found = match self.lookup(&t.ident) {
            Ok(v) => Some(v),
            Err(Stop::Error) => None,
            Err(Stop::Unsupported) => return Err(Stop::Unsupported),
        };
        let result = tester
            .test(found.as_deref(), &args)
            .map_err(|_| Stop::Error)?;
        Ok(result != t.negated)
    }

    fn is_in(&mut self, i: &'a In) -> Step<bool> {
        let lhs = self.eval(&i.lhs)?;
        let rhs = self.eval(&i.rhs)?;
        let present = match (&*rhs, &*lhs) {
            (Value::Array(items), _) => items.contains(&lhs),
            (Value::String(s), Value::String(part)) => s.contains(part.as_str()),
            (Value::Object(map), Value::String(key)) => map.contains_key(key),
            _ => return Err(Stop::Error),
        };
        Ok(present != i.negated)
    }

    fn concat(&mut self, c: &'a StringConcat) -> Step<String> {
        let mut out = String::new();
        for part in &c.values {
            match part {
                ExprVal::String(s) => out.push_str(s),
                ExprVal::Int(n) => write!(out, "{n}").expect("a string"),
                ExprVal::Float(f) => write!(out, "{f}").expect("a string"),
                ExprVal::Ident(ident) => match &*self.lookup(ident)? {
                    Value::String(s) => out.push_str(s),
                    Value::Number(n) => out.push_str(&n.to_string()),
                    _ => return Err(Stop::Error),
                },
                _ => return Err(Stop::Unsupported),
            }
        }
        Ok(out)
    }

    /// tera's `eval_as_bool`, to the letter (a negated name is negated twice, as there).
    pub(super) fn truth(&mut self, expr: &'a Expr) -> Step<bool> {
        let result = match &expr.val {
            ExprVal::Logic(LogicExpr { lhs, rhs, operator }) => match operator {
                LogicOperator::Or => self.truth(lhs)? || self.truth(rhs)?,
                LogicOperator::And => self.truth(lhs)? && self.truth(rhs)?,
                LogicOperator::Gt | LogicOperator::Gte | LogicOperator::Lt | LogicOperator::Lte => {
                    let l = self.expr_number(lhs)?.ok_or(Stop::Error)?;
                    let r = self.expr_number(rhs)?.ok_or(Stop::Error)?;
                    let (l, r) = (as_f64(&l)?, as_f64(&r)?);
                    match operator {
                        LogicOperator::Gte => l >= r,
                        LogicOperator::Gt => l > r,
                        LogicOperator::Lte => l <= r,
                        _ => l < r,
                    }
                }
                LogicOperator::Eq | LogicOperator::NotEq => {
                    let mut l = self.eval(lhs)?;
                    let mut r = self.eval(rhs)?;
                    if l.is_number() || r.is_number() {
                        if !l.is_number() || !r.is_number() {
                            return Ok(false);
                        }
                        l = Cow::Owned(Value::Number(float(&l)?));
                        r = Cow::Owned(Value::Number(float(&r)?));
                    }
                    (*l == *r) == (*operator == LogicOperator::Eq)
                }
            },
            ExprVal::Ident(_) => {
                let value = match self.eval(expr) {
                    Ok(v) => truthy(&v),
                    Err(Stop::Error) => false,
                    Err(Stop::Unsupported) => return Err(Stop::Unsupported),
                };
                value != expr.negated
            }
            ExprVal::Math(_) | ExprVal::Int(_) | ExprVal::Float(_) => {
                match self.number(&expr.val)? {
                    Some(n) => as_f64(&n)? != 0.0,
                    None => false,
                }
            }
            ExprVal::In(i) => self.is_in(i)?,
            ExprVal::Test(t) => self.test(t)?,
            ExprVal::Bool(b) => *b,
            ExprVal::String(s) => !s.is_empty(),
            ExprVal::StringConcat(_) => {
                let value = self.eval(expr)?;
                !value.as_str().ok_or(Stop::Unsupported)?.is_empty()
            }
            _ => return Err(Stop::Unsupported),
        };
        Ok(result != expr.negated)
    }

    /// tera's `eval_expr_as_number`: an expression with filters must give a number.
    fn expr_number(&mut self, expr: &'a Expr) -> Step<Option<Number>> {
        if expr.filters.is_empty() {
            return self.number(&expr.val);
        }
        match &*self.eval(expr)? {
            Value::Number(n) => Ok(Some(n.clone())),
            _ => Err(Stop::Error),
        }
    }

    /// tera's `eval_as_number`: whole numbers stay whole (checked), anything else is a float.
    fn number(&mut self, val: &'a ExprVal) -> Step<Option<Number>> {
        Ok(match val {
            ExprVal::Ident(ident) => match &*self.lookup(ident)? {
                // (tera rebuilds it from its i64, u64 or f64: the same number)
                Value::Number(n) => Some(n.clone()),
                _ => return Err(Stop::Error),
            },
            ExprVal::Int(n) => Some(Number::from(*n)),
            ExprVal::Float(f) => Some(Number::from_f64(*f).ok_or(Stop::Unsupported)?),
            ExprVal::Math(MathExpr { lhs, rhs, operator }) => {
                let (Some(l), Some(r)) = (self.expr_number(lhs)?, self.expr_number(rhs)?) else {
                    return Ok(None);
                };
                math(&l, &r, *operator)?
            }
            ExprVal::FunctionCall(_) | ExprVal::MacroCall(_) => return Err(Stop::Unsupported),
            ExprVal::String(_) | ExprVal::Bool(_) | ExprVal::StringConcat(_) | ExprVal::Test(_) => {
                return Err(Stop::Error);
            }
            _ => return Err(Stop::Unsupported),
        })
    }
}
