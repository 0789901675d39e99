//! The futoshiki grid: rows of values with `<` and `>` between
//! neighbours, and lines of `^` and `v` between rows, each sign straight
//! under the cell it joins to the one below.
//!
//! ```text
//! .   . < .   .
//! ^           v
//! 3   .   . > .
//! ```
//!
//! A sign's narrow end points at the smaller cell: `1 < 2`, `2 > 1`; `^`
//! means the cell above is smaller, `v` that the cell above is larger.

use crate::error::rc;
use crate::error::{InputError, Location};
use std::fmt::Write;

use crate::elements::signs::sign_between;
use crate::puzzle::{Grid, Inequality};

use crate::elements::grid_text::{TextOrigin, Token, value_of};
use crate::elements::givens::Values;

/// The grid's values and its signs.
#[derive(Debug, Clone)]
pub(crate) struct SignGrid {
    /// The given values.
    pub values: Values,
    /// The inequalities, in reading order.
    pub inequalities: Vec<Inequality>,
}

/// Whether a token is a sign between two rows.
fn vertical(t: &str) -> Option<bool> {
    match t {
        // `true`: the cell above is the smaller one.
        "^" | "∧" => Some(true),
        "v" | "V" | "∨" => Some(false),
        _ => None,
    }
}

/// A token with its span of characters on its line.
struct Placed {
    tok: Token,
    from: usize,
    to: usize,
}

/// One line of the grid's text, split into placed tokens.
fn tokens(line: &str, li: usize, origin: &TextOrigin) -> Vec<Placed> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let push = |out: &mut Vec<Placed>, sc: usize, ci: usize, text: &str| {
        out.push(Placed {
            tok: Token {
                text: text.to_string(),
                loc: origin.at(li, sc),
            },
            from: sc,
            to: ci,
        });
    };
    let mut last = 0;
    for (ci, (bi, ch)) in line.char_indices().enumerate() {
        last = ci + 1;
        if ch.is_whitespace() {
            if let Some((sc, sb)) = start.take() {
                push(&mut out, sc, ci, &line[sb..bi]);
            }
        } else if start.is_none() {
            start = Some((ci, bi));
        }
    }
    if let Some((sc, sb)) = start {
        push(&mut out, sc, last, &line[sb..]);
    }
    out
}

/// A `^` or `v` between two rows: its span of characters, whether the
/// cell above is the smaller, and where it is.
type VSign = (usize, usize, bool, Location);

/// A row of cells: the value tokens with their spans, and the signs
/// between them (`true` when the left cell is the smaller).
struct CellRow {
    loc: Location,
    cells: Vec<Placed>,
    signs: Vec<(usize, bool, Location)>,
}

/// Reads a futoshiki grid. Values go from 1 to the grid's side.
pub(crate) fn parse(text: &str, origin: &TextOrigin) -> Result<SignGrid, InputError> {
    let mut rows: Vec<CellRow> = Vec::new();
    // Sign lines: (index of the row above, signs as (char column, above is
    // smaller, location)).
    let mut between: Vec<(usize, Vec<VSign>)> = Vec::new();
    let mut pending: Option<(Vec<VSign>, Location)> = None;
    for (li, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let toks = tokens(line, li, origin);
        let Some(first) = toks.first() else { continue };
        let first_loc = first.tok.loc.clone();
        if toks.iter().all(|p| vertical(&p.tok.text).is_some()) {
            if rows.is_empty() {
                return Err(InputError::new(
                    first_loc,
                    "a line of ^ and v signs must stand between two rows of cells, \
                     but this one comes before the first row",
                ));
            }
            if pending.is_some() {
                return Err(InputError::new(
                    first_loc,
                    "two lines of ^ and v signs in a row: put all the signs between two rows on one line",
                ));
            }
            let signs = toks
                .iter()
                .map(|p| {
                    let up = vertical(&p.tok.text).unwrap_or(true);
                    (p.from, p.to, up, p.tok.loc.clone())
                })
                .collect();
            pending = Some((signs, first_loc));
            continue;
        }
        if let Some((signs, _)) = pending.take() {
            between.push((rows.len() - 1, signs));
        }
        rows.push(cell_row(toks, first_loc)?);
    }
    if let Some((_, loc)) = pending {
        return Err(InputError::new(
            loc,
            "a line of ^ and v signs must stand between two rows of cells, \
             but this one comes after the last row",
        ));
    }
    let Some(first) = rows.first() else {
        return Err(InputError::new(
            origin.start.clone(),
            "the futoshiki grid is empty: write one row of cells per line, \
             with < and > between cells and ^ and v on lines between rows",
        ));
    };
    let n = first.cells.len();
    for (i, row) in rows.iter().enumerate() {
        if row.cells.len() != n {
            return Err(InputError::new(
                row.loc.clone(),
                format!(
                    "row {} of the futoshiki grid has {} cells, but the grid is {n} wide (row 1 has {n})",
                    i + 1,
                    row.cells.len()
                ),
            ));
        }
    }
    crate::elements::grid_text::check_max(rows.len(), n, &origin.start)?;
    crate::elements::grid_text::check_square(
        rows.len(),
        n,
        "the futoshiki grid",
        "futoshiki",
        &origin.start,
    )?;
    let mut grid = Vec::with_capacity(n);
    let mut locs = Vec::with_capacity(n);
    for row in &rows {
        let mut line = Vec::with_capacity(n);
        for p in &row.cells {
            line.push(value_of(&p.tok, n as u32)?);
        }
        grid.push(line);
        locs.push(row.cells.iter().map(|p| p.tok.loc.clone()).collect());
    }
    let values = Values { grid, locs };
    let mut inequalities = Vec::new();
    let mut sign_locs = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, left_smaller, loc) in &row.signs {
            let (a, b) = ((r, *c), (r, c + 1));
            inequalities.push(order(a, b, *left_smaller));
            sign_locs.push(loc.clone());
        }
        for (above, signs) in &between {
            if *above != r {
                continue;
            }
            for (from, to, up, loc) in signs {
                let Some(c) = row.cells.iter().position(|p| p.from < *to && *from < p.to) else {
                    return Err(InputError::new(
                        loc.clone(),
                        format!(
                            "this sign is not under a cell of row {}: put each ^ or v straight \
                             under the cell it joins to the one below",
                            r + 1
                        ),
                    ));
                };
                inequalities.push(order((r, c), (r + 1, c), *up));
                sign_locs.push(loc.clone());
            }
        }
    }
    for (q, loc) in inequalities.iter().zip(sign_locs) {
        let val = |(r, c): (usize, usize)| values.grid[r][c];
        if let (Some(a), Some(b)) = (val(q.less), val(q.greater))
            && a >= b
        {
            return Err(InputError::new(
                loc,
                format!(
                    "this sign says {} < {}, but the givens there are {a} and {b}",
                    rc(q.less.0, q.less.1),
                    rc(q.greater.0, q.greater.1)
                ),
            ));
        }
    }
    Ok(SignGrid {
        values,
        inequalities,
    })
}

