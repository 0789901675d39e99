//! Odd and even cells: a grey circle marks a cell holding an odd value, a
//! grey square one holding an even value (SudokuSolver's `odd` / `even`).
//!
//! ```toml
//! [[odd]]
//! cells = "r1c1 r3c4"        # each cell listed is odd
//!
//! [[even]]
//! cells = "r2c2"
//! ```

use super::kit::{Mark, mark_from_fpuzzles, mark_to_fpuzzles, read_mark, write_mark};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::render::svg::{CELL, Layout, Rect, Svg};

/// One odd or even cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddEven {
    /// 0-based (row, column).
    pub cell: (usize, usize),
    /// Odd rather than even.
    pub odd: bool,
}

impl Mark for OddEven {
    fn make(key: &str, cell: (usize, usize)) -> Self {
        OddEven {
            cell,
            odd: key == "odd",
        }
    }
    fn cell(&self) -> (usize, usize) {
        self.cell
    }
    fn key(&self) -> &'static str {
        if self.odd { "odd" } else { "even" }
    }
}

impl ElementType for OddEven {
    const NAME: &'static str = "odd-even";
    const KEYS: &'static [&'static str] = &["odd", "even"];
    const FPUZZLES: &'static [&'static str] = &["odd", "even"];
    const DOC: &'static str = "`[[odd]] cells = \"r1c1 r3c4\"`: each listed cell holds an odd value; \
        `[[even]]`: an even one";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        read_mark(key, r)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        write_mark(all, w);
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"cell": "R1C1"}, …]
        mark_from_fpuzzles(key, value, size)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        mark_to_fpuzzles(all, top);
        Ok(())
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let name = format!("{} ({})", self.key(), rc(self.cell.0, self.cell.1));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                label: Some(self.key().into()),
                ..Says::default()
            },
        );
        let parity = i64::from(self.odd);
        // A one-cell table: the values of the grid with that parity.
        let tuples = (1..=l.n() as i64)
            .filter(|v| v % 2 == parity)
            .map(|v| vec![v])
            .collect();
        let cell = l.cell(self.cell.0, self.cell.1);
        l.push(
            Group::Element(Self::NAME),
            name,
            Rule::Table {
                cells: vec![cell],
                tuples,
            },
        );
    }

    /// A grey circle (odd) or square (even) filling most of the cell, under
    /// the digit.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let c = layout.cell(self.cell.0, self.cell.1);
        let (cx, cy) = (c.x + CELL / 2.0, c.y + CELL / 2.0);
        if self.odd {
            s.circle((cx, cy), CELL * 0.4, r##"class="odd" fill="#d4d4d4""##);
        } else {
            let side = CELL * 0.78;
            s.rect(
                Rect {
                    x: cx - side / 2.0,
                    y: cy - side / 2.0,
                    width: side,
                    height: side,
                },
                r##"class="even" fill="#d4d4d4""##,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_read_cells_and_write_them_back() {
        let v = serde_json::json!([{"cell": "R1C1"}, {"cell": "R4C2"}]);
        let read = OddEven::from_fpuzzles("even", &v, 4).expect("reads");
        assert_eq!(
            read,
            vec![
                OddEven {
                    cell: (0, 0),
                    odd: false
                },
                OddEven {
                    cell: (3, 1),
                    odd: false
                },
            ]
        );
        let mut top = serde_json::Map::new();
        OddEven::to_fpuzzles(&read.iter().collect::<Vec<_>>(), &mut top).expect("writes");
        assert_eq!(top["even"], v);
        let far = serde_json::json!([{"cell": "R5C1"}]);
        assert!(
            OddEven::from_fpuzzles("odd", &far, 4)
                .unwrap_err()
                .contains("outside")
        );
        let bad = serde_json::json!({"cell": "R1C1"});
        assert!(
            OddEven::from_fpuzzles("odd", &bad, 4)
                .unwrap_err()
                .contains("a list")
        );
    }
}
