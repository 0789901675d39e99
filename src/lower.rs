//! Lowering: every puzzle becomes one [`Model`]: its cells, its givens, and
//! then each of its elements lowers itself (`Puzzle::lowering`,
//! [`crate::elements`]); here the elements' implied rules (a renban's
//! digits), a killer's implied sums and the bounds of linear equations are
//! added, and `explain` gets its statements. Encodings and the checker see
//! cells and constraints alone.

use crate::model::{Model, Statement, derive};
use crate::puzzle::{Kind, Puzzle};

pub use crate::puzzle::given_digits;

/// Lowers a parsed puzzle into the constraint model. The parser has already
/// rejected malformed puzzles, so this cannot fail.
pub fn lower(p: &Puzzle) -> Model {
    // Statements are for `explain`; solving lowers every puzzle of a
    // file (49,151 in the 17-clue set), so it does without them.
    let l = p.lowering(false);
    let mut m = l.m;
    // What the elements' rules imply (a renban's digits), after them.
    m.constraints.extend(l.implied);
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

/// Lowers a puzzle like [`lower`], and also says which of the puzzle's
/// statements (givens, cages, runs, signs, clues, and the kind's rules as
/// units) each constraint comes from. The model has the puzzle's own rules
/// only: a killer's implied constraints follow from several statements
/// together, so they belong to none and are left out.
pub fn lower_with_statements(p: &Puzzle) -> (Model, Vec<Statement>) {
    let l = p.lowering(true);
    let statements = l.statements.unwrap_or_default();
    (l.m, statements)
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
