//! Finding a submission in a message the way players write them (issue: "mail as players really
//! send it"): greetings, sign-offs, "Sent from my …" lines and quoted history around a few lines
//! of TOML.
//!
//! The player's own text ends where quoted history starts (a `>` line, an attribution such as
//! "On … wrote:" in the common clients and languages, Outlook's header block or
//! "-----Original Message-----"); nothing below it is read, even a skeleton. In the own text, a
//! fenced block (```toml, ```TOML or a bare ```) is the submission; without one, the submission is
//! the lines that are TOML (comments, `[table]` headers, `key = value` lines that parse, with
//! their continuation lines) or that set one of the game's keys (so a typo still gets a problem
//! at its line). Everything else that is not a greeting or a sign-off is kept as `ignored`, for the
//! acknowledgement and the host's log: a question to the host must reach the host. A message
//! with no line of the game's keys holds no submission.
//!
//! The recognisers are data: `HISTORY`, `OUTLOOK_FROM`/`OUTLOOK_NEXT`, `CLOSINGS`, `GREETINGS`.

use toml::de::DeTable;

/// Lines that begin quoted history on their own.
const HISTORY: &[Marker] = &[
    Marker::Prefix(">"),
    Marker::Prefix("-----Original Message-----"),
    Marker::Prefix("-----Ursprüngliche Nachricht-----"),
    Marker::Prefix("-----Message d'origine-----"),
    Marker::Prefix("-----Mensaje original-----"),
    Marker::Prefix("Begin forwarded message:"),
    Marker::Prefix("---------- Forwarded message"),
    Marker::Exact("________________________________"),
    // Attributions: "On Tue, 1 Dec 2026 at 15:00, Host <h@x> wrote:" and its translations.
    Marker::Suffix("wrote:"),
    Marker::Suffix("schrieb:"),
    Marker::Suffix("a écrit :"),
    Marker::Suffix("a écrit:"),
    Marker::Suffix("escribió:"),
    Marker::Suffix("ha scritto:"),
];

/// Openings of an attribution that a client may wrap over two lines ("On …" / "… wrote:").
const ATTRIBUTION_STARTS: &[&str] = &["On ", "Am ", "Le ", "El ", "Il "];

/// Outlook's quoted header block: a From line followed by a Sent or Date line.
const OUTLOOK_FROM: &[&str] = &["From:", "Von:", "De :", "De:", "Da:"];
const OUTLOOK_NEXT: &[&str] = &[
    "Sent:",
    "Date:",
    "Gesendet:",
    "Datum:",
    "Envoyé :",
    "Envoyé:",
    "Enviado:",
    "Fecha:",
    "Inviato:",
];

/// Lines that close the player's own text: signatures, sign-offs, mobile footers. What follows
/// one (a name) is part of it, unless it is TOML.
const CLOSINGS: &[Marker] = &[
    Marker::Exact("--"),
    Marker::Exact("-- "),
    Marker::Prefix("Sent from my "),
    Marker::Prefix("Sent from Mail for "),
    Marker::Prefix("Get Outlook for "),
    Marker::Prefix("Von meinem "),
    Marker::Prefix("Gesendet von "),
    Marker::Prefix("Envoyé de mon "),
    Marker::Prefix("Enviado desde mi "),
    Marker::Word("thanks"),
    Marker::Word("thank you"),
    Marker::Word("thx"),
    Marker::Word("cheers"),
    Marker::Word("best"),
    Marker::Word("best regards"),
    Marker::Word("kind regards"),
    Marker::Word("regards"),
    Marker::Word("grüße"),
    Marker::Word("viele grüße"),
    Marker::Word("liebe grüße"),
    Marker::Word("beste grüße"),
    Marker::Word("gruß"),
    Marker::Word("danke"),
    Marker::Word("merci"),
    Marker::Word("cordialement"),
    Marker::Word("bien à vous"),
    Marker::Word("à bientôt"),
    Marker::Word("saludos"),
    Marker::Word("gracias"),
    Marker::Word("un saludo"),
];

