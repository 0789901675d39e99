//! Today's [`Puzzle`] from what the three formats state in common: a
//! square grid, givens, regions, both diagonals and a recorded solution;
//! killer cages come as `killer-cage` elements and make the killer kind's
//! cages when they all have sums, on boxes. Each format's mapping (`fpuzzles::to_plain`,
//! `sudokupad::to_plain`, `iss::to_plain`) refuses what today's puzzle
//! cannot say and hands the rest here, where the checks a native file gets
//! (repeated givens, region and cage shapes, the solution against the
//! rules) are made once for all three.

use crate::elements::Element;
use crate::elements::Member;
use crate::elements::boxes::Boxes;
use crate::elements::boxes::suggested_box;
use crate::elements::cages::Cages;
use crate::elements::cages::label;
use crate::elements::diagonals::Diagonals;
use crate::elements::extra_region::ExtraRegion;
use crate::elements::givens::{self, Values};
use crate::elements::killer_cage::KillerCage as CageElement;
use crate::elements::kit::first_unreached;
use crate::elements::marks::{first_clash, held};
use crate::elements::regions::Regions;
use crate::error::Location;
use crate::error::rc;
use crate::puzzle::{About, Cage, Clue, Grid, Kind, Puzzle};

/// The smallest and largest grid side the importers read (f-puzzles' range).
pub const SIZES: std::ops::RangeInclusive<usize> = 4..=16;

/// A killer cage: its cells and sum.
pub type KillerCage = (Vec<(usize, usize)>, u64);

/// What a puzzle states, in the terms today's [`Puzzle`] has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plain {
    /// The grid side.
    pub n: usize,
    /// The title, if any.
    pub title: Option<String>,
    /// The author and the rules in words, if given.
    pub about: About,
    /// Given digits, `n`×`n`.
    pub givens: Grid,
    /// Each cell's region label; `None` is a cell in no region.
    pub regions: Vec<Vec<Option<i64>>>,
    /// Killer cages: cells and sum.
    pub cages: Vec<KillerCage>,
    /// Both main diagonals hold different digits.
    pub diagonals: bool,
    /// The recorded solution, `n`×`n`, if any.
    pub solution: Option<Grid>,
    /// Every other constraint, as the element registry's hooks read it.
    pub elements: Vec<Element>,
}

impl Plain {
    /// A blank `n`×`n` grid whose regions are the standard boxes.
    pub fn blank(n: usize) -> Plain {
        Plain {
            n,
            title: None,
            about: About::default(),
            givens: vec![vec![None; n]; n],
            regions: box_labels(n, default_box(n)),
            cages: Vec::new(),
            diagonals: false,
            solution: None,
            elements: Vec::new(),
        }
    }
}

/// The box shape f-puzzles and SudokuPad draw for an n×n grid: rows ×
/// columns of one box, the most square split with fewer rows than columns
/// (6 → 2×3, 8 → 2×4, 7 → 1×7: rows, where n has no split).
pub fn default_box(n: usize) -> (usize, usize) {
    suggested_box(n)
}

/// Each cell's box number for boxes of `shape`.
pub fn box_labels(n: usize, (br, bc): (usize, usize)) -> Vec<Vec<Option<i64>>> {
    let per_row = n / bc.max(1);
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| Some(((r / br.max(1)) * per_row + c / bc.max(1)) as i64))
                .collect()
        })
        .collect()
}

/// The cells of each region label, in order of first cell.
fn groups(regions: &[Vec<Option<i64>>]) -> Vec<Vec<(usize, usize)>> {
    let mut order: Vec<i64> = Vec::new();
    let mut cells: std::collections::BTreeMap<i64, Vec<(usize, usize)>> = Default::default();
    for (r, row) in regions.iter().enumerate() {
        for (c, l) in row.iter().enumerate() {
            if let Some(l) = l {
                let e = cells.entry(*l).or_default();
                if e.is_empty() {
                    order.push(*l);
                }
                e.push((r, c));
            }
        }
    }
    order.into_iter().filter_map(|l| cells.remove(&l)).collect()
}

