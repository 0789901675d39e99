//! What every line constraint shares (arrows, whispers, renban, …): a
//! [`Line`] is a path of cells, read from one end, with at most one
//! integer parameter; its [`LineKind`] says what the line means and how it
//! looks. Each line constraint is one module naming its kind and one
//! registry line (`whispers::Whispers`, a `Line<WhispersKind>`).
//!
//! ```toml
//! [[whispers]]
//! cells = "r1c1 r1c2 r2c3"   # from one end, each cell touching the one before
//! difference = 4             # the kind's parameter, if it has one
//! ```

use std::fmt::Debug;
use std::marker::PhantomData;

use serde::Deserialize;
use toml::Spanned;

use super::kit::{
    a, fpuzzles_cell, fpuzzles_cells, fpuzzles_lines, fpuzzles_push, hook_cell, iss_arg, path,
};
use super::{
    Drawing, ElementType, HookError, Layer, Lowering, Making, Says, TomlReader, TomlWriter,
};
use crate::error::InputError;
use crate::model::{CellId, Rule, TABLE_MAX, What, rc};
use crate::render::marks::TextForm;
use crate::render::svg::{CELL, Layout, Svg};

/// What one kind of line means, how it reads and how it looks.
pub trait LineKind: Sized + Clone + Debug + PartialEq + Eq + 'static {
    /// The element's name and TOML key (`whispers`, `region-sum-line`).
    const NAME: &'static str;
    /// `[NAME]`: the TOML keys it reads.
    const KEYS: &'static [&'static str];
    /// f-puzzles keys (`{"lines": [[…]]}` lists).
    const FPUZZLES: &'static [&'static str] = &[];
    /// ISS constraint names.
    const ISS: &'static [&'static str] = &[];
    /// One line for the docs.
    const DOC: &'static str;
    /// The TOML name of its one integer parameter, if it has one.
    const PARAM: Option<&'static str> = None;
    /// Its colour on pictures.
    const COLOUR: &'static str;
    /// Fewest cells.
    const MIN: usize = 2;
    /// Whether a line may be no longer than the grid's side (renban).
    const AT_MOST_N: bool = false;
    /// Whether its rule is on each two neighbouring cells alone
    /// (whispers), so that the line may come back to a cell it passed (a
    /// loop, as ISS reads one): each step is still a pair of two cells.
    /// Any other line passes each cell once, since a cell counted twice in
    /// a set or a sum has no one meaning.
    const PAIRWISE: bool = false;
    /// Whether it states [`Rule::Table`]s (of at most three cells), which
    /// keeps it to grids of at most 16×16 ([`TABLE_MAX`] tuples).
    const TABLES: bool = false;

    /// The parameter when the file leaves it out, for values 1..=`n`.
    fn default_param(_n: i64) -> i64 {
        0
    }

    /// Why `param` cannot be, on a line of `len` cells with values 1..=`n`.
    fn check_param(_param: i64, _len: usize, _n: i64) -> Result<(), String> {
        Ok(())
    }

    /// Why the cells do not make a line of this kind: by default each
    /// must touch the one before (diagonals count).
    fn check_shape(cells: &[(usize, usize)], _param: i64) -> Result<(), String> {
        check_touching(cells)
    }

    /// Whether ISS's constraint `name` (one of [`LineKind::ISS`]) starts
    /// with a number, as ISS reads it: by default a kind with a parameter
    /// must (`.Modular~3~…`, `.Lockout~4~…`: ISS takes the first argument
    /// for it, whatever it is) and one without must not (`.Renban~…`).
    fn iss_number(_name: &str) -> IssNumber {
        match Self::PARAM {
            Some(_) => IssNumber::Required,
            None => IssNumber::Refused,
        }
    }

    /// What ISS's leading number `v` means: the parameter as written (a
    /// kind whose default ISS writes out leaves it out), or an error.
    fn iss_param(_name: &str, v: i64) -> Result<Option<i64>, HookError> {
        Ok(Some(v))
    }

    /// The rules the line states, with `param` resolved.
    fn rules(cells: &[(usize, usize)], param: i64, l: &Lowering) -> Vec<Rule>;

    /// Rules that those rules imply, stated for the solver beside them
    /// ([`Lowering::imply`]); by default none.
    fn implied(_cells: &[(usize, usize)], _param: i64, _l: &Lowering) -> Vec<Rule> {
        Vec::new()
    }

    /// Draws the line: by default a thick polyline in [`LineKind::COLOUR`].
    fn draw(line: &Line<Self>, layout: &Layout, s: &mut Svg) {
        stroke(line, layout, s, CELL * 0.22);
    }
}

