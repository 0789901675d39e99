//! Candidate values per cell, shared by `onehot` and `bv`. Unless the
//! options ask for the plain form, givens are propagated before anything is
//! emitted: naked and hidden singles in all-different groups, and the
//! values of arithmetic rules that lie on no accepting path (or in no
//! allowed tuple) are removed. Every step is sound: no value that some
//! solution uses is ever removed, so the script keeps every solution.
//!
//! Cost: each visit of a rule is bounded (a diagram is built within
//! `layered::BUILD_WORK` steps, tuples enumerated within `WALK_WORK`; a rule
//! whose diagram is too big is pruned by bounds in O(cells × values)), and
//! a rule is visited again only after one of its cells lost a value.

use super::Interrupted;
use super::layered::{Diagram, TooBig, any_target_in, ordered};
use crate::cancel::Cancel;
use crate::model::{CellId, Model, Rule, Target, rc};

/// Arithmetic rules with at most this many allowed tuples (after
/// distinctness) are written as a table of tuples; larger ones as a layered
/// diagram.
pub(crate) const TUPLE_LIMIT: usize = 48;

/// The cells' candidate values and what is known about the groups.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    /// Candidate values of each cell, sorted.
    pub doms: Vec<Vec<i64>>,
    /// Whether propagation was skipped (`--plain`).
    pub plain: bool,
    /// Why the puzzle has no solution, if propagation proved it.
    pub conflict: Option<String>,
    /// For each cell, the all-different constraints (indices into the
    /// model's constraints) that contain it.
    groups: Vec<Vec<usize>>,
    /// Per constraint: its diagram was once too big to build, so it is
    /// pruned by bounds from then on (its domains only shrink, but another
    /// attempt per visit would cost the whole work limit each time).
    big: Vec<bool>,
}

/// Why propagation stopped early.
enum Stop {
    /// The puzzle has no solution; why.
    Conflict(String),
    /// The cancellation flag was set.
    Interrupted,
}

impl Prepared {
    /// Candidates of `model`'s cells, propagated unless `plain`; stops
    /// when `cancel` is set.
    pub fn new(model: &Model, plain: bool, cancel: &Cancel) -> Result<Prepared, Interrupted> {
        let doms = model
            .cells
            .iter()
            .map(|c| (c.lo..=c.hi).collect())
            .collect();
        let mut groups = vec![Vec::new(); model.cells.len()];
        for (i, c) in model.constraints.iter().enumerate() {
            if let Rule::AllDifferent { cells } = &c.rule {
                for &id in cells {
                    if let Some(g) = groups.get_mut(id) {
                        g.push(i);
                    }
                }
            }
        }
        let mut p = Prepared {
            doms,
            plain,
            conflict: None,
            groups,
            big: vec![false; model.constraints.len()],
        };
        if !plain {
            match p.propagate(model, cancel) {
                Ok(()) => {}
                Err(Stop::Conflict(why)) => p.conflict = Some(why),
                Err(Stop::Interrupted) => return Err(Interrupted),
            }
        }
        Ok(p)
    }

    /// The value of a cell that needs no variable.
    pub fn decided(&self, c: CellId) -> Option<i64> {
        match self.doms[c].as_slice() {
            [v] if !self.plain => Some(*v),
            _ => None,
        }
    }

    /// For a rule whose cells are all decided: whether those values
    /// satisfy it (then it needs no assertion: asserting it would be
    /// `(= #b1100 #b1100)`); `None` if a cell is open or in the plain form.
    pub fn settled(&self, rule: &Rule) -> Option<bool> {
        let values: Option<Vec<i64>> = rule.cells().iter().map(|&c| self.decided(c)).collect();
        values.map(|v| rule.holds(&v))
    }

    /// Whether two cells share an all-different constraint.
    pub fn differ(&self, a: CellId, b: CellId) -> bool {
        a != b && self.groups[a].iter().any(|g| self.groups[b].contains(g))
    }

    /// The values of the decided cells among `cells` and the other cells.
    pub fn split(&self, cells: &[CellId]) -> (Vec<i64>, Vec<CellId>) {
        let mut known = Vec::new();
        let mut open = Vec::new();
        for &c in cells {
            match self.decided(c) {
                Some(v) => known.push(v),
                None => open.push(c),
            }
        }
        (known, open)
    }

    /// Whether all of `cells` lie in one all-different constraint.
    pub fn all_differ(&self, cells: &[CellId]) -> bool {
        let Some((&first, rest)) = cells.split_first() else {
            return true;
        };
        rest.is_empty()
            || self.groups[first]
                .iter()
                .any(|g| rest.iter().all(|&c| self.groups[c].contains(g)))
    }

    /// The diagram of an arithmetic rule over its undecided cells (or
    /// [`TooBig`]), with those cells; `None` for other rules. Rules whose
    /// meaning depends on the order of their cells keep every cell, decided
    /// ones with their single value.
    pub fn diagram(&self, rule: &Rule) -> Option<(Result<Diagram, TooBig>, Vec<CellId>)> {
        let (known, open) = if ordered(rule) {
            (Vec::new(), rule.cells().to_vec())
        } else {
            self.split(rule.cells())
        };
        let doms: Vec<&[i64]> = open.iter().map(|&c| self.doms[c].as_slice()).collect();
        Diagram::build(rule, &known, &doms).map(|d| (d, open))
    }

