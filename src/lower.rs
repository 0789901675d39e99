//! Lowering: every puzzle becomes one [`Model`]: its cells, its givens, and
//! then each of its elements lowers itself ([`crate::elements`]); encodings
//! and the checker see cells and constraints alone.

use crate::elements::{self, Element, Lowering, Says};
use crate::model::{Cell, Group, Model, Rule, Statement, What, derive, given_origin, rc};
use crate::puzzle::{Kind, Puzzle};

/// Lowers a parsed puzzle into the constraint model. The parser has already
/// rejected malformed puzzles, so this cannot fail.
pub fn lower(p: &Puzzle) -> Model {
    // Statements are for `explain`; solving lowers every puzzle of a
    // file (49,151 in the 17-clue set), so it does without them.
    let mut m = lowering(p, false).m;
    if p.kind == Kind::Killer {
        // What a killer solver knows (innies, outies, unit sums), for
        // every encoding.
        let implied = derive::implied(&m);
        m.constraints.extend(implied);
    }
    let bounds = derive::bounds(&m);
    m.constraints.extend(bounds);
    m
}

/// The puzzle's given digits as (row, column, value), in the order
/// [`lower`] states them: each becomes a [`Rule::Fixed`] of the cell at
/// that square, and nothing else in the model depends on them.
pub fn given_digits(p: &Puzzle) -> impl Iterator<Item = (usize, usize, i64)> + '_ {
    p.givens.iter().enumerate().flat_map(|(r, line)| {
        line.iter()
            .enumerate()
            .filter_map(move |(c, g)| g.map(|v| (r, c, i64::from(v))))
    })
}

/// Lowers a puzzle like [`lower`], and also says which of the puzzle's
/// statements (givens, cages, runs, signs, clues, and the kind's rules as
/// units) each constraint comes from. The model has the puzzle's own rules
/// only: a killer's implied constraints follow from several statements
/// together, so they belong to none and are left out.
pub fn lower_with_statements(p: &Puzzle) -> (Model, Vec<Statement>) {
    let l = lowering(p, true);
    let statements = l.statements.unwrap_or_default();
    (l.m, statements)
}

/// Lowers `p`, keeping its statements if `statements`: its cells (every
/// square some element does not take away, values 1 to the grid's side
/// unless an element says otherwise), its givens, then its elements in the
/// registry's order.
fn lowering(p: &Puzzle, statements: bool) -> Lowering<'_> {
    let hi = p
        .elements
        .iter()
        .find_map(Element::max_value)
        .unwrap_or(p.rows as i64);
    let mut cells = Vec::with_capacity(p.rows * p.cols);
    for row in 0..p.rows {
        for col in 0..p.cols {
            if p.elements.iter().all(|e| e.holds_cell(row, col)) {
                cells.push(Cell {
                    row,
                    col,
                    lo: 1,
                    hi,
                });
            }
        }
    }
    let model = Model {
        name: p.name.clone(),
        title: p.title.clone(),
        rows: p.rows,
        cols: p.cols,
        cells,
        constraints: Vec::new(),
    };
    let mut l = Lowering::new(model, &p.elements, statements);
    for (r, c, value) in given_digits(p) {
        let says = || Says {
            value: Some(value),
            ..Says::default()
        };
        l.begin(
            What::Given,
            || format!("given {} = {value}", rc(r, c)),
            says,
        );
        let rule = Rule::Fixed {
            cell: l.cell(r, c),
            value,
        };
        l.push(Group::Givens, given_origin(r, c), rule);
    }
    elements::lower_all(&p.elements, &mut l);
    l
}

/// The solution `p`'s file records (checked when the file was read), in
/// `model`'s cell order: `model` is `p` lowered, or its shape.
pub fn recorded_solution(p: &Puzzle, model: &Model) -> Option<Vec<i64>> {
    let grid: Vec<Vec<Option<i64>>> = p
        .solution
        .as_ref()?
        .iter()
        .map(|row| row.iter().map(|v| v.map(i64::from)).collect())
        .collect();
    model.values_of(&grid)
}
