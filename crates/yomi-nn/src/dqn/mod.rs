//! DQN self-play, the baseline of the Geister paper's preliminary experiment (spec
//! `geister-deep-rl` §2), for any two-player sequential [`TensorGame`]:
//!
//! - a Q-network of three convolutions and one fully connected layer with one output per
//!   policy index ([`qnet`]), sized by the TOML configuration ([`config`]);
//! - self-play in which both sides are the learning network, many games side by side with
//!   one batched network call per step; ε-greedy with a linearly decaying ε;
//! - experience replay ([`replay`]), a target network copied every `target_update` steps,
//!   Huber or squared loss on the negamax TD target ([`td_target`]): the mover's reward
//!   `r ∈ {−1, 0, +1}` when the move ends the game, else `−γ·max Q_target(s′)` with `s′`
//!   encoded for the opponent;
//! - two modes: **masked** (choice, exploration and the target's maximum range over legal
//!   moves only) and **unmasked** (every policy index can be chosen; an index that is no
//!   legal move's ends the game as a loss, −1 for the mover, as in the paper);
//! - evaluation against the uniformly random agent ([`eval`]) with Wilson intervals, run
//!   periodically during training and written to `log.csv` / `log.png` ([`train`]);
//! - checkpoints after every cycle with an exact resume.
//!
//! [`run_dqn`] is the whole `dqn <config>` command for a game.

pub mod config;
pub mod eval;
pub mod qnet;
pub mod replay;
pub mod train;

use std::path::Path;

use yomi_core::{Game, Rng, TensorGame};

pub use config::{DqnConfig, QNetConfig, TdLoss};
pub use eval::{evaluate_vs_random, EvalStats};
pub use qnet::{QNet, QNetSpec};
pub use replay::{Transition, TransitionBuffer};
pub use train::{DqnEval, DqnLogRow, DqnTrainer};

use crate::NnError;

