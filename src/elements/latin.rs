//! Latin rows and columns: no value twice in a row or a column. Every kind
//! but kakuro starts with it; its grid comes from the kind's own keys, and
//! it checks the givens' rows and columns once the grid is read
//! ([`Latin::finish_grid`](ElementType::finish_grid)).

use super::{ElementType, Lowering, Says, TomlReader, givens};
use crate::error::InputError;
use crate::model::{Group, Rule, What};

/// Rows and columns all different.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Latin;

impl ElementType for Latin {
    const NAME: &'static str = "latin";
    const KEYS: &'static [&'static str] = &[];
    const WRITTEN_WITH_GRID: bool = true;
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "every row and every column holds each value once \
        (part of every kind but kakuro; no key of its own)";

    /// No given repeats in a row, then in a column.
    fn finish_grid(
        _r: &TomlReader,
        givens: Option<&givens::Values>,
    ) -> Result<Option<Self>, InputError> {
        if let Some(g) = givens {
            givens::check_lines(g)?;
        }
        Ok(None)
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let n = l.n();
        for (what, group, name) in [
            (What::Row, Group::Rows, "row"),
            (What::Column, Group::Columns, "column"),
        ] {
            for i in 0..n {
                let k = i + 1;
                l.begin(
                    what,
                    || format!("{} {k}", what.name()),
                    || Says {
                        index: Some(k),
                        ..Says::default()
                    },
                );
                let cells = (0..n)
                    .map(|j| if what == What::Row { l.cell(i, j) } else { l.cell(j, i) })
                    .collect();
                l.push(group, format!("{name} {k}"), Rule::AllDifferent { cells });
            }
        }
    }
}
