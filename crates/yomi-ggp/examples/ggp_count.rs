//! A fixed number of random playouts on one rule sheet, for instruction counts:
//! `valgrind --tool=callgrind target/release/examples/ggp_count FILE.kif N` (the count is
//! stable where wall-clock playouts/s is not, on a loaded machine). Prints the plies played.
use yomi_core::{Game, Player, Rng, Turn};
use yomi_ggp::GdlGame;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: ggp_count FILE.kif [PLAYOUTS]");
        std::process::exit(2);
    };
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let game = GdlGame::from_kif("count", &text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let players = game.facts().players;
    let mut rng = Rng::seed_from_u64(1);
    let mut buf = Vec::new();
    let mut joint = Vec::new();
    let root = game.initial_state();
    let (mut plies, mut sum) = (0u64, 0.0);
    for _ in 0..n {
        let mut s = root.clone();
        loop {
            match game.turn(&s) {
                Turn::Terminal => break,
                Turn::Player(_) => {
                    let m = game.random_move(&s, &mut rng, &mut buf).expect("a move");
                    game.apply(&mut s, m);
                }
                Turn::Simultaneous => {
                    joint.clear();
                    for p in 0..players {
                        game.legal_moves_of(&s, Player(p as u8), &mut buf);
                        joint.push(*rng.choose(&buf).expect("a move"));
                    }
                    game.apply_joint(&mut s, &joint);
                }
            }
            plies += 1;
        }
        sum += game.returns(&s).get(Player(0));
    }
    println!(
        "{n} playouts, {plies} plies, mean goal of the first role {:.2}",
        sum / n as f64
    );
}
