//! Speed figures for `yomi bench othello`: random playouts per second, plain-UCT
//! iterations per second (both through `yomi_core::bench`) and perft leaves per second.

use std::time::Duration;

use yomi_core::bench::{mcts_iterations, random_playouts, Figure};

use crate::perft::{timed_perft, PERFT_COUNTS};
use crate::Othello;

/// Measures the figures; `perft_depth` (up to 14) sets the perft run (11 takes about half a
/// second, 12 about four).
///
/// # Panics
/// If perft disagrees with the published count (a broken move generator).
pub fn figures(perft_depth: u32, playout_time: Duration) -> Vec<Figure> {
    let mut out = vec![
        random_playouts(&Othello, playout_time, 1),
        mcts_iterations(&Othello, 20_000, 1, 1),
    ];
    let d = perft_depth.clamp(1, 14);
    let run = timed_perft(d);
    assert_eq!(
        run.leaves,
        PERFT_COUNTS[d as usize - 1],
        "perft({d}) is wrong"
    );
    out.push(Figure {
        what: format!("othello perft({d}) from the start, {} leaves", run.leaves),
        value: run.rate(),
        unit: "leaves/s",
    });
    out
}
