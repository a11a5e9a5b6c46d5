//! Scoring GTP engines on a yose suite ([`crate::yose`]): each problem is set up with
//! `boardsize`, `clear_board`, `komi` and one `play` per stone (Black's stones, then
//! White's: no capture can happen, since every chain of the problem keeps its liberties),
//! then the engine is asked `genmove` for the side to move. An answer is correct when it is
//! one of the problem's proven correct moves (a pass, a resignation or any other point is
//! wrong).
//!
//! [`score_suite`] runs the whole job: every engine, every run, every problem. Its answers go
//! to a [`yomi_core::journal`] as they come, one [`Answer`] a line keyed by (engine label,
//! problem, run), so an interrupted run resumes where it stopped, a second run on the same
//! file is refused while the first holds it, and a torn last line is cut. The journal's
//! settings header holds what decides every answer besides the engine: the `genmove` time
//! limit ([`ScoreSettings`]); each answer carries its engine's command line, so an answer
//! file is refused when it holds answers under a label of this run that another command
//! line gave. Answer files written before the header existed (entries only) are resumed as
//! they are: their time limit was never recorded and is not checked
//! ([`yomi_core::journal::Legacy::Headerless`]).
//!
//! [`table`] turns the answers into the correct-rate table (A and B rates with Wilson 95 %
//! intervals, and every problem's rate).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::arena::stats::wilson_interval;
use yomi_core::journal::{Journal, JournalEntry, JournalError, Legacy};
use yomi_core::progress::{Display, Progress};

use crate::gtp_client::{GtpClient, GtpClientError};
use crate::vertex::{Color, Vertex};
use crate::yose::{Kind, Problem};

/// One engine's answer to one problem in one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The engine's label.
    pub engine: String,
    /// The problem's name.
    pub problem: String,
    /// `A` or `B`.
    pub kind: String,
    /// The run (0-based).
    pub run: usize,
    /// The engine's answer as it gave it (`D4`, `pass`, `resign`), or `error: ...` when the
    /// exchange failed.
    pub answer: String,
    /// Whether the answer is a proven correct move.
    pub correct: bool,
    /// Seconds the `genmove` took.
    pub seconds: f64,
    /// The engine's command line as given (before `{seed}` and `{run}` are replaced);
    /// absent in answer files of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

impl JournalEntry for Answer {
    /// (engine label, problem, run).
    type Key = (String, String, usize);

    fn key(&self) -> Self::Key {
        (self.engine.clone(), self.problem.clone(), self.run)
    }
}

/// An engine to score: its label in the answers and the table, and its GTP command line
/// (`{seed}` is replaced by the run number + 1, `{run}` by the run number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredEngine {
    /// The label.
    pub label: String,
    /// The command line.
    pub command: String,
}

/// What decides an engine's answers besides the engine itself: the answer journal's
/// settings header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreSettings {
    /// The version of the answer format.
    pub yose_score: u32,
    /// Seconds an engine may take for one `genmove`.
    pub genmove_seconds: f64,
}

impl ScoreSettings {
    /// The settings of a job whose `genmove` limit is `limit`.
    pub fn new(limit: Duration) -> Self {
        ScoreSettings {
            yose_score: 1,
            genmove_seconds: limit.as_secs_f64(),
        }
    }
}

/// Why a scoring job could not run.
#[derive(Debug, Error)]
pub enum ScoreError {
    /// The engines, labels or runs are not a job (no engine, no run, a label twice).
    #[error("{0}")]
    Config(String),
    /// The answer journal could not be opened or written, or holds answers of another
    /// configuration.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// An engine could not be started.
    #[error("engine {label:?}: {source}")]
    Engine {
        /// The engine's label.
        label: String,
        /// Why it did not start.
        #[source]
        source: GtpClientError,
    },
}

