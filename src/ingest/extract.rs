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
//! The recognisers are data, in `markers.rs`: `HISTORY`, `OUTLOOK_FROM`/`OUTLOOK_NEXT`,
//! `CLOSINGS`, `GREETINGS`. A signature (`-- `) ends the body; the last fenced block wins; an
//! answer below or inside our own quoted report is read.

use super::markers::{CLOSINGS, GREETINGS, any, history_start};
use super::nothing::Nothing;
use toml::de::DeTable;

/// What a message body yields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The submission, or why the body holds none.
    pub toml: Result<String, Nothing>,
    /// The player's own lines that are neither TOML nor a greeting or closing, in order.
    pub ignored: Vec<String>,
    /// For each line of the submission, its line in the body (1-based), so that a problem is
    /// told at the line of the player's own mail.
    pub lines: Vec<u32>,
    /// How the body was read, where a player should know it.
    pub notes: Vec<Note>,
}

/// How a body was read, told to the player in the acknowledgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Several fenced blocks: the last one is the submission.
    LastBlock { blocks: usize },
    /// Curly quotes (a phone's “ ” ‘ ’) read as straight quotes.
    CurlyQuotes,
    /// A key written with capitals read as the game's key.
    KeyCase { written: String, read: String },
    /// The submission was written inside or below the quoted report.
    InQuote,
}

impl Note {
    pub fn text(&self) -> String {
        match self {
            Note::LastBlock { blocks } => format!(
                "Your message had {blocks} fenced blocks: we used the last one, which replaces the earlier ones."
            ),
            Note::CurlyQuotes => {
                "We read the curly quotes (“ ” ‘ ’) in your message as straight quotes (\" ')."
                    .to_owned()
            }
            Note::KeyCase { written, read } => format!("We read `{written}` as `{read}`."),
            Note::InQuote => {
                "We found your choices inside or below the report you quoted.".to_owned()
            }
        }
    }
}

/// Markers of our own reports in quoted history: the footer of every message we send and the
/// line that opens a skeleton. An answer inside or below a quote is read only when the quote
/// holds one of them.
const OURS: &[&str] = &["adjudicated by adjudicate", "# Reply with this"];

/// Reads a body; `keys` are the top-level keys and tables of the game's submissions;
/// `skeleton` is the skeleton we last sent this player, to tell an edit of the quoted skeleton
/// from a quote left as it was.
pub fn extract(body: &str, keys: &[&str], skeleton: Option<&str>) -> Extracted {
    let body = body.strip_prefix('\u{feff}').unwrap_or(body);
    let body = body.replace("\r\n", "\n");
    let lines: Vec<&str> = body.lines().collect();
    let nothing = |why| Extracted {
        toml: Err(why),
        ignored: Vec::new(),
        lines: Vec::new(),
        notes: Vec::new(),
    };
    if lines.iter().all(|l| l.trim().is_empty()) {
        return nothing(Nothing::Empty);
    }
    // A signature ("-- ") ends the body: nothing in it is read, even a line that looks like TOML.
    let end = lines
        .iter()
        .position(|l| l.trim_end() == "--")
        .unwrap_or(lines.len());
    let history = history_start(&lines[..end]);
    let own: Vec<(usize, &str)> = (0..history).map(|i| (i, lines[i])).collect();
    let found = read(&own, keys);
    if found.toml.is_ok() || history == end {
        return found;
    }
    // Nothing in the own text: an answer below or between the lines of the quoted report, or an
    // edit of its quoted skeleton.
    let quote = &lines[history..end];
    let ours = quote.iter().any(|l| OURS.iter().any(|m| l.contains(m)));
    let below = answer_below(&lines, history, end);
    if !below.is_empty() {
        let mut answer = read(&below, keys);
        if answer.toml.is_ok() {
            if !ours {
                return nothing(Nothing::OnlyQuoted);
            }
            answer.notes.push(Note::InQuote);
            answer.ignored.splice(0..0, found.ignored);
            return answer;
        }
    }
    let quoted: Vec<(usize, &str)> = (history..end)
        .filter_map(|i| unquote(lines[i]).map(|l| (i, l)))
        .collect();
    let mut edited = read(&quoted, keys);
    match &edited.toml {
        Ok(text) if ours && changed(text, skeleton, keys) => {
            edited.notes.push(Note::InQuote);
            edited.ignored = found.ignored;
            edited
        }
        // the quote as we sent it: the player wrote something of their own (no key in it), or
        // nothing at all
        Ok(_) if found.ignored.is_empty() => nothing(Nothing::OnlyQuoted),
        _ => found,
    }
}

