//! Indexer cells, as SudokuSolver states them (`rowindexer`, `colindexer`,
//! `boxindexer`). An indexer cell at row r, column c holding v says where
//! a digit sits:
//! - column indexer ("159" when in columns 1, 5 and 9): the cell in row
//!   r, column v holds c;
//! - row indexer: the cell in row v, column c holds r;
//! - box indexer: the v-th cell of its box (or jigsaw region), counted row
//!   by row, holds the indexer's own place in that box.
//!
//! The Interactive Sudoku Solver's `Indexing` (`C` for columns, `R` for
//! rows) says the same; it has no box indexer.
//!
//! ```toml
//! [[column-indexer]]
//! cells = "r1c1 r2c1 r3c1"   # each cell listed is an indexer
//! [[row-indexer]]
//! cells = "r5c5"
//! [[box-indexer]]
//! cells = "r9c9"
//! ```

use super::boxes::Boxes;
use super::kit::hook_cell;
use super::marks::{MarkKind, Marked};
use super::regions::Regions;
use super::{HookError, Layer, Lowering, Member, Says, TomlReader};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::render::svg::{Layout, Svg};

/// What an indexer cell points along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Along {
    /// Its row: the value names a column.
    Column,
    /// Its column: the value names a row.
    Row,
    /// Its box: the value names a cell of the box.
    Box,
}

/// One indexer cell.
pub type Indexer = Marked<Along>;

impl Along {
    /// A light tint per kind of indexer (chosen: f-puzzles colours them
    /// as the setter likes).
    fn fill(self) -> &'static str {
        match self {
            Along::Column => "#f9d0d0",
            Along::Row => "#cfe0fb",
            Along::Box => "#d4f0cf",
        }
    }
}

/// The cells of each box (or jigsaw region) row by row, if the puzzle has
/// boxes or regions.
fn houses(elements: &[super::Element], n: usize) -> Option<Vec<Vec<(usize, usize)>>> {
    if let Some(b) = elements
        .iter()
        .filter_map(Boxes::of)
        .find(|b| b.rows > 0 && b.cols > 0)
    {
        let mut out = Vec::new();
        for r0 in (0..n).step_by(b.rows) {
            for c0 in (0..n).step_by(b.cols) {
                out.push(
                    (r0..(r0 + b.rows).min(n))
                        .flat_map(|r| (c0..(c0 + b.cols).min(n)).map(move |c| (r, c)))
                        .collect(),
                );
            }
        }
        return Some(out);
    }
    elements
        .iter()
        .find_map(Regions::of)
        .map(|regions| regions.0.clone())
}