fn order(a: (usize, usize), b: (usize, usize), a_smaller: bool) -> Inequality {
    if a_smaller {
        Inequality {
            less: a,
            greater: b,
        }
    } else {
        Inequality {
            less: b,
            greater: a,
        }
    }
}

/// Splits a row's tokens into cells and the `<` `>` signs between them.
fn cell_row(toks: Vec<Placed>, loc: Location) -> Result<CellRow, InputError> {
    let mut cells: Vec<Placed> = Vec::new();
    let mut signs = Vec::new();
    let mut sign_next = false;
    let count = toks.len();
    for (i, p) in toks.into_iter().enumerate() {
        let t = p.tok.text.as_str();
        let sign = match t {
            "<" => Some(true),
            ">" => Some(false),
            _ => None,
        };
        match sign {
            Some(left_smaller) => {
                if cells.is_empty() || sign_next || i + 1 == count {
                    return Err(InputError::new(
                        p.tok.loc,
                        format!("'{t}' must stand between two cells of the row, like 1 {t} 2"),
                    ));
                }
                signs.push((cells.len() - 1, left_smaller, p.tok.loc));
                sign_next = true;
            }
            None if t.contains(['<', '>', '^']) => {
                return Err(InputError::new(
                    p.tok.loc,
                    format!("'{t}': separate values and signs with spaces, like 1 < 2"),
                ));
            }
            None if t.chars().count() > 1
                && t.chars().all(|c| c.is_ascii_digit() || c == '.')
                && t.contains('.') =>
            {
                return Err(InputError::new(
                    p.tok.loc,
                    format!("'{t}': write the cells of a futoshiki row apart, with spaces"),
                ));
            }
            None => {
                cells.push(p);
                sign_next = false;
            }
        }
    }
    Ok(CellRow { loc, cells, signs })
}

/// The futoshiki grid as the native format writes it (what [`parse`]
/// reads back): values with `<`/`>` between neighbours of a row, and
/// a line of `^`/`v` under the cells of a row whose neighbour below has a
/// sign, each straight under its cell.
pub(crate) fn write(givens: &Grid, signs: &[Inequality]) -> String {
    let n = givens.len();
    let text = |v: Option<u32>| v.map_or_else(|| ".".to_string(), |v| v.to_string());
    let cw = givens
        .iter()
        .flatten()
        .map(|v| text(*v).len())
        .max()
        .unwrap_or(1);
    let sign = |a, b| sign_between(signs, a, b);
    let mut rows = String::new();
    for (r, values) in givens.iter().enumerate() {
        let mut line = String::new();
        for (c, &v) in values.iter().enumerate() {
            let _ = write!(line, "{:<cw$}", text(v));
            if c + 1 < n {
                let s = match sign((r, c), (r, c + 1)) {
                    Some(true) => '<',
                    Some(false) => '>',
                    None => ' ',
                };
                let _ = write!(line, " {s} ");
            }
        }
        rows.push_str(line.trim_end());
        rows.push('\n');
        if r + 1 < n {
            let mut below = String::new();
            for c in 0..n {
                let s = match sign((r, c), (r + 1, c)) {
                    Some(true) => '^',
                    Some(false) => 'v',
                    None => ' ',
                };
                let _ = write!(below, "{s:<width$}", width = cw + 3);
            }
            let below = below.trim_end();
            if !below.is_empty() {
                rows.push_str(below);
                rows.push('\n');
            }
        }
    }
    rows
}
