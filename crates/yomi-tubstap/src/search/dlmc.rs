//! Depth-limited Monte Carlo (DLMC) and the paper's methods built on it.
//!
//! - **DLMC**: sample `m` random whole-turn action sequences (every unit to act, in random
//!   order, a uniformly random action each); from the position after each, run `n`
//!   simulations of `d` side-turns with the simulation policy and sum g at the cut-off;
//!   play the sequence with the highest sum.
//! - **Method 1** (DLMC + attack search): the attack-action search's best sequence joins
//!   the `m` samples before the simulations.
//! - **Method 2** (DLMC + local adjustment): after the simulations take the top `j`
//!   sequences; in each, replace the last `k` actions by the attack-action search's best
//!   sequence (of at most `k` attacks) from the position after the first ones; simulate
//!   those `j` new sequences the same way; play the best of all.
//! - **Method 1+2**: method 2 whose samples include method 1's attack-search sequence.
//!
//! Under a per-turn time limit simulations run round-robin over the candidates and the
//! best mean is played, so a limit that stops the simulations early compares candidates
//! on equal (±1) counts.

use std::time::{Duration, Instant};

use yomi_core::agent::{Agent, AgentError};
use yomi_core::{Game, Player, Rng};

use crate::eval::g;
use crate::game::Tubstap;
use crate::policy::{play_turns, random_unit_action, AttackFirst};
use crate::search::attack::attack_search;
use crate::state::{TbsMove, TbsState};

/// Which of the paper's DLMC variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Plain DLMC.
    Dlmc,
    /// Method 1: DLMC with the attack search's best sequence among the samples.
    AttackSearch,
    /// Method 2: DLMC with local adjustment of the top sequences.
    LocalAdjust,
    /// Method 1+2.
    Both,
}

/// Parameters; the defaults are the paper's DLMC (table 2: m = 200, n = 100; d = 2, l = 4,
/// j = 10, k = 4, simulations attack with probability 0.8).
#[derive(Clone, Debug)]
pub struct DlmcParams {
    /// The variant.
    pub method: Method,
    /// m: sampled whole-turn sequences.
    pub samples: usize,
    /// n: simulations per sequence.
    pub sims: usize,
    /// d: side-turns per simulation.
    pub depth: u32,
    /// l: longest attack sequence of method 1's attack search.
    pub attack_len: usize,
    /// j: sequences adjusted by method 2.
    pub top: usize,
    /// k: trailing actions method 2 replaces.
    pub replace: usize,
    /// The simulation policy.
    pub policy: AttackFirst,
    /// Per-turn time limit, if any.
    pub time: Option<Duration>,
}

impl Default for DlmcParams {
    fn default() -> Self {
        DlmcParams {
            method: Method::Dlmc,
            samples: 200,
            sims: 100,
            depth: 2,
            attack_len: 4,
            top: 10,
            replace: 4,
            policy: AttackFirst::default(),
            time: None,
        }
    }
}

impl DlmcParams {
    /// The paper's parameters for `method` (table 2: DLMC 200/100, methods 1 and 2 150/100,
    /// method 1+2 100/100).
    pub fn paper(method: Method) -> Self {
        let samples = match method {
            Method::Dlmc => 200,
            Method::AttackSearch | Method::LocalAdjust => 150,
            Method::Both => 100,
        };
        DlmcParams {
            method,
            samples,
            ..DlmcParams::default()
        }
    }
}

/// One candidate sequence: its actions (a range of the planner's move store), the position
/// after it, and its simulation results.
#[derive(Clone, Debug)]
struct Candidate {
    start: usize,
    len: usize,
    after: TbsState,
    sum: f64,
    sims: u32,
}

/// A planned turn with statistics.
#[derive(Clone, Debug, Default)]
pub struct TurnPlan {
    /// The unit actions to play.
    pub moves: Vec<TbsMove>,
    /// Mean g over the chosen sequence's simulations.
    pub value: f64,
    /// Candidate sequences considered.
    pub candidates: usize,
    /// Simulations run (each `d` side-turns long).
    pub simulations: u64,
    /// Wall-clock time spent planning.
    pub elapsed: Duration,
}

