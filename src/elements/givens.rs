//! Given digits: a puzzle file's `givens` and `solution` grids as text
//! ([`read`], [`read_solution`]), and the givens against the units that
//! must hold different values (rows, columns, boxes, regions, diagonals):
//! the check every reader makes (the native format, line files, game IDs,
//! imported links) before it builds a puzzle, so that a repeated given is
//! named where it was written. Not an element of the registry: every
//! puzzle has givens, and `Puzzle::lowering` states them first; the
//! solution is the puzzle's own too, and is read as its givens are.

use toml::Spanned;

use super::grid_text::{self as grid, split_rows};
use super::kakuro::Kakuro;
use super::{Member, TomlReader};
use crate::error::{InputError, Location, rc};
use crate::puzzle::Grid;

/// A grid of values with the location of every cell.
#[derive(Debug, Clone)]
pub struct Values {
    /// The values, `None` for blanks.
    pub grid: Grid,
    /// Where each cell was written.
    pub locs: Vec<Vec<Location>>,
}

impl Values {
    /// Where the cell at (r, c) was written (the file alone if unknown).
    pub fn loc(&self, r: usize, c: usize) -> Location {
        self.locs
            .get(r)
            .and_then(|l| l.get(c))
            .cloned()
            .unwrap_or_default()
    }
}

/// A grid of values as a puzzle file writes it: the values, and where
/// the grid's text starts (for a message about the grid as a whole).
#[derive(Debug, Clone)]
pub struct Written {
    /// The values, each with where it was written.
    pub values: Values,
    /// Where the grid's text starts.
    pub at: Location,
}

/// Reads a puzzle file's `givens`, if it has any: a square grid (the
/// message names `r.kind`) of values 1..=n, n its width (a row written
/// without spaces at most 9 wide).
pub fn read(r: &TomlReader) -> Result<Option<Written>, InputError> {
    let Some(g) = r.value_if_any::<Spanned<String>>("givens", "givens = \"\"\"...\"\"\"")? else {
        return Ok(None);
    };
    let origin = r.origin(&g);
    let rows = split_rows(g.get_ref(), &origin);
    grid::check_compact(&rows, "givens")?;
    let (h, w) = grid::check_shape(&rows, "givens", &origin)?;
    grid::check_square(h, w, "givens", r.kind.name(), &origin.start)?;
    Ok(Some(Written {
        values: grid::values(&rows, w as u32, "givens")?,
        at: origin.start,
    }))
}

/// Reads a puzzle file's `solution`, if it has one, once its grid is read
/// (`r.rows`, `r.elements`): a square grid of the same size, every cell
/// filled with 1..=n, or a kakuro's values in its white squares.
pub fn read_solution(r: &TomlReader) -> Result<Option<Written>, InputError> {
    let want = "solution = \"\"\"...\"\"\"";
    let Some(s) = r.value_if_any::<Spanned<String>>("solution", want)? else {
        return Ok(None);
    };
    let n = r.rows;
    let origin = r.origin(&s);
    let rows = split_rows(s.get_ref(), &origin);
    if let Some(Kakuro(layout)) = r.elements.iter().find_map(Kakuro::of) {
        let grid = super::kakuro::syntax::solution(&rows, layout, &origin)?;
        let locs = rows
            .iter()
            .map(|r| r.cells.iter().map(|t| t.loc.clone()).collect())
            .collect();
        return Ok(Some(Written {
            values: Values { grid, locs },
            at: origin.start,
        }));
    }
    grid::check_shape(&rows, "the solution", &origin)?;
    let v = grid::values(&rows, n as u32, "the solution")?;
    let (h, w) = (v.grid.len(), v.grid.first().map_or(0, Vec::len));
    if (h, w) != (n, n) {
        return Err(InputError::new(
            origin.start,
            format!("the solution is {h}×{w}, but the puzzle is {n}×{n}"),
        ));
    }
    grid::check_filled(&v)?;
    Ok(Some(Written {
        values: v,
        at: origin.start,
    }))
}

