//! AlphaZero training (`yomi-nn`) from Python, with each cycle's self-play played wherever
//! a Python callable says: the Ray runner (`yomi.ray.run_az_training`) cuts the batch into
//! chunks of game numbers and plays them as Ray tasks with [`az_self_play_chunk`].
//! Built with the crate's `nn` feature only (it pulls in burn).
//!
//! - `az_train(game, config, dir, self_play=None, stop_after=None, progress=True)` runs or
//!   resumes the training in `dir` ([`yomi_nn::Trainer`]); the log rows come back as dicts.
//!   Without `self_play` the games are played in this process, exactly as
//!   `yomi geister train` does.
//! - `self_play(cycle, network, seed, games)` (the callable) returns the batch's games as a
//!   list of chunks in game order, each `(samples, [first wins, draws, second wins])` with
//!   `samples` the bytes [`az_self_play_chunk`] returns. The training then goes on exactly
//!   as with local self-play: the same seed gives the same networks wherever the games ran.
//! - `az_self_play_chunk(game, config_toml, network, seed, indices, threads=None)` plays
//!   the games numbered `indices` of a batch ([`yomi_nn::selfplay::self_play_chunk`]).

use std::path::PathBuf;
use std::time::Instant;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use yomi_core::registry::AgentRegistry;
use yomi_core::TensorGame;
use yomi_games::GameChoice;
use yomi_nn::replay::{samples_from_bytes, samples_to_bytes};
use yomi_nn::selfplay::{self_play_chunk, SelfPlayBatch, SelfPlayOutput, SelfPlayRunner};
use yomi_nn::{NetSpec, NnError, TrainConfig, Trainer};

use crate::bridge::{json_to_py, rust, value_err};

/// A Python exception for a [`NnError`]: file errors are `OSError`, everything else about
/// the caller's input a `ValueError`.
fn nn_err(e: NnError) -> PyErr {
    match e {
        NnError::Io { .. } => PyOSError::new_err(e.to_string()),
        other => value_err(other.to_string()),
    }
}

/// A command run on a game that encodes tensors, with its agent registry.
trait TensorCommand {
    type Output;
    fn run<G: TensorGame>(self, game: G, registry: AgentRegistry<G>) -> PyResult<Self::Output>;
}

/// Runs `command` on the game `name` (the names of `yomi.games()`; a GDL game encodes no
/// tensors and is refused).
fn on_tensor_game<C: TensorCommand>(name: &str, command: C) -> PyResult<C::Output> {
    use yomi_classic::{breakthrough, connect_four, tictactoe, ConnectFour, TicTacToe};
    let choice = GameChoice::from_name(name).map_err(value_err)?;
    match choice {
        GameChoice::TicTacToe => command.run(TicTacToe, tictactoe::registry()),
        GameChoice::ConnectFour => command.run(ConnectFour, connect_four::registry()),
        GameChoice::Breakthrough(game) => command.run(game, breakthrough::registry()),
        GameChoice::Go(n) => command.run(
            yomi_go::GoGame::new(n as usize).map_err(|e| value_err(e.to_string()))?,
            yomi_go::registry(),
        ),
        GameChoice::Othello => command.run(yomi_othello::Othello, yomi_othello::registry()),
        GameChoice::Tubstap(game) => command.run(game, yomi_tubstap::registry()),
        GameChoice::Geister(game) => command.run(*game, yomi_games::choice::geister_registry()),
        GameChoice::Ggp(_) => Err(value_err(format!(
            "{name}: AlphaZero training needs a game that encodes tensors; GDL games do not \
             (every built-in game of yomi.games() does)"
        ))),
    }
}

/// Self-play through a Python callable (see the module documentation).
struct PySelfPlay {
    callback: Py<PyAny>,
    /// The exception the callable raised (re-raised as it is once the trainer stops).
    raised: Option<PyErr>,
}

