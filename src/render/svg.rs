//! Puzzles as SVG pictures, drawn the way printed puzzles look: thin cell
//! lines, thick box and outer borders, killer cages as dashed outlines set
//! inside their cells, calcudoku cages as thick borders, each cage's clue
//! in a small white box in the top-left corner of its first cell above the
//! digit's place; a rule every cage shares (the Squares puzzle's "every
//! cage sums to a perfect square") written once under the grid, and a clue
//! too long for its corner abbreviated to a key explained there; kakuro
//! clue squares split by a diagonal; futoshiki signs drawn as chevrons
//! between their cells; givens in bold, and a verified solution in another
//! colour.
//!
//! Every text is placed from the built-in font's metrics ([`super::font`])
//! so that no two texts, clue boxes or signs overlap and none leaves the
//! picture, at every grid size. Callers may draw more on a picture (shaded
//! cells, pencil marks) through an [`Overlay`], placed with the picture's
//! [`Layout`].
//!
//! The picture is built from the [`Puzzle`] alone: it never sees a solver,
//! and it only draws a solution it is handed (which the caller has checked).

use std::fmt::Write;

use crate::elements::Layer;
use crate::elements::outside::Square;
use crate::puzzle::{Kind, Puzzle};

use super::clues::cage_labels;
use super::font::{self, Extent, FAMILY};
use super::{ValueGrid, group_map};

/// Side of one cell in SVG user units.
pub const CELL: f64 = 40.0;
/// Space around the grid.
const MARGIN: f64 = 10.0;
/// How far a killer cage's dashed outline sits inside its cells.
const INSET: f64 = 4.0;
/// The least room between a cage's dashed outline (its line's middle) and
/// the digits above it: the stroke's half and a gap that reads as one.
/// With the outline's half-width alone the digits seemed to stand on it.
pub const UNDER_DIGITS: f64 = 4.5;
/// Colour of the digits a solver found (givens stay black).
const SOLVED: &str = "#1a5fb4";
/// The least room between any two texts, clue boxes or signs, and between
/// any of them and the picture's edge.
pub const CLEARANCE: f64 = 1.5;
/// Font size of cage and kakuro clues, and the least a long cage clue is
/// shrunk to before it is abbreviated.
pub const CLUE_SIZE: f64 = 12.0;
const CLUE_MIN: f64 = 10.0;
/// A clue box's corner, from its cell's corner: clear of a thick border
/// (half its 3 units) and the cell line.
const CORNER: f64 = 2.0;
/// Room between a clue box's edge and its text.
const PAD: f64 = 1.25;
/// Font size and line spacing of the caption and legend under the grid.
const NOTE_SIZE: f64 = 13.0;
const NOTE_LINE: f64 = 18.0;

/// A rectangle in SVG user units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// Where things are in a picture, in SVG user units (the whole picture's
/// coordinates): what an [`Overlay`] places its drawing with.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    kind: Kind,
    rows: usize,
    cols: usize,
    /// Top-left corner of the grid.
    origin: (f64, f64),
    width: f64,
    height: f64,
    /// Height kept for cage clues at the top of every cell (0 without).
    band: f64,
    /// The digits' font size and baseline (from the top of the cell).
    digit_size: f64,
    digit_baseline: f64,
    /// The largest value a cell holds (9 in a kakuro).
    max_value: usize,
    /// The caption and legend, wrapped, and where their first line's top is.
    notes: Vec<String>,
    notes_top: f64,
    /// Each clue outside the grid, by its square and element: the part of
    /// the square it draws in (a square with several clues is shared out).
    rooms: Vec<(Square, &'static str, Rect)>,
    /// Each cell's place in its box or jigsaw region (row-major, from 0).
    places: Vec<Vec<Option<usize>>>,
}

impl Layout {
    /// The picture's width and height.
    pub fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    /// The puzzle's kind: where an element is drawn differently in
    /// different kinds (a killer's cages dashed inside the boxes' thick
    /// lines, a calcudoku's as the thick lines themselves).
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The grid's rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The square of cell (`row`, `col`), 0-based.
    pub fn cell(&self, row: usize, col: usize) -> Rect {
        Rect {
            x: self.origin.0 + col as f64 * CELL,
            y: self.origin.1 + row as f64 * CELL,
            width: CELL,
            height: CELL,
        }
    }

