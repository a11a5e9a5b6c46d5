//! The training log as a PNG (plotters' bitmap backend, no fonts: nothing depends on
//! system fonts). Top panel: value loss (red), policy loss (blue) and their sum (black)
//! per cycle. Bottom panel, on a 0–1 scale: the score against each evaluation opponent in
//! the configured order (green, magenta, cyan, orange, ...), with its 95 % interval as
//! thin lines, and the gate score (grey). The exact figures are in `log.csv`.

use std::path::Path;

use plotters::prelude::*;

use crate::train::LogRow;
use crate::NnError;

const OPPONENT_COLORS: [RGBColor; 6] = [
    RGBColor(0, 150, 0),
    RGBColor(200, 0, 200),
    RGBColor(0, 170, 200),
    RGBColor(240, 140, 0),
    RGBColor(120, 80, 40),
    RGBColor(100, 100, 255),
];

/// Draws `rows` to `path` (800×600 PNG).
///
/// # Errors
/// [`NnError::Plot`] when drawing or writing fails.
pub fn plot_log(rows: &[LogRow], path: &Path) -> Result<(), NnError> {
    draw(rows, path).map_err(|e| NnError::Plot(format!("{}: {e}", path.display())))
}

fn draw(rows: &[LogRow], path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let root = BitMapBackend::new(path, (800, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(300);
    let last = rows.last().map_or(1, |r| r.cycle).max(1) as f64;
    let first = rows.first().map_or(0, |r| r.cycle) as f64;
    let x_range = (first - 0.5)..(last + 0.5);

    let max_loss = rows
        .iter()
        .map(|r| r.value_loss + r.policy_loss)
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.05;
    let mut chart = ChartBuilder::on(&top)
        .margin(10)
        .build_cartesian_2d(x_range.clone(), 0.0..max_loss)?;
    chart
        .configure_mesh()
        .x_labels(0)
        .y_labels(0)
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let series = |f: fn(&LogRow) -> f64| rows.iter().map(move |r| (r.cycle as f64, f(r)));
    chart.draw_series(LineSeries::new(series(|r| r.value_loss), &RED))?;
    chart.draw_series(LineSeries::new(series(|r| r.policy_loss), &BLUE))?;
    chart.draw_series(LineSeries::new(
        series(|r| r.value_loss + r.policy_loss),
        &BLACK,
    ))?;

    let mut chart = ChartBuilder::on(&bottom)
        .margin(10)
        .build_cartesian_2d(x_range, 0.0..1.0f64)?;
    chart
        .configure_mesh()
        .x_labels(0)
        .y_labels(0)
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let gate: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| r.gate_score.map(|s| (r.cycle as f64, s)))
        .collect();
    chart.draw_series(LineSeries::new(gate, &RGBColor(128, 128, 128)))?;
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
        for (i, style) in [
            (0usize, color.stroke_width(3)),
            (1, color.stroke_width(1)),
            (2, color.stroke_width(1)),
        ] {
            let pts: Vec<(f64, f64)> = rows
                .iter()
                .filter_map(|r| {
                    r.evals
                        .iter()
                        .find(|e| e.opponent == *o)
                        .map(|e| (r.cycle as f64, e.score[i]))
                })
                .collect();
            if pts.len() == 1 {
                chart.draw_series(std::iter::once(Circle::new(pts[0], 4, style.filled())))?;
            } else {
                chart.draw_series(LineSeries::new(pts, style))?;
            }
        }
    }
    root.present()?;
    Ok(())
}
