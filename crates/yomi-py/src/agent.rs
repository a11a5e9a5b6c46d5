//! `yomi.Agent` (any agent spec string) and `yomi.search` (what a search thinks of a
//! position: per-action visits and values, principal variation).
//!
//! An agent's spec is parsed once, when the `Agent` is made; the game's registry (the same
//! as the command line's) resolves it for a game and builds the agent from that recipe.
//! `Agent(spec)` without a game builds it for the game of the first state it sees (and
//! again when a state of another game comes). Searches run
//! with the GIL released.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_core::spec::AgentSpec;
use yomi_games::{DynAgent, DynAnalysis, DynGame};

use crate::bridge::{dyn_err, rust, value_err};
use crate::game::{GameArg, PyState};

/// What `Agent.__reduce__` returns: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Option<String>, u64));

/// The agent built for one game.
struct Built {
    game: String,
    agent: Box<dyn DynAgent>,
}

/// An agent given by a spec string (`mcts:iters=10000,c=0.7`, `alphabeta:depth=6`, …).
#[pyclass(name = "Agent", module = "yomi", frozen)]
pub struct PyAgent {
    spec: AgentSpec,
    seed: u64,
    built: Mutex<Option<Built>>,
}

impl PyAgent {
    fn build(&self, game: &Arc<dyn DynGame>) -> Result<Built, yomi_games::DynError> {
        Ok(Built {
            game: game.name(),
            agent: game.resolve(&self.spec)?.build(self.seed),
        })
    }

    /// Runs `f` on the agent built for `state`'s game (building it first if needed), with
    /// the GIL released.
    fn with_agent<T: Send>(
        &self,
        py: Python<'_>,
        state: &PyState,
        f: impl FnOnce(&mut dyn DynAgent, &dyn yomi_games::DynState) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        let game = state.game.clone();
        let inner: &dyn yomi_games::DynState = state.inner.as_ref();
        rust(py, || {
            let mut built = self.built.lock().unwrap_or_else(|p| p.into_inner());
            if built.as_ref().is_none_or(|b| b.game != game.name()) {
                *built = Some(self.build(&game).map_err(dyn_err)?);
            }
            let agent = built.as_mut().expect("built above");
            f(agent.agent.as_mut(), inner)
        })?
    }
}

#[pymethods]
impl PyAgent {
    /// `Agent(spec, game=None, seed=0)`: a malformed spec raises `ValueError` at once; with
    /// a game, an unknown agent or parameter does too (listing what the game accepts).
    #[new]
    #[pyo3(signature = (spec, game = None, seed = 0))]
    fn new(spec: &str, game: Option<GameArg<'_>>, seed: u64) -> PyResult<Self> {
        let parsed: AgentSpec = spec
            .parse()
            .map_err(|e| value_err(format!("agent {spec:?}: {e}")))?;
        let agent = PyAgent {
            spec: parsed,
            seed,
            built: Mutex::new(None),
        };
        if let Some(game) = game {
            let (_, g) = game.load()?;
            let built = agent.build(&g).map_err(dyn_err)?;
            *agent.built.lock().unwrap_or_else(|p| p.into_inner()) = Some(built);
        }
        Ok(agent)
    }

    /// The spec in canonical form.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The action this agent plays in `state` for `player` (default: the player to move;
    /// give it at simultaneous turns).
    #[pyo3(signature = (state, player = None))]
    fn step(
        &self,
        py: Python<'_>,
        state: PyRef<'_, PyState>,
        player: Option<usize>,
    ) -> PyResult<usize> {
        let p = state.who(player, "step")?;
        self.with_agent(py, &state, |agent, s| agent.step(s, p).map_err(dyn_err))
    }

    /// What the agent's search thinks of `state` (see `yomi.search`), or `None` for agents
    /// that keep no statistics (random, alpha-beta).
    #[pyo3(signature = (state, player = None))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        state: PyRef<'_, PyState>,
        player: Option<usize>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let p = state.who(player, "analyse")?;
        let analysis =
            self.with_agent(py, &state, |agent, s| agent.analyse(s, p).map_err(dyn_err))?;
        analysis.map(|a| analysis_dict(py, &a)).transpose()
    }

    /// Tells the agent, playing `player` (default: the player to move), the step played
    /// from `state` (`action`, or one action per player at a simultaneous turn), so a search
    /// can keep its tree. In hidden-information games it learns only what `player` sees.
    #[pyo3(signature = (state, action, player = None))]
    fn observe(
        &self,
        py: Python<'_>,
        state: PyRef<'_, PyState>,
        action: &Bound<'_, PyAny>,
        player: Option<usize>,
    ) -> PyResult<()> {
        let actions: Vec<usize> = match action.extract::<usize>() {
            Ok(a) => vec![a],
            Err(_) => action.extract()?,
        };
        let p = state.who(player, "observe")?;
        self.with_agent(py, &state, |agent, s| {
            agent.observe(s, p, &actions);
            Ok(())
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "yomi.Agent({:?}, seed={})",
            self.spec.to_string(),
            self.seed
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let cls = py.import("yomi")?.getattr("Agent")?;
        Ok((cls, (self.spec.to_string(), None, self.seed)))
    }
}

/// The dict of an analysis: `player`, `value`, `iterations`, `seconds`, `pv` (moves),
/// `actions` (one dict per root action: `action`, `move`, `visits`, `value`, `prior`),
/// `visits` and `values` (by action), `best` (the most visited action).
fn analysis_dict<'py>(py: Python<'py>, a: &DynAnalysis) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", a.player)?;
    d.set_item("value", a.value)?;
    d.set_item("iterations", a.iterations)?;
    d.set_item("seconds", a.seconds)?;
    d.set_item("pv", &a.pv)?;
    let actions = PyList::empty(py);
    let visits = PyDict::new(py);
    let values = PyDict::new(py);
    for m in &a.actions {
        let md = PyDict::new(py);
        md.set_item("action", m.action)?;
        md.set_item("move", &m.text)?;
        md.set_item("visits", m.visits)?;
        md.set_item("value", m.value)?;
        md.set_item("prior", m.prior)?;
        actions.append(md)?;
        visits.set_item(m.action, m.visits)?;
        values.set_item(m.action, m.value)?;
    }
    d.set_item("actions", actions)?;
    d.set_item("visits", visits)?;
    d.set_item("values", values)?;
    let best = a.actions.iter().max_by_key(|m| m.visits).map(|m| m.action);
    d.set_item("best", best)?;
    Ok(d)
}

/// Searches `state` with the agent `spec` (default `mcts:iters=1000`) for `player`
/// (default: the player to move) and returns the analysis dict (see `Agent.analyse`).
/// Raises `ValueError` for agents that keep no search statistics.
#[pyfunction]
#[pyo3(signature = (state, spec = "mcts:iters=1000", player = None, seed = 0))]
fn search<'py>(
    py: Python<'py>,
    state: PyRef<'_, PyState>,
    spec: &str,
    player: Option<usize>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let agent = PyAgent::new(spec, None, seed)?;
    let p = state.who(player, "search")?;
    let analysis = agent.with_agent(py, &state, |agent, s| agent.analyse(s, p).map_err(dyn_err))?;
    match analysis {
        Some(a) => analysis_dict(py, &a),
        None => Err(value_err(format!(
            "agent {:?} keeps no search statistics; use a tree search such as mcts",
            agent.spec
        ))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    Ok(())
}
