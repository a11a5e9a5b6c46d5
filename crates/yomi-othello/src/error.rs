//! Typed errors of the Othello notations: board strings, moves and OBF lines.

use thiserror::Error;

/// Why a board string (64 squares and the side to move) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The text was empty.
    #[error("empty board string")]
    Empty,
    /// The squares part does not have 64 characters.
    #[error("a board has 64 squares, found {found} characters")]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A square character is not a disc or an empty square.
    #[error("square {square} ({index}): {found:?} is not X/x/*/B (black), O/o/W (white) or -/./_ (empty)")]
    BadSquare {
        /// The square's name (`a1`).
        square: String,
        /// Its index, 0..64.
        index: usize,
        /// The character found.
        found: char,
    },
    /// No side to move after the squares.
    #[error("missing side to move after the 64 squares (X for black, O for white)")]
    MissingSide,
    /// The side to move is not X or O.
    #[error("side to move {found:?}: expected X (black) or O (white)")]
    BadSide {
        /// The text found.
        found: String,
    },
    /// Text after the side to move.
    #[error("unexpected text after the side to move: {found:?}")]
    Trailing {
        /// The text found.
        found: String,
    },
    /// One of the four centre squares is empty, which no game can reach.
    #[error(
        "centre square {square} is empty; every Othello position has d4, e4, d5 and e5 occupied"
    )]
    EmptyCentre {
        /// The empty centre square.
        square: &'static str,
    },
}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text was empty.
    #[error("empty move")]
    Empty,
    /// Not a square `a1`..`h8` or a pass.
    #[error("cannot read move {0:?}: expected a square a1..h8 or pass (also PS, --)")]
    Syntax(String),
}

/// Why a line of an OBF file (board, side, then `move:score` pairs) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ObfError {
    /// The board and side part is malformed.
    #[error("OBF board: {0}")]
    Board(#[from] BoardError),
    /// A `move:score` field is malformed.
    #[error("OBF field {field:?}: {reason}")]
    Field {
        /// The offending field.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A listed move is not legal in the position.
    #[error("OBF move {0} is not legal in this position")]
    Illegal(String),
}
