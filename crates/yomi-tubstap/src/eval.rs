//! The paper's state evaluation g(s) = (M − E) × B: M and E are the HP totals of one's own
//! and the enemy's units with infantry counted at 0.2, and B = 2 when either side is wiped
//! out, else 1.

use yomi_core::search::Evaluator;
use yomi_core::{Game, Rewards};

use crate::game::Tubstap;
use crate::rules::UnitKind;
use crate::state::TbsState;

/// Weighted HP of `team` in tenths (infantry counts 2 per HP, the others 10).
#[inline]
pub fn weighted_hp_tenths(game: &Tubstap, state: &TbsState, team: u8) -> i32 {
    let mut total = 0;
    for i in 0..game.units() {
        let hp = state.unit(i).hp as i32;
        if hp > 0 && game.team(i) == team {
            total += hp
                * if game.kind(i) == UnitKind::Infantry {
                    2
                } else {
                    10
                };
        }
    }
    total
}

/// g(s) from `team`'s side, in HP units.
///
/// ```
/// use yomi_core::Game;
/// use yomi_tubstap::{eval::g, maps};
/// let game = maps::standard();
/// assert_eq!(g(&game, &game.initial_state(), 0), 0.0); // a symmetric start
/// ```
#[inline]
pub fn g(game: &Tubstap, state: &TbsState, team: u8) -> f64 {
    let mut m = 0i32;
    let mut e = 0i32;
    for i in 0..game.units() {
        let hp = state.unit(i).hp as i32;
        if hp == 0 {
            continue;
        }
        let w = hp
            * if game.kind(i) == UnitKind::Infantry {
                2
            } else {
                10
            };
        if game.team(i) == team {
            m += w;
        } else {
            e += w;
        }
    }
    let b = if m == 0 || e == 0 { 2 } else { 1 };
    ((m - e) * b) as f64 / 10.0
}

/// g(s) as a core [`Evaluator`]: red's g divided by a bound on |g| (so rewards stay in
/// (-1, 1)), blue's its negation; the true returns at the end of the game. Installed as the
/// registry's `default` evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct HpEvaluator;

impl HpEvaluator {
    /// The bound that scales g into (-1, 1): twice the larger side's initial weighted HP, plus 1.
    pub fn scale(game: &Tubstap) -> f64 {
        let s = game.initial_state();
        let most = weighted_hp_tenths(game, &s, 0).max(weighted_hp_tenths(game, &s, 1));
        2.0 * most as f64 / 10.0 + 1.0
    }
}

impl Evaluator<Tubstap> for HpEvaluator {
    fn evaluate(&self, game: &Tubstap, state: &TbsState) -> Rewards {
        if game.is_terminal(state) {
            return game.returns(state);
        }
        Rewards::zero_sum(g(game, state, 0) / Self::scale(game))
    }
}
