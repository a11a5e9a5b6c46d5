//! `yomi learn`: simulation-policy learning (the GGP paper's AL, SB and AL+SB) on GDL
//! games: training data, training runs, and the whole experiment with its report.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use yomi_core::Game;
use yomi_ggp::GdlGame;
use yomi_learn::data::{decode, generate, DataConfig};
use yomi_learn::experiment::{read_experiment, report, run_matches, Experiment};
use yomi_learn::train::train;

use crate::error::usage;

/// Arguments of `yomi learn`.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: LearnCommand,
}

/// The learning commands.
#[derive(Subcommand, Debug)]
pub enum LearnCommand {
    /// Label distinct random states with UCT (the approximate best move and value), in
    /// parallel, appending to a JSONL file; rerunning resumes.
    #[command(
        after_help = "Example:\n  yomi learn data ggp:breakthrough5x5 --states 1200 --iters 10000 --out bt.jsonl"
    )]
    Data(DataArgs),
    /// Train AL, SB and AL+SB as an experiment file's [data] and [train] tables say:
    /// CR and MSE per iteration as CSV, plots as PNG, weights; rerunning resumes.
    #[command(after_help = "Example:\n  yomi learn train experiments/learn-breakthrough5x5.toml")]
    Train(FileArgs),
    /// The whole experiment: data, training, the round robin of AL, SB, AL+SB and uniform
    /// random for each play method, and `report.md` (the paper's table 3 beside ours).
    #[command(
        after_help = "Example:\n  yomi learn experiment experiments/learn-breakthrough5x5.toml"
    )]
    Experiment(FileArgs),
}

/// Arguments of `yomi learn data`.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// The game: a GDL rule sheet, `ggp:<file.kif>` or a shipped one (`ggp:breakthrough5x5`).
    pub game: String,
    /// Distinct states to label.
    #[arg(long, default_value_t = 1200)]
    pub states: usize,
    /// UCT iterations per state.
    #[arg(long, default_value_t = 10_000)]
    pub iters: u64,
    /// Seed of the states and the searches.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// The JSONL file (appended to; an existing one is resumed).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads to use (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments naming an experiment file.
#[derive(Args, Debug)]
pub struct FileArgs {
    /// The experiment file (TOML; see experiments/learn-*.toml).
    pub file: PathBuf,
    /// Threads to use (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

fn gdl_game(name: &str) -> anyhow::Result<GdlGame> {
    let full = if name.contains(':') {
        name.to_string()
    } else {
        format!("ggp:{name}")
    };
    crate::commands::ggp::game_from_name(&full)
        .map_err(usage)?
        .ok_or_else(|| {
            usage(format!(
                "{name:?}: policy learning needs a GDL game (ggp:...)"
            ))
        })
}

fn pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let threads = crate::error::threads_option("--threads", threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("starting the thread pool")
}

/// Runs `yomi learn`.
pub fn run(args: LearnArgs) -> anyhow::Result<()> {
    match args.command {
        LearnCommand::Data(a) => {
            let game = gdl_game(&a.game)?;
            let cfg = DataConfig {
                states: a.states,
                iterations: a.iters,
                seed: a.seed,
            };
            let data = pool(a.threads)?.install(|| generate(&game, &cfg, &a.out, a.quiet))?;
            println!("{}: {} labelled states", a.out.display(), data.len());
            Ok(())
        }
        LearnCommand::Train(f) => {
            let exp = read_experiment(&f.file)?;
            let game = gdl_game(&exp.game)?;
            pool(f.threads)?.install(|| -> anyhow::Result<()> {
                let curves = train_stage(&game, &exp, f.quiet)?;
                let text = report(
                    &exp,
                    &curves,
                    &[],
                    &format!("yomi learn train {}", f.file.display()),
                );
                std::fs::write(exp.train.out.join("training.md"), &text)?;
                print!("{text}");
                Ok(())
            })
        }
        LearnCommand::Experiment(f) => {
            let exp = read_experiment(&f.file)?;
            let game = gdl_game(&exp.game)?;
            pool(f.threads)?.install(|| -> anyhow::Result<()> {
                let curves = train_stage(&game, &exp, f.quiet)?;
                let plays = run_matches(&game, &game.facts().name, &exp, f.quiet)?;
                let command = format!("yomi learn experiment {}", f.file.display());
                let text = report(&exp, &curves, &plays, &command);
                let path = exp.train.out.join("report.md");
                std::fs::write(&path, &text).with_context(|| path.display().to_string())?;
                print!("{text}");
                Ok(())
            })
        }
    }
}

/// Data (generated or resumed) and training.
fn train_stage(
    game: &GdlGame,
    exp: &Experiment,
    quiet: bool,
) -> anyhow::Result<Vec<yomi_learn::train::Curve>> {
    let labelled = generate(game, &exp.data.config(), &exp.data.file, quiet)?;
    let samples = labelled
        .iter()
        .map(|r| decode(game, r))
        .collect::<Result<Vec<_>, String>>()
        .map_err(|e| anyhow::anyhow!("{}: {e}", exp.data.file.display()))?;
    Ok(train(
        game,
        &game.facts().name,
        &exp.train,
        &samples,
        quiet,
    )?)
}