/// Asks every engine of `engines` every problem of `suite` in `runs` runs, each run
/// starting the engine afresh (and again after an exchange fails, which is recorded as a
/// wrong `error: ...` answer). With `journal`, answers already there are not asked again
/// and each new one is appended as it comes (see the [module documentation](self)).
/// Progress and every answer are shown as `display` says. Returns this job's answers
/// (those of other engines, problems or runs in the journal are left out).
///
/// # Errors
/// [`ScoreError::Config`] for no engine, no run or a label given twice;
/// [`ScoreError::Journal`] for a journal that is locked, unreadable, of another time limit,
/// or holds answers of a label of this run given by another command line or of a problem
/// of another kind; [`ScoreError::Engine`] when an engine does not start.
pub fn score_suite(
    suite: &[Problem],
    engines: &[ScoredEngine],
    runs: usize,
    limit: Duration,
    journal: Option<&Path>,
    display: Display,
) -> Result<Vec<Answer>, ScoreError> {
    if engines.is_empty() || runs == 0 {
        return Err(ScoreError::Config(format!(
            "{} engines and {runs} runs: give at least one of each",
            engines.len()
        )));
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|x| x.label == e.label) {
            return Err(ScoreError::Config(format!(
                "the label {:?} is given to two engines: give each engine its own",
                e.label
            )));
        }
    }
    let settings = serde_json::to_value(ScoreSettings::new(limit))
        .map_err(|e| ScoreError::Config(e.to_string()))?;
    let check = |line: usize, a: &Answer| check_answer(journal, line, a, suite, engines);
    let mut answers = match journal {
        Some(path) => {
            Journal::<Answer>::open_with(path, Some(&settings), Legacy::Headerless, check)?
        }
        None => Journal::in_memory(),
    };
    let is_ours = |a: &Answer| {
        engines.iter().any(|e| e.label == a.engine)
            && suite.iter().any(|p| p.name == a.problem)
            && a.run < runs
    };
    let total = engines.len() * runs * suite.len();
    let done_before = answers.entries().filter(|a| is_ours(a)).count();
    let progress = Progress::new(
        "yose score",
        "answers",
        total as u64,
        done_before as u64,
        display,
    );
    if answers.legacy() {
        progress.println(&format!(
            "{}: an answer file without a settings header (older version): its time limit \
             was not recorded and is not checked",
            journal.map_or(String::new(), |p| p.display().to_string())
        ));
    }
    let mut done = done_before;
    for engine in engines {
        for run in 0..runs {
            let command = engine
                .command
                .replace("{seed}", &(run + 1).to_string())
                .replace("{run}", &run.to_string());
            let mut client: Option<GtpClient> = None;
            for p in suite {
                if answers.contains(&(engine.label.clone(), p.name.clone(), run)) {
                    continue;
                }
                let c = match client.as_mut() {
                    Some(c) => c,
                    None => client.insert(GtpClient::spawn(&command).map_err(|source| {
                        ScoreError::Engine {
                            label: engine.label.clone(),
                            source,
                        }
                    })?),
                };
                let (answer, seconds) = match ask(c, p, limit) {
                    Ok(x) => x,
                    Err(e) => {
                        // Start the engine afresh for the next problem.
                        client = None;
                        (format!("error: {e}"), 0.0)
                    }
                };
                let x = Answer {
                    engine: engine.label.clone(),
                    problem: p.name.clone(),
                    kind: p.kind.to_string(),
                    run,
                    correct: judge(p, &answer),
                    answer,
                    seconds,
                    command: Some(engine.command.clone()),
                };
                done += 1;
                progress.println(&format!(
                    "[{done}/{total}] {} run {run} {}: {} ({}, {:.1}s)",
                    x.engine,
                    x.problem,
                    x.answer,
                    if x.correct { "correct" } else { "wrong" },
                    x.seconds
                ));
                progress.inc(1);
                answers.add(x)?;
            }
        }
    }
    progress.finish();
    Ok(answers.into_entries().into_iter().filter(is_ours).collect())
}

