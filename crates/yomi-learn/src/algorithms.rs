//! The learning rules of the GGP paper, one training state at a time:
//!
//! - **AL**, apprenticeship learning (eq. 7): `θ ← θ + α ψ(s, Â*(s))`, with
//!   `ψ(s, a) = ∇ log π(s, a) = φ(s, a) − Σ_b π(s, b) φ(s, b)` (eq. 8).
//! - **SB**, policy-gradient simulation balancing (Algorithm 1): `V` = mean of z over M
//!   simulations with π_θ from s₁; `g = (1/N) Σ_j z_j Σ_t ψ(s_t, a_t)` over N more
//!   simulations; `θ ← θ + α (V̂*(s₁) − V) g`.
//! - **AL+SB** (Algorithm 2): the same with each simulation's term divided by its length T
//!   (`g = Σ_j z_j/(N T_j) Σ_t ψ(s_t, a_t)`), plus `β ψ(s₁, Â*(s₁))`.
//!
//! Rewards z are the final rewards of the player to move at s₁, mapped to `[-1, 1]`; V̂* is on
//! the same scale.
//!
//! **ψ, not φ.** The seed's pseudo-code prints `φ(s_t, a_t)` inside g; the policy-gradient
//! derivation it cites (Silver & Tesauro 2009, eq. 9 here: `g(s) = ∇ E_π[z | s]`) needs the
//! score function `ψ = ∇ log π`, which is what is implemented.
//!
//! **Whose moves.** Both players' moves are drawn from the same π_θ, so the exact gradient of
//! the first player's expected reward sums ψ over every move of the simulation with the same
//! sign ([`GradientSign::Exact`], the default; `tests` checks it against the gradient of the
//! exactly computed expectation). [`GradientSign::MoverRelative`] gives the other players'
//! moves the opposite sign (each move judged by its own mover's reward), the reading the
//! project's spec notes; it is kept as an option for comparison.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use yomi_core::{Game, Player, Rng, Turn};

use crate::features::{atoms_into, FeatureGame};
use crate::policy::{to_unit, LinearPolicy};

/// One training or test state: the position, the player to move, the approximate best
/// move Â*(s) and the approximate minimax value V̂*(s) in `[-1, 1]` for the player to move.
pub struct Sample<G: Game> {
    /// The position.
    pub state: G::State,
    /// The player to move.
    pub mover: Player,
    /// Â*(s).
    pub best: G::Move,
    /// V̂*(s), in `[-1, 1]`, for `mover`.
    pub value: f64,
}

impl<G: Game> Clone for Sample<G> {
    fn clone(&self) -> Self {
        Sample {
            state: self.state.clone(),
            mover: self.mover,
            best: self.best,
            value: self.value,
        }
    }
}

/// A learning method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// Apprenticeship learning.
    #[serde(rename = "al")]
    Al,
    /// Policy-gradient simulation balancing (Algorithm 1).
    #[serde(rename = "sb")]
    Sb,
    /// The paper's combination (Algorithm 2).
    #[serde(rename = "al+sb")]
    AlSb,
}

impl Method {
    /// The three methods, in the paper's order.
    pub const ALL: [Method; 3] = [Method::Al, Method::Sb, Method::AlSb];

    /// A name usable in file names (`al`, `sb`, `alsb`).
    pub fn file_stem(self) -> &'static str {
        match self {
            Method::Al => "al",
            Method::Sb => "sb",
            Method::AlSb => "alsb",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Al => "AL",
            Method::Sb => "SB",
            Method::AlSb => "AL+SB",
        })
    }
}

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "al" => Ok(Method::Al),
            "sb" => Ok(Method::Sb),
            "al+sb" | "alsb" | "al-sb" => Ok(Method::AlSb),
            _ => Err(format!("unknown method {s:?}: al, sb or al+sb")),
        }
    }
}

/// How the other players' moves enter the simulation-balancing gradient.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GradientSign {
    /// Every move with the same sign: the exact gradient of the first player's expected
    /// reward when all players use π_θ.
    #[default]
    Exact,
    /// The other players' moves with the opposite sign.
    MoverRelative,
}

