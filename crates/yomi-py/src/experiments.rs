//! The experiment commands run in chunks by the Ray runner (`yomi.ray`): each experiment's
//! own crate says which work items a run has, which are still due, how to play a list of
//! them anywhere and how to append their results to the records file; these are thin
//! handles on that.
//!
//! - `yomi tubstap experiment FILE`: a tournament file on a TUBSTAP map, run by the
//!   tournament [`Journal`](crate::arena) with `tubstap_experiment_file` checking the game
//!   and `tubstap_report` printing the paper's comparison
//!   ([`yomi_tubstap::experiment::report`]).
//! - `yomi othello accuracy FILE`: `AccuracyJournal` and `accuracy_play` over
//!   [`yomi_othello::accuracy::AccuracyJournal`] and [`AccuracyPlan`].
//! - the matches of `yomi learn experiment FILE`: `LearnMatchJournal` and
//!   `learn_matches_play` over [`yomi_learn::experiment::MatchPlan`].
//!
//! Each journal's `task(threads)` is the JSON a worker needs (the configuration with its
//! paths made absolute), and `*_play(task, items)` returns the items' records as the JSON
//! lines the journal's `add` takes back: the records file's own lines.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use yomi_games::choice::ggp_from_name;
use yomi_games::tournament_file::TournamentFile;
use yomi_games::GameChoice;
use yomi_ggp::GdlGame;
use yomi_learn::experiment::{
    read_experiment, recorded_curves, report as learn_report, Experiment, MatchJournal, MatchPlan,
};
use yomi_learn::LearnError;
use yomi_othello::accuracy::{
    AccuracyConfig, AccuracyError, AccuracyJournal, AccuracyPlan, Record,
};

use crate::arena::PyJournal;
use crate::bridge::{json_to_py, rust, value_err};

/// An absolute form of `path` (relative paths are taken from the working directory), so
/// that a worker started elsewhere finds the same file.
fn absolute(path: &Path) -> PyResult<PathBuf> {
    std::path::absolute(path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
}

/// `value` with the keys of `overrides` (a JSON object) put over it.
fn merge(value: &mut serde_json::Value, overrides: &str) -> PyResult<()> {
    let overrides: serde_json::Value =
        serde_json::from_str(overrides).map_err(|e| value_err(format!("overrides: {e}")))?;
    let (Some(target), serde_json::Value::Object(keys)) = (value.as_object_mut(), overrides) else {
        return Err(value_err("overrides: expected a JSON object"));
    };
    for (k, v) in keys {
        target.insert(k, v);
    }
    Ok(())
}

// --- TUBSTAP ----------------------------------------------------------------------------

/// A tournament file whose game is a TUBSTAP map, read by the command line's parser:
/// `(game, configuration dict)`; a file of another game is refused as
/// `yomi tubstap experiment` refuses it.
#[pyfunction]
fn tubstap_experiment_file<'py>(
    py: Python<'py>,
    path: PathBuf,
) -> PyResult<(String, Bound<'py, PyAny>)> {
    let file = TournamentFile::read(&path).map_err(|e| value_err(format!("{e:#}")))?;
    let origin = path.display();
    match GameChoice::from_name(&file.game) {
        Ok(GameChoice::Tubstap(_)) => {}
        Ok(_) => {
            return Err(value_err(format!(
                "{origin}: game {:?} is not a TUBSTAP game; `yomi tournament` runs other games",
                file.game
            )))
        }
        Err(e) => return Err(value_err(format!("{origin}: game: {e}"))),
    }
    let value = serde_json::to_value(&file.round_robin).map_err(|e| value_err(e.to_string()))?;
    Ok((file.game, json_to_py(py, &value)?))
}

/// What `yomi tubstap experiment` prints after the standings, for the games recorded in
/// `journal`: every pairing beside the paper's tables 1 and 3.
#[pyfunction]
fn tubstap_report(mut journal: PyRefMut<'_, PyJournal>) -> PyResult<String> {
    Ok(yomi_tubstap::experiment::report(&journal.open()?.result()))
}

// --- Othello accuracy ---------------------------------------------------------------------

fn accuracy_err(e: AccuracyError) -> PyErr {
    match e {
        AccuracyError::Io { .. } => PyOSError::new_err(e.to_string()),
        other => value_err(other.to_string()),
    }
}

fn accuracy_config(json: &str) -> PyResult<AccuracyConfig> {
    let cfg: AccuracyConfig =
        serde_json::from_str(json).map_err(|e| value_err(format!("configuration: {e}")))?;
    cfg.check().map_err(accuracy_err)?;
    Ok(cfg)
}

/// The records file of `yomi othello accuracy FILE`, owned by this process: the file's
/// keys with `overrides_json` (a JSON object of the same keys: out, report, seed,
/// positions, playouts, runs, threads) put over them.
#[pyclass(name = "AccuracyJournal", module = "yomi")]
struct PyAccuracyJournal {
    /// `None` once closed (the file's lock is released).
    inner: Option<AccuracyJournal>,
}

