//! `lia`: the source documents' encoding. One `Int` per cell with bounds,
//! `distinct` for all-different, linear sums; products make it QF_NIA.
//! Kept plain and faithful; the fast encodings are `onehot` and `bv`.

use super::{Body, CellRead, Decoder, cell_name, comment_constraint};
use crate::model::{CellId, Group, Model, Rule, Target};
use crate::smtlib::{Script, Sort, Term};

pub(super) fn encode(model: &Model) -> Body {
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
    for c in &model.constraints {
        comment_constraint(&mut s, &mut group, c, None);
        let vars: Vec<Term> = c.rule.cells().iter().map(|&id| var(id)).collect();
        let t = match &c.rule {
            Rule::Fixed { cell, value } => Term::eq(var(*cell), Term::Int(*value)),
            Rule::AllDifferent { .. } if vars.len() < 2 => continue,
            Rule::AllDifferent { .. } => Term::app("distinct", vars),
            Rule::Sum { target, .. } => {
                let sum = add(vars);
                match target {
                    Target::Eq(v) => Term::eq(sum, Term::Int(*v)),
                    Target::OneOf(vs) => Term::or(
                        vs.iter()
                            .map(|&v| Term::eq(sum.clone(), Term::Int(v)))
                            .collect(),
                    ),
                }
            }
            Rule::Product { value, .. } => {
                nonlinear |= vars.len() > 1;
                Term::eq(mul(vars), Term::Int(*value))
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
        };
        s.assert(&t);
    }
    let decoder = Decoder {
        cells: names.into_iter().map(CellRead::Int).collect(),
    };
    Body {
        script: s,
        logic: if nonlinear { "QF_NIA" } else { "QF_LIA" },
        decoder,
    }
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
