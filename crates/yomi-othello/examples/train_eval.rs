//! Trains the pattern evaluation and writes the weights file:
//! `cargo run --release -p yomi-othello --example train_eval -- [games per round] [rounds] [out] [l2]`
//! (defaults 5000, 3, `crates/yomi-othello/data/othello-eval-v1.bin`).

use yomi_othello::train::{train, TrainConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Seed 1: the seed the shipped weights (data/othello-eval-v1.bin) were trained with.
    let mut cfg = TrainConfig {
        seed: 1,
        ..TrainConfig::default()
    };
    if let Some(g) = args.first().and_then(|a| a.parse().ok()) {
        cfg.games_per_round = g;
    }
    if let Some(r) = args.get(1).and_then(|a| a.parse().ok()) {
        cfg.rounds = r;
    }
    if let Some(l2) = args.get(3).and_then(|a| a.parse().ok()) {
        cfg.l2 = l2;
    }
    let out = args.get(2).cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/othello-eval-v1.bin").to_string()
    });
    println!("{cfg:?}");
    let (eval, report) = train(&cfg, |line| println!("{line}"));
    let bytes = eval.to_bytes();
    std::fs::write(&out, &bytes).expect("write weights");
    println!("wrote {out} ({} bytes)", bytes.len());
    let h = report.holdout_exact;
    println!(
        "held-out solved positions: {} positions, MAE {:.2} discs, RMSE {:.2} (always-0 MAE {:.2})",
        h.count, h.mae, h.rmse, h.mae_zero
    );
    let a = report.holdout_all;
    println!(
        "held-out all positions (midgame labels: exact result from {} empties): {} positions, MAE {:.2}, RMSE {:.2} (always-0 MAE {:.2})",
        cfg.exact_empties, a.count, a.mae, a.rmse, a.mae_zero
    );
    for (st, e) in report.holdout_by_stage.iter().enumerate() {
        println!(
            "  stage {st} ({}-{} empties): {} positions, MAE {:.2}, RMSE {:.2} (always-0 {:.2})",
            st * 10 + 1,
            st * 10 + 10,
            e.count,
            e.mae,
            e.rmse,
            e.mae_zero
        );
    }
    println!(
        "{} training positions, {:.1} s",
        report.train_samples, report.seconds
    );
}