/// The DLMC planner: owns its random generator and buffers.
pub struct Dlmc {
    /// The parameters.
    pub params: DlmcParams,
    rng: Rng,
    buf: Vec<TbsMove>,
    store: Vec<TbsMove>,
    cands: Vec<Candidate>,
}

impl Dlmc {
    /// A planner whose random choices are fixed by `seed`.
    pub fn new(params: DlmcParams, seed: u64) -> Self {
        Dlmc {
            params,
            rng: Rng::seed_from_u64(seed),
            buf: Vec::new(),
            store: Vec::new(),
            cands: Vec::new(),
        }
    }

    /// Plays random unit actions until the turn ends, recording them.
    fn sample(&mut self, game: &Tubstap, state: &TbsState) {
        let start = self.store.len();
        let mut s = state.clone();
        let (turn, mover) = (state.turn(), state.mover());
        while !game.over(&s) && s.turn() == turn && s.mover() == mover {
            match random_unit_action(game, &s, &mut self.rng, &mut self.buf) {
                Some(mv) => {
                    game.apply(&mut s, mv);
                    self.store.push(mv);
                }
                None => break,
            }
        }
        self.push_candidate(start, s);
    }

    fn push_candidate(&mut self, start: usize, after: TbsState) {
        self.cands.push(Candidate {
            start,
            len: self.store.len() - start,
            after,
            sum: 0.0,
            sims: 0,
        });
    }

    /// Runs up to `sims` simulations for each candidate in `range`, round-robin, stopping at
    /// `deadline`. Returns the number run.
    fn simulate(
        &mut self,
        game: &Tubstap,
        me: u8,
        range: std::ops::Range<usize>,
        deadline: Option<Instant>,
    ) -> u64 {
        let mut done = 0u64;
        let depth = self.params.depth;
        for _ in 0..self.params.sims {
            for c in range.clone() {
                if done % 32 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    return done;
                }
                let mut s = self.cands[c].after.clone();
                play_turns(
                    game,
                    &mut s,
                    &mut self.params.policy,
                    depth,
                    &mut self.rng,
                    &mut self.buf,
                );
                let cand = &mut self.cands[c];
                cand.sum += g(game, &s, me);
                cand.sims += 1;
                done += 1;
            }
        }
        done
    }

    fn mean(c: &Candidate) -> f64 {
        if c.sims == 0 {
            f64::NEG_INFINITY
        } else {
            c.sum / c.sims as f64
        }
    }

    /// Plans the rest of the mover's turn in `state`.
    pub fn plan(&mut self, game: &Tubstap, state: &TbsState) -> TurnPlan {
        let start = Instant::now();
        let p = self.params.clone();
        let me = state.mover();
        self.store.clear();
        self.cands.clear();
        if game.over(state) {
            return TurnPlan::default();
        }
        let at = |frac: f64| p.time.map(|t| start + t.mul_f64(frac));
        let with_attack = matches!(p.method, Method::AttackSearch | Method::Both);
        let adjust = matches!(p.method, Method::LocalAdjust | Method::Both);
        // I. m random sequences.
        for _ in 0..p.samples.max(1) {
            self.sample(game, state);
        }
        // Method 1, II: the attack search's best sequence joins them.
        if with_attack {
            let plan = attack_search(game, state, p.attack_len, at(0.2));
            let begin = self.store.len();
            let mut s = state.clone();
            for &mv in &plan.moves {
                game.apply(&mut s, mv);
            }
            self.store.extend_from_slice(&plan.moves);
            self.push_candidate(begin, s);
        }
        // II. n simulations of d turns each.
        let first = self.cands.len();
        let share = if adjust {
            first as f64 / (first + p.top) as f64
        } else {
            1.0
        };
        let mut sims = self.simulate(game, me, 0..first, at(share));
        // Method 2, III-V: adjust the top j and simulate them.
        if adjust {
            let mut order: Vec<usize> = (0..first).collect();
            order.sort_by(|&a, &b| {
                Self::mean(&self.cands[b]).total_cmp(&Self::mean(&self.cands[a]))
            });
            for &c in order.iter().take(p.top) {
                let (begin, len) = (self.cands[c].start, self.cands[c].len);
                let keep = len.saturating_sub(p.replace);
                let mut s = state.clone();
                let new_start = self.store.len();
                for i in 0..keep {
                    let mv = self.store[begin + i];
                    game.apply(&mut s, mv);
                    self.store.push(mv);
                }
                if !game.over(&s) && s.turn() == state.turn() {
                    let plan = attack_search(game, &s, p.replace, at(share + (1.0 - share) * 0.5));
                    for &mv in &plan.moves {
                        game.apply(&mut s, mv);
                    }
                    self.store.extend_from_slice(&plan.moves);
                }
                self.push_candidate(new_start, s);
            }
            sims += self.simulate(game, me, first..self.cands.len(), at(1.0));
        }
        // VI. the best mean (sums over equal counts).
        let best = (0..self.cands.len())
            .max_by(|&a, &b| Self::mean(&self.cands[a]).total_cmp(&Self::mean(&self.cands[b])))
            .expect("at least one candidate");
        let c = &self.cands[best];
        TurnPlan {
            moves: self.store[c.start..c.start + c.len].to_vec(),
            value: Self::mean(c),
            candidates: self.cands.len(),
            simulations: sims,
            elapsed: start.elapsed(),
        }
    }
}

