//! The crate's error type.

use std::path::PathBuf;

use thiserror::Error;

/// What can go wrong when learning, reading data or writing results.
#[derive(Debug, Error)]
pub enum LearnError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A file's content is not what it should be (a bad data line, a weights file of
    /// another game, a bad configuration).
    #[error("{}{}: {reason}", path.display(), line.map(|l| format!(", line {l}")).unwrap_or_default())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// The line (from 1), when known.
        line: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// A setting cannot be used (a policy too large to store, zero states, an unknown
    /// method).
    #[error("{0}")]
    Config(String),
    /// A journal (a data file) could not be opened, read or written, or holds work of
    /// other settings.
    #[error(transparent)]
    Journal(#[from] yomi_core::journal::JournalError),
    /// A round robin could not run.
    #[error("matches: {0}")]
    Arena(#[from] yomi_core::arena::ArenaError),
    /// Drawing a plot failed.
    #[error("plot {}: {reason}", path.display())]
    Plot {
        /// The image file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}

impl LearnError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        LearnError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn bad(
        path: &std::path::Path,
        line: Option<usize>,
        reason: impl Into<String>,
    ) -> Self {
        LearnError::BadFile {
            path: path.to_path_buf(),
            line,
            reason: reason.into(),
        }
    }
}
