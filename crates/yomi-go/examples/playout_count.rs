//! A fixed number of 9×9 (or N×N) light playouts from the empty board, for instruction
//! counts under `valgrind --tool=callgrind` (repeatable on a loaded machine). Prints the
//! playouts, the moves played and Black's wins so that two builds can be compared.
//!
//! `cargo build --release -p yomi-go --example playout_count`
//! `valgrind --tool=callgrind target/release/examples/playout_count 9 2000`

use yomi_core::{Game, Player, Rng};
use yomi_go::GoGame;

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(9);
    let count: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let game = GoGame::new(size).expect("board size 2..=19");
    let mut rng = Rng::seed_from_u64(1);
    let mut buf = Vec::with_capacity(400);
    let root = game.initial_state();
    let mut s = root.clone();
    let (mut moves, mut black) = (0u64, 0u64);
    for _ in 0..count {
        s.clone_from(&root);
        while let Some(mv) = game.random_move(&s, &mut rng, &mut buf) {
            game.apply(&mut s, mv);
            moves += 1;
        }
        black += (game.returns(&s).get(Player(0)) > 0.0) as u64;
    }
    println!(
        "{count} playouts, {:.1} moves each, black wins {:.3}",
        moves as f64 / count as f64,
        black as f64 / count as f64
    );
}