    /// The part of the square `at` outside the grid where the clue of
    /// element `name` draws: the whole square, or, where several clues
    /// stand on one square, its share of it (side by side above and below
    /// the grid, one over another beside it), so no two overlap.
    pub fn clue_room(&self, at: Square, name: &str) -> Rect {
        self.rooms
            .iter()
            .find(|(sq, n, _)| *sq == at && *n == name)
            .map(|&(_, _, r)| r)
            .unwrap_or_else(|| self.square(at))
    }

    /// The square `at` around the grid (row or column 0 or n+1).
    fn square(&self, at: Square) -> Rect {
        Rect {
            x: self.origin.0 + (at.col as f64 - 1.0) * CELL,
            y: self.origin.1 + (at.row as f64 - 1.0) * CELL,
            width: CELL,
            height: CELL,
        }
    }

    /// Cell (`row`, `col`)'s place in its box or jigsaw region, counted
    /// row by row from 0; `None` where the grid has neither.
    pub fn place(&self, row: usize, col: usize) -> Option<usize> {
        self.places
            .get(row)
            .and_then(|r| r.get(col))
            .copied()
            .flatten()
    }

    /// The part of cell (`row`, `col`) below the band kept for cage clues:
    /// where a digit, or anything an overlay writes in the cell, can go
    /// without touching a clue.
    pub fn free(&self, row: usize, col: usize) -> Rect {
        let c = self.cell(row, col);
        let top = if self.band > 0.0 {
            CORNER + self.band + CLEARANCE
        } else {
            0.0
        };
        Rect {
            y: c.y + top,
            height: c.height - top,
            ..c
        }
    }

    /// The font size digits are drawn at.
    pub fn digit_size(&self) -> f64 {
        self.digit_size
    }

    /// The largest value a cell holds (9 in a kakuro, n in an n×n).
    pub fn max_value(&self) -> usize {
        self.max_value
    }

    /// The left edge of column `col` (the right edge of the grid for
    /// `col` = its columns).
    pub fn x(&self, col: usize) -> f64 {
        self.origin.0 + col as f64 * CELL
    }

    /// The top edge of row `row` (the bottom edge of the grid for `row` =
    /// its rows).
    pub fn y(&self, row: usize) -> f64 {
        self.origin.1 + row as f64 * CELL
    }
}

/// Extra drawing on a puzzle picture (conflicts shaded, pencil marks…),
/// placed with the picture's [`Layout`] and written with [`Svg`]'s
/// primitives, so that it needs no knowledge of how the puzzle is drawn.
pub trait Overlay {
    /// Drawn over the cell backgrounds, under every line, clue and digit.
    fn under(&self, _layout: &Layout, _out: &mut Svg) {}
    /// Drawn over everything else.
    fn over(&self, _layout: &Layout, _out: &mut Svg) {}
    /// The colour [`Overlay::under`] gives cell (`row`, `col`), if any: a
    /// cage clue's box there is filled with it, so that the box still
    /// breaks the dashed cage line but leaves no white patch on a shading.
    fn background(&self, _row: usize, _col: usize) -> Option<&'static str> {
        None
    }
}

/// No extra drawing.
pub struct NoOverlay;

impl Overlay for NoOverlay {}

/// How a text is placed on its x coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// x is the start of the text.
    Start,
    /// x is the middle of the text.
    Middle,
}

