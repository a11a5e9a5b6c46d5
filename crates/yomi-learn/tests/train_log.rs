//! The training log (`train-<method>.jsonl`, a `yomi_core::journal`): a resumed run reads
//! its finished iterations back instead of training them again and cuts a torn last line,
//! a run with other settings or beside another run is refused, and a directory of an older
//! version (the CSV only) is taken over.

use yomi_core::journal::{JournalError, JournalFile};
use yomi_core::testing::Nim;
use yomi_learn::algorithms::{LearnParams, Method};
use yomi_learn::data::{decode, generate, DataConfig};
use yomi_learn::train::{log_path, read_curve, train, TrainConfig};
use yomi_learn::LearnError;

type Samples = Vec<yomi_learn::algorithms::Sample<Nim>>;

fn samples(dir: &std::path::Path) -> Samples {
    let game = Nim::new(12);
    let cfg = DataConfig {
        states: 16,
        iterations: 100,
        seed: 3,
    };
    let data = generate(&game, &cfg, &dir.join("data.jsonl"), true).unwrap();
    data.iter().map(|r| decode(&game, r).unwrap()).collect()
}

fn config(out: &std::path::Path, iterations: usize) -> TrainConfig {
    TrainConfig {
        out: out.to_path_buf(),
        train: 10,
        test: 6,
        iterations,
        methods: vec![Method::Al],
        eval_simulations: 10,
        seed: 5,
        params: LearnParams {
            m: 10,
            n: 10,
            ..LearnParams::default()
        },
    }
}

#[test]
fn a_resumed_run_reads_finished_iterations_back_and_refuses_other_settings() {
    let game = Nim::new(12);
    let dir = tempfile::tempdir().unwrap();
    let data = samples(dir.path());
    // The uninterrupted run, elsewhere.
    let whole = train(
        &game,
        "nim",
        &config(&dir.path().join("whole"), 2),
        &data,
        true,
    )
    .unwrap();
    let out = dir.path().join("out");
    train(&game, "nim", &config(&out, 1), &data, true).unwrap();
    let log = log_path(&out, Method::Al);
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 3, "a header and rows 0 and 1: {text}");
    // Mark row 1 (a retrained row would not carry it) and tear a third row.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut row: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    row["seconds"] = serde_json::json!(123.0);
    lines[2] = serde_json::to_string(&row).unwrap();
    let marked = lines.join("\n") + "\n";
    std::fs::write(&log, format!("{marked}{{\"iteration\":2,\"cr\":0.")).unwrap();
    let resumed = train(&game, "nim", &config(&out, 2), &data, true).unwrap();
    let points = &resumed[0].points;
    assert_eq!(points.len(), 3);
    assert_eq!(
        points[1].seconds, 123.0,
        "row 1 is read back, not trained again"
    );
    for (a, b) in points.iter().zip(&whole[0].points) {
        assert_eq!((a.iteration, a.cr, a.mse), (b.iteration, b.cr, b.mse));
    }
    let now = std::fs::read_to_string(&log).unwrap();
    assert!(
        now.starts_with(&marked) && now.lines().count() == 4,
        "{now}"
    );
    assert_eq!(read_curve(&out, Method::Al).unwrap(), *points);
    // Other settings are refused, and so is a second run while one holds the log.
    let mut other = config(&out, 2);
    other.seed = 6;
    let err = train(&game, "nim", &other, &data, true).unwrap_err();
    assert!(
        matches!(err, LearnError::Journal(JournalError::Settings { .. })),
        "{err}"
    );
    assert!(
        err.to_string().contains("seed: 6 here, 5 in the file"),
        "{err}"
    );
    let held = JournalFile::lock(&log).unwrap();
    let err = train(&game, "nim", &config(&out, 2), &data, true).unwrap_err();
    assert!(
        matches!(err, LearnError::Journal(JournalError::Locked { .. })),
        "{err}"
    );
    drop(held);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), now);
}

#[test]
fn a_directory_of_the_older_version_is_taken_over() {
    let game = Nim::new(12);
    let dir = tempfile::tempdir().unwrap();
    let data = samples(dir.path());
    let out = dir.path().join("out");
    let two = train(&game, "nim", &config(&out, 2), &data, true).unwrap();
    // The older version wrote no log.
    std::fs::remove_file(log_path(&out, Method::Al)).unwrap();
    let three = train(&game, "nim", &config(&out, 3), &data, true).unwrap();
    assert_eq!(three[0].points[..3], two[0].points[..]);
    assert_eq!(three[0].points.len(), 4);
    let log = std::fs::read_to_string(log_path(&out, Method::Al)).unwrap();
    assert_eq!(log.lines().count(), 5, "{log}");
}
