//! The paper's training run: each method learns from θ = 0 for a number of iterations
//! (one pass over the training states each, in an order shuffled per iteration), and after
//! every iteration CR and MSE are measured on the test states.
//!
//! **Files** in the output directory, per method (`al`, `sb`, `alsb`):
//! `train-<method>.jsonl`, the training log: a [`yomi_core::journal`] whose settings header
//! holds what decides the curve ([`TrainSettings`]: game, method, seed, set sizes,
//! evaluation simulations, learning parameters) and then one [`CurvePoint`] a line keyed by
//! iteration (iteration 0 is θ = 0, the uniform policy); `train-<method>.csv`
//! (`iteration,cr,mse,seconds`), the same rows for plots and reports, rewritten whole
//! (atomically) after each row; and `<method>-iter<k>.weights.json` (θ after iteration k;
//! only the latest is kept). A row is appended only after its weights are on disk, so an
//! interrupted run resumes from its last row; the log is locked while a run trains (a
//! second run on the directory is refused), a torn last line is cut, and a run with other
//! settings is refused. A directory of an older version (a CSV without the log) is taken
//! over: its rows become the log's, under this run's settings, unchecked as they were
//! before. At the end `training.csv` (all methods) and the plots `cr.png` / `mse.png`
//! ([`crate::plot`]) are written.
//!
//! **Seeds.** Iteration `i` shuffles with `derive_seed(seed, i)`; the SB simulations of the
//! `j`-th state of that iteration use `derive_seed(derive_seed(seed ^ method, i), j)`; the
//! evaluation after iteration `i` uses `derive_seed(seed ^ EVAL_SALT, i)` for every method
//! (common random numbers). The methods train in parallel (rayon).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use yomi_core::journal::{no_check, Journal, JournalError, HEADER_KEY};
use yomi_core::rng::derive_seed;
use yomi_core::Rng;

use crate::algorithms::{LearnParams, Method, Sample, Trainer};
use crate::error::LearnError;
use crate::eval::evaluate;
use crate::features::FeatureGame;
use crate::policy::LinearPolicy;

pub use crate::curve::{Curve, CurvePoint};

const EVAL_SALT: u64 = 0x4556_414c; // "EVAL"

/// Settings of a training run (the `[train]` table of an experiment file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// Output directory.
    pub out: PathBuf,
    /// Training states: the first `train` states of the data (the paper: 1000).
    #[serde(default = "default_train")]
    pub train: usize,
    /// Test states: the `test` states after them (the paper: 200).
    #[serde(default = "default_test")]
    pub test: usize,
    /// Iterations (the paper: 100).
    #[serde(default = "default_iterations")]
    pub iterations: usize,
    /// The methods to train (default: all three).
    #[serde(default = "default_methods")]
    pub methods: Vec<Method>,
    /// Simulations per test state for the MSE (the paper: 100).
    #[serde(default = "default_eval_sims")]
    pub eval_simulations: u32,
    /// Seed.
    #[serde(default)]
    pub seed: u64,
    /// Learning parameters (α, β, M, N, ...; the paper's by default).
    #[serde(default)]
    pub params: LearnParams,
}

fn default_train() -> usize {
    1000
}
fn default_test() -> usize {
    200
}
fn default_iterations() -> usize {
    100
}
fn default_methods() -> Vec<Method> {
    Method::ALL.to_vec()
}
fn default_eval_sims() -> u32 {
    100
}

/// What decides a method's training curve: its training log's settings header. (The
/// labelled states are the data file's, whose own header is checked when it is made.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainSettings {
    /// The version of the log format.
    pub yomi_learn_train: u32,
    /// The game's name.
    pub game: String,
    /// The method.
    pub method: Method,
    /// Training states.
    pub train: usize,
    /// Test states.
    pub test: usize,
    /// Simulations per test state in the evaluation.
    pub eval_simulations: u32,
    /// The run's seed.
    pub seed: u64,
    /// The learning parameters.
    pub params: LearnParams,
}

/// The weights file of `method` after iteration `k`.
pub fn weights_path(out: &Path, method: Method, k: usize) -> PathBuf {
    out.join(format!("{}-iter{k}.weights.json", method.file_stem()))
}

fn csv_path(out: &Path, method: Method) -> PathBuf {
    out.join(format!("train-{}.csv", method.file_stem()))
}

/// The training log of `method`.
pub fn log_path(out: &Path, method: Method) -> PathBuf {
    out.join(format!("train-{}.jsonl", method.file_stem()))
}

