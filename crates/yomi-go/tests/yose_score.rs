//! The yose scoring job ([`score_suite`]) against yomi's own GTP engine (the `yomi-go-gtp`
//! binary, started through `sh` so that each start is counted): its answer journal resumes
//! without asking finished answers again, cuts a torn last line, refuses another time
//! limit, another command line under a label, and a second run on the same file, and
//! resumes answer files of the older header-less format.

use std::path::{Path, PathBuf};
use std::time::Duration;

use yomi_core::journal::{no_check, Journal, JournalError};
use yomi_core::progress::Display;
use yomi_go::yose::{load_suite, Problem};
use yomi_go::yose_score::{score_suite, Answer, ScoreError, ScoredEngine};

const YOMI: &str = env!("CARGO_BIN_EXE_yomi-go-gtp");
const LIMIT: Duration = Duration::from_secs(60);

/// The first two shipped problems.
fn two_problems() -> Vec<Problem> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/yose");
    load_suite(&dir).unwrap().into_iter().take(2).collect()
}

/// yomi's engine, appending a line to `starts` each time it is started.
fn counted_engine(starts: &Path) -> ScoredEngine {
    ScoredEngine {
        label: "mcts30".into(),
        command: format!(
            "sh -c \"echo start >> '{}'; exec {YOMI} --agent mcts:iters=30 --seed {{seed}}\"",
            starts.display()
        ),
    }
}

fn starts(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

fn score(
    suite: &[Problem],
    engine: &ScoredEngine,
    limit: Duration,
    out: &Path,
) -> Result<Vec<Answer>, ScoreError> {
    score_suite(
        suite,
        std::slice::from_ref(engine),
        2,
        limit,
        Some(out),
        Display::Quiet,
    )
}

fn scratch() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answers.jsonl");
    let starts = dir.path().join("starts");
    (dir, out, starts)
}

#[test]
fn a_resumed_job_asks_only_the_missing_answers_after_a_torn_line() {
    let suite = two_problems();
    let (_dir, out, start_log) = scratch();
    let engine = counted_engine(&start_log);
    let answers = score(&suite, &engine, LIMIT, &out).unwrap();
    // Two runs of two problems; each run starts the engine once.
    assert_eq!(answers.len(), 4);
    assert_eq!(starts(&start_log), 2);
    let full = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 5, "a header and four answers: {full}");
    assert!(
        lines[0].contains("\"genmove_seconds\":60.0"),
        "{}",
        lines[0]
    );
    // As a kill leaves it: run 0 done, run 1's first answer half written.
    let run1: Vec<usize> = (1..5).filter(|&i| lines[i].contains("\"run\":1")).collect();
    let kept: Vec<&str> = (0..5)
        .filter(|i| !run1.contains(i))
        .map(|i| lines[i])
        .collect();
    let torn = &lines[run1[0]][..20];
    std::fs::write(&out, format!("{}\n{torn}", kept.join("\n"))).unwrap();
    let again = score(&suite, &engine, LIMIT, &out).unwrap();
    assert_eq!(again.len(), 4);
    assert_eq!(starts(&start_log), 3, "only run 1 is asked again");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with(&format!("{}\n", kept.join("\n"))),
        "{text}"
    );
    assert_eq!(text.lines().count(), 5, "the torn line is cut: {text}");
    for (a, b) in answers.iter().zip(&again) {
        if a.run == 0 {
            assert_eq!(a, b, "a finished answer is read back, not asked again");
        }
    }
    // Complete: nothing is asked, nothing written.
    score(&suite, &engine, LIMIT, &out).unwrap();
    assert_eq!(starts(&start_log), 3);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

#[test]
fn another_time_limit_command_line_or_writer_is_refused() {
    let suite = two_problems();
    let (_dir, out, start_log) = scratch();
    let engine = counted_engine(&start_log);
    score(&suite[..1], &engine, LIMIT, &out).unwrap();
    let before = std::fs::read(&out).unwrap();
    let err = score(&suite, &engine, Duration::from_secs(30), &out).unwrap_err();
    assert!(
        matches!(err, ScoreError::Journal(JournalError::Settings { .. })),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("genmove_seconds: 30.0 here, 60.0 in the file"),
        "{err}"
    );
    let other = ScoredEngine {
        command: format!("{YOMI} --agent mcts:iters=31 --seed {{seed}}"),
        ..engine.clone()
    };
    let err = score(&suite, &other, LIMIT, &out).unwrap_err();
    assert!(
        matches!(
            err,
            ScoreError::Journal(JournalError::Conflict { line: 2, .. })
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("give this engine another label"),
        "{err}"
    );
    let held = Journal::<Answer>::open::<JournalError>(&out, None, no_check);
    // The file has a header, so a journal without settings is refused: lock it raw.
    assert!(held.is_err());
    let lock = yomi_core::journal::JournalFile::lock(&out).unwrap();
    let err = score(&suite, &engine, LIMIT, &out).unwrap_err();
    assert!(
        matches!(err, ScoreError::Journal(JournalError::Locked { .. })),
        "{err}"
    );
    drop(lock);
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(
        starts(&start_log),
        2,
        "nothing was asked after the first job"
    );
}

#[test]
fn an_answer_file_of_the_older_format_resumes() {
    let suite = two_problems();
    let (_dir, out, start_log) = scratch();
    let engine = counted_engine(&start_log);
    // The older format: answers only, no header, no command line.
    let old: Vec<String> = (0..2)
        .flat_map(|run| {
            suite.iter().map(move |p| {
                format!(
                    "{{\"engine\":\"mcts30\",\"problem\":\"{}\",\"kind\":\"{}\",\"run\":{run},\
                     \"answer\":\"pass\",\"correct\":false,\"seconds\":0.5}}",
                    p.name, p.kind
                )
            })
        })
        .collect();
    let mut text = old.join("\n") + "\n";
    // One answer is missing: only it is asked.
    text = text.replacen(&format!("{}\n", old[3]), "", 1);
    std::fs::write(&out, &text).unwrap();
    let answers = score(&suite, &engine, LIMIT, &out).unwrap();
    assert_eq!(answers.len(), 4);
    assert_eq!(starts(&start_log), 1);
    assert_eq!(answers.iter().filter(|a| a.answer == "pass").count(), 3);
    let now = std::fs::read_to_string(&out).unwrap();
    assert!(now.starts_with(&text) && now.lines().count() == 4, "{now}");
}
