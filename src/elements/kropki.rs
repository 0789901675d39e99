//! Kropki dots on the border between two orthogonal neighbours: a white
//! dot says their values differ by `value` (default 1), a black dot that
//! one is `value` times the other (default 2). The negative constraint
//! (`kropki-negative = true`, "all dots are given") says that no unmarked
//! neighbouring pair is consecutive or in ratio 1:2; `kropki-negative =
//! "black"` says it of black dots alone (no unmarked pair is 1:2, f-puzzles'
//! `negative: ["ratio"]`), `"white"` of white dots alone. A pair with a dot
//! of either colour is exempt, as in SudokuSolver.
//!
//! ```toml
//! kropki-negative = true     # or "black", or "white"
//!
//! [[kropki]]
//! cells = "r1c1 r1c2"        # white, difference 1
//!
//! [[kropki]]
//! cells = "r2c1 r3c1"
//! color = "black"            # ratio 2; value = 3 for another ratio
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{fpuzzles_cell, fpuzzles_flag, fpuzzles_pair, fpuzzles_push, iss_flag, iss_pairs, neighbours, quoted, unmarked_pairs};
use super::{Drawing, ElementType, HookError, Layer, Lowering, Making, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Cmp, Group, Rule, What, rc};
use crate::render::marks::TextForm;
use crate::render::svg::{CELL, Layout, Svg};

/// A kropki dot or the negative constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kropki {
    /// A dot between two orthogonal neighbours.
    Dot {
        /// The two cells, 0-based (row, column), as written.
        cells: [(usize, usize); 2],
        /// Black (ratio) rather than white (difference).
        black: bool,
        /// The difference or ratio.
        value: i64,
    },
    /// Every neighbouring pair without a dot is not consecutive (`white`)
    /// and not in ratio 1:2 (`black`); at least one of the two is set.
    Negative {
        /// No unmarked pair is consecutive.
        white: bool,
        /// No unmarked pair is in ratio 1:2.
        black: bool,
    },
}

/// The negative constraint of both colours ("all dots are given").
const BOTH: Kropki = Kropki::Negative {
    white: true,
    black: true,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    color: Option<Spanned<String>>,
    value: Option<Spanned<i64>>,
}

const WANT: &str = "[[kropki]] tables, each with cells = \"r1c1 r1c2\" (two neighbours), \
    optional color = \"white\" or \"black\" and value = N";

/// A dot's value, if it can be one: a difference of at least 1, a ratio
/// of at least 2.
fn check_value(black: bool, value: i64) -> Result<i64, String> {
    if value < 1 || (black && value < 2) {
        return Err(format!(
            "value = {value}: a white dot's difference is at least 1, a black dot's ratio at least 2"
        ));
    }
    Ok(value)
}

/// f-puzzles' `negative`: the marker kinds whose every unmarked pair breaks
/// the relation: `"ratio"` (black dots), `"difference"` (white dots) or
/// both.
fn negative(value: &serde_json::Value) -> Result<Vec<Kropki>, HookError> {
    let kinds: Vec<&str> = value
        .as_array()
        .ok_or("negative: expected a list such as [\"ratio\", \"difference\"]")?
        .iter()
        .map(|k| k.as_str().unwrap_or("?"))
        .collect();
    if let Some(other) = kinds.iter().find(|k| !matches!(**k, "ratio" | "difference")) {
        return Err(format!(
            "negative `{other}`: kropki reads only the negative of ratio and difference dots"
        ));
    }
    let (white, black) = (kinds.contains(&"difference"), kinds.contains(&"ratio"));
    Ok(if white || black {
        vec![Kropki::Negative { white, black }]
    } else {
        Vec::new()
    })
}

