//! `onehot`: one Bool `x_R_C_V` per (cell, candidate value) and nothing but
//! propositional logic (QF_UF), so every SMT solver and any SAT-style back
//! end takes it. Exactly one value per cell; in every all-different group
//! each value at most once (and exactly once when the group has as many
//! values as cells). A sum over cells that all differ (a killer's cage, a
//! kakuro run) becomes a choice among the sets of values that meet it when
//! there are at most `SET_LIMIT` of them. Other arithmetic rules become a
//! table of allowed tuples when it is small, otherwise a layered diagram of
//! reachable partial results (see `layered`), so nothing grows
//! exponentially with a cage.
//!
//! Size, for c cells of at most d candidates: O(c·d) for the cells'
//! declarations and exactly-one; O(|g|·d) per all-different group g
//! (pairwise up to 9 literals, a sequential counter above); per arithmetic
//! rule of k cells, m ≤ `SET_LIMIT` sets (O(m² + k·d·(m + k))), or at
//! most 48 tuples of k literals, or a diagram of at most
//! `layered::BUILD_WORK` edges, or — when the diagram would be bigger — a
//! binary adder tree over the cells' values (O(k·d·log d) for the bits of
//! the values, O(k·log(k·d)) full adders; products add one tree per prime
//! of the clue over the cells' exponents of it, differences and ratios one
//! disjunct per (cell, candidate); a visibility count one Bool per (cell,
//! value) for "the tallest so far is at least v", O(k·V) for V distinct
//! values, and a binary count of the seen cells). No form is ever more than
//! polynomial, and a single rule's script is at most
//! O(BUILD_WORK + k·d·log(k·d) + k·V).

use std::collections::{BTreeMap, VecDeque};

use super::layered::{Diagram, TooBig};
use super::layered;
use super::propagate::{Prepared, TUPLE_LIMIT};
use super::{
    Body, CellRead, Decoder, Dims, Interrupted, Settings, alternatives, candidates, cell_name,
    append_constraint, log2_ceil,
};
use crate::cancel::Cancel;
use crate::model::derive::MAX_CELLS;
use crate::model::{CellId, Constraint, Group, Model, Rule, Target};
use crate::smtlib::{Script, Sort, Term};

/// At-most-one over at most this many literals is written pairwise (no
/// auxiliary variables; measured smaller and faster for 9×9 grids); longer
/// ones use a sequential counter (Sinz), linear in size.
pub(super) const PAIRWISE_MAX: usize = 9;

/// A visibility count whose diagram has more edges than this (and more
/// than four per (cell, cell) pair) takes the compact form: every line of
/// the shipped puzzles keeps its diagram.
const VISIBLE_DIAGRAM_MAX: usize = 10_000;

/// Symbol occurrences of the script: O(cells·d + Σ k·d + Σ per
/// arithmetic rule of its sets (a sum over cells that all differ:
/// O(m² + k·d·(m + k)) for m ≤ `SET_LIMIT` sets), its diagram
/// (≤ `BUILD_WORK` edges) and its binary form (O(primes · k·d·log(k·d)),
/// or O(k·V + k·log k) for a visibility count over V distinct values)),
/// plus eight per alternative of a sum clue `A|B|…`.
pub(super) fn symbols(model: &Model, dims: &Dims) -> u64 {
    let &Dims {
        dmax, top, span, ..
    } = dims;
    let log = log2_ceil;
    let cells: u64 = model.cells.iter().map(|c| 10 * candidates(c)).sum();
    let rules: u64 = model
        .constraints
        .iter()
        .map(|c| {
            let k = c.rule.cells().len() as u64;
            match &c.rule {
                Rule::Fixed { .. } => 4,
                Rule::AllDifferent { .. } => 10 * k * dmax + 10,
                // One clause of (cell, value) literals.
                rule @ Rule::Contains { .. } => 8 * alternatives(rule) + 8,
                rule => {
                    // Distinct partial results per layer.
                    let states = match rule {
                        Rule::Sum { .. } => k * dmax + 1,
                        Rule::Product { value, .. } => value.unsigned_abs().max(1),
                        // (phase or cells left, partial sum).
                        Rule::PositionalSum { .. } => (k + 4) * (k * top + 1),
                        _ => dmax * (top + 1),
                    };
                    let edges = (k * dmax)
                        .saturating_mul(states)
                        .min(layered::BUILD_WORK as u64);
                    let table = (TUPLE_LIMIT as u64 + 1) * k;
                    let large = if let Rule::Visible { .. } = rule {
                        // A Bool per (cell, distinct value), a disjunct
                        // per (cell, candidate), a binary count of k bits.
                        let values = (k * dmax).min(span);
                        16 * k * values + 40 * k * log(k)
                    } else {
                        // Primes of the clue and of the values.
                        let primes = 16 + top.min(64);
                        20 * primes * k * dmax * log(k * dmax)
                    };
                    // A sum over cells that all differ may take the
                    // choice among at most SET_LIMIT sets instead: their
                    // exactly-one, and per value (at most k·d of them) a
                    // literal with a clause naming the sets, one naming
                    // the cells, and two-literal clauses from each.
                    let sets = match rule {
                        Rule::Sum { .. } => {
                            let m = SET_LIMIT as u64;
                            16 * m + 4 * m * m + 2 * k * dmax * (6 * m + 6 * k + 8)
                        }
                        _ => 0,
                    };
                    table + 8 * edges + large + sets + 8 * alternatives(rule)
                }
            }
        })
        .sum();
    cells + rules
}