/// Whether an ISS line constraint starts with a number
/// ([`LineKind::iss_number`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssNumber {
    /// It must (`.Modular~3~…`).
    Required,
    /// It may, and ISS takes this value when it is left out
    /// (`.Whisper~…`: a German whisper's 5, on any size of grid).
    Optional(i64),
    /// It must not (`.Renban~…`).
    Refused,
}

/// One line: its cells from one end, and its parameter as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<K> {
    /// 0-based (row, column) of each cell, in order along the line.
    pub cells: Vec<(usize, usize)>,
    /// The parameter, if the file gives it (otherwise the kind's default
    /// for the grid).
    pub param: Option<i64>,
    kind: PhantomData<K>,
}

impl<K: LineKind> Line<K> {
    /// A line through `cells` with `param`.
    pub fn new(cells: Vec<(usize, usize)>, param: Option<i64>) -> Self {
        Line {
            cells,
            param,
            kind: PhantomData,
        }
    }

    /// The parameter for a grid of values 1..=`n`.
    pub fn param_for(&self, n: i64) -> i64 {
        self.param.unwrap_or_else(|| K::default_param(n))
    }

    /// Why the line cannot be on a grid of values 1..=`n`.
    fn check_one(&self, n: usize) -> Result<(), String> {
        let len = self.cells.len();
        if let Some(c) = self.cells.iter().enumerate().find(|&(i, c)| {
            if K::PAIRWISE {
                i > 0 && self.cells[i - 1] == *c
            } else {
                self.cells[..i].contains(c)
            }
        }) {
            return Err(if K::PAIRWISE {
                format!(
                    "{} is listed twice in a row: each step of a line goes to another cell",
                    rc(c.1.0, c.1.1)
                )
            } else {
                format!(
                    "{} is listed twice: {} passes each cell once (only a line whose rule is on \
                     each two neighbours, such as whispers, may come back to a cell)",
                    rc(c.1.0, c.1.1),
                    a(K::NAME)
                )
            });
        }
        if len < K::MIN {
            return Err(format!(
                "{}: {} has at least {} cells",
                crate::output::plural(len, "cell", "cells"),
                a(K::NAME),
                K::MIN
            ));
        }
        if K::TABLES && n > 16 {
            return Err(format!(
                "{} is read on grids up to 16×16, not {n}×{n}",
                a(K::NAME)
            ));
        }
        if K::AT_MOST_N && len > n {
            return Err(format!(
                "{len} cells: {} holds no more cells than a row ({n}); shorten the line",
                a(K::NAME)
            ));
        }
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        let p = self.param_for(n);
        K::check_param(p, len, n)?;
        K::check_shape(&self.cells, p)
    }
}

/// Every cell touches the one before, by a side or a corner.
pub fn check_touching(cells: &[(usize, usize)]) -> Result<(), String> {
    match cells.windows(2).find(|w| !touches(w[0], w[1])) {
        Some(w) => Err(format!(
            "{} and {} do not touch: list the cells in order along the line, each next to the one \
             before (diagonals count)",
            rc(w[0].0, w[0].1),
            rc(w[1].0, w[1].1)
        )),
        None => Ok(()),
    }
}

/// Whether two cells touch by a side or a corner.
pub fn touches(a: (usize, usize), b: (usize, usize)) -> bool {
    a != b && a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cells: Spanned<String>,
    difference: Option<Spanned<i64>>,
    circle: Option<Spanned<i64>>,
    modulus: Option<Spanned<i64>>,
}

