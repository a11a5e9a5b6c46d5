//! # yomi-core
//!
//! The game-independent heart of yomi (読み, "reading ahead"): the [`Game`] abstraction that
//! every game implements, one Monte Carlo tree search with plug-in points
//! ([`search::mcts`]), flat Monte Carlo and alpha-beta, [`agent`]s named by spec strings, the
//! [`arena`] that plays matches and round robins, and a [`testing`] suite every game runs.
//!
//! Core never names a game: games live in their own crates and depend on this one.
//!
//! ```
//! use yomi_core::{Game, testing::Nim};
//! use yomi_core::search::mcts::{Mcts, MctsParams};
//! let game = Nim::new(10);
//! let state = game.initial_state();
//! let mut search = Mcts::uct(MctsParams::default(), 42);
//! let result = search.search(&game, &state);
//! let best = search.choose(&result).unwrap();
//! assert_eq!(game.format_move(&state, best), "2"); // leave a multiple of 4
//! ```

pub mod agent;
pub mod arena;
pub mod bench;
pub mod bits;
pub mod encoding;
pub mod entrant;
pub mod game;
pub mod gtp;
pub mod journal;
pub mod limits;
pub mod notation;
pub mod paths;
pub mod player;
pub mod progress;
pub mod registry;
pub mod rng;
pub mod search;
pub mod spec;
pub mod testing;

pub use agent::{Agent, AgentError, Analysis, MoveAnalysis, Played, Selected};
pub use encoding::{ActionSpace, TensorGame, TensorShape};
pub use game::{Dynamics, Game, GameFacts, Information, Turn, Utility};
pub use notation::{IllegalMove, NotationError};
pub use player::{Player, Rewards, MAX_PLAYERS};
pub use rng::Rng;
