//! One main diagonal on its own, holding every value once: the main
//! diagonal r1c1→rNcN (f-puzzles `diagonal-`, ISS `Diagonal~-1`,
//! SudokuSolver `dneg`) or the anti-diagonal rNc1→r1cN (`diagonal+`,
//! `Diagonal~1`, `dpos`). Both together are the kinds' `diagonals = true`
//! (`diagonals.rs`), which an import of both still reads as.
//!
//! ```toml
//! main-diagonal = true
//! anti-diagonal = true
//! ```

use super::kit::{fpuzzles_flag, read_flag};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What};
use crate::render::svg::{Layout, Svg};

/// One main diagonal, all different.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diagonal {
    /// r1c1 → rNcN (top left to bottom right).
    Main,
    /// rNc1 → r1cN (bottom left to top right).
    Anti,
}

impl Diagonal {
    /// Its TOML key.
    fn key(self) -> &'static str {
        match self {
            Diagonal::Main => "main-diagonal",
            Diagonal::Anti => "anti-diagonal",
        }
    }

    /// Its cells on an n×n grid, from the top row down.
    fn cells(self, n: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..n).map(move |r| match self {
            Diagonal::Main => (r, r),
            Diagonal::Anti => (r, n - 1 - r),
        })
    }
}

impl ElementType for Diagonal {
    const NAME: &'static str = "diagonal";
    const KEYS: &'static [&'static str] = &["main-diagonal", "anti-diagonal"];
    const FPUZZLES: &'static [&'static str] = &["diagonal-", "diagonal+"];
    const ISS: &'static [&'static str] = &["Diagonal"];
    const DOC: &'static str = "`main-diagonal = true` (r1c1→rNcN), `anti-diagonal = true` \
        (rNc1→r1cN): that diagonal holds each value once";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let d = if key == "main-diagonal" {
            Diagonal::Main
        } else {
            Diagonal::Anti
        };
        read_flag(key, r, d)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for d in [Diagonal::Main, Diagonal::Anti] {
            if all.iter().any(|x| **x == d) {
                w.key(&format!("{} = true\n", d.key()));
            }
        }
    }

    fn from_fpuzzles(key: &str, value: &serde_json::Value, _size: usize) -> Result<Vec<Self>, HookError> {
        let d = if key == "diagonal-" {
            Diagonal::Main
        } else {
            Diagonal::Anti
        };
        fpuzzles_flag(key, value, d)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        for d in all {
            let key = match d {
                Diagonal::Main => "diagonal-",
                Diagonal::Anti => "diagonal+",
            };
            top.insert(key.into(), serde_json::Value::Bool(true));
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], _size: usize) -> Result<Vec<Self>, HookError> {
        // .Diagonal~1 is the anti-diagonal (ISS's "diagonal plus").
        match args {
            ["1"] => Ok(vec![Diagonal::Anti]),
            ["-1"] => Ok(vec![Diagonal::Main]),
            _ => Err(format!("{name} takes 1 (rNc1→r1cN) or -1 (r1c1→rNcN)")),
        }
    }

    fn is_flag(&self) -> bool {
        true
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let (label, origin) = match self {
            Diagonal::Main => ("main", "main diagonal"),
            Diagonal::Anti => ("anti", "anti-diagonal"),
        };
        let cells = self.cells(l.n()).map(|(r, c)| l.cell(r, c)).collect();
        l.begin(
            What::Element(Self::NAME),
            || origin.to_string(),
            || Says {
                label: Some(label.to_string()),
                ..Says::default()
            },
        );
        l.push(
            Group::Element(Self::NAME),
            origin.to_string(),
            Rule::AllDifferent { cells },
        );
    }

    /// The diagonal's cells shaded grey, as both diagonals are.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let (rows, cols) = l.shape();
        for (r, c) in self.cells(rows.min(cols)) {
            s.rect(l.cell(r, c), r##"class="diagonal" fill="#e4e4e4""##);
        }
    }
}
