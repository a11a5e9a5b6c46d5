//! [`MctsAgent`]: an [`Agent`] that plays by [`Mcts`], keeping its trees between moves.

use super::{Expander, LeafEvaluator, Mcts, SearchResult, Selection};
use crate::agent::{Agent, AgentError, Analysis, MoveAnalysis, Played};
use crate::game::Game;
use crate::player::Player;
use crate::search::Budget;

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
        Some(analysis_of(&self.mcts, &result))
    }

    fn analyse_within(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        budget: Budget,
    ) -> Option<Analysis<G::Move>> {
        let own = std::mem::replace(&mut self.mcts.params.budget, budget);
        let result = self.mcts.search_for(game, state, player);
        self.mcts.params.budget = own;
        Some(analysis_of(&self.mcts, &result))
    }
}

/// How long a line [`analysis_of`] reports per move.
pub const ANALYSIS_PV_MOVES: usize = 32;

/// The [`Analysis`] of `result`, the last search of `mcts`: every root move with its
/// statistics and its line (from the first worker's tree).
pub fn analysis_of<G, S, L, X>(
    mcts: &Mcts<G, S, L, X>,
    result: &SearchResult<G::Move>,
) -> Analysis<G::Move>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    Analysis {
        value: result.root_value(),
        moves: result
            .children
            .iter()
            .map(|c| MoveAnalysis {
                mv: c.mv,
                visits: c.visits,
                value: c.mean(),
                prior: c.prior,
                pv: {
                    let line = mcts.principal_variation_from(c.mv, ANALYSIS_PV_MOVES);
                    if line.is_empty() {
                        vec![c.mv] // not in the first worker's tree
                    } else {
                        line
                    }
                },
            })
            .collect(),
        pv: mcts.principal_variation(ANALYSIS_PV_MOVES),
        iterations: result.iterations,
        elapsed: result.elapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::MctsParams;
    use crate::testing::Nim;

    #[test]
    fn analysis_lines_start_with_their_move_and_analyse_within_grows_one_tree() {
        let game = Nim::new(9);
        let state = game.initial_state();
        let mcts = Mcts::uct(MctsParams::default(), 3);
        let mut agent = MctsAgent::new(mcts, "mcts".into());
        let budget = Budget::iterations(400);
        let first = agent
            .analyse_within(&game, &state, Player(0), budget)
            .unwrap();
        let second = agent
            .analyse_within(&game, &state, Player(0), budget)
            .unwrap();
        let visits = |a: &Analysis<u32>| a.moves.iter().map(|m| m.visits).sum::<u64>();
        assert_eq!(first.iterations, 400);
        assert_eq!(visits(&first), 400);
        // The second call continued the first one's tree.
        assert_eq!(visits(&second), 800);
        for m in &second.moves {
            assert_eq!(m.pv.first(), Some(&m.mv), "{m:?}");
            assert!(m.pv.len() <= ANALYSIS_PV_MOVES);
        }
        let best = second.moves.iter().max_by_key(|m| m.visits).unwrap();
        assert_eq!(best.pv, second.pv);
        assert!(second.pv.len() > 1, "{:?}", second.pv);
    }
}
