//! PNG plots of training curves, like the paper's figures 1–4: `cr.png` (CR per
//! iteration) and `mse.png` (MSE per iteration), one line per method.
//!
//! The plots carry no text (the machines that run experiments may have no fonts): the
//! x axis spans iterations 0..last, the y axis 0..1 for CR and 0..max for MSE (written in
//! `plots.txt` beside the images), with light grid lines at every tenth of each axis.
//! Colours: **AL red, SB blue, AL+SB green** (also in `plots.txt`).

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;

use crate::algorithms::Method;
use crate::error::LearnError;
use crate::train::Curve;

/// The colour of a method's line.
pub fn colour(method: Method) -> RGBColor {
    match method {
        Method::Al => RGBColor(220, 30, 30),
        Method::Sb => RGBColor(30, 60, 220),
        Method::AlSb => RGBColor(20, 150, 40),
    }
}

fn colour_name(method: Method) -> &'static str {
    match method {
        Method::Al => "red",
        Method::Sb => "blue",
        Method::AlSb => "green",
    }
}

/// Draws one chart of `value` per iteration.
fn chart(
    path: &Path,
    curves: &[Curve],
    y_max: f64,
    value: impl Fn(&crate::train::CurvePoint) -> f64,
) -> Result<(), LearnError> {
    let err = |e: &dyn std::fmt::Display| LearnError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let x_max = curves
        .iter()
        .flat_map(|c| c.points.last())
        .map(|p| p.iteration)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let root = BitMapBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let area = root.margin(20, 20, 20, 20);
    let mut c = ChartBuilder::on(&area)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(|e| err(&e))?;
    let grey = RGBColor(225, 225, 225);
    for k in 0..=10 {
        let y = y_max * k as f64 / 10.0;
        let x = x_max * k as f64 / 10.0;
        c.draw_series(LineSeries::new([(0.0, y), (x_max, y)], grey))
            .map_err(|e| err(&e))?;
        c.draw_series(LineSeries::new([(x, 0.0), (x, y_max)], grey))
            .map_err(|e| err(&e))?;
    }
    c.draw_series(LineSeries::new([(0.0, 0.0), (x_max, 0.0)], BLACK))
        .map_err(|e| err(&e))?;
    c.draw_series(LineSeries::new([(0.0, 0.0), (0.0, y_max)], BLACK))
        .map_err(|e| err(&e))?;
    for curve in curves {
        let style = ShapeStyle::from(colour(curve.method)).stroke_width(2);
        c.draw_series(LineSeries::new(
            curve
                .points
                .iter()
                .map(|p| (p.iteration as f64, value(p).clamp(0.0, y_max))),
            style,
        ))
        .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Writes `cr.png`, `mse.png` and `plots.txt` (axes and colours) into `out`.
///
/// # Errors
/// [`LearnError::Plot`] when drawing or encoding fails; [`LearnError::Io`].
pub fn plot_curves(out: &Path, curves: &[Curve]) -> Result<(), LearnError> {
    let mse_max = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.mse))
        .fold(0.0f64, f64::max);
    let mse_top = ((mse_max * 10.0).ceil() / 10.0).max(0.1);
    chart(&out.join("cr.png"), curves, 1.0, |p| p.cr)?;
    chart(&out.join("mse.png"), curves, mse_top, |p| p.mse)?;
    let x_max = curves
        .iter()
        .flat_map(|c| c.points.last())
        .map(|p| p.iteration)
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "cr.png: CR per iteration; x 0..{x_max} iterations, y 0..1, grid every tenth\n\
         mse.png: MSE per iteration; x 0..{x_max} iterations, y 0..{mse_top}, grid every tenth\n"
    );
    for c in curves {
        let _ = writeln!(text, "{}: {}", c.method, colour_name(c.method));
    }
    std::fs::write(out.join("plots.txt"), text).map_err(|e| LearnError::io(out, e))
}
