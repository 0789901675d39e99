//! Implied constraints: rules a model's own rules already force, stated
//! so that a solver sees them at once, as a killer-sudoku solver would.
//! Each is in [`Group::Derived`], with an origin that says how it was
//! derived, e.g. `derived: rows 1–3 minus cage a 20, cage b 9`.
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
//! - Bounds ([`bounds`], for every puzzle): a side of a linear equation
//!   whose cells must differ sums to more (and less) than their domains
//!   say, and so does the other side: [`Rule::Linear`] bounds.
//! - Runs ([`consecutive`], for the elements whose cells hold distinct
//!   consecutive values, such as renban lines): the values every run of
//!   that length holds, one of each residue class, and the bounds of its
//!   smallest and largest value, as [`Rule::Contains`].
//!
//! Only innies and outies with fewer than [`MAX_CELLS`] cells are kept (a larger sum
//! says little). They use the shape alone (never the givens), so a shape
//! shared by many puzzles in a session is still one shape. The checker
//! ([`Model::check`]) ignores this group: answers are verified against the
//! puzzle's own rules.

use std::collections::{BTreeMap, BTreeSet};

use super::{CellId, Cmp, Constraint, Group, Model, Rule, Target};

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
    // A clue this far out is one no cells reach: the cage's own rule
    // makes the puzzle unsat, and sums over such clues would overflow.
    let far = i64::MAX / (cages.len() as i64 + 2);
    if cages
        .iter()
        .any(|c| c.sum.unsigned_abs() > far.unsigned_abs())
    {
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

/// What `cells` holding k distinct consecutive values (a renban line) in
/// their domains lo..=hi imply, as [`Rule::Contains`] a solver propagates
/// on (the pairwise differences below k it has do not say them):
///
/// - each value from hi − k + 1 to lo + k − 1 (when 2k > hi − lo + 1):
///   every run of k values from lo..=hi holds it (a renban of 7 on 1–9
///   holds 3 to 7);
/// - for k ≥ 3, one value of each residue class modulo k (k consecutive
///   values hold one of each: a renban of 3 holds one of 1, 4, 7, one of
///   2, 5, 8 and one of 3, 6, 9), unless a value above is in the class;
///   for two cells the pair's own difference rule is the whole relation,
///   which every encoding already states exactly.
///
/// The bounds of the run's smallest and largest value (at most
/// hi − k + 1, at least lo + k − 1) are not stated: k distinct values of
/// lo..=hi have them whether consecutive or not. Nor is anything for a run
/// of as many cells as values: its all-different already holds each
/// value. The caller states the cells' all-different and their meaning;
/// these are for elements to state as implied, and the checker judges
/// answers by the element's own rules.
pub fn consecutive(model: &Model, cells: &[CellId]) -> Vec<Rule> {
    let k = cells.len() as i64;
    let lo = cells.iter().map(|&id| model.cells[id].lo).min();
    let hi = cells.iter().map(|&id| model.cells[id].hi).max();
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Vec::new();
    };
    if k < 2 || hi - lo < k {
        // One cell says nothing, and all values nothing more; too few
        // values is unsat, for the solver to say.
        return Vec::new();
    }
    let every: Vec<i64> = (lo..=hi).collect();
    let forced: Vec<i64> = ((hi - k + 1).max(lo)..=(lo + k - 1).min(hi)).collect();
    let mut sets: Vec<Vec<i64>> = forced.iter().map(|&v| vec![v]).collect();
    if k >= 3 {
        for r in 0..k {
            let class: Vec<i64> = every
                .iter()
                .copied()
                .filter(|v| (v - r).rem_euclid(k) == 0)
                .collect();
            if !class.iter().any(|v| forced.contains(v)) {
                sets.push(class);
            }
        }
    }
    let mut seen = BTreeSet::new();
    sets.into_iter()
        .filter(|values| values.len() < every.len() && seen.insert(values.clone()))
        .map(|values| Rule::Contains {
            cells: cells.to_vec(),
            values,
        })
        .collect()
}

