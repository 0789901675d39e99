//! Little killer: a clue outside the grid with an arrow along a diagonal;
//! the cells of that diagonal, from the clue to the far edge, sum to the
//! clue. Digits may repeat (SudokuSolver's `lk`, ISS's `LittleKiller`).
//!
//! ```toml
//! [[little-killer]]
//! at = "r0c3"               # the clue's square, outside the grid
//! direction = "down-right"  # or "DR"; left out where only one diagonal
//! value = 15                #   from the square enters the grid
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::kit::{path, quoted};
use super::outside::{Square, draw_number, fpuzzles_clues, read_square};
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, Target, What};
use crate::render::svg::{CELL, Layout, Svg};

/// The four diagonal directions, as (row step, column step), with their
/// long and short names.
const DIRECTIONS: [((i64, i64), &str, &str); 4] = [
    ((1, 1), "down-right", "DR"),
    ((1, -1), "down-left", "DL"),
    ((-1, 1), "up-right", "UR"),
    ((-1, -1), "up-left", "UL"),
];

/// One little killer clue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LittleKiller {
    /// The clue's square, outside the grid.
    pub at: Square,
    /// Which way the arrow points: (row step, column step), each ±1.
    pub direction: (i64, i64),
    /// The sum.
    pub value: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    at: Spanned<String>,
    direction: Option<Spanned<String>>,
    value: Spanned<i64>,
}

const WANT: &str = "[[little-killer]] tables, each with at = \"r0c3\" (a square outside the \
    grid), direction = \"down-right\" (or \"down-left\", \"up-right\", \"up-left\") and value = N";

/// A direction's long name.
fn long(d: (i64, i64)) -> &'static str {
    DIRECTIONS.iter().find(|x| x.0 == d).map_or("?", |x| x.1)
}

/// A direction's short name (f-puzzles').
fn short(d: (i64, i64)) -> &'static str {
    DIRECTIONS.iter().find(|x| x.0 == d).map_or("?", |x| x.2)
}

/// `down-right` or `DR` (any case) as a direction.
fn read_direction(s: &str) -> Option<(i64, i64)> {
    let t = s.trim();
    DIRECTIONS
        .iter()
        .find(|x| t.eq_ignore_ascii_case(x.1) || t.eq_ignore_ascii_case(x.2))
        .map(|x| x.0)
}

/// The cells of the diagonal from `at` going `d` in an n×n grid, 0-based;
/// empty when the first step leaves the grid.
fn diagonal(at: Square, d: (i64, i64), n: usize) -> Vec<(usize, usize)> {
    let n = n as i64;
    let (mut r, mut c) = (at.row as i64 - 1 + d.0, at.col as i64 - 1 + d.1);
    let mut out = Vec::new();
    while (0..n).contains(&r) && (0..n).contains(&c) {
        out.push((r as usize, c as usize));
        r += d.0;
        c += d.1;
    }
    out
}

/// The only direction from `at` whose diagonal enters the grid, if only
/// one does (corners, and the squares next to them).
fn only_direction(at: Square, n: usize) -> Option<(i64, i64)> {
    let mut ways = DIRECTIONS
        .iter()
        .map(|x| x.0)
        .filter(|&d| !diagonal(at, d, n).is_empty());
    match (ways.next(), ways.next()) {
        (Some(d), None) => Some(d),
        _ => None,
    }
}

impl LittleKiller {
    /// The clue `value` in `at` pointing `direction`, checked against an
    /// n×n grid.
    pub fn new(at: Square, direction: (i64, i64), value: i64, n: usize) -> Result<Self, String> {
        let len = entering(at, direction, n)?;
        check_sum(len, value, n)?;
        Ok(LittleKiller {
            at,
            direction,
            value,
        })
    }
}

/// The length of the diagonal from `at` going `d`, or why it does not
/// enter the grid.
fn entering(at: Square, d: (i64, i64), n: usize) -> Result<usize, String> {
    match diagonal(at, d, n).len() {
        0 => Err(format!(
            "the arrow at {} pointing {} does not enter the grid: point it {}",
            at.name(),
            long(d),
            DIRECTIONS
                .iter()
                .filter(|x| !diagonal(at, x.0, n).is_empty())
                .map(|x| x.1)
                .collect::<Vec<_>>()
                .join(" or ")
        )),
        len => Ok(len),
    }
}

