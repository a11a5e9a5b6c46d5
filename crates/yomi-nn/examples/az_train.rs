//! AlphaZero training on a classic game (tic-tac-toe or connect four), resumable:
//!
//! ```text
//! cargo run --release -p yomi-nn --example az_train -- tictactoe experiments/tictactoe-az.toml runs/tictactoe-az
//! ```
//!
//! Run it again with the same arguments to continue after an interruption; raise `cycles`
//! in the config to train further.

use std::path::Path;

use yomi_core::registry::AgentRegistry;
use yomi_core::TensorGame;
use yomi_nn::train::run_training;

fn train<G: TensorGame>(
    game: &G,
    registry: AgentRegistry<G>,
    config: &Path,
    dir: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let rows = run_training(game, registry, config, dir)?;
    if let Some(last) = rows.last() {
        eprintln!(
            "done: {} cycles; last value loss {:.4}, policy loss {:.4}; log in {}",
            last.cycle,
            last.value_loss,
            last.policy_loss,
            dir.join("log.csv").display()
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, config, dir] = args.as_slice() else {
        return Err("usage: az_train <tictactoe|connect4> <config.toml> <run-dir>".into());
    };
    let (config, dir) = (Path::new(config), Path::new(dir));
    match game.as_str() {
        "tictactoe" => train(
            &yomi_classic::TicTacToe,
            yomi_classic::tictactoe::registry(),
            config,
            dir,
        ),
        "connect4" => train(
            &yomi_classic::ConnectFour,
            yomi_classic::connect_four::registry(),
            config,
            dir,
        ),
        other => Err(format!("unknown game {other:?}: tictactoe | connect4").into()),
    }
}
