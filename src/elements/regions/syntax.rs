//! Jigsaw regions: a grid of labels in which every cell belongs to one
//! region, and every region has n cells (in one piece or several, as ISS's
//! and f-puzzles' jigsaws may have them).

use std::collections::BTreeMap;

use crate::error::InputError;
use crate::error::rc;

use crate::elements::cages::syntax::Labels;

/// The regions of an n×n label grid, each its cells in row-major order,
/// ordered by their first cell.
pub(crate) fn build(labels: &Labels, n: usize) -> Result<Vec<Vec<(usize, usize)>>, InputError> {
    let loc = |(r, c): (usize, usize)| {
        labels
            .locs
            .get(r)
            .and_then(|l| l.get(c))
            .cloned()
            .unwrap_or_default()
    };
    let mut order: Vec<&str> = Vec::new();
    let mut cells: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
    for (r, line) in labels.grid.iter().enumerate() {
        for (c, l) in line.iter().enumerate() {
            let Some(l) = l else {
                return Err(InputError::new(
                    loc((r, c)),
                    format!(
                        "{} has no region: every cell of a jigsaw belongs to one region, \
                         so write its region's label instead of .",
                        rc(r, c)
                    ),
                ));
            };
            let e = cells.entry(l).or_default();
            if e.is_empty() {
                order.push(l);
            }
            e.push((r, c));
        }
    }
    let mut regions = Vec::with_capacity(order.len());
    for label in order {
        let cs = cells.remove(label).unwrap_or_default();
        let first = cs.first().copied().unwrap_or((0, 0));
        if cs.len() != n {
            return Err(InputError::new(
                loc(first),
                format!(
                    "region '{label}' has {} cell{}, but every region of a {n}×{n} jigsaw has {n}",
                    cs.len(),
                    if cs.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        // A region may be in pieces (ISS's and f-puzzles' jigsaws allow
        // it): the rule is only that its cells hold each value once.
        regions.push(cs);
    }
    Ok(regions)
}
