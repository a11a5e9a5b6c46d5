//! A fixed number of random playouts on one rule sheet, for instruction counts:
//! `valgrind --tool=callgrind target/release/examples/ggp_count FILE.kif N [inc|plain]`
//! (the count is stable where wall-clock playouts/s is not, on a loaded machine). Prints
//! the plies played. With `inc` or `plain` the reasoner's evaluator is forced (the
//! playouts then drive the reasoner directly, as `GdlGame` does) instead of the one
//! compilation picked; further arguments `hoist` / `nohoist` and `lazy` / `nolazy` force
//! guard hoisting and the programs' lazy views on or off likewise.
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
    if let Some(mode) = args.get(3) {
        let flag = |f: &str| args[4..].iter().any(|a| a == f);
        let hoisting = if flag("hoist") {
            yomi_ggp::Hoisting::On
        } else if flag("nohoist") {
            yomi_ggp::Hoisting::Off
        } else {
            yomi_ggp::Hoisting::Timed
        };
        let lazy = (flag("lazy") || flag("nolazy")).then(|| flag("lazy"));
        direct(&text, n, mode == "inc", hoisting, lazy);
        return;
    }
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

/// Random playouts on the reasoner itself with the evaluator forced.
fn direct(text: &str, n: u64, inc: bool, hoisting: yomi_ggp::Hoisting, lazy: Option<bool>) {
    let desc = yomi_ggp::Description::from_kif(text).expect("a valid rule sheet");
    let mut r = yomi_ggp::Reasoner::with_hoisting(&desc, hoisting).expect("a compiled rule sheet");
    if let Some(lazy) = lazy {
        r.set_lazy_views(lazy);
    }
    let on = r.set_incremental(inc);
    let roles = r.roles().len();
    let mut rng = Rng::seed_from_u64(1);
    let mut joint = vec![0u32; roles];
    let root = r.initial_state();
    let (mut plies, mut sum) = (0u64, 0.0);
    let mut rewards = vec![0.0; roles];
    for _ in 0..n {
        let mut s = root.clone();
        while !r.is_terminal(&s) {
            for (role, slot) in joint.iter_mut().enumerate() {
                let k = rng.below(r.legal_count(&s, role));
                *slot = r.nth_legal(&s, role, k).expect("a move");
            }
            r.step(&mut s, &joint);
            plies += 1;
        }
        r.rewards(&s, &mut rewards);
        sum += rewards[0];
    }
    println!(
        "{n} playouts (incremental: {on}, {:?}), {plies} plies, mean goal of the first role {:.2}",
        r.stats,
        sum / n as f64
    );
}
