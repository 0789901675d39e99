//! Grids drawn with box-drawing characters for a terminal: heavy lines on
//! the outer border and between boxes or jigsaw regions, light lines
//! between cages, nothing between two cells of one cage (or, without
//! cages, of one region), so a killer's or calcudoku's cages and a
//! jigsaw's regions can be read off the solved grid.

use crate::puzzle::Puzzle;

use super::clues::cage_labels;
use super::marks::{Mark, Place};
use super::{TextOptions, TextStyle, ValueGrid, cell_value, group_map};

/// How strongly an edge between two cells is drawn.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    None,
    Light,
    Heavy,
}

/// Draws `grid` with borders around boxes, cages and regions; each cage's
/// clue is written into the border above its first cell, and a rule all
/// cages share, or a clue too long for its place, under the grid.
/// [`TextStyle::Ascii`] draws every border with `+`, `-` and `|`. Each of
/// `marks` goes on its border or beside its digit; returned with the
/// text are those that found no room (a cage's clue in their place).
pub fn boxed(
    p: &Puzzle,
    grid: &ValueGrid,
    opts: &TextOptions,
    marks: &[Mark],
) -> (String, Vec<Mark>) {
    let (rows, cols) = (p.rows, p.cols);
    let ascii = opts.style == TextStyle::Ascii;
    // A label may use its cell's whole segment of the border line.
    const LONGEST: usize = 5;
    let planned = cage_labels(p, |t| t.chars().count() <= LONGEST);
    let label_width = planned
        .labels
        .iter()
        .map(|(_, t)| t.chars().count())
        .max()
        .unwrap_or(0);
    let width = grid
        .iter()
        .flatten()
        .flatten()
        .map(|v| v.to_string().chars().count())
        .chain([
            p.rows.max(p.cols).to_string().len(),
            label_width.saturating_sub(1),
        ])
        .max()
        .unwrap_or(1);
    let mut label_at = vec![vec![None; cols]; rows];
    for (cell, text) in &planned.labels {
        if let Some(slot) = label_at.get_mut(cell.0).and_then(|r| r.get_mut(cell.1)) {
            *slot = Some(text.as_str());
        }
    }
    let glyph = |i: usize| {
        if ascii {
            marks[i].ascii
        } else {
            marks[i].glyph
        }
    };
    // The mark (its index) on the vertical border left of (r, c), above
    // (r, c), and beside the digit of (r, c).
    let mut left_of = vec![vec![None; cols + 1]; rows];
    let mut above = vec![vec![None; cols]; rows + 1];
    let mut beside = vec![vec![None; cols]; rows];
    let mut unplaced = Vec::new();
    for (i, m) in marks.iter().enumerate() {
        let slot = match m.place {
            Place::Between([a, b]) if a.0 == b.0 && a.1.abs_diff(b.1) == 1 => {
                left_of.get_mut(a.0).and_then(|l| l.get_mut(a.1.max(b.1)))
            }
            Place::Between([a, b]) if a.1 == b.1 && a.0.abs_diff(b.0) == 1 => {
                above.get_mut(a.0.max(b.0)).and_then(|l| l.get_mut(a.1))
            }
            Place::Between(_) => None,
            Place::Cell(a) => beside.get_mut(a.0).and_then(|l| l.get_mut(a.1)),
        };
        match slot {
            Some(s @ None) => *s = Some(i),
            _ => unplaced.push(m.clone()),
        }
    }
    let cage = group_map(rows, cols, p.cages().iter().map(|c| &c.cells[..]));
    let region = group_map(rows, cols, p.regions().iter().map(|r| &r[..]));
    let boxes = p.box_shape().filter(|&(r, c)| r > 0 && c > 0);
    // The edge between two cells, either of which may be off the grid.
    let edge = |a: Option<(usize, usize)>, b: Option<(usize, usize)>| -> Weight {
        let (Some(a), Some(b)) = (a, b) else {
            return Weight::Heavy;
        };
        if let Some((br, bc)) = boxes
            && (a.0 / br, a.1 / bc) != (b.0 / br, b.1 / bc)
        {
            return Weight::Heavy;
        }
        if region[a.0][a.1] != region[b.0][b.1] {
            return Weight::Heavy;
        }
        if cage[a.0][a.1] != cage[b.0][b.1] {
            Weight::Light
        } else {
            Weight::None
        }
    };
    let cell = |r: usize, c: usize| (r < rows && c < cols).then_some((r, c));
    let up = |r: usize, c: usize| r.checked_sub(1).and_then(|r| cell(r, c));
    let left = |r: usize, c: usize| c.checked_sub(1).and_then(|c| cell(r, c));
    // The vertical edge left of column c in row r; the horizontal edge
    // above row r in column c (`None` beyond the grid: nothing to draw).
    let vertical = |r: usize, c: usize| (r < rows).then(|| edge(left(r, c), cell(r, c)));
    let horizontal = |r: usize, c: usize| (c < cols).then(|| edge(up(r, c), cell(r, c)));
    let mut out = String::new();
    for r in 0..=rows {
        // The border line above row r.
        for c in 0..=cols {
            let arms = [
                r.checked_sub(1).and_then(|r| vertical(r, c)),
                vertical(r, c),
                c.checked_sub(1).and_then(|c| horizontal(r, c)),
                horizontal(r, c),
            ]
            .map(|w| w.unwrap_or(Weight::None));
            out.push(if ascii {
                ascii_junction(arms)
            } else {
                junction(arms)
            });
            if let Some(w) = horizontal(r, c) {
                let ch = match (w, ascii) {
                    (Weight::None, _) => ' ',
                    (_, true) => '-',
                    (Weight::Light, false) => '─',
                    (Weight::Heavy, false) => '━',
                };
                // A space after the label keeps it apart from the line.
                let label = label_at
                    .get(r)
                    .and_then(|l| l[c])
                    .map(|t| format!("{t} "))
                    .unwrap_or_default();
                let mut segment: Vec<char> = label.chars().collect();
                segment.extend(std::iter::repeat_n(
                    ch,
                    (width + 2).saturating_sub(label.chars().count()),
                ));
                // A mark sits mid-segment, over the middle of the digits.
                if let Some(i) = above[r][c] {
                    let mid = (width + 2) / 2;
                    if mid >= label.chars().count() && mid < segment.len() {
                        segment[mid] = glyph(i);
                    } else {
                        unplaced.push(marks[i].clone());
                    }
                }
                out.extend(segment);
            }
        }
        out.push('\n');
        if r == rows {
            break;
        }
        for c in 0..=cols {
            out.push(
                match (left_of[r][c], vertical(r, c).unwrap_or(Weight::None), ascii) {
                    (Some(i), _, _) => glyph(i),
                    (None, Weight::None, _) => ' ',
                    (None, _, true) => '|',
                    (None, Weight::Light, false) => '│',
                    (None, Weight::Heavy, false) => '┃',
                },
            );
            if c < cols {
                out.push(beside[r][c].map_or(' ', glyph));
                out.push_str(&cell_value(p, grid, (r, c), width, opts.color));
                out.push(' ');
            }
        }
        out.push('\n');
    }
    for note in &planned.notes {
        out.push_str(note);
        out.push('\n');
    }
    (out, unplaced)
}