/// True when bit `i` of `mask` is set.
#[inline]
pub fn mask_has(mask: &[u64], i: usize) -> bool {
    mask.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// The index of the largest Q-value, over the indices set in `mask` when given (ties go to
/// the lowest index); `None` when the mask is empty.
pub fn greedy(q: &[f32], mask: Option<&[u64]>) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, &v) in q.iter().enumerate() {
        if mask.is_some_and(|m| !mask_has(m, i)) {
            continue;
        }
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// The negamax TD target of a transition: the mover's `reward` when the move ended the
/// game; otherwise minus γ times the best Q-value of the next state for the opponent
/// (`next_q`, over `next_mask` when masked, 0 when that mask is empty).
pub fn td_target(
    reward: f32,
    done: bool,
    next_q: &[f32],
    next_mask: Option<&[u64]>,
    gamma: f32,
) -> f32 {
    if done {
        return reward;
    }
    let best = greedy(next_q, next_mask).map_or(0.0, |i| next_q[i]);
    reward - gamma * best
}

/// The legal moves of the mover in a state with their policy indices and a mask of them;
/// buffers are reused from state to state.
#[derive(Clone, Debug)]
pub struct LegalSet<M> {
    /// The legal moves.
    pub moves: Vec<M>,
    /// Their policy indices, in the same order.
    pub indices: Vec<u32>,
    /// The indices as bits.
    pub mask: Vec<u64>,
}

impl<M: Copy> LegalSet<M> {
    /// Empty buffers for a game with `policy_size` indices.
    pub fn new(policy_size: usize) -> Self {
        LegalSet {
            moves: Vec::new(),
            indices: Vec::new(),
            mask: vec![0; replay::mask_words(policy_size)],
        }
    }

    /// Fills the set for the player to move in `state`.
    pub fn fill<G: TensorGame<Move = M>>(&mut self, game: &G, state: &G::State) {
        game.legal_moves(state, &mut self.moves);
        self.indices.clear();
        self.mask.fill(0);
        for &mv in &self.moves {
            let i = game.action_index(state, mv);
            self.indices.push(i as u32);
            self.mask[i / 64] |= 1 << (i % 64);
        }
    }

    /// Empties the set (a terminal state has no moves).
    pub fn clear(&mut self) {
        self.moves.clear();
        self.indices.clear();
        self.mask.fill(0);
    }

    /// The legal move with policy index `index`, if any.
    pub fn move_of(&self, index: usize) -> Option<M> {
        if !mask_has(&self.mask, index) {
            return None;
        }
        self.indices
            .iter()
            .position(|&i| i as usize == index)
            .map(|k| self.moves[k])
    }
}

/// The ε-greedy choice of a policy index from the Q-values `q` of a state with legal moves
/// `legal`: with probability `epsilon` a uniformly random index (among the legal ones when
/// `masked`, among all otherwise), else the greedy one (over the legal ones when `masked`).
/// `None` only when masked and there is no legal move.
pub fn epsilon_greedy<M: Copy>(
    q: &[f32],
    legal: &LegalSet<M>,
    masked: bool,
    epsilon: f64,
    rng: &mut Rng,
) -> Option<usize> {
    if rng.chance(epsilon) {
        if masked {
            return rng.choose(&legal.indices).map(|&i| i as usize);
        }
        return Some(rng.below(q.len()));
    }
    greedy(q, masked.then_some(legal.mask.as_slice()))
}

/// Checks that DQN can play `game`: two players taking turns.
///
/// # Errors
/// [`NnError::Config`] otherwise.
pub fn check_game<G: Game>(game: &G) -> Result<(), NnError> {
    let facts = game.facts();
    if facts.players != 2 || facts.dynamics != yomi_core::Dynamics::Sequential {
        return Err(NnError::Config(format!(
            "DQN self-play needs a two-player game with alternating moves; {} is not one",
            facts.name
        )));
    }
    Ok(())
}

/// The whole `dqn <config>` command for a game: reads the TOML configuration at `config`
/// and runs (or resumes) DQN self-play training in `dir`, with progress on stderr. Returns
/// the log; its last row holds the final evaluation against the random agent.
///
/// # Errors
/// As [`DqnConfig::load`], [`DqnTrainer::new`] and [`DqnTrainer::run`].
pub fn run_dqn<G: TensorGame>(
    game: &G,
    config: &Path,
    dir: &Path,
) -> Result<Vec<DqnLogRow>, NnError> {
    let config = DqnConfig::load(config)?;
    let mut trainer = DqnTrainer::new(game, config, dir)?;
    trainer.run(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_respects_the_mask_and_breaks_ties_low() {
        let q = [0.5, 2.0, -1.0, 2.0, 3.0];
        assert_eq!(greedy(&q, None), Some(4));
        let mask = [0b01011u64]; // indices 0, 1, 3
        assert_eq!(greedy(&q, Some(&mask)), Some(1));
        assert_eq!(greedy(&q, Some(&[0])), None);
        assert!(mask_has(&[0, 1], 64) && !mask_has(&[0, 1], 65) && !mask_has(&[1], 200));
    }

    #[test]
    fn td_targets_of_a_hand_built_case() {
        let next_q = [0.9, -0.2, 0.4, 0.7];
        let legal = [0b0110u64]; // the opponent may play 1 or 2 only
                                 // A winning move: the reward, whatever the next state says.
        assert_eq!(td_target(1.0, true, &next_q, Some(&legal), 0.9), 1.0);
        assert_eq!(td_target(-1.0, true, &next_q, None, 0.9), -1.0);
        // Masked: the opponent's best legal reply is worth 0.4 to them: −0.9·0.4 to us.
        let t = td_target(0.0, false, &next_q, Some(&legal), 0.9);
        assert!((t + 0.36).abs() < 1e-6, "{t}");
        // Unmasked: the maximum over every output, 0.9.
        let t = td_target(0.0, false, &next_q, None, 0.9);
        assert!((t + 0.81).abs() < 1e-6, "{t}");
        // No legal reply: nothing to bootstrap from.
        assert_eq!(td_target(0.0, false, &next_q, Some(&[0]), 0.9), 0.0);
    }

    #[test]
    fn masked_epsilon_greedy_never_picks_an_illegal_index() {
        let mut legal = LegalSet::<u8>::new(70);
        legal.moves = vec![10, 20, 65];
        legal.indices = vec![3, 7, 65];
        legal.mask = vec![1 << 3 | 1 << 7, 1 << 1];
        let mut rng = Rng::seed_from_u64(3);
        let mut q = vec![0.0f32; 70];
        let mut unmasked_illegal = 0;
        for k in 0..2000 {
            for (i, v) in q.iter_mut().enumerate() {
                *v = ((i * 7919 + k * 104_729) % 1000) as f32;
            }
            let eps = (k % 5) as f64 / 4.0;
            let i = epsilon_greedy(&q, &legal, true, eps, &mut rng).unwrap();
            assert!(legal.indices.contains(&(i as u32)), "picked {i}");
            assert!(legal.move_of(i).is_some());
            let j = epsilon_greedy(&q, &legal, false, eps, &mut rng).unwrap();
            unmasked_illegal += usize::from(legal.move_of(j).is_none());
        }
        // The unmasked choice does pick illegal indices, so the masked check is not vacuous.
        assert!(unmasked_illegal > 1000, "{unmasked_illegal}");
        assert_eq!(legal.move_of(65), Some(65));
        assert_eq!(legal.move_of(4), None);
    }
}
