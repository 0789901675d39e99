//! Layered decision diagrams for arithmetic rules (sums, products,
//! differences, ratios): layer `i` holds the reachable partial results after
//! the first `i` cells. Each state summarises the cells read so far exactly
//! (the partial sum or product, or the largest cell and the sum or product of
//! the others), so the diagram accepts exactly the tuples [`Rule::holds`]
//! accepts, and its size is bounded by the number of distinct partial
//! results, never by the number of tuples.
//!
//! Building is bounded by work done: at most [`BUILD_WORK`] (state, value)
//! steps, so a diagram has at most that many edges; past it the rule is
//! [`TooBig`] and the encodings use their large-rule forms. Enumerating
//! tuples is bounded the same way ([`WALK_WORK`] edges visited, pruned
//! ones included), whatever the number of tuples kept.

// Building hashes a state per step, up to `BUILD_WORK` steps, and SipHash
// took about half of a large build (perf, 32-cell visibility lines);
// foldhash is several times cheaper and still seeded per process.
use foldhash::HashMap;

use crate::model::{Cmp, Rule, Stretch, Target};

/// Most (state, value) steps one diagram may take to build: about 10 ms and
/// a few MB. Every cage and run of the shipped puzzles stays far below it.
pub(crate) const BUILD_WORK: usize = 200_000;

/// Most edges one tuple enumeration may visit (pruned ones included).
pub(crate) const WALK_WORK: usize = 100_000;

/// The diagram would need more than [`BUILD_WORK`] steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooBig;

/// What the diagram folds: one kind per arithmetic rule.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Fold {
    Sum(Target),
    Product(i64),
    Difference(i64),
    Ratio(i64),
    /// A cell smaller than the next; state (first value, 0).
    Less,
    /// Cells seen along a line; state (tallest so far, number seen).
    Visible(i64),
    /// A weighted sum compared with a value; state (sum so far, cells
    /// read), the count picking each cell's coefficient.
    Linear(Vec<i64>, Cmp, i64),
    /// Allowed tuples (sorted); state (the first tuple with the values
    /// read as its prefix, cells read), so one prefix is one state.
    Table(Vec<Vec<i64>>),
    /// The cells between the first holding `a` and the first holding
    /// `b` sum to the value; state (phase, sum so far), the phase one of
    /// the `OPEN`… constants below.
    Between(i64, i64, i64),
    /// The first k cells of a line of `len` sum to the value, k the first
    /// cell's value; state (cells still to sum, sum so far), the first
    /// slot [`NONE`] before the first cell.
    Leading(i64, i64),
    /// Some cell holds one of the values (sorted); state (1 once one has,
    /// 0).
    Contains(Vec<i64>),
}

/// Phases of a [`Fold::Between`]: neither end read yet, the `a` end read
/// (summing until `b`), the `b` end read (summing until `a`), both read.
const OPEN: i64 = 0;
const AFTER_A: i64 = 1;
const AFTER_B: i64 = 2;
const CLOSED: i64 = 3;

/// Marks "no cell read yet" in the `max` slot of difference and ratio states.
const NONE: i64 = i64::MIN;

/// A partial result: (sum or product, 0) for sums and products;
/// (largest, sum or product of the others) for differences and ratios.
type State = (i64, i64);

impl Fold {
    fn of(rule: &Rule) -> Option<Fold> {
        match rule {
            Rule::Sum { target, .. } => Some(Fold::Sum(target.clone())),
            Rule::Product { value, .. } => Some(Fold::Product(*value)),
            Rule::Difference { value, .. } => Some(Fold::Difference(*value)),
            Rule::Ratio { value, .. } => Some(Fold::Ratio(*value)),
            Rule::Less { .. } => Some(Fold::Less),
            Rule::Visible { count, .. } => Some(Fold::Visible(*count)),
            Rule::Linear {
                coeffs, cmp, value, ..
            } => Some(Fold::Linear(coeffs.clone(), *cmp, *value)),
            Rule::Table { tuples, .. } => Some(Fold::Table(tuples.clone())),
            Rule::PositionalSum {
                cells,
                stretch,
                value,
            } => Some(match *stretch {
                Stretch::Between { a, b } => Fold::Between(a, b, *value),
                Stretch::Leading => Fold::Leading(i64::try_from(cells.len()).ok()?, *value),
            }),
            Rule::Contains { values, .. } => Some(Fold::Contains(values.clone())),
            Rule::Fixed { .. } | Rule::AllDifferent { .. } => None,
        }
    }

