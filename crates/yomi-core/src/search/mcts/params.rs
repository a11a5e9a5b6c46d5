//! Search parameters that are plain numbers and switches (the plug-ins that carry code are
//! generic parameters of [`super::Mcts`]). Defaults give plain UCT: expand on the first
//! revisit, one playout per iteration, final move by visits, one thread.
//!
//! Thread safety: plain data, cloned into every worker.

use std::fmt;
use std::sync::Arc;

use crate::search::Budget;

/// Progressive widening: the number of children a node with `n` visits may choose among.
/// Children enter in the order the expander left them (see [`super::Expander`]).
#[derive(Clone)]
pub struct Widening(pub Arc<dyn Fn(u32) -> usize + Send + Sync>);

impl Widening {
    /// Widening by an arbitrary function of the visit count.
    pub fn new(f: impl Fn(u32) -> usize + Send + Sync + 'static) -> Self {
        Widening(Arc::new(f))
    }

    /// The classic power law `k(n) = ceil(c · n^alpha)` (at least 1).
    pub fn power(c: f64, alpha: f64) -> Self {
        Widening::new(move |n| ((c * (n.max(1) as f64).powf(alpha)).ceil() as usize).max(1))
    }
}

impl fmt::Debug for Widening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ks: Vec<usize> = [1u32, 10, 100, 1000, 10000]
            .iter()
            .map(|&n| (self.0)(n))
            .collect();
        write!(f, "Widening(k(1,10,100,1000,10000)={ks:?})")
    }
}

/// How the move to play is chosen from the root statistics.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum FinalMove {
    /// The most visited move (robust child).
    #[default]
    MostVisits,
    /// The move with the highest mean reward (among visited moves).
    BestMean,
    /// A move drawn with probability proportional to `visits^(1/temperature)`.
    Boltzmann {
        /// Temperature; near 0 approaches [`FinalMove::MostVisits`].
        temperature: f64,
    },
}

/// Dirichlet noise mixed into the root's priors at the start of every search (AlphaZero's
/// exploration for self-play): `prior ← (1 − fraction)·prior + fraction·Dir(alpha)`.
/// Only selection rules that read priors (PUCT) are affected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootNoise {
    /// Concentration of the symmetric Dirichlet (AlphaZero: 0.3 chess, 0.03 Go; about
    /// 10 / legal moves is a common rule).
    pub alpha: f64,
    /// Weight of the noise, 0..1 (AlphaZero: 0.25).
    pub fraction: f64,
}

/// Numeric settings of one search.
#[derive(Clone, Debug)]
pub struct MctsParams {
    /// How long each search runs. Default: 10,000 iterations.
    pub budget: Budget,
    /// A leaf node generates its children once it has been visited this many times.
    /// 1 is classic UCT (one new node per iteration); 0 expands new nodes at once (needed
    /// when the expander supplies priors, as in PUCT); the Othello paper uses 100 and 5.
    pub expand_threshold: u32,
    /// Reuse a leaf's first evaluation until the leaf is expanded (sound for deterministic
    /// playout policies; the Othello paper's _PlayZebra).
    pub memoize_leaves: bool,
    /// Progressive widening; `None` considers every child.
    pub widening: Option<Widening>,
    /// How the final move is chosen.
    pub final_move: FinalMove,
    /// Worker threads (root parallelism: one tree each, statistics summed at the root).
    pub threads: usize,
    /// Keep the subtree of the moves played between searches.
    pub reuse_tree: bool,
    /// Determinizations per search for imperfect-information games (each gets its own
    /// tree and an equal share of the budget). Ignored for perfect-information games.
    pub determinizations: usize,
    /// Probability that a player picks a uniformly random move at a simultaneous node
    /// (decoupled selection); see the search docs for why it is not 0.
    pub simultaneous_exploration: f64,
    /// Stop adding nodes when the tree holds this many (the search goes on, playing out
    /// from leaves), bounding memory on long time budgets.
    pub max_nodes: usize,
    /// Dirichlet noise on the root priors (self-play exploration); `None` for play.
    pub root_noise: Option<RootNoise>,
    /// Prove subtrees (MCTS-Solver, generalised to any number of players): a node whose
    /// value is known exactly (terminal, a child giving its mover the highest reward, or
    /// every child known) is not played out again, its parent edge's mean becomes the
    /// exact value, and the final move takes a proven win. Perfect-information games only
    /// (ignored under determinization).
    pub solver: bool,
    /// Expand every legal move ([`Game::legal_moves`](crate::Game::legal_moves)) instead of
    /// the game's search moves ([`Game::search_moves`](crate::Game::search_moves)): for a
    /// search whose value of a move is not the game's own (the Go difference game, where a
    /// move that is never worth playing in the game can still be worth a tempo).
    pub all_legal_moves: bool,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            budget: Budget::iterations(10_000),
            expand_threshold: 1,
            memoize_leaves: false,
            widening: None,
            final_move: FinalMove::MostVisits,
            threads: 1,
            reuse_tree: true,
            determinizations: 8,
            simultaneous_exploration: 0.1,
            max_nodes: 20_000_000,
            root_noise: None,
            solver: false,
            all_legal_moves: false,
        }
    }
}
