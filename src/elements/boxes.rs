//! Boxes: rectangles of `rows`×`cols` cells tiling the grid, each holding
//! every value once (sudoku, killer). Read from the kind's `box` key (or
//! the square boxes without it) with the kind's grid, in `parse`; written
//! by [`Boxes::write`](ElementType::write) in the kind's key order.

use super::{ElementType, Layer, Lowering, Says, TomlWriter};
use crate::model::{Group, Rule, What};
use crate::render::svg::{Layout, Svg, thick_edges};

/// The boxes of a sudoku: their shape (rows, columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Boxes {
    /// Rows of one box.
    pub rows: usize,
    /// Columns of one box.
    pub cols: usize,
}

impl ElementType for Boxes {
    const NAME: &'static str = "boxes";
    const KEYS: &'static [&'static str] = &["box"];
    const WRITTEN_WITH_GRID: bool = true;
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "`box = \"RxC\"` (sudoku, killer): boxes of R×C cells, each value once \
        per box; without it, the square boxes of an n×n grid";

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for b in all {
            w.key(&format!("box = \"{}x{}\"\n", b.rows, b.cols));
        }
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let n = l.n();
        let (br, bc) = (self.rows, self.cols);
        if br == 0 || bc == 0 {
            return;
        }
        let mut k = 0;
        for r0 in (0..n).step_by(br) {
            for c0 in (0..n).step_by(bc) {
                k += 1;
                l.begin(
                    What::Box,
                    || format!("box {k}"),
                    || Says {
                        index: Some(k),
                        ..Says::default()
                    },
                );
                let cells = (r0..r0 + br)
                    .flat_map(|r| (c0..c0 + bc).map(move |c| (r, c)))
                    .map(|(r, c)| l.cell(r, c))
                    .collect();
                l.push(Group::Boxes, format!("box {k}"), Rule::AllDifferent { cells });
            }
        }
    }

    /// Thick lines between the boxes.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        let (br, bc) = (self.rows, self.cols);
        if layer != Layer::Borders || br == 0 || bc == 0 {
            return;
        }
        thick_edges(s, layout, |(r1, c1), (r2, c2)| {
            (r1 / br, c1 / bc) != (r2 / br, c2 / bc)
        });
    }
}

/// The square box shape of an n×n sudoku, when n is a perfect square.
pub fn square_box(n: usize) -> Option<(usize, usize)> {
    let s = (1..=n).take_while(|s| s * s <= n).last()?;
    (s * s == n).then_some((s, s))
}

/// The box shape to suggest for an n×n sudoku: the square one if n is a
/// perfect square, else R×C with R·C = n, R < C and R as large as possible
/// (6 → 2×3, 8 → 2×4, 12 → 3×4).
pub fn suggested_box(n: usize) -> (usize, usize) {
    let r = (1..=n)
        .rev()
        .find(|r| r * r <= n && n.is_multiple_of(*r))
        .unwrap_or(1);
    (r, n / r.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_follow_the_rule() {
        assert_eq!(square_box(9), Some((3, 3)));
        assert_eq!(square_box(1), Some((1, 1)));
        assert_eq!(square_box(6), None);
        assert_eq!(suggested_box(6), (2, 3));
        assert_eq!(suggested_box(8), (2, 4));
        assert_eq!(suggested_box(12), (3, 4));
        assert_eq!(suggested_box(16), (4, 4));
        assert_eq!(suggested_box(7), (1, 7));
    }
}