    fn start(&self) -> State {
        match self {
            Fold::Sum(_) => (0, 0),
            Fold::Product(_) => (1, 0),
            Fold::Difference(_) | Fold::Ratio(_) | Fold::Less | Fold::Visible(_) => (NONE, 0),
            // (weighted sum so far, cells read so far)
            Fold::Linear(..) | Fold::Table(_) | Fold::Contains(_) => (0, 0),
            Fold::Between(..) => (OPEN, 0),
            Fold::Leading(..) => (NONE, 0),
        }
    }

    /// The state after reading `v`; `None` on overflow (which
    /// [`Rule::holds`] also treats as not holding).
    fn step(&self, (a, b): State, v: i64) -> Option<State> {
        match self {
            Fold::Sum(_) => Some((a.checked_add(v)?, 0)),
            Fold::Product(_) => Some((a.checked_mul(v)?, 0)),
            Fold::Difference(_) | Fold::Ratio(_) => {
                let (max, other) = if a == NONE {
                    return Some((v, if matches!(self, Fold::Ratio(_)) { 1 } else { 0 }));
                } else if v > a {
                    (v, a)
                } else {
                    (a, v)
                };
                let rest = match self {
                    Fold::Difference(_) => b.checked_add(other)?,
                    _ => b.checked_mul(other)?,
                };
                Some((max, rest))
            }
            // A second value only matters if it is larger; the diagram
            // of a Less rule has two layers, so the state is final then.
            Fold::Less if a == NONE => Some((v, 0)),
            Fold::Less => Some((a, i64::from(v > a))),
            Fold::Visible(_) if v > a => Some((v, b.checked_add(1)?)),
            Fold::Visible(_) => Some((a, b)),
            Fold::Linear(coeffs, ..) => {
                let k = *coeffs.get(usize::try_from(b).ok()?)?;
                Some((a.checked_add(k.checked_mul(v)?)?, b + 1))
            }
            Fold::Table(tuples) => {
                // The tuples sharing the prefix read so far follow the
                // first one (they are sorted): the first among them with
                // `v` next.
                let (first, read) = (usize::try_from(a).ok()?, usize::try_from(b).ok()?);
                let prefix = tuples.get(first)?.get(..read)?;
                let j = tuples[first..]
                    .iter()
                    .take_while(|t| t.starts_with(prefix))
                    .position(|t| t.get(read) == Some(&v))?;
                Some((i64::try_from(first + j).ok()?, b + 1))
            }
            Fold::Between(x, y, _) => match a {
                OPEN if v == *x && v == *y => Some((CLOSED, b)),
                OPEN if v == *x => Some((AFTER_A, b)),
                OPEN if v == *y => Some((AFTER_B, b)),
                AFTER_A if v == *y => Some((CLOSED, b)),
                AFTER_B if v == *x => Some((CLOSED, b)),
                AFTER_A | AFTER_B => Some((a, b.checked_add(v)?)),
                _ => Some((a, b)),
            },
            // The first value is how many cells are summed, itself included.
            Fold::Leading(len, _) if a == NONE => (1..=*len).contains(&v).then_some((v - 1, v)),
            Fold::Leading(..) if a > 0 => Some((a - 1, b.checked_add(v)?)),
            Fold::Leading(..) => Some((a, b)),
            Fold::Contains(values) => Some((a.max(i64::from(values.binary_search(&v).is_ok())), 0)),
        }
    }