/// Bounds of the two sides of each linear equation over cells that must
/// differ: cells that pairwise share an all-different rule hold distinct
/// values, so they sum to at least the smallest such values
/// (1 + 2 + … + m, the largest coefficient on the smallest value) and at
/// most the largest, which their domains alone do not say. Each side of
/// `P = value + N` is then bounded by the other, and each group of a side
/// by the rest of its side, and each cell of a group by the rest of its
/// group. For a pill arrow whose 32-cell shaft winds through boxes, rows
/// and columns, the shaft sums to at least 98 and the pill (two different
/// digits) to at most 98, so both are 98, every group of the shaft holds
/// 1 to its size, and a cell of a group of four is at most 4. Stated as
/// [`Rule::Linear`] bounds of a side, of each group of two or more cells
/// (when a side has several), and of single cells, where they say more
/// than the cells' domains. In [`Group::Derived`] like the implied sums:
/// the checker does not judge answers by them. Uses the shape alone, as
/// [`implied`] does.
pub fn bounds(model: &Model) -> Vec<Constraint> {
    let mut out = Vec::new();
    let mut differ: Option<BTreeSet<(CellId, CellId)>> = None;
    for c in &model.constraints {
        let Rule::Linear {
            cells,
            coeffs,
            cmp: Cmp::Eq,
            value,
        } = &c.rule
        else {
            continue;
        };
        if c.group == Group::Derived || cells.len() < 3 {
            continue;
        }
        let differ = differ.get_or_insert_with(|| must_differ(model));
        // Each side as cells with the size of their coefficients:
        // P = value + N.
        let side = |positive: bool| -> Vec<(CellId, i64)> {
            cells
                .iter()
                .zip(coeffs)
                .filter(|&(_, &k)| k != 0 && (k > 0) == positive)
                .map(|(&id, &k)| (id, k.abs()))
                .collect()
        };
        let sides = [side(true), side(false)];
        if sides.iter().any(Vec::is_empty) {
            continue;
        }
        let (Some(p), Some(n)) = (
            parts(model, &sides[0], differ),
            parts(model, &sides[1], differ),
        ) else {
            continue;
        };
        if p.iter().chain(&n).all(|g| g.cells.len() == 1) {
            continue;
        }
        let range = |parts: &[Part]| -> (i64, i64) {
            parts.iter().fold((0, 0), |(l, h), g| (l + g.lo, h + g.hi))
        };
        let ((plo, phi), (nlo, nhi)) = (range(&p), range(&n));
        let (p1, p2) = (plo.max(value + nlo), phi.min(value + nhi));
        if p1 > p2 {
            // No solution: the solver says so.
            continue;
        }
        let origin = format!("derived: {}, its distinct cells", c.origin);
        let first = out.len();
        let mut state = |terms: &[(CellId, i64)], cmp: Cmp, value: i64| {
            let (cells, coeffs) = terms.iter().copied().unzip();
            let rule = Rule::Linear {
                cells,
                coeffs,
                cmp,
                value,
            };
            // A single-cell side's bound is its cell's bound too.
            if out[first..].iter().any(|c: &Constraint| c.rule == rule) {
                return;
            }
            out.push(Constraint {
                rule,
                origin: origin.clone(),
                group: Group::Derived,
            });
        };
        // A side's bounds are stated for the side with fewer cells: the
        // equation gives the other's at once, and each is a diagram in
        // `onehot`.
        let smaller = usize::from(sides[1].len() < sides[0].len());
        for (s, (terms, parts, (lo, hi))) in [
            (&sides[0], &p, (p1, p2)),
            (&sides[1], &n, (p1 - value, p2 - value)),
        ]
        .into_iter()
        .enumerate()
        {
            let (dlo, dhi) = weighted_range(model, terms);
            if s == smaller && lo > dlo {
                state(terms, Cmp::Ge, lo);
            }
            if s == smaller && hi < dhi {
                state(terms, Cmp::Le, hi);
            }
            let (slo, shi) = range(parts);
            for g in parts {
                // The rest of the side leaves the group this much.
                let (glo, ghi) = (g.lo.max(lo - (shi - g.hi)), g.hi.min(hi - (slo - g.lo)));
                let terms: Vec<(CellId, i64)> = g
                    .cells
                    .iter()
                    .copied()
                    .zip(g.weights.iter().copied())
                    .collect();
                if parts.len() > 1 && g.cells.len() > 1 {
                    state(&terms, Cmp::Ge, glo);
                    state(&terms, Cmp::Le, ghi);
                }
                // A cell of a group of one weight: the others take at
                // least the smallest m − 1 values and at most the largest.
                let w = g.weights[0];
                if g.weights.iter().any(|&k| k != w) {
                    continue;
                }
                let m = g.cells.len() as i64;
                let (a, b) = g.values;
                let others_lo = (m - 1) * a + (m - 1) * (m - 2) / 2;
                let others_hi = (m - 1) * b - (m - 1) * (m - 2) / 2;
                // The group's plain sum, rounded inwards.
                let (umax, umin) = (ghi.div_euclid(w), -(-glo).div_euclid(w));
                let (cmax, cmin) = (umax - others_lo, umin - others_hi);
                for &id in &g.cells {
                    let cell = &model.cells[id];
                    if cmax < cell.hi {
                        state(&[(id, 1)], Cmp::Le, cmax);
                    }
                    if cmin > cell.lo {
                        state(&[(id, 1)], Cmp::Ge, cmin);
                    }
                }
            }
        }
    }
    out
}