impl MarkKind for Along {
    const NAME: &'static str = "indexer";
    const KEYS: &'static [&'static str] = &["column-indexer", "row-indexer", "box-indexer"];
    const FPUZZLES: &'static [&'static str] = &["columnindexer", "rowindexer", "boxindexer"];
    const ISS: &'static [&'static str] = &["Indexing"];
    const DOC: &'static str = "`[[column-indexer]] cells = \"r1c1\"`: the cell's value v says the \
        cell in its row and column v holds its column number (\"159\"); `[[row-indexer]]`: the \
        cell in row v of its column holds its row number; `[[box-indexer]]`: the v-th cell of its \
        box holds its place in the box";
    const LISTED: bool = true;

    fn of_key(key: &str) -> Along {
        match key {
            "row-indexer" | "rowindexer" => Along::Row,
            "box-indexer" | "boxindexer" => Along::Box,
            _ => Along::Column,
        }
    }

    fn key(self) -> &'static str {
        match self {
            Along::Column => "column-indexer",
            Along::Row => "row-indexer",
            Along::Box => "box-indexer",
        }
    }

    fn fpuzzles_key(self) -> &'static str {
        match self {
            Along::Column => "columnindexer",
            Along::Row => "rowindexer",
            Along::Box => "boxindexer",
        }
    }

    fn check(key: &str, r: &TomlReader) -> Result<(), InputError> {
        if Along::of_key(key) == Along::Box && houses(r.elements, r.rows).is_none() {
            return Err(r.error_at_key(
                key,
                "box-indexer: the puzzle has no boxes or regions to index: give it boxes (box = \
                 \"RxC\") or use a row or column indexer",
            ));
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Indexer>, HookError> {
        // .Indexing~C~R1C1~R2C1: C column indexers, R row indexers.
        let along = match args.first() {
            Some(&"C") => Along::Column,
            Some(&"R") => Along::Row,
            None => {
                return Err(format!(
                    "{name}: no arguments: write .Indexing~C~R1C1 (C column indexers, R row \
                     indexers, then their cells)"
                ));
            }
            Some(other) => {
                return Err(format!(
                    "{name}: {} is neither C (column) nor R (row): write .Indexing~C~R1C1",
                    super::kit::iss_arg(other)
                ));
            }
        };
        if args.len() < 2 {
            return Err(format!(
                "{name}: no cells after {}: write .{name}~{}~R1C1 (each cell listed an indexer)",
                args[0],
                args[0]
            ));
        }
        args[1..]
            .iter()
            .map(|a| {
                Ok(Indexer {
                    cell: hook_cell(a, size)?,
                    kind: along,
                })
            })
            .collect()
    }

    fn lower(m: &Indexer, l: &mut Lowering) {
        let (r, c) = m.cell;
        let n = l.n();
        // For each value v: the cell it points at and the value that cell
        // must hold.
        let targets: Vec<((usize, usize), i64)> = match m.kind {
            Along::Column => (0..n).map(|v| ((r, v), c as i64 + 1)).collect(),
            Along::Row => (0..n).map(|v| ((v, c), r as i64 + 1)).collect(),
            Along::Box => {
                // Reading refused a box indexer without boxes; an imported
                // one in a grid without them says nothing, as in SudokuSolver.
                let Some(house) = houses(l.elements, n)
                    .and_then(|h| h.into_iter().find(|h| h.contains(&m.cell)))
                else {
                    return;
                };
                let place = house.iter().position(|&x| x == m.cell).unwrap_or(0);
                house
                    .iter()
                    .take(n)
                    .map(|&t| (t, place as i64 + 1))
                    .collect()
            }
        };
        let name = format!("{} ({})", m.kind.key(), rc(r, c));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                label: Some(m.kind.key().into()),
                ..Says::default()
            },
        );
        let me = l.cell(r, c);
        for (v, (t, want)) in targets.into_iter().enumerate() {
            let v = v as i64 + 1;
            // Pointing at itself, the indexer holds v = want already.
            let Some(target) = l.cell_at(t.0, t.1).filter(|_| t != m.cell) else {
                continue;
            };
            // (indexer, target): either the indexer is not v, or the
            // target holds `want`.
            let mut tuples = Vec::new();
            for x in 1..=n as i64 {
                for y in 1..=n as i64 {
                    if x != v || y == want {
                        tuples.push(vec![x, y]);
                    }
                }
            }
            l.push(
                Group::Element(Self::NAME),
                format!(
                    "{} {}={v} → {}={want}",
                    m.kind.key(),
                    rc(r, c),
                    rc(t.0, t.1)
                ),
                Rule::Table {
                    cells: vec![me, target],
                    tuples,
                },
            );
        }
    }

    /// The cell tinted, a colour per kind of indexer.
    fn draw(m: &Indexer, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        s.rect(
            layout.cell(m.cell.0, m.cell.1),
            &format!(
                r#"class="{}" fill="{}""#,
                m.kind.key(),
                m.kind.fill()
            ),
        );
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iss_names_columns_or_rows() {
        assert_eq!(
            Along::from_iss("Indexing", &["C", "R1C5"], 9).expect("reads"),
            vec![Indexer {
                cell: (0, 4),
                kind: Along::Column
            }]
        );
        assert!(
            Along::from_iss("Indexing", &["X", "R1C5"], 9)
                .unwrap_err()
                .contains("neither")
        );
    }
}
