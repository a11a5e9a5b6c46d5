//! Light-playout speed: random games from the empty board to two passes (uniform over legal
//! points that are not own single-point eyes), one thread, as libEGO measures it; plus plain
//! UCT iterations per second through core's bench, heavy playouts (the `rave` agent's),
//! difference-game (two-board) playouts, and
//! iterations per second of the dynamic-komi and difference-game searches (wall-clock, so
//! only comparable on an idle machine; the playout rates use the thread's CPU time).
//!
//! `cargo run --release -p yomi-go --example playouts -- [size] [seconds]`

use std::time::Duration;

use yomi_core::search::mcts::{Mcts, MctsParams, NoExpander, Ucb1};
use yomi_core::search::Budget;
use yomi_core::Game;
use yomi_go::diff::DiffPlayout;
use yomi_go::dynkomi::{DynKomi, DynKomiPlayout, ValueKomi};
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
    println!(
        "{}",
        yomi_go::bench::heavy_playouts(&game, Duration::from_secs_f64(secs), 1)
    );
    let root = game.initial_state();
    println!(
        "{}",
        yomi_go::diff::diff_playouts(&game, &root, Duration::from_secs_f64(secs), 1)
    );
    // Iterations per second of the Go searches on core's MCTS (one thread, from the empty
    // board, 20000 iterations each).
    let params = MctsParams {
        budget: Budget::iterations(20_000),
        ..MctsParams::default()
    };
    let mut root_line = root.clone();
    root_line.begin_line();
    let scheme = DynKomi::Value(ValueKomi::default());
    let mut dk = Mcts::new(
        params.clone(),
        Ucb1::default(),
        DynKomiPlayout::new(scheme, 1000),
        NoExpander,
        1,
    );
    let r = dk.search(&game, &root);
    println!(
        "{} dkmcts-value 20000 iterations 1 thread: {:.0} iterations/s",
        game.facts().name,
        r.rate()
    );
    let mut diff = Mcts::new(
        params,
        Ucb1::default(),
        DiffPlayout::new(&root),
        NoExpander,
        1,
    );
    let r = diff.search(&game, &root_line);
    println!(
        "{} diffmcts 20000 iterations 1 thread: {:.0} iterations/s",
        game.facts().name,
        r.rate()
    );
}
