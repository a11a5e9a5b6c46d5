//! Line charts as PNG files, readable without a legend file beside them: every chart has a
//! title, axis labels, tick labels and a legend. Text is drawn with DejaVu Sans, bundled in
//! the crate (`fonts/`, Bitstream Vera licence), so charts look the same on a machine with
//! no fonts installed (CI machines, cluster nodes).
//!
//! One implementation for the project: `yomi-learn` (CR and MSE curves, the paper's
//! figures 1–4) and `yomi-nn` (training logs) both draw through [`write_png`].
//!
//! ```
//! use yomi_plot::{write_png, Panel, Series, RED};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("curve.png");
//! let panel = Panel::new("Loss per cycle", "cycle", "loss", 0.0..10.0, 0.0..1.0)
//!     .series(Series::line("loss", RED, (0..=10).map(|i| (i as f64, 1.0 / (1.0 + i as f64)))));
//! write_png(&path, (800, 500), &[panel]).unwrap();
//! assert!(path.exists());
//! ```

use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
pub use plotters::style::colors::{BLACK, BLUE, RED, WHITE};
pub use plotters::style::RGBColor;

/// DejaVu Sans (Bitstream Vera licence: `fonts/DejaVuSans-LICENSE.txt`).
static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// Why a chart could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {reason}")]
pub struct PlotError {
    /// The file being written.
    pub path: String,
    /// What failed (drawing, encoding or writing).
    pub reason: String,
}

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend entry; `None` draws the line without one (an interval's bounds, say).
    pub label: Option<String>,
    /// The line's colour.
    pub color: RGBColor,
    /// Stroke width in pixels.
    pub width: u32,
    /// The points, in drawing order; a single point is drawn as a dot.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A labelled line, 2 pixels wide.
    pub fn line(
        label: impl Into<String>,
        color: RGBColor,
        points: impl IntoIterator<Item = (f64, f64)>,
    ) -> Self {
        Series {
            label: Some(label.into()),
            color,
            width: 2,
            points: points.into_iter().collect(),
        }
    }

    /// An unlabelled thin line (1 pixel): bounds, guides.
    pub fn thin(color: RGBColor, points: impl IntoIterator<Item = (f64, f64)>) -> Self {
        Series {
            label: None,
            color,
            width: 1,
            points: points.into_iter().collect(),
        }
    }

    /// The same series with stroke width `width`.
    pub fn width(mut self, width: u32) -> Self {
        self.width = width;
        self
    }
}

/// One chart: title, axes and lines.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The title above the chart.
    pub title: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// The x range shown.
    pub x_range: Range<f64>,
    /// The y range shown.
    pub y_range: Range<f64>,
    /// The lines, drawn in order.
    pub series: Vec<Series>,
}

impl Panel {
    /// An empty chart.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
        x_range: Range<f64>,
        y_range: Range<f64>,
    ) -> Self {
        Panel {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x_range,
            y_range,
            series: Vec::new(),
        }
    }

    /// The chart with `series` added.
    pub fn series(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }
}

/// Registers the bundled font as plotters' `sans-serif` (once per process).
fn register_fonts() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, DEJAVU_SANS)
            .map_err(|_| "the bundled font does not load".to_string())
    })
    .clone()
}

