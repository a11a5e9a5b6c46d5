//! `yomi match GAME AGENT AGENT`: a match of two agents, run by the arena's
//! [`RoundRobin`] (colors alternate, seeds derive from `--seed`, records resume).

use anyhow::Context;
use yomi_core::arena::RoundRobin;
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

use super::round_robin::{arena_error, summary};
use crate::cli::MatchArgs;
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
        // Each spec is resolved once, here: a typo is a usage error before anything is
        // played.
        let resolved = config.resolve(&game, &registry).map_err(arena_error)?;
        let result = config
            .run_resolved(&game, resolved)
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
