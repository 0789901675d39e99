//! Sudoku line files: one puzzle per line, n² characters (81 for 9×9,
//! 16 for 4×4), `.` or `0` for a blank; blank lines and lines starting with
//! `#` are skipped. Each puzzle is named `FILE:LINE`.

use crate::error::{InputError, Location};
use crate::puzzle::{Kind, Puzzle};

use super::grid::{Values, check_repeats, square_box, suggested_box};

/// Parses every puzzle of a line file.
pub(crate) fn parse(
    text: &str,
    file: &Location,
    name_file: &str,
) -> Result<Vec<Puzzle>, InputError> {
    let mut out = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let ln = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let lead = line.chars().take_while(|c| c.is_whitespace()).count();
        let body = line.trim();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        out.push(one(
            body,
            &file.at(ln, lead + 1),
            ln,
            lead,
            file,
            name_file,
        )?);
    }
    if out.is_empty() {
        return Err(InputError::new(
            file.clone(),
            "the file has no puzzles: a line file holds one sudoku per line, 81 characters \
             for a 9×9 (. or 0 for a blank)",
        ));
    }
    Ok(out)
}

/// Parses one line, `body`, which starts at character `lead` of line `ln`.
fn one(
    body: &str,
    at: &Location,
    ln: usize,
    lead: usize,
    file: &Location,
    name_file: &str,
) -> Result<Puzzle, InputError> {
    let len = body.chars().count();
    if body.contains(',') {
        return Err(InputError::new(
            at.clone(),
            "this line looks like a kakuro grid, not a sudoku line: name the file *.kakuro \
             or pass --input-format kakuro",
        ));
    }
    let n = (1..=9).find(|n| n * n == len);
    let Some(n) = n else {
        return Err(InputError::new(
            at.clone(),
            format!(
                "a sudoku line must have n² characters (81 for a 9×9, 16 for a 4×4), \
                 but this one has {len}"
            ),
        ));
    };
    let Some(boxes) = square_box(n) else {
        let (r, c) = suggested_box(n);
        return Err(InputError::new(
            at.clone(),
            format!(
                "this line is a {n}×{n} sudoku, whose boxes are not square, and a line file can't \
                 give a box shape: write it as a TOML file with box = \"{r}x{c}\""
            ),
        ));
    };
    let mut grid = vec![vec![None; n]; n];
    let mut locs = vec![vec![Location::default(); n]; n];
    for (k, ch) in body.chars().enumerate() {
        let (r, c) = (k / n, k % n);
        let loc = file.at(ln, lead + k + 1);
        let v = match ch {
            '.' | '0' => None,
            _ => match ch.to_digit(10) {
                Some(d) if d >= 1 && d as usize <= n => Some(d),
                _ => {
                    return Err(InputError::new(
                        loc,
                        format!(
                            "'{ch}' is not a value of a {n}×{n} sudoku: write 1 to {n}, or . or 0 for a blank"
                        ),
                    ));
                }
            },
        };
        grid[r][c] = v;
        locs[r][c] = loc;
    }
    let values = Values { grid, locs };
    check_repeats(&values, Some(boxes))?;
    Ok(Puzzle {
        name: format!("{name_file}:{ln}"),
        title: None,
        kind: Kind::Sudoku,
        rows: n,
        cols: n,
        box_shape: Some(boxes),
        givens: values.grid,
        cages: Vec::new(),
        distinct_cages: false,
        kakuro: None,
        solution: None,
        regions: Vec::new(),
        diagonals: false,
        inequalities: Vec::new(),
        edges: None,
    })
}
