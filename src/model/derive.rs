//! Implied constraints: rules a model's own rules already force, stated
//! so that a solver sees them at once, as a killer-sudoku solver would.
//! Each is a [`Rule::Sum`] or [`Rule::Fixed`] in [`Group::Derived`], with
//! an origin that says how it was derived, e.g.
//! `derived: rows 1–3 minus cage a 20, cage b 9`.
//!
//! - A unit (an all-different row, column, box or region whose cells share
//!   a domain of exactly as many values as it has cells) holds each value
//!   once, so it sums to the sum of its domain.
//! - Innies: the cells of a set of whole adjacent units (one to three
//!   adjacent rows or columns, or one box or region) minus the sum cages
//!   wholly inside it sum to the units' total minus those cages' clues.
//! - Outies: the cells outside such a set of the sum cages that meet it
//!   sum to those cages' clues minus the units' total (when the cages
//!   cover the set).
//!
//! Only rules with fewer than [`MAX_CELLS`] cells are kept (a larger sum
//! says little). They use the shape alone (never the givens), so a shape
//! shared by many puzzles in a session is still one shape. The checker
//! ([`Model::check`]) ignores this group: answers are verified against the
//! puzzle's own rules.

use std::collections::{BTreeMap, BTreeSet};

use super::{CellId, Constraint, Group, Model, Rule, Target};

/// Innies and outies of at most this many cells are stated.
pub const MAX_CELLS: usize = 6;

/// Most adjacent rows (or columns) taken together.
const MAX_LINES: usize = 3;

/// A set of whole units and what its cells sum to.
struct Region {
    /// How to name it in an origin, e.g. "rows 1–3" or "box 4".
    name: String,
    cells: BTreeSet<CellId>,
    total: i64,
}

/// A sum cage: its origin, cells and clue.
struct Cage<'a> {
    origin: &'a str,
    cells: BTreeSet<CellId>,
    sum: i64,
}

/// The implied constraints of `model` (see the module comment), in a
/// stable order, without duplicates or restatements of its own rules.
pub fn implied(model: &Model) -> Vec<Constraint> {
    let units = units(model);
    let cages = cages(model);
    if units.is_empty() || cages.is_empty() || !disjoint(&cages) {
        return Vec::new();
    }
    let mut out: BTreeMap<Vec<CellId>, Constraint> = BTreeMap::new();
    let own: BTreeSet<Vec<CellId>> = cages
        .iter()
        .map(|c| c.cells.iter().copied().collect())
        .collect();
    let mut add = |cells: Vec<CellId>, sum: i64, origin: String| {
        if cells.is_empty() || cells.len() > MAX_CELLS || own.contains(&cells) {
            return;
        }
        let rule = match cells[..] {
            [cell] => Rule::Fixed { cell, value: sum },
            _ => Rule::Sum {
                cells: cells.clone(),
                target: Target::Eq(sum),
            },
        };
        out.entry(cells).or_insert(Constraint {
            rule,
            origin,
            group: Group::Derived,
        });
    };
    for region in regions(model, &units) {
        // Innies: the region minus the cages wholly inside it.
        let inside: Vec<&Cage> = cages
            .iter()
            .filter(|c| c.cells.is_subset(&region.cells))
            .collect();
        let mut innies = region.cells.clone();
        for c in &inside {
            innies.retain(|x| !c.cells.contains(x));
        }
        let sum = region.total - inside.iter().map(|c| c.sum).sum::<i64>();
        let minus: Vec<&str> = inside.iter().map(|c| c.origin).collect();
        let origin = match minus.is_empty() {
            true => format!("derived: {}", region.name),
            false => format!("derived: {} minus {}", region.name, minus.join(", ")),
        };
        add(innies.into_iter().collect(), sum, origin);
        // Outies: the cages meeting the region, minus the region.
        let meeting: Vec<&Cage> = cages
            .iter()
            .filter(|c| !c.cells.is_disjoint(&region.cells))
            .collect();
        let covered: BTreeSet<CellId> = meeting.iter().flat_map(|c| c.cells.clone()).collect();
        if !region.cells.is_subset(&covered) {
            continue;
        }
        let outies: Vec<CellId> = covered.difference(&region.cells).copied().collect();
        let sum = meeting.iter().map(|c| c.sum).sum::<i64>() - region.total;
        let names: Vec<&str> = meeting.iter().map(|c| c.origin).collect();
        let origin = format!("derived: {} minus {}", names.join(", "), region.name);
        add(outies, sum, origin);
    }
    let mut rules: Vec<Constraint> = units
        .iter()
        .map(|u| Constraint {
            rule: Rule::Sum {
                cells: u.cells.iter().copied().collect(),
                target: Target::Eq(u.total),
            },
            origin: format!("derived: {} holds each value once", u.name),
            group: Group::Derived,
        })
        .collect();
    rules.extend(out.into_values());
    rules
}

