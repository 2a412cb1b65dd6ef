//! tera's parsed templates (its public AST, `tera::ast`) as bytes and back: the build script
//! (`build.rs`) parses every built-in template once, with the tera the binary links, and stores
//! its AST this way; a run reads the bytes instead of parsing the text again (`precompiled`).
//! Parsing was most of a small tick: tera's pest grammar takes about a microsecond a byte.
//!
//! The format is private to one build: written by its build script and read by the binary built
//! with it, so it carries no version. Each type writes its fields in declaration order; an
//! enum writes its variant's index first. Every `match` is exhaustive: a tera that grew a node
//! would not compile here. Reading stops with `None` on anything it did not write.
//!
//! This file is also compiled into `build.rs` (by path): it uses nothing of this crate.

use std::collections::HashMap;
use tera::ast::{
    Block, Expr, ExprVal, FilterSection, Forloop, FunctionCall, If, In, LogicExpr, LogicOperator,
    MacroCall, MacroDefinition, MathExpr, MathOperator, Node, Set, StringConcat, Test, WS,
};

/// Writes `nodes` (a template's AST) as bytes.
#[allow(dead_code)] // the build script writes (and the tests); the binary only reads
pub fn encode(nodes: &[Node]) -> Vec<u8> {
    let mut out = Vec::new();
    put_len(nodes.len(), &mut out);
    nodes.iter().for_each(|node| node.put(&mut out));
    out
}

/// Reads bytes written by `encode`; `None` if they are not exactly that.
pub fn decode(bytes: &[u8]) -> Option<Vec<Node>> {
    let mut reader = Reader { bytes };
    let nodes = Vec::<Node>::get(&mut reader)?;
    reader.bytes.is_empty().then_some(nodes)
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn eight(&mut self) -> Option<[u8; 8]> {
        self.take(8)?.try_into().ok()
    }

    /// A length or a count: LEB128, at most what fits in a `usize`.
    fn len(&mut self) -> Option<usize> {
        let mut value: usize = 0;
        for shift in (0..usize::BITS).step_by(7) {
            let byte = self.byte()?;
            value |= usize::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }
}

#[allow(dead_code)] // the writer's (see `encode`)
fn put_len(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A value written and read in this format.
trait Codec: Sized {
    #[allow(dead_code)] // the writer's (see `encode`)
    fn put(&self, out: &mut Vec<u8>);
    fn get(r: &mut Reader) -> Option<Self>;
}

impl Codec for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match r.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Codec for i64 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(i64::from_le_bytes(r.eight()?))
    }
}

impl Codec for f64 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bits().to_le_bytes());
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(f64::from_bits(u64::from_le_bytes(r.eight()?)))
    }
}

impl Codec for String {
    fn put(&self, out: &mut Vec<u8>) {
        put_len(self.len(), out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let n = r.len()?;
        String::from_utf8(r.take(n)?.to_vec()).ok()
    }
}

impl<T: Codec> Codec for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        put_len(self.len(), out);
        self.iter().for_each(|item| item.put(out));
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let n = r.len()?;
        // every item is at least a byte: a count beyond the bytes left is not ours
        if n > r.bytes.len() {
            return None;
        }
        (0..n).map(|_| T::get(r)).collect()
    }
}

impl<T: Codec> Codec for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.put(out);
            }
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        match r.byte()? {
            0 => Some(None),
            1 => Some(Some(T::get(r)?)),
            _ => None,
        }
    }
}

impl<T: Codec> Codec for Box<T> {
    fn put(&self, out: &mut Vec<u8>) {
        (**self).put(out);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        T::get(r).map(Box::new)
    }
}

/// A map of arguments, written sorted by name (the same bytes whatever the map's order).
impl<T: Codec> Codec for HashMap<String, T> {
    fn put(&self, out: &mut Vec<u8>) {
        let mut entries: Vec<_> = self.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        put_len(entries.len(), out);
        for (key, value) in entries {
            key.put(out);
            value.put(out);
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        let pairs = Vec::<(String, T)>::get(r)?;
        let n = pairs.len();
        let map: HashMap<String, T> = pairs.into_iter().collect();
        (map.len() == n).then_some(map)
    }
}

impl<A: Codec, B: Codec> Codec for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some((A::get(r)?, B::get(r)?))
    }
}

impl<A: Codec, B: Codec, C: Codec> Codec for (A, B, C) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
        self.2.put(out);
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some((A::get(r)?, B::get(r)?, C::get(r)?))
    }
}

/// A struct of tera's AST: its fields in order.
macro_rules! codec_struct {
    ($($ty:ident { $($field:ident),* })*) => {$(
        impl Codec for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                let $ty { $($field),* } = self;
                $($field.put(out);)*
            }
            fn get(r: &mut Reader) -> Option<Self> {
                $(let $field = Codec::get(r)?;)*
                Some($ty { $($field),* })
            }
        }
    )*};
}

codec_struct! {
    WS { left, right }
    FunctionCall { name, args }
    MathExpr { lhs, rhs, operator }
    LogicExpr { lhs, rhs, operator }
    StringConcat { values }
    In { lhs, rhs, negated }
    Expr { val, negated, filters }
    Test { ident, negated, name, args }
    FilterSection { filter, body }
    Set { key, value, global }
    MacroCall { namespace, name, args }
    MacroDefinition { name, args, body }
    Block { name, body }
    Forloop { key, value, container, body, empty_body }
    If { conditions, otherwise }
}

