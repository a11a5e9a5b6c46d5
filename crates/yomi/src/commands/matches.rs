//! `yomi match GAME AGENT AGENT`: a match of two agents, run by the arena's
//! [`RoundRobin`] (colors alternate, seeds derive from `--seed`, records resume).

use anyhow::Context;
use yomi_core::arena::{ArenaError, RoundRobin, TournamentResult};
use yomi_core::entrant::Entrant;
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

use crate::cli::MatchArgs;
use crate::error::usage;
use crate::games::GameCommand;

impl GameCommand for MatchArgs {
    type Output = ();

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<()> {
        let mut config = RoundRobin::head_to_head(self.first.as_str(), self.second.as_str())
            .games(self.games)
            .seed(self.seed)
            .quiet(self.quiet);
        config.threads = self.threads;
        config.turn_limit = self.turn_limit;
        config.out = self.out;
        validate_agents(&game, &registry, &config.agents)?;
        let result = config
            .run(&game, &registry)
            .map_err(arena_error)
            .context("the match stopped")?;
        super::emit(&summary(
            &config,
            &result,
            super::table_format(self.markdown),
        ))?;
        Ok(())
    }
}

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
