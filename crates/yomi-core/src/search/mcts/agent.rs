//! [`MctsAgent`]: an [`Agent`] that plays by [`Mcts`], keeping its trees between moves.

use super::{Expander, LeafEvaluator, Mcts, SearchResult, Selection};
use crate::agent::{Agent, AgentError, Analysis, MoveAnalysis, Played, Selected};
use crate::game::Game;
use crate::player::Player;
use crate::search::{Budget, StopSignal};

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

    /// Searches as [`Agent::select_move`] until `stop` is raised; then answers by the final
    /// move rule from the root statistics as they are (the tree and any adaptive playout
    /// statistics stay, for the next search), or [`AgentError::Stopped`] when the root has
    /// no visit yet.
    fn select_move_until(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        stop: &StopSignal,
    ) -> Result<Selected<G::Move>, AgentError> {
        let result = self.mcts.search_for_until(game, state, player, Some(stop));
        if result.stopped && result.root_visits() == 0 {
            return Err(AgentError::Stopped);
        }
        let mv = self
            .mcts
            .choose(&result)
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))?;
        Ok(Selected {
            mv,
            stopped_early: result.stopped,
        })
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
    use std::time::Duration;

    #[test]
    fn a_stopped_agent_plays_its_most_visited_move_and_keeps_its_tree() {
        let game = Nim::new(40);
        let state = game.initial_state();
        let params = MctsParams {
            // Far beyond what the test waits for; the time limit only turns a stop
            // that is not obeyed into a failure instead of a hang.
            budget: Budget {
                iterations: Some(1_000_000_000_000),
                time: Some(Duration::from_secs(30)),
            },
            ..MctsParams::default()
        };
        let mut agent = MctsAgent::new(Mcts::uct(params, 4), "mcts".into());
        let stop = StopSignal::new();
        let selected = std::thread::scope(|scope| {
            let stopper = stop.clone();
            scope.spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                stopper.stop();
            });
            agent.select_move_until(&game, &state, Player(0), &stop)
        })
        .unwrap();
        assert!(selected.stopped_early);
        // The tree is kept: a search of no iterations reports it as the stop left it.
        let tree = agent
            .analyse_within(&game, &state, Player(0), Budget::iterations(0))
            .unwrap();
        let most = tree.moves.iter().map(|m| m.visits).max().unwrap();
        assert!(most > 0);
        let chosen = tree.moves.iter().find(|m| m.mv == selected.mv).unwrap();
        assert_eq!(chosen.visits, most, "{tree:?}");

        // Stopped before the first iteration: no move to offer.
        let mut fresh = MctsAgent::new(Mcts::uct(MctsParams::default(), 4), "mcts".into());
        assert!(matches!(
            fresh.select_move_until(&game, &state, Player(0), &stop),
            Err(AgentError::Stopped)
        ));
        // Never stopped: the same move as `select_move` with the same seed.
        let params = MctsParams {
            budget: Budget::iterations(2000),
            ..MctsParams::default()
        };
        let mut plain = MctsAgent::new(Mcts::uct(params.clone(), 6), "mcts".into());
        let mut watched = MctsAgent::new(Mcts::uct(params, 6), "mcts".into());
        let game = Nim::new(13);
        let state = game.initial_state();
        let full = watched
            .select_move_until(&game, &state, Player(0), &StopSignal::new())
            .unwrap();
        assert!(!full.stopped_early);
        assert_eq!(
            plain.select_move(&game, &state, Player(0)).unwrap(),
            full.mv
        );
    }

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
