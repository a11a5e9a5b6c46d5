//! Scoring GTP engines on a yose suite ([`crate::yose`]): each problem is set up with
//! `boardsize`, `clear_board`, `komi` and one `play` per stone (Black's stones, then
//! White's: no capture can happen, since every chain of the problem keeps its liberties),
//! then the engine is asked `genmove` for the side to move. An answer is correct when it is
//! one of the problem's proven correct moves (a pass, a resignation or any other point is
//! wrong).
//!
//! Answers are appended to a JSON-lines file as they come, one [`Answer`] a line, so an
//! interrupted run resumes where it stopped; [`table`] turns the answers into the
//! correct-rate table (A and B rates with Wilson 95 % intervals, and every problem's rate).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use yomi_core::arena::stats::wilson_interval;

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

/// Reads the answers of a JSON-lines file; a missing file has none. A last line cut short
/// by an interruption is skipped.
///
/// # Errors
/// I/O errors other than a missing file, and malformed lines other than the last.
pub fn read_answers(path: &std::path::Path) -> std::io::Result<Vec<Answer>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        match serde_json::from_str::<Answer>(l) {
            Ok(a) => out.push(a),
            Err(_) if i + 1 == lines.len() => {}
            Err(e) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: line {}: {e}", path.display(), i + 1),
                ))
            }
        }
    }
    Ok(out)
}

/// The answer as one JSON line (with the newline).
pub fn answer_line(a: &Answer) -> String {
    let mut s = serde_json::to_string(a).unwrap_or_default();
    s.push('\n');
    s
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
