//! Skyscrapers clues outside the grid: how many towers are seen looking
//! along a row or column from that side. Read from the skyscrapers kind's
//! `top`, `bottom`, `left` and `right` keys, which with the givens fix the
//! grid's size, by the element's `read_grid` hook, and counted against
//! it by its `finish_grid` hook; written by its `write` hook in the kind's
//! key order.

use toml::Spanned;

use super::grid_text::{self, Token, split_rows};
use super::kit::quoted;
use super::{
    ElementType, GridRead, Layer, Lowering, Says, TomlReader, TomlWriter, givens,
};
use crate::error::{InputError, Location};
use crate::model::{Group, Rule, What};
use crate::render::TextCells;
use crate::render::font;
use crate::render::svg::{Anchor, CELL, Layout, Svg};

/// Skyscrapers clues: for each edge, one optional count per line, "this
/// many towers are seen looking in from here" (a tower hides every lower
/// one behind it). Each list has one entry per column (`top`, `bottom`,
/// left to right) or per row (`left`, `right`, top to bottom).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EdgeClues {
    /// Seen looking down each column from above.
    pub top: Vec<Option<u32>>,
    /// Seen looking up each column from below.
    pub bottom: Vec<Option<u32>>,
    /// Seen looking along each row from the left.
    pub left: Vec<Option<u32>>,
    /// Seen looking along each row from the right.
    pub right: Vec<Option<u32>>,
}

