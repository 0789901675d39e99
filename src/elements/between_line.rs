//! Between lines: every cell inside the line lies strictly between the
//! two ends' values (either end may be the smaller).
//!
//! ```toml
//! [[between-line]]
//! cells = "r1c1 r1c2 r1c3"
//! ```

use super::line::{Line, LineKind, with_end_circles, ids, table};
use crate::model::Rule;
use crate::render::svg::{CELL, Layout, Svg};

/// A between line ([`BetweenLineKind`]).
pub type BetweenLine = Line<BetweenLineKind>;

/// What a between line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetweenLineKind;

impl LineKind for BetweenLineKind {
    const NAME: &'static str = "between-line";
    const KEYS: &'static [&'static str] = &["between-line"];
    const FPUZZLES: &'static [&'static str] = &["betweenline"];
    const ISS: &'static [&'static str] = &["Between"];
    const DOC: &'static str = "`[[between-line]] cells = \"r1c1 r1c2 …\"`: the cells inside lie \
        strictly between the two ends";
    const COLOUR: &'static str = "#a0a0a0";
    const MIN: usize = 3;
    const TABLES: bool = true;

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let (a, b) = (ids[0], ids[ids.len() - 1]);
        ids[1..ids.len() - 1]
            .iter()
            .map(|&x| {
                table(vec![a, x, b], l, |v| {
                    v[0].min(v[2]) < v[1] && v[1] < v[0].max(v[2])
                })
            })
            .collect()
    }

    /// A grey line with a white circle at each end.
    fn draw(line: &BetweenLine, layout: &Layout, s: &mut Svg) {
        with_end_circles(line, layout, s, 3.0, CELL * 0.4, 2.0);
    }
}
