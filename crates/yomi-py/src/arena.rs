//! Round robins from Python: `round_robin` (what `yomi.match` and `yomi.tournament` call),
//! `read_records`, `tournament_file`, and the chunked runs the Ray runner
//! (`yomi.ray`) distributes: `Journal` (owns the records file) and `play_chunk` (runs
//! anywhere).
//!
//! Configurations cross as JSON of [`RoundRobin`] (the keys of a tournament file); records
//! as JSON lines of [`GameRecord`], the records file's own format; results as plain
//! dicts. Everything that plays games runs with the GIL released.

use std::path::Path;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use yomi_core::arena::{
    read_records as core_read_records, ArenaError, GameRecord, Journal, RoundRobin, TableFormat,
    TournamentResult,
};
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;
use yomi_games::tournament_file::TournamentFile;
use yomi_games::{GameChoice, GameCommand};

use crate::bridge::{json_to_py, rust, value_err};

/// The Python exception for an arena error: file trouble is `OSError`, the rest
/// `ValueError`.
fn arena_err(e: anyhow::Error) -> PyErr {
    match e.downcast_ref::<ArenaError>() {
        Some(ArenaError::Io { .. }) => PyOSError::new_err(format!("{e:#}")),
        _ => value_err(format!("{e:#}")),
    }
}

fn choice(game: &str) -> PyResult<GameChoice> {
    GameChoice::from_name(game).map_err(value_err)
}

fn config(json: &str) -> PyResult<RoundRobin> {
    serde_json::from_str(json).map_err(|e| value_err(format!("configuration: {e}")))
}

/// `(result dict, text report, Markdown report)` of a result.
fn result_tuple<'py>(py: Python<'py>, result: &TournamentResult) -> PyResult<Bound<'py, PyTuple>> {
    let value = serde_json::to_value(result).map_err(|e| value_err(e.to_string()))?;
    PyTuple::new(
        py,
        [
            json_to_py(py, &value)?,
            result
                .report(TableFormat::Text)
                .into_pyobject(py)?
                .into_any(),
            result
                .report(TableFormat::Markdown)
                .into_pyobject(py)?
                .into_any(),
        ],
    )
}

struct Run(RoundRobin);

impl GameCommand for Run {
    type Output = TournamentResult;

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<TournamentResult> {
        Ok(self.0.run(&game, &registry)?)
    }
}

struct OpenJournal(RoundRobin);

impl GameCommand for OpenJournal {
    type Output = Journal;

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<Journal> {
        Ok(self.0.journal(&game, &registry)?)
    }
}

struct PlayChunk(RoundRobin, Vec<usize>);

impl GameCommand for PlayChunk {
    type Output = Vec<GameRecord>;

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<Vec<GameRecord>> {
        Ok(self.0.play_chunk(&game, &registry, &self.1)?)
    }
}

/// Runs the round robin `config_json` (keys of a tournament file: agents, games, seed,
/// threads, turn_limit, out, quiet) on `game`; returns `(result dict, text report,
/// Markdown report)`. Resumes from `out` like the command line.
#[pyfunction]
fn round_robin<'py>(
    py: Python<'py>,
    game: &str,
    config_json: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let choice = choice(game)?;
    let cfg = config(config_json)?;
    let result = rust(py, move || choice.dispatch(Run(cfg)))?.map_err(arena_err)?;
    result_tuple(py, &result)
}

/// Plays the games at schedule positions `positions` of `config_json` on `game` and
/// returns their records as JSON lines (no file is written).
#[pyfunction]
fn play_chunk(
    py: Python<'_>,
    game: &str,
    config_json: &str,
    positions: Vec<usize>,
) -> PyResult<Vec<String>> {
    let choice = choice(game)?;
    let cfg = config(config_json)?;
    let records =
        rust(py, move || choice.dispatch(PlayChunk(cfg, positions)))?.map_err(arena_err)?;
    records
        .iter()
        .map(|r| serde_json::to_string(r).map_err(|e| value_err(e.to_string())))
        .collect()
}

