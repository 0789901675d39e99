//! Showing grids and results to people: grids drawn as in the source
//! documents (box separators for sudoku, blocks blank in kakuro), with
//! box-drawing cage borders in a terminal, and puzzles as SVG
//! pictures ([`svg`]) laid out with the built-in font's metrics
//! ([`font`]), as PNG when asked ([`png`]).

mod boxes;
mod clues;
pub mod font;
pub mod marks;
pub mod png;
pub mod svg;

use crate::elements::{edge_clues, kakuro, signs};
use crate::puzzle::{Kind, Puzzle};

pub use crate::model::ValueGrid;

/// How a grid is drawn as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextStyle {
    /// Plain ASCII: sudoku with `|` and `-+-` box separators, cages and
    /// regions with `+`, `-` and `|` borders.
    Ascii,
    /// Box-drawing characters around boxes, cages and jigsaw regions, for
    /// a terminal.
    Boxes,
}

/// How a text report and its grids are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextOptions {
    /// The characters grids are drawn with.
    pub style: TextStyle,
    /// ANSI colour and weight: givens bold, solved digits blue.
    pub color: bool,
    /// Every run of each race, also those stopped because another
    /// answered first.
    pub verbose: bool,
}

impl TextOptions {
    /// Plain text in `style`: no colour, only the runs that answered.
    pub fn plain(style: TextStyle) -> TextOptions {
        TextOptions {
            style,
            color: false,
            verbose: false,
        }
    }
}

/// Draws `grid` for `puzzle` in `style`, without colour.
pub fn grid_text(puzzle: &Puzzle, grid: &ValueGrid, style: TextStyle) -> String {
    grid_text_with(puzzle, grid, &TextOptions::plain(style))
}

/// Draws `grid` for `puzzle` with what makes the puzzle: cage clues,
/// kakuro sums, futoshiki signs, skyscrapers clues, and each element's
/// text form ([`crate::elements::ElementType::text`]): its marks on the
/// borders and beside the digits where the grid has room for them, a
/// line under the grid for the rest; givens told from solved digits when
/// `opts.color` is on.
pub fn grid_text_with(puzzle: &Puzzle, grid: &ValueGrid, opts: &TextOptions) -> String {
    let form = crate::elements::text_all(&puzzle.elements);
    let cells = TextCells {
        puzzle,
        grid,
        color: opts.color,
    };
    let (mut out, unplaced) = match puzzle.kind {
        Kind::Futoshiki => (signs::text_grid(puzzle.inequalities(), &cells), form.marks),
        Kind::Skyscrapers => (
            edge_clues::text_grid(&puzzle.edges().cloned().unwrap_or_default(), &cells),
            form.marks,
        ),
        Kind::Kakuro => match puzzle.kakuro() {
            Some(layout) => (kakuro::text_grid(layout, &cells), form.marks),
            None => (ascii_grid(puzzle, grid, opts.color), form.marks),
        },
        // Marks need the borders between every two cells that boxed draws.
        _ if opts.style == TextStyle::Boxes
            || !(puzzle.cages().is_empty()
                && puzzle.regions().is_empty()
                && form.marks.is_empty()) =>
        {
            boxes::boxed(puzzle, grid, opts, &form.marks)
        }
        _ => (ascii_grid(puzzle, grid, opts.color), form.marks),
    };
    for line in unplaced.iter().map(|m| m.note()).chain(form.notes) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// ANSI bold, for givens.
const BOLD: &str = "\x1b[1m";
/// ANSI blue, for solved digits (as in pictures).
const BLUE: &str = "\x1b[34m";
const RESET: &str = "\x1b[0m";

/// Cell `at` of `grid`, right-aligned in `width`, `.` when empty; with
/// `color`, a given in bold and a solved digit in blue.
fn cell_value(
    p: &Puzzle,
    grid: &ValueGrid,
    at: (usize, usize),
    width: usize,
    color: bool,
) -> String {
    let v = grid
        .get(at.0)
        .and_then(|row| row.get(at.1))
        .copied()
        .flatten();
    let text = cell_text(v, width);
    let given = p
        .givens
        .get(at.0)
        .and_then(|row| row.get(at.1))
        .copied()
        .flatten()
        .is_some();
    match (color, v, given) {
        (true, Some(_), true) => format!("{BOLD}{text}{RESET}"),
        (true, Some(_), false) => format!("{BLUE}{text}{RESET}"),
        _ => text,
    }
}

/// The cells of a grid being drawn as text, for the kinds whose grid an
/// element draws itself (futoshiki signs, skyscrapers clues, kakuro
/// squares).
pub struct TextCells<'a> {
    puzzle: &'a Puzzle,
    /// The values drawn.
    pub grid: &'a ValueGrid,
    color: bool,
}