/// The learning parameters; the defaults are the paper's (α = β = 0.05, M = N = 100).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LearnParams {
    /// Learning rate α (AL, SB, and the SB part of AL+SB).
    pub alpha: f64,
    /// Learning rate β of the AL part of AL+SB.
    pub beta: f64,
    /// Simulations M that estimate V.
    pub m: u32,
    /// Simulations N that estimate the gradient g.
    pub n: u32,
    /// See [`GradientSign`].
    pub sign: GradientSign,
    /// Moves after which a simulation stops (scored by the game's returns there), against
    /// games that do not end.
    pub max_moves: u32,
}

impl Default for LearnParams {
    fn default() -> Self {
        LearnParams {
            alpha: 0.05,
            beta: 0.05,
            m: 100,
            n: 100,
            sign: GradientSign::Exact,
            max_moves: 10_000,
        }
    }
}

/// One recorded decision of a simulation (only decisions among two or more moves).
#[derive(Clone, Copy)]
struct Step {
    atoms: (u32, u32),
    moves: (u32, u32),
    chosen: u32,
    player: u8,
}

/// A policy being learned, with the scratch space its updates need (reused for every
/// training state: no allocation once warm).
pub struct Trainer<G: FeatureGame> {
    /// The policy being learned.
    pub policy: LinearPolicy,
    /// The learning parameters.
    pub params: LearnParams,
    bounds: (f64, f64),
    players: usize,
    grad: Vec<f64>,
    /// Rows (move ids) of `grad` that are non-zero, and a flag per row.
    touched: Vec<u32>,
    row_touched: Vec<bool>,
    // Scratch for one decision.
    atoms: Vec<u32>,
    moves: Vec<G::Move>,
    ids: Vec<u32>,
    probs: Vec<f64>,
    joint: Vec<G::Move>,
    // The trajectory of the current simulation.
    steps: Vec<Step>,
    t_atoms: Vec<u32>,
    t_ids: Vec<u32>,
    t_probs: Vec<f64>,
}

impl<G: FeatureGame> Trainer<G> {
    /// A trainer starting from `policy` (the paper starts from θ = 0).
    ///
    /// # Panics
    /// When `policy` does not fit `game` (check with [`LinearPolicy::fits`]).
    pub fn new(game: &G, policy: LinearPolicy, params: LearnParams) -> Self {
        assert!(
            policy.fits(game),
            "the policy's dimensions do not fit the game"
        );
        let facts = game.facts();
        let n = policy.weights().len();
        let rows = policy.moves();
        Trainer {
            policy,
            params,
            bounds: facts.reward_bounds,
            players: facts.players,
            grad: vec![0.0; n],
            touched: Vec::new(),
            row_touched: vec![false; rows],
            atoms: Vec::new(),
            moves: Vec::new(),
            ids: Vec::new(),
            probs: Vec::new(),
            joint: Vec::new(),
            steps: Vec::new(),
            t_atoms: Vec::new(),
            t_ids: Vec::new(),
            t_probs: Vec::new(),
        }
    }

    /// One update of `method` on one training state.
    pub fn step(&mut self, method: Method, game: &G, sample: &Sample<G>, rng: &mut Rng) {
        match method {
            Method::Al => self.al_step(game, sample),
            Method::Sb => self.sb_step(game, sample, false, 0.0, rng),
            Method::AlSb => self.sb_step(game, sample, true, self.params.beta, rng),
        }
    }

    /// AL (eq. 7): `θ ← θ + α ψ(s, Â*(s))`.
    pub fn al_step(&mut self, game: &G, sample: &Sample<G>) {
        self.clear_grad();
        if self.add_psi_of_best(game, sample, 1.0) {
            self.apply_grad(self.params.alpha);
        }
        self.clear_grad();
    }