/// Refuses an answer read back from the journal at `path` that is not this job's work under
/// its key: given by another command line under one of this job's labels, or for a problem
/// of the suite of another kind.
fn check_answer(
    path: Option<&Path>,
    line: usize,
    a: &Answer,
    suite: &[Problem],
    engines: &[ScoredEngine],
) -> Result<(), JournalError> {
    let conflict = |detail: String| JournalError::Conflict {
        path: path.map(Path::to_path_buf).unwrap_or_default(),
        line,
        detail,
    };
    if let (Some(e), Some(command)) = (
        engines.iter().find(|e| e.label == a.engine),
        a.command.as_ref(),
    ) {
        if *command != e.command {
            return Err(conflict(format!(
                "engine {:?} answered with the command line {command:?}, and this run's \
                 {:?} is {:?}: give this engine another label, or use another answer file",
                a.engine, a.engine, e.command
            )));
        }
    }
    if let Some(p) = suite.iter().find(|p| p.name == a.problem) {
        if a.kind != p.kind.to_string() {
            return Err(conflict(format!(
                "problem {} is a {} problem in the file and a {} problem in the suite: the \
                 suite changed; use another answer file",
                a.problem, a.kind, p.kind
            )));
        }
    }
    Ok(())
}

/// Sets `problem` up on the engine and asks for the mover's move; returns the answer text
/// and the seconds `genmove` took.
///
/// # Errors
/// Any [`GtpClientError`] of the exchange (a refused setup move included).
pub fn ask(
    client: &mut GtpClient,
    problem: &Problem,
    limit: Duration,
) -> Result<(String, f64), GtpClientError> {
    let short = Duration::from_secs(30).min(limit);
    let n = problem.size;
    client.send(&format!("boardsize {n}"), short)?;
    client.send("clear_board", short)?;
    client.send(&format!("komi {}", problem.komi), short)?;
    for (c, stones) in [("b", &problem.black), ("w", &problem.white)] {
        for v in stones.iter() {
            client.send(&format!("play {c} {}", v.to_gtp(n)), short)?;
        }
    }
    let side = if problem.to_move == Color::Black {
        "b"
    } else {
        "w"
    };
    let start = std::time::Instant::now();
    let answer = client.send(&format!("genmove {side}"), limit)?;
    Ok((answer.trim().to_string(), start.elapsed().as_secs_f64()))
}

/// Whether the engine's answer text is a correct move of `problem`.
pub fn judge(problem: &Problem, answer: &str) -> bool {
    match Vertex::parse_gtp(answer.trim(), problem.size) {
        Ok(v) => !v.is_pass() && problem.is_correct(v),
        Err(_) => false,
    }
}

/// Correct answers and answers of one kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    /// Correct answers.
    pub correct: u64,
    /// All answers.
    pub total: u64,
}

impl Rate {
    /// The rate and its Wilson 95 % interval, as `0.83 [0.74, 0.89]`.
    pub fn format(&self) -> String {
        if self.total == 0 {
            return "-".into();
        }
        let (lo, hi) = wilson_interval(self.correct as f64, self.total, 1.96);
        format!(
            "{:.2} [{lo:.2}, {hi:.2}]",
            self.correct as f64 / self.total as f64
        )
    }
}

/// The A and B rates of `engine` among `answers`.
pub fn rates(answers: &[Answer], engine: &str) -> (Rate, Rate) {
    let mut a = Rate::default();
    let mut b = Rate::default();
    for x in answers.iter().filter(|x| x.engine == engine) {
        let r = if x.kind == Kind::A.to_string() {
            &mut a
        } else {
            &mut b
        };
        r.total += 1;
        r.correct += u64::from(x.correct);
    }
    (a, b)
}

