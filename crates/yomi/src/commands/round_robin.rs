//! What the commands that play round robins share (`yomi match`, `yomi tournament`, the
//! TUBSTAP experiment): the arena's errors in the command's words (a spec that does not
//! resolve is a usage error), the summary they print, and the flags that override a
//! tournament file ([`FileOverrides`]).
//!
//! Its own module, below the commands and the command-line definitions, so that those can
//! use it without using each other.

use clap::Args;
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

/// The settings of a tournament file that the command line overrides (`yomi tournament`,
/// `yomi tubstap experiment`).
#[derive(Args, Debug)]
pub struct FileOverrides {
    /// JSONL records file (overrides the file's `out`); an existing file is resumed.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<std::path::PathBuf>,
    /// Games per pair of agents (overrides the file's `games`).
    #[arg(long)]
    pub games: Option<usize>,
    /// Seed (overrides the file's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads to use, each playing one game at a time (overrides the file's `threads`; default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl FileOverrides {
    /// Sets what was given on `rr`, the file's round robin.
    pub fn apply(self, rr: &mut RoundRobin) {
        if self.out.is_some() {
            rr.out = self.out;
        }
        if let Some(games) = self.games {
            rr.games = games;
        }
        if let Some(seed) = self.seed {
            rr.seed = seed;
        }
        if self.threads.is_some() {
            rr.threads = self.threads;
        }
        rr.quiet |= self.quiet;
    }
}
