//! `fast` against tera itself, construct by construct: every case renders the same text both
//! ways, fails both ways, or is one `fast` leaves to tera on purpose.

use super::{Consts, Names, prepare, render};
use serde_json::json;
use std::borrow::Cow;
use tera::{Context, Tera, Value};

#[derive(Debug, PartialEq)]
enum Expect {
    /// The same text both ways.
    Same,
    /// tera fails; `fast` gives up (tera then gives the error).
    Fails,
    /// `fast` gives up on purpose; tera renders.
    LeftToTera,
}
use Expect::*;

const CASES: &[(&str, Expect)] = &[
    // values as text
    (
        "{{ b }} {{ no }} {{ n }} {{ neg }} {{ f }} {{ big }} {{ s }} [{{ nothing }}] {{ list }} {{ obj }} {{ rows }}",
        Same,
    ),
    // conditions
    (
        "{% if b %}B{% endif %}{% if not b %}nb{% endif %}{% if missing %}M{% else %}m{% endif %}\
         {% if not missing %}!m{% endif %}{% if missing.deeper %}x{% endif %}{% if nothing %}N{% endif %}\
         {% if 0 %}z{% endif %}{% if 1 + 1 %}t{% endif %}{% if '' %}e{% endif %}{% if 'q' %}q{% endif %}\
         {% if list %}L{% endif %}{% if empty %}E{% endif %}{% if obj %}O{% endif %}{% if f %}F{% endif %}\
         {% if s ~ 'y' %}c{% endif %}{% if true %}T{% elif b %}no{% endif %}{% if no %}{% elif b %}el{% endif %}",
        Same,
    ),
    (
        "{% if n > 2 and n <= 3 %}a{% endif %}{% if n >= 4 or f < 2 %}b{% endif %}{% if n == 3.0 %}c{% endif %}\
         {% if s == 3 %}d{% endif %}{% if n != 4 %}e{% endif %}{% if s == 'x' %}f{% endif %}\
         {% if list == list %}g{% endif %}{% if not n == 3 %}h{% endif %}{% if s | length > 0 %}i{% endif %}",
        Same,
    ),
    (
        "{% if 'a' in list %}a{% endif %}{% if 'x' in s %}b{% endif %}{% if 'a' in obj %}c{% endif %}\
         {% if 'q' not in list %}d{% endif %}{% if 1 in list %}e{% endif %}",
        Same,
    ),
    (
        "{% if missing is defined %}a{% endif %}{% if b is defined %}b{% endif %}\
         {% if missing is undefined %}c{% endif %}{% if b is not defined %}d{% endif %}\
         {% if n is odd %}e{% endif %}{% if s is containing('x') %}f{% endif %}",
        Same,
    ),
    // arithmetic, as tera does it (whole numbers stay whole; a division by zero is "NaN")
    (
        "{{ n + 1 }} {{ n - 5 }} {{ n * 2 }} {{ n / 2 }} {{ n / 3 }} {{ 6 / 3 }} {{ n % 2 }} {{ f * 2 }} \
         {{ f + 1 }} {{ n * f }} {{ 7 / 0 }} {{ 0 / 0 }} {{ big - 1 }} {{ 2.5 % 1 }} {{ f - n }}",
        Same,
    ),
    ("{{ s ~ n ~ 'z' ~ 1 ~ 2.5 ~ f }}", Same),
    ("{{ [1, 'b', n, f] }}", Same),
    // loops
    (
        "{% for x in list %}{{ loop.index }}{{ loop.index0 }}{% if loop.first %}F{% endif %}\
         {% if loop.last %}L{% endif %}:{{ x }};{% endfor %}",
        Same,
    ),
    (
        "{% for x in nums %}{% if x == 2 %}{% continue %}{% endif %}{% if x == 4 %}{% break %}{% endif %}\
         {{ x }}{% endfor %}|{% for x in empty %}{{ x }}{% else %}none{% endfor %}",
        Same,
    ),
    (
        "{% for a in rows %}{% for b in a.items %}{{ a.name }}{{ b }}{{ loop.index }}{% endfor %}\
         {{ loop.index }}{% endfor %}",
        Same,
    ),
    (
        "{% for x in nums %}{% if x == 1 %}{% set y = 'one' %}{% endif %}{{ y | default(value='-') }}\
         {% endfor %}{% for x in nums %}{% set_global last = x %}{% endfor %}{{ last }}",
        Same,
    ),
    (
        "{% for x in [1, 'b', n] %}{{ x }}{% endfor %}{% for w in csv | split(pat=',') %}[{{ w }}]{% endfor %}\
         {% for r in rows %}{{ r.name }}{{ r.items[0] }}{% endfor %}",
        Same,
    ),
    (
        "{% for k, v in points %}{{ k }}={{ v }}{% if loop.last %}.{% endif %}{% endfor %}\
         {% for name, r in byname %}{{ name }}:{{ r.items[0] }}{% for i in r.items %}{{ name }}{{ i }}{% endfor %}{% endfor %}\
         {% for k, v in empty_obj %}x{% else %}none{% endfor %}",
        Same,
    ),
    ("{% for k, v in list %}{{ k }}{% endfor %}", Fails),
    ("{% for v in obj %}{{ v }}{% endfor %}", Fails),
    // names and paths
    (
        "{% set me = obj %}{{ me.a }}{% set v = n + 1 %}{{ v }}{{ missing | default(value='dft') }}\
         {{ nothing | default(value='nul') }}{{ obj.zz | default(value=s) }}{% set n = 'shadow' %}{{ n }}",
        Same,
    ),
    (
        "{{ points[g] }} {{ list[0] }} {{ obj['a'] }} {{ obj[\"a\"] }} {{ rows[0].name }} {{ points[k] }} \
         {{ rows[1].items[0] }}{% for r in rows %}{{ points[r.name] | default(value='?') }}{% endfor %}",
        Same,
    ),
    // filters and filter sections
    (
        "{{ s | upper }} {{ list | length }} {{ csv | split(pat=',') | join(sep='+') }} \
         {% filter upper %}in {{ s }}{% endfilter %} {{ s | capitalize | replace(from='X', to='y') }} \
         {% filter safe %}{{ s }}{% endfilter %}{{ s | safe }}",
        Same,
    ),
    // includes: the included template sees the names around it; its own `set` stays inside
    (
        "{% include 'inc' %}{{ local | default(value='gone') }}{% for x in nums %}{% include 'inc' %}\
         {% endfor %}{% include 'nope' ignore missing %}ok{% include ['nope', 'inc'] %}",
        Same,
    ),
    // macros: arguments evaluated where called (or the defaults; others ignored), the context
    // seen through the call but not the caller's loop, a `set` kept inside, `self`, imports, and
    // the names an imported file imports (tera's macro namespaces)
    ("{% macro m() %}x{% endmacro m %}{{ self::m() }}", Same),
    (
        "{% import 'macros' as m %}{{ m::hi(who=s) }} {{ m::hi(who=n, p=n + 1) }} \
         {{ m::both(x='z') | upper }} {{ m::ctx() }} {{ s }} {{ m::hi(who=1, extra=missing) }}\
         {% for x in nums %}{{ m::looped() }}{% endfor %}",
        Same,
    ),
    (
        "{% import 'more' as o %}{{ o::outer(y=s) }} {{ mm::hi(who=1) }} {{ self::outer(y=2) }}",
        Same,
    ),
    ("{% import 'macros' as m %}{{ m::hi() }}", Fails),
    ("{% import 'macros' as m %}{{ m::nope() }}", Fails),
    ("{% import 'macros' as m %}{{ zz::hi(who=1) }}", Fails),
    ("{% import 'macros' as m %}{{ m::broken() }}", Fails),
    // tera's errors: `fast` gives up and tera says what is wrong
    ("{{ missing }}", Fails),
    ("{{ n + s }}", Fails),
    ("{% for x in n %}{% endfor %}", Fails),
    ("{{ s | nosuchfilter }}", Fails),
    ("{{ n % 0 }}", Fails),
    ("{{ big + 1 }}", Fails),
    ("{% include 'nope' %}", Fails),
    ("{% if n > s %}x{% endif %}", Fails),
    ("{{ list[9] }}", Fails),
    ("{{ s | default() }}{{ missing | default() }}", Fails),
    // what `fast` leaves to tera
    ("{% for c in s %}{{ c }}{% endfor %}", LeftToTera),
    ("{% for i in range(end=3) %}{{ i }}{% endfor %}", LeftToTera),
    (
        "{% import 'macros' as m %}{% if m::hi(who=1) %}y{% endif %}",
        LeftToTera,
    ),
    // an index tera spells into a broken path (a quote in the key): its error, not a guess
    ("{{ points[q] }}", Fails),
    ("{{ __tera_context }}", LeftToTera),
];

