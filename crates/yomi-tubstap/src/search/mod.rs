//! The paper's AIs.
//!
//! - [`uct`]: UCT with one unit action per edge and UCT with progressive widening, both on
//!   core's [`Mcts`](yomi_core::search::mcts::Mcts) with this crate's playout policy and
//!   expander;
//! - [`attack`]: the attack-action search (every sequence of up to l attacks, the other
//!   units by a fixed routine, best g);
//! - [`dlmc`]: depth-limited Monte Carlo and the paper's methods 1, 2 and 1+2.
//!
//! DLMC and the attack search are not tree searches: they plan a whole turn, and their
//! agents then play the plan one unit action at a time.

pub mod attack;
pub mod dlmc;
pub mod uct;
