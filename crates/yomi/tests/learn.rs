//! End-to-end test of `yomi learn`: the whole policy-learning experiment at toy budgets on
//! the shipped tic-tac-toe sheet (data, training curves and plots, the round robins of the
//! four players for each play method, the report), then a rerun that resumes everything.

mod common;

use common::{path_str, scratch, yomi};

#[test]
fn learn_experiment_runs_and_resumes() {
    let dir = scratch("learn-experiment");
    let d = path_str(&dir);
    let file = dir.join("ttt.toml");
    std::fs::write(
        &file,
        format!(
            r#"game = "ggp:tictactoe"
[data]
file = "{d}/data.jsonl"
states = 14
iterations = 300
seed = 2
[train]
out = "{d}/out"
train = 10
test = 4
iterations = 2
eval_simulations = 10
[train.params]
m = 4
n = 4
[matches]
games = 2
sims = 3
[matches.paper]
direct = [1, 2, 3, 4]
simple-mc = [5, 6, 7, 8]
uct = [9, 10, 11, 12]
"#
        ),
    )
    .unwrap();
    let f = path_str(&file);
    yomi(&["learn", "experiment", f, "--threads", "2", "--quiet"])
        .ok()
        .says(&["| direct |", "| simple-mc |", "| uct |", "| AL+SB |"]);
    for name in [
        "report.md",
        "training.csv",
        "cr.png",
        "mse.png",
        "matches-uct.jsonl",
    ] {
        assert!(dir.join("out").join(name).exists(), "{name}");
    }
    let report = std::fs::read_to_string(dir.join("out/report.md")).unwrap();
    // Resumed: the same report (every stage is read back, nothing is replayed).
    let again = yomi(&["learn", "experiment", f, "--threads", "1", "--quiet"]);
    again.ok();
    let report2 = std::fs::read_to_string(dir.join("out/report.md")).unwrap();
    let strip = |s: &str| -> String {
        // Per-move times and the played / resumed counts differ; compare everything else.
        s.lines()
            .filter(|l| {
                !l.contains("ms/move") && !l.contains("played now") && !l.starts_with("|   ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&report), strip(&report2));
    yomi(&["learn", "data", "connect4x", "--out", d]).fails(2, &["connect4x"]);
}
