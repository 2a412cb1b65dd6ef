//! The recognisers of how people write mail, as data: the lines that begin quoted history (in the
//! common clients and languages), Outlook's quoted header block, sign-offs and signatures, and
//! greetings. One case per client; add a row for a new one.

/// Lines that begin quoted history on their own.
pub(super) const HISTORY: &[Marker] = &[
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
pub(super) const ATTRIBUTION_STARTS: &[&str] = &["On ", "Am ", "Le ", "El ", "Il "];

/// Outlook's quoted header block: a From line followed by a Sent or Date line.
pub(super) const OUTLOOK_FROM: &[&str] = &["From:", "Von:", "De :", "De:", "Da:"];
pub(super) const OUTLOOK_NEXT: &[&str] = &[
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
pub(super) const CLOSINGS: &[Marker] = &[
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
pub(super) const GREETINGS: &[Marker] = &[
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
pub(super) enum Marker {
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
    pub(super) fn matches(self, line: &str) -> bool {
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

pub(super) fn any(markers: &[Marker], line: &str) -> bool {
    markers.iter().any(|m| m.matches(line))
}

/// The index of the first line of quoted history (or the number of lines).
pub(super) fn history_start(lines: &[&str]) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

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
