//! UCT+dZ (Matsumoto & Kobayashi, eq. 2): `X̄ᵢ + Eᵢ + c·sqrt(2 ln n / nᵢ)`, where Eᵢ is a
//! linear discriminant of the static evaluations met during the playouts through move i.
//!
//! - [`DzRollout`] is a leaf evaluator wrapping a playout (uniform, or evaluation-greedy for
//!   _PlayZebra; optionally cut off after some moves for -break). Every non-terminal
//!   position the playout meets (the leaf itself included) is evaluated, and the
//!   evaluations are summed per **depth band** relative to the search root (for a root
//!   after S moves: positions after moves S+1..S+10 in band 0, S+11..S+20 in band 1, …;
//!   later positions go to the last band) and separately for positions where **black**
//!   and where **white** is to move, all from black's point of view. The sums are reported
//!   as [`yomi_core::search::mcts::LeafEvaluator::features`] (layout [`FEATURES`]) and
//!   core's search sums them into every edge on the path.
//! - [`UcbDz`] reads each child's summed features, turns them into the discriminant's
//!   inputs with [`dz_inputs`] (per-playout means, oriented for the player choosing:
//!   `own_k` = mean evaluation of band k's positions with the chooser to move, `opp_k` =
//!   those with the opponent to move, both from the chooser's side; plus `score` = X̄ᵢ)
//!   and adds `w·Eᵢ`, Eᵢ = `coefficients · inputs` from the [`DzTable`] row of the root's
//!   stage (the nearest stage listed).
//! - [`DzTable`] holds the coefficients per playout kind and root stage, in a small text
//!   file; the crate ships `data/dz-coefficients.txt`, fitted by [`crate::dzfit`].
//!
//! The paper's feature names map as: `score` = X̄ᵢ, `zeb1_S` (first player) = `own_0`
//! for a root at move S with black to move (so the first player chooses), `zeb2_S` =
//! `opp_0`, `zeb1_{S+10}` = `own_1`, and so on. The paper's evaluations are Zebra's (in
//! discs); ours are the crate's evaluator's rewards in (-1, 1) (`tanh(discs / 12)`).

use std::fmt;
use std::sync::{Arc, LazyLock};

use thiserror::Error;
use yomi_core::search::mcts::{ChildStats, LeafEvaluator, PlayoutPolicy};
use yomi_core::search::Evaluator;
use yomi_core::{Game, Player, Rewards, Rng, Turn};

use crate::{Othello, OthelloState};

/// Depth bands of 10 moves after the root (the paper's four bands for a root at move 20).
pub const BANDS: usize = 4;
/// Moves per depth band.
pub const BAND_MOVES: u32 = 10;
/// Features per playout: `[1, S, black-to-move sums per band, white-to-move sums per band]`
/// (1 counts the playouts that reported features; S is the root's move number, so that
/// selection can tell the root's stage from the sums).
pub const FEATURES: usize = 2 + 2 * BANDS;
/// Inputs of the discriminant: `[score, own_0..own_{BANDS-1}, opp_0..opp_{BANDS-1}]`.
pub const INPUTS: usize = 1 + 2 * BANDS;

/// The input names, in [`INPUTS`] order.
pub fn input_names() -> Vec<String> {
    let mut v = vec!["score".to_string()];
    v.extend((0..BANDS).map(|k| format!("own{k}")));
    v.extend((0..BANDS).map(|k| format!("opp{k}")));
    v
}

/// The moves played before `state` (discs on the board minus the four of the start).
#[inline]
pub fn move_number(state: &OthelloState) -> u32 {
    64 - state.empty_count() - 4
}

/// The band of a position after `moves` moves, for a root after `root` moves.
#[inline]
pub fn band(root: u32, moves: u32) -> usize {
    ((moves.saturating_sub(root + 1) / BAND_MOVES) as usize).min(BANDS - 1)
}

/// The discriminant's inputs for one child: per-playout means of the summed `features`
/// (layout [`FEATURES`]) oriented for `chooser`, and `score` = `total / visits`. `None`
/// when the child has no visits or no playout reported features.
#[inline]
pub fn dz_inputs(
    chooser: Player,
    visits: u32,
    total: f64,
    features: &[f64],
) -> Option<[f64; INPUTS]> {
    if visits == 0 || features.len() < FEATURES || features[0] <= 0.0 {
        return None;
    }
    let inv = 1.0 / features[0];
    let (own, opp, sign) = if chooser.0 == 0 {
        (2, 2 + BANDS, 1.0)
    } else {
        (2 + BANDS, 2, -1.0)
    };
    let mut x = [0.0; INPUTS];
    x[0] = total / visits as f64;
    for k in 0..BANDS {
        x[1 + k] = sign * features[own + k] * inv;
        x[1 + BANDS + k] = sign * features[opp + k] * inv;
    }
    Some(x)
}