    /// Simulation balancing on one state: Algorithm 1 (`normalise = false`, `beta = 0`) or
    /// Algorithm 2 (`normalise = true`, with the AL term weighted by `beta`).
    pub fn sb_step(
        &mut self,
        game: &G,
        sample: &Sample<G>,
        normalise: bool,
        beta: f64,
        rng: &mut Rng,
    ) {
        let p1 = sample.mover;
        let m = self.params.m.max(1);
        let mut v = 0.0;
        for _ in 0..m {
            v += self.simulate(game, &sample.state, p1, rng, false).0;
        }
        v /= m as f64;
        self.clear_grad();
        let n = self.params.n.max(1);
        for _ in 0..n {
            let (z, t) = self.simulate(game, &sample.state, p1, rng, true);
            let mut coef = z / n as f64;
            if normalise {
                coef /= t.max(1) as f64;
            }
            self.add_trajectory(p1, coef);
        }
        // g is in `grad`; scale it by α(V̂* − V) and add the AL term (at the same θ).
        let scale = self.params.alpha * (sample.value - v);
        for &row in &self.touched {
            let a = self.policy.atoms();
            let r = row as usize * a..(row as usize + 1) * a;
            for g in &mut self.grad[r] {
                *g *= scale;
            }
        }
        if beta != 0.0 {
            self.add_psi_of_best(game, sample, beta);
        }
        self.apply_grad(1.0);
        self.clear_grad();
    }