impl<K: LineKind> ElementType for Line<K> {
    const NAME: &'static str = K::NAME;
    const KEYS: &'static [&'static str] = K::KEYS;
    const FPUZZLES: &'static [&'static str] = K::FPUZZLES;
    const ISS: &'static [&'static str] = K::ISS;
    const DOC: &'static str = K::DOC;

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        let want = match K::PARAM {
            Some(p) => {
                format!("[[{key}]] tables, each with cells = \"r1c1 r1c2 …\" and optional {p} = N")
            }
            None => format!("[[{key}]] tables, each with cells = \"r1c1 r1c2 …\""),
        };
        let raws: Vec<Raw> = r.value(key, &want)?;
        let n = r.rows.max(r.cols);
        let mut out = Vec::new();
        for raw in raws {
            let cells = r.cells(&raw.cells)?;
            let mut param = None;
            for (name, v) in [
                ("difference", &raw.difference),
                ("circle", &raw.circle),
                ("modulus", &raw.modulus),
            ] {
                let Some(v) = v else { continue };
                if K::PARAM != Some(name) {
                    return Err(r.error_at(v, format!("{key}: takes no `{name}`; write {want}")));
                }
                param = Some(v);
            }
            if let Some(p) = param {
                let len = cells.len();
                let n = i64::try_from(n).unwrap_or(i64::MAX);
                K::check_param(*p.get_ref(), len, n)
                    .map_err(|m| r.error_at(p, format!("{key}: {m}")))?;
            }
            // A one-cell circle is the default, as f-puzzles and ISS leave it.
            let param = param
                .map(|v| *v.get_ref())
                .filter(|&p| !(K::PARAM == Some("circle") && p == 1));
            let line = Line::new(cells, param);
            line.check_one(n)
                .map_err(|m| r.error_at(&raw.cells, format!("{key}: {m}")))?;
            out.push(line);
        }
        Ok(out)
    }

    fn check(all: &[&Self], size: usize) -> Result<(), HookError> {
        all.iter()
            .try_for_each(|l| l.check_one(size).map_err(|m| format!("{}: {m}", K::NAME)))
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        for line in all {
            let param: Vec<(&str, String)> = match (K::PARAM, line.param) {
                (Some(name), Some(v)) => vec![(name, v.to_string())],
                _ => Vec::new(),
            };
            w.cells_table(K::NAME, &line.cells, &param);
        }
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"lines": [["R1C1", …], …], "value": "4"}, …]; an arrow's entry
        // also lists its circle's cells in "cells", the line starting in it.
        let bad = || format!("{key}: expected a list of {{\"lines\": [[\"R1C1\", …]]}}");
        let mut out = Vec::new();
        for (item, lines) in fpuzzles_lines(key, value, size)? {
            let circle = match (K::PARAM, item.get("cells")) {
                (Some("circle"), Some(c)) => Some(fpuzzles_cells(c, size, &bad)?),
                _ => None,
            };
            let param = match item.get("value") {
                Some(v) if K::PARAM == Some("difference") => {
                    let text = v
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string());
                    Some(
                        text.trim()
                            .parse::<i64>()
                            .map_err(|_| format!("{key}: value {v} is not a whole number"))?,
                    )
                }
                _ => None,
            };
            for mut cells in lines {
                let mut param = param;
                if let Some(circle) = &circle {
                    // The line's first cell is inside the circle.
                    let shaft: Vec<_> = cells.iter().skip(1).copied().collect();
                    cells = circle.clone();
                    cells.extend(shaft);
                    param = (circle.len() > 1).then_some(circle.len() as i64);
                }
                let line = Line::new(cells, param);
                line.check_one(size).map_err(|m| format!("{key}: {m}"))?;
                out.push(line);
            }
        }
        Ok(out)
    }

    /// One `{"lines": [[…]]}` item per line under the kind's first
    /// f-puzzles key, as [`Line::from_fpuzzles`] reads it back: a
    /// difference as `"value"` (a string, as f-puzzles writes it), an
    /// arrow's circle as `"cells"` with its line starting inside the
    /// circle, at the cell the shaft leaves.
    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        let Some(&key) = K::FPUZZLES.first() else {
            return Err(format!("{} has no f-puzzles form here", K::NAME));
        };
        let names = |cells: &[(usize, usize)]| -> Vec<String> {
            cells.iter().copied().map(fpuzzles_cell).collect()
        };
        for line in all {
            let item = match K::PARAM {
                Some("circle") => {
                    let k = usize::try_from(line.param_for(0))
                        .unwrap_or(1)
                        .clamp(1, line.cells.len() - 1);
                    let (pill, shaft) = line.cells.split_at(k);
                    let from = pill
                        .iter()
                        .rev()
                        .find(|&&c| touches(c, shaft[0]))
                        .unwrap_or(&pill[0]);
                    let mut drawn = vec![*from];
                    drawn.extend_from_slice(shaft);
                    serde_json::json!({ "cells": names(pill), "lines": [names(&drawn)] })
                }
                Some("difference") if line.param.is_some() => serde_json::json!({
                    "lines": [names(&line.cells)],
                    "value": line.param.map(|v| v.to_string()),
                }),
                Some(other) if line.param.is_some() => {
                    return Err(format!(
                        "{} has no f-puzzles form for its {other} here",
                        K::NAME
                    ));
                }
                _ => serde_json::json!({ "lines": [names(&line.cells)] }),
            };
            fpuzzles_push(top, key, item);
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        // .Whisper~5~R1C1~R1C2…: a leading number is the parameter.
        let number = args.first().and_then(|a| a.trim().parse::<i64>().ok());
        let (param, cells) = match (K::iss_number(name), number) {
            (IssNumber::Refused, Some(v)) => {
                return Err(format!(
                    "{name}: {} takes no number, got {v}: list its cells alone, \
                     .{name}~R1C1~R1C2",
                    a(K::NAME)
                ));
            }
            (IssNumber::Required, None) => {
                return Err(format!(
                    "{name}: starts with its {} (a whole number), got {}: write \
                     .{name}~N~R1C1~R1C2",
                    K::PARAM.unwrap_or("number"),
                    args.first()
                        .map_or_else(|| "nothing".into(), |f| iss_arg(f))
                ));
            }
            (_, Some(v)) => (K::iss_param(name, v)?, &args[1..]),
            (IssNumber::Optional(v), None) => (K::iss_param(name, v)?, args),
            (_, None) => (None, args),
        };
        let mut cells = cells
            .iter()
            .map(|a| hook_cell(a, size))
            .collect::<Result<Vec<_>, _>>()?;
        // ISS reads a pill's digits in reading order (row by row, then
        // column), whatever order the constraint lists its cells in: the
        // published solution of its `.PillArrow~2~R1C7~R1C6~…` example
        // makes the pill r1c6 r1c7 (15), not r1c7 r1c6 (51). A circle
        // here reads in listed order (SudokuSolver's), so the pill's cells
        // are put in reading order as they come in.
        if K::PARAM == Some("circle")
            && let Some(k) = param
                .and_then(|p| usize::try_from(p).ok())
                .filter(|&k| k > 1 && k <= cells.len())
        {
            cells[..k].sort_unstable();
        }
        // A one-cell circle is the default.
        let param = param.filter(|&p| !(K::PARAM == Some("circle") && p == 1));
        let line = Line::new(cells, param);
        line.check_one(size).map_err(|m| format!("{name}: {m}"))?;
        Ok(vec![line])
    }

    fn lower(&self, index: usize, l: &mut Lowering) {
        let name = format!("{} {index} ({})", K::NAME, path(&self.cells));
        l.begin(
            What::Element(K::NAME),
            || name.clone(),
            || Says {
                index: Some(index),
                clue: self.param.map(|p| p.to_string()),
                ..Says::default()
            },
        );
        let n = i64::try_from(l.n()).unwrap_or(i64::MAX);
        for rule in K::rules(&self.cells, self.param_for(n), l) {
            l.push(crate::model::Group::Element(K::NAME), name.clone(), rule);
        }
        for rule in K::implied(&self.cells, self.param_for(n), l) {
            l.imply(format!("derived: {name}"), rule);
        }
    }

    /// A line under the grid: its cells from the start, and its
    /// parameter where the file gives one.
    fn text(&self, index: usize, t: &mut TextForm) {
        let mut line = format!("{} {index}: {}", K::NAME, path(&self.cells));
        if let (Some(name), Some(v)) = (K::PARAM, self.param) {
            line.push_str(&format!(" ({name} {v})"));
        }
        t.note(line);
    }

    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer == Layer::Under {
            K::draw(self, layout, s);
        }
    }

    /// Every line kind the same way: random walks over free cells
    /// (diagonal steps too, each cell once), each cut to its longest
    /// start of at least three cells that makes a valid line with the
    /// kind's default parameter and holds in the solution, as the
    /// checker says ([`Drawing::holds`]). Lines do not cross.
    fn making() -> Making<Self> {
        Making::Drawn(|d: &mut Drawing| {
            let want = d.how_many();
            let shortest = K::MIN.max(3);
            let mut out: Vec<Self> = Vec::new();
            for _ in 0..want * 30 {
                if out.len() == want {
                    break;
                }
                let len = d.rng.range(shortest, d.n.clamp(shortest, 8));
                let walk = d.walk(len);
                let found = (shortest..=walk.len()).rev().find_map(|k| {
                    let line = Line::new(walk[..k].to_vec(), None);
                    (line.check_one(d.n).is_ok() && d.holds(&line)).then_some(line)
                });
                if let Some(line) = found {
                    d.take(&line.cells);
                    out.push(line);
                }
            }
            out
        })
    }
}

