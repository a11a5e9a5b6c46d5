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
//! Paths are relative to the directory the command runs in. Every stage resumes: the data
//! file and the training curves as described in their modules, and the matches from their
//! JSONL records (`matches-<play>.jsonl`, core's arena).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use yomi_core::arena::{RoundRobin, TableFormat, TournamentResult};
use yomi_core::registry::AgentRegistry;

use crate::agents::{register_policy_agent, PlayMethod};
use crate::algorithms::Method;
use crate::data::DataConfig;
use crate::error::LearnError;
use crate::features::FeatureGame;
use crate::train::{final_policy, Curve, TrainConfig};

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
    let m = exp
        .matches
        .as_ref()
        .ok_or_else(|| LearnError::Config("the experiment has no [matches] table".into()))?;
    let mut policies = Vec::new();
    for method in Method::ALL {
        let p = final_policy(&exp.train.out, method, game_name)?;
        policies.push((method.file_stem().to_string(), Arc::new(p)));
    }
    let mut registry = AgentRegistry::<G>::empty();
    register_policy_agent(&mut registry, policies);
    let mut out = Vec::new();
    for &play in &m.plays {
        let agents: Vec<String> = PLAYERS.iter().map(|w| spec(w, play, m.sims)).collect();
        let mut rr = RoundRobin::new(agents.clone())
            .games(m.games)
            .seed(m.seed)
            .quiet(quiet)
            .out(exp.train.out.join(format!("matches-{play}.jsonl")));
        rr.threads = m.threads;
        if !quiet {
            eprintln!("round robin, play={play}: {} games per pairing", m.games);
        }
        let result = rr.run(game, &registry)?;
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
        out.push(PlayResult {
            play,
            totals,
            games_each,
            result,
        });
    }
    Ok(out)
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
         MSE from {} simulations per test state.\n",
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

/// Reads an experiment file.
///
/// # Errors
/// [`LearnError::Io`]; [`LearnError::BadFile`] for TOML errors and unknown keys.
pub fn read_experiment(path: &Path) -> Result<Experiment, LearnError> {
    let text = std::fs::read_to_string(path).map_err(|e| LearnError::io(path, e))?;
    toml::from_str(&text).map_err(|e| LearnError::bad(path, None, e.to_string()))
}