/// The CSV text of `points`.
fn csv_text(points: &[CurvePoint]) -> String {
    let mut text = format!("{CSV_HEADER}\n");
    for p in points {
        let _ = writeln!(text, "{},{},{},{}", p.iteration, p.cr, p.mse, p.seconds);
    }
    text
}

const CSV_HEADER: &str = "iteration,cr,mse,seconds";

/// Reads a method's curve file (missing file: no points).
///
/// # Errors
/// [`LearnError::BadFile`] for a malformed row.
pub fn read_curve(out: &Path, method: Method) -> Result<Vec<CurvePoint>, LearnError> {
    let path = csv_path(out, method);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).map_err(|e| LearnError::io(&path, e))?;
    let complete = text.rfind('\n').map_or("", |i| &text[..=i]);
    let mut points = Vec::new();
    for (n, line) in complete.lines().enumerate() {
        if n == 0 {
            if line != CSV_HEADER {
                return Err(LearnError::bad(
                    &path,
                    Some(1),
                    format!("header is not {CSV_HEADER}"),
                ));
            }
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let parsed = (|| -> Option<CurvePoint> {
            let [i, c, m, s] = f.as_slice() else {
                return None;
            };
            Some(CurvePoint {
                iteration: i.parse().ok()?,
                cr: c.parse().ok()?,
                mse: m.parse().ok()?,
                seconds: s.parse().ok()?,
            })
        })();
        let p = parsed.ok_or_else(|| LearnError::bad(&path, Some(n + 1), "not a curve row"))?;
        if p.iteration != points.len() {
            return Err(LearnError::bad(
                &path,
                Some(n + 1),
                format!(
                    "iteration {} where {} was expected",
                    p.iteration,
                    points.len()
                ),
            ));
        }
        points.push(p);
    }
    Ok(points)
}

/// Trains every configured method on `data` (train states first, then test states) and
/// returns the curves; resumes from what `cfg.out` already holds. `game_name` is stored in
/// the weights files.
///
/// # Errors
/// [`LearnError::Config`] when there are fewer states than `train + test`; file errors.
pub fn train<G: FeatureGame>(
    game: &G,
    game_name: &str,
    cfg: &TrainConfig,
    data: &[Sample<G>],
    quiet: bool,
) -> Result<Vec<Curve>, LearnError> {
    if data.len() < cfg.train + cfg.test || cfg.train == 0 || cfg.test == 0 {
        return Err(LearnError::Config(format!(
            "{} labelled states; training needs train + test = {} (both > 0)",
            data.len(),
            cfg.train + cfg.test
        )));
    }
    std::fs::create_dir_all(&cfg.out).map_err(|e| LearnError::io(&cfg.out, e))?;
    let (train_set, rest) = data.split_at(cfg.train);
    let test_set = &rest[..cfg.test];
    let curves: Result<Vec<Curve>, LearnError> = cfg
        .methods
        .par_iter()
        .map(|&m| train_one(game, game_name, cfg, m, train_set, test_set, quiet))
        .collect();
    let curves = curves?;
    write_combined(&cfg.out, &curves)?;
    crate::plot::plot_curves(&cfg.out, &curves)?;
    Ok(curves)
}

