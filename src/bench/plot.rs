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

/// The size of a plot in pixels (`--plot-size WxH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotSize {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl PlotSize {
    /// The smallest and largest side `--plot-size` takes.
    pub const SIDES: std::ops::RangeInclusive<u32> = 300..=4000;
}

impl std::str::FromStr for PlotSize {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<PlotSize, String> {
        let bad = || {
            format!(
                "--plot-size takes WIDTHxHEIGHT in pixels, each {} to {} (e.g. 960x600), not `{}`",
                Self::SIDES.start(),
                Self::SIDES.end(),
                crate::error::escape_controls(s)
            )
        };
        let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let width: u32 = w.trim().parse().map_err(|_| bad())?;
        let height: u32 = h.trim().parse().map_err(|_| bad())?;
        if !Self::SIDES.contains(&width) || !Self::SIDES.contains(&height) {
            return Err(bad());
        }
        Ok(PlotSize { width, height })
    }
}

/// Each known solver's colour, the same in every figure (Okabe–Ito
/// colours, told apart with colour blindness too).
const SOLVER_COLOURS: &[(&str, RGBColor)] = &[
    ("z3", RGBColor(0, 114, 178)),
    ("yices2", RGBColor(230, 159, 0)),
    ("cvc5", RGBColor(0, 158, 115)),
    ("cvc4", RGBColor(213, 94, 0)),
    ("boolector", RGBColor(204, 121, 167)),
    ("bitwuzla", RGBColor(86, 180, 233)),
];

/// Colours for other solver labels, picked by a fixed hash of the label.
const OTHER_COLOURS: &[RGBColor] = &[
    RGBColor(120, 94, 240),
    RGBColor(100, 100, 100),
    RGBColor(160, 82, 45),
    RGBColor(0, 0, 0),
    RGBColor(128, 128, 0),
    RGBColor(178, 34, 34),
];

/// The colour of `solver` in every figure.
pub fn solver_colour(solver: &str) -> RGBColor {
    if let Some((_, c)) = SOLVER_COLOURS.iter().find(|(n, _)| *n == solver) {
        return *c;
    }
    let h = solver.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    OTHER_COLOURS[(h % OTHER_COLOURS.len() as u64) as usize]
}

/// How a line of `encoding` is drawn: solid (lia), dashed (onehot) or
/// dotted (bv), in every figure.
fn dash(encoding: crate::encode::Encoding) -> Option<(u32, u32)> {
    match encoding {
        crate::encode::Encoding::Lia => None,
        crate::encode::Encoding::Onehot => Some((9, 5)),
        crate::encode::Encoding::Bv => Some((2, 4)),
    }
}

/// Draws the point marker of `encoding`'s lines at `at`: a dot (lia), a
/// triangle (onehot) or a ring (bv), in every figure. Dashes alone did
/// not tell nine pairs in a few colours apart where lines are short or
/// overlap; the markers do, in the legend too.
fn mark<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    encoding: crate::encode::Encoding,
    color: RGBAColor,
) -> Result<()> {
    match encoding {
        crate::encode::Encoding::Lia => area.draw(&Circle::new(at, 3, color.filled())),
        crate::encode::Encoding::Onehot => area.draw(&TriangleMarker::new(at, 5, color.filled())),
        crate::encode::Encoding::Bv => area.draw(&Circle::new(at, 3, color.stroke_width(2))),
    }
    .map_err(draw_error)
}

/// How wide the legend beside the cactus plot is.
const LEGEND_WIDTH: u32 = 250;

/// The cactus plot at its default size.
pub fn cactus(s: &Summary) -> Result<String> {
    cactus_sized(
        s,
        PlotSize {
            width: SIZE.0,
            height: SIZE.1,
        },
    )
}