/// Why `value` is no sum of `len` cells of values 1..=`n`.
fn check_sum(len: usize, value: i64, n: usize) -> Result<(), String> {
    let len = len as i64;
    let (lo, hi) = (len, len.saturating_mul(n as i64));
    if !(lo..=hi).contains(&value) {
        return Err(format!(
            "value = {value}: the {len} cells of the diagonal sum to {lo} to {hi}; write a sum in \
             that range"
        ));
    }
    Ok(())
}

impl ElementType for LittleKiller {
    const NAME: &'static str = "little-killer";
    const KEYS: &'static [&'static str] = &["little-killer"];
    const FPUZZLES: &'static [&'static str] = &["littlekillersum"];
    const ISS: &'static [&'static str] = &["LittleKiller"];
    const DOC: &'static str = "`[[little-killer]] at = \"r0c3\"` `direction = \"down-right\"` \
        `value = N`: the diagonal the arrow points along sums to N (digits may repeat); \
        `direction` may be left out where only one diagonal from the square enters the grid";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let raws: Vec<Raw> = r.value(key, WANT)?;
        let n = r.rows.max(r.cols);
        let mut out = Vec::new();
        for raw in raws {
            let at = read_square(key, r, &raw.at)?;
            let direction = match &raw.direction {
                Some(d) => read_direction(d.get_ref()).ok_or_else(|| {
                    r.error_at(
                        d,
                        format!(
                            "{key}: direction = \"{}\": write \"down-right\", \"down-left\", \
                             \"up-right\" or \"up-left\" (or DR, DL, UR, UL)",
                            d.get_ref()
                        ),
                    )
                })?,
                None => only_direction(at, n).ok_or_else(|| {
                    r.error_at(
                        &raw.at,
                        format!(
                            "{key}: more than one diagonal from {} enters the grid: write \
                             direction = \"down-right\" (or \"down-left\", \"up-right\", \"up-left\")",
                            at.name()
                        ),
                    )
                })?,
            };
            let len = entering(at, direction, n).map_err(|m| {
                r.error_at(raw.direction.as_ref().unwrap_or(&raw.at), format!("{key}: {m}"))
            })?;
            let value = *raw.value.get_ref();
            check_sum(len, value, n).map_err(|m| r.error_at(&raw.value, format!("{key}: {m}")))?;
            out.push(LittleKiller {
                at,
                direction,
                value,
            });
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        // The direction is always written: which squares have only one
        // depends on the grid's size, which the writer does not know.
        for k in all {
            w.table(&format!(
                "[[little-killer]]\nat = {}\ndirection = \"{}\"\nvalue = {}\n",
                quoted(&k.at.name()),
                long(k.direction),
                k.value
            ));
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"cell": "R0C4", "cells": [...], "direction": "DR", "value": "17"}, …]:
        // the cells follow from the square and the direction.
        let want = "{\"cell\": \"R0C1\", \"direction\": \"DR\", \"value\": \"…\"}";
        let mut out = Vec::new();
        for (at, v, item) in fpuzzles_clues(key, value, size, want)? {
            let d = item.get("direction").and_then(|d| d.as_str()).unwrap_or("");
            let direction = read_direction(d)
                .ok_or_else(|| format!("{key}: direction \"{d}\" is not one of UL, UR, DL, DR"))?;
            out.push(LittleKiller::new(at, direction, v, size).map_err(|m| format!("{key}: {m}"))?);
        }
        Ok(out)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        let n = top
            .get("size")
            .and_then(|s| s.as_u64())
            .and_then(|s| usize::try_from(s).ok())
            .ok_or("little-killer: the f-puzzles grid has no size yet")?;
        let items = all
            .iter()
            .map(|k| {
                let cells: Vec<String> = diagonal(k.at, k.direction, n)
                    .iter()
                    .map(|&(r, c)| format!("R{}C{}", r + 1, c + 1))
                    .collect();
                serde_json::json!({
                    "cell": k.at.fpuzzles(),
                    "cells": cells,
                    "direction": short(k.direction),
                    "value": k.value.to_string(),
                })
            })
            .collect();
        top.insert("littlekillersum".into(), serde_json::Value::Array(items));
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        // .LittleKiller~SUM~R1C3: the diagonal is named by its first cell,
        // its direction by the edge that cell is on (ISS: the left column
        // down-right, the right column up-left, the top row down-left, the
        // bottom row up-right, in that order).
        let form = format!(".{name}~15~R1C3 (the sum, then the diagonal's first cell)");
        let [sum, id] = args else {
            return Err(format!(
                "{name}: {} argument{} where it takes two: write {form}",
                args.len(),
                if args.len() == 1 { "" } else { "s" }
            ));
        };
        let v: i64 = sum.trim().parse().map_err(|_| {
            format!(
                "{name}: {} is not a whole number: write {form}",
                super::kit::iss_arg(sum)
            )
        })?;
        let (r, c) = super::kit::hook_cell(id, size)?;
        let last = size - 1;
        let d = if c == 0 && r < last {
            (1, 1)
        } else if c == last && r > 0 && r < last {
            (-1, -1)
        } else if r == 0 && c > 0 {
            (1, -1)
        } else if r == last && c > 0 && c < last {
            (-1, 1)
        } else {
            return Err(format!("{name}: {id} starts no diagonal of two or more cells at the edge"));
        };
        // The clue's square is one step back from the first cell.
        let at = Square {
            row: (r as i64 + 1 - d.0) as usize,
            col: (c as i64 + 1 - d.1) as usize,
        };
        Ok(vec![LittleKiller::new(at, d, v, size).map_err(|m| format!("{name}: {m}"))?])
    }

    /// Where its square is shared, it leans to the side its arrow points
    /// to along the grid's edge.
    fn outside(&self) -> Option<(Square, i8)> {
        // Above or below the grid: the bottom row n+1 is the larger
        // coordinate but for the corner.
        let across = self.at.row == 0 || (self.at.col != 0 && self.at.row >= self.at.col);
        let lean = if across { self.direction.1 } else { self.direction.0 };
        Some((self.at, lean.signum() as i8))
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let cells = diagonal(self.at, self.direction, l.n());
        let name = format!(
            "little-killer {index} ({} {}: {})",
            self.at.name(),
            short(self.direction),
            self.value
        );
        l.begin(
            What::Element(Self::NAME),
            || name.clone(),
            || Says {
                label: Some(self.at.name()),
                index: Some(index),
                clue: Some(self.value.to_string()),
                ..Says::default()
            },
        );
        let ids = cells.iter().map(|&(r, c)| l.cell(r, c)).collect();
        let origin = format!("{name} along {}", path(&cells));
        l.push(
            Group::Element(Self::NAME),
            origin,
            Rule::Sum {
                cells: ids,
                target: Target::Eq(self.value),
            },
        );
    }

    /// A small number in the half of the square away from the diagonal,
    /// and an arrow from the square's centre towards the diagonal's first
    /// cell.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Over {
            return;
        }
        // Its share of the square (all of it unless other clues stand
        // there too). In a whole square the arrow points from the centre
        // to the corner and the number stands behind it; in a share, long
        // one way, the number and a smaller arrow stand one after the
        // other along it, the arrow on the side it points to.
        let room = layout.clue_room(self.at, Self::NAME);
        let (cx, cy) = (room.x + room.width / 2.0, room.y + room.height / 2.0);
        let (dx, dy) = (self.direction.1 as f64, self.direction.0 as f64);
        let short = room.width.min(room.height);
        let (tail, tip, back, number, width) = if (room.width - room.height).abs() < 0.5 {
            let k = short / CELL;
            let tip = (cx + dx * CELL * 0.42 * k, cy + dy * CELL * 0.42 * k);
            let tail = (cx + dx * CELL * 0.06 * k, cy + dy * CELL * 0.06 * k);
            let number = (cx - dx * CELL * 0.2 * k, cy - dy * CELL * 0.2 * k);
            (tail, tip, CELL * 0.14 * k, number, CELL * 0.45 * k)
        } else {
            let tall = room.height > room.width;
            let (ax, ay) = if tall { (0.0, dy) } else { (dx, 0.0) };
            let long = room.width.max(room.height);
            let arrow = (cx + ax * long * 0.22, cy + ay * long * 0.22);
            let half = short * 0.28;
            let tip = (arrow.0 + dx * half, arrow.1 + dy * half);
            let tail = (arrow.0 - dx * half, arrow.1 - dy * half);
            let number = (cx - ax * long * 0.2, cy - ay * long * 0.2);
            let width = if tall { short * 0.8 } else { long * 0.45 };
            (tail, tip, short * 0.22, number, width)
        };
        let attrs = r#"class="little-killer" fill="none" stroke="black" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round""#;
        s.line(tail, tip, attrs);
        // The head: two strokes back from the tip, one along each axis.
        s.polyline(
            &[(tip.0 - dx * back, tip.1), tip, (tip.0, tip.1 - dy * back)],
            attrs,
        );
        draw_number(s, "little-killer", number, (CELL * 0.32).min(short * 0.6), width, &self.value.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(t: &str) -> Square {
        Square::parse(t, 4).expect("a square outside the grid")
    }

    #[test]
    fn diagonals_run_from_the_clue_to_the_far_edge() {
        assert_eq!(diagonal(sq("r0c0"), (1, 1), 4), vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(diagonal(sq("r0c3"), (1, 1), 4), vec![(0, 3)]);
        assert_eq!(diagonal(sq("r0c3"), (1, -1), 4), vec![(0, 1), (1, 0)]);
        assert_eq!(diagonal(sq("r5c2"), (-1, 1), 4), vec![(3, 2), (2, 3)]);
        assert!(diagonal(sq("r0c3"), (-1, 1), 4).is_empty());
        assert_eq!(only_direction(sq("r0c0"), 4), Some((1, 1)));
        assert_eq!(only_direction(sq("r0c1"), 4), Some((1, 1)));
        assert_eq!(only_direction(sq("r3c5"), 4), None);
        let err = LittleKiller::new(sq("r0c2"), (-1, 1), 3, 4).unwrap_err();
        assert!(err.contains("down-right or down-left"), "{err}");
        assert!(LittleKiller::new(sq("r0c2"), (1, 1), 13, 4).unwrap_err().contains("2 to 8"));
    }

    #[test]
    fn hooks_read_squares_and_directions() {
        let v = serde_json::json!([
            {"cell": "R0C2", "cells": ["R1C3", "R2C4"], "direction": "DR", "value": "7"},
            {"cell": "R5C0", "direction": "UR", "value": ""},
        ]);
        let got = LittleKiller::from_fpuzzles("littlekillersum", &v, 4).expect("reads");
        assert_eq!(got, vec![LittleKiller { at: sq("r0c2"), direction: (1, 1), value: 7 }]);
        let bad = serde_json::json!([{"cell": "R2C2", "direction": "DR", "value": "7"}]);
        assert!(LittleKiller::from_fpuzzles("littlekillersum", &bad, 4).unwrap_err().contains("inside"));
        // ISS: R1C1 is the main diagonal, R1C4 the anti-diagonal (down-left
        // from the top), R3C4 up-left from the right column.
        let iss = |id| LittleKiller::from_iss("LittleKiller", &["10", id], 4);
        assert_eq!(iss("R1C1").expect("r1c1")[0], LittleKiller { at: sq("r0c0"), direction: (1, 1), value: 10 });
        assert_eq!(iss("R1C4").expect("r1c4")[0], LittleKiller { at: sq("r0c5"), direction: (1, -1), value: 10 });
        assert_eq!(iss("R3C4").expect("r3c4")[0].at, sq("r4c5"));
        assert!(iss("R2C2").unwrap_err().contains("starts no diagonal"));
    }
}
