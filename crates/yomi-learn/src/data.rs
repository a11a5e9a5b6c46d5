//! Training data as the paper makes it: distinct random states (random play to a random
//! depth), each labelled by core's UCT (10,000 iterations by default) with the approximate
//! best move Â* (the most visited root move) and the approximate minimax value V̂* (that
//! move's mean reward, mapped to `[-1, 1]`, for the player to move).
//!
//! **Which states.** State `k` of the candidate stream plays one uniformly random game from
//! the start (seed `derive_seed(seed, k)`) and takes one of its positions uniformly at
//! random among those where one player chooses among two or more moves (a position with
//! one legal move teaches nothing). Repeated states are skipped, so the list of states
//! depends only on the seed and the game.
//!
//! **The file** is a [`yomi_core::journal`]: a settings header line holding the
//! [`DataHeader`] (`{"yomi_journal":{"settings":{"yomi_learn_data":1,"game":…}}}`) and then
//! one [`Labelled`] line per state keyed by its index, appended and flushed as soon as its
//! search ends. States are labelled in parallel (rayon), each search seeded by
//! `derive_seed(seed ^ LABEL_SALT, index)`, so the labels do not depend on the thread count.
//! Running again with the same settings resumes: finished states are kept, a torn last line
//! is cut off, and only missing states are searched; other settings, or a state that
//! differs from this seed's stream, are refused, and so is a second run on the file while
//! one holds it. Files of older versions, whose first line is the bare [`DataHeader`], are
//! read and resumed as they are ([`yomi_core::journal::Legacy::Header`]).

use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use yomi_core::journal::{self, Journal, JournalEntry, Legacy};
use yomi_core::progress::{Display, Progress};
use yomi_core::rng::derive_seed;
use yomi_core::search::mcts::{FinalMove, Mcts, MctsParams};
use yomi_core::search::Budget;
use yomi_core::{Game, Player, Rng, Turn};

use crate::algorithms::Sample;
use crate::error::LearnError;
use crate::policy::to_unit;

/// Mixed into the label searches' seeds so they differ from the state stream's.
const LABEL_SALT: u64 = 0x4c41_4245_4c53; // "LABELS"

/// The first line of a data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataHeader {
    /// Format marker.
    pub yomi_learn_data: u32,
    /// The game's name ([`yomi_core::GameFacts::name`]).
    pub game: String,
    /// The seed of the state stream and the searches.
    pub seed: u64,
    /// UCT iterations per label.
    pub iterations: u64,
}

/// One labelled state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labelled {
    /// The state's index in the stream of distinct states.
    pub index: usize,
    /// The state in the game's notation.
    pub state: String,
    /// The player to move (index).
    pub mover: u8,
    /// Â*: the most visited move of the search, in the game's notation.
    pub best: String,
    /// V̂*: the mean reward of that move for the mover, on `[-1, 1]`.
    pub value: f64,
    /// Legal moves in the state.
    pub legal: usize,
}

impl JournalEntry for Labelled {
    /// The state's index.
    type Key = usize;

    fn key(&self) -> usize {
        self.index
    }

    fn parse_line(line: &str) -> Result<Self, String> {
        serde_json::from_str(line).map_err(|e| format!("not a labelled state: {e}"))
    }
}