/// An SVG document's body being written: the drawing primitives of a
/// picture. Attributes are passed through as written (`fill="white"`);
/// text is escaped.
#[derive(Debug, Default)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// A rectangle with `attrs`.
    pub fn rect(&mut self, r: Rect, attrs: &str) {
        let _ = writeln!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
            num(r.x),
            num(r.y),
            num(r.width),
            num(r.height)
        );
    }

    /// A line from `a` to `b` with `attrs`.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), attrs: &str) {
        let _ = writeln!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {attrs}/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }

    /// A circle of `radius` around `centre` with `attrs`.
    pub fn circle(&mut self, (cx, cy): (f64, f64), radius: f64, attrs: &str) {
        let _ = writeln!(
            self.out,
            r#"<circle cx="{}" cy="{}" r="{}" {attrs}/>"#,
            num(cx),
            num(cy),
            num(radius)
        );
    }

    /// A path through `points` (closed or not) with `attrs`.
    pub fn polyline(&mut self, points: &[(f64, f64)], attrs: &str) {
        let d: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| format!("{}{} {}", if i == 0 { 'M' } else { 'L' }, num(x), num(y)))
            .collect();
        let _ = writeln!(self.out, r#"<path d="{}" {attrs}/>"#, d.join(" "));
    }

    /// `text` of `class` at font `size`, its baseline at `y`, placed on `x`
    /// by `anchor`, with more `attrs`.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        class: &str,
        (x, y): (f64, f64),
        size: f64,
        anchor: Anchor,
        attrs: &str,
        text: &str,
    ) {
        let anchor = match anchor {
            Anchor::Start => "",
            Anchor::Middle => r#" text-anchor="middle""#,
        };
        let _ = writeln!(
            self.out,
            r#"<text class="{class}" x="{}" y="{}" font-size="{}"{anchor} {attrs}>{}</text>"#,
            num(x),
            num(y),
            num(size),
            xml_escape(text)
        );
    }

    /// Starts a group with `attrs`; [`Svg::end_group`] closes it.
    pub fn group(&mut self, attrs: &str) {
        let _ = writeln!(self.out, "<g {attrs}>");
    }

    /// Closes the group [`Svg::group`] opened.
    pub fn end_group(&mut self) {
        self.out.push_str("</g>\n");
    }
}

/// A coordinate with at most two decimals, without trailing zeros.
fn num(v: f64) -> String {
    let t = format!("{v:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t == "-0" { "0".into() } else { t.into() }
}

/// Draws `puzzle` as an SVG document; with `solution`, fills every cell
/// that is not given with the solution's digit, in blue.
pub fn svg(puzzle: &Puzzle, solution: Option<&ValueGrid>) -> String {
    svg_with(puzzle, solution, &NoOverlay)
}

/// [`svg`] with an [`Overlay`]'s drawing added.
pub fn svg_with(puzzle: &Puzzle, solution: Option<&ValueGrid>, overlay: &dyn Overlay) -> String {
    let clues = plan_clues(puzzle);
    let layout = layout(puzzle, &clues);
    let (w, h) = (num(layout.width), num(layout.height));
    let mut s = Svg::default();
    let _ = writeln!(
        s.out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FAMILY}, Arial, sans-serif">"#
    );
    let title = puzzle.title.as_deref().unwrap_or(&puzzle.name);
    let _ = writeln!(
        s.out,
        "<title>{} ({} {}x{})</title>",
        xml_escape(title),
        puzzle.kind.name(),
        puzzle.rows,
        puzzle.cols
    );
    s.rect(
        Rect {
            x: 0.0,
            y: 0.0,
            width: layout.width,
            height: layout.height,
        },
        r#"fill="white""#,
    );
    for e in &puzzle.elements {
        e.draw(Layer::Under, &layout, &mut s);
    }
    overlay.under(&layout, &mut s);
    thin_lines(&mut s, &layout);
    // The finest borders first (cages, then regions, then boxes: the
    // registry's order backwards), so the coarser ones are drawn over them.
    for e in puzzle.elements.iter().rev() {
        e.draw(Layer::Borders, &layout, &mut s);
    }
    s.rect(
        Rect {
            x: layout.origin.0,
            y: layout.origin.1,
            width: layout.cols as f64 * CELL,
            height: layout.rows as f64 * CELL,
        },
        r#"fill="none" stroke="black" stroke-width="3""#,
    );
    cage_clues(&mut s, &layout, &clues, overlay);
    for e in &puzzle.elements {
        e.draw(Layer::Over, &layout, &mut s);
    }
    digits(&mut s, &layout, puzzle, solution);
    notes(&mut s, &layout);
    overlay.over(&layout, &mut s);
    s.out.push_str("</svg>\n");
    s.out
}

/// One cage clue as drawn in its cage's corner.
#[derive(Debug, Clone, PartialEq)]
struct CageClue {
    cell: (usize, usize),
    text: String,
    size: f64,
    ink: Extent,
}

/// The cage clues drawn in the cages, and the lines under the grid that
/// say what the cages hold where the cages do not (unwrapped).
#[derive(Debug, Default)]
struct Clues {
    in_cages: Vec<CageClue>,
    notes: Vec<String>,
}

