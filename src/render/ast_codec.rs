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

/// An enum of tera's AST: its variant's index, then the variant's fields in order. Each variant
/// is listed once, for writing and reading alike; the written `match` must name them all.
macro_rules! codec_enum {
    ($($ty:ident { $($tag:literal => $variant:ident $(($($field:ident),*))?),* $(,)? })*) => {$(
        impl Codec for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                match self {
                    $($ty::$variant $(($($field),*))? => {
                        out.push($tag);
                        $($($field.put(out);)*)?
                    })*
                }
            }
            fn get(r: &mut Reader) -> Option<Self> {
                Some(match r.byte()? {
                    $($tag => {
                        $($(let $field = Codec::get(r)?;)*)?
                        $ty::$variant $(($($field),*))?
                    })*
                    _ => return None,
                })
            }
        }
    )*};
}

codec_enum! {
    ExprVal {
        0 => String(v),
        1 => Int(v),
        2 => Float(v),
        3 => Bool(v),
        4 => Ident(v),
        5 => Math(v),
        6 => Logic(v),
        7 => Test(v),
        8 => MacroCall(v),
        9 => FunctionCall(v),
        10 => Array(v),
        11 => StringConcat(v),
        12 => In(v),
    }
    Node {
        0 => Super,
        1 => Text(text),
        2 => VariableBlock(ws, expr),
        3 => MacroDefinition(a, definition, b),
        4 => Extends(ws, name),
        5 => Include(ws, names, ignore_missing),
        6 => ImportMacro(ws, file, namespace),
        7 => Set(ws, set),
        8 => Raw(a, text, b),
        9 => FilterSection(a, section, b),
        10 => Block(a, block, b),
        11 => Forloop(a, forloop, b),
        12 => If(condition, ws),
        13 => Break(ws),
        14 => Continue(ws),
        15 => Comment(ws, text),
    }
}
