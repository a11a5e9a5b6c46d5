//! The agent registry for Go: core's agents (`mcts` is plain UCT with light playouts through
//! [`yomi_core::Game::random_move`]) and Go's own.

use yomi_core::registry::AgentRegistry;

use crate::game::GoGame;

/// Agents for Go: `random`, `human`, `mcts`, `flatmc`, `alphabeta` from core, plus
/// `diffmcts` (MCTS with difference-game playouts, see [`crate::diff`]) and
/// `dkmcts-linear`, `dkmcts-score`, `dkmcts-value` (UCT with Pachi's dynamic komi schemes,
/// see [`crate::dynkomi`]), and `rave` (MC-RAVE with Go priors and heavy playouts, see
/// [`crate::rave`]).
pub fn registry() -> AgentRegistry<GoGame> {
    let mut r = AgentRegistry::with_core_agents();
    crate::diff::register(&mut r);
    crate::dynkomi::register(&mut r);
    crate::rave::register(&mut r);
    r
}
