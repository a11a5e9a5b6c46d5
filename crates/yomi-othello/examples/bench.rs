//! Prints the speed figures of `yomi_othello::bench::figures`:
//! `cargo run --release -p yomi-othello --example bench [perft depth]` (default 11).

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(11);
    for f in yomi_othello::bench::figures(depth, std::time::Duration::from_secs(2)) {
        println!("{f}");
    }
}
