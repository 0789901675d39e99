//! The two main diagonals, each holding every value once (sudoku-X).
//! Read from `diagonals = true` (sudoku, killer, jigsaw).

use super::{HookError, ElementType, Layer, Lowering, Says};
use crate::model::{Group, Rule, What};
use crate::render::svg::{Layout, Svg};

/// Both main diagonals all different.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Diagonals;

impl ElementType for Diagonals {
    const NAME: &'static str = "diagonals";
    const KEYS: &'static [&'static str] = &[];
    const FPUZZLES: &'static [&'static str] = &[];
    const DOC: &'static str = "`diagonals = true` (sudoku, killer, jigsaw): both main diagonals \
        hold each value once";

    /// Written with the grid by `import::fpuzzles::from_puzzle`.
    fn to_fpuzzles(
        _all: &[&Self],
        _top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        Ok(())
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let n = l.n();
        let main = (0..n).map(|i| l.cell(i, i)).collect();
        let anti = (0..n).map(|i| l.cell(i, n - 1 - i)).collect();
        for (label, origin, cells) in [
            ("main", "main diagonal", main),
            ("anti", "anti-diagonal", anti),
        ] {
            l.begin(
                What::Diagonal,
                || origin.to_string(),
                || Says {
                    label: Some(label.to_string()),
                    ..Says::default()
                },
            );
            l.push(
                Group::Diagonals,
                origin.to_string(),
                Rule::AllDifferent { cells },
            );
        }
    }

    /// The diagonals' cells shaded grey.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let (rows, cols) = l.shape();
        let n = rows.min(cols);
        for i in 0..n {
            let mut cols = vec![i, n - 1 - i];
            cols.dedup();
            for c in cols {
                s.rect(l.cell(i, c), r##"class="diagonal" fill="#e4e4e4""##);
            }
        }
    }
}
