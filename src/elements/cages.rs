//! Cages with clues: killer cages (sum, cells all different unless
//! `distinct-cages = false`) and calcudoku cages (sum, product,
//! difference, ratio). Read from the kind's `cages` grid and `[clues]`:
//! the grid's shape, which with the givens fixes the grid's size, by
//! [`Cages::read_grid`](ElementType::read_grid), the clues and cages once
//! the givens are checked by [`Cages::finish_grid`](ElementType::finish_grid)
//! (the text through [`syntax`]); written by
//! [`Cages::write_key`](ElementType::write_key) in the kind's key order.

pub mod syntax;

use serde::Serialize;

use std::collections::BTreeMap;
use std::fmt::Write;

use toml::Spanned;

use super::grid_text::{self, split_rows};
use super::kit::{label_rows, quoted};
use super::{ElementType, GridRead, Layer, Lowering, Says, TomlReader, TomlWriter, givens};
use crate::error::InputError;
use crate::model::{CellId, Group, Rule, Target, What};
use crate::puzzle::Kind;
use crate::render::group_map;
use crate::render::svg::{Layout, Svg, dashed_cages, thick_edges};

/// A cage's clue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Clue {
    /// The cells sum to N (`N`, `N+`).
    Sum(u64),
    /// The cells multiply to N (`N*`, `Nx`).
    Product(u64),
    /// Largest minus the sum of the others is N (`N-`).
    Difference(u64),
    /// Largest divided by the product of the others is exactly N (`N/`).
    Ratio(u64),
    /// The sum is one of these (`4|9|16`).
    SumIn(Vec<u64>),
    /// The sum is a perfect square (`square`).
    Square,
}

/// A cage: cells sharing a label, and its clue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    /// The label in the `cages` grid.
    pub label: String,
    /// The clue text as written, for messages and comments.
    pub clue_text: String,
    /// The parsed clue.
    pub clue: Clue,
    /// 0-based (row, column) of each cell, in row-major order.
    pub cells: Vec<(usize, usize)>,
}

/// Every cage of a puzzle, and whether a cage may not repeat a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cages {
    /// The cages, in the order of their labels' first cells.
    pub cages: Vec<Cage>,
    /// Whether a cage of more than one cell holds different values
    /// (killer, unless `distinct-cages = false`).
    pub distinct: bool,
}