pub(super) fn encode(
    model: &Model,
    settings: &Settings,
    cancel: &Cancel,
) -> Result<Body, Interrupted> {
    let prep = Prepared::new(model, settings.options.plain, cancel)?;
    let mut e = Emitter::new(model, &prep, settings.form);
    if let Some(why) = &prep.conflict {
        return Ok(e.unsat(why));
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
        e.constraint(i, c);
        let part = std::mem::replace(&mut e.s, whole);
        spans[i] = append_constraint(&mut e.s, &mut group, c, part);
    }
    let decoder = e.decoder();
    Ok(Body {
        script: e.s,
        logic: "QF_UF",
        decoder,
        spans,
    })
}

/// The plain form (no propagation: a given may be turned off) in
/// clauses, each clause of constraint `i` with the negation of `guard(i)`
/// (when it has one) added, so that the constraint holds while its guard
/// is assumed; for `check-sat-assuming` sessions over Bools alone.
///
/// A sum over cells that all differ is written as a choice of digit sets,
/// which holds only while their all-different holds too: that is sound
/// for sessions that keep every all-different and sum on (`generate`
/// turns off only givens, signs and edge clues), not for ones that turn a
/// cage or a unit off (`explain`).
pub(super) fn encode_guarded(
    model: &Model,
    guard: &dyn Fn(usize) -> Option<Term>,
    cancel: &Cancel,
) -> Result<Body, Interrupted> {
    let prep = Prepared::new(model, true, cancel)?;
    let mut e = Emitter::new(model, &prep, Form::Clauses);
    if let Some(why) = &prep.conflict {
        return Ok(e.unsat(why));
    }
    e.cells();
    for (i, c) in model.constraints.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(Interrupted);
        }
        e.off = guard(i).map(Term::not);
        e.constraint(i, c);
    }
    e.off = None;
    let decoder = e.decoder();
    Ok(Body {
        script: e.s,
        logic: "QF_UF",
        decoder,
        spans: vec![None; model.constraints.len()],
    })
}

/// How short at-most-one constraints are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// `(not (and a (or b c …)))`: fewest bytes to parse, for scripts run
    /// once.
    Compact,
    /// One binary clause `(or (not a) (not b))` per pair: more bytes, but
    /// solvers answer each `check-sat` of an incremental session much
    /// faster on plain clauses (yices2: 0.4 ms instead of 1.2 ms per 9×9
    /// sudoku, see the README).
    Clauses,
}

struct Emitter<'a> {
    model: &'a Model,
    prep: &'a Prepared,
    form: Form,
    s: Script,
    /// Auxiliary variables made so far (`a1`, `a2`, …).
    aux: usize,
    /// The negation of the guard of the constraint being stated, added to
    /// each of its assertions.
    off: Option<Term>,
}

impl<'a> Emitter<'a> {
    fn new(model: &'a Model, prep: &'a Prepared, form: Form) -> Self {
        Emitter {
            model,
            prep,
            form,
            s: Script::new(),
            aux: 0,
            off: None,
        }
    }

    /// States constraint `i`, `c`.
    fn constraint(&mut self, i: usize, c: &Constraint) {
        if c.group == Group::Derived
            && c.rule.cells().len() > MAX_CELLS
            && !matches!(c.rule, Rule::Contains { .. })
        {
            // A unit's sum is what its all-different already says in
            // Booleans, and its diagram made killer scripts 5× larger
            // (3.4 MB instead of 0.6 MB); innies and outies go on to the
            // rule for implied sums below. A derived `Contains` (a
            // renban's digits) is one clause, kept at any length.
            return;
        }
        match &c.rule {
            // Its cells all decided, and they satisfy it.
            rule if self.prep.settled(rule) == Some(true) => {}
            Rule::Fixed { cell, value } => {
                let lit = self.lit(*cell, *value);
                self.assert(lit);
            }
            // An implied sum is stated only where it becomes a choice of
            // digit sets (its cells all differ). As a diagram (innies and
            // outies across lines) it cost more search than it saved:
            // Glucose took the 14 Mathemagic killers with uniqueness in
            // 52 s on average over four variable orders without those
            // diagrams, 64 s with them (docs/killers.md), and their
            // scripts are 40 % smaller.
            rule @ Rule::Sum { .. } if c.group == Group::Derived => {
                self.digit_sets(rule);
            }
            Rule::AllDifferent { cells } => self.all_different(cells),
            Rule::Less { cells: [a, b] } => self.less(*a, *b),
            Rule::Contains { cells, values } => self.contains(cells, values),
            // Propagation keeps every value of a visibility count too big
            // for a diagram, so a second attempt would fail the same way
            // after costing the whole work limit again.
            rule @ Rule::Visible { .. } if self.prep.was_too_big(i) => {
                let cells = rule.cells().to_vec();
                self.large(rule, &cells);
            }
            rule => self.arithmetic(rule),
        }
    }

