//! PNG plots of training curves, like the paper's figures 1–4: `cr.png` (CR per
//! iteration) and `mse.png` (MSE per iteration), one line per method, with title, axis
//! labels, ticks and a legend (drawn by `yomi-plot` with its bundled font). Colours:
//! **AL red, SB blue, AL+SB green**; `plots.txt` beside the images repeats the axes.

use std::fmt::Write as _;
use std::path::Path;

use yomi_plot::{write_png, Panel, RGBColor, Series};

use crate::algorithms::Method;
use crate::curve::{Curve, CurvePoint};
use crate::error::LearnError;

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
    title: &str,
    y_label: &str,
    curves: &[Curve],
    y_max: f64,
    value: impl Fn(&CurvePoint) -> f64,
) -> Result<(), LearnError> {
    let x_max = curves
        .iter()
        .flat_map(|c| c.points.last())
        .map(|p| p.iteration)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let mut panel = Panel::new(title, "training iteration", y_label, 0.0..x_max, 0.0..y_max);
    for curve in curves {
        panel = panel.series(Series::line(
            curve.method.to_string(),
            colour(curve.method),
            curve
                .points
                .iter()
                .map(|p| (p.iteration as f64, value(p).clamp(0.0, y_max))),
        ));
    }
    write_png(path, (800, 500), &[panel]).map_err(|e| LearnError::Plot {
        path: path.to_path_buf(),
        reason: e.reason,
    })
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
    chart(
        &out.join("cr.png"),
        "CR: mean probability of the best move on the test states",
        "CR",
        curves,
        1.0,
        |p| p.cr,
    )?;
    chart(
        &out.join("mse.png"),
        "MSE of the simulated value on the test states",
        "MSE",
        curves,
        mse_top,
        |p| p.mse,
    )?;
    let x_max = curves
        .iter()
        .flat_map(|c| c.points.last())
        .map(|p| p.iteration)
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "cr.png: CR per iteration; x 0..{x_max} iterations, y 0..1\n\
         mse.png: MSE per iteration; x 0..{x_max} iterations, y 0..{mse_top}\n"
    );
    for c in curves {
        let _ = writeln!(text, "{}: {}", c.method, colour_name(c.method));
    }
    std::fs::write(out.join("plots.txt"), text).map_err(|e| LearnError::io(out, e))
}
