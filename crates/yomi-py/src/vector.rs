//! `yomi.VectorEnv`: `n` games of one game stepped in Rust per call, for reinforcement
//! learning.
//!
//! One `step(actions)` call plays one action in each game (the player to move's), resets
//! the games that ended, and writes every game's observation (for the player to move next),
//! legal-action mask, rewards and done flag into buffers it owns; those are handed to
//! Python as fresh numpy arrays. The games run on the env's own threads with the GIL
//! released. Rewards are zero except at the step that ends a game, where they are the
//! final returns (in the game's units, one per player); the observation returned with
//! `done = True` is already that of the next game.
//!
//! Simultaneous-move games are not supported (their turns need one action per player).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rayon::prelude::*;
use yomi_core::rng::derive_seed;
use yomi_core::{Dynamics, Rng};
use yomi_games::{Actor, DynGame, DynState};

use crate::game::{GameArg, PyGame, PyState};
use crate::{ndarray, rust, value_err};

/// One game of the vector, with its random generator (for `step_random`).
struct Env {
    state: Box<dyn DynState>,
    rng: Rng,
    steps: u64,
}

/// What one game writes per step.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    done: &'a mut bool,
    player: &'a mut i64,
    length: &'a mut u64,
}

/// The per-game work of a step: the action (`None`: a uniformly random legal one).
fn step_one(
    env: &mut Env,
    initial: &dyn DynState,
    action: Option<usize>,
    encode: bool,
    out: Out<'_>,
) -> Result<(), String> {
    match action {
        Some(a) => {
            if !out.mask.get(a).copied().unwrap_or(false) {
                return Err(format!(
                    "action {a} is not legal; legal: {:?}",
                    legal_of(out.mask)
                ));
            }
            env.state.apply_action(a).map_err(|e| e.to_string())?;
        }
        None => {
            env.state.random_rollout_step(&mut env.rng);
        }
    }
    env.steps += 1;
    out.rewards.fill(0.0);
    *out.done = env.state.is_terminal();
    *out.length = 0;
    if *out.done {
        for (r, x) in out.rewards.iter_mut().zip(env.state.returns()) {
            *r = x as f32;
        }
        *out.length = env.steps;
        env.state = initial.clone_box();
        env.steps = 0;
    }
    observe(env.state.as_ref(), encode, out.obs, out.mask, out.player);
    Ok(())
}

/// Writes the observation, mask and player to move of `state`.
fn observe(
    state: &dyn DynState,
    encode: bool,
    obs: &mut [f32],
    mask: &mut [bool],
    player: &mut i64,
) {
    match state.actor() {
        Actor::Player(p) => {
            state.legal_mask(p, mask);
            if encode {
                // The length was checked when the env was made.
                let _ = state.observation_tensor(p, obs);
            }
            *player = p as i64;
        }
        other => {
            mask.fill(false);
            obs.fill(0.0);
            *player = other.as_openspiel();
        }
    }
}

fn legal_of(mask: &[bool]) -> Vec<usize> {
    mask.iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i)
        .collect()
}

/// `n` games stepped together (see the module documentation).
#[pyclass(name = "VectorEnv", module = "yomi")]
pub struct PyVectorEnv {
    game: Arc<dyn DynGame>,
    spec: String,
    initial: Box<dyn DynState>,
    envs: Vec<Env>,
    pool: Option<rayon::ThreadPool>,
    players: usize,
    actions: usize,
    /// Values per observation (at least 1, so that chunks of the buffer are never empty).
    obs_len: usize,
    shape: Option<[usize; 3]>,
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    done: Vec<bool>,
    player: Vec<i64>,
    length: Vec<u64>,
}

