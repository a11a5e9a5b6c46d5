//! `yomi.Game`, `yomi.State`, `yomi.load_game` and `yomi.games`: OpenSpiel's `pyspiel`
//! shape over [`DynGame`] and [`DynState`].
//!
//! Actions are the game's fixed integers (`0..num_distinct_actions()`).
//! `current_player()` is the player to move, [`crate::SIMULTANEOUS`] (-2) when every player
//! moves at once, [`crate::TERMINAL`] (-4) when the game is over. `str(state)` shows the
//! whole state (the referee's view); `observation_string(p)` and `observation_tensor(p)`
//! show only what player `p` may see.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_core::{Dynamics, Information, TensorShape, Utility};
use yomi_games::{Actor, DynGame, DynState, BUILT_IN};

use crate::bridge::{dyn_err, guard, ndarray, value_err};

/// A game chosen by name (`yomi.load_game`).
#[pyclass(name = "Game", module = "yomi", frozen)]
pub struct PyGame {
    /// The name it was loaded by (for pickling: a worker loads it again).
    pub(crate) spec: String,
    pub(crate) inner: Arc<dyn DynGame>,
}

impl PyGame {
    pub(crate) fn load(name: &str) -> PyResult<Self> {
        let inner = guard(|| yomi_games::load_game(name))?.map_err(dyn_err)?;
        Ok(PyGame {
            spec: name.to_string(),
            inner,
        })
    }

    /// The game `inner`, loaded by the name `spec`.
    pub(crate) fn load_from(spec: String, inner: Arc<dyn DynGame>) -> Self {
        PyGame { spec, inner }
    }

    pub(crate) fn state(&self, inner: Box<dyn DynState>) -> PyState {
        PyState {
            game: self.inner.clone(),
            spec: self.spec.clone(),
            shape: self.inner.tensor_shape(),
            num_actions: self.inner.num_actions(),
            inner,
        }
    }
}

/// A game given as a `yomi.Game` or by name.
#[derive(FromPyObject)]
pub(crate) enum GameArg<'py> {
    Game(Bound<'py, PyGame>),
    Name(String),
}

impl GameArg<'_> {
    pub(crate) fn load(&self) -> PyResult<(String, Arc<dyn DynGame>)> {
        match self {
            GameArg::Game(g) => Ok((g.get().spec.clone(), g.get().inner.clone())),
            GameArg::Name(n) => {
                let g = PyGame::load(n)?;
                Ok((g.spec, g.inner))
            }
        }
    }
}

#[pymethods]
impl PyGame {
    /// The name the game was loaded by (what `load_game` was given).
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The canonical name (`connect4`, `go-9x9`, `breakthrough-6x6`, …).
    fn name(&self) -> String {
        self.inner.name()
    }

    fn num_players(&self) -> usize {
        self.inner.facts().players
    }

    /// The number of distinct integer actions; every legal action is below it.
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_actions()
    }

    fn player_names(&self) -> Vec<String> {
        self.inner.facts().player_names.clone()
    }

    /// `[channels, height, width]` of `State.observation_tensor`, or `None` when the game
    /// has no tensor encoding (TUBSTAP, GDL games).
    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        self.inner
            .tensor_shape()
            .map(|s| vec![s.channels, s.height, s.width])
    }

    fn observation_tensor_size(&self) -> Option<usize> {
        self.inner.tensor_shape().map(|s| s.len())
    }

    /// An upper bound on the number of moves of a game, when the game declares one.
    fn max_game_length(&self) -> Option<usize> {
        self.inner.facts().max_turns
    }

    fn min_utility(&self) -> f64 {
        self.inner.facts().reward_bounds.0
    }

    fn max_utility(&self) -> f64 {
        self.inner.facts().reward_bounds.1
    }

    /// `"zero_sum"`, `"constant_sum"` or `"general_sum"`.
    fn utility(&self) -> &'static str {
        match self.inner.facts().utility {
            Utility::ZeroSum => "zero_sum",
            Utility::ConstantSum(_) => "constant_sum",
            Utility::GeneralSum => "general_sum",
        }
    }

    fn is_simultaneous(&self) -> bool {
        self.inner.facts().dynamics == Dynamics::Simultaneous
    }

    fn has_perfect_information(&self) -> bool {
        self.inner.facts().information == Information::Perfect
    }

    fn new_initial_state(&self) -> PyResult<PyState> {
        Ok(self.state(guard(|| self.inner.new_initial_state())?))
    }

    /// The state written `text` (what `State.serialize()` returns); its history starts there.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let inner = guard(|| self.inner.state_from_string(text))?.map_err(dyn_err)?;
        Ok(self.state(inner))
    }

    /// The agents of this game: a list of dicts with `name`, `summary`, `params` (each
    /// `key`, `default`, `help`) and `interactive`.
    fn agents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for a in self.inner.agents() {
            let d = PyDict::new(py);
            d.set_item("name", &a.name)?;
            d.set_item("summary", &a.summary)?;
            let params = PyList::empty(py);
            for p in &a.params {
                let pd = PyDict::new(py);
                pd.set_item("key", p.key)?;
                pd.set_item("default", p.default)?;
                pd.set_item("help", p.help)?;
                params.append(pd)?;
            }
            d.set_item("params", params)?;
            d.set_item("interactive", a.interactive)?;
            list.append(d)?;
        }
        Ok(list)
    }

    fn __str__(&self) -> String {
        self.inner.name()
    }

    fn __repr__(&self) -> String {
        format!("yomi.load_game({:?})", self.spec)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|o| o.get().inner.name() == self.inner.name())
    }

    fn __hash__(&self) -> u64 {
        let name = self.inner.name();
        u64::from_str_radix(&yomi_core::arena::setup_fingerprint(&name), 16).unwrap_or(0)
    }

    /// Pickles as the name it was loaded by (Ray sends games to workers this way).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = py.import("yomi")?.getattr("load_game")?;
        Ok((load, (self.spec.clone(),)))
    }
}