    /// Whether propagation found constraint `index`'s diagram too big
    /// (never set in the plain form, which does not propagate).
    pub fn was_too_big(&self, index: usize) -> bool {
        self.big[index]
    }

    /// Removes `v` from cell `c`; whether it was there.
    fn remove(&mut self, c: CellId, v: i64) -> bool {
        match self.doms[c].binary_search(&v) {
            Ok(i) => {
                self.doms[c].remove(i);
                true
            }
            Err(_) => false,
        }
    }

    fn propagate(&mut self, model: &Model, cancel: &Cancel) -> Result<(), Stop> {
        let name = |c: CellId| rc(model.cells[c].row, model.cells[c].col);
        for con in &model.constraints {
            if let Rule::Fixed { cell, value } = con.rule {
                if self.doms[cell].contains(&value) {
                    self.doms[cell] = vec![value];
                } else {
                    return Err(Stop::Conflict(format!(
                        "{}: {value} is outside the cell's values",
                        con.origin
                    )));
                }
            }
        }
        // Cells whose single value has not yet been removed from their peers.
        let mut queue: Vec<CellId> = (0..self.doms.len())
            .filter(|&c| self.doms[c].len() == 1)
            .collect();
        // A cell's change count, to re-examine only rules whose cells changed.
        let mut stamp = vec![0u64; self.doms.len()];
        let mut seen = vec![u64::MAX; model.constraints.len()];
        loop {
            // Naked singles.
            while let Some(c) = queue.pop() {
                let Some(&v) = self.doms[c].first() else {
                    continue;
                };
                for g in self.groups[c].clone() {
                    for &o in model.constraints[g].rule.cells() {
                        if o != c && self.remove(o, v) {
                            stamp[o] += 1;
                            match self.doms[o].len() {
                                0 => {
                                    return Err(Stop::Conflict(format!(
                                        "{}: {} has no value left besides {v} at {}",
                                        model.constraints[g].origin,
                                        name(o),
                                        name(c)
                                    )));
                                }
                                1 => queue.push(o),
                                _ => {}
                            }
                        }
                    }
                }
            }
            let mut changed = false;
            for (i, con) in model.constraints.iter().enumerate() {
                if cancel.is_cancelled() {
                    return Err(Stop::Interrupted);
                }
                let cells = con.rule.cells();
                let now: u64 = cells.iter().map(|&c| stamp[c]).sum();
                if seen[i] == now {
                    continue;
                }
                seen[i] = now;
                let narrowed = match &con.rule {
                    Rule::AllDifferent { cells } => self.hidden_singles(cells),
                    Rule::Fixed { .. } => Ok(Vec::new()),
                    rule => self.prune_arithmetic(i, rule),
                };
                let narrowed =
                    narrowed.map_err(|why| Stop::Conflict(format!("{}: {why}", con.origin)))?;
                for c in narrowed {
                    stamp[c] += 1;
                    changed = true;
                    if self.doms[c].len() == 1 {
                        queue.push(c);
                    }
                }
            }
            if !changed && queue.is_empty() {
                return Ok(());
            }
        }
    }

    /// In a group with as many values as cells every value is used once:
    /// a value only one cell can take goes there. Returns the narrowed cells.
    fn hidden_singles(&mut self, cells: &[CellId]) -> Result<Vec<CellId>, String> {
        let mut values: Vec<i64> = cells
            .iter()
            .flat_map(|&c| self.doms[c].iter().copied())
            .collect();
        values.sort_unstable();
        values.dedup();
        if values.len() < cells.len() {
            return Err(format!(
                "{} cells but only {} values left",
                cells.len(),
                values.len()
            ));
        }
        let mut narrowed = Vec::new();
        if values.len() == cells.len() {
            for v in values {
                let mut holders = cells
                    .iter()
                    .filter(|&&c| self.doms[c].binary_search(&v).is_ok());
                if let (Some(&c), None) = (holders.next(), holders.next())
                    && self.doms[c].len() > 1
                {
                    self.doms[c] = vec![v];
                    narrowed.push(c);
                }
            }
        }
        Ok(narrowed)
    }

