//! Quadruples: up to four digits in a circle on the corner where four cells
//! meet, each of which appears among those four cells; a digit written
//! twice appears at least twice (SudokuSolver's `quad`, ISS's `Quad`).
//!
//! ```toml
//! [[quadruple]]
//! cells = "r1c1 r1c2 r2c1 r2c2"   # the 2×2 around the corner
//! values = [1, 2]
//! ```
//!
//! The rule is a table of the four cells' allowed tuples, which the model
//! keeps to [`TABLE_MAX`]: every quadruple of two or more digits fits on
//! grids up to 16×16, one of a single digit up to 10×10 (on 11×11 it
//! would list 11⁴ − 10⁴ = 4641 tuples); a larger one is refused, naming
//! the limit.

use serde::Deserialize;
use toml::Spanned;

use super::kit::{cell_list, fpuzzles_cell, fpuzzles_item_cells, fpuzzles_push, hook_cell, quoted};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, TABLE_MAX, What, rc};
use crate::render::svg::{Anchor, CELL, Layout, Svg};

/// One quadruple: the top-left cell of its 2×2 and its digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quadruple {
    /// 0-based (row, column) of the 2×2's top-left cell.
    pub corner: (usize, usize),
    /// The digits, sorted (repeats kept).
    pub values: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    values: Spanned<Vec<i64>>,
}

const WANT: &str = "[[quadruple]] tables, each with cells = \"r1c1 r1c2 r2c1 r2c2\" (a 2×2) and \
    values = [1, 2] (one to four digits)";

