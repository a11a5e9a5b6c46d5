//! The paper's experiment as one file per game: data, training, and the round robin of
//! AL, SB, AL+SB and uniform random (UR) for each play method, reported like the paper's
//! table 3 (total reward, win 100 / draw 50 / loss 0) with the paper's numbers beside ours.
//!
//! ```toml
//! game = "ggp:breakthrough5x5"      # resolved by the command line
//! title = "Breakthrough 5x5"
//!
//! [data]                            # training data (see yomi_learn::data)
//! file = "experiments/learn-breakthrough5x5/data.jsonl"
//! states = 1200                     # distinct random states (train + test)
//! iterations = 10000                # UCT iterations per label
//! seed = 1
//!
//! [train]                           # see yomi_learn::train::TrainConfig
//! out = "experiments/learn-breakthrough5x5"
//! train = 1000
//! test = 200
//! iterations = 100
//! # [train.params] alpha = 0.05, beta = 0.05, m = 100, n = 100
//!
//! [matches]                         # see MatchConfig
//! games = 1000                      # per pairing (half as first player)
//! sims = 100
//! [matches.paper]                   # table 3: AL, SB, AL+SB, UR
//! direct = [242700, 103900, 244200, 9200]
//! simple-mc = [176500, 194700, 168900, 59900]
//! uct = [204100, 153200, 203200, 39500]
//! ```
//!
//! Paths in the file are relative to its directory ([`read_experiment`]). Every stage
//! resumes: the data file and the training curves as described in their modules, and the
//! matches from their JSONL records (`matches-<play>.jsonl`, core's arena).
//!
//! The matches can also run in chunks on other machines: [`MatchPlan`] numbers every game of
//! every play method, plays any of them without writing a file, and opens the
//! [`MatchJournal`] that owns the records files (the Python package's Ray runner,
//! `python -m yomi.ray learn-matches FILE`, writes the same files as `yomi learn experiment`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use yomi_core::arena::{GameRecord, Journal, RoundRobin, TableFormat, TournamentResult};
use yomi_core::paths::resolve_in_file;
use yomi_core::registry::AgentRegistry;

use crate::agents::{register_policy_agent, PlayMethod};
use crate::algorithms::{GradientSign, Method};
use crate::data::DataConfig;
use crate::error::LearnError;
use crate::features::FeatureGame;
use crate::train::{final_policy, read_curve, Curve, TrainConfig};

/// An experiment file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The game's name on the command line (`ggp:breakthrough5x5`).
    pub game: String,
    /// A title for the report.
    #[serde(default)]
    pub title: Option<String>,
    /// The training data.
    pub data: DataSection,
    /// The training run.
    pub train: TrainConfig,
    /// The matches (none: train only).
    #[serde(default)]
    pub matches: Option<MatchConfig>,
}

/// The `[data]` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataSection {
    /// The JSONL data file.
    pub file: PathBuf,
    /// Distinct states to label.
    pub states: usize,
    /// UCT iterations per label (default 10,000).
    #[serde(default = "default_label_iterations")]
    pub iterations: u64,
    /// Seed.
    #[serde(default)]
    pub seed: u64,
}

fn default_label_iterations() -> u64 {
    10_000
}

impl DataSection {
    /// As a [`DataConfig`].
    pub fn config(&self) -> DataConfig {
        DataConfig {
            states: self.states,
            iterations: self.iterations,
            seed: self.seed,
        }
    }
}

/// The `[matches]` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchConfig {
    /// Games per pairing, colours alternating (the paper: 1000).
    #[serde(default = "default_games")]
    pub games: usize,
    /// Simulations per legal move for Simple-MC and UCT (the paper: 100).
    #[serde(default = "default_sims")]
    pub sims: u32,
    /// The play methods (default: direct, simple-mc, uct).
    #[serde(default = "default_plays")]
    pub plays: Vec<PlayMethod>,
    /// Seed of the round robins.
    #[serde(default)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[serde(default)]
    pub threads: Option<usize>,
    /// The paper's table 3 row for this game, for the report.
    #[serde(default)]
    pub paper: Option<PaperTable>,
}