impl ElementType for Cages {
    const NAME: &'static str = "cages";
    const KEYS: &'static [&'static str] = &[];
    const WRITTEN_WITH_GRID: bool = true;
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "`cages = \"\"\"…\"\"\"` and `[clues]` (killer, calcudoku): cages of \
        cells with a clue (`12`, `12+`, `60*`, `2-`, `3/`, `4|9`, `square`); a killer cage \
        repeats no value unless `distinct-cages = false`";

    /// A killer's or calcudoku's givens, then its `cages` grid's shape
    /// and labels, then the two sizes against each other: the grid's
    /// size. A file with neither, or without cages, is refused.
    fn read_grid(r: &TomlReader) -> Result<Option<GridRead<Self>>, InputError> {
        let kind = r.kind.name();
        let givens = givens::read(r)?;
        let want = "cages = \"\"\"...\"\"\"";
        let labels = match r.value_if_any::<Spanned<String>>("cages", want)? {
            Some(cg) => {
                let origin = r.origin(&cg);
                let rows = split_rows(cg.get_ref(), &origin);
                let (h, w) = grid_text::check_shape(&rows, "the cages grid", &origin)?;
                grid_text::check_square(h, w, "the cages grid", kind, &origin.start)?;
                Some((syntax::labels(&rows)?.grid.len(), origin.start))
            }
            None => None,
        };
        let (n, at) = match (&givens, labels) {
            (Some(g), Some((ln, lat))) => {
                let gn = g.values.grid.len();
                if gn != ln {
                    return Err(InputError::new(
                        lat,
                        format!("the cages grid is {ln}×{ln}, but the givens are {gn}×{gn}"),
                    ));
                }
                (gn, g.at.clone())
            }
            (None, Some(l)) => l,
            (None, None) => {
                return Err(InputError::new(
                    r.file.clone(),
                    format!("a {kind} puzzle needs its grid: add {want}"),
                ));
            }
            (Some(_), None) => {
                return Err(InputError::new(
                    r.file.clone(),
                    format!(
                        "a {kind} puzzle needs cages: add {want} (a grid of cage labels) and [clues]"
                    ),
                ));
            }
        };
        Ok(Some(GridRead {
            shape: (n, n),
            givens: givens.map(|g| g.values),
            at,
            element: None,
        }))
    }

    /// The cages, once the givens are checked: the `[clues]`,
    /// `default-clue` and `distinct-cages` keys, and the cages built from
    /// the `cages` grid's labels.
    fn finish_grid(
        r: &TomlReader,
        _givens: Option<&givens::Values>,
    ) -> Result<Option<Self>, InputError> {
        let grid: Spanned<String> = r.value("cages", "cages = \"\"\"...\"\"\"")?;
        let origin = r.origin(&grid);
        let labels = syntax::labels(&split_rows(grid.get_ref(), &origin))?;
        type Table = BTreeMap<String, Spanned<toml::Value>>;
        let table: Option<Table> = r.value_if_any("clues", "[clues]")?;
        let mut clues = BTreeMap::new();
        for (label, v) in table.iter().flatten() {
            let loc = r.loc(v.span().start);
            let text = match v.get_ref() {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                other => {
                    return Err(InputError::new(
                        loc,
                        format!(
                            "the clue for '{label}' is a {}: write it as a string such as \"21+\" or \"60*\"",
                            other.type_str()
                        ),
                    ));
                }
            };
            clues.insert(label.clone(), syntax::ClueText { text, loc });
        }
        let default: Option<Spanned<String>> =
            r.value_if_any("default-clue", "default-clue = \"12+\"")?;
        let default = default.map(|d| syntax::ClueText {
            text: d.get_ref().clone(),
            loc: r.loc(d.span().start),
        });
        if let Some(d) = &default {
            syntax::parse_clue(&d.text)
                .map_err(|m| InputError::new(d.loc.clone(), format!("default-clue: {m}")))?;
        }
        let distinct: Option<bool> =
            r.value_if_any("distinct-cages", "distinct-cages = false")?;
        Ok(Some(Cages {
            cages: syntax::build(&labels, &clues, default.as_ref(), r.rows, &origin.start)?,
            distinct: r.kind == Kind::Killer && distinct.is_none_or(|d| d),
        }))
    }

    /// A killer's `distinct-cages = false` (before the givens), and the
    /// `cages` grid of labels with its `[clues]` (after the solution).
    fn write_key(key: &str, all: &[&Self], w: &mut TomlWriter) {
        for c in all {
            match key {
                "distinct-cages" if w.kind() == Kind::Killer && !c.distinct => {
                    w.key("distinct-cages = false\n");
                }
                "cages" if !c.cages.is_empty() => {
                    let (rows, cols) = w.shape();
                    let mut labels = vec![vec![None; cols]; rows];
                    for cage in &c.cages {
                        for &(r, col) in &cage.cells {
                            labels[r][col] = Some(cage.label.clone());
                        }
                    }
                    w.block("cages", &label_rows(&labels));
                    let mut clues = String::from("[clues]\n");
                    for cage in &c.cages {
                        let _ = writeln!(clues, "{} = {}", cage.label, quoted(&cage.clue_text));
                    }
                    w.table(&clues);
                }
                _ => {}
            }
        }
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        let n = l.n() as i64;
        for cage in &self.cages {
            let cells: Vec<CellId> = cage.cells.iter().map(|&(r, c)| l.cell(r, c)).collect();
            let origin = format!("cage {} {}", cage.label, cage.clue_text);
            let name = || {
                format!(
                    "cage {}: {}, {} cell{}",
                    cage.label,
                    cage.clue_text,
                    cells.len(),
                    if cells.len() == 1 { "" } else { "s" }
                )
            };
            let says = || Says {
                label: Some(cage.label.clone()),
                clue: Some(cage.clue_text.clone()),
                ..Says::default()
            };
            l.begin(What::Cage, name, says);
            let rule = clue_rule(&cage.clue, cells.clone(), n);
            l.push(Group::Cages, origin.clone(), rule);
            if self.distinct && cells.len() > 1 {
                l.push(
                    Group::Cages,
                    format!("{origin} (no repeats)"),
                    Rule::AllDifferent { cells },
                );
            }
        }
    }

    /// A killer's cages as dashed outlines inside the boxes' thick lines,
    /// a calcudoku's as thick lines (its only ones); the clues are placed
    /// with the picture's layout (render/svg.rs).
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Borders {
            return;
        }
        let cells = || self.cages.iter().map(|c| &c.cells[..]);
        match layout.kind() {
            Kind::Killer => dashed_cages(s, layout, cells()),
            Kind::Calcudoku => {
                let (rows, cols) = layout.shape();
                let cages = group_map(rows, cols, cells());
                thick_edges(s, layout, |a, b| cages[a.0][a.1] != cages[b.0][b.1]);
            }
            _ => {}
        }
    }
}

/// The rule a cage's clue states over its cells, values 1..=`n`.
pub(crate) fn clue_rule(clue: &Clue, cells: Vec<CellId>, n: i64) -> Rule {
    let k = cells.len() as i64;
    match clue {
        Clue::Sum(v) | Clue::Product(v) if cells.len() == 1 => Rule::Fixed {
            cell: cells[0],
            value: *v as i64,
        },
        Clue::Sum(v) => Rule::Sum {
            cells,
            target: Target::Eq(*v as i64),
        },
        Clue::Product(v) => Rule::Product {
            cells,
            value: *v as i64,
        },
        Clue::Difference(v) => Rule::Difference {
            cells,
            value: *v as i64,
        },
        Clue::Ratio(v) => Rule::Ratio {
            cells,
            value: *v as i64,
        },
        Clue::SumIn(vs) => {
            let mut t: Vec<i64> = vs.iter().map(|&v| v as i64).collect();
            t.sort_unstable();
            t.dedup();
            Rule::Sum {
                cells,
                target: Target::OneOf(t),
            }
        }
        Clue::Square => {
            // Only the squares a cage of this size can reach.
            let (lo, hi) = (k, k * n);
            let t = (1..)
                .map(|s: i64| s * s)
                .skip_while(|&q| q < lo)
                .take_while(|&q| q <= hi);
            Rule::Sum {
                cells,
                target: Target::OneOf(t.collect()),
            }
        }
    }
}

/// A label for the k-th cage or region: a–z, then A–Z, then `c52`, `c53`, ….
pub(crate) fn label(k: usize) -> String {
    match k {
        0..26 => char::from(b'a' + k as u8).to_string(),
        26..52 => char::from(b'A' + (k - 26) as u8).to_string(),
        _ => format!("c{k}"),
    }
}