impl PyAccuracyJournal {
    fn open(&self) -> PyResult<&AccuracyJournal> {
        self.inner
            .as_ref()
            .ok_or_else(|| value_err("the journal is closed"))
    }
}

#[pymethods]
impl PyAccuracyJournal {
    #[new]
    fn new(py: Python<'_>, path: PathBuf, overrides_json: &str) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        let origin = |e: AccuracyError| value_err(format!("{}: {e}", path.display()));
        let mut cfg = AccuracyConfig::parse(&text).map_err(origin)?;
        cfg.resolve_paths(&path);
        let mut value = serde_json::to_value(&cfg).map_err(|e| value_err(e.to_string()))?;
        merge(&mut value, overrides_json)?;
        let cfg = accuracy_config(&value.to_string())?;
        let inner = rust(py, move || AccuracyJournal::open(&cfg))?.map_err(accuracy_err)?;
        Ok(PyAccuracyJournal { inner: Some(inner) })
    }

    /// Items of the experiment.
    fn total(&self) -> PyResult<usize> {
        Ok(self.open()?.total())
    }

    /// The items not yet recorded, in the order a run starts them.
    fn due(&self) -> PyResult<Vec<usize>> {
        Ok(self.open()?.due())
    }

    /// Items recorded so far.
    fn recorded(&self) -> PyResult<usize> {
        Ok(self.open()?.recorded())
    }

    /// Records skipped because their item was already recorded.
    fn duplicates(&self) -> PyResult<usize> {
        Ok(self.open()?.duplicates())
    }

    /// What a worker needs (`accuracy_play`'s first argument): the configuration with its
    /// test-set paths made absolute and `threads` threads per task.
    fn task(&self, threads: usize) -> PyResult<String> {
        let mut cfg = self.open()?.plan().config().clone();
        for set in &mut cfg.sets {
            set.file = absolute(&set.file)?;
        }
        cfg.threads = threads;
        serde_json::to_string(&cfg).map_err(|e| value_err(e.to_string()))
    }

    /// Appends the records (JSON lines from `accuracy_play`) of items not yet recorded;
    /// returns how many were new. `items` are the items they were played for (unused: a
    /// record names its item).
    fn add(&self, py: Python<'_>, items: Vec<usize>, lines: Vec<String>) -> PyResult<usize> {
        let _ = items;
        let records = lines
            .iter()
            .map(|l| serde_json::from_str::<Record>(l))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| value_err(format!("not an accuracy record: {e}")))?;
        let inner = self.open()?;
        rust(py, move || inner.add(&records))?.map_err(accuracy_err)
    }

    /// Writes the Markdown report of every record in the file (the configuration's
    /// `report`) and returns it; `command` is printed in its header.
    fn write_report(&self, py: Python<'_>, command: &str) -> PyResult<String> {
        let inner = self.open()?;
        rust(py, move || inner.write_report(command))?.map_err(accuracy_err)
    }

    /// The records file and the report file.
    fn paths(&self) -> PyResult<(PathBuf, PathBuf)> {
        let cfg = self.open()?.plan().config();
        Ok((cfg.out.clone(), cfg.report.clone()))
    }

    /// Releases the records file.
    fn close(&mut self) {
        self.inner = None;
    }
}

/// Plays the accuracy items `items` of the configuration `task_json` (from
/// `AccuracyJournal.task`) and returns their records as JSON lines; writes no file.
#[pyfunction]
fn accuracy_play(py: Python<'_>, task_json: &str, items: Vec<usize>) -> PyResult<Vec<String>> {
    let cfg = accuracy_config(task_json)?;
    let records = rust(py, move || {
        AccuracyPlan::new(&cfg).and_then(|plan| plan.play_items(&items))
    })?
    .map_err(accuracy_err)?;
    records
        .iter()
        .map(|r| serde_json::to_string(r).map_err(|e| value_err(e.to_string())))
        .collect()
}

// --- The matches of a learning experiment -----------------------------------------------

fn learn_err(e: LearnError) -> PyErr {
    match e {
        LearnError::Io { .. } => PyOSError::new_err(e.to_string()),
        other => value_err(other.to_string()),
    }
}

/// The experiment's GDL game (`ggp:<name or file>`; a bare name means `ggp:<name>`, as
/// `yomi learn` reads it).
fn gdl_game(name: &str) -> PyResult<GdlGame> {
    let full = if name.contains(':') {
        name.to_string()
    } else {
        format!("ggp:{name}")
    };
    ggp_from_name(&full).map_err(value_err)?.ok_or_else(|| {
        value_err(format!(
            "{name:?}: policy learning needs a GDL game (ggp:...)"
        ))
    })
}

fn match_plan(exp: &Experiment) -> PyResult<MatchPlan<GdlGame>> {
    let game = gdl_game(&exp.game)?;
    let name = yomi_core::Game::facts(&game).name.clone();
    MatchPlan::new(game, &name, exp).map_err(learn_err)
}

