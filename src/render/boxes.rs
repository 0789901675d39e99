//! Grids drawn with box-drawing characters for a terminal: heavy lines on
//! the outer border and between boxes or jigsaw regions, light lines
//! between cages, nothing between two cells of one cage (or, without
//! cages, of one region), so a killer's or calcudoku's cages and a
//! jigsaw's regions can be read off the solved grid.

use crate::puzzle::{Kind, Puzzle};

use super::{ValueGrid, group_map};

/// How strongly an edge between two cells is drawn.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    None,
    Light,
    Heavy,
}

/// Draws `grid` with box-drawing borders around boxes and cages.
pub fn boxed(p: &Puzzle, grid: &ValueGrid) -> String {
    let (rows, cols) = (p.rows, p.cols);
    let width = grid
        .iter()
        .flatten()
        .flatten()
        .map(|v| v.to_string().chars().count())
        .max()
        .unwrap_or(1);
    let cage = group_map(rows, cols, p.cages.iter().map(|c| &c.cells[..]));
    let region = group_map(rows, cols, p.regions.iter().map(|r| &r[..]));
    let boxes = match p.kind {
        Kind::Sudoku | Kind::Killer => p.box_shape.filter(|&(r, c)| r > 0 && c > 0),
        _ => None,
    };
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
            out.push(junction(arms));
            if let Some(w) = horizontal(r, c) {
                let ch = match w {
                    Weight::None => ' ',
                    Weight::Light => '─',
                    Weight::Heavy => '━',
                };
                out.extend(std::iter::repeat_n(ch, width + 2));
            }
        }
        out.push('\n');
        if r == rows {
            break;
        }
        for c in 0..=cols {
            out.push(match vertical(r, c).unwrap_or(Weight::None) {
                Weight::None => ' ',
                Weight::Light => '│',
                Weight::Heavy => '┃',
            });
            if c < cols {
                let v = grid.get(r).and_then(|row| row.get(c)).copied().flatten();
                let text = v.map_or_else(|| ".".to_string(), |v| v.to_string());
                out.push_str(&format!(" {text:>width$} "));
            }
        }
        out.push('\n');
    }
    out
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