/// The player's unquoted lines among and below quoted history that starts with `>` lines (a
/// bottom-posted or interleaved answer); none when the history is not quoted with `>` (Outlook's
/// "Original Message" block is history through to the end).
fn answer_below<'a>(lines: &[&'a str], history: usize, end: usize) -> Vec<(usize, &'a str)> {
    let first_quoted = (history..end.min(history + 3)).find(|&i| lines[i].starts_with('>'));
    let Some(first) = first_quoted else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate().take(end).skip(first) {
        if line.starts_with('>') {
            continue;
        }
        // another attribution or an unquoted history block: older history, not an answer
        if history_start(&lines[i..end]) == 0 {
            break;
        }
        out.push((i, *line));
    }
    out
}

/// A line of the first level of quoting, without its `>` (deeper levels are older history).
fn unquote(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('>')?;
    if rest.starts_with('>') {
        return None;
    }
    Some(rest.strip_prefix(' ').unwrap_or(rest))
}

/// Whether a quoted skeleton was edited: its values differ from the skeleton we sent (without
/// it, an unchanged quote cannot be told from an edit, and the quote is not read).
fn changed(quoted: &str, skeleton: Option<&str>, keys: &[&str]) -> bool {
    let Some(skeleton) = skeleton else {
        return false;
    };
    let ours: Vec<(usize, &str)> = skeleton.lines().enumerate().collect();
    let Ok(sent) = read(&ours, keys).toml else {
        return true;
    };
    match (
        toml::from_str::<toml::Table>(quoted),
        toml::from_str::<toml::Table>(&sent),
    ) {
        (Ok(a), Ok(b)) => a != b,
        (Err(_), Ok(_)) => true, // broken by an edit: the player hears of the TOML problem
        _ => false,
    }
}

/// Reads numbered lines: the last fenced block when there is one, else the TOML lines.
fn read(lines: &[(usize, &str)], keys: &[&str]) -> Extracted {
    let mut notes = Vec::new();
    let found = match fenced(lines) {
        Some((block, blocks, outside)) => {
            if blocks > 1 {
                notes.push(Note::LastBlock { blocks });
            }
            // a fenced block is TOML throughout: the lines that go on a statement (an array
            // over several lines on a phone) are straightened too
            let kept: Vec<(usize, String)> = block
                .iter()
                .map(|(i, l)| (*i, normalise(&straighten(l, &mut notes), keys, &mut notes)))
                .collect();
            Extracted {
                toml: Ok(join(&kept)),
                ignored: prose(&outside),
                lines: kept.iter().map(|(i, _)| *i as u32 + 1).collect(),
                notes: Vec::new(),
            }
        }
        None => unfenced(lines, keys, &mut notes),
    };
    Extracted { notes, ..found }
}

