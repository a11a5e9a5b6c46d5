//! The accuracy experiment end to end on a reduced configuration: records, report, resume.

use std::path::PathBuf;

use yomi_core::progress::Display;
use yomi_othello::accuracy::{self, AccuracyConfig, Outcome, Record};
use yomi_othello::testsets;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/testsets")
        .join(name)
}

fn config(dir: &std::path::Path) -> AccuracyConfig {
    let text = format!(
        r#"
seed = 7
playouts = [40, 120]
positions = 3
threads = 2
out = "{out}"
report = "{report}"

[[set]]
stage = 30
file = "{s30}"

[[set]]
stage = 50
file = "{s50}"

[[variant]]
name = "UCT+"
agent = "uct+:expand=100"
table = 1

[[variant]]
name = "UCT+dZ_PlayZebra-break"
agent = "uct+dz_playzebra-break"
table = 6
"#,
        out = dir.join("acc.jsonl").display(),
        report = dir.join("acc.md").display(),
        s30 = data("s30.txt").display(),
        s50 = data("s50.txt").display(),
    );
    AccuracyConfig::parse(&text).expect("the reduced configuration parses")
}

#[test]
fn reduced_run_writes_records_and_report_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());

    // 2 variants x 2 stages x 2 budgets x 3 positions.
    let s = accuracy::run(&cfg, "yomi othello accuracy test.toml", Display::Quiet).unwrap();
    assert_eq!((s.items, s.resumed, s.ran), (24, 0, 24));
    let records = accuracy::load_records(&cfg.out).unwrap();
    assert_eq!(records.len(), 24);

    // Every record scores its chosen move by the test set's label.
    let s50 = testsets::parse(&std::fs::read_to_string(data("s50.txt")).unwrap()).unwrap();
    for r in records.iter().filter(|r| r.stage == 50) {
        let p = &s50[r.index];
        assert_eq!(r.board, p.state.to_board_string());
        let v = p.value(r.chosen.parse().unwrap()).unwrap();
        assert_eq!(v, r.value);
        assert_eq!(r.outcome, Outcome::of(v));
        assert_eq!(r.label, "exact");
    }

    let report = std::fs::read_to_string(&cfg.report).unwrap();
    assert!(report.contains("yomi othello accuracy test.toml"));
    assert!(report.contains("## Table 1: UCT+"));
    assert!(report.contains("## Table 6: UCT+dZ_PlayZebra-break"));
    // The paper's S=30, 10k cell of table 1 is not at these budgets; the rows are ours.
    assert!(report.contains("| 30 | 40 | 3 |"));
    assert!(report.contains("| 50 | 120 | 3 |"));
    assert!(report.contains("S=50: 3 positions"));
    assert!(report.contains("the win/draw/loss of every move is exact"));
    assert!(report.contains("win/loss labels are search-based, not exact"));

    // The accuracy in the report is (wins + draws / 2) / N of the records.
    let cell: Vec<&Record> = records
        .iter()
        .filter(|r| r.variant == "UCT+" && r.stage == 50 && r.playouts == 120)
        .collect();
    let points: f64 = cell.iter().map(|r| r.outcome.points()).sum();
    let row = format!("| 50 | 120 | 3 | {:.1} |", 100.0 * points / 3.0);
    assert!(report.contains(&row), "missing {row} in\n{report}");

    // A rerun runs nothing and reproduces the report.
    let s = accuracy::run(&cfg, "yomi othello accuracy test.toml", Display::Quiet).unwrap();
    assert_eq!((s.items, s.resumed, s.ran), (24, 24, 0));
    assert_eq!(std::fs::read_to_string(&cfg.report).unwrap(), report);

    // Interrupted: drop the last five records and leave half a line; the rerun cuts the
    // partial line, runs only the missing items and gets the same results (seeded).
    let text = std::fs::read_to_string(&cfg.out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut cut = lines[..lines.len() - 5].join("\n");
    cut.push('\n');
    cut.push_str(&lines[lines.len() - 5][..20]);
    std::fs::write(&cfg.out, cut).unwrap();
    let s = accuracy::run(&cfg, "yomi othello accuracy test.toml", Display::Quiet).unwrap();
    assert_eq!((s.resumed, s.ran), (19, 5));
    let mut again = accuracy::load_records(&cfg.out).unwrap();
    assert_eq!(again.len(), 24);
    let strip = |rs: &mut Vec<Record>| {
        for r in rs.iter_mut() {
            r.seconds = 0.0;
        }
        rs.sort_by(|a, b| (&a.agent, a.stage, a.index).cmp(&(&b.agent, b.stage, b.index)));
    };
    let mut before = records.clone();
    strip(&mut before);
    strip(&mut again);
    assert_eq!(before, again);
}

