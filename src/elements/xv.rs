//! XV: an X on the border between two orthogonal neighbours says their
//! values sum to 10, a V that they sum to 5. The negative constraint
//! (`xv-negative = true`, "all X and V are given") says that no unmarked
//! neighbouring pair sums to 5 or 10 (SudokuSolver's `neg5;neg10`).
//!
//! ```toml
//! xv-negative = true
//!
//! [[xv]]
//! cells = "r1c1 r1c2"
//! letter = "X"               # or "V"
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{fpuzzles_pair, iss_flag, iss_pairs, neighbours, quoted, read_flag, unmarked_pairs};
use super::{Drawing, ElementType, HookError, Layer, Lowering, Making, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Cmp, Group, Rule, What, rc};
use crate::render::marks::TextForm;
use crate::render::svg::{Anchor, CELL, Layout, Rect, Svg};

/// An X or V on a border, or the negative constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Xv {
    /// A letter between two orthogonal neighbours.
    Mark {
        /// The two cells, 0-based (row, column), as written.
        cells: [(usize, usize); 2],
        /// X (sum 10) rather than V (sum 5).
        x: bool,
    },
    /// No neighbouring pair without a letter sums to 5 or 10.
    Negative,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    letter: Spanned<String>,
}

const WANT: &str = "[[xv]] tables, each with cells = \"r1c1 r1c2\" (two neighbours) \
    and letter = \"X\" or \"V\"";

/// The sum an X (10) or a V (5) stands for.
fn sum(x: bool) -> i64 {
    if x { 10 } else { 5 }
}

/// The letter of an X or a V.
fn letter(x: bool) -> &'static str {
    if x { "X" } else { "V" }
}

/// `X` or `V` (either case) as whether it is an X.
fn read_letter(s: &str) -> Option<bool> {
    match s.trim() {
        "X" | "x" => Some(true),
        "V" | "v" => Some(false),
        _ => None,
    }
}