    /// Plays one simulation from `state` with π_θ for every player; returns z (the final
    /// reward of `p1` in `[-1, 1]`) and the number of moves played T. With `record` the
    /// decisions are kept for [`Trainer::add_trajectory`].
    pub fn simulate(
        &mut self,
        game: &G,
        state: &G::State,
        p1: Player,
        rng: &mut Rng,
        record: bool,
    ) -> (f64, u32) {
        self.steps.clear();
        self.t_atoms.clear();
        self.t_ids.clear();
        self.t_probs.clear();
        let mut s = state.clone();
        let mut t = 0u32;
        while t < self.params.max_moves {
            match game.turn(&s) {
                Turn::Terminal => break,
                Turn::Player(p) => {
                    let mut moves = std::mem::take(&mut self.moves);
                    game.legal_moves(&s, &mut moves);
                    let mv = if moves.is_empty() {
                        None
                    } else {
                        Some(self.decide(game, &s, p, &moves, rng, record))
                    };
                    self.moves = moves;
                    match mv {
                        Some(mv) => game.apply(&mut s, mv),
                        None => break,
                    }
                }
                Turn::Simultaneous => {
                    let mut joint = std::mem::take(&mut self.joint);
                    let mut moves = std::mem::take(&mut self.moves);
                    joint.clear();
                    for p in 0..self.players {
                        let pl = Player(p as u8);
                        game.legal_moves_of(&s, pl, &mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        joint.push(self.decide(game, &s, pl, &moves, rng, record));
                    }
                    let complete = joint.len() == self.players;
                    if complete {
                        game.apply_joint(&mut s, &joint);
                    }
                    self.joint = joint;
                    self.moves = moves;
                    if !complete {
                        break;
                    }
                }
            }
            t += 1;
        }
        let z = to_unit(self.bounds, game.returns(&s).get(p1));
        (z, t)
    }

    /// Draws `player`'s move among `moves` from π_θ, recording the decision.
    fn decide(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
        record: bool,
    ) -> G::Move {
        if moves.len() == 1 {
            // ψ is zero for a forced move.
            return moves[0];
        }
        atoms_into(game, state, &mut self.atoms);
        self.ids.clear();
        self.ids
            .extend(moves.iter().map(|&m| game.move_id(state, player, m)));
        self.policy
            .probabilities(&self.atoms, &self.ids, &mut self.probs);
        let k = LinearPolicy::sample(&self.probs, rng);
        if record {
            let a0 = self.t_atoms.len() as u32;
            self.t_atoms.extend_from_slice(&self.atoms);
            let m0 = self.t_ids.len() as u32;
            self.t_ids.extend_from_slice(&self.ids);
            self.t_probs.extend_from_slice(&self.probs);
            self.steps.push(Step {
                atoms: (a0, self.t_atoms.len() as u32),
                moves: (m0, self.t_ids.len() as u32),
                chosen: k as u32,
                player: player.0,
            });
        }
        moves[k]
    }

    /// Adds `coef · Σ_t ±ψ(s_t, a_t)` of the last recorded simulation to the gradient.
    fn add_trajectory(&mut self, p1: Player, coef: f64) {
        let steps = std::mem::take(&mut self.steps);
        for st in &steps {
            let c = if self.params.sign == GradientSign::MoverRelative && st.player != p1.0 {
                -coef
            } else {
                coef
            };
            let (a0, a1) = (st.atoms.0 as usize, st.atoms.1 as usize);
            let (m0, m1) = (st.moves.0 as usize, st.moves.1 as usize);
            for i in m0..m1 {
                let q = c * (f64::from(u8::from(i - m0 == st.chosen as usize)) - self.t_probs[i]);
                let row = self.t_ids[i];
                self.add_row(row, a0, a1, q);
            }
        }
        self.steps = steps;
    }

    /// Adds `q` to the gradient at (x, row) for each atom x in `t_atoms[a0..a1]`.
    #[inline]
    fn add_row(&mut self, row: u32, a0: usize, a1: usize, q: f64) {
        let a = self.policy.atoms();
        if !self.row_touched[row as usize] {
            self.row_touched[row as usize] = true;
            self.touched.push(row);
        }
        let base = row as usize * a;
        for &x in &self.t_atoms[a0..a1] {
            self.grad[base + x as usize] += q;
        }
    }

    /// Adds `weight · ψ(s, Â*(s))` to the gradient, at the current θ. False when there is
    /// nothing to add (the best move is not legal for the mover, or it is forced).
    fn add_psi_of_best(&mut self, game: &G, sample: &Sample<G>, weight: f64) -> bool {
        let mut moves = std::mem::take(&mut self.moves);
        yomi_core::agent::moves_of(game, &sample.state, sample.mover, &mut moves);
        let found = moves.iter().position(|&m| m == sample.best);
        let ok = moves.len() > 1 && found.is_some();
        if ok {
            let k = found.expect("checked");
            self.t_atoms.clear();
            atoms_into(game, &sample.state, &mut self.t_atoms);
            self.t_ids.clear();
            let ids = &mut self.t_ids;
            ids.extend(
                moves
                    .iter()
                    .map(|&m| game.move_id(&sample.state, sample.mover, m)),
            );
            self.policy
                .probabilities(&self.t_atoms, &self.t_ids, &mut self.t_probs);
            let na = self.t_atoms.len();
            for i in 0..moves.len() {
                let q = weight * (f64::from(u8::from(i == k)) - self.t_probs[i]);
                let row = self.t_ids[i];
                self.add_row(row, 0, na, q);
            }
        }
        self.moves = moves;
        ok
    }

    /// θ ← θ + scale · grad, over the touched rows.
    fn apply_grad(&mut self, scale: f64) {
        let a = self.policy.atoms();
        let w = self.policy.weights_mut();
        for &row in &self.touched {
            let r = row as usize * a..(row as usize + 1) * a;
            for (w, g) in w[r.clone()].iter_mut().zip(&self.grad[r]) {
                *w += scale * g;
            }
        }
    }

    /// Zeroes the touched rows of the gradient.
    fn clear_grad(&mut self) {
        let a = self.policy.atoms();
        for &row in &self.touched {
            self.grad[row as usize * a..(row as usize + 1) * a].fill(0.0);
            self.row_touched[row as usize] = false;
        }
        self.touched.clear();
    }

    /// The current gradient buffer (for tests: what the last update would add, before it is
    /// cleared). Exposed through [`Trainer::sb_gradient`].
    fn grad_snapshot(&self) -> Vec<f64> {
        self.grad.clone()
    }

    /// The estimate g of Algorithm 1 (`normalise = false`) or 2 from `n` simulations of
    /// `sample`'s state, without changing θ (for tests and diagnostics).
    pub fn sb_gradient(
        &mut self,
        game: &G,
        sample: &Sample<G>,
        n: u32,
        normalise: bool,
        rng: &mut Rng,
    ) -> Vec<f64> {
        self.clear_grad();
        for _ in 0..n.max(1) {
            let (z, t) = self.simulate(game, &sample.state, sample.mover, rng, true);
            let mut coef = z / n.max(1) as f64;
            if normalise {
                coef /= t.max(1) as f64;
            }
            self.add_trajectory(sample.mover, coef);
        }
        let g = self.grad_snapshot();
        self.clear_grad();
        g
    }

    /// ψ(s, a) for `sample`'s state and move `a` (for tests).
    pub fn psi(&mut self, game: &G, sample: &Sample<G>) -> Vec<f64> {
        self.clear_grad();
        self.add_psi_of_best(game, sample, 1.0);
        let g = self.grad_snapshot();
        self.clear_grad();
        g
    }
}
