//! Plots of a [`Summary`] as SVG, drawn with plotters: a cactus plot (one
//! line per pair: the n-th fastest solved puzzle against n) and a
//! head-to-head scatter of two pairs. A `.png` file gets the same SVG
//! rasterised ([`crate::render::png`]), labels in the built-in font.

use std::path::Path;

use plotters::prelude::*;

use super::summary::{Cell, Pair, Summary};
use crate::error::{Error, Result, escape_controls};
use crate::output::write_file_atomically;
use crate::render::png::ImageFormat;
use crate::render::svg::xml_chars;

const SIZE: (u32, u32) = (960, 600);
/// The least time drawn: a log scale has no room for 0 ms. Times are
/// measured to the microsecond; below a tenth of a millisecond is noise.
const FLOOR_S: f64 = 0.0001;

fn draw_error(e: impl std::fmt::Display) -> Error {
    Error::Image(e.to_string())
}

fn seconds(ms: f64) -> f64 {
    (ms / 1000.0).max(FLOOR_S)
}

/// The cactus plot: x the number of puzzles solved, y the time each took
/// (log scale), one line per solver × encoding, each solved puzzle a
/// point, sorted by time.
pub fn cactus(s: &Summary) -> Result<String> {
    let lines: Vec<(String, Vec<(f64, f64)>)> = s
        .cells
        .iter()
        .map(|(pair, cells)| {
            let mut t: Vec<f64> = cells
                .values()
                .filter(|c| c.solved)
                .map(|c| seconds(c.time_ms))
                .collect();
            t.sort_by(f64::total_cmp);
            let points: Vec<(f64, f64)> = t
                .into_iter()
                .enumerate()
                .map(|(i, y)| ((i + 1) as f64, y))
                .collect();
            (label(format!("{pair} ({} solved)", points.len())), points)
        })
        .collect();
    let most = lines.iter().map(|(_, p)| p.len()).max().unwrap_or(0).max(1);
    let limit = limit_s(s);
    let (lo, hi) = y_range(lines.iter().flat_map(|(_, p)| p.iter().map(|q| q.1)), limit);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "Cactus plot: {} puzzles, limit {} s",
                    s.puzzles,
                    trim_float(limit)
                ),
                ("sans-serif", 22),
            )
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..most as f64 + 0.5, (lo..hi).log_scale())
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .x_desc("puzzles solved")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc("time per puzzle (s, log scale)")
            .axis_desc_style(("sans-serif", 16))
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(draw_error)?;
        for (i, (label, points)) in lines.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(draw_error)?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 18, y + 5)], color.filled())
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled())))
                .map_err(draw_error)?;
        }
        let corner = emptier_corner(
            lines
                .iter()
                .flat_map(|(_, p)| p.iter())
                .map(|&(x, y)| (x / most as f64, (y / lo).ln() / (hi / lo).ln())),
        );
        legend(&mut chart, corner)?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// A head-to-head scatter of pairs `a` (x) and `b` (y): each puzzle a
