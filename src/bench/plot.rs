//! Plots of a [`Summary`] as SVG, drawn with plotters: a cactus plot (one
//! line per pair: the n-th fastest solved puzzle against n) and a
//! head-to-head scatter of two pairs. A `.png` file gets the same SVG
//! rasterised ([`crate::render::png`]), labels in the built-in font.

use std::path::Path;

use plotters::prelude::*;

use super::summary::{Cell, Pair, Summary};
use crate::error::{Error, Result, escape_controls};
use crate::output::write_file_atomically;
use crate::render::font;
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

/// How wide the legend beside the cactus plot is at most; it takes two
/// fifths of a figure narrower than 625 pixels, where its labels would
/// otherwise have too little room.
const LEGEND_WIDTH: u32 = 250;

/// The margin round each chart, in pixels.
const MARGIN: u32 = 16;

/// plotters writes a text's size as the size it is given divided by this
/// (its em): sizes here are the pixels the SVG sets, and are multiplied by
/// it on the way in.
const PLOTTERS_EM: f64 = 1.24;

/// The sizes, in pixels, of the text of a figure that has room for it:
/// title, axis descriptions, tick labels and legend.
const TITLE_PX: f64 = 22.0 / PLOTTERS_EM;
const AXIS_PX: f64 = 16.0 / PLOTTERS_EM;
const TICK_PX: f64 = 13.0 / PLOTTERS_EM;
const LEGEND_PX: f64 = 14.0 / PLOTTERS_EM;

/// The smallest text drawn, in pixels; a text that does not fit at this
/// size is cut instead (ending in `…`): smaller would not read.
const MIN_PX: f64 = 8.0;

/// A text set to fit its room: its lines, and their size in pixels.
#[derive(Debug, Clone, PartialEq)]
struct Fitted {
    lines: Vec<String>,
    px: f64,
}

impl Fitted {
    /// The font to give plotters for this size.
    fn font(&self) -> FontDesc<'static> {
        font_of(self.px)
    }

    /// The text on one line (for a title or an axis, which have one).
    fn line(&self) -> String {
        self.lines.join(" ")
    }

    /// The height of its lines, in pixels.
    fn height(&self) -> f64 {
        self.lines.len() as f64 * line_height(self.px)
    }
}

/// plotters' font of `px` pixels.
fn font_of(px: f64) -> FontDesc<'static> {
    ("sans-serif", px * PLOTTERS_EM).into_font()
}

/// The distance from one line of text of `px` pixels to the next.
fn line_height(px: f64) -> f64 {
    (px * 1.3).ceil()
}

/// How wide the widest line of `text` is at `px` pixels, in the built-in
/// font (the one a PNG is drawn with; a viewer's `sans-serif` is about as
/// wide or narrower).
fn width(text: &str, px: f64) -> f64 {
    text.lines()
        .map(|l| font::measure(l, px).advance)
        .fold(0.0, f64::max)
}

/// `text` set in `room` pixels: the first of `wordings` (fullest first; a
/// `\n` breaks a line) that fits at `px`; else the last, at the largest
/// size down to [`MIN_PX`] where it fits; else the last at [`MIN_PX`] with
/// each line too long cut to fit, ending in `…`. A figure's labels must
/// all show at every size `--plot-size` takes.
fn fit(wordings: &[String], room: f64, px: f64) -> Fitted {
    match shrunk(wordings, room, px) {
        Some(px) => at_size(wordings, room, px),
        None => at_size(wordings, room, MIN_PX),
    }
}

/// The size from `px` down to [`MIN_PX`] at which one of `wordings` fits
/// `room` pixels whole, if any.
fn shrunk(wordings: &[String], room: f64, px: f64) -> Option<f64> {
    if wordings.iter().any(|w| width(w, px) <= room) {
        return Some(px);
    }
    let last = wordings.last()?;
    // A text's width grows in step with its size; a hair less keeps a
    // rounded size inside the room.
    let scaled = (px * room / width(last, px).max(1.0) * 0.98 * 10.0).floor() / 10.0;
    (scaled >= MIN_PX).then_some(scaled.min(px))
}

/// The first of `wordings` that fits `room` pixels at `px`, else the last
/// with each line too long cut to fit.
fn at_size(wordings: &[String], room: f64, px: f64) -> Fitted {
    let text = wordings
        .iter()
        .find(|w| width(w, px) <= room)
        .or(wordings.last())
        .map_or("", String::as_str);
    Fitted {
        lines: text.lines().map(|l| cut(l, room, px)).collect(),
        px,
    }
}