fn default_games() -> usize {
    1000
}
fn default_sims() -> u32 {
    100
}
fn default_plays() -> Vec<PlayMethod> {
    PlayMethod::PAPER.to_vec()
}

/// The paper's totals (AL, SB, AL+SB, UR) per play method, over 3000 games per player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PaperTable {
    /// Direct.
    pub direct: [f64; 4],
    /// Simple-MC.
    pub simple_mc: [f64; 4],
    /// UCT.
    pub uct: [f64; 4],
}

impl PaperTable {
    fn row(&self, play: PlayMethod) -> Option<[f64; 4]> {
        match play {
            PlayMethod::Direct => Some(self.direct),
            PlayMethod::SimpleMc => Some(self.simple_mc),
            PlayMethod::Uct => Some(self.uct),
            PlayMethod::Greedy => None,
        }
    }
}

/// The four players' names in the policy registry, in the table's order.
pub const PLAYERS: [&str; 4] = ["al", "sb", "alsb", "uniform"];

/// The result of one play method's round robin.
pub struct PlayResult {
    /// The play method.
    pub play: PlayMethod,
    /// Total reward (win 100, draw 50, loss 0) of AL, SB, AL+SB, UR.
    pub totals: [f64; 4],
    /// Games each player played.
    pub games_each: [usize; 4],
    /// The arena's result.
    pub result: TournamentResult,
}

/// The spec of player `w` with play method `play`.
pub fn spec(w: &str, play: PlayMethod, sims: u32) -> String {
    format!("policy:w={w},play={play},sims={sims}")
}

/// The `[matches]` table, or an error saying there is none.
fn match_config(exp: &Experiment) -> Result<&MatchConfig, LearnError> {
    exp.matches
        .as_ref()
        .ok_or_else(|| LearnError::Config("the experiment has no [matches] table".into()))
}

/// The round robins of the matches stage, one per play method: AL, SB, AL+SB and UR,
/// recorded in `matches-<play>.jsonl` of the training directory (`[train] out`).
///
/// # Errors
/// [`LearnError::Config`] when the experiment has no `[matches]` table.
pub fn match_round_robins(
    exp: &Experiment,
    quiet: bool,
) -> Result<Vec<(PlayMethod, RoundRobin)>, LearnError> {
    let m = match_config(exp)?;
    Ok(m.plays
        .iter()
        .map(|&play| {
            let agents: Vec<String> = PLAYERS.iter().map(|w| spec(w, play, m.sims)).collect();
            let mut rr = RoundRobin::new(agents)
                .games(m.games)
                .seed(m.seed)
                .quiet(quiet)
                .out(exp.train.out.join(format!("matches-{play}.jsonl")));
            rr.threads = m.threads;
            (play, rr)
        })
        .collect())
}

/// The agents of the matches: `policy:w=...` with the final trained weights of AL, SB and
/// AL+SB from the training directory (and `uniform`).
///
/// # Errors
/// Missing or malformed weights ([`final_policy`]).
pub fn match_registry<G: FeatureGame>(
    exp: &Experiment,
    game_name: &str,
) -> Result<AgentRegistry<G>, LearnError> {
    let mut policies = Vec::new();
    for method in Method::ALL {
        let p = final_policy(&exp.train.out, method, game_name)?;
        policies.push((method.file_stem().to_string(), Arc::new(p)));
    }
    let mut registry = AgentRegistry::<G>::empty();
    register_policy_agent(&mut registry, policies);
    Ok(registry)
}

impl PlayResult {
    /// The totals of one play method's round robin.
    pub fn new(play: PlayMethod, result: TournamentResult) -> Self {
        let mut totals = [0.0; 4];
        let mut games_each = [0usize; 4];
        for r in &result.records {
            for (seat, s) in r.seats.iter().enumerate() {
                if let Some(i) = result.agents.iter().position(|a| a == s) {
                    games_each[i] += 1;
                    totals[i] += 100.0 * r.results.get(seat).map_or(0.0, |x| x.points());
                }
            }
        }
        PlayResult {
            play,
            totals,
            games_each,
            result,
        }
    }
}

