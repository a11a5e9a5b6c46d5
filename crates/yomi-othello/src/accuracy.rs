//! The paper's accuracy experiment (Matsumoto & Kobayashi, tables 1–6): every UCT variant
//! chooses a move in each test position ([`crate::testsets`]) at each playout budget, and
//! the choice is scored by the chosen move's label.
//!
//! - **Accuracy** = (correct + 0.5 × draws) / N, where the chosen move is *correct* when its
//!   value for the side to move is positive (a winning move), a *draw* when it is 0 and
//!   wrong when it is negative, exactly as in the paper (section 6.1). With `exact` and
//!   `wld` labels the sign is exact; with `search<d>` labels it is what a d-ply search with
//!   the pattern evaluation says (the report names the kind per stage).
//! - **Time**: the wall-clock time of each search (one thread per search), reported as the
//!   mean per move; the paper gives seconds for all 300 positions.
//! - **Work items** are (variant, S, playouts, position). They run in parallel over a rayon
//!   pool (each search single-threaded); item seeds are derived from the experiment seed,
//!   the agent spec, S and the position index ([`item_seed`]), so the results do not
//!   depend on the number of threads. Items are started in the order
//!   playouts → position → S → variant, so an interrupted run has about the same N in every
//!   cell of its smallest budget.
//! - **Records** ([`Record`], one JSON line per finished item) go to a
//!   [`yomi_core::journal`] as items finish: the file is locked while a run owns it, a rerun
//!   skips the items already in the file (resume), and a torn last line left by an
//!   interruption is cut off. The journal has no settings header: each record carries its
//!   settings (variant, agent spec with the budget, S, seed), records of other settings
//!   stay in the file and are not this run's, and a record of one of this run's items whose
//!   position carries another label kind (the test set changed) is refused.
//! - **Runs elsewhere**: [`AccuracyPlan`] numbers the items the same way in every process,
//!   [`AccuracyPlan::play_items`] plays any of them without writing a file, and
//!   [`AccuracyJournal`] (which [`run`] uses too) owns the records file: it locks it, lists
//!   the items due and appends each item's record once. The Python package's Ray runner
//!   (`python -m yomi.ray othello-accuracy FILE`) spreads the items over a cluster with
//!   them, into the same file.
//! - **Report** ([`report`]): markdown with one table per paper table (ours beside the
//!   paper's numbers, [`PAPER`]), 95 % Wilson intervals, N per cell and the label kinds.
//!
//! The experiment is described by a TOML file ([`AccuracyConfig::read`]; its paths are
//! relative to its directory); `experiments/othello-accuracy.toml` is the paper's setup.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::arena::score_estimate;
use yomi_core::journal::{self, Journal, JournalEntry, JournalError, LOCKED_MESSAGE};
use yomi_core::paths::resolve_in_file;
use yomi_core::progress::{Display, Progress};
use yomi_core::rng::derive_seed;
use yomi_core::spec::SpecError;
use yomi_core::Agent;

use crate::testsets::{self, LabelKind, LabelledPosition, TestSetError};
use crate::{registry, Othello};

/// One variant of the experiment: a row group of the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The name in the report (`UCT+dZ_PlayZebra`).
    pub name: String,
    /// The agent spec without the playout count (`uct+dz_playzebra`,
    /// `uct+dz_playzebra:expand=100`); the experiment adds `iters=<playouts>`.
    pub agent: String,
    /// The paper's table (1–6) it reproduces, if any.
    #[serde(default)]
    pub table: Option<u32>,
}

/// A test set of the experiment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetFile {
    /// Moves played before its positions (S).
    pub stage: u32,
    /// The test-set file ([`crate::testsets`] format); in an experiment file, relative to
    /// the file's directory ([`AccuracyConfig::resolve_paths`]).
    pub file: PathBuf,
}

/// The experiment file (see `experiments/othello-accuracy.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccuracyConfig {
    /// Seed of every search (per item: [`item_seed`]); run `r` (0-based) uses `seed + r`.
    #[serde(default = "one")]
    pub seed: u64,
    /// Independent runs of the whole experiment, each with its own seed (the paper reports
    /// the mean of 10); the report gives the mean over runs with an interval from their
    /// spread. Run 0 is the experiment with `seed` alone, so a 1-run file's records stay
    /// the first run's.
    #[serde(default = "one_run")]
    pub runs: u32,
    /// Playouts per move (the paper: 10000, 30000, 50000).
    pub playouts: Vec<u64>,
    /// Use the first this many positions of each set (all if absent).
    #[serde(default)]
    pub positions: Option<usize>,
    /// Worker threads (0: one per core; at most [`yomi_core::limits::MAX_THREADS`]). Results
    /// do not depend on it.
    #[serde(default)]
    pub threads: usize,
    /// The records file (JSON lines, appended; resumed).
    pub out: PathBuf,
    /// The markdown report written at the end.
    pub report: PathBuf,
    /// The test sets.
    #[serde(rename = "set")]
    pub sets: Vec<SetFile>,
    /// The variants.
    #[serde(rename = "variant")]
    pub variants: Vec<Variant>,
}

fn one() -> u64 {
    1
}

fn one_run() -> u32 {
    1
}

/// The most runs an experiment file may ask for.
pub const MAX_RUNS: u32 = 100;

/// The seed of run `run` (0-based) of an experiment seeded `seed`.
pub fn run_seed(seed: u64, run: u32) -> u64 {
    seed.wrapping_add(run as u64)
}

