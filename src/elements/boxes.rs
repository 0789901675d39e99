//! Boxes: rectangles of `rows`×`cols` cells tiling the grid, each holding
//! every value once (sudoku, killer). Read from the kind's `box` key.

use super::{ElementType, Layer, Lowering, Says};
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
    const KEYS: &'static [&'static str] = &[];
    const WRITTEN_WITH_GRID: bool = true;
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "`box = \"RxC\"` (sudoku, killer): boxes of R×C cells, each value once \
        per box; without it, the square boxes of an n×n grid";

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