    /// Keeps only the values that lie on an accepting path of the rule's
    /// diagram (or, when there are few tuples, in some tuple whose cells
    /// that must differ do; or, when the diagram is too big, within the
    /// bounds the other cells allow). Returns the narrowed cells.
    fn prune_arithmetic(&mut self, index: usize, rule: &Rule) -> Result<Vec<CellId>, String> {
        let (known, open) = self.split(rule.cells());
        if let Rule::Sum { target, .. } = rule {
            self.distinct_sum_reachable(&known, &open, target)?;
        }
        let built = if self.big[index] {
            Some((Err(TooBig), open.clone()))
        } else {
            self.diagram(rule)
        };
        // An order-sensitive rule's diagram reads all of its cells, not
        // only the open ones: go on with the cells the diagram reads.
        let (dd, open) = match built {
            None => return Ok(Vec::new()),
            Some((Ok(dd), cells)) => (dd, cells),
            Some((Err(TooBig), _)) => {
                self.big[index] = true;
                let live = self.bounds_live(rule, &known, &open)?;
                return Ok(self.narrow(&open, live));
            }
        };
        if !dd.feasible() {
            return Err("no values of its cells satisfy it".to_string());
        }
        let differ = |i: usize, j: usize| self.differ(open[i], open[j]);
        let live: Vec<Vec<i64>> = match dd.tuples(TUPLE_LIMIT, &differ) {
            Some(ts) if ts.is_empty() => {
                return Err("no values of its cells satisfy it with distinct digits".to_string());
            }
            Some(ts) => (0..open.len())
                .map(|i| {
                    let mut vs: Vec<i64> = ts.iter().map(|t| t[i]).collect();
                    vs.sort_unstable();
                    vs.dedup();
                    vs
                })
                .collect(),
            None => (0..open.len()).map(|i| dd.live_values(i)).collect(),
        };
        Ok(self.narrow(&open, live))
    }

    /// Sets each cell's candidates to its `live` values (a subset); the
    /// cells that lost some.
    fn narrow(&mut self, open: &[CellId], live: Vec<Vec<i64>>) -> Vec<CellId> {
        let mut narrowed = Vec::new();
        for (&c, vs) in open.iter().zip(live) {
            if vs.len() < self.doms[c].len() {
                self.doms[c] = vs;
                narrowed.push(c);
            }
        }
        narrowed
    }

    /// A sum over cells that must all differ lies between the sums of the
    /// smallest and of the largest distinct candidates: an unreachable
    /// target is found in O(cells × values), where enumerating tuples
    /// would take exponential time to find none.
    fn distinct_sum_reachable(
        &self,
        known: &[i64],
        open: &[CellId],
        target: &Target,
    ) -> Result<(), String> {
        if open.len() < 2 || !self.all_differ(open) {
            return Ok(());
        }
        let mut values: Vec<i64> = open
            .iter()
            .flat_map(|&c| self.doms[c].iter().copied())
            .collect();
        values.sort_unstable();
        values.dedup();
        let k = open.len();
        let base: i64 = known.iter().sum();
        let least = values
            .iter()
            .take(k)
            .fold(base, |a, &v| a.saturating_add(v));
        let most = values
            .iter()
            .rev()
            .take(k)
            .fold(base, |a, &v| a.saturating_add(v));
        if values.len() < k || !any_target_in(target, least, most) {
            return Err(format!(
                "no {k} distinct values of its cells reach it (their sums lie in {least}..{most})"
            ));
        }
        Ok(())
    }

    /// The values of each open cell of a rule too big for a diagram that
    /// the bounds of the others allow: for a sum, some target minus the
    /// value lies between the others' least and greatest sums; for a
    /// product of positive cells, the value divides the product. Other
    /// rules keep every value.
    fn bounds_live(
        &self,
        rule: &Rule,
        known: &[i64],
        open: &[CellId],
    ) -> Result<Vec<Vec<i64>>, String> {
        let doms = || open.iter().map(|&c| self.doms[c].clone());
        let live: Vec<Vec<i64>> = match rule {
            Rule::Sum { target, .. } => {
                let base: i64 = known.iter().sum();
                let lo = |c: CellId| self.doms[c].first().copied().unwrap_or(0);
                let hi = |c: CellId| self.doms[c].last().copied().unwrap_or(0);
                let all_lo = open.iter().fold(base, |a, &c| a.saturating_add(lo(c)));
                let all_hi = open.iter().fold(base, |a, &c| a.saturating_add(hi(c)));
                open.iter()
                    .map(|&c| {
                        let (rest_lo, rest_hi) =
                            (all_lo.saturating_sub(lo(c)), all_hi.saturating_sub(hi(c)));
                        self.doms[c]
                            .iter()
                            .copied()
                            .filter(|&v| {
                                any_target_in(
                                    target,
                                    rest_lo.saturating_add(v),
                                    rest_hi.saturating_add(v),
                                )
                            })
                            .collect()
                    })
                    .collect()
            }
            Rule::Product { value, .. }
                if *value >= 1 && doms().all(|d| d.first().is_some_and(|&v| v >= 1)) =>
            {
                let k = known.iter().try_fold(1i64, |a, &v| a.checked_mul(v));
                if k.is_none_or(|k| k < 1 || value % k != 0) {
                    return Err("its given cells do not divide it".to_string());
                }
                doms()
                    .map(|d| d.into_iter().filter(|&v| value % v == 0).collect())
                    .collect()
            }
            _ => doms().collect(),
        };
        if live.iter().any(Vec::is_empty) {
            return Err("no values of its cells satisfy it".to_string());
        }
        Ok(live)
    }
}
