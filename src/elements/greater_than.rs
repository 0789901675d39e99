//! Greater-than signs on any grid: the first of two orthogonal neighbours
//! holds the larger value. ISS's `GreaterThan` lists cells of which each
//! is greater than every later one it touches (a cell and its four
//! neighbours, for a "fortress" cell); each such pair is one sign here.
//! The futoshiki kind's own signs stay in its `grid` (`signs.rs`).
//!
//! ```toml
//! [[greater-than]]
//! cells = "r1c1 r1c2"        # r1c1 > r1c2
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{Pair, cell_list, iss_pairs, neighbours, quoted};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::elements::signs::chevron;
use crate::render::svg::{Layout, Svg};

/// A sign between two orthogonal neighbours: `cells[0]` > `cells[1]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GreaterThan {
    /// The greater cell, then the smaller, 0-based (row, column).
    pub cells: Pair,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
}

const WANT: &str = "[[greater-than]] tables, each with cells = \"r1c1 r1c2\" (two neighbours, \
    the greater first)";

impl ElementType for GreaterThan {
    const NAME: &'static str = "greater-than";
    const KEYS: &'static [&'static str] = &["greater-than"];
    const ISS: &'static [&'static str] = &["GreaterThan"];
    const DOC: &'static str = "`[[greater-than]] cells = \"r1c1 r1c2\"`: the first neighbour \
        holds the larger value (drawn as a > on their border)";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = neighbours(&r.cells(&raw.cells)?, "greater-than sign")
                .map_err(|m| r.error_at(&raw.cells, format!("greater-than: {m}")))?;
            out.push(GreaterThan { cells });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for k in all {
            w.table(&format!(
                "[[greater-than]]\ncells = {}\n",
                quoted(&cell_list(&k.cells))
            ));
        }
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        // .GreaterThan~A~B~C…: each cell greater than every later cell it
        // touches (ISS's own reading, as its dots and letters).
        Ok(iss_pairs(name, args, size, "sign")?
            .into_iter()
            .map(|cells| GreaterThan { cells })
            .collect())
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let [a, b] = self.cells;
        let name = format!("greater-than {index} ({} > {})", rc(a.0, a.1), rc(b.0, b.1));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                index: Some(index),
                ..Says::default()
            },
        );
        let rule = Rule::Less {
            cells: [l.cell(b.0, b.1), l.cell(a.0, a.1)],
        };
        l.push(Group::Element(Self::NAME), name.clone(), rule);
    }

    /// A chevron on the border pointing at the smaller cell, as
    /// futoshiki's signs.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer == Layer::Over {
            let [greater, less] = self.cells;
            chevron(s, l, less, greater, r#"class="greater-than""#);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iss_marks_each_later_neighbour() {
        // A "fortress" cell and three of its neighbours, none touching another.
        let g = GreaterThan::from_iss("GreaterThan", &["R2C2", "R1C2", "R2C1", "R2C3"], 4)
            .expect("reads");
        assert_eq!(
            g.iter().map(|x| x.cells).collect::<Vec<_>>(),
            vec![[(1, 1), (0, 1)], [(1, 1), (1, 0)], [(1, 1), (1, 2)]]
        );
        assert!(GreaterThan::from_iss("GreaterThan", &["R1C1", "R3C3"], 4).is_err());
    }
}
