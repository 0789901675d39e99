//! Disjoint groups: the cells in the same position of every box (or jigsaw
//! region, its cells counted in row-major order) hold different values,
//! as SudokuSolver's `djg`, f-puzzles' `disjointgroups` and ISS's
//! `DisjointSets`.
//!
//! ```toml
//! disjoint-groups = true
//! ```

use super::boxes::Boxes;
use super::kit::{fpuzzles_flag, iss_flag, read_flag};
use super::regions::Regions;
use super::{ElementType, HookError, Layer, Lowering, Member, Says, TomlReader, TomlWriter};
use crate::render::svg::{Layout, Svg};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};

/// The disjoint-groups rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisjointGroups;

/// The regions of the puzzle being lowered, each in row-major order:
/// its boxes, else its jigsaw regions.
fn regions(l: &Lowering) -> Vec<Vec<(usize, usize)>> {
    let n = l.n();
    if let Some(b) = l.all::<Boxes>().next()
        && b.rows > 0
        && b.cols > 0
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
        return out;
    }
    l.all::<Regions>()
        .flat_map(|r| r.0.iter())
        .map(|cells| {
            let mut cells = cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect()
}

impl ElementType for DisjointGroups {
    const NAME: &'static str = "disjoint-groups";
    const KEYS: &'static [&'static str] = &["disjoint-groups"];
    const FPUZZLES: &'static [&'static str] = &["disjointgroups"];
    const ISS: &'static [&'static str] = &["DisjointSets"];
    const DOC: &'static str = "`disjoint-groups = true`: the cells in the same place of every box \
        (or jigsaw region, in row-major order) hold different values";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let out = read_flag(key, r, DisjointGroups)?;
        let regions = r
            .elements
            .iter()
            .any(|e| Boxes::of(e).is_some() || Regions::of(e).is_some());
        if !out.is_empty() && !regions {
            return Err(r.error_at_key(
                key,
                format!(
                    "disjoint-groups speaks of the boxes or regions, and a {} has none: \
                     use it on a sudoku, killer or jigsaw",
                    r.kind.name()
                ),
            ));
        }
        Ok(out)
    }

    fn write(_all: &[&Self], w: &mut TomlWriter) {
        w.key("disjoint-groups = true\n");
    }

    /// A faint tint per place in the box (or region), the same in every
    /// box: the nine groups of a 9×9 in nine pale hues, so the cells that
    /// must differ share a colour (a convention of printed disjoint-groups
    /// puzzles, which SudokuPad's setters also use).
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let (rows, cols) = layout.shape();
        let places = (0..rows)
            .flat_map(|r| (0..cols).filter_map(move |c| layout.place(r, c)))
            .max()
            .map_or(1, |m| m + 1);
        for r in 0..rows {
            for c in 0..cols {
                let Some(k) = layout.place(r, c) else { continue };
                let hue = k * 360 / places;
                s.rect(
                    layout.cell(r, c),
                    &format!(r#"class="disjoint-groups" fill="hsl({hue}, 70%, 92%)""#),
                );
            }
        }
    }

    fn from_fpuzzles(key: &str, value: &serde_json::Value, _size: usize) -> Result<Vec<Self>, HookError> {
        fpuzzles_flag(key, value, DisjointGroups)
    }

    fn to_fpuzzles(
        _all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        top.insert("disjointgroups".into(), serde_json::Value::Bool(true));
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], _size: usize) -> Result<Vec<Self>, HookError> {
        iss_flag(name, args)?;
        Ok(vec![DisjointGroups])
    }

    fn is_flag(&self) -> bool {
        true
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let regions = regions(l);
        let most = regions.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..most {
            let cells: Vec<(usize, usize)> =
                regions.iter().filter_map(|r| r.get(k).copied()).collect();
            if cells.len() < 2 {
                continue;
            }
            let name = format!(
                "disjoint-groups {} (place {} of every region, from {})",
                k + 1,
                k + 1,
                rc(cells[0].0, cells[0].1)
            );
            l.begin(
                What::Element(Self::NAME),
                || name.clone(),
                || Says {
                    index: Some(k + 1),
                    ..Says::default()
                },
            );
            let ids = cells.iter().map(|&(r, c)| l.cell(r, c)).collect();
            l.push(
                Group::Element(Self::NAME),
                name.clone(),
                Rule::AllDifferent { cells: ids },
            );
        }
    }
}
