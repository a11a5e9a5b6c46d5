//! The whole experiment at toy size on core's Nim: data (resumable), training curves (resumable),
//! plots, the round robin of the four players for each play method, and the report.

use std::io::Write;

use yomi_core::journal::JournalError;
use yomi_core::testing::Nim;
use yomi_learn::data::{decode, generate, read_data, DataConfig};
use yomi_learn::experiment::{
    recorded_curves, report, run_matches, Experiment, MatchPlan, PlayResult,
};
use yomi_learn::train::{read_curve, train};
use yomi_learn::{LearnError, Method};

fn experiment(dir: &std::path::Path, iterations: usize) -> Experiment {
    let text = format!(
        r#"
game = "nim"
title = "Nim 12"
[data]
file = "{d}/data.jsonl"
states = 16
iterations = 400
seed = 3
[train]
out = "{d}/out"
train = 10
test = 6
iterations = {iterations}
eval_simulations = 20
seed = 5
[train.params]
m = 10
n = 10
[matches]
games = 4
sims = 4
seed = 9
threads = 2
[matches.paper]
direct = [224100, 199050, 224775, 102075]
simple-mc = [193800, 278400, 175950, 101850]
uct = [187350, 259575, 215850, 87225]
"#,
        d = dir.display()
    );
    toml::from_str(&text).unwrap()
}

#[test]
fn data_train_matches_report_and_resume() {
    let game = Nim::new(12);
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), 2);
    let cfg: DataConfig = exp.data.config();
    let data = generate(&game, &cfg, &exp.data.file, true).unwrap();
    assert_eq!(data.len(), 16);
    let mut distinct: Vec<&str> = data.iter().map(|r| r.state.as_str()).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 16, "states are distinct");
    // Labels from 400 UCT iterations: from 5, 6 or 7 stones the winning move leaves 4.
    for r in &data {
        let stones: u32 = r.state.split(' ').next().unwrap().parse().unwrap();
        if (5..=7).contains(&stones) {
            assert_eq!(r.best, (stones - 4).to_string(), "{r:?}");
            assert!(r.value > 0.5, "{r:?}");
        }
    }
    // Resume: a partial last line is cut off and nothing is searched again.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&exp.data.file)
        .unwrap();
    f.write_all(b"{\"index\": 99, \"sta").unwrap();
    drop(f);
    let again = generate(&game, &cfg, &exp.data.file, true).unwrap();
    assert_eq!(again, data);
    assert_eq!(read_data(&exp.data.file).unwrap().1, data);
    // Another seed on the same file is refused.
    let other = DataConfig {
        seed: 4,
        ..cfg.clone()
    };
    assert!(matches!(
        generate(&game, &other, &exp.data.file, true),
        Err(LearnError::Journal(JournalError::Settings { .. }))
    ));

    let samples: Vec<_> = data.iter().map(|r| decode(&game, r).unwrap()).collect();
    let curves = train(&game, "nim", &exp.train, &samples, true).unwrap();
    assert_eq!(curves.len(), 3);
    assert!(curves.iter().all(|c| c.points.len() == 3));
    // Iteration 0 is the uniform policy for every method (common random numbers).
    assert!(curves
        .iter()
        .all(|c| c.points[0].cr == curves[0].points[0].cr));
    for f in [
        "training.csv",
        "cr.png",
        "mse.png",
        "plots.txt",
        "train-al.csv",
        "al-iter2.weights.json",
    ] {
        assert!(exp.train.out.join(f).exists(), "{f}");
    }
    assert!(!exp.train.out.join("al-iter1.weights.json").exists());
    // Resume to 3 iterations: the first rows are kept, one is added.
    let exp3 = experiment(dir.path(), 3);
    let curves3 = train(&game, "nim", &exp3.train, &samples, true).unwrap();
    for (a, b) in curves.iter().zip(&curves3) {
        assert_eq!(&b.points[..3], &a.points[..]);
        assert_eq!(b.points.len(), 4);
    }
    assert_eq!(read_curve(&exp3.train.out, Method::Sb).unwrap().len(), 4);

    let plays = run_matches(&game, "nim", &exp3, true).unwrap();
    assert_eq!(plays.len(), 3);
    for p in &plays {
        // 4 games per pairing, 3 pairings per player; 100 points per game shared out.
        assert_eq!(p.games_each, [12; 4]);
        assert_eq!(p.totals.iter().sum::<f64>(), 100.0 * 4.0 * 6.0);
    }
    let md = report(&exp3, &curves3, &plays, "yomi learn experiment nim.toml");
    assert!(
        md.contains("| simple-mc |") && md.contains("224100 (896)"),
        "{md}"
    );
    // Matches resume from their records: a second run plays nothing new.
    let again = run_matches(&game, "nim", &exp3, true).unwrap();
    assert_eq!(again[0].result.played, 0);
    assert_eq!(again[0].totals, plays[0].totals);

    // The matches in chunks, as the Ray runner plays them, into other files: the same
    // games (timings aside) and the same totals.
    let mut chunked = exp3.clone();
    chunked.train.out = dir.path().join("chunked");
    std::fs::create_dir_all(&chunked.train.out).unwrap();
    for f in std::fs::read_dir(&exp3.train.out).unwrap() {
        let f = f.unwrap().path();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".csv") || name.ends_with(".weights.json") {
            std::fs::copy(&f, chunked.train.out.join(&name)).unwrap();
        }
    }
    let plan = MatchPlan::new(game.clone(), "nim", &chunked).unwrap();
    let mut journal = plan.journal().unwrap();
    assert_eq!(plan.total(), 3 * 6 * 4);
    let due = journal.due();
    let mut chunks: Vec<&[usize]> = due.chunks(7).collect();
    chunks.reverse();
    for chunk in &chunks {
        let records = plan.play(chunk).unwrap();
        assert_eq!(journal.add(chunk, records).unwrap(), chunk.len());
    }
    let twice = plan.play(chunks[0]).unwrap();
    assert_eq!(journal.add(chunks[0], twice).unwrap(), 0);
    assert!(journal.due().is_empty());
    assert!(plan.play(&[plan.total()]).is_err());
    let results = journal.results();
    drop(journal);
    let strip = |r: &PlayResult| {
        let mut v: Vec<_> = r
            .result
            .records
            .iter()
            .map(|g| g.without_timing())
            .collect();
        v.sort_by_key(|g| (g.pairing, g.index));
        v
    };
    for (a, b) in results.iter().zip(&plays) {
        assert_eq!(a.play, b.play);
        assert_eq!(strip(a), strip(b));
        assert_eq!(a.totals, b.totals);
    }
    // The chunked files resume like a single run's.
    let resumed = run_matches(&game, "nim", &chunked, true).unwrap();
    assert!(resumed.iter().all(|p| p.result.played == 0));
    assert_eq!(recorded_curves(&exp3).unwrap(), curves3);
}