/// The root's move number read back from summed features (`None` without any).
#[inline]
pub fn root_stage(features: &[f64]) -> Option<f64> {
    (features.len() >= 2 && features[0] > 0.0).then(|| features[1] / features[0])
}

/// Playouts that also sum the evaluations they meet (see the [module docs](self)).
pub struct DzRollout<P> {
    /// The move chooser ([`yomi_core::search::mcts::Uniform`], or evaluation-greedy).
    pub policy: P,
    /// The evaluation summed into the features (and the cut-off judge).
    pub evaluator: Arc<dyn Evaluator<Othello>>,
    /// Stop after this many moves and let the evaluator judge (-break); `None` plays on.
    pub cutoff: Option<u32>,
    root: u32,
    feats: [f64; FEATURES],
}

impl<P: Clone> Clone for DzRollout<P> {
    fn clone(&self) -> Self {
        DzRollout {
            policy: self.policy.clone(),
            evaluator: self.evaluator.clone(),
            cutoff: self.cutoff,
            root: self.root,
            feats: self.feats,
        }
    }
}

impl<P> DzRollout<P> {
    /// Playouts by `policy`, summing `evaluator`, cut off after `cutoff` moves if given.
    pub fn new(policy: P, evaluator: Arc<dyn Evaluator<Othello>>, cutoff: Option<u32>) -> Self {
        DzRollout {
            policy,
            evaluator,
            cutoff,
            root: 0,
            feats: [0.0; FEATURES],
        }
    }
}

impl<P: PlayoutPolicy<Othello>> LeafEvaluator<Othello> for DzRollout<P> {
    fn evaluate(
        &mut self,
        game: &Othello,
        state: &mut OthelloState,
        rng: &mut Rng,
        buf: &mut Vec<crate::Move>,
    ) -> Rewards {
        self.feats = [0.0; FEATURES];
        self.feats[0] = 1.0;
        self.feats[1] = self.root as f64;
        let limit = self.cutoff.unwrap_or(u32::MAX);
        let mut played = 0u32;
        loop {
            let Turn::Player(p) = game.turn(state) else {
                return game.returns(state);
            };
            let r = self.evaluator.evaluate(game, state);
            let k = band(self.root, move_number(state));
            let slot = if p.0 == 0 { 2 + k } else { 2 + BANDS + k };
            self.feats[slot] += r.get(Player(0));
            if played >= limit {
                return r;
            }
            match self.policy.choose(game, state, rng, buf) {
                Some(mv) => game.apply(state, mv),
                None => return game.returns(state),
            }
            played += 1;
        }
    }

    fn begin_search(&mut self, _: &Othello, root: &OthelloState) {
        self.root = move_number(root);
    }

    fn feature_count(&self) -> usize {
        FEATURES
    }

    fn features(&self) -> &[f64] {
        &self.feats
    }
}

/// The playout kinds that have their own coefficients.
pub const KINDS: [&str; 4] = ["random", "playzebra", "random-break", "playzebra-break"];

/// One row of coefficients: the root stage it was fitted at and the weights of the
/// [`INPUTS`] inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DzRow {
    /// Root move number S.
    pub stage: u32,
    /// Weights of `[score, own_0.., opp_0..]`.
    pub coef: [f64; INPUTS],
}

/// Why a coefficient file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("dz coefficients line {line}: {message}")]
pub struct DzError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Coefficient rows per playout kind ([`KINDS`]), sorted by stage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DzTable {
    rows: Vec<(String, DzRow)>,
}

/// The shipped coefficients (`data/dz-coefficients.txt`).
pub const SHIPPED_TEXT: &str = include_str!("../data/dz-coefficients.txt");

static SHIPPED: LazyLock<DzTable> =
    LazyLock::new(|| DzTable::parse(SHIPPED_TEXT).expect("the shipped dz coefficients parse"));

