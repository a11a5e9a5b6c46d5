//! The training configuration: one TOML file, every key documented here and in the
//! example `experiments/*-az.toml` files. Unknown keys are errors (typos do not pass
//! silently).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::az::AzParams;
use crate::device::DeviceKind;
use crate::net::NetConfig;
use crate::NnError;

/// The whole training configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// Master seed: every random choice of the run derives from it and the cycle number.
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// Cycles (self-play, train, gate) to run in total; a resumed run continues up to it.
    #[serde(default = "d_cycles")]
    pub cycles: usize,
    /// The burn backend.
    #[serde(default)]
    pub device: DeviceKind,
    /// The network's size.
    #[serde(default)]
    pub net: NetConfig,
    /// Self-play.
    #[serde(default)]
    pub selfplay: SelfPlayConfig,
    /// The search used by self-play (and, without noise, by the gate and evaluations).
    #[serde(default = "d_search")]
    pub search: AzParams,
    /// Optimisation.
    #[serde(default)]
    pub train: OptimConfig,
    /// Gating of new networks.
    #[serde(default)]
    pub gate: GateConfig,
    /// Win rates against fixed opponents, logged every cycle.
    #[serde(default)]
    pub eval: EvalConfig,
}

fn d_seed() -> u64 {
    yomi_core::rng::DEFAULT_SEED
}
fn d_cycles() -> usize {
    10
}
fn d_search() -> AzParams {
    AzParams {
        noise_alpha: 0.5,
        noise_fraction: 0.25,
        temperature_moves: 10,
        ..AzParams::default()
    }
}

/// `[selfplay]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Games per cycle.
    #[serde(default = "d_games")]
    pub games: usize,
    /// Game threads submitting positions to the evaluation service.
    #[serde(default = "d_threads")]
    pub threads: usize,
    /// Most positions per network call.
    #[serde(default = "d_batch")]
    pub max_batch: usize,
    /// Evaluation services (batching threads, each with its own copy of the network); the
    /// game threads are dealt out among them. One is enough on a few cores; on 16 cores
    /// one batching thread was the bottleneck.
    #[serde(default = "d_services")]
    pub services: usize,
    /// Plies after which a self-play game is stopped and scored as a draw (0: the game's
    /// own limit).
    #[serde(default)]
    pub max_plies: usize,
    /// Plies at the start of each game chosen uniformly at random among the legal moves,
    /// with no search and no training sample (2 for the Geister paper's random set-ups).
    #[serde(default)]
    pub random_plies: usize,
}

/// How each self-play game starts and ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameBounds {
    /// Plies at the start chosen uniformly at random among the legal moves, without a
    /// search and without a training sample (the Geister paper's random initial placement:
    /// its two set-up plies).
    pub random_plies: usize,
    /// Plies after which the game is stopped and scored as a draw (0: the game's own
    /// limit). Random plies count.
    pub max_plies: usize,
}

impl SelfPlayConfig {
    /// How each self-play game starts and ends.
    pub fn bounds(&self) -> GameBounds {
        GameBounds {
            random_plies: self.random_plies,
            max_plies: self.max_plies,
        }
    }
}

fn d_games() -> usize {
    32
}
fn d_threads() -> usize {
    8
}
fn d_batch() -> usize {
    8
}
fn d_services() -> usize {
    1
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games: d_games(),
            threads: d_threads(),
            max_batch: d_batch(),
            services: d_services(),
            max_plies: 0,
            random_plies: 0,
        }
    }
}

/// `[train]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptimConfig {
    /// Samples kept in the replay buffer.
    #[serde(default = "d_buffer")]
    pub buffer: usize,
    /// Minibatch size.
    #[serde(default = "d_mb")]
    pub batch: usize,
    /// Optimiser steps per cycle, each on a minibatch drawn with replacement (used when
    /// `epochs` is 0).
    #[serde(default = "d_steps")]
    pub steps: usize,
    /// Passes over the whole replay buffer per cycle, each in a new random order cut into
    /// minibatches (the Geister paper's E); when above 0 it replaces `steps`.
    #[serde(default)]
    pub epochs: usize,
    /// Adam learning rate.
    #[serde(default = "d_lr")]
    pub lr: f64,
    /// L2 coefficient c of the loss term c·‖θ‖² (AlphaZero: 1e-4).
    #[serde(default = "d_l2")]
    pub l2: f64,
}