/// Loads the trained policies and runs the round robin of each play method.
///
/// # Errors
/// Missing weights, arena errors.
pub fn run_matches<G: FeatureGame>(
    game: &G,
    game_name: &str,
    exp: &Experiment,
    quiet: bool,
) -> Result<Vec<PlayResult>, LearnError> {
    let m = match_config(exp)?;
    let registry = match_registry(exp, game_name)?;
    let mut out = Vec::new();
    for (play, rr) in match_round_robins(exp, quiet)? {
        if !quiet {
            eprintln!("round robin, play={play}: {} games per pairing", m.games);
        }
        let result = rr.run(game, &registry)?;
        out.push(PlayResult::new(play, result));
    }
    Ok(out)
}

/// The matches stage run in chunks elsewhere (the Python package's Ray runner): the games
/// of every play method's round robin numbered one after another (play method `p`'s game
/// at schedule position `k` is item `offset(p) + k`), so a work item is one number.
pub struct MatchPlan<G: FeatureGame> {
    game: G,
    registry: AgentRegistry<G>,
    plays: Vec<(PlayMethod, RoundRobin)>,
    offsets: Vec<usize>,
    total: usize,
}

impl<G: FeatureGame> MatchPlan<G> {
    /// The plan of `exp`'s matches on `game` (named `game_name` in the weights files),
    /// with the trained policies loaded. Writes nothing.
    ///
    /// # Errors
    /// No `[matches]` table, missing weights, arena configuration errors.
    pub fn new(game: G, game_name: &str, exp: &Experiment) -> Result<Self, LearnError> {
        let registry = match_registry(exp, game_name)?;
        let plays = match_round_robins(exp, true)?;
        let mut offsets = Vec::new();
        let mut total = 0usize;
        for (_, rr) in &plays {
            offsets.push(total);
            let mut in_memory = rr.clone();
            in_memory.out = None;
            total += in_memory.journal(&game, &registry)?.total();
        }
        Ok(MatchPlan {
            game,
            registry,
            plays,
            offsets,
            total,
        })
    }

    /// Games of every play method together.
    pub fn total(&self) -> usize {
        self.total
    }

    /// (play method index, schedule position) of item `item`.
    fn locate(&self, item: usize) -> Result<(usize, usize), LearnError> {
        if item >= self.total {
            return Err(LearnError::Config(format!(
                "game {item} is not in the matches (they have {} games)",
                self.total
            )));
        }
        let p = self.offsets.partition_point(|&o| o <= item) - 1;
        Ok((p, item - self.offsets[p]))
    }

    /// Plays the games `items` (each play method's games on its round robin's threads, as
    /// [`RoundRobin::play_chunk`]) and returns their records in the order given; writes no
    /// file.
    ///
    /// # Errors
    /// An item outside the matches; arena errors.
    pub fn play(&self, items: &[usize]) -> Result<Vec<GameRecord>, LearnError> {
        let mut located = Vec::with_capacity(items.len());
        for &item in items {
            located.push(self.locate(item)?);
        }
        let mut records: Vec<Option<GameRecord>> = vec![None; items.len()];
        for (p, (_, rr)) in self.plays.iter().enumerate() {
            let (places, positions): (Vec<usize>, Vec<usize>) = located
                .iter()
                .enumerate()
                .filter(|(_, (q, _))| *q == p)
                .map(|(i, (_, k))| (i, *k))
                .unzip();
            if positions.is_empty() {
                continue;
            }
            let played = rr.play_chunk(&self.game, &self.registry, &positions)?;
            for (i, r) in places.into_iter().zip(played) {
                records[i] = Some(r);
            }
        }
        Ok(records.into_iter().flatten().collect())
    }