/// point at the two times (log scales); a puzzle a pair did not solve sits
/// on the border, at the limit; the diagonal marks equal times.
pub fn scatter(s: &Summary, a: &Pair, b: &Pair) -> Result<String> {
    let cells = |p: &Pair| {
        s.cells.get(p).ok_or_else(|| {
            let known: Vec<String> = s.cells.keys().map(ToString::to_string).collect();
            Error::Usage(format!(
                "--scatter: no runs of {p}; the pairs are {}",
                known.join(", ")
            ))
        })
    };
    let (ca, cb) = (cells(a)?, cells(b)?);
    let limit = limit_s(s);
    let at = |c: Option<&Cell>| match c {
        Some(c) if c.solved => (seconds(c.time_ms).min(limit), true),
        _ => (limit, false),
    };
    let mut both = Vec::new();
    let mut border = Vec::new();
    for puzzle in ca.keys().chain(cb.keys().filter(|k| !ca.contains_key(*k))) {
        let (x, sx) = at(ca.get(puzzle));
        let (y, sy) = at(cb.get(puzzle));
        if sx && sy {
            both.push((x, y));
        } else {
            border.push((x, y));
        }
    }
    let (lo, hi) = y_range(both.iter().flat_map(|&(x, y)| [x, y]), limit);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (700, 700)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(label(format!("{a} vs {b}")), ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .x_desc(label(format!("{a}: time (s, log scale)")))
            .y_desc(label(format!("{b}: time (s, log scale)")))
            .axis_desc_style(("sans-serif", 16))
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(draw_error)?;
        chart
            .draw_series(LineSeries::new([(lo, lo), (hi, hi)], BLACK.mix(0.4)))
            .map_err(draw_error)?
            .label("equal time")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], BLACK.mix(0.4)));
        let blue = BLUE.mix(0.7);
        chart
            .draw_series(both.iter().map(|&p| Circle::new(p, 3, blue.filled())))
            .map_err(draw_error)?
            .label(format!("solved by both ({})", both.len()))
            .legend(move |(x, y)| Circle::new((x + 9, y), 4, blue.filled()));
        chart
            .draw_series(
                border
                    .iter()
                    .map(|&p| Cross::new(p, 4, RED.stroke_width(2))),
            )
            .map_err(draw_error)?
            .label(format!(
                "unsolved by one or both, at the limit ({})",
                border.len()
            ))
            .legend(|(x, y)| Cross::new((x + 9, y), 4, RED.stroke_width(2)));
        let frac = |v: f64| (v / lo).ln() / (hi / lo).ln();
        let corner = emptier_corner(both.iter().chain(&border).map(|&(x, y)| (frac(x), frac(y))));
        legend(&mut chart, corner)?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// Where the legend hides fewer points: upper left or lower right, given
/// the points as fractions (0..1) of the axes.
fn emptier_corner(points: impl Iterator<Item = (f64, f64)>) -> SeriesLabelPosition {
    let (mut upper_left, mut lower_right) = (0, 0);
    for (x, y) in points {
        if x < 0.4 && y > 0.55 {
            upper_left += 1;
        }
        if x > 0.6 && y < 0.45 {
            lower_right += 1;
        }
    }
    if lower_right < upper_left {
        SeriesLabelPosition::LowerRight
    } else {
        SeriesLabelPosition::UpperLeft
    }
}

/// Draws the legend of `chart`'s series at `at`.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    at: SeriesLabelPosition,
) -> Result<()> {
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(draw_error)
}

/// The largest time limit of the runs, in seconds.
fn limit_s(s: &Summary) -> f64 {
    let ms = s
        .cells
        .values()
        .flat_map(|c| c.values().map(|c| c.timeout_ms))
        .max()
        .unwrap_or(1000);
    seconds(ms as f64)
}

/// A log-scale range from a little under the least time to the limit.
fn y_range(times: impl Iterator<Item = f64>, limit: f64) -> (f64, f64) {
    let least = times.fold(limit, f64::min);
    ((least / 2.0).max(FLOOR_S / 2.0), limit * 1.2)
}

fn trim_float(x: f64) -> String {
    let t = format!("{x:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Checks that `path` names a file a plot can be written to (its name
/// ends in `.svg` or `.png`), before any run is made.
pub fn check_path(path: &Path) -> Result<()> {
    format_of(path).map(|_| ())
}

fn format_of(path: &Path) -> Result<ImageFormat> {
    ImageFormat::of(path).ok_or_else(|| {
        Error::Usage(format!(
            "{}: a plot file name must end in .svg or .png",
            path.display()
        ))
    })
}

/// Writes a plot to `path`: the SVG as it is, or rasterised (one pixel
/// per unit) when the name ends in `.png`; whole or not at all, like every
/// file smtgrid writes.
pub fn write(path: &Path, svg: &str) -> Result<()> {
    let bytes = format_of(path)?.encode(svg, 1.0).map_err(Error::Image)?;
    write_file_atomically(path, &bytes)
}

/// A label from a results file (a solver's label), fit for a plot: control
/// characters shown escaped, as on a terminal, and what XML cannot hold
/// replaced; plotters escapes the markup.
fn label(text: impl std::fmt::Display) -> String {
    xml_chars(&escape_controls(&text.to_string())).into_owned()
}
