//! `lia`: the source documents' encoding. One `Int` per cell with bounds,
//! `distinct` for all-different, linear sums; products make it QF_NIA.
//! Kept plain and faithful; the fast encodings are `onehot` and `bv`.
//!
//! Size: linear. One declaration and one bounds assertion per cell, and one
//! term per constraint that mentions each of its cells once (`distinct` is
//! a single term; solvers expand it themselves), so the script has
//! O(cells + Σ constraint sizes) symbols. Difference and ratio cages of
//! more than [`QUADRATIC_MAX`] cells name the sum of all their cells once
//! (prefix and suffix products for ratios) instead of repeating "the
//! others" for each cell.

use super::{
    Body, CellRead, Decoder, Dims, Interrupted, Settings, alternatives, cell_name,
    comment_constraint, stretch_terms, summed_if,
};
use crate::cancel::Cancel;
use crate::model::{CellId, Group, Model, Rule, Target};
use crate::smtlib::{Script, Sort, Term};

/// Difference and ratio cages of at most this many cells are written as
/// "some cell equals the clue plus (times) the others", quadratic in the
/// cage; larger ones through one named sum (product) of all cells.
pub(super) const QUADRATIC_MAX: usize = 8;

/// Symbol occurrences of the script: eight per cell (declaration and
/// bounds), eight per cell of each constraint plus eight for the
/// constraint, eight per alternative of a sum clue `A|B|…` (each
/// alternative compares the once-named sum), and forty more per cell of a
/// positional sum (two named Bools and their definitions, its summed
/// condition and its term).
pub(super) fn symbols(model: &Model, d: &Dims) -> u64 {
    8 * d.n
        + model
            .constraints
            .iter()
            .map(|c| {
                let k = c.rule.cells().len() as u64;
                let positional = match c.rule {
                    Rule::PositionalSum { .. } => 40 * k,
                    _ => 0,
                };
                8 * k + 8 + 8 * alternatives(&c.rule) + positional
            })
            .sum::<u64>()
}

pub(super) fn encode(
    model: &Model,
    _settings: &Settings,
    cancel: &Cancel,
) -> Result<Body, Interrupted> {
    encode_ints(model, cancel)
}

/// The integer encoding; also bv's for models with negative values.
pub(super) fn encode_ints(model: &Model, cancel: &Cancel) -> Result<Body, Interrupted> {
    encode_guarded(model, None, cancel)
}

