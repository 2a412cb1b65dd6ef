//! Values, as tera reads them: truth, numbers and arithmetic (their text is `filters::render`).

use super::{Step, Stop};
use tera::ast::MathOperator;
use tera::{Number, Value};

/// tera's `is_truthy`.
pub(super) fn truthy(value: &Value) -> bool {
    match value {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i != 0,
            (None, Some(u), _) => u != 0,
            (None, None, Some(f)) => f != 0.0 && !f.is_nan(),
            _ => false,
        },
        Value::Bool(b) => *b,
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

pub(super) fn as_f64(n: &Number) -> Step<f64> {
    n.as_f64().ok_or(Stop::Unsupported)
}

/// A number as a float, as tera compares numbers for equality.
pub(super) fn float(value: &Value) -> Step<Number> {
    let f = value.as_f64().ok_or(Stop::Unsupported)?;
    Number::from_f64(f).ok_or(Stop::Unsupported)
}

/// tera's arithmetic: checked on whole numbers of one kind, else in floats.
pub(super) fn math(l: &Number, r: &Number, op: MathOperator) -> Step<Option<Number>> {
    let whole = |i: Option<i64>| i.map(Number::from).ok_or(Stop::Error);
    let natural = |u: Option<u64>| u.map(Number::from).ok_or(Stop::Error);
    let (lf, rf) = (as_f64(l)?, as_f64(r)?);
    Ok(match op {
        MathOperator::Div => {
            let res = lf / rf;
            if res.is_nan() {
                None
            } else if res.round() == res && res.is_finite() {
                Some(Number::from(res as i64))
            } else {
                Number::from_f64(res)
            }
        }
        _ if l.is_i64() && r.is_i64() => {
            let (a, b) = (l.as_i64().expect("i64"), r.as_i64().expect("i64"));
            Some(match op {
                MathOperator::Add => whole(a.checked_add(b))?,
                MathOperator::Sub => whole(a.checked_sub(b))?,
                MathOperator::Mul => whole(a.checked_mul(b))?,
                _ if b == 0 => return Err(Stop::Error),
                _ => Number::from(a % b),
            })
        }
        _ if l.is_u64() && r.is_u64() => {
            let (a, b) = (l.as_u64().expect("u64"), r.as_u64().expect("u64"));
            Some(match op {
                MathOperator::Add => natural(a.checked_add(b))?,
                MathOperator::Sub => natural(a.checked_sub(b))?,
                MathOperator::Mul => natural(a.checked_mul(b))?,
                _ if b == 0 => return Err(Stop::Error),
                _ => Number::from(a % b),
            })
        }
        MathOperator::Add => Some(Number::from_f64(lf + rf).ok_or(Stop::Unsupported)?),
        MathOperator::Sub => Some(Number::from_f64(lf - rf).ok_or(Stop::Unsupported)?),
        MathOperator::Mul => Number::from_f64(lf * rf),
        MathOperator::Modulo => Number::from_f64(lf % rf),
    })
}