/// [`junction`] in ASCII: `+` wherever a line meets or ends.
fn ascii_junction(arms: [Weight; 4]) -> char {
    if arms.iter().any(|&w| w != Weight::None) {
        '+'
    } else {
        ' '
    }
}

/// The character where four edges meet (up, down, left, right). Where a
/// heavy and a light line meet the heavy form is used: mixed-weight
/// junctions would need a table four times this size for little gain.
fn junction(arms: [Weight; 4]) -> char {
    let heavy = arms.contains(&Weight::Heavy);
    let [u, d, l, r] = arms.map(|w| w != Weight::None);
    let (light, heavy_ch) = match (u, d, l, r) {
        (false, false, false, false) => (' ', ' '),
        (true, true, false, false) => ('│', '┃'),
        (false, false, true, true) => ('─', '━'),
        (false, true, false, true) => ('┌', '┏'),
        (false, true, true, false) => ('┐', '┓'),
        (true, false, false, true) => ('└', '┗'),
        (true, false, true, false) => ('┘', '┛'),
        (true, true, false, true) => ('├', '┣'),
        (true, true, true, false) => ('┤', '┫'),
        (false, true, true, true) => ('┬', '┳'),
        (true, false, true, true) => ('┴', '┻'),
        (true, true, true, true) => ('┼', '╋'),
        (true, false, false, false) => ('╵', '╹'),
        (false, true, false, false) => ('╷', '╻'),
        (false, false, true, false) => ('╴', '╸'),
        (false, false, false, true) => ('╶', '╺'),
    };
    if heavy { heavy_ch } else { light }
}