fn d_buffer() -> usize {
    20_000
}
fn d_mb() -> usize {
    64
}
fn d_steps() -> usize {
    100
}
fn d_lr() -> f64 {
    1e-3
}
fn d_l2() -> f64 {
    1e-4
}

impl Default for OptimConfig {
    fn default() -> Self {
        OptimConfig {
            buffer: d_buffer(),
            batch: d_mb(),
            steps: d_steps(),
            epochs: 0,
            lr: d_lr(),
            l2: d_l2(),
        }
    }
}

/// `[gate]`: the new network plays the best one; it replaces the best when it scores at
/// least `threshold`. `games = 0` turns gating off (AlphaZero: every new network is used).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateConfig {
    /// Games per gate (half with each color); 0 = no gating.
    #[serde(default)]
    pub games: usize,
    /// Score (wins + draws/2, per game) the new network needs.
    #[serde(default = "d_threshold")]
    pub threshold: f64,
    /// Simulations per move in gate games.
    #[serde(default = "d_gate_sims")]
    pub simulations: u64,
    /// Plies with temperature 1 at the start of gate games (so games differ).
    #[serde(default = "d_gate_tmoves")]
    pub temperature_moves: usize,
}

fn d_threshold() -> f64 {
    0.55
}
fn d_gate_sims() -> u64 {
    50
}
fn d_gate_tmoves() -> usize {
    4
}

impl Default for GateConfig {
    fn default() -> Self {
        GateConfig {
            games: 0,
            threshold: d_threshold(),
            simulations: d_gate_sims(),
            temperature_moves: d_gate_tmoves(),
        }
    }
}

/// `[eval]`: the best network against fixed opponents (agent specs of the game's
/// registry), every `every` cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalConfig {
    /// Opponent agent specs, e.g. `["random", "mcts:iters=200"]`.
    #[serde(default)]
    pub opponents: Vec<String>,
    /// Games per opponent (half with each color).
    #[serde(default = "d_eval_games")]
    pub games: usize,
    /// Evaluate every this many cycles (and always after the last).
    #[serde(default = "d_every")]
    pub every: usize,
    /// Simulations per move of the network agent.
    #[serde(default = "d_gate_sims")]
    pub simulations: u64,
    /// Game threads of the arena.
    #[serde(default = "d_eval_threads")]
    pub threads: usize,
}

fn d_eval_games() -> usize {
    20
}
fn d_every() -> usize {
    1
}
fn d_eval_threads() -> usize {
    2
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            opponents: Vec::new(),
            games: d_eval_games(),
            every: d_every(),
            simulations: d_gate_sims(),
            threads: d_eval_threads(),
        }
    }
}

/// The largest count of games, cycles or steps a configuration may ask for.
pub const MAX_COUNT: usize = 100_000_000;
/// The most passes over the replay buffer per cycle.
pub const MAX_EPOCHS: usize = 10_000;
/// The most threads a configuration may start.
pub const MAX_THREADS: usize = 1024;
/// The largest batch (positions per network call or per training step).
pub const MAX_BATCH: usize = 65_536;
/// The largest replay buffer, in samples.
pub const MAX_BUFFER: usize = 10_000_000;
/// The most search simulations per move.
pub const MAX_SIMULATIONS: u64 = 100_000_000;

