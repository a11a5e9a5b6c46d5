//! A pattern evaluation in the style of Buro's Logistello: the predicted final disc
//! difference for the side to move is a sum of table weights, one per pattern instance,
//! indexed by the pattern's squares (empty / mine / theirs, base 3), with one table per
//! game stage, plus a mobility term and a bias per stage.
//!
//! # Patterns
//! Eleven shapes, each read on all eight symmetric images of the board (so every instance
//! of a shape shares one table, and shapes that are their own mirror image get symmetric
//! weights by construction): the edge with both X-squares (10 squares), the 3 × 3 corner
//! (9), the 2 × 5 corner (10), rows 2, 3 and 4 (and so the columns), and the diagonals of
//! length 8, 7, 6, 5 and 4. Squares are read with `pext` and turned into a base-3 index by
//! a 1024-entry table, so an evaluation is 176 extractions and 88 table reads.
//!
//! # Stages
//! [`STAGES`] tables by empty squares: 1–10, 11–20, …, 51–60.
//!
//! # Weights file
//! `data/othello-eval-v1.bin`, made by [`crate::train`] and compiled into the crate
//! ([`PatternEval::shipped`]). Format (little endian): the magic `YOMIOTHW`, a `u32`
//! version (1), a `u32` stage count, a `u32` weight count per stage, an `f32` scale, then
//! a `u32` count of non-zero weights followed by that many `(u32 index, i16 value)` pairs
//! over the flattened `stage × weights` array; a weight is `value × scale` discs.

use std::sync::{Arc, OnceLock};

use thiserror::Error;
use yomi_core::search::Evaluator;
use yomi_core::{Game, Player, Rewards};

use crate::bitboard::{moves, pext, Symmetry, CORNERS};
use crate::game::{Othello, OthelloState};

/// The pattern masks, read on the board's eight images.
pub const PATTERNS: [(&str, u64); 11] = [
    ("edge+2x", 0xFF | 1 << 9 | 1 << 14),
    ("corner3x3", 0x0007_0707),
    ("corner2x5", 0x1F1F),
    ("row2", 0xFF00),
    ("row3", 0x00FF_0000),
    ("row4", 0xFF00_0000),
    ("diag8", 0x8040_2010_0804_0201),
    ("diag7", 0x0080_4020_1008_0402),
    ("diag6", 0x0000_8040_2010_0804),
    ("diag5", 0x0000_0080_4020_1008),
    ("diag4", 0x0000_0000_8040_2010),
];

/// Game stages (one weight table each).
pub const STAGES: usize = 6;

/// The stage of a position with `empties` empty squares.
#[inline]
pub const fn stage(empties: u32) -> usize {
    let s = (empties.saturating_sub(1) / 10) as usize;
    if s >= STAGES {
        STAGES - 1
    } else {
        s
    }
}

const fn pow3(n: u32) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Start of each pattern's table within a stage, and the stage's weight count
/// (pattern tables, then the mobility weight and the bias).
const OFFSETS: ([usize; 11], usize) = {
    let mut o = [0usize; 11];
    let mut at = 0;
    let mut i = 0;
    while i < 11 {
        o[i] = at;
        at += pow3(PATTERNS[i].1.count_ones());
        i += 1;
    }
    (o, at + 2)
};

/// Weights per stage.
pub const WEIGHTS_PER_STAGE: usize = OFFSETS.1;
const MOBILITY: usize = WEIGHTS_PER_STAGE - 2;
const BIAS: usize = WEIGHTS_PER_STAGE - 1;

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit i → 3^i).
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut v, mut p, mut i) = (0u32, 1u32, 0);
        while i < 10 {
            if b >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The features of a position for the side to move: 88 table indices (within a stage),
/// the mobility difference and the stage.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// Indices into the stage's weights, one per pattern instance.
    pub indices: [u32; 88],
    /// My legal moves minus the opponent's (corner moves count double).
    pub mobility: f32,
    /// The stage.
    pub stage: usize,
}

/// Computes the features of `p` (to move) against `o`.
#[inline]
pub fn features(p: u64, o: u64) -> Features {
    let mut indices = [0u32; 88];
    let mut k = 0;
    for sym in Symmetry::ALL {
        let (sp, so) = (sym.apply(p), sym.apply(o));
        for (i, &(_, mask)) in PATTERNS.iter().enumerate() {
            let idx = TERNARY[pext(sp, mask) as usize] as u32
                + 2 * TERNARY[pext(so, mask) as usize] as u32;
            indices[k] = OFFSETS.0[i] as u32 + idx;
            k += 1;
        }
    }
    let (mp, mo) = (moves(p, o), moves(o, p));
    let mobility = (mp.count_ones() + (mp & CORNERS).count_ones()) as f32
        - (mo.count_ones() + (mo & CORNERS).count_ones()) as f32;
    Features {
        indices,
        mobility,
        stage: stage((!(p | o)).count_ones()),
    }
}

/// Why a weights file could not be read.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// Not a weights file of this format.
    #[error("not a yomi Othello weights file (bad magic or version)")]
    Format,
    /// The stage or weight counts differ from this build's patterns.
    #[error("weights for {stages} stages × {per_stage} weights, this build uses {STAGES} × {WEIGHTS_PER_STAGE}")]
    Shape {
        /// Stages in the file.
        stages: usize,
        /// Weights per stage in the file.
        per_stage: usize,
    },
    /// The file ends early or an index is out of range.
    #[error("truncated or corrupt weights file")]
    Corrupt,
    /// Reading or writing failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

const MAGIC: &[u8; 8] = b"YOMIOTHW";
/// Quantisation step of the file, in discs.
const SCALE: f32 = 1.0 / 256.0;