/// Where each cage's clue goes ([`cage_labels`]): a label that does not
/// fit its corner even at [`CLUE_MIN`] becomes a key.
fn plan_clues(p: &Puzzle) -> Clues {
    let room = CELL - 2.0 * (CORNER + PAD);
    let fit = |text: &str| {
        let mut size = CLUE_SIZE;
        while size > CLUE_MIN && font::measure(text, size).advance > room {
            size -= 0.5;
        }
        (font::measure(text, size).advance <= room).then_some(size)
    };
    let mut planned = cage_labels(p, |t| fit(t).is_some());
    // Elements' corner clues (a killer cage's sum on any grid) share the band.
    planned
        .labels
        .extend(p.elements.iter().filter_map(|e| e.corner_clue()));
    let in_cages = planned
        .labels
        .into_iter()
        .map(|(cell, text)| {
            let size = fit(&text).unwrap_or(CLUE_SIZE);
            CageClue {
                cell,
                ink: font::measure(&text, size),
                text,
                size,
            }
        })
        .collect();
    Clues {
        in_cages,
        notes: planned.notes,
    }
}

/// The largest value a cell can hold, for sizing the digits.
fn max_value(p: &Puzzle) -> usize {
    if p.kakuro().is_some() {
        9
    } else {
        p.rows.max(p.cols)
    }
}

/// Sizes and places everything: the digits as large as their room allows
/// (below the clue band in cages, clear of futoshiki signs), the caption
/// and legend wrapped to the grid's width.
fn layout(p: &Puzzle, clues: &Clues) -> Layout {
    // Skyscrapers clues and elements' clues outside the grid (little
    // killers, sandwiches…) stand in a cell's width on each side.
    let outside = if p.edges().is_some() || p.elements.iter().any(|e| e.outside().is_some()) {
        CELL
    } else {
        0.0
    };
    let grid_w = p.cols as f64 * CELL + 2.0 * outside;
    let grid_h = p.rows as f64 * CELL + 2.0 * outside;
    // The band holds the tallest clue's ink and its padding.
    let band = clues
        .in_cages
        .iter()
        .map(|c| c.ink.top.max(0.0) + c.ink.bottom.max(0.0) + 2.0 * PAD)
        .fold(0.0, f64::max);
    // Every value's ink at size 1, to fit the widest and tallest.
    let values: Vec<Extent> = (1..=max_value(p).max(1))
        .map(|v| font::measure(&v.to_string(), 1.0))
        .collect();
    let unit_w = values.iter().map(Extent::width).fold(0.0, f64::max);
    let unit_top = values.iter().map(|e| e.top).fold(0.0, f64::max);
    let unit_bottom = values.iter().map(|e| e.bottom).fold(0.0, f64::max);
    let side = if p.inequalities().is_empty() {
        CELL * 0.2
    } else {
        crate::elements::signs::REACH + 2.0 * CLEARANCE
    };
    let top = if band > 0.0 {
        CORNER + band + 2.0 * CLEARANCE
    } else {
        side
    };
    // Under a cage: clear of a killer's dashed outline.
    let bottom = if band > 0.0 {
        INSET + UNDER_DIGITS
    } else {
        side
    };
    let preferred = if band > 0.0 { CELL * 0.5 } else { CELL * 0.6 };
    let digit_size = preferred
        .min((CELL - 2.0 * side) / unit_w.max(f64::EPSILON))
        .min((CELL - top - bottom) / (unit_top + unit_bottom).max(f64::EPSILON));
    // The ink centred between `top` and `bottom`.
    let digit_baseline = (top + CELL - bottom) / 2.0 + digit_size * (unit_top - unit_bottom) / 2.0;
    let wrap_width = grid_w.max(CELL * 4.0);
    let notes: Vec<String> = clues
        .notes
        .iter()
        .flat_map(|n| wrap(n, NOTE_SIZE, wrap_width))
        .collect();
    let widest_note = notes
        .iter()
        .map(|n| font::measure(n, NOTE_SIZE).advance)
        .fold(0.0, f64::max);
    let width = grid_w.max(widest_note) + 2.0 * MARGIN;
    let notes_top = MARGIN + grid_h + MARGIN;
    let height = if notes.is_empty() {
        grid_h + 2.0 * MARGIN
    } else {
        notes_top + notes.len() as f64 * NOTE_LINE + MARGIN / 2.0
    };
    let mut l = Layout {
        kind: p.kind,
        rows: p.rows,
        cols: p.cols,
        origin: ((width - grid_w) / 2.0 + outside, MARGIN + outside),
        width,
        height,
        band,
        digit_size,
        digit_baseline,
        max_value: max_value(p),
        notes,
        notes_top,
        rooms: Vec::new(),
        places: places(p),
    };
    l.rooms = rooms(p, &l);
    l
}