/// Checks that no given repeats in a row, a column or (with a box shape) a
/// box. The message names the value, the unit and both cells. Runs for
/// every puzzle read (49,151 of them in the 17-clue file), so the units
/// are walked in place and named only for the message.
pub(crate) fn check_repeats(v: &Values, boxes: Option<(usize, usize)>) -> Result<(), InputError> {
    check_lines(v)?;
    match boxes {
        Some(shape) => check_boxes(v, shape),
        None => Ok(()),
    }
}

/// Checks that no given repeats in a row, then in a column.
pub(crate) fn check_lines(v: &Values) -> Result<(), InputError> {
    let n = v.grid.len();
    let mut seen = Vec::with_capacity(n);
    for r in 0..n {
        check_unit(
            v,
            (0..n).map(|c| (r, c)),
            || format!("row {}", r + 1),
            &mut seen,
        )?;
    }
    for c in 0..n {
        check_unit(
            v,
            (0..n).map(|r| (r, c)),
            || format!("column {}", c + 1),
            &mut seen,
        )?;
    }
    Ok(())
}

/// Checks that no given repeats in a box of `br`×`bc` cells.
pub(crate) fn check_boxes(v: &Values, (br, bc): (usize, usize)) -> Result<(), InputError> {
    let n = v.grid.len();
    let mut seen = Vec::with_capacity(n);
    let mut k = 0;
    for r0 in (0..n).step_by(br.max(1)) {
        for c0 in (0..n).step_by(bc.max(1)) {
            k += 1;
            let cells =
                (r0..(r0 + br).min(n)).flat_map(|r| (c0..(c0 + bc).min(n)).map(move |c| (r, c)));
            check_unit(v, cells, || format!("box {k}"), &mut seen)?;
        }
    }
    Ok(())
}

/// A unit of cells that must hold different values, with its name.
pub(crate) type Unit = (String, Vec<(usize, usize)>);

/// `lists` as units named `NAME 1`, `NAME 2`, … in their order (`region
/// 3`, `extra-region 1`, `window 2`).
pub(crate) fn numbered<'a>(
    name: &str,
    lists: impl IntoIterator<Item = &'a Vec<(usize, usize)>>,
) -> Vec<Unit> {
    lists
        .into_iter()
        .enumerate()
        .map(|(k, cells)| (format!("{name} {}", k + 1), cells.clone()))
        .collect()
}

/// The two main diagonals of an n×n grid, as units.
pub(crate) fn diagonal_units(n: usize) -> Vec<Unit> {
    vec![
        ("the main diagonal".into(), (0..n).map(|i| (i, i)).collect()),
        (
            "the anti-diagonal".into(),
            (0..n).map(|i| (i, n - 1 - i)).collect(),
        ),
    ]
}

/// Checks that no given repeats within any of `units`.
pub(crate) fn check_units(v: &Values, units: Vec<Unit>) -> Result<(), InputError> {
    let mut seen = Vec::new();
    for (name, cells) in units {
        check_unit(v, cells, || name, &mut seen)?;
    }
    Ok(())
}

/// Checks that no value repeats in the unit of `cells`, named by `name`
/// for the message. `seen` is scratch space (the values met so far and
/// where), kept by the caller across units; a unit holds at most
/// [`MAX_SIZE`](crate::puzzle::MAX_SIZE) cells, so a scan of it is
/// cheaper than hashing.
fn check_unit(
    v: &Values,
    cells: impl IntoIterator<Item = (usize, usize)>,
    name: impl FnOnce() -> String,
    seen: &mut Vec<(u32, (usize, usize))>,
) -> Result<(), InputError> {
    seen.clear();
    for (r, c) in cells {
        let Some(Some(val)) = v.grid.get(r).and_then(|l| l.get(c)).copied() else {
            continue;
        };
        if let Some(&(_, (r0, c0))) = seen.iter().find(|(s, _)| *s == val) {
            let loc = v.loc(r, c);
            return Err(InputError::new(
                loc,
                format!(
                    "{val} appears twice in {} ({} and {})",
                    name(),
                    rc(r0, c0),
                    rc(r, c)
                ),
            ));
        }
        seen.push((val, (r, c)));
    }
    Ok(())
}
