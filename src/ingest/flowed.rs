//! `format=flowed` (RFC 3676), as Thunderbird and Apple Mail send plain text: a line ending in a
//! space is soft-broken and continues on the next line of the same quote depth; a leading space
//! is stuffing. Decoded before a submission is looked for, so that a long line the client wrapped
//! is one line again and the line numbers a player is told are those of the text they see.

/// Decodes a flowed body. `delsp`: the trailing space of a soft break is not part of the text.
pub fn decode(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // the paragraph being joined, and its quote depth
    let mut open: Option<usize> = None;
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let depth = raw.bytes().take_while(|b| *b == b'>').count();
        let rest = &raw[depth..];
        let rest = rest.strip_prefix(' ').unwrap_or(rest); // stuffing
        // a signature separator is never flowed
        let soft = rest.ends_with(' ') && rest != "-- ";
        match open {
            Some(d) if d == depth => {}
            Some(_) => {
                out.push('\n');
                out.push_str(&quote(depth));
            }
            None => out.push_str(&quote(depth)),
        }
        if soft {
            out.push_str(if delsp { &rest[..rest.len() - 1] } else { rest });
            open = Some(depth);
        } else {
            out.push_str(rest);
            out.push('\n');
            open = None;
        }
    }
    if open.is_some() {
        out.push('\n');
    }
    // `split` yields one empty piece after a final newline: it added a newline of its own
    if text.ends_with('\n') && out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn quote(depth: usize) -> String {
    if depth == 0 {
        String::new()
    } else {
        format!("{} ", ">".repeat(depth))
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    /// (case, flowed text, delsp, decoded)
    const CASES: &[(&str, &str, bool, &str)] = &[
        (
            "a soft break joins",
            "I would like the attic this time, if nobody minds, and \r\nthe cellar otherwise.\r\nroom = \"attic\"\r\n",
            false,
            "I would like the attic this time, if nobody minds, and the cellar otherwise.\nroom = \"attic\"\n",
        ),
        (
            "delsp=yes drops the space",
            "abc \r\ndef\r\n",
            true,
            "abcdef\n",
        ),
        (
            "stuffing is removed",
            " From here on\r\n >not a quote\r\n",
            false,
            "From here on\n>not a quote\n",
        ),
        (
            "quotes join only at the same depth",
            "> quoted and \r\n> joined\r\n>> deeper \r\nplain\r\n",
            false,
            "> quoted and joined\n>> deeper \nplain\n",
        ),
        (
            "the signature separator stays",
            "room = \"cellar\"\r\n-- \r\nBob\r\n",
            false,
            "room = \"cellar\"\n-- \nBob\n",
        ),
    ];

    #[test]
    fn every_case_decodes() {
        for (name, text, delsp, expected) in CASES {
            assert_eq!(decode(text, *delsp), *expected, "{name}");
        }
    }
}
