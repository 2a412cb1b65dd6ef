//! Names, as tera finds them: the frames from the innermost, then the context.

use super::{SPECIAL, State, Step, Stop, Val};
use smallvec::SmallVec;
use std::borrow::Cow;
use tera::Value;

impl<'a> State<'a> {
    /// tera's lookup of a name (`me.hand`, `loop.index`, `p.points[g]`): the frames from the
    /// innermost, then the context.
    pub(super) fn lookup(&self, path: &'a str) -> Step<Val<'a>> {
        if path == "__tera_context" {
            return Err(Stop::Unsupported);
        }
        if path.contains('[') {
            let segments = self.indexed(path)?;
            let tail: SmallVec<[&str; 6]> = segments[1..].iter().map(String::as_str).collect();
            return self.find(&segments[0], &tail).ok_or(Stop::Error);
        }
        let mut parts = path.split('.');
        let root = parts.next().expect("split gives one part");
        let tail: SmallVec<[&str; 6]> = parts.collect();
        self.find(root, &tail).ok_or(Stop::Error)
    }

    fn find(&self, root: &str, tail: &[&str]) -> Option<Val<'a>> {
        for frame in self.frames.iter().rev() {
            if let Some((_, value)) = frame.vars.iter().find(|(k, _)| *k == root)
                && let Some(found) = by_pointer(value, tail)
            {
                return Some(found);
            }
            if let Some(l) = &frame.looping {
                if tail.is_empty() && l.key_name == Some(root) {
                    return l.key().map(Cow::Owned);
                }
                if root == "loop" {
                    let n = match tail {
                        ["index"] => Value::Number((l.current + 1).into()),
                        ["index0"] => Value::Number(l.current.into()),
                        ["first"] => Value::Bool(l.current == 0),
                        ["last"] => Value::Bool(l.current == l.len - 1),
                        _ => continue,
                    };
                    return Some(Cow::Owned(n));
                }
                if root == l.name {
                    let current = l.value();
                    let found = match tail.is_empty() {
                        true => Some(current),
                        false => by_pointer(&current, tail),
                    };
                    if found.is_some() {
                        return found;
                    }
                }
            }
            // the template's own frame is the last one a name is looked up in
            if frame.looping.is_none() && !frame.include {
                break;
            }
        }
        let value = self.ctx.get(root)?;
        pointer(value, tail).map(Cow::Borrowed)
    }

    /// A path with indexes, as segments: `[0]` and `["x"]` as they stand, `[name]` replaced by
    /// the name's value (a string or a whole number). Nested indexes, and keys tera would spell
    /// into something else, are left to tera.
    fn indexed(&self, path: &'a str) -> Step<Vec<String>> {
        let mut segments = Vec::new();
        let mut rest = path;
        loop {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            if end > 0 {
                segments.push(rest[..end].to_owned());
            } else if segments.is_empty() {
                return Err(Stop::Unsupported);
            }
            rest = &rest[end..];
            if let Some(after) = rest.strip_prefix('.') {
                rest = after;
            } else if let Some(after) = rest.strip_prefix('[') {
                let close = after.find(']').ok_or(Stop::Unsupported)?;
                let inner = &after[..close];
                let name = inner
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && inner
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
                let quoted = [('"', '"'), ('\'', '\'')]
                    .iter()
                    .find_map(|(open, close)| inner.strip_prefix(*open)?.strip_suffix(*close));
                let key = if inner.parse::<usize>().is_ok() {
                    inner.to_owned() // `a[0]`: the digits as they stand
                } else if let Some(text) = quoted.filter(|t| !t.contains(SPECIAL)) {
                    text.to_owned() // `a["x"]`
                } else if name {
                    match &*self.lookup(inner)? {
                        Value::String(s) if !s.contains(SPECIAL) => s.clone(),
                        Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
                        _ => return Err(Stop::Unsupported),
                    }
                } else {
                    return Err(Stop::Unsupported);
                };
                segments.push(key);
                rest = &after[close + 1..];
                if let Some(after) = rest.strip_prefix('.') {
                    rest = after;
                } else if !rest.is_empty() && !rest.starts_with('[') {
                    return Err(Stop::Unsupported);
                }
            }
            if rest.is_empty() {
                return Ok(segments);
            }
        }
    }
}

/// tera's `value_by_pointer`: into a borrowed value by reference, into an owned one by copy
/// (the value itself for no segments).
fn by_pointer<'a>(value: &Val<'a>, tail: &[&str]) -> Option<Val<'a>> {
    match value {
        Cow::Borrowed(v) => pointer(v, tail).map(Cow::Borrowed),
        Cow::Owned(v) => pointer(v, tail).map(|found| Cow::Owned(found.clone())),
    }
}

/// tera's `dotted_pointer` for plain segments.
fn pointer<'v>(value: &'v Value, tail: &[&str]) -> Option<&'v Value> {
    tail.iter().try_fold(value, |target, segment| match target {
        Value::Object(map) => map.get(*segment),
        Value::Array(list) => index(segment).and_then(|i| list.get(i)),
        _ => None,
    })
}

/// serde_json's (and tera's) reading of an array index.
fn index(s: &str) -> Option<usize> {
    if s.starts_with('+') || (s.starts_with('0') && s.len() != 1) {
        return None;
    }
    s.parse().ok()
}