#[test]
fn shipped_experiment_file_parses_and_names_tables_1_to_6() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../experiments/othello-accuracy.toml");
    let cfg = AccuracyConfig::read(&path).unwrap();
    assert_eq!(cfg.playouts, vec![10000, 30000, 50000]);
    // Its paths are relative to experiments/: the records and report land there, and the
    // test sets are the crate's shipped ones (the command runs from the repository root).
    let experiments = path.parent().unwrap();
    assert_eq!(cfg.out, experiments.join("othello-accuracy.jsonl"));
    assert_eq!(cfg.report, experiments.join("othello-accuracy.md"));
    for set in &cfg.sets {
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../crates/yomi-othello/data/testsets")
            .join(format!("s{}.txt", set.stage));
        assert_eq!(set.file, shipped);
        assert!(set.file.is_file(), "{}", set.file.display());
    }
    let mut tables: Vec<u32> = cfg.variants.iter().filter_map(|v| v.table).collect();
    tables.sort_unstable();
    assert_eq!(tables, vec![1, 2, 3, 4, 5, 6]);
    let stages: Vec<u32> = cfg.sets.iter().map(|s| s.stage).collect();
    assert_eq!(stages, vec![20, 30, 40, 50]);
    let registry = yomi_othello::registry();
    for v in &cfg.variants {
        registry
            .validate(&yomi_othello::Othello, &accuracy::agent_spec(v, 10000))
            .unwrap();
    }
    // Every paper cell is for a table the file names, at S = 20 or 30.
    assert_eq!(accuracy::PAPER.len(), 36);
    assert_eq!(accuracy::paper(6, 20, 10000), Some((90.67, 302.0)));
}

#[test]
fn paths_in_an_experiment_file_are_relative_to_its_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sub");
    std::fs::create_dir(&dir).unwrap();
    let report = tmp.path().join("elsewhere.md");
    let text = format!(
        "playouts = [100]\nout = \"a.jsonl\"\nreport = {:?}\n\
         [[set]]\nstage = 50\nfile = \"../sets/s50.txt\"\n\
         [[variant]]\nname = \"x\"\nagent = \"uct\"\n",
        report.display().to_string()
    );
    let path = dir.join("e.toml");
    std::fs::write(&path, &text).unwrap();
    let cfg = AccuracyConfig::read(&path).unwrap();
    assert_eq!(cfg.out, dir.join("a.jsonl"));
    assert_eq!(cfg.report, report, "an absolute path is kept");
    assert_eq!(cfg.sets[0].file, tmp.path().join("sets/s50.txt"));
    // Text without a file keeps its paths relative to the current directory.
    let cfg = AccuracyConfig::parse(&text).unwrap();
    assert_eq!(cfg.out, PathBuf::from("a.jsonl"));
    assert_eq!(cfg.sets[0].file, PathBuf::from("../sets/s50.txt"));
    // A file that cannot be read is an I/O error naming it.
    let missing = dir.join("missing.toml");
    let e = AccuracyConfig::read(&missing).unwrap_err().to_string();
    assert!(e.contains("missing.toml"), "{e}");
}