impl Quadruple {
    /// Its four cells, row by row.
    pub fn cells(&self) -> [(usize, usize); 4] {
        let (r, c) = self.corner;
        [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    }
}

/// The top-left cell of four cells that form a 2×2, if they do.
fn corner_of(cells: &[(usize, usize)]) -> Option<(usize, usize)> {
    let &top = cells.iter().min()?;
    let mut want = Quadruple {
        corner: top,
        values: Vec::new(),
    }
    .cells()
    .to_vec();
    let mut got = cells.to_vec();
    want.sort_unstable();
    got.sort_unstable();
    (got == want).then_some(top)
}

/// Why `values` cannot be a quadruple's digits on an `n`×`n` grid, if
/// they cannot: one to four digits from 1 to `n`, and a table within
/// [`TABLE_MAX`].
fn check_values(values: &[i64], n: usize) -> Result<(), String> {
    if values.is_empty() || values.len() > 4 {
        return Err(format!(
            "a quadruple has one to four digits, not {}: write values = [1, 2]",
            values.len()
        ));
    }
    if let Some(v) = values.iter().find(|&&v| v < 1 || v > n as i64) {
        return Err(format!(
            "{v} is no digit of a {n}×{n} grid: write digits from 1 to {n}"
        ));
    }
    if tuples(values, n).is_none() {
        return Err(format!(
            "a quadruple of {} digit(s) on a {n}×{n} grid allows more than the {TABLE_MAX} \
             tuples a table may list: give more digits (one digit works up to 10×10, two up to \
             16×16)",
            values.len()
        ));
    }
    Ok(())
}

/// Every tuple of four values 1..=`n` holding `values` (with their
/// repeats), sorted; `None` if there are more than [`TABLE_MAX`].
fn tuples(values: &[i64], n: usize) -> Option<Vec<Vec<i64>>> {
    let n = n as i64;
    let need = |t: &[i64]| {
        values.iter().enumerate().all(|(i, v)| {
            // A digit written k times must be there k times.
            let wanted = values[..=i].iter().filter(|&w| w == v).count();
            t.iter().filter(|&x| x == v).count() >= wanted
        })
    };
    let mut out = Vec::new();
    for a in 1..=n {
        for b in 1..=n {
            for c in 1..=n {
                for d in 1..=n {
                    let t = [a, b, c, d];
                    if need(&t) {
                        if out.len() == TABLE_MAX {
                            return None;
                        }
                        out.push(t.to_vec());
                    }
                }
            }
        }
    }
    Some(out)
}

/// The digits joined by `sep`.
fn list(values: &[i64], sep: &str) -> String {
    let v: Vec<String> = values.iter().map(ToString::to_string).collect();
    v.join(sep)
}

impl ElementType for Quadruple {
    const NAME: &'static str = "quadruple";
    const KEYS: &'static [&'static str] = &["quadruple"];
    const FPUZZLES: &'static [&'static str] = &["quadruple"];
    const ISS: &'static [&'static str] = &["Quad"];
    const DOC: &'static str = "`[[quadruple]] cells = \"r1c1 r1c2 r2c1 r2c2\"` `values = [1, 2]`: \
        the digits (one to four, a repeated one twice) appear among the four cells";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = r.cells(&raw.cells)?;
            let corner = corner_of(&cells).ok_or_else(|| {
                r.error_at(
                    &raw.cells,
                    format!(
                        "quadruple: {} is not a 2×2: list the four cells around a corner, such \
                         as r1c1 r1c2 r2c1 r2c2",
                        cell_list(&cells)
                    ),
                )
            })?;
            let mut values = raw.values.get_ref().clone();
            check_values(&values, r.rows)
                .map_err(|m| r.error_at(&raw.values, format!("quadruple: {m}")))?;
            values.sort_unstable();
            out.push(Quadruple { corner, values });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for q in all {
            w.table(&format!(
                "[[quadruple]]\ncells = {}\nvalues = [{}]\n",
                quoted(&cell_list(&q.cells())),
                list(&q.values, ", ")
            ));
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2]}, …]
        let want = || {
            format!(
                "{key}: expected a list of {{\"cells\": [four cells of a 2×2], \"values\": [1, 2]}}"
            )
        };
        let mut out = Vec::new();
        for item in value.as_array().ok_or_else(want)? {
            let cells = fpuzzles_item_cells(item, "cells", size, want)?;
            let corner = corner_of(&cells)
                .ok_or_else(|| format!("{key}: {} is not a 2×2", cell_list(&cells)))?;
            let values = item
                .get("values")
                .and_then(|v| v.as_array())
                .ok_or_else(want)?
                .iter()
                .map(|v| v.as_i64().ok_or_else(want))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(quadruple(key, corner, values, size)?);
        }
        Ok(out)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        for q in all {
            let cells: Vec<String> = q.cells().iter().map(|&c| fpuzzles_cell(c)).collect();
            fpuzzles_push(
                top,
                "quadruple",
                serde_json::json!({ "cells": cells, "values": q.values }),
            );
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        // .Quad~R1C1~1~2: the 2×2's top-left cell, then the digits.
        let form = format!(".{name}~R1C1~1~2 (the 2×2's top-left cell, then one to four digits)");
        let (first, rest) = args
            .split_first()
            .ok_or_else(|| format!("{name}: no cell: write {form}"))?;
        let corner = hook_cell(first, size)?;
        if corner.0 + 1 >= size || corner.1 + 1 >= size {
            return Err(format!("{name}: the 2×2 from {first} leaves the grid"));
        }
        if rest.is_empty() || rest.len() > 4 {
            return Err(format!(
                "{name}: {} digits after the cell: write {form}",
                rest.len()
            ));
        }
        let values = rest
            .iter()
            .map(|v| {
                v.parse::<i64>().map_err(|_| {
                    format!(
                        "{name}: {} is not a digit: write {form}",
                        super::kit::iss_arg(v)
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(vec![quadruple(name, corner, values, size)?])
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let (r, c) = self.corner;
        let name = format!(
            "quadruple {index} ({} at {}|{})",
            list(&self.values, ","),
            rc(r, c),
            rc(r + 1, c + 1)
        );
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                index: Some(index),
                clue: Some(list(&self.values, ",")),
                ..Says::default()
            },
        );
        // Reading checked the table fits; an empty one would be a bug of
        // that check and leaves the puzzle unsolvable rather than wrong.
        let tuples = tuples(&self.values, l.n()).unwrap_or_default();
        let cells = self.cells().iter().map(|&(r, c)| l.cell(r, c)).collect();
        l.push(
            Group::Element(Self::NAME),
            name,
            Rule::Table { cells, tuples },
        );
    }

    /// A white circle on the corner with the digits in it, small.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Over {
            return;
        }
        let cell = layout.cell(self.corner.0, self.corner.1);
        let (cx, cy) = (cell.x + CELL, cell.y + CELL);
        let wide = self.values.iter().any(|&v| v >= 10);
        // Two rows of two-digit numbers need a larger circle to stay in it.
        let radius = if wide && self.values.len() > 2 {
            CELL * 0.35
        } else {
            CELL * 0.3
        };
        s.circle(
            (cx, cy),
            radius,
            r#"class="quadruple" fill="white" stroke="black" stroke-width="1""#,
        );
        // One digit in the middle, two side by side, three or four in two
        // rows of two; two-digit numbers smaller and further apart.
        let size = match (self.values.len(), wide) {
            (1, false) => CELL * 0.3,
            (1, true) => CELL * 0.24,
            (_, false) => CELL * 0.22,
            (_, true) => CELL * 0.17,
        };
        let (step_x, step_y) = (if wide { CELL * 0.15 } else { CELL * 0.125 }, CELL * 0.1375);
        let places: &[(f64, f64)] = match self.values.len() {
            1 => &[(0.0, 0.0)],
            2 => &[(-1.0, 0.0), (1.0, 0.0)],
            _ => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        };
        for (v, (dx, dy)) in self.values.iter().zip(places) {
            s.text(
                "quadruple",
                (cx + dx * step_x, cy + dy * step_y + size * 0.36),
                size,
                Anchor::Middle,
                r#"font-family="sans-serif""#,
                &v.to_string(),
            );
        }
    }
}

