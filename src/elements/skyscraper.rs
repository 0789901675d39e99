//! Skyscraper clues on any grid: a clue beside a row or column counts the
//! cells seen from it, a cell being seen when it is higher than every
//! cell before it (SudokuSolver's `skyscraper`, ISS's `Skyscraper`). The
//! skyscrapers kind's own `top`/`bottom`/`left`/`right` keys
//! ([`super::edge_clues`]) say the same for a whole side at once.
//!
//! ```toml
//! [[skyscraper]]
//! at = "r10c2"    # below column 2 of a 9×9: looks up it
//! value = 3
//! ```

use super::outside::{SideClue, SideKind};
use crate::model::{CellId, Rule};

/// A skyscraper clue ([`SkyscraperKind`]).
pub type Skyscraper = SideClue<SkyscraperKind>;

/// What a skyscraper clue means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkyscraperKind;

impl SideKind for SkyscraperKind {
    const NAME: &'static str = "skyscraper";
    const KEYS: &'static [&'static str] = &["skyscraper"];
    const FPUZZLES: &'static [&'static str] = &["skyscraper"];
    const ISS: &'static [&'static str] = &["Skyscraper"];
    const DOC: &'static str = "`[[skyscraper]] at = \"r0c3\"` `value = N`: N cells of that column \
        (or row) are seen from the clue, each higher than every cell before it";
    const WHAT: &'static str = "count";

    fn range(n: i64) -> (i64, i64) {
        (1, n)
    }

    fn rule(cells: Vec<CellId>, value: i64, _n: i64) -> Rule {
        Rule::Visible {
            cells,
            count: value,
        }
    }
}
