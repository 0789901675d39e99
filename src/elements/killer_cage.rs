//! Killer cages on any grid (a sudoku, a jigsaw, a 6×6 with cages): the
//! cells of a cage hold different values and, when the cage has a sum,
//! add up to it; a cage without a sum says only that its cells differ
//! (SudokuSolver's `killer`, f-puzzles' `killercage`, ISS's `Cage`).
//! ISS lets a cage list a cell more than once: its cells are the set,
//! different as ever, and the sum counts a cell as often as it is listed
//! (ISS's sum handler adds up coefficients; its AllDifferent drops the
//! repeat); `counts` says that here. The killer kind's own `cages` grid
//! and `[clues]` stay as they are (`cages.rs`).
//!
//! ```toml
//! [[killer-cage]]
//! cells = "r1c1 r1c2 r2c1"
//! sum = 12                   # optional
//! counts = [1, 1, 2]         # optional: r2c1 counts twice in the sum
//! ```

use serde::Deserialize;
use serde_json::{Value, json};
use toml::Spanned;

use super::cages::{Clue, clue_rule};
use super::kit::{cell_list, fpuzzles_cell_items, fpuzzles_names, hook_cell, quoted};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Cmp, Group, Rule, What, rc};
use crate::render::svg::{Layout, Svg, dashed_cages};

/// One killer cage: its cells and its sum, if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillerCage {
    /// 0-based (row, column) of each cell, as written.
    pub cells: Vec<(usize, usize)>,
    /// What the cells add up to; `None` for a cage that only repeats no
    /// value.
    pub sum: Option<u64>,
    /// How many times each cell counts in the sum, one per cell (all 1
    /// but for ISS cages that list a cell again).
    pub counts: Vec<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    sum: Option<Spanned<i64>>,
    counts: Option<Spanned<Vec<i64>>>,
}

const WANT: &str = "[[killer-cage]] tables, each with cells = \"r1c1 r1c2 …\", an optional \
    sum = N and, with a sum, optional counts = [1, 2, …] (how often each cell counts in it)";

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

/// Checks the sum of a cage whose cells count `counts` times each on an
/// n×n grid: one that different values can make.
fn check_sum(counts: &[u64], sum: i64, n: usize) -> Result<u64, String> {
    // The least: the cells counted most take the smallest values; the
    // most: they take the largest.
    let mut desc: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
    desc.sort_unstable_by(|a, b| b.cmp(a));
    let least: i64 = desc.iter().zip(1..).map(|(c, v)| c * v).sum();
    let most: i64 = desc.iter().zip((1..=n as i64).rev()).map(|(c, v)| c * v).sum();
    if !(least..=most).contains(&sum) {
        let k = counts.len();
        let counted = if counts.iter().all(|&c| c == 1) { "" } else { ", counted as listed," };
        let (values, add) = if k == 1 {
            ("1 value".to_string(), "adds")
        } else {
            (format!("{k} different values"), "add")
        };
        return Err(format!(
            "sum = {sum}, but {values} from 1 to {n}{counted} {add} up to {least} to {most}: \
             write a sum in that range, or leave it out"
        ));
    }
    Ok(sum as u64)
}

/// Checks a cage's counts on an n×n grid: one per cell, each from 1 to n.
fn check_counts(counts: &[i64], k: usize, n: usize) -> Result<Vec<u64>, String> {
    if counts.len() != k {
        return Err(format!(
            "counts has {} numbers for {k} cells: write one per cell, in the cells' order",
            counts.len()
        ));
    }
    counts
        .iter()
        .map(|&c| {
            if (1..=n as i64).contains(&c) {
                Ok(c as u64)
            } else {
                Err(format!("counts holds {c}: a cell counts from 1 to {n} times"))
            }
        })
        .collect()
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
            .map_err(|_| {
                let shown = crate::import::short_key(s.trim());
                format!("the sum `{shown}` is not a whole number")
            }),
        Some(Value::Number(x)) => x
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("the sum {x} is not a whole number")),
        Some(o) => Err(format!("the sum {o} is not a whole number")),
    }
}

impl KillerCage {
    /// A cage from an importer's cells, sum and counts (one per cell),
    /// checked for an n×n grid.
    fn hooked(
        cells: Vec<(usize, usize)>,
        sum: Option<i64>,
        counts: Vec<u64>,
        n: usize,
    ) -> Result<Self, HookError> {
        let first = cells.first().map_or_else(String::new, |&(r, c)| rc(r, c));
        if cells.is_empty() {
            return Err("a cage without cells".into());
        }
        let sum = check_cells(&cells, n)
            .and_then(|()| sum.map(|s| check_sum(&counts, s, n)).transpose())
            .map_err(|m| format!("the cage at {first}: {m}"))?;
        Ok(KillerCage { cells, sum, counts })
    }