    fn accepts(&self, (a, b): State) -> bool {
        match self {
            Fold::Sum(t) => t.accepts(a),
            Fold::Product(p) => a == *p,
            // No cells: Rule::holds takes the largest as 0.
            Fold::Difference(d) if a == NONE => *d == 0,
            Fold::Ratio(_) if a == NONE => false,
            Fold::Difference(d) => a.checked_sub(b) == Some(*d),
            Fold::Ratio(r) => b.checked_mul(*r) == Some(a),
            Fold::Less => b == 1,
            Fold::Visible(count) => b == *count,
            Fold::Linear(_, cmp, value) => cmp.holds(a, *value),
            Fold::Table(tuples) => usize::try_from(a)
                .ok()
                .and_then(|i| tuples.get(i))
                .is_some_and(|t| i64::try_from(t.len()) == Ok(b)),
            Fold::Between(.., value) => a == CLOSED && b == *value,
            Fold::Leading(_, value) => a == 0 && b == *value,
            Fold::Contains(_) => a == 1,
        }
    }

    /// Whether a state can still be completed, given that every value still
    /// to come lies in `rem_min..=rem_max` in total (sums) or that every
    /// value is at least 1 and at most `top` (the others). Only sound cuts:
    /// the backward pass removes whatever else cannot be completed.
    fn may_complete(&self, (a, b): State, rem: (i64, i64), positive: bool, top: i64) -> bool {
        match self {
            Fold::Sum(t) => any_target_in(t, a.saturating_add(rem.0), a.saturating_add(rem.1)),
            Fold::Product(p) if positive && *p >= 1 => a >= 1 && p % a == 0,
            Fold::Difference(d) if positive && a != NONE => b <= top.saturating_sub(*d),
            Fold::Ratio(r) if positive && *r >= 1 && a != NONE => b.saturating_mul(*r) <= top,
            Fold::Visible(count) => b <= *count,
            // A closed stretch's sum is final; an open one only grows.
            Fold::Between(.., value) if a == CLOSED => b == *value,
            Fold::Leading(_, value) if a == 0 => b == *value,
            Fold::Between(.., value) | Fold::Leading(_, value) if positive => b <= *value,
            _ => true,
        }
    }
}

/// Whether some target value lies in `lo..=hi`.
pub(crate) fn any_target_in(target: &Target, lo: i64, hi: i64) -> bool {
    match target {
        Target::Eq(t) => lo <= *t && *t <= hi,
        Target::OneOf(ts) => {
            let i = ts.partition_point(|&t| t < lo);
            ts.get(i).is_some_and(|&t| t <= hi)
        }
    }
}

/// Whether a rule's meaning depends on the order of its cells, so that its
/// diagram must read every cell in order (decided ones included) rather
/// than fold the decided cells in first.
pub(crate) fn ordered(rule: &Rule) -> bool {
    matches!(
        rule,
        Rule::Less { .. }
            | Rule::Visible { .. }
            | Rule::Linear { .. }
            | Rule::Table { .. }
            | Rule::PositionalSum { .. }
    )
}

/// A layered diagram over the undecided cells of one rule. `layers[i]` are
/// the nodes before reading cell `i`; each node lists its out-edges
/// `(value, child)`, where the child indexes `layers[i + 1]` (or, from the
/// last layer, the single accepting sink). Every node lies on an accepting
/// path; an unsatisfiable rule has no root (`layers[0]` empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diagram {
    /// Nodes per layer, each a list of out-edges.
    pub layers: Vec<Vec<Vec<(i64, usize)>>>,
    /// Whether the rule holds with no undecided cell (only meaningful when
    /// there are no layers).
    pub empty_accepts: bool,
}

impl Diagram {
    /// The diagram of an arithmetic `rule` whose decided cells hold `known`
    /// and whose other cells, in order, may hold `doms`. `None` for rules
    /// that are not arithmetic (fixed, all-different); [`TooBig`] when it
    /// would take more than [`BUILD_WORK`] steps.
    pub fn build(rule: &Rule, known: &[i64], doms: &[&[i64]]) -> Option<Result<Diagram, TooBig>> {
        let fold = Fold::of(rule)?;
        Some(Diagram::build_fold(&fold, known, doms, BUILD_WORK))
    }

    /// [`Diagram::build`] without the work limit, for the rules the large
    /// forms do not cover (negative values or clues, which lowering never
    /// makes).
    pub fn build_unbounded(rule: &Rule, known: &[i64], doms: &[&[i64]]) -> Option<Diagram> {
        let fold = Fold::of(rule)?;
        Diagram::build_fold(&fold, known, doms, usize::MAX).ok()
    }

