//! `yomi othello ...`: Othello's own commands (perft, exact solving, engine protocols,
//! training the evaluation). Othello itself is in the game list as `othello`, so `play`,
//! `match`, `agents` and `bench` take it too.

use std::io::{BufReader, Write};

use clap::{Args, Subcommand};
use yomi_othello::commands::{perft_report, solve_report};
use yomi_othello::protocol::{run_gtp, run_nboard};
use yomi_othello::train::{train, TrainConfig};

use crate::error::usage;

/// Arguments of `yomi othello`.
#[derive(Args, Debug)]
pub struct OthelloArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: OthelloCommand,
}

/// The Othello commands.
#[derive(Subcommand, Debug)]
pub enum OthelloCommand {
    /// Count the move sequences of DEPTH plies from the start (passes are plies), timed.
    #[command(after_help = "Example:\n  yomi othello perft 12")]
    Perft {
        /// Plies, 1..=14.
        depth: u32,
    },
    /// Solve a position exactly and print every legal move's final disc difference.
    #[command(
        after_help = "Example:\n  yomi othello solve O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
    )]
    Solve {
        /// The 64 squares a1..h8 (X black, O white, - empty).
        #[arg(allow_hyphen_values = true)]
        board: String,
        /// The side to move: X or O.
        side: String,
    },
    /// Run the NBoard engine protocol on standard input and output.
    Nboard,
    /// Run a GTP engine (Othello moves a1..h8, pass) on standard input and output.
    Gtp,
    /// Train the pattern evaluation by noisy self-play and exact solving; write the weights.
    #[command(
        after_help = "Example:\n  yomi othello train --games 5000 --rounds 3 --out eval.bin"
    )]
    Train {
        /// Self-play games per round.
        #[arg(long, default_value_t = 5000)]
        games: usize,
        /// Rounds of playing and fitting.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Seed of everything random.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The weights file to write.
        #[arg(long, default_value = "othello-eval.bin")]
        out: std::path::PathBuf,
    },
}

/// Runs an Othello command.
///
/// # Errors
/// A usage error for a malformed board or depth; I/O errors.
pub fn run(args: OthelloArgs) -> anyhow::Result<()> {
    match args.command {
        OthelloCommand::Perft { depth } => {
            if !(1..=14).contains(&depth) {
                return Err(usage(format!("perft depth {depth}: expected 1..=14")));
            }
            crate::commands::emit(&format!("{}\n", perft_report(depth)))?;
        }
        OthelloCommand::Solve { board, side } => {
            let text =
                solve_report(&format!("{board} {side}")).map_err(|e| usage(e.to_string()))?;
            crate::commands::emit(&text)?;
        }
        OthelloCommand::Nboard => {
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout().lock();
            run_nboard(BufReader::new(stdin.lock()), &mut stdout)?;
            stdout.flush()?;
        }
        OthelloCommand::Gtp => {
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout().lock();
            run_gtp(BufReader::new(stdin.lock()), &mut stdout)?;
            stdout.flush()?;
        }
        OthelloCommand::Train {
            games,
            rounds,
            seed,
            out,
        } => {
            if games == 0 || rounds == 0 {
                return Err(usage("--games and --rounds must be positive"));
            }
            let cfg = TrainConfig {
                games_per_round: games,
                rounds,
                seed,
                ..TrainConfig::default()
            };
            let (eval, report) = train(&cfg, |line| {
                let _ = crate::commands::emit(&format!("{line}\n"));
            });
            std::fs::write(&out, eval.to_bytes())?;
            let h = report.holdout_exact;
            crate::commands::emit(&format!(
                "wrote {}; held-out solved positions: {} positions, MAE {:.2} discs, RMSE {:.2} (always-0 MAE {:.2})\n",
                out.display(),
                h.count,
                h.mae,
                h.rmse,
                h.mae_zero
            ))?;
        }
    }
    Ok(())
}
