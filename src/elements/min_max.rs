//! Minimum and maximum cells: a minimum holds a smaller value than each
//! orthogonal neighbour, a maximum a larger one. As in SudokuSolver (`min`
//! / `max`), a neighbour that is itself a minimum (for a minimum) or a
//! maximum (for a maximum) is not compared.
//!
//! ```toml
//! [[minimum]]
//! cells = "r2c2 r5c7"        # each cell listed is a minimum
//!
//! [[maximum]]
//! cells = "r1c4"
//! ```

use super::kit::{Mark, mark_from_fpuzzles, mark_to_fpuzzles, read_mark, write_mark};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::render::svg::{CELL, Layout, Svg};

/// One minimum or maximum cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinMax {
    /// 0-based (row, column).
    pub cell: (usize, usize),
    /// A maximum rather than a minimum.
    pub max: bool,
}

impl Mark for MinMax {
    fn make(key: &str, cell: (usize, usize)) -> Self {
        MinMax {
            cell,
            max: key == "maximum",
        }
    }
    fn cell(&self) -> (usize, usize) {
        self.cell
    }
    fn key(&self) -> &'static str {
        if self.max { "maximum" } else { "minimum" }
    }
}

impl ElementType for MinMax {
    const NAME: &'static str = "min-max";
    const KEYS: &'static [&'static str] = &["minimum", "maximum"];
    const FPUZZLES: &'static [&'static str] = &["minimum", "maximum"];
    const DOC: &'static str = "`[[minimum]] cells = \"r2c2\"`: each listed cell is smaller than \
        its orthogonal neighbours; `[[maximum]]`: larger (neighbours of the same mark are not \
        compared)";

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
        let (r, c) = self.cell;
        let name = format!("{} ({})", self.key(), rc(r, c));
        let same: Vec<(usize, usize)> = l
            .all::<MinMax>()
            .filter(|m| m.max == self.max)
            .map(|m| m.cell)
            .collect();
        let n = l.n();
        let near = [
            r.checked_sub(1).map(|r| (r, c)),
            (r + 1 < n).then_some((r + 1, c)),
            c.checked_sub(1).map(|c| (r, c)),
            (c + 1 < n).then_some((r, c + 1)),
        ];
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                label: Some(self.key().into()),
                ..Says::default()
            },
        );
        let me = l.cell(r, c);
        for q in near.into_iter().flatten().filter(|q| !same.contains(q)) {
            let Some(other) = l.cell_at(q.0, q.1) else {
                continue;
            };
            let (cells, sign) = if self.max {
                ([other, me], '>')
            } else {
                ([me, other], '<')
            };
            l.push(
                Group::Element(Self::NAME),
                format!("{} {}{sign}{}", self.key(), rc(r, c), rc(q.0, q.1)),
                Rule::Less { cells },
            );
        }
    }

    /// Four grey chevrons inside the cell, one by each side: pointing in
    /// at a minimum (the small value), out from a maximum.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let cell = layout.cell(self.cell.0, self.cell.1);
        let (cx, cy) = (cell.x + CELL / 2.0, cell.y + CELL / 2.0);
        // Each chevron's tip and the ends of its arms, for the side whose
        // outward direction is (dx, dy).
        let (outer, inner, spread) = (CELL * 0.44, CELL * 0.34, CELL * 0.14);
        for (dx, dy) in [(0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)] {
            let (tip, base) = if self.max {
                (outer, inner)
            } else {
                (inner, outer)
            };
            let at = |d: f64, side: f64| (cx + dx * d - dy * side, cy + dy * d + dx * side);
            s.polyline(
                &[at(base, -spread), at(tip, 0.0), at(base, spread)],
                &format!(
                    r##"class="{}" fill="none" stroke="#8a8a8a" stroke-width="2" stroke-linecap="round" stroke-linejoin="round""##,
                    self.key()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_read_cells_and_write_them_back() {
        let v = serde_json::json!([{"cell": "R2C2"}, {"cell": "R4C4"}]);
        let read = MinMax::from_fpuzzles("maximum", &v, 4).expect("reads");
        assert_eq!(
            read,
            vec![
                MinMax {
                    cell: (1, 1),
                    max: true
                },
                MinMax {
                    cell: (3, 3),
                    max: true
                }
            ]
        );
        let mut top = serde_json::Map::new();
        MinMax::to_fpuzzles(&read.iter().collect::<Vec<_>>(), &mut top).expect("writes");
        assert_eq!(top["maximum"], v);
        let bad = serde_json::json!([{"cell": "C1"}]);
        assert!(
            MinMax::from_fpuzzles("minimum", &bad, 4)
                .unwrap_err()
                .contains("not a cell")
        );
    }
}