impl PyVectorEnv {
    /// Runs the per-game work over every game, in parallel when the env has threads.
    fn run(&mut self, actions: Option<&[usize]>) -> Result<(), String> {
        let initial = self.initial.as_ref();
        let encode = self.shape.is_some();
        let (ol, al, pl) = (self.obs_len, self.actions, self.players);
        let work = |(i, ((((((env, obs), mask), rewards), done), player), length)): (
            usize,
            (
                (
                    (
                        (((&mut Env, &mut [f32]), &mut [bool]), &mut [f32]),
                        &mut bool,
                    ),
                    &mut i64,
                ),
                &mut u64,
            ),
        )| {
            let out = Out {
                obs,
                mask,
                rewards,
                done,
                player,
                length,
            };
            step_one(env, initial, actions.map(|a| a[i]), encode, out)
                .map_err(|e| format!("env {i}: {e}"))
        };
        match &self.pool {
            None => self
                .envs
                .iter_mut()
                .zip(self.obs.chunks_mut(ol))
                .zip(self.mask.chunks_mut(al))
                .zip(self.rewards.chunks_mut(pl))
                .zip(self.done.iter_mut())
                .zip(self.player.iter_mut())
                .zip(self.length.iter_mut())
                .enumerate()
                .try_for_each(work),
            Some(pool) => {
                let min = (self.envs.len() / (4 * pool.current_num_threads())).max(16);
                let (envs, obs, mask, rewards, done, player, length) = (
                    &mut self.envs,
                    &mut self.obs,
                    &mut self.mask,
                    &mut self.rewards,
                    &mut self.done,
                    &mut self.player,
                    &mut self.length,
                );
                pool.install(|| {
                    envs.par_iter_mut()
                        .zip(obs.par_chunks_mut(ol))
                        .zip(mask.par_chunks_mut(al))
                        .zip(rewards.par_chunks_mut(pl))
                        .zip(done.par_iter_mut())
                        .zip(player.par_iter_mut())
                        .zip(length.par_iter_mut())
                        .enumerate()
                        .with_min_len(min)
                        .try_for_each(work)
                })
            }
        }
    }

    fn observe_all(&mut self) {
        let encode = self.shape.is_some();
        for (i, env) in self.envs.iter().enumerate() {
            let (ol, al) = (self.obs_len, self.actions);
            observe(
                env.state.as_ref(),
                encode,
                &mut self.obs[i * ol..(i + 1) * ol],
                &mut self.mask[i * al..(i + 1) * al],
                &mut self.player[i],
            );
        }
    }

    fn obs_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.shape {
            Some([c, h, w]) => ndarray(
                py,
                bytemuck::cast_slice(&self.obs),
                "float32",
                &[self.envs.len(), c, h, w],
            ),
            None => Ok(py.None().into_bound(py)),
        }
    }

    fn mask_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        ndarray(
            py,
            bytemuck::cast_slice::<bool, u8>(&self.mask),
            "bool",
            &[self.envs.len(), self.actions],
        )
    }

    fn player_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        ndarray(
            py,
            bytemuck::cast_slice(&self.player),
            "int64",
            &[self.envs.len()],
        )
    }

    fn step_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.envs.len();
        PyTuple::new(
            py,
            [
                self.obs_array(py)?,
                ndarray(
                    py,
                    bytemuck::cast_slice(&self.rewards),
                    "float32",
                    &[n, self.players],
                )?,
                ndarray(
                    py,
                    bytemuck::cast_slice::<bool, u8>(&self.done),
                    "bool",
                    &[n],
                )?,
                self.mask_array(py)?,
                self.player_array(py)?,
            ],
        )
    }

    /// The actions of a step as integers, from a numpy array or any sequence.
    fn read_actions(py: Python<'_>, actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<usize>> {
        let numpy = py.import("numpy")?;
        let array = numpy.call_method1("ascontiguousarray", (actions, "int64"))?;
        let bytes = array.call_method0("tobytes")?;
        let bytes = bytes.cast::<PyBytes>()?.as_bytes();
        let values: Vec<i64> = bytes
            .chunks_exact(8)
            .map(|b| i64::from_ne_bytes(b.try_into().expect("chunks of 8 bytes")))
            .collect();
        if values.len() != n {
            return Err(value_err(format!(
                "{} actions given for {n} games (one per game)",
                values.len()
            )));
        }
        Ok(values
            .iter()
            .map(|&a| usize::try_from(a).unwrap_or(usize::MAX))
            .collect())
    }
}

