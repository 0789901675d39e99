//! What the clues outside the grid share (little killer, sandwich, X-sum,
//! skyscraper): the clue's square, named as f-puzzles names it with row or
//! column 0 or n+1 (`at = "r0c3"`); the line of cells a clue beside a row
//! or column looks along; the clue's number drawn in its square. A clue
//! beside a row or column is a [`SideClue`] whose [`SideKind`] (one module
//! per constraint) says what it means, as a [`super::line::Line`]'s
//! `LineKind` does for lines.
//!
//! ```toml
//! [[sandwich]]
//! at = "r0c3"     # above column 3: looks down it
//! value = 12
//! ```

use std::fmt::Debug;
use std::marker::PhantomData;

use serde::Deserialize;
use toml::Spanned;

use super::kit::quoted;
use super::{ElementType, HookError, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{CellId, Group, Rule, What};
use crate::render::font;
use crate::render::svg::{Anchor, CELL, Layout, Svg};

/// A square of the ring around an n×n grid, 1-based as written: row or
/// column 0 or n+1 (`r0c3` is above column 3, `r4c10` right of row 4 of a
/// 9×9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Square {
    /// Row, 0 to n+1.
    pub row: usize,
    /// Column, 0 to n+1.
    pub col: usize,
}

impl Square {
    /// Reads `r0c3` (case does not matter) for an n×n grid; the message
    /// says what is wrong and what to write.
    pub fn parse(token: &str, n: usize) -> Result<Square, String> {
        let ring = n + 1;
        let t = token.trim().to_ascii_lowercase();
        let parsed = t
            .strip_prefix('r')
            .and_then(|rest| rest.split_once('c'))
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
        let Some((row, col)) = parsed else {
            return Err(format!(
                "`{token}` is not a square such as r0c3: name the clue's square by row and column, \
                 with row or column 0 or {ring} outside the grid"
            ));
        };
        if row > ring || col > ring {
            return Err(format!(
                "{token} is beyond the squares around the {n}×{n} grid: rows and columns run from 0 \
                 to {ring}"
            ));
        }
        let sq = Square { row, col };
        if !sq.on_ring(n) {
            return Err(format!(
                "{token} is inside the grid: a clue outside the grid stands in row 0 or {ring}, or \
                 in column 0 or {ring}"
            ));
        }
        Ok(sq)
    }

    /// Whether the square is outside an n×n grid (and next to it).
    fn on_ring(self, n: usize) -> bool {
        let ring = n + 1;
        self.row <= ring
            && self.col <= ring
            && (self.row == 0 || self.row == ring || self.col == 0 || self.col == ring)
    }

    /// The square as the TOML convention writes it: `r0c3`.
    pub fn name(self) -> String {
        format!("r{}c{}", self.row, self.col)
    }

    /// The square as f-puzzles writes it: `R0C3`.
    pub fn fpuzzles(self) -> String {
        format!("R{}C{}", self.row, self.col)
    }

    /// The cells a clue here looks along into an n×n grid, nearest first;
    /// `None` at a corner, which is beside no row or column.
    pub fn line(self, n: usize) -> Option<Vec<(usize, usize)>> {
        let ring = n + 1;
        let (r, c) = (self.row, self.col);
        let edge_row = r == 0 || r == ring;
        let edge_col = c == 0 || c == ring;
        if edge_row == edge_col {
            return None;
        }
        Some(match (r, c) {
            (0, c) => (0..n).map(|k| (k, c - 1)).collect(),
            (r, c) if r == ring => (0..n).map(|k| (n - 1 - k, c - 1)).collect(),
            (r, 0) => (0..n).map(|k| (r - 1, k)).collect(),
            (r, _) => (0..n).map(|k| (r - 1, n - 1 - k)).collect(),
        })
    }

    /// The centre of the square on the picture.
    pub fn centre(self, layout: &Layout) -> (f64, f64) {
        let first = layout.cell(0, 0);
        (
            first.x + (self.col as f64 - 0.5) * CELL,
            first.y + (self.row as f64 - 0.5) * CELL,
        )
    }
}