fn train_one<G: FeatureGame>(
    game: &G,
    game_name: &str,
    cfg: &TrainConfig,
    method: Method,
    train_set: &[Sample<G>],
    test_set: &[Sample<G>],
    quiet: bool,
) -> Result<Curve, LearnError> {
    let csv = csv_path(&cfg.out, method);
    let log = log_path(&cfg.out, method);
    let settings = serde_json::to_value(TrainSettings {
        yomi_learn_train: 1,
        game: game_name.to_string(),
        method,
        train: cfg.train,
        test: cfg.test,
        eval_simulations: cfg.eval_simulations,
        seed: cfg.seed,
        params: cfg.params,
    })
    .map_err(|e| LearnError::Config(format!("training settings: {e}")))?;
    if !log.exists() {
        // An older version kept only the CSV: its rows become the log's, written whole so
        // that a kill leaves either no log or all of it.
        let old = read_curve(&cfg.out, method)?;
        if !old.is_empty() {
            let mut text = serde_json::to_string(
                &serde_json::json!({ HEADER_KEY: { "settings": &settings } }),
            )
            .map_err(|e| LearnError::Config(e.to_string()))?;
            text.push('\n');
            for p in &old {
                let line =
                    serde_json::to_string(p).map_err(|e| LearnError::Config(e.to_string()))?;
                let _ = writeln!(text, "{line}");
            }
            crate::write_atomically(&log, text.as_bytes())?;
        }
    }
    let mut journal = Journal::<CurvePoint>::open::<JournalError>(&log, Some(&settings), no_check)?;
    let mut points: Vec<CurvePoint> = Vec::new();
    for p in journal.entries() {
        if p.iteration != points.len() {
            return Err(LearnError::bad(
                &log,
                None,
                format!(
                    "iteration {} where {} was expected: the log has a gap; use another \
                     output directory",
                    p.iteration,
                    points.len()
                ),
            ));
        }
        points.push(*p);
    }
    points.truncate(cfg.iterations + 1);
    let policy = match points.last() {
        Some(p) if p.iteration > 0 => {
            LinearPolicy::load(&weights_path(&cfg.out, method, p.iteration), game_name)?
        }
        _ => LinearPolicy::for_game(game)?,
    };
    if !policy.fits(game) {
        return Err(LearnError::Config(format!(
            "the saved {method} weights do not fit {game_name}"
        )));
    }
    // The CSV holds the rows kept; it is rewritten whole after each new row.
    crate::write_atomically(&csv, csv_text(&points).as_bytes())?;
    let mut append = |p: CurvePoint, points: &mut Vec<CurvePoint>| -> Result<(), LearnError> {
        journal.add(p)?;
        points.push(p);
        crate::write_atomically(&csv, csv_text(points).as_bytes())
    };
    let eval_seed = |i: usize| derive_seed(cfg.seed ^ EVAL_SALT, i as u64);
    if points.is_empty() {
        let s = evaluate(
            game,
            &Arc::new(policy.clone()),
            test_set,
            cfg.eval_simulations,
            eval_seed(0),
        );
        let p = CurvePoint {
            iteration: 0,
            cr: s.cr,
            mse: s.mse,
            seconds: 0.0,
        };
        append(p, &mut points)?;
    }
    let mut trainer = Trainer::new(game, policy, cfg.params);
    let method_salt = derive_seed(cfg.seed, 0x4d45_5448 + method as u64);
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    for it in points.len()..=cfg.iterations {
        let start = Instant::now();
        let mut shuffle = Rng::seed_from_u64(derive_seed(cfg.seed, it as u64));
        order.iter_mut().enumerate().for_each(|(i, x)| *x = i);
        shuffle.shuffle(&mut order);
        let it_seed = derive_seed(method_salt, it as u64);
        for (j, &k) in order.iter().enumerate() {
            let mut rng = Rng::seed_from_u64(derive_seed(it_seed, j as u64));
            trainer.step(method, game, &train_set[k], &mut rng);
        }
        let seconds = start.elapsed().as_secs_f64();
        let snapshot = Arc::new(trainer.policy.clone());
        let s = evaluate(
            game,
            &snapshot,
            test_set,
            cfg.eval_simulations,
            eval_seed(it),
        );
        snapshot.save(&weights_path(&cfg.out, method, it), game_name)?;
        let p = CurvePoint {
            iteration: it,
            cr: s.cr,
            mse: s.mse,
            seconds,
        };
        append(p, &mut points)?;
        if it > 1 {
            let old = weights_path(&cfg.out, method, it - 1);
            let _ = std::fs::remove_file(old);
        }
        if !quiet {
            eprintln!(
                "[{method}] iteration {it}/{}: CR {:.4} MSE {:.4} ({seconds:.1} s)",
                cfg.iterations, s.cr, s.mse
            );
        }
    }
    Ok(Curve { method, points })
}

/// Writes `training.csv`: `method,iteration,cr,mse,seconds` for every curve.
fn write_combined(out: &Path, curves: &[Curve]) -> Result<(), LearnError> {
    let mut text = String::from("method,iteration,cr,mse,seconds\n");
    for c in curves {
        for p in &c.points {
            let _ = writeln!(
                text,
                "{},{},{},{},{}",
                c.method, p.iteration, p.cr, p.mse, p.seconds
            );
        }
    }
    crate::write_atomically(&out.join("training.csv"), text.as_bytes())
}

/// The final weights of `method` in `out` (after its last recorded iteration).
///
/// # Errors
/// As [`read_curve`] and [`LinearPolicy::load`]; [`LearnError::Config`] when the method
/// has not trained yet.
pub fn final_policy(
    out: &Path,
    method: Method,
    game_name: &str,
) -> Result<LinearPolicy, LearnError> {
    let points = read_curve(out, method)?;
    match points.last() {
        Some(p) if p.iteration > 0 => {
            LinearPolicy::load(&weights_path(out, method, p.iteration), game_name)
        }
        _ => Err(LearnError::Config(format!(
            "{method} has no trained weights in {}",
            out.display()
        ))),
    }
}