#[pymethods]
impl PyVectorEnv {
    /// `VectorEnv(game, n, seed=0, threads=None)`: `n` games of `game` (a name or a
    /// `yomi.Game`); `threads` workers (default: up to 8 cores when `n` is at least 64,
    /// else 1). `seed` fixes `step_random`'s choices.
    #[new]
    #[pyo3(signature = (game, n, seed = 0, threads = None))]
    fn new(game: GameArg<'_>, n: usize, seed: u64, threads: Option<usize>) -> PyResult<Self> {
        let (spec, game) = game.load()?;
        let facts = game.facts();
        if facts.dynamics == Dynamics::Simultaneous {
            return Err(value_err(format!(
                "{} has simultaneous turns; VectorEnv steps sequential games (use State.apply_actions)",
                game.name()
            )));
        }
        if n == 0 || n > 1 << 24 {
            return Err(value_err(format!("n = {n}: give 1 to 16777216 games")));
        }
        let threads = threads.unwrap_or_else(|| {
            if n >= 64 {
                std::thread::available_parallelism().map_or(1, |c| c.get().min(8))
            } else {
                1
            }
        });
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads.min(1024))
                    .build()
                    .map_err(|e| value_err(format!("cannot start {threads} threads: {e}")))?,
            )
        } else {
            None
        };
        let shape = game.tensor_shape().map(|s| [s.channels, s.height, s.width]);
        let obs_len = game.tensor_shape().map_or(1, |s| s.len().max(1));
        let initial = game.new_initial_state();
        let envs: Vec<Env> = (0..n)
            .map(|i| Env {
                state: initial.clone_box(),
                rng: Rng::seed_from_u64(derive_seed(seed, i as u64)),
                steps: 0,
            })
            .collect();
        let players = facts.players;
        let actions = game.num_actions();
        let mut env = PyVectorEnv {
            spec,
            initial,
            envs,
            pool,
            players,
            actions,
            obs_len,
            shape,
            obs: vec![0.0; n * obs_len],
            mask: vec![false; n * actions],
            rewards: vec![0.0; n * players],
            done: vec![false; n],
            player: vec![0; n],
            length: vec![0; n],
            game,
        };
        env.observe_all();
        Ok(env)
    }

    /// Starts every game again; returns `(obs, legal_mask, current_player)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        for env in &mut self.envs {
            env.state = self.initial.clone_box();
            env.steps = 0;
        }
        self.observe_all();
        self.rewards.fill(0.0);
        self.done.fill(false);
        PyTuple::new(
            py,
            [
                self.obs_array(py)?,
                self.mask_array(py)?,
                self.player_array(py)?,
            ],
        )
    }

    /// Plays `actions[i]` in game `i` (a numpy integer array or sequence of `n` actions)
    /// and returns `(obs, rewards, done, legal_mask, current_player)`: observations
    /// `(n, C, H, W)` float32 (None for games without a tensor encoding), rewards
    /// `(n, players)` float32, done `(n,)` bool, legal mask `(n, num_actions)` bool,
    /// current player `(n,)` int64. Ended games restart at once. An illegal action
    /// raises `yomi.IllegalActionError` naming the game and its legal actions (games
    /// before it in the batch may have moved).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = Self::read_actions(py, actions, self.envs.len())?;
        let this = &mut *self;
        rust(py, || this.run(Some(&actions)))?.map_err(crate::IllegalActionError::new_err)?;
        self.step_result(py)
    }

    /// Like `step` with a uniformly random legal action in every game, chosen in Rust.
    fn step_random<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let this = &mut *self;
        rust(py, || this.run(None))?.map_err(value_err)?;
        self.step_result(py)
    }

    /// The length (in moves) of the games that ended at the last step, 0 for the others.
    fn episode_lengths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        ndarray(
            py,
            bytemuck::cast_slice(&self.length),
            "uint64",
            &[self.envs.len()],
        )
    }

    /// A copy of game `i`'s state.
    fn state(&self, i: usize) -> PyResult<PyState> {
        let env = self
            .envs
            .get(i)
            .ok_or_else(|| value_err(format!("no game {i}: there are {}", self.envs.len())))?;
        let game = PyGame::load_from(self.spec.clone(), self.game.clone());
        Ok(game.state(env.state.clone_box()))
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.len()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.players
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// `(C, H, W)`, or None for games without a tensor encoding.
    #[getter]
    fn observation_shape(&self) -> Option<(usize, usize, usize)> {
        self.shape.map(|[c, h, w]| (c, h, w))
    }

    #[getter]
    fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    fn __len__(&self) -> usize {
        self.envs.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "yomi.VectorEnv({:?}, n={}, threads={})",
            self.spec,
            self.envs.len(),
            self.threads()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()?;
    Ok(())
}