/// A quadruple from an importer, its digits checked.
fn quadruple(
    key: &str,
    corner: (usize, usize),
    mut values: Vec<i64>,
    size: usize,
) -> Result<Quadruple, HookError> {
    check_values(&values, size).map_err(|m| format!("{key}: {m}"))?;
    values.sort_unstable();
    Ok(Quadruple { corner, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_exactly_the_tuples_with_the_digits() {
        // Brute force: every tuple of 1..4 is in the table iff it holds
        // 1 and 2 twice.
        let t = tuples(&[1, 2, 2], 4).expect("fits");
        let mut want = Vec::new();
        for x in 0..256 {
            let v: Vec<i64> = (0..4).map(|k| (x >> (2 * k)) % 4 + 1).collect();
            let count = |d| v.iter().filter(|&&w| w == d).count();
            if count(1) >= 1 && count(2) >= 2 {
                want.push(v);
            }
        }
        want.sort();
        assert_eq!(t, want);
        assert_eq!(
            tuples(&[5], 9).map(|t| t.len()),
            Some(9 * 9 * 9 * 9 - 8 * 8 * 8 * 8)
        );
        assert_eq!(tuples(&[5], 10).map(|t| t.len()), Some(10_000 - 6561));
        assert!(tuples(&[5], 11).is_none());
        assert!(tuples(&[5, 6], 16).is_some());
    }

    #[test]
    fn hooks_read_corners_and_refuse_what_does_not_fit() {
        let v = serde_json::json!([{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"], "values": [3, 1]}]);
        let read = Quadruple::from_fpuzzles("quadruple", &v, 4).expect("reads");
        assert_eq!(
            read,
            vec![Quadruple {
                corner: (1, 1),
                values: vec![1, 3]
            }]
        );
        let mut top = serde_json::Map::new();
        Quadruple::to_fpuzzles(&read.iter().collect::<Vec<_>>(), &mut top).expect("writes");
        assert_eq!(top["quadruple"][0]["values"], serde_json::json!([1, 3]));
        assert_eq!(
            Quadruple::from_iss("Quad", &["R1C1", "1", "2"], 4).expect("reads"),
            vec![Quadruple {
                corner: (0, 0),
                values: vec![1, 2]
            }]
        );
        assert!(
            Quadruple::from_iss("Quad", &["R4C4", "1"], 4)
                .unwrap_err()
                .contains("leaves")
        );
        assert!(
            Quadruple::from_iss("Quad", &["R1C1", "7"], 4)
                .unwrap_err()
                .contains("no digit")
        );
        let line = serde_json::json!([{"cells": ["R1C1", "R1C2", "R1C3", "R1C4"], "values": [1]}]);
        assert!(
            Quadruple::from_fpuzzles("quadruple", &line, 4)
                .unwrap_err()
                .contains("not a 2×2")
        );
        let one = serde_json::json!([{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [9]}]);
        assert!(
            Quadruple::from_fpuzzles("quadruple", &one, 16)
                .unwrap_err()
                .contains("4096")
        );
    }
}
