//! Given digits against the units that must hold different values (rows,
//! columns, boxes, regions, diagonals): the check every reader makes (the
//! native format, line files, game IDs, imported links) before it builds a
//! puzzle, so that a repeated given is named where it was written. Not an
//! element of the registry: every puzzle has givens, and
//! `Puzzle::lowering` states them first.

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

/// Checks that no given repeats in a row, a column or (with a box shape) a
/// box. The message names the value, the unit and both cells. Runs for
/// every puzzle read (49,151 of them in the 17-clue file), so the units
/// are walked in place and named only for the message.
pub(crate) fn check_repeats(v: &Values, boxes: Option<(usize, usize)>) -> Result<(), InputError> {
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
    if let Some((br, bc)) = boxes {
        let mut k = 0;
        for r0 in (0..n).step_by(br.max(1)) {
            for c0 in (0..n).step_by(bc.max(1)) {
                k += 1;
                let cells = (r0..(r0 + br).min(n))
                    .flat_map(|r| (c0..(c0 + bc).min(n)).map(move |c| (r, c)));
                check_unit(v, cells, || format!("box {k}"), &mut seen)?;
            }
        }
    }
    Ok(())
}

/// A unit of cells that must hold different values, with its name.
pub(crate) type Unit = (String, Vec<(usize, usize)>);

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
