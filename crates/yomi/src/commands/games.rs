//! `yomi games`: the built-in games, one line each.

use yomi_core::registry::AgentRegistry;
use yomi_core::{Game, GameFacts};

use crate::games::{GameChoice, GameCommand, BUILT_IN};

/// Asks a game for its facts (a copy: the game is dropped when the command returns).
struct Facts;

impl GameCommand for Facts {
    type Output = GameFacts;

    fn run<G: Game>(self, game: G, _: AgentRegistry<G>) -> anyhow::Result<GameFacts> {
        Ok(game.facts().clone())
    }
}

/// Prints the table of games.
pub fn run() -> anyhow::Result<()> {
    let mut rows = vec![vec![
        "game".to_string(),
        "players".to_string(),
        "description".to_string(),
    ]];
    for info in BUILT_IN {
        // The parameterised entry is described by its 8x8 instance.
        let sample = info.name.replace("WxH", "8x8");
        let facts = GameChoice::from_name(&sample)
            .map_err(anyhow::Error::msg)?
            .dispatch(Facts)?;
        rows.push(vec![
            info.name.to_string(),
            format!("{} ({})", facts.players, facts.player_names.join(", ")),
            info.summary.to_string(),
        ]);
    }
    let mut text = super::columns(&rows, "");
    text.push_str(
        "\n`yomi agents GAME` lists the agents of a game; `yomi play GAME human mcts` plays one.\n",
    );
    super::emit(&text)?;
    Ok(())
}
