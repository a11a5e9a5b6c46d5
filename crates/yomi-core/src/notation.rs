//! Errors of text notation: parsing moves and states never panics, it returns these.

use thiserror::Error;

/// Why a move or state string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// The text was empty (after trimming).
    #[error("empty {what}")]
    Empty {
        /// What was being parsed ("move", "state", ...).
        what: &'static str,
    },
    /// The text does not have the expected shape.
    #[error("cannot read {what} from {input:?}: expected {expected}")]
    Syntax {
        /// What was being parsed.
        what: &'static str,
        /// The offending text.
        input: String,
        /// A description of what is accepted.
        expected: String,
    },
    /// The text names a well-formed move that is not legal in this position.
    #[error("illegal move {input:?}: {reason}")]
    IllegalMove {
        /// The offending text.
        input: String,
        /// Why it is illegal.
        reason: String,
    },
    /// The text describes a state the rules cannot reach or do not allow.
    #[error("invalid {what} {input:?}: {reason}")]
    Invalid {
        /// What was being parsed.
        what: &'static str,
        /// The offending text.
        input: String,
        /// Why it is invalid.
        reason: String,
    },
}

impl NotationError {
    /// Shorthand for [`NotationError::Syntax`].
    pub fn syntax(what: &'static str, input: &str, expected: impl Into<String>) -> Self {
        NotationError::Syntax {
            what,
            input: input.to_string(),
            expected: expected.into(),
        }
    }

    /// Shorthand for [`NotationError::IllegalMove`].
    pub fn illegal(input: &str, reason: impl Into<String>) -> Self {
        NotationError::IllegalMove {
            input: input.to_string(),
            reason: reason.into(),
        }
    }

    /// Shorthand for [`NotationError::Invalid`].
    pub fn invalid(what: &'static str, input: &str, reason: impl Into<String>) -> Self {
        NotationError::Invalid {
            what,
            input: input.to_string(),
            reason: reason.into(),
        }
    }
}

/// A move that [`crate::Game::play`] refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv} for {player}")]
pub struct IllegalMove {
    /// The move, in the game's notation.
    pub mv: String,
    /// The player who tried it.
    pub player: String,
}
