//! The paper's measures of a policy on test states: **CR**, the mean probability that π
//! picks the labelled best move, and **MSE**, the mean squared error between the mean
//! reward of simulations with π and the labelled value (both on `[-1, 1]`).
//!
//! Simulations here run through core's playouts ([`softmax_rollout`]), the same code that
//! plays π inside MCTS and flat Monte Carlo. Test states are scored in parallel (rayon),
//! each with its own seed derived from `seed` and its index, so the figures do not depend on
//! the number of threads.

use std::sync::Arc;

use rayon::prelude::*;
use yomi_core::rng::derive_seed;
use yomi_core::search::mcts::LeafEvaluator;
use yomi_core::Rng;

use crate::algorithms::Sample;
use crate::features::{atoms_into, FeatureGame};
use crate::policy::{softmax_rollout, to_unit, LinearPolicy};

/// CR and MSE of a policy on a test set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scores {
    /// Mean π(s, Â*(s)).
    pub cr: f64,
    /// Mean (mean simulated z − V̂*(s))².
    pub mse: f64,
}

/// π(s, a) of `sample`'s best move (0 when it is not legal).
pub fn best_move_probability<G: FeatureGame>(
    game: &G,
    policy: &LinearPolicy,
    sample: &Sample<G>,
) -> f64 {
    let mut moves = Vec::new();
    yomi_core::agent::moves_of(game, &sample.state, sample.mover, &mut moves);
    let Some(k) = moves.iter().position(|&m| m == sample.best) else {
        return 0.0;
    };
    let mut atoms = Vec::new();
    atoms_into(game, &sample.state, &mut atoms);
    let ids: Vec<u32> = moves
        .iter()
        .map(|&m| game.move_id(&sample.state, sample.mover, m))
        .collect();
    let mut probs = Vec::new();
    policy.probabilities(&atoms, &ids, &mut probs);
    probs[k]
}

/// The mean of z (the reward of `sample.mover`, on `[-1, 1]`) over `sims` playouts with π
/// from `sample`'s state.
pub fn playout_value<G: FeatureGame>(
    game: &G,
    policy: &Arc<LinearPolicy>,
    sample: &Sample<G>,
    sims: u32,
    rng: &mut Rng,
) -> f64 {
    let bounds = game.facts().reward_bounds;
    let mut leaf = softmax_rollout::<G>(policy.clone());
    let mut buf = Vec::new();
    let mut total = 0.0;
    for _ in 0..sims.max(1) {
        let mut s = sample.state.clone();
        let r = leaf.evaluate(game, &mut s, rng, &mut buf);
        total += to_unit(bounds, r.get(sample.mover));
    }
    total / sims.max(1) as f64
}

/// CR and MSE of `policy` on `test`, with `sims` simulations per state for the MSE.
pub fn evaluate<G: FeatureGame>(
    game: &G,
    policy: &Arc<LinearPolicy>,
    test: &[Sample<G>],
    sims: u32,
    seed: u64,
) -> Scores {
    if test.is_empty() {
        return Scores { cr: 0.0, mse: 0.0 };
    }
    let per_state: Vec<(f64, f64)> = test
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let mut rng = Rng::seed_from_u64(derive_seed(seed, i as u64));
            let cr = best_move_probability(game, policy, s);
            let v = playout_value(game, policy, s, sims, &mut rng);
            (cr, (v - s.value).powi(2))
        })
        .collect();
    let n = per_state.len() as f64;
    Scores {
        cr: per_state.iter().map(|x| x.0).sum::<f64>() / n,
        mse: per_state.iter().map(|x| x.1).sum::<f64>() / n,
    }
}
