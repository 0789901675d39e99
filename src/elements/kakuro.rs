//! Kakuro: white cells 1–9 in runs that repeat no value and sum to the
//! clue of the square before them. Read from the kakuro kind's `grid`.

pub mod syntax;

use super::{ElementType, GridRead, Layer, Lowering, Says, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::render::TextCells;
use crate::render::font;
use crate::render::svg::{Anchor, CELL, CLUE_SIZE, Layout, Svg};
use crate::model::{CellId, Group, Rule, Target, What, rc};

/// One square of a kakuro grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KakuroCell {
    /// A cell to fill with 1–9.
    White,
    /// A black square without clues.
    Block,
    /// A black square with a down clue, an across clue, or both.
    Clue {
        /// Sum of the run below.
        down: Option<u32>,
        /// Sum of the run to the right.
        across: Option<u32>,
    },
}

/// A kakuro layout, `rows` × `cols` squares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kakuro(pub Vec<Vec<KakuroCell>>);

impl ElementType for Kakuro {
    const NAME: &'static str = "kakuro";
    const KEYS: &'static [&'static str] = &[];
    const SHOWN_BY_TEXT_GRID: bool = true;
    const HAS_CLUE_SQUARES: bool = true;
    const DOC: &'static str = "`grid = \"\"\"…\"\"\"` (kakuro): white cells `_` hold 1–9; a clue \
        square `D|A` gives the sums of the runs below and to the right, which repeat no value";

    /// The kakuro kind's `grid`, which fixes the grid's size.
    fn read_grid(r: &TomlReader) -> Result<Option<GridRead<Self>>, InputError> {
        let g = r.grid_string(
            "grid",
                "a kakuro puzzle needs its grid: add grid = \"\"\"...\"\"\" (comma-separated squares, one row per line)",
        )?;
        let origin = r.origin(&g);
        let layout = syntax::parse_layout(g.get_ref(), &origin, "the kakuro grid")?;
        let shape = (
            layout.cells.len(),
            layout.cells.first().map_or(0, Vec::len),
        );
        Ok(Some(GridRead {
            shape,
            givens: None,
            at: origin.start,
            element: Some(Kakuro(layout.cells)),
        }))
    }

    /// The kakuro kind's `grid`.
    fn write_key(key: &str, all: &[&Self], w: &mut TomlWriter) {
        if key == "grid" {
            for k in all {
                w.block("grid", &toml_grid(&k.0));
            }
        }
    }

    fn holds_cell(&self, row: usize, col: usize) -> bool {
        self.0.get(row).and_then(|l| l.get(col)) == Some(&KakuroCell::White)
    }

    fn max_value(&self) -> Option<i64> {
        Some(9)
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let layout = &self.0;
        let (rows, cols) = (l.m.rows, l.m.cols);
        let mut across = Vec::new();
        let mut down = Vec::new();
        for (r, line) in layout.iter().enumerate() {
            for (c, sq) in line.iter().enumerate() {
                let KakuroCell::Clue { down: d, across: a } = *sq else {
                    continue;
                };
                if let Some(a) = a {
                    let cells: Vec<CellId> = (c + 1..cols)
                        .take_while(|&cc| self.holds_cell(r, cc))
                        .filter_map(|cc| l.cell_at(r, cc))
                        .collect();
                    across.push((rc(r, c), cells, a));
                }
                if let Some(d) = d {
                    let cells: Vec<CellId> = (r + 1..rows)
                        .take_while(|&rr| self.holds_cell(rr, c))
                        .filter_map(|rr| l.cell_at(rr, c))
                        .collect();
                    down.push((rc(r, c), cells, d));
                }
            }
        }
        for (group, what, runs) in [
            (Group::AcrossRuns, What::AcrossRun, across),
            (Group::DownRuns, What::DownRun, down),
        ] {
            for (at, cells, sum) in runs {
                let origin = format!("{} at {at}", what.name());
                let name = || format!("{origin}: {sum}, {} cells", cells.len());
                let says = || Says {
                    label: Some(at),
                    clue: Some(sum.to_string()),
                    ..Says::default()
                };
                l.begin(what, name, says);
                let rule = Rule::AllDifferent {
                    cells: cells.clone(),
                };
                l.push(group, format!("{origin}: all different"), rule);
                let rule = Rule::Sum {
                    cells,
                    target: Target::Eq(i64::from(sum)),
                };
                l.push(group, format!("{origin}: sum {sum}"), rule);
            }
        }
    }

    /// Block and clue squares dark, clue squares split by a diagonal with
    /// the down sum below it and the across sum above it, each in its own
    /// corner.
    fn draw(&self, layer: Layer, l: &Layout, s: &mut Svg) {
        if layer != Layer::Under {
            return;
        }
        const EDGE: f64 = 3.5;
        for (r, row) in self.0.iter().enumerate() {
            for (c, sq) in row.iter().enumerate() {
                if *sq == KakuroCell::White {
                    continue;
                }
                let cell = l.cell(r, c);
                s.rect(cell, r##"fill="#444""##);
                let KakuroCell::Clue { down, across } = *sq else {
                    continue;
                };
                s.line(
                    (cell.x, cell.y),
                    (cell.x + CELL, cell.y + CELL),
                    r#"stroke="white" stroke-width="1""#,
                );
                if let Some(d) = down {
                    let t = d.to_string();
                    let e = font::measure(&t, CLUE_SIZE);
                    s.text(
                        "clue",
                        (
                            cell.x + EDGE - e.left.min(0.0),
                            cell.y + CELL - EDGE - e.bottom,
                        ),
                        CLUE_SIZE,
                        Anchor::Start,
                        r#"fill="white""#,
                        &t,
                    );
                }
                if let Some(a) = across {
                    let t = a.to_string();
                    let e = font::measure(&t, CLUE_SIZE);
                    s.text(
                        "clue",
                        (
                            cell.x + CELL - EDGE - e.right.max(e.advance),
                            cell.y + EDGE + e.top,
                        ),
                        CLUE_SIZE,
                        Anchor::Start,
                        r#"fill="white""#,
                        &t,
                    );
                }
            }
        }
    }
}