/// One position of a game, with the moves played since the start.
#[pyclass(name = "State", module = "yomi")]
pub struct PyState {
    pub(crate) game: Arc<dyn DynGame>,
    spec: String,
    shape: Option<TensorShape>,
    num_actions: usize,
    pub(crate) inner: Box<dyn DynState>,
}

impl PyState {
    /// `player`, or the player to move when `None`.
    pub(crate) fn who(&self, player: Option<usize>, what: &str) -> PyResult<usize> {
        let n = self.inner.num_players();
        match player {
            Some(p) if p < n => Ok(p),
            Some(p) => Err(value_err(format!(
                "no player {p}: {} has players 0..{n}",
                self.game.name()
            ))),
            None => match self.inner.actor() {
                Actor::Player(p) => Ok(p),
                Actor::Simultaneous => Err(value_err(format!(
                    "{what}: every player moves at this state; give the player"
                ))),
                Actor::Terminal => Err(value_err(format!(
                    "{what}: the game is over; give the player"
                ))),
            },
        }
    }

    fn action(action: i64) -> usize {
        usize::try_from(action).unwrap_or(usize::MAX)
    }
}

#[pymethods]
impl PyState {
    /// The player to move, `yomi.SIMULTANEOUS` (-2) or `yomi.TERMINAL` (-4).
    fn current_player(&self) -> i64 {
        self.inner.actor().as_openspiel()
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    fn is_simultaneous_node(&self) -> bool {
        self.inner.actor() == Actor::Simultaneous
    }

    /// Always `False`: yomi's games have no chance moves (dice are part of the state).
    fn is_chance_node(&self) -> bool {
        false
    }

    fn is_player_node(&self) -> bool {
        matches!(self.inner.actor(), Actor::Player(_))
    }

    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    fn num_distinct_actions(&self) -> usize {
        self.num_actions
    }

    /// `player`'s legal actions, ascending (default: the player to move; empty at the end).
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<usize>) -> PyResult<Vec<usize>> {
        if player.is_none() && self.inner.is_terminal() {
            return Ok(Vec::new());
        }
        let p = self.who(player, "legal_actions")?;
        guard(|| self.inner.legal_actions(p))
    }

