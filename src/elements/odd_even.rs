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
//!
//! A cell marked both odd and even, or given a value of the other
//! parity, is refused, by every reader (`marks::first_clash`).

use super::marks::{MarkKind, Marked};
use super::{Layer, Lowering, Says};
use crate::model::{Group, What, rc};
use crate::render::svg::{CELL, Layout, Rect, Svg};

/// One odd or even cell.
pub type OddEven = Marked<Parity>;

/// Which parity a cell is marked with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parity {
    /// An odd value (a circle).
    Odd,
    /// An even value (a square).
    Even,
}

impl MarkKind for Parity {
    const NAME: &'static str = "odd-even";
    const KEYS: &'static [&'static str] = &["odd", "even"];
    const FPUZZLES: &'static [&'static str] = &["odd", "even"];
    const DOC: &'static str = "`[[odd]] cells = \"r1c1 r3c4\"`: each listed cell holds an odd value; \
        `[[even]]`: an even one";

    fn of_key(key: &str) -> Self {
        if key == "odd" { Parity::Odd } else { Parity::Even }
    }

    fn key(self) -> &'static str {
        match self {
            Parity::Odd => "odd",
            Parity::Even => "even",
        }
    }

    /// The values of its parity: no value is both odd and even.
    fn values(self, n: usize) -> Option<Vec<i64>> {
        let parity = i64::from(self == Parity::Odd);
        Some((1..=n as i64).filter(|v| v % 2 == parity).collect())
    }

    fn lower(m: &OddEven, l: &mut Lowering) {
        let name = format!("{} ({})", m.kind.key(), rc(m.cell.0, m.cell.1));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                label: Some(m.kind.key().into()),
                ..Says::default()
            },
        );
        let values = m.kind.values(l.n()).unwrap_or_default();
        l.push_one_of(Group::Element(Self::NAME), name, m.cell, values);
    }

    /// A grey circle (odd) or square (even) filling most of the cell, under
    /// the digit.
    fn draw(m: &OddEven, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let c = layout.cell(m.cell.0, m.cell.1);
        let (cx, cy) = (c.x + CELL / 2.0, c.y + CELL / 2.0);
        if m.kind == Parity::Odd {
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