#[test]
fn bad_experiment_files_get_errors() {
    let base = "playouts = [100]\nout = \"a.jsonl\"\nreport = \"a.md\"\n\
                [[set]]\nstage = 50\nfile = \"s50.txt\"\n\
                [[variant]]\nname = \"x\"\nagent = \"uct\"\n";
    assert!(AccuracyConfig::parse(base).is_ok());
    for (bad, what) in [
        (base.replace("[100]", "[0]"), "playouts"),
        (base.replace("[100]", "[]"), "playouts"),
        (base.replace("\"uct\"", "\"uct:iters=5\""), "iters"),
        (format!("{base}table = 9\n"), "table"),
        (format!("{base}colour = 1\n"), "unknown field"),
        (base.replace("playouts = [100]\n", ""), "playouts"),
        (
            format!("{base}[[variant]]\nname = \"x\"\nagent = \"uct+\"\n"),
            "twice",
        ),
        ("playouts = [".to_string(), "experiment file"),
    ] {
        let err = AccuracyConfig::parse(&bad).unwrap_err().to_string();
        assert!(err.contains(what), "{what}: {err}");
    }
    // An unknown agent is refused before anything runs.
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = AccuracyConfig::parse(base).unwrap();
    cfg.sets[0].file = data("s50.txt");
    cfg.out = dir.path().join("a.jsonl");
    cfg.report = dir.path().join("a.md");
    cfg.variants[0].agent = "no-such-agent".into();
    let err = accuracy::run(&cfg, "", Display::Quiet)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no-such-agent"), "{err}");
    assert!(!cfg.out.exists());
    // A set listed under the wrong stage is refused.
    cfg.variants[0].agent = "uct".into();
    cfg.sets[0].stage = 40;
    let err = accuracy::run(&cfg, "", Display::Quiet)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not S = 40"), "{err}");
    // A malformed complete records line is an error naming the line.
    cfg.sets[0].stage = 50;
    std::fs::write(&cfg.out, "{\"variant\": 3}\n").unwrap();
    let err = accuracy::run(&cfg, "", Display::Quiet)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1"), "{err}");
}

#[test]
fn items_played_in_chunks_elsewhere_give_the_records_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = config(dir.path());
    accuracy::run(&whole, "", Display::Quiet).unwrap();
    let mut cfg = config(dir.path());
    cfg.out = dir.path().join("chunks.jsonl");
    let journal = accuracy::AccuracyJournal::open(&cfg).unwrap();
    // A second owner of the same file is refused while the first holds it.
    assert!(accuracy::AccuracyJournal::open(&cfg).is_err());
    let due = journal.due();
    assert_eq!((due.len(), journal.total()), (24, 24));
    // Workers build their own plan from the configuration and play chunks in any order.
    let worker = accuracy::AccuracyPlan::new(&cfg).unwrap();
    let mut chunks: Vec<&[usize]> = due.chunks(5).collect();
    chunks.reverse();
    for chunk in &chunks {
        let records = worker.play_items(chunk).unwrap();
        assert_eq!(journal.add(&records).unwrap(), chunk.len());
    }
    // A chunk delivered twice (a retried task) adds nothing.
    let again = worker.play_items(chunks[0]).unwrap();
    assert_eq!(journal.add(&again).unwrap(), 0);
    assert_eq!(journal.duplicates(), chunks[0].len());
    assert!(journal.due().is_empty());
    // A record of another configuration is refused and nothing of its batch is written.
    let mut foreign = again.clone();
    foreign[0].seed ^= 1;
    assert!(journal.add(&foreign).is_err());
    drop(journal);
    let strip = |mut rs: Vec<Record>| {
        for r in rs.iter_mut() {
            r.seconds = 0.0;
        }
        rs.sort_by(|a, b| (&a.agent, a.stage, a.index).cmp(&(&b.agent, b.stage, b.index)));
        rs
    };
    let chunked = accuracy::load_records(&cfg.out).unwrap();
    assert_eq!(
        strip(chunked),
        strip(accuracy::load_records(&whole.out).unwrap())
    );
    // The file made in chunks resumes like one made by a single run.
    let s = accuracy::run(&cfg, "", Display::Quiet).unwrap();
    assert_eq!((s.resumed, s.ran), (24, 0));
}