/// Why the experiment could not run.
#[derive(Debug, Error)]
pub enum AccuracyError {
    /// The experiment file is not valid TOML of the expected shape.
    #[error("experiment file: {0}")]
    Config(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A test-set file is malformed.
    #[error("{path}: {source}")]
    TestSet {
        /// The file.
        path: PathBuf,
        /// The error.
        source: TestSetError,
    },
    /// A test set's positions are not after the stage it is listed under.
    #[error("{path}: position {index} is after {found} moves, not S = {stage}")]
    Stage {
        /// The file.
        path: PathBuf,
        /// 0-based position index.
        index: usize,
        /// The stage it is listed under.
        stage: u32,
        /// The moves actually played.
        found: u32,
    },
    /// A variant's agent spec does not build.
    #[error("variant {variant}: {source}")]
    Agent {
        /// The variant's name.
        variant: String,
        /// The error.
        source: SpecError,
    },
    /// A records line is malformed (other than a partial last line).
    #[error("{path} line {line}: {message}")]
    Records {
        /// The records file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An agent returned no move in a test position.
    #[error("variant {variant} at S={stage} position {index}: {message}")]
    NoMove {
        /// The variant's name.
        variant: String,
        /// The stage.
        stage: u32,
        /// 0-based position index.
        index: usize,
        /// The agent's error.
        message: String,
    },
    /// The thread pool could not start.
    #[error("thread pool: {0}")]
    Threads(String),
}

impl From<JournalError> for AccuracyError {
    /// File trouble (a lock held by another run included) is [`AccuracyError::Io`]; a line
    /// that does not parse or does not belong is [`AccuracyError::Records`].
    fn from(e: JournalError) -> Self {
        match e {
            JournalError::Io { path, source } => AccuracyError::Io { path, source },
            JournalError::Locked { path } => AccuracyError::Io {
                path,
                source: std::io::Error::new(std::io::ErrorKind::WouldBlock, LOCKED_MESSAGE),
            },
            JournalError::BadLine { path, line, reason } => AccuracyError::Records {
                path,
                line,
                message: reason,
            },
            JournalError::Conflict { path, line, detail } => AccuracyError::Records {
                path,
                line,
                message: detail,
            },
            e @ JournalError::Settings { .. } => AccuracyError::Records {
                message: e.to_string(),
                path: PathBuf::new(),
                line: 1,
            },
        }
    }
}

impl AccuracyConfig {
    /// Reads an experiment file's text.
    ///
    /// # Errors
    /// [`AccuracyError::Config`] for TOML syntax errors, unknown keys, missing keys, values of
    /// the wrong type, no playouts / sets / variants, a zero playout count, a repeated
    /// variant name or stage, or an agent spec that already sets `iters`.
    pub fn parse(text: &str) -> Result<Self, AccuracyError> {
        let cfg: AccuracyConfig =
            toml::from_str(text).map_err(|e| AccuracyError::Config(e.to_string()))?;
        cfg.check()?;
        Ok(cfg)
    }

    /// Reads the experiment file at `path` ([`AccuracyConfig::parse`]); the paths in it are
    /// relative to its directory ([`AccuracyConfig::resolve_paths`]).
    ///
    /// # Errors
    /// [`AccuracyError::Io`] when the file cannot be read; as [`AccuracyConfig::parse`].
    pub fn read(path: &Path) -> Result<Self, AccuracyError> {
        let text = std::fs::read_to_string(path).map_err(|source| AccuracyError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut cfg = Self::parse(&text)?;
        cfg.resolve_paths(path);
        Ok(cfg)
    }

    /// Makes the paths written in the experiment file at `file` (`out`, `report`, each
    /// set's `file`) relative to the current directory
    /// ([`yomi_core::paths::resolve_in_file`]). Text parsed without a file keeps its paths
    /// relative to the current directory.
    pub fn resolve_paths(&mut self, file: &Path) {
        resolve_in_file(file, &mut self.out);
        resolve_in_file(file, &mut self.report);
        for set in &mut self.sets {
            resolve_in_file(file, &mut set.file);
        }
    }

    /// Checks the settings (see [`AccuracyConfig::parse`]; agent specs are built by [`run`]).
    ///
    /// # Errors
    /// [`AccuracyError::Config`] naming the problem.
    pub fn check(&self) -> Result<(), AccuracyError> {
        let bad = |m: String| Err(AccuracyError::Config(m));
        if self.playouts.is_empty() || self.playouts.contains(&0) {
            return bad("playouts: expected a list of positive counts".into());
        }
        if self.sets.is_empty() || self.variants.is_empty() {
            return bad("expected at least one [[set]] and one [[variant]]".into());
        }
        if self.positions == Some(0) {
            return bad("positions: expected a positive count".into());
        }
        if !(1..=MAX_RUNS).contains(&self.runs) {
            return bad(format!("runs: expected 1..={MAX_RUNS}, got {}", self.runs));
        }
        let mut names = HashSet::new();
        for v in &self.variants {
            if !names.insert(v.name.as_str()) {
                return bad(format!("variant name {:?} is used twice", v.name));
            }
            if v.agent.contains("iters=") {
                return bad(format!(
                    "variant {}: the agent spec must not set iters (the experiment sets it from `playouts`)",
                    v.name
                ));
            }
            if let Some(t) = v.table {
                if !(1..=6).contains(&t) {
                    return bad(format!("variant {}: table {t}: expected 1..=6", v.name));
                }
            }
        }
        let mut stages = HashSet::new();
        for s in &self.sets {
            if !stages.insert(s.stage) {
                return bad(format!("stage {} is listed twice", s.stage));
            }
        }
        Ok(())
    }
}

/// The agent spec of `variant` at `playouts` playouts.
pub fn agent_spec(variant: &Variant, playouts: u64) -> String {
    let sep = if variant.agent.contains(':') {
        ','
    } else {
        ':'
    };
    format!("{}{sep}iters={playouts}", variant.agent)
}

/// FNV-1a of a string (a stable hash for seeds).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The seed of one item: from the experiment seed, the full agent spec, S and the index.
pub fn item_seed(seed: u64, spec: &str, stage: u32, index: usize) -> u64 {
    derive_seed(
        derive_seed(derive_seed(seed, fnv(spec)), stage as u64),
        index as u64,
    )
}

/// How the chosen move turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// A winning move (value > 0).
    Win,
    /// A drawing move (value 0).
    Draw,
    /// A losing move (value < 0).
    Loss,
}

impl Outcome {
    /// The outcome of a move of value `v` for the side to move.
    pub fn of(v: i32) -> Outcome {
        match v.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    /// Points: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}

/// One finished item, one line of the records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The variant's name.
    pub variant: String,
    /// The full agent spec (with `iters`).
    pub agent: String,
    /// S.
    pub stage: u32,
    /// Playouts per move.
    pub playouts: u64,
    /// 0-based index of the position in its set.
    pub index: usize,
    /// The position (board string and side to move).
    pub board: String,
    /// The label kind of the position (`exact`, `wld`, `search6`).
    pub label: String,
    /// The search's seed.
    pub seed: u64,
    /// The chosen move.
    pub chosen: String,
    /// Its labelled value for the side to move.
    pub value: i32,
    /// Its outcome.
    pub outcome: Outcome,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
}

impl Record {
    /// What identifies the record's item ([`AccuracyPlan::item_of`] adds the variant's
    /// name and the budget).
    fn item_key(&self) -> RecordKey {
        (
            self.agent.clone(),
            self.stage,
            self.index,
            self.board.clone(),
            self.seed,
        )
    }
}

impl JournalEntry for Record {
    /// Everything that decides the record: variant, agent spec, S, budget, position
    /// index, board, seed.
    type Key = (String, RecordKey, u64);

    fn key(&self) -> Self::Key {
        (self.variant.clone(), self.item_key(), self.playouts)
    }

    fn parse_line(line: &str) -> Result<Self, String> {
        serde_json::from_str(line).map_err(|e| e.to_string())
    }

    /// The same item twice is the same work when all but the search's time agree.
    fn same_work(&self, other: &Self) -> bool {
        Record {
            seconds: other.seconds,
            ..self.clone()
        } == *other
    }
}

/// A loaded test set.
#[derive(Clone, Debug)]
pub struct LoadedSet {
    /// S.
    pub stage: u32,
    /// The file it came from.
    pub file: PathBuf,
    /// Its positions (at most the configured number).
    pub positions: Vec<LabelledPosition>,
}

/// Reads the configured test sets (the first `positions` of each).
///
/// # Errors
/// I/O and parse errors naming the file; a position not after S moves.
pub fn load_sets(cfg: &AccuracyConfig) -> Result<Vec<LoadedSet>, AccuracyError> {
    let mut out = Vec::new();
    for s in &cfg.sets {
        let text = std::fs::read_to_string(&s.file).map_err(|source| AccuracyError::Io {
            path: s.file.clone(),
            source,
        })?;
        let mut positions = testsets::parse(&text).map_err(|source| AccuracyError::TestSet {
            path: s.file.clone(),
            source,
        })?;
        positions.truncate(cfg.positions.unwrap_or(usize::MAX));
        for (index, p) in positions.iter().enumerate() {
            let found = crate::dz::move_number(&p.state);
            if found != s.stage {
                return Err(AccuracyError::Stage {
                    path: s.file.clone(),
                    index,
                    stage: s.stage,
                    found,
                });
            }
        }
        out.push(LoadedSet {
            stage: s.stage,
            file: s.file.clone(),
            positions,
        });
    }
    Ok(out)
}

/// Reads a records file (missing: none) without locking or changing it: a torn last line
/// (an interrupted write) is left out.
///
/// # Errors
/// I/O errors; [`AccuracyError::Records`] for any other malformed line.
pub fn load_records(path: &Path) -> Result<Vec<Record>, AccuracyError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(AccuracyError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    journal::complete_lines(path, &bytes)?
        .into_iter()
        .map(|(line, text)| {
            Record::parse_line(&text).map_err(|message| AccuracyError::Records {
                path: path.to_path_buf(),
                line,
                message,
            })
        })
        .collect()
}

/// Scores `records` again against the labels of `sets` (a test set relabelled since the
/// searches ran, say by `yomi othello relabel`): each record of a stage and position the
/// sets hold gets the new label kind and its chosen move's new value and outcome; the
/// search itself is not run again. Returns how many records were rescored (records of
/// stages or positions the sets do not hold are left as they are).
///
/// # Errors
/// [`AccuracyError::Records`] (line = 1-based place in `records`) when a record's board is
/// not the set's position at its index, or its chosen move has no label there.
pub fn rescore(
    sets: &[LoadedSet],
    records: &mut [Record],
    path: &Path,
) -> Result<usize, AccuracyError> {
    let mut n = 0;
    for (k, r) in records.iter_mut().enumerate() {
        let Some(p) = sets
            .iter()
            .find(|s| s.stage == r.stage)
            .and_then(|s| s.positions.get(r.index))
        else {
            continue;
        };
        let bad = |message: String| AccuracyError::Records {
            path: path.to_path_buf(),
            line: k + 1,
            message,
        };
        if p.state.to_board_string() != r.board {
            return Err(bad(format!(
                "S={} position {} is {} in the test set, not {}",
                r.stage,
                r.index,
                p.state.to_board_string(),
                r.board
            )));
        }
        let value = r
            .chosen
            .parse()
            .ok()
            .and_then(|mv| p.value(mv))
            .ok_or_else(|| bad(format!("the chosen move {} has no label", r.chosen)))?;
        r.label = p.kind.to_string();
        r.value = value;
        r.outcome = Outcome::of(value);
        n += 1;
    }
    Ok(n)
}

/// One work item: a variant's search in one position at one playout budget. Items are
/// numbered by their place in [`AccuracyPlan::items`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Index of the variant in the configuration.
    pub variant: usize,
    /// Index of the test set in the configuration.
    pub set: usize,
    /// Playouts per move.
    pub playouts: u64,
    /// 0-based index of the position in its set.
    pub index: usize,
    /// The run (0-based; [`AccuracyConfig::runs`]).
    pub run: u32,
    /// The full agent spec ([`agent_spec`]).
    pub spec: String,
    /// The search's seed ([`item_seed`] of the run's [`run_seed`]).
    pub seed: u64,
}

/// What identifies an item's record: agent spec, S, position index, board and seed.
type RecordKey = (String, u32, usize, String, u64);

/// The key of the record the item (`spec`, set `stage`, `index`, `position`) of run `run`
/// of an experiment seeded `seed` makes: one definition for the plan and the report.
fn planned_key(
    seed: u64,
    run: u32,
    spec: &str,
    stage: u32,
    index: usize,
    position: &LabelledPosition,
) -> RecordKey {
    (
        spec.to_string(),
        stage,
        index,
        position.state.to_board_string(),
        item_seed(run_seed(seed, run), spec, stage, index),
    )
}

/// The experiment's items, in the order they are started: run → playouts → position → S →
/// variant, so an interrupted run has whole runs and about the same N in every cell of its
/// smallest budget. Built the same way by the process that owns the records file and by every
/// worker (a Ray task, a thread of [`run`]), which therefore agree on what item `k` is.
pub struct AccuracyPlan {
    cfg: AccuracyConfig,
    sets: Vec<LoadedSet>,
    items: Vec<Item>,
    by_key: std::collections::HashMap<RecordKey, usize>,
    registry: yomi_core::registry::AgentRegistry<Othello>,
}

impl AccuracyPlan {
    /// Checks `cfg`, reads its test sets, checks every variant's agent spec and lists the
    /// items.
    ///
    /// # Errors
    /// Configuration, test-set and agent errors.
    pub fn new(cfg: &AccuracyConfig) -> Result<Self, AccuracyError> {
        cfg.check()?;
        let sets = load_sets(cfg)?;
        let registry = registry();
        for v in &cfg.variants {
            registry
                .validate(&Othello, &agent_spec(v, cfg.playouts[0]))
                .map_err(|source| AccuracyError::Agent {
                    variant: v.name.clone(),
                    source,
                })?;
        }
        let mut playouts = cfg.playouts.clone();
        playouts.sort_unstable();
        playouts.dedup();
        let max_positions = sets.iter().map(|s| s.positions.len()).max().unwrap_or(0);
        let mut items = Vec::new();
        let mut by_key = std::collections::HashMap::new();
        for run in 0..cfg.runs {
            for &n in &playouts {
                for index in 0..max_positions {
                    for (s, set) in sets.iter().enumerate() {
                        let Some(position) = set.positions.get(index) else {
                            continue;
                        };
                        for (v, variant) in cfg.variants.iter().enumerate() {
                            let spec = agent_spec(variant, n);
                            let key = planned_key(cfg.seed, run, &spec, set.stage, index, position);
                            let seed = key.4;
                            by_key.insert(key, items.len());
                            items.push(Item {
                                variant: v,
                                set: s,
                                playouts: n,
                                index,
                                run,
                                spec,
                                seed,
                            });
                        }
                    }
                }
            }
        }
        Ok(AccuracyPlan {
            cfg: cfg.clone(),
            sets,
            items,
            by_key,
            registry,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &AccuracyConfig {
        &self.cfg
    }

    /// The test sets as loaded.
    pub fn sets(&self) -> &[LoadedSet] {
        &self.sets
    }

    /// Every item, in the order a run starts them.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// Refuses a record of one of this plan's items whose label kind is not its
    /// position's: the test set was relabelled since the record was made.
    fn check_label(&self, path: &Path, line: usize, r: &Record) -> Result<(), AccuracyError> {
        let Some(k) = self.item_of(r) else {
            return Ok(());
        };
        let item = &self.items[k];
        let kind = self.sets[item.set].positions[item.index].kind.to_string();
        if r.label == kind {
            return Ok(());
        }
        Err(AccuracyError::Records {
            path: path.to_path_buf(),
            line,
            message: format!(
                "the record of {} at S={} position {} has {} labels and the test set now has \
                 {kind} labels: the test set changed; use another records file",
                r.agent, r.stage, r.index, r.label
            ),
        })
    }

    /// The item whose record `r` is, if it is one of this plan's.
    pub fn item_of(&self, r: &Record) -> Option<usize> {
        let k = *self.by_key.get(&r.item_key())?;
        let item = &self.items[k];
        let variant = &self.cfg.variants[item.variant];
        (r.variant == variant.name && r.playouts == item.playouts).then_some(k)
    }

    /// Searches item `k`'s position and scores the chosen move.
    ///
    /// # Errors
    /// [`AccuracyError::Config`] for an item outside the plan; agent errors.
    pub fn play(&self, k: usize) -> Result<Record, AccuracyError> {
        let item = self.items.get(k).ok_or_else(|| {
            AccuracyError::Config(format!(
                "item {k} is not in the experiment (it has {} items)",
                self.items.len()
            ))
        })?;
        let variant = &self.cfg.variants[item.variant];
        let set = &self.sets[item.set];
        let position = &set.positions[item.index];
        let no_move = |message: String| AccuracyError::NoMove {
            variant: variant.name.clone(),
            stage: set.stage,
            index: item.index,
            message,
        };
        let mut agent = self
            .registry
            .build(&Othello, &item.spec, item.seed)
            .map_err(|source| AccuracyError::Agent {
                variant: variant.name.clone(),
                source,
            })?;
        let state = &position.state;
        let t = Instant::now();
        let mv = agent
            .select_move(&Othello, state, state.to_move())
            .map_err(|e| no_move(e.to_string()))?;
        let seconds = t.elapsed().as_secs_f64();
        let value = position.value(mv).ok_or_else(|| {
            no_move(format!(
                "the chosen move {mv} is not listed in the test set"
            ))
        })?;
        Ok(Record {
            variant: variant.name.clone(),
            agent: item.spec.clone(),
            stage: set.stage,
            playouts: item.playouts,
            index: item.index,
            board: state.to_board_string(),
            label: position.kind.to_string(),
            seed: item.seed,
            chosen: mv.to_string(),
            value,
            outcome: Outcome::of(value),
            seconds,
        })
    }

    /// Plays the items `ks` (one search per thread, on the configuration's `threads`) and
    /// returns their records in the order given; writes no file. A record does not depend
    /// on where or with how many threads it was made (timings aside).
    ///
    /// # Errors
    /// As [`AccuracyPlan::play`]; [`AccuracyError::Threads`].
    pub fn play_items(&self, ks: &[usize]) -> Result<Vec<Record>, AccuracyError> {
        thread_pool(self.cfg.threads)?.install(|| ks.par_iter().map(|&k| self.play(k)).collect())
    }
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, AccuracyError> {
    // A file's `threads = 4294967296` would otherwise spawn threads until the machine
    // gives out.
    yomi_core::limits::threads("threads", threads as u64)
        .map_err(|e| AccuracyError::Threads(e.to_string()))?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| AccuracyError::Threads(e.to_string()))
}

/// The records file of a run, owned by one process: [`AccuracyJournal::open`] locks it (a
/// second run on the same file is refused), cuts off a torn last line and notes which items
/// it already holds; [`AccuracyJournal::due`] lists the rest; records made anywhere
/// (threads of [`run`], Ray tasks) come back through [`AccuracyJournal::add`], which
/// appends each item once. Safe to share between threads. A [`yomi_core::journal`] without
/// settings header (see the [module documentation](self)).
pub struct AccuracyJournal {
    plan: AccuracyPlan,
    resumed: usize,
    log: Mutex<JournalLog>,
}

struct JournalLog {
    journal: Journal<Record>,
    done: Vec<bool>,
    recorded: usize,
    duplicates: usize,
}

impl AccuracyJournal {
    /// Opens the journal of `cfg`'s records file (see the type's documentation). Nothing
    /// is created before the configuration, test sets and agents have been checked.
    ///
    /// # Errors
    /// As [`AccuracyPlan::new`]; [`AccuracyError::Io`] when the file cannot be created or
    /// read, or another run holds it; [`AccuracyError::Records`] for a malformed line, two
    /// different records of one item, or a record of this plan's item with another label
    /// kind than its position's.
    pub fn open(cfg: &AccuracyConfig) -> Result<Self, AccuracyError> {
        let plan = AccuracyPlan::new(cfg)?;
        let journal = Journal::<Record>::open(&cfg.out, None, |line, r: &Record| {
            plan.check_label(&cfg.out, line, r)
        })?;
        let mut done = vec![false; plan.items.len()];
        for r in journal.entries() {
            // Records of other settings (another seed, budget or variant) stay in the file
            // and are not this run's.
            if let Some(k) = plan.item_of(r) {
                done[k] = true;
            }
        }
        let resumed = done.iter().filter(|d| **d).count();
        Ok(AccuracyJournal {
            plan,
            resumed,
            log: Mutex::new(JournalLog {
                journal,
                done,
                recorded: resumed,
                duplicates: 0,
            }),
        })
    }

    /// The plan (items, sets, configuration).
    pub fn plan(&self) -> &AccuracyPlan {
        &self.plan
    }

    fn log(&self) -> std::sync::MutexGuard<'_, JournalLog> {
        // A poisoned lock only means another thread panicked between two appends.
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Items of the plan.
    pub fn total(&self) -> usize {
        self.plan.items.len()
    }

    /// Items found in the file when it was opened.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Items recorded so far.
    pub fn recorded(&self) -> usize {
        self.log().recorded
    }

    /// Records [`AccuracyJournal::add`] skipped because their item was already recorded.
    pub fn duplicates(&self) -> usize {
        self.log().duplicates
    }

    /// The items not yet recorded, in the order a run starts them.
    pub fn due(&self) -> Vec<usize> {
        let log = self.log();
        (0..self.plan.items.len())
            .filter(|&k| !log.done[k])
            .collect()
    }

    /// Appends the records of items not yet recorded (one line each, written at once) and
    /// returns how many were new; a record of an item already recorded is skipped.
    ///
    /// # Errors
    /// [`AccuracyError::Records`] for a record that is not an item of this plan (then
    /// nothing of `records` is written); [`AccuracyError::Io`] when writing fails.
    pub fn add(&self, records: &[Record]) -> Result<usize, AccuracyError> {
        let out = &self.plan.cfg.out;
        let items = records
            .iter()
            .enumerate()
            .map(|(n, r)| {
                self.plan.item_of(r).ok_or_else(|| AccuracyError::Records {
                    path: out.clone(),
                    line: n + 1,
                    message: format!(
                        "a record of {} at S={} position {} (seed {}) is not an item of this \
                         experiment",
                        r.agent, r.stage, r.index, r.seed
                    ),
                })
            })
            .collect::<Result<Vec<usize>, _>>()?;
        let mut log = self.log();
        let mut added = 0;
        for (r, k) in records.iter().zip(items) {
            if log.done[k] {
                log.duplicates += 1;
                continue;
            }
            log.journal.add(r.clone())?;
            log.done[k] = true;
            log.recorded += 1;
            added += 1;
        }
        Ok(added)
    }

    /// Writes the report ([`report`]) of every matching record in the file to the
    /// configuration's `report` and returns its text. `command` is printed in its header.
    ///
    /// # Errors
    /// [`AccuracyError::Io`]; [`AccuracyError::Records`] for a malformed line.
    pub fn write_report(&self, command: &str) -> Result<String, AccuracyError> {
        let cfg = &self.plan.cfg;
        let records = load_records(&cfg.out)?;
        let text = report(cfg, &self.plan.sets, &records, command);
        if let Some(dir) = cfg.report.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| AccuracyError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&cfg.report, &text).map_err(|source| AccuracyError::Io {
            path: cfg.report.clone(),
            source,
        })?;
        Ok(text)
    }
}

/// What [`run`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Items in the configuration.
    pub items: usize,
    /// Items found in the records file and skipped.
    pub resumed: usize,
    /// Items run now.
    pub ran: usize,
}

/// Runs the experiment on this machine: opens its [`AccuracyJournal`], plays every item
/// still due on the configuration's threads, adding each record as it finishes, then
/// writes the report (also when nothing was left to run). Progress is shown as `display`
/// says ([`yomi_core::progress`]: a bar on a terminal, lines in a log).
///
/// # Errors
/// Configuration, test-set, records and agent errors (agent specs are checked before
/// anything runs); I/O errors.
pub fn run(
    cfg: &AccuracyConfig,
    command: &str,
    display: Display,
) -> Result<RunSummary, AccuracyError> {
    let journal = AccuracyJournal::open(cfg)?;
    let due = journal.due();
    let summary = RunSummary {
        items: journal.total(),
        resumed: journal.resumed(),
        ran: due.len(),
    };
    let progress = Progress::new(
        "othello accuracy",
        "items",
        summary.items as u64,
        summary.resumed as u64,
        display,
    );
    progress.println(&format!(
        "othello accuracy: {} items, {} in {} already, {} to run",
        summary.items,
        summary.resumed,
        cfg.out.display(),
        summary.ran
    ));
    if !due.is_empty() {
        let plan = journal.plan();
        thread_pool(cfg.threads)?.install(|| {
            // `par_bridge` takes items about in order, which keeps the cells of an
            // interrupted run even.
            due.iter()
                .par_bridge()
                .try_for_each(|&k| -> Result<(), AccuracyError> {
                    let record = plan.play(k)?;
                    journal.add(std::slice::from_ref(&record))?;
                    progress.set_message(format!(
                        "last: {} S={} #{}",
                        record.agent, record.stage, record.index
                    ));
                    progress.inc(1);
                    Ok(())
                })
        })?;
    }
    progress.finish();
    journal.write_report(command)?;
    Ok(summary)
}

/// The paper's accuracy (percent) and time (seconds for its 300 positions) per table,
/// stage and playout count (tables 1–6; only S = 20 and 30 were measured).
pub const PAPER: &[(u32, u32, u64, f64, f64)] = &[
    (1, 20, 10000, 78.43, 109.0),
    (1, 20, 30000, 76.33, 338.0),
    (1, 20, 50000, 75.50, 573.0),
    (1, 30, 10000, 87.30, 80.0),
    (1, 30, 30000, 86.80, 250.0),
    (1, 30, 50000, 86.88, 432.0),
    (2, 20, 10000, 85.63, 133.0),
    (2, 20, 30000, 86.63, 370.0),
    (2, 20, 50000, 85.53, 593.0),
    (2, 30, 10000, 92.85, 84.0),
    (2, 30, 30000, 92.98, 228.0),
    (2, 30, 50000, 92.60, 360.0),
    (3, 20, 10000, 86.67, 749.0),
    (3, 20, 30000, 88.67, 2104.0),
    (3, 20, 50000, 89.33, 3490.0),
    (3, 30, 10000, 93.83, 448.0),
    (3, 30, 30000, 94.83, 1149.0),
    (3, 30, 50000, 94.83, 1750.0),
    (4, 20, 10000, 77.00, 50.0),
    (4, 20, 30000, 81.00, 134.0),
    (4, 20, 50000, 81.00, 219.0),
    (4, 30, 10000, 86.67, 29.0),
    (4, 30, 30000, 90.50, 81.0),
    (4, 30, 50000, 91.67, 133.0),
    (5, 20, 10000, 56.50, 49.0),
    (5, 20, 30000, 79.40, 159.0),
    (5, 20, 50000, 83.30, 266.0),
    (5, 30, 10000, 86.50, 41.0),
    (5, 30, 30000, 89.50, 129.0),
    (5, 30, 50000, 91.67, 221.0),
    (6, 20, 10000, 90.67, 302.0),
    (6, 20, 30000, 90.67, 794.0),
    (6, 20, 50000, 91.00, 1283.0),
    (6, 30, 10000, 92.17, 227.0),
    (6, 30, 30000, 93.50, 649.0),
    (6, 30, 50000, 93.50, 1130.0),
];

/// The paper's titles of tables 1–6.
pub const PAPER_TITLES: [&str; 6] = [
    "UCT+",
    "UCT+dZ",
    "UCT+dZ_PlayZebra",
    "UCT+dZ_PlayZebra (expansion threshold 100)",
    "UCT+dZ-break",
    "UCT+dZ_PlayZebra-break",
];

/// The paper's (accuracy %, seconds for 300 positions) of `table` at S and playouts.
pub fn paper(table: u32, stage: u32, playouts: u64) -> Option<(f64, f64)> {
    PAPER
        .iter()
        .find(|r| r.0 == table && r.1 == stage && r.2 == playouts)
        .map(|r| (r.3, r.4))
}

/// Accuracy of one cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// Positions scored.
    pub n: u64,
    /// Winning moves chosen.
    pub wins: u64,
    /// Drawing moves chosen.
    pub draws: u64,
    /// Summed search seconds.
    pub seconds: f64,
}

impl Cell {
    /// (wins + draws / 2) / n, with its 95 % Wilson interval, as fractions.
    pub fn accuracy(&self) -> (f64, f64, f64) {
        let e = score_estimate(self.wins as f64 + 0.5 * self.draws as f64, self.n);
        (e.value, e.low, e.high)
    }

    /// Mean seconds per move.
    pub fn mean_seconds(&self) -> f64 {
        self.seconds / self.n.max(1) as f64
    }
}

/// Sums the records of the configured items into cells keyed by (variant, S, playouts),
/// all runs together. Records of other settings (another seed, agent spec or position)
/// are ignored.
pub fn cells(
    cfg: &AccuracyConfig,
    sets: &[LoadedSet],
    records: &[Record],
) -> BTreeMap<(String, u32, u64), Cell> {
    let mut out: BTreeMap<(String, u32, u64), Cell> = BTreeMap::new();
    for ((variant, stage, playouts, _), c) in run_cells(cfg, sets, records) {
        let total = out.entry((variant, stage, playouts)).or_default();
        total.n += c.n;
        total.wins += c.wins;
        total.draws += c.draws;
        total.seconds += c.seconds;
    }
    out
}

/// [`cells`] per run: keyed by (variant, S, playouts, run).
pub fn run_cells(
    cfg: &AccuracyConfig,
    sets: &[LoadedSet],
    records: &[Record],
) -> BTreeMap<(String, u32, u64, u32), Cell> {
    let mut wanted = std::collections::HashMap::new();
    for run in 0..cfg.runs {
        for v in &cfg.variants {
            for &n in &cfg.playouts {
                let spec = agent_spec(v, n);
                for set in sets {
                    for (index, p) in set.positions.iter().enumerate() {
                        wanted.insert(planned_key(cfg.seed, run, &spec, set.stage, index, p), run);
                    }
                }
            }
        }
    }
    let mut out: BTreeMap<(String, u32, u64, u32), Cell> = BTreeMap::new();
    let mut seen = HashSet::new();
    for r in records {
        let key = r.item_key();
        let Some(&run) = wanted.get(&key) else {
            continue;
        };
        if !seen.insert(key) {
            continue;
        }
        let c = out
            .entry((r.variant.clone(), r.stage, r.playouts, run))
            .or_default();
        c.n += 1;
        match r.outcome {
            Outcome::Win => c.wins += 1,
            Outcome::Draw => c.draws += 1,
            Outcome::Loss => {}
        }
        c.seconds += r.seconds;
    }
    out
}

fn label_note(set: &LoadedSet) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for p in &set.positions {
        *counts.entry(p.kind.to_string()).or_default() += 1;
    }
    let kinds: Vec<String> = counts
        .iter()
        .map(|(k, n)| {
            let what = match k.as_str() {
                "exact" => "exact disc differences".to_string(),
                "wld" => "exact win/draw/loss".to_string(),
                other => format!(
                    "search-based: {}-ply alpha-beta with the pattern evaluation",
                    other.trim_start_matches("search")
                ),
            };
            format!("{n} {k} ({what})")
        })
        .collect();
    let exact = set
        .positions
        .iter()
        .all(|p| matches!(p.kind, LabelKind::Exact | LabelKind::Wld));
    format!(
        "S={}: {} positions from `{}`; labels: {}; {}",
        set.stage,
        set.positions.len(),
        set.file.display(),
        kinds.join(", "),
        if exact {
            "the win/draw/loss of every move is exact"
        } else {
            "win/loss labels are search-based, not exact"
        }
    )
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (2.0 above 30, within
/// 0.04 of the exact value up to 60 and 0.02 above).
fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(2.0)
}

/// One cell over several runs: the runs with records, the mean of their accuracies, the
/// standard deviation between runs and the 95 % interval of the mean (Student's t).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunStats {
    /// Runs with at least one record in the cell.
    pub runs: usize,
    /// Records over all runs.
    pub n: u64,
    /// Mean of the runs' accuracies (fractions).
    pub mean: f64,
    /// Sample standard deviation of the runs' accuracies (0 for one run).
    pub sd: f64,
    /// The 95 % interval of the mean, (low, high); with one run, its Wilson interval.
    pub interval: (f64, f64),
    /// Mean seconds per move over all runs.
    pub seconds: f64,
}

impl RunStats {
    /// The statistics of a cell's runs (runs without records are left out); `None` when no
    /// run has a record.
    pub fn of(cells: &[Cell]) -> Option<RunStats> {
        let runs: Vec<&Cell> = cells.iter().filter(|c| c.n > 0).collect();
        let k = runs.len();
        if k == 0 {
            return None;
        }
        let acc: Vec<f64> = runs.iter().map(|c| c.accuracy().0).collect();
        let mean = acc.iter().sum::<f64>() / k as f64;
        let n: u64 = runs.iter().map(|c| c.n).sum();
        let seconds = runs.iter().map(|c| c.seconds).sum::<f64>() / n as f64;
        if k == 1 {
            let (_, lo, hi) = runs[0].accuracy();
            return Some(RunStats {
                runs: 1,
                n,
                mean,
                sd: 0.0,
                interval: (lo, hi),
                seconds,
            });
        }
        let sd = (acc.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / (k - 1) as f64).sqrt();
        let half = t975(k - 1) * sd / (k as f64).sqrt();
        Some(RunStats {
            runs: k,
            n,
            mean,
            sd,
            interval: ((mean - half).max(0.0), (mean + half).min(1.0)),
            seconds,
        })
    }
}

/// [`RunStats`] of every cell (variant, S, playouts) of [`run_cells`].
pub fn run_stats(
    per_run: &BTreeMap<(String, u32, u64, u32), Cell>,
) -> BTreeMap<(String, u32, u64), RunStats> {
    let mut grouped: BTreeMap<(String, u32, u64), Vec<Cell>> = BTreeMap::new();
    for ((v, stage, n, _), c) in per_run {
        grouped.entry((v.clone(), *stage, *n)).or_default().push(*c);
    }
    grouped
        .into_iter()
        .filter_map(|(k, cells)| RunStats::of(&cells).map(|s| (k, s)))
        .collect()
}

/// The markdown report of the records (see the [module docs](self)). `command` is the
/// command line that produced them, printed in the header.
pub fn report(
    cfg: &AccuracyConfig,
    sets: &[LoadedSet],
    records: &[Record],
    command: &str,
) -> String {
    let cells = cells(cfg, sets, records);
    let multi = cfg.runs > 1;
    let stats = run_stats(&run_cells(cfg, sets, records));
    // The cell's accuracy as the overview shows it: the mean over runs.
    let shown = |key: &(String, u32, u64)| -> Option<(f64, u64)> {
        if multi {
            stats.get(key).map(|s| (s.mean, s.n))
        } else {
            cells.get(key).map(|c| (c.accuracy().0, c.n))
        }
    };
    let mut playouts = cfg.playouts.clone();
    playouts.sort_unstable();
    playouts.dedup();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Othello: accuracy of the UCT variants (the paper's tables 1–6)\n"
    );
    let _ = writeln!(s, "Made by:\n\n    {command}\n");
    let total: u64 = cells.values().map(|c| c.n).sum();
    let _ = writeln!(
        s,
        "Seed {}; {} scored searches in `{}`. Accuracy = (winning moves + 0.5 × drawing \
         moves) / N, with its 95 % Wilson interval; time = mean wall-clock seconds per \
         search (one thread per search; the paper's time is its total for 300 positions \
         divided by 300, on a Core i7 2700K in C). A cell with N below the set's size is \
         unfinished.\n",
        cfg.seed,
        total,
        cfg.out.display()
    );
    if multi {
        let _ = writeln!(
            s,
            "{} runs: run r (0-based) uses seed {} + r. Each cell gives the mean of its \
             runs' accuracies (N counts the searches of all runs; a cell with N below runs × \
             the set's size is unfinished), the standard deviation between runs and the 95 % \
             interval of that mean (Student's t over the runs). That interval measures the \
             searches' randomness on these positions only; the choice of positions adds \
             about ±3 to ±5 points for 300 of them (one run's Wilson interval).\n",
            cfg.runs, cfg.seed
        );
    }
    let _ = writeln!(s, "Test sets:\n");
    for set in sets {
        let _ = writeln!(s, "- {}", label_note(set));
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "## Overview: accuracy % (N)\n");
    let mut head = "| variant |".to_string();
    let mut rule = "|---|".to_string();
    for set in sets {
        for &n in &playouts {
            let _ = write!(head, " S={} {}k |", set.stage, n as f64 / 1000.0);
            rule.push_str("---:|");
        }
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for v in &cfg.variants {
        let mut row = format!("| {} |", v.name);
        for set in sets {
            for &n in &playouts {
                match shown(&(v.name.clone(), set.stage, n)) {
                    Some((a, count)) => {
                        let _ = write!(row, " {} ({count}) |", pct(a));
                    }
                    None => row.push_str(" – |"),
                }
            }
        }
        let _ = writeln!(s, "{row}");
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Best variant per cell (highest accuracy; ties listed):\n"
    );
    for set in sets {
        for &n in &playouts {
            let scored: Vec<(&str, f64)> = cfg
                .variants
                .iter()
                .filter_map(|v| {
                    shown(&(v.name.clone(), set.stage, n)).map(|(a, _)| (v.name.as_str(), a))
                })
                .collect();
            let Some(best) = scored.iter().map(|x| x.1).reduce(f64::max) else {
                continue;
            };
            let names: Vec<&str> = scored
                .iter()
                .filter(|x| x.1 >= best - 1e-12)
                .map(|x| x.0)
                .collect();
            let _ = writeln!(
                s,
                "- S={}, {} playouts: {} ({} %)",
                set.stage,
                n,
                names.join(", "),
                pct(best)
            );
        }
    }
    let _ = writeln!(s);
    for v in &cfg.variants {
        match v.table {
            Some(t) => {
                let _ = writeln!(
                    s,
                    "## Table {t}: {} (`{}`; the paper's {})\n",
                    v.name,
                    v.agent,
                    PAPER_TITLES[t as usize - 1]
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "## {} (`{}`; not in the paper's tables)\n",
                    v.name, v.agent
                );
            }
        }
        if multi {
            let _ = writeln!(
                s,
                "| S | playouts | runs | N | accuracy % (mean of runs) | SD of runs | 95 % interval of the mean | s/move | paper accuracy % (mean of 10) | paper s/move |"
            );
            let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        } else {
            let _ = writeln!(
                s,
                "| S | playouts | N | accuracy % | 95 % interval | s/move | paper accuracy % | paper s/move |"
            );
            let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|---:|");
        }
        for set in sets {
            for &n in &playouts {
                let paper_cell = v.table.and_then(|t| paper(t, set.stage, n));
                let (pa, pt) = match paper_cell {
                    Some((a, secs)) => (format!("{a:.2}"), format!("{:.2}", secs / 300.0)),
                    None => ("–".into(), "–".into()),
                };
                if multi {
                    match stats.get(&(v.name.clone(), set.stage, n)) {
                        Some(st) => {
                            let _ = writeln!(
                                s,
                                "| {} | {n} | {} | {} | {} | {} | {}–{} | {:.3} | {pa} | {pt} |",
                                set.stage,
                                st.runs,
                                st.n,
                                pct(st.mean),
                                pct(st.sd),
                                pct(st.interval.0),
                                pct(st.interval.1),
                                st.seconds
                            );
                        }
                        None => {
                            let _ = writeln!(
                                s,
                                "| {} | {n} | 0 | 0 | – | – | – | – | {pa} | {pt} |",
                                set.stage
                            );
                        }
                    }
                    continue;
                }
                match cells.get(&(v.name.clone(), set.stage, n)) {
                    Some(c) => {
                        let (a, lo, hi) = c.accuracy();
                        let _ = writeln!(
                            s,
                            "| {} | {n} | {} | {} | {}–{} | {:.3} | {pa} | {pt} |",
                            set.stage,
                            c.n,
                            pct(a),
                            pct(lo),
                            pct(hi),
                            c.mean_seconds()
                        );
                    }
                    None => {
                        let _ =
                            writeln!(s, "| {} | {n} | 0 | – | – | – | {pa} | {pt} |", set.stage);
                    }
                }
            }
        }
        let _ = writeln!(s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: `threads = 4294967296` in an experiment file (or `--threads`) went to
    /// rayon, which starts up to 65,535 threads; it is refused before any is started.
    #[test]
    fn threads_4294967296_is_refused_before_starting_a_pool() {
        match thread_pool(4_294_967_296) {
            Err(AccuracyError::Threads(m)) => assert!(m.contains("at most 1024"), "{m}"),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a pool of 4294967296 threads started"),
        }
        assert!(thread_pool(2).is_ok());
    }
}
