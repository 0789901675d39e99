//! `bv`: one unsigned bit-vector per undecided cell, of the least width that
//! holds the largest value (QF_BV). Sums, products, differences and ratios
//! are computed after zero-extending to a width in which they cannot
//! overflow, so modular wrap-around never makes a wrong tuple look right.
//! Decided cells (givens and what propagation fixed) are written as
//! constants, not variables.
//!
//! Size: linear in the cells and constraint sizes, with widths that grow
//! only logarithmically. Cells are `bits(largest value)` wide; a sum of k
//! cells is `bits(k × largest)` wide; a product is as wide as its full
//! product may be only while that is at most twice `bits(clue) + cell
//! width`, otherwise it is a chain of named partial products, each
//! asserted at most the clue (cells are at least 1, so no partial product
//! exceeds the whole) and `bits(clue) + cell width` wide. Difference and
//! ratio cages of more than `lia::QUADRATIC_MAX` cells name the sum (the
//! product, bounded by the largest value squared) of all cells once. So a
//! script has O((cells + Σ constraint sizes) × log(values × cells))
//! symbols (plus the pairs of a `distinct`, which the solver expands).

use super::lia::QUADRATIC_MAX;
use super::propagate::Prepared;
use super::{
    Body, CellRead, Decoder, Dims, Interrupted, Settings, alternatives, candidates, cell_name,
    append_constraint, log2_ceil, stretch_terms, summed_if,
};
use crate::cancel::Cancel;
use crate::model::{CellId, Cmp, Group, Model, Rule, Stretch, Target};
use crate::smtlib::{Script, Sort, Term};

/// Bits needed to write `v` (at least 1).
fn bits(v: u128) -> u32 {
    (128 - v.leading_zeros()).max(1)
}

/// A width in which the sum of values up to `his` cannot overflow.
pub(crate) fn sum_width(his: &[u128]) -> u32 {
    let total = his.iter().fold(0u128, |a, &h| a.saturating_add(h));
    if total == u128::MAX {
        his.iter().map(|&h| bits(h)).sum::<u32>() + 64
    } else {
        bits(total)
    }
}

/// A width in which the product of values up to `his` cannot overflow.
pub(crate) fn product_width(his: &[u128]) -> u32 {
    match his.iter().try_fold(1u128, |a, &h| a.checked_mul(h.max(1))) {
        Some(p) => bits(p),
        // hi < 2^bits(hi), so the product is below 2^(sum of the bits).
        None => his.iter().map(|&h| bits(h)).sum(),
    }
}

/// A bit-vector literal; `(_ bvN W)` when wider than 64 bits.
fn lit(value: u128, width: u32) -> Term {
    match u64::try_from(value) {
        Ok(v) if width <= 64 => Term::Bv { value: v, width },
        _ => Term::sym(format!("(_ bv{value} {width})")),
    }
}

fn zext(t: Term, from: u32, to: u32) -> Term {
    if to > from {
        Term::app(format!("(_ zero_extend {})", to - from), vec![t])
    } else {
        t
    }
}

fn fold(op: &str, mut ts: Vec<Term>, unit: Term) -> Term {
    match ts.len() {
        0 => unit,
        1 => ts.remove(0),
        _ => Term::app(op, ts),
    }
}

/// Whether every cell value and rule constant is non-negative, as unsigned
/// bit-vectors need.
fn unsigned(model: &Model) -> bool {
    model.cells.iter().all(|c| c.lo >= 0 && c.lo <= c.hi)
        && model.constraints.iter().all(|c| match &c.rule {
            Rule::Fixed { value, .. }
            | Rule::Product { value, .. }
            | Rule::Difference { value, .. }
            | Rule::Ratio { value, .. } => *value >= 0,
            Rule::Visible { count, .. } => *count >= 0,
            Rule::Table { tuples, .. } => tuples.iter().flatten().all(|&v| v >= 0),
            Rule::Contains { values, .. } => values.iter().all(|&v| v >= 0),
            // Terms move to the side their sign puts them on; a positional
            // sum's negative constants are values no cell holds.
            Rule::PositionalSum { .. }
            | Rule::Sum { .. }
            | Rule::AllDifferent { .. }
            | Rule::Less { .. }
            | Rule::Linear { .. } => true,
        })
}

