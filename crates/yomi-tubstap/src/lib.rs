//! # yomi-tubstap
//!
//! TUBSTAP (JAIST's turn-based strategy research platform, rule set 0100) for yomi.
//!
//! A side moves every unit once per turn, in any order (each unit: move, then optionally
//! attack), or ends its turn early; [`Tubstap`] implements [`yomi_core::Game`] with one unit
//! action per move, so [`Game::turn`](yomi_core::Game::turn) returns the same player for
//! consecutive moves.
//!
//! ```
//! use yomi_core::{Game, Player};
//! use yomi_tubstap::{maps, registry};
//!
//! let game = maps::standard();
//! let mut state = game.initial_state();
//! let mut dlmc = registry().build(&game, "dlmc:m=20,n=10", 7).unwrap();
//! while state.mover() == 0 {
//!     let mv = dlmc.select_move(&game, &state, Player(0)).unwrap();
//!     game.play(&mut state, mv).unwrap();
//! }
//! assert_eq!(state.turn(), 1); // red played its six units; blue is to move
//! ```
#![warn(missing_docs)]

pub mod bench;
pub mod client;
pub mod eval;
pub mod experiment;
pub mod game;
mod game_impl;
pub mod map;
pub mod maps;
pub mod notation;
pub mod policy;
pub mod registry;
pub mod rules;
pub mod search;
pub mod state;

pub use eval::{g, HpEvaluator};
pub use game::{team_name, Tubstap};
pub use map::{MapError, TbsMap, UnitPlacement};
pub use policy::AttackFirst;
pub use registry::registry;
pub use rules::{combat, damage, Terrain, UnitKind};
pub use state::{TbsMove, TbsState, UnitAction, UnitState};