/// `play_chunk` in the shape the Ray runner calls every experiment's worker:
/// `task_json` is `{"game": ..., "config": {...}}`.
#[pyfunction]
fn tournament_play(
    py: Python<'_>,
    task_json: &str,
    positions: Vec<usize>,
) -> PyResult<Vec<String>> {
    let task: serde_json::Value =
        serde_json::from_str(task_json).map_err(|e| value_err(format!("task: {e}")))?;
    let (Some(game), Some(config)) = (task["game"].as_str(), task.get("config")) else {
        return Err(value_err(
            "task: expected {\"game\": ..., \"config\": {...}}",
        ));
    };
    play_chunk(py, game, &config.to_string(), positions)
}

/// Every record of a records file as a list of dicts (one per game; `pandas.DataFrame`
/// takes the list as it is).
#[pyfunction]
fn read_records<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let records = rust(py, move || core_read_records(&path))?.map_err(|e| arena_err(e.into()))?;
    let value = serde_json::to_value(&records).map_err(|e| value_err(e.to_string()))?;
    json_to_py(py, &value)
}

/// A tournament file read by the command line's own parser: `(game, configuration dict)`.
#[pyfunction]
fn tournament_file<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyTuple>> {
    let file = TournamentFile::read(Path::new(&path)).map_err(|e| value_err(format!("{e:#}")))?;
    let value = serde_json::to_value(&file.round_robin).map_err(|e| value_err(e.to_string()))?;
    PyTuple::new(
        py,
        [
            file.game.into_pyobject(py)?.into_any(),
            json_to_py(py, &value)?,
        ],
    )
}

/// The records of a run in chunks, owned by one process: locks and checks the records
/// file (`out` of the configuration), lists the games due, and appends the records that
/// chunks send back (skipping games it already has).
#[pyclass(name = "Journal", module = "yomi")]
pub(crate) struct PyJournal {
    /// `None` once closed (the file's lock is released).
    inner: Option<Journal>,
}

impl PyJournal {
    pub(crate) fn open(&mut self) -> PyResult<&mut Journal> {
        self.inner
            .as_mut()
            .ok_or_else(|| value_err("the journal is closed"))
    }
}

#[pymethods]
impl PyJournal {
    #[new]
    fn new(py: Python<'_>, game: &str, config_json: &str) -> PyResult<Self> {
        let choice = choice(game)?;
        let cfg = config(config_json)?;
        let inner = rust(py, move || choice.dispatch(OpenJournal(cfg)))?.map_err(arena_err)?;
        Ok(PyJournal { inner: Some(inner) })
    }

    /// Games in the whole schedule.
    fn total(&mut self) -> PyResult<usize> {
        Ok(self.open()?.total())
    }

    /// The schedule positions of the games not yet recorded.
    fn due(&mut self) -> PyResult<Vec<usize>> {
        Ok(self.open()?.due())
    }

    /// Games recorded so far.
    fn recorded(&mut self) -> PyResult<usize> {
        Ok(self.open()?.recorded())
    }

    /// Records skipped because their game was already recorded.
    fn duplicates(&mut self) -> PyResult<usize> {
        Ok(self.open()?.duplicates())
    }

    /// Adds records (JSON lines from `play_chunk`); returns how many were new.
    fn add(&mut self, py: Python<'_>, lines: Vec<String>) -> PyResult<usize> {
        let records = lines
            .iter()
            .map(|l| serde_json::from_str::<GameRecord>(l))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| value_err(format!("not a game record: {e}")))?;
        let inner = self.open()?;
        rust(py, move || inner.add(records))?.map_err(|e| arena_err(e.into()))
    }

    /// `(result dict, text report, Markdown report)` of the games recorded so far.
    fn result<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let result = self.open()?.result();
        result_tuple(py, &result)
    }

    /// Releases the records file (the journal can no longer be used).
    fn close(&mut self) {
        self.inner = None;
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyJournal>()?;
    m.add_function(wrap_pyfunction!(round_robin, m)?)?;
    m.add_function(wrap_pyfunction!(play_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_play, m)?)?;
    m.add_function(wrap_pyfunction!(read_records, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_file, m)?)?;
    Ok(())
}
