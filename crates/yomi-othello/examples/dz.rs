//! Test sets and UCT+dZ coefficients without the CLI:
//! `cargo run --release -p yomi-othello --example dz -- gen <S> <count> <seed> <threads> <out>`
//! and `... -- fit <kind> <playouts> <out-table> <set files...>`.

use yomi_othello::dz::{DzTable, KINDS};
use yomi_othello::dzfit::{fit_stage, report, row_of};
use yomi_othello::testsets::{self, GenConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") if args.len() == 6 => {
            let mut cfg = GenConfig::new(args[1].parse().expect("stage"));
            cfg.count = args[2].parse().expect("count");
            cfg.seed = args[3].parse().expect("seed");
            cfg.threads = args[4].parse().expect("threads");
            let t = std::time::Instant::now();
            let set = testsets::generate(&cfg, |l| eprintln!("{l}"));
            let header = format!(
                "S={} test set: {} positions, noisy self-play (seed {}, {} random plies, epsilon {}), \
                 exact labels at <= {} empties, exact win/draw/loss at <= {}, else {}-ply alpha-beta; {:.0} s",
                cfg.stage, set.len(), cfg.seed, cfg.random_plies, cfg.epsilon, cfg.exact_empties, cfg.wld_empties,
                cfg.search_depth, t.elapsed().as_secs_f64()
            );
            std::fs::write(&args[5], testsets::to_text(&header, &set)).expect("write");
            eprintln!("{header}");
        }
        Some("fit") if args.len() >= 5 => {
            let kind = args[1].as_str();
            assert!(KINDS.contains(&kind));
            let playouts: u64 = args[2].parse().expect("playouts");
            let mut table = std::fs::read_to_string(&args[3])
                .ok()
                .and_then(|t| DzTable::parse(&t).ok())
                .unwrap_or_default();
            let mut fits = Vec::new();
            for file in &args[4..] {
                let set = testsets::parse(&std::fs::read_to_string(file).expect("read")).expect("parse");
                let stage = yomi_othello::dz::move_number(&set[0].state);
                let fit = fit_stage(kind, stage, &set, playouts, 1);
                table.set(kind, row_of(&fit));
                fits.push(fit);
            }
            println!("{}", report(kind, &fits));
            std::fs::write(&args[3], table.to_text("fitted by examples/dz.rs")).expect("write");
        }
        _ => eprintln!("usage: gen <S> <count> <seed> <threads> <out> | fit <kind> <playouts> <table> <sets...>"),
    }
}
