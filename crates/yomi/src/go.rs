//! `yomi go ...`: Go's own commands (`yomi go gtp`). Go itself is in the game list as
//! `go` (9×9) and `go:N` (N×N, 2..19), so `play`, `match`, `agents` and `bench` take it too.

use std::io::{BufReader, Write};

use clap::{Args, Subcommand};
use yomi_go::gtp::{GtpConfig, GtpEngine};
use yomi_go::Scoring;

use crate::error::usage;

/// Arguments of `yomi go`.
#[derive(Args, Debug)]
pub struct GoArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: GoCommand,
}

/// The Go commands.
#[derive(Subcommand, Debug)]
pub enum GoCommand {
    /// Run a GTP version 2 engine on standard input and output (for GoGui, Sabaki, twogtp,
    /// GNU Go matches).
    #[command(
        after_help = "Examples:\n  yomi go gtp\n  yomi go gtp --agent diffmcts:iters=20000 --size 9 --komi 6.5"
    )]
    Gtp(GtpArgs),
}

/// Arguments of `yomi go gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The agent that answers `genmove` (`yomi agents go` lists them).
    #[arg(long, default_value = "mcts:iters=5000")]
    pub agent: String,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board size at start (the controller's `boardsize` changes it).
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi at start (the controller's `komi` changes it).
    #[arg(long, default_value_t = 7.5)]
    pub komi: f64,
    /// Count `final_score` by territory (Japanese) instead of area (Chinese).
    #[arg(long)]
    pub territory: bool,
}

/// Runs a Go command.
///
/// # Errors
/// A usage error for an agent spec, size or komi that is refused; I/O errors.
pub fn run(args: GoArgs) -> anyhow::Result<()> {
    match args.command {
        GoCommand::Gtp(a) => {
            let cfg = GtpConfig {
                agent: a.agent,
                seed: a.seed,
                size: a.size,
                komi: a.komi,
                scoring: if a.territory {
                    Scoring::Territory
                } else {
                    Scoring::Area
                },
                ..GtpConfig::default()
            };
            let mut engine = GtpEngine::new(cfg).map_err(|e| usage(e.to_string()))?;
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout().lock();
            engine.run(BufReader::new(stdin.lock()), &mut stdout)?;
            stdout.flush()?;
            Ok(())
        }
    }
}