/// The kakuro grid as text: each square five wide; clue squares as
/// `down\across` (blank where a sum is missing), blocks as `#####`, white
/// cells their digit.
pub fn text_grid(layout: &[Vec<KakuroCell>], cells: &TextCells) -> String {
    let sum = |v: Option<u32>| v.map_or(String::new(), |v| v.to_string());
    let mut out = String::new();
    for (r, row) in layout.iter().enumerate() {
        let squares: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, sq)| match sq {
                KakuroCell::White => format!("  {} ", cells.value((r, c), 2)),
                KakuroCell::Block => "#####".to_string(),
                KakuroCell::Clue { down, across } => {
                    format!("{:>2}\\{:<2}", sum(*down), sum(*across))
                }
            })
            .collect();
        out.push_str(squares.join(" ").trim_end());
        out.push('\n');
    }
    out
}

/// The kakuro kind's `grid` as the native format writes it: one row per
/// line, squares parted by commas, `_` a white cell, `x` a block,
/// `DOWN|ACROSS` a clue square (either sum left out where missing).
fn toml_grid(layout: &[Vec<KakuroCell>]) -> String {
    let square = |sq: &KakuroCell| match sq {
        KakuroCell::White => "_".to_string(),
        KakuroCell::Block => "x".to_string(),
        KakuroCell::Clue { down, across } => format!(
            "{}|{}",
            down.map(|d| d.to_string()).unwrap_or_default(),
            across.map(|a| a.to_string()).unwrap_or_default()
        ),
    };
    layout
        .iter()
        .map(|row| {
            let sq: Vec<String> = row.iter().map(square).collect();
            format!("{}\n", sq.join(","))
        })
        .collect()
}