/// A Markdown table: one row per engine with the A and B correct rates (Wilson 95 %
/// intervals over all answers of the kind), then one row per problem with each engine's
/// correct count out of its runs.
pub fn table(answers: &[Answer], engines: &[String], problems: &[Problem]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| engine | A correct (95 % interval) | B correct (95 % interval) | answers |"
    );
    let _ = writeln!(s, "|---|---|---|---|");
    for e in engines {
        let (a, b) = rates(answers, e);
        let _ = writeln!(
            s,
            "| `{e}` | {} | {} | {} |",
            a.format(),
            b.format(),
            a.total + b.total
        );
    }
    let _ = writeln!(s);
    let mut per: BTreeMap<(&str, &str), (u64, u64)> = BTreeMap::new();
    for x in answers {
        let e = per.entry((&x.problem, &x.engine)).or_default();
        e.0 += u64::from(x.correct);
        e.1 += 1;
    }
    let _ = write!(s, "| problem | kind | correct |");
    for i in 0..engines.len() {
        let _ = write!(s, " E{} |", i + 1);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "|---|---|---|{}", "---|".repeat(engines.len()));
    for p in problems {
        let correct = p
            .correct
            .iter()
            .map(|v| v.to_gtp(p.size))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = write!(s, "| {} | {} | {correct} |", p.name, p.kind);
        for e in engines {
            match per.get(&(p.name.as_str(), e.as_str())) {
                Some(&(c, n)) => {
                    let _ = write!(s, " {c}/{n} |");
                }
                None => {
                    let _ = write!(s, " - |");
                }
            }
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s);
    for (i, e) in engines.iter().enumerate() {
        let _ = writeln!(s, "E{} = `{e}`  ", i + 1);
    }
    s
}

/// The paper's table (Nakamura and Ishida, GPW 2015: correct rates in % over 100 runs on
/// its 14 magazine problems; libEGO "proposed" is the difference-game MCTS), as Markdown,
/// for reports that set our figures beside it. Its problems are not ours.
pub const PAPER_TABLE: &str = "## The paper's table (its own 14 problems, % correct of 100 runs)

| problem | Fuego A | Fuego B | Pachi A | Pachi B | Pachi DAKV A | Pachi DAKV B | libEGO A | libEGO B | proposed A | proposed B |
|---|---|---|---|---|---|---|---|---|---|---|
| P1 | 100 | 6 | 100 | 0 | 99 | 0 | 100 | 0 | 100 | 83 |
| P2 | 100 | 29 | 100 | 0 | 100 | 0 | 100 | 0 | 59 | 99 |
| 1 | 100 | 100 | 100 | 97 | 100 | 100 | 100 | 93 | 35 | 93 |
| 2 | 100 | 100 | 100 | 100 | 99 | 99 | 100 | 100 | 97 | 97 |
| 3 | 100 | 100 | 100 | 100 | 98 | 100 | 100 | 48 | 100 | 100 |
| 4 | 100 | 100 | 100 | 94 | 100 | 100 | 100 | 100 | 100 | 100 |
| 5 | 100 | 100 | 100 | 100 | 98 | 100 | 100 | 100 | 100 | 100 |
| 6 | 100 | 10 | 100 | 100 | 100 | 100 | 100 | 100 | 43 | 73 |
| 7 | 100 | 100 | 100 | 0 | 100 | 19 | 100 | 0 | 87 | 91 |
| 8 | 100 | 3 | 100 | 20 | 100 | 79 | 100 | 0 | 4 | 0 |
| 9 | 100 | 0 | 100 | 0 | 93 | 0 | 97 | 0 | 4 | 1 |
| 10 | 100 | 100 | 100 | 59 | 99 | 99 | 100 | 0 | 100 | 98 |
| 11 | 100 | 0 | 100 | 0 | 100 | 50 | 100 | 58 | 98 | 56 |
| 12 | 100 | 0 | 100 | 0 | 84 | 18 | 88 | 0 | 0 | 0 |
| mean | 100 | 53.4 | 100 | 47.9 | 97.9 | 61.7 | 98.9 | 42.8 | 66.2 | 70.8 |
";
