//! # yomi-go
//!
//! Go for yomi: a fast board for light playouts, the rules with simple ko, positional
//! superko and optional suicide, area (Tromp-Taylor) and territory scoring, GTP vertices, a
//! state notation and SGF, implementing [`yomi_core::Game`].
//!
//! ```
//! use yomi_core::Game;
//! use yomi_go::GoGame;
//! let game = GoGame::new(9).unwrap();
//! let mut state = game.initial_state();
//! for text in ["E5", "D5", "pass", "pass"] {
//!     let mv = game.parse_move(&state, text).unwrap();
//!     game.play(&mut state, mv).unwrap();
//! }
//! assert!(game.is_terminal(&state));
//! // One stone each, the board is neutral: White wins by komi.
//! assert_eq!(state.area_score(), -7.5);
//! ```
#![warn(missing_docs)]

pub mod agents;
pub mod bench;
pub mod board;
pub mod diff;
pub mod dynkomi;
pub mod error;
pub mod game;
pub mod gtp;
pub mod gtp_analyze;
pub mod gtp_client;
pub mod heavy;
pub mod prior;
pub mod rave;
pub mod score;
pub mod sgf;
pub mod twogtp;
pub mod vertex;
pub mod yose;
pub mod yose_cgt;
pub mod yose_score;

pub use agents::registry;
pub use board::{Board, MAX_SIZE, MIN_SIZE};
pub use error::{ConfigError, PositionError, SgfError, VertexError, YoseError};
pub use game::{GoGame, GoState, Rules, RECENT};
pub use score::{Count, Scoring};
pub use vertex::{Color, Vertex};
