//! GUI analysis over GTP: the request grammar and the output lines of Leela Zero's
//! `lz-analyze`, KataGo's `kata-analyze` and GoGui's `gfx` analyze commands, which Sabaki,
//! Lizzie, KaTrain's GTP mode and GoGui read. The engine ([`crate::gtp`]) runs the search and
//! decides when to report; this file only parses and formats, so both are tested without a
//! search.
//!
//! # The requests
//! `lz-analyze [colour] [interval] [minmoves N] [maxmoves N]` and
//! `kata-analyze [colour] [interval] [minmoves N] [maxmoves N] [ownership true|false]`:
//! `colour` (`b`, `w`, `black`, `white`) is the side to analyse for (default: the side to
//! move); `interval` is in centiseconds between reports (0 or absent: one report when
//! the analysis stops). Keys this engine does not know (`avoid`, `allow`, `pvVisits`, ...)
//! are refused with an error naming them, rather than ignored.
//!
//! # The reports
//! One line per report, every visited root move as `info move D4 visits 120 ...` in order
//! of visits, each with its line (`pv D4 E5 ...`) and its prior normalised over the root
//! moves (GUIs read it as a policy). Leela Zero's dialect gives win rates,
//! priors and lower confidence bounds as integers in 1/10000; KataGo's gives them as
//! fractions, plus `ownership` (one value per point, row by row from the top left, +1 owned
//! by the analysed side) when asked. Score fields (`scoreMean`, `scoreLead`) are left out:
//! the search estimates no score, and a made-up number would mislead a GUI's graph.

use std::fmt::Write as _;
use std::time::Duration;

use yomi_core::{Analysis, MoveAnalysis};

use crate::vertex::{Color, Vertex};

/// Longest report interval accepted, in centiseconds (one hour).
pub const MAX_INTERVAL_CS: u64 = 360_000;

/// Most moves a report may be asked to list (`minmoves`, `maxmoves`): more than a 25×25
/// board has points.
pub const MAX_REPORT_MOVES: usize = 1_000;

/// Which program's output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero's `lz-analyze`.
    Leela,
    /// KataGo's `kata-analyze`.
    Kata,
}

/// A parsed `lz-analyze` or `kata-analyze` request.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeRequest {
    /// The output format.
    pub dialect: Dialect,
    /// The side analysed for; `None`: the side to move.
    pub color: Option<Color>,
    /// Time between reports; `None`: one report, when the analysis stops.
    pub interval: Option<Duration>,
    /// Moves listed at least (unvisited ones by prior when the search visited fewer).
    pub min_moves: usize,
    /// Moves listed at most.
    pub max_moves: usize,
    /// KataGo only: append the ownership of every point.
    pub ownership: bool,
}

fn parse_color(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

fn parse_count(key: &str, value: Option<&&str>) -> Result<usize, String> {
    let v = value.ok_or_else(|| format!("syntax error: {key} needs a value"))?;
    let n: usize = v
        .parse()
        .map_err(|_| format!("syntax error: {key} {v:?} is not a count"))?;
    if n > MAX_REPORT_MOVES {
        return Err(format!(
            "syntax error: {key} {n} is more than {MAX_REPORT_MOVES}"
        ));
    }
    Ok(n)
}

impl AnalyzeRequest {
    /// Parses the arguments of `lz-analyze` (`dialect` [`Dialect::Leela`]) or
    /// `kata-analyze`.
    ///
    /// # Errors
    /// A message (`syntax error: ...`) naming the argument that is malformed, out of
    /// range or unknown.
    pub fn parse(dialect: Dialect, args: &[&str]) -> Result<AnalyzeRequest, String> {
        let mut req = AnalyzeRequest {
            dialect,
            color: None,
            interval: None,
            min_moves: 0,
            max_moves: MAX_REPORT_MOVES,
            ownership: false,
        };
        let mut rest = args;
        if let Some(c) = rest.first().and_then(|w| parse_color(w)) {
            req.color = Some(c);
            rest = &rest[1..];
        }
        if let Some(w) = rest.first() {
            if w.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_digit() || b == b'.')
            {
                let cs: f64 = w
                    .parse()
                    .map_err(|_| format!("syntax error: interval {w:?} is not a number"))?;
                if !(0.0..=MAX_INTERVAL_CS as f64).contains(&cs) {
                    return Err(format!(
                        "syntax error: interval {w} must be 0 to {MAX_INTERVAL_CS} centiseconds"
                    ));
                }
                req.interval = (cs > 0.0).then(|| Duration::from_secs_f64(cs / 100.0));
                rest = &rest[1..];
            }
        }
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            let value = rest.get(i + 1);
            match key {
                "minmoves" => req.min_moves = parse_count(key, value)?,
                "maxmoves" => req.max_moves = parse_count(key, value)?,
                "ownership" if dialect == Dialect::Kata => {
                    req.ownership = match value.map(|v| v.to_ascii_lowercase()) {
                        Some(v) if v == "true" => true,
                        Some(v) if v == "false" => false,
                        _ => {
                            return Err(
                                "syntax error: ownership must be followed by true or false".into()
                            )
                        }
                    }
                }
                _ => return Err(format!("syntax error: unsupported analysis key {key:?}")),
            }
            i += 2;
        }
        Ok(req)
    }
}

