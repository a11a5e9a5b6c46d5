//! Adaptive playouts (MAST, NST, LGRF-1) against uniform playouts, equal iterations, on a
//! shipped rule sheet; seats alternate, seeds are fixed.
//!
//! `cargo run --release -p yomi-ggp --example ggp_adaptive [GAME] [GAMES] [ITERS] [PLAYOUT...]`
//! (defaults: breakthrough5x5 40 2000 mast nst lgr). Prints, per playout kind, the score
//! of the adaptive player (win 1, draw 1/2) with a 95 % normal interval, and playouts/s.
use std::time::Instant;

use yomi_core::arena::play_game;
use yomi_core::{Agent, Game};
use yomi_ggp::{games, registry, GdlGame};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("breakthrough5x5", String::as_str);
    let games_n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    let iters: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let kinds: Vec<String> = if args.len() > 4 {
        args[4..].to_vec()
    } else {
        vec!["mast".into(), "nst".into(), "lgr".into()]
    };
    let game: GdlGame = match games::shipped(name) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let reg = registry();
    let base = format!("mcts:iters={iters}");
    for kind in kinds {
        let spec = if kind.contains('=') {
            format!("mcts:iters={iters},{kind}")
        } else {
            format!("mcts:iters={iters},playout={kind}")
        };
        let t = Instant::now();
        let mut score = 0.0;
        for g in 0..games_n {
            let adaptive = reg
                .build(&game, &spec, 1000 + g as u64)
                .expect("valid spec");
            let uniform = reg
                .build(&game, &base, 2000 + g as u64)
                .expect("valid spec");
            let seat = g % 2; // the adaptive player's seat
            let mut seats: Vec<Box<dyn Agent<GdlGame>>> = if seat == 0 {
                vec![adaptive, uniform]
            } else {
                vec![uniform, adaptive]
            };
            let played = play_game(&game, &mut seats, 10_000).expect("two seats");
            let (me, other) = (played.returns[seat], played.returns[1 - seat]);
            score += if me > other {
                1.0
            } else if me == other {
                0.5
            } else {
                0.0
            };
            eprint!("\r{spec}: {}/{games_n} games, score {score}", g + 1);
        }
        eprintln!();
        let p = score / games_n as f64;
        let half = 1.96 * (p * (1.0 - p) / games_n as f64).sqrt();
        println!(
            "{name}: {spec} vs {base}: {score}/{games_n} = {:.1} % (95 % interval {:.1}-{:.1} %), {:.0} s",
            100.0 * p,
            100.0 * (p - half).max(0.0),
            100.0 * (p + half).min(1.0),
            t.elapsed().as_secs_f64()
        );
        let _ = game.facts();
    }
}