/// Cells of one side of an equation that pairwise differ, with the sizes
/// of their coefficients, and the range of their weighted sum.
struct Part {
    cells: Vec<CellId>,
    weights: Vec<i64>,
    /// The smallest and largest value of the group's cells' domains.
    values: (i64, i64),
    lo: i64,
    hi: i64,
}

/// The pairs of cells (smaller id first) some all-different rule of the
/// puzzle holds together.
fn must_differ(model: &Model) -> BTreeSet<(CellId, CellId)> {
    let mut pairs = BTreeSet::new();
    for c in model
        .constraints
        .iter()
        .filter(|c| c.group != Group::Derived)
    {
        if let Rule::AllDifferent { cells } = &c.rule {
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    pairs.insert((a.min(b), a.max(b)));
                }
            }
        }
    }
    pairs
}

/// Most orders [`parts`] tries.
const PARTITION_TRIES: u64 = 64;

/// `side` (cells with their coefficients) split into groups of cells that
/// pairwise differ and share a coefficient's size, trying to make the
/// bound Σ (1 + … + m) large: since that grows with the square of a
/// group's size, large groups are what count. A best partition is hard to
/// find in general; greedy passes (largest group first, grown in some
/// order of the cells), each improved by moving cells into groups no
/// smaller than their own, over the cells' own order and a fixed series
/// of shuffles, find the partitions a setter means: every 32-cell shaft
/// of the ISS "Long sums" pill arrows gets its 98. `None` when a group
/// cannot hold distinct values in its cells' domains (the model has no
/// solution, and the solver is left to say so).
fn parts(
    model: &Model,
    side: &[(CellId, i64)],
    differ: &BTreeSet<(CellId, CellId)>,
) -> Option<Vec<Part>> {
    // Which of the side's cells differ, looked up once: each pass asks
    // O(cells³) times.
    let n = side.len();
    let mut differs = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            let (a, b) = (side[i].0, side[j].0);
            differs[i * n + j] = differ.contains(&(a.min(b), a.max(b)));
        }
    }
    let score = |groups: &[Vec<usize>]| -> usize {
        groups.iter().map(|g| g.len() * (g.len() + 1) / 2).sum()
    };
    let mut order: Vec<usize> = (0..n).collect();
    // A small fixed generator (xorshift): the same partition every run.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let tries = if n > 8 { PARTITION_TRIES } else { 1 };
    let mut best: Vec<Vec<usize>> = Vec::new();
    for t in 0..tries {
        if t > 0 {
            for i in (1..n).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                order.swap(i, (state % (i as u64 + 1)) as usize);
            }
        }
        let groups = improve(greedy(&order, &differs, n), &differs, n);
        if best.is_empty() || score(&groups) > score(&best) {
            best = groups;
        }
    }
    let mut out = Vec::with_capacity(best.len());
    for mut g in best {
        g.sort_unstable();
        let cells: Vec<CellId> = g.iter().map(|&j| side[j].0).collect();
        let weights: Vec<i64> = g.iter().map(|&j| side[j].1).collect();
        let lo_v = cells.iter().map(|&id| model.cells[id].lo).min()?;
        let hi_v = cells.iter().map(|&id| model.cells[id].hi).max()?;
        if hi_v - lo_v + 1 < i64::try_from(cells.len()).ok()? {
            return None;
        }
        // Distinct values, the largest coefficient on the smallest value
        // (and on the largest): lo_v, lo_v + 1, … and hi_v, hi_v − 1, …
        let mut desc = weights.clone();
        desc.sort_unstable_by(|a, b| b.cmp(a));
        let mut lo = 0i64;
        let mut hi = 0i64;
        for (i, &k) in desc.iter().enumerate() {
            let i = i as i64;
            lo = lo.checked_add(k.checked_mul(lo_v + i)?)?;
            hi = hi.checked_add(k.checked_mul(hi_v - i)?)?;
        }
        out.push(Part {
            cells,
            weights,
            values: (lo_v, hi_v),
            lo,
            hi,
        });
    }
    Some(out)
}

