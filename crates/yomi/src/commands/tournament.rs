//! `yomi tournament [FILE.toml]`: a round robin from a file, or the built-in default.

use anyhow::Context;
use yomi_core::arena::RoundRobin;
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

use super::round_robin::summary;
use crate::cli::TournamentArgs;
use crate::games::{GameChoice, GameCommand};
use crate::tournament_file::TournamentFile;

/// Reads the configuration, applies the flags and runs it.
pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let (mut file, origin) = match &args.file {
        Some(path) => (TournamentFile::read(path)?, path.display().to_string()),
        None => (
            TournamentFile::builtin(),
            "the built-in default (examples/tournament.toml)".to_string(),
        ),
    };
    args.overrides.apply(&mut file.round_robin);
    let game =
        GameChoice::from_name(&file.game).map_err(|e| anyhow::anyhow!("{origin}: game: {e}"))?;
    game.dispatch(Run {
        config: file.round_robin,
        origin,
        markdown: args.markdown,
    })
}

/// Runs a round robin on the chosen game.
struct Run {
    config: RoundRobin,
    origin: String,
    markdown: bool,
}

impl GameCommand for Run {
    type Output = ();

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<()> {
        let Run {
            config,
            origin,
            markdown,
        } = self;
        // A spec that does not build is an error in the file (exit code 1), not a usage
        // error; the message names the spec and lists what is accepted.
        let resolved = config
            .resolve(&game, &registry)
            .with_context(|| format!("{origin}, agents"))?;
        let k = config.agents.len();
        let players = game.facts().players;
        let pairings = config.schedule(players).len() / config.games.max(1);
        eprintln!(
            "{}: round robin of {k} agents from {origin}: {pairings} pairings x {} games, seed {}",
            game.facts().name,
            config.games,
            config.seed
        );
        let result = config
            .run_resolved(&game, resolved)
            .context("the tournament stopped")?;
        super::emit(&summary(&config, &result, super::table_format(markdown)))?;
        Ok(())
    }
}
