//! The linear softmax policy of the GGP paper (eq. 2),
//! `π_θ(s, a) = exp(φ(s,a)·θ) / Σ_b exp(φ(s,b)·θ)`, over the sparse binary features of
//! [`crate::features`], and its plug-in into core's search: [`PolicyScorer`] is a core
//! [`MoveScorer`], so core's [`Softmax`] playout policy samples from π in every MCTS or flat
//! Monte Carlo playout ([`softmax_rollout`]).
//!
//! Weights are a dense table indexed by [`feature_index`] (move-major), built once the game
//! has named its atoms and move ids (after grounding, for GDL). Scoring a move sums the
//! weights of the state's true atoms in the move's row: no allocation, no hashing.

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use yomi_core::search::mcts::{MoveScorer, Rollout, Softmax};
use yomi_core::{Player, Rng};

use crate::error::LearnError;
use crate::features::{feature_index, FeatureGame};

/// The most features a policy may have (2²⁸ weights, 2 GiB): larger games need a sparse
/// table, which no game of the paper does.
pub const MAX_FEATURES: usize = 1 << 28;

/// The first line of a weights file names the format.
const FORMAT: &str = "yomi-learn linear softmax policy v1";

/// A linear softmax policy: one weight per (atom, move id) feature.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearPolicy {
    atoms: usize,
    moves: usize,
    weights: Vec<f64>,
}

/// The weights file: JSON, non-zero weights only.
#[derive(Serialize, Deserialize)]
struct WeightsFile {
    format: String,
    game: String,
    atoms: usize,
    moves: usize,
    /// (feature index, weight) for every non-zero weight.
    weights: Vec<(usize, f64)>,
}

impl LinearPolicy {
    /// The uniform policy (θ = 0) for a game with `atoms` atoms and `moves` move ids.
    ///
    /// # Errors
    /// [`LearnError::Config`] when there are more than [`MAX_FEATURES`] features.
    pub fn zeros(atoms: usize, moves: usize) -> Result<Self, LearnError> {
        let n = atoms
            .checked_mul(moves)
            .filter(|&n| n <= MAX_FEATURES)
            .ok_or_else(|| {
                LearnError::Config(format!(
                    "{atoms} atoms x {moves} moves is more than {MAX_FEATURES} features"
                ))
            })?;
        Ok(LinearPolicy {
            atoms,
            moves,
            weights: vec![0.0; n],
        })
    }

    /// The uniform policy for `game`.
    ///
    /// # Errors
    /// As [`LinearPolicy::zeros`].
    pub fn for_game<G: FeatureGame>(game: &G) -> Result<Self, LearnError> {
        Self::zeros(game.atom_count(), game.move_id_count())
    }

    /// Number of atoms.
    pub fn atoms(&self) -> usize {
        self.atoms
    }

    /// Number of move ids.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// θ, indexed by [`feature_index`].
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// θ, to change.
    pub fn weights_mut(&mut self) -> &mut [f64] {
        &mut self.weights
    }

    /// Whether this policy's dimensions fit `game`.
    pub fn fits<G: FeatureGame>(&self, game: &G) -> bool {
        self.atoms == game.atom_count() && self.moves == game.move_id_count()
    }

    /// φ(s, a)·θ for the atoms `atoms` of s and a's move id.
    #[inline]
    pub fn score_atoms(&self, atoms: &[u32], move_id: u32) -> f64 {
        let row = &self.weights[feature_index(self.atoms, 0, move_id)..][..self.atoms];
        atoms.iter().map(|&x| row[x as usize]).sum()
    }

    /// φ(s, a)·θ, reading the atoms from the game (allocation-free).
    #[inline]
    pub fn score<G: FeatureGame>(
        &self,
        game: &G,
        state: &G::State,
        player: Player,
        mv: G::Move,
    ) -> f64 {
        let id = game.move_id(state, player, mv) as usize;
        if id >= self.moves {
            return 0.0;
        }
        let row = &self.weights[id * self.atoms..(id + 1) * self.atoms];
        let mut s = 0.0;
        game.for_each_atom(state, |x| {
            if let Some(w) = row.get(x as usize) {
                s += w;
            }
        });
        s
    }

    /// π(s, ·) over `move_ids` (the legal moves' ids) given the atoms of s: writes the
    /// probabilities into `out` (cleared first). Numerically stable (max subtracted).
    pub fn probabilities(&self, atoms: &[u32], move_ids: &[u32], out: &mut Vec<f64>) {
        out.clear();
        let mut max = f64::NEG_INFINITY;
        for &m in move_ids {
            let s = self.score_atoms(atoms, m);
            max = max.max(s);
            out.push(s);
        }
        let mut total = 0.0;
        for p in out.iter_mut() {
            *p = (*p - max).exp();
            total += *p;
        }
        for p in out.iter_mut() {
            *p /= total;
        }
    }

