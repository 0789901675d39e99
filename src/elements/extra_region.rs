//! Extra regions: a set of cells holding different values, as a box does
//! (SudokuSolver's and f-puzzles' `extraregion`, ISS's `AllDifferent`).
//! Windoku is four (on 9×9) such regions: the windows of box shape one
//! cell in from the boxes' corners (ISS's `Windoku`), written
//! `windoku = true` and read as its extra regions.
//!
//! ```toml
//! windoku = true
//!
//! [[extra-region]]
//! cells = "r1c1 r1c2 r2c1 r2c2"
//! ```

use serde::Deserialize;
use serde_json::Value;
use toml::Spanned;

use super::boxes::Boxes;
use super::givens::{Values, check_units, numbered};
use super::kit::{cell_list, fpuzzles_cell_items, fpuzzles_names, hook_cell, iss_flag, quoted};
use super::{ElementType, HookError, Layer, Lowering, Member, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::render::svg::{Layout, Svg};

/// One extra region: its cells, all different.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraRegion {
    /// 0-based (row, column) of each cell, as written.
    pub cells: Vec<(usize, usize)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
}

const WANT: &str = "[[extra-region]] tables, each with cells = \"r1c1 r1c2 …\"";

/// Checks an extra region's cells on an n×n grid: none twice, no more
/// than n.
fn check(cells: &[(usize, usize)], n: usize) -> Result<(), String> {
    if let Some((_, a)) = cells.iter().enumerate().find(|(i, a)| cells[..*i].contains(a)) {
        return Err(format!(
            "{} is named twice: list each cell of the region once",
            rc(a.0, a.1)
        ));
    }
    if cells.len() > n {
        return Err(format!(
            "{} cells, but a region repeats no value and the grid has only {n}",
            cells.len()
        ));
    }
    Ok(())
}

/// The file's givens, for the check that none repeats in a region (no
/// places: the error points at the region).
fn given(r: &TomlReader) -> Values {
    Values {
        grid: r.givens.clone(),
        locs: Vec::new(),
    }
}

/// The windoku windows of an n×n grid with boxes of `rows`×`cols`: boxes
/// of that shape starting one cell in and one cell after each other, as
/// long as they fit inside the grid with a cell to spare (four on 9×9).
pub fn windows(n: usize, (rows, cols): (usize, usize)) -> Vec<ExtraRegion> {
    let mut out = Vec::new();
    if rows == 0 || cols == 0 {
        return out;
    }
    let mut r0 = 1;
    while r0 + rows < n {
        let mut c0 = 1;
        while c0 + cols < n {
            out.push(ExtraRegion {
                cells: (r0..r0 + rows)
                    .flat_map(|r| (c0..c0 + cols).map(move |c| (r, c)))
                    .collect(),
            });
            c0 += cols + 1;
        }
        r0 += rows + 1;
    }
    out
}

