//! Expansion: what a node's children start with (priors, static evaluations) and the order
//! in which progressive widening admits them.
//!
//! Thread safety: each worker owns a clone of its expander.

use std::sync::Arc;

use crate::game::Game;
use crate::player::Player;
use crate::rng::Rng;
use crate::search::Evaluator;

/// One child being created: the expander may set its prior and evaluation and reorder the
/// slice (progressive widening admits children in slice order).
#[derive(Clone, Copy, Debug)]
pub struct EdgeSlot<M> {
    /// The move.
    pub mv: M,
    /// Prior probability (the search initialises it to uniform).
    pub prior: f32,
    /// Static evaluation of the move for the chooser, in the game's reward units (the
    /// search normalises it); 0 when unset.
    pub eval: f32,
}

/// Initialises a node's children when the node is expanded.
pub trait Expander<G: Game>: Clone + Send {
    /// True for expanders that never change anything (lets the search skip calling them).
    const PASSIVE: bool = false;
    /// Sets priors / evaluations of `player`'s children in `state` and orders them.
    fn expand(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        slots: &mut [EdgeSlot<G::Move>],
        rng: &mut Rng,
    );
}

/// Leaves children as the game lists them, with uniform priors.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoExpander;

impl<G: Game> Expander<G> for NoExpander {
    const PASSIVE: bool = true;
    #[inline]
    fn expand(&mut self, _: &G, _: &G::State, _: Player, _: &mut [EdgeSlot<G::Move>], _: &mut Rng) {
    }
}

/// Children in random order (for progressive widening without domain knowledge).
#[derive(Clone, Copy, Debug, Default)]
pub struct ShuffledOrder;

impl<G: Game> Expander<G> for ShuffledOrder {
    fn expand(
        &mut self,
        _: &G,
        _: &G::State,
        _: Player,
        slots: &mut [EdgeSlot<G::Move>],
        rng: &mut Rng,
    ) {
        rng.shuffle(slots);
    }
}

/// Evaluates the position after each move (UCT+'s evaluation term) and, optionally, orders
/// children best-first for progressive widening.
pub struct ChildEvaluation<G: Game> {
    /// The static evaluation.
    pub evaluator: Arc<dyn Evaluator<G>>,
    /// Sort children by decreasing evaluation.
    pub best_first: bool,
}

impl<G: Game> Clone for ChildEvaluation<G> {
    fn clone(&self) -> Self {
        ChildEvaluation {
            evaluator: self.evaluator.clone(),
            best_first: self.best_first,
        }
    }
}

impl<G: Game> Expander<G> for ChildEvaluation<G> {
    fn expand(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        slots: &mut [EdgeSlot<G::Move>],
        _: &mut Rng,
    ) {
        for slot in slots.iter_mut() {
            let mut next = state.clone();
            if game.turn(state) == crate::game::Turn::Simultaneous {
                // The evaluation of one player's move alone is undefined at a joint turn.
                continue;
            }
            game.apply(&mut next, slot.mv);
            slot.eval = self.evaluator.evaluate(game, &next).get(player) as f32;
        }
        if self.best_first {
            slots.sort_by(|a, b| b.eval.total_cmp(&a.eval));
        }
    }
}

/// Any of the built-in expanders, chosen at run time.
pub enum AnyExpander<G: Game> {
    /// See [`NoExpander`].
    None,
    /// See [`ShuffledOrder`].
    Shuffled,
    /// See [`ChildEvaluation`].
    ChildEvaluation(ChildEvaluation<G>),
}

impl<G: Game> Clone for AnyExpander<G> {
    fn clone(&self) -> Self {
        match self {
            AnyExpander::None => AnyExpander::None,
            AnyExpander::Shuffled => AnyExpander::Shuffled,
            AnyExpander::ChildEvaluation(c) => AnyExpander::ChildEvaluation(c.clone()),
        }
    }
}

impl<G: Game> Expander<G> for AnyExpander<G> {
    fn expand(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        slots: &mut [EdgeSlot<G::Move>],
        rng: &mut Rng,
    ) {
        match self {
            AnyExpander::None => {}
            AnyExpander::Shuffled => ShuffledOrder.expand(game, state, player, slots, rng),
            AnyExpander::ChildEvaluation(c) => c.expand(game, state, player, slots, rng),
        }
    }
}
