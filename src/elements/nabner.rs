//! Nabner lines: no two cells of the line (any two, not only neighbours)
//! hold equal or consecutive values.
//!
//! ```toml
//! [[nabner]]
//! cells = "r1c1 r2c2 r3c3"
//! ```

use super::line::{Line, LineKind, ids, table};
use crate::model::Rule;

/// A nabner line ([`NabnerKind`]).
pub type Nabner = Line<NabnerKind>;

/// What a nabner line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NabnerKind;

impl LineKind for NabnerKind {
    const NAME: &'static str = "nabner";
    const KEYS: &'static [&'static str] = &["nabner"];
    const FPUZZLES: &'static [&'static str] = &["nabner"];
    const DOC: &'static str = "`[[nabner]] cells = \"r1c1 r1c2 …\"`: no two cells of the line hold \
        equal or consecutive values; at most n cells";
    const COLOUR: &'static str = "#e8c800";
    const AT_MOST_N: bool = true;
    const TABLES: bool = true;

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let mut rules = Vec::new();
        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i + 1..] {
                rules.push(table(vec![a, b], l, |v| (v[0] - v[1]).abs() >= 2));
            }
        }
        rules
    }
}
