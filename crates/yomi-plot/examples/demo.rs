//! Writes a two-panel sample chart: `cargo run -p yomi-plot --example demo -- out.png`.

use yomi_plot::{write_png, Panel, RGBColor, Series, BLUE, RED};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "demo.png".into());
    let curve = |f: fn(f64) -> f64| (0..=100).map(move |i| (i as f64, f(i as f64)));
    let top = Panel::new(
        "CR per iteration",
        "training iteration",
        "CR",
        0.0..100.0,
        0.0..1.0,
    )
    .series(Series::line(
        "AL",
        RED,
        curve(|x| 1.0 - (-x / 30.0).exp() * 0.8),
    ))
    .series(Series::line("SB", BLUE, curve(|x| 0.2 + x / 200.0)))
    .series(Series::line(
        "AL+SB",
        RGBColor(20, 150, 40),
        curve(|x| 0.3 + x / 150.0),
    ));
    let bottom = Panel::new("Score per cycle", "cycle", "score", 0.0..100.0, 0.0..1.0)
        .series(Series::line("vs random", RED, curve(|x| 0.5 + x / 250.0)).width(3))
        .series(Series::thin(RED, curve(|x| 0.45 + x / 250.0)));
    write_png(std::path::Path::new(&path), (900, 700), &[top, bottom])?;
    println!("{path}");
    Ok(())
}