#[test]
fn records_of_a_changed_test_set_or_two_results_of_one_item_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    accuracy::run(&cfg, "", Display::Quiet).unwrap();
    let text = std::fs::read_to_string(&cfg.out).unwrap();
    let records = accuracy::load_records(&cfg.out).unwrap();
    let line = |r: &Record| serde_json::to_string(r).unwrap();
    // The first record's position now carries another label kind: the set changed.
    let mut relabelled = records[0].clone();
    relabelled.label = if relabelled.label == "exact" {
        "search6".into()
    } else {
        "exact".into()
    };
    let body: Vec<String> = std::iter::once(line(&relabelled))
        .chain(records[1..].iter().map(line))
        .collect();
    std::fs::write(&cfg.out, body.join("\n") + "\n").unwrap();
    let err = accuracy::AccuracyJournal::open(&cfg)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("line 1") && err.contains("the test set changed"),
        "{err}"
    );
    // The same item twice: a second copy (other timing) is harmless, another move is not.
    let mut copy = records[0].clone();
    copy.seconds += 1.0;
    std::fs::write(&cfg.out, format!("{text}{}\n", line(&copy))).unwrap();
    let s = accuracy::run(&cfg, "", Display::Quiet).unwrap();
    assert_eq!((s.resumed, s.ran), (24, 0));
    let mut other = records[0].clone();
    other.chosen = "pass".into();
    std::fs::write(&cfg.out, format!("{text}{}\n", line(&other))).unwrap();
    let err = accuracy::run(&cfg, "", Display::Quiet)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("line 25") && err.contains("differently"),
        "{err}"
    );
}

/// Issue 17, item 2: records rescored against relabelled sets take each chosen move's new
/// value and the new label kind, and a record of another position is refused.
#[test]
fn records_are_rescored_against_relabelled_sets() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    accuracy::run(&cfg, "", Display::Quiet).unwrap();
    let records = accuracy::load_records(&cfg.out).unwrap();
    let mut sets = accuracy::load_sets(&cfg).unwrap();
    // Relabel by hand: every move of every position worth 7 more than it was, kind search9.
    for s in &mut sets {
        for p in &mut s.positions {
            p.kind = testsets::LabelKind::Search(9);
            for m in &mut p.moves {
                m.1 = (m.1 + 7).min(64);
            }
        }
    }
    let mut rescored = records.clone();
    let n = accuracy::rescore(&sets, &mut rescored, &cfg.out).unwrap();
    assert_eq!(n, records.len());
    for (old, new) in records.iter().zip(&rescored) {
        assert_eq!(new.label, "search9");
        assert_eq!(new.value, (old.value + 7).min(64));
        assert_eq!(new.outcome, Outcome::of(new.value));
        assert_eq!((&new.chosen, &new.board), (&old.chosen, &old.board));
    }
    // A record whose board is not the set's position at its index.
    let mut wrong = records.clone();
    let other = sets[0].positions[1].state.to_board_string();
    wrong[0].board = other;
    wrong[0].index = 0;
    let err = accuracy::rescore(&sets, &mut wrong, &cfg.out)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("line 1") && err.contains("in the test set, not"),
        "{err}"
    );
}

/// The inputs of the rescored reports (`experiments/othello-accuracy-300-d8.md` and
/// `-d10.md`) hold together: each experiment file names the main file's variants and the
/// 8- or 10-ply sets at S = 20 and 30, and every committed record rescores against them
/// (search labels at S = 20 and 30, the exact ones kept at 40 and 50).
#[test]
fn the_rescored_experiments_read_and_rescore_every_committed_record() {
    for depth in [8, 10] {
        rescored_at(depth);
    }
}

/// The 8- or 10-ply rescoring: `othello-accuracy-d{depth}.toml` against the committed records.
fn rescored_at(depth: u32) {
    let experiments = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    let main = AccuracyConfig::read(&experiments.join("othello-accuracy.toml")).unwrap();
    let d8 =
        AccuracyConfig::read(&experiments.join(format!("othello-accuracy-d{depth}.toml"))).unwrap();
    let names = |c: &AccuracyConfig| {
        c.variants
            .iter()
            .map(|v| v.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&main), names(&d8));
    let files: Vec<String> = d8
        .sets
        .iter()
        .map(|s| s.file.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files,
        [
            format!("s20-d{depth}.txt"),
            format!("s30-d{depth}.txt"),
            "s40.txt".into(),
            "s50.txt".into()
        ]
    );
    let sets = accuracy::load_sets(&d8).unwrap();
    let mut records = Vec::new();
    for budget in ["10k", "30k", "50k"] {
        let path = experiments.join(format!("othello-accuracy-300-{budget}.jsonl"));
        records.extend(accuracy::load_records(&path).unwrap());
    }
    let path = experiments.join("ALL.jsonl");
    assert_eq!(
        accuracy::rescore(&sets, &mut records, &path).unwrap(),
        32_400
    );
    let at = |stage: u32, label: &str| {
        records
            .iter()
            .filter(|r| r.stage == stage && r.label == label)
            .count()
    };
    // 9 variants x 3 budgets x 300 positions per stage.
    let search = format!("search{depth}");
    assert_eq!((at(20, &search), at(30, &search)), (8100, 8100));
    assert_eq!((at(40, "wld"), at(50, "exact")), (8100, 8100));
}