/// Reads an `at` value: a square outside the grid, the error at its place.
pub fn read_square(key: &str, r: &TomlReader, at: &Spanned<String>) -> Result<Square, InputError> {
    Square::parse(at.get_ref(), r.rows.max(r.cols))
        .map_err(|m| r.error_at(at, format!("{key}: {m}")))
}

/// The clues of an f-puzzles list of `key` (`[{"cell": "R0C3", "value":
/// "12", …}, …]`, `want` naming an item's shape): each one's square, its
/// value (a whole number as a string or a number) and the item itself;
/// an item with an empty value (an arrow without a clue says nothing) is
/// left out.
pub fn fpuzzles_clues<'v>(
    key: &str,
    value: &'v serde_json::Value,
    size: usize,
    want: &str,
) -> Result<Vec<(Square, i64, &'v serde_json::Value)>, HookError> {
    let bad = || format!("{key}: expected a list of {want}");
    let mut out = Vec::new();
    for item in value.as_array().ok_or_else(bad)? {
        let cell = item.get("cell").and_then(|c| c.as_str()).ok_or_else(bad)?;
        let at = Square::parse(cell, size).map_err(|m| format!("{key}: {m}"))?;
        let v = match item.get("value") {
            None => continue,
            Some(serde_json::Value::String(t)) if t.trim().is_empty() => continue,
            Some(v) => {
                let text = v
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string());
                text.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("{key}: value {v} is not a whole number"))?
            }
        };
        out.push((at, v, item));
    }
    Ok(out)
}

/// Draws `text` centred on `centre` in `class`, at `size` or smaller so
/// that it is at most `width` wide.
pub fn draw_number(
    s: &mut Svg,
    class: &str,
    centre: (f64, f64),
    size: f64,
    width: f64,
    text: &str,
) {
    let mut size = size;
    while size > 6.0 && font::measure(text, size).advance > width {
        size -= 0.5;
    }
    let e = font::measure(text, size);
    s.text(
        class,
        (centre.0, centre.1 + (e.top - e.bottom) / 2.0),
        size,
        Anchor::Middle,
        "",
        text,
    );
}

/// What one kind of clue beside a row or column means.
pub trait SideKind: Sized + Clone + Debug + PartialEq + Eq + 'static {
    /// The element's name and TOML key (`sandwich`).
    const NAME: &'static str;
    /// `[NAME]`: the TOML keys it reads.
    const KEYS: &'static [&'static str];
    /// f-puzzles keys (`{"cell": "R0C3", "value": "12"}` lists).
    const FPUZZLES: &'static [&'static str];
    /// ISS constraint names.
    const ISS: &'static [&'static str];
    /// One line for the docs.
    const DOC: &'static str;
    /// What the clue is, in messages ("sum", "count").
    const WHAT: &'static str;
    /// Whether ISS writes one clue per line, sum first and read from
    /// either side (`.Sandwich~12~C3`), rather than the line and a clue
    /// from the front and one from the back (`.XSum~C3~12~`).
    const ISS_SUM_FIRST: bool = false;

    /// The least and greatest clue on a grid of values 1..=`n`.
    fn range(n: i64) -> (i64, i64);

    /// The rule the clue `value` states over the line's cells, nearest
    /// the clue first, on a grid of values 1..=`n`.
    fn rule(cells: Vec<CellId>, value: i64, n: i64) -> Rule;
}

/// One clue beside a row or column: its square and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideClue<K> {
    /// The clue's square, beside a row or column.
    pub at: Square,
    /// The clue.
    pub value: i64,
    kind: PhantomData<K>,
}

