//! Inequality signs between orthogonal neighbours (futoshiki). Read from
//! the futoshiki kind's `grid` (`<`, `>` between cells, `^`, `v` between rows).

use super::{ElementType, Lowering};
use crate::model::{Group, Rule, What, rc};

/// An inequality between two orthogonally adjacent cells (futoshiki):
/// the value at `less` is smaller than the value at `greater`. Cells are
/// 0-based (row, column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inequality {
    /// The cell holding the smaller value.
    pub less: (usize, usize),
    /// The cell holding the larger value.
    pub greater: (usize, usize),
}

/// Every inequality sign of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signs(pub Vec<Inequality>);

impl ElementType for Signs {
    const NAME: &'static str = "signs";
    const KEYS: &'static [&'static str] = &[];
    const DOC: &'static str = "`grid = \"\"\"…\"\"\"` (futoshiki): `<` `>` between the cells of a \
        row and `^` `v` under a cell: the smaller value is on the sign's point side";

    fn lower(&self, _index: usize, l: &mut Lowering) {
        for q in &self.0 {
            let origin = format!(
                "{} < {}",
                rc(q.less.0, q.less.1),
                rc(q.greater.0, q.greater.1)
            );
            let rule = Rule::Less {
                cells: [l.cell(q.less.0, q.less.1), l.cell(q.greater.0, q.greater.1)],
            };
            l.begin(What::Sign, || origin.clone(), Default::default);
            l.push(Group::Inequalities, origin, rule);
        }
    }
}
