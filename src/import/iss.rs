//! Interactive Sudoku Solver constraint strings: layer 1 splits
//! `.Type~arg~arg….Flag.~R1C1_5` into (type, arguments) ([`tokens`]);
//! layer 2 reads the shape, givens, cages, jigsaw layout and flags
//! ([`Iss`]); [`to_plain`] maps today's vocabulary and refuses the rest by
//! name.

use super::Options;
use super::build::{Plain, SIZES, box_labels, default_box};
use super::fpuzzles::cell_ref;
use crate::elements::Element;
use crate::elements::ElementType;
use crate::elements::candidates::{self, Candidates};
use crate::elements::extra_region::ExtraRegion;
use crate::elements::kit::{iss_cell, iss_flag};
use crate::elements::marks::first_clash;
use crate::error::rc;
use crate::puzzle::Grid;

/// One constraint of an ISS string: its type (empty for givens) and
/// arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// `Thermo`, `Cage`, `AntiKnight`, or "" for givens.
    pub kind: String,
    /// The `~`-separated arguments.
    pub args: Vec<String>,
}

/// Splits an ISS string into its constraints. White space is dropped, as
/// ISS does; an empty piece between two dots is skipped.
pub fn tokens(text: &str) -> Vec<Token> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .split('.')
        .skip(1)
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let mut parts = piece.split('~').map(str::to_string);
            let kind = parts.next().unwrap_or_default();
            Token {
                kind,
                args: parts.collect(),
            }
        })
        .collect()
}

/// ISS constraint types (from its `sudoku_constraint.js`): known, so that
/// the message says "not yet supported" rather than "unknown".
const KNOWN: &[&str] = &[
    "Thermo",
    "Whisper",
    "Renban",
    "Modular",
    "Entropic",
    "RegionSumLine",
    "Between",
    "Lockout",
    "Palindrome",
    "Zipper",
    "SumLine",
    "Regex",
    "NFA",
    "NoBoxes",
    "ChaosConstruction",
    "ChaosArrow",
    "ChaosCount",
    "RegionSize",
    "RegionSameValues",
    "StrictKropki",
    "StrictXV",
    "Shape",
    "Windoku",
    "DisjointSets",
    "AntiKnight",
    "Doppelganger",
    "AntiKing",
    "AntiTaxicab",
    "AntiConsecutive",
    "GlobalEntropy",
    "GlobalMod",
    "FullRankTies",
    "DutchFlatmates",
    "Diagonal",
    "WhiteDot",
    "BlackDot",
    "GreaterThan",
    "X",
    "V",
    "ValueIndexing",
    "Arrow",
    "DoubleArrow",
    "PillArrow",
    "Cage",
    "RellikCage",
    "EqualityCage",
    "Sum",
    "LittleKiller",
    "XSum",
    "Sandwich",
    "Lunchbox",
    "Skyscraper",
    "HiddenSkyscraper",
    "NumberedRoom",
    "FullRank",
    "AllDifferent",
    "ContainAtLeast",
    "ContainExact",
    "LookAndSay",
    "ConnectedValues",
    "SameValues",
    "EqualSum",
    "Quad",
    "Binary",
    "BinaryX",
    "Pair",
    "PairX",
    "Indexing",
    "CountingCircles",
    "CountDistinct",
    "Given",
    "SearchPriority",
    "Var",
    "Or",
    "And",
    "Replicate",
    "Container",
    "End",
    "Jigsaw",
];

/// An ISS puzzle, read but not yet interpreted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iss {
    /// The grid side.
    pub n: usize,
    /// Given digits.
    pub givens: Grid,
    /// Cells given as several candidates, with them.
    pub candidates: Vec<((usize, usize), Vec<u32>)>,
    /// The `.Jigsaw` layout: each cell's region.
    pub jigsaw: Option<Vec<Vec<Option<i64>>>>,
    /// `.NoBoxes`.
    pub no_boxes: bool,
    /// `.Diagonal~1` and `.Diagonal~-1`.
    pub diagonals: (bool, bool),
    /// Every other constraint, in order, for the elements' hooks.
    pub others: Vec<Token>,
    /// Unknown types passed over under `--ignore-unknown`.
    pub ignored: Vec<String>,
}