/// Plays whole-turn plans one unit action at a time: plans when its turn starts (or when
/// the position is not the one its plan expects) and then follows the plan.
pub struct PlanAgent<P> {
    planner: P,
    name: String,
    plan: Vec<TbsMove>,
    next: usize,
    expected: Option<TbsState>,
    /// The last plan's statistics.
    pub last: TurnPlan,
}

/// Something that plans the rest of a turn.
pub trait TurnPlanner: Send {
    /// The plan for the mover's turn in `state`.
    fn plan_turn(&mut self, game: &Tubstap, state: &TbsState) -> TurnPlan;
}

impl TurnPlanner for Dlmc {
    fn plan_turn(&mut self, game: &Tubstap, state: &TbsState) -> TurnPlan {
        self.plan(game, state)
    }
}

/// The attack-action search as a planner.
pub struct AttackPlanner {
    /// l: longest attack sequence.
    pub max_len: usize,
    /// Per-turn time limit.
    pub time: Option<Duration>,
}

impl TurnPlanner for AttackPlanner {
    fn plan_turn(&mut self, game: &Tubstap, state: &TbsState) -> TurnPlan {
        let start = Instant::now();
        let p = attack_search(game, state, self.max_len, self.time.map(|t| start + t));
        TurnPlan {
            moves: p.moves,
            value: p.value,
            candidates: p.sequences as usize,
            simulations: 0,
            elapsed: start.elapsed(),
        }
    }
}

impl<P: TurnPlanner> PlanAgent<P> {
    /// An agent named `name` (its spec string) playing `planner`'s plans.
    pub fn new(planner: P, name: String) -> Self {
        PlanAgent {
            planner,
            name,
            plan: Vec::new(),
            next: 0,
            expected: None,
            last: TurnPlan::default(),
        }
    }
}

impl<P: TurnPlanner> Agent<Tubstap> for PlanAgent<P> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &Tubstap,
        state: &TbsState,
        player: Player,
    ) -> Result<TbsMove, AgentError> {
        if game.over(state) || state.mover() != player.0 {
            return Err(AgentError::NoMove(format!("{player} is not to move")));
        }
        let follow = self.expected.as_ref() == Some(state)
            && self.next < self.plan.len()
            && game.illegal_reason(state, &self.plan[self.next]).is_none();
        if !follow {
            self.last = self.planner.plan_turn(game, state);
            self.plan = std::mem::take(&mut self.last.moves);
            self.next = 0;
            if self.plan.is_empty() || game.illegal_reason(state, &self.plan[0]).is_some() {
                self.plan = vec![TbsMove::EndTurn];
            }
        }
        let mv = self.plan[self.next];
        self.next += 1;
        let mut after = state.clone();
        game.apply(&mut after, mv);
        self.expected = Some(after);
        Ok(mv)
    }
}
