//! # yomi-learn
//!
//! Learning simulation policies on sparse features, game-independently (the GGP paper,
//! seed 000: Fujita et al., "Learning strong and balanced policies for Monte-Carlo tree
//! search in GGP"):
//!
//! - [`features`]: the [`FeatureGame`] trait, binary features (state atom × move id);
//! - [`policy`]: the linear softmax policy [`LinearPolicy`] and its plug-in into core's
//!   search ([`PolicyScorer`] is a core `MoveScorer`; [`softmax_rollout`] a core leaf
//!   evaluator);
//! - [`algorithms`]: AL, SB (Algorithm 1) and AL+SB (Algorithm 2) ([`Trainer`]);
//! - [`eval`]: the paper's CR and MSE on test states;
//! - [`data`]: training data (distinct random states labelled by core's UCT), resumable JSONL;
//! - [`train`]: the training run with CR / MSE curves as CSV, [`plot`]: the curves as PNG;
//! - [`agents`]: players using a policy (Direct, Simple-MC, UCT on core's searches);
//! - [`experiment`]: the experiment file and the paper's table 3.
//!
//! ```
//! use std::sync::Arc;
//! use yomi_core::search::mcts::{Mcts, MctsParams, NoExpander, Ucb1};
//! use yomi_core::search::Budget;
//! use yomi_core::testing::Nim;
//! use yomi_core::{Game, Player, Rng};
//! use yomi_learn::{LearnParams, LinearPolicy, Method, Sample, Trainer, softmax_rollout};
//!
//! let game = Nim::new(5); // take 1-3 stones; taking the last one wins
//! // Training data: from 5 stones the best move is to take 1 (leaving 4), a won position.
//! let sample = Sample::<Nim> { state: game.initial_state(), mover: Player(0), best: 1, value: 1.0 };
//! let policy = LinearPolicy::for_game(&game).unwrap();
//! let mut trainer = Trainer::new(&game, policy, LearnParams::default());
//! let mut rng = Rng::seed_from_u64(1);
//! for _ in 0..40 {
//!     trainer.step(Method::Al, &game, &sample, &mut rng);
//! }
//! let policy = Arc::new(trainer.policy);
//! assert!(yomi_learn::eval::best_move_probability(&game, &policy, &sample) > 0.6);
//! // The learned policy plays inside core's MCTS playouts.
//! let params = MctsParams { budget: Budget::iterations(200), ..MctsParams::default() };
//! let leaf = softmax_rollout::<Nim>(policy);
//! let mut mcts = Mcts::new(params, Ucb1::default(), leaf, NoExpander, 7);
//! assert_eq!(mcts.search(&game, &game.initial_state()).iterations, 200);
//! ```
#![warn(missing_docs)]
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod agents;
pub mod algorithms;
pub mod curve;
pub mod data;
pub mod error;
pub mod eval;
pub mod experiment;
pub mod features;
pub mod plot;
pub mod policy;
pub mod testing;
pub mod train;

pub use algorithms::{GradientSign, LearnParams, Method, Sample, Trainer};
pub use error::LearnError;
pub use eval::{evaluate, Scores};
pub use features::{feature_index, FeatureGame};
pub use policy::{softmax_policy, softmax_rollout, LinearPolicy, PolicyScorer};

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so that
/// an interrupted write never leaves half a file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), LearnError> {
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp).map_err(|e| LearnError::io(&tmp, e))?;
    f.write_all(bytes).map_err(|e| LearnError::io(&tmp, e))?;
    f.sync_all().map_err(|e| LearnError::io(&tmp, e))?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|e| LearnError::io(path, e))
}