/// The macro file the cases import.
const MACROS: &str = "{% macro hi(who, p='!') %}Hi {{ who }}{{ p }}{% endmacro hi %}\
{% macro both(x) %}{{ self::hi(who=x) }} {{ self::hi(who=x, p='?') }}{% endmacro both %}\
{% macro ctx() %}{{ s }}{% set s = 'local' %}{{ s }}{% endmacro ctx %}\
{% macro looped() %}{{ loop.index | default(value='no loop') }}{% endmacro looped %}\
{% macro broken() %}{{ missing }}{% endmacro broken %}";

fn context() -> Context {
    Context::from_value(json!({
        "b": true, "no": false, "n": 3, "neg": -2, "f": 1.5, "big": u64::MAX, "s": "x", "nothing": null,
        "list": [1, "a", true, null, [2]], "empty": [], "nums": [1, 2, 3, 4, 5], "obj": {"a": 1},
        "csv": "a,b,c", "g": "white", "k": 1, "q": "we\"ird",
        "points": {"white": 3, "1": 9, "we\"ird": 0},
        "rows": [{"name": "white", "items": ["p", "q"]}, {"name": "blue", "items": [7]}],
        "byname": {"white": {"items": ["p", "q"]}, "blue": {"items": [7]}}, "empty_obj": {},
    }))
    .unwrap()
}

