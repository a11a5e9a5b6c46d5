//! # yomi-games
//!
//! Every game yomi has, by name, for the entry points that choose a game at run time: the
//! command line, the web board (`yomi-server`) and the Python package (`yomi-py`).
//!
//! - [`choice`]: a game name parsed once into a [`GameChoice`] (with its agent registry),
//!   and [`GameCommand`], which runs monomorphised code on the chosen game;
//! - [`dynamic`]: the same games behind one object-safe interface with integer actions
//!   ([`DynGame`], [`DynState`], [`DynAgent`]), OpenSpiel's shape;
//! - [`tournament_file`]: the tournament file (TOML: `game` and the round robin's keys).
//!
//! ```
//! let game = yomi_games::load_game("tictactoe").unwrap();
//! let mut state = game.new_initial_state();
//! let centre = state.string_to_action(0, "b2").unwrap();
//! state.apply_action(centre).unwrap();
//! let mut agent = game.new_agent("mcts:iters=200", 1).unwrap();
//! let reply = agent.step(state.as_ref(), 1).unwrap();
//! assert!(state.legal_actions(1).contains(&reply));
//! ```
//!
//! Feature `nn` (off by default; the `yomi` binary turns it on) adds the `az` agent with
//! the shipped network to Geister.

pub mod choice;
pub mod dynamic;
pub mod tournament_file;

pub use choice::{accepted_names, parse_game, GameChoice, GameCommand, GameInfo, BUILT_IN};
pub use dynamic::{
    load_game, ActionAnalysis, ActionGameCommand, Actor, AgentInfo, DynAgent, DynAnalysis,
    DynError, DynGame, DynRecipe, DynState, Encoder,
};
