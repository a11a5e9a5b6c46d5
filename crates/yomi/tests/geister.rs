//! `yomi geister train` end to end on a tiny network: one cycle writes the best network and
//! the log, the network plays through `yomi match` as `az:net=...`, and a second run with
//! the same settings resumes (nothing left to do) instead of starting over.

mod common;

use common::{path_str, scratch, yomi};

const TINY: &str = r#"
seed = 3
cycles = 1
[net]
filters = 8
blocks = 1
value_hidden = 8
[selfplay]
games = 2
threads = 1
max_batch = 2
max_plies = 30
[search]
simulations = 6
temperature_moves = 4
[train]
buffer = 500
batch = 16
steps = 3
[gate]
games = 0
[eval]
opponents = ["random"]
games = 2
simulations = 4
threads = 1
"#;

#[test]
fn geister_training_writes_a_network_that_plays_and_resumes() {
    let dir = scratch("geister-train");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY).unwrap();
    let run = dir.join("run");
    yomi(&[
        "geister",
        "train",
        path_str(&config),
        "--dir",
        path_str(&run),
    ])
    .ok();
    let best = run.join("best.ynn");
    assert!(best.is_file(), "no best.ynn in {}", run.display());
    let log = std::fs::read_to_string(run.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 2, "header and one cycle:\n{log}");

    let agent = format!("az:net={},sims=4", path_str(&best));
    yomi(&[
        "match",
        "geister-perfect",
        &agent,
        "random",
        "--games",
        "2",
        "--quiet",
    ])
    .ok()
    .says(&["az"]);

    // The same command again: the cycle is already done, the log keeps one row.
    yomi(&[
        "geister",
        "train",
        path_str(&config),
        "--dir",
        path_str(&run),
    ])
    .ok();
    let again = std::fs::read_to_string(run.join("log.csv")).unwrap();
    assert_eq!(again, log);
}

#[test]
fn geister_training_reports_a_missing_or_bad_config() {
    let dir = scratch("geister-train-bad");
    let missing = dir.join("missing.toml");
    let out = yomi(&[
        "geister",
        "train",
        path_str(&missing),
        "--dir",
        path_str(&dir),
    ]);
    assert_ne!(out.code, Some(0));
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(out.stderr.contains("missing.toml"), "{}", out.stderr);
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "cycles = 1\n[net]\nfilterz = 3\n").unwrap();
    let out = yomi(&["geister", "train", path_str(&bad), "--dir", path_str(&dir)]);
    assert_ne!(out.code, Some(0));
    assert!(out.stderr.contains("filterz"), "{}", out.stderr);
}
