//! Inequality signs between orthogonal neighbours (futoshiki). Read from
//! the futoshiki kind's `grid` (`<`, `>` between cells, `^`, `v` between rows).

pub mod syntax;

use super::{ElementType, GridRead, Layer, Lowering, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::model::{Group, Rule, What, rc};
use crate::render::TextCells;
use crate::render::svg::{CELL, Layout, Rect, Svg};

/// A sign's chevron: how deep (across the border) and how wide (along it)
/// each half is, and its stroke.
const DEPTH: f64 = 4.5;
const SPREAD: f64 = 7.0;
const STROKE: f64 = 2.0;
/// How far a sign reaches into each of its cells (the picture keeps the
/// digits clear of it).
pub const REACH: f64 = DEPTH + STROKE / 2.0;

/// An inequality between two orthogonally adjacent cells (futoshiki):
/// the value at `less` is smaller than the value at `greater`. Cells are
/// 0-based (row, column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inequality {
    /// The cell holding the smaller value.
    pub less: (usize, usize),
    /// The cell holding the larger value.
    pub greater: (usize, usize),
}

/// Every inequality sign of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signs(pub Vec<Inequality>);

impl ElementType for Signs {
    const NAME: &'static str = "signs";
    const KEYS: &'static [&'static str] = &[];
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "`grid = \"\"\"…\"\"\"` (futoshiki): `<` `>` between the cells of a \
        row and `^` `v` under a cell: the smaller value is on the sign's point side";

    /// The futoshiki kind's `grid`: its givens with the signs between
    /// them, which fix the grid's size.
    fn read_grid(r: &TomlReader) -> Result<Option<GridRead<Self>>, InputError> {
        let g = r.grid_string(
            "grid",
                "a futoshiki puzzle needs its grid: add grid = \"\"\"...\"\"\" \
                 (rows of values with < and > between cells, lines of ^ and v between rows)",
        )?;
        let origin = r.origin(&g);
        let sg = syntax::parse(g.get_ref(), &origin)?;
        let n = sg.values.grid.len();
        Ok(Some(GridRead {
            shape: (n, n),
            givens: Some(sg.values),
            at: origin.start,
            element: Some(Signs(sg.inequalities)),
        }))
    }

    /// The futoshiki kind's `grid`: its givens with the signs between them.
    fn write_key(key: &str, all: &[&Self], w: &mut TomlWriter) {
        if key == "grid" {
            let signs: Vec<Inequality> = all.iter().flat_map(|s| s.0.iter().copied()).collect();
            let text = syntax::write(w.givens(), &signs);
            w.block("grid", &text);
        }
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        for q in &self.0 {
            let origin = format!(
                "{} < {}",
                rc(q.less.0, q.less.1),
                rc(q.greater.0, q.greater.1)
            );
            let rule = Rule::Less {
                cells: [l.cell(q.less.0, q.less.1), l.cell(q.greater.0, q.greater.1)],
            };
            l.begin(What::Sign, || origin.clone(), Default::default);
            l.push(Group::Inequalities, origin, rule);
        }
    }

    /// Chevrons centred on the border between their two cells, over a
    /// white patch that breaks the line, the point towards the smaller
    /// cell: `<` `>` between columns, `∧` `∨` between rows. Each is a path
    /// `id="sign-N"`.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer != Layer::Over {
            return;
        }
        for (i, q) in self.0.iter().enumerate() {
            chevron(s, l, q.less, q.greater, &format!(r#"id="sign-{i}" class="sign""#));
        }
    }
}

/// An inequality sign between neighbours `less` and `greater` (0-based
/// row, column): a chevron centred on their border over a white patch
/// that breaks the line, its point towards the smaller cell (futoshiki
/// signs, greater-than signs on any grid). `attrs` name it.
pub fn chevron(
    s: &mut Svg,
    l: &Layout,
    less: (usize, usize),
    greater: (usize, usize),
    attrs: &str,
) {
    let (a, b) = (less.min(greater), less.max(greater));
    // +1 when the point is towards the larger coordinate.
    let toward = if less == a { -1.0 } else { 1.0 };
    let (d, w) = (DEPTH * toward, SPREAD);
    let across_rows = a.0 != b.0;
    let (cx, cy) = if across_rows {
        (l.x(a.1) + CELL / 2.0, l.y(b.0))
    } else {
        (l.x(b.1), l.y(a.0) + CELL / 2.0)
    };
    let (points, patch) = if across_rows {
        (
            [(cx - w, cy - d), (cx, cy + d), (cx + w, cy - d)],
            (w + 2.0, DEPTH + 2.0),
        )
    } else {
        (
            [(cx - d, cy - w), (cx + d, cy), (cx - d, cy + w)],
            (DEPTH + 2.0, w + 2.0),
        )
    };
    s.rect(
        Rect {
            x: cx - patch.0,
            y: cy - patch.1,
            width: 2.0 * patch.0,
            height: 2.0 * patch.1,
        },
        r#"fill="white""#,
    );
    s.polyline(
        &points,
        &format!(
            r#"{attrs} fill="none" stroke="black" stroke-width="{STROKE}" stroke-linecap="round" stroke-linejoin="round""#
        ),
    );
}

/// The sign between cells `a` and `b`, seen from `a`: `Some(true)` if `a`
/// is the smaller, `Some(false)` if the larger, `None` without a sign.
pub fn sign_between(signs: &[Inequality], a: (usize, usize), b: (usize, usize)) -> Option<bool> {
    signs.iter().find_map(|q| {
        (q.less == a && q.greater == b)
            .then_some(true)
            .or((q.less == b && q.greater == a).then_some(false))
    })
}

/// The futoshiki grid as text: the signs between cells, `^` and `v` on
/// lines between rows, as in the file format.
pub fn text_grid(signs: &[Inequality], cells: &TextCells) -> String {
    let w = cells.size().0.to_string().len();
    let sign = |a, b| sign_between(signs, a, b);
    let mut out = String::new();
    for (r, row) in cells.grid.iter().enumerate() {
        let mut line = String::new();
        let mut below = String::new();
        for c in 0..row.len() {
            line.push_str(&cells.value((r, c), w));
            below.push_str(&" ".repeat(w - 1));
            below.push(match sign((r, c), (r + 1, c)) {
                Some(true) => '^',
                Some(false) => 'v',
                None => ' ',
            });
            if c + 1 < row.len() {
                let s = match sign((r, c), (r, c + 1)) {
                    Some(true) => '<',
                    Some(false) => '>',
                    None => ' ',
                };
                line.push_str(&format!(" {s} "));
                below.push_str("   ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if !below.trim().is_empty() {
            out.push_str(below.trim_end());
            out.push('\n');
        }
    }
    out
}