    /// Asserts `t`, or with a guard `t` or the guard's negation (in the
    /// clause when `t` is one).
    fn assert(&mut self, t: Term) {
        let t = match (&self.off, t) {
            (None, t) => t,
            (Some(off), Term::App(f, mut args)) if f == "or" => {
                args.insert(0, off.clone());
                Term::App(f, args)
            }
            (Some(off), t) => Term::or(vec![off.clone(), t]),
        };
        self.s.assert(&t);
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
            spans: Vec::new(),
        }
    }

    /// Declarations and exactly-one value per undecided cell.
    fn cells(&mut self) {
        if (0..self.model.cells.len()).all(|c| self.prep.decided(c).is_some()) {
            // Propagation decided every cell: no section to head.
            return;
        }
        self.s.comment(if self.prep.plain {
            "cells: one Bool per candidate value, exactly one true"
        } else {
            "cells: one Bool per candidate value, exactly one true (propagated: decided cells \
             have no variables)"
        });
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
        self.assert(Term::or(lits.clone()));
        self.at_most_one(&lits);
    }

    fn at_most_one(&mut self, lits: &[Term]) {
        if lits.len() <= PAIRWISE_MAX {
            for (i, a) in lits.iter().enumerate() {
                let rest = &lits[i + 1..];
                match self.form {
                    // (not (and a (or b c …))) is the clauses ¬a ∨ ¬b,
                    // ¬a ∨ ¬c, … in fewer bytes to parse.
                    Form::Compact if !rest.is_empty() => {
                        let t = Term::and(vec![a.clone(), Term::or(rest.to_vec())]);
                        self.assert(Term::not(t));
                    }
                    Form::Compact => {}
                    Form::Clauses => {
                        for b in rest {
                            self.clause(vec![Term::not(a.clone()), Term::not(b.clone())]);
                        }
                    }
                }
            }
            return;
        }
        let off = self.off.clone();
        super::sequential_counter(&mut self.s, lits, "a", &mut self.aux, off.as_ref());
    }

    fn clause(&mut self, lits: Vec<Term>) {
        self.assert(Term::or(lits));
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
                self.assert(Term::or(lits.clone()));
            }
            self.at_most_one(&lits);
        }
    }

    /// Some cell holds one of `values`: one clause of the (cell, value)
    /// literals still open, none when a decided cell already holds one.
    fn contains(&mut self, cells: &[CellId], values: &[i64]) {
        let mut lits = Vec::new();
        for &c in cells {
            for &v in values {
                match self.lit(c, v) {
                    Term::Sym(b) if b == "true" => return,
                    Term::Sym(b) if b == "false" => {}
                    l => lits.push(l),
                }
            }
        }
        self.clause(lits);
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

    /// A sum, product, difference, ratio or visibility count: a choice
    /// among digit sets for a sum over cells that all differ, else a tuple
    /// table when small, else the layered diagram.
    fn arithmetic(&mut self, rule: &Rule) {
        if self.digit_sets(rule) {
            return;
        }
        let Some((built, open)) = self.prep.diagram(rule) else {
            return;
        };
        let dd = match built {
            Ok(dd) => dd,
            Err(TooBig) => return self.large(rule, &open),
        };
        if let Rule::Visible { .. } = rule {
            // A line's diagram can come close to the work limit while its
            // compact form stays a few Bools per (cell, height).
            let edges: usize = dd.layers.iter().flatten().map(Vec::len).sum();
            if edges > VISIBLE_DIAGRAM_MAX && edges > 4 * open.len() * open.len() {
                return self.large(rule, &open);
            }
        }
        let differ = |i: usize, j: usize| self.prep.differ(open[i], open[j]);
        match dd.tuples(TUPLE_LIMIT, &differ) {
            Some(ts) => {
                let rows = ts
                    .iter()
                    .map(|t| Term::and(open.iter().zip(t).map(|(&c, &v)| self.lit(c, v)).collect()))
                    .collect();
                self.assert(Term::or(rows));
            }
            None => self.layered(&dd, &open),
        }
    }

    /// A sum over cells that all differ (a killer's cage, a kakuro run)
    /// as a choice among the sets of values that meet it: one Bool per
    /// set, exactly one true; a cell holds a value only if the chosen set
    /// has it, and each value of the chosen set is held by some cell,
    /// both through a literal per value "the cage holds v" (true exactly
    /// when the chosen set has v, and then some cell holds v). As
    /// the cells differ, they then hold the set exactly, so its sum. A
    /// solver reads from it at once what a sum diagram hides: which values
    /// the cage must contain, and that a value no set left can go nowhere
    /// in it. It turned the Mathemagic killers from over 60 s of yices2
    /// CPU each into seconds (docs/killers.md). Whether it was written;
    /// rules with more than `SET_LIMIT` sets keep their diagram.
    fn digit_sets(&mut self, rule: &Rule) -> bool {
        let Rule::Sum { cells, target } = rule else {
            return false;
        };
        if !self.prep.all_differ(cells) {
            return false;
        }
        let (known, open) = self.prep.split(cells);
        let values: Vec<i64> = {
            let mut vs: Vec<i64> = open
                .iter()
                .flat_map(|&c| self.prep.doms[c].iter().copied())
                .filter(|v| !known.contains(v))
                .collect();
            vs.sort_unstable();
            vs.dedup();
            vs
        };
        let offset: i64 = known.iter().sum();
        let (lo, hi) = match target {
            Target::Eq(t) => (*t, *t),
            Target::OneOf(ts) => match (ts.first(), ts.last()) {
                (Some(lo), Some(hi)) => (*lo, *hi),
                _ => return false,
            },
        };
        let range = (lo - offset, hi - offset);
        let Some(sets) = digit_sets(&values, open.len(), range, &|s| target.accepts(s + offset))
        else {
            return false;
        };
        // Every value of a set is some open cell's candidate: the sets are
        // drawn from their candidates.
        if sets.is_empty() {
            self.assert(Term::sym("false"));
            return true;
        }
        // A single set needs no Bool to choose it: a value outside it is
        // no cell's, and each of its values is some cell's.
        if sets.len() == 1 {
            for &c in &open {
                for &v in &self.prep.doms[c] {
                    if !sets[0].contains(&v) {
                        self.clause(vec![Term::not(self.lit(c, v))]);
                    }
                }
            }
            for &v in &sets[0] {
                let cl = self.holding(&open, v);
                self.clause(cl);
            }
            return true;
        }
        let chosen: Vec<Term> = sets.iter().map(|_| self.fresh()).collect();
        self.exactly_one(chosen.clone());
        let mut candidates: Vec<i64> =
            open.iter().flat_map(|&c| self.prep.doms[c].iter().copied()).collect();
        candidates.sort_unstable();
        candidates.dedup();
        for v in candidates {
            let with: Vec<Term> = (0..sets.len())
                .filter(|&i| sets[i].contains(&v))
                .map(|i| chosen[i].clone())
                .collect();
            let cells = self.holding(&open, v);
            if with.is_empty() {
                for x in cells {
                    self.clause(vec![Term::not(x)]);
                }
                continue;
            }
            // A value of every set is in the cage whichever is chosen.
            if with.len() == sets.len() {
                self.clause(cells);
                continue;
            }
            // A named literal "the cage holds v" between the cells and the
            // sets, so that learnt clauses can speak of it; measured under
            // random seeds in docs/killers.md (whole runs 23-37 % shorter).
            let holds = self.fresh();
            let mut cl = vec![Term::not(holds.clone())];
            cl.extend(with.iter().cloned());
            self.clause(cl);
            for t in with.iter().chain(&cells) {
                self.clause(vec![Term::not(t.clone()), holds.clone()]);
            }
            let mut cl = vec![Term::not(holds)];
            cl.extend(cells);
            self.clause(cl);
        }
        true
    }

    /// The literals "cell c holds v" of the open cells that may hold `v`.
    fn holding(&self, open: &[CellId], v: i64) -> Vec<Term> {
        open.iter()
            .filter(|&&c| self.prep.doms[c].binary_search(&v).is_ok())
            .map(|&c| self.lit(c, v))
            .collect()
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
                    self.assert(Term::or(xs.clone()));
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
                self.assert(Term::implies(node, Term::or(ins.clone())));
            }
        }
    }
}

