//! # yomi-classic
//!
//! Three reference games for yomi, each implementing [`yomi_core::Game`] with bitboards,
//! a text notation that never panics and rejects unreachable positions, a board picture
//! with coordinates, a heuristic [`Evaluator`](yomi_core::search::Evaluator) and an agent
//! registry that installs it as `default`:
//!
//! | game | type | CLI name | evaluation | registry |
//! |---|---|---|---|---|
//! | tic-tac-toe | [`TicTacToe`] | `tictactoe` | open lines | [`tictactoe::registry`] |
//! | connect four (7×6) | [`ConnectFour`] | `connect4` | open windows, threats | [`connect_four::registry`] |
//! | Breakthrough (3×4 to 11×11) | [`Breakthrough`] | `breakthrough-8x8`, … | material, advancement | [`breakthrough::registry`] |
//!
//! Connect four is the project's speed benchmark: its state is 24 bytes of `Copy` data and
//! move generation, moves, turn checks and random moves are a few bit operations without
//! allocation.
//!
//! ```
//! use yomi_core::{Game, Player};
//! use yomi_classic::{connect_four, ConnectFour};
//!
//! let game = ConnectFour;
//! // x has b1 and c1; d1 makes an open three (a1 and e1 both complete it), a won position.
//! let state = ConnectFour::state_from_moves("2233").unwrap();
//! let registry = connect_four::registry();
//! let mut agent = registry.build(&game, "alphabeta:depth=4", 7).unwrap();
//! let mv = agent.select_move(&game, &state, Player(0)).unwrap();
//! assert_eq!(game.format_move(&state, mv), "d");
//! ```
#![warn(missing_docs)]

pub mod breakthrough;
pub mod connect_four;
pub mod error;
pub mod tictactoe;
mod util;

pub use breakthrough::{Breakthrough, BreakthroughEval, BreakthroughMove, BreakthroughState};
pub use connect_four::{Column, ConnectFour, ConnectFourEval, ConnectFourState};
pub use error::{PositionError, SizeError};
pub use tictactoe::{Cell, TicTacToe, TicTacToeEval, TicTacToeState};
