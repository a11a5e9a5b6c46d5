//! Game-independent search: [`mcts`] (one Monte Carlo tree search with plug-in points),
//! [`flatmc`] (flat Monte Carlo) and [`alphabeta`] (negamax with a transposition table and
//! iterative deepening), plus the pieces they share: evaluators, budgets and the
//! [`StopSignal`] that ends a search early from another thread.

pub mod alphabeta;
pub mod flatmc;
pub mod mcts;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::player::Rewards;

/// A static position evaluation: estimated rewards of every player in the game's units
/// (within [`crate::GameFacts::reward_bounds`]). Used at playout cut-offs, by
/// evaluation-guided playouts, in the UCB evaluation term and at alpha-beta leaves.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The estimated rewards of `state`.
    fn evaluate(&self, game: &G, state: &G::State) -> Rewards;
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Arc<E> {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State) -> Rewards {
        (**self).evaluate(game, state)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    #[inline]
    fn evaluate(&self, game: &G, state: &G::State) -> Rewards {
        (**self).evaluate(game, state)
    }
}

/// The evaluation that knows nothing: every player gets the midpoint of the reward range
/// (a draw in a zero-sum game), or the true returns at terminal states.
///
/// The midpoint comes from [`Game::facts`] at each call (a field read, no allocation), so
/// one instance serves any number of games.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeutralEvaluator;

impl NeutralEvaluator {
    /// A neutral evaluator.
    pub fn new() -> Self {
        NeutralEvaluator
    }
}

impl<G: Game> Evaluator<G> for NeutralEvaluator {
    fn evaluate(&self, game: &G, state: &G::State) -> Rewards {
        if game.is_terminal(state) {
            return game.returns(state);
        }
        let f = game.facts();
        let mid = 0.5 * (f.reward_bounds.0 + f.reward_bounds.1);
        let mut r = Rewards::zeros(f.players);
        for p in f.all_players() {
            r.set(p, mid);
        }
        r
    }
}

/// How long a search may run: a number of iterations, a wall-clock time, or both (whichever
/// ends first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most iterations (playouts, nodes), if limited.
    pub iterations: Option<u64>,
    /// Most wall-clock time, if limited.
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> Self {
        Budget {
            iterations: Some(n),
            time: None,
        }
    }

    /// A budget of wall-clock time.
    pub fn time(t: Duration) -> Self {
        Budget {
            iterations: None,
            time: Some(t),
        }
    }

    /// The point in time at which a search started now must stop, if timed.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.map(|t| start + t)
    }
}

/// Asks a running search, from another thread, to stop at once and answer with what it has
/// found so far: a player whose reply deadline comes before the search's own budget ran out
/// (the budget is measured on the wall clock, so a starved thread may have done little of
/// it) raises the signal and takes the best move so far instead of none.
///
/// Clones share one flag. Raising it is permanent: use a fresh signal for each search.
/// Searches read it with one relaxed atomic load per iteration (no lock, no allocation),
/// so a stopped search returns within one iteration of the signal, once its thread runs.
///
/// The signal also carries the search's **best move so far**, in the game's notation
/// ([`StopSignal::best_so_far`]): an MCTS search watching it publishes its most visited
/// root move every few hundred iterations, when it changes. A caller whose deadline comes
/// while the search thread gets no CPU at all (so it cannot hand back even a stopped
/// result) answers with that instead of a move of its own.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<SignalState>);

#[derive(Debug, Default)]
struct SignalState {
    stopped: AtomicBool,
    best: std::sync::Mutex<Option<String>>,
}

impl StopSignal {
    /// A signal not raised yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Raises the signal: every search watching it stops after its current iteration.
    pub fn stop(&self) {
        self.0.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether the signal was raised.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.stopped.load(Ordering::Relaxed)
    }

    /// Records `mv` (a move in the game's notation) as the search's best so far.
    pub fn publish_best(&self, mv: String) {
        *self.0.best.lock().unwrap_or_else(|p| p.into_inner()) = Some(mv);
    }

    /// The best move the search published so far, in the game's notation; `None` before
    /// its first publication.
    pub fn best_so_far(&self) -> Option<String> {
        self.0
            .best
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}