impl TextCells<'_> {
    /// Rows and columns of the puzzle.
    pub fn size(&self) -> (usize, usize) {
        (self.puzzle.rows, self.puzzle.cols)
    }

    /// The cell at `at`, right-aligned in `width`, `.` when empty; with
    /// colour, a given in bold and a solved digit in blue.
    pub fn value(&self, at: (usize, usize), width: usize) -> String {
        cell_value(self.puzzle, self.grid, at, width, self.color)
    }
}

/// For each cell of a `rows`×`cols` grid, the index of the group (cage,
/// region) holding it, so that neighbour look-ups are O(1). Cells outside
/// the grid are ignored.
pub(crate) fn group_map<'a>(
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

/// Draws a sudoku's `grid` with `|` and `-+-` box separators.
fn ascii_grid(puzzle: &Puzzle, grid: &ValueGrid, color: bool) -> String {
    let width = puzzle.rows.to_string().len();
    let (br, bc) = puzzle
        .box_shape()
        .filter(|&(r, c)| r > 0 && c > 0)
        .unwrap_or((puzzle.rows.max(1), puzzle.cols.max(1)));
    let mut out = String::new();
    for r in 0..grid.len() {
        if r > 0 && r % br == 0 {
            // The separator follows the row's own layout: `|` becomes `+`.
            let sep: String = row_line(puzzle, grid, r, width, bc, false)
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            out.push_str(&sep);
            out.push('\n');
        }
        out.push_str(row_line(puzzle, grid, r, width, bc, color).trim_end());
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

fn row_line(
    p: &Puzzle,
    grid: &ValueGrid,
    r: usize,
    width: usize,
    bc: usize,
    color: bool,
) -> String {
    let mut line = String::new();
    let n = grid.get(r).map_or(0, Vec::len);
    for c in 0..n {
        if c > 0 {
            line.push(' ');
            if c % bc == 0 {
                line.push_str("| ");
            }
        }
        line.push_str(&cell_value(p, grid, (r, c), width, color));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sudoku4() -> Puzzle {
        let mut p = Puzzle::blank("t", Kind::Sudoku, 4);
        p.set(crate::elements::boxes::Boxes { rows: 2, cols: 2 });
        p
    }

    #[test]
    fn draws_box_separators() {
        let g: ValueGrid = [[4, 3, 1, 2], [1, 2, 4, 3], [2, 1, 3, 4], [3, 4, 2, 1]]
            .iter()
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .collect();
        let ascii = "4 3 | 1 2\n1 2 | 4 3\n----+----\n2 1 | 3 4\n3 4 | 2 1\n";
        assert_eq!(grid_text(&sudoku4(), &g, TextStyle::Ascii), ascii);
        // A terminal gets boxes drawn like cages and regions.
        assert_eq!(
            grid_text(&sudoku4(), &g, TextStyle::Boxes),
            "┏━━━━━━━┳━━━━━━━┓\n┃ 4   3 ┃ 1   2 ┃\n┃       ┃       ┃\n┃ 1   2 ┃ 4   3 ┃\n┣━━━━━━━╋━━━━━━━┫\n┃ 2   1 ┃ 3   4 ┃\n┃       ┃       ┃\n┃ 3   4 ┃ 2   1 ┃\n┗━━━━━━━┻━━━━━━━┛\n"
        );
    }

    #[test]
    fn draws_cages_with_box_drawing_characters() {
        let mut p = sudoku4();
        p.kind = Kind::Calcudoku;
        p.rows = 2;
        p.cols = 2;
        p.elements.clear();
        p.elements.push(crate::elements::Element::Latin(
            crate::elements::latin::Latin,
        ));
        let cages = vec![
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
        p.set(crate::elements::cages::Cages {
            cages,
            distinct: false,
        });
        let g: ValueGrid = vec![vec![Some(1), Some(2)], vec![Some(2), Some(1)]];
        assert_eq!(
            grid_text(&p, &g, TextStyle::Boxes),
            "┏3+ ━━━━┓\n┃ 1   2 ┃\n┣3+ ────┫\n┃ 2   1 ┃\n┗━━━━━━━┛\n"
        );
    }

    #[test]
    fn draws_jigsaw_regions_with_heavy_lines() {
        let mut p = Puzzle::blank("j", Kind::Jigsaw, 2);
        p.set(crate::elements::regions::Regions(vec![
            vec![(0, 0), (1, 0)],
            vec![(0, 1), (1, 1)],
        ]));
        let g: ValueGrid = vec![vec![Some(1), Some(2)], vec![Some(2), Some(1)]];
        assert_eq!(
            grid_text(&p, &g, TextStyle::Boxes),
            "┏━━━┳━━━┓\n┃ 1 ┃ 2 ┃\n┃   ┃   ┃\n┃ 2 ┃ 1 ┃\n┗━━━┻━━━┛\n"
        );
    }

    /// Kropki dots and XV letters on the borders, a thermometer's bulb
    /// beside its digit; what a grid cannot show (a thermometer's tube, a
    /// line, a rule over the whole grid, a dot's unusual value) said
    /// under it, one line each.
    #[test]
    fn elements_show_as_marks_or_lines_under_the_grid() {
        let text = r#"kind = "sudoku"
givens = """
....
....
....
....
"""
anti-knight = true

[[kropki]]
cells = "r1c1 r1c2"

[[kropki]]
cells = "r1c3 r2c3"
color = "black"
value = 3

[[xv]]
cells = "r4c1 r4c2"
letter = "V"

[[thermometer]]
cells = "r3c3 r3c4"

[[whispers]]
cells = "r2c1 r3c2"
difference = 2
"#;
        let loc = crate::error::Location::file("t.toml");
        let p = &crate::parse::parse_str(text, &loc, None).expect("parses")[0];
        let g: ValueGrid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
            .iter()
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .collect();
        let boxes = grid_text(p, &g, TextStyle::Boxes);
        assert_eq!(
            boxes,
            "┏━━━━━━━┳━━━━━━━┓\n\
             ┃ 1 ○ 2 ┃ 3   4 ┃\n\
             ┃       ┃ ●     ┃\n\
             ┃ 3   4 ┃ 1   2 ┃\n\
             ┣━━━━━━━╋━━━━━━━┫\n\
             ┃ 2   1 ┃°4   3 ┃\n\
             ┃       ┃       ┃\n\
             ┃ 4 V 3 ┃ 2   1 ┃\n\
             ┗━━━━━━━┻━━━━━━━┛\n\
             thermometer 1: r3c3→r3c4\n\
             kropki 2: ratio 3 between r1c3 and r2c3\n\
             anti-knight 1\n\
             whispers 1: r2c1→r3c2 (difference 2)\n"
        );
        // ASCII grids take the same marks in ASCII, and borders to hold them.
        let ascii = grid_text(p, &g, TextStyle::Ascii);
        assert!(
            ascii.starts_with("+---+---+---+---+\n| 1 o 2 | 3   4 |\n+       + @     +\n"),
            "{ascii}"
        );
        assert!(
            ascii.contains("|'4   3 |") && ascii.contains("| 4 V 3 |"),
            "{ascii}"
        );
        // Where the grid has no borders to hold them, marks are said.
        let mut f = p.clone();
        f.kind = Kind::Futoshiki;
        let text = grid_text(&f, &g, TextStyle::Ascii);
        assert!(
            text.contains("kropki 1: ○ between r1c1 and r1c2\n"),
            "{text}"
        );
        assert!(text.contains("thermometer 1: ° at r3c3\n"), "{text}");
    }

    #[test]
    fn draws_futoshiki_signs_and_skyscrapers_clues() {
        use crate::puzzle::{EdgeClues, Inequality};
        let g: ValueGrid = vec![vec![Some(1), Some(2)], vec![Some(2), Some(1)]];
        let mut f = Puzzle::blank("f", Kind::Futoshiki, 2);
        f.set(crate::elements::signs::Signs(vec![
            Inequality {
                less: (0, 0),
                greater: (0, 1),
            },
            Inequality {
                less: (1, 1),
                greater: (0, 1),
            },
        ]));
        assert_eq!(grid_text(&f, &g, TextStyle::Ascii), "1 < 2\n    v\n2   1\n");
        let mut s = Puzzle::blank("s", Kind::Skyscrapers, 2);
        s.set(EdgeClues {
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
