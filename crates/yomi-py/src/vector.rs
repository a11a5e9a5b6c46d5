//! `yomi.VectorEnv`: `n` games of one game stepped in Rust per call, for reinforcement
//! learning.
//!
//! One `step(actions)` call plays one action in each game (the player to move's), resets
//! the games that ended, and writes every game's observation (for the player to move next),
//! legal-action mask, rewards and done flag straight into numpy arrays the env owns (no
//! copy, no allocation per step); `step` returns those same arrays, overwritten by the
//! next step, as gymnasium's vector environments do with `copy=False` (`VectorEnv(...,
//! copy=True)` returns copies instead). The games run on the env's own threads with the
//! GIL released. Rewards are zero except at the step that ends a game, where they are the
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
use yomi_games::{DynGame, GameChoice};

use crate::batch::{self, EnvCore};
use crate::bridge::{rust, value_err};
use crate::game::{GameArg, PyGame, PyState};

/// One game of the vector, with its random generator (for `step_random`).
struct Env {
    core: Box<dyn EnvCore>,
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

/// One game's share of a step: the game and its slices of the buffers, as the zipped
/// iterators of [`PyVectorEnv::run`] hand them out.
type Slot<'a> = (
    (
        (
            (
                ((&'a mut Env, &'a mut [f32]), &'a mut [bool]),
                &'a mut [f32],
            ),
            &'a mut bool,
        ),
        &'a mut i64,
    ),
    &'a mut u64,
);

/// The per-game work of a step: the action (`None`: a uniformly random legal one).
fn step_one(env: &mut Env, action: Option<usize>, out: Out<'_>) -> Result<(), String> {
    match action {
        Some(a) => {
            if !out.mask.get(a).copied().unwrap_or(false) {
                return Err(format!(
                    "action {a} is not legal; legal: {:?}",
                    legal_of(out.mask)
                ));
            }
            env.core.apply(a)?;
        }
        None => env.core.random_step(&mut env.rng),
    }
    env.steps += 1;
    out.rewards.fill(0.0);
    *out.done = env.core.is_terminal();
    *out.length = 0;
    if *out.done {
        env.core.returns(out.rewards);
        *out.length = env.steps;
        env.core.reset();
        env.steps = 0;
    }
    env.core.observe(out.obs, out.mask, out.player);
    Ok(())
}

fn legal_of(mask: &[bool]) -> Vec<usize> {
    mask.iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i)
        .collect()
}

/// A C-contiguous numpy array the env owns and writes in place.
///
/// Invariants (what makes [`NpBuf::slice`] sound): the array was made by `numpy.zeros`
/// with an item size of `size_of::<T>()` and `len` items, so it owns `len` aligned values
/// of `T`'s layout (numpy's `bool` is one byte, 0 or 1); the env keeps a reference to it,
/// which makes numpy refuse to resize it, so its data never moves; only the env's methods,
/// which take `&mut self`, write it from Rust. Python code may read the arrays between
/// steps, and must not touch them from another thread while a step runs (as with any
/// buffer a C extension fills with the GIL released).
struct NpBuf<T> {
    array: Py<PyAny>,
    ptr: *mut T,
    len: usize,
}

// SAFETY: the pointer is owned data of `array` (see the invariants); sending the buffer
// to another thread sends exclusive access along with `&mut`.
unsafe impl<T: Send> Send for NpBuf<T> {}
// SAFETY: shared references give no access to the data (`slice` needs `&mut self`).
unsafe impl<T: Sync> Sync for NpBuf<T> {}

impl<T> NpBuf<T> {
    fn zeros(py: Python<'_>, shape: &[usize], dtype: &str) -> PyResult<Self> {
        let array = py
            .import("numpy")?
            .call_method1("zeros", (PyTuple::new(py, shape)?, dtype))?;
        let itemsize: usize = array.getattr("itemsize")?.extract()?;
        let len: usize = array.getattr("size")?.extract()?;
        let ptr: usize = array
            .getattr("__array_interface__")?
            .get_item("data")?
            .get_item(0)?
            .extract()?;
        if itemsize != std::mem::size_of::<T>()
            || len != shape.iter().product::<usize>()
            || ptr == 0
        {
            return Err(value_err(format!("numpy made an unexpected {dtype} array")));
        }
        Ok(NpBuf {
            array: array.unbind(),
            ptr: ptr as *mut T,
            len,
        })
    }

    fn slice(&mut self) -> &mut [T] {
        // SAFETY: see the type's invariants: `len` initialised values owned by the array,
        // which lives and stays in place as long as `self`; `&mut self` excludes every
        // other access from Rust.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    fn get<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        let array = self.array.bind(py).clone();
        if copy {
            array.call_method0("copy")
        } else {
            Ok(array)
        }
    }
}

/// `n` games stepped together (see the module documentation).
#[pyclass(name = "VectorEnv", module = "yomi")]
pub struct PyVectorEnv {
    game: Arc<dyn DynGame>,
    spec: String,
    envs: Vec<Env>,
    pool: Option<rayon::ThreadPool>,
    players: usize,
    actions: usize,
    /// Values per observation (at least 1, so that chunks of the buffer are never empty).
    obs_len: usize,
    shape: Option<[usize; 3]>,
    copy: bool,
    obs: NpBuf<f32>,
    mask: NpBuf<bool>,
    rewards: NpBuf<f32>,
    done: NpBuf<bool>,
    player: NpBuf<i64>,
    length: NpBuf<u64>,
}

