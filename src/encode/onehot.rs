//! `onehot`: one Bool `x_R_C_V` per (cell, candidate value) and nothing but
//! propositional logic (QF_UF), so every SMT solver and any SAT-style back
//! end takes it. Exactly one value per cell; in every all-different group
//! each value at most once (and exactly once when the group has as many
//! values as cells). Arithmetic rules become a table of allowed tuples when
//! it is small, otherwise a layered diagram of reachable partial results
//! (see `layered`), so nothing grows exponentially with a cage.

use super::layered::Diagram;
use super::propagate::{Prepared, TUPLE_LIMIT};
use super::{Body, CellRead, Decoder, cell_name, comment_constraint};
use crate::model::{CellId, Group, Model, Rule};
use crate::smtlib::{Script, Sort, Term};

/// At-most-one over at most this many literals is written pairwise (no
/// auxiliary variables; measured smaller and faster for 9×9 grids); longer
/// ones use a sequential counter (Sinz), linear in size.
const PAIRWISE_MAX: usize = 9;

pub(super) fn encode(model: &Model, opts: &super::Options) -> Body {
    let prep = Prepared::new(model, opts.plain);
    let mut e = Emitter::new(model, &prep);
    if let Some(why) = &prep.conflict {
        return e.unsat(why);
    }
    e.cells();
    let mut group: Option<Group> = None;
    for c in &model.constraints {
        let note = (!prep.plain).then_some("propagated: decided cells have no variables");
        comment_constraint(&mut e.s, &mut group, c, note);
        match &c.rule {
            Rule::Fixed { cell, value } => {
                if prep.plain {
                    let lit = e.lit(*cell, *value);
                    e.s.assert(&lit);
                }
            }
            Rule::AllDifferent { cells } => e.all_different(cells),
            Rule::Less { cells: [a, b] } => e.less(*a, *b),
            rule => e.arithmetic(rule),
        }
    }
    let decoder = e.decoder();
    Body {
        script: e.s,
        logic: "QF_UF",
        decoder,
    }
}

struct Emitter<'a> {
    model: &'a Model,
    prep: &'a Prepared,
    s: Script,
    /// Auxiliary variables made so far (`a1`, `a2`, …).
    aux: usize,
}

impl<'a> Emitter<'a> {
    fn new(model: &'a Model, prep: &'a Prepared) -> Self {
        Emitter {
            model,
            prep,
            s: Script::new(),
            aux: 0,
        }
    }

    fn name(&self, c: CellId, v: i64) -> String {
        format!("{}_{v}", cell_name(&self.model.cells[c]))
    }

    /// The literal "cell `c` holds `v`".
    fn lit(&self, c: CellId, v: i64) -> Term {
        match self.prep.decided(c) {
            Some(d) => Term::sym(if d == v { "true" } else { "false" }),
            None if self.prep.doms[c].binary_search(&v).is_ok() => Term::sym(self.name(c, v)),
            None => Term::sym("false"),
        }
    }

    fn fresh(&mut self) -> Term {
        self.aux += 1;
        let n = format!("a{}", self.aux);
        self.s.declare_const(&n, Sort::Bool);
        Term::sym(n)
    }

    fn decoder(&self) -> Decoder {
        let cells = (0..self.model.cells.len())
            .map(|c| match self.prep.decided(c) {
                Some(v) => CellRead::Known(v),
                None => CellRead::OneHot(
                    self.prep.doms[c]
                        .iter()
                        .map(|&v| (v, self.name(c, v)))
                        .collect(),
                ),
            })
            .collect();
        Decoder { cells }
    }

    /// A well-formed script that every solver answers `unsat`.
    fn unsat(mut self, why: &str) -> Body {
        self.s.comment(&format!("no solution: {why}"));
        self.s.assert(&Term::sym("false"));
        let cells = self
            .model
            .cells
            .iter()
            .map(|c| CellRead::Known(c.lo))
            .collect();
        Body {
            script: self.s,
            logic: "QF_UF",
            decoder: Decoder { cells },
        }
    }

    /// Declarations and exactly-one value per undecided cell.
    fn cells(&mut self) {
        self.s
            .comment("cells: one Bool per candidate value, exactly one true");
        for c in 0..self.model.cells.len() {
            if self.prep.decided(c).is_some() {
                continue;
            }
            let lits: Vec<Term> = self.prep.doms[c]
                .iter()
                .map(|&v| {
                    let n = self.name(c, v);
                    self.s.declare_const(&n, Sort::Bool);
                    Term::sym(n)
                })
                .collect();
            self.exactly_one(lits);
        }
    }

    fn exactly_one(&mut self, lits: Vec<Term>) {
        self.s.assert(&Term::or(lits.clone()));
        self.at_most_one(&lits);
    }

    fn at_most_one(&mut self, lits: &[Term]) {
        if lits.len() <= PAIRWISE_MAX {
            // Pairwise, one assertion per literal: (not (and a (or b c …)))
            // is the clauses ¬a ∨ ¬b, ¬a ∨ ¬c, … in fewer bytes to parse.
            for (i, a) in lits.iter().enumerate() {
                let rest = &lits[i + 1..];
                if !rest.is_empty() {
                    let t = Term::and(vec![a.clone(), Term::or(rest.to_vec())]);
                    self.s.assert(&Term::not(t));
                }
            }
            return;
        }
        // Sequential counter: s_i means "one of the first i+1 is true".
        let n = lits.len();
        let mut prev = self.fresh();
        self.clause(vec![Term::not(lits[0].clone()), prev.clone()]);
        for (i, x) in lits.iter().enumerate().skip(1) {
            let nx = Term::not(x.clone());
            self.clause(vec![nx.clone(), Term::not(prev.clone())]);
            if i + 1 < n {
                let s = self.fresh();
                self.clause(vec![nx, s.clone()]);
                self.clause(vec![Term::not(prev), s.clone()]);
                prev = s;
            }
        }
    }

