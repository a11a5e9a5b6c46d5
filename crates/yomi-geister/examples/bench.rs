//! Random playouts per second and plain-UCT iterations per second on every variant
//! (`cargo run --release -p yomi-geister --example bench`; `yomi bench geister` prints the
//! same figures for one variant).

use std::time::Duration;

use yomi_core::bench::{mcts_iterations, random_playouts};
use yomi_geister::Geister;

fn main() {
    for game in [Geister::standard(), Geister::perfect(), Geister::mini()] {
        println!("{}", random_playouts(&game, Duration::from_secs(2), 1));
        println!("{}", mcts_iterations(&game, 50_000, 1, 1));
    }
}
