//! Solves FFO endgame positions exactly and compares with the listed best scores:
//! `cargo run --release -p yomi-othello --example ffo [first] [last] [threads]` (default
//! 40 44 1).
//! Reads `shared/data/othello/fforum-*.obf` (or `$YOMI_SHARED_DATA/othello`).

use yomi_othello::solver::bench_positions;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (first, last, threads) = (
        args.first().copied().unwrap_or(40),
        args.get(1).copied().unwrap_or(44),
        args.get(2).copied().unwrap_or(1).max(1) as usize,
    );
    let Some(dir) = yomi_othello::data::othello_data_dir() else {
        eprintln!("shared/data/othello not found; set YOMI_SHARED_DATA");
        std::process::exit(2);
    };
    let mut all = Vec::new();
    for (name, base) in [
        ("fforum-1-19.obf", 1),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 40),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).expect("read FFO file");
        let ps = yomi_othello::parse_obf(&text).unwrap_or_else(|(l, e)| panic!("{name}:{l}: {e}"));
        for (i, p) in ps.into_iter().enumerate() {
            all.push((base + i as u32, p));
        }
    }
    let chosen: Vec<_> = all
        .iter()
        .filter(|(n, _)| (first..=last).contains(n))
        .collect();
    let positions: Vec<(String, _)> = chosen
        .iter()
        .map(|(n, p)| (format!("#{n}"), p.state))
        .collect();
    let cpu0 = cpu_seconds();
    let lines = bench_positions(&positions, 22, threads);
    let cpu = cpu_seconds() - cpu0;
    let (mut nodes, mut secs, mut ok) = (0u64, 0.0, true);
    for (line, (_, p)) in lines.iter().zip(&chosen) {
        let want = p.best_score();
        let good = want == Some(line.score);
        ok &= good;
        nodes += line.nodes;
        secs += line.elapsed.as_secs_f64();
        println!(
            "{:>4} {:>2} empties: {:+3} {} (listed {:+}) {:>12} nodes {:8.3} s {}",
            line.label,
            line.empties,
            line.score,
            line.best.map(|m| m.to_string()).unwrap_or_default(),
            want.unwrap_or(0),
            line.nodes,
            line.elapsed.as_secs_f64(),
            if good { "ok" } else { "WRONG" }
        );
    }
    println!(
        "total: {nodes} nodes, {secs:.3} s wall, {cpu:.3} s CPU, {:.1} M nodes/s{}",
        nodes as f64 / secs / 1e6,
        if ok { "" } else { " -- SOME SCORES WRONG" }
    );
}

/// User CPU time of this process (Linux `/proc/self/stat`), or 0 elsewhere.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let after = s
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(11)?
                .parse::<f64>()
                .ok()?;
            Some(after / 100.0)
        })
        .unwrap_or(0.0)
}
