//! The two main diagonals, each holding every value once (sudoku-X).
//! Read from `diagonals = true`, a grid key of the kinds that allow it
//! (sudoku, killer, jigsaw: [`crate::kinds::grid_keys`]), and written in
//! their key order ([`crate::parse::to_toml`]).

use toml::Spanned;

use super::givens::{Values, check_units, diagonal_units};
use super::{ElementType, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What};
use crate::render::marks::TextForm;
use crate::render::svg::{Layout, Svg};

/// Both main diagonals all different.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Diagonals;

impl ElementType for Diagonals {
    const NAME: &'static str = "diagonals";
    const KEYS: &'static [&'static str] = &["diagonals"];
    const FPUZZLES: &'static [&'static str] = &[];
    const WRITTEN_WITH_GRID: bool = true;
    const DOC: &'static str = "`diagonals = true` (sudoku, killer, jigsaw): both main diagonals \
        hold each value once";

    /// `diagonals = true`, once the givens are read: a given repeated on
    /// a diagonal is refused at the value.
    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let on: Spanned<bool> = r.value(key, "diagonals = true")?;
        if !*on.get_ref() {
            return Ok(Vec::new());
        }
        let g = Values {
            grid: r.givens.clone(),
            locs: Vec::new(),
        };
        check_units(&g, diagonal_units(r.rows))
            .map_err(|e| r.error_at(&on, format!("diagonals = true, but {}", e.message)))?;
        Ok(vec![Diagonals])
    }

    fn write(_all: &[&Self], w: &mut TomlWriter) {
        w.key("diagonals = true\n");
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

    /// A line under the grid: a text grid has no room to shade them.
    fn text(&self, _index: usize, t: &mut TextForm) {
        t.note("diagonals: both main diagonals hold each value once");
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