/// Symbol occurrences of the script, counting each literal (up to
/// 2·(64 + cell width) bits) as several symbols: four per cell and one per
/// candidate (domains, propagation), eight per cell of each constraint
/// plus eight, and eight per alternative of a sum clue `A|B|…` (each
/// compares the once-named sum). Covers the integer form used for
/// negative values too.
pub(super) fn symbols(model: &Model, d: &Dims) -> u64 {
    let per = 8 * (2 * (64 + log2_ceil(d.top)) / 8 + 1);
    per * (4 * d.n
        + model.cells.iter().map(candidates).sum::<u64>()
        + model
            .constraints
            .iter()
            .map(|c| 8 * c.rule.cells().len() as u64 + 8 + 8 * alternatives(&c.rule))
            .sum::<u64>())
}

pub(super) fn encode(
    model: &Model,
    settings: &Settings,
    cancel: &Cancel,
) -> Result<Body, Interrupted> {
    if !unsigned(model) {
        // Lowering only makes positive domains and clues; a hand-built
        // model with negative ones gets the integer encoding instead of a
        // wrong unsigned one.
        return super::lia::encode_ints(model, cancel);
    }
    let prep = Prepared::new(model, settings.options.plain, cancel)?;
    let width = bits(model.cells.iter().map(|c| c.hi as u128).max().unwrap_or(1));
    let mut e = Emitter {
        model,
        prep: &prep,
        width,
        s: Script::new(),
        aux: 0,
    };
    if let Some(why) = &prep.conflict {
        e.s.comment(&format!("no solution: {why}"));
        e.s.assert(&Term::sym("false"));
        let cells = model.cells.iter().map(|c| CellRead::Known(c.lo)).collect();
        return Ok(Body {
            script: e.s,
            logic: "QF_BV",
            decoder: Decoder { cells },
            spans: Vec::new(),
        });
    }
    e.cells();
    let mut group: Option<Group> = None;
    let mut spans = vec![None; model.constraints.len()];
    for (i, c) in model.constraints.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(Interrupted);
        }
        // The constraint's commands go into a script of their own, kept
        // only if it needs some.
        let whole = std::mem::take(&mut e.s);
        let t = match &c.rule {
            // Its cells all decided, and they satisfy it.
            rule if prep.settled(rule) == Some(true) => None,
            Rule::Fixed { cell, value } => Some(Term::eq(e.cell(*cell), lit(*value as u128, width))),
            Rule::AllDifferent { cells } => {
                let open: Vec<Term> = e.open(cells).into_iter().map(|c| e.cell(c)).collect();
                (open.len() >= 2).then(|| Term::app("distinct", open))
            }
            Rule::Sum { cells, target } => Some(e.sum(cells, target)),
            Rule::Product { cells, value } => Some(e.product(cells, *value)),
            Rule::Difference { cells, value } => Some(e.largest_is(cells, *value, false)),
            Rule::Ratio { cells, value } => Some(e.largest_is(cells, *value, true)),
            Rule::Less { cells: [a, b] } => Some(Term::app("bvult", vec![e.cell(*a), e.cell(*b)])),
            Rule::Visible { cells, count } => Some(e.visible(cells, *count)),
            Rule::Linear {
                cells,
                coeffs,
                cmp,
                value,
            } => Some(e.linear(cells, coeffs, *cmp, *value)),
            // One conjunction of equalities per allowed tuple.
            Rule::Table { cells, tuples } => Some(Term::or(
                tuples
                    .iter()
                    .map(|t| {
                        Term::and(
                            cells
                                .iter()
                                .zip(t)
                                .map(|(&c, &v)| Term::eq(e.cell(c), lit(v as u128, width)))
                                .collect(),
                        )
                    })
                    .collect(),
            )),
            Rule::PositionalSum {
                cells,
                stretch,
                value,
            } => Some(e.positional(cells, *stretch, *value)),
            // Some cell equals some value.
            Rule::Contains { cells, values } => {
                let mut eqs = Vec::new();
                for &c in cells {
                    for &v in values {
                        eqs.push(Term::eq(e.cell(c), lit(v as u128, width)));
                    }
                }
                Some(Term::or(eqs))
            }
        };
        if let Some(t) = t {
            e.s.assert(&t);
        }
        let part = std::mem::replace(&mut e.s, whole);
        spans[i] = append_constraint(&mut e.s, &mut group, c, part);
    }
    let cells = (0..model.cells.len())
        .map(|c| match prep.decided(c) {
            Some(v) => CellRead::Known(v),
            None => CellRead::Bv(cell_name(&model.cells[c]), width),
        })
        .collect();
    Ok(Body {
        script: e.s,
        logic: "QF_BV",
        decoder: Decoder { cells },
        spans,
    })
}

