//! Showing grids and results to people: grids drawn as in the source
//! documents (box separators for sudoku, blocks blank in kakuro).

use crate::puzzle::{Kind, Puzzle};

/// A grid of cell values; `None` where no cell is (kakuro blocks) or the
/// value is unknown.
pub type ValueGrid = Vec<Vec<Option<i64>>>;

/// Draws `grid` for `puzzle`: sudoku and killer with `|` and `-+-` box
/// separators, calcudoku plain, kakuro with blocks left blank.
pub fn grid_text(puzzle: &Puzzle, grid: &ValueGrid) -> String {
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
            name: "t".into(),
            title: None,
            kind: Kind::Sudoku,
            rows: 4,
            cols: 4,
            box_shape: Some((2, 2)),
            givens: vec![vec![None; 4]; 4],
            cages: vec![],
            distinct_cages: true,
            kakuro: None,
            solution: None,
            regions: Vec::new(),
            diagonals: false,
            inequalities: Vec::new(),
            edges: None,
        }
    }

    #[test]
    fn draws_box_separators() {
        let g: ValueGrid = [[4, 3, 1, 2], [1, 2, 4, 3], [2, 1, 3, 4], [3, 4, 2, 1]]
            .iter()
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .collect();
        assert_eq!(
            grid_text(&sudoku4(), &g),
            "4 3 | 1 2\n1 2 | 4 3\n----+----\n2 1 | 3 4\n3 4 | 2 1\n"
        );
    }
}
