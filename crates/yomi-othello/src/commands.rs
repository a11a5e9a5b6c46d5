//! The text behind the `yomi othello …` commands, so the CLI stays a thin layer:
//! `yomi othello perft <depth>` ([`perft_report`]) and `yomi othello solve <board64> <X|O>`
//! ([`solve_report`], in the modes of [`SolveMode`]).

use std::fmt::Write;
use std::time::Instant;

use crate::error::BoardError;
use crate::perft::{timed_perft, PERFT_COUNTS};
use crate::solver::{Limits, Solver};
use crate::{Move, OthelloState};

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

/// What `yomi othello solve` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolveMode {
    /// A best move, the exact score and a principal variation (what Edax's `-solve`
    /// reports): the default.
    #[default]
    Best,
    /// Win, draw or loss only (a null-window search around zero: faster), with a move that
    /// achieves it.
    Wld,
    /// The exact score of every legal move, best first.
    All,
}

/// Solves `text` exactly and reports what `mode` asks for. `text` is the position as
/// `<64 squares> <X|O>` (the side may follow the squares directly, as in Edax's one-string
/// form); anything from a `;` on (an OBF line's solutions) is ignored.
///
/// # Errors
/// [`BoardError`] for a malformed board string.
pub fn solve_report(text: &str, mode: SolveMode) -> Result<String, BoardError> {
    solve_report_with(text, mode, 1, Limits::default())
}

/// [`solve_report`] on `threads` threads within `limits` (a time or node budget for the
/// whole report): a solve cut short says so, with the best move found so far when there
/// is one, and `--all` lists the moves scored before the budget ran out.
///
/// # Errors
/// [`BoardError`] for a malformed board string.
pub fn solve_report_with(
    text: &str,
    mode: SolveMode,
    threads: usize,
    limits: Limits,
) -> Result<String, BoardError> {
    let position = text.split(';').next().unwrap_or_default().trim();
    // Edax's one-string form: the side directly after the 64 squares.
    let spaced;
    let position = match position.char_indices().nth(64) {
        Some((i, _)) if !position.contains(char::is_whitespace) => {
            spaced = format!("{} {}", &position[..i], &position[i..]);
            spaced.as_str()
        }
        _ => position,
    };
    let state: OthelloState = position.parse()?;
    let mut solver = Solver::new(22);
    solver.set_threads(threads);
    let t = Instant::now();
    // What is left of the budget after `used` nodes.
    let left = |used: u64| Limits {
        nodes: limits.nodes.map(|n| n.saturating_sub(used)),
        time: limits.time.map(|d| d.saturating_sub(t.elapsed())),
    };
    let mut out = String::new();
    let side = if state.to_move().0 == 0 {
        "X (black)"
    } else {
        "O (white)"
    };
    let _ = writeln!(out, "{} empties, {side} to move", state.empty_count());
    if state.is_over() {
        let _ = writeln!(out, "game over: final score {:+}", state.final_score());
        return Ok(out);
    }
    match mode {
        SolveMode::All => {
            let mut scored: Vec<(Move, i32)> = Vec::new();
            let mut stopped = false;
            let legal = legal_moves(&state);
            for &mv in &legal {
                let mut child = state;
                child.play_unchecked(mv);
                match solver.try_solve_window(&child, -64, 64, left(solver.nodes())) {
                    Ok(sol) => scored.push((mv, -sol.score)),
                    Err(_) => {
                        stopped = true;
                        break;
                    }
                }
            }
            scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            for (mv, v) in &scored {
                let _ = writeln!(out, "{mv}: {v:+}");
            }
            if stopped {
                let _ = writeln!(
                    out,
                    "stopped by the limit: {} of {} moves scored",
                    scored.len(),
                    legal.len()
                );
            }
        }
        SolveMode::Wld => match solver.try_solve_window(&state, -1, 1, limits) {
            Ok(sol) => {
                let verdict = match sol.score.signum() {
                    1 => "win",
                    0 => "draw",
                    _ => "loss",
                };
                let best = sol.best.map_or("-".to_string(), |m| m.to_string());
                let _ = writeln!(out, "{verdict} for {side}, best move {best}");
            }
            Err(i) => interrupted(&mut out, &i),
        },
        SolveMode::Best => match solver.try_solve_window(&state, -64, 64, limits) {
            Ok(sol) => {
                let best = sol.best.map_or("-".to_string(), |m| m.to_string());
                let _ = writeln!(out, "best move {best}, score {:+}", sol.score);
                // The table is warm: the variation is cheap, but it still obeys the budget.
                let pv = principal_variation(&mut solver, &state, &left);
                let pv: Vec<String> = pv.iter().map(ToString::to_string).collect();
                let _ = writeln!(out, "principal variation: {}", pv.join(" "));
            }
            Err(i) => interrupted(&mut out, &i),
        },
    }
    let secs = t.elapsed().as_secs_f64();
    let _ = writeln!(out, "{} nodes in {secs:.3} s", solver.nodes());
    Ok(out)
}

/// A principal variation of `state` to the end of the game: a best move of each position
/// in turn. The solver's table is warm from solving `state`, so each step is a small
/// search.
fn principal_variation(
    solver: &mut Solver,
    state: &OthelloState,
    left: &dyn Fn(u64) -> Limits,
) -> Vec<crate::Move> {
    let mut s = *state;
    let mut pv = Vec::new();
    while !s.is_over() {
        let Ok(sol) = solver.try_solve_window(&s, -64, 64, left(solver.nodes())) else {
            break;
        };
        let Some(mv) = sol.best else {
            break;
        };
        pv.push(mv);
        s.play_unchecked(mv);
    }
    pv
}

/// The lines of a solve stopped by its limit.
fn interrupted(out: &mut String, i: &crate::solver::Interrupted) {
    let _ = writeln!(out, "stopped by the limit before the score was known");
    if let Some((mv, v)) = i.best {
        let _ = writeln!(out, "best move so far {mv}, score at least {v:+}");
    }
}

/// The legal moves of a position still in play (a pass when it has no square).
fn legal_moves(state: &OthelloState) -> Vec<Move> {
    let mut m = crate::bitboard::moves(state.player(), state.opponent());
    if m == 0 {
        return vec![Move::PASS];
    }
    let mut out = Vec::new();
    while m != 0 {
        out.extend(Move::square(m.trailing_zeros() as u8));
        m &= m - 1;
    }
    out
}