struct Emitter<'a> {
    model: &'a Model,
    prep: &'a Prepared,
    /// Width of every cell.
    width: u32,
    s: Script,
    /// Auxiliary constants made so far (`s1`, `s2`, …).
    aux: usize,
}

impl Emitter<'_> {
    /// The cell's constant, or its value when decided.
    fn cell(&self, c: CellId) -> Term {
        match self.prep.decided(c) {
            Some(v) => lit(v as u128, self.width),
            None => Term::sym(cell_name(&self.model.cells[c])),
        }
    }

    fn open(&self, cells: &[CellId]) -> Vec<CellId> {
        cells
            .iter()
            .copied()
            .filter(|&c| self.prep.decided(c).is_none())
            .collect()
    }

    /// Largest value each cell can hold.
    fn his(&self, cells: &[CellId]) -> Vec<u128> {
        cells
            .iter()
            .map(|&c| self.prep.doms[c].last().copied().unwrap_or(0) as u128)
            .collect()
    }

    /// Declarations and candidate values of the undecided cells.
    fn cells(&mut self) {
        let w = self.width;
        let open = self.open(&(0..self.model.cells.len()).collect::<Vec<_>>());
        if open.is_empty() {
            // Propagation decided every cell: no section to head.
            return;
        }
        self.s.comment(if self.prep.plain {
            "cells"
        } else {
            "cells (propagated: decided cells are constants)"
        });
        for &c in &open {
            self.s
                .declare_const(&cell_name(&self.model.cells[c]), Sort::BitVec(w));
        }
        let whole = std::mem::take(&mut self.s);
        for c in 0..self.model.cells.len() {
            if self.prep.decided(c).is_some() {
                continue;
            }
            let x = self.cell(c);
            let d = &self.prep.doms[c];
            let (lo, hi) = (
                d.first().copied().unwrap_or(0),
                d.last().copied().unwrap_or(0),
            );
            let t = if (hi - lo) as usize + 1 == d.len() {
                let mut parts = Vec::new();
                if lo > 0 {
                    parts.push(Term::app("bvule", vec![lit(lo as u128, w), x.clone()]));
                }
                if (hi as u128) < (1u128 << w) - 1 {
                    parts.push(Term::app("bvule", vec![x, lit(hi as u128, w)]));
                }
                if parts.is_empty() {
                    continue;
                }
                Term::and(parts)
            } else {
                Term::or(
                    d.iter()
                        .map(|&v| Term::eq(x.clone(), lit(v as u128, w)))
                        .collect(),
                )
            };
            self.s.assert(&t);
        }
        let domains = std::mem::replace(&mut self.s, whole);
        if !domains.is_empty() {
            self.s.comment("domains");
            self.s.append(domains);
        }
    }

    /// The cells zero-extended to `to` bits, decided ones folded into one
    /// constant by `op` (`None` when there are none).
    fn operands(&self, cells: &[CellId], to: u32, product: bool) -> Vec<Term> {
        let (known, open) = self.prep.split(cells);
        let mut ts: Vec<Term> = open
            .iter()
            .map(|&c| zext(self.cell(c), self.width, to))
            .collect();
        if !known.is_empty() {
            let k = if product {
                known
                    .iter()
                    .fold(1u128, |a, &v| a.saturating_mul(v as u128))
            } else {
                known.iter().map(|&v| v as u128).sum()
            };
            if k != if product { 1 } else { 0 } || ts.is_empty() {
                ts.push(lit(k, to));
            }
        }
        ts
    }

    /// A weighted sum compared with a value, unsigned: the terms with a
    /// positive coefficient (and a negative value) on the left, the others
    /// on the right, in a width neither side overflows.
    fn linear(&self, cells: &[CellId], coeffs: &[i64], cmp: Cmp, value: i64) -> Term {
        let his = self.his(cells);
        let (mut left_hi, mut right_hi) = (0u128, 0u128);
        for (&k, &hi) in coeffs.iter().zip(&his) {
            let side = if k > 0 { &mut left_hi } else { &mut right_hi };
            *side = side.saturating_add(u128::from(k.unsigned_abs()).saturating_mul(hi));
        }
        let constant = u128::from(value.unsigned_abs());
        if value < 0 {
            left_hi = left_hi.saturating_add(constant);
        } else {
            right_hi = right_hi.saturating_add(constant);
        }
        let w = bits(left_hi.max(right_hi)).max(self.width) + 1;
        let mut left = Vec::new();
        let mut right = Vec::new();
        for (&c, &k) in cells.iter().zip(coeffs) {
            let x = zext(self.cell(c), self.width, w);
            let t = match k.unsigned_abs() {
                0 => continue,
                1 => x,
                m => Term::app("bvmul", vec![lit(u128::from(m), w), x]),
            };
            if k > 0 { left.push(t) } else { right.push(t) }
        }
        if value < 0 {
            left.push(lit(constant, w));
        } else if value > 0 {
            right.push(lit(constant, w));
        }
        let (l, r) = (fold("bvadd", left, lit(0, w)), fold("bvadd", right, lit(0, w)));
        let op = match cmp {
            Cmp::Eq => "=",
            Cmp::Ne => "distinct",
            Cmp::Lt => "bvult",
            Cmp::Le => "bvule",
            Cmp::Gt => "bvugt",
            Cmp::Ge => "bvuge",
        };
        Term::app(op, vec![l, r])
    }

    fn sum(&mut self, cells: &[CellId], target: &Target) -> Term {
        let w = sum_width(&self.his(cells)).max(self.width);
        let max = 1u128.checked_shl(w).map_or(u128::MAX, |p| p - 1);
        let sum = fold("bvadd", self.operands(cells, w, false), lit(0, w));
        let wanted: Vec<i64> = match target {
            Target::Eq(v) => vec![*v],
            Target::OneOf(vs) => vs.clone(),
        };
        let wanted: Vec<u128> = wanted
            .into_iter()
            .filter(|&v| v >= 0 && v as u128 <= max)
            .map(|v| v as u128)
            .collect();
        if wanted.len() > 1 {
            // Name the sum once rather than repeating it per target.
            let s = self.named(sum, w);
            Term::or(
                wanted
                    .into_iter()
                    .map(|v| Term::eq(s.clone(), lit(v, w)))
                    .collect(),
            )
        } else {
            Term::or(
                wanted
                    .into_iter()
                    .map(|v| Term::eq(sum.clone(), lit(v, w)))
                    .collect(),
            )
        }
    }

    /// A positional sum: the summed cells chosen by `ite` on the terms
    /// [`stretch_terms`] makes, added in a width that cannot overflow.
    fn positional(&mut self, cells: &[CellId], stretch: Stretch, value: i64) -> Term {
        let cw = self.width;
        let w = sum_width(&self.his(cells)).max(cw);
        let xs: Vec<Term> = cells.iter().map(|&c| self.cell(c)).collect();
        let top = 1u128.checked_shl(cw).map_or(u128::MAX, |p| p - 1);
        let is = |i: usize, v: i64| match u128::try_from(v) {
            Ok(v) if v <= top => Term::eq(xs[i].clone(), lit(v, cw)),
            _ => Term::sym("false"),
        };
        // Wide enough for every position the first cell is compared with.
        let kw = bits(top.max(cells.len() as u128 + 1));
        let at_least = |i: usize, v: i64| match u128::try_from(v) {
            Ok(v) if v > 0 => Term::app("bvuge", vec![zext(xs[i].clone(), cw, kw), lit(v, kw)]),
            _ => Term::sym("true"),
        };
        let mut define = |t: Term| self.named_bool(t);
        let (summed, exists) = stretch_terms(stretch, xs.len(), &is, &at_least, &mut define);
        let terms: Vec<Term> = summed
            .into_iter()
            .zip(&xs)
            .filter_map(|(on, x)| summed_if(on, zext(x.clone(), cw, w), lit(0, w)))
            .collect();
        let max = 1u128.checked_shl(w).map_or(u128::MAX, |p| p - 1);
        let equal = match u128::try_from(value) {
            Ok(v) if v <= max => Term::eq(fold("bvadd", terms, lit(0, w)), lit(v, w)),
            _ => Term::sym("false"),
        };
        Term::and(vec![exists, equal])
    }

    /// Declares a Bool `sN` equal to `t` and returns it.
    fn named_bool(&mut self, t: Term) -> Term {
        self.aux += 1;
        let name = format!("s{}", self.aux);
        self.s.declare_const(&name, Sort::Bool);
        self.s.assert(&Term::eq(Term::sym(&name), t));
        Term::sym(name)
    }

    /// Declares a `w`-bit constant `sN` equal to `t` and returns it.
    fn named(&mut self, t: Term, w: u32) -> Term {
        self.aux += 1;
        let name = format!("s{}", self.aux);
        self.s.declare_const(&name, Sort::BitVec(w));
        self.s.assert(&Term::eq(Term::sym(&name), t));
        Term::sym(name)
    }

    /// Whether every candidate of `cells` is at least 1, so that partial
    /// products never exceed the whole product.
    fn positive(&self, cells: &[CellId]) -> bool {
        cells
            .iter()
            .all(|&c| self.prep.doms[c].first().is_some_and(|&v| v >= 1))
    }

    /// The product of `cells` as a chain of named partial products, each
    /// asserted at most `bound`, in `bits(bound)` + cell width bits, where
    /// no step can overflow; `None` when the decided cells alone exceed
    /// `bound`. Only for positive cells, whose product is at least each
    /// partial product, and so only exact when the product is at most
    /// `bound`.
    fn bounded_product(&mut self, cells: &[CellId], bound: u128) -> Option<(Term, u32)> {
        let w = bits(bound) + self.width;
        let (known, open) = self.prep.split(cells);
        let k = known
            .iter()
            .try_fold(1u128, |a, &v| a.checked_mul(v as u128))
            .filter(|&k| k <= bound)?;
        let mut ops: Vec<Term> = open
            .iter()
            .map(|&c| zext(self.cell(c), self.width, w))
            .collect();
        if k != 1 || ops.is_empty() {
            ops.push(lit(k, w));
        }
        let at_most = |t: &Term| Term::app("bvule", vec![t.clone(), lit(bound, w)]);
        let mut ops = ops.into_iter();
        let mut acc = ops.next()?;
        self.s.assert(&at_most(&acc));
        for op in ops {
            acc = self.named(Term::app("bvmul", vec![acc, op]), w);
            self.s.assert(&at_most(&acc));
        }
        Some((acc, w))
    }

    fn product(&mut self, cells: &[CellId], value: i64) -> Term {
        let full = product_width(&self.his(cells));
        let chained = bits(value as u128) + self.width;
        if full > 2 * chained && value >= 1 && self.positive(cells) {
            return match self.bounded_product(cells, value as u128) {
                Some((p, w)) => Term::eq(p, lit(value as u128, w)),
                None => Term::sym("false"),
            };
        }
        let w = full.max(self.width);
        if (value as u128) >> w.min(127) != 0 && w < 128 {
            return Term::sym("false");
        }
        let p = fold("bvmul", self.operands(cells, w, true), lit(1, w));
        Term::eq(p, lit(value as u128, w))
    }

    /// The number of cells greater than every cell before them, as a sum
    /// of `(ite SEEN 1 0)` in a width that holds the line's length and the
    /// count.
    fn visible(&self, cells: &[CellId], count: i64) -> Term {
        let w = bits(cells.len().max(count as usize) as u128);
        let seen = (0..cells.len()).map(|i| {
            let taller = (0..i)
                .map(|j| Term::app("bvult", vec![self.cell(cells[j]), self.cell(cells[i])]))
                .collect();
            Term::app("ite", vec![Term::and(taller), lit(1, w), lit(0, w)])
        });
        Term::eq(
            fold("bvadd", seen.collect(), lit(0, w)),
            lit(count as u128, w),
        )
    }

    /// `(or (= xi (op value others…)) …)`: cells are non-negative, so a
    /// cell equal to the clue plus the sum (or times the product) of the
    /// others is the largest; no comparisons are needed.
    fn largest_is(&mut self, cells: &[CellId], value: i64, ratio: bool) -> Term {
        let his = self.his(cells);
        let v = value as u128;
        if cells.len() > QUADRATIC_MAX && (!ratio || (v >= 1 && self.positive(cells))) {
            return self.largest_is_linear(cells, &his, v, ratio);
        }
        let mut w = self.width.max(bits(v));
        for i in 0..cells.len() {
            let others: Vec<u128> = his
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &h)| h)
                .collect();
            let need = if ratio {
                let mut with = others.clone();
                with.push(v);
                product_width(&with)
            } else {
                let mut with = others.clone();
                with.push(v);
                sum_width(&with)
            };
            w = w.max(need);
        }
        let cases = (0..cells.len())
            .map(|i| {
                let me = zext(self.cell(cells[i]), self.width, w);
                let others: Vec<Term> = cells
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &c)| zext(self.cell(c), self.width, w))
                    .collect();
                let mut args = others;
                args.push(lit(v, w));
                let rhs = fold(if ratio { "bvmul" } else { "bvadd" }, args, lit(v, w));
                Term::eq(me, rhs)
            })
            .collect();
        Term::or(cases)
    }
}