#[test]
fn bad_experiment_files_are_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.toml");
    std::fs::write(
        &path,
        "game = \"nim\"\n[data]\nfile = \"x\"\nstates = 3\nbogus = 1\n",
    )
    .unwrap();
    assert!(matches!(
        yomi_learn::experiment::read_experiment(&path),
        Err(LearnError::BadFile { .. })
    ));
    std::fs::write(dir.path().join("d.jsonl"), "{\"yomi_learn_data\":1}\n").unwrap();
    assert!(matches!(
        read_data(&dir.path().join("d.jsonl")),
        Err(LearnError::BadFile { .. })
    ));
}

#[test]
fn paths_in_an_experiment_file_are_relative_to_its_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sub");
    std::fs::create_dir(&dir).unwrap();
    let out = tmp.path().join("runs/out");
    let path = dir.join("e.toml");
    std::fs::write(
        &path,
        format!(
            "game = \"nim\"\n[data]\nfile = \"d/data.jsonl\"\nstates = 3\n\
             [train]\nout = {:?}\ntrain = 2\ntest = 1\niterations = 1\n",
            out.display().to_string()
        ),
    )
    .unwrap();
    let e = yomi_learn::experiment::read_experiment(&path).unwrap();
    assert_eq!(e.data.file, dir.join("d/data.jsonl"));
    assert_eq!(e.train.out, out, "an absolute path is kept");
}

#[test]
fn the_shipped_experiment_files_read() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let mut n = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("learn-") && name.ends_with(".toml") {
            let e = yomi_learn::experiment::read_experiment(&path)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(e.game.starts_with("ggp:"), "{name}");
            let m = e.matches.expect("matches");
            assert!(m.paper.is_some(), "{name}: the paper's numbers");
            assert!(e.train.train + e.train.test <= e.data.states, "{name}");
            // Its results live in experiments/<name without .toml>/, wherever it runs from.
            let results = root.join(name.trim_end_matches(".toml"));
            assert_eq!(e.train.out, results, "{name}");
            // Its data is its own, or (a rerun with other settings on the same states)
            // the data of another experiment beside it.
            let data_dir = e.data.file.parent().and_then(|d| d.parent());
            assert!(
                e.data.file == results.join("data.jsonl") || data_dir == Some(root.as_path()),
                "{name}: {}",
                e.data.file.display()
            );
            if results.is_dir() {
                assert!(e.data.file.is_file(), "{name}: shipped data");
                // A finished run (its report written) has its matches too; a run still
                // under way across sessions may ship its data and training first.
                // Journals over a few MB are committed gzipped (gunzip before resuming).
                if results.join("report.md").is_file() {
                    assert!(
                        results.join("matches-uct.jsonl").is_file()
                            || results.join("matches-uct.jsonl.gz").is_file(),
                        "{name}"
                    );
                }
            }
            n += 1;
        }
    }
    assert!(n >= 4, "experiment files found: {n}");
}

/// Issue 15: `yomi learn data --states 4294967296` aborted on allocating the list of
/// states up front; a count above `MAX_STATES` is a configuration error naming the cap.
#[test]
fn states_4294967296_is_a_config_error_not_an_allocation_abort() {
    let e = yomi_learn::data::random_states(&Nim::new(7), 4_294_967_296, 1).unwrap_err();
    assert!(matches!(e, LearnError::Config(_)), "{e:?}");
    assert!(e.to_string().contains("at most 10000000"), "{e}");
}
