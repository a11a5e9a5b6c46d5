//! What the commands that play round robins share (`yomi match`, `yomi tournament`, the
//! TUBSTAP experiment): the arena's errors in the command's words (a spec that does not
//! resolve is a usage error), and the summary they print.
//!
//! Its own module, below the commands and the command-line definitions, so that those can
//! use it without using each other.

use yomi_core::arena::{ArenaError, RoundRobin, TournamentResult};

use crate::error::usage;

/// Arena errors in the command's words: a spec error is a usage error.
pub fn arena_error(e: ArenaError) -> anyhow::Error {
    match e {
        ArenaError::Spec { .. } | ArenaError::Entrant(_) => usage(e.to_string()),
        other => other.into(),
    }
}

/// What a match or tournament prints: where the records are, then the arena's report.
pub fn summary(
    config: &RoundRobin,
    result: &TournamentResult,
    format: yomi_core::arena::TableFormat,
) -> String {
    let mut text = String::new();
    if let Some(path) = &config.out {
        text.push_str(&format!(
            "Records: {} ({} games: {} played now, {} resumed)\n\n",
            path.display(),
            result.records.len(),
            result.played,
            result.resumed
        ));
    }
    text.push_str(&result.report(format));
    text
}
