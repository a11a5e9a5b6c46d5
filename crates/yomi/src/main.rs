//! `yomi`: the command line of the yomi game-tree search toolkit.
//!
//! The binary is glue: [`cli`] defines the commands and their help, [`games`] maps game
//! names to the game crates, and each module of [`commands`] turns parsed arguments into
//! calls of `yomi-core` (agents, the arena, benchmarks). This file parses, runs and turns
//! errors into exit codes: 0 on success, 2 for usage errors (bad arguments: an unknown
//! game, an agent spec that does not build), 1 for everything else (files, records).

mod cli;
mod commands;
mod error;
mod games;
mod tournament_file;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::error::{is_broken_pipe, UsageError};

fn main() -> ExitCode {
    // clap prints help and usage errors itself and exits with 0 or 2.
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // `yomi games | head -1`: the reader went away; nothing is wrong.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = std::io::stdout().flush();
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "error: {}", error::chain_text(&e));
            if e.downcast_ref::<UsageError>().is_some() {
                let _ = writeln!(stderr, "\nFor more information, try '--help'.");
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Games => commands::games::run(),
        Command::Agents(args) => args.game.clone().dispatch(args),
        Command::Play(args) => args.game.clone().dispatch(args),
        Command::Match(args) => args.game.clone().dispatch(args),
        Command::Tournament(args) => commands::tournament::run(args),
        Command::Bench(args) => {
            // TUBSTAP adds the paper's figures (one DLMC turn) to the common ones, Go its
            // light and two-board playouts.
            let game = args.game.clone();
            // The same playout time as the common random-playout figure.
            let secs = if args.quick { 0.05 } else { args.time };
            let seed = args.seed;
            game.clone().dispatch(args)?;
            match game {
                games::GameChoice::Tubstap(game) => commands::tubstap::print_figures(&game),
                games::GameChoice::Go(n) => commands::go::print_figures(n as usize, secs, seed),
                _ => Ok(()),
            }
        }
        Command::Report(args) => commands::report::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Ggp(args) => commands::ggp::run(args),
        Command::Learn(args) => commands::learn::run(args),
        Command::Go(args) => commands::go::run(args),
        Command::Othello(args) => commands::othello::run(args),
        Command::Tubstap(args) => commands::tubstap::run(args),
        Command::Cgt(args) => commands::cgt::run(args),
        Command::Geister(args) => commands::geister::run(args),
        Command::Serve(a) => yomi_server::serve_blocking(
            &a.host,
            a.port,
            yomi_server::ServeConfig { records: a.records },
        ),
    }
}
