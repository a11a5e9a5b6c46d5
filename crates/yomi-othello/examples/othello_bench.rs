//! Prints the speed figures of `yomi_othello::bench::figures`:
//! `cargo run --release -p yomi-othello --example othello_bench [perft depth]` (default 11).

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(11);
    for f in yomi_othello::bench::figures(depth, std::time::Duration::from_secs(2)) {
        println!("{f}");
    }
    // The paper's test positions start after 20 to 50 moves; this one after 20 random ones.
    use yomi_core::Game;
    let game = yomi_othello::Othello;
    let mut rng = yomi_core::Rng::seed_from_u64(20);
    let mut s = game.initial_state();
    for _ in 0..20 {
        let mv = game
            .random_move(&s, &mut rng, &mut Vec::new())
            .expect("no early game end");
        game.apply(&mut s, mv);
    }
    for f in yomi_othello::bench::variant_figures(&s, 20_000) {
        println!("{f}");
    }
    println!("{}", yomi_othello::bench::midgame_figure(&s, 8));
}
