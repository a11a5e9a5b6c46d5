//! Connect four for treant's traits: the bitboard of [`crate::c4`], UCT with one uniformly
//! random playout per new node.
//!
//! Equivalence with `Mcts::uct`: treant's UCT scores a child `Q + C·2·sqrt(ln(N+1)/n)` with
//! `Q` the mean of integer rewards. Rewards here are +1 / 0 / -1 (win / draw / loss), i.e.
//! `Q = 2·Q01 - 1` for the [0, 1] mean `Q01` yomi uses, so treant's score is
//! `2·(Q01 + C·sqrt(2)·sqrt(ln N / n)) - 1`: the same ordering as yomi's
//! `Q01 + c·sqrt(2 ln N / n)` with `c = 1/√2` when `C = c·√2 = 1`. With
//! `visits_before_expansion = 1` (the default), each playout creates one node and plays out
//! from it, like yomi's expand threshold 1. Unvisited children are tried first (FPU = ∞,
//! ties broken at random, where yomi takes column order). No transposition table.

use std::sync::atomic::{AtomicU64, Ordering};

use treant::tree_policy::UCTPolicy;
use treant::{Evaluator, GameState, MCTSManager, SearchHandle, MCTS};

use crate::c4::{Board, Rng};

/// The exploration constant equivalent to yomi's `c = 1/√2` (see the module docs).
pub const C: f64 = 1.0;

/// The state, as treant's `GameState`.
#[derive(Clone, Copy, Debug, Default)]
pub struct C4(pub Board);

/// The legal columns, as a bit set that iterates without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Columns(u64);

impl Iterator for Columns {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some((bit / 7) as u8)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl GameState for C4 {
    type Move = u8;
    type Player = u8;
    type MoveList = Columns;

    #[inline]
    fn current_player(&self) -> u8 {
        self.0.to_move()
    }
    #[inline]
    fn available_moves(&self) -> Columns {
        if self.0.over() {
            Columns(0)
        } else {
            Columns(self.0.playable())
        }
    }
    #[inline]
    fn make_move(&mut self, col: &u8) {
        self.0.play(*col as u32);
    }
}

/// The playout RNG, one per search thread (treant's `ExtraThreadData`). Each new one gets
/// its own seed from a global counter set by [`search`].
pub struct PlayoutRng(Rng);

static NEXT_SEED: AtomicU64 = AtomicU64::new(1);

impl Default for PlayoutRng {
    fn default() -> Self {
        PlayoutRng(Rng::new(NEXT_SEED.fetch_add(1, Ordering::Relaxed)))
    }
}

/// Evaluates a state by one uniformly random playout; the evaluation is the result for `x`.
pub struct RolloutEval;

impl Evaluator<C4Uct> for RolloutEval {
    type StateEvaluation = i8;

    #[inline]
    fn evaluate_new_state(&self, state: &C4, moves: &Columns, handle: Option<SearchHandle<C4Uct>>) -> (Vec<()>, i8) {
        let n = moves.0.count_ones() as usize;
        let r = match handle {
            Some(mut h) => state.0.rollout(&mut h.thread_data().extra_data.0),
            // The root is created outside any search thread.
            None => state.0.rollout(&mut Rng::new(0)),
        };
        (vec![(); n], r)
    }

    #[inline]
    fn evaluate_existing_state(&self, state: &C4, _: &i8, mut handle: SearchHandle<C4Uct>) -> i8 {
        // Reached only at terminal nodes, where the playout returns at once.
        state.0.rollout(&mut handle.thread_data().extra_data.0)
    }

    #[inline]
    fn interpret_evaluation_for_player(&self, e: &i8, player: &u8) -> i64 {
        if *player == 0 {
            *e as i64
        } else {
            -(*e as i64)
        }
    }
}

/// treant's configuration: UCT, no transposition table, seeded.
#[derive(Default)]
pub struct C4Uct {
    seed: u64,
}

impl MCTS for C4Uct {
    type State = C4;
    type Eval = RolloutEval;
    type TreePolicy = UCTPolicy;
    type NodeData = ();
    type TranspositionTable = ();
    type ExtraThreadData = PlayoutRng;

    fn rng_seed(&self) -> Option<u64> {
        Some(self.seed)
    }
}

/// A treant search of `playouts` playouts from `root` (one thread); returns the manager
/// so that the caller can read the tree (and decide when to pay for dropping it).
pub fn search(root: Board, playouts: u64, seed: u64) -> MCTSManager<C4Uct> {
    NEXT_SEED.store(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, Ordering::Relaxed);
    let mut m = MCTSManager::new(C4(root), C4Uct { seed }, RolloutEval, UCTPolicy::new(C), ());
    m.playout_n(playouts);
    m
}