/// The centre of a cell on the picture.
pub fn centre(layout: &Layout, (r, c): (usize, usize)) -> (f64, f64) {
    let cell = layout.cell(r, c);
    (cell.x + cell.width / 2.0, cell.y + cell.height / 2.0)
}

/// The line as a polyline of `width` in its kind's colour, class the
/// kind's name.
pub fn stroke<K: LineKind>(line: &Line<K>, layout: &Layout, s: &mut Svg, width: f64) {
    let points: Vec<(f64, f64)> = line.cells.iter().map(|&c| centre(layout, c)).collect();
    s.polyline(
        &points,
        &format!(
            r#"class="{}" fill="none" stroke="{}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round""#,
            K::NAME,
            K::COLOUR
        ),
    );
}

/// The line as a polyline of `width` with a white circle of `radius`
/// (outlined `ring` wide in the kind's colour) on each end, class
/// `NAME-end`: where a line's ends mean something (between lines, double
/// arrows).
pub fn with_end_circles<K: LineKind>(
    line: &Line<K>,
    layout: &Layout,
    s: &mut Svg,
    width: f64,
    radius: f64,
    ring: f64,
) {
    stroke(line, layout, s, width);
    for end in line.cells.first().into_iter().chain(line.cells.last()) {
        s.circle(
            centre(layout, *end),
            radius,
            &format!(
                r#"class="{}-end" fill="white" stroke="{}" stroke-width="{ring}""#,
                K::NAME,
                K::COLOUR
            ),
        );
    }
}

