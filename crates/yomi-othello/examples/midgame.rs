//! The midgame search's speed: labels the first positions of a shipped test set (every
//! legal move, as `yomi othello relabel` does) at a given depth on one thread and prints
//! nodes, seconds and nodes per second:
//! `cargo run --release -p yomi-othello --example midgame [stage] [depth] [positions]`
//! (default 20 10 5; stage 20 or 30 reads `data/testsets/s20.txt` or `s30.txt`).

use std::time::Instant;

use yomi_othello::midgame::Midgame;
use yomi_othello::testsets;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (stage, depth, count) = (
        args.first().copied().unwrap_or(20),
        args.get(1).copied().unwrap_or(10),
        args.get(2).copied().unwrap_or(5) as usize,
    );
    let path = format!("{}/data/testsets/s{stage}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let set = testsets::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut search = Midgame::new(20);
    let t = Instant::now();
    let mut moves = 0;
    for p in set.iter().take(count) {
        moves += search.move_values(&p.state, depth).len();
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "S={stage} depth {depth}: {} positions, {moves} moves, {} nodes, {secs:.2} s, {:.2} M nodes/s",
        count.min(set.len()),
        search.nodes(),
        search.nodes() as f64 / secs / 1e6
    );
}
