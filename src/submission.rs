//! The game-independent checks on a submission file before the rules read it: size, encoding, TOML
//! syntax and the player's token (spec README, `secrets.toml`). Also makes the copy archived in
//! `received/`, with the token's value redacted.

use crate::doc::Doc;
use crate::problem::Problem;
use sha2::{Digest, Sha256};

/// Larger files are refused unread: no honest submission comes near it.
pub const MAX_BYTES: usize = 64 * 1024;

pub const TOKEN_KEY: &str = "token";

/// A submission file screened: either a document for the rules, or refused with one problem.
#[derive(Debug)]
pub struct Screened {
    pub doc: Result<Doc, Problem>,
    /// The bytes to keep in `received/` (the token's value redacted).
    pub archive: Vec<u8>,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Screens `bytes`. With `token = Some(..)` the document must carry exactly that token.
pub fn screen(bytes: &[u8], token: Option<&str>) -> Screened {
    if bytes.len() > MAX_BYTES {
        return Screened {
            doc: Err(Problem::general(format!(
                "the file is {} bytes; a submission may be at most {} KiB",
                bytes.len(),
                MAX_BYTES / 1024
            ))),
            archive: redact_lines(&String::from_utf8_lossy(bytes)).into_bytes(),
        };
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1;
            return Screened {
                doc: Err(Problem {
                    line: Some(line),
                    col: None,
                    message: "the file is not UTF-8 text; save it as UTF-8 (plain text) and send it again".into(),
                }),
                archive: redact_lines(&String::from_utf8_lossy(bytes)).into_bytes(),
            };
        }
    };
    let doc = match Doc::parse(text) {
        Ok(doc) => doc,
        Err(problem) => {
            return Screened {
                doc: Err(problem),
                archive: redact_lines(text).into_bytes(),
            };
        }
    };
    let archive = doc.redacted(TOKEN_KEY).into_bytes();
    if let Some(expected) = token {
        let given = doc.get(TOKEN_KEY).and_then(|n| n.as_str(TOKEN_KEY).ok());
        if given != Some(expected) {
            return Screened {
                doc: Err(Problem::general("token does not match")),
                archive,
            };
        }
    }
    Screened {
        doc: Ok(doc),
        archive,
    }
}

/// For text the TOML parser could not read: blank out the value of any line that sets `token`.
fn redact_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with(TOKEN_KEY) && trimmed.contains('=') {
                let end = if line.ends_with('\n') { "\n" } else { "" };
                format!("{TOKEN_KEY} = \"<redacted>\"{end}")
            } else {
                line.to_owned()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oversized_and_non_utf8_files_are_refused() {
        let big = vec![b'#'; MAX_BYTES + 1];
        assert!(
            screen(&big, None)
                .doc
                .unwrap_err()
                .message
                .contains("at most 64 KiB")
        );
        let latin1 = b"room = \"attic\"\n# caf\xe9\n";
        let p = screen(latin1, None).doc.unwrap_err();
        assert_eq!(p.line, Some(2));
        assert!(p.message.contains("not UTF-8"));
    }

    #[test]
    fn tokens_are_checked_and_never_archived() {
        let src = b"token = \"abc\"\nroom = \"attic\"\n";
        let ok = screen(src, Some("abc"));
        assert!(ok.doc.is_ok());
        assert!(!String::from_utf8(ok.archive).unwrap().contains("abc"));
        let wrong = screen(src, Some("xyz"));
        assert_eq!(wrong.doc.unwrap_err().message, "token does not match");
        let missing = screen(b"room = \"attic\"\n", Some("abc"));
        assert_eq!(missing.doc.unwrap_err().message, "token does not match");
        let broken = screen(b"token = \"abc\nroom = \n", Some("abc"));
        assert!(broken.doc.is_err());
        assert!(!String::from_utf8(broken.archive).unwrap().contains("abc"));
    }
}