impl ElementType for EdgeClues {
    const NAME: &'static str = "edge-clues";
    const KEYS: &'static [&'static str] = &["top", "bottom", "left", "right"];
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "`top`, `bottom`, `left`, `right = \"2 . 3 1\"` (skyscrapers): towers \
        seen from that side of each column or row, `.` for none";

    /// The skyscrapers kind's `top`, `bottom`, `left` and `right` keys:
    /// each side's syntax, then the givens, which fix the grid's size
    /// (else the first side's count does). The counts are checked against
    /// the size once the givens are ([`ElementType::finish_grid`]).
    fn read_grid(r: &TomlReader) -> Result<Option<GridRead<Self>>, InputError> {
        let lists = sides(r)?;
        let givens = givens::read(r)?;
        let Some((first, side_at)) = lists.iter().flatten().next() else {
            return Err(InputError::new(
                r.file.clone(),
                "a skyscrapers puzzle needs edge clues: add top = \"...\", bottom, left \
                 and/or right (one count per column or row, . for none)",
            ));
        };
        let n = givens.as_ref().map_or(first.len(), |g| g.values.grid.len());
        grid_text::check_max(n, n, &r.file.clone())?;
        let at = givens.as_ref().map_or_else(|| side_at.clone(), |g| g.at.clone());
        Ok(Some(GridRead {
            shape: (n, n),
            givens: givens.map(|g| g.values),
            at,
            element: None,
        }))
    }

    /// Each side's count of clues against the grid's size, and its clues,
    /// once the givens' rows and columns are checked.
    fn finish_grid(
        r: &TomlReader,
        _givens: Option<&givens::Values>,
    ) -> Result<Option<Self>, InputError> {
        let n = r.rows;
        let mut edges = EdgeClues::default();
        for (side, list) in Self::KEYS.iter().zip(sides(r)?) {
            let Some((toks, loc)) = list else {
                continue;
            };
            if toks.len() != n {
                let what = if matches!(*side, "top" | "bottom") {
                    "column"
                } else {
                    "row"
                };
                return Err(InputError::new(
                    loc,
                    format!(
                        "{side} has {} clue{}, but the grid is {n}×{n}: give one per {what}, . for none",
                        toks.len(),
                        if toks.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
            let vals = toks
                .iter()
                .map(|t| grid_text::value_of(t, n as u32))
                .collect::<Result<Vec<_>, _>>()?;
            match *side {
                "top" => edges.top = vals,
                "bottom" => edges.bottom = vals,
                "left" => edges.left = vals,
                _ => edges.right = vals,
            }
        }
        Ok(Some(edges))
    }

    /// The skyscrapers kind's `top`, `bottom`, `left` and `right` keys,
    /// one count per column or row, `.` for none.
    fn write(all: &[&Self], w: &mut TomlWriter) {
        for e in all {
        for (key, clues) in [
            ("top", &e.top),
            ("bottom", &e.bottom),
            ("left", &e.left),
            ("right", &e.right),
        ] {
            let vals: Vec<String> = clues
                .iter()
                .map(|v| v.map_or_else(|| ".".to_string(), |v| v.to_string()))
                .collect();
            w.key(&format!("{key:<6} = {}\n", quoted(&vals.join(" "))));
        }
        }
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let n = l.n();
        // Per side: its name, the line it looks along, and the k-th cell
        // (nearest first) of line i in an n×n grid.
        type At = fn(usize, usize, usize) -> (usize, usize);
        let sides: [(&str, &str, &[Option<u32>], At); 4] = [
            ("top", "column", &self.top, |_, i, k| (k, i)),
            ("bottom", "column", &self.bottom, |n, i, k| (n - 1 - k, i)),
            ("left", "row", &self.left, |_, i, k| (i, k)),
            ("right", "row", &self.right, |n, i, k| (i, n - 1 - k)),
        ];
        for (side, line, clues, at) in sides {
            for (i, clue) in clues.iter().enumerate() {
                let Some(count) = clue else { continue };
                let cells = (0..n)
                    .map(|k| {
                        let (r, c) = at(n, i, k);
                        l.cell(r, c)
                    })
                    .collect();
                let rule = Rule::Visible {
                    cells,
                    count: i64::from(*count),
                };
                let origin = format!("{side} clue {count} of {line} {}", i + 1);
                let says = || Says {
                    label: Some(side.to_string()),
                    index: Some(i + 1),
                    clue: Some(count.to_string()),
                    value: None,
                };
                l.begin(What::EdgeClue, || origin.clone(), says);
                l.push(Group::EdgeClues, origin, rule);
            }
        }
    }

    /// The clues in the margin outside the grid, each beside the row or
    /// column it counts.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer != Layer::Over {
            return;
        }
        let (rows, cols) = l.shape();
        let half = CELL / 2.0;
        let size = CELL * 0.5;
        let mut side = |clues: &[Option<u32>], at: &dyn Fn(usize) -> (f64, f64)| {
            for (i, clue) in clues.iter().enumerate() {
                let Some(v) = clue else { continue };
                let (cx, cy) = at(i);
                let t = v.to_string();
                let e = font::measure(&t, size);
                s.text(
                    "clue",
                    (cx, cy + (e.top - e.bottom) / 2.0),
                    size,
                    Anchor::Middle,
                    "",
                    &t,
                );
            }
        };
        side(&self.top, &|c| (l.x(c) + half, l.y(0) - half));
        side(&self.bottom, &|c| (l.x(c) + half, l.y(rows) + half));
        side(&self.left, &|r| (l.x(0) - half, l.y(r) + half));
        side(&self.right, &|r| (l.x(cols) + half, l.y(r) + half));
    }
}

/// The skyscrapers grid as text: framed by its edge clues (blank where
/// none).
pub fn text_grid(edges: &EdgeClues, cells: &TextCells) -> String {
    let (rows, n) = cells.size();
    let w = rows.to_string().len();
    let clue = |l: &[Option<u32>], i: usize| match l.get(i).copied().flatten() {
        Some(v) => format!("{v:>w$}"),
        None => " ".repeat(w),
    };
    let edge_row = |l: &[Option<u32>]| {
        let squares: Vec<String> = (0..n).map(|i| clue(l, i)).collect();
        format!("{}   {}", " ".repeat(w), squares.join(" "))
    };
    let mut lines = vec![edge_row(&edges.top)];
    for (r, row) in cells.grid.iter().enumerate() {
        let values: Vec<String> = (0..row.len()).map(|c| cells.value((r, c), w)).collect();
        lines.push(format!(
            "{} | {} | {}",
            clue(&edges.left, r),
            values.join(" "),
            clue(&edges.right, r)
        ));
    }
    lines.push(edge_row(&edges.bottom));
    let mut out = String::new();
    // An edge without clues gets no line.
    for l in lines.iter().filter(|l| !l.trim().is_empty()) {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

/// Each side's clue list ([`EdgeClues::KEYS`] in order), if written.
type Sides = Vec<Option<(Vec<Token>, Location)>>;

/// The clue list of each side the file writes, in [`EdgeClues::KEYS`]'
/// order: each one line of tokens, with where it starts.
fn sides(r: &TomlReader) -> Result<Sides, InputError> {
    let mut lists = Vec::new();
    for side in EdgeClues::KEYS {
        let want = format!("{side} = \"...\"");
        lists.push(match r.value_if_any::<Spanned<String>>(side, &want)? {
            Some(s) => Some(clue_list(r, &s, side)?),
            None => None,
        });
    }
    Ok(lists)
}

/// The tokens of one edge's clue list (one line, like a grid row).
fn clue_list(
    r: &TomlReader,
    s: &Spanned<String>,
    side: &str,
) -> Result<(Vec<Token>, Location), InputError> {
    let origin = r.origin(s);
    let rows = split_rows(s.get_ref(), &origin);
    let what = format!("the {side} clues");
    grid_text::check_compact(&rows, &what)?;
    match rows.as_slice() {
        [row] => Ok((row.cells.clone(), origin.start)),
        _ => Err(InputError::new(
            origin.start,
            format!(
                "{side} = \"...\" is one line of counts, one per {}, . for none",
                if matches!(side, "top" | "bottom") {
                    "column"
                } else {
                    "row"
                }
            ),
        )),
    }
}