    /// Opens the journal of every play method's records file (locked; checked as a
    /// resumed run checks it).
    ///
    /// # Errors
    /// A locked file, a file of another configuration, I/O errors.
    pub fn journal(&self) -> Result<MatchJournal, LearnError> {
        let mut journals = Vec::new();
        for (play, rr) in &self.plays {
            journals.push((*play, rr.journal(&self.game, &self.registry)?));
        }
        Ok(MatchJournal {
            journals,
            offsets: self.offsets.clone(),
        })
    }
}

/// The records files of the matches stage, owned by one process (see [`MatchPlan`]).
/// Holds the files' locks until dropped.
pub struct MatchJournal {
    journals: Vec<(PlayMethod, Journal)>,
    offsets: Vec<usize>,
}

impl MatchJournal {
    /// Games of every play method together.
    pub fn total(&self) -> usize {
        self.journals.iter().map(|(_, j)| j.total()).sum()
    }

    /// Games recorded so far.
    pub fn recorded(&self) -> usize {
        self.journals.iter().map(|(_, j)| j.recorded()).sum()
    }

    /// Records skipped because their game was already recorded.
    pub fn duplicates(&self) -> usize {
        self.journals.iter().map(|(_, j)| j.duplicates()).sum()
    }

    /// The items (see [`MatchPlan`]) not yet recorded, ascending.
    pub fn due(&self) -> Vec<usize> {
        self.journals
            .iter()
            .zip(&self.offsets)
            .flat_map(|((_, j), &o)| j.due().into_iter().map(move |k| o + k))
            .collect()
    }

    /// Adds the records of `items` (in the same order, as [`MatchPlan::play`] returns them)
    /// to their play method's file; returns how many were new.
    ///
    /// # Errors
    /// [`LearnError::Config`] when the lengths differ or an item is outside the matches;
    /// the journal's errors ([`Journal::add`]) for a record that is not the item's game.
    pub fn add(&mut self, items: &[usize], records: Vec<GameRecord>) -> Result<usize, LearnError> {
        if items.len() != records.len() {
            return Err(LearnError::Config(format!(
                "{} records for {} games",
                records.len(),
                items.len()
            )));
        }
        let total = self.total();
        let mut by_play: Vec<Vec<GameRecord>> = vec![Vec::new(); self.journals.len()];
        for (&item, r) in items.iter().zip(records) {
            if item >= total {
                return Err(LearnError::Config(format!(
                    "game {item} is not in the matches (they have {total} games)"
                )));
            }
            let p = self.offsets.partition_point(|&o| o <= item) - 1;
            by_play[p].push(r);
        }
        let mut added = 0;
        for ((_, journal), records) in self.journals.iter_mut().zip(by_play) {
            if !records.is_empty() {
                added += journal.add(records)?;
            }
        }
        Ok(added)
    }

    /// Each play method's result over the games recorded so far.
    pub fn results(&self) -> Vec<PlayResult> {
        self.journals
            .iter()
            .map(|(play, j)| PlayResult::new(*play, j.result()))
            .collect()
    }
}

/// The training curves as recorded in the training directory (for [`report`] without
/// training again).
///
/// # Errors
/// A malformed curve file.
pub fn recorded_curves(exp: &Experiment) -> Result<Vec<Curve>, LearnError> {
    Method::ALL
        .into_iter()
        .map(|method| {
            Ok(Curve {
                method,
                points: read_curve(&exp.train.out, method)?,
            })
        })
        .collect()
}