/// The data header recorded by a first line: a journal's settings header, or the bare
/// header of older versions; `None` when the line is neither.
fn header_of_line(line: &str) -> Option<DataHeader> {
    let value: Value = serde_json::from_str(line).ok()?;
    let settings = match value.get(journal::HEADER_KEY) {
        Some(header) => header.get("settings")?.clone(),
        None => value,
    };
    serde_json::from_value(settings).ok()
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataConfig {
    /// Distinct states to label (the paper: 1200).
    pub states: usize,
    /// UCT iterations per state (the paper: 10,000).
    #[serde(default = "default_iterations")]
    pub iterations: u64,
    /// Seed of the states and searches.
    #[serde(default)]
    pub seed: u64,
}

fn default_iterations() -> u64 {
    10_000
}

/// The most states one data file may ask for (`--states`, an experiment's `states`): far
/// above the paper's 1,200, and low enough that `200 × count` attempts and the list of
/// states stay within reach.
pub const MAX_STATES: usize = 10_000_000;

/// `count` distinct states, as described in the [module docs](self).
///
/// # Errors
/// [`LearnError::Config`] when `count` is above [`MAX_STATES`], or when the game does not
/// have that many distinct decision states within `200 × count` random games.
pub fn random_states<G: Game>(
    game: &G,
    count: usize,
    seed: u64,
) -> Result<Vec<G::State>, LearnError> {
    if count > MAX_STATES {
        // `--states 4294967296` aborted on allocating the list up front.
        return Err(LearnError::Config(format!(
            "{count} states asked for: at most {MAX_STATES}"
        )));
    }
    let facts = game.facts();
    let limit = facts.max_turns.unwrap_or(10_000);
    let mut seen = HashSet::new();
    // Grown as states are found: a game may have fewer than asked for.
    let mut out = Vec::with_capacity(count.min(4096));
    let mut moves = Vec::new();
    let mut candidates = Vec::new();
    let attempts = 200 * count.max(1) as u64;
    for k in 0..attempts {
        if out.len() == count {
            break;
        }
        let mut rng = Rng::seed_from_u64(derive_seed(seed, k));
        let mut s = game.initial_state();
        candidates.clear();
        for _ in 0..limit {
            match game.turn(&s) {
                Turn::Terminal => break,
                Turn::Player(_) => {
                    game.legal_moves(&s, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    if moves.len() > 1 {
                        candidates.push(s.clone());
                    }
                    let m = moves[rng.below(moves.len())];
                    game.apply(&mut s, m);
                }
                Turn::Simultaneous => {
                    let mut joint = Vec::with_capacity(facts.players);
                    for p in facts.all_players() {
                        game.legal_moves_of(&s, p, &mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        joint.push(moves[rng.below(moves.len())]);
                    }
                    if joint.len() < facts.players {
                        break;
                    }
                    game.apply_joint(&mut s, &joint);
                }
            }
        }
        if candidates.is_empty() {
            continue;
        }
        let pick = candidates.swap_remove(rng.below(candidates.len()));
        if seen.insert(game.format_state(&pick)) {
            out.push(pick);
        }
    }
    if out.len() < count {
        return Err(LearnError::Config(format!(
            "found only {} distinct decision states of {} in {attempts} random games",
            out.len(),
            facts.name
        )));
    }
    Ok(out)
}

/// Labels one state with UCT: (Â*, V̂* on `[-1, 1]`, legal moves), or `None` at a state
/// without a sequential decision.
pub fn label<G: Game>(
    game: &G,
    state: &G::State,
    iterations: u64,
    seed: u64,
) -> Option<(G::Move, f64, usize)> {
    let Turn::Player(p) = game.turn(state) else {
        return None;
    };
    let params = MctsParams {
        budget: Budget::iterations(iterations),
        reuse_tree: false,
        ..MctsParams::default()
    };
    let mut mcts = Mcts::uct(params, seed);
    let result = mcts.search_for(game, state, p);
    let mut rng = Rng::seed_from_u64(seed);
    let best = result.choose(FinalMove::MostVisits, &mut rng)?;
    let child = result.children.iter().find(|c| c.mv == best)?;
    let bounds = game.facts().reward_bounds;
    // The mean is on [0, 1] (the search's normalisation); back to the game's units.
    let mean = child.mean().unwrap_or(0.5);
    let value = to_unit(bounds, bounds.0 + mean * (bounds.1 - bounds.0));
    Some((best, value, result.children.len()))
}

/// Reads a data file (without locking it): its header and its complete lines, sorted by
/// index. A torn last line (an interrupted write) is ignored.
///
/// # Errors
/// [`LearnError::Io`], or [`LearnError::BadFile`] naming the line that is not a header or
/// a labelled state.
pub fn read_data(path: &Path) -> Result<(DataHeader, Vec<Labelled>), LearnError> {
    let bytes = std::fs::read(path).map_err(|e| LearnError::io(path, e))?;
    let lines = journal::complete_lines(path, &bytes)?;
    let mut lines = lines.into_iter();
    let header = match lines.next() {
        Some((n, l)) => header_of_line(&l).ok_or_else(|| {
            LearnError::bad(
                path,
                Some(n),
                "not a data header (expected the settings of a yomi learn data file)",
            )
        })?,
        None => return Err(LearnError::bad(path, None, "empty data file")),
    };
    let mut out: Vec<Labelled> = Vec::new();
    for (n, l) in lines {
        let r =
            Labelled::parse_line(&l).map_err(|reason| LearnError::bad(path, Some(n), reason))?;
        out.push(r);
    }
    out.sort_by_key(|r| r.index);
    out.dedup_by_key(|r| r.index);
    Ok((header, out))
}

/// Generates (or completes) the data file at `path`; returns every labelled state, sorted
/// by index. Progress goes to stderr unless `quiet`.
///
/// # Errors
/// [`LearnError::Journal`] when an existing file was written for another game, seed or
/// iteration count, another run is writing it, or it cannot be read or written;
/// [`LearnError::BadFile`] when it holds states that differ from this stream's;
/// [`LearnError::Config`] when there are not enough distinct states.
pub fn generate<G: Game>(
    game: &G,
    cfg: &DataConfig,
    path: &Path,
    quiet: bool,
) -> Result<Vec<Labelled>, LearnError> {
    let header = DataHeader {
        yomi_learn_data: 1,
        game: game.facts().name.clone(),
        seed: cfg.seed,
        iterations: cfg.iterations,
    };
    let states = random_states(game, cfg.states, cfg.seed)?;
    let texts: Vec<String> = states.iter().map(|s| game.format_state(s)).collect();
    let settings = serde_json::to_value(&header)
        .map_err(|e| LearnError::Config(format!("data settings: {e}")))?;
    let old_header = |line: &str| {
        let h: DataHeader = serde_json::from_str(line).ok()?;
        serde_json::to_value(h).ok()
    };
    let check = |line: usize, r: &Labelled| {
        if r.index < texts.len() && texts[r.index] != r.state {
            return Err(LearnError::bad(
                path,
                Some(line),
                format!(
                    "state {} differs from this seed's stream: the file was labelled by \
                     another version; use another file",
                    r.index
                ),
            ));
        }
        Ok(())
    };
    let journal =
        Journal::<Labelled>::open_with(path, Some(&settings), Legacy::Header(&old_header), check)?;
    let todo: Vec<usize> = (0..states.len()).filter(|i| !journal.contains(i)).collect();
    let progress = Progress::new(
        "labelling",
        "states",
        states.len() as u64,
        (states.len() - todo.len()) as u64,
        Display::for_stderr(quiet),
    );
    let journal = Mutex::new(journal);
    let labelled: Result<Vec<Labelled>, LearnError> = todo
        .par_iter()
        .filter_map(|&i| {
            let s = &states[i];
            let (best, value, legal) = label(
                game,
                s,
                cfg.iterations,
                derive_seed(cfg.seed ^ LABEL_SALT, i as u64),
            )?;
            let mover = match game.turn(s) {
                Turn::Player(p) => p.0,
                _ => 0,
            };
            let r = Labelled {
                index: i,
                state: texts[i].clone(),
                mover,
                best: game.format_move(s, best),
                value,
                legal,
            };
            // A poisoned lock only means another labelling thread panicked; the journal
            // is consistent line by line.
            let written = journal
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .add(r.clone());
            progress.inc(1);
            Some(written.map(|_| r).map_err(LearnError::from))
        })
        .collect();
    progress.finish();
    labelled?;
    drop(journal);
    // Read back, so a fresh run and a resumed one return the same numbers (as parsed).
    let (_, mut all) = read_data(path)?;
    all.retain(|r| r.index < states.len());
    Ok(all)
}

/// A labelled state read back into the game.
///
/// # Errors
/// A message when the state or move does not parse, or the move is not legal.
pub fn decode<G: Game>(game: &G, r: &Labelled) -> Result<Sample<G>, String> {
    let state = game
        .parse_state(&r.state)
        .map_err(|e| format!("state {}: {e}", r.index))?;
    let best = game
        .parse_move(&state, &r.best)
        .map_err(|e| format!("state {}: move {}: {e}", r.index, r.best))?;
    if !(-1.0..=1.0).contains(&r.value) {
        return Err(format!(
            "state {}: value {} outside [-1, 1]",
            r.index, r.value
        ));
    }
    Ok(Sample {
        state,
        mover: Player(r.mover),
        best,
        value: r.value,
    })
}