/// Reads `kropki-negative`: `true` (both colours), `false` (none),
/// `"black"` or `"white"` (that colour alone).
fn read_negative(key: &str, r: &TomlReader) -> Result<Vec<Kropki>, InputError> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Which {
        All(bool),
        One(String),
    }
    let want = format!("{key} = true, or {key} = \"black\" or \"white\" for one colour");
    Ok(match r.value::<Which>(key, &want)? {
        Which::All(on) => on.then_some(BOTH).into_iter().collect(),
        Which::One(c) if c == "black" => vec![Kropki::Negative { white: false, black: true }],
        Which::One(c) if c == "white" => vec![Kropki::Negative { white: true, black: false }],
        Which::One(c) => {
            return Err(r.error_at_key(key, format!("{key} = \"{c}\": write {want}")));
        }
    })
}

/// A dot with `value` as written (its colour's default if none), checked.
fn dot(cells: [(usize, usize); 2], black: bool, value: Option<i64>) -> Result<Kropki, String> {
    let value = match value {
        Some(v) => check_value(black, v)?,
        None => default_value(black),
    };
    Ok(Kropki::Dot {
        cells,
        black,
        value,
    })
}

/// The negative constraints among `all` as one: (white, black), each set
/// when any instance sets it (f-puzzles' `nonconsecutive` and `negative:
/// ["ratio"]` come in as two); `None` without one. A file has one
/// `kropki-negative` key, so they are written as one.
fn merged_negative(all: &[&Kropki]) -> Option<(bool, bool)> {
    all.iter().fold(None, |acc, k| match (acc, k) {
        (acc, Kropki::Dot { .. }) => acc,
        (None, Kropki::Negative { white, black }) => Some((*white, *black)),
        (Some((w, b)), Kropki::Negative { white, black }) => Some((w || *white, b || *black)),
    })
}

/// How a statement names a negative constraint of one colour alone
/// (` black`, ` white`); nothing for both.
fn negative_what(white: bool, black: bool) -> &'static str {
    match (white, black) {
        (true, true) => "",
        (false, _) => " black",
        (true, false) => " white",
    }
}

/// The default value of a white and of a black dot.
fn default_value(black: bool) -> i64 {
    if black { 2 } else { 1 }
}

