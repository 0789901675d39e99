//! Puzzles as SVG pictures, drawn the way printed puzzles look: thin cell
//! lines, thick box and outer borders, killer cages as dashed outlines set
//! inside their cells with the sum in the top-left corner, calcudoku cages
//! as thick borders with the clue in the top-left corner, kakuro clue
//! squares split by a diagonal; givens in bold, and a verified solution in
//! another colour.
//!
//! The picture is built from the [`Puzzle`] alone: it never sees a solver,
//! and it only draws a solution it is handed (which the caller has checked).

use std::fmt::Write;

use crate::puzzle::{Clue, EdgeClues, KakuroCell, Kind, Puzzle};

use super::{ValueGrid, group_map};

/// Side of one cell in SVG user units.
const CELL: f64 = 40.0;
/// Space around the grid.
const MARGIN: f64 = 10.0;
/// How far a killer cage's dashed outline sits inside its cells.
const INSET: f64 = 4.0;
/// Colour of the digits a solver found (givens stay black).
const SOLVED: &str = "#1a5fb4";

/// Draws `puzzle` as an SVG document; with `solution`, fills every cell
/// that is not given with the solution's digit in [`SOLVED`] colour.
pub fn svg(puzzle: &Puzzle, solution: Option<&ValueGrid>) -> String {
    // Skyscrapers clues stand outside the grid: a cell's width on each side.
    let outside = if puzzle.edges.is_some() { CELL } else { 0.0 };
    let (w, h) = (
        puzzle.cols as f64 * CELL + 2.0 * (MARGIN + outside),
        puzzle.rows as f64 * CELL + 2.0 * (MARGIN + outside),
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let title = puzzle.title.as_deref().unwrap_or(&puzzle.name);
    let _ = writeln!(
        s,
        "<title>{} ({} {}x{})</title>",
        xml_escape(title),
        puzzle.kind.name(),
        puzzle.rows,
        puzzle.cols
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    );
    let _ = writeln!(s, r#"<g transform="translate({outside} {outside})">"#);
    if let Some(layout) = &puzzle.kakuro {
        kakuro_squares(&mut s, layout);
    }
    if puzzle.diagonals {
        diagonal_cells(&mut s, puzzle);
    }
    thin_lines(&mut s, puzzle);
    match puzzle.kind {
        Kind::Killer => killer_cages(&mut s, puzzle),
        Kind::Calcudoku => {
            let cages = group_map(
                puzzle.rows,
                puzzle.cols,
                puzzle.cages.iter().map(|c| &c.cells[..]),
            );
            thick_edges(&mut s, puzzle, |a, b| cages[a.0][a.1] != cages[b.0][b.1]);
        }
        _ => {}
    }
    if !puzzle.regions.is_empty() {
        let regions = group_map(
            puzzle.rows,
            puzzle.cols,
            puzzle.regions.iter().map(|r| &r[..]),
        );
        thick_edges(&mut s, puzzle, |a, b| {
            regions[a.0][a.1] != regions[b.0][b.1]
        });
    }
    if let Some((br, bc)) = box_shape(puzzle) {
        thick_edges(&mut s, puzzle, |(r1, c1), (r2, c2)| {
            (r1 / br, c1 / bc) != (r2 / br, c2 / bc)
        });
    }
    let _ = writeln!(
        s,
        r#"<rect x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" fill="none" stroke="black" stroke-width="3"/>"#,
        puzzle.cols as f64 * CELL,
        puzzle.rows as f64 * CELL
    );
    cage_clues(&mut s, puzzle);
    signs(&mut s, puzzle);
    if let Some(edges) = &puzzle.edges {
        edge_clues(&mut s, puzzle, edges);
    }
    digits(&mut s, puzzle, solution);
    s.push_str("</g>\n</svg>\n");
    s
}

/// The box shape whose borders are drawn thick (sudoku and killer).
fn box_shape(p: &Puzzle) -> Option<(usize, usize)> {
    match p.kind {
        Kind::Sudoku | Kind::Killer => p.box_shape.filter(|&(r, c)| r > 0 && c > 0),
        _ => None,
    }
}

fn x(col: usize) -> f64 {
    MARGIN + col as f64 * CELL
}

fn y(row: usize) -> f64 {
    MARGIN + row as f64 * CELL
}

fn line(s: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
    let _ = writeln!(
        s,
        r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>"#
    );
}

/// Every cell border, thin and grey.
fn thin_lines(s: &mut String, p: &Puzzle) {
    const STYLE: &str = r##"stroke="#999" stroke-width="1""##;
    for r in 1..p.rows {
        line(s, (x(0), y(r)), (x(p.cols), y(r)), STYLE);
    }
    for c in 1..p.cols {
        line(s, (x(c), y(0)), (x(c), y(p.rows)), STYLE);
    }
}

/// A thick segment on every border between two neighbouring cells that
/// `apart` separates.
fn thick_edges(s: &mut String, p: &Puzzle, apart: impl Fn((usize, usize), (usize, usize)) -> bool) {
    const STYLE: &str = r#"stroke="black" stroke-width="3" stroke-linecap="square""#;
    for r in 0..p.rows {
        for c in 0..p.cols {
            if c + 1 < p.cols && apart((r, c), (r, c + 1)) {
                line(s, (x(c + 1), y(r)), (x(c + 1), y(r + 1)), STYLE);
            }
            if r + 1 < p.rows && apart((r, c), (r + 1, c)) {
                line(s, (x(c), y(r + 1)), (x(c + 1), y(r + 1)), STYLE);
            }
        }
    }
}

/// Killer cages as dashed outlines [`INSET`] inside their cells. Each side
/// of a cell that borders another cage gets a segment; where the cage goes
/// on along that side the segment runs to the cell's edge to meet its
/// neighbour's, and at an inner corner it runs on by the inset to meet the
/// perpendicular segment.
fn killer_cages(s: &mut String, p: &Puzzle) {
    const STYLE: &str = r##"stroke="#333" stroke-width="1.2" stroke-dasharray="4 3""##;
    let m = group_map(p.rows, p.cols, p.cages.iter().map(|c| &c.cells[..]));
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
            let (left, right, top, bottom) = (x(c), x(c + 1), y(r), y(r + 1));
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
                line(s, (left + a, top + INSET), (right - b, top + INSET), STYLE);
            }
            if !same(1, 0) {
                let a = reach(same(0, -1), same(1, -1));
                let b = reach(same(0, 1), same(1, 1));
                line(
                    s,
                    (left + a, bottom - INSET),
                    (right - b, bottom - INSET),
                    STYLE,
                );
            }
            if !same(0, -1) {
                let a = reach(same(-1, 0), same(-1, -1));
                let b = reach(same(1, 0), same(1, -1));
                line(
                    s,
                    (left + INSET, top + a),
                    (left + INSET, bottom - b),
                    STYLE,
                );
            }
            if !same(0, 1) {
                let a = reach(same(-1, 0), same(-1, 1));
                let b = reach(same(1, 0), same(1, 1));
                line(
                    s,
                    (right - INSET, top + a),
                    (right - INSET, bottom - b),
                    STYLE,
                );
            }
        }
    }
}