/// The lower confidence bound of a win rate `p` after `n` visits: `p` minus 1.96 standard
/// errors of a Bernoulli mean (0 before any visit).
pub fn lower_bound(p: f64, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    (p - 1.96 * (p * (1.0 - p) / n as f64).sqrt()).max(0.0)
}

/// The moves a report lists, in order: visited moves by visits (then prior), cut to
/// `max_moves`, padded with unvisited moves by prior up to `min_moves`.
pub fn report_order<'a>(
    analysis: &'a Analysis<Vertex>,
    req: &AnalyzeRequest,
) -> Vec<&'a MoveAnalysis<Vertex>> {
    let mut moves: Vec<&MoveAnalysis<Vertex>> = analysis.moves.iter().collect();
    moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
    let visited = moves.iter().filter(|m| m.visits > 0).count();
    let keep = visited.max(req.min_moves).min(req.max_moves);
    moves.truncate(keep);
    moves
}

/// One report line (without its line end) for `analysis`, searched for the analysed side;
/// `ownership` (+1: the analysed side owns the point), row by row from the top left, is
/// appended in KataGo's dialect when asked.
pub fn info_line(
    analysis: &Analysis<Vertex>,
    req: &AnalyzeRequest,
    size: usize,
    ownership: Option<&[f32]>,
) -> String {
    let mut out = String::new();
    // GUIs read `prior` as a policy (summing to 1 over the moves); a search's priors may be
    // values instead (Go's priors are virtual win rates), so they are normalised.
    let prior_sum: f64 = analysis.moves.iter().map(|m| f64::from(m.prior)).sum();
    for (order, m) in report_order(analysis, req).into_iter().enumerate() {
        let p = m.value.unwrap_or(0.0);
        let prior = if prior_sum > 0.0 {
            f64::from(m.prior) / prior_sum
        } else {
            0.0
        };
        let lcb = lower_bound(p, m.visits);
        if !out.is_empty() {
            out.push(' ');
        }
        let mv = m.mv.to_gtp(size);
        match req.dialect {
            Dialect::Leela => {
                let _ = write!(
                    out,
                    "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv",
                    m.visits,
                    (p * 10_000.0).round() as i64,
                    (prior * 10_000.0).round() as i64,
                    (lcb * 10_000.0).round() as i64,
                );
            }
            Dialect::Kata => {
                let _ = write!(
                    out,
                    "info move {mv} visits {} edgeVisits {} utility {:.6} winrate {p:.6} \
                     prior {prior:.6} lcb {lcb:.6} utilityLcb {:.6} order {order} pv",
                    m.visits,
                    m.visits,
                    2.0 * p - 1.0,
                    2.0 * lcb - 1.0,
                );
            }
        }
        for v in &m.pv {
            out.push(' ');
            out.push_str(&v.to_gtp(size));
        }
    }
    if let (Dialect::Kata, true, Some(own)) = (req.dialect, req.ownership, ownership) {
        out.push_str(" ownership");
        for v in own {
            let _ = write!(out, " {v:.6}");
        }
    }
    out
}

