//! Keeping the players' tokens out of everything the tool writes (spec README, `secrets.toml`).
//!
//! A `Redactor` knows every token of secrets.toml and replaces each occurrence, wherever a player
//! wrote it (the `token` key, a table, a comment, a misspelt key, another field, a file that does
//! not parse), by `<redacted>`. The archived copy of a submission is the redacted text, and the
//! rules read that same text, so `replay` meets exactly the document the tick met.
//!
//! Invariant: redaction never changes whether a text parses as TOML. A token used as a bare key
//! becomes the quoted key `"<redacted>"`; if the result still parses differently from the
//! original (a token in a header seen twice, say), every occurrence becomes the bare word
//! `REDACTED`, which is valid wherever the token was.

use std::borrow::Cow;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

pub const MARK: &str = "<redacted>";
/// The fallback mark, valid in a bare key, a string and a comment alike.
const BARE_MARK: &str = "REDACTED";

#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// Longest first, so that a token containing another is replaced whole.
    tokens: Vec<String>,
}

impl Redactor {
    pub fn new<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Redactor {
        let mut tokens: Vec<String> = tokens
            .into_iter()
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect();
        tokens.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        tokens.dedup();
        Redactor { tokens }
    }

    /// Whether `text` holds any token (or a near miss of one).
    pub fn finds(&self, text: &str) -> bool {
        !self.occurrences(text.as_bytes()).is_empty()
    }

    /// `text` with every token replaced by `<redacted>`, for messages and logs.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let found = self.occurrences(text.as_bytes());
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        Cow::Owned(splice(text, &found, |_| MARK.to_owned()))
    }

    /// A submission's text with every token replaced, parsing exactly as the original did. A
    /// key or string that holds a token only once decoded (an escape such as `\u0054`, a line
    /// continuation) is replaced whole: any TOML reader would decode it to the token.
    pub fn redact_toml<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.tokens.is_empty() {
            return Cow::Borrowed(text);
        }
        let found = self.occurrences(text.as_bytes());
        let Ok(table) = DeTable::parse(text) else {
            if found.is_empty() {
                return Cow::Borrowed(text);
            }
            // It does not parse now, and must not parse redacted: a near miss may span the very
            // byte that breaks it (a control character in place of the token's last letter).
            let out = splice(text, &found, |_| MARK.to_owned());
            if DeTable::parse(&out).is_err() {
                return Cow::Owned(out);
            }
            let exact = self.exact(text.as_bytes());
            return Cow::Owned(splice(text, &exact, |_| MARK.to_owned()));
        };
        // Keys and strings written with escapes whose decoded text holds a token: replaced whole,
        // so no escape is cut in half.
        let mut hidden = Vec::new();
        decoded(table.get_ref(), text, self, &mut hidden);
        let found: Vec<Range<usize>> = found
            .into_iter()
            .filter(|f| !hidden.iter().any(|h| overlaps(f, h)))
            .collect();
        if found.is_empty() && hidden.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut keys = Vec::new();
        bare_keys(table.get_ref(), text, &mut keys);
        // A bare key holding a token is rewritten whole, as a quoted key.
        let mut edits: Vec<(Range<usize>, String)> = keys
            .into_iter()
            .filter(|k| found.iter().any(|f| overlaps(f, k)))
            .map(|k| (k.clone(), format!("\"{}\"", self.redact(&text[k]))))
            .collect();
        edits.extend(hidden.into_iter().map(|h| (h, format!("\"{MARK}\""))));
        let elsewhere: Vec<(Range<usize>, String)> = found
            .iter()
            .filter(|f| !edits.iter().any(|(k, _)| overlaps(f, k)))
            .map(|f| (f.clone(), MARK.to_owned()))
            .collect();
        edits.extend(elsewhere);
        edits.sort_by_key(|(r, _)| r.start);
        let ranges: Vec<Range<usize>> = edits.iter().map(|(r, _)| r.clone()).collect();
        let out = splice(text, &ranges, |i| edits[i].1.clone());
        if DeTable::parse(&out).is_ok() {
            return Cow::Owned(out);
        }
        let mut all: Vec<Range<usize>> = found;
        all.extend(ranges);
        all.sort_by_key(|r| r.start);
        all.dedup_by(|b, a| overlaps(a, b));
        Cow::Owned(splice(text, &all, |_| BARE_MARK.to_owned()))
    }

    /// Bytes that may not be UTF-8 (a refused file): every token's bytes replaced.
    pub fn redact_bytes(&self, bytes: &[u8]) -> Vec<u8> {
        let found = self.occurrences(bytes);
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = 0;
        for r in found {
            out.extend_from_slice(&bytes[at..r.start]);
            out.extend_from_slice(MARK.as_bytes());
            at = r.end;
        }
        out.extend_from_slice(&bytes[at..]);
        out
    }

    /// Non-overlapping byte ranges of the tokens exactly as written in `hay`.
    fn exact(&self, hay: &[u8]) -> Vec<Range<usize>> {
        self.scan(hay, false)
    }

    /// Non-overlapping byte ranges of tokens in `hay`, left to right: each token as written, or
    /// one character off (a typo: one changed, missing or extra byte) for tokens of
    /// `NEAR_MISS_CHARS` or more. At a position, an exact token wins, then the longest near miss.
    fn occurrences(&self, hay: &[u8]) -> Vec<Range<usize>> {
        self.scan(hay, true)
    }

    /// The scan behind `occurrences` (`near`: near misses too) and `exact`.
    fn scan(&self, hay: &[u8], near: bool) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        if self.tokens.is_empty() {
            return found;
        }
        let mut i = 0;
        while i < hay.len() {
            let exact = self
                .tokens
                .iter()
                .find(|t| hay[i..].starts_with(t.as_bytes()))
                .map(|t| t.len());
            let hit = exact.or_else(|| {
                self.tokens
                    .iter()
                    .filter(|t| near && t.len() >= NEAR_MISS_CHARS)
                    .find_map(|t| near_miss_at(hay, i, t.as_bytes()))
            });
            match hit {
                Some(len) => {
                    found.push(i..i + len);
                    i += len;
                }
                None => i += 1,
            }
        }
        found
    }
}

