//! Perft: the number of move sequences of a given length, the standard move-generator
//! check and speed test.
//!
//! Conventions of the published counts (OEIS A124004): a pass is a ply of its own, and a
//! finished game is one leaf at every deeper depth. [`perft`] counts the last ply in bulk:
//! at depth 1 the count is the popcount of the move bitboard (or 1 for a pass or a finished
//! game), so the leaves are never made.

use std::time::{Duration, Instant};

use crate::bitboard::{flips, moves};
use crate::game::OthelloState;

/// Leaves of the move tree `depth` plies below `state`.
pub fn perft(state: &OthelloState, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    count(state.player(), state.opponent(), depth, false)
}

/// `passed`: the previous ply was a pass (so a second one ends the game).
fn count(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
    let mut m = moves(p, o);
    if m == 0 {
        if passed {
            return 1; // both sides blocked: a finished game, one leaf
        }
        return if depth == 1 {
            // One move (the pass), unless the game is over: a leaf either way.
            1
        } else {
            count(o, p, depth - 1, true)
        };
    }
    if depth == 1 {
        return m.count_ones() as u64;
    }
    let mut total = 0;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, sq);
        total += count(o & !f, p | f | (1 << sq), depth - 1, false);
    }
    total
}

/// The perft of every move from `state` ("divide"): `(move, leaves)` in square order.
pub fn perft_divide(state: &OthelloState, depth: u32) -> Vec<(crate::Move, u64)> {
    use yomi_core::Game;
    let game = crate::Othello;
    let mut list = Vec::new();
    game.legal_moves(state, &mut list);
    list.into_iter()
        .map(|mv| {
            let mut s = *state;
            s.play_unchecked(mv);
            (mv, perft(&s, depth.saturating_sub(1)))
        })
        .collect()
}

/// A timed perft: the count, the time and the leaves per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerftRun {
    /// Depth searched.
    pub depth: u32,
    /// Leaves counted.
    pub leaves: u64,
    /// Wall-clock time (one thread).
    pub elapsed: Duration,
}

impl PerftRun {
    /// Leaves per second.
    pub fn rate(&self) -> f64 {
        self.leaves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs [`perft`] from the start position and times it.
pub fn timed_perft(depth: u32) -> PerftRun {
    let start = Instant::now();
    let leaves = perft(&OthelloState::start(), depth);
    PerftRun {
        depth,
        leaves,
        elapsed: start.elapsed(),
    }
}

/// The published counts from the start position, depths 1..=14 (OEIS A124004).
pub const PERFT_COUNTS: [u64; 14] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390216,
    3005288,
    24571284,
    212258800,
    1939886636,
    18429641748,
    184042084512,
];