    /// Samples an index of `probs` (which sum to 1).
    #[inline]
    pub fn sample(probs: &[f64], rng: &mut Rng) -> usize {
        let mut x = rng.unit_f64();
        for (i, &p) in probs.iter().enumerate() {
            if x < p {
                return i;
            }
            x -= p;
        }
        probs.len() - 1
    }

    /// Number of non-zero weights.
    pub fn nonzero(&self) -> usize {
        self.weights.iter().filter(|w| **w != 0.0).count()
    }

    /// Writes the policy as JSON (non-zero weights only); `game` names the game it was
    /// learned for and is checked by [`LinearPolicy::load`]. Written to a temporary file
    /// and renamed, so a reader never sees half a file.
    ///
    /// # Errors
    /// [`LearnError::Io`].
    pub fn save(&self, path: &Path, game: &str) -> Result<(), LearnError> {
        let file = WeightsFile {
            format: FORMAT.into(),
            game: game.into(),
            atoms: self.atoms,
            moves: self.moves,
            weights: self
                .weights
                .iter()
                .enumerate()
                .filter(|(_, w)| **w != 0.0)
                .map(|(i, w)| (i, *w))
                .collect(),
        };
        let text = serde_json::to_string(&file).expect("weights serialise");
        crate::write_atomically(path, text.as_bytes())
    }

    /// Reads a policy written by [`LinearPolicy::save`] for the game called `game`.
    ///
    /// # Errors
    /// [`LearnError::Io`]; [`LearnError::BadFile`] when the file is not a weights file, is
    /// for another game, or holds an index out of range.
    pub fn load(path: &Path, game: &str) -> Result<Self, LearnError> {
        let text = std::fs::read_to_string(path).map_err(|e| LearnError::io(path, e))?;
        let file: WeightsFile = serde_json::from_str(&text)
            .map_err(|e| LearnError::bad(path, None, format!("not a weights file: {e}")))?;
        if file.format != FORMAT {
            return Err(LearnError::bad(
                path,
                None,
                format!("format {:?}, expected {FORMAT:?}", file.format),
            ));
        }
        if file.game != game {
            return Err(LearnError::bad(
                path,
                None,
                format!("weights for {:?}, not {game:?}", file.game),
            ));
        }
        let mut p = Self::zeros(file.atoms, file.moves)
            .map_err(|e| LearnError::bad(path, None, e.to_string()))?;
        for (i, w) in file.weights {
            if !w.is_finite() {
                return Err(LearnError::bad(path, None, format!("weight {i} is {w}")));
            }
            *p.weights.get_mut(i).ok_or_else(|| {
                LearnError::bad(path, None, format!("feature {i} out of range"))
            })? = w;
        }
        Ok(p)
    }
}

/// A core [`MoveScorer`] giving φ(s, a)·θ: with core's [`Softmax`] (temperature 1) it is
/// the policy π_θ in playouts.
#[derive(Clone, Debug)]
pub struct PolicyScorer(pub Arc<LinearPolicy>);

impl<G: FeatureGame> MoveScorer<G> for PolicyScorer {
    #[inline]
    fn score(&self, game: &G, state: &G::State, player: Player, mv: G::Move) -> f64 {
        self.0.score(game, state, player, mv)
    }
}

/// Core's softmax playout policy sampling from π_θ.
pub fn softmax_policy(policy: Arc<LinearPolicy>) -> Softmax<PolicyScorer> {
    Softmax {
        temperature: 1.0,
        scorer: PolicyScorer(policy),
    }
}

/// Playouts to the end of the game with π_θ: a core leaf evaluator for
/// [`yomi_core::search::mcts::Mcts`] and flat Monte Carlo.
pub fn softmax_rollout<G: FeatureGame>(
    policy: Arc<LinearPolicy>,
) -> Rollout<G, Softmax<PolicyScorer>> {
    Rollout::new(softmax_policy(policy))
}

/// A reward in the game's units mapped to `[-1, 1]` (the paper's scale inside learning).
#[inline]
pub fn to_unit(bounds: (f64, f64), reward: f64) -> f64 {
    let (lo, hi) = bounds;
    2.0 * (reward - lo) / (hi - lo) - 1.0
}