/// One greedy pass: repeatedly the largest group grown from some cell,
/// adding the cells in `order` that differ from all taken so far.
fn greedy(order: &[usize], differs: &[bool], n: usize) -> Vec<Vec<usize>> {
    let mut left = order.to_vec();
    let mut out = Vec::new();
    while !left.is_empty() {
        let mut best: Vec<usize> = Vec::new();
        for &seed in &left {
            let mut g = vec![seed];
            for &j in &left {
                if j != seed && g.iter().all(|&x| differs[x * n + j]) {
                    g.push(j);
                }
            }
            if g.len() > best.len() {
                best = g;
            }
        }
        left.retain(|j| !best.contains(j));
        out.push(best);
    }
    out
}

/// Moves cells into other groups at least as large as their own, which
/// differ from every cell there, while one can move: each move raises the
/// bound (a group of a cells and one of b ≥ a become a − 1 and b + 1).
fn improve(mut groups: Vec<Vec<usize>>, differs: &[bool], n: usize) -> Vec<Vec<usize>> {
    'again: loop {
        for a in 0..groups.len() {
            for (k, &c) in groups[a].iter().enumerate() {
                let to = (0..groups.len()).find(|&b| {
                    b != a
                        && groups[b].len() >= groups[a].len()
                        && groups[b].iter().all(|&x| differs[x * n + c])
                });
                if let Some(b) = to {
                    groups[a].remove(k);
                    groups[b].push(c);
                    groups.retain(|g| !g.is_empty());
                    continue 'again;
                }
            }
        }
        return groups;
    }
}