    /// A numpy bool array of `num_distinct_actions()` values, true at the legal actions.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![false; self.num_actions];
        if !(player.is_none() && self.inner.is_terminal()) {
            let p = self.who(player, "legal_actions_mask")?;
            guard(|| self.inner.legal_mask(p, &mut mask))?;
        }
        ndarray(
            py,
            bytemuck::cast_slice::<bool, u8>(&mask),
            "bool",
            &[mask.len()],
        )
    }

    /// `player`'s legal moves in the game's notation, in the game's order.
    #[pyo3(signature = (player = None))]
    fn legal_moves(&self, player: Option<usize>) -> PyResult<Vec<String>> {
        if player.is_none() && self.inner.is_terminal() {
            return Ok(Vec::new());
        }
        let p = self.who(player, "legal_moves")?;
        guard(|| self.inner.legal_move_texts(p))
    }

    /// Plays `action` for the player to move. Raises `yomi.IllegalActionError` (a
    /// `ValueError`) naming the legal actions; the state is then unchanged.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = Self::action(action);
        guard(|| self.inner.apply_action(a))?.map_err(dyn_err)
    }

    /// Plays one action per player (at a sequential turn only the mover's is used).
    fn apply_actions(&mut self, actions: Vec<i64>) -> PyResult<()> {
        let actions: Vec<usize> = actions.into_iter().map(Self::action).collect();
        guard(|| self.inner.apply_actions(&actions))?.map_err(dyn_err)
    }

    /// Plays the move written `text` for the player to move.
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        let p = self.who(None, "apply_move")?;
        let a = guard(|| self.inner.string_to_action(p, text))?.map_err(dyn_err)?;
        guard(|| self.inner.apply_action(a))?.map_err(dyn_err)
    }

    /// Every player's reward in the game's units (meaningful at terminal states).
    fn returns(&self) -> PyResult<Vec<f64>> {
        guard(|| self.inner.returns())
    }

    fn player_return(&self, player: usize) -> PyResult<f64> {
        let p = self.who(Some(player), "player_return")?;
        Ok(guard(|| self.inner.returns())?[p])
    }

    /// `action_to_string(action)` for the player to move, or
    /// `action_to_string(player, action)`.
    #[pyo3(signature = (a, b = None))]
    fn action_to_string(&self, a: i64, b: Option<i64>) -> PyResult<String> {
        let (player, action) = match b {
            None => (self.who(None, "action_to_string")?, a),
            Some(action) => (
                self.who(Some(usize::try_from(a).unwrap_or(usize::MAX)), "")?,
                action,
            ),
        };
        let action = Self::action(action);
        guard(|| self.inner.action_to_string(player, action))?.map_err(dyn_err)
    }

    /// `string_to_action(text)` for the player to move, or
    /// `string_to_action(player, text)`.
    #[pyo3(signature = (a, b = None))]
    fn string_to_action(&self, a: &Bound<'_, PyAny>, b: Option<String>) -> PyResult<usize> {
        let (player, text) = match b {
            None => (self.who(None, "string_to_action")?, a.extract::<String>()?),
            Some(text) => (self.who(Some(a.extract::<usize>()?), "")?, text),
        };
        guard(|| self.inner.string_to_action(player, &text))?.map_err(dyn_err)
    }

    /// What `player` sees (default: the player to move), as a float32 numpy array of shape
    /// `game.observation_tensor_shape()`.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let Some(shape) = self.shape else {
            return Err(value_err(format!(
                "{} has no tensor encoding; use observation_string",
                self.game.name()
            )));
        };
        let p = self.who(player, "observation_tensor")?;
        let mut out = vec![0f32; shape.len()];
        guard(|| self.inner.observation_tensor(p, &mut out))?.map_err(dyn_err)?;
        ndarray(
            py,
            bytemuck::cast_slice(&out),
            "float32",
            &[shape.channels, shape.height, shape.width],
        )
    }

    /// What `player` sees (default: the player to move), as text.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<usize>) -> PyResult<String> {
        let p = self.who(player, "observation_string")?;
        guard(|| self.inner.observation_string(p))
    }

    /// The whole state in the game's notation (`game.deserialize_state` reads it).
    fn serialize(&self) -> PyResult<String> {
        guard(|| self.inner.serialize())
    }

    /// The actions played since the start, flat (a simultaneous step adds one per player).
    fn history(&self) -> Vec<usize> {
        self.inner.history().iter().flatten().copied().collect()
    }

    /// The steps played since the start, one list of actions per step.
    fn full_history(&self) -> Vec<Vec<usize>> {
        self.inner.history().to_vec()
    }

    /// The moves played since the start, in the game's notation.
    fn history_str(&self) -> Vec<String> {
        self.inner.history_texts()
    }

    fn move_number(&self) -> usize {
        self.inner.history().len()
    }

    fn game(&self) -> PyGame {
        PyGame::load_from(self.spec.clone(), self.game.clone())
    }

    fn clone(&self) -> PyState {
        PyState {
            game: self.game.clone(),
            spec: self.spec.clone(),
            shape: self.shape,
            num_actions: self.num_actions,
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    fn __str__(&self) -> PyResult<String> {
        guard(|| self.inner.render())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "<yomi.State {}: {}>",
            self.game.name(),
            guard(|| self.inner.serialize())?
        ))
    }

    fn __hash__(&self) -> u64 {
        self.inner.state_hash()
    }
}

/// The game called `name`. Raises `ValueError` listing the accepted names.
#[pyfunction]
fn load_game(name: &str) -> PyResult<PyGame> {
    PyGame::load(name)
}

/// The names of the built-in games (`details=True`: dicts with `name` and `summary`).
/// Besides these: `go:N`, `breakthrough:WxH`, `tubstap:MAP.tbsmap`, `ggp:FILE.kif`.
#[pyfunction]
#[pyo3(signature = (details = false))]
fn games(py: Python<'_>, details: bool) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for g in BUILT_IN {
        if details {
            let d = PyDict::new(py);
            d.set_item("name", g.name)?;
            d.set_item("summary", g.summary)?;
            list.append(d)?;
        } else {
            list.append(g.name)?;
        }
    }
    Ok(list)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    Ok(())
}
