//! # yomi-nn
//!
//! Neural networks for yomi, game-independent: any game that implements
//! [`yomi_core::TensorGame`] (a tensor encoding and a policy index per move) gets
//!
//! - a dual (policy + value) residual network on [burn](https://burn.dev) ([`net`]), with
//!   the size as a parameter and a small versioned weights file;
//! - a choice of burn backend at run time ([`device`]): the pure-Rust `flex` CPU backend by
//!   default, LibTorch (`tch`) and CUDA behind cargo features that are off by default;
//! - a batching evaluation service ([`service`]): many search threads, one network thread;
//! - AlphaZero search on core's one MCTS ([`az`]): PUCT with network priors and values,
//!   root Dirichlet noise, temperature, and the `az:net=PATH,sims=N` agent;
//! - training ([`train`]): self-play ([`selfplay`]) → replay buffer ([`replay`]) → Adam
//!   ([`learner`]) → optional gate, configured by one TOML file ([`config`]), checkpointed
//!   every cycle with an exact resume, logged as CSV and PNG ([`plot`]);
//! - DQN self-play ([`dqn`]): a 3-conv + 1-FC Q-network, replay, target network, ε-greedy,
//!   masked or unmasked (illegal = loss) moves, evaluation against random.
//!
//! ```no_run
//! use yomi_core::registry::AgentRegistry;
//! use yomi_classic::TicTacToe;
//! let mut registry = AgentRegistry::<TicTacToe>::with_core_agents();
//! yomi_nn::az::register_az(&mut registry);
//! let agent = registry.build(&TicTacToe, "az:net=ttt.ynn,sims=50", 1).unwrap();
//! ```

#![warn(missing_docs)]

pub mod az;
mod checkpoint;
pub mod config;
pub mod cycle_log;
pub mod device;
pub mod dqn;
pub mod learner;
pub mod net;
pub mod plot;
pub mod replay;
pub mod selfplay;
pub mod service;
pub mod train;

use std::path::PathBuf;

pub use az::{register_az, register_az_with_builtin, AzAgent, AzParams};
pub use config::TrainConfig;
pub use device::DeviceKind;
pub use net::{DualNet, NetConfig, NetSpec};
pub use service::{EvalService, NetClient};
pub use train::{LogRow, Trainer};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum NnError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A file is not in the expected format.
    #[error("bad file format: {0}")]
    Format(String),
    /// A weights or checkpoint file of another format version.
    #[error("format version {found}, this build reads version {expected}")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// burn could not read or apply a record.
    #[error("weights record: {0}")]
    Record(String),
    /// A network does not fit the game.
    #[error("{0}")]
    Mismatch(String),
    /// Drawing the log plot failed.
    #[error("plot: {0}")]
    Plot(String),
    /// A configuration value is not usable.
    #[error("configuration: {0}")]
    Config(String),
}