/// Issue 17: `runs = N` repeats the experiment with seeds `seed`, `seed + 1`, …; the first
/// run is the 1-run experiment (its records resume), and the report gives the mean over
/// runs with the spread between them.
#[test]
fn several_runs_resume_the_first_and_report_the_mean_of_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut one = config(dir.path());
    one.playouts = vec![40];
    one.sets.truncate(1);
    let s = accuracy::run(&one, "", Display::Quiet).unwrap();
    assert_eq!((s.items, s.ran), (6, 6));
    let mut three = one.clone();
    three.runs = 3;
    let s = accuracy::run(&three, "yomi othello accuracy three.toml", Display::Quiet).unwrap();
    assert_eq!((s.items, s.resumed, s.ran), (18, 6, 12));
    let records = accuracy::load_records(&three.out).unwrap();
    assert_eq!(records.len(), 18);
    let seeds: std::collections::HashSet<u64> = records.iter().map(|r| r.seed).collect();
    assert_eq!(seeds.len(), 18, "every run searches with its own seeds");
    let sets = accuracy::load_sets(&three).unwrap();
    let per_run = accuracy::run_cells(&three, &sets, &records);
    assert_eq!(
        per_run.len(),
        2 * 3,
        "two variants, one stage, one budget, three runs"
    );
    let stats = accuracy::run_stats(&per_run);
    for ((variant, stage, n), st) in &stats {
        let accs: Vec<f64> = (0..3)
            .map(|r| per_run[&(variant.clone(), *stage, *n, r)].accuracy().0)
            .collect();
        let mean = accs.iter().sum::<f64>() / 3.0;
        assert_eq!((st.runs, st.n), (3, 9));
        assert!(
            (st.mean - mean).abs() < 1e-12,
            "{variant}: {} vs {mean}",
            st.mean
        );
        assert!(st.interval.0 <= st.mean && st.mean <= st.interval.1);
    }
    let text = std::fs::read_to_string(&three.report).unwrap();
    assert!(
        text.contains("3 runs: run r (0-based) uses seed 7 + r"),
        "{text}"
    );
    assert!(
        text.contains("| runs | N | accuracy % (mean of runs) | SD of runs |"),
        "{text}"
    );
    // Runs outside 1..=100 are refused.
    for bad in [0, 101] {
        let mut c = one.clone();
        c.runs = bad;
        assert!(c.check().is_err(), "runs = {bad} accepted");
    }
}

#[test]
fn the_mean_of_runs_has_a_student_t_interval() {
    use accuracy::{Cell, RunStats};
    let cell = |wins| Cell {
        n: 10,
        wins,
        draws: 0,
        seconds: 1.0,
    };
    let st = RunStats::of(&[cell(5), cell(6), cell(7), Cell::default()]).unwrap();
    assert_eq!((st.runs, st.n), (3, 30));
    assert!((st.mean - 0.6).abs() < 1e-12);
    assert!((st.sd - 0.1).abs() < 1e-12);
    // t(0.975, 2 df) = 4.303: 0.6 ± 4.303 × 0.1 / √3.
    let half = 4.303 * 0.1 / 3f64.sqrt();
    assert!(
        (st.interval.0 - (0.6 - half)).abs() < 1e-9,
        "{:?}",
        st.interval
    );
    assert!(
        (st.interval.1 - (0.6 + half)).abs() < 1e-9,
        "{:?}",
        st.interval
    );
    assert!((st.seconds - 0.1).abs() < 1e-12);
    // One run: its Wilson interval.
    let single = RunStats::of(&[cell(6)]).unwrap();
    assert_eq!(single.interval, {
        let (_, lo, hi) = cell(6).accuracy();
        (lo, hi)
    });
    assert!(RunStats::of(&[Cell::default()]).is_none());
}
