//! `yomi agents GAME`: the agents of a game's registry, their parameters and the
//! evaluators.

use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

use crate::cli::AgentsArgs;
use crate::games::GameCommand;

impl GameCommand for AgentsArgs {
    type Output = ();

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<()> {
        let name = &game.facts().name;
        let mut text = format!(
            "Agents for {name}. Write an agent as `name` or `name:key=value,...`, \
             e.g. `mcts:iters=2000,c=0.7`.\n"
        );
        for entry in registry.entries() {
            text.push_str(&format!("\n{}  {}\n", entry.name, entry.summary));
            if entry.params.is_empty() {
                text.push_str("    (no parameters)\n");
                continue;
            }
            let mut rows = vec![vec![
                "key".to_string(),
                "default".to_string(),
                "meaning".to_string(),
            ]];
            rows.extend(
                entry
                    .params
                    .iter()
                    .map(|p| vec![p.key.to_string(), p.default.to_string(), p.help.to_string()]),
            );
            text.push_str(&super::columns(&rows, "    "));
        }
        text.push_str("\nEvaluators (values of `eval=`):\n");
        let rows: Vec<Vec<String>> = registry
            .evaluators()
            .iter()
            .map(|e| vec![e.name.clone(), e.summary.clone()])
            .collect();
        text.push_str(&super::columns(&rows, "    "));
        super::emit(&text)?;
        Ok(())
    }
}