/// How a clue is printed in a cage's corner.
fn clue_label(kind: Kind, clue: &Clue, cells: usize) -> String {
    match clue {
        Clue::Sum(n) if kind == Kind::Calcudoku && cells > 1 => format!("{n}+"),
        Clue::Sum(n) => n.to_string(),
        Clue::Product(n) => format!("{n}×"),
        Clue::Difference(n) => format!("{n}−"),
        Clue::Ratio(n) => format!("{n}÷"),
        Clue::SumIn(ns) => ns.iter().map(u64::to_string).collect::<Vec<_>>().join("|"),
        Clue::Square => "□".to_string(),
    }
}

/// Each cage's clue in the top-left corner of its first cell (the top
/// row's leftmost).
fn cage_clues(s: &mut String, p: &Puzzle) {
    let pad = if p.kind == Kind::Killer {
        INSET + 1.5
    } else {
        3.0
    };
    for cage in &p.cages {
        let Some(&(r, c)) = cage.cells.iter().min() else {
            continue;
        };
        let label = clue_label(p.kind, &cage.clue, cage.cells.len());
        // Killer sums sit on a white patch that breaks the dashed line.
        let size = CELL * 0.27;
        if p.kind == Kind::Killer {
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="white"/>"#,
                x(c) + INSET - 1.0,
                y(r) + INSET - 1.0,
                label.chars().count() as f64 * size * 0.62 + 2.0,
                size + 1.0
            );
        }
        let _ = writeln!(
            s,
            r#"<text class="clue" x="{}" y="{}" font-size="{size:.1}">{}</text>"#,
            x(c) + pad,
            y(r) + pad + size * 0.8,
            xml_escape(&label)
        );
    }
}

/// Block and clue squares of a kakuro: dark, clue squares split by a
/// diagonal with the down sum below it and the across sum above it.
fn kakuro_squares(s: &mut String, layout: &[Vec<KakuroCell>]) {
    let size = CELL * 0.3;
    for (r, row) in layout.iter().enumerate() {
        for (c, sq) in row.iter().enumerate() {
            if *sq == KakuroCell::White {
                continue;
            }
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="#444"/>"##,
                x(c),
                y(r)
            );
            let KakuroCell::Clue { down, across } = *sq else {
                continue;
            };
            line(
                s,
                (x(c), y(r)),
                (x(c + 1), y(r + 1)),
                r#"stroke="white" stroke-width="1""#,
            );
            if let Some(d) = down {
                let _ = writeln!(
                    s,
                    r#"<text class="clue" x="{}" y="{}" font-size="{size:.1}" fill="white">{d}</text>"#,
                    x(c) + CELL * 0.1,
                    y(r + 1) - CELL * 0.1
                );
            }
            if let Some(a) = across {
                let _ = writeln!(
                    s,
                    r#"<text class="clue" x="{}" y="{}" font-size="{size:.1}" fill="white" text-anchor="end">{a}</text>"#,
                    x(c + 1) - CELL * 0.08,
                    y(r) + size
                );
            }
        }
    }
}