impl<K: SideKind> SideClue<K> {
    /// The clue `value` in square `at`, checked against an n×n grid.
    pub fn new(at: Square, value: i64, n: usize) -> Result<Self, String> {
        if at.line(n).is_none() {
            return Err(format!(
                "{} is a corner: {} clue stands beside a row or column",
                at.name(),
                super::kit::a(K::NAME)
            ));
        }
        let (lo, hi) = K::range(i64::try_from(n).unwrap_or(i64::MAX));
        if !(lo..=hi).contains(&value) {
            return Err(format!(
                "value = {value}: write a {} from {lo} to {hi} on a {n}×{n} grid",
                K::WHAT
            ));
        }
        Ok(SideClue {
            at,
            value,
            kind: PhantomData,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    at: Spanned<String>,
    value: Spanned<i64>,
}

/// The square ISS names a line by (`C3`, `R4`) from the front (above or
/// left) or the back (below or right); `form` is how the constraint is
/// written, for the message.
fn iss_line(
    name: &str,
    id: &str,
    size: usize,
    back: bool,
    form: &str,
) -> Result<Square, HookError> {
    let bad = || {
        format!(
            "{name}: {} is not a row or column of the {size}×{size} grid: name one as C3 or R4, \
             {form}",
            super::kit::iss_arg(id)
        )
    };
    // By character, not byte: the argument may start with any letter.
    let mut chars = id.chars();
    let kind = chars.next().map(|c| c.to_ascii_uppercase());
    let k: usize = chars
        .as_str()
        .parse()
        .ok()
        .filter(|k| (1..=size).contains(k))
        .ok_or_else(bad)?;
    let far = if back { size + 1 } else { 0 };
    match kind {
        Some('C') => Ok(Square { row: far, col: k }),
        Some('R') => Ok(Square { row: k, col: far }),
        _ => Err(bad()),
    }
}

impl<K: SideKind> ElementType for SideClue<K> {
    const NAME: &'static str = K::NAME;
    const KEYS: &'static [&'static str] = K::KEYS;
    const FPUZZLES: &'static [&'static str] = K::FPUZZLES;
    const ISS: &'static [&'static str] = K::ISS;
    const DOC: &'static str = K::DOC;

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let want = format!(
            "[[{key}]] tables, each with at = \"r0c3\" (a square outside the grid, row or column 0 \
             or n+1) and value = N"
        );
        let raws: Vec<Raw> = r.value(key, &want)?;
        let n = r.rows.max(r.cols);
        let mut out = Vec::new();
        for raw in raws {
            let at = read_square(key, r, &raw.at)?;
            if at.line(n).is_none() {
                return Err(r.error_at(
                    &raw.at,
                    format!(
                        "{key}: {} is a corner: write a square beside a row or column, such as \
                         r0c1 or r1c0",
                        at.name()
                    ),
                ));
            }
            let clue = SideClue::new(at, *raw.value.get_ref(), n)
                .map_err(|m| r.error_at(&raw.value, format!("{key}: {m}")))?;
            out.push(clue);
        }
        Ok(out)
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for c in all {
            w.table(&format!(
                "[[{}]]\nat = {}\nvalue = {}\n",
                K::NAME,
                quoted(&c.at.name()),
                c.value
            ));
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        let want = "{\"cell\": \"R0C1\", \"value\": \"…\"}";
        let mut out = Vec::new();
        for (at, v, _) in fpuzzles_clues(key, value, size, want)? {
            out.push(SideClue::new(at, v, size).map_err(|m| format!("{key}: {m}"))?);
        }
        Ok(out)
    }

    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        let items = all
            .iter()
            .map(|c| serde_json::json!({"cell": c.at.fpuzzles(), "value": c.value.to_string()}))
            .collect();
        top.insert(K::FPUZZLES[0].to_string(), serde_json::Value::Array(items));
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        let number = |t: &&str| {
            t.trim().parse::<i64>().map_err(|_| {
                format!(
                    "{name}: {} is not a whole number: write the {} in digits",
                    super::kit::iss_arg(t),
                    K::WHAT
                )
            })
        };
        let clues: Vec<(Square, i64)> = if K::ISS_SUM_FIRST {
            // .Sandwich~12~C3
            let form = format!(".{name}~12~C3 (the {}, then the line)", K::WHAT);
            let [sum, id] = args else {
                return Err(format!(
                    "{name}: {} argument{} where it takes two: write {form}",
                    args.len(),
                    if args.len() == 1 { "" } else { "s" }
                ));
            };
            vec![(iss_line(name, id, size, false, &form)?, number(sum)?)]
        } else {
            // .XSum~C3~12~9: a clue from the front (above, left) and one
            // from the back; either may be empty, not both.
            let form = format!(
                ".{name}~C3~FRONT~BACK (the line, then the {} seen from above or the left, then \
                 from below or the right; either may be empty)",
                K::WHAT
            );
            let Some((id, rest)) = args.split_first() else {
                return Err(format!("{name}: no line and no clue: write {form}"));
            };
            // The line is checked even where no clue needs it: a cell or a
            // typo there is a slip, not a line without clues.
            iss_line(name, id, size, false, &form)?;
            if rest.len() > 2 {
                return Err(format!(
                    "{name}: {} arguments after the line, where it takes two at most: write {form}",
                    rest.len()
                ));
            }
            let mut out = Vec::new();
            for (i, t) in rest.iter().enumerate() {
                if !t.trim().is_empty() {
                    out.push((iss_line(name, id, size, i == 1, &form)?, number(t)?));
                }
            }
            if out.is_empty() {
                return Err(format!("{name}: {id} has no clue: write {form}"));
            }
            out
        };
        clues
            .into_iter()
            .map(|(at, v)| SideClue::new(at, v, size).map_err(|m| format!("{name}: {m}")))
            .collect()
    }

    fn outside(&self) -> Option<(Square, i8)> {
        Some((self.at, 0))
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let n = l.n();
        let Some(line) = self.at.line(n) else {
            return;
        };
        let name = format!("{} {index} ({}: {})", K::NAME, self.at.name(), self.value);
        l.begin(
            What::Element(K::NAME),
            || name.clone(),
            || Says {
                label: Some(self.at.name()),
                index: Some(index),
                clue: Some(self.value.to_string()),
                ..Says::default()
            },
        );
        let cells = line.iter().map(|&(r, c)| l.cell(r, c)).collect();
        let rule = K::rule(cells, self.value, i64::try_from(n).unwrap_or(i64::MAX));
        l.push(Group::Element(K::NAME), name, rule);
    }

    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer == Layer::Over {
            // Its share of the square, where other clues stand on it too:
            // a half-height share keeps the number to 0.8 of its size.
            let room = layout.clue_room(self.at, K::NAME);
            let centre = (room.x + room.width / 2.0, room.y + room.height / 2.0);
            let size = CELL * 0.5 * (room.height / CELL * 1.6).min(1.0);
            draw_number(
                s,
                K::NAME,
                centre,
                size,
                room.width * 0.8,
                &self.value.to_string(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_outside_and_side_ones_look_in() {
        let sq = |t| Square::parse(t, 4);
        assert_eq!(sq("r0c3"), Ok(Square { row: 0, col: 3 }));
        assert_eq!(sq("R5C2"), Ok(Square { row: 5, col: 2 }));
        assert!(sq("r2c2").unwrap_err().contains("inside the grid"));
        assert!(sq("r6c1").unwrap_err().contains("beyond"));
        assert!(sq("x").unwrap_err().contains("not a square"));
        let line = |t| sq(t).ok().and_then(|s| s.line(4));
        assert_eq!(line("r0c3"), Some(vec![(0, 2), (1, 2), (2, 2), (3, 2)]));
        assert_eq!(line("r5c1"), Some(vec![(3, 0), (2, 0), (1, 0), (0, 0)]));
        assert_eq!(line("r2c0"), Some(vec![(1, 0), (1, 1), (1, 2), (1, 3)]));
        assert_eq!(line("r4c5"), Some(vec![(3, 3), (3, 2), (3, 1), (3, 0)]));
        assert_eq!(line("r0c0"), None);
        assert_eq!(line("r5c5"), None);
    }

    #[test]
    fn iss_names_lines_from_the_front_and_the_back() {
        let line = |id, back| iss_line("XSum", id, 9, back, ".XSum~C3~FRONT~BACK");
        assert_eq!(line("C3", false), Ok(Square { row: 0, col: 3 }));
        assert_eq!(line("C3", true), Ok(Square { row: 10, col: 3 }));
        assert_eq!(line("r4", true), Ok(Square { row: 4, col: 10 }));
        assert!(line("C10", false).is_err());
        assert!(line("D1", false).is_err());
        // Any first character, not only one byte long, is refused, not a
        // panic.
        let e = line("é3", false).expect_err("no line");
        assert!(
            e.contains("`é3`") && e.contains(".XSum~C3~FRONT~BACK"),
            "{e}"
        );
    }
}