/// Encodes `model` like [`encode_ints`]; with `guards` (one term per
/// constraint), each constraint is asserted as `(=> guard constraint)`, so
/// that a session can switch constraints on and off with
/// `check-sat-assuming`. Every constraint is stated on its own (lia never
/// combines two), so a guard turns off exactly its own constraint.
pub(super) fn encode_guarded(
    model: &Model,
    guards: Option<&[Term]>,
    cancel: &Cancel,
) -> Result<Body, Interrupted> {
    let names: Vec<String> = model.cells.iter().map(cell_name).collect();
    let var = |id: CellId| Term::sym(&names[id]);
    let mut s = Script::new();
    let mut nonlinear = false;

    s.comment("cells");
    for n in &names {
        s.declare_const(n, Sort::Int);
    }
    s.comment("domains");
    for (id, c) in model.cells.iter().enumerate() {
        s.assert(&Term::and(vec![
            Term::app("<=", vec![Term::Int(c.lo), var(id)]),
            Term::app("<=", vec![var(id), Term::Int(c.hi)]),
        ]));
    }

    let mut group: Option<Group> = None;
    let mut aux = 0;
    let mut spans = vec![None; model.constraints.len()];
    for (i, c) in model.constraints.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(Interrupted);
        }
        // All different over one cell says nothing: no command, and no
        // comment either (no empty group).
        if matches!(c.rule, Rule::AllDifferent { .. }) && c.rule.cells().len() < 2 {
            continue;
        }
        comment_constraint(&mut s, &mut group, c);
        let start = s.as_str().len();
        let vars: Vec<Term> = c.rule.cells().iter().map(|&id| var(id)).collect();
        let t = match &c.rule {
            Rule::Fixed { cell, value } => Term::eq(var(*cell), Term::Int(*value)),
            Rule::AllDifferent { .. } => Term::app("distinct", vars),
            Rule::Sum { target, .. } => match target {
                Target::Eq(v) => Term::eq(add(vars), Term::Int(*v)),
                Target::OneOf(vs) => {
                    // Name the sum once rather than repeating it for each
                    // alternative (cells × alternatives otherwise).
                    let sum = match vs.len() {
                        0 | 1 => add(vars),
                        _ if vars.len() < 2 => add(vars),
                        _ => named(&mut s, &mut aux, add(vars)),
                    };
                    Term::or(
                        vs.iter()
                            .map(|&v| Term::eq(sum.clone(), Term::Int(v)))
                            .collect(),
                    )
                }
            },
            Rule::Product { value, .. } => {
                nonlinear |= vars.len() > 1;
                Term::eq(mul(vars), Term::Int(*value))
            }
            Rule::Difference { value, .. } if vars.len() > QUADRATIC_MAX => {
                // max − (S − max) = clue  ⇔  2·max = S + clue; a cell with
                // 2·x = S + clue is at least the sum of the others, so it
                // is the largest (cells are at least 1).
                let all = named(&mut s, &mut aux, add(vars.clone()));
                let rhs = add_const(*value, vec![all]);
                Term::or(
                    vars.into_iter()
                        .map(|x| Term::eq(Term::app("*", vec![Term::Int(2), x]), rhs.clone()))
                        .collect(),
                )
            }
            Rule::Ratio { value, .. } if vars.len() > QUADRATIC_MAX => {
                // The others' product of each cell from named prefix and
                // suffix products: 2k products of two factors, the same
                // equations as the small form.
                nonlinear = true;
                let k = vars.len();
                let mut pre = vec![vars[0].clone()];
                for x in &vars[1..k - 1] {
                    let p = Term::app("*", vec![pre[pre.len() - 1].clone(), x.clone()]);
                    pre.push(named(&mut s, &mut aux, p));
                }
                let mut suf = vec![vars[k - 1].clone()];
                for x in vars[1..k - 1].iter().rev() {
                    let p = Term::app("*", vec![x.clone(), suf[suf.len() - 1].clone()]);
                    suf.push(named(&mut s, &mut aux, p));
                }
                suf.reverse(); // suf[i] is the product of cells i + 1 ..
                let others = |i: usize| match i {
                    0 => suf[0].clone(),
                    i if i == k - 1 => pre[k - 2].clone(),
                    i => Term::app("*", vec![pre[i - 1].clone(), suf[i].clone()]),
                };
                Term::or(
                    (0..k)
                        .map(|i| {
                            let rhs = Term::app("*", vec![Term::Int(*value), others(i)]);
                            Term::eq(vars[i].clone(), rhs)
                        })
                        .collect(),
                )
            }
            Rule::Difference { value, .. } => {
                // The largest equals the clue plus the sum of the others.
                largest_is(&vars, |others| add_const(*value, others))
            }
            Rule::Ratio { value, .. } => {
                // The largest equals the clue times the product of the others.
                nonlinear |= vars.len() > 2;
                largest_is(&vars, |others| match others.len() {
                    0 => Term::Int(*value),
                    _ => Term::app("*", vec![Term::Int(*value), mul(others)]),
                })
            }
            Rule::Less { .. } => Term::app("<", vars),
            Rule::Visible { count, .. } if vars.is_empty() => Term::sym(bool_name(*count == 0)),
            Rule::Visible { count, .. } => Term::eq(add(seen(&vars)), Term::Int(*count)),
            Rule::Linear {
                coeffs, cmp, value, ..
            } => {
                let terms: Vec<Term> = vars
                    .into_iter()
                    .zip(coeffs)
                    .map(|(x, &k)| match k {
                        1 => x,
                        -1 => Term::app("-", vec![x]),
                        k => Term::app("*", vec![Term::Int(k), x]),
                    })
                    .collect();
                let sum = match terms.len() {
                    0 => Term::Int(0),
                    _ => add(terms),
                };
                Term::app(cmp.smt(), vec![sum, Term::Int(*value)])
            }
            // One conjunction of equalities per allowed tuple.
            Rule::Table { tuples, .. } => Term::or(
                tuples
                    .iter()
                    .map(|t| {
                        Term::and(
                            vars.iter()
                                .zip(t)
                                .map(|(x, &v)| Term::eq(x.clone(), Term::Int(v)))
                                .collect(),
                        )
                    })
                    .collect(),
            ),
            Rule::PositionalSum { stretch, value, .. } => {
                let is = |i: usize, v: i64| Term::eq(vars[i].clone(), Term::Int(v));
                let at_least = |i: usize, v: i64| Term::app(">=", vec![vars[i].clone(), Term::Int(v)]);
                let mut define = |t: Term| named_bool(&mut s, &mut aux, t);
                let (summed, exists) =
                    stretch_terms(*stretch, vars.len(), &is, &at_least, &mut define);
                let terms: Vec<Term> = summed
                    .into_iter()
                    .zip(&vars)
                    .filter_map(|(on, x)| summed_if(on, x.clone(), Term::Int(0)))
                    .collect();
                let sum = match terms.len() {
                    0 => Term::Int(0),
                    _ => add(terms),
                };
                Term::and(vec![exists, Term::eq(sum, Term::Int(*value))])
            }
            // Some cell equals some value.
            Rule::Contains { values, .. } => Term::or(
                vars.iter()
                    .flat_map(|x| values.iter().map(|&v| Term::eq(x.clone(), Term::Int(v))))
                    .collect(),
            ),
        };
        match guards.and_then(|g| g.get(i)) {
            Some(g) => s.assert(&Term::implies(g.clone(), t)),
            None => s.assert(&t),
        }
        spans[i] = Some((start, s.as_str().len()));
    }
    let decoder = Decoder {
        cells: names.into_iter().map(CellRead::Int).collect(),
    };
    Ok(Body {
        script: s,
        logic: if nonlinear { "QF_NIA" } else { "QF_LIA" },
        decoder,
        spans,
    })
}

