//! Killer cages on any grid (a sudoku, a jigsaw, a 6×6 with cages): the
//! cells of a cage hold different values and, when the cage has a sum,
//! add up to it; a cage without a sum says only that its cells differ
//! (SudokuSolver's `killer`, f-puzzles' `killercage`, ISS's `Cage`).
//! The killer kind's own `cages` grid and `[clues]` stay as they are
//! (`cages.rs`).
//!
//! ```toml
//! [[killer-cage]]
//! cells = "r1c1 r1c2 r2c1"
//! sum = 12                   # optional
//! ```

use serde::Deserialize;
use serde_json::{Value, json};
use toml::Spanned;

use super::cages::{Clue, clue_rule};
use super::kit::{cell_list, fpuzzles_cell_items, fpuzzles_names, hook_cell, quoted};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::render::svg::{Layout, Svg, dashed_cages};

/// One killer cage: its cells and its sum, if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillerCage {
    /// 0-based (row, column) of each cell, as written.
    pub cells: Vec<(usize, usize)>,
    /// What the cells add up to; `None` for a cage that only repeats no
    /// value.
    pub sum: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    sum: Option<Spanned<i64>>,
}

const WANT: &str = "[[killer-cage]] tables, each with cells = \"r1c1 r1c2 …\" and an optional \
    sum = N";

/// Checks a cage's cells on an n×n grid: no cell twice, no more cells
/// than values.
fn check_cells(cells: &[(usize, usize)], n: usize) -> Result<(), String> {
    for (i, a) in cells.iter().enumerate() {
        if cells[..i].contains(a) {
            return Err(format!(
                "{} is named twice: list each cell of the cage once",
                rc(a.0, a.1)
            ));
        }
    }
    if cells.len() > n {
        return Err(format!(
            "{} cells, but a cage repeats no value and the grid has only {n}: split the cage",
            cells.len()
        ));
    }
    Ok(())
}

/// Checks the sum of a cage of `k` cells on an n×n grid: one that
/// different values can make.
fn check_sum(k: usize, sum: i64, n: usize) -> Result<u64, String> {
    let (k, n) = (k as i64, n as i64);
    let (least, most) = (k * (k + 1) / 2, k * (2 * n + 1 - k) / 2);
    if !(least..=most).contains(&sum) {
        return Err(format!(
            "sum = {sum}, but {k} different values from 1 to {n} add up to {least} to {most}: \
             write a sum in that range, or leave it out"
        ));
    }
    Ok(sum as u64)
}

/// Checks a cage of `cells` with `sum` on an n×n grid.
fn check(cells: &[(usize, usize)], sum: Option<i64>, n: usize) -> Result<Option<u64>, String> {
    check_cells(cells, n)?;
    sum.map(|s| check_sum(cells.len(), s, n)).transpose()
}

/// A sum as f-puzzles or ISS write it: a whole number, or nothing
/// (empty, null, missing) for a cage without one.
fn hook_sum(v: Option<&Value>) -> Result<Option<i64>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse::<i64>()
            .map(Some)
            .map_err(|_| format!("the sum `{}` is not a whole number", s.trim())),
        Some(Value::Number(x)) => x
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("the sum {x} is not a whole number")),
        Some(o) => Err(format!("the sum {o} is not a whole number")),
    }
}

impl KillerCage {
    /// A cage from an importer's cells and sum, checked for an n×n grid.
    fn hooked(cells: Vec<(usize, usize)>, sum: Option<i64>, n: usize) -> Result<Self, HookError> {
        let first = cells.first().map_or_else(String::new, |&(r, c)| rc(r, c));
        if cells.is_empty() {
            return Err("a cage without cells".into());
        }
        let sum = check(&cells, sum, n).map_err(|m| format!("the cage at {first}: {m}"))?;
        Ok(KillerCage { cells, sum })
    }

    /// The cell its sum is written in: the top row's leftmost.
    fn corner(&self) -> (usize, usize) {
        self.cells.iter().copied().min().unwrap_or((0, 0))
    }
}

