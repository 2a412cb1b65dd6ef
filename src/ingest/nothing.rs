//! `Nothing`: why a message a player sent holds no submission. Every such message is answered
//! (issue: every message gets an answer), and the answer and the host's log say which of these
//! it was, so the player can act on it.

/// Why a message holds no submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nothing {
    /// No text at all (a subject-only mail, an empty chat message).
    Empty,
    /// No line sets one of the game's keys (prose, a question to the host).
    NoKeys,
    /// The only choices are in quoted text: our report quoted unchanged, or a quote that is not
    /// one of our reports.
    OnlyQuoted,
    /// HTML without a plain-text part.
    HtmlOnly,
    /// Larger than a submission mail could be; not read.
    TooBig { bytes: usize },
    /// An attachment that cannot be read (not UTF-8, outside a chat export's folder …).
    Unreadable(String),
    /// The body and a `.toml` attachment carry two different submissions.
    Ambiguous { body: String, attachment: String },
    /// Older than the player's version on file, which reached the host at `newer` (Unix
    /// seconds): a delayed delivery, or an export read again.
    Older { newer: i64 },
}

impl Nothing {
    /// The reply's subject, after the game and round.
    pub fn headline(&self) -> &'static str {
        match self {
            Nothing::Older { .. } => "an older message of yours",
            _ => "no submission found in your message",
        }
    }

    /// One line for the host's log.
    pub fn short(&self) -> String {
        match self {
            Nothing::Empty => "no submission found (the message has no text)".into(),
            Nothing::NoKeys => "no submission found (no line sets one of the game's keys)".into(),
            Nothing::OnlyQuoted => {
                "no submission found (the only choices are inside quoted text)".into()
            }
            Nothing::HtmlOnly => "no submission found (HTML-only mail)".into(),
            Nothing::TooBig { bytes } => format!(
                "no submission read (the message is {bytes} bytes, over the {} KiB limit)",
                super::message::MAX_MESSAGE / 1024
            ),
            Nothing::Unreadable(why) => format!("no submission read ({why})"),
            Nothing::Ambiguous { .. } => {
                "no submission used (the body and a .toml attachment differ)".into()
            }
            Nothing::Older { .. } => "not used (older than the version on file)".into(),
        }
    }

    /// What the player is told: what we found, and what to do.
    pub fn explain(&self, keys: &[&str]) -> String {
        let keys = keys
            .iter()
            .filter(|k| **k != crate::submission::TOKEN_KEY)
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        match self {
            Nothing::Empty => "Your message has no text. Write your choices in the body of the mail (or reply to your report and edit its skeleton).".into(),
            Nothing::NoKeys => format!("No line of your message sets one of this game's keys ({keys}), so we could not read it as a submission. Write your choices as lines such as the ones in the skeleton at the end of your report."),
            Nothing::OnlyQuoted => "The only choices in your message are inside the text you quoted (our report quoted unchanged, or a quote that is not one of our reports). Write your choices above the quoted text, or edit the skeleton of the report you reply to.".into(),
            Nothing::HtmlOnly => "Your message was sent as HTML only, and we read plain text. Switch your mail program to plain text (or \"Plain Text Mode\") and send it again.".into(),
            Nothing::TooBig { bytes } => format!("Your message is {} KiB, more than the {} KiB we read, so it was not read (a large attachment or a long quoted history?). Send your choices alone in a new mail.", bytes / 1024, super::message::MAX_MESSAGE / 1024),
            Nothing::Unreadable(why) => format!("We could not read your submission: {why}."),
            Nothing::Ambiguous { .. } => "Your message carries two different submissions, one in the text and one in a .toml attachment, and we cannot tell which you mean. Neither is used: send one of them again, alone.".into(),
            Nothing::Older { newer } => format!("This message reached us before the one of yours we already have (received {}), so it does not replace it: the newer one stands.", jiff::Timestamp::from_second(*newer).map_or_else(|_| newer.to_string(), crate::clock::human)),
        }
    }
}
