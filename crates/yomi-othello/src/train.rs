//! Training the pattern evaluation from data the project generates itself.
//!
//! 1. **Self-play with noise.** Games start with `random_plies` uniformly random moves;
//!    after that each side plays the move whose resulting position the current evaluation
//!    likes best (one ply, ties at random), or with probability `epsilon` a random move.
//!    The first round plays with all-zero weights (so it is random play); later rounds use
//!    the weights fitted so far.
//! 2. **Labels.** Every position with at most `exact_empties` empty squares is solved
//!    exactly ([`Solver`]). Earlier positions of a game are labelled with the exact value
//!    of the game's first position with `exact_empties` empties (converted to their side
//!    to move): the game's result under perfect endgame play from there. (Labelling the
//!    midgame by a deeper search with the current evaluation is not done yet.)
//! 3. **Fit.** Stochastic gradient descent on the squared error of the predicted final disc
//!    difference, over all samples of the training games; games are split into training
//!    and held-out sets, and the held-out error is reported separately for the exactly
//!    solved positions.

use std::time::Instant;

use yomi_core::rng::derive_seed;
use yomi_core::Rng;

use crate::bitboard::{flips, moves};
use crate::eval::{features, PatternEval};
use crate::game::OthelloState;
use crate::solver::Solver;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Self-play games per round.
    pub games_per_round: usize,
    /// Rounds of (play, fit); the first plays randomly.
    pub rounds: usize,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Uniformly random moves at the start of each game.
    pub random_plies: u32,
    /// Probability of a random move after the opening.
    pub epsilon: f64,
    /// Passes over the training samples per fit.
    pub epochs: usize,
    /// Step size (in units of the prediction error per update).
    pub learning_rate: f32,
    /// L2 shrinkage of the active weights per update (pulls rarely seen patterns to 0).
    pub l2: f32,
    /// One game in this many is held out.
    pub holdout_every: usize,
    /// Worker threads for self-play and solving.
    pub threads: usize,
    /// Seed of everything random.
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games_per_round: 5000,
            rounds: 3,
            exact_empties: 14,
            random_plies: 10,
            epsilon: 0.1,
            epochs: 6,
            learning_rate: 0.2,
            l2: 0.0,
            holdout_every: 10,
            threads: 2,
            seed: yomi_core::rng::DEFAULT_SEED,
        }
    }
}

/// One labelled position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Final disc difference for the side to move (exact or game result).
    pub label: f32,
    /// True when the label is this position's exact value.
    pub exact: bool,
    /// The game it came from (for the held-out split).
    pub game: u32,
}

/// Mean absolute and root-mean-square error over a set of samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ErrorStats {
    /// Samples.
    pub count: usize,
    /// Mean absolute error, discs.
    pub mae: f64,
    /// Root-mean-square error, discs.
    pub rmse: f64,
    /// Mean absolute error of always predicting 0, for comparison.
    pub mae_zero: f64,
}

/// Errors of `eval` on `samples` (those with `filter` true).
pub fn error_stats(
    eval: &PatternEval,
    samples: &[Sample],
    filter: impl Fn(&Sample) -> bool,
) -> ErrorStats {
    let (mut n, mut abs, mut sq, mut zero) = (0usize, 0f64, 0f64, 0f64);
    for s in samples.iter().filter(|s| filter(s)) {
        let e = (eval.score(s.player, s.opponent) - s.label) as f64;
        n += 1;
        abs += e.abs();
        sq += e * e;
        zero += (s.label as f64).abs();
    }
    let d = n.max(1) as f64;
    ErrorStats {
        count: n,
        mae: abs / d,
        rmse: (sq / d).sqrt(),
        mae_zero: zero / d,
    }
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Samples used for fitting.
    pub train_samples: usize,
    /// Held-out error on the exactly solved positions.
    pub holdout_exact: ErrorStats,
    /// Held-out error on all positions (midgame labels are game results).
    pub holdout_all: ErrorStats,
    /// Held-out error per stage (exact and game-result labels together).
    pub holdout_by_stage: Vec<ErrorStats>,
    /// Seconds spent.
    pub seconds: f64,
}

/// The move of a noisy self-play game (training and test-set generation alike) among the
/// `legal` squares of `s`: a uniformly random one when `random`, else the one whose
/// position `eval` scores best for the mover (exact at the game's end), ties broken at
/// random.
pub(crate) fn self_play_square(
    s: &OthelloState,
    legal: u64,
    eval: &PatternEval,
    random: bool,
    rng: &mut Rng,
) -> u32 {
    if random {
        return crate::bitboard::pdep(1 << rng.below(legal.count_ones() as usize), legal)
            .trailing_zeros();
    }
    let (p, o) = (s.player(), s.opponent());
    let (mut best, mut best_sq, mut ties) = (f32::NEG_INFINITY, 0u32, 0usize);
    let mut m = legal;
    while m != 0 {
        let q = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, q);
        let (np, no) = (o & !f, p | f | (1 << q));
        let v = if moves(np, no) == 0 && moves(no, np) == 0 {
            -crate::game::final_score(np, no) as f32
        } else {
            -eval.score(np, no)
        };
        if v > best {
            (best, best_sq, ties) = (v, q, 1);
        } else if v == best {
            ties += 1;
            if rng.below(ties) == 0 {
                best_sq = q;
            }
        }
    }
    best_sq
}

