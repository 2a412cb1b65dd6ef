//! The operator's errors: what stops a command (a broken game directory, an unwritable file, a held
//! lock). A player's mistakes are never errors; they are `Problem`s rendered into acknowledgements.
//! Every variant carries the file (and where it helps, the key) it is about, and maps to one of the
//! exit codes of the spec (`../shared/spec/README.md`, "Exit codes").

use std::path::PathBuf;

/// Exit codes the spec fixes; cron wrappers act on them.
pub mod exit {
    pub const OK: u8 = 0;
    pub const DIFFERENCE: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const INVALID: u8 = 65;
    pub const IO: u8 = 74;
    pub const TEMPORARY: u8 = 75;
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A host-written file is malformed or inconsistent. `at` is a key (`schedule.every`) or a
    /// position (`4:8`).
    #[error("{}{}{at}: {message}", path.display(), separator(at))]
    Invalid {
        path: PathBuf,
        at: String,
        message: String,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: another adjudicate run holds the lock; try again later", path.display())]
    Locked { path: PathBuf },
    #[error("{0}")]
    Usage(String),
    #[error("{count} problem(s) found")]
    Problems { count: usize },
    #[error("mail: {0}")]
    Mail(String),
    /// state.toml no longer matches the seal the tick wrote on its first line: edited by hand.
    /// (`replay::explain_edit` names the first key the archive contradicts.)
    #[error(
        "{}: edited by hand (it no longer matches the sha256 on its first line, which the tick wrote): restore it from git; `adjudicate check` names the key, `adjudicate replay` shows what it should be",
        path.display()
    )]
    Edited { path: PathBuf },
    /// Every problem of one host file at once (game.toml), one per line.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<Error>),
}

impl Error {
    pub fn invalid(
        path: impl Into<PathBuf>,
        at: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::Invalid {
            path: path.into(),
            at: at.into(),
            message: message.into(),
        }
    }

    /// One error as itself, several as `Several`.
    pub fn several(mut errors: Vec<Error>) -> Self {
        if errors.len() == 1 {
            errors.remove(0)
        } else {
            Error::Several(errors)
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Invalid { .. }
            | Error::Edited { .. }
            | Error::Problems { .. }
            | Error::Several(_) => exit::INVALID,
            Error::Io { .. } => exit::IO,
            Error::Locked { .. } | Error::Mail(_) => exit::TEMPORARY,
            Error::Usage(_) => exit::USAGE,
        }
    }
}

/// `file:4:8: …` for a position, `file: key: …` for a key, `file: …` for the whole file.
fn separator(at: &str) -> &'static str {
    match at.chars().next() {
        None => "",
        Some(c) if c.is_ascii_digit() => ":",
        Some(_) => ": ",
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
