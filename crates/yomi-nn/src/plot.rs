//! The training log as a PNG, drawn by `yomi-plot` (title, axis labels, ticks and legends
//! in its bundled font). Top panel: value loss (red), policy loss (blue) and their sum
//! (black) per cycle; a log whose policy loss is always zero (DQN's) shows one "loss" line.
//! Bottom panel, on a 0–1 scale: the score against each evaluation opponent in the
//! configured order (green, magenta, cyan, orange, ...), with its 95 % interval as thin
//! lines, and the gate score (grey). The exact figures are in `log.csv`.

use std::path::Path;

use yomi_plot::{write_png, Panel, RGBColor, Series, BLACK, BLUE, RED};

use crate::cycle_log::LogRow;
use crate::NnError;

const OPPONENT_COLORS: [RGBColor; 6] = [
    RGBColor(0, 150, 0),
    RGBColor(200, 0, 200),
    RGBColor(0, 170, 200),
    RGBColor(240, 140, 0),
    RGBColor(120, 80, 40),
    RGBColor(100, 100, 255),
];

/// Draws `rows` to `path` (900×700 PNG).
///
/// # Errors
/// [`NnError::Plot`] when drawing or writing fails.
pub fn plot_log(rows: &[LogRow], path: &Path) -> Result<(), NnError> {
    let last = rows.last().map_or(1, |r| r.cycle).max(1) as f64;
    let first = rows.first().map_or(0, |r| r.cycle) as f64;
    let x_range = (first - 0.5)..(last + 0.5);
    let max_loss = rows
        .iter()
        .map(|r| r.value_loss + r.policy_loss)
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.05;
    let series = |f: fn(&LogRow) -> f64| {
        rows.iter()
            .map(move |r| (r.cycle as f64, f(r)))
            .collect::<Vec<_>>()
    };
    let mut losses = Panel::new(
        "Training loss per cycle",
        "cycle",
        "loss",
        x_range.clone(),
        0.0..max_loss,
    );
    if rows.iter().all(|r| r.policy_loss == 0.0) {
        losses = losses.series(Series::line("loss", RED, series(|r| r.value_loss)));
    } else {
        losses = losses
            .series(Series::line("value loss", RED, series(|r| r.value_loss)))
            .series(Series::line("policy loss", BLUE, series(|r| r.policy_loss)))
            .series(Series::line(
                "value + policy",
                BLACK,
                series(|r| r.value_loss + r.policy_loss),
            ));
    }

    let mut scores = Panel::new(
        "Evaluation score per cycle (thin lines: 95 % interval)",
        "cycle",
        "score",
        x_range,
        0.0..1.0,
    );
    let gate: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| r.gate_score.map(|s| (r.cycle as f64, s)))
        .collect();
    if !gate.is_empty() {
        scores = scores.series(Series::line("gate", RGBColor(128, 128, 128), gate));
    }
    let mut opponents: Vec<&str> = Vec::new();
    for r in rows {
        for e in &r.evals {
            if !opponents.contains(&e.opponent.as_str()) {
                opponents.push(&e.opponent);
            }
        }
    }
    for (k, o) in opponents.iter().enumerate() {
        let color = OPPONENT_COLORS[k % OPPONENT_COLORS.len()];
        let points = |i: usize| -> Vec<(f64, f64)> {
            rows.iter()
                .filter_map(|r| {
                    r.evals
                        .iter()
                        .find(|e| e.opponent == *o)
                        .map(|e| (r.cycle as f64, e.score[i]))
                })
                .collect()
        };
        scores = scores
            .series(Series::line(format!("vs {o}"), color, points(0)).width(3))
            .series(Series::thin(color, points(1)))
            .series(Series::thin(color, points(2)));
    }
    write_png(path, (900, 700), &[losses, scores]).map_err(|e| NnError::Plot(e.to_string()))
}