/// Writes `panels`, stacked top to bottom in equal heights, to the PNG file `path` of
/// `size` pixels (width, height).
///
/// # Errors
/// [`PlotError`] when a range is empty or not finite, or drawing, encoding or writing
/// the file fails.
pub fn write_png(path: &Path, size: (u32, u32), panels: &[Panel]) -> Result<(), PlotError> {
    let fail = |reason: String| PlotError {
        path: path.display().to_string(),
        reason,
    };
    register_fonts().map_err(fail)?;
    for p in panels {
        for (axis, r) in [("x", &p.x_range), ("y", &p.y_range)] {
            if !(r.start.is_finite() && r.end.is_finite() && r.start < r.end) {
                return Err(fail(format!(
                    "panel {:?}: the {axis} range {}..{} is empty or not finite",
                    p.title, r.start, r.end
                )));
            }
        }
    }
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    for (panel, area) in panels.iter().zip(&areas) {
        draw_panel(area, panel).map_err(|e| fail(e.to_string()))?;
    }
    root.present().map_err(|e| fail(e.to_string()))?;
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Panel,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 20))
        .margin(12)
        .margin_right(28)
        .x_label_area_size(42)
        .y_label_area_size(62)
        .build_cartesian_2d(panel.x_range.clone(), panel.y_range.clone())?;
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 13))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let mut labelled = false;
    for s in &panel.series {
        let style = ShapeStyle::from(s.color).stroke_width(s.width);
        let drawn = if s.points.len() == 1 {
            chart.draw_series(std::iter::once(Circle::new(
                s.points[0],
                s.width + 2,
                style.filled(),
            )))?
        } else {
            chart.draw_series(LineSeries::new(s.points.iter().copied(), style))?
        };
        if let Some(label) = &s.label {
            labelled = true;
            let color = s.color;
            drawn.label(label.as_str()).legend(move |(x, y)| {
                PathElement::new([(x, y), (x + 18, y)], color.stroke_width(3))
            });
        }
    }
    if labelled {
        chart
            .configure_series_labels()
            .label_font(("sans-serif", 13))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
    }
    Ok(())
}

/// A tick label: whole numbers without a decimal point, others with up to three decimals
/// (trailing zeros dropped).
fn tick(v: &f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tick_labels_drop_needless_decimals() {
        assert_eq!(super::tick(&10.0), "10");
        assert_eq!(super::tick(&0.25), "0.25");
        assert_eq!(super::tick(&0.1), "0.1");
        assert_eq!(super::tick(&-3.0), "-3");
    }

    use super::*;

    /// Dark pixels in rows `rows` of an RGB image `width` wide.
    fn ink(rgb: &[u8], width: usize, rows: Range<usize>) -> usize {
        rows.flat_map(|y| (0..width).map(move |x| (y * width + x) * 3))
            .filter(|&i| rgb[i] < 100 && rgb[i + 1] < 100 && rgb[i + 2] < 100)
            .count()
    }

    #[test]
    fn a_chart_has_its_title_axis_labels_and_legend_drawn() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.png");
        let panel = Panel::new("Title", "iteration", "CR", 0.0..10.0, 0.0..1.0)
            .series(Series::line("AL", RED, [(0.0, 0.1), (10.0, 0.9)]))
            .series(Series::thin(BLUE, [(0.0, 0.2), (10.0, 0.3)]));
        write_png(&path, (400, 300), &[panel]).unwrap();
        // Draw the same again into memory to inspect the pixels: text in the title band
        // (the top 30 rows hold nothing else) and in the x axis label band.
        let mut buf = vec![0u8; 400 * 300 * 3];
        {
            let root = BitMapBackend::with_buffer(&mut buf, (400, 300)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            register_fonts().unwrap();
            let panel = Panel::new("Title", "iteration", "CR", 0.0..10.0, 0.0..1.0)
                .series(Series::line("AL", RED, [(0.0, 0.1), (10.0, 0.9)]));
            draw_panel(&root, &panel).unwrap();
            root.present().unwrap();
        }
        assert!(ink(&buf, 400, 0..30) > 20, "no title drawn");
        assert!(ink(&buf, 400, 280..300) > 20, "no x axis label drawn");
    }

    #[test]
    fn empty_or_infinite_ranges_are_refused_with_the_panel_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.png");
        let bad = Panel::new("Loss", "x", "y", 0.0..0.0, 0.0..1.0);
        let e = write_png(&path, (200, 100), &[bad]).unwrap_err();
        assert!(
            e.to_string().contains("Loss") && e.to_string().contains("x range"),
            "{e}"
        );
        let bad = Panel::new("Loss", "x", "y", 0.0..1.0, 0.0..f64::NAN);
        assert!(write_png(&path, (200, 100), &[bad]).is_err());
    }
}