/// A greeting line ("Hi host, here is my choice:"): dropped, never reported.
const GREETINGS: &[Marker] = &[
    Marker::Opening("hi"),
    Marker::Opening("hello"),
    Marker::Opening("hey"),
    Marker::Opening("dear"),
    Marker::Opening("hallo"),
    Marker::Opening("liebe"),
    Marker::Opening("lieber"),
    Marker::Opening("bonjour"),
    Marker::Opening("salut"),
    Marker::Opening("hola"),
    Marker::Opening("buenos días"),
    Marker::Opening("ciao"),
];

/// How a table entry matches a (trimmed) line.
#[derive(Debug, Clone, Copy)]
enum Marker {
    Exact(&'static str),
    Prefix(&'static str),
    Suffix(&'static str),
    /// The line is these words, or starts with them followed by a space or punctuation, and is
    /// short (a closing, not a sentence that happens to start with "Best").
    Word(&'static str),
    /// Like `Word`, for an opening line, which may run on ("Hi host, here is my choice:"), but
    /// ends the sentence (with `:`, `,` or `!`) or is short.
    Opening(&'static str),
}

impl Marker {
    fn matches(self, line: &str) -> bool {
        match self {
            Marker::Exact(s) => line == s,
            Marker::Prefix(s) => line.starts_with(s),
            Marker::Suffix(s) => line.ends_with(s),
            Marker::Word(w) | Marker::Opening(w) => {
                let lower = line.to_lowercase();
                let Some(rest) = lower.strip_prefix(w) else {
                    return false;
                };
                let whole_word = rest
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c.is_ascii_punctuation());
                let words = line.split_whitespace().count() - w.split_whitespace().count();
                let fits = match self {
                    Marker::Opening(_) => {
                        words <= 4 || (words <= 10 && line.ends_with([':', ',', '!']))
                    }
                    _ => words <= 4,
                };
                whole_word && fits
            }
        }
    }
}

fn any(markers: &[Marker], line: &str) -> bool {
    markers.iter().any(|m| m.matches(line))
}

/// What a message body yields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The submission (`None`: the message holds none).
    pub toml: Option<String>,
    /// The player's own lines that are neither TOML nor a greeting or closing, in order.
    pub ignored: Vec<String>,
}

/// Reads a body; `keys` are the top-level keys and tables of the game's submissions.
pub fn extract(body: &str, keys: &[&str]) -> Extracted {
    let body = body.replace("\r\n", "\n");
    let lines: Vec<&str> = body.lines().collect();
    let own = &lines[..history_start(&lines)];
    if let Some((toml, ignored)) = fenced(own) {
        return Extracted {
            toml: Some(toml),
            ignored,
        };
    }
    unfenced(own, keys)
}

/// The index of the first line of quoted history (or the number of lines).
fn history_start(lines: &[&str]) -> usize {
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        let wrapped_attribution = ATTRIBUTION_STARTS.iter().any(|s| line.starts_with(s))
            && !next.is_empty()
            && any(HISTORY, next)
            && !next.starts_with('>');
        let outlook = OUTLOOK_FROM.iter().any(|s| line.starts_with(s))
            && OUTLOOK_NEXT.iter().any(|s| next.starts_with(s));
        if any(HISTORY, line) || wrapped_attribution || outlook {
            return i;
        }
    }
    lines.len()
}

/// The first fenced block of the own text, and the other lines worth reporting.
fn fenced(own: &[&str]) -> Option<(String, Vec<String>)> {
    let open = own.iter().position(|l| {
        let t = l.trim();
        t == "```" || t.eq_ignore_ascii_case("```toml")
    })?;
    let close = own[open + 1..]
        .iter()
        .position(|l| l.trim() == "```")
        .map(|c| open + 1 + c)?;
    let toml = own[open + 1..close].join("\n") + "\n";
    let outside: Vec<&str> = own[..open]
        .iter()
        .chain(&own[close + 1..])
        .copied()
        .collect();
    Some((toml, prose(&outside)))
}

/// The own text without fences: TOML lines kept, the rest sorted into prose and chatter.
fn unfenced(own: &[&str], keys: &[&str]) -> Extracted {
    let mut kept: Vec<&str> = Vec::new();
    let mut other: Vec<&str> = Vec::new();
    let mut schema = false;
    let mut closed = false;
    let mut i = 0;
    while i < own.len() {
        let line = own[i];
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            // comments are TOML (the skeleton's help); blank lines only between TOML lines
            if !closed && (t.starts_with('#') || !kept.is_empty()) {
                kept.push(line);
            }
            i += 1;
            continue;
        }
        if let Some(name) = header(t) {
            schema |= keys.contains(&name);
            kept.push(line);
            i += 1;
            continue;
        }
        if let Some(key) = key_of(t) {
            let ours = keys.contains(&key);
            // the statement may go on over several lines (a list, a multi-line string), but only
            // a line that opens one is tried with the next (so a long body costs linear time)
            let last = if opens(t) {
                own.len().min(i + 60)
            } else {
                i + 1
            };
            let end = (i + 1..=last).find(|&e| DeTable::parse(&own[i..e].join("\n")).is_ok());
            match end {
                Some(e) => {
                    schema |= ours;
                    kept.extend(&own[i..e]);
                    i = e;
                    continue;
                }
                None if ours => {
                    schema = true;
                    kept.push(line); // broken, but meant: the player gets the TOML error
                    i += 1;
                    continue;
                }
                None => {}
            }
        }
        if any(CLOSINGS, t) {
            closed = true;
        } else if !closed && !any(GREETINGS, t) {
            other.push(line);
        }
        i += 1;
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    Extracted {
        toml: schema.then(|| kept.join("\n") + "\n"),
        ignored: other.iter().map(|l| l.trim().to_owned()).collect(),
    }
}

/// Whether a `key = value` line opens a value that may close on a later line.
fn opens(line: &str) -> bool {
    let count = |c: char| line.matches(c).count();
    count('[') > count(']')
        || count('{') > count('}')
        || line.matches("\"\"\"").count() % 2 == 1
        || line.matches("'''").count() % 2 == 1
}

/// Lines outside a fence worth reporting: not blank, not greetings, nothing after a closing.
fn prose(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let t = line.trim();
        if any(CLOSINGS, t) {
            break;
        }
        if !t.is_empty() && !any(GREETINGS, t) {
            out.push(t.to_owned());
        }
    }
    out
}

/// `[name]`, `[[name]]` or `[name.sub]`: the first segment of the name.
fn header(line: &str) -> Option<&str> {
    let inner = line.strip_prefix('[')?;
    let inner = inner.strip_prefix('[').unwrap_or(inner);
    let end = inner.find(']')?;
    let rest = inner[end..].trim_start_matches(']').trim();
    if !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let first = inner[..end].split('.').next()?.trim();
    is_bare_key(first).then_some(first)
}

/// The first segment of the key of a `key = value` line, if the line has that shape.
fn key_of(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let first = key.split('.').next()?.trim();
    let first = first.trim_matches('"');
    (is_bare_key(first)
        && key
            .split('.')
            .all(|k| is_bare_key(k.trim().trim_matches('"'))))
    .then_some(first)
}

fn is_bare_key(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &["room", "fallback", "peek", "block", "give_token", "token"];

    fn toml(body: &str) -> Option<String> {
        extract(body, KEYS).toml
    }

    /// (case, body, the submission it must yield)
    const CASES: &[(&str, &str, Option<&str>)] = &[
        ("bare", "room = \"attic\"\n", Some("room = \"attic\"\n")),
        (
            "greeting and sign-off",
            "Hi host, here is my choice:\n\nroom = \"attic\"\nfallback = \"cellar\"\n\nThanks!\nBob\n",
            Some("room = \"attic\"\nfallback = \"cellar\"\n"),
        ),
        (
            "iPhone footer",
            "room = \"cellar\"\n\nSent from my iPhone\n",
            Some("room = \"cellar\"\n"),
        ),
        (
            "Gmail attribution over two lines, with a skeleton below",
            "room = \"basement\"\n\nOn Tue, Dec 1, 2026 at 3:00 PM Room Swap Host <\nhost@example.org> wrote:\n\n> room = \"attic\"\n",
            Some("room = \"basement\"\n"),
        ),
        (
            "Outlook original message",
            "room = \"attic\"\r\n\r\n-----Original Message-----\r\nFrom: Host\r\nroom = \"cellar\"\r\n",
            Some("room = \"attic\"\n"),
        ),
        (
            "Outlook header block",
            "room = \"attic\"\n\nFrom: Room Swap Host <host@example.org>\nSent: Tuesday, December 1, 2026 3:00 PM\nTo: Bob\nSubject: round 1\n\nroom = \"cellar\"\n",
            Some("room = \"attic\"\n"),
        ),
        (
            "German attribution and Grüße",
            "room = \"cellar\"\n\nGrüße!\nErin\n\nAm Di., 1. Dez. 2026 um 15:00 Uhr schrieb Host <h@x>:\n> room = \"attic\"\n",
            Some("room = \"cellar\"\n"),
        ),
        (
            "French attribution",
            "room = \"attic\"\n\nLe mar. 1 déc. 2026 à 15:00, Host <h@x> a écrit :\n> room = \"cellar\"\n",
            Some("room = \"attic\"\n"),
        ),
        (
            "Spanish attribution",
            "room = \"attic\"\n\nEl mar, 1 dic 2026 a las 15:00, Host (<h@x>) escribió:\n> room = \"cellar\"\n",
            Some("room = \"attic\"\n"),
        ),
        (
            "the skeleton only in the quote",
            "I'll think about it\n\nOn Tue, Host wrote:\n> room = \"attic\"\n",
            None,
        ),
        (
            "bare fence",
            "Here:\n```\nroom = \"cellar\"\n```\n",
            Some("room = \"cellar\"\n"),
        ),
        (
            "TOML fence",
            "```TOML\nroom = \"cellar\"\n```",
            Some("room = \"cellar\"\n"),
        ),
        ("prose only", "see you tomorrow, 2 + 2 = 4\n", None),
        (
            "HTML source",
            "<div style=\"color: red\">hello</div>\n<p class=\"x\">x = 1</p>\n",
            None,
        ),
        (
            "uuencoded",
            "begin 644 x.txt\nM86)C9&5F9V@*=\n`\nend\n",
            None,
        ),
        (
            "a typo is kept so the player hears of it",
            "room = attic\n",
            Some("room = attic\n"),
        ),
        (
            "a list over several lines",
            "peek = [\n  \"bob\",\n  \"carol\",\n]\nroom = \"attic\"\n",
            Some("peek = [\n  \"bob\",\n  \"carol\",\n]\nroom = \"attic\"\n"),
        ),
        (
            "a table and comments",
            "# my choice\nroom = \"attic\"\n[block]\nplayer = \"dave\"\nroom = \"basement\"\n",
            Some(
                "# my choice\nroom = \"attic\"\n[block]\nplayer = \"dave\"\nroom = \"basement\"\n",
            ),
        ),
    ];

    #[test]
    fn every_case_yields_its_submission() {
        for (name, body, expected) in CASES {
            assert_eq!(toml(body).as_deref(), *expected, "{name}");
        }
    }

    #[test]
    fn a_question_to_the_host_is_kept_as_ignored_text() {
        let e = extract(
            "Hi!\nroom = \"attic\"\ndoes fallback = cellar count?\n\nCheers,\nAlice\n",
            KEYS,
        );
        assert_eq!(e.toml.as_deref(), Some("room = \"attic\"\n"));
        assert_eq!(e.ignored, ["does fallback = cellar count?"]);
        let fenced = extract(
            "Quick question: is Peek instant?\n```toml\nroom = \"attic\"\n```\nThanks\n",
            KEYS,
        );
        assert_eq!(fenced.ignored, ["Quick question: is Peek instant?"]);
    }

    #[test]
    fn a_body_of_ten_thousand_lines_is_read_whole() {
        let mut body = String::from("room = \"attic\"\n");
        for i in 0..10_000 {
            body.push_str(&format!("line {i} of prose, x = y z\n"));
        }
        let e = extract(&body, KEYS);
        assert_eq!(e.toml.as_deref(), Some("room = \"attic\"\n"));
        assert_eq!(e.ignored.len(), 10_000);
    }

    #[test]
    fn markers_match_whole_closings_not_sentences() {
        assert!(Marker::Word("best").matches("Best,"));
        assert!(Marker::Word("grüße").matches("Grüße!"));
        assert!(
            !Marker::Word("best").matches("Bestow the room on me please, I really want the attic")
        );
        assert!(!Marker::Word("hi").matches("his room"));
        assert!(Marker::Opening("hi").matches("Hi host, here is my choice:"));
        assert!(
            !Marker::Opening("hi")
                .matches("Hi, I wonder whether the Block costs five garnets or two this time")
        );
    }
}
