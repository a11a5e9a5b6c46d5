//! UCT with one unit action per tree edge, and UCT with progressive widening, on core's
//! [`Mcts`].
//!
//! The per-turn simulation budget is split evenly over the units to act: at the first action
//! of a turn the agent counts the units still to act, u, and every search of that turn gets
//! budget / u iterations (and time / u under a time limit). Playouts run to the end of the
//! game with the simulation policy ([`AttackFirst`]); selection is UCB1 with the paper's
//! constant (x̄ + sqrt(2 ln n / n_j), c = 1 on [0, 1] rewards).
//!
//! Progressive widening admits `k(n)` children at a node with n visits, attacks first (in
//! random order), then the other actions in random order ([`AttacksFirst`]).

use std::time::Duration;

use yomi_core::agent::{Agent, AgentError, Played};
use yomi_core::search::mcts::{
    EdgeSlot, Expander, Mcts, MctsParams, NoExpander, Rollout, Ucb1, Widening,
};
use yomi_core::search::Budget;
use yomi_core::{Player, Rng};

use crate::game::Tubstap;
use crate::policy::AttackFirst;
use crate::state::{TbsMove, TbsState};

/// The paper's k(n) (eq. 2) read with logarithms to bases 1.4 and 1.2,
/// `⌊log₁.₄(n/40) + 2⌋` for n < 3000 and `⌊log₁.₂((n+2000)/45) − 11⌋` above, at least 1.
/// The two pieces meet at n = 3000 (k = 14), as the platform's implementation has it.
pub fn widening_log_base(n: u32) -> usize {
    let n = n as f64;
    let k = if n < 3000.0 {
        (n / 40.0).ln() / 1.4f64.ln() + 2.0
    } else {
        ((n + 2000.0) / 45.0).ln() / 1.2f64.ln() - 11.0
    };
    if k.is_finite() {
        k.floor().max(1.0) as usize
    } else {
        1
    }
}

/// Eq. 2 as printed in the paper and the spec, `log(n/40)/1.4 + 2` and
/// `log((n+2000)/45)/1.2 − 11` with natural logarithms, at least 1. The second piece is
/// negative for every n > 3000, so past 3000 visits only one child is considered.
pub fn widening_as_printed(n: u32) -> usize {
    let n = n as f64;
    let k = if n < 3000.0 {
        (n / 40.0).ln() / 1.4 + 2.0
    } else {
        ((n + 2000.0) / 45.0).ln() / 1.2 - 11.0
    };
    if k.is_finite() {
        k.floor().max(1.0) as usize
    } else {
        1
    }
}

/// Orders a node's children for progressive widening: attacks first in random order, then
/// the other actions (moves, ending the turn) in random order.
#[derive(Clone, Copy, Debug, Default)]
pub struct AttacksFirst;

impl Expander<Tubstap> for AttacksFirst {
    fn expand(
        &mut self,
        _game: &Tubstap,
        _state: &TbsState,
        _player: Player,
        slots: &mut [EdgeSlot<TbsMove>],
        rng: &mut Rng,
    ) {
        let mut attacks = 0;
        for i in 0..slots.len() {
            if slots[i].mv.is_attack() {
                slots.swap(attacks, i);
                attacks += 1;
            }
        }
        let (a, rest) = slots.split_at_mut(attacks);
        rng.shuffle(a);
        rng.shuffle(rest);
    }
}

/// The search UCT agents run.
pub type TbsMcts<X> = Mcts<Tubstap, Ucb1, Rollout<Tubstap, AttackFirst>, X>;

/// Settings of [`UctAgent`].
#[derive(Clone, Debug)]
pub struct UctParams {
    /// Simulations per turn (split over the units to act); the paper uses 6000.
    pub turn_iterations: Option<u64>,
    /// Time per turn (split likewise).
    pub turn_time: Option<Duration>,
    /// UCB exploration constant (1 is the paper's UCB1 on [0, 1] rewards).
    pub c: f64,
    /// The simulation policy.
    pub policy: AttackFirst,
    /// Progressive widening, or `None` for plain UCT.
    pub widening: Option<Widening>,
}

impl Default for UctParams {
    fn default() -> Self {
        UctParams {
            turn_iterations: Some(6000),
            turn_time: None,
            c: 1.0,
            policy: AttackFirst::default(),
            widening: None,
        }
    }
}

/// UCT over single unit actions with the budget split across the turn's units.
pub struct UctAgent<X: Expander<Tubstap>> {
    /// The search.
    pub mcts: TbsMcts<X>,
    params: UctParams,
    name: String,
    /// (side-turn, mover) of the turn being played and its unit count.
    current: Option<(u32, u8, u64)>,
}

/// Plain UCT (no widening).
pub fn uct_agent(params: UctParams, seed: u64, name: String) -> UctAgent<NoExpander> {
    UctAgent::new(params, NoExpander, seed, name)
}

/// UCT with progressive widening; `params.widening` defaults to [`widening_log_base`].
pub fn uct_pw_agent(mut params: UctParams, seed: u64, name: String) -> UctAgent<AttacksFirst> {
    if params.widening.is_none() {
        params.widening = Some(Widening::new(widening_log_base));
    }
    UctAgent::new(params, AttacksFirst, seed, name)
}

impl<X: Expander<Tubstap>> UctAgent<X> {
    /// An agent with the given expander.
    pub fn new(params: UctParams, expander: X, seed: u64, name: String) -> Self {
        let mcts_params = MctsParams {
            widening: params.widening.clone(),
            ..MctsParams::default()
        };
        let mcts = Mcts::new(
            mcts_params,
            Ucb1 { c: params.c },
            Rollout::new(params.policy),
            expander,
            seed,
        );
        UctAgent {
            mcts,
            params,
            name,
            current: None,
        }
    }

    /// The budget of one search in `state`: the turn's budget over its units.
    pub fn action_budget(&mut self, game: &Tubstap, state: &TbsState) -> Budget {
        let key = (state.turn(), state.mover());
        let units = match self.current {
            Some((t, m, u)) if (t, m) == key => u,
            _ => {
                let u = game.ready_count(state).max(1) as u64;
                self.current = Some((key.0, key.1, u));
                u
            }
        };
        Budget {
            iterations: self.params.turn_iterations.map(|n| (n / units).max(1)),
            time: self.params.turn_time.map(|t| t / units as u32),
        }
    }
}

impl<X: Expander<Tubstap>> Agent<Tubstap> for UctAgent<X> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &Tubstap,
        state: &TbsState,
        player: Player,
    ) -> Result<TbsMove, AgentError> {
        self.mcts.params.budget = self.action_budget(game, state);
        let result = self.mcts.search_for(game, state, player);
        self.mcts
            .choose(&result)
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))
    }

    fn observe(&mut self, game: &Tubstap, before: &TbsState, played: Played<'_, TbsMove>) {
        self.mcts.advance(game, before, played);
    }
}