/// A unit: an all-different constraint of a line, box or region group
/// whose cells all have one domain of exactly as many values as cells.
struct Unit {
    group: Group,
    name: String,
    cells: BTreeSet<CellId>,
    total: i64,
}

fn units(model: &Model) -> Vec<Unit> {
    model
        .constraints
        .iter()
        .filter(|c| {
            matches!(
                c.group,
                Group::Rows | Group::Columns | Group::Boxes | Group::Regions
            )
        })
        .filter_map(|c| {
            let Rule::AllDifferent { cells } = &c.rule else {
                return None;
            };
            let first = model.cells.get(*cells.first()?)?;
            let (lo, hi) = (first.lo, first.hi);
            let same = cells.iter().all(|&id| {
                model
                    .cells
                    .get(id)
                    .is_some_and(|x| (x.lo, x.hi) == (lo, hi))
            });
            let set: BTreeSet<CellId> = cells.iter().copied().collect();
            let exact = i64::try_from(set.len()).ok() == hi.checked_sub(lo)?.checked_add(1);
            (same && exact && set.len() == cells.len()).then(|| Unit {
                group: c.group,
                name: c.origin.clone(),
                cells: set,
                total: (lo + hi) * (hi - lo + 1) / 2,
            })
        })
        .collect()
}

/// The sets of whole units innies and outies are taken over: each unit,
/// and two or three adjacent rows or columns (units of one group that
/// follow each other on the grid).
fn regions(model: &Model, units: &[Unit]) -> Vec<Region> {
    let mut out: Vec<Region> = units
        .iter()
        .map(|u| Region {
            name: u.name.clone(),
            cells: u.cells.clone(),
            total: u.total,
        })
        .collect();
    for (group, plural, pos) in [
        (
            Group::Rows,
            "rows",
            (|c: &super::Cell| c.row) as fn(&super::Cell) -> usize,
        ),
        (Group::Columns, "columns", |c: &super::Cell| c.col),
    ] {
        // Each line of the group by its position on the grid.
        let mut lines: BTreeMap<usize, &Unit> = BTreeMap::new();
        for u in units.iter().filter(|u| u.group == group) {
            let at: BTreeSet<usize> = u.cells.iter().map(|&id| pos(&model.cells[id])).collect();
            if let [p] = at.into_iter().collect::<Vec<_>>()[..] {
                lines.insert(p, u);
            }
        }
        for &p in lines.keys() {
            for k in 2..=MAX_LINES {
                let run: Option<Vec<&Unit>> = (p..p + k).map(|q| lines.get(&q).copied()).collect();
                let Some(run) = run else { break };
                out.push(Region {
                    name: format!("{plural} {}–{}", p + 1, p + k),
                    cells: run.iter().flat_map(|u| u.cells.iter().copied()).collect(),
                    total: run.iter().map(|u| u.total).sum(),
                });
            }
        }
    }
    out
}

/// The model's sum cages with an exact clue (single-cell cages are fixed
/// values).
fn cages(model: &Model) -> Vec<Cage<'_>> {
    model
        .constraints
        .iter()
        .filter(|c| c.group == Group::Cages)
        .filter_map(|c| match &c.rule {
            Rule::Sum {
                cells,
                target: Target::Eq(sum),
            } => Some(Cage {
                origin: &c.origin,
                cells: cells.iter().copied().collect(),
                sum: *sum,
            }),
            Rule::Fixed { cell, value } => Some(Cage {
                origin: &c.origin,
                cells: BTreeSet::from([*cell]),
                sum: *value,
            }),
            _ => None,
        })
        .collect()
}

/// Whether no cell is in two cages (innies and outies count each cage's
/// cells once).
fn disjoint(cages: &[Cage]) -> bool {
    let mut seen = BTreeSet::new();
    cages
        .iter()
        .flat_map(|c| &c.cells)
        .all(|&id| seen.insert(id))
}
