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

use super::marks::{MarkKind, Marked};
use super::{Layer, Lowering, Says};
use crate::model::{Group, Rule, What, rc};
use crate::render::svg::{CELL, Layout, Svg};

/// One minimum or maximum cell.
pub type MinMax = Marked<Extreme>;

/// Whether a cell is marked as a minimum or a maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extreme {
    /// Smaller than its neighbours.
    Minimum,
    /// Larger than its neighbours.
    Maximum,
}

impl MarkKind for Extreme {
    const NAME: &'static str = "min-max";
    const KEYS: &'static [&'static str] = &["minimum", "maximum"];
    const FPUZZLES: &'static [&'static str] = &["minimum", "maximum"];
    const DOC: &'static str = "`[[minimum]] cells = \"r2c2\"`: each listed cell is smaller than \
        its orthogonal neighbours; `[[maximum]]`: larger (neighbours of the same mark are not \
        compared)";

    fn of_key(key: &str) -> Self {
        if key == "maximum" {
            Extreme::Maximum
        } else {
            Extreme::Minimum
        }
    }

    fn key(self) -> &'static str {
        match self {
            Extreme::Minimum => "minimum",
            Extreme::Maximum => "maximum",
        }
    }

    fn lower(m: &MinMax, l: &mut Lowering) {
        let max = m.kind == Extreme::Maximum;
        let (r, c) = m.cell;
        let name = format!("{} ({})", m.kind.key(), rc(r, c));
        let same: Vec<(usize, usize)> = l
            .all::<MinMax>()
            .filter(|o| o.kind == m.kind)
            .map(|o| o.cell)
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
                label: Some(m.kind.key().into()),
                ..Says::default()
            },
        );
        let me = l.cell(r, c);
        for q in near.into_iter().flatten().filter(|q| !same.contains(q)) {
            let Some(other) = l.cell_at(q.0, q.1) else {
                continue;
            };
            let (cells, sign) = if max {
                ([other, me], '>')
            } else {
                ([me, other], '<')
            };
            l.push(
                Group::Element(Self::NAME),
                format!("{} {}{sign}{}", m.kind.key(), rc(r, c), rc(q.0, q.1)),
                Rule::Less { cells },
            );
        }
    }

    /// Four grey chevrons inside the cell, one by each side: pointing in
    /// at a minimum (the small value), out from a maximum.
    fn draw(m: &MinMax, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let cell = layout.cell(m.cell.0, m.cell.1);
        let (cx, cy) = (cell.x + CELL / 2.0, cell.y + CELL / 2.0);
        // Each chevron's tip and the ends of its arms, for the side whose
        // outward direction is (dx, dy).
        let (outer, inner, spread) = (CELL * 0.44, CELL * 0.34, CELL * 0.14);
        for (dx, dy) in [(0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)] {
            let (tip, base) = if m.kind == Extreme::Maximum {
                (outer, inner)
            } else {
                (inner, outer)
            };
            let at = |d: f64, side: f64| (cx + dx * d - dy * side, cy + dy * d + dx * side);
            s.polyline(
                &[at(base, -spread), at(tip, 0.0), at(base, spread)],
                &format!(
                    r##"class="{}" fill="none" stroke="#8a8a8a" stroke-width="2" stroke-linecap="round" stroke-linejoin="round""##,
                    m.kind.key()
                ),
            );
        }
    }
}