impl<G: TensorGame> SelfPlayRunner<G> for PySelfPlay {
    fn play(
        &mut self,
        _game: &G,
        _config: &TrainConfig,
        batch: &SelfPlayBatch<'_>,
    ) -> Result<SelfPlayOutput, NnError> {
        let start = Instant::now();
        let network = batch.network_bytes()?;
        let spec: NetSpec = batch.spec;
        let plane_len = spec.shape().len();
        let policy_size = spec.policy_size;
        let chunks: Vec<(Vec<u8>, [usize; 3])> = Python::attach(|py| {
            let result = self.callback.call1(
                py,
                (
                    batch.cycle,
                    PyBytes::new(py, &network),
                    batch.seed,
                    batch.games,
                ),
            )?;
            let chunks = result.extract::<Vec<(Bound<'_, PyBytes>, [usize; 3])>>(py)?;
            Ok::<_, PyErr>(
                chunks
                    .into_iter()
                    .map(|(b, o)| (b.as_bytes().to_vec(), o))
                    .collect(),
            )
        })
        .map_err(|e| {
            let message = format!("self-play of cycle {}: {e}", batch.cycle);
            self.raised = Some(e);
            NnError::Config(message)
        })?;
        let mut samples = Vec::new();
        let mut outcomes = [0usize; 3];
        for (k, (bytes, o)) in chunks.iter().enumerate() {
            let origin = format!("self-play chunk {k} of cycle {}", batch.cycle);
            samples.extend(samples_from_bytes(bytes, &origin, plane_len, policy_size)?);
            for (total, x) in outcomes.iter_mut().zip(o) {
                *total += x;
            }
        }
        let played: usize = outcomes.iter().sum();
        if played != batch.games {
            return Err(NnError::Config(format!(
                "self-play of cycle {}: the chunks hold {played} games, the batch has {}",
                batch.cycle, batch.games
            )));
        }
        Ok(SelfPlayOutput {
            samples,
            games: batch.games,
            outcomes,
            seconds: start.elapsed().as_secs_f64(),
        })
    }
}

struct Train {
    config: PathBuf,
    dir: PathBuf,
    callback: Option<Py<PyAny>>,
    stop_after: Option<usize>,
    progress: bool,
}

impl TensorCommand for Train {
    type Output = Vec<serde_json::Value>;

    fn run<G: TensorGame>(
        self,
        game: G,
        mut registry: AgentRegistry<G>,
    ) -> PyResult<Vec<serde_json::Value>> {
        yomi_nn::az::register_az(&mut registry);
        let config = TrainConfig::load(&self.config).map_err(nn_err)?;
        let mut trainer = Trainer::new(&game, &registry, config, &self.dir).map_err(nn_err)?;
        trainer.progress = self.progress;
        let rows = match self.callback {
            None => trainer.run(self.stop_after).map_err(nn_err)?,
            Some(callback) => {
                let mut runner = PySelfPlay {
                    callback,
                    raised: None,
                };
                let result = trainer.run_with(self.stop_after, &mut runner);
                if let Some(e) = runner.raised {
                    return Err(e);
                }
                result.map_err(nn_err)?
            }
        };
        rows.iter()
            .map(|r| serde_json::to_value(r).map_err(|e| value_err(e.to_string())))
            .collect()
    }
}

/// Runs (or resumes) AlphaZero training of `game` from the TOML file `config` in `dir`;
/// returns the log rows as dicts. `self_play(cycle, network, seed, games)`, when given,
/// plays each cycle's games (see the module documentation of `yomi.ray`).
#[pyfunction]
#[pyo3(signature = (game, config, dir, self_play=None, stop_after=None, progress=true))]
fn az_train<'py>(
    py: Python<'py>,
    game: &str,
    config: PathBuf,
    dir: PathBuf,
    self_play: Option<Py<PyAny>>,
    stop_after: Option<usize>,
    progress: bool,
) -> PyResult<Bound<'py, PyList>> {
    let command = Train {
        config,
        dir,
        callback: self_play,
        stop_after,
        progress,
    };
    let game = game.to_string();
    let rows = rust(py, move || on_tensor_game(&game, command))??;
    let list = PyList::empty(py);
    for r in &rows {
        list.append(json_to_py(py, r)?)?;
    }
    Ok(list)
}

struct Chunk {
    config: TrainConfig,
    network: Vec<u8>,
    seed: u64,
    indices: Vec<usize>,
}

impl TensorCommand for Chunk {
    type Output = (Vec<u8>, [usize; 3]);

    fn run<G: TensorGame>(self, game: G, _: AgentRegistry<G>) -> PyResult<Self::Output> {
        let out = self_play_chunk(&game, &self.config, &self.network, self.seed, &self.indices)
            .map_err(nn_err)?;
        Ok((samples_to_bytes(&out.samples), out.outcomes))
    }
}

/// Plays the self-play games numbered `indices` of a batch with seed `seed`, searching
/// with `network` (a weights file's bytes) and the settings of the training configuration
/// `config_toml` (its text); `threads` overrides its self-play threads. Returns the
/// samples as bytes and the outcomes `[first wins, draws, second wins]`.
#[pyfunction]
#[pyo3(signature = (game, config_toml, network, seed, indices, threads=None))]
fn az_self_play_chunk<'py>(
    py: Python<'py>,
    game: &str,
    config_toml: &str,
    network: &[u8],
    seed: u64,
    indices: Vec<usize>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyBytes>, [usize; 3])> {
    let mut config = TrainConfig::from_toml(config_toml).map_err(nn_err)?;
    if let Some(t) = threads {
        if t == 0 {
            return Err(value_err("threads 0: expected at least 1"));
        }
        config.selfplay.threads = t;
    }
    let command = Chunk {
        config,
        network: network.to_vec(),
        seed,
        indices,
    };
    let game = game.to_string();
    let (bytes, outcomes) = rust(py, move || on_tensor_game(&game, command))??;
    Ok((PyBytes::new(py, &bytes), outcomes))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(az_train, m)?)?;
    m.add_function(wrap_pyfunction!(az_self_play_chunk, m)?)?;
    Ok(())
}