/// The box shape whose boxes are exactly these regions, if any.
fn as_boxes(n: usize, regions: &[Vec<(usize, usize)>]) -> Option<(usize, usize)> {
    (1..=n)
        .filter(|r| n.is_multiple_of(*r))
        .map(|r| (r, n / r))
        .find(|&shape| groups(&box_labels(n, shape)) == regions)
}

/// A written cell that a refusal blames, for the importer to point at
/// where its format writes it (an f-puzzles cell's `value`, its place in
/// `solution`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blamed {
    /// The given at (row, column), from 0.
    Given(usize, usize),
    /// The recorded solution's cell at (row, column), from 0.
    Solution(usize, usize),
}

/// Why a puzzle is refused: what is wrong (one line, for `FILE:LINE: …`)
/// and the cell it is about, when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What is wrong, and how to fix it.
    pub message: String,
    /// The cell to point at, if any.
    pub blamed: Option<Blamed>,
}

impl From<String> for Refusal {
    fn from(message: String) -> Self {
        Refusal {
            message,
            blamed: None,
        }
    }
}

/// Each cell's coordinates as a location (line row + 1, column column +
/// 1). The checks shared with puzzle files place a complaint at the
/// location of the cell to blame; only the importer knows where its
/// format writes that cell, so it gets the cell back ([`cell_of`]).
fn cell_locations(n: usize) -> Vec<Vec<Location>> {
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| Location::default().at(r + 1, c + 1))
                .collect()
        })
        .collect()
}

/// The cell a location of [`cell_locations`] stands for.
fn cell_of(at: &Location) -> Option<(usize, usize)> {
    Some((at.line?.checked_sub(1)?, at.column?.checked_sub(1)?))
}

