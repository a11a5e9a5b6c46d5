//! # yomi-othello
//!
//! Othello for yomi:
//! - rules as a [`yomi_core::Game`] ([`Othello`], [`OthelloState`], [`Move`]) on bitboards,
//!   with board symmetries ([`bitboard`]) and perft with the published counts ([`perft`]);
//! - the FFO / OBF notation ([`obf`]) with typed errors ([`error`]);
//! - an exact endgame solver ([`solver`]) with its stable-disc bound ([`stability`]), and a
//!   depth-limited midgame search with the evaluation at the horizon ([`midgame`]);
//! - a Logistello-style pattern evaluation ([`eval`]) trained by the project's own
//!   pipeline ([`train`]), shipped as `data/othello-eval-v1.bin`;
//! - the UCT variants of the seed paper on core's MCTS and the agent [`registry`]
//!   ([`agents`]);
//! - the paper's accuracy experiment (tables 1–6) ([`accuracy`]);
//! - the NBoard and GTP engine protocols ([`protocol`]) and the text of the CLI commands
//!   ([`commands`], [`bench`]).
//!
//! ```
//! use yomi_core::{Agent, Game};
//! use yomi_othello::{perft::perft, registry, Move, Othello, OthelloState};
//!
//! let game = Othello;
//! let mut s = game.initial_state();
//! let f5: Move = "f5".parse().unwrap();
//! game.play(&mut s, f5).unwrap();
//! assert_eq!(s.to_board_string(),
//!     "---------------------------OX------XXX-------------------------- O");
//! assert_eq!(perft(&OthelloState::start(), 6), 8200);
//!
//! let mut agent = registry().build(&game, "uct+_playzebra:iters=200", 1).unwrap();
//! let reply = agent.select_move(&game, &s, s.to_move()).unwrap();
//! assert!(s.legal() >> reply.index().unwrap() & 1 == 1);
//! ```
#![warn(missing_docs)]

pub mod accuracy;
pub mod agents;
pub mod bench;
pub mod bitboard;
pub mod commands;
pub mod data;
pub mod dz;
pub mod dzfit;
pub mod error;
pub mod eval;
pub mod game;
pub mod ggf;
pub mod midgame;
pub mod obf;
pub mod perft;
pub mod protocol;
pub mod solver;
pub mod stability;
pub mod testsets;
pub mod train;

pub use agents::registry;
pub use error::{BoardError, MoveError, ObfError};
pub use game::{Move, Othello, OthelloState};
pub use obf::{parse_obf, parse_obf_line, ObfPosition};