impl DzTable {
    /// The shipped table.
    pub fn shipped() -> &'static DzTable {
        &SHIPPED
    }

    /// Adds (or replaces) the row of `kind` at `row.stage`.
    pub fn set(&mut self, kind: &str, row: DzRow) {
        self.rows
            .retain(|(k, r)| !(k == kind && r.stage == row.stage));
        self.rows.push((kind.to_string(), row));
        self.rows
            .sort_by(|a, b| a.0.cmp(&b.0).then(a.1.stage.cmp(&b.1.stage)));
    }

    /// The rows of `kind`, by stage.
    pub fn rows(&self, kind: &str) -> Vec<DzRow> {
        self.rows
            .iter()
            .filter(|(k, _)| k == kind)
            .map(|(_, r)| *r)
            .collect()
    }

    /// Reads the text format: `#` comments, then lines
    /// `<kind> <stage> <score> <own0..own3> <opp0..opp3>`.
    ///
    /// # Errors
    /// [`DzError`] naming the line for an unknown kind, a bad number or a wrong count.
    pub fn parse(text: &str) -> Result<DzTable, DzError> {
        let mut table = DzTable::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| DzError {
                line: i + 1,
                message,
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 2 + INPUTS {
                return Err(err(format!(
                    "expected kind, stage and {INPUTS} coefficients, found {} fields",
                    fields.len()
                )));
            }
            if !KINDS.contains(&fields[0]) {
                return Err(err(format!(
                    "unknown playout kind {:?} (expected one of {KINDS:?})",
                    fields[0]
                )));
            }
            let stage: u32 = fields[1]
                .parse()
                .ok()
                .filter(|s| *s < 60)
                .ok_or_else(|| err(format!("stage {:?}: expected 0..59", fields[1])))?;
            let mut coef = [0.0; INPUTS];
            for (c, f) in coef.iter_mut().zip(&fields[2..]) {
                *c = f
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| err(format!("coefficient {f:?} is not a finite number")))?;
            }
            table.set(fields[0], DzRow { stage, coef });
        }
        Ok(table)
    }

    /// Writes the text format read by [`DzTable::parse`], with `header` as comments.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&format!("# kind stage {}\n", input_names().join(" ")));
        for (k, r) in &self.rows {
            out.push_str(&format!("{k} {}", r.stage));
            for c in r.coef {
                out.push_str(&format!(" {c:.6e}"));
            }
            out.push('\n');
        }
        out
    }

    /// The selection coefficients of `kind` (no rows: E = 0).
    pub fn coefficients(&self, kind: &str) -> DzCoefficients {
        DzCoefficients::new(&self.rows(kind))
    }
}

/// The most stages a [`DzCoefficients`] holds.
pub const MAX_STAGES: usize = 8;

/// Coefficient rows for selection, by stage (fixed size, so the rule is `Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DzCoefficients {
    rows: [DzRow; MAX_STAGES],
    len: usize,
}

impl DzCoefficients {
    /// From rows (at most [`MAX_STAGES`] are kept, sorted by stage).
    pub fn new(rows: &[DzRow]) -> Self {
        let mut c = DzCoefficients {
            rows: [DzRow {
                stage: 0,
                coef: [0.0; INPUTS],
            }; MAX_STAGES],
            len: rows.len().min(MAX_STAGES),
        };
        c.rows[..c.len].copy_from_slice(&rows[..c.len]);
        c.rows[..c.len].sort_by_key(|r| r.stage);
        c
    }

    /// No coefficients: E = 0 (plain UCB1, still collecting features).
    pub fn none() -> Self {
        Self::new(&[])
    }

    /// The row for a root at move `stage`: the nearest stage listed.
    #[inline]
    pub fn row(&self, stage: f64) -> Option<&DzRow> {
        self.rows[..self.len].iter().min_by(|a, b| {
            (a.stage as f64 - stage)
                .abs()
                .total_cmp(&(b.stage as f64 - stage).abs())
        })
    }

    /// Eᵢ for a child with these statistics (0 without features or rows).
    #[inline]
    pub fn value(&self, chooser: Player, visits: u32, total: f64, features: &[f64]) -> f64 {
        let (Some(x), Some(stage)) = (
            dz_inputs(chooser, visits, total, features),
            root_stage(features),
        ) else {
            return 0.0;
        };
        match self.row(stage) {
            Some(r) => r.coef.iter().zip(&x).map(|(c, v)| c * v).sum(),
            None => 0.0,
        }
    }
}

impl fmt::Display for DzCoefficients {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.rows[..self.len] {
            write!(f, "S={}: {:?}; ", r.stage, r.coef)?;
        }
        Ok(())
    }
}

/// Score given to unvisited children: tried first (as in core's UCB rules).
const UNVISITED: f64 = 1e9;

/// UCB with the +dZ term: `X̄ᵢ + w·Eᵢ + c·sqrt(2 ln n / nᵢ)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UcbDz {
    /// Exploration constant c.
    pub c: f64,
    /// Weight w of Eᵢ (1 in the paper).
    pub weight: f64,
    /// The discriminant's coefficients per root stage.
    pub coefficients: DzCoefficients,
}

impl yomi_core::search::mcts::Selection for UcbDz {
    const READS_EXPANDER: bool = false;
    const READS_FEATURES: bool = true;
    type NodeTerm = f64;
    #[inline]
    fn prepare(&self, visits: u32) -> f64 {
        yomi_core::search::mcts::select::two_ln(visits)
    }
    #[inline]
    fn score(&self, two_ln_n: f64, child: &ChildStats<'_>) -> f64 {
        if child.visits == 0 {
            return UNVISITED;
        }
        let inv_n = 1.0 / child.visits as f64;
        let e = self
            .coefficients
            .value(child.chooser, child.visits, child.total, child.features);
        child.total * inv_n + self.weight * e + self.c * (two_ln_n * inv_n).sqrt()
    }
}
