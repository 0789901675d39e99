//! X-sum: a clue beside a row or column gives the sum of the first X
//! cells seen from it, X being the first cell's value (SudokuSolver's
//! `xsum`, ISS's `XSum`).
//!
//! ```toml
//! [[x-sum]]
//! at = "r4c0"     # left of row 4: looks right along it
//! value = 10
//! ```

use super::outside::{SideClue, SideKind};
use crate::model::{CellId, Rule, Stretch};

/// An X-sum clue ([`XSumKind`]).
pub type XSum = SideClue<XSumKind>;

/// What an X-sum clue means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XSumKind;

impl SideKind for XSumKind {
    const NAME: &'static str = "x-sum";
    const KEYS: &'static [&'static str] = &["x-sum"];
    const FPUZZLES: &'static [&'static str] = &["xsum"];
    const ISS: &'static [&'static str] = &["XSum"];
    const DOC: &'static str = "`[[x-sum]] at = \"r4c0\"` `value = N`: the first X cells seen from \
        the clue sum to N, X being the first cell's value";
    const WHAT: &'static str = "sum";

    /// From 1 (a 1 first) to 1 + … + n (an n first).
    fn range(n: i64) -> (i64, i64) {
        (1, n * (n + 1) / 2)
    }

    fn rule(cells: Vec<CellId>, value: i64, _n: i64) -> Rule {
        Rule::PositionalSum {
            cells,
            stretch: Stretch::Leading,
            value,
        }
    }
}