/// The cactus plot: x the number of puzzles solved, y the time each took
/// (log scale), one line per solver × encoding (the solver's colour, the
/// encoding's dash), each solved puzzle a point, sorted by time. The
/// legend sits right of the data; pairs that solved nothing have no line
/// and are named under the legend.
pub fn cactus_sized(s: &Summary, size: PlotSize) -> Result<String> {
    let mut lines: Vec<(&Pair, Vec<(f64, f64)>)> = Vec::new();
    let mut nothing: Vec<String> = Vec::new();
    for (pair, cells) in &s.cells {
        let mut t: Vec<f64> = cells
            .values()
            .filter(|c| c.solved)
            .map(|c| seconds(c.time_ms))
            .collect();
        if t.is_empty() {
            nothing.push(label(pair));
            continue;
        }
        t.sort_by(f64::total_cmp);
        let points = t
            .into_iter()
            .enumerate()
            .map(|(i, y)| ((i + 1) as f64, y))
            .collect();
        lines.push((pair, points));
    }
    let most = lines.iter().map(|(_, p)| p.len()).max().unwrap_or(0).max(1);
    let limit = limit_s(s);
    let (lo, hi) = y_range(lines.iter().flat_map(|(_, p)| p.iter().map(|q| q.1)), limit);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (size.width, size.height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let legend_width = LEGEND_WIDTH.min(size.width / 3);
        let (plot_area, legend_area) = root.split_horizontally(size.width - legend_width);
        let mut chart = ChartBuilder::on(&plot_area)
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
            .y_label_formatter(&tick)
            .y_desc("time per puzzle (s, log scale)")
            .axis_desc_style(("sans-serif", 16))
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(draw_error)?;
        for (pair, points) in &lines {
            let color = solver_colour(&pair.solver).to_rgba();
            let style = color.stroke_width(2);
            match dash(pair.encoding) {
                None => chart
                    .draw_series(LineSeries::new(points.clone(), style))
                    .map(|_| ()),
                Some((len, gap)) => chart
                    .draw_series(DashedLineSeries::new(points.clone(), len, gap, style))
                    .map(|_| ()),
            }
            .map_err(draw_error)?;
            for &p in points {
                mark(chart.plotting_area(), p, pair.encoding, color)?;
            }
        }
        // The legend, outside the data: a sample of each line and its
        // label, then the pairs without a line.
        let font = ("sans-serif", 14).into_font();
        let mut y = 60;
        for (pair, points) in &lines {
            let color = solver_colour(&pair.solver).to_rgba();
            let style = color.stroke_width(2);
            let (len, gap) = dash(pair.encoding).unwrap_or((32, 0));
            let mut x = 8;
            while x < 40 {
                let end = (x + len as i32).min(40);
                legend_area
                    .draw(&PathElement::new([(x, y), (end, y)], style))
                    .map_err(draw_error)?;
                x = end + gap as i32;
            }
            mark(&legend_area, (24, y), pair.encoding, color)?;
            legend_area
                .draw(&Text::new(
                    label(format!("{pair} ({} solved)", points.len())),
                    (48, y - 7),
                    font.clone(),
                ))
                .map_err(draw_error)?;
            y += 22;
        }
        if !nothing.is_empty() {
            y += 10;
            legend_area
                .draw(&Text::new(
                    "solved nothing, not drawn:",
                    (8, y - 7),
                    font.clone(),
                ))
                .map_err(draw_error)?;
            for name in &nothing {
                y += 20;
                legend_area
                    .draw(&Text::new(name.clone(), (16, y - 7), font.clone()))
                    .map_err(draw_error)?;
            }
        }
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// A head-to-head scatter of pairs `a` (x) and `b` (y): each puzzle a
/// point at the two times (log scales); a puzzle a pair did not solve sits
/// on the border, at the limit; the diagonal marks equal times.
pub fn scatter(s: &Summary, a: &Pair, b: &Pair) -> Result<String> {
    scatter_sized(
        s,
        a,
        b,
        PlotSize {
            width: 700,
            height: 700,
        },
    )
}

/// [`scatter`] at `size`.
pub fn scatter_sized(s: &Summary, a: &Pair, b: &Pair, size: PlotSize) -> Result<String> {
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
        let root = SVGBackend::with_string(&mut svg, (size.width, size.height)).into_drawing_area();
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
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
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

/// A log-scale range from the decade under the least time to the limit:
/// it starts at a power of ten (a hair below, against rounding), so the
/// lowest decade has its label too.
fn y_range(times: impl Iterator<Item = f64>, limit: f64) -> (f64, f64) {
    let least = times.fold(limit, f64::min);
    let under = (least / 2.0).max(FLOOR_S / 2.0);
    (10f64.powf(under.log10().floor()) * 0.999, limit * 1.2)
}

/// A log axis's tick label with the digits it needs ("10", "1", "0.1",
/// "0.01"), not plotters' fixed decimal ("10.0", "1.0").
fn tick(x: &f64) -> String {
    let decimals = (-x.log10().floor()).max(0.0) as usize + 1;
    let t = format!("{x:.decimals$}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
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
