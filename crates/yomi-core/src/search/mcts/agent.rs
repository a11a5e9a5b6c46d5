//! [`MctsAgent`]: an [`Agent`] that plays by [`Mcts`], keeping its trees between moves.

use super::{Expander, LeafEvaluator, Mcts, Selection};
use crate::agent::{Agent, AgentError, Analysis, MoveAnalysis, Played};
use crate::game::Game;
use crate::player::Player;

/// Plays the move an [`Mcts`] search chooses; tells the search about every move played so
/// it can keep the subtree.
pub struct MctsAgent<G: Game, S, L, X> {
    /// The search.
    pub mcts: Mcts<G, S, L, X>,
    name: String,
}

impl<G, S, L, X> MctsAgent<G, S, L, X>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    /// An agent named `name` (its spec string) playing by `mcts`.
    pub fn new(mcts: Mcts<G, S, L, X>, name: String) -> Self {
        MctsAgent { mcts, name }
    }
}

impl<G, S, L, X> Agent<G> for MctsAgent<G, S, L, X>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        let result = self.mcts.search_for(game, state, player);
        self.mcts
            .choose(&result)
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))
    }

    fn observe(&mut self, game: &G, before: &G::State, played: Played<'_, G::Move>) {
        self.mcts.advance(game, before, played);
    }

    fn analyse(&mut self, game: &G, state: &G::State, player: Player) -> Option<Analysis<G::Move>> {
        let result = self.mcts.search_for(game, state, player);
        Some(Analysis {
            value: result.root_value(),
            moves: result
                .children
                .iter()
                .map(|c| MoveAnalysis {
                    mv: c.mv,
                    visits: c.visits,
                    value: c.mean(),
                    prior: c.prior,
                })
                .collect(),
            pv: self.mcts.principal_variation(32),
            iterations: result.iterations,
            elapsed: result.elapsed,
        })
    }
}