/// Fits each of `texts` (its wordings and room) at one size, so that the
/// labels of one legend or of both axes match: the largest at which every
/// text that can fit whole does; one that cannot, even at [`MIN_PX`], is
/// cut at that size rather than make the others smaller.
fn fit_alike(texts: &[(Vec<String>, f64)], px: f64) -> Vec<Fitted> {
    let px = texts
        .iter()
        .filter_map(|(w, room)| shrunk(w, *room, px))
        .fold(px, f64::min);
    texts
        .iter()
        .map(|(w, room)| at_size(w, *room, px))
        .collect()
}

/// `line` cut to fit `room` pixels at `px`, ending in `…` where cut.
fn cut(line: &str, room: f64, px: f64) -> String {
    if width(line, px) <= room {
        return line.to_string();
    }
    let chars: Vec<char> = line.chars().collect();
    let kept = |n: usize| format!("{}…", chars[..n].iter().collect::<String>().trim_end());
    // The longest start that fits, by halving: a label from a results
    // file may be of any length, and each try measures it.
    let (mut fits, mut over) = (0, chars.len());
    if width(&kept(0), px) > room {
        return String::new();
    }
    while over - fits > 1 {
        let mid = (fits + over) / 2;
        if width(&kept(mid), px) <= room {
            fits = mid;
        } else {
            over = mid;
        }
    }
    kept(fits)
}

/// Draws `text`'s lines on `area` with their top left at `at`.
fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    text: &Fitted,
    at: (i32, i32),
) -> Result<()> {
    for (i, line) in text.lines.iter().enumerate() {
        let y = at.1 + (i as f64 * line_height(text.px)) as i32;
        area.draw(&Text::new(line.clone(), (at.0, y), text.font()))
            .map_err(draw_error)?;
    }
    Ok(())
}

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
/// and are named under the legend. Every text is set to fit its room.
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
        let legend_width = LEGEND_WIDTH.min(size.width * 2 / 5);
        let plot_width = size.width - legend_width;
        let (plot_area, legend_area) = root.split_horizontally(plot_width);
        let puzzles = format!("{} puzzles, limit {} s", s.puzzles, trim_float(limit));
        let title = fit(
            &[format!("Cactus plot: {puzzles}"), puzzles],
            f64::from(plot_width - 2 * MARGIN),
            TITLE_PX,
        );
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title.line(), title.font())
            .margin(MARGIN)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..most as f64 + 0.5, (lo..hi).log_scale())
            .map_err(draw_error)?;
        let axes = axis_descs(
            &chart,
            &["puzzles solved".into()],
            &[
                "time per puzzle (s, log scale)".into(),
                "time per puzzle (s)".into(),
                "time (s)".into(),
            ],
        );
        chart
            .configure_mesh()
            .x_desc(axes[0].line())
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&tick)
            .y_desc(axes[1].line())
            .axis_desc_style(axes[0].font())
            .label_style(font_of(TICK_PX))
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
        cactus_legend(&legend_area, &lines, &nothing, legend_width, size.height)?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// The cactus plot's legend, outside the data: a sample of each line and
/// its label (on two lines where one is too narrow), then the pairs
/// without a line; where the figure is too short for them all, the last
/// row says how many are left out.
fn cactus_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    lines: &[(&Pair, Vec<(f64, f64)>)],
    nothing: &[String],
    width: u32,
    height: u32,
) -> Result<()> {
    // Samples span x 8 to 40, their labels start at 48; names without a
    // line are indented to 16; 4 pixels are kept clear of the edge.
    let labelled = f64::from(width) - 52.0;
    let indented = f64::from(width) - 20.0;
    let mut texts: Vec<(Vec<String>, f64)> = lines
        .iter()
        .map(|(pair, points)| {
            let (pair, n) = (label(pair), points.len());
            (
                vec![
                    format!("{pair} ({n} solved)"),
                    format!("{pair}\n{n} solved"),
                ],
                labelled,
            )
        })
        .collect();
    if !nothing.is_empty() {
        texts.push((
            vec![
                "solved nothing, not drawn:".into(),
                "solved nothing,\nnot drawn:".into(),
            ],
            indented,
        ));
        texts.extend(nothing.iter().map(|n| (vec![n.clone()], indented)));
    }
    let fitted = fit_alike(&texts, LEGEND_PX);
    let px = fitted.first().map_or(LEGEND_PX, |f| f.px);
    let bottom = f64::from(height) - 4.0;
    // Rows step 22 pixels at the full size, as the data's markers need.
    let step = |f: &Fitted| f.height().max((px * 1.95).round());
    let mut y = 60.0;
    for (i, f) in fitted.iter().enumerate() {
        let is_line = i < lines.len();
        let header = i == lines.len();
        if header {
            y += 10.0;
        }
        // What would not fit above the bottom is counted, not drawn: the
        // rows of pairs left, the heading of those without a line aside.
        let rest = fitted.len() - i - usize::from(i <= lines.len() && !nothing.is_empty());
        if rest > 1 && y + step(f) + line_height(px) > bottom || y + step(f) > bottom {
            let more = fit(
                &[format!("… and {rest} more"), format!("+{rest}")],
                f64::from(width) - 12.0,
                px,
            );
            draw_lines(area, &more, (8, (y - px * 0.6) as i32))?;
            break;
        }
        let top = (y - px * 0.6) as i32;
        if is_line {
            let (pair, _) = &lines[i];
            let color = solver_colour(&pair.solver).to_rgba();
            let style = color.stroke_width(2);
            let (len, gap) = dash(pair.encoding).unwrap_or((32, 0));
            let mid = y as i32;
            let mut x = 8;
            while x < 40 {
                let end = (x + len as i32).min(40);
                area.draw(&PathElement::new([(x, mid), (end, mid)], style))
                    .map_err(draw_error)?;
                x = end + gap as i32;
            }
            mark(area, (24, mid), pair.encoding, color)?;
            draw_lines(area, f, (48, top))?;
        } else {
            draw_lines(area, f, (if header { 8 } else { 16 }, top))?;
        }
        y += step(f);
    }
    Ok(())
}

