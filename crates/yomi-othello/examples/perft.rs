//! Times perft from the start position on one thread:
//! `cargo run --release -p yomi-othello --example perft [depth]` (default 12).

use yomi_othello::perft::{timed_perft, PERFT_COUNTS};

fn main() {
    let depth: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 12,
        Some(Ok(d)) if (1..=14).contains(&d) => d,
        Some(_) => {
            eprintln!("usage: perft [depth 1..=14]");
            std::process::exit(2);
        }
    };
    let run = timed_perft(depth);
    let expected = PERFT_COUNTS[depth as usize - 1];
    println!(
        "perft({depth}) = {} ({}) in {:.3} s: {:.3e} leaves/s",
        run.leaves,
        if run.leaves == expected {
            "matches OEIS A124004"
        } else {
            "MISMATCH"
        },
        run.elapsed.as_secs_f64(),
        run.rate()
    );
}
