//! Flat Monte Carlo: `n` playouts after each legal move, play the move with the best mean.
//! The GGP paper's "Simple-MC" play method.

use crate::game::{Game, Turn};
use crate::player::Player;
use crate::rng::Rng;
use crate::search::mcts::playout::{LeafEvaluator, Rollout, Uniform};

/// Mean playout result of each of `player`'s moves in `state`, normalised to `[0, 1]`.
///
/// At simultaneous turns the other players' moves are drawn by the leaf evaluator's policy
/// (uniformly) for each playout.
pub fn flat_monte_carlo<G: Game, L: LeafEvaluator<G>>(
    game: &G,
    state: &G::State,
    player: Player,
    playouts_per_move: u32,
    leaf: &mut L,
    rng: &mut Rng,
) -> Vec<(G::Move, f64)> {
    let facts = game.facts();
    let (lo, hi) = facts.reward_bounds;
    let mut moves = Vec::new();
    let simultaneous = game.turn(state) == Turn::Simultaneous;
    crate::agent::moves_of(game, state, player, &mut moves);
    let mut others: Vec<Vec<G::Move>> = Vec::new();
    if simultaneous {
        for p in facts.all_players() {
            let mut m = Vec::new();
            game.legal_moves_of(state, p, &mut m);
            others.push(m);
        }
    }
    let mut buf = Vec::new();
    let mut joint = Vec::new();
    moves
        .iter()
        .map(|&mv| {
            let mut total = 0.0;
            for _ in 0..playouts_per_move {
                let mut s = state.clone();
                if simultaneous {
                    joint.clear();
                    for (p, opts) in others.iter().enumerate() {
                        joint.push(if p == player.index() {
                            mv
                        } else {
                            opts[rng.below(opts.len())]
                        });
                    }
                    game.apply_joint(&mut s, &joint);
                } else {
                    game.apply(&mut s, mv);
                }
                let r = leaf.evaluate(game, &mut s, rng, &mut buf);
                total += (r.get(player) - lo) / (hi - lo);
            }
            (mv, total / playouts_per_move.max(1) as f64)
        })
        .collect()
}

/// An agent playing flat Monte Carlo with uniform playouts.
pub struct FlatMcAgent {
    /// Playouts per legal move.
    pub playouts_per_move: u32,
    rng: Rng,
}

impl FlatMcAgent {
    /// `n` playouts per move; `seed` fixes the playouts.
    pub fn new(playouts_per_move: u32, seed: u64) -> Self {
        FlatMcAgent {
            playouts_per_move,
            rng: Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> crate::agent::Agent<G> for FlatMcAgent {
    fn name(&self) -> String {
        format!("flatmc:n={}", self.playouts_per_move)
    }
    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, crate::AgentError> {
        let mut leaf = Rollout::new(Uniform);
        let scored = flat_monte_carlo(
            game,
            state,
            player,
            self.playouts_per_move,
            &mut leaf,
            &mut self.rng,
        );
        scored
            .iter()
            .fold(None::<(G::Move, f64)>, |best, &(m, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((m, v)),
            })
            .map(|(m, _)| m)
            .ok_or_else(|| crate::AgentError::NoMove(format!("{player} has no legal move")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Nim;

    #[test]
    fn flat_mc_prefers_the_winning_take() {
        // From 5 stones taking 1 leaves 4 (lost for the opponent); the other takes lose more
        // often under random play.
        let game = Nim::new(5);
        let mut rng = Rng::seed_from_u64(1);
        let mut leaf = Rollout::new(Uniform);
        let s = game.initial_state();
        let scores = flat_monte_carlo(&game, &s, Player(0), 2000, &mut leaf, &mut rng);
        let best = scores.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(best.0, 1, "{scores:?}");
    }
}