impl Emitter<'_> {
    /// `largest_is` for big cages, through the sum S (product P) of all
    /// cells: some cell has 2·x = S + clue (x² = clue · P). Such a cell is
    /// at least the sum (clue times the product) of the others, so it is
    /// the largest. A ratio's P is at most the largest value squared when
    /// the rule holds, which bounds the chained product.
    fn largest_is_linear(&mut self, cells: &[CellId], his: &[u128], v: u128, ratio: bool) -> Term {
        let top = his.iter().copied().max().unwrap_or(0);
        let (all, w) = if ratio {
            match self.bounded_product(cells, top.saturating_mul(top)) {
                Some(p) => p,
                None => return Term::sym("false"),
            }
        } else {
            let mut with = his.to_vec();
            with.extend([v, top]);
            let w = sum_width(&with).max(self.width);
            let sum = fold("bvadd", self.operands(cells, w, false), lit(0, w));
            (self.named(sum, w), w)
        };
        // Wide enough for clue · P (ratio) or S + clue and 2·x (difference).
        let wide = if ratio {
            (bits(v) + w).max(2 * self.width)
        } else {
            w
        };
        let rhs = if ratio {
            Term::app("bvmul", vec![lit(v, wide), zext(all, w, wide)])
        } else {
            Term::app("bvadd", vec![all, lit(v, wide)])
        };
        let cases = cells
            .iter()
            .map(|&c| {
                let x = zext(self.cell(c), self.width, wide);
                let op = if ratio { "bvmul" } else { "bvadd" };
                Term::eq(Term::app(op, vec![x.clone(), x]), rhs.clone())
            })
            .collect();
        Term::or(cases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_hold_the_largest_sums_and_products() {
        // The largest sums: a 64-cell unit of a 64×64 grid, a 9-cell kakuro
        // run; the largest products: a 9-cell cage of 9s, 16 cells of 64s.
        for (k, hi) in [(64u32, 64u128), (9, 9), (81, 9), (4096, 64)] {
            let his = vec![hi; k as usize];
            let w = sum_width(&his);
            assert!(
                u128::from(k) * hi < 1u128 << w,
                "sum of {k}×{hi} in {w} bits"
            );
            assert!(
                u128::from(k) * hi >= 1u128 << (w - 1),
                "{w} bits is not the least"
            );
        }
        for (k, hi) in [(9u32, 9u128), (4, 9), (16, 64), (2, 2)] {
            let his = vec![hi; k as usize];
            let w = product_width(&his);
            assert!(hi.pow(k) < 1u128 << w, "product of {k}×{hi} in {w} bits");
            assert!(hi.pow(k) >= 1u128 << (w - 1), "{w} bits is not the least");
        }
        // Past u128 the bound is the sum of the factors' bits: 30 × 7.
        assert_eq!(product_width(&vec![64; 30]), 30 * 7);
        assert_eq!(lit(5, 4).to_string(), "#b0101");
        assert_eq!(lit(5, 70).to_string(), "(_ bv5 70)");
    }
}
