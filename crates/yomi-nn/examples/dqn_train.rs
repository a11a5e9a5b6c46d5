//! DQN self-play training (the Geister paper's preliminary experiment, spec
//! `geister-deep-rl` §2), resumable:
//!
//! ```text
//! cargo run --release -p yomi-nn --example dqn_train -- geister-mini experiments/geister-dqn-masked.toml runs/geister-dqn-masked
//! ```
//!
//! Games: `geister-mini` (the paper's 5×4 board), `tictactoe`, `connect4`. Run it again
//! with the same arguments to continue after an interruption; raise `cycles` in the config
//! to train further.

use std::path::Path;

use yomi_core::TensorGame;
use yomi_nn::dqn::run_dqn;

fn train<G: TensorGame>(
    game: &G,
    config: &Path,
    dir: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let rows = run_dqn(game, config, dir)?;
    if let Some(e) = rows.iter().rev().find_map(|r| r.eval.as_ref()) {
        let s = &e.stats;
        eprintln!(
            "done: {} games; last evaluation vs random over {} games: win {:.3} [{:.3}, {:.3}], \
             win+draw {:.3} [{:.3}, {:.3}], illegal choices {}/{} = {:.4}; log in {}",
            rows.last().map_or(0, |r| r.games_total),
            s.games,
            e.win[0],
            e.win[1],
            e.win[2],
            e.win_draw[0],
            e.win_draw[1],
            e.win_draw[2],
            s.illegal,
            s.decisions,
            e.illegal[0],
            dir.join("log.csv").display()
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, config, dir] = args.as_slice() else {
        return Err(
            "usage: dqn_train <geister-mini|tictactoe|connect4> <config.toml> <run-dir>".into(),
        );
    };
    let (config, dir) = (Path::new(config), Path::new(dir));
    match game.as_str() {
        "geister-mini" => train(&yomi_geister::Geister::mini(), config, dir),
        "tictactoe" => train(&yomi_classic::TicTacToe, config, dir),
        "connect4" => train(&yomi_classic::ConnectFour, config, dir),
        other => Err(format!("unknown game {other:?}: geister-mini | tictactoe | connect4").into()),
    }
}
