//! Palindromes: the line reads the same from either end.
//!
//! ```toml
//! [[palindrome]]
//! cells = "r1c1 r1c2 r2c3"
//! ```

use super::line::{Line, LineKind, ids, linear};
use crate::model::{Cmp, Rule};

/// A palindrome line ([`PalindromeKind`]).
pub type Palindrome = Line<PalindromeKind>;

/// What a palindrome means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PalindromeKind;

impl LineKind for PalindromeKind {
    const NAME: &'static str = "palindrome";
    const KEYS: &'static [&'static str] = &["palindrome"];
    const FPUZZLES: &'static [&'static str] = &["palindrome"];
    const ISS: &'static [&'static str] = &["Palindrome"];
    const DOC: &'static str = "`[[palindrome]] cells = \"r1c1 r1c2 …\"`: the line reads the same from \
        either end";
    const COLOUR: &'static str = "#b0b0b0";

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let k = ids.len();
        (0..k / 2)
            .map(|i| linear(vec![ids[i], ids[k - 1 - i]], vec![1, -1], Cmp::Eq, 0))
            .collect()
    }
}