pub(crate) fn read_config<T>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, NnError>,
) -> Result<T, NnError> {
    let text = std::fs::read_to_string(path).map_err(|e| NnError::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    parse(&text).map_err(|e| match e {
        NnError::Config(m) => NnError::Config(format!("{}: {m}", path.display())),
        other => other,
    })
}

impl TrainConfig {
    /// Parses and checks a TOML configuration.
    ///
    /// # Errors
    /// [`NnError::Config`] with the parser's message (line, unknown key) or the bad value.
    pub fn from_toml(text: &str) -> Result<Self, NnError> {
        let c: TrainConfig = toml::from_str(text).map_err(|e| NnError::Config(e.to_string()))?;
        c.validate()?;
        Ok(c)
    }

    /// Reads a configuration file.
    ///
    /// # Errors
    /// [`NnError::Io`] or as [`TrainConfig::from_toml`].
    pub fn load(path: &Path) -> Result<Self, NnError> {
        read_config(path, Self::from_toml)
    }

    /// Checks value ranges.
    ///
    /// # Errors
    /// [`NnError::Config`] naming the key.
    pub fn validate(&self) -> Result<(), NnError> {
        let bad = |k: &str, why: &str| Err(NnError::Config(format!("{k}: {why}")));
        if self.selfplay.games == 0 {
            return bad("selfplay.games", "must be positive");
        }
        if self.selfplay.threads == 0 || self.selfplay.max_batch == 0 {
            return bad("selfplay.threads / max_batch", "must be positive");
        }
        if self.selfplay.services == 0 || self.selfplay.services > self.selfplay.threads {
            return bad(
                "selfplay.services",
                "must be between 1 and selfplay.threads",
            );
        }
        if self.train.batch == 0 || self.train.buffer == 0 {
            return bad("train.batch / buffer", "must be positive");
        }
        if !(self.train.lr > 0.0 && self.train.lr.is_finite()) {
            return bad("train.lr", "must be a positive number");
        }
        if !(self.train.l2 >= 0.0 && self.train.l2.is_finite()) {
            return bad("train.l2", "must be >= 0");
        }
        if !(0.0..=1.0).contains(&self.gate.threshold) {
            return bad("gate.threshold", "must be in 0..1");
        }
        if self.search.simulations == 0 {
            return bad("search.simulations", "must be positive");
        }
        if !(0.0..=1.0).contains(&self.search.noise_fraction) || self.search.noise_alpha < 0.0 {
            return bad(
                "search.noise_fraction / noise_alpha",
                "fraction in 0..1, alpha >= 0",
            );
        }
        if self.eval.every == 0 {
            return bad("eval.every", "must be positive");
        }
        // Counts size allocations (one result slot per game, one thread per worker, the
        // replay buffer) and loops: a typo such as 9223372036854775807 must be an error,
        // not an abort on allocation or a run that never ends.
        for (key, value, max) in [
            ("cycles", self.cycles, MAX_COUNT),
            ("selfplay.games", self.selfplay.games, MAX_COUNT),
            ("selfplay.threads", self.selfplay.threads, MAX_THREADS),
            ("selfplay.max_batch", self.selfplay.max_batch, MAX_BATCH),
            ("train.buffer", self.train.buffer, MAX_BUFFER),
            ("train.batch", self.train.batch, MAX_BATCH),
            ("train.steps", self.train.steps, MAX_COUNT),
            ("train.epochs", self.train.epochs, MAX_EPOCHS),
            (
                "selfplay.random_plies",
                self.selfplay.random_plies,
                MAX_COUNT,
            ),
            ("gate.games", self.gate.games, MAX_COUNT),
            ("eval.games", self.eval.games, MAX_COUNT),
            ("eval.threads", self.eval.threads, MAX_THREADS),
        ] {
            if value > max {
                return Err(NnError::Config(format!(
                    "{key}: {value} is more than the largest accepted, {max}"
                )));
            }
        }
        for (key, value) in [
            ("search.simulations", self.search.simulations),
            ("gate.simulations", self.gate.simulations),
            ("eval.simulations", self.eval.simulations),
        ] {
            if value > MAX_SIMULATIONS {
                return Err(NnError::Config(format!(
                    "{key}: {value} is more than the largest accepted, {MAX_SIMULATIONS}"
                )));
            }
        }
        for o in &self.eval.opponents {
            if o.trim().is_empty() {
                return bad("eval.opponents", "empty agent spec");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15, item 3: `selfplay.games = 9223372036854775807` aborted on allocating one
    /// result slot per game; every count that sizes memory or threads is bounded.
    #[test]
    fn huge_counts_are_refused_naming_the_key() {
        for (text, key) in [
            ("[selfplay]\ngames = 9223372036854775807", "selfplay.games"),
            ("[selfplay]\nthreads = 1000000", "selfplay.threads"),
            (
                "[selfplay]\nmax_batch = 9223372036854775807",
                "selfplay.max_batch",
            ),
            ("[train]\nbuffer = 9223372036854775807", "train.buffer"),
            ("[train]\nbatch = 9223372036854775807", "train.batch"),
            ("[eval]\ngames = 9223372036854775807", "eval.games"),
            (
                "[search]\nsimulations = 9223372036854775807",
                "search.simulations",
            ),
            ("cycles = 9223372036854775807", "cycles"),
        ] {
            let e = TrainConfig::from_toml(text).unwrap_err().to_string();
            assert!(
                e.contains(key) && e.contains("largest"),
                "{text:?} gave {e}"
            );
        }
        assert!(TrainConfig::from_toml("[selfplay]\ngames = 100000000").is_ok());
    }
}
