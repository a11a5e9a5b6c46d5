//! Measures random playouts per second and plain-UCT iterations per second.
//!
//! ```text
//! cargo run --release -p yomi-classic --example classic_playouts [seconds per measurement]
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use yomi_classic::{Breakthrough, ConnectFour, TicTacToe};
use yomi_core::search::mcts::{Mcts, MctsParams};
use yomi_core::search::Budget;
use yomi_core::{Game, Rng};

/// Random playouts from the start for `secs` seconds; returns (playouts/s, mean length).
fn playouts<G: Game>(game: &G, secs: f64) -> (f64, f64) {
    let mut rng = Rng::seed_from_u64(1);
    let mut buf = Vec::new();
    let start = Instant::now();
    let limit = Duration::from_secs_f64(secs);
    let (mut n, mut plies, mut sum) = (0u64, 0u64, 0.0);
    while start.elapsed() < limit {
        for _ in 0..1000 {
            let mut s = game.initial_state();
            while let Some(mv) = game.random_move(&s, &mut rng, &mut buf) {
                game.apply(&mut s, mv);
                plies += 1;
            }
            sum += game.returns(&s).as_slice()[0];
        }
        n += 1000;
    }
    black_box(sum);
    (
        n as f64 / start.elapsed().as_secs_f64(),
        plies as f64 / n as f64,
    )
}

/// Plain UCT (one thread) from the start for `secs` seconds; returns iterations/s.
fn uct<G: Game>(game: &G, secs: f64) -> f64 {
    let params = MctsParams {
        budget: Budget {
            iterations: None,
            time: Some(Duration::from_secs_f64(secs)),
        },
        ..MctsParams::default()
    };
    let mut mcts = Mcts::uct(params, 7);
    let r = mcts.search(game, &game.initial_state());
    r.iterations as f64 / r.elapsed.as_secs_f64()
}

fn report<G: Game>(game: &G, secs: f64) {
    let (rate, len) = playouts(game, secs);
    let it = uct(game, secs);
    println!(
        "{:<18} random playouts {:>10.0}/s (mean {:>5.1} plies, {:>5.1} M moves/s)   UCT {:>9.0} iterations/s",
        game.facts().name,
        rate,
        len,
        rate * len / 1e6,
        it
    );
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    report(&ConnectFour, secs);
    report(&TicTacToe, secs);
    report(&Breakthrough::new_5x5(), secs);
    report(&Breakthrough::new_8x8(), secs);
}