/// A cell argument `R1C1` (any case; ISS's `R1Ca` for column 10,
/// [`iss_cell`]) of an n×n grid.
fn cell(arg: &str, n: usize, kind: &str) -> Result<(usize, usize), String> {
    let at = cell_ref(arg).or_else(|| iss_cell(arg).map(|(r, c)| (r as i64, c as i64)));
    match at {
        Some((r, c)) if (0..n as i64).contains(&r) && (0..n as i64).contains(&c) => {
            Ok((r as usize, c as usize))
        }
        // ISS names the cells of its `.Var` groups `V` + the group's name.
        _ if arg.starts_with(['V', 'v']) => Err(format!(
            "ISS `.{kind}` names `{}`, a cell outside the grid made by ISS's `.Var`: not yet \
             supported",
            super::short_key(arg)
        )),
        _ => Err(format!(
            "ISS `.{kind}` names `{}`, which is not a cell of the {n}×{n} grid",
            super::short_key(arg)
        )),
    }
}

// ---------------------------------------------------------------------------
// ISS's plain-text forms (its `SudokuParser`'s text formats), written out
// as the constraint string they mean, for [`read`].
// ---------------------------------------------------------------------------

/// A cell name as ISS writes it: `R1C1`, rows and columns above 9 as
/// `a` to `g`.
fn iss_name(i: usize, n: usize) -> String {
    let d = |k: usize| char::from_digit(k as u32 + 1, 17).unwrap_or('?');
    format!("R{}C{}", d(i / n), d(i % n))
}

/// A value as ISS's text forms write it: a digit up to 9×9; on larger
/// grids `A` for 1 to `P` for 16 (`0`, which is no value of them, is a
/// blank as any other character).
fn short_value(ch: char, n: usize) -> Option<u32> {
    let v = if n < 10 {
        ch.to_digit(10)?
    } else if ch.is_ascii_uppercase() {
        u32::from(ch) - u32::from('A') + 1
    } else {
        return None;
    };
    (1..=n as u32).contains(&v).then_some(v)
}

/// The side of a grid of `cells` cells, if it is one smtgrid imports.
fn side(cells: usize) -> Option<usize> {
    SIZES.clone().find(|&n| n * n == cells)
}

/// Givens `text` (one character a cell) as `.~R1C1_5…`, if every
/// character that is not a value is one and the same blank (ISS's
/// plain sudoku).
fn plain_givens(text: &[char], n: usize) -> Option<String> {
    let blanks: std::collections::BTreeSet<char> = text
        .iter()
        .copied()
        .filter(|&c| short_value(c, n).is_none())
        .collect();
    if blanks.len() > 1 {
        return None;
    }
    let mut out = String::from(".");
    for (i, &c) in text.iter().enumerate() {
        if let Some(v) = short_value(c, n) {
            out.push_str(&format!("~{}_{v}", iss_name(i, n)));
        }
    }
    Some(out)
}