/// A byte a token may be typed with (a typo of one is still the token).
fn tokenish(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_.+/~!@#$%^&*".contains(&b)
}

/// Tokens this long are also found one character off: shorter ones could meet ordinary words.
const NEAR_MISS_CHARS: usize = 8;

/// The length of a window of `hay` at `i` that is `token` with one byte changed, missing or
/// added, if there is one (the longest first), on character boundaries.
fn near_miss_at(hay: &[u8], i: usize, token: &[u8]) -> Option<usize> {
    let rest = &hay[i..];
    // cheap filter: a near miss starts with the token's first or second byte
    let starts = |b: Option<&u8>| b.is_some_and(|b| *b == token[0] || *b == token[1]);
    if !(starts(rest.first()) || starts(rest.get(1))) {
        return None;
    }
    let boundary = |at: usize| hay.get(at).is_none_or(|b| (*b as i8) >= -0x40);
    let len = token.len();
    [len + 1, len, len - 1].into_iter().find(|&w| {
        if w > rest.len() || !boundary(i) || !boundary(i + w) {
            return false;
        }
        let window = &rest[..w];
        let prefix = window.iter().zip(token).take_while(|(a, b)| a == b).count();
        let suffix = window
            .iter()
            .rev()
            .zip(token.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let needed = if w > len { len } else { len - 1 };
        // an extra byte only inside the token: at an edge it is the text around it (a quote)
        let inside = w <= len || (window[0] == token[0] && window[w - 1] == token[len - 1]);
        // a changed or extra byte is one a token could hold: never a quote, a space or a
        // bracket, so a near miss never swallows the syntax around it
        let typo = w < len || window.get(prefix).is_none_or(|b| tokenish(*b));
        window != token && inside && typo && prefix + suffix >= needed
    })
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// `text` with each of the sorted, disjoint `ranges` replaced by `with(index)`.
fn splice(text: &str, ranges: &[Range<usize>], with: impl Fn(usize) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (i, r) in ranges.iter().enumerate() {
        out.push_str(&text[at..r.start]);
        out.push_str(&with(i));
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The spans of quoted keys and strings, at any depth, whose decoded text holds a token.
fn decoded(table: &DeTable<'_>, text: &str, r: &Redactor, out: &mut Vec<Range<usize>>) {
    for (key, value) in table.iter() {
        let raw = text.get(key.span()).unwrap_or_default();
        if raw.starts_with('"') && raw.contains('\\') && r.finds(key.get_ref()) {
            out.push(key.span());
        }
        decoded_in(value, text, r, out);
    }
}

fn decoded_in(
    value: &toml::Spanned<DeValue<'_>>,
    text: &str,
    r: &Redactor,
    out: &mut Vec<Range<usize>>,
) {
    match value.get_ref() {
        DeValue::String(s)
            if text.get(value.span()).is_some_and(|raw| raw.contains('\\')) && r.finds(s) =>
        {
            out.push(value.span())
        }
        DeValue::Table(t) => decoded(t, text, r, out),
        DeValue::Array(items) => {
            for item in items.iter() {
                decoded_in(item, text, r, out);
            }
        }
        _ => {}
    }
}

/// The spans of every unquoted key, at any depth (tables, inline tables, arrays of tables).
fn bare_keys(table: &DeTable<'_>, text: &str, out: &mut Vec<Range<usize>>) {
    for (key, value) in table.iter() {
        let span = key.span();
        if text
            .get(span.clone())
            .is_some_and(|raw| !raw.starts_with(['"', '\'']))
        {
            out.push(span);
        }
        bare_keys_in(value.get_ref(), text, out);
    }
}

fn bare_keys_in(value: &DeValue<'_>, text: &str, out: &mut Vec<Range<usize>>) {
    match value {
        DeValue::Table(t) => bare_keys(t, text, out),
        DeValue::Array(items) => {
            for item in items.iter() {
                bare_keys_in(item.get_ref(), text, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "opal-7f3k";

    fn parses(text: &str) -> bool {
        DeTable::parse(text).is_ok()
    }

    /// Each case: where a player put the token. The redacted text never holds it and parses
    /// exactly when the original does.
    #[test]
    fn every_place_a_token_can_stand() {
        let r = Redactor::new([TOKEN, "ruby-3abc"]);
        let cases = [
            "token = \"opal-7f3k\"\nroom = \"attic\"\n",
            "room = \"attic\"\n[respond]\ntoken = \"opal-7f3k\"\n",
            "# my token is opal-7f3k\nroom = \"attic\"\n",
            "tokn = \"opal-7f3k\"\n",
            "room = \"opal-7f3k\"\n",
            "token.x = \"opal-7f3k\"\n",
            "token = { value = \"opal-7f3k\" }\n",
            "[token]\nvalue = 'opal-7f3k'\n",
            "opal-7f3k = 1\n",
            "[opal-7f3k]\nx = 1\n",
            "[opal-7f3k]\nx = 1\n[opal-7f3k.y]\nz = 2\n",
            "a.opal-7f3k.b = 1\n",
            "peek = [\"opal-7f3k\", \"ruby-3abc\"]\n",
            "note = \"\"\"\nline opal-7f3k\n\"\"\"\n",
            "token = \"opal-7f3k\nroom = \n",
            "token = opal-7f3k\n",
            "opal-7f3kopal-7f3k = 2\n",
        ];
        for case in cases {
            let out = r.redact_toml(case);
            assert!(!out.contains(TOKEN), "{case:?} -> {out:?}");
            assert!(!out.contains("ruby-3abc"), "{case:?} -> {out:?}");
            assert_eq!(parses(case), parses(&out), "{case:?} -> {out:?}");
        }
    }

    /// A token spelled so that only a TOML reader sees it, or one character off: still found.
    #[test]
    fn escaped_continued_and_near_miss_spellings_are_redacted() {
        let r = Redactor::new([TOKEN]);
        let cases = [
            ("escape", "token = \"\\u006fpal-7f3k\"\n"),
            ("escape in a key", "\"\\u006fpal-7f3k\" = 1\n"),
            ("line continuation", "note = \"\"\"opal-\\\n   7f3k\"\"\"\n"),
            ("in an array", "peek = [\"bob\", \"op\\u0061l-7f3k\"]\n"),
            ("one changed", "token = \"opal-7f3x\"\n"),
            ("one missing", "token = \"opal7f3k\"\n"),
            ("one extra", "token = \"opal-7ff3k\"\n"),
            (
                "a near miss in prose",
                "# it was opal-7f4k I think\nroom = \"attic\"\n",
            ),
        ];
        for (name, case) in cases {
            let out = r.redact_toml(case);
            assert!(out.contains(MARK), "{name}: {case:?} -> {out:?}");
            let decoded: toml::Table = toml::from_str(&out).unwrap();
            let all = format!("{decoded:?}{out}");
            assert!(!all.contains(TOKEN), "{name}: {out:?}");
            assert_eq!(parses(case), parses(&out), "{name}");
        }
        // found by the fuzzer: a near miss must not swallow the quote after it, nor make a file
        // that did not parse parse (a control character in place of the last letter)
        for case in ["\"token\" = 'opal-7f3'\n", "x = 'opal-7f3\u{7f}'\n"] {
            let out = r.redact_toml(case);
            assert_eq!(parses(case), parses(&out), "{case:?} -> {out:?}");
        }
        // ordinary words are left alone, even one character from a short token
        let short = Redactor::new(["attic1"]);
        assert_eq!(
            short.redact_toml("room = \"attic\"\n"),
            "room = \"attic\"\n"
        );
        assert!(matches!(
            r.redact_toml("room = \"attic\"\n"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_value_is_replaced_by_the_mark_and_a_bare_key_is_quoted() {
        let r = Redactor::new([TOKEN]);
        assert_eq!(
            r.redact_toml("token = \"opal-7f3k\" # mine\n"),
            "token = \"<redacted>\" # mine\n"
        );
        assert_eq!(
            r.redact_toml("opal-7f3k = 1\nx.opal-7f3k = 2\n"),
            "\"<redacted>\" = 1\nx.\"<redacted>\" = 2\n"
        );
        assert!(matches!(
            r.redact_toml("room = \"attic\"\n"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn bytes_and_messages_are_redacted_too() {
        let r = Redactor::new([TOKEN]);
        assert_eq!(
            r.redact_bytes(b"caf\xe9 opal-7f3k!"),
            b"caf\xe9 <redacted>!".to_vec()
        );
        assert_eq!(r.redact("not \"opal-7f3k\""), "not \"<redacted>\"");
        assert!(r.finds("xopal-7f3kx"));
        assert!(!Redactor::new([]).finds("anything"));
    }
}