fn join(kept: &[(usize, String)]) -> String {
    let mut text = String::new();
    for (_, line) in kept {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Every fenced block of the lines: the last one, how many there were, and the lines outside
/// them.
#[allow(clippy::type_complexity)]
fn fenced<'a>(
    lines: &[(usize, &'a str)],
) -> Option<(Vec<(usize, &'a str)>, usize, Vec<(usize, &'a str)>)> {
    let is_open = |l: &str| {
        let t = l.trim();
        t == "```" || t.eq_ignore_ascii_case("```toml")
    };
    let mut blocks: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut outside = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let close = is_open(lines[at].1)
            .then(|| lines[at + 1..].iter().position(|(_, l)| l.trim() == "```"))
            .flatten();
        match close {
            Some(c) => {
                blocks.push(lines[at + 1..at + 1 + c].to_vec());
                at += c + 2;
            }
            None => {
                outside.push(lines[at]);
                at += 1;
            }
        }
    }
    let count = blocks.len();
    Some((blocks.pop()?, count, outside))
}

/// A TOML line with a phone's curly quotes read as straight ones, noted once.
fn straighten(line: &str, notes: &mut Vec<Note>) -> String {
    if !line.contains(['“', '”', '‘', '’', '„']) {
        return line.to_owned();
    }
    if !notes.contains(&Note::CurlyQuotes) {
        notes.push(Note::CurlyQuotes);
    }
    line.replace(['“', '”', '„'], "\"").replace(['‘', '’'], "'")
}

/// A statement line as the game reads it: curly quotes straightened and a key written with
/// capitals lowered, each noted once.
fn normalise(line: &str, keys: &[&str], notes: &mut Vec<Note>) -> String {
    let trimmed = line.trim_start();
    if key_of(trimmed).is_none() && !trimmed.contains('=') {
        return line.to_owned();
    }
    let mut out = straighten(line, notes);
    let indent = out.len() - out.trim_start().len();
    if let Some(key) = key_of(&out[indent..]).map(str::to_owned) {
        let lower = key.to_ascii_lowercase();
        if lower != key && !keys.contains(&key.as_str()) && keys.contains(&lower.as_str()) {
            let at = indent + out[indent..].find(&key).unwrap_or(0);
            out.replace_range(at..at + key.len(), &lower);
            notes.push(Note::KeyCase {
                written: key,
                read: lower,
            });
        }
    }
    out
}

/// The own text without fences: TOML lines kept, the rest sorted into prose and chatter.
fn unfenced(lines: &[(usize, &str)], keys: &[&str], notes: &mut Vec<Note>) -> Extracted {
    let mut kept: Vec<(usize, String)> = Vec::new();
    let mut other: Vec<&str> = Vec::new();
    let mut schema = false;
    let mut closed = false;
    let mut i = 0;
    while i < lines.len() {
        let (at, line) = lines[i];
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            // comments are TOML (the skeleton's help); blank lines only between TOML lines
            if !closed && (t.starts_with('#') || !kept.is_empty()) {
                kept.push((at, line.to_owned()));
            }
            i += 1;
            continue;
        }
        if let Some(name) = header(t) {
            schema |= keys.contains(&name);
            kept.push((at, line.to_owned()));
            i += 1;
            continue;
        }
        let mut tried = Vec::new();
        let statement = normalise(line, keys, &mut tried);
        if let Some(key) = key_of(statement.trim()) {
            let ours = keys.contains(&key);
            // the statement may go on over several lines (a list, a multi-line string), but only
            // a line that opens one is tried with the next (so a long body costs linear time)
            let last = if opens(statement.trim()) {
                lines.len().min(i + 60)
            } else {
                i + 1
            };
            // the lines it may go on over, their curly quotes straightened as its own are
            let more: Vec<String> = lines[i + 1..last]
                .iter()
                .map(|(_, l)| straighten(l, &mut tried))
                .collect();
            let text = |e: usize| {
                let mut s = statement.clone();
                for l in &more[..e - i - 1] {
                    s.push('\n');
                    s.push_str(l);
                }
                s
            };
            let end = (i + 1..=last).find(|&e| DeTable::parse(&text(e)).is_ok());
            if end.is_some() || ours {
                schema |= ours;
                for note in tried {
                    if !notes.contains(&note) {
                        notes.push(note);
                    }
                }
                kept.push((at, statement));
                let e = end.unwrap_or(i + 1);
                let went_on = lines[i + 1..e].iter().zip(&more);
                kept.extend(went_on.map(|((a, _), l)| (*a, l.clone())));
                i = e; // broken but meant (ours): the player gets the TOML error
                continue;
            }
        }
        if any(CLOSINGS, t) {
            closed = true;
        } else if !closed && !any(GREETINGS, t) {
            other.push(line);
        }
        i += 1;
    }
    while kept.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        kept.pop();
    }
    let ignored = other.iter().map(|l| l.trim().to_owned()).collect();
    if !schema {
        return Extracted {
            toml: Err(Nothing::NoKeys),
            ignored,
            lines: Vec::new(),
            notes: Vec::new(),
        };
    }
    Extracted {
        toml: Ok(join(&kept)),
        ignored,
        lines: kept.iter().map(|(i, _)| *i as u32 + 1).collect(),
        notes: Vec::new(),
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
fn prose(lines: &[(usize, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, line) in lines {
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
    use crate::ingest::nothing::Nothing;

    const KEYS: &[&str] = &["room", "fallback", "peek", "block", "give_token", "token"];

    fn toml(body: &str) -> Option<String> {
        extract(body, KEYS, None).toml.ok()
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

    /// Our report as a client quotes it: text, the skeleton, the footer.
    const QUOTED_REPORT: &str = "On Tue, 1 Dec 2026 at 15:00, Host <h@x> wrote:\n> Round 1: you were in the Attic.\n>\n> # Reply with this, edited. Deadline Wed 2 Dec 15:00 UTC.\n> room = \"attic\"   # attic, basement or cellar\n>\n> -- \n> Attic Basement Cellar, adjudicated by adjudicate\n";
    const SKELETON: &str = "# Reply with this, edited. Deadline Wed 2 Dec 15:00 UTC.\nroom = \"attic\"   # attic, basement or cellar\n";

    /// (case, body, the submission or why none, notes, lines of the body)
    #[allow(clippy::type_complexity)]
    fn shapes() -> Vec<(
        &'static str,
        String,
        Result<&'static str, Nothing>,
        Vec<Note>,
        Vec<u32>,
    )> {
        vec![
            (
                "curly quotes from a phone",
                "room = \u{201c}cellar\u{201d}\n".into(),
                Ok("room = \"cellar\"\n"),
                vec![Note::CurlyQuotes],
                vec![1],
            ),
            (
                "curly quotes in an array over several lines",
                "peek = [\n  \u{201c}bob\u{201d},\n  \u{201c}carol\u{201d}\n]\nroom = \u{201c}attic\u{201d}\n".into(),
                Ok("peek = [\n  \"bob\",\n  \"carol\"\n]\nroom = \"attic\"\n"),
                vec![Note::CurlyQuotes],
                vec![1, 2, 3, 4, 5],
            ),
            (
                "curly quotes in a fenced array over several lines",
                "```\npeek = [\n  \u{2018}bob\u{2019},\n]\n```\n".into(),
                Ok("peek = [\n  'bob',\n]\n"),
                vec![Note::CurlyQuotes],
                vec![2, 3, 4],
            ),
            (
                "a signature is not read, even its TOML-looking lines",
                "room = \"cellar\"\n\n-- \nBob Smith\nphone = \"555-1234\"\nroom = \"basement\"\n".into(),
                Ok("room = \"cellar\"\n"),
                vec![],
                vec![1],
            ),
            (
                "the last of several fenced blocks wins",
                "```\nroom = \"attic\"\n```\nActually no, make it:\n```toml\nroom = \"cellar\"\n```\n".into(),
                Ok("room = \"cellar\"\n"),
                vec![Note::LastBlock { blocks: 2 }],
                vec![6],
            ),
            (
                "a BOM, CRLF and tabs",
                "\u{feff}room = \"attic\"\r\n\tfallback = \"cellar\"\r\n".into(),
                Ok("room = \"attic\"\n\tfallback = \"cellar\"\n"),
                vec![],
                vec![1, 2],
            ),
            (
                "a key with a capital",
                "Room = \"Attic\"\n".into(),
                Ok("room = \"Attic\"\n"),
                vec![Note::KeyCase {
                    written: "Room".into(),
                    read: "room".into(),
                }],
                vec![1],
            ),
            (
                "lines are those of the mail",
                "Hi host,\n\nhere goes:\nroom = \"basement\"\n".into(),
                Ok("room = \"basement\"\n"),
                vec![],
                vec![4],
            ),
            (
                "top-posted prose above our report",
                format!("Cellar for me please!\n\n{QUOTED_REPORT}"),
                Err(Nothing::NoKeys),
                vec![],
                vec![],
            ),
            (
                "bottom-posted below our report",
                format!("{QUOTED_REPORT}\nroom = \"cellar\"\n"),
                Ok("room = \"cellar\"\n"),
                vec![Note::InQuote],
                vec![10],
            ),
            (
                "bottom-posted below a quote that is not ours",
                "On Tue, Carol wrote:\n> shall we all go to the attic?\n\nroom = \"cellar\"\n".into(),
                Err(Nothing::OnlyQuoted),
                vec![],
                vec![],
            ),
            (
                "an edit inside our quoted skeleton",
                QUOTED_REPORT.replace("> room = \"attic\"", "> room = \"cellar\""),
                Ok("# Reply with this, edited. Deadline Wed 2 Dec 15:00 UTC.\nroom = \"cellar\"   # attic, basement or cellar\n"),
                vec![Note::InQuote],
                vec![4, 5],
            ),
            (
                "our skeleton quoted unchanged",
                format!("\n{QUOTED_REPORT}"),
                Err(Nothing::OnlyQuoted),
                vec![],
                vec![],
            ),
            ("a subject-only mail", "\r\n \r\n".into(), Err(Nothing::Empty), vec![], vec![]),
        ]
    }

    #[test]
    fn every_shape_players_send_is_read_as_meant() {
        for (name, body, expected, notes, lines) in shapes() {
            let got = extract(&body, KEYS, Some(SKELETON));
            assert_eq!(
                got.toml.as_deref().map_err(Clone::clone),
                expected,
                "{name}"
            );
            assert_eq!(got.notes, notes, "{name}");
            assert_eq!(got.lines, lines, "{name}");
        }
    }

    #[test]
    fn a_question_to_the_host_is_kept_as_ignored_text() {
        let e = extract(
            "Hi!\nroom = \"attic\"\ndoes fallback = cellar count?\n\nCheers,\nAlice\n",
            KEYS,
            None,
        );
        assert_eq!(e.toml.as_deref(), Ok("room = \"attic\"\n"));
        assert_eq!(e.ignored, ["does fallback = cellar count?"]);
        let fenced = extract(
            "Quick question: is Peek instant?\n```toml\nroom = \"attic\"\n```\nThanks\n",
            KEYS,
            None,
        );
        assert_eq!(fenced.ignored, ["Quick question: is Peek instant?"]);
    }

    #[test]
    fn a_body_of_ten_thousand_lines_is_read_whole() {
        let mut body = String::from("room = \"attic\"\n");
        for i in 0..10_000 {
            body.push_str(&format!("line {i} of prose, x = y z\n"));
        }
        let e = extract(&body, KEYS, None);
        assert_eq!(e.toml.as_deref(), Ok("room = \"attic\"\n"));
        assert_eq!(e.ignored.len(), 10_000);
    }
}