/// The cells of both main diagonals shaded light grey, under the lines
/// and digits (sudoku-X, jigsaw-X).
fn diagonal_cells(s: &mut String, p: &Puzzle) {
    let n = p.rows.min(p.cols);
    for i in 0..n {
        let mut cols = vec![i, n - 1 - i];
        cols.dedup();
        for c in cols {
            let _ = writeln!(
                s,
                r##"<rect class="diagonal" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="#e4e4e4"/>"##,
                x(c),
                y(i)
            );
        }
    }
}

/// Futoshiki signs on the border between their two cells, on a white
/// patch that breaks the line: `<` `>` between columns, `∧` `∨` between
/// rows, the narrow end towards the smaller cell.
fn signs(s: &mut String, p: &Puzzle) {
    let size = CELL * 0.5;
    for q in &p.inequalities {
        let (a, b) = (q.less.min(q.greater), q.less.max(q.greater));
        let less_first = q.less == a;
        let sign = if less_first { "&lt;" } else { "&gt;" };
        // Between rows the same sign is turned a quarter clockwise, so
        // that `<` points up (∧) and `>` down (∨), centred like `<` `>`.
        let (cx, cy, turn) = if a.0 == b.0 {
            (x(b.1), y(a.0) + CELL / 2.0, 0)
        } else {
            (x(a.1) + CELL / 2.0, y(b.0), 90)
        };
        let patch = size * 0.6;
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{patch}" height="{patch}" fill="white"/>"#,
            cx - patch / 2.0,
            cy - patch / 2.0
        );
        let _ = writeln!(
            s,
            r#"<text class="sign" x="{cx}" y="{}" font-size="{size:.1}" font-weight="bold" text-anchor="middle" transform="rotate({turn} {cx} {cy})">{sign}</text>"#,
            cy + size * 0.36
        );
    }
}

/// Skyscrapers clues in the margin outside the grid, each beside the
/// row or column it counts.
fn edge_clues(s: &mut String, p: &Puzzle, edges: &EdgeClues) {
    let half = CELL / 2.0;
    let mut side = |clues: &[Option<u32>], at: &dyn Fn(usize) -> (f64, f64)| {
        let size = CELL * 0.5;
        for (i, clue) in clues.iter().enumerate() {
            let Some(v) = clue else { continue };
            let (cx, cy) = at(i);
            let _ = writeln!(
                s,
                r#"<text class="clue" x="{cx}" y="{}" font-size="{size:.1}" text-anchor="middle">{v}</text>"#,
                cy + size * 0.36
            );
        }
    };
    side(&edges.top, &|c| (x(c) + half, y(0) - half));
    side(&edges.bottom, &|c| (x(c) + half, y(p.rows) + half));
    side(&edges.left, &|r| (x(0) - half, y(r) + half));
    side(&edges.right, &|r| (x(p.cols) + half, y(r) + half));
}

/// Givens in bold black; the solution's other digits in [`SOLVED`].
fn digits(s: &mut String, p: &Puzzle, solution: Option<&ValueGrid>) {
    // Two-digit values (n > 9) need a smaller font to fit, and so do cells
    // whose corner holds a cage clue or whose sides hold futoshiki signs.
    let size = if p.rows > 9 || !p.cages.is_empty() || !p.inequalities.is_empty() {
        CELL * 0.45
    } else {
        CELL * 0.6
    };
    for r in 0..p.rows {
        for c in 0..p.cols {
            let given = p
                .givens
                .get(r)
                .and_then(|row| row.get(c))
                .copied()
                .flatten();
            let (value, class) = match given {
                Some(v) => (i64::from(v), "given"),
                None => match solution
                    .and_then(|g| g.get(r))
                    .and_then(|row| row.get(c))
                    .copied()
                    .flatten()
                {
                    Some(v) => (v, "solved"),
                    None => continue,
                },
            };
            let style = if class == "given" {
                r#"font-weight="bold" fill="black""#.to_string()
            } else {
                format!(r#"fill="{SOLVED}""#)
            };
            let _ = writeln!(
                s,
                r#"<text class="{class}" x="{}" y="{}" font-size="{size:.1}" text-anchor="middle" {style}>{value}</text>"#,
                x(c) + CELL / 2.0,
                y(r) + CELL / 2.0 + size * 0.36,
            );
        }
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
    fn clue_labels_follow_the_printed_conventions() {
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Sum(10), 3), "10+");
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Sum(3), 1), "3");
        assert_eq!(clue_label(Kind::Killer, &Clue::Sum(15), 3), "15");
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Product(12), 3), "12×");
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Ratio(2), 2), "2÷");
        assert_eq!(clue_label(Kind::Killer, &Clue::SumIn(vec![4, 9]), 2), "4|9");
    }
}
