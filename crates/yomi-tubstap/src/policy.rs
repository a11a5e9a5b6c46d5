//! The paper's simulation policy (for every method) and DLMC's fixed-length simulations.
//! Tree searches that cut playouts after a number of side-turns use core's `Rollout` with
//! `Cutoff::player_turns`.

use yomi_core::search::mcts::PlayoutPolicy;
use yomi_core::Rng;

use crate::game::Tubstap;
use crate::map::MAX_UNITS;
use crate::state::{TbsMove, TbsState};

/// The simulation policy: with probability `p_attack`, when some unit to act can attack, a
/// uniformly chosen attack among all such units' attacks; otherwise a uniformly chosen
/// unit still to act makes a uniformly chosen action of its own (move or attack). Never
/// ends a turn early. The paper uses `p_attack` = 0.8.
#[derive(Clone, Copy, Debug)]
pub struct AttackFirst {
    /// Probability of taking the attack branch.
    pub p_attack: f64,
}

impl Default for AttackFirst {
    fn default() -> Self {
        AttackFirst { p_attack: 0.8 }
    }
}

/// A uniformly chosen unit still to act makes a uniformly chosen action (`buf` is scratch).
/// `None` when the game is over.
#[inline]
pub fn random_unit_action(
    game: &Tubstap,
    state: &TbsState,
    rng: &mut Rng,
    buf: &mut Vec<TbsMove>,
) -> Option<TbsMove> {
    if game.over(state) {
        return None;
    }
    let mut ready = [0u8; MAX_UNITS];
    let mut count = 0;
    for id in game.ready_units(state) {
        ready[count] = id as u8;
        count += 1;
    }
    if count == 0 {
        return Some(TbsMove::EndTurn);
    }
    let id = ready[rng.below(count)] as usize;
    buf.clear();
    game.unit_actions(state, id, buf);
    rng.choose(buf).copied()
}

impl PlayoutPolicy<Tubstap> for AttackFirst {
    #[inline]
    fn choose(
        &mut self,
        game: &Tubstap,
        state: &TbsState,
        rng: &mut Rng,
        buf: &mut Vec<TbsMove>,
    ) -> Option<TbsMove> {
        if game.over(state) {
            return None;
        }
        if self.p_attack > 0.0 && rng.chance(self.p_attack) {
            buf.clear();
            game.all_attacks(state, buf);
            if let Some(&m) = rng.choose(buf) {
                return Some(m);
            }
        }
        random_unit_action(game, state, rng, buf)
    }
}

/// Plays `policy` from `state` until `turns` side-turns have ended or the game is over.
#[inline]
pub fn play_turns<P: PlayoutPolicy<Tubstap>>(
    game: &Tubstap,
    state: &mut TbsState,
    policy: &mut P,
    turns: u32,
    rng: &mut Rng,
    buf: &mut Vec<TbsMove>,
) {
    let stop = state.turn() + turns;
    while state.turn() < stop {
        match policy.choose(game, state, rng, buf) {
            Some(mv) => yomi_core::Game::apply(game, state, mv),
            None => return,
        }
    }
}
