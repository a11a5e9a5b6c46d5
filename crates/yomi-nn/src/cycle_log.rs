//! The rows of the training log (kept in the checkpoint's `state.json`, written out as
//! `log.csv` and `log.png`): one [`LogRow`] per cycle, with an [`EvalResult`] per evaluation opponent.
//!
//! Its own module, below the training run and the plots, so that both can use it without
//! using each other; `crate::train` re-exports both types.

use serde::{Deserialize, Serialize};

/// One opponent's result in a cycle's evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalResult {
    /// The opponent's spec.
    pub opponent: String,
    /// Wins, draws, losses of the network agent.
    pub wdl: [u64; 3],
    /// Score rate and its 95 % Wilson interval.
    pub score: [f64; 3],
}

/// One line of the training log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    /// Cycle number (1-based).
    pub cycle: usize,
    /// Self-play games of the cycle.
    pub games: usize,
    /// Positions they produced.
    pub positions: usize,
    /// Samples in the buffer after the cycle's self-play.
    pub buffer: usize,
    /// Mean value loss of the cycle's steps.
    pub value_loss: f64,
    /// Mean policy loss of the cycle's steps.
    pub policy_loss: f64,
    /// Self-play positions per second.
    pub selfplay_positions_per_s: f64,
    /// Training samples per second.
    pub train_samples_per_s: f64,
    /// The new network's gate score, when gating.
    pub gate_score: Option<f64>,
    /// Whether the new network became the best.
    pub accepted: bool,
    /// Results against the configured opponents (empty in cycles without evaluation).
    pub evals: Vec<EvalResult>,
}
