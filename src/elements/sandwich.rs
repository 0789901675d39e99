//! Sandwich: a clue beside a row or column gives the sum of the cells
//! strictly between its 1 and its n (9 on 9×9), in either order; 0 when
//! they are neighbours (SudokuSolver's `sandwich`, ISS's `Sandwich`).
//!
//! ```toml
//! [[sandwich]]
//! at = "r0c3"     # above column 3 (row 0 or n+1, column 0 or n+1)
//! value = 12
//! ```

use super::outside::{SideClue, SideKind};
use crate::model::{CellId, Rule, Stretch};

/// A sandwich clue ([`SandwichKind`]).
pub type Sandwich = SideClue<SandwichKind>;

/// What a sandwich clue means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandwichKind;

impl SideKind for SandwichKind {
    const NAME: &'static str = "sandwich";
    const KEYS: &'static [&'static str] = &["sandwich"];
    const FPUZZLES: &'static [&'static str] = &["sandwichsum"];
    const ISS: &'static [&'static str] = &["Sandwich"];
    const DOC: &'static str = "`[[sandwich]] at = \"r0c3\"` `value = N`: the cells strictly between \
        the 1 and the n of that column (or row) sum to N";
    const WHAT: &'static str = "sum";
    const ISS_SUM_FIRST: bool = true;

    /// From 0 (the 1 and the n side by side) to 2 + … + (n − 1).
    fn range(n: i64) -> (i64, i64) {
        (0, (n * (n + 1) / 2 - 1 - n).max(0))
    }

    fn rule(cells: Vec<CellId>, value: i64, n: i64) -> Rule {
        Rule::PositionalSum {
            cells,
            stretch: Stretch::Between { a: 1, b: n },
            value,
        }
    }
}