/// The report: training summary and table 3 with the paper's numbers, as Markdown.
pub fn report(exp: &Experiment, curves: &[Curve], plays: &[PlayResult], command: &str) -> String {
    let mut s = String::new();
    let title = exp.title.clone().unwrap_or_else(|| exp.game.clone());
    let _ = writeln!(s, "# Policy learning (AL, SB, AL+SB): {title}\n");
    let _ = writeln!(s, "Made by `{command}`.\n");
    let _ = writeln!(
        s,
        "Data: {} distinct random states labelled by UCT with {} iterations (seed {}); \
         {} train, {} test. Training: {} iterations; α = {}, β = {}, M = {}, N = {}; \
         SB gradient sign {}; MSE from {} simulations per test state.\n",
        exp.data.states,
        exp.data.iterations,
        exp.data.seed,
        exp.train.train,
        exp.train.test,
        exp.train.iterations,
        exp.train.params.alpha,
        exp.train.params.beta,
        exp.train.params.m,
        exp.train.params.n,
        match exp.train.params.sign {
            GradientSign::Exact => "exact (every player's moves with the same sign)",
            GradientSign::MoverRelative =>
                "mover-relative (the other players' moves with the opposite sign)",
        },
        exp.train.eval_simulations
    );
    let _ = writeln!(s, "## Training (figures 1–4)\n");
    let _ = writeln!(
        s,
        "Curves: `training.csv`; plots `cr.png`, `mse.png` (AL red, SB blue, AL+SB green; \
         axes in `plots.txt`).\n"
    );
    let _ = writeln!(
        s,
        "| method | CR at 0 | CR at end | MSE at 0 | MSE at end | s / iteration |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
    for c in curves {
        let (Some(first), Some(last)) = (c.points.first(), c.points.last()) else {
            continue;
        };
        let secs: f64 = c.points.iter().skip(1).map(|p| p.seconds).sum::<f64>()
            / (c.points.len().saturating_sub(1)).max(1) as f64;
        let _ = writeln!(
            s,
            "| {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.1} |",
            c.method, first.cr, last.cr, first.mse, last.mse, secs
        );
    }
    if plays.is_empty() {
        return s;
    }
    let m = exp.matches.as_ref();
    let _ = writeln!(s, "\n## Matches (table 3)\n");
    let per = plays.first().map_or(0, |p| p.games_each[0]);
    let _ = writeln!(
        s,
        "Total reward of each player against the three others (win 100, draw 50, loss 0): \
         ours over {per} games per player ({} per pairing, colours alternating; Simple-MC \
         {} playouts per legal move, UCT {} iterations per legal move), the paper's over \
         3000 games per player. For comparison, the paper's totals scaled to our number \
         of games are in parentheses.\n",
        m.map_or(0, |m| m.games),
        m.map_or(0, |m| m.sims),
        m.map_or(0, |m| m.sims),
    );
    let _ = writeln!(
        s,
        "| play method | AL | SB | AL+SB | UR | paper AL | paper SB | paper AL+SB | paper UR |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for p in plays {
        let paper = m.and_then(|m| m.paper.as_ref()).and_then(|t| t.row(p.play));
        let _ = write!(s, "| {} |", p.play);
        for t in p.totals {
            let _ = write!(s, " {t:.0} |");
        }
        for i in 0..4 {
            match paper {
                Some(row) => {
                    let scaled = row[i] * p.games_each[i] as f64 / 3000.0;
                    let _ = write!(s, " {:.0} ({scaled:.0}) |", row[i]);
                }
                None => {
                    let _ = write!(s, " – |");
                }
            }
        }
        let _ = writeln!(s);
    }
    for p in plays {
        let _ = writeln!(s, "\n### {}\n", p.play);
        let _ = writeln!(s, "{}", p.result.report(TableFormat::Markdown));
    }
    s
}

/// Reads an experiment file; the paths in it (`[data] file`, `[train] out`) are relative
/// to its directory ([`yomi_core::paths::resolve_in_file`]).
///
/// # Errors
/// [`LearnError::Io`]; [`LearnError::BadFile`] for TOML errors and unknown keys.
pub fn read_experiment(path: &Path) -> Result<Experiment, LearnError> {
    let text = std::fs::read_to_string(path).map_err(|e| LearnError::io(path, e))?;
    let mut exp: Experiment =
        toml::from_str(&text).map_err(|e| LearnError::bad(path, None, e.to_string()))?;
    resolve_in_file(path, &mut exp.data.file);
    resolve_in_file(path, &mut exp.train.out);
    Ok(exp)
}