/// Today's puzzle named `name` from `plain`, or why not.
pub fn to_puzzle(plain: Plain, name: &str) -> Result<Puzzle, Refusal> {
    let n = plain.n;
    if !SIZES.contains(&n) {
        return Err(format!(
            "the grid is {n}×{n}; smtgrid imports grids from {}×{} to {}×{}",
            SIZES.start(),
            SIZES.start(),
            SIZES.end(),
            SIZES.end()
        )
        .into());
    }
    // Cells in no region (f-puzzles `region: null`, a SudokuPad puzzle
    // drawing no regions, ISS `.NoBoxes`) are bound by their row and
    // column only: the grid is a Latin square, a sudoku whose boxes are
    // its rows (1×n, adding nothing to the rows' rule), and each region
    // still drawn holds its values once, as an extra region.
    let free = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .find(|&(r, c)| plain.regions[r][c].is_none());
    let regions = groups(&plain.regions);
    let boxes = as_boxes(n, &regions);
    if boxes.is_none() {
        for (k, cells) in regions.iter().enumerate() {
            let first = cells[0];
            if cells.len() != n {
                // Beside cells in no region, a short region is most
                // likely one whose cells were taken out of it.
                let fix = free.map_or_else(String::new, |(r, c)| {
                    format!(
                        " ({} is in no region: give every cell a region, or no cell one \
                         for a Latin square)",
                        rc(r, c)
                    )
                });
                return Err(format!(
                    "region {} (from {}) has {} cells, but every region of a {n}×{n} grid has \
                     {n}{fix}",
                    k + 1,
                    rc(first.0, first.1),
                    cells.len()
                )
                .into());
            }
            // A region in pieces is read as ISS and f-puzzles draw it: its
            // cells hold each value once, wherever they are.
        }
    }
    let mut plain = plain;
    // Beyond rows, columns, boxes, regions and diagonals (the puzzle's
    // own), a given may not repeat in an extra region: the payload's, and
    // each region a partial layout keeps, named as a full layout's is.
    let extra = plain.elements.iter().filter_map(ExtraRegion::of);
    let mut units = givens::numbered("extra-region", extra.map(|e| &e.cells));
    let (boxes, regions) = if free.is_some() {
        units.extend(givens::numbered("region", &regions));
        plain.elements.extend(
            regions
                .into_iter()
                .map(|cells| Element::ExtraRegion(ExtraRegion { cells })),
        );
        (Some((1, n)), Vec::new())
    } else {
        (boxes, regions)
    };
    // Killer cages on boxes, every one with a sum and in one piece, none
    // sharing a cell with another, make the killer kind as before; any
    // other (no sum, on jigsaw regions, in pieces, overlapping as ISS
    // allows: each cage its own sum and distinct digits) stays a
    // killer-cage element of a sudoku or jigsaw.
    let killer: Vec<&CageElement> = plain.elements.iter().filter_map(CageElement::of).collect();
    let mut caged = std::collections::HashSet::new();
    let as_kind = boxes.is_some()
        && !killer.is_empty()
        && killer.iter().all(|k| {
            let mut cells = k.cells.clone();
            cells.sort_unstable();
            k.sum.is_some() && k.counted_once() && first_unreached(&cells).is_none()
        })
        && killer
            .iter()
            .all(|k| k.cells.iter().all(|&c| caged.insert(c)));
    if as_kind {
        let list: Vec<CageElement> = killer.into_iter().cloned().collect();
        plain
            .cages
            .extend(list.into_iter().map(|k| (k.cells, k.sum.unwrap_or(0))));
        plain.elements.retain(|e| CageElement::of(e).is_none());
    }
    let kind = match (boxes, plain.cages.is_empty()) {
        (Some(_), true) => Kind::Sudoku,
        (Some(_), false) => Kind::Killer,
        (None, true) => Kind::Jigsaw,
        (None, false) => {
            return Err(
                "killer cages on irregular regions are not yet supported (today's killer has boxes)"
                    .to_string()
                    .into(),
            );
        }
    };
    let mut p = Puzzle::blank(name, kind, n);
    p.title = plain.title;
    p.about = plain.about;
    match boxes {
        Some((rows, cols)) => p.set(Boxes { rows, cols }),
        None => p.set(Regions(regions)),
    }
    if plain.diagonals {
        p.set(Diagonals);
    }
    let cages = cages(&plain.cages, n)?;
    if !cages.is_empty() {
        p.set(Cages {
            cages,
            distinct: true,
        });
    }
    crate::elements::check_all(&plain.elements, n)?;
    // Statements of different elements on one cell (a given, its marks,
    // its candidates) leaving it no value.
    if let Some((_, why)) = first_clash(held(&plain.givens, &plain.elements, n)) {
        return Err(why.into());
    }
    p.extend(plain.elements);
    let cells = cell_locations(n);
    let blame = |e: &crate::InputError, part: fn(usize, usize) -> Blamed| {
        cell_of(&e.location).map(|(r, c)| part(r, c))
    };
    let values = Values {
        grid: plain.givens,
        locs: cells.clone(),
    };
    givens_repeat(&values, &p, units).map_err(|e| Refusal {
        message: format!(
            "the givens break a rule: {}: correct one of the two",
            e.message
        ),
        blamed: blame(&e, Blamed::Given),
    })?;
    p.givens = values.grid;
    if let Some(sol) = plain.solution {
        if let Some((r, c)) = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .find(|&(r, c)| p.givens[r][c].is_some() && p.givens[r][c] != sol[r][c])
        {
            return Err(Refusal {
                message: format!(
                    "the recorded solution has {} at {}, but the given there is {}: correct \
                     the one that is wrong",
                    sol[r][c].map_or_else(|| ".".to_string(), |v| v.to_string()),
                    rc(r, c),
                    p.givens[r][c].unwrap_or(0)
                ),
                blamed: Some(Blamed::Solution(r, c)),
            });
        }
        p.solution = Some(sol);
        p.check_solution(&cells, &Location::default())
            .map_err(|e| Refusal {
                blamed: blame(&e, Blamed::Solution),
                message: e.message,
            })?;
    }
    Ok(p)
}

