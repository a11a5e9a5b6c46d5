//! Light-playout speed: random games from the empty board to two passes (uniform over legal
//! points that are not own single-point eyes), one thread, as libEGO measures it; plus plain
//! UCT iterations per second through core's bench, and difference-game (two-board) playouts.
//!
//! `cargo run --release -p yomi-go --example playouts -- [size] [seconds]`

use std::time::Duration;

use yomi_go::GoGame;

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(9);
    let secs: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let game = GoGame::new(size).expect("board size 2..=19");
    let f = yomi_go::bench::light_playouts(&game, Duration::from_secs_f64(secs), 1);
    println!("{f}");
    if size == 9 {
        // libEGO 0.1.127's light playouts on 9×9, one thread, on this kind of machine (spec).
        println!(
            "ratio to libEGO's 212000 playouts/s: {:.2}",
            f.value / 212_000.0
        );
    }
    println!(
        "{}",
        yomi_core::bench::random_playouts(&game, Duration::from_secs_f64(secs), 1)
    );
    println!(
        "{}",
        yomi_core::bench::mcts_iterations(&game, 100_000, 1, 1)
    );
    let root = yomi_core::Game::initial_state(&game);
    println!(
        "{}",
        yomi_go::diff::diff_playouts(&game, &root, Duration::from_secs_f64(secs), 1)
    );
}