/// A sum over cells that all differ is written as a choice among at most
/// this many sets of values (every cage and derived sum of a 9×9 killer has
/// at most 12); one with more keeps its diagram.
const SET_LIMIT: usize = 64;

/// Steps the search for a rule's sets may take before it gives up (the
/// rule then keeps its diagram): the search is exponential in the cells.
const SET_WORK: usize = 100_000;

/// The sets of `k` distinct values among `values` (sorted, distinct) whose
/// sum lies in `range` and `accepts`, each sorted; `None` when there are
/// more than `SET_LIMIT` or finding them would take more than `SET_WORK`
/// steps.
fn digit_sets(
    values: &[i64],
    k: usize,
    range: (i64, i64),
    accepts: &dyn Fn(i64) -> bool,
) -> Option<Vec<Vec<i64>>> {
    struct Search<'a> {
        values: &'a [i64],
        range: (i64, i64),
        accepts: &'a dyn Fn(i64) -> bool,
        found: Vec<Vec<i64>>,
        set: Vec<i64>,
        work: usize,
    }
    impl Search<'_> {
        /// Extends `set` by `left` more values from `values[from..]`.
        fn go(&mut self, from: usize, left: usize, sum: i64) -> Option<()> {
            self.work += 1;
            if self.work > SET_WORK || self.found.len() > SET_LIMIT {
                return None;
            }
            if left == 0 {
                if (self.accepts)(sum) {
                    self.found.push(self.set.clone());
                }
                return Some(());
            }
            let n = self.values.len();
            // Values ascend: the largest completion is the top `left`
            // values, and the smallest from `i` only grows with `i`.
            let most: i64 = self.values[n - left..].iter().sum();
            if sum + most < self.range.0 {
                return Some(());
            }
            for i in from..=n - left {
                let least: i64 = self.values[i..i + left].iter().sum();
                if sum + least > self.range.1 {
                    break;
                }
                self.set.push(self.values[i]);
                let r = self.go(i + 1, left - 1, sum + self.values[i]);
                self.set.pop();
                r?;
            }
            Some(())
        }
    }
    if k > values.len() {
        return Some(Vec::new());
    }
    let mut search = Search {
        values,
        range,
        accepts,
        found: Vec::new(),
        set: Vec::with_capacity(k),
        work: 0,
    };
    search.go(0, k, 0)?;
    (search.found.len() <= SET_LIMIT).then_some(search.found)
}

/// A bit of a binary number: a constant or a Bool term.
#[derive(Debug, Clone)]
enum Bit {
    Const(bool),
    Var(Term),
}

/// A binary number, least significant bit first.
type Number = Vec<Bit>;

/// Bits needed to write `v` (0 for 0).
fn bit_len(v: u64) -> usize {
    (64 - v.leading_zeros()) as usize
}

/// `v` as a product of primes: (prime, exponent), primes ascending.
fn factor(mut v: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= v {
        let mut e = 0;
        while v.is_multiple_of(p) {
            v /= p;
            e += 1;
        }
        if e > 0 {
            out.push((p, e));
        }
        p += 1;
    }
    if v > 1 {
        out.push((v, 1));
    }
    out
}

/// The exponent of prime `p` in `v` (v ≥ 1).
fn exponent(mut v: u64, p: u64) -> u64 {
    let mut e = 0;
    while v > 0 && v.is_multiple_of(p) {
        v /= p;
        e += 1;
    }
    e
}

