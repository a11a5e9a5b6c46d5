//! `yomi match GAME AGENT AGENT`: a match of two agents, run by the arena's
//! [`RoundRobin`] (colors alternate, seeds derive from `--seed`, records resume).

use std::sync::Arc;

use anyhow::Context;
use yomi_core::arena::{ArenaError, RoundRobin, TournamentResult};
use yomi_core::registry::AgentRegistry;
use yomi_core::spec::AgentSpec;
use yomi_core::Game;

use crate::cli::MatchArgs;
use crate::error::usage;
use crate::games::GameCommand;

impl GameCommand for MatchArgs {
    type Output = ();

    fn run<G: Game>(self, game: G, mut registry: AgentRegistry<G>) -> anyhow::Result<()> {
        let first = parse_spec(&self.first)?;
        let mut second = parse_spec(&self.second)?;
        if first == second {
            second = self_play_alias(&mut registry, &second)?;
            eprintln!("note: {first} plays itself; the second seat is recorded as {second}");
        }
        let mut config = RoundRobin::head_to_head(first.to_string(), second.to_string())
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

/// Parses a spec from the command line (a malformed one is a usage error).
fn parse_spec(text: &str) -> anyhow::Result<AgentSpec> {
    text.parse::<AgentSpec>().map_err(|e| usage(e.to_string()))
}

/// Builds every spec once, so that a typo is a usage error before anything is played.
pub fn validate_agents<G: Game>(
    game: &G,
    registry: &AgentRegistry<G>,
    agents: &[String],
) -> anyhow::Result<()> {
    for spec in agents {
        registry
            .validate(game, spec)
            .map_err(|e| usage(e.to_string()))?;
    }
    Ok(())
}

/// Registers `<name>.2`, an alias of `spec`'s agent kind, and returns `spec` renamed to it.
///
/// The arena keeps results per spec string, so one spec cannot hold both seats of a match;
/// the alias builds exactly the same agent under a second name.
fn self_play_alias<G: Game>(
    registry: &mut AgentRegistry<G>,
    spec: &AgentSpec,
) -> anyhow::Result<AgentSpec> {
    let alias = format!("{}.2", spec.name);
    let entry = registry
        .entries()
        .iter()
        .find(|e| e.name == spec.name)
        .ok_or_else(|| {
            usage(format!(
                "unknown agent {:?}; accepted: {}",
                spec.name,
                registry
                    .entries()
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let (summary, params) = (
        format!("{} (second seat of a self-play match)", entry.summary),
        entry.params.clone(),
    );
    let original = spec.name.clone();
    registry.register(
        &alias,
        &summary,
        params,
        Arc::new(move |reg, game, p, seed| {
            let given = p.spec().clone();
            for (key, _) in &given.params {
                p.raw(key);
            }
            let inner = AgentSpec {
                name: original.clone(),
                params: given.params,
            };
            reg.build(game, &inner.to_string(), seed)
        }),
    );
    Ok(AgentSpec {
        name: alias,
        params: spec.params.clone(),
    })
}

/// Arena errors in the command's words: a spec error is a usage error.
pub fn arena_error(e: ArenaError) -> anyhow::Error {
    match e {
        ArenaError::Spec { .. } => usage(e.to_string()),
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
