//! Given candidates: a cell that holds one of a few values, as ISS gives
//! them (`.~R4C7_2_4_6_8`, and its pencil-mark grids of n³ characters).
//!
//! ```toml
//! [[candidates]]
//! cells = "r4c7 r4c8"   # each listed cell holds one of the values
//! values = [2, 4, 6, 8]
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{cell_list, quoted};
use super::{ElementType, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, What, rc};
use crate::render::marks::TextForm;
use crate::render::svg::{CELL, Layout, Rect, Svg};

/// One cell and the values it may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    /// 0-based (row, column).
    pub cell: (usize, usize),
    /// The values, sorted, each once.
    pub values: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    values: Spanned<Vec<i64>>,
}

const WANT: &str = "[[candidates]] tables, each with cells = \"r1c1 r1c2 …\" and values = [1, 2] \
    (each listed cell holds one of the values)";

/// The values sorted and deduplicated, or why they cannot be a cell's
/// candidates on a grid of values 1..=`n`.
pub fn checked(mut values: Vec<i64>, n: usize) -> Result<Vec<i64>, String> {
    if values.is_empty() {
        return Err("no values: list the values the cell may hold, such as values = [1, 2]".into());
    }
    if let Some(v) = values.iter().find(|&&v| v < 1 || v > n as i64) {
        return Err(format!(
            "{v} is no value of a {n}×{n} grid: write values from 1 to {n}"
        ));
    }
    values.sort_unstable();
    values.dedup();
    Ok(values)
}

/// The values joined by `sep`.
fn list(values: &[i64], sep: &str) -> String {
    values.iter().map(i64::to_string).collect::<Vec<_>>().join(sep)
}

impl ElementType for Candidates {
    const NAME: &'static str = "candidates";
    const KEYS: &'static [&'static str] = &["candidates"];
    const DOC: &'static str = "`[[candidates]] cells = \"r4c7 r4c8\"` `values = [2, 4, 6, 8]`: each \
        listed cell holds one of the values (ISS's given candidates)";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = r.cells_at(&raw.cells)?;
            let values = checked(raw.values.get_ref().clone(), r.rows.max(r.cols))
                .map_err(|m| r.error_at(&raw.values, format!("{key}: {m}")))?;
            out.extend(cells.into_iter().map(|(cell, at)| {
                let c = Candidates {
                    cell,
                    values: values.clone(),
                };
                (at, c)
            }));
        }
        // Tables of one cell with no value in common, or against its
        // given or mark, at the cell that empties it.
        let n = r.rows.max(r.cols);
        let own = out
            .iter()
            .filter_map(|(at, c)| Some((*at, c.holds(n)?)))
            .collect();
        super::marks::refuse_held(Self::NAME, own, r)?;
        Ok(out.into_iter().map(|(_, c)| c).collect())
    }

    fn holds(&self, _n: usize) -> Option<super::marks::Holds> {
        Some(super::marks::Holds {
            cell: self.cell,
            values: self.values.clone(),
            what: format!("the candidates {}", list(&self.values, " or ")),
        })
    }

    /// A cell's tables leave it a value ([`super::marks::first_clash`]).
    fn check(all: &[&Self], size: usize) -> Result<(), super::HookError> {
        super::marks::first_clash(all.iter().filter_map(|c| c.holds(size)))
            .map_or(Ok(()), |(_, why)| Err(why))
    }

    /// One table per set of values, listing its cells in the order they
    /// first come.
    fn write(all: &[&Self], w: &mut TomlWriter) {
        let mut sets: Vec<&[i64]> = Vec::new();
        for c in all {
            if !sets.contains(&c.values.as_slice()) {
                sets.push(&c.values);
            }
        }
        for set in sets {
            let cells: Vec<_> = all.iter().filter(|c| c.values == set).map(|c| c.cell).collect();
            w.table(&format!(
                "[[candidates]]\ncells = {}\nvalues = [{}]\n",
                quoted(&cell_list(&cells)),
                list(set, ", ")
            ));
        }
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let (r, c) = self.cell;
        let name = format!("candidates ({} is {})", rc(r, c), list(&self.values, " or "));
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                clue: Some(list(&self.values, ",")),
                ..Says::default()
            },
        );
        l.push_one_of(
            Group::Element(Self::NAME),
            name,
            self.cell,
            self.values.iter().copied(),
        );
    }

    fn text(&self, _index: usize, t: &mut TextForm) {
        let (r, c) = self.cell;
        t.note(format!("candidates: {} is {}", rc(r, c), list(&self.values, " or ")));
    }

    /// The cell tinted pale yellow, under its digit: the values are in
    /// the text form, since pencil marks would crowd the cell's digit.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let cell = layout.cell(self.cell.0, self.cell.1);
        let inset = CELL * 0.06;
        s.rect(
            Rect {
                x: cell.x + inset,
                y: cell.y + inset,
                width: CELL - 2.0 * inset,
                height: CELL - 2.0 * inset,
            },
            r##"class="candidates" fill="#fff4b8""##,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_sorted_once_and_in_range() {
        assert_eq!(checked(vec![4, 2, 4], 4), Ok(vec![2, 4]));
        assert!(checked(vec![5], 4).expect_err("5 on a 4×4").contains("from 1 to 4"));
        assert!(checked(Vec::new(), 4).is_err());
    }
}
