//! A faster road to the same text (issue #30): tera's own parsed templates (its public AST),
//! rendered by a smaller interpreter of the constructs our templates use. tera finds `me.hand` by
//! cutting the path into a JSON pointer and unescaping each piece into a new string, in frames
//! kept in hash maps, on every use; here a path is split where it stands and frames are short
//! lists. Rendering was half of a 10,000-player tick.
//!
//! It follows tera 1.20's `renderer/processor.rs` step by step, and gives up (`None`) on anything
//! else: blocks, inheritance, function calls, a loop over a string, an index tera would spell
//! into something else, and every error. tera then renders the template itself, so
//! the text, and every error message, are always tera's. Debug builds (every test, every game)
//! render each report both ways and require the same text (`Renderer::render_context`).

mod consts;
mod eval;
mod lookup;
mod macros;
mod support;
#[cfg(test)]
mod tests;
mod value;

pub use consts::Consts;
pub use support::prepare;

use super::filters::render as render_value;
use smallvec::SmallVec;
use std::borrow::Cow;
use tera::ast::{ExprVal, Forloop, Node};
use tera::{Context, Template, Tera, Value};

type Val<'a> = Cow<'a, Value>;

/// Why rendering stopped: tera would fail here too (`Error`, which a condition may swallow as
/// tera's does), or this interpreter does not know the case (`Unsupported`): tera renders.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop {
    Error,
    Unsupported,
}

type Step<T> = Result<T, Stop>;

/// Characters tera's spelling of an index would change.
pub(super) const SPECIAL: [char; 6] = ['"', '\'', '[', ']', '~', '\\'];

/// How deep includes may nest here (`prepare` refuses deeper ones, and so a cycle).
pub(super) const MAX_INCLUDES: usize = 16;

/// The names a template reads: `own` (a player's), then `ctx` (what a round's reports share).
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub ctx: &'a Context,
    pub own: &'a [(&'static str, Cow<'a, Value>)],
}

impl<'a> Names<'a> {
    fn get(&self, name: &str) -> Option<&'a Value> {
        match self.own.iter().find(|(k, _)| *k == name) {
            Some((_, value)) => Some(value.as_ref()),
            None => self.ctx.get(name),
        }
    }
}

/// Template `name` rendered with `names`, as `tera.render` would with them in one context;
/// `None` to let tera do it. `consts` must be `prepare(tera, name)`'s (or empty): it knows
/// calls by where they stand in this `tera`.
pub fn render(tera: &Tera, consts: &Consts, name: &str, names: Names<'_>) -> Option<String> {
    let template = tera.get_template(name).ok()?;
    let mut state = State {
        tera,
        consts,
        ctx: names,
        frames: vec![Frame::new(false)],
        templates: vec![template],
    };
    let mut out = String::with_capacity(4096);
    state.body(&template.ast, &mut out).ok()?;
    Some(out)
}

/// One `for` loop: over an array's items, or a map's keys and values.
struct Loop<'a> {
    name: &'a str,
    key_name: Option<&'a str>,
    items: Items<'a>,
    current: usize,
    len: usize,
    flow: Flow,
}

enum Items<'a> {
    List(Val<'a>),
    Map(Vec<(Cow<'a, str>, Val<'a>)>),
}

impl<'a> Loop<'a> {
    /// The current item: borrowed from a borrowed list, copied from one the template made.
    fn value(&self) -> Val<'a> {
        match &self.items {
            Items::List(Cow::Borrowed(Value::Array(list))) => Cow::Borrowed(&list[self.current]),
            Items::List(list) => Cow::Owned(list[self.current].clone()),
            Items::Map(entries) => entries[self.current].1.clone(),
        }
    }

    fn key(&self) -> Option<Value> {
        match &self.items {
            Items::Map(entries) => Some(Value::String(entries[self.current].0.to_string())),
            Items::List(_) => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Flow {
    Normal,
    Break,
    Continue,
}

/// tera's stack frame: the template's own (the first), an include's, a loop's, or a macro
/// call's (which, like the template's own, hides the frames below it: its arguments, then the
/// context).
struct Frame<'a> {
    vars: SmallVec<[(&'a str, Val<'a>); 4]>,
    looping: Option<Loop<'a>>,
    /// An include's frame (lookups go on to the frames below, as from a loop's).
    include: bool,
}

impl<'a> Frame<'a> {
    fn new(include: bool) -> Frame<'a> {
        Frame {
            vars: SmallVec::new(),
            looping: None,
            include,
        }
    }

    fn set(&mut self, key: &'a str, value: Val<'a>) {
        match self.vars.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.vars.push((key, value)),
        }
    }
}

