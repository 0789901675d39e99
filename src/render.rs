//! Showing grids and results to people: grids drawn as in the source
//! documents (box separators for sudoku, blocks blank in kakuro), with
//! box-drawing cage borders in a terminal, and puzzles as SVG
//! pictures ([`svg`]) laid out with the built-in font's metrics
//! ([`font`]), as PNG when asked ([`png`]).

mod boxes;
pub mod font;
pub mod png;
mod report;
pub mod svg;

use crate::puzzle::{Kind, Puzzle};

pub use crate::model::ValueGrid;
pub use report::result_text;

/// How a grid is drawn as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextStyle {
    /// Plain ASCII: `|` and `-+-` box separators only.
    Ascii,
    /// Box-drawing characters around boxes, cages and jigsaw regions, for
    /// a terminal; puzzles without cages or regions are drawn as in
    /// [`TextStyle::Ascii`].
    Boxes,
}

/// Draws `grid` for `puzzle` in `style`.
pub fn grid_text(puzzle: &Puzzle, grid: &ValueGrid, style: TextStyle) -> String {
    if style == TextStyle::Boxes && !(puzzle.cages.is_empty() && puzzle.regions.is_empty()) {
        return boxes::boxed(puzzle, grid);
    }
    ascii_grid(puzzle, grid)
}

/// For each cell of a `rows`×`cols` grid, the index of the group (cage,
/// region) holding it, so that neighbour look-ups are O(1). Cells outside
/// the grid are ignored.
fn group_map<'a>(
    rows: usize,
    cols: usize,
    groups: impl Iterator<Item = &'a [(usize, usize)]>,
) -> Vec<Vec<Option<usize>>> {
    let mut m = vec![vec![None; cols]; rows];
    for (i, cells) in groups.enumerate() {
        for &(r, c) in cells {
            if let Some(slot) = m.get_mut(r).and_then(|row: &mut Vec<_>| row.get_mut(c)) {
                *slot = Some(i);
            }
        }
    }
    m
}

/// Draws `grid` for `puzzle`: sudoku and killer with `|` and `-+-` box
/// separators, calcudoku plain, kakuro with blocks left blank.
fn ascii_grid(puzzle: &Puzzle, grid: &ValueGrid) -> String {
    match puzzle.kind {
        Kind::Futoshiki => return futoshiki_text(puzzle, grid),
        Kind::Skyscrapers => return skyscrapers_text(puzzle, grid),
        _ => {}
    }
    let width = match puzzle.kind {
        Kind::Kakuro => 1,
        _ => puzzle.rows.to_string().len(),
    };
    let (br, bc) = match (puzzle.kind, puzzle.box_shape) {
        (Kind::Sudoku | Kind::Killer, Some(b)) => b,
        _ => (puzzle.rows.max(1), puzzle.cols.max(1)),
    };
    let mut out = String::new();
    for (r, row) in grid.iter().enumerate() {
        if r > 0 && r % br == 0 {
            // The separator follows the row's own layout: `|` becomes `+`.
            let sep: String = row_line(row, width, bc, puzzle.kind)
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            out.push_str(&sep);
            out.push('\n');
        }
        out.push_str(row_line(row, width, bc, puzzle.kind).trim_end());
        out.push('\n');
    }
    out
}

fn cell_text(v: Option<i64>, width: usize) -> String {
    match v {
        Some(v) => format!("{v:>width$}"),
        None => format!("{:>width$}", "."),
    }
}

