//! Random playouts per second on one thread for the benchmark rule sheets, beside Sancho
//! 1.61c's figures.
//!
//! `cargo run --release -p yomi-ggp --example ggp_bench [DIR] [SECONDS]`: DIR defaults to
//! `../shared/data/gdl` found upwards from the current directory; the shipped tic-tac-toe
//! and connect four are measured too.
use std::path::PathBuf;
use std::time::{Duration, Instant};

use yomi_ggp::bench::{playouts, SANCHO};
use yomi_ggp::{games, GdlGame};

fn find_dir() -> Option<PathBuf> {
    let mut d = std::env::current_dir().ok()?;
    loop {
        let p = d.join("shared/data/gdl");
        if p.is_dir() {
            return Some(p);
        }
        if !d.pop() {
            return None;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(find_dir);
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let time = Duration::from_secs_f64(secs);
    for (name, _) in games::ALL {
        let g = games::shipped(name).expect("shipped rule sheets compile");
        println!(
            "shipped {name}: {:.0} playouts/s",
            playouts(&g, time, 1).value
        );
        println!("  {}", yomi_core::bench::mcts_iterations(&g, 20_000, 1, 1));
    }
    let Some(dir) = dir else {
        eprintln!("no shared/data/gdl directory; only the shipped games were measured");
        return;
    };
    for (file, sancho) in SANCHO {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            println!("{file}: missing");
            continue;
        };
        let t = Instant::now();
        match GdlGame::from_kif(file, &text) {
            Ok(g) => {
                let built = t.elapsed().as_secs_f64();
                let f = playouts(&g, time, 1);
                println!(
                    "{file}: {:.0} playouts/s, Sancho {:.0}/s, ratio {:.2} (compiled in {built:.2} s; {:?})",
                    f.value,
                    sancho,
                    f.value / sancho,
                    g.reasoner().stats
                );
            }
            Err(e) => println!("{file}: not compiled: {e}"),
        }
    }
}
