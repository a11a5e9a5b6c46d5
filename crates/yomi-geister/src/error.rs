//! Why a Geister position cannot be set up: the reasons behind
//! [`NotationError::Invalid`](yomi_core::NotationError::Invalid) for the state notation.

use thiserror::Error;

/// A position the rules cannot reach.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A player has more ghosts of one colour than the game gives.
    #[error("{player} has {count} {colour} ghosts but the game gives only {max}")]
    TooMany {
        /// `first` or `second`.
        player: &'static str,
        /// `blue` or `red`.
        colour: &'static str,
        /// How many the position shows.
        count: u32,
        /// The most allowed.
        max: u32,
    },
    /// Ghosts without colours must stand on all their owner's start squares, and only
    /// before that player's set-up.
    #[error("{player}'s uncoloured ghosts (U/u) must fill exactly its start squares, with no coloured ghosts")]
    BadUnassigned {
        /// `first` or `second`.
        player: &'static str,
    },
    /// This board has no set-up phase, or the set-ups happened out of order.
    #[error("set-up order: {0}")]
    SetupOrder(&'static str),
    /// The side to move does not match the ply counter (player 0 moves at even plies).
    #[error("player {found} is to move, but the position requires player {expected}")]
    SideToMove {
        /// Required.
        expected: u8,
        /// Given.
        found: u8,
    },
    /// The ply counter and the result disagree with the limit.
    #[error("ply counter {plies} does not fit the result and the limit {limit}")]
    Plies {
        /// The counter.
        plies: u16,
        /// The limit.
        limit: u16,
    },
    /// The game should already be over (a player without blue or red ghosts), or a
    /// finished game's winner does not follow from the position.
    #[error("the result does not follow from the position: {0}")]
    Result(&'static str),
}
