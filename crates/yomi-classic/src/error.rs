//! Why a position cannot be set up: the reasons behind
//! [`NotationError::Invalid`](yomi_core::NotationError::Invalid) for the state notations of
//! this crate, and the errors of the fallible constructors.

use thiserror::Error;

/// A position that the rules cannot reach. Each game's `from_*` constructor returns it, and
/// its `parse_state` wraps it into [`yomi_core::NotationError::Invalid`] (the reason is this
/// error's message).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The players' piece counts cannot arise from alternating moves.
    #[error(
        "{first_name} has {first} pieces and {second_name} {second}: the first player has as \
         many pieces as the second or one more"
    )]
    PieceCounts {
        /// Name of the player who moves first.
        first_name: &'static str,
        /// Pieces of the player who moves first.
        first: u32,
        /// Name of the player who moves second.
        second_name: &'static str,
        /// Pieces of the player who moves second.
        second: u32,
    },
    /// A side has more pieces than it starts with.
    #[error("{side} has {count} pieces but starts with only {max}")]
    TooManyPieces {
        /// The side.
        side: &'static str,
        /// Its pieces on the board.
        count: u32,
        /// The most it can have.
        max: u32,
    },
    /// A piece lies off the board, or a square holds pieces of both sides.
    #[error("pieces off the board or on a square held by both sides")]
    BadSquares,
    /// Neither side has any pieces.
    #[error("the board has no pieces of either side")]
    NoPieces,
    /// The side to move does not follow from the position.
    #[error("{found} is to move, but the position says {expected}")]
    SideToMove {
        /// The side the position requires.
        expected: &'static str,
        /// The side the notation gave.
        found: &'static str,
    },
    /// Both players have won.
    #[error("both players have won")]
    TwoWinners,
    /// The winner's last move is not the last move played: the game went on after the win
    /// (or the loser moved last).
    #[error("the game went on after {winner} had won")]
    PlayedAfterWin {
        /// The player who won.
        winner: &'static str,
    },
    /// A piece floats above an empty cell (connect four).
    #[error("a disc floats above an empty cell in column {column}")]
    Floating {
        /// The column, as a letter.
        column: char,
    },
}

/// A board size the game does not support.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("unsupported board size {width}x{height}: width must be {min_width}..={max_width} and height {min_height}..={max_height}")]
pub struct SizeError {
    /// The requested width.
    pub width: usize,
    /// The requested height.
    pub height: usize,
    /// Smallest width supported.
    pub min_width: usize,
    /// Largest width supported.
    pub max_width: usize,
    /// Smallest height supported.
    pub min_height: usize,
    /// Largest height supported.
    pub max_height: usize,
}