#[test]
fn every_construct_renders_as_tera_renders_it_or_is_left_to_tera() {
    let mut tera = Tera::default();
    tera.autoescape_on(Vec::new());
    let mut templates = vec![
        ("inc".to_string(), "[{{ s }}{% set local = 1 %}{{ local }}]"),
        ("macros".to_string(), MACROS),
        (
            "more".to_string(),
            "{% import 'macros' as mm %}{% macro outer(y) %}[{{ mm::hi(who=y) }}]{% endmacro outer %}",
        ),
    ];
    for (i, (text, _)) in CASES.iter().enumerate() {
        templates.push((format!("t{i}"), *text));
    }
    tera.add_raw_templates(templates).unwrap();
    let ctx = context();
    // The same names in two layers: some of them own, over a shared part in which the own
    // names stand for something else (the own ones must win).
    let own_names = ["n", "list", "rows", "byname", "s"];
    let own: Vec<(&str, Cow<Value>)> = own_names
        .iter()
        .map(|k| (*k, Cow::Borrowed(ctx.get(k).unwrap())))
        .collect();
    let mut shared = ctx.clone();
    for k in own_names {
        shared.insert(k, "shadowed");
    }
    // literal filter arguments evaluated once (`Consts`), and (in two layers) at every use
    for (i, (text, expect)) in CASES.iter().enumerate() {
        let name = format!("t{i}");
        let slow = tera.render(&name, &ctx);
        let whole = Names {
            ctx: &ctx,
            own: &[],
        };
        let consts = prepare(&tera, &name);
        let fast = (consts.as_ref()).and_then(|consts| render(&tera, consts, &name, whole));
        let layered = Names {
            ctx: &shared,
            own: &own,
        };
        if consts.is_some() {
            let every_use = Consts::default();
            let layered = render(&tera, &every_use, &name, layered);
            assert_eq!(layered, fast, "{text} in two layers");
        }
        let found = match (&slow, &fast) {
            (Ok(t), Some(f)) => {
                assert_eq!(f, t, "{text}");
                Same
            }
            (Err(_), None) => Fails,
            (Ok(_), None) => LeftToTera,
            (Err(e), Some(f)) => panic!("{text}: tera fails ({e}) but fast gave {f:?}"),
        };
        assert_eq!(found, *expect, "{text}: tera gave {slow:?}");
    }
}

#[test]
fn the_templates_of_every_game_are_read_by_fast() {
    for game in crate::games::GameId::ALL.iter().copied() {
        for kind in [crate::render::Kind::Public, crate::render::Kind::Private] {
            let renderer = crate::render::Renderer::new(
                game,
                std::path::Path::new("/nonexistent"),
                Default::default(),
            )
            .unwrap();
            assert!(
                renderer.reads_fast(kind).unwrap(),
                "{} {kind:?}",
                game.name()
            );
        }
    }
}