/// Shares out each square around the grid among the clues that stand on
/// it: one keeps the whole square. Several split it along the grid's edge
/// (side by side above and below the grid, corners too; one over another
/// beside it) into a part for each clue that leans (a little killer, to
/// the side its arrow points) and one part for the others, which split
/// that part the other way.
fn rooms(p: &Puzzle, l: &Layout) -> Vec<(Square, &'static str, Rect)> {
    let mut clues: Vec<(Square, i8, &'static str)> = p
        .elements
        .iter()
        .filter_map(|e| e.outside().map(|(sq, lean)| (sq, lean, e.name())))
        .collect();
    clues.sort_by_key(|&(sq, lean, _)| (sq.row, sq.col, lean));
    clues.dedup_by_key(|&mut (sq, _, name)| (sq.row, sq.col, name));
    let ring = l.rows + 1;
    // `whole` cut in `k` equal parts, the `i`-th of them, along the edge
    // (`along`) or across it.
    let part = |whole: Rect, along: bool, i: usize, k: usize| {
        let (i, k) = (i as f64, k as f64);
        if along {
            Rect {
                x: whole.x + i * whole.width / k,
                width: whole.width / k,
                ..whole
            }
        } else {
            Rect {
                y: whole.y + i * whole.height / k,
                height: whole.height / k,
                ..whole
            }
        }
    };
    let mut out = Vec::new();
    for group in clues.chunk_by(|a, b| a.0 == b.0) {
        let sq = group[0].0;
        let across = sq.row == 0 || sq.row == ring;
        // The parts along the edge: each leaning clue's, the others' one.
        let mut parts: Vec<Vec<&'static str>> = Vec::new();
        for &(_, lean, name) in group {
            match parts.last_mut() {
                Some(last) if lean == 0 && group.iter().any(|c| c.2 == last[0] && c.1 == 0) => {
                    last.push(name);
                }
                _ => parts.push(vec![name]),
            }
        }
        let whole = l.square(sq);
        for (i, names) in parts.iter().enumerate() {
            let room = part(whole, across, i, parts.len());
            for (j, &name) in names.iter().enumerate() {
                out.push((sq, name, part(room, !across, j, names.len())));
            }
        }
    }
    out
}

/// Each cell's place in its box (or jigsaw region, its cells in row-major
/// order), counted from 0.
fn places(p: &Puzzle) -> Vec<Vec<Option<usize>>> {
    let mut out = vec![vec![None; p.cols]; p.rows];
    if let Some((br, bc)) = p.box_shape().filter(|&(r, c)| r > 0 && c > 0) {
        for (r, row) in out.iter_mut().enumerate() {
            for (c, place) in row.iter_mut().enumerate() {
                *place = Some((r % br) * bc + c % bc);
            }
        }
        return out;
    }
    for region in p.regions() {
        let mut cells = region.clone();
        cells.sort_unstable();
        for (k, &(r, c)) in cells.iter().enumerate() {
            if let Some(place) = out.get_mut(r).and_then(|row| row.get_mut(c)) {
                *place = Some(k);
            }
        }
    }
    out
}

/// `text` broken at spaces into lines no wider than `width` at `size`
/// (a single word wider than that stays whole on its line).
fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && font::measure(&candidate, size).advance > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Every cell border, thin and grey.
fn thin_lines(s: &mut Svg, l: &Layout) {
    const STYLE: &str = r##"stroke="#999" stroke-width="1""##;
    for r in 1..l.rows {
        s.line((l.x(0), l.y(r)), (l.x(l.cols), l.y(r)), STYLE);
    }
    for c in 1..l.cols {
        s.line((l.x(c), l.y(0)), (l.x(c), l.y(l.rows)), STYLE);
    }
}

/// A thick segment on every border between two neighbouring cells that
/// `apart` separates (boxes, jigsaw regions, calcudoku cages).
pub fn thick_edges(
    s: &mut Svg,
    l: &Layout,
    apart: impl Fn((usize, usize), (usize, usize)) -> bool,
) {
    const STYLE: &str = r#"stroke="black" stroke-width="3" stroke-linecap="square""#;
    for r in 0..l.rows {
        for c in 0..l.cols {
            if c + 1 < l.cols && apart((r, c), (r, c + 1)) {
                s.line((l.x(c + 1), l.y(r)), (l.x(c + 1), l.y(r + 1)), STYLE);
            }
            if r + 1 < l.rows && apart((r, c), (r + 1, c)) {
                s.line((l.x(c), l.y(r + 1)), (l.x(c + 1), l.y(r + 1)), STYLE);
            }
        }
    }
}

/// Cages as dashed outlines a few units (`INSET`) inside their cells. Each side
/// of a cell that borders another cage gets a segment; where the cage goes
/// on along that side the segment runs to the cell's edge to meet its
/// neighbour's, and at an inner corner it runs on by the inset to meet the
/// perpendicular segment.
pub fn dashed_cages<'a>(
    s: &mut Svg,
    l: &Layout,
    cages: impl Iterator<Item = &'a [(usize, usize)]>,
) {
    const STYLE: &str = r##"stroke="#333" stroke-width="1.2" stroke-dasharray="4 3""##;
    let m = group_map(l.rows, l.cols, cages);
    let at = |r: isize, c: isize| -> Option<usize> {
        if r < 0 || c < 0 {
            return None;
        }
        m.get(r as usize)?.get(c as usize).copied().flatten()
    };
    for (r, row) in m.iter().enumerate() {
        for (c, &cage) in row.iter().enumerate() {
            let Some(cage) = cage else { continue };
            let (ri, ci) = (r as isize, c as isize);
            let same = |dr: isize, dc: isize| at(ri + dr, ci + dc) == Some(cage);
            let (left, right, top, bottom) = (l.x(c), l.x(c + 1), l.y(r), l.y(r + 1));
            // How far a segment along a side reaches towards one end: to
            // the inset when the cage stops there, past the edge by the
            // inset at an inner corner, else to the edge.
            let reach = |along: bool, diagonal: bool| -> f64 {
                match (along, diagonal) {
                    (false, _) => INSET,
                    (true, true) => -INSET,
                    (true, false) => 0.0,
                }
            };
            // (neighbour across the side, its two ends: neighbour along
            // the side and the diagonal beyond it)
            if !same(-1, 0) {
                let a = reach(same(0, -1), same(-1, -1));
                let b = reach(same(0, 1), same(-1, 1));
                s.line((left + a, top + INSET), (right - b, top + INSET), STYLE);
            }
            if !same(1, 0) {
                let a = reach(same(0, -1), same(1, -1));
                let b = reach(same(0, 1), same(1, 1));
                s.line(
                    (left + a, bottom - INSET),
                    (right - b, bottom - INSET),
                    STYLE,
                );
            }
            if !same(0, -1) {
                let a = reach(same(-1, 0), same(-1, -1));
                let b = reach(same(1, 0), same(1, -1));
                s.line((left + INSET, top + a), (left + INSET, bottom - b), STYLE);
            }
            if !same(0, 1) {
                let a = reach(same(-1, 0), same(-1, 1));
                let b = reach(same(1, 0), same(1, 1));
                s.line((right - INSET, top + a), (right - INSET, bottom - b), STYLE);
            }
        }
    }
}