    /// Whether every cell counts once in the sum (every cage but ISS's
    /// that list a cell again).
    pub fn counted_once(&self) -> bool {
        self.counts.iter().all(|&c| c == 1)
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
            let counts = match (&raw.counts, &raw.sum) {
                (None, _) => vec![1; cells.len()],
                (Some(c), None) => {
                    return Err(r.error_at(
                        c,
                        "killer-cage: counts say how often each cell counts in the sum, and \
                         the cage has none: write sum = N, or leave counts out",
                    ));
                }
                (Some(c), Some(_)) => check_counts(c.get_ref(), cells.len(), n)
                    .map_err(|m| r.error_at(c, format!("killer-cage: {m}")))?,
            };
            let sum = match &raw.sum {
                Some(s) => Some(
                    check_sum(&counts, *s.get_ref(), n)
                        .map_err(|m| r.error_at(s, format!("killer-cage: {m}")))?,
                ),
                None => None,
            };
            out.push(KillerCage { cells, sum, counts });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for k in all {
            let sum = k.sum.map(|s| format!("sum = {s}\n")).unwrap_or_default();
            let counts = if k.counted_once() {
                String::new()
            } else {
                let list: Vec<String> = k.counts.iter().map(u64::to_string).collect();
                format!("counts = [{}]\n", list.join(", "))
            };
            w.table(&format!(
                "[[killer-cage]]\ncells = {}\n{sum}{counts}",
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
            let counts = vec![1; cells.len()];
            out.push(Self::hooked(cells, sum, counts, size)?);
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
            if !k.counted_once() {
                return Err(format!(
                    "the killer cage at {} counts a cell more than once in its sum, which \
                     f-puzzles cannot say",
                    rc(k.cells[0].0, k.cells[0].1)
                ));
            }
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
        // A cell listed again counts again in the sum (ISS's reading).
        let form = format!(".{name}~SUM~R1C1~R1C2 (SUM empty for a cage without one)");
        let Some((sum, listed)) = args.split_first() else {
            return Err(format!("{name}: a cage without a sum or cells: write {form}"));
        };
        // The sum first: a cell in its place is a sum left out.
        let sum = hook_sum(Some(&Value::String(sum.to_string())))
            .map_err(|m| format!("{name}: {m}: write {form}"))?
            .filter(|&s| s != 0);
        if listed.is_empty() {
            return Err(format!("{name}: a cage without cells: write {form}"));
        }
        let mut cells: Vec<(usize, usize)> = Vec::new();
        let mut counts: Vec<u64> = Vec::new();
        for a in listed {
            let cell = hook_cell(a, size)?;
            match cells.iter().position(|&c| c == cell) {
                Some(i) => counts[i] += 1,
                None => {
                    cells.push(cell);
                    counts.push(1);
                }
            }
        }
        if sum.is_none() && counts.iter().any(|&c| c > 1) {
            // Without a sum a repeat says nothing more: the set differs.
            counts.iter_mut().for_each(|c| *c = 1);
        }
        Ok(vec![Self::hooked(cells, sum, counts, size)?])
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let cells: Vec<_> = self.cells.iter().map(|&(r, c)| l.cell(r, c)).collect();
        let twice = if self.counted_once() { "" } else { ", cells counted as listed" };
        let name = match self.sum {
            Some(s) => format!("killer-cage {index} (sum {s}{twice}: {})", cell_list(&self.cells)),
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
            let rule = if self.counted_once() {
                clue_rule(&Clue::Sum(s), cells.clone(), n)
            } else {
                Rule::Linear {
                    cells: cells.clone(),
                    coeffs: self.counts.iter().map(|&c| c as i64).collect(),
                    cmp: Cmp::Eq,
                    value: s as i64,
                }
            };
            l.push(group, name.clone(), rule);
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
                KillerCage { cells: vec![(0, 0), (0, 1)], sum: Some(3), counts: vec![1, 1] },
                KillerCage { cells: vec![(1, 0), (1, 1)], sum: None, counts: vec![1, 1] },
            ]
        );
        let bad = json!([{"cells": ["R1C1", "R1C2"], "value": "8"}]);
        let e = KillerCage::from_fpuzzles("killercage", &bad, 4).unwrap_err();
        assert!(e.contains("add up to 3 to 7"), "{e}");
        assert_eq!(
            KillerCage::from_iss("Cage", &["", "R1C1", "R2C1"], 4).expect("reads"),
            vec![KillerCage { cells: vec![(0, 0), (1, 0)], sum: None, counts: vec![1, 1] }]
        );
        assert_eq!(
            KillerCage::from_iss("Cage", &["7", "R1C1", "R2C1"], 4).expect("reads")[0].sum,
            Some(7)
        );
        assert!(KillerCage::from_iss("Cage", &["x", "R1C1"], 4).is_err());
        // A cell listed again counts again in the sum, as ISS reads it;
        // 2·r1c1 + r1c2 is at least 2·1 + 2 = 4 and at most 2·4 + 3 = 11.
        assert_eq!(
            KillerCage::from_iss("Cage", &["10", "R1C1", "R1C2", "R1C1"], 4).expect("reads"),
            vec![KillerCage { cells: vec![(0, 0), (0, 1)], sum: Some(10), counts: vec![2, 1] }]
        );
        let e = KillerCage::from_iss("Cage", &["12", "R1C1", "R1C2", "R1C1"], 4).unwrap_err();
        assert!(e.contains("add up to 4 to 11"), "{e}");
        // Without a sum a repeat adds nothing: the cells only differ.
        assert_eq!(
            KillerCage::from_iss("Cage", &["", "R1C1", "R1C1", "R1C2"], 4).expect("reads")[0]
                .counts,
            vec![1, 1]
        );
    }
}