/// The pattern evaluation: weights for every stage.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternEval {
    weights: Vec<f32>,
}

impl PatternEval {
    /// All weights zero (predicts 0 everywhere).
    pub fn zero() -> Self {
        PatternEval {
            weights: vec![0.0; STAGES * WEIGHTS_PER_STAGE],
        }
    }

    /// The weights shipped with the crate (`data/othello-eval-v1.bin`), parsed once.
    pub fn shipped() -> Arc<PatternEval> {
        static SHIPPED: OnceLock<Arc<PatternEval>> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Arc::new(
                    PatternEval::from_bytes(include_bytes!("../data/othello-eval-v1.bin"))
                        .expect("the shipped weights file is valid (checked by the tests)"),
                )
            })
            .clone()
    }

    /// The weights as one flat array (`stage * WEIGHTS_PER_STAGE + index`).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Mutable weights (for training).
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The weight indices (into [`PatternEval::weights`]) that a position's features use,
    /// with their multiplicity folded in by repetition; the mobility and bias indices last.
    pub fn active(f: &Features) -> ([u32; 88], u32, u32) {
        let base = (f.stage * WEIGHTS_PER_STAGE) as u32;
        let mut idx = f.indices;
        for i in idx.iter_mut() {
            *i += base;
        }
        (idx, base + MOBILITY as u32, base + BIAS as u32)
    }

    /// The predicted final disc difference for the side to move, from features.
    #[inline]
    pub fn score_features(&self, f: &Features) -> f32 {
        let w = &self.weights[f.stage * WEIGHTS_PER_STAGE..(f.stage + 1) * WEIGHTS_PER_STAGE];
        let mut s = w[BIAS] + w[MOBILITY] * f.mobility;
        for &i in &f.indices {
            s += w[i as usize];
        }
        s
    }

    /// The predicted final disc difference of `p` (to move) against `o`, clamped to
    /// [-64, 64].
    #[inline]
    pub fn score(&self, p: u64, o: u64) -> f32 {
        self.score_features(&features(p, o)).clamp(-64.0, 64.0)
    }

    /// The predicted final disc difference for the side to move in `state`.
    pub fn score_state(&self, state: &OthelloState) -> f32 {
        self.score(state.player(), state.opponent())
    }

    /// Reads the file format described in the [module documentation](self).
    ///
    /// # Errors
    /// [`WeightsError`] for a wrong magic, version or shape, or a truncated file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, WeightsError> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], WeightsError> {
            let s = bytes.get(at..at + n).ok_or(WeightsError::Corrupt)?;
            at += n;
            Ok(s)
        };
        if take(8)? != MAGIC {
            return Err(WeightsError::Format);
        }
        let u32_at = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if u32_at(take(4)?) != 1 {
            return Err(WeightsError::Format);
        }
        let stages = u32_at(take(4)?) as usize;
        let per_stage = u32_at(take(4)?) as usize;
        if stages != STAGES || per_stage != WEIGHTS_PER_STAGE {
            return Err(WeightsError::Shape { stages, per_stage });
        }
        let b = take(4)?;
        let scale = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if !(scale.is_finite() && scale > 0.0) {
            return Err(WeightsError::Corrupt);
        }
        let count = u32_at(take(4)?) as usize;
        let mut e = PatternEval::zero();
        for _ in 0..count {
            let b = take(6)?;
            let i = u32_at(b) as usize;
            let v = i16::from_le_bytes([b[4], b[5]]);
            *e.weights.get_mut(i).ok_or(WeightsError::Corrupt)? = v as f32 * scale;
        }
        if at != bytes.len() {
            return Err(WeightsError::Corrupt);
        }
        Ok(e)
    }

    /// Writes the file format (weights rounded to 1/256 disc; zero weights omitted).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&(STAGES as u32).to_le_bytes());
        out.extend_from_slice(&(WEIGHTS_PER_STAGE as u32).to_le_bytes());
        out.extend_from_slice(&SCALE.to_le_bytes());
        let q: Vec<(u32, i16)> = self
            .weights
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                (
                    i as u32,
                    (w / SCALE).round().clamp(-32767.0, 32767.0) as i16,
                )
            })
            .filter(|&(_, v)| v != 0)
            .collect();
        out.extend_from_slice(&(q.len() as u32).to_le_bytes());
        for (i, v) in q {
            out.extend_from_slice(&i.to_le_bytes());
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The weights rounded as the file stores them.
    pub fn quantized(&self) -> Self {
        PatternEval::from_bytes(&self.to_bytes()).expect("own format")
    }
}

/// Disc scores are mapped to rewards by `tanh(score / REWARD_SCALE)`.
pub const REWARD_SCALE: f32 = 12.0;

/// The pattern evaluation as a core [`Evaluator`]: `tanh(score / 12)` for the side to move
/// (within (-1, 1) before the end), the true returns at the end.
#[derive(Clone, Debug)]
pub struct OthelloEval(pub Arc<PatternEval>);

impl OthelloEval {
    /// The evaluation with the shipped weights.
    pub fn shipped() -> Self {
        OthelloEval(PatternEval::shipped())
    }
}

impl Evaluator<Othello> for OthelloEval {
    fn evaluate(&self, game: &Othello, state: &OthelloState) -> Rewards {
        if state.is_over() {
            return game.returns(state);
        }
        let v = (self.0.score_state(state) / REWARD_SCALE)
            .tanh()
            .clamp(-0.999, 0.999) as f64;
        let mut r = Rewards::zeros(2);
        let me = state.to_move();
        r.set(me, v);
        r.set(Player(1 - me.0), -v);
        r
    }
}