/// The range Σ k·x takes over `terms` by their cells' domains alone.
fn weighted_range(model: &Model, terms: &[(CellId, i64)]) -> (i64, i64) {
    terms.iter().fold((0, 0), |(lo, hi), &(id, k)| {
        let (a, b) = (k * model.cells[id].lo, k * model.cells[id].hi);
        (lo + a.min(b), hi + a.max(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(text: &str) -> Model {
        let loc = crate::Location::file("t.toml");
        let p = crate::parse::parse_str(text, &loc, None).expect("parses");
        crate::lower::lower(&p[0])
    }

    fn derived(m: &Model) -> Vec<&Rule> {
        m.constraints
            .iter()
            .filter(|c| c.group == Group::Derived)
            .map(|c| &c.rule)
            .collect()
    }

    /// Every assignment of `rule`'s cells (from their domains) that keeps
    /// it and the all-different rules among those cells keeps each derived
    /// rule on those cells too; returns how many there were.
    fn sound_on(m: &Model, rule: &Rule) -> usize {
        let cells = rule.cells().to_vec();
        let own: Vec<&Rule> = m
            .constraints
            .iter()
            .filter(|c| c.group != Group::Derived)
            .map(|c| &c.rule)
            .filter(|r| matches!(r, Rule::AllDifferent { .. }))
            .collect();
        let at = |id: CellId| cells.iter().position(|&c| c == id);
        let mut vals: Vec<i64> = cells.iter().map(|&id| m.cells[id].lo).collect();
        let mut kept = 0;
        loop {
            let differ = own.iter().all(|r| {
                let v: Vec<i64> = r
                    .cells()
                    .iter()
                    .filter_map(|&id| at(id))
                    .map(|i| vals[i])
                    .collect();
                let mut s = v.clone();
                s.sort_unstable();
                s.dedup();
                s.len() == v.len()
            });
            if differ && rule.holds(&vals) {
                kept += 1;
                for d in derived(m) {
                    let v: Option<Vec<i64>> = d
                        .cells()
                        .iter()
                        .map(|&id| at(id).map(|i| vals[i]))
                        .collect();
                    let v = v.expect("a derived bound is over the rule's cells");
                    assert!(d.holds(&v), "{d:?} broken by {vals:?}");
                }
            }
            // The next assignment, as an odometer.
            let mut i = 0;
            while i < vals.len() && vals[i] == m.cells[cells[i]].hi {
                vals[i] = m.cells[cells[i]].lo;
                i += 1;
            }
            if i == vals.len() {
                return kept;
            }
            vals[i] += 1;
        }
    }

    /// A blank `n`×`n` sudoku with one renban along row 1 from r1c1, of
    /// `len` cells.
    fn renban(n: usize, len: usize) -> Model {
        let row = ".".repeat(n);
        let givens = vec![row; n].join("\n");
        let cells: Vec<String> = (1..=len).map(|c| format!("r1c{c}")).collect();
        let boxes = match n {
            6 => "box = \"2x3\"\n",
            8 => "box = \"2x4\"\n",
            _ => "",
        };
        lowered(&format!(
            "kind = \"sudoku\"\n{boxes}givens = \"\"\"\n{givens}\n\"\"\"\n\
             [[renban]]\ncells = \"{}\"\n",
            cells.join(" ")
        ))
    }

    #[test]
    fn every_assignment_keeping_a_renban_keeps_what_it_implies() {
        for (n, lens) in [(4, 2..=4), (6, 2..=6), (8, 2..=6)] {
            for len in lens {
                let m = renban(n, len);
                let cells: Vec<CellId> = (0..len).collect();
                let own: Vec<&Rule> = m
                    .constraints
                    .iter()
                    .filter(|c| c.group != Group::Derived)
                    .map(|c| &c.rule)
                    .filter(|r| r.cells().iter().all(|id| cells.contains(id)))
                    .collect();
                let implied: Vec<&Rule> = derived(&m)
                    .into_iter()
                    .filter(|r| matches!(r, Rule::Contains { .. }))
                    .collect();
                assert!(implied.iter().all(|r| r.cells() == cells.as_slice()));
                if len >= 3 && len < n {
                    assert!(!implied.is_empty(), "{n}×{n}, {len} cells: nothing implied");
                }
                // Every assignment of the line's cells, as an odometer.
                let mut vals = vec![1i64; len];
                let mut kept = 0;
                loop {
                    let at =
                        |r: &Rule| -> Vec<i64> { r.cells().iter().map(|&id| vals[id]).collect() };
                    if own.iter().all(|r| r.holds(&at(r))) {
                        kept += 1;
                        for r in &implied {
                            assert!(r.holds(&at(r)), "{n}×{n}: {r:?} broken by {vals:?}");
                        }
                    }
                    let Some(i) = vals.iter().position(|&v| v < n as i64) else {
                        break;
                    };
                    vals[..i].fill(1);
                    vals[i] += 1;
                }
                // The runs of `len` values, each in every order.
                let orders: usize = (1..=len).product();
                assert_eq!(kept, (n - len + 1) * orders, "{n}×{n}, {len} cells");
            }
        }
    }

    #[test]
    fn a_renban_implies_its_values_its_classes_and_its_ends() {
        let values = |m: &Model| -> Vec<Vec<i64>> {
            derived(m)
                .into_iter()
                .filter_map(|r| match r {
                    Rule::Contains { values, .. } => Some(values.clone()),
                    _ => None,
                })
                .collect()
        };
        // Seven cells on 1–9: each of 3 to 7, and one of 1 and 8 (1–7
        // holds 1, 2–8 and 3–9 hold 8), one of 2 and 9.
        let seven = renban(9, 7);
        assert_eq!(
            values(&seven),
            vec![
                vec![3],
                vec![4],
                vec![5],
                vec![6],
                vec![7],
                vec![1, 8],
                vec![2, 9]
            ]
        );
        // Three cells: one of each class modulo 3.
        assert_eq!(
            values(&renban(9, 3)),
            vec![vec![3, 6, 9], vec![1, 4, 7], vec![2, 5, 8]]
        );
        // Five on 1–6: 2 to 5, and one of the class of 1 and 6.
        assert_eq!(
            values(&renban(6, 5)),
            vec![vec![2], vec![3], vec![4], vec![5], vec![1, 6]]
        );
        // Two cells: their difference of one is the whole relation; a
        // renban of the whole row holds every value as its all-different
        // says: nothing to add.
        assert!(values(&renban(9, 2)).is_empty());
        assert!(values(&renban(4, 4)).is_empty());
        // The checker judges answers by the renban's own rules.
        assert!(seven.constraints.iter().any(|c| c.group == Group::Derived));
    }

    #[test]
    fn a_pill_whose_shaft_is_a_row_holds_its_sum() {
        // A shaft of a whole row sums to 45, so the pill reads 45.
        let m = lowered(
            "kind = \"sudoku\"\ngivens = \"\"\"\n.........\n.........\n.........\n\
             .........\n.........\n.........\n.........\n.........\n.........\n\"\"\"\n\
             [[arrow]]\ncells = \"r1c1 r1c2 r2c1 r2c2 r2c3 r2c4 r2c5 r2c6 r2c7 r2c8 r2c9\"\n\
             circle = 2\n",
        );
        let pill = |cmp| Rule::Linear {
            cells: vec![0, 1],
            coeffs: vec![10, 1],
            cmp,
            value: 45,
        };
        let d = derived(&m);
        assert!(
            d.contains(&&pill(Cmp::Ge)) && d.contains(&&pill(Cmp::Le)),
            "{d:?}"
        );
    }

    #[test]
    fn clues_out_of_every_reach_derive_nothing_and_do_not_overflow() {
        // Rows 1–2 hold cages a and b, whose clues add past i64::MAX: the
        // cages' own rules make it unsat; the implied sums must neither
        // wrap nor panic.
        let m = lowered(
            "kind = \"killer\"\ncages = \"\"\"\naabb\naabb\nccdd\nccdd\n\"\"\"\n\
             [clues]\na = 9223372036854775807\nb = 9223372036854775807\nc = 10\nd = 10\n",
        );
        assert!(implied(&m).is_empty());
    }

    #[test]
    fn bounds_follow_from_the_equation_and_distinct_cells() {
        // A 4×4 pill r1c1 r2c1 (two digits of a column: 12 to 43) whose
        // shaft is the bottom-left box (10) and r4c3 (unlike r4c1, r4c2):
        // 11 to 14, so the pill is 12 to 14.
        let m = lowered(
            "kind = \"sudoku\"\ngivens = \"\"\"\n....\n....\n....\n....\n\"\"\"\n\
             [[arrow]]\ncells = \"r1c1 r2c1 r3c1 r4c1 r3c2 r4c2 r4c3\"\ncircle = 2\n",
        );
        let pill = |cmp, value| Rule::Linear {
            cells: vec![0, 4],
            coeffs: vec![10, 1],
            cmp,
            value,
        };
        assert!(
            derived(&m).contains(&&pill(Cmp::Ge, 12)),
            "{:?}",
            derived(&m)
        );
        assert!(derived(&m).contains(&&pill(Cmp::Le, 14)));
        let arrow = m
            .constraints
            .iter()
            .find(|c| c.origin.starts_with("arrow"))
            .expect("the arrow");
        assert!(sound_on(&m, &arrow.rule) > 0);
    }
}
