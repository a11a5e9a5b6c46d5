//! OBF lines (the format of the FFO endgame suite and Edax's problem files): the 64 board
//! squares, the side to move, then `;`-separated `move:score` pairs giving each listed
//! move's exact final disc difference for the side to move, e.g.
//! `--XXXXX--OOOXX-O-... X; G8:+8; H1:+8; A2:+6;`.

use crate::error::ObfError;
use crate::game::{parse_side, parse_squares, Move, OthelloState};

/// One OBF line: a position and the exact scores it lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    /// The position.
    pub state: OthelloState,
    /// Listed moves with their exact scores for the side to move (best first in the FFO
    /// files); may be empty.
    pub scores: Vec<(Move, i32)>,
}

impl ObfPosition {
    /// The best listed score, if any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }
}

/// Reads one OBF line.
///
/// # Errors
/// [`ObfError`] naming the malformed part (board, side, a `move:score` field, or a listed
/// move that is not legal).
pub fn parse_obf_line(line: &str) -> Result<ObfPosition, ObfError> {
    let (black, white, rest) = parse_squares(line)?;
    let (side, rest) = parse_side(rest)?;
    let state = OthelloState::from_discs(black, white, side)?;
    let mut scores = Vec::new();
    for field in rest.split(';') {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        let bad = |reason: &str| ObfError::Field {
            field: field.to_string(),
            reason: reason.to_string(),
        };
        let (mv, score) = field
            .split_once(':')
            .ok_or_else(|| bad("expected move:score, e.g. G8:+8"))?;
        let mv: Move = mv
            .trim()
            .parse()
            .map_err(|e: crate::error::MoveError| bad(&e.to_string()))?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| bad("the score is not an integer"))?;
        if !(-64..=64).contains(&score) {
            return Err(bad("a score lies in -64..=64"));
        }
        let legal = match mv.index() {
            Some(sq) => state.legal() >> sq & 1 != 0,
            None => state.legal() == 0 && !state.is_over(),
        };
        if !legal {
            return Err(ObfError::Illegal(mv.to_string()));
        }
        scores.push((mv, score));
    }
    Ok(ObfPosition { state, scores })
}

/// Reads every non-empty line of an OBF file that does not start with `%` or `#`;
/// errors carry the 1-based line number.
///
/// # Errors
/// The first malformed line, as `(line number, error)`.
pub fn parse_obf(text: &str) -> Result<Vec<ObfPosition>, (usize, ObfError)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('%') && !t.starts_with('#')
        })
        .map(|(i, l)| parse_obf_line(l).map_err(|e| (i + 1, e)))
        .collect()
}
