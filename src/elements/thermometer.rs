//! Thermometers: values strictly increase from the bulb along the tube;
//! slow thermometers: they never decrease (equal values are allowed where
//! the cells do not see each other).
//!
//! ```toml
//! [[thermometer]]
//! cells = "r1c1 r1c2 r2c2"   # the bulb first
//!
//! [[slow-thermometer]]
//! cells = "r9c9 r8c9 r7c9"
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{
    first_repeat, fpuzzles_cell, fpuzzles_lines, fpuzzles_push, hook_cell, path,
};
use super::line::{centre, touches};
use super::{Drawing, ElementType, HookError, Layer, Lowering, Making, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Cmp, Group, Rule, What};
use crate::render::marks::TextForm;
use crate::render::svg::{CELL, Layout, Svg};

/// One thermometer: its cells from the bulb.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thermometer {
    /// 0-based (row, column) of each cell, the bulb first.
    pub cells: Vec<(usize, usize)>,
    /// Whether equal neighbours are allowed (a slow thermometer).
    pub slow: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
}

const WANT: &str = "[[thermometer]] tables, each with cells = \"r1c1 r1c2 …\" (the bulb first)";

impl Thermometer {
    fn key(&self) -> &'static str {
        if self.slow { "slow-thermometer" } else { "thermometer" }
    }

    /// Why the cells make no thermometer: none, two in a row that do not
    /// touch, or one passed twice.
    fn fault(&self) -> Option<String> {
        let cells = &self.cells;
        if cells.is_empty() {
            return Some(
                "no cells: list a thermometer's cells from the bulb, cells = \"r1c1 r1c2 …\""
                    .into(),
            );
        }
        if let Some(w) = cells.windows(2).find(|w| !touches(w[0], w[1])) {
            return Some(format!(
                "{} and {} do not touch: list a thermometer's cells in order along its tube, \
                 each next to the one before (diagonals count)",
                crate::model::rc(w[0].0, w[0].1),
                crate::model::rc(w[1].0, w[1].1)
            ));
        }
        first_repeat(cells.iter().copied()).map(|(r, c)| {
            format!(
                "{} is listed twice: a thermometer passes each cell once",
                crate::model::rc(r, c)
            )
        })
    }
}

impl ElementType for Thermometer {
    const NAME: &'static str = "thermometer";
    const KEYS: &'static [&'static str] = &["thermometer", "slow-thermometer"];
    const FPUZZLES: &'static [&'static str] = &["thermometer", "slowthermometer"];
    const ISS: &'static [&'static str] = &["Thermo"];
    const DOC: &'static str = "`[[thermometer]] cells = \"r1c1 r1c2 …\"`: values strictly increase \
        from the bulb (the first cell); `[[slow-thermometer]]`: they never decrease";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let t = Thermometer {
                cells: r.cells(&raw.cells)?,
                slow: key == "slow-thermometer",
            };
            t.fault()
                .map_or(Ok(()), |m| Err(r.error_at(&raw.cells, format!("{key}: {m}"))))?;
            out.push(t);
        }
        Ok(out)
    }

    fn check(all: &[&Self], _size: usize) -> Result<(), HookError> {
        all.iter()
            .find_map(|t| t.fault().map(|m| format!("{}: {m}", t.key())))
            .map_or(Ok(()), Err)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for t in all {
            w.cells_table(t.key(), &t.cells, &[]);
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"lines": [["R1C1", "R1C2", …], …]}, …]: one thermometer per line.
        let slow = key == "slowthermometer";
        Ok(fpuzzles_lines(key, value, size)?
            .into_iter()
            .flat_map(|(_, lines)| lines)
            .map(|cells| Thermometer { cells, slow })
            .collect())
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        for t in all {
            let key = if t.slow { "slowthermometer" } else { "thermometer" };
            let line: Vec<String> = t.cells.iter().copied().map(fpuzzles_cell).collect();
            fpuzzles_push(top, key, serde_json::json!({ "lines": [line] }));
        }
        Ok(())
    }

    fn from_iss(_name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        // .Thermo~R1C1~R1C2~…
        let cells = args
            .iter()
            .map(|a| hook_cell(a, size))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(vec![Thermometer { cells, slow: false }])
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let name = format!("{} {index} ({})", self.key(), path(&self.cells));
        l.begin(What::Element(Self::NAME), || name.clone(), || Says {
            index: Some(index),
            ..Says::default()
        });
        for w in self.cells.windows(2) {
            let (a, b) = (l.cell(w[0].0, w[0].1), l.cell(w[1].0, w[1].1));
            let rule = if self.slow {
                // b − a ≥ 0; cells that see each other also differ by
                // their house, so there the step is strict.
                Rule::Linear {
                    cells: vec![b, a],
                    coeffs: vec![1, -1],
                    cmp: Cmp::Ge,
                    value: 0,
                }
            } else {
                Rule::Less { cells: [a, b] }
            };
            l.push(Group::Element(Self::NAME), name.clone(), rule);
        }
    }

    /// The bulb marked beside its digit (° or `'` in ASCII); the tube,
    /// which a text grid cannot draw, said under the grid.
    fn text(&self, index: usize, t: &mut TextForm) {
        if let Some(&bulb) = self.cells.first() {
            t.cell(bulb, '°', '\'');
        }
        t.note(format!("{} {index}: {}", self.key(), path(&self.cells)));
    }

    /// Thermometers along increasing paths of the solution (never
    /// decreasing for `slow-thermometer`), not crossing: from a random
    /// free cell, each step to a touching free cell whose value is the
    /// least above the last (or one of the two least, at random), so that
    /// they run long; 3 cells or more each, as many as [`Drawing::how_many`].
    fn making() -> Making<Self> {
        Making::Drawn(|d: &mut Drawing| {
            let slow = d.key == "slow-thermometer";
            let want = d.how_many();
            let mut out = Vec::new();
            for _ in 0..want * 20 {
                if out.len() == want {
                    break;
                }
                let Some(start) = d.free_cell() else { break };
                let mut cells = vec![start];
                let longest = d.rng.range(3, d.n.max(3));
                while cells.len() < longest {
                    let last = cells[cells.len() - 1];
                    let v = d.value(last);
                    let mut next: Vec<(i64, (usize, usize))> = d
                        .next_to(last, true, &cells)
                        .into_iter()
                        .map(|q| (d.value(q), q))
                        .filter(|&(w, _)| w > v || (slow && w == v))
                        .collect();
                    if next.is_empty() {
                        break;
                    }
                    next.sort_unstable();
                    let pick = d.rng.below(next.len().min(2));
                    cells.push(next[pick].1);
                }
                let t = Thermometer { cells, slow };
                if t.cells.len() >= 3 && d.holds(&t) {
                    d.take(&t.cells);
                    out.push(t);
                }
            }
            out
        })
    }

    /// A grey bulb on the first cell and a grey tube through the others.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        let points: Vec<(f64, f64)> = self.cells.iter().map(|&c| centre(layout, c)).collect();
        let fill = if self.slow { "#c8c8c8" } else { "#cfcfcf" };
        let dash = if self.slow {
            // A slow thermometer's tube is drawn with gaps, as setters do.
            r#" stroke-dasharray="6 3""#
        } else {
            ""
        };
        s.polyline(
            &points,
            &format!(
                r#"class="{}" fill="none" stroke="{fill}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"{dash}"#,
                self.key(),
                CELL * 0.3
            ),
        );
        if let Some(&(x, y)) = points.first() {
            s.circle((x, y), CELL * 0.36, &format!(r#"class="bulb" fill="{fill}""#));
        }
    }
}
