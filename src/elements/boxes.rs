//! Boxes: rectangles of `rows`×`cols` cells tiling the grid, each holding
//! every value once (sudoku, killer). Read from the kind's `box` key (or
//! the square boxes without it) once the grid's size is known, by
//! [`Boxes::read_sized`](ElementType::read_sized), the givens checked
//! against them by [`Boxes::finish_grid`](ElementType::finish_grid);
//! written by [`Boxes::write`](ElementType::write) in the kind's key order.

use toml::Spanned;

use super::{ElementType, Layer, Lowering, Member, Says, TomlReader, TomlWriter, givens};
use crate::error::{InputError, Location};
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

    /// The kind's `box` against the grid's size, or the square boxes of
    /// a grid without it (an error at `at`, where the grid is written, if
    /// it has none).
    fn read_sized(r: &TomlReader, at: &Location) -> Result<Option<Self>, InputError> {
        let given: Option<Spanned<String>> = r.value_if_any("box", "box = \"3x3\"")?;
        let given = given.map(|b| (b.get_ref().clone(), r.loc(b.span().start)));
        let given = given.as_ref().map(|(text, loc)| (text.as_str(), loc.clone()));
        let (rows, cols) = super::grid_text::box_shape(r.rows, given, at)?;
        Ok(Some(Boxes { rows, cols }))
    }

    /// No given repeats in a box.
    fn finish_grid(
        r: &TomlReader,
        givens: Option<&givens::Values>,
    ) -> Result<Option<Self>, InputError> {
        if let (Some(g), Some(b)) = (givens, r.elements.iter().find_map(Self::of)) {
            givens::check_boxes(g, (b.rows, b.cols))?;
        }
        Ok(None)
    }

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