/// Declares an `Int` `sN` equal to `t` and returns it.
fn named(s: &mut Script, aux: &mut usize, t: Term) -> Term {
    *aux += 1;
    let name = format!("s{aux}");
    s.declare_const(&name, Sort::Int);
    s.assert(&Term::eq(Term::sym(&name), t));
    Term::sym(name)
}

/// Declares a Bool `sN` equal to `t` and returns it (a constant stays as
/// it is).
fn named_bool(s: &mut Script, aux: &mut usize, t: Term) -> Term {
    if matches!(&t, Term::Sym(b) if b == "true" || b == "false") {
        return t;
    }
    *aux += 1;
    let name = format!("s{aux}");
    s.declare_const(&name, Sort::Bool);
    s.assert(&Term::eq(Term::sym(&name), t));
    Term::sym(name)
}

fn bool_name(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

/// One `(ite SEEN 1 0)` per cell of a line: a cell is seen when it is
/// greater than every cell before it (the first always is).
fn seen(vars: &[Term]) -> Vec<Term> {
    (0..vars.len())
        .map(|i| match i {
            0 => Term::Int(1),
            _ => {
                let taller = (0..i)
                    .map(|j| Term::app("<", vec![vars[j].clone(), vars[i].clone()]))
                    .collect();
                Term::app("ite", vec![Term::and(taller), Term::Int(1), Term::Int(0)])
            }
        })
        .collect()
}

fn add(mut ts: Vec<Term>) -> Term {
    if ts.len() == 1 {
        ts.remove(0)
    } else {
        Term::app("+", ts)
    }
}

fn mul(mut ts: Vec<Term>) -> Term {
    if ts.len() == 1 {
        ts.remove(0)
    } else {
        Term::app("*", ts)
    }
}

fn add_const(k: i64, mut others: Vec<Term>) -> Term {
    others.push(Term::Int(k));
    add(others)
}

/// `(or (= xi f(others)) …)` over each cell i. Cells are at least 1, so
/// `xi = clue + sum(others)` or `xi = clue · prod(others)` already makes
/// xi the largest (ties included): no comparisons are needed.
fn largest_is(vars: &[Term], f: impl Fn(Vec<Term>) -> Term) -> Term {
    let cases = (0..vars.len())
        .map(|i| {
            let others: Vec<Term> = vars
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, t)| t.clone())
                .collect();
            Term::eq(vars[i].clone(), f(others))
        })
        .collect();
    Term::or(cases)
}
