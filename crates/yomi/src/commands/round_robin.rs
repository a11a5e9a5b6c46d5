//! What the commands that play round robins share (`yomi match`, `yomi tournament`, the
//! TUBSTAP experiment): the entrants checked before anything is played, the arena's
//! errors in the command's words, and the summary they print.
//!
//! Its own module, below the commands and the command-line definitions, so that those can
//! use it without using each other.

use yomi_core::arena::{ArenaError, RoundRobin, TournamentResult};
use yomi_core::entrant::Entrant;
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

use crate::error::usage;

/// Reads the entrants (`spec` or `label=spec`; a spec listed twice plays as `spec` and
/// `spec#2`) and builds every spec once, so that a typo is a usage error before anything
/// is played.
pub fn validate_agents<G: Game>(
    game: &G,
    registry: &AgentRegistry<G>,
    agents: &[String],
) -> anyhow::Result<()> {
    let entrants = Entrant::list(agents).map_err(|e| usage(e.to_string()))?;
    for e in &entrants {
        registry
            .validate(game, &e.spec_text())
            .map_err(|err| usage(format!("{}: {err}", e.label)))?;
    }
    Ok(())
}

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
