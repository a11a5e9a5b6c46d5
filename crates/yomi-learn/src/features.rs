//! Sparse binary features of (state, move): the GGP paper's "true state proposition ×
//! move" pairs, for any game that names its state atoms and its moves by small integers.
//!
//! A game exposes two vocabularies: *atoms*, facts that hold or not in a state (a GDL base
//! proposition such as `(cell 1 1 x)`, a piece on a square), and *move ids*, stable numbers
//! for moves (a GDL action such as `(mark 1 2)`). The feature vector φ(s, a) has one binary
//! entry per pair (atom, move id); the entry of (x, m) is 1 exactly when x holds in s and
//! a's id is m. So φ(s, a) has as many ones as s has true atoms, all in move id a's row, and
//! the linear score φ(s, a)·θ is the sum of θ over that row's true atoms
//! ([`feature_index`] gives the position).

use yomi_core::{Game, Player};

/// A game whose states and moves have the sparse binary features of the GGP paper.
///
/// Implementations must be deterministic and cheap: [`FeatureGame::for_each_atom`] runs for
/// every move scored in every playout step, so it must not allocate.
pub trait FeatureGame: Game {
    /// The number of distinct atoms; every atom is below it.
    fn atom_count(&self) -> usize;

    /// The number of distinct move ids; every [`FeatureGame::move_id`] is below it.
    fn move_id_count(&self) -> usize;

    /// Calls `f` with each atom that holds in `state`, each once, in ascending order.
    fn for_each_atom(&self, state: &Self::State, f: impl FnMut(u32));

    /// The stable id of `player`'s move `mv` in `state` (the same move in another state
    /// gets the same id when it means the same action).
    fn move_id(&self, state: &Self::State, player: Player, mv: Self::Move) -> u32;

    /// The atoms of `state` as text, for people reading weights (defaults to numbers).
    fn atom_name(&self, atom: u32) -> String {
        format!("atom{atom}")
    }

    /// The name of a move id, for people reading weights (defaults to a number).
    fn move_id_name(&self, id: u32) -> String {
        format!("move{id}")
    }
}

/// The position of feature (atom, move id) in a weight vector of a game with `atoms` atoms:
/// move-major, so one move's weights are contiguous.
#[inline]
pub fn feature_index(atoms: usize, atom: u32, move_id: u32) -> usize {
    move_id as usize * atoms + atom as usize
}

/// Writes the atoms of `state` into `out` (cleared first).
pub fn atoms_into<G: FeatureGame>(game: &G, state: &G::State, out: &mut Vec<u32>) {
    out.clear();
    game.for_each_atom(state, |a| out.push(a));
}