struct State<'a> {
    tera: &'a Tera,
    /// `tera`'s filter calls whose arguments are all literals, with those arguments.
    consts: &'a Consts,
    ctx: Names<'a>,
    frames: Vec<Frame<'a>>,
    /// The template being rendered, then each include and macro entered (tera's "active
    /// template", whose imports name the macros a call finds).
    templates: Vec<&'a Template>,
}

impl<'a> State<'a> {
    fn current(&mut self) -> &mut Frame<'a> {
        self.frames.last_mut().expect("the template's own frame")
    }

    fn should_break_body(&self) -> bool {
        let frame = self.frames.last().expect("a frame");
        frame
            .looping
            .as_ref()
            .is_some_and(|l| l.flow != Flow::Normal)
    }

    fn body(&mut self, nodes: &'a [Node], out: &mut String) -> Step<()> {
        for node in nodes {
            self.node(node, out)?;
            if self.should_break_body() {
                break;
            }
        }
        Ok(())
    }

    fn node(&mut self, node: &'a Node, out: &mut String) -> Step<()> {
        match node {
            Node::Comment(..) => {}
            Node::Text(s) | Node::Raw(_, s, _) => out.push_str(s),
            Node::VariableBlock(_, e) => {
                let value = self.eval(e)?;
                render_value(&value, out);
            }
            Node::Set(_, set) => {
                let value = self.eval(&set.value)?;
                let frame = if set.global {
                    self.frames
                        .iter_mut()
                        .rev()
                        .find(|f| f.looping.is_none())
                        .ok_or(Stop::Unsupported)?
                } else {
                    self.current()
                };
                frame.set(&set.key, value);
            }
            Node::FilterSection(_, section, _) => {
                let mut inner = String::new();
                self.body(&section.body, &mut inner)?;
                if section.filter.name == "safe" {
                    out.push_str(&inner);
                } else {
                    let value = self.filter(&Cow::Owned(Value::String(inner)), &section.filter)?;
                    render_value(&value, out);
                }
            }
            Node::If(i, _) => {
                for (_, condition, body) in &i.conditions {
                    if self.truth(condition)? {
                        return self.body(body, out);
                    }
                }
                if let Some((_, body)) = &i.otherwise {
                    return self.body(body, out);
                }
            }
            Node::Forloop(_, f, _) => self.for_loop(f, out)?,
            Node::Break(_) | Node::Continue(_) => {
                let flow = match node {
                    Node::Break(_) => Flow::Break,
                    _ => Flow::Continue,
                };
                self.current().looping.as_mut().ok_or(Stop::Error)?.flow = flow;
            }
            Node::Include(_, names, ignore_missing) => {
                for name in names {
                    let Ok(template) = self.tera.get_template(name) else {
                        continue;
                    };
                    self.frames.push(Frame::new(true));
                    self.templates.push(template);
                    self.body(&template.ast, out)?;
                    self.templates.pop();
                    self.frames.pop();
                    return Ok(());
                }
                if !ignore_missing {
                    return Err(Stop::Error);
                }
            }
            // (definitions and imports say nothing where they stand)
            Node::MacroDefinition(..) | Node::ImportMacro(..) => {}
            Node::Super | Node::Extends(..) | Node::Block(..) => return Err(Stop::Unsupported),
        }
        Ok(())
    }

    fn for_loop(&mut self, f: &'a Forloop, out: &mut String) -> Step<()> {
        match f.container.val {
            ExprVal::Ident(_) | ExprVal::Array(_) => {}
            ExprVal::FunctionCall(_) => return Err(Stop::Unsupported),
            _ => return Err(Stop::Error),
        }
        let values = self.eval(&f.container)?;
        let len = match (&*values, f.key.is_some()) {
            (Value::Array(list), false) => list.len(),
            (Value::Object(map), true) => map.len(),
            (Value::String(_), false) => return Err(Stop::Unsupported),
            _ => return Err(Stop::Error),
        };
        if len == 0 {
            return match &f.empty_body {
                Some(body) => self.body(body, out),
                None => Ok(()),
            };
        }
        let mut frame = Frame::new(false);
        let items = match values {
            Cow::Borrowed(Value::Object(map)) => Items::Map(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v)))
                    .collect(),
            ),
            Cow::Owned(Value::Object(map)) => Items::Map(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Cow::Owned(v)))
                    .collect(),
            ),
            list => Items::List(list),
        };
        frame.looping = Some(Loop {
            name: &f.value,
            key_name: f.key.as_deref(),
            items,
            current: 0,
            len,
            flow: Flow::Normal,
        });
        self.frames.push(frame);
        for _ in 0..len {
            self.body(&f.body, out)?;
            let frame = self.current();
            let looping = frame.looping.as_mut().expect("the loop's frame");
            if looping.flow == Flow::Break {
                break;
            }
            frame.vars.clear();
            looping.current += 1;
            looping.flow = Flow::Normal;
        }
        self.frames.pop();
        Ok(())
    }
}
