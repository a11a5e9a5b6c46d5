//! The DQN configuration: one TOML file, every key documented here and in
//! `experiments/geister-dqn-*.toml`. Unknown keys are errors (typos do not pass silently).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::MAX_COUNT;
use crate::device::DeviceKind;
use crate::NnError;

/// The whole DQN configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DqnConfig {
    /// Master seed: every random choice of the run derives from it and the cycle number.
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// Cycles (self-play with learning, then log and checkpoint) to run in total; a resumed
    /// run continues up to it.
    #[serde(default = "d_cycles")]
    pub cycles: usize,
    /// The burn backend.
    #[serde(default)]
    pub device: DeviceKind,
    /// Restrict action choice, exploration and the targets' maximum to legal moves. When
    /// false, every policy index can be chosen and an illegal one ends the game as a loss
    /// for the mover (the paper's preliminary experiment).
    #[serde(default = "d_true")]
    pub masked: bool,
    /// Discount γ of the negamax target `r` or `−γ·max Q(s′)`.
    #[serde(default = "d_gamma")]
    pub gamma: f64,
    /// The Q-network's size.
    #[serde(default)]
    pub net: QNetConfig,
    /// Self-play.
    #[serde(default)]
    pub selfplay: DqnSelfPlayConfig,
    /// ε-greedy exploration.
    #[serde(default)]
    pub explore: ExploreConfig,
    /// Optimisation.
    #[serde(default)]
    pub train: DqnTrainConfig,
    /// Evaluation against the uniformly random agent.
    #[serde(default)]
    pub eval: DqnEvalConfig,
}

fn d_seed() -> u64 {
    1
}
fn d_cycles() -> usize {
    10
}
fn d_true() -> bool {
    true
}
fn d_gamma() -> f64 {
    0.99
}

/// `[net]`: three 3×3 convolutions (same padding, ReLU) and one fully connected layer from
/// the last convolution's planes to one Q-value per policy index (the paper's shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QNetConfig {
    /// Output channels of the three convolutions.
    #[serde(default = "d_filters")]
    pub filters: [usize; 3],
}

fn d_filters() -> [usize; 3] {
    [32, 64, 64]
}

impl Default for QNetConfig {
    fn default() -> Self {
        QNetConfig {
            filters: d_filters(),
        }
    }
}

/// `[selfplay]`: both sides of every game are the learning network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DqnSelfPlayConfig {
    /// Games per cycle.
    #[serde(default = "d_games")]
    pub games: usize,
    /// Games played side by side; one batched network call chooses a move in each.
    #[serde(default = "d_envs")]
    pub envs: usize,
}

fn d_games() -> usize {
    500
}
fn d_envs() -> usize {
    32
}

impl Default for DqnSelfPlayConfig {
    fn default() -> Self {
        DqnSelfPlayConfig {
            games: d_games(),
            envs: d_envs(),
        }
    }
}

/// `[explore]`: ε falls linearly from `epsilon_start` to `epsilon_end` over the first
/// `decay_games` self-play games and stays there; a game keeps the ε it started with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreConfig {
    /// ε of the first game.
    #[serde(default = "d_eps_start")]
    pub epsilon_start: f64,
    /// ε after the decay.
    #[serde(default = "d_eps_end")]
    pub epsilon_end: f64,
    /// Games over which ε falls.
    #[serde(default = "d_decay")]
    pub decay_games: usize,
}

fn d_eps_start() -> f64 {
    1.0
}
fn d_eps_end() -> f64 {
    0.05
}
fn d_decay() -> usize {
    2000
}

impl Default for ExploreConfig {
    fn default() -> Self {
        ExploreConfig {
            epsilon_start: d_eps_start(),
            epsilon_end: d_eps_end(),
            decay_games: d_decay(),
        }
    }
}

impl ExploreConfig {
    /// ε of the game numbered `game` (0-based, counted over the whole run).
    pub fn epsilon(&self, game: usize) -> f64 {
        if self.decay_games == 0 || game >= self.decay_games {
            return self.epsilon_end;
        }
        let f = game as f64 / self.decay_games as f64;
        self.epsilon_start + (self.epsilon_end - self.epsilon_start) * f
    }
}

/// The regression loss on the temporal-difference error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TdLoss {
    /// Huber loss with δ = 1 (quadratic below 1, linear above).
    #[default]
    Huber,
    /// Squared error.
    Mse,
}

/// `[train]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DqnTrainConfig {
    /// Transitions kept in the replay buffer.
    #[serde(default = "d_buffer")]
    pub buffer: usize,
    /// Minibatch size.
    #[serde(default = "d_batch")]
    pub batch: usize,
    /// Adam learning rate.
    #[serde(default = "d_lr")]
    pub lr: f64,
    /// The loss on the TD error.
    #[serde(default)]
    pub loss: TdLoss,
    /// Self-play transitions per optimiser step (the replay ratio is `batch / train_every`).
    #[serde(default = "d_every")]
    pub train_every: usize,
    /// Transitions in the buffer before the first optimiser step.
    #[serde(default = "d_warmup")]
    pub warmup: usize,
    /// Optimiser steps between copies of the online network into the target network.
    #[serde(default = "d_target")]
    pub target_update: usize,
}

fn d_buffer() -> usize {
    50_000
}
fn d_batch() -> usize {
    64
}
fn d_lr() -> f64 {
    5e-4
}
fn d_every() -> usize {
    16
}
fn d_warmup() -> usize {
    2_000
}
fn d_target() -> usize {
    500
}

impl Default for DqnTrainConfig {
    fn default() -> Self {
        DqnTrainConfig {
            buffer: d_buffer(),
            batch: d_batch(),
            lr: d_lr(),
            loss: TdLoss::default(),
            train_every: d_every(),
            warmup: d_warmup(),
            target_update: d_target(),
        }
    }
}