/// The descriptions of a chart's axes, `x` and `y` (each its wordings,
/// fullest first; a shorter list repeats its last), fitted alike to the
/// lengths of the axes: the fullest wording that both fit, so that the two
/// read alike, else the shortest shrunk or cut.
fn axis_descs<DB: DrawingBackend, X: Ranged, Y: Ranged>(
    chart: &ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x: &[String],
    y: &[String],
) -> Vec<Fitted> {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let len = |r: std::ops::Range<i32>| f64::from((r.end - r.start).max(0));
    let (rx, ry) = (len(xs), len(ys));
    let nth = |w: &[String], k: usize| w.get(k).or(w.last()).cloned().unwrap_or_default();
    let last = x.len().max(y.len()).saturating_sub(1);
    let k = (0..last)
        .find(|&k| width(&nth(x, k), AXIS_PX) <= rx && width(&nth(y, k), AXIS_PX) <= ry)
        .unwrap_or(last);
    fit_alike(&[(vec![nth(x, k)], rx), (vec![nth(y, k)], ry)], AXIS_PX)
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

/// [`scatter`] at `size`, every text set to fit its room.
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
        // A title cut short still reads: the axes name both pairs.
        let title = fit(
            &[label(format!("{a} vs {b}"))],
            f64::from(size.width - 2 * MARGIN),
            TITLE_PX,
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(title.line(), title.font())
            .margin(MARGIN)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(draw_error)?;
        let desc = |p: &Pair| {
            let p = label(p);
            vec![
                format!("{p}: time (s, log scale)"),
                format!("{p}: time (s)"),
                format!("{p} (s)"),
            ]
        };
        let axes = axis_descs(&chart, &desc(a), &desc(b));
        chart
            .configure_mesh()
            .x_desc(axes[0].line())
            .y_desc(axes[1].line())
            .x_label_formatter(&tick)
            .y_label_formatter(&tick)
            .axis_desc_style(axes[0].font())
            .label_style(font_of(TICK_PX))
            .draw()
            .map_err(draw_error)?;
        let grey = BLACK.mix(0.4);
        chart
            .draw_series(LineSeries::new([(lo, lo), (hi, hi)], grey))
            .map_err(draw_error)?;
        let blue = BLUE.mix(0.7);
        chart
            .draw_series(both.iter().map(|&p| Circle::new(p, 3, blue.filled())))
            .map_err(draw_error)?;
        chart
            .draw_series(
                border
                    .iter()
                    .map(|&p| Cross::new(p, 4, RED.stroke_width(2))),
            )
            .map_err(draw_error)?;
        let frac = |v: f64| (v / lo).ln() / (hi / lo).ln();
        let corner = emptier_corner(both.iter().chain(&border).map(|&(x, y)| (frac(x), frac(y))));
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        let entries: [(Sample, Vec<String>); 3] = [
            (Sample::Line, vec!["equal time".into()]),
            (
                Sample::Dot,
                vec![format!("solved by both ({})", both.len())],
            ),
            (
                Sample::Cross,
                vec![
                    format!("unsolved by one or both, at the limit ({})", border.len()),
                    format!("unsolved by one or both ({})", border.len()),
                    format!("unsolved ({})", border.len()),
                ],
            ),
        ];
        boxed_legend(&root, (xs, ys), corner, &entries)?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// How a scatter's legend shows a series.
#[derive(Debug, Clone, Copy)]
enum Sample {
    /// The grey diagonal.
    Line,
    /// A point solved by both pairs.
    Dot,
    /// A point on the border.
    Cross,
}

/// Where the legend hides fewer points: upper left or lower right, given
/// the points as fractions (0..1) of the axes.
fn emptier_corner(points: impl Iterator<Item = (f64, f64)>) -> Corner {
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
        Corner::LowerRight
    } else {
        Corner::UpperLeft
    }
}

/// A corner of the data where a legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Corner {
    UpperLeft,
    LowerRight,
}

