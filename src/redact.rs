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

    /// Whether `text` holds any token.
    pub fn finds(&self, text: &str) -> bool {
        self.tokens.iter().any(|t| text.contains(t.as_str()))
    }

    /// `text` with every token replaced by `<redacted>`, for messages and logs.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let found = self.occurrences(text.as_bytes());
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        Cow::Owned(splice(text, &found, |_| MARK.to_owned()))
    }

    /// A submission's text with every token replaced, parsing exactly as the original did.
    pub fn redact_toml<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let found = self.occurrences(text.as_bytes());
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        let Ok(table) = DeTable::parse(text) else {
            // It does not parse now; replacing a token inside it cannot make it parse.
            return Cow::Owned(splice(text, &found, |_| MARK.to_owned()));
        };
        let mut keys = Vec::new();
        bare_keys(table.get_ref(), text, &mut keys);
        // A bare key holding a token is rewritten whole, as a quoted key.
        let mut edits: Vec<(Range<usize>, String)> = keys
            .into_iter()
            .filter(|k| found.iter().any(|f| overlaps(f, k)))
            .map(|k| (k.clone(), format!("\"{}\"", self.redact(&text[k]))))
            .collect();
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
        Cow::Owned(splice(text, &found, |_| BARE_MARK.to_owned()))
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

    /// Non-overlapping byte ranges of tokens in `hay`, left to right (longest token first at a
    /// position).
    fn occurrences(&self, hay: &[u8]) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        if self.tokens.is_empty() {
            return found;
        }
        let mut i = 0;
        while i < hay.len() {
            let hit = self
                .tokens
                .iter()
                .find(|t| hay[i..].starts_with(t.as_bytes()));
            match hit {
                Some(t) => {
                    found.push(i..i + t.len());
                    i += t.len();
                }
                None => i += 1,
            }
        }
        found
    }
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