/// GoGui's `gfx` text for `analysis`: the win rate in percent on each of the `labels`
/// most visited moves, the best line as a variation (`to_move` plays its first move), and
/// a summary line.
pub fn gfx(analysis: &Analysis<Vertex>, size: usize, to_move: Color, labels: usize) -> String {
    let req = AnalyzeRequest {
        dialect: Dialect::Leela,
        color: None,
        interval: None,
        min_moves: 0,
        max_moves: labels,
        ownership: false,
    };
    let moves = report_order(analysis, &req);
    let mut out = String::from("LABEL");
    for m in moves.iter().filter(|m| !m.mv.is_pass()) {
        let _ = write!(
            out,
            " {} {:.0}",
            m.mv.to_gtp(size),
            m.value.unwrap_or(0.0) * 100.0
        );
    }
    if let Some(best) = moves.first() {
        out.push_str("\nVAR");
        let mut c = to_move;
        for v in &best.pv {
            let _ = write!(
                out,
                " {} {}",
                if c == Color::Black { 'b' } else { 'w' },
                v.to_gtp(size)
            );
            c = c.opponent();
        }
        let _ = write!(
            out,
            "\nTEXT best {} win rate {:.1}% visits {} (of {} iterations)",
            best.mv.to_gtp(size),
            best.value.unwrap_or(0.0) * 100.0,
            best.visits,
            analysis.iterations
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis() -> Analysis<Vertex> {
        let d4 = Vertex::at(3, 3, 9);
        let e5 = Vertex::at(4, 4, 9);
        let c3 = Vertex::at(2, 2, 9);
        Analysis {
            moves: vec![
                MoveAnalysis {
                    mv: c3,
                    visits: 0,
                    value: None,
                    prior: 0.5,
                    pv: vec![c3],
                },
                MoveAnalysis {
                    mv: d4,
                    visits: 90,
                    value: Some(0.6),
                    prior: 0.2,
                    pv: vec![d4, e5],
                },
                MoveAnalysis {
                    mv: e5,
                    visits: 10,
                    value: Some(0.4),
                    prior: 0.3,
                    pv: vec![e5],
                },
            ],
            pv: vec![d4, e5],
            value: Some(0.58),
            iterations: 100,
            elapsed: Duration::from_millis(5),
        }
    }

    #[test]
    fn requests_parse_as_sabaki_and_lizzie_send_them() {
        let r = AnalyzeRequest::parse(Dialect::Leela, &["B", "50"]).unwrap();
        assert_eq!(r.color, Some(Color::Black));
        assert_eq!(r.interval, Some(Duration::from_millis(500)));
        let r = AnalyzeRequest::parse(Dialect::Leela, &["10"]).unwrap();
        assert_eq!(
            (r.color, r.interval),
            (None, Some(Duration::from_millis(100)))
        );
        let r = AnalyzeRequest::parse(
            Dialect::Kata,
            &["w", "0", "ownership", "true", "maxmoves", "5"],
        )
        .unwrap();
        assert_eq!(
            (r.color, r.interval, r.ownership, r.max_moves),
            (Some(Color::White), None, true, 5)
        );
        let r = AnalyzeRequest::parse(Dialect::Kata, &[]).unwrap();
        assert_eq!((r.color, r.interval, r.min_moves), (None, None, 0));
    }

    #[test]
    fn bad_requests_name_what_is_wrong() {
        for (args, needle) in [
            (&["B", "-5"][..], "syntax error"),
            (&["1e9"][..], "centiseconds"),
            (&["10", "avoid", "b", "D4", "1"][..], "avoid"),
            (&["10", "minmoves"][..], "needs a value"),
            (&["10", "maxmoves", "99999999999"][..], "more than"),
            (&["ownership", "true"][..], "ownership"), // Leela has no ownership
            (&["10", "NaN"][..], "NaN"),
        ] {
            let e = AnalyzeRequest::parse(Dialect::Leela, args).unwrap_err();
            assert!(e.contains(needle), "{args:?}: {e}");
        }
    }

    #[test]
    fn leela_lines_are_ordered_by_visits_in_ten_thousandths() {
        let req = AnalyzeRequest::parse(Dialect::Leela, &["10"]).unwrap();
        let line = info_line(&analysis(), &req, 9, None);
        assert_eq!(
            line,
            "info move D4 visits 90 winrate 6000 prior 2000 lcb 4988 order 0 pv D4 E5 \
             info move E5 visits 10 winrate 4000 prior 3000 lcb 964 order 1 pv E5"
        );
        // minmoves pads with the unvisited move; maxmoves cuts.
        let req = AnalyzeRequest::parse(Dialect::Leela, &["minmoves", "3"]).unwrap();
        assert!(info_line(&analysis(), &req, 9, None).ends_with("order 2 pv C3"));
        let req = AnalyzeRequest::parse(Dialect::Leela, &["maxmoves", "1"]).unwrap();
        assert!(!info_line(&analysis(), &req, 9, None).contains("E5 visits"));
    }

    #[test]
    fn kata_lines_have_fractions_and_ownership_when_asked() {
        let req = AnalyzeRequest::parse(Dialect::Kata, &["ownership", "true"]).unwrap();
        let own = vec![1.0f32; 81];
        let line = info_line(&analysis(), &req, 9, Some(&own));
        assert!(line.starts_with("info move D4 visits 90 edgeVisits 90 utility 0.200000 winrate 0.600000 prior 0.200000"), "{line}");
        let tail = line.split(" ownership ").nth(1).unwrap();
        assert_eq!(tail.split(' ').count(), 81);
        assert!(!line.contains("score"), "no made-up score: {line}");
    }

    #[test]
    fn gfx_labels_win_rates_and_shows_the_line() {
        let g = gfx(&analysis(), 9, Color::White, 10);
        assert_eq!(
            g,
            "LABEL D4 60 E5 40\nVAR w D4 b E5\nTEXT best D4 win rate 60.0% visits 90 (of 100 iterations)"
        );
    }
}