/// An enum without data: its variants, in a fixed order.
macro_rules! codec_unit_enum {
    ($($ty:ident [$($variant:ident),*])*) => {$(
        impl Codec for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                const ALL: &[$ty] = &[$($ty::$variant),*];
                let index = ALL.iter().position(|v| v == self).expect("every variant is listed");
                out.push(index as u8);
            }
            fn get(r: &mut Reader) -> Option<Self> {
                const ALL: &[$ty] = &[$($ty::$variant),*];
                ALL.get(usize::from(r.byte()?)).copied()
            }
        }
        // a variant left out of the list would be missed here: this match must name them all
        const _: fn($ty) = |v| match v { $($ty::$variant)|* => () };
    )*};
}

codec_unit_enum! {
    MathOperator [Add, Sub, Mul, Div, Modulo]
    LogicOperator [Gt, Gte, Lt, Lte, Eq, NotEq, And, Or]
}

/// A variant of an enum with data: its index, then its fields in order.
macro_rules! put_fields {
    ($out:ident, $tag:literal $(, $field:ident)*) => {{
        $out.push($tag);
        $($field.put($out);)*
    }};
}

impl Codec for ExprVal {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            ExprVal::String(v) => put_fields!(out, 0, v),
            ExprVal::Int(v) => put_fields!(out, 1, v),
            ExprVal::Float(v) => put_fields!(out, 2, v),
            ExprVal::Bool(v) => put_fields!(out, 3, v),
            ExprVal::Ident(v) => put_fields!(out, 4, v),
            ExprVal::Math(v) => put_fields!(out, 5, v),
            ExprVal::Logic(v) => put_fields!(out, 6, v),
            ExprVal::Test(v) => put_fields!(out, 7, v),
            ExprVal::MacroCall(v) => put_fields!(out, 8, v),
            ExprVal::FunctionCall(v) => put_fields!(out, 9, v),
            ExprVal::Array(v) => put_fields!(out, 10, v),
            ExprVal::StringConcat(v) => put_fields!(out, 11, v),
            ExprVal::In(v) => put_fields!(out, 12, v),
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(match r.byte()? {
            0 => ExprVal::String(Codec::get(r)?),
            1 => ExprVal::Int(Codec::get(r)?),
            2 => ExprVal::Float(Codec::get(r)?),
            3 => ExprVal::Bool(Codec::get(r)?),
            4 => ExprVal::Ident(Codec::get(r)?),
            5 => ExprVal::Math(Codec::get(r)?),
            6 => ExprVal::Logic(Codec::get(r)?),
            7 => ExprVal::Test(Codec::get(r)?),
            8 => ExprVal::MacroCall(Codec::get(r)?),
            9 => ExprVal::FunctionCall(Codec::get(r)?),
            10 => ExprVal::Array(Codec::get(r)?),
            11 => ExprVal::StringConcat(Codec::get(r)?),
            12 => ExprVal::In(Codec::get(r)?),
            _ => return None,
        })
    }
}

impl Codec for Node {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Node::Super => put_fields!(out, 0),
            Node::Text(text) => put_fields!(out, 1, text),
            Node::VariableBlock(ws, expr) => put_fields!(out, 2, ws, expr),
            Node::MacroDefinition(a, def, b) => put_fields!(out, 3, a, def, b),
            Node::Extends(ws, name) => put_fields!(out, 4, ws, name),
            Node::Include(ws, names, ignore_missing) => {
                put_fields!(out, 5, ws, names, ignore_missing)
            }
            Node::ImportMacro(ws, file, namespace) => put_fields!(out, 6, ws, file, namespace),
            Node::Set(ws, set) => put_fields!(out, 7, ws, set),
            Node::Raw(a, text, b) => put_fields!(out, 8, a, text, b),
            Node::FilterSection(a, section, b) => put_fields!(out, 9, a, section, b),
            Node::Block(a, block, b) => put_fields!(out, 10, a, block, b),
            Node::Forloop(a, forloop, b) => put_fields!(out, 11, a, forloop, b),
            Node::If(cond, ws) => put_fields!(out, 12, cond, ws),
            Node::Break(ws) => put_fields!(out, 13, ws),
            Node::Continue(ws) => put_fields!(out, 14, ws),
            Node::Comment(ws, text) => put_fields!(out, 15, ws, text),
        }
    }
    fn get(r: &mut Reader) -> Option<Self> {
        Some(match r.byte()? {
            0 => Node::Super,
            1 => Node::Text(Codec::get(r)?),
            2 => {
                let (ws, expr) = Codec::get(r)?;
                Node::VariableBlock(ws, expr)
            }
            3 => {
                let (a, def, b) = Codec::get(r)?;
                Node::MacroDefinition(a, def, b)
            }
            4 => {
                let (ws, name) = Codec::get(r)?;
                Node::Extends(ws, name)
            }
            5 => {
                let (ws, names, ignore_missing) = Codec::get(r)?;
                Node::Include(ws, names, ignore_missing)
            }
            6 => {
                let (ws, file, namespace) = Codec::get(r)?;
                Node::ImportMacro(ws, file, namespace)
            }
            7 => {
                let (ws, set) = Codec::get(r)?;
                Node::Set(ws, set)
            }
            8 => {
                let (a, text, b) = Codec::get(r)?;
                Node::Raw(a, text, b)
            }
            9 => {
                let (a, section, b) = Codec::get(r)?;
                Node::FilterSection(a, section, b)
            }
            10 => {
                let (a, block, b) = Codec::get(r)?;
                Node::Block(a, block, b)
            }
            11 => {
                let (a, forloop, b) = Codec::get(r)?;
                Node::Forloop(a, forloop, b)
            }
            12 => {
                let (cond, ws) = Codec::get(r)?;
                Node::If(cond, ws)
            }
            13 => Node::Break(Codec::get(r)?),
            14 => Node::Continue(Codec::get(r)?),
            15 => {
                let (ws, text) = Codec::get(r)?;
                Node::Comment(ws, text)
            }
            _ => return None,
        })
    }
}
