//! # yomi-othello
//!
//! Othello for yomi: bitboard rules as a [`yomi_core::Game`] ([`Othello`],
//! [`OthelloState`], [`Move`]), perft with the published counts ([`perft`]), the notation
//! of the FFO test suite (board strings and OBF lines, [`obf`]), board symmetries and
//! speed figures ([`bench`]).
//!
//! ```
//! use yomi_core::Game;
//! use yomi_othello::{perft::perft, Move, Othello, OthelloState};
//!
//! let game = Othello;
//! let mut s = game.initial_state();
//! let f5: Move = "f5".parse().unwrap();
//! game.play(&mut s, f5).unwrap();
//! assert_eq!(s.to_board_string(),
//!     "---------------------------OX------XXX-------------------------- O");
//! assert_eq!(perft(&OthelloState::start(), 6), 8200);
//! ```
#![warn(missing_docs)]

pub mod bench;
pub mod bitboard;
pub mod data;
pub mod error;
pub mod game;
pub mod obf;
pub mod perft;
pub mod solver;

pub use error::{BoardError, MoveError, ObfError};
pub use game::{Move, Othello, OthelloState};
pub use obf::{parse_obf, parse_obf_line, ObfPosition};
