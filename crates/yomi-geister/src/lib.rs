//! # yomi-geister
//!
//! Geister (ガイスター) for yomi: the 6×6 game exactly as the GAT / GPW tournament server
//! plays it (hidden colours, fixed start squares A–H, 70 colour set-ups, escapes only by
//! blue ghosts from the two far corners, draw at 300 plies), perfect-information Geister
//! (colours public, the paper's AlphaZero setting) and the paper's 5×4 board, all as one
//! [`Geister`] game type with a [`Variant`]. States are 40 bytes of `Copy` bitboards and
//! move generation writes into the caller's buffer without allocating.
//!
//! | variant | CLI name | information | ply limit | tensor / policy |
//! |---|---|---|---|---|
//! | [`Variant::Standard`] | `geister` | colours hidden | 300 | 9×6×6 / 122 |
//! | [`Variant::Perfect`] | `geister-perfect` | colours public | 300 | 4×6×6 / 122 |
//! | [`Variant::Mini`] | `geister-mini` | colours hidden | 100 | 3×5×5 / 64 |
//!
//! (`geister-200`, `geister-perfect-200`: the paper's 200-ply limit.) See [`rules`] for the
//! coordinates and turn structure, [`notation`] for the move, state and observation text,
//! and [`tensor`] for the network encoding.
//!
//! ```
//! use yomi_core::{Game, Player};
//! use yomi_geister::Geister;
//!
//! let game = Geister::standard();
//! let mut s = game.initial_state();
//! // Each player's first move is its colour set-up: here A, B, C, D (the front row) red.
//! for setup in ["SET:ABCD", "SET:EFGH"] {
//!     let mv = game.parse_move(&s, setup).unwrap();
//!     game.play(&mut s, mv).unwrap();
//! }
//! // The second player's observation hides the first player's colours.
//! assert!(game.observation(&s, Player(1)).contains('X'));
//! // The first player moves its ghost on (1,4) north.
//! let mv = game.parse_move(&s, "14N").unwrap();
//! assert_eq!(game.format_move(&s, mv), "14N");
//! game.play(&mut s, mv).unwrap();
//! assert_eq!(s.plies(), 1);
//! ```
#![warn(missing_docs)]

pub mod agents;
pub mod error;
pub mod estimate;
mod game;
pub mod notation;
pub mod protocol;
pub mod rules;
pub mod session;
pub mod tensor;

pub use agents::registry;

/// The project's AlphaZero network for perfect-information Geister (yomi-nn's `.ynn`
/// weights file, trained by `yomi geister train experiments/geister-az.toml`; see
/// experiments/geister-az-report.md). The command-line `az` agent plays it when its spec
/// names no `net`; this crate only ships the bytes and does not depend on yomi-nn.
pub const AZ_PERFECT_NET: &[u8] = include_bytes!("../nets/az-perfect.ynn");
pub use error::PositionError;
pub use estimate::{BluenessEstimator, EstimateAgent};
pub use rules::{Dir, Geister, GeisterMove, GeisterState, Outcome, Setup, Variant, WinReason};