/// The ids of `cells` in the model being built.
pub fn ids(cells: &[(usize, usize)], l: &Lowering) -> Vec<CellId> {
    cells.iter().map(|&(r, c)| l.cell(r, c)).collect()
}

/// A [`Rule::Table`] over `cells` (at most three) holding the tuples of
/// their candidate values that `ok` accepts, in sorted order.
pub fn table(cells: Vec<CellId>, l: &Lowering, ok: impl Fn(&[i64]) -> bool) -> Rule {
    let ranges: Vec<(i64, i64)> = cells
        .iter()
        .map(|&c| (l.m.cells[c].lo, l.m.cells[c].hi))
        .collect();
    let mut tuples = Vec::new();
    let mut t: Vec<i64> = ranges.iter().map(|r| r.0).collect();
    if ranges.iter().all(|r| r.0 <= r.1) {
        'all: loop {
            if ok(&t) {
                tuples.push(t.clone());
            }
            // The next tuple in lexicographic order.
            let mut i = t.len();
            loop {
                if i == 0 {
                    break 'all;
                }
                i -= 1;
                if t[i] < ranges[i].1 {
                    t[i] += 1;
                    break;
                }
                t[i] = ranges[i].0;
            }
        }
    }
    debug_assert!(
        tuples.len() <= TABLE_MAX,
        "lines with tables are checked to fit"
    );
    Rule::Table { cells, tuples }
}

/// The weighted sum of `cells` by `coeffs` compared with `value`.
pub fn linear(cells: Vec<CellId>, coeffs: Vec<i64>, cmp: crate::model::Cmp, value: i64) -> Rule {
    Rule::Linear {
        cells,
        coeffs,
        cmp,
        value,
    }
}

/// Sum of `a` minus sum of `b` is zero.
pub fn equal_sums(a: &[CellId], b: &[CellId]) -> Rule {
    let mut cells = a.to_vec();
    cells.extend_from_slice(b);
    let mut coeffs = vec![1; a.len()];
    coeffs.extend(std::iter::repeat_n(-1, b.len()));
    linear(cells, coeffs, crate::model::Cmp::Eq, 0)
}

#[cfg(test)]
mod tests {
    use super::super::arrow::Arrow;
    use super::super::modular_line::ModularLine;
    use super::super::whispers::Whispers;
    use super::*;