/// The records files of the matches of `yomi learn experiment FILE` (training must be
/// done), owned by this process: the file with `overrides_json` (a JSON object of
/// `[matches]` keys: games, seed, threads) put over its `[matches]` table.
#[pyclass(name = "LearnMatchJournal", module = "yomi")]
struct PyLearnMatchJournal {
    experiment: Experiment,
    /// `None` once closed (the files' locks are released).
    inner: Option<MatchJournal>,
}

impl PyLearnMatchJournal {
    fn open(&mut self) -> PyResult<&mut MatchJournal> {
        self.inner
            .as_mut()
            .ok_or_else(|| value_err("the journal is closed"))
    }
}

#[pymethods]
impl PyLearnMatchJournal {
    #[new]
    fn new(py: Python<'_>, path: PathBuf, overrides_json: &str) -> PyResult<Self> {
        let mut exp = read_experiment(&path).map_err(learn_err)?;
        let matches = exp.matches.as_ref().ok_or_else(|| {
            value_err(format!(
                "{}: the experiment has no [matches] table",
                path.display()
            ))
        })?;
        let mut value = serde_json::to_value(matches).map_err(|e| value_err(e.to_string()))?;
        merge(&mut value, overrides_json)?;
        exp.matches =
            Some(serde_json::from_value(value).map_err(|e| value_err(format!("[matches]: {e}")))?);
        let for_plan = exp.clone();
        let inner = rust(py, move || {
            match_plan(&for_plan).and_then(|plan| plan.journal().map_err(learn_err))
        })??;
        Ok(PyLearnMatchJournal {
            experiment: exp,
            inner: Some(inner),
        })
    }

    /// Games of every play method together.
    fn total(&mut self) -> PyResult<usize> {
        Ok(self.open()?.total())
    }

    /// The games not yet recorded.
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

    /// What a worker needs (`learn_matches_play`'s first argument): the experiment with
    /// its training directory made absolute and `threads` threads per task.
    fn task(&self, threads: usize) -> PyResult<String> {
        let mut exp = self.experiment.clone();
        exp.train.out = absolute(&exp.train.out)?;
        if let Some(m) = exp.matches.as_mut() {
            m.threads = Some(threads);
        }
        serde_json::to_string(&exp).map_err(|e| value_err(e.to_string()))
    }

    /// Appends the records (JSON lines from `learn_matches_play`, in the order of `items`)
    /// of games not yet recorded to their play method's file; returns how many were new.
    fn add(&mut self, py: Python<'_>, items: Vec<usize>, lines: Vec<String>) -> PyResult<usize> {
        let records = lines
            .iter()
            .map(|l| serde_json::from_str(l))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| value_err(format!("not a game record: {e}")))?;
        let inner = self.open()?;
        rust(py, move || inner.add(&items, records))?.map_err(learn_err)
    }

    /// Writes the experiment's `report.md` (training curves as recorded, and the matches so
    /// far; `command` in its header) as `yomi learn experiment` does, and returns it.
    fn write_report(&mut self, command: &str) -> PyResult<String> {
        let curves = recorded_curves(&self.experiment).map_err(learn_err)?;
        let plays = self.open()?.results();
        let text = learn_report(&self.experiment, &curves, &plays, command);
        let path = self.experiment.train.out.join("report.md");
        std::fs::write(&path, &text)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        Ok(text)
    }

    /// The records files, one per play method, and the report file.
    fn paths(&self) -> PyResult<(Vec<PathBuf>, PathBuf)> {
        let out = &self.experiment.train.out;
        let plays = self
            .experiment
            .matches
            .as_ref()
            .map(|m| m.plays.clone())
            .unwrap_or_default();
        Ok((
            plays
                .iter()
                .map(|p| out.join(format!("matches-{p}.jsonl")))
                .collect(),
            out.join("report.md"),
        ))
    }

    /// Releases the records files.
    fn close(&mut self) {
        self.inner = None;
    }
}

/// Plays the games `items` of the experiment `task_json` (from `LearnMatchJournal.task`)
/// and returns their records as JSON lines, in the order given; writes no file.
#[pyfunction]
fn learn_matches_play(py: Python<'_>, task_json: &str, items: Vec<usize>) -> PyResult<Vec<String>> {
    let exp: Experiment =
        serde_json::from_str(task_json).map_err(|e| value_err(format!("experiment: {e}")))?;
    let records = rust(py, move || {
        match_plan(&exp).and_then(|plan| plan.play(&items).map_err(learn_err))
    })??;
    records
        .iter()
        .map(|r| serde_json::to_string(r).map_err(|e| value_err(e.to_string())))
        .collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAccuracyJournal>()?;
    m.add_class::<PyLearnMatchJournal>()?;
    m.add_function(wrap_pyfunction!(tubstap_experiment_file, m)?)?;
    m.add_function(wrap_pyfunction!(tubstap_report, m)?)?;
    m.add_function(wrap_pyfunction!(accuracy_play, m)?)?;
    m.add_function(wrap_pyfunction!(learn_matches_play, m)?)?;
    Ok(())
}