impl ElementType for KillerCage {
    const NAME: &'static str = "killer-cage";
    const KEYS: &'static [&'static str] = &["killer-cage"];
    const FPUZZLES: &'static [&'static str] = &["killercage"];
    const ISS: &'static [&'static str] = &["Cage"];
    const DOC: &'static str = "`[[killer-cage]] cells = \"r1c1 r1c2 …\"` (`sum = N`): the cells \
        hold different values adding up to N; without a sum they only differ";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = r.cells(&raw.cells)?;
            let n = r.rows.max(r.cols);
            check_cells(&cells, n)
                .map_err(|m| r.error_at(&raw.cells, format!("killer-cage: {m}")))?;
            let sum = match &raw.sum {
                Some(s) => Some(
                    check_sum(cells.len(), *s.get_ref(), n)
                        .map_err(|m| r.error_at(s, format!("killer-cage: {m}")))?,
                ),
                None => None,
            };
            out.push(KillerCage { cells, sum });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for k in all {
            let sum = k.sum.map(|s| format!("sum = {s}\n")).unwrap_or_default();
            w.table(&format!(
                "[[killer-cage]]\ncells = {}\n{sum}",
                quoted(&cell_list(&k.cells))
            ));
        }
    }

    fn from_fpuzzles(key: &str, value: &Value, size: usize) -> Result<Vec<Self>, HookError> {
        // [{"cells": ["R1C1", "R1C2"], "value": "17"}, {"cells": […]}]
        let want = "{\"cells\": [\"R1C1\", …], \"value\": \"17\"} (value optional)";
        let mut out = Vec::new();
        for (item, cells) in fpuzzles_cell_items(key, value, size, want)? {
            let sum = hook_sum(item.get("value")).map_err(|m| format!("{key}: {m}"))?;
            out.push(Self::hooked(cells, sum, size)?);
        }
        Ok(out)
    }

    fn to_fpuzzles(all: &[&Self], top: &mut serde_json::Map<String, Value>) -> Result<(), HookError> {
        // The killer kind's cages may be there already.
        let list = top
            .entry("killercage")
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(list) = list else {
            return Err("killercage is not a list".into());
        };
        for k in all {
            let cells = fpuzzles_names(&k.cells);
            list.push(match k.sum {
                Some(s) => json!({"cells": cells, "value": s.to_string()}),
                None => json!({ "cells": cells }),
            });
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        // .Cage~SUM~R1C1~R1C2…, SUM empty (or 0) for a cage without one.
        let Some((sum, cells)) = args.split_first() else {
            return Err(format!("{name}: a cage without a sum or cells"));
        };
        let cells = cells
            .iter()
            .map(|a| hook_cell(a, size))
            .collect::<Result<Vec<_>, _>>()?;
        let sum = hook_sum(Some(&Value::String(sum.to_string())))
            .map_err(|m| format!("{name}: {m}"))?
            .filter(|&s| s != 0);
        Ok(vec![Self::hooked(cells, sum, size)?])
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let cells: Vec<_> = self.cells.iter().map(|&(r, c)| l.cell(r, c)).collect();
        let name = match self.sum {
            Some(s) => format!("killer-cage {index} (sum {s}: {})", cell_list(&self.cells)),
            None => format!("killer-cage {index} ({})", cell_list(&self.cells)),
        };
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                index: Some(index),
                clue: self.sum.map(|s| s.to_string()),
                ..Says::default()
            },
        );
        let group = Group::Element(Self::NAME);
        if let Some(s) = self.sum {
            let n = l.n() as i64;
            l.push(group, name.clone(), clue_rule(&Clue::Sum(s), cells.clone(), n));
        }
        if cells.len() > 1 {
            l.push(
                group,
                format!("{name} no repeats"),
                Rule::AllDifferent { cells },
            );
        }
    }

    /// A dashed outline inside the cells, as a killer's cages; the sum is
    /// the corner clue.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer == Layer::Under {
            s.group(r#"class="killer-cage""#);
            dashed_cages(s, layout, std::iter::once(&self.cells[..]));
            s.end_group();
        }
    }

    fn corner_clue(&self) -> Option<((usize, usize), String)> {
        self.sum.map(|s| (self.corner(), s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_read_cages_with_and_without_sums() {
        let v = json!([{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R2C1", "R2C2"]}]);
        assert_eq!(
            KillerCage::from_fpuzzles("killercage", &v, 4).expect("reads"),
            vec![
                KillerCage { cells: vec![(0, 0), (0, 1)], sum: Some(3) },
                KillerCage { cells: vec![(1, 0), (1, 1)], sum: None },
            ]
        );
        let bad = json!([{"cells": ["R1C1", "R1C2"], "value": "8"}]);
        let e = KillerCage::from_fpuzzles("killercage", &bad, 4).unwrap_err();
        assert!(e.contains("add up to 3 to 7"), "{e}");
        assert_eq!(
            KillerCage::from_iss("Cage", &["", "R1C1", "R2C1"], 4).expect("reads"),
            vec![KillerCage { cells: vec![(0, 0), (1, 0)], sum: None }]
        );
        assert_eq!(
            KillerCage::from_iss("Cage", &["7", "R1C1", "R2C1"], 4).expect("reads")[0].sum,
            Some(7)
        );
        assert!(KillerCage::from_iss("Cage", &["x", "R1C1"], 4).is_err());
        assert!(KillerCage::from_iss("Cage", &["3", "R1C1", "R1C1"], 4).is_err());
    }
}