/// `[eval]`: the greedy network against the uniformly random agent, half the games as the
/// first player; an illegal choice is counted and replaced by a random legal move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DqnEvalConfig {
    /// Games per evaluation (0: no evaluation during training).
    #[serde(default = "d_eval_games")]
    pub games: usize,
    /// Evaluate after every this many cycles.
    #[serde(default = "d_eval_every")]
    pub every: usize,
    /// Games of the evaluation after the last cycle.
    #[serde(default = "d_final_games")]
    pub final_games: usize,
}

fn d_eval_games() -> usize {
    200
}
fn d_eval_every() -> usize {
    1
}
fn d_final_games() -> usize {
    1000
}

impl Default for DqnEvalConfig {
    fn default() -> Self {
        DqnEvalConfig {
            games: d_eval_games(),
            every: d_eval_every(),
            final_games: d_final_games(),
        }
    }
}

impl DqnConfig {
    /// Parses and checks a TOML configuration.
    ///
    /// # Errors
    /// [`NnError::Config`] with the parser's message (line, unknown key) or the bad value.
    pub fn from_toml(text: &str) -> Result<Self, NnError> {
        let c: DqnConfig = toml::from_str(text).map_err(|e| NnError::Config(e.to_string()))?;
        c.validate()?;
        Ok(c)
    }

    /// Reads a configuration file.
    ///
    /// # Errors
    /// [`NnError::Io`] or as [`DqnConfig::from_toml`].
    pub fn load(path: &Path) -> Result<Self, NnError> {
        crate::config::read_config(path, Self::from_toml)
    }

    /// Checks value ranges.
    ///
    /// # Errors
    /// [`NnError::Config`] naming the key.
    pub fn validate(&self) -> Result<(), NnError> {
        let bad = |k: &str, why: &str| Err(NnError::Config(format!("{k}: {why}")));
        if self.cycles == 0 {
            return bad("cycles", "must be positive");
        }
        if !(0.0..=1.0).contains(&self.gamma) {
            return bad("gamma", "must be in 0..1");
        }
        if self.net.filters.iter().any(|&f| f == 0 || f > 4096) {
            return bad("net.filters", "each must be in 1..=4096");
        }
        if self.selfplay.games == 0 || self.selfplay.envs == 0 {
            return bad("selfplay.games / envs", "must be positive");
        }
        if self.selfplay.envs > 65_536 {
            return bad("selfplay.envs", "must be at most 65536");
        }
        let e = &self.explore;
        for (k, v) in [
            ("explore.epsilon_start", e.epsilon_start),
            ("explore.epsilon_end", e.epsilon_end),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return bad(k, "must be in 0..1");
            }
        }
        let t = &self.train;
        if t.buffer == 0 || t.batch == 0 || t.train_every == 0 || t.target_update == 0 {
            return bad(
                "train.buffer / batch / train_every / target_update",
                "must be positive",
            );
        }
        if t.buffer > 10_000_000 || t.batch > 65_536 {
            return bad("train.buffer / batch", "unreasonably large");
        }
        if !(t.lr > 0.0 && t.lr.is_finite()) {
            return bad("train.lr", "must be a positive number");
        }
        if self.eval.every == 0 {
            return bad("eval.every", "must be positive");
        }
        // Totals such as cycles x games are counted in usize: bound the factors.
        for (key, value) in [
            ("cycles", self.cycles),
            ("selfplay.games", self.selfplay.games),
            ("explore.decay_games", self.explore.decay_games),
            ("eval.games", self.eval.games),
            ("eval.final_games", self.eval.final_games),
        ] {
            if value > MAX_COUNT {
                return Err(NnError::Config(format!(
                    "{key}: {value} is more than the largest accepted, {MAX_COUNT}"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_and_bad_values_are_named() {
        let c = DqnConfig::from_toml("").unwrap();
        assert_eq!(c, DqnConfig::from_toml("masked = true").unwrap());
        assert!(c.masked);
        for (text, key) in [
            ("gamma = 1.5", "gamma"),
            ("[net]\nfilters = [8, 0, 8]", "net.filters"),
            ("[train]\nlr = -1.0", "train.lr"),
            ("[explore]\nepsilon_end = 2.0", "explore.epsilon_end"),
            ("[selfplay]\nenvs = 0", "selfplay"),
            ("cycles = 0", "cycles"),
            ("[selfplay]\ngames = 9223372036854775807", "selfplay.games"),
            (
                "[eval]\nfinal_games = 9223372036854775807",
                "eval.final_games",
            ),
        ] {
            let e = DqnConfig::from_toml(text).unwrap_err().to_string();
            assert!(e.contains(key), "{text:?} gave {e}");
        }
        let e = DqnConfig::from_toml("[train]\nbatchh = 3").unwrap_err();
        assert!(e.to_string().contains("batchh"), "{e}");
        let e = DqnConfig::from_toml("[net]\nfilters = [8, 8]").unwrap_err();
        assert!(matches!(e, NnError::Config(_)), "{e}");
        let e = DqnConfig::from_toml("[train]\nloss = \"l1\"").unwrap_err();
        assert!(e.to_string().contains("l1"), "{e}");
    }

    #[test]
    fn epsilon_decays_linearly_then_stays() {
        let e = ExploreConfig {
            epsilon_start: 1.0,
            epsilon_end: 0.1,
            decay_games: 10,
        };
        assert_eq!(e.epsilon(0), 1.0);
        assert!((e.epsilon(5) - 0.55).abs() < 1e-12);
        assert_eq!(e.epsilon(10), 0.1);
        assert_eq!(e.epsilon(1000), 0.1);
    }
}
