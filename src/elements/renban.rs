//! Renban lines: the digits on the line are all different and form a set
//! of consecutive values, in any order.
//!
//! ```toml
//! [[renban]]
//! cells = "r1c1 r1c2 r2c2"
//! ```

use super::line::{Line, LineKind, ids, linear};
use crate::model::{Cmp, Rule, derive};

/// A renban line ([`RenbanKind`]).
pub type Renban = Line<RenbanKind>;

/// What a renban line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenbanKind;

impl LineKind for RenbanKind {
    const NAME: &'static str = "renban";
    const KEYS: &'static [&'static str] = &["renban"];
    const FPUZZLES: &'static [&'static str] = &["renban"];
    const ISS: &'static [&'static str] = &["Renban"];
    const DOC: &'static str = "`[[renban]] cells = \"r1c1 r1c2 …\"`: the line's digits all differ and \
        are consecutive, in any order; at most n cells";
    const COLOUR: &'static str = "#f067f0";
    const AT_MOST_N: bool = true;

    /// k different values no two of which lie more than k − 1 apart are k
    /// consecutive values: all different, and a − b ≤ k − 1 for every
    /// ordered pair.
    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let span = ids.len() as i64 - 1;
        let mut rules = vec![Rule::AllDifferent { cells: ids.clone() }];
        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i + 1..] {
                rules.push(linear(vec![a, b], vec![1, -1], Cmp::Le, span));
                rules.push(linear(vec![b, a], vec![1, -1], Cmp::Le, span));
            }
        }
        rules
    }

    /// The values every run of the line's length holds, one of each
    /// residue class, its smallest and largest ([`derive::consecutive`]):
    /// what lets a solver place a renban's digits in its rows, columns and
    /// boxes at once.
    fn implied(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        derive::consecutive(&l.m, &ids(cells, l))
    }
}