/// Futoshiki: the signs between cells, `^` and `v` on lines between rows,
/// as in the file format.
fn futoshiki_text(p: &Puzzle, grid: &ValueGrid) -> String {
    let w = p.rows.to_string().len();
    let sign = |a: (usize, usize), b: (usize, usize)| {
        p.inequalities.iter().find_map(|q| {
            (q.less == a && q.greater == b)
                .then_some(true)
                .or((q.less == b && q.greater == a).then_some(false))
        })
    };
    let mut out = String::new();
    for (r, row) in grid.iter().enumerate() {
        let mut line = String::new();
        let mut below = String::new();
        for (c, v) in row.iter().enumerate() {
            line.push_str(&cell_text(*v, w));
            below.push_str(&" ".repeat(w - 1));
            below.push(match sign((r, c), (r + 1, c)) {
                Some(true) => '^',
                Some(false) => 'v',
                None => ' ',
            });
            if c + 1 < row.len() {
                let s = match sign((r, c), (r, c + 1)) {
                    Some(true) => '<',
                    Some(false) => '>',
                    None => ' ',
                };
                line.push_str(&format!(" {s} "));
                below.push_str("   ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if !below.trim().is_empty() {
            out.push_str(below.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Skyscrapers: the grid framed by its edge clues (blank where none).
fn skyscrapers_text(p: &Puzzle, grid: &ValueGrid) -> String {
    let w = p.rows.to_string().len();
    let edges = p.edges.clone().unwrap_or_default();
    let clue = |l: &[Option<u32>], i: usize| match l.get(i).copied().flatten() {
        Some(v) => format!("{v:>w$}"),
        None => " ".repeat(w),
    };
    let n = p.cols;
    let edge_row = |l: &[Option<u32>]| {
        let cells: Vec<String> = (0..n).map(|i| clue(l, i)).collect();
        format!("{}   {}", " ".repeat(w), cells.join(" "))
    };
    let mut lines = vec![edge_row(&edges.top)];
    for (r, row) in grid.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|v| cell_text(*v, w)).collect();
        lines.push(format!(
            "{} | {} | {}",
            clue(&edges.left, r),
            cells.join(" "),
            clue(&edges.right, r)
        ));
    }
    lines.push(edge_row(&edges.bottom));
    let mut out = String::new();
    // An edge without clues gets no line.
    for l in lines.iter().filter(|l| !l.trim().is_empty()) {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

fn row_line(row: &[Option<i64>], width: usize, bc: usize, kind: Kind) -> String {
    let mut line = String::new();
    for (c, v) in row.iter().enumerate() {
        if c > 0 {
            line.push(' ');
            if c % bc == 0 {
                line.push_str("| ");
            }
        }
        match v {
            Some(v) => line.push_str(&format!("{v:>width$}")),
            None if kind == Kind::Kakuro => line.push_str(&" ".repeat(width)),
            None => line.push_str(&format!("{:>width$}", ".")),
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sudoku4() -> Puzzle {
        Puzzle {
            box_shape: Some((2, 2)),
            distinct_cages: true,
            ..Puzzle::blank("t", Kind::Sudoku, 4)
        }
    }

    #[test]
    fn draws_box_separators() {
        let g: ValueGrid = [[4, 3, 1, 2], [1, 2, 4, 3], [2, 1, 3, 4], [3, 4, 2, 1]]
            .iter()
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .collect();
        let ascii = "4 3 | 1 2\n1 2 | 4 3\n----+----\n2 1 | 3 4\n3 4 | 2 1\n";
        assert_eq!(grid_text(&sudoku4(), &g, TextStyle::Ascii), ascii);
        // Without cages, a terminal gets the same text.
        assert_eq!(grid_text(&sudoku4(), &g, TextStyle::Boxes), ascii);
    }

    #[test]
    fn draws_cages_with_box_drawing_characters() {
        let mut p = sudoku4();
        p.kind = Kind::Calcudoku;
        p.rows = 2;
        p.cols = 2;
        p.box_shape = None;
        p.cages = vec![
            crate::puzzle::Cage {
                label: "a".into(),
                clue_text: "3".into(),
                clue: crate::puzzle::Clue::Sum(3),
                cells: vec![(0, 0), (0, 1)],
            },
            crate::puzzle::Cage {
                label: "b".into(),
                clue_text: "3".into(),
                clue: crate::puzzle::Clue::Sum(3),
                cells: vec![(1, 0), (1, 1)],
            },
        ];
        let g: ValueGrid = vec![vec![Some(1), Some(2)], vec![Some(2), Some(1)]];
        assert_eq!(
            grid_text(&p, &g, TextStyle::Boxes),
            "┏━━━━━━━┓\n┃ 1   2 ┃\n┣───────┫\n┃ 2   1 ┃\n┗━━━━━━━┛\n"
        );
    }

    #[test]
    fn draws_jigsaw_regions_with_heavy_lines() {
        let mut p = Puzzle::blank("j", Kind::Jigsaw, 2);
        p.regions = vec![vec![(0, 0), (1, 0)], vec![(0, 1), (1, 1)]];
        let g: ValueGrid = vec![vec![Some(1), Some(2)], vec![Some(2), Some(1)]];
        assert_eq!(
            grid_text(&p, &g, TextStyle::Boxes),
            "┏━━━┳━━━┓\n┃ 1 ┃ 2 ┃\n┃   ┃   ┃\n┃ 2 ┃ 1 ┃\n┗━━━┻━━━┛\n"
        );
    }

    #[test]
    fn draws_futoshiki_signs_and_skyscrapers_clues() {
        use crate::puzzle::{EdgeClues, Inequality};
        let g: ValueGrid = vec![vec![Some(1), Some(2)], vec![Some(2), Some(1)]];
        let mut f = Puzzle::blank("f", Kind::Futoshiki, 2);
        f.inequalities = vec![
            Inequality {
                less: (0, 0),
                greater: (0, 1),
            },
            Inequality {
                less: (1, 1),
                greater: (0, 1),
            },
        ];
        assert_eq!(grid_text(&f, &g, TextStyle::Ascii), "1 < 2\n    v\n2   1\n");
        let mut s = Puzzle::blank("s", Kind::Skyscrapers, 2);
        s.edges = Some(EdgeClues {
            top: vec![Some(2), None],
            bottom: vec![],
            left: vec![None, Some(1)],
            right: vec![Some(1), Some(2)],
        });
        assert_eq!(
            grid_text(&s, &g, TextStyle::Ascii),
            "    2\n  | 1 2 | 1\n1 | 2 1 | 2\n"
        );
    }
}
