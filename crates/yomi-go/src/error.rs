//! Typed errors of the Go crate: vertices, positions, SGF files and GTP commands.

use thiserror::Error;

/// Why a vertex could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VertexError {
    /// Nothing to read.
    #[error("empty vertex")]
    Empty,
    /// Not a letter followed by a row number (or `pass`).
    #[error(
        "cannot read vertex {0:?}: expected a column letter A-T (no I) and a row number, or pass"
    )]
    Syntax(String),
    /// The column letter `I` is not used.
    #[error("vertex {0:?}: the column letter I is skipped in Go coordinates")]
    LetterI(String),
    /// The point lies outside the board.
    #[error("vertex {vertex:?} is off the {size}x{size} board")]
    OffBoard {
        /// The text given.
        vertex: String,
        /// The board size.
        size: usize,
    },
}

/// Why a board size or rule set is refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ConfigError {
    /// The size is outside the supported range.
    #[error("board size {0} is not supported (2..=19)")]
    Size(usize),
    /// Komi must be a multiple of one half.
    #[error("komi {0} is not a multiple of 0.5 within -1000..1000")]
    Komi(f64),
}

/// Why a position cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The rows do not form a square board of the game's size.
    #[error("expected {expected} rows of {expected} points, found {found}")]
    Shape {
        /// The size required.
        expected: usize,
        /// What was found (rows, or the length of a bad row).
        found: usize,
    },
    /// A character other than `X`, `O`, `.`.
    #[error("unexpected character {0:?} on the board (use X, O, .)")]
    BadChar(char),
    /// A chain without liberties.
    #[error("the chain at {0} has no liberties")]
    NoLiberties(String),
    /// A ko point that is not an empty point surrounded by the player who just moved.
    #[error("ko point {0} is not an empty point surrounded by the opponent's stones")]
    BadKo(String),
}

/// Why an SGF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SgfError {
    /// The text breaks the SGF syntax.
    #[error("SGF syntax error at byte {pos}: {reason}")]
    Syntax {
        /// Byte offset of the problem.
        pos: usize,
        /// What is wrong.
        reason: String,
    },
    /// The game is not Go (`GM` other than 1).
    #[error("SGF game type GM[{0}] is not Go (GM[1])")]
    NotGo(String),
    /// An unsupported or malformed board size.
    #[error("SGF board size SZ[{0}] is not supported (2..=19, square)")]
    Size(String),
    /// A malformed komi.
    #[error("SGF komi KM[{0}] is not a number")]
    Komi(String),
    /// A malformed point.
    #[error("SGF property {prop}[{value}]: {reason}")]
    Point {
        /// The property.
        prop: String,
        /// The value.
        value: String,
        /// Why.
        reason: String,
    },
    /// A move that the rules refuse.
    #[error("SGF move {number} ({mv}) is illegal")]
    IllegalMove {
        /// 1-based move number.
        number: usize,
        /// The move as written.
        mv: String,
    },
    /// Setup stones leave a chain without liberties.
    #[error("SGF setup is not a legal position: {0}")]
    Position(#[from] PositionError),
}

/// Why a yose problem could not be proven, read or verified.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum YoseError {
    /// The problem file is not valid SGF or not a legal position.
    #[error("{0}")]
    Sgf(#[from] SgfError),
    /// A yose property is missing or malformed.
    #[error("yose property {prop}: {reason}")]
    Property {
        /// The SGF property (`YK`, `YC`, `YV`, `YR`, `PL`).
        prop: String,
        /// What is wrong.
        reason: String,
    },
    /// The exact search did not finish (time limit) or the line cut-off changed a value.
    #[error("not proven: {0}")]
    Unproven(String),
    /// A problem file or directory could not be read.
    #[error("{path}: {reason}")]
    File {
        /// The path.
        path: String,
        /// The I/O error.
        reason: String,
    },
    /// The proof disagrees with what the file states.
    #[error("verification failed: {0}")]
    Mismatch(String),
}