    fn build_fold(
        fold: &Fold,
        known: &[i64],
        doms: &[&[i64]],
        limit: usize,
    ) -> Result<Diagram, TooBig> {
        let k = doms.len();
        let mut start = Some(fold.start());
        for &v in known {
            start = start.and_then(|s| fold.step(s, v));
        }
        let Some(start) = start else {
            return Ok(Diagram {
                layers: vec![Vec::new(); k],
                empty_accepts: false,
            });
        };
        if k == 0 {
            return Ok(Diagram {
                layers: Vec::new(),
                empty_accepts: fold.accepts(start),
            });
        }
        // Bounds on what the remaining cells can add, for the forward cuts.
        let mins: Vec<i64> = doms
            .iter()
            .map(|d| d.first().copied().unwrap_or(0))
            .collect();
        let maxs: Vec<i64> = doms
            .iter()
            .map(|d| d.last().copied().unwrap_or(0))
            .collect();
        let positive = known.iter().chain(&mins).all(|&v| v >= 1);
        let top = known.iter().chain(&maxs).copied().max().unwrap_or(0);
        let mut rem = vec![(0i64, 0i64); k + 1];
        for i in (0..k).rev() {
            rem[i] = (
                rem[i + 1].0.saturating_add(mins[i]),
                rem[i + 1].1.saturating_add(maxs[i]),
            );
        }

        // Forward: reachable states per layer, edges by state index.
        let mut states: Vec<Vec<State>> = vec![vec![start]];
        let mut edges: Vec<Vec<Vec<(i64, usize)>>> = Vec::with_capacity(k);
        let mut work = 0usize;
        for (i, dom) in doms.iter().enumerate() {
            let mut next: Vec<State> = Vec::new();
            let mut index: HashMap<State, usize> = HashMap::default();
            let mut out = Vec::with_capacity(states[i].len());
            for &s in &states[i] {
                work = work.saturating_add(dom.len());
                if work > limit {
                    return Err(TooBig);
                }
                let mut es = Vec::new();
                for &v in dom.iter() {
                    let Some(t) = fold.step(s, v) else { continue };
                    let ok = if i + 1 == k {
                        fold.accepts(t)
                    } else {
                        fold.may_complete(t, rem[i + 1], positive, top)
                    };
                    if !ok {
                        continue;
                    }
                    // The last layer's children all merge into the sink.
                    let child = if i + 1 == k {
                        0
                    } else {
                        *index.entry(t).or_insert_with(|| {
                            next.push(t);
                            next.len() - 1
                        })
                    };
                    es.push((v, child));
                }
                out.push(es);
            }
            edges.push(out);
            states.push(next);
        }

        // Backward: keep nodes with a path to the sink, merging nodes whose
        // out-edges are identical (they have the same future).
        let mut layers: Vec<Vec<Vec<(i64, usize)>>> = vec![Vec::new(); k];
        let mut remap: Vec<Option<usize>> = vec![Some(0)]; // the sink
        for i in (0..k).rev() {
            let mut seen: HashMap<Vec<(i64, usize)>, usize> = HashMap::default();
            let mut new_remap = Vec::with_capacity(edges[i].len());
            for es in &edges[i] {
                let live: Vec<(i64, usize)> = es
                    .iter()
                    .filter_map(|&(v, c)| remap.get(c).copied().flatten().map(|c| (v, c)))
                    .collect();
                if live.is_empty() {
                    new_remap.push(None);
                    continue;
                }
                let id = *seen.entry(live.clone()).or_insert_with(|| {
                    layers[i].push(live);
                    layers[i].len() - 1
                });
                new_remap.push(Some(id));
            }
            remap = new_remap;
        }
        Ok(Diagram {
            layers,
            empty_accepts: false,
        })
    }

    /// Whether some assignment satisfies the rule.
    pub fn feasible(&self) -> bool {
        match self.layers.first() {
            Some(root) => !root.is_empty(),
            None => self.empty_accepts,
        }
    }

    /// Values of cell `i` that lie on some accepting path.
    pub fn live_values(&self, i: usize) -> Vec<i64> {
        let mut vs: Vec<i64> = self
            .layers
            .get(i)
            .into_iter()
            .flatten()
            .flat_map(|es| es.iter().map(|&(v, _)| v))
            .collect();
        vs.sort_unstable();
        vs.dedup();
        vs
    }