/// Large rules: binary arithmetic over the one-hot literals, for rules
/// whose diagram would exceed the work limit.
impl Emitter<'_> {
    /// A sum, product, difference or ratio too big for a diagram. Sums
    /// work for any values; the others need positive cells and clues
    /// (all that lowering makes), and otherwise get the diagram whatever
    /// its size.
    fn large(&mut self, rule: &Rule, open: &[CellId]) {
        if let Rule::Visible { count, .. } = rule {
            let t = self.large_visible(open, *count);
            self.assert(t);
            return;
        }
        let (known, _) = self.prep.split(rule.cells());
        let positive = open
            .iter()
            .all(|&c| self.prep.doms[c].first().is_some_and(|&v| v >= 1))
            && known.iter().all(|&v| v >= 1);
        let t = match rule {
            Rule::Sum { target, .. } => self.large_sum(open, &known, target),
            Rule::Product { value, .. } if positive && *value >= 1 => {
                self.large_product(open, &known, *value as u64)
            }
            Rule::Difference { value, .. } if positive && *value >= 0 => {
                self.large_largest(open, &known, *value as u64, false)
            }
            Rule::Ratio { value, .. } if positive && *value >= 1 => {
                self.large_largest(open, &known, *value as u64, true)
            }
            _ => {
                let doms: Vec<&[i64]> =
                    open.iter().map(|&c| self.prep.doms[c].as_slice()).collect();
                if let Some(dd) = Diagram::build_unbounded(rule, &known, &doms) {
                    self.layered(&dd, open);
                }
                return;
            }
        };
        self.assert(t);
    }

    /// The sum of `weight(v)` over the cells' values, as a binary number:
    /// each cell's weight in binary (bit j is the disjunction of its
    /// literals whose weight has bit j), added up in a balanced tree.
    fn weighted_sum(&mut self, open: &[CellId], weight: &dyn Fn(CellId, i64) -> u64) -> Number {
        let mut nums: VecDeque<Number> = VecDeque::with_capacity(open.len());
        for &c in open {
            let ws: Vec<(i64, u64)> = self.prep.doms[c]
                .iter()
                .map(|&v| (v, weight(c, v)))
                .collect();
            let width = ws.iter().map(|&(_, w)| bit_len(w)).max().unwrap_or(0);
            let mut num = Vec::with_capacity(width);
            for j in 0..width {
                let set: Vec<Term> = ws
                    .iter()
                    .filter(|&&(_, w)| w >> j & 1 == 1)
                    .map(|&(v, _)| self.lit(c, v))
                    .collect();
                num.push(match set.len() {
                    0 => Bit::Const(false),
                    n if n == ws.len() => Bit::Const(true),
                    1 => Bit::Var(set[0].clone()),
                    _ => self.define(Term::or(set)),
                });
            }
            nums.push_back(num);
        }
        self.add_all(nums)
    }

    /// The sum of `nums`, added up in a balanced tree.
    fn add_all(&mut self, mut nums: VecDeque<Number>) -> Number {
        while nums.len() > 1 {
            let (a, b) = (nums.pop_front(), nums.pop_front());
            let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
            let sum = self.add(&a, &b);
            nums.push_back(sum);
        }
        nums.pop_front().unwrap_or_default()
    }

    /// Visibility along a line too long for a diagram (`open` is every
    /// cell of the line, in order; decided ones read as constants):
    /// `m[i][v]` ("the tallest of the first i+1 cells is at least v") is
    /// `m[i][v+1] ∨ m[i-1][v] ∨ x_i=v`, cell i is seen when it holds some
    /// v with ¬m[i-1][v], and the seen cells are counted in binary. O(k·V)
    /// Bools for k cells and V distinct values, each of constant size
    /// except the seen ones' (O(d) each).
    fn large_visible(&mut self, open: &[CellId], count: i64) -> Term {
        let dom = |c: CellId| match self.prep.decided(c) {
            Some(v) => vec![v],
            None => self.prep.doms[c].clone(),
        };
        let mut values: Vec<i64> = open.iter().flat_map(|&c| dom(c)).collect();
        values.sort_unstable();
        values.dedup();
        let mut seen: VecDeque<Number> = VecDeque::with_capacity(open.len());
        // The previous cells' `m`, one term per value (ascending).
        let mut prev: Option<Vec<Term>> = None;
        for (i, &c) in open.iter().enumerate() {
            let d = dom(c);
            let bit = match &prev {
                // The first cell is always seen.
                None => Bit::Const(true),
                Some(m) => {
                    let cases = d
                        .iter()
                        .map(|&v| {
                            let j = values.partition_point(|&w| w < v);
                            Term::and(vec![self.lit(c, v), Term::not(m[j].clone())])
                        })
                        .collect();
                    self.define(Term::or(cases))
                }
            };
            seen.push_back(vec![bit]);
            // The last cell's `m` is never read.
            if i + 1 == open.len() {
                break;
            }
            let mut m: Vec<Term> = vec![Term::sym("false"); values.len()];
            for j in (0..values.len()).rev() {
                let mut any = Vec::with_capacity(3);
                if j + 1 < values.len() {
                    any.push(m[j + 1].clone());
                }
                if let Some(p) = &prev {
                    any.push(p[j].clone());
                }
                if d.binary_search(&values[j]).is_ok() {
                    any.push(self.lit(c, values[j]));
                }
                m[j] = match any.len() {
                    0 | 1 => Term::or(any),
                    _ => match self.define(Term::or(any)) {
                        Bit::Var(t) => t,
                        Bit::Const(b) => Term::sym(if b { "true" } else { "false" }),
                    },
                };
            }
            prev = Some(m);
        }
        let num = self.add_all(seen);
        Self::equals(&num, i128::from(count))
    }

    /// A fresh Bool defined as `t`.
    fn define(&mut self, t: Term) -> Bit {
        let b = self.fresh();
        self.assert(Term::eq(b.clone(), t));
        Bit::Var(b)
    }

    /// Ripple-carry addition.
    fn add(&mut self, a: &Number, b: &Number) -> Number {
        let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
        let mut carry = Bit::Const(false);
        for j in 0..a.len().max(b.len()) {
            let x = a.get(j).cloned().unwrap_or(Bit::Const(false));
            let y = b.get(j).cloned().unwrap_or(Bit::Const(false));
            let (s, c) = self.full_add(x, y, carry);
            out.push(s);
            carry = c;
        }
        out.push(carry);
        while matches!(out.last(), Some(Bit::Const(false))) {
            out.pop();
        }
        out
    }

    /// Sum and carry of three bits, constants folded away.
    fn full_add(&mut self, x: Bit, y: Bit, z: Bit) -> (Bit, Bit) {
        let mut vars = Vec::new();
        let mut ones = 0;
        for b in [x, y, z] {
            match b {
                Bit::Const(true) => ones += 1,
                Bit::Const(false) => {}
                Bit::Var(t) => vars.push(t),
            }
        }
        let xor = |a: Term, b: Term| Term::app("xor", vec![a, b]);
        match (vars.as_slice(), ones) {
            ([], n) => (Bit::Const(n % 2 == 1), Bit::Const(n >= 2)),
            ([a], 0) => (Bit::Var(a.clone()), Bit::Const(false)),
            ([a], 1) => (Bit::Var(Term::not(a.clone())), Bit::Var(a.clone())),
            ([a], _) => (Bit::Var(a.clone()), Bit::Const(true)),
            ([a, b], 0) => (
                self.define(xor(a.clone(), b.clone())),
                self.define(Term::and(vec![a.clone(), b.clone()])),
            ),
            ([a, b], _) => (
                self.define(Term::eq(a.clone(), b.clone())),
                self.define(Term::or(vec![a.clone(), b.clone()])),
            ),
            ([a, b, c, ..], _) => {
                let both = |p: &Term, q: &Term| Term::and(vec![p.clone(), q.clone()]);
                (
                    self.define(xor(xor(a.clone(), b.clone()), c.clone())),
                    self.define(Term::or(vec![both(a, b), both(a, c), both(b, c)])),
                )
            }
        }
    }

    /// "The number equals `u`" as a conjunction of bit literals.
    fn equals(num: &Number, u: i128) -> Term {
        if u < 0 || (num.len() < 127 && u >> num.len() != 0) {
            return Term::sym("false");
        }
        let mut lits = Vec::new();
        for (j, b) in num.iter().enumerate() {
            let want = j < 127 && u >> j & 1 == 1;
            match b {
                Bit::Const(v) if *v == want => {}
                Bit::Const(_) => return Term::sym("false"),
                Bit::Var(t) if want => lits.push(t.clone()),
                Bit::Var(t) => lits.push(Term::not(t.clone())),
            }
        }
        Term::and(lits)
    }

    /// Σ cells ∈ targets: the sum of each value minus its cell's least
    /// candidate, compared with each target minus the rest.
    fn large_sum(&mut self, open: &[CellId], known: &[i64], target: &Target) -> Term {
        let mins: BTreeMap<CellId, i64> = open
            .iter()
            .map(|&c| (c, self.prep.doms[c].first().copied().unwrap_or(0)))
            .collect();
        let base: i128 = known.iter().map(|&v| i128::from(v)).sum::<i128>()
            + mins.values().map(|&v| i128::from(v)).sum::<i128>();
        let num = self.weighted_sum(open, &|c, v| (v - mins[&c]) as u64);
        let ts: Vec<i64> = match target {
            Target::Eq(t) => vec![*t],
            Target::OneOf(ts) => ts.clone(),
        };
        Term::or(
            ts.into_iter()
                .map(|t| Self::equals(&num, i128::from(t) - base))
                .collect(),
        )
    }

    /// A product of positive cells: values that do not divide the clue are
    /// excluded, and for each prime of the clue the cells' exponents of it
    /// add up to the clue's.
    fn large_product(&mut self, open: &[CellId], known: &[i64], value: u64) -> Term {
        let mut parts = Vec::new();
        for &c in open {
            for &v in &self.prep.doms[c] {
                if !value.is_multiple_of(v as u64) {
                    parts.push(Term::not(self.lit(c, v)));
                }
            }
        }
        for (p, e) in factor(value) {
            let have: u64 = known.iter().map(|&v| exponent(v as u64, p)).sum();
            let num = self.weighted_sum(open, &|_, v| exponent(v as u64, p));
            parts.push(Self::equals(&num, i128::from(e) - i128::from(have)));
        }
        if known.iter().any(|&v| !value.is_multiple_of(v as u64)) {
            parts.push(Term::sym("false"));
        }
        Term::and(parts)
    }

    /// A difference (ratio) of positive cells: some cell x has
    /// 2·x = S + clue (x² = clue · P), for S the sum (P the product) of all
    /// cells; such a cell is at least the sum (clue times the product) of
    /// the others, so it is the largest. Products are compared prime by
    /// prime through the exponents.
    fn large_largest(&mut self, open: &[CellId], known: &[i64], value: u64, ratio: bool) -> Term {
        // Each candidate's condition "x is the largest and the rule holds",
        // as one defined Bool per distinct x.
        let mut xs: Vec<i64> = open
            .iter()
            .flat_map(|&c| self.prep.doms[c].iter().copied())
            .chain(known.iter().copied())
            .collect();
        xs.sort_unstable();
        xs.dedup();
        let mut holds: BTreeMap<i64, Term> = BTreeMap::new();
        if ratio {
            // Every prime of a value or of the clue: one of the clue's
            // that divides no value makes every case false by itself.
            let mut primes: Vec<u64> = xs
                .iter()
                .map(|&x| x as u64)
                .chain([value])
                .flat_map(|v| factor(v).into_iter().map(|(p, _)| p))
                .collect();
            primes.sort_unstable();
            primes.dedup();
            let mut sums = Vec::new();
            for &p in &primes {
                let have: u64 = known.iter().map(|&v| exponent(v as u64, p)).sum();
                sums.push((
                    p,
                    have,
                    self.weighted_sum(open, &|_, v| exponent(v as u64, p)),
                ));
            }
            for &x in &xs {
                let conj = sums
                    .iter()
                    .map(|(p, have, num)| {
                        let want = 2 * i128::from(exponent(x as u64, *p))
                            - i128::from(exponent(value, *p))
                            - i128::from(*have);
                        Self::equals(num, want)
                    })
                    .collect();
                let b = self.define(Term::and(conj));
                if let Bit::Var(t) = b {
                    holds.insert(x, t);
                }
            }
        } else {
            let have: i128 = known.iter().map(|&v| i128::from(v)).sum();
            let num = self.weighted_sum(open, &|_, v| v as u64);
            for &x in &xs {
                let want = 2 * i128::from(x) - i128::from(value) - have;
                if let Bit::Var(t) = self.define(Self::equals(&num, want)) {
                    holds.insert(x, t);
                }
            }
        }
        let mut cases: Vec<Term> = known.iter().filter_map(|x| holds.get(x).cloned()).collect();
        for &c in open {
            for &x in &self.prep.doms[c] {
                if let Some(h) = holds.get(&x) {
                    cases.push(Term::and(vec![self.lit(c, x), h.clone()]));
                }
            }
        }
        Term::or(cases)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::encode::layered::ordered;
    use crate::model::{Cell, Constraint};
    use crate::smtlib::sexp::{Sexp, parse_all};

    /// The value of a Boolean term under `env`, or `None` when it depends
    /// on a name `env` leaves open (Kleene's three values, so a search can
    /// prune on a partial assignment).
    fn eval(t: &Sexp, env: &HashMap<String, bool>) -> Option<bool> {
        match t {
            Sexp::Atom(a) if a == "true" => Some(true),
            Sexp::Atom(a) if a == "false" => Some(false),
            Sexp::Atom(a) => env.get(a).copied(),
            Sexp::List(l) => {
                let args: Vec<Option<bool>> = l[1..].iter().map(|a| eval(a, env)).collect();
                let known = || args.iter().copied().collect::<Option<Vec<bool>>>();
                match l[0].as_atom() {
                    Some("not") => args[0].map(|b| !b),
                    Some("and") if args.contains(&Some(false)) => Some(false),
                    Some("and") => known().map(|bs| bs.iter().all(|&b| b)),
                    Some("or") if args.contains(&Some(true)) => Some(true),
                    Some("or") => known().map(|bs| bs.iter().any(|&b| b)),
                    Some("xor") => known().map(|bs| bs.iter().fold(false, |a, &b| a ^ b)),
                    Some("=") => known().map(|bs| bs.windows(2).all(|w| w[0] == w[1])),
                    other => panic!("unexpected {other:?}"),
                }
            }
            Sexp::Str(s) => panic!("string {s}"),
        }
    }

    /// Whether some values of the `open` names make every assertion true
    /// under `env`: a backtracking search that prunes on any assertion
    /// already false.
    fn satisfiable(asserts: &[&Sexp], env: &mut HashMap<String, bool>, open: &[String]) -> bool {
        if asserts.iter().any(|a| eval(a, env) == Some(false)) {
            return false;
        }
        let Some((name, rest)) = open.split_first() else {
            return asserts.iter().all(|a| eval(a, env) == Some(true));
        };
        let found = [false, true].into_iter().any(|b| {
            env.insert(name.clone(), b);
            satisfiable(asserts, env, rest)
        });
        env.remove(name);
        found
    }

    /// A model of one row of `k` cells with values 1..=hi, these
    /// constraints, and the first cells given the `fixed` values.
    fn row_model(k: usize, hi: i64, mut constraints: Vec<Constraint>, fixed: &[i64]) -> Model {
        for (cell, &value) in fixed.iter().enumerate() {
            constraints.push(Constraint {
                rule: Rule::Fixed { cell, value },
                origin: "given".into(),
                group: Group::Givens,
            });
        }
        Model {
            name: "t".into(),
            title: None,
            rows: 1,
            cols: k,
            cells: (0..k)
                .map(|col| Cell {
                    row: 0,
                    col,
                    lo: 1,
                    hi,
                })
                .collect(),
            constraints,
        }
    }

    /// Steps `tuple` (values 1..=hi) to the next one; false after the
    /// last.
    fn next_tuple(tuple: &mut [i64], hi: i64) -> bool {
        for t in tuple.iter_mut() {
            if *t < hi {
                *t += 1;
                return true;
            }
            *t = 1;
        }
        false
    }

    /// The large form of `rule` over cells with values 1..=hi (the first
    /// `fixed` of them given) holds exactly for the tuples `Rule::holds`
    /// accepts: every tuple is tried, the form's definitions evaluated in
    /// order and its final assertion checked.
    fn large_agrees(rule: &Rule, k: usize, hi: i64, fixed: &[i64]) {
        let model = row_model(k, hi, Vec::new(), fixed);
        let prep = Prepared::new(&model, fixed.is_empty(), &Cancel::new()).expect("not cancelled");
        let mut e = Emitter::new(&model, &prep, Form::Compact);
        let open = if ordered(rule) {
            rule.cells().to_vec()
        } else {
            prep.split(rule.cells()).1
        };
        e.large(rule, &open);
        let text = e.s.as_str().to_string();
        let cmds = parse_all(&text).expect("a script");
        let mut tuple = vec![1i64; k];
        loop {
            let mut env = HashMap::new();
            for (c, &t) in tuple.iter().enumerate() {
                for v in 1..=hi {
                    env.insert(e.name(c, v), t == v);
                }
            }
            let mut ok = true;
            for cmd in &cmds {
                let l = cmd.as_list().expect("a command");
                if l[0].is_atom("declare-const") {
                    continue;
                }
                let t = &l[1];
                match t.as_list() {
                    Some([f, Sexp::Atom(a), def])
                        if f.is_atom("=") && a.starts_with('a') && !env.contains_key(a) =>
                    {
                        let v = eval(def, &env).expect("defined from the cells");
                        env.insert(a.clone(), v);
                    }
                    _ => ok &= eval(t, &env) == Some(true),
                }
            }
            let possible = fixed.iter().zip(&tuple).all(|(f, t)| f == t);
            if possible {
                assert_eq!(ok, rule.holds(&tuple), "{rule:?} on {tuple:?}\n{text}");
            }
            if !next_tuple(&mut tuple, hi) {
                break;
            }
        }
    }

    #[test]
    fn large_forms_match_the_rules() {
        let cells: Vec<CellId> = (0..4).collect();
        for fixed in [&[][..], &[3][..]] {
            for t in [4, 9, 13, 16] {
                let rule = Rule::Sum {
                    cells: cells.clone(),
                    target: Target::Eq(t),
                };
                large_agrees(&rule, 4, 5, fixed);
            }
            let rule = Rule::Sum {
                cells: cells.clone(),
                target: Target::OneOf(vec![4, 9, 16]),
            };
            large_agrees(&rule, 4, 5, fixed);
            for value in [1, 6, 12, 36, 60, 7, 625] {
                let rule = Rule::Product {
                    cells: cells.clone(),
                    value,
                };
                large_agrees(&rule, 4, 6, fixed);
            }
            for value in [0, 1, 2, 3, 5] {
                let rule = Rule::Difference {
                    cells: cells.clone(),
                    value,
                };
                large_agrees(&rule, 4, 6, fixed);
            }
            for value in [1, 2, 3, 4, 6] {
                let rule = Rule::Ratio {
                    cells: cells.clone(),
                    value,
                };
                large_agrees(&rule, 4, 6, fixed);
            }
            for count in 0..=5 {
                let rule = Rule::Visible {
                    cells: cells.clone(),
                    count,
                };
                large_agrees(&rule, 4, 4, fixed);
                large_agrees(&rule, 4, 5, fixed);
            }
        }
    }

    #[test]
    fn digit_sets_are_the_sets_of_distinct_values_with_the_sum() {
        let digits: Vec<i64> = (1..=9).collect();
        let sets = |k, t| digit_sets(&digits, k, (t, t), &|s| s == t);
        assert_eq!(sets(3, 7), Some(vec![vec![1, 2, 4]]));
        assert_eq!(
            sets(2, 10),
            Some(vec![vec![1, 9], vec![2, 8], vec![3, 7], vec![4, 6]])
        );
        assert_eq!(sets(3, 5), Some(vec![]));
        assert_eq!(sets(9, 45), Some(vec![digits.clone()]));
        assert_eq!(sets(10, 55), Some(vec![]));
        // Alternatives: the range bounds the search, `accepts` decides.
        let odd = digit_sets(&digits, 2, (3, 5), &|s| s % 2 == 1);
        assert_eq!(odd, Some(vec![vec![1, 2], vec![1, 4], vec![2, 3]]));
        // Eight of 1..=16 summing to 68: far more than SET_LIMIT sets.
        let wide: Vec<i64> = (1..=16).collect();
        assert_eq!(digit_sets(&wide, 8, (68, 68), &|s| s == 68), None);
    }

    /// The sets form of a sum over `k` cells that all differ, values
    /// 1..=hi (the first `fixed` given), is satisfiable for exactly the
    /// tuples of distinct values that `Rule::holds` accepts: every tuple
    /// is tried, and for each a search over the Bools the form adds.
    fn sets_agree(target: Target, k: usize, hi: i64, fixed: &[i64]) {
        let cells: Vec<CellId> = (0..k).collect();
        let row = Constraint {
            rule: Rule::AllDifferent {
                cells: cells.clone(),
            },
            origin: "row".into(),
            group: Group::Rows,
        };
        let model = row_model(k, hi, vec![row], fixed);
        let rule = Rule::Sum { cells, target };
        // Only the givens are propagated: the test needs every other
        // candidate kept, so that the form alone decides.
        let mut prep = Prepared::new(&model, true, &Cancel::new()).expect("not cancelled");
        for (c, &v) in fixed.iter().enumerate() {
            prep.doms[c] = vec![v];
        }
        prep.plain = fixed.is_empty();
        let mut e = Emitter::new(&model, &prep, Form::Compact);
        assert!(e.digit_sets(&rule), "{rule:?} takes the sets form");
        let text = e.s.as_str().to_string();
        let cmds = parse_all(&text).expect("a script");
        let fresh: Vec<String> = cmds
            .iter()
            .filter_map(|c| match c.as_list() {
                Some([d, Sexp::Atom(a), _]) if d.is_atom("declare-const") => Some(a.clone()),
                _ => None,
            })
            .collect();
        let asserts: Vec<&Sexp> = cmds
            .iter()
            .filter_map(|c| c.as_list())
            .filter(|l| l[0].is_atom("assert"))
            .map(|l| &l[1])
            .collect();
        let mut tuple = vec![1i64; k];
        loop {
            let distinct = (0..k).all(|i| (0..i).all(|j| tuple[i] != tuple[j]));
            let possible = fixed.iter().zip(&tuple).all(|(f, t)| f == t);
            if distinct && possible {
                let mut env = HashMap::new();
                for (c, &t) in tuple.iter().enumerate() {
                    for v in 1..=hi {
                        env.insert(e.name(c, v), t == v);
                    }
                }
                let some = satisfiable(&asserts, &mut env, &fresh);
                assert_eq!(some, rule.holds(&tuple), "{rule:?} on {tuple:?}\n{text}");
            }
            if !next_tuple(&mut tuple, hi) {
                break;
            }
        }
    }

    #[test]
    fn the_sets_form_matches_the_rule() {
        for fixed in [&[][..], &[3][..]] {
            for t in [3, 6, 9, 12, 15, 18, 25] {
                sets_agree(Target::Eq(t), 3, 7, fixed);
            }
            sets_agree(Target::OneOf(vec![7, 10, 16]), 3, 7, fixed);
            sets_agree(Target::Eq(10), 4, 6, fixed);
        }
    }
}