impl ElementType for Xv {
    const NAME: &'static str = "xv";
    const KEYS: &'static [&'static str] = &["xv", "xv-negative"];
    const FPUZZLES: &'static [&'static str] = &["xv"];
    const ISS: &'static [&'static str] = &["X", "V", "StrictXV"];
    const DOC: &'static str = "`[[xv]] cells = \"r1c1 r1c2\"` `letter = \"X\"` or `\"V\"`: \
        the neighbours sum to 10 (X) or 5 (V); `xv-negative = true`: no pair without a letter \
        sums to 5 or 10";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        if key == "xv-negative" {
            return read_flag(key, r, Xv::Negative);
        }
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = neighbours(&r.cells(&raw.cells)?, "letter")
                .map_err(|m| r.error_at(&raw.cells, format!("xv: {m}")))?;
            let x = read_letter(raw.letter.get_ref()).ok_or_else(|| {
                r.error_at(
                    &raw.letter,
                    format!(
                        "xv: letter = \"{}\": write letter = \"X\" (sum 10) or \"V\" (sum 5)",
                        raw.letter.get_ref()
                    ),
                )
            })?;
            out.push(Xv::Mark { cells, x });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for k in all {
            match k {
                Xv::Negative => w.key("xv-negative = true\n"),
                Xv::Mark { cells, x } => {
                    w.cells_table("xv", cells, &[("letter", quoted(letter(*x)))]);
                }
            }
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        if key == "negative" {
            // The importer hands over the entries of f-puzzles' shared
            // `negative` list that name this element's key: ["xv"].
            return Ok(vec![Xv::Negative]);
        }
        // [{"cells": ["R1C1", "R1C2"], "value": "X"}, …]
        let want = "{\"cells\": [\"R1C1\", \"R1C2\"], \"value\": \"X\"}";
        let mut out = Vec::new();
        for item in value
            .as_array()
            .ok_or_else(|| format!("{key}: expected a list of {want}"))?
        {
            let cells = fpuzzles_pair(key, item, size, "letter", want)?;
            let v = item.get("value").and_then(|v| v.as_str()).unwrap_or("");
            let x = read_letter(v)
                .ok_or_else(|| format!("{key}: value \"{v}\" is neither \"X\" nor \"V\""))?;
            out.push(Xv::Mark { cells, x });
        }
        Ok(out)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        for k in all {
            let (key, item) = match k {
                Xv::Negative => ("negative", serde_json::json!("xv")),
                Xv::Mark { cells, x } => {
                    let names: Vec<String> =
                        cells.iter().map(|&(r, c)| format!("R{}C{}", r + 1, c + 1)).collect();
                    ("xv", serde_json::json!({"cells": names, "value": letter(*x)}))
                }
            };
            // `negative` is shared with the kropki dots' entries.
            let list = top.entry(key).or_insert_with(|| serde_json::json!([]));
            if let Some(l) = list.as_array_mut() {
                l.push(item);
            }
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        if name == "StrictXV" {
            // Only the marked pairs sum to 5 or 10: the negative constraint.
            iss_flag(name, args)?;
            return Ok(vec![Xv::Negative]);
        }
        // .X~R1C1~R1C2: a letter between every two of its cells that share
        // a side (ISS reads the list as a set).
        let x = name == "X";
        Ok(iss_pairs(name, args, size, "letter")?
            .into_iter()
            .map(|cells| Xv::Mark { cells, x })
            .collect())
    }

    /// An X or V where the solution's neighbours sum to 10 or 5: about
    /// half of them, or every one with the negative constraint
    /// (`xv-negative`).
    fn making() -> Making<Self> {
        Making::Drawn(|d: &mut Drawing| {
            d.edge_marks(
                "xv-negative",
                Xv::Negative,
                |x, y| x + y == 5 || x + y == 10,
                |_, cells, x, y| Xv::Mark {
                    cells,
                    x: x + y == 10,
                },
            )
        })
    }

    fn is_flag(&self) -> bool {
        *self == Xv::Negative
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let group = Group::Element(Self::NAME);
        match self {
            Xv::Mark { cells: [a, b], x } => {
                let name = format!("xv {index} ({} {}|{})", letter(*x), rc(a.0, a.1), rc(b.0, b.1));
                l.begin(What::Element(Self::NAME), || name.clone(), || Says {
                    index: Some(index),
                    clue: Some(letter(*x).into()),
                    ..Says::default()
                });
                let cells = vec![l.cell(a.0, a.1), l.cell(b.0, b.1)];
                l.push(
                    group,
                    name,
                    Rule::Linear {
                        cells,
                        coeffs: vec![1, 1],
                        cmp: Cmp::Eq,
                        value: sum(*x),
                    },
                );
            }
            Xv::Negative => {
                let marked: Vec<[(usize, usize); 2]> = l
                    .all::<Xv>()
                    .filter_map(|k| match k {
                        Xv::Mark { cells, .. } => Some(*cells),
                        Xv::Negative => None,
                    })
                    .collect();
                // A sum two cells cannot reach (10 on a 4×4) says nothing.
                let top = 2 * l.n() as i64 - 1;
                for ([p, q], [a, b]) in unmarked_pairs(l, &marked) {
                            let name = format!("xv-negative ({}|{})", rc(p.0, p.1), rc(q.0, q.1));
                            l.begin(What::Element(Self::NAME), || name.clone(), || Says {
                                label: Some("negative".into()),
                                ..Says::default()
                            });
                            for value in [sum(false), sum(true)].into_iter().filter(|&v| v <= top) {
                                l.push(
                                    group,
                                    name.clone(),
                                    Rule::Linear {
                                        cells: vec![a, b],
                                        coeffs: vec![1, 1],
                                        cmp: Cmp::Ne,
                                        value,
                                    },
                                );
                            }
                }
            }
        }
    }

    /// The letter on the border; the negative constraint said under the
    /// grid.
    fn text(&self, _index: usize, t: &mut TextForm) {
        match self {
            Xv::Mark { cells, x } => {
                let c = if *x { 'X' } else { 'V' };
                t.between(*cells, c, c);
            }
            Xv::Negative => t.note("xv-negative: no neighbours without a letter sum to 5 or 10"),
        }
    }

    /// The letter on the middle of the border, on a white patch so the
    /// border line does not cross it.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        let (Layer::Over, Xv::Mark { cells: [a, b], x }) = (layer, self) else {
            return;
        };
        let (ca, cb) = (layout.cell(a.0, a.1), layout.cell(b.0, b.1));
        let (cx, cy) = ((ca.x + cb.x + CELL) / 2.0, (ca.y + cb.y + CELL) / 2.0);
        let size = CELL * 0.34;
        s.rect(
            Rect {
                x: cx - size * 0.45,
                y: cy - size * 0.5,
                width: size * 0.9,
                height: size,
            },
            r#"class="xv" fill="white""#,
        );
        s.text(
            "xv",
            (cx, cy + size * 0.36),
            size,
            Anchor::Middle,
            r#"font-weight="bold" font-family="sans-serif""#,
            letter(*x),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_read_letters_and_refuse_cells_apart() {
        let v = serde_json::json!([{"cells": ["R1C1", "R1C2"], "value": "X"}, {"cells": ["R2C1", "R3C1"], "value": "V"}]);
        assert_eq!(
            Xv::from_fpuzzles("xv", &v, 4).expect("reads"),
            vec![
                Xv::Mark { cells: [(0, 0), (0, 1)], x: true },
                Xv::Mark { cells: [(1, 0), (2, 0)], x: false },
            ]
        );
        let far = serde_json::json!([{"cells": ["R1C1", "R1C3"], "value": "X"}]);
        assert!(Xv::from_fpuzzles("xv", &far, 4).unwrap_err().contains("not neighbours"));
        let odd = serde_json::json!([{"cells": ["R1C1", "R1C2"], "value": "Y"}]);
        assert!(Xv::from_fpuzzles("xv", &odd, 4).unwrap_err().contains("neither"));
        assert_eq!(
            Xv::from_iss("V", &["R1C1", "R1C2", "R2C2"], 4).expect("reads"),
            vec![
                Xv::Mark { cells: [(0, 0), (0, 1)], x: false },
                Xv::Mark { cells: [(0, 1), (1, 1)], x: false },
            ]
        );
        assert!(Xv::from_iss("X", &["R1C1", "R1C9"], 4).unwrap_err().contains("outside"));
    }
}