    /// The accepted tuples, skipping those where two cells that `differ`
    /// says must differ are equal; `None` when there are more than `limit`,
    /// or when finding them would visit more than [`WALK_WORK`] edges.
    pub fn tuples(
        &self,
        limit: usize,
        differ: &dyn Fn(usize, usize) -> bool,
    ) -> Option<Vec<Vec<i64>>> {
        let mut out = Vec::new();
        if !self.feasible() {
            return Some(out);
        }
        if self.layers.is_empty() {
            out.push(Vec::new());
            return Some(out);
        }
        let mut path = Vec::with_capacity(self.layers.len());
        let mut work = WALK_WORK;
        if self.walk(0, 0, &mut path, &mut out, limit, &mut work, differ) {
            Some(out)
        } else {
            None
        }
    }

    /// Depth-first enumeration; false once the limit is exceeded or the
    /// `work` left runs out.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        layer: usize,
        node: usize,
        path: &mut Vec<i64>,
        out: &mut Vec<Vec<i64>>,
        limit: usize,
        work: &mut usize,
        differ: &dyn Fn(usize, usize) -> bool,
    ) -> bool {
        let Some(es) = self.layers.get(layer).and_then(|l| l.get(node)) else {
            return true;
        };
        for &(v, child) in es {
            // Pruned edges count too: an unsatisfiable cage prunes every
            // path and keeps no tuple, and must still stop.
            if *work == 0 {
                return false;
            }
            *work -= 1;
            if (0..layer).any(|j| path[j] == v && differ(j, layer)) {
                continue;
            }
            path.push(v);
            if layer + 1 == self.layers.len() {
                out.push(path.clone());
                if out.len() > limit {
                    return false;
                }
            } else if !self.walk(layer + 1, child, path, out, limit, work, differ) {
                return false;
            }
            path.pop();
        }
        true
    }

    /// Number of nodes and edges, for choosing between forms.
    #[cfg(test)]
    pub fn size(&self) -> (usize, usize) {
        let nodes = self.layers.iter().map(Vec::len).sum();
        let edges = self.layers.iter().flatten().map(Vec::len).sum();
        (nodes, edges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tuple over `doms`, by brute force.
    fn all_tuples(doms: &[Vec<i64>]) -> Vec<Vec<i64>> {
        let mut out = vec![Vec::new()];
        for d in doms {
            out = out
                .into_iter()
                .flat_map(|t: Vec<i64>| {
                    d.iter().map(move |&v| {
                        let mut t = t.clone();
                        t.push(v);
                        t
                    })
                })
                .collect();
        }
        out
    }

    /// The diagram accepts exactly the tuples `Rule::holds` accepts, also
    /// with some cells decided in advance.
    fn agrees(rule: &Rule, doms: &[Vec<i64>]) {
        for split in [0, 1] {
            let (kd, rd) = doms.split_at(split.min(doms.len()));
            for known in all_tuples(kd) {
                let refs: Vec<&[i64]> = rd.iter().map(Vec::as_slice).collect();
                let dd = Diagram::build(rule, &known, &refs)
                    .expect("arithmetic rule")
                    .expect("small");
                let mut got = dd.tuples(usize::MAX, &|_, _| false).expect("no limit");
                got.sort();
                let mut want: Vec<Vec<i64>> = all_tuples(rd)
                    .into_iter()
                    .filter(|t| {
                        let full: Vec<i64> = known.iter().chain(t).copied().collect();
                        rule.holds(&full)
                    })
                    .collect();
                want.sort();
                assert_eq!(got, want, "{rule:?} known {known:?}");
                for (i, _) in rd.iter().enumerate() {
                    let mut live: Vec<i64> = want.iter().map(|t| t[i]).collect();
                    live.sort_unstable();
                    live.dedup();
                    assert_eq!(dd.live_values(i), live);
                }
                assert_eq!(dd.feasible(), !want.is_empty());
            }
        }
    }

    fn doms(k: usize, hi: i64) -> Vec<Vec<i64>> {
        vec![(1..=hi).collect(); k]
    }

    #[test]
    fn sums_match_brute_force() {
        for k in 1..=4 {
            for t in [1, 4, 7, 10, 15, 16, 24] {
                let cells = (0..k).collect();
                agrees(
                    &Rule::Sum {
                        cells,
                        target: Target::Eq(t),
                    },
                    &doms(k, 6),
                );
            }
        }
        let rule = Rule::Sum {
            cells: vec![0, 1, 2],
            target: Target::OneOf(vec![4, 9, 16]),
        };
        agrees(&rule, &doms(3, 9));
        let holes = vec![vec![1, 3, 8], vec![2, 9], vec![4, 5, 6, 7]];
        agrees(
            &Rule::Sum {
                cells: vec![0, 1, 2],
                target: Target::Eq(14),
            },
            &holes,
        );
    }

    #[test]
    fn products_match_brute_force() {
        for k in 1..=4 {
            for p in [1, 6, 12, 24, 36, 60, 64, 7, 11] {
                agrees(
                    &Rule::Product {
                        cells: (0..k).collect(),
                        value: p,
                    },
                    &doms(k, 6),
                );
            }
        }
    }

    #[test]
    fn contains_matches_brute_force() {
        // One value, a set, one absent from the domains, none; on cells
        // with gaps too.
        for values in [vec![3], vec![1, 4], vec![9], vec![]] {
            for k in 1..=3 {
                let rule = Rule::Contains {
                    cells: (0..k).collect(),
                    values: values.clone(),
                };
                agrees(&rule, &doms(k, 5));
            }
        }
        let holes = vec![vec![1, 3], vec![2, 4, 5], vec![3]];
        let rule = Rule::Contains {
            cells: vec![0, 1, 2],
            values: vec![2, 5],
        };
        agrees(&rule, &holes);
    }

    #[test]
    fn tables_match_brute_force() {
        // A between line's (end, middle, end) and whispers' pairs, and an
        // empty table.
        let between: Vec<Vec<i64>> = all_tuples(&doms(3, 5))
            .into_iter()
            .filter(|v| v[0].min(v[2]) < v[1] && v[1] < v[0].max(v[2]))
            .collect();
        agrees(
            &Rule::Table {
                cells: vec![0, 1, 2],
                tuples: between,
            },
            &doms(3, 5),
        );
        let pairs: Vec<Vec<i64>> = all_tuples(&doms(2, 6))
            .into_iter()
            .filter(|v| (v[0] - v[1]).abs() >= 3)
            .collect();
        agrees(
            &Rule::Table {
                cells: vec![0, 1],
                tuples: pairs,
            },
            &doms(2, 6),
        );
        agrees(
            &Rule::Table {
                cells: vec![0, 1],
                tuples: Vec::new(),
            },
            &doms(2, 3),
        );
    }

    #[test]
    fn differences_and_ratios_match_brute_force() {
        for k in 1..=4 {
            for v in [0, 1, 2, 3, 5] {
                agrees(
                    &Rule::Difference {
                        cells: (0..k).collect(),
                        value: v,
                    },
                    &doms(k, 6),
                );
            }
            for v in [1, 2, 3, 4, 6] {
                agrees(
                    &Rule::Ratio {
                        cells: (0..k).collect(),
                        value: v,
                    },
                    &doms(k, 6),
                );
            }
        }
    }

    #[test]
    fn orders_and_visibility_match_brute_force() {
        agrees(&Rule::Less { cells: [0, 1] }, &doms(2, 5));
        agrees(
            &Rule::Less { cells: [0, 1] },
            &[vec![2, 4, 6], vec![1, 3, 4]],
        );
        for k in 1..=5 {
            for count in 0..=k as i64 + 1 {
                agrees(
                    &Rule::Visible {
                        cells: (0..k).collect(),
                        count,
                    },
                    &doms(k, 5),
                );
            }
        }
    }

    #[test]
    fn positional_sums_match_brute_force() {
        // Sandwiches between 1 and 4 (and between equal ends), repeats
        // and missing ends included; X-sums with first values too large.
        for k in 1..=5 {
            for value in [0, 2, 3, 5, 7] {
                for (a, b) in [(1, 4), (4, 1), (2, 2)] {
                    agrees(
                        &Rule::PositionalSum {
                            cells: (0..k).collect(),
                            stretch: Stretch::Between { a, b },
                            value,
                        },
                        &doms(k, 4),
                    );
                }
                agrees(
                    &Rule::PositionalSum {
                        cells: (0..k).collect(),
                        stretch: Stretch::Leading,
                        value,
                    },
                    &doms(k, 4),
                );
            }
        }
        // Values that are no length (0) and holes in the domains.
        let holes = vec![vec![0, 2, 3], vec![1, 4], vec![0, 3], vec![2]];
        agrees(
            &Rule::PositionalSum {
                cells: (0..4).collect(),
                stretch: Stretch::Leading,
                value: 5,
            },
            &holes,
        );
    }

    #[test]
    fn big_cages_stay_small() {
        // A 9-cell 45 sum and a 9-cell product of 9! stay polynomial.
        let d = doms(9, 9);
        let refs: Vec<&[i64]> = d.iter().map(Vec::as_slice).collect();
        let sum = Rule::Sum {
            cells: (0..9).collect(),
            target: Target::Eq(45),
        };
        let dd = Diagram::build(&sum, &[], &refs)
            .expect("sum")
            .expect("small");
        assert!(dd.size().1 < 2000, "{:?}", dd.size());
        assert!(dd.tuples(64, &|_, _| true).is_none());
        let prod = Rule::Product {
            cells: (0..9).collect(),
            value: 362_880,
        };
        let dd = Diagram::build(&prod, &[], &refs)
            .expect("product")
            .expect("small");
        assert!(dd.size().1 < 5000, "{:?}", dd.size());
        // A 16-cell cage over 1..=16 summing to 136: at most 16·16 states
        // a layer.
        let d = doms(16, 16);
        let refs: Vec<&[i64]> = d.iter().map(Vec::as_slice).collect();
        let sum = Rule::Sum {
            cells: (0..16).collect(),
            target: Target::Eq(136),
        };
        let dd = Diagram::build(&sum, &[], &refs)
            .expect("sum")
            .expect("small");
        assert!(dd.feasible());
        assert!(dd.size().0 <= 16 * 16 * 16, "{:?}", dd.size());
    }

    #[test]
    fn walks_stop_by_work_done() {
        // Twelve cells of 1..=16 that must differ cannot sum to 77 (the
        // least is 78): every path is pruned and none kept, and the walk
        // still stops, after WALK_WORK edges.
        let d = doms(12, 16);
        let refs: Vec<&[i64]> = d.iter().map(Vec::as_slice).collect();
        let rule = Rule::Sum {
            cells: (0..12).collect(),
            target: Target::Eq(77),
        };
        let dd = Diagram::build(&rule, &[], &refs)
            .expect("sum")
            .expect("small");
        assert!(dd.feasible(), "repeats allowed, 77 is reachable");
        assert!(
            dd.tuples(crate::encode::propagate::TUPLE_LIMIT, &|_, _| true)
                .is_none()
        );
        // A 256-cell sum over 1..=16 is too big to build.
        let d = doms(256, 16);
        let refs: Vec<&[i64]> = d.iter().map(Vec::as_slice).collect();
        let rule = Rule::Sum {
            cells: (0..256).collect(),
            target: Target::Eq(2176),
        };
        assert_eq!(Diagram::build(&rule, &[], &refs), Some(Err(TooBig)));
    }

    #[test]
    fn distinctness_filters_tuples() {
        let d = doms(2, 4);
        let refs: Vec<&[i64]> = d.iter().map(Vec::as_slice).collect();
        let rule = Rule::Sum {
            cells: vec![0, 1],
            target: Target::Eq(4),
        };
        let dd = Diagram::build(&rule, &[], &refs)
            .expect("sum")
            .expect("small");
        let all = dd.tuples(10, &|_, _| false).expect("few");
        assert_eq!(all, vec![vec![1, 3], vec![2, 2], vec![3, 1]]);
        let distinct = dd.tuples(10, &|_, _| true).expect("few");
        assert_eq!(distinct, vec![vec![1, 3], vec![3, 1]]);
        assert!(dd.tuples(1, &|_, _| false).is_none());
    }
}
