//! A training curve: one [`CurvePoint`] per iteration (a line of the training log, see
//! [`crate::train`]) and the [`Curve`] of one method.
//!
//! Its own module, below the training run and the plots, so that both can use it without
//! using each other; `crate::train` re-exports both types.

use serde::{Deserialize, Serialize};
use yomi_core::journal::JournalEntry;

use crate::algorithms::Method;

/// One row of a training curve (a line of the training log).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurvePoint {
    /// Iterations done (0: before training).
    pub iteration: usize,
    /// Correct rate on the test states.
    pub cr: f64,
    /// Mean squared error on the test states.
    pub mse: f64,
    /// Seconds the iteration's training took.
    pub seconds: f64,
}

impl JournalEntry for CurvePoint {
    /// The iteration.
    type Key = usize;

    fn key(&self) -> usize {
        self.iteration
    }

    /// The same iteration twice is the same work when all but its time agree.
    fn same_work(&self, other: &Self) -> bool {
        (self.iteration, self.cr.to_bits(), self.mse.to_bits())
            == (other.iteration, other.cr.to_bits(), other.mse.to_bits())
    }
}

/// The curve of one method.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The method.
    pub method: Method,
    /// One point per iteration, from 0.
    pub points: Vec<CurvePoint>,
}