/// A jigsaw layout (`n` different characters, each `n` times) as
/// `.Jigsaw~…`, if `text` is one.
fn jigsaw_layout(text: &[char], n: usize) -> Option<String> {
    let mut counts = std::collections::BTreeMap::new();
    for &c in text {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    (counts.len() == n && counts.values().all(|&k| k == n)).then(|| {
        format!(
            ".Jigsaw~{}x{}~{}.NoBoxes",
            n,
            n,
            text.iter().collect::<String>()
        )
    })
}

/// ISS's text forms that carry no `.Type~` constraints, as the constraint
/// string they mean (`None` for text that is none of them), tried in
/// ISS's order:
/// - a jigsaw: givens then the layout, n² characters each;
/// - givens alone, n² characters, values above 9 as letters (A = 1) on
///   grids larger than 9×9 (up to 9×9 smtgrid reads them as a sudoku
///   line);
/// - pencil marks: n characters a cell (n³ in all, n up to 9), each a
///   value the cell may hold or `.`.
///
/// ISS's killer forms and its grid layouts of numbers are not read.
pub fn text_form(text: &str) -> Option<String> {
    let t: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let len = t.len();
    if len.is_multiple_of(2)
        && let Some(n) = side(len / 2)
        && let Some(layout) = jigsaw_layout(&t[n * n..], n)
        && let Some(givens) = plain_givens(&t[..n * n], n)
    {
        return Some(format!(".Shape~{n}x{n}{layout}{givens}"));
    }
    if let Some(n) = side(len) {
        return plain_givens(&t, n).map(|g| format!(".Shape~{n}x{n}{g}"));
    }
    let n = (4..=9).find(|&n| n * n * n == len)?;
    if !t.iter().all(|&c| c == '.' || c.is_ascii_digit()) {
        return None;
    }
    let mut out = format!(".Shape~{n}x{n}.");
    for (i, marks) in t.chunks(n).enumerate() {
        out.push_str(&format!("~{}", iss_name(i, n)));
        for &c in marks.iter().filter(|&&c| c != '.') {
            out.push_str(&format!("_{c}"));
        }
    }
    Some(out)
}

/// Checks what an ISS `.Shape` of an n×n grid says after its size
/// (`args[1..]`): a value range (`9`, or `1-9`, ISS's default written
/// out; `0-8`, a range of its own), then a grid type (`Sudoku`, the
/// default). smtgrid's values are 1 to n, so only the defaults are read.
fn shape_rest(args: &[String], n: usize) -> Result<(), String> {
    let shape = || super::short_key(&args.join("~"));
    let (range, kind) = match args {
        [_] => return Ok(()),
        [_, range] => (range.as_str(), None),
        [_, range, kind] => (range.as_str(), Some(kind.as_str())),
        _ => {
            return Err(format!(
                "ISS `.Shape~{}` has {} arguments; ISS's shape is \
                 `.Shape~{n}x{n}~RANGE~TYPE`, the last two optional",
                shape(),
                args.len()
            ));
        }
    };
    let default = n.to_string();
    let default_range = range == default
        || range.split_once('-') == Some(("1", default.as_str()))
        || (range.is_empty() && kind.is_some());
    if !default_range {
        let named = range.split_once('-').unwrap_or(("1", range));
        let what = match (named.0.parse::<i64>(), named.1.parse::<i64>()) {
            (Ok(lo), Ok(hi)) => format!("values {lo} to {hi}"),
            _ => format!(
                "`{}` is not a value range such as 1-{n}",
                super::short_key(range)
            ),
        };
        return Err(format!(
            "ISS `.Shape~{}`: {what}, a value range of its own: not yet supported (smtgrid's \
             values are 1 to {n}); write `.Shape~{n}x{n}`",
            shape()
        ));
    }
    match kind {
        None | Some("Sudoku") => Ok(()),
        Some(k) => Err(format!(
            "ISS `.Shape~{}`: the grid type `{}`: not yet supported (only ISS's default, \
             `Sudoku`); write `.Shape~{n}x{n}`",
            shape(),
            super::short_key(k)
        )),
    }
}

/// Reads an ISS string.
pub fn read(text: &str, opts: &Options) -> Result<Iss, String> {
    let toks = tokens(text);
    let mut n = 9;
    // The first `.Shape`, as ISS keeps it: a later one must say the same.
    let mut shape: Option<&Token> = None;
    for t in toks.iter().filter(|t| t.kind == "Shape") {
        if let Some(first) = shape {
            if first.args != t.args {
                return Err(format!(
                    "ISS `.Shape~{}` after `.Shape~{}`: a grid has one shape; keep the `.Shape` \
                     the puzzle means",
                    super::short_key(&t.args.join("~")),
                    super::short_key(&first.args.join("~"))
                ));
            }
            continue;
        }
        shape = Some(t);
        let spec = t.args.first().map_or("", String::as_str);
        let (h, w) = spec
            .split_once('x')
            .and_then(|(h, w)| Some((h.parse::<usize>().ok()?, w.parse::<usize>().ok()?)))
            .ok_or_else(|| {
                format!(
                    "ISS `.Shape~{}` is not a shape such as 6x6",
                    super::short_key(spec)
                )
            })?;
        if h != w {
            return Err(format!(
                "ISS shape {h}x{w}: a grid that is not square is not yet supported"
            ));
        }
        shape_rest(&t.args, h)?;
        if !SIZES.contains(&h) {
            return Err(format!(
                "ISS shape {h}x{h}: smtgrid imports grids from {} to {} wide",
                SIZES.start(),
                SIZES.end()
            ));
        }
        n = h;
    }
    let mut p = Iss {
        n,
        givens: vec![vec![None; n]; n],
        candidates: Vec::new(),
        jigsaw: None,
        no_boxes: false,
        diagonals: (false, false),
        others: Vec::new(),
        ignored: Vec::new(),
    };
    // Givens inside `.Or`/`.And` blocks are alternatives, not givens of
    // the grid; such a puzzle is refused for the block (`to_plain`), not
    // for givens that seem to contradict.
    let composite = toks.iter().any(|t| matches!(t.kind.as_str(), "Or" | "And"));
    for t in &toks {
        match t.kind.as_str() {
            "Shape" => {}
            "" | "Given" => {
                for a in &t.args {
                    let mut parts = a.split('_');
                    let at = cell(parts.next().unwrap_or(""), n, "~")?;
                    let values = parts
                        .map(|v| v.parse::<u32>().ok().filter(|v| (1..=n as u32).contains(v)))
                        .collect::<Option<Vec<u32>>>()
                        .filter(|v| !v.is_empty())
                        .ok_or_else(|| {
                            format!(
                                "ISS given `{}` holds no value from 1 to {n}",
                                super::short_key(a)
                            )
                        })?;
                    if let [v] = values[..] {
                        // Not the last one silently: the two contradict,
                        // and which the setter meant is theirs to say.
                        let given = &mut p.givens[at.0][at.1];
                        if let Some(w) = *given
                            && w != v
                            && !composite
                        {
                            return Err(format!(
                                "ISS gives {} twice, as {w} and as {v}: a cell holds one value; \
                                 keep the given the puzzle means",
                                rc(at.0, at.1)
                            ));
                        }
                        *given = Some(v);
                    } else {
                        p.candidates.push((at, values));
                    }
                }
            }
            "Jigsaw" => {
                // ISS's `.Jigsaw~LAYOUT`, or its older `.Jigsaw~9x9~LAYOUT`.
                let layout = match &t.args[..] {
                    [layout] => layout,
                    [grid, layout] if *grid == format!("{n}x{n}") => layout,
                    [grid, _] => {
                        return Err(format!(
                            "ISS `.Jigsaw~{}~…` names a grid other than the {n}×{n} one: write \
                             `.Jigsaw~LAYOUT` (one character a cell), or `.Jigsaw~{n}x{n}~LAYOUT`",
                            super::short_key(grid)
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "ISS `.Jigsaw` with {} arguments: write `.Jigsaw~LAYOUT`, one \
                             character a cell (each region's own), row by row",
                            t.args.len()
                        ));
                    }
                };
                let layout: Vec<char> = layout.chars().collect();
                if layout.len() != n * n {
                    return Err(format!(
                        "ISS `.Jigsaw` layout has {} characters, but a {n}×{n} grid has {}",
                        layout.len(),
                        n * n
                    ));
                }
                let labels = (0..n)
                    .map(|r| {
                        (0..n)
                            .map(|c| Some(i64::from(u32::from(layout[r * n + c]))))
                            .collect()
                    })
                    .collect();
                // Which of two layouts the setter meant is theirs to say
                // (inside `.Or` they are alternatives, refused for that).
                if !composite && p.jigsaw.as_ref().is_some_and(|before| *before != labels) {
                    return Err(
                        "ISS `.Jigsaw` given twice with two layouts: a grid has one; keep the \
                         `.Jigsaw` the puzzle means"
                            .into(),
                    );
                }
                p.jigsaw = Some(labels);
            }
            "NoBoxes" => {
                let args: Vec<&str> = t.args.iter().map(String::as_str).collect();
                iss_flag(&t.kind, &args).map_err(|m| format!("ISS {m}"))?;
                p.no_boxes = true;
            }
            "Diagonal" => match &t.args[..] {
                [d] if d == "1" => p.diagonals.0 = true,
                [d] if d == "-1" => p.diagonals.1 = true,
                _ => {
                    return Err(format!(
                        "ISS `.Diagonal~{}`: write `.Diagonal~1` (rNc1→r1cN) or `.Diagonal~-1` \
                         (r1c1→rNcN), one diagonal each",
                        super::short_key(&t.args.join("~"))
                    ));
                }
            },
            k if KNOWN.contains(&k) || crate::elements::by_iss_name(k).is_some() => {
                p.others.push(t.clone());
            }
            k if opts.ignore_unknown => p.ignored.push(k.to_string()),
            k => {
                return Err(format!(
                    "ISS constraint `.{}` is unknown to smtgrid: pass --ignore-unknown to read the \
                     puzzle without it",
                    super::short_key(k)
                ));
            }
        }
    }
    Ok(p)
}

// ---------------------------------------------------------------------------
// Mapping to a Puzzle: the grid's own constraints here, every other one to
// the element that claims it (its `from_iss` hook).
// ---------------------------------------------------------------------------

/// The puzzle `p` states: givens, boxes or a jigsaw layout and both
/// diagonals together read here; every other constraint (cages, one
/// diagonal, …) read by the
/// element whose hook claims it ([`crate::elements::by_iss_name`]), and
/// refused by name when none does.
pub fn to_plain(p: &Iss) -> Result<Plain, String> {
    let n = p.n;
    let has = |k: &str| p.others.iter().any(|t| t.kind == k);
    if has("AntiConsecutive") && has("WhiteDot") {
        // ISS's anti-consecutive binds every pair, dotted or not, and a
        // white dot asks for consecutive digits: the two contradict.
        return Err(
            "ISS `.AntiConsecutive` with white dots: ISS keeps a pair with a dot \
                    non-consecutive too, so a white dot contradicts it; not supported"
                .into(),
        );
    }
    let mut elements = Vec::new();
    for t in &p.others {
        let k = t.kind.as_str();
        let Some(entry) = crate::elements::by_iss_name(k) else {
            let count = p.others.iter().filter(|o| o.kind == k).count();
            return Err(format!(
                "ISS constraint `.{k}` ({count} instance{}): not yet supported",
                if count == 1 { "" } else { "s" }
            ));
        };
        let args: Vec<&str> = t.args.iter().map(String::as_str).collect();
        let read = (entry.from_iss)(k, &args, n)
            .map_err(|m| format!("ISS `.{k}` ({}): {m}", entry.name))?;
        elements.extend(read);
    }
    // A cell given several values holds one of them.
    let mut held = std::collections::BTreeMap::<(usize, usize), Vec<i64>>::new();
    for (cell, vs) in &p.candidates {
        let values = candidates::checked(vs.iter().map(|&v| i64::from(v)).collect(), n)
            .map_err(|m| format!("ISS given candidates of {}: {m}", rc(cell.0, cell.1)))?;
        // A cell given candidates twice holds a value of both (not the
        // last ones silently), and one of none is refused as every
        // reader refuses it.
        match held.get_mut(cell) {
            Some(before) => {
                let holds = |values: &Vec<i64>| {
                    let values = values.clone();
                    Candidates {
                        cell: *cell,
                        values,
                    }
                    .holds(n)
                };
                if let Some((_, why)) =
                    first_clash([&*before, &values].into_iter().filter_map(holds))
                {
                    return Err(format!("ISS given candidates: {why}"));
                }
                before.retain(|v| values.contains(v));
            }
            None => {
                held.insert(*cell, values);
            }
        }
    }
    // ISS's anti-consecutive binds a black dot's pair too, which
    // smtgrid's negative constraint exempts: of a 1:2 pair's digits only
    // 1 and 2 are consecutive, so on a black dot it says exactly that
    // neither cell is 1.
    if has("AntiConsecutive") {
        let dotted: Vec<(usize, usize)> = elements
            .iter()
            .filter_map(|e| match e {
                Element::Kropki(crate::elements::kropki::Kropki::Dot {
                    cells,
                    black: true,
                    value: 2,
                }) => Some(*cells),
                _ => None,
            })
            .flatten()
            .collect();
        for cell in dotted {
            // A given says more than candidates; a given 1 is refused as
            // candidates of only 1 are.
            match p.givens[cell.0][cell.1] {
                Some(1) => {
                    return Err(format!(
                        "ISS gives {} 1, on a black dot under `.AntiConsecutive`, which rules 1 \
                         out there: the puzzle has no solution",
                        rc(cell.0, cell.1)
                    ));
                }
                Some(_) => continue,
                None => {}
            }
            let values = held.entry(cell).or_insert_with(|| (1..=n as i64).collect());
            values.retain(|&v| v != 1);
            if values.is_empty() {
                return Err(format!(
                    "ISS given candidates of {}: only 1, on a black dot under \
                     `.AntiConsecutive`, which rules 1 out there: the puzzle has no solution",
                    rc(cell.0, cell.1)
                ));
            }
        }
    }
    for (cell, values) in held {
        elements.push(Element::Candidates(Candidates { cell, values }));
    }
    let mut plain = Plain::blank(n);
    plain.elements = elements;
    plain.givens = p.givens.clone();
    let boxes = box_labels(n, default_box(n));
    plain.regions = match (&p.jigsaw, p.no_boxes) {
        (Some(layout), _) => layout.clone(),
        (None, false) => boxes.clone(),
        // A grid without boxes: cells in no region, a Latin square as
        // f-puzzles' `region: null` is (`build::to_puzzle`).
        (None, true) => vec![vec![None; n]; n],
    };
    // ISS keeps the boxes beside a `.Jigsaw` unless `.NoBoxes` says
    // otherwise: each box is then an extra region of the jigsaw (none
    // where the layout is the boxes themselves).
    let (br, bc) = default_box(n);
    if p.jigsaw.is_some() && !p.no_boxes && br > 1 && bc > 1 {
        let mut cells_of: std::collections::BTreeMap<i64, Vec<(usize, usize)>> =
            std::collections::BTreeMap::new();
        for (r, row) in boxes.iter().enumerate() {
            for (c, label) in row.iter().enumerate() {
                cells_of.entry(label.unwrap_or(0)).or_default().push((r, c));
            }
        }
        for cells in cells_of.into_values() {
            let label = |&(r, c): &(usize, usize)| plain.regions[r][c];
            if !cells.iter().all(|c| label(c) == label(&cells[0])) {
                plain
                    .elements
                    .push(Element::ExtraRegion(ExtraRegion { cells }));
            }
        }
    }
    // Both diagonals are the kinds' sudoku-X; one alone is its element.
    match p.diagonals {
        (true, true) => plain.diagonals = true,
        (plus, minus) => {
            for (on, arg) in [(plus, "1"), (minus, "-1")] {
                if !on {
                    continue;
                }
                let entry = crate::elements::by_iss_name("Diagonal")
                    .ok_or("ISS `.Diagonal` alone: not yet supported")?;
                let read = (entry.from_iss)("Diagonal", &[arg], n)
                    .map_err(|m| format!("ISS `.Diagonal` ({}): {m}", entry.name))?;
                plain.elements.extend(read);
            }
        }
    }
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_split_into_types_and_arguments() {
        let t = tokens(".Cage~10~R1C1~R1C2\n .AntiKnight..~R1C1_5~r2c2_3_4");
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].kind, "Cage");
        assert_eq!(t[0].args, ["10", "R1C1", "R1C2"]);
        assert_eq!(t[1].kind, "AntiKnight");
        assert_eq!(t[2].kind, "");
        let p = read(
            &format!(".Shape~4x4{}", ".~R1C1_2~R2C2_3_4"),
            &Options::default(),
        )
        .expect("reads");
        assert_eq!(p.n, 4);
        assert_eq!(p.givens[0][0], Some(2));
        assert_eq!(p.candidates, vec![((1, 1), vec![3, 4])]);
        assert!(read(".~R10C1_1", &Options::default()).is_err());
        // One given twice is one given; two different ones are refused.
        let again = read(".Shape~4x4.~R1C1_1.~R1C1_1", &Options::default()).expect("reads");
        assert_eq!(again.givens[0][0], Some(1));
        let e = read(".Shape~4x4.~R1C1_1.~R1C1_2", &Options::default()).expect_err("refused");
        assert!(e.contains("gives r1c1 twice, as 1 and as 2"), "{e}");
        // Inside `.Or` they are alternatives: refused for the block.
        let either = ".Shape~4x4.Or.~R1C2_1.~R1C1_1.End.Or.~R1C2_2.~R1C3_2.End";
        let e = to_plain(&read(either, &Options::default()).expect("reads")).expect_err("refused");
        assert!(
            e.contains("`.Or`") && e.contains("not yet supported"),
            "{e}"
        );
        assert!(read(".Shape~9x9~0-8", &Options::default()).is_err());
        assert!(read(".Bogus~1", &Options::default()).is_err());
        let e = to_plain(&read(".Regex~1~R1C1~R1C2", &Options::default()).expect("reads"))
            .expect_err("refused");
        assert!(e.contains("not yet supported"), "{e}");
    }

    #[test]
    fn a_jigsaw_keeps_the_boxes_unless_no_boxes_says_otherwise() {
        let extra = |text: &str| {
            let p = to_plain(&read(text, &Options::default()).expect("reads")).expect("maps");
            p.elements
                .iter()
                .filter(|e| matches!(e, Element::ExtraRegion(_)))
                .count()
        };
        // Boxes 1 and 4 cross regions a and d; boxes 2 and 3 are regions
        // b and c themselves.
        assert_eq!(extra(".Shape~4x4.Jigsaw~4x4~aabbadbbccddccda"), 2);
        assert_eq!(extra(".Shape~4x4.Jigsaw~4x4~aabbadbbccddccda.NoBoxes"), 0);
        assert_eq!(extra(".Shape~4x4.Jigsaw~4x4~aabbaabbccddccdd"), 0);
    }

    #[test]
    fn a_shape_jigsaw_or_flag_must_say_one_thing() {
        let o = Options::default();
        let e = read(".Shape~9x9.Shape~4x4", &o).expect_err("two shapes");
        assert!(e.contains("`.Shape~4x4` after `.Shape~9x9`"), "{e}");
        assert_eq!(read(".Shape~4x4.Shape~4x4", &o).expect("one shape").n, 4);
        let layout = "aabbaabbccddccdd";
        assert!(read(&format!(".Shape~4x4.Jigsaw~4x4~{layout}"), &o).is_ok());
        let twice = format!(".Shape~4x4.Jigsaw~{layout}.Jigsaw~{layout}");
        assert!(read(&twice, &o).is_ok());
        let e = read(&format!("{twice}.Jigsaw~abababababababab"), &o).expect_err("two layouts");
        assert!(e.contains("given twice"), "{e}");
        let e = read(&format!(".Shape~4x4.Jigsaw~9x9~{layout}"), &o).expect_err("9x9");
        assert!(e.contains("`.Jigsaw~9x9~…`"), "{e}");
        let e = read(&format!(".Shape~4x4.Jigsaw~4x4~{layout}~x"), &o).expect_err("three");
        assert!(e.contains("with 3 arguments"), "{e}");
        let e = read(".NoBoxes~R1C1", &o).expect_err("an argument");
        assert!(
            e.contains("`.NoBoxes` takes no argument, got `R1C1`"),
            "{e}"
        );
        let e = read(".Diagonal~1~R1C1", &o).expect_err("two arguments");
        assert!(e.contains("`.Diagonal~1~R1C1`"), "{e}");
    }

    #[test]
    fn cells_above_nine_are_letters() {
        let p = read(".Shape~16x16.~R1Ca_5~rGcg_16~R2C1_1", &Options::default()).expect("reads");
        assert_eq!(p.givens[0][9], Some(5));
        assert_eq!(p.givens[15][15], Some(16));
        assert_eq!(p.givens[1][0], Some(1));
        let e = read(".~R1Ca_5", &Options::default()).expect_err("column 10 of a 9×9");
        assert!(e.contains("not a cell of the 9×9 grid"), "{e}");
        let e = read(".~VA_5", &Options::default()).expect_err("a .Var cell");
        assert!(e.contains("`.Var`"), "{e}");
    }

    #[test]
    fn text_forms_are_the_strings_they_mean() {
        // A 16×16's givens in letters, any one blank character.
        let mut plain = vec!['.'; 256];
        plain[9] = 'E';
        plain[255] = 'P';
        let s = text_form(&plain.iter().collect::<String>()).expect("givens");
        assert_eq!(s, ".Shape~16x16.~R1Ca_5~RgCg_16");
        // A jigsaw: givens, then the layout (each label n times).
        let jigsaw = format!("{}{}", "1...............", "AAABACBBCCDBCDDD");
        let p = read(&text_form(&jigsaw).expect("a jigsaw"), &Options::default()).expect("reads");
        assert_eq!(p.givens[0][0], Some(1));
        assert!(p.no_boxes && p.jigsaw.is_some());
        // Pencil marks, n characters a cell.
        let marks = format!("12{}{}", ".".repeat(7), "123456789".repeat(80));
        let p = read(&text_form(&marks).expect("marks"), &Options::default()).expect("reads");
        assert_eq!(p.candidates[0], ((0, 0), vec![1, 2]));
        // Two kinds of blank, or a length that is no form: not ISS text.
        assert_eq!(text_form(&format!("x-{}", ".".repeat(79))), None);
        assert_eq!(text_form("https://example.com/"), None);
    }
}