impl PyVectorEnv {
    /// Runs the per-game work over every game, in parallel when the env has threads.
    fn run(&mut self, actions: Option<&[usize]>) -> Result<(), String> {
        let (ol, al, pl) = (self.obs_len, self.actions, self.players);
        let work = |(i, slot): (usize, Slot<'_>)| {
            let ((((((env, obs), mask), rewards), done), player), length) = slot;
            let out = Out {
                obs,
                mask,
                rewards,
                done,
                player,
                length,
            };
            step_one(env, actions.map(|a| a[i]), out).map_err(|e| format!("env {i}: {e}"))
        };
        let (obs, mask, rewards, done, player, length) = (
            self.obs.slice(),
            self.mask.slice(),
            self.rewards.slice(),
            self.done.slice(),
            self.player.slice(),
            self.length.slice(),
        );
        match &self.pool {
            None => self
                .envs
                .iter_mut()
                .zip(obs.chunks_mut(ol))
                .zip(mask.chunks_mut(al))
                .zip(rewards.chunks_mut(pl))
                .zip(done.iter_mut())
                .zip(player.iter_mut())
                .zip(length.iter_mut())
                .enumerate()
                .try_for_each(work),
            Some(pool) => {
                let min = (self.envs.len() / (4 * pool.current_num_threads())).max(16);
                let envs = &mut self.envs;
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
        let (ol, al) = (self.obs_len, self.actions);
        let (obs, mask, player) = (self.obs.slice(), self.mask.slice(), self.player.slice());
        for (i, env) in self.envs.iter_mut().enumerate() {
            env.core.observe(
                &mut obs[i * ol..(i + 1) * ol],
                &mut mask[i * al..(i + 1) * al],
                &mut player[i],
            );
        }
    }

    fn obs_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.shape {
            Some(_) => self.obs.get(py, self.copy),
            None => Ok(py.None().into_bound(py)),
        }
    }

    fn step_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                self.obs_array(py)?,
                self.rewards.get(py, self.copy)?,
                self.done.get(py, self.copy)?,
                self.mask.get(py, self.copy)?,
                self.player.get(py, self.copy)?,
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
    /// `VectorEnv(game, n, seed=0, threads=None, copy=False)`: `n` games of `game` (a name
    /// or a `yomi.Game`); `threads` workers (default: every core, at most 32, when `n` is at least
    /// 64, else 1). `seed` fixes `step_random`'s choices. `copy=False` returns the env's
    /// own arrays, overwritten by the next step; `copy=True` returns copies.
    #[new]
    #[pyo3(signature = (game, n, seed = 0, threads = None, copy = false))]
    fn new(
        py: Python<'_>,
        game: GameArg<'_>,
        n: usize,
        seed: u64,
        threads: Option<usize>,
        copy: bool,
    ) -> PyResult<Self> {
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
                std::thread::available_parallelism().map_or(1, |c| c.get().min(32))
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
        let choice = GameChoice::from_name(&spec).map_err(value_err)?;
        let envs: Vec<Env> = batch::cores(choice, n)
            .map_err(value_err)?
            .into_iter()
            .enumerate()
            .map(|(i, core)| Env {
                core,
                rng: Rng::seed_from_u64(derive_seed(seed, i as u64)),
                steps: 0,
            })
            .collect();
        let players = facts.players;
        let actions = game.num_actions();
        let mut env = PyVectorEnv {
            spec,
            envs,
            pool,
            players,
            actions,
            obs_len,
            shape,
            copy,
            obs: match shape {
                Some([c, h, w]) => NpBuf::zeros(py, &[n, c, h, w], "float32")?,
                None => NpBuf::zeros(py, &[n, 1], "float32")?,
            },
            mask: NpBuf::zeros(py, &[n, actions], "bool")?,
            rewards: NpBuf::zeros(py, &[n, players], "float32")?,
            done: NpBuf::zeros(py, &[n], "bool")?,
            player: NpBuf::zeros(py, &[n], "int64")?,
            length: NpBuf::zeros(py, &[n], "uint64")?,
            game,
        };
        env.observe_all();
        Ok(env)
    }

    /// Starts every game again; returns `(obs, legal_mask, current_player)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        for env in &mut self.envs {
            env.core.reset();
            env.steps = 0;
        }
        self.observe_all();
        self.rewards.slice().fill(0.0);
        self.done.slice().fill(false);
        self.length.slice().fill(0);
        PyTuple::new(
            py,
            [
                self.obs_array(py)?,
                self.mask.get(py, self.copy)?,
                self.player.get(py, self.copy)?,
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
        rust(py, || this.run(Some(&actions)))?
            .map_err(crate::bridge::IllegalActionError::new_err)?;
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
        self.length.get(py, self.copy)
    }

    /// A copy of game `i`'s state.
    fn state(&self, i: usize) -> PyResult<PyState> {
        let env = self
            .envs
            .get(i)
            .ok_or_else(|| value_err(format!("no game {i}: there are {}", self.envs.len())))?;
        let state = self
            .game
            .state_from_string(&env.core.serialize())
            .map_err(crate::bridge::dyn_err)?;
        Ok(PyGame::load_from(self.spec.clone(), self.game.clone()).state(state))
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