/// Each cage's clue in a box of its cell's background (white unless the
/// overlay shades the cell) in the top-left corner of its first cell (the
/// top row's leftmost); the box breaks a killer's dashed line, as in print. Each box and its text form a group `id="clue-N"`, so a
/// reader can tell the box from the text it holds.
fn cage_clues(s: &mut Svg, l: &Layout, clues: &Clues, overlay: &dyn Overlay) {
    for (i, c) in clues.in_cages.iter().enumerate() {
        let cell = l.cell(c.cell.0, c.cell.1);
        // The box spans the advance and any ink beyond it.
        let left = c.ink.left.min(0.0);
        let right = c.ink.right.max(c.ink.advance);
        // Baselines sit so that each clue's ink ends at the box's padding.
        let baseline = l.band - PAD - c.ink.bottom.max(0.0);
        let b = Rect {
            x: cell.x + CORNER,
            y: cell.y + CORNER,
            width: right - left + 2.0 * PAD,
            height: l.band,
        };
        s.group(&format!(r#"id="clue-{i}""#));
        let fill = overlay.background(c.cell.0, c.cell.1).unwrap_or("white");
        s.rect(b, &format!(r#"fill="{fill}""#));
        s.text(
            "clue",
            (b.x + PAD - left, b.y + baseline),
            c.size,
            Anchor::Start,
            "",
            &c.text,
        );
        s.end_group();
    }
}

/// Givens in bold black; the solution's other digits in [`SOLVED`].
fn digits(s: &mut Svg, l: &Layout, p: &Puzzle, solution: Option<&ValueGrid>) {
    for r in 0..p.rows {
        for c in 0..p.cols {
            let given = p
                .givens
                .get(r)
                .and_then(|row| row.get(c))
                .copied()
                .flatten();
            let (value, class, attrs) = match given {
                Some(v) => (
                    i64::from(v),
                    "given",
                    // The stroke thickens the regular face where no bold
                    // one is installed (the built-in font for PNG).
                    r#"font-weight="bold" fill="black" stroke="black" stroke-width="0.6""#
                        .to_string(),
                ),
                None => match solution
                    .and_then(|g| g.get(r))
                    .and_then(|row| row.get(c))
                    .copied()
                    .flatten()
                {
                    Some(v) => (v, "solved", format!(r#"fill="{SOLVED}""#)),
                    None => continue,
                },
            };
            let cell = l.cell(r, c);
            s.text(
                class,
                (cell.x + CELL / 2.0, cell.y + l.digit_baseline),
                l.digit_size,
                Anchor::Middle,
                &attrs,
                &value.to_string(),
            );
        }
    }
}

/// The caption and legend under the grid, one text per wrapped line.
fn notes(s: &mut Svg, l: &Layout) {
    let ascent = font::measure("Ey", NOTE_SIZE).top;
    for (i, line) in l.notes.iter().enumerate() {
        s.text(
            "note",
            (MARGIN, l.notes_top + i as f64 * NOTE_LINE + ascent),
            NOTE_SIZE,
            Anchor::Start,
            "",
            line,
        );
    }
}

/// `t` with every character an SVG document cannot hold replaced by a
/// space: control characters, and U+FFFE and U+FFFF, which XML 1.0
/// forbids even escaped. Markup characters are left as they are, for a
/// writer that escapes them itself (plotters); [`xml_escape`] does both.
pub fn xml_chars(t: &str) -> std::borrow::Cow<'_, str> {
    let forbidden = |c: char| c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}');
    if !t.chars().any(forbidden) {
        return std::borrow::Cow::Borrowed(t);
    }
    std::borrow::Cow::Owned(
        t.chars()
            .map(|c| if forbidden(c) { ' ' } else { c })
            .collect(),
    )
}

/// Text made safe for an XML text node or attribute: the characters XML
/// cannot hold replaced ([`xml_chars`]) and markup characters escaped.
pub fn xml_escape(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for ch in xml_chars(t).chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            xml_escape("a<b>&\"c'\u{1b}d"),
            "a&lt;b&gt;&amp;&quot;c&apos; d"
        );
        // XML 1.0 forbids the two noncharacters even as references.
        assert_eq!(xml_escape("a\u{fffe}b\u{ffff}c\u{fffd}"), "a b c\u{fffd}");
        assert!(matches!(
            xml_chars("plain é <"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn wraps_at_spaces_within_the_width() {
        let lines = wrap("Every cage sums to a perfect square", NOTE_SIZE, 120.0);
        assert!(lines.len() > 1, "{lines:?}");
        assert_eq!(lines.join(" "), "Every cage sums to a perfect square");
        for l in &lines {
            assert!(font::measure(l, NOTE_SIZE).advance <= 120.0, "{l}");
        }
    }

    #[test]
    fn numbers_are_written_short() {
        assert_eq!(num(10.0), "10");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
    }
}
