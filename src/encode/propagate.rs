//! Candidate values per cell, shared by `onehot` and `bv`. Unless the
//! options ask for the plain form, givens are propagated before anything is
//! emitted: naked and hidden singles in all-different groups, and the
//! values of arithmetic rules that lie on no accepting path (or in no
//! allowed tuple) are removed. Every step is sound: no value that some
//! solution uses is ever removed, so the script keeps every solution.

use super::layered::{Diagram, ordered};
use crate::model::{CellId, Model, Rule, rc};

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
}

impl Prepared {
    /// Candidates of `model`'s cells, propagated unless `plain`.
    pub fn new(model: &Model, plain: bool) -> Prepared {
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
        };
        if !plain && let Err(why) = p.propagate(model) {
            p.conflict = Some(why);
        }
        p
    }

    /// The value of a cell that needs no variable.
    pub fn decided(&self, c: CellId) -> Option<i64> {
        match self.doms[c].as_slice() {
            [v] if !self.plain => Some(*v),
            _ => None,
        }
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

    /// The diagram of an arithmetic rule over its undecided cells, with
    /// those cells; `None` for other rules. Rules whose meaning depends on
    /// the order of their cells keep every cell, decided ones with their
    /// single value.
    pub fn diagram(&self, rule: &Rule) -> Option<(Diagram, Vec<CellId>)> {
        let (known, open) = if ordered(rule) {
            (Vec::new(), rule.cells().to_vec())
        } else {
            self.split(rule.cells())
        };
        let doms: Vec<&[i64]> = open.iter().map(|&c| self.doms[c].as_slice()).collect();
        Diagram::build(rule, &known, &doms).map(|d| (d, open))
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

    fn propagate(&mut self, model: &Model) -> Result<(), String> {
        let name = |c: CellId| rc(model.cells[c].row, model.cells[c].col);
        for con in &model.constraints {
            if let Rule::Fixed { cell, value } = con.rule {
                if self.doms[cell].contains(&value) {
                    self.doms[cell] = vec![value];
                } else {
                    return Err(format!(
                        "{}: {value} is outside the cell's values",
                        con.origin
                    ));
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
                                    return Err(format!(
                                        "{}: {} has no value left besides {v} at {}",
                                        model.constraints[g].origin,
                                        name(o),
                                        name(c)
                                    ));
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
                let cells = con.rule.cells();
                let now: u64 = cells.iter().map(|&c| stamp[c]).sum();
                if seen[i] == now {
                    continue;
                }
                seen[i] = now;
                let narrowed = match &con.rule {
                    Rule::AllDifferent { cells } => self.hidden_singles(cells),
                    Rule::Fixed { .. } => Ok(Vec::new()),
                    rule => self.prune_arithmetic(rule),
                };
                let narrowed = narrowed.map_err(|why| format!("{}: {why}", con.origin))?;
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
    /// that must differ do). Returns the narrowed cells.
    fn prune_arithmetic(&mut self, rule: &Rule) -> Result<Vec<CellId>, String> {
        let Some((dd, open)) = self.diagram(rule) else {
            return Ok(Vec::new());
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
        let mut narrowed = Vec::new();
        for (&c, vs) in open.iter().zip(live) {
            if vs.len() < self.doms[c].len() {
                self.doms[c] = vs;
                narrowed.push(c);
            }
        }
        Ok(narrowed)
    }
}
