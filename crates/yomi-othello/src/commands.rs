//! The text behind the `yomi othello …` commands, so the CLI stays a thin layer:
//! `yomi othello perft <depth>` ([`perft_report`]) and `yomi othello solve <board64> <X|O>`
//! ([`solve_report`]).

use std::fmt::Write;
use std::time::Instant;

use crate::error::BoardError;
use crate::perft::{timed_perft, PERFT_COUNTS};
use crate::solver::Solver;
use crate::OthelloState;

/// `perft(depth)` from the start position, timed, with the published count beside it.
pub fn perft_report(depth: u32) -> String {
    let run = timed_perft(depth);
    let known = PERFT_COUNTS.get(depth.wrapping_sub(1) as usize);
    format!(
        "perft({depth}) = {}{} in {:.3} s ({:.3e} leaves/s, one thread)",
        run.leaves,
        match known {
            Some(&k) if k == run.leaves => " (= OEIS A124004)".to_string(),
            Some(&k) => format!(" (MISMATCH: published {k})"),
            None => String::new(),
        },
        run.elapsed.as_secs_f64(),
        run.rate()
    )
}

/// Solves `text` (`<64 squares> <X|O>`, or the two joined by a space) exactly and lists
/// every legal move's score for the side to move, best first.
///
/// # Errors
/// [`BoardError`] for a malformed board string.
pub fn solve_report(text: &str) -> Result<String, BoardError> {
    let state: OthelloState = text.parse()?;
    let mut solver = Solver::new(22);
    let t = Instant::now();
    let scores = solver.move_scores(&state);
    let secs = t.elapsed().as_secs_f64();
    let mut out = String::new();
    let side = if state.to_move().0 == 0 {
        "X (black)"
    } else {
        "O (white)"
    };
    let _ = writeln!(out, "{} empties, {side} to move", state.empty_count());
    if scores.is_empty() {
        let _ = writeln!(out, "game over: final score {:+}", state.final_score());
    }
    for (mv, v) in &scores {
        let _ = writeln!(out, "{mv}: {v:+}");
    }
    let _ = writeln!(out, "{} nodes in {secs:.3} s", solver.nodes());
    Ok(out)
}
