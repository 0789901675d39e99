//! Double arrows: the cells between the two ends sum to the two ends.
//!
//! ```toml
//! [[double-arrow]]
//! cells = "r1c1 r1c2 r1c3 r1c4"
//! ```

use super::line::{Line, LineKind, with_end_circles, equal_sums, ids, };
use crate::model::Rule;
use crate::render::svg::{CELL, Layout, Svg};

/// A double arrow ([`DoubleArrowKind`]).
pub type DoubleArrow = Line<DoubleArrowKind>;

/// What a double arrow means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubleArrowKind;

impl LineKind for DoubleArrowKind {
    const NAME: &'static str = "double-arrow";
    const KEYS: &'static [&'static str] = &["double-arrow"];
    const FPUZZLES: &'static [&'static str] = &["doublearrow"];
    const ISS: &'static [&'static str] = &["DoubleArrow"];
    const DOC: &'static str = "`[[double-arrow]] cells = \"r1c1 r1c2 …\"`: the cells between the \
        ends sum to the two ends";
    const COLOUR: &'static str = "#a0a0a0";
    const MIN: usize = 3;

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let last = ids.len() - 1;
        vec![equal_sums(&ids[1..last], &[ids[0], ids[last]])]
    }

    /// A grey line with a white circle at each end.
    fn draw(line: &DoubleArrow, layout: &Layout, s: &mut Svg) {
        with_end_circles(line, layout, s, 2.5, CELL * 0.38, 2.5);
    }
}
