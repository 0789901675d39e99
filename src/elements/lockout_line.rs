//! Lockout lines (as the Interactive Sudoku Solver): the two ends differ
//! by at least `difference` (default ⌈n/2⌉ − 1: 4 on 9×9), and every other
//! cell of the line lies outside the closed range between the ends.
//!
//! ```toml
//! [[lockout-line]]
//! cells = "r1c1 r1c2 r1c3"
//! difference = 4
//! ```

use super::line::{Line, LineKind, centre, ids, stroke, table};
use crate::model::Rule;
use crate::render::svg::{CELL, Layout, Svg};

/// A lockout line ([`LockoutLineKind`]).
pub type LockoutLine = Line<LockoutLineKind>;

/// What a lockout line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockoutLineKind;

impl LineKind for LockoutLineKind {
    const NAME: &'static str = "lockout-line";
    const KEYS: &'static [&'static str] = &["lockout-line"];
    const FPUZZLES: &'static [&'static str] = &["lockout"];
    const ISS: &'static [&'static str] = &["Lockout"];
    const DOC: &'static str = "`[[lockout-line]] cells = \"r1c1 r1c2 …\"` (`difference = D`): the ends \
        differ by at least D (default ⌈n/2⌉ − 1: 4 on 9×9), the other cells lie outside the range \
        between them";
    const PARAM: Option<&'static str> = Some("difference");
    const COLOUR: &'static str = "#e08080";
    const TABLES: bool = true;

    fn default_param(n: i64) -> i64 {
        ((n + 1) / 2 - 1).max(1)
    }

    fn check_param(d: i64, _len: usize, n: i64) -> Result<(), String> {
        if d < 1 || d >= n {
            return Err(format!("difference = {d}: write a difference from 1 to {}", n - 1));
        }
        Ok(())
    }

    fn rules(cells: &[(usize, usize)], d: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let (a, b) = (ids[0], ids[ids.len() - 1]);
        let mut rules = vec![table(vec![a, b], l, |v| (v[0] - v[1]).abs() >= d)];
        for &x in &ids[1..ids.len() - 1] {
            rules.push(table(vec![a, x, b], l, |v| {
                v[1] < v[0].min(v[2]) || v[1] > v[0].max(v[2])
            }));
        }
        rules
    }

    /// A line with a diamond at each end.
    fn draw(line: &LockoutLine, layout: &Layout, s: &mut Svg) {
        stroke(line, layout, s, CELL * 0.15);
        for end in [line.cells[0], line.cells[line.cells.len() - 1]] {
            let (x, y) = centre(layout, end);
            let h = CELL * 0.4;
            s.polyline(
                &[(x, y - h), (x + h, y), (x, y + h), (x - h, y), (x, y - h)],
                r##"class="lockout-line-end" fill="white" stroke="#e08080" stroke-width="2.5""##,
            );
        }
    }
}
