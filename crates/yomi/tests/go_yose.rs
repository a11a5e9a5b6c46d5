//! End-to-end tests of `yomi go yose`: make and verify problems, and score yomi's own GTP
//! engine (and GNU Go when installed) on shipped problems through GTP.

mod common;

use std::path::{Path, PathBuf};

use common::{path_str, scratch, yomi};

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../yomi-go/data/yose")
}

/// A scratch suite holding the first `n` shipped problems.
fn small_suite(name: &str, n: usize) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files.iter().take(n) {
        std::fs::copy(f, dir.join(f.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn score_yomi_gtp_engine_end_to_end_and_resume() {
    let dir = small_suite("yose-score", 3);
    let out = dir.join("answers.jsonl");
    let report = dir.join("report.md");
    let engine = format!(
        "{} go gtp --agent diffmcts:iters=300 --seed {{seed}}",
        env!("CARGO_BIN_EXE_yomi")
    );
    let args = [
        "go",
        "yose",
        "score",
        "--suite",
        path_str(&dir),
        "--runs",
        "2",
        "--engine",
        &engine,
        "--label",
        "diff300",
        "--out",
        path_str(&out),
        "--report",
        path_str(&report),
    ];
    let run = yomi(&args);
    run.ok().says(&["| `diff300` |", "y01-7x7-A", "y03-7x7-A"]);
    let lines = std::fs::read_to_string(&out).unwrap();
    // The settings header, then two runs of three problems.
    assert_eq!(lines.lines().count(), 7, "{lines}");
    assert!(lines.starts_with("{\"yomi_journal\":"), "{lines}");
    assert!(lines.contains("\"engine\":\"diff300\""));
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.contains("The paper's table") && md.contains("| P1 |"));
    // A rerun finds every answer already there and asks nothing.
    let again = yomi(&args);
    again.ok();
    assert!(!again.stderr.contains("run 0"), "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), lines);
    // Another time limit is refused with the difference, the file untouched.
    let mut other = args.to_vec();
    other.extend(["--timeout", "30"]);
    yomi(&other).fails(1, &["genmove_seconds: 30.0 here, 120.0 in the file"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), lines);
}

#[test]
fn score_gnu_go_when_installed() {
    let gnugo = "/usr/games/gnugo";
    if !Path::new(gnugo).exists() {
        eprintln!("skipped: GNU Go is not installed at {gnugo}");
        return;
    }
    let dir = small_suite("yose-gnugo", 2);
    let engine = format!("{gnugo} --mode gtp --level 1 --chinese-rules");
    yomi(&[
        "go",
        "yose",
        "score",
        "--suite",
        path_str(&dir),
        "--engine",
        &engine,
        "--label",
        "gnugo",
    ])
    .ok()
    .says(&["| `gnugo` |", "y02-7x7-B"]);
}

#[test]
fn bad_engines_and_suites_are_clear_errors() {
    let dir = small_suite("yose-bad", 1);
    yomi(&[
        "go",
        "yose",
        "score",
        "--suite",
        path_str(&dir),
        "--engine",
        "/nonexistent/engine",
    ])
    .fails(1, &["cannot start"]);
    yomi(&[
        "go",
        "yose",
        "score",
        "--suite",
        "/nonexistent/suite",
        "--engine",
        "x",
    ])
    .fails(1, &["/nonexistent/suite"]);
    // An engine that is not a GTP program: every answer is a typed error, counted wrong.
    yomi(&[
        "go",
        "yose",
        "score",
        "--suite",
        path_str(&dir),
        "--engine",
        "echo hello",
    ])
    .ok()
    .says(&["| `echo hello` | 0.00"]);
}

#[test]
fn make_and_verify_a_small_suite() {
    let dir = scratch("yose-make");
    let _ = std::fs::remove_dir_all(&dir);
    yomi(&[
        "go",
        "yose",
        "make",
        "--out",
        path_str(&dir),
        "--plan",
        "6:2",
        "--seed",
        "7",
        "--region",
        "3:6",
    ])
    .ok();
    yomi(&["go", "yose", "verify", path_str(&dir)])
        .ok()
        .says(&["all 2 problems verified"]);
}