/// Draws a legend of `entries` (each a sample and its wordings, fullest
/// first) in a framed box at `corner` of the data, whose pixels are
/// `data`, its text fitted to the data's width.
fn boxed_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    data: (std::ops::Range<i32>, std::ops::Range<i32>),
    corner: Corner,
    entries: &[(Sample, Vec<String>)],
) -> Result<()> {
    // The box stands `inset` inside the data, its text `pad` inside the
    // box, after a sample `sample` wide.
    let (inset, pad, sample) = (10, 5, 26);
    let (xs, ys) = data;
    let room = f64::from(xs.end - xs.start - 2 * inset - 2 * pad - sample);
    let texts: Vec<(Vec<String>, f64)> = entries.iter().map(|(_, w)| (w.clone(), room)).collect();
    let fitted = fit_alike(&texts, LEGEND_PX);
    let px = fitted.first().map_or(LEGEND_PX, |f| f.px);
    let text_w = fitted
        .iter()
        .map(|f| width(&f.lines.join("\n"), f.px))
        .fold(0.0, f64::max);
    let w = 2 * pad + sample + text_w.ceil() as i32;
    let h = 2 * pad + fitted.iter().map(Fitted::height).sum::<f64>().ceil() as i32;
    let (x0, y0) = match corner {
        Corner::UpperLeft => (xs.start + inset, ys.start + inset),
        Corner::LowerRight => (xs.end - inset - w, ys.end - inset - h),
    };
    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        WHITE.mix(0.85).filled(),
    ))
    .map_err(draw_error)?;
    area.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], BLACK))
        .map_err(draw_error)?;
    let mut y = f64::from(y0 + pad);
    for ((kind, _), f) in entries.iter().zip(&fitted) {
        let mid = (y + line_height(px) / 2.0) as i32;
        let x = x0 + pad;
        match kind {
            Sample::Line => area.draw(&PathElement::new([(x, mid), (x + 18, mid)], BLACK.mix(0.4))),
            Sample::Dot => area.draw(&Circle::new((x + 9, mid), 4, BLUE.mix(0.7).filled())),
            Sample::Cross => area.draw(&Cross::new((x + 9, mid), 4, RED.stroke_width(2))),
        }
        .map_err(draw_error)?;
        draw_lines(
            area,
            f,
            (x + sample, y as i32 + ((line_height(px) - px) / 2.0) as i32),
        )?;
        y += f.height();
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fuller wording where it fits, a shorter one where not, a smaller
    /// size where none does, and a cut (ending in `…`) past the least size.
    #[test]
    fn text_is_fitted_in_that_order() {
        let wordings = vec!["a long wording of a label".to_string(), "short".to_string()];
        let roomy = fit(&wordings, 1000.0, LEGEND_PX);
        assert_eq!((roomy.line(), roomy.px), (wordings[0].clone(), LEGEND_PX));
        let narrow = width("short", LEGEND_PX) + 1.0;
        assert_eq!(fit(&wordings, narrow, LEGEND_PX).line(), "short");
        let smaller = fit(&wordings, narrow * 0.8, LEGEND_PX);
        assert_eq!(smaller.line(), "short");
        assert!(
            smaller.px < LEGEND_PX && smaller.px >= MIN_PX,
            "{smaller:?}"
        );
        assert!(width("short", smaller.px) <= narrow * 0.8);
        let cut_short = fit(&wordings, width("sh", MIN_PX) + 1.0, LEGEND_PX);
        assert_eq!(cut_short.px, MIN_PX);
        assert!(cut_short.line().ends_with('…'), "{cut_short:?}");
        assert!(width(&cut_short.line(), MIN_PX) <= width("sh", MIN_PX) + 1.0);
    }

    /// A label of any length from a results file is cut in a few
    /// measures, to the room.
    #[test]
    fn a_very_long_label_is_cut_to_the_room() {
        let long = "x".repeat(100_000);
        let t = cut(&long, 120.0, MIN_PX);
        assert!(t.ends_with('…') && t.len() > 4, "{t}");
        assert!(width(&t, MIN_PX) <= 120.0);
        assert_eq!(cut(&long, 1.0, MIN_PX), "");
    }
}