impl ElementType for ExtraRegion {
    const NAME: &'static str = "extra-region";
    const KEYS: &'static [&'static str] = &["extra-region", "windoku"];
    const FPUZZLES: &'static [&'static str] = &["extraregion"];
    const ISS: &'static [&'static str] = &["Windoku", "AllDifferent"];
    const DOC: &'static str = "`[[extra-region]] cells = \"r1c1 r1c2 …\"`: the cells hold \
        different values; `windoku = true`: the windows of box shape one cell in from the boxes \
        (four on 9×9) are extra regions";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let n = r.rows.max(r.cols);
        if key == "windoku" {
            let on: bool = r.value(key, "windoku = true")?;
            if !on {
                return Ok(Vec::new());
            }
            let shape = r
                .elements
                .iter()
                .find_map(Boxes::of)
                .map_or_else(|| super::boxes::suggested_box(n), |b| (b.rows, b.cols));
            let w = windows(n, shape);
            if w.is_empty() {
                return Err(r.error_at_key(
                    key,
                    format!(
                        "windoku = true, but boxes of {}×{} leave no window inside a {n}×{n} grid",
                        shape.0, shape.1
                    ),
                ));
            }
            check_units(&given(r), numbered("window", w.iter().map(|x| &x.cells)))
                .map_err(|e| {
                    r.error_at_key(
                        key,
                        format!("windoku = true, but {}: correct one of the two givens", e.message),
                    )
                })?;
            return Ok(w);
        }
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let g = given(r);
        let mut out = Vec::new();
        for (k, raw) in raws.iter().enumerate() {
            let cells = r.cells(&raw.cells)?;
            check(&cells, n).map_err(|m| r.error_at(&raw.cells, format!("extra-region: {m}")))?;
            // Found here, a repeated given points at the region that
            // repeats it; left to the solver, it is only "no solution".
            check_units(&g, vec![(format!("extra-region {}", k + 1), cells.clone())])
                .map_err(|e| {
                    r.error_at(
                        &raw.cells,
                        format!("{}: correct one of the two givens or the region's cells", e.message),
                    )
                })?;
            out.push(ExtraRegion { cells });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for k in all {
            w.table(&format!(
                "[[extra-region]]\ncells = {}\n",
                quoted(&cell_list(&k.cells))
            ));
        }
    }

    fn from_fpuzzles(key: &str, value: &Value, size: usize) -> Result<Vec<Self>, HookError> {
        // [{"cells": ["R1C1", "R1C2", …]}, …]
        let mut out = Vec::new();
        for (_, cells) in fpuzzles_cell_items(key, value, size, "{\"cells\": [\"R1C1\", …]}")? {
            check(&cells, size).map_err(|m| format!("{key}: {m}"))?;
            out.push(ExtraRegion { cells });
        }
        Ok(out)
    }

    fn to_fpuzzles(all: &[&Self], top: &mut serde_json::Map<String, Value>) -> Result<(), HookError> {
        let list = top
            .entry("extraregion")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            for k in all {
                list.push(serde_json::json!({ "cells": fpuzzles_names(&k.cells) }));
            }
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        if name == "Windoku" {
            iss_flag(name, args)?;
            let w = windows(size, super::boxes::suggested_box(size));
            if w.is_empty() {
                return Err(format!("{name}: a {size}×{size} grid has no windoku windows"));
            }
            return Ok(w);
        }
        // .AllDifferent~R1C1~R1C2…
        let cells = args
            .iter()
            .map(|a| hook_cell(a, size))
            .collect::<Result<Vec<_>, _>>()?;
        if cells.is_empty() {
            return Err(format!("{name}: no cells: write .{name}~R1C1~R1C2…"));
        }
        check(&cells, size).map_err(|m| format!("{name}: {m}"))?;
        Ok(vec![ExtraRegion { cells }])
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let name = format!("extra-region {index} ({})", cell_list(&self.cells));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                index: Some(index),
                ..Says::default()
            },
        );
        let cells = self.cells.iter().map(|&(r, c)| l.cell(r, c)).collect();
        l.push(
            Group::Element(Self::NAME),
            name.clone(),
            Rule::AllDifferent { cells },
        );
    }

    /// The region's cells shaded light blue.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        for &(r, c) in &self.cells {
            s.rect(l.cell(r, c), r##"class="extra-region" fill="#d3e4f5""##);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windoku_windows_are_one_cell_in() {
        let w = windows(9, (3, 3));
        assert_eq!(w.len(), 4);
        assert_eq!(w[0].cells[0], (1, 1));
        assert_eq!(w[3].cells[8], (7, 7));
        assert_eq!(windows(16, (4, 4)).len(), 9);
        assert_eq!(windows(6, (2, 3)).len(), 1);
        assert!(windows(4, (2, 2)).len() == 1);
        assert!(ExtraRegion::from_iss("AllDifferent", &["R1C1", "R1C1"], 4).is_err());
    }
}
