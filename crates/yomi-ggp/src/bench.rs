//! Speed of the reasoner: random playouts per second from the initial state on one thread,
//! beside the figures of Sancho 1.61c (the strongest public propnet player) measured on the
//! project's machines.

use std::time::Duration;

use yomi_core::bench::{random_playouts, Figure};

use crate::game::GdlGame;

/// Sancho 1.61c's random playouts per second on one thread, by rule sheet file name.
pub const SANCHO: [(&str, f64); 5] = [
    ("ticTacToe.kif", 149_000.0),
    ("connectFour.kif", 76_000.0),
    ("breakthrough5x5.kif", 73_000.0),
    ("dobutsushogi.kif", 37_000.0),
    ("crisscross.kif", 7_200.0),
];

/// Random playouts per second of `game` from its initial state, for at least `time`, with
/// core's benchmark (the same loop MCTS playouts run).
pub fn playouts(game: &GdlGame, time: Duration, seed: u64) -> Figure {
    random_playouts(game, time, seed)
}