    fn clause(&mut self, lits: Vec<Term>) {
        self.s.assert(&Term::or(lits));
    }

    /// Per value: at most one of the group's undecided cells holds it, and
    /// when the open cells and open values match one to one, at least one.
    fn all_different(&mut self, cells: &[CellId]) {
        let open: Vec<CellId> = cells
            .iter()
            .copied()
            .filter(|&c| self.prep.decided(c).is_none())
            .collect();
        let mut values: Vec<i64> = open
            .iter()
            .flat_map(|&c| self.prep.doms[c].iter().copied())
            .collect();
        values.sort_unstable();
        values.dedup();
        // In the plain form, decided-looking cells still have variables, so
        // `open` is the whole group there.
        let full = values.len() == open.len();
        for v in values {
            let lits: Vec<Term> = open
                .iter()
                .filter(|&&c| self.prep.doms[c].binary_search(&v).is_ok())
                .map(|&c| Term::sym(self.name(c, v)))
                .collect();
            if full {
                self.s.assert(&Term::or(lits.clone()));
            }
            self.at_most_one(&lits);
        }
    }

    /// `a < b` as clauses: `a = v` implies `b` is one of its values above
    /// `v`, and `b = w` implies `a` is one below `w`.
    fn less(&mut self, a: CellId, b: CellId) {
        let doms = |c: CellId| match self.prep.decided(c) {
            Some(v) => vec![v],
            None => self.prep.doms[c].clone(),
        };
        let (da, db) = (doms(a), doms(b));
        for &v in &da {
            let mut cl = vec![Term::not(self.lit(a, v))];
            cl.extend(db.iter().filter(|&&w| w > v).map(|&w| self.lit(b, w)));
            self.clause(cl);
        }
        for &w in &db {
            let mut cl = vec![Term::not(self.lit(b, w))];
            cl.extend(da.iter().filter(|&&v| v < w).map(|&v| self.lit(a, v)));
            self.clause(cl);
        }
    }

    /// A sum, product, difference, ratio or visibility count: a tuple
    /// table when small, else the layered diagram.
    fn arithmetic(&mut self, rule: &Rule) {
        let Some((dd, open)) = self.prep.diagram(rule) else {
            return;
        };
        let differ = |i: usize, j: usize| self.prep.differ(open[i], open[j]);
        match dd.tuples(TUPLE_LIMIT, &differ) {
            Some(ts) => {
                let rows = ts
                    .iter()
                    .map(|t| Term::and(open.iter().zip(t).map(|(&c, &v)| self.lit(c, v)).collect()))
                    .collect();
                self.s.assert(&Term::or(rows));
            }
            None => self.layered(&dd, &open),
        }
    }

    /// Node variables for the inner layers; for each node `u` before cell
    /// `c`: `u → ∨ x_c_v` over its edges, `u ∧ x_c_v → child`, and each
    /// child implies one of its incoming edges (so conclusions flow both
    /// ways). The root is true and the sink needs no variable.
    fn layered(&mut self, dd: &Diagram, open: &[CellId]) {
        let k = dd.layers.len();
        // Node terms per layer; layer 0 is the root (true).
        let mut nodes: Vec<Vec<Term>> = vec![vec![Term::sym("true")]];
        for layer in dd.layers.iter().skip(1) {
            let ts = (0..layer.len()).map(|_| self.fresh()).collect();
            nodes.push(ts);
        }
        let mut incoming: Vec<Vec<Vec<Term>>> =
            nodes.iter().map(|l| vec![Vec::new(); l.len()]).collect();
        for (i, layer) in dd.layers.iter().enumerate() {
            let c = open[i];
            for (u, es) in layer.iter().enumerate() {
                let node = nodes[i][u].clone();
                let xs: Vec<Term> = es.iter().map(|&(v, _)| self.lit(c, v)).collect();
                if i == 0 {
                    self.s.assert(&Term::or(xs.clone()));
                } else {
                    let mut cl = vec![Term::not(node.clone())];
                    cl.extend(xs.iter().cloned());
                    self.clause(cl);
                }
                if i + 1 == k {
                    continue;
                }
                for (&(_, child), x) in es.iter().zip(xs) {
                    let target = nodes[i + 1][child].clone();
                    let mut cl = Vec::with_capacity(3);
                    if i > 0 {
                        cl.push(Term::not(node.clone()));
                    }
                    cl.push(Term::not(x.clone()));
                    cl.push(target);
                    self.clause(cl);
                    let edge = if i == 0 {
                        x
                    } else {
                        Term::and(vec![node.clone(), x])
                    };
                    incoming[i + 1][child].push(edge);
                }
            }
        }
        for (i, layer) in incoming.iter().enumerate().skip(1) {
            for (w, ins) in layer.iter().enumerate() {
                let node = nodes[i][w].clone();
                self.s.assert(&Term::implies(node, Term::or(ins.clone())));
            }
        }
    }
}
