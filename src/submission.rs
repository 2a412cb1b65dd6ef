//! The game-independent checks on a submission file before the rules read it: size, encoding, TOML
//! syntax and the player's token (spec README, `secrets.toml`). Also makes the copy archived in
//! `received/`, with every token of secrets.toml redacted (`crate::redact`).

use crate::doc::{Doc, Table, Value};
use crate::problem::{Pos, Problem};
use crate::redact::Redactor;
use sha2::{Digest, Sha256};

/// Larger files are refused unread: no honest submission comes near it.
pub const MAX_BYTES: usize = 64 * 1024;

pub const TOKEN_KEY: &str = "token";

/// A submission file screened: either a document for the rules, or refused with one problem.
#[derive(Debug)]
pub struct Screened {
    pub doc: Result<Doc, Problem>,
    /// The bytes to keep in `received/` (every token redacted).
    pub archive: Vec<u8>,
}

/// Lowercase hex of the SHA-256 of `bytes` (a table lookup per nibble: formatting each byte
/// with `format!` cost more than the hash itself in a tick of many files).
pub fn sha256_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 0xf)] as char);
    }
    out
}

/// Screens `bytes`. With `token = Some(..)` the document must carry exactly that token as a
/// top-level key. The archive and the document the rules read are the redacted text (every token
/// of `redactor` replaced), so `replay`, which reads the archive, meets the same document.
pub fn screen(bytes: &[u8], token: Option<&str>, redactor: &Redactor) -> Screened {
    let refuse = |problem: Problem| Screened {
        doc: Err(problem),
        archive: redactor.redact_bytes(bytes),
    };
    if bytes.len() > MAX_BYTES {
        return refuse(Problem::general(format!(
            "the file is {} bytes; a submission may be at most {} KiB",
            bytes.len(),
            MAX_BYTES / 1024
        )));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1;
            return refuse(Problem {
                line: Some(line),
                col: None,
                message:
                    "the file is not UTF-8 text; save it as UTF-8 (plain text) and send it again"
                        .into(),
            });
        }
    };
    let redacted = redactor.redact_toml(text);
    let archive = redacted.as_bytes().to_vec();
    // The rules and any error message see the redacted text only.
    let doc = match Doc::parse(&redacted) {
        Ok(doc) => doc,
        Err(problem) => {
            return Screened {
                doc: Err(problem),
                archive,
            };
        }
    };
    if let Some(expected) = token {
        // The token is compared in the original, which parses exactly as the redacted text does.
        let original = match &redacted {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(_) => Doc::parse(text).ok(),
        };
        let given = original.as_ref().unwrap_or(&doc).get(TOKEN_KEY);
        let problem = match given {
            None => Some(missing_token(&doc)),
            Some(node) if node.as_str(TOKEN_KEY).ok() != Some(expected) => {
                Some(Problem::at(node.pos, "token does not match"))
            }
            Some(_) => None,
        };
        if let Some(problem) = problem {
            return Screened {
                doc: Err(problem),
                archive,
            };
        }
    }
    Screened {
        doc: Ok(doc),
        archive,
    }
}

/// "token is missing", saying where the player did put a `token` key, if anywhere.
fn missing_token(doc: &Doc) -> Problem {
    let base = format!("token is missing: add {TOKEN_KEY} = \"…\" as the first line");
    match nested_key(doc.root(), TOKEN_KEY, "") {
        Some((table, pos)) => Problem::at(
            pos,
            format!(
                "{base}; the {TOKEN_KEY} here belongs to the table [{table}], not to the top of the file"
            ),
        ),
        None => Problem::general(base),
    }
}

/// The first table (by name, depth first) below the top that holds `key`.
fn nested_key(table: &Table, key: &str, path: &str) -> Option<(String, Pos)> {
    for (name, entry) in table.entries() {
        if let Value::Table(inner) = &entry.value.value {
            let here = if path.is_empty() {
                name.to_owned()
            } else {
                format!("{path}.{name}")
            };
            if let Some(e) = inner.entries().find(|(k, _)| *k == key).map(|(_, e)| e) {
                return Some((here, e.key_pos));
            }
            if let Some(found) = nested_key(inner, key, &here) {
                return Some(found);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_tokens() -> Redactor {
        Redactor::default()
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn oversized_and_non_utf8_files_are_refused() {
        let big = vec![b'#'; MAX_BYTES + 1];
        assert!(
            screen(&big, None, &no_tokens())
                .doc
                .unwrap_err()
                .message
                .contains("at most 64 KiB")
        );
        let latin1 = b"room = \"attic\"\n# caf\xe9\n";
        let p = screen(latin1, None, &no_tokens()).doc.unwrap_err();
        assert_eq!(p.line, Some(2));
        assert!(p.message.contains("not UTF-8"));
    }

    #[test]
    fn tokens_are_checked_and_never_archived() {
        let r = Redactor::new(["abcdef", "uvwxyz"]);
        let src = b"token = \"abcdef\"\nroom = \"attic\"\n";
        let ok = screen(src, Some("abcdef"), &r);
        assert!(ok.doc.is_ok());
        assert!(!String::from_utf8(ok.archive).unwrap().contains("abcdef"));
        let wrong = screen(src, Some("uvwxyz"), &r);
        let p = wrong.doc.unwrap_err();
        assert_eq!(
            (p.message.as_str(), p.line),
            ("token does not match", Some(1))
        );
        let missing = screen(b"room = \"attic\"\n", Some("abcdef"), &r);
        assert_eq!(
            missing.doc.unwrap_err().message,
            "token is missing: add token = \"…\" as the first line"
        );
        let broken = screen(b"token = \"abcdef\nroom = \n", Some("abcdef"), &r);
        assert!(broken.doc.is_err());
        assert!(
            !String::from_utf8(broken.archive)
                .unwrap()
                .contains("abcdef")
        );
    }

    #[test]
    fn a_token_under_a_table_is_missing_and_the_message_says_where_it_is() {
        let r = Redactor::new(["abcdef"]);
        let src = b"room = \"attic\"\n[respond]\ntoken = \"abcdef\"\n";
        let p = screen(src, Some("abcdef"), &r).doc.unwrap_err();
        assert_eq!(p.line, Some(3));
        assert!(p.message.starts_with("token is missing"), "{}", p.message);
        assert!(p.message.contains("[respond]"), "{}", p.message);
    }

    #[test]
    fn the_rules_read_the_redacted_text() {
        // Another player's token pasted into a field reaches the rules as the mark.
        let r = Redactor::new(["abcdef", "uvwxyz"]);
        let s = screen(
            b"token = \"abcdef\"\nroom = \"uvwxyz\"\n",
            Some("abcdef"),
            &r,
        );
        let doc = s.doc.unwrap();
        assert_eq!(
            doc.get("room").unwrap().as_str("room").unwrap(),
            "<redacted>"
        );
        assert_eq!(doc.source().as_bytes(), s.archive.as_slice());
    }
}
