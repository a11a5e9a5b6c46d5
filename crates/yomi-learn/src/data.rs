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
//! **The file** is JSONL: a header line ([`DataHeader`]) and then one [`Labelled`] line per
//! state, appended and flushed as soon as its search ends. States are labelled in parallel
//! (rayon), each search seeded by `derive_seed(seed ^ LABEL_SALT, index)`, so the labels do
//! not depend on the thread count. Running again with the same settings resumes: finished
//! states are kept, a partial last line is cut off, and only missing states are searched.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
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

impl DataHeader {
    /// `game ggp:ticTacToe, seed 7, 1000 UCT iterations a label` (for error messages).
    fn describe(&self) -> String {
        format!(
            "game {}, seed {}, {} UCT iterations a label (format {})",
            self.game, self.seed, self.iterations, self.yomi_learn_data
        )
    }
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

/// Reads a data file: its header and its complete lines, sorted by index. A partial last
/// line (an interrupted write) is ignored.
///
/// # Errors
/// [`LearnError::Io`], or [`LearnError::BadFile`] naming the line that is not a header or
/// a labelled state.
pub fn read_data(path: &Path) -> Result<(DataHeader, Vec<Labelled>), LearnError> {
    let text = std::fs::read_to_string(path).map_err(|e| LearnError::io(path, e))?;
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut lines = complete.lines().enumerate();
    let header: DataHeader = match lines.next() {
        Some((_, l)) => serde_json::from_str(l)
            .map_err(|e| LearnError::bad(path, Some(1), format!("not a data header: {e}")))?,
        None => return Err(LearnError::bad(path, None, "empty data file")),
    };
    let mut out: Vec<Labelled> = Vec::new();
    for (n, l) in lines {
        if l.trim().is_empty() {
            continue;
        }
        let r: Labelled = serde_json::from_str(l).map_err(|e| {
            LearnError::bad(path, Some(n + 1), format!("not a labelled state: {e}"))
        })?;
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
/// [`LearnError::BadFile`] when an existing file was written for another game, seed or
/// iteration count, or holds states that differ from this stream's; I/O errors;
/// [`LearnError::Config`] when there are not enough distinct states.
pub fn generate<G: Game>(
    game: &G,
    cfg: &DataConfig,
    path: &Path,
    quiet: bool,
) -> Result<Vec<Labelled>, LearnError> {
    let header = DataHeader {
        yomi_learn_data: 1,
        game: game.facts().name,
        seed: cfg.seed,
        iterations: cfg.iterations,
    };
    let states = random_states(game, cfg.states, cfg.seed)?;
    let texts: Vec<String> = states.iter().map(|s| game.format_state(s)).collect();
    let mut done: Vec<Labelled> = Vec::new();
    // A file without one complete line holds no finished work: a kill while the header was
    // written left it empty or torn, and it is started afresh.
    let started = match std::fs::read(path) {
        Ok(bytes) => bytes.contains(&b'\n'),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(LearnError::io(path, e)),
    };
    if started {
        let (h, existing) = read_data(path)?;
        if h != header {
            return Err(LearnError::bad(
                path,
                Some(1),
                format!(
                    "written for {}; this run is for {}: use another file",
                    h.describe(),
                    header.describe()
                ),
            ));
        }
        for r in existing {
            if r.index < texts.len() && texts[r.index] != r.state {
                return Err(LearnError::bad(
                    path,
                    None,
                    format!("state {} differs from this seed's stream", r.index),
                ));
            }
            done.push(r);
        }
        // Cut off a partial last line before appending.
        let text = std::fs::read(path).map_err(|e| LearnError::io(path, e))?;
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if keep < text.len() {
            let f = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| LearnError::io(path, e))?;
            f.set_len(keep as u64)
                .map_err(|e| LearnError::io(path, e))?;
        }
    } else {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| LearnError::io(dir, e))?;
        }
        let line = serde_json::to_string(&header).expect("header serialises") + "\n";
        std::fs::write(path, line).map_err(|e| LearnError::io(path, e))?;
    }
    let have: HashSet<usize> = done.iter().map(|r| r.index).collect();
    let todo: Vec<usize> = (0..states.len()).filter(|i| !have.contains(i)).collect();
    let progress = Progress::new(
        "labelling",
        "states",
        states.len() as u64,
        done.len() as u64,
        Display::for_stderr(quiet),
    );
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| LearnError::io(path, e))?;
    let file = Mutex::new(file);
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
            let line = serde_json::to_string(&r).expect("label serialises") + "\n";
            let written = {
                let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
                f.write_all(line.as_bytes()).and_then(|_| f.flush())
            };
            progress.inc(1);
            Some(written.map(|_| r).map_err(|e| LearnError::io(path, e)))
        })
        .collect();
    progress.finish();
    labelled?;
    drop(done);
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
