//! Clones: two or more regions of the same shape hold the same values in
//! corresponding cells (SudokuSolver's `clone`, f-puzzles' `clone`). The
//! cells correspond by their place in the lists.
//!
//! ```toml
//! [[clone]]
//! cells = "r1c1 r1c2 r2c1"
//! copies = ["r8c8 r8c9 r9c8"]   # one list per copy, as many copies as wanted
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{cell_list, fpuzzles_cell, fpuzzles_item_cells, fpuzzles_push, quoted};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Cmp, Group, Rule, What, rc};
use crate::render::svg::{Layout, Svg};

/// One clone: a region and its copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloneGroup {
    /// 0-based (row, column) of the region's cells.
    pub cells: Vec<(usize, usize)>,
    /// Each copy's cells, in the order of `cells`.
    pub copies: Vec<Vec<(usize, usize)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    copies: Vec<Spanned<String>>,
}

const WANT: &str = "[[clone]] tables, each with cells = \"r1c1 r1c2\" and copies = [\"r5c5 r5c6\"] \
    (each copy's cells in the order of cells)";

/// Light fills told apart from one clone to the next.
const FILLS: [&str; 4] = ["#ffe2a8", "#cde7ff", "#e3d4ff", "#d2f2d0"];

/// The region and its copies as one message names them:
/// `r1c1 r1c2 = r5c5 r5c6`.
fn describe(g: &CloneGroup) -> String {
    let mut parts = vec![cell_list(&g.cells)];
    parts.extend(g.copies.iter().map(|c| cell_list(c)));
    parts.join(" = ")
}

impl ElementType for CloneGroup {
    const NAME: &'static str = "clone";
    const KEYS: &'static [&'static str] = &["clone"];
    const FPUZZLES: &'static [&'static str] = &["clone"];
    const DOC: &'static str = "`[[clone]] cells = \"r1c1 r1c2\"` `copies = [\"r5c5 r5c6\"]`: each \
        copy holds the same values as the region, cell for cell in the order listed";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = r.cells(&raw.cells)?;
            if raw.copies.is_empty() {
                return Err(r.error_at(
                    &raw.cells,
                    "clone: no copies: write copies = [\"r5c5 r5c6\"] with the cells that repeat \
                     these",
                ));
            }
            let mut copies = Vec::new();
            for copy in &raw.copies {
                let c = r.cells(copy)?;
                if c.len() != cells.len() {
                    return Err(r.error_at(
                        copy,
                        format!(
                            "clone: a copy of {} cells lists {}: list one cell for each cell of \
                             the region, in the same order",
                            cells.len(),
                            c.len()
                        ),
                    ));
                }
                copies.push(c);
            }
            out.push(CloneGroup { cells, copies });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for g in all {
            let copies: Vec<String> = g.copies.iter().map(|c| quoted(&cell_list(c))).collect();
            w.table(&format!(
                "[[clone]]\ncells = {}\ncopies = [{}]\n",
                quoted(&cell_list(&g.cells)),
                copies.join(", ")
            ));
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"cells": ["R1C1", …], "cloneCells": ["R5C5", …]}, …]
        let want = || {
            format!(
                "{key}: expected a list of {{\"cells\": [\"R1C1\", …], \"cloneCells\": [\"R5C5\", …]}}"
            )
        };
        let mut out = Vec::new();
        for item in value.as_array().ok_or_else(want)? {
            let cells = fpuzzles_item_cells(item, "cells", size, want)?;
            let copy = fpuzzles_item_cells(item, "cloneCells", size, want)?;
            if cells.len() != copy.len() || cells.is_empty() {
                return Err(format!(
                    "{key}: {} cells but {} cloneCells: a clone repeats each cell once",
                    cells.len(),
                    copy.len()
                ));
            }
            out.push(CloneGroup {
                cells,
                copies: vec![copy],
            });
        }
        Ok(out)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        for g in all {
            let cells: Vec<String> = g.cells.iter().map(|&c| fpuzzles_cell(c)).collect();
            for copy in &g.copies {
                let clone: Vec<String> = copy.iter().map(|&c| fpuzzles_cell(c)).collect();
                fpuzzles_push(
                    top,
                    "clone",
                    serde_json::json!({ "cells": cells, "cloneCells": clone }),
                );
            }
        }
        Ok(())
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let name = format!("clone {index} ({})", describe(self));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                index: Some(index),
                ..Says::default()
            },
        );
        for copy in &self.copies {
            for (&a, &b) in self.cells.iter().zip(copy).filter(|(a, b)| a != b) {
                let cells = vec![l.cell(a.0, a.1), l.cell(b.0, b.1)];
                l.push(
                    Group::Element(Self::NAME),
                    format!("clone {index} {}={}", rc(a.0, a.1), rc(b.0, b.1)),
                    Rule::Linear {
                        cells,
                        coeffs: vec![1, -1],
                        cmp: Cmp::Eq,
                        value: 0,
                    },
                );
            }
        }
    }

    /// The region and its copies shaded alike, each clone in its own
    /// light colour.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        // The colour follows the region's first cell, so that it stays
        // the same whatever else the puzzle holds.
        let Some(&first) = self.cells.first() else {
            return;
        };
        let fill = FILLS[(first.0 * 7 + first.1) % FILLS.len()];
        for &(r, c) in self.cells.iter().chain(self.copies.iter().flatten()) {
            s.rect(
                layout.cell(r, c),
                &format!(r#"class="clone" fill="{fill}""#),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_read_pairs_and_write_them_back() {
        let v = serde_json::json!([{"cells": ["R1C1", "R1C2"], "cloneCells": ["R3C3", "R3C4"]}]);
        let read = CloneGroup::from_fpuzzles("clone", &v, 4).expect("reads");
        assert_eq!(
            read,
            vec![CloneGroup {
                cells: vec![(0, 0), (0, 1)],
                copies: vec![vec![(2, 2), (2, 3)]],
            }]
        );
        let mut top = serde_json::Map::new();
        CloneGroup::to_fpuzzles(&read.iter().collect::<Vec<_>>(), &mut top).expect("writes");
        assert_eq!(top["clone"], v);
        let short = serde_json::json!([{"cells": ["R1C1", "R1C2"], "cloneCells": ["R3C3"]}]);
        assert!(
            CloneGroup::from_fpuzzles("clone", &short, 4)
                .unwrap_err()
                .contains("2 cells but 1")
        );
    }
}