    #[test]
    fn fpuzzles_arrows_start_in_their_circle() {
        let v =
            serde_json::json!([{"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C3", "R3C3"]]}]);
        let got = Arrow::from_fpuzzles("arrow", &v, 9).expect("an arrow");
        assert_eq!(
            got,
            vec![Arrow::new(vec![(0, 0), (0, 1), (1, 2), (2, 2)], Some(2))]
        );
        let v = serde_json::json!([{"lines": [["R1C1", "R1C2"]], "value": "4"}]);
        let got = Whispers::from_fpuzzles("whispers", &v, 9).expect("whispers");
        assert_eq!(got, vec![Whispers::new(vec![(0, 0), (0, 1)], Some(4))]);
        let v = serde_json::json!([{"lines": [["R1C1", "R1C3"]]}]);
        let err = Whispers::from_fpuzzles("whispers", &v, 9).expect_err("cells apart");
        assert!(err.contains("do not touch"), "{err}");
    }

    #[test]
    fn iss_numbers_are_parameters() {
        let got = Whispers::from_iss("Whisper", &["4", "R1C1", "R2C2"], 9).expect("whispers");
        assert_eq!(got, vec![Whispers::new(vec![(0, 0), (1, 1)], Some(4))]);
        let got = Arrow::from_iss("PillArrow", &["2", "R1C1", "R1C2", "R2C3"], 9).expect("a pill");
        assert_eq!(got[0].param, Some(2));
        let got = Arrow::from_iss("Arrow", &["R1C1", "R1C2"], 9).expect("an arrow");
        assert_eq!(got[0].param, None);
        let got = ModularLine::from_iss("Modular", &["3", "R1C1", "R1C2"], 9).expect("mod 3");
        assert_eq!(got[0].param, None);
        let got = ModularLine::from_iss("Modular", &["2", "R1C1", "R1C2"], 9).expect("mod 2");
        assert_eq!(got[0].param, Some(2));
        let err = ModularLine::from_iss("Modular", &["1", "R1C1", "R1C2"], 9).expect_err("mod 1");
        assert!(err.contains("from 2 to"), "{err}");
        let err = ModularLine::from_iss("Modular", &["10", "R1C1", "R1C2"], 9).expect_err("10");
        assert!(err.contains("from 2 to"), "{err}");
    }

    #[test]
    fn iss_numbers_are_taken_where_iss_takes_them() {
        // A German whisper leaves its difference out: 5 to ISS on any
        // size of grid (not this kind's ⌈n/2⌉), so 5 on 6×6 too, and no
        // such whisper on a grid of five digits or fewer.
        let got = Whispers::from_iss("Whisper", &["R1C1", "R2C2"], 9).expect("whispers");
        assert_eq!(got[0].param, Some(5));
        let got = Whispers::from_iss("Whisper", &["R1C1", "R2C2"], 6).expect("whispers");
        assert_eq!(got[0].param, Some(5));
        let err = Whispers::from_iss("Whisper", &["R1C1", "R2C2"], 4).expect_err("4x4");
        assert!(err.contains("difference = 5"), "{err}");
        // ISS's modulus and pill size come first, always.
        let err = ModularLine::from_iss("Modular", &["R1C1", "R1C2"], 9).expect_err("no modulus");
        assert!(
            err.contains("got `R1C1`") && err.contains(".Modular~N~"),
            "{err}"
        );
        let err = Arrow::from_iss("PillArrow", &["R1C1", "R1C2", "R1C3"], 9).expect_err("no size");
        assert!(err.contains(".PillArrow~N~"), "{err}");
        let err = Arrow::from_iss("PillArrow", &[], 9).expect_err("nothing");
        assert!(err.contains("got nothing"), "{err}");
        // ISS's arrow has no number: a pill is its `.PillArrow`.
        let err = Arrow::from_iss("Arrow", &["2", "R1C1", "R1C2", "R2C3"], 9).expect_err("a 2");
        assert!(err.contains("takes no number, got 2"), "{err}");
    }

    #[test]
    fn an_iss_pill_reads_in_reading_order() {
        // ISS's own example lists the pill right to left; its solution
        // reads it left to right.
        let got = Arrow::from_iss("PillArrow", &["2", "R1C7", "R1C6", "R1C5", "R1C4"], 9)
            .expect("a pill");
        assert_eq!(got[0].cells, vec![(0, 5), (0, 6), (0, 4), (0, 3)]);
        // A one-cell circle and the shaft keep their order.
        let got = Arrow::from_iss("Arrow", &["R1C7", "R1C6", "R1C5"], 9).expect("an arrow");
        assert_eq!(got[0].cells, vec![(0, 6), (0, 5), (0, 4)]);
    }
}
