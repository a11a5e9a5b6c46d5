//! The paper's experiment (tables 1 and 3): round robins of the paper's AIs on the standard
//! map, and a report that puts the paper's win–draw–loss numbers beside ours.
//!
//! The full runs (1000 games per pairing, colours alternated, about 3 s per turn in the
//! paper) are long jobs: `experiments/tubstap.toml` at the repository root holds them as a
//! tournament file for the `yomi` binary; `yomi tubstap experiment <file>` runs it and
//! prints [`paper_comparison`] of the finished records. The crate's tests run a reduced
//! version.

use std::fmt::Write;

use yomi_core::arena::{RoundRobin, TournamentResult, Wdl};

/// The five AIs of table 3 with the paper's parameters (table 2), in the paper's order.
pub const TABLE3_AGENTS: [&str; 5] = ["uct-pw", "dlmc", "dlmc-m1", "dlmc-m2", "dlmc-m12"];

/// Table 1's pairing: UCT+PW against UCT, 6000 simulations per turn each.
pub const TABLE1_AGENTS: [&str; 2] = ["uct-pw", "uct"];

/// The paper's results, `(row, column, wins, draws, losses)` of the row AI against the
/// column AI over 1000 games (tables 1 and 3).
pub const PAPER_RESULTS: &[(&str, &str, u64, u64, u64)] = &[
    ("uct-pw", "uct", 982, 18, 0),
    ("uct-pw", "uct-pw", 468, 38, 494),
    ("dlmc", "uct-pw", 427, 245, 328),
    ("dlmc", "dlmc", 385, 220, 395),
    ("dlmc-m1", "uct-pw", 521, 258, 221),
    ("dlmc-m1", "dlmc", 588, 129, 283),
    ("dlmc-m1", "dlmc-m1", 448, 78, 474),
    ("dlmc-m2", "uct-pw", 552, 271, 207),
    ("dlmc-m2", "dlmc", 629, 148, 223),
    ("dlmc-m2", "dlmc-m1", 509, 89, 402),
    ("dlmc-m2", "dlmc-m2", 424, 114, 462),
    ("dlmc-m12", "uct-pw", 537, 259, 204),
    ("dlmc-m12", "dlmc", 711, 119, 170),
    ("dlmc-m12", "dlmc-m1", 494, 134, 372),
    ("dlmc-m12", "dlmc-m2", 468, 136, 396),
    ("dlmc-m12", "dlmc-m12", 437, 122, 441),
];

/// Table 3 as a round robin: `games` per pairing, colours alternating.
pub fn table3(games: usize, seed: u64) -> RoundRobin {
    RoundRobin::new(TABLE3_AGENTS).games(games).seed(seed)
}

/// Table 1: UCT+PW against UCT.
pub fn table1(games: usize, seed: u64) -> RoundRobin {
    RoundRobin::new(TABLE1_AGENTS).games(games).seed(seed)
}

/// The base name of a spec or label (`dlmc:m=20` → `dlmc`, and a copy of an agent playing
/// itself, `dlmc#2`, → `dlmc`), to match the paper's rows and its self-play diagonal.
fn base(spec: &str) -> &str {
    let name = spec.split(':').next().unwrap_or(spec);
    name.split('#').next().unwrap_or(name)
}

/// Win–draw–loss of `row` against `col` in `result` (by the agents' spec strings).
pub fn head_to_head(result: &TournamentResult, row: &str, col: &str) -> Wdl {
    let mut wdl = Wdl::default();
    for r in &result.records {
        if r.seats.len() != 2 || r.seats[0] == r.seats[1] {
            continue;
        }
        for (me, other) in [(0, 1), (1, 0)] {
            if r.seats[me] == row && r.seats[other] == col {
                wdl.add(r.results[me]);
            }
        }
    }
    wdl
}

fn rate(w: u64, d: u64, l: u64) -> f64 {
    let n = (w + d + l).max(1) as f64;
    100.0 * (w as f64 + 0.5 * d as f64) / n
}

/// A Markdown table of every pairing in `result`: our win–draw–loss, win rate (draws as
/// half) with its 95 % Wilson interval, and the paper's numbers where the paper has the
/// pairing (matched by agent name without parameters).
pub fn paper_comparison(result: &TournamentResult) -> String {
    let mut out = String::from(
        "| row vs column | ours W-D-L | ours win rate (95% CI) | paper W-D-L | paper win rate |\n|---|---|---|---|---|\n",
    );
    let agents = &result.agents;
    for (i, row) in agents.iter().enumerate() {
        for col in agents.iter().skip(i + 1) {
            // Orient each pairing as the paper does (its rows are the later AIs).
            let paper_fwd = PAPER_RESULTS
                .iter()
                .find(|p| p.0 == base(row) && p.1 == base(col));
            let paper_rev = PAPER_RESULTS
                .iter()
                .find(|p| p.0 == base(col) && p.1 == base(row));
            let (r, c) = if paper_rev.is_some() && paper_fwd.is_none() {
                (col, row)
            } else {
                (row, col)
            };
            let wdl = head_to_head(result, r, c);
            if wdl.games() == 0 {
                continue;
            }
            let s = wdl.score();
            let paper = PAPER_RESULTS
                .iter()
                .find(|p| p.0 == base(r) && p.1 == base(c))
                .map(|p| {
                    (
                        format!("{}-{}-{}", p.2, p.3, p.4),
                        format!("{:.2} %", rate(p.2, p.3, p.4)),
                    )
                })
                .unwrap_or_else(|| ("-".into(), "-".into()));
            let _ = writeln!(
                out,
                "| {r} vs {c} | {}-{}-{} | {:.2} % ({:.1}–{:.1}) | {} | {} |",
                wdl.wins,
                wdl.draws,
                wdl.losses,
                100.0 * s.value,
                100.0 * s.low,
                100.0 * s.high,
                paper.0,
                paper.1
            );
        }
    }
    out
}

/// True when `row` beat `col` with a 95 % interval of its score above 50 %.
pub fn significantly_better(result: &TournamentResult, row: &str, col: &str) -> bool {
    let wdl = head_to_head(result, row, col);
    wdl.games() > 0 && wdl.score().low > 0.5
}

/// What `yomi tubstap experiment` prints after the standings (and the Python package's Ray
/// runner after a distributed run): every pairing of `result` beside the paper's numbers
/// ([`paper_comparison`]) and, when the agents include `dlmc-m12` and `dlmc`, whether
/// method 1+2 beat DLMC significantly.
pub fn report(result: &TournamentResult) -> String {
    let mut text = String::from(
        "\nBeside the paper (Fujiki, Murayama, Ikeda, tables 1 and 3; 1000 games per pairing):\n\n",
    );
    text.push_str(&paper_comparison(result));
    let named = |name: &str| result.agents.iter().find(|s| base(s) == name);
    if let (Some(m12), Some(dlmc)) = (named("dlmc-m12"), named("dlmc")) {
        let _ = writeln!(
            text,
            "\n{m12} beats {dlmc} with a 95 % interval above 50 %: {}",
            if significantly_better(result, m12, dlmc) {
                "yes"
            } else {
                "no"
            }
        );
    }
    text
}