impl ElementType for Kropki {
    const NAME: &'static str = "kropki";
    const KEYS: &'static [&'static str] = &["kropki", "kropki-negative"];
    const FPUZZLES: &'static [&'static str] = &["difference", "ratio", "nonconsecutive"];
    const ISS: &'static [&'static str] = &["WhiteDot", "BlackDot", "StrictKropki", "AntiConsecutive"];
    const DOC: &'static str = "`[[kropki]] cells = \"r1c1 r1c2\"` (`color = \"black\"`, `value = N`): \
        a white dot's neighbours differ by N (default 1), a black dot's are in ratio N:1 \
        (default 2); `kropki-negative = true`: no pair without a dot is consecutive or 1:2 \
        (`= \"black\"`: none is 1:2; `= \"white\"`: none is consecutive)";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        if key == "kropki-negative" {
            return read_negative(key, r);
        }
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let mut out = Vec::new();
        for raw in raws {
            let cells = neighbours(&r.cells(&raw.cells)?, "dot")
                .map_err(|m| r.error_at(&raw.cells, format!("kropki: {m}")))?;
            let black = match &raw.color {
                None => false,
                Some(c) => match c.get_ref().as_str() {
                    "white" => false,
                    "black" => true,
                    other => {
                        return Err(r.error_at(
                            c,
                            format!(
                                "kropki: color = \"{other}\": write color = \"white\" or \"black\""
                            ),
                        ));
                    }
                },
            };
            let dot = dot(cells, black, raw.value.as_ref().map(|v| *v.get_ref()));
            out.push(dot.map_err(|m| match &raw.value {
                Some(v) => r.error_at(v, format!("kropki: {m}")),
                None => r.error_at(&raw.cells, format!("kropki: {m}")),
            })?);
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        match merged_negative(all) {
            Some((true, true)) => w.key("kropki-negative = true\n"),
            Some((false, _)) => w.key("kropki-negative = \"black\"\n"),
            Some((true, false)) => w.key("kropki-negative = \"white\"\n"),
            None => {}
        }
        for k in all {
            match k {
                Kropki::Negative { .. } => {}
                Kropki::Dot {
                    cells,
                    black,
                    value,
                } => {
                    let mut fields = Vec::new();
                    if *black {
                        fields.push(("color", quoted("black")));
                    }
                    if *value != default_value(*black) {
                        fields.push(("value", value.to_string()));
                    }
                    w.cells_table("kropki", cells, &fields);
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
            return negative(value);
        }
        if key == "nonconsecutive" {
            // No unmarked neighbours are consecutive: the white half.
            let white = Kropki::Negative {
                white: true,
                black: false,
            };
            return fpuzzles_flag(key, value, white);
        }
        // [{"cells": ["R1C1", "R1C2"], "value"?: "3"}, …]
        let black = key == "ratio";
        let want = "{\"cells\": [\"R1C1\", \"R1C2\"]}";
        let mut out = Vec::new();
        for item in value
            .as_array()
            .ok_or_else(|| format!("{key}: expected a list of {want}"))?
        {
            let cells = fpuzzles_pair(key, item, size, "dot", want)?;
            let value = match item.get("value").and_then(|v| v.as_str()) {
                Some(v) => Some(
                    v.trim()
                        .parse()
                        .map_err(|_| format!("{key}: value \"{v}\" is not a number"))?,
                ),
                None => None,
            };
            out.push(dot(cells, black, value).map_err(|m| format!("{key}: {m}"))?);
        }
        Ok(out)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        match merged_negative(all) {
            Some((true, true)) => {
                top.insert("negative".into(), serde_json::json!(["ratio", "difference"]));
            }
            Some((false, _)) => {
                top.insert("negative".into(), serde_json::json!(["ratio"]));
            }
            Some((true, false)) => {
                top.insert("nonconsecutive".into(), serde_json::json!(true));
            }
            None => {}
        }
        for k in all {
            match k {
                Kropki::Negative { .. } => {}
                Kropki::Dot { cells, black, value } => {
                    let key = if *black { "ratio" } else { "difference" };
                    let names: Vec<String> = cells.iter().copied().map(fpuzzles_cell).collect();
                    let mut dot = serde_json::json!({ "cells": names });
                    if *value != default_value(*black) {
                        dot["value"] = serde_json::json!(value.to_string());
                    }
                    fpuzzles_push(top, key, dot);
                }
            }
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        if name == "StrictKropki" {
            // Every dot is given: the negative constraint.
            iss_flag(name, args)?;
            return Ok(vec![BOTH]);
        }
        if name == "AntiConsecutive" {
            iss_flag(name, args)?;
            // No two cells that share a side are consecutive: the white
            // half. ISS binds a pair with a dot too, which this exempts;
            // the ISS reader refuses the two together.
            return Ok(vec![Kropki::Negative {
                white: true,
                black: false,
            }]);
        }
        // .WhiteDot~R1C1~R1C2~R1C3: a dot between every two of its cells
        // that share a side (ISS reads the list as a set).
        let black = name == "BlackDot";
        Ok(iss_pairs(name, args, size, "dot")?
            .into_iter()
            .map(|cells| Kropki::Dot {
                cells,
                black,
                value: default_value(black),
            })
            .collect())
    }

    /// Dots where the solution's neighbours are consecutive (white) or
    /// 1:2 (black; a 1 beside a 2 gets either): about half of them, or
    /// every one with the negative constraint (`kropki-negative`).
    fn making() -> Making<Self> {
        Making::Drawn(|d: &mut Drawing| {
            let white = |x: i64, y: i64| (x - y).abs() == 1;
            let black = |x: i64, y: i64| x == 2 * y || y == 2 * x;
            d.edge_marks(
                "kropki-negative",
                BOTH,
                |x, y| white(x, y) || black(x, y),
                |rng, cells, x, y| {
                    let black = black(x, y) && (!white(x, y) || rng.chance(0.5));
                    Kropki::Dot {
                        cells,
                        black,
                        value: default_value(black),
                    }
                },
            )
        })
    }

    fn is_flag(&self) -> bool {
        matches!(self, Kropki::Negative { .. })
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let group = Group::Element(Self::NAME);
        match self {
            Kropki::Dot {
                cells: [a, b],
                black,
                value,
            } => {
                let colour = if *black { "black" } else { "white" };
                let name = format!("kropki {index} ({colour} {value}, {}|{})", rc(a.0, a.1), rc(b.0, b.1));
                l.begin(What::Element(Self::NAME), || name.clone(), || Says {
                    index: Some(index),
                    clue: Some(format!("{colour} {value}")),
                    ..Says::default()
                });
                let cells = vec![l.cell(a.0, a.1), l.cell(b.0, b.1)];
                let rule = if *black {
                    Rule::Ratio { cells, value: *value }
                } else {
                    Rule::Difference { cells, value: *value }
                };
                l.push(group, name, rule);
            }
            Kropki::Negative { white, black } => {
                let marked: Vec<[(usize, usize); 2]> = l
                    .all::<Kropki>()
                    .filter_map(|k| match k {
                        Kropki::Dot { cells, .. } => Some(*cells),
                        Kropki::Negative { .. } => None,
                    })
                    .collect();
                // Neither x − y nor y − x is 1 (white); neither x − 2y nor
                // y − 2x is 0 (black).
                let mut breaks = Vec::new();
                if *white {
                    breaks.extend([(1, -1, 1), (-1, 1, 1)]);
                }
                if *black {
                    breaks.extend([(1, -2, 0), (-2, 1, 0)]);
                }
                let what = negative_what(*white, *black);
                for ([p, q], [x, y]) in unmarked_pairs(l, &marked) {
                    let name = format!("kropki-negative{what} ({}|{})", rc(p.0, p.1), rc(q.0, q.1));
                    l.begin(What::Element(Self::NAME), || name.clone(), || Says {
                        label: Some("negative".into()),
                        ..Says::default()
                    });
                    for &(cx, cy, value) in &breaks {
                        l.push(
                            group,
                            name.clone(),
                            Rule::Linear {
                                cells: vec![x, y],
                                coeffs: vec![cx, cy],
                                cmp: Cmp::Ne,
                                value,
                            },
                        );
                    }
                }
            }
        }
    }

    /// A dot on the border (○ white, ● black; `o` and `@` in ASCII), its
    /// value said under the grid where it is not the default; the
    /// negative constraint said under the grid.
    fn text(&self, index: usize, t: &mut TextForm) {
        match self {
            Kropki::Dot { cells, black, value } => {
                let (glyph, ascii) = if *black { ('●', '@') } else { ('○', 'o') };
                t.between(*cells, glyph, ascii);
                if *value != default_value(*black) {
                    let how = if *black { "ratio" } else { "difference" };
                    let [a, b] = cells.map(|(r, c)| rc(r, c));
                    t.note(format!("kropki {index}: {how} {value} between {a} and {b}"));
                }
            }
            Kropki::Negative { white, black } => t.note(format!(
                "kropki-negative{}: no neighbours without a dot are {}",
                negative_what(*white, *black),
                match (white, black) {
                    (true, true) => "consecutive or in ratio 1:2",
                    (false, _) => "in ratio 1:2",
                    (true, false) => "consecutive",
                }
            )),
        }
    }

    /// A dot on the middle of the border between the two cells.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        let (Layer::Over, Kropki::Dot { cells: [a, b], black, .. }) = (layer, self) else {
            return;
        };
        let (ca, cb) = (layout.cell(a.0, a.1), layout.cell(b.0, b.1));
        let centre = (
            (ca.x + cb.x + CELL) / 2.0,
            (ca.y + cb.y + CELL) / 2.0,
        );
        let fill = if *black { "black" } else { "white" };
        s.circle(
            centre,
            CELL * 0.12,
            &format!(r#"class="kropki" fill="{fill}" stroke="black" stroke-width="1.5""#),
        );
    }
}