/// Plays one noisy self-play game and returns its labelled positions.
fn play_game(
    eval: &PatternEval,
    cfg: &TrainConfig,
    solver: &mut Solver,
    rng: &mut Rng,
    game: u32,
) -> Vec<Sample> {
    let mut s = OthelloState::start();
    let mut history: Vec<OthelloState> = Vec::with_capacity(64);
    let mut plies = 0u32;
    loop {
        if s.is_over() {
            break;
        }
        history.push(s);
        let legal = s.legal();
        if legal == 0 {
            s.play_unchecked(crate::Move::PASS);
            continue;
        }
        let random = plies < cfg.random_plies || rng.chance(cfg.epsilon);
        let sq = crate::train::self_play_square(&s, legal, eval, random, rng);
        s.play_unchecked(crate::Move::square(sq as u8).expect("square"));
        plies += 1;
    }
    // Exact labels near the end; the result at the first exactly solved position before.
    let mut out = Vec::with_capacity(history.len());
    let mut anchor: Option<(u8, i32)> = None;
    for h in &history {
        if h.empty_count() <= cfg.exact_empties {
            let v = solver.solve(h).score;
            if anchor.is_none() {
                anchor = Some((h.to_move().0, v));
            }
            out.push(Sample {
                player: h.player(),
                opponent: h.opponent(),
                label: v as f32,
                exact: true,
                game,
            });
        }
    }
    let (side, v) = anchor.unwrap_or_else(|| (s.to_move().0, s.final_score()));
    for h in history
        .iter()
        .filter(|h| h.empty_count() > cfg.exact_empties)
    {
        let label = if h.to_move().0 == side { v } else { -v };
        out.push(Sample {
            player: h.player(),
            opponent: h.opponent(),
            label: label as f32,
            exact: false,
            game,
        });
    }
    out
}

/// Plays `count` games numbered from `first_game` on `cfg.threads` threads.
pub fn generate(
    eval: &PatternEval,
    cfg: &TrainConfig,
    first_game: u32,
    count: usize,
) -> Vec<Sample> {
    let threads = cfg.threads.max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut solver = Solver::new(18);
                    let mut out = Vec::new();
                    for g in (t..count).step_by(threads) {
                        let id = first_game + g as u32;
                        let mut rng = Rng::seed_from_u64(derive_seed(cfg.seed, id as u64));
                        out.extend(play_game(eval, cfg, &mut solver, &mut rng, id));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("self-play worker panicked"))
            .collect()
    })
}

/// Fits `eval` to `samples` by stochastic gradient descent (continuing from its weights).
pub fn fit(eval: &mut PatternEval, samples: &[Sample], cfg: &TrainConfig) {
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = Rng::seed_from_u64(derive_seed(cfg.seed, 0xF17));
    for epoch in 0..cfg.epochs {
        rng.shuffle(&mut order);
        let lr = cfg.learning_rate / (1.0 + epoch as f32);
        for &i in &order {
            let f = &features(samples[i].player, samples[i].opponent);
            let err = samples[i].label - eval.score_features(f);
            let (idx, mob, bias) = PatternEval::active(f);
            let w = eval.weights_mut();
            let step = lr * err / 90.0;
            let shrink = 1.0 - lr * cfg.l2;
            for &k in &idx {
                let wk = &mut w[k as usize];
                *wk = *wk * shrink + step;
            }
            w[mob as usize] += step * f.mobility * 0.05;
            w[bias as usize] += step;
        }
    }
}

/// Runs the whole pipeline: rounds of self-play and fitting, then the held-out report.
/// `progress` receives one line per step.
pub fn train(cfg: &TrainConfig, mut progress: impl FnMut(&str)) -> (PatternEval, TrainReport) {
    let start = Instant::now();
    let mut eval = PatternEval::zero();
    let mut samples: Vec<Sample> = Vec::new();
    for round in 0..cfg.rounds {
        let t = Instant::now();
        let first = (round * cfg.games_per_round) as u32;
        let new = generate(&eval, cfg, first, cfg.games_per_round);
        progress(&format!(
            "round {}: {} games, {} positions ({} solved exactly) in {:.1} s",
            round + 1,
            cfg.games_per_round,
            new.len(),
            new.iter().filter(|s| s.exact).count(),
            t.elapsed().as_secs_f64()
        ));
        samples.extend(new);
        let every = cfg.holdout_every.max(2) as u32;
        let train: Vec<Sample> = samples
            .iter()
            .filter(|s| s.game % every != 0)
            .copied()
            .collect();
        eval = PatternEval::zero();
        fit(&mut eval, &train, cfg);
        let held = error_stats(&eval, &samples, |s| s.game % every == 0 && s.exact);
        progress(&format!(
            "round {}: fitted on {} positions; held-out solved positions: MAE {:.2} discs (always-0: {:.2})",
            round + 1,
            train.len(),
            held.mae,
            held.mae_zero
        ));
    }
    let eval = eval.quantized();
    let every = cfg.holdout_every.max(2) as u32;
    let held = |s: &Sample| s.game % every == 0;
    let report = TrainReport {
        train_samples: samples.iter().filter(|s| !held(s)).count(),
        holdout_exact: error_stats(&eval, &samples, |s| held(s) && s.exact),
        holdout_all: error_stats(&eval, &samples, held),
        holdout_by_stage: (0..crate::eval::STAGES)
            .map(|st| {
                error_stats(&eval, &samples, |s| {
                    held(s) && crate::eval::stage((!(s.player | s.opponent)).count_ones()) == st
                })
            })
            .collect(),
        seconds: start.elapsed().as_secs_f64(),
    };
    (eval, report)
}