/// Checks that no given repeats in a row, column, box, region, diagonal
/// or one of `extra` units.
fn givens_repeat(
    v: &Values,
    p: &Puzzle,
    extra: Vec<givens::Unit>,
) -> Result<(), crate::InputError> {
    givens::check_repeats(v, p.box_shape())?;
    let mut units = givens::numbered("region", p.regions());
    units.extend(extra);
    if p.diagonals() {
        units.extend(givens::diagonal_units(p.rows));
    }
    givens::check_units(v, units)
}

/// Today's cages from cells and sums: in the grid, apart, in one piece,
/// with a sum a cage of that many different digits can have.
fn cages(list: &[KillerCage], n: usize) -> Result<Vec<Cage>, String> {
    let mut owner = vec![vec![None; n]; n];
    let mut out = Vec::with_capacity(list.len());
    for (k, (cells, sum)) in list.iter().enumerate() {
        let mut cells = cells.clone();
        cells.sort_unstable();
        cells.dedup();
        let Some(&first) = cells.first() else {
            return Err(format!("killer cage {} has no cells", k + 1));
        };
        for &(r, c) in &cells {
            if r >= n || c >= n {
                return Err(format!(
                    "killer cage {} has a cell outside the {n}×{n} grid",
                    k + 1
                ));
            }
            if let Some(o) = owner[r][c] {
                return Err(format!(
                    "{} is in killer cages {} and {}: overlapping cages contradict each other",
                    rc(r, c),
                    o + 1,
                    k + 1
                ));
            }
            owner[r][c] = Some(k);
        }
        if let Some(apart) = first_unreached(&cells) {
            return Err(format!(
                "killer cage {} is in separate pieces ({} is not connected to {}): not yet \
                 supported",
                k + 1,
                rc(apart.0, apart.1),
                rc(first.0, first.1)
            ));
        }
        let len = cells.len() as u64;
        let n64 = n as u64;
        let (least, most) = (len * (len + 1) / 2, len * (2 * n64 + 1 - len.min(n64)) / 2);
        if len > n64 || *sum < least || *sum > most {
            return Err(format!(
                "killer cage {} ({} from {}) has the sum {sum}, which {} from 1 to {n} cannot \
                 make",
                k + 1,
                crate::output::plural(cells.len(), "cell", "cells"),
                rc(first.0, first.1),
                crate::output::plural(cells.len(), "digit", "different digits")
            ));
        }
        out.push(Cage {
            label: label(k),
            clue_text: sum.to_string(),
            clue: Clue::Sum(*sum),
            cells,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_are_found_from_regions() {
        let p = to_puzzle(Plain::blank(6), "t").expect("a 6x6");
        assert_eq!((p.kind, p.box_shape()), (Kind::Sudoku, Some((2, 3))));
        let mut tall = Plain::blank(6);
        tall.regions = box_labels(6, (3, 2));
        let p = to_puzzle(tall, "t").expect("3x2 boxes");
        assert_eq!(p.box_shape(), Some((3, 2)));
        let p = to_puzzle(Plain::blank(7), "t").expect("rows as boxes");
        assert_eq!(p.box_shape(), Some((1, 7)));
    }

    #[test]
    fn impossible_sums_and_overlaps_are_refused() {
        let mut k = Plain::blank(4);
        k.cages = vec![(vec![(0, 0), (0, 1)], 8)];
        assert!(to_puzzle(k.clone(), "t").is_err());
        k.cages = vec![(vec![(0, 0), (0, 1)], 7), (vec![(0, 1), (1, 1)], 3)];
        let e = to_puzzle(k, "t").expect_err("overlap").message;
        assert!(e.contains("overlapping"), "{e}");
    }
}
