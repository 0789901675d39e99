//! f-puzzles JSON: layer 2 reads its top level into [`FPuzzle`] (size,
//! givens, regions, solution, title, every constraint key kept as raw
//! JSON for the element hooks); [`to_plain`] maps today's vocabulary to
//! today's puzzle and refuses the rest by name; [`from_puzzle`] writes a
//! puzzle back as f-puzzles JSON for `convert --to fpuzzles`. Reading
//! refuses with a [`Fault`]: what is wrong and its place in the JSON,
//! which a file's error turns into a line and column.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::build::{Plain, SIZES, box_labels, default_box};
use super::place::{self, Fault, JsonPath, Spot};
use super::{Drawn, DrawnKind, Options, colour};
use crate::elements::ElementType;
use crate::elements::marks::{Holds, MarkKind, Marked, first_clash, held_by_givens};
use crate::elements::odd_even::Parity;
use crate::error::rc;
use crate::puzzle::{Clue, Grid, Kind, Puzzle};

/// Keys that describe the puzzle, not a rule.
const META: &[&str] = &[
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
    "highlightConflicts",
    "version",
];

/// Drawings without a rule of their own (`cage` only without a value that
/// is a clue: see [`cage_is_cosmetic`]).
const COSMETIC: &[&str] = &["line", "cage", "circle", "rectangle", "text", "arrows"];

/// Rule keys whose value is `true` or `false`.
const FLAGS: &[&str] = &[
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
];

/// Rule keys whose value is a list of instances.
const LISTS: &[&str] = &[
    "thermometer",
    "slowthermometer",
    "palindrome",
    "betweenline",
    "lockout",
    "renban",
    "whispers",
    "regionsumline",
    "entropicline",
    "modularline",
    "nabner",
    "doublearrow",
    "zipperline",
    "arrow",
    "killercage",
    "littlekillersum",
    "difference",
    "ratio",
    "xv",
    "sandwichsum",
    "xsum",
    "skyscraper",
    "quadruple",
    "clone",
    "extraregion",
    "rowindexer",
    "columnindexer",
    "boxindexer",
    "odd",
    "even",
    "minimum",
    "maximum",
    "negative",
];

/// Keys of a cell of `grid`.
const CELL_KEYS: &[&str] = &[
    "value",
    "given",
    "region",
    "centerPencilMarks",
    "cornerPencilMarks",
    "givenPencilMarks",
    "c",
    "cArray",
    "highlight",
    "parity",
];

/// A cell's region as f-puzzles writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellRegion {
    /// No `region` key: the standard box.
    Default,
    /// `region: null`: in no region.
    Nothing,
    /// `region: k`, 0-based.
    Id(i64),
}

/// `refusal` of a whole n×n puzzle as a fault at the cell it blames: a
/// given's `value`, or the cell's place in the row-major `solution`.
pub fn blamed(refusal: super::build::Refusal, n: usize) -> Fault {
    use super::build::Blamed;
    Fault::blamed(refusal, |b| match b {
        Blamed::Given(r, c) => top("grid").index(r).index(c).key("value"),
        Blamed::Solution(r, c) => top("solution").index(r * n + c),
    })
}

/// The path of the top-level key `key`.
fn top(key: &str) -> JsonPath {
    JsonPath::root().key(key)
}

/// An f-puzzles puzzle, read but not yet interpreted.
#[derive(Debug, Clone, PartialEq)]
pub struct FPuzzle {
    /// The grid side.
    pub size: usize,
    /// `title`.
    pub title: Option<String>,
    /// `author`.
    pub author: Option<String>,
    /// `ruleset`: the rules in words.
    pub ruleset: Option<String>,
    /// Given digits.
    pub givens: Grid,
    /// Each cell's region.
    pub regions: Vec<Vec<CellRegion>>,
    /// Cells with given pencil marks (candidates), with them.
    pub pencil_marks: Vec<((usize, usize), Vec<u32>)>,
    /// The recorded solution.
    pub solution: Option<Grid>,
    /// Cells marked with the cell key `parity` (`"Odd"` or `"Even"`, an
    /// older f-puzzles form of the `odd` and `even` lists): each cell
    /// with the list it joins.
    pub parity: Vec<((usize, usize), &'static str)>,
    /// Every rule key with at least one instance (flags only when true),
    /// raw; `cage` holds only the cages whose value is a clue.
    pub constraints: BTreeMap<String, Value>,
    /// Unknown keys passed over under `--ignore-unknown`.
    pub ignored: Vec<String>,
    /// Drawings passed over (`line`, `circle`, …), with how many: a
    /// setter may give them a meaning in the rules text only.
    pub cosmetic: Vec<(String, usize)>,
    /// The drawings (`line`, `circle`, `rectangle`) whose colour was given
    /// a meaning (`--line COLOR=MEANING`, `--overlay`), read by it as
    /// SudokuPad's are.
    pub drawn: Vec<Drawn>,
}

/// The JSON type of `v`, for messages.
pub(crate) fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A whole number from a JSON number or a string of digits.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A cell name `R1C1` read as 0-based (row, column); rows and columns
/// from 0 to n+1 are read (outside clues), the caller checks the range.
pub fn cell_ref(s: &str) -> Option<(i64, i64)> {
    let u = s.trim().to_ascii_uppercase();
    let rest = u.strip_prefix('R')?;
    let (r, c) = rest.split_once('C')?;
    let r: i64 = r.parse().ok()?;
    let c: i64 = c.parse().ok()?;
    (r.abs() < 1000 && c.abs() < 1000).then_some((r - 1, c - 1))
}

/// serde_json's complaint about `text`, JSON of `format` (`f-puzzles`,
/// or `f-puzzles or SudokuPad` for a file that may hold either), at its
/// line and column.
pub fn syntax(text: &str, e: &serde_json::Error, format: &str) -> Fault {
    let full = e.to_string();
    let what = full
        .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
        .unwrap_or(&full);
    // serde_json counts a column in bytes, messages in characters.
    let line_start: usize = text
        .split('\n')
        .take(e.line().saturating_sub(1))
        .map(|l| l.len() + 1)
        .sum();
    let (line, column) = crate::error::line_col(text, line_start + e.column().saturating_sub(1));
    Fault {
        at: Some(Spot::Text(line, column)),
        message: format!(
            "the {format} data is not valid JSON: {what}; correct the JSON there, or export the \
             puzzle from {format} again"
        ),
    }
}

/// Refuses JSON text (already known to be JSON) of `format` (`f-puzzles`,
/// or `SudokuPad` for its own JSON) with a key that an object holds
/// twice: serde_json, as f-puzzles and SudokuPad, keeps the last silently
/// where other readers keep the first, so which one the setter meant is
/// theirs to say.
pub fn refuse_repeats(text: &str, format: &str) -> Result<(), Fault> {
    let Some((path, at)) = place::repeated_key(text) else {
        return Ok(());
    };
    let key = match path.0.last() {
        Some(place::Step::Key(k)) => k.clone(),
        _ => String::new(),
    };
    Err(Fault {
        message: place::twice(format, &key),
        at: Some(Spot::Found(path, at)),
    })
}

/// Reads the top level of decoded f-puzzles JSON.
pub fn read_value(v: &Value, opts: &Options) -> Result<FPuzzle, Fault> {
    let Value::Object(members) = v else {
        return Err(Fault::value(
            JsonPath::root(),
            format!(
                "the f-puzzles data is {}, not an object with size and grid",
                type_of(v)
            ),
        ));
    };
    let size = members.get("size").ok_or_else(|| {
        Fault::value(
            JsonPath::root(),
            "the f-puzzles data has no `size`: add \"size\": N, the grid's side",
        )
    })?;
    let n = int(size)
        .filter(|n| SIZES.contains(&usize::try_from(*n).unwrap_or(0)))
        .ok_or_else(|| {
            Fault::value(
                top("size"),
                format!(
                    "f-puzzles `size` is {size}, but a grid is {} to {} cells wide",
                    SIZES.start(),
                    SIZES.end()
                ),
            )
        })? as usize;
    let text = |k: &str| -> Result<Option<String>, Fault> {
        match members.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(o) => Err(Fault::value(
                top(k),
                format!("f-puzzles `{k}` is {}, not a string", type_of(o)),
            )),
        }
    };
    let mut p = FPuzzle {
        size: n,
        title: text("title")?,
        author: text("author")?,
        ruleset: text("ruleset")?,
        givens: vec![vec![None; n]; n],
        regions: vec![vec![CellRegion::Default; n]; n],
        pencil_marks: Vec::new(),
        parity: Vec::new(),
        solution: None,
        constraints: BTreeMap::new(),
        ignored: Vec::new(),
        cosmetic: Vec::new(),
        drawn: Vec::new(),
    };
    read_grid(
        members.get("grid").ok_or_else(|| {
            Fault::value(
                JsonPath::root(),
                "the f-puzzles data has no `grid`: add \"grid\", a list of rows of cells",
            )
        })?,
        &mut p,
        opts,
    )?;
    if let Some(s) = members.get("solution") {
        p.solution = solution(s, n)?;
    }
    for (key, value) in members {
        let k = key.as_str();
        if META.contains(&k) {
            continue;
        }
        if FLAGS.contains(&k) {
            match value {
                Value::Bool(true) => {
                    p.constraints.insert(key.clone(), value.clone());
                }
                Value::Bool(false) | Value::Null => {}
                o => {
                    return Err(Fault::value(
                        top(k),
                        format!("f-puzzles `{k}` is {}, not true or false", type_of(o)),
                    ));
                }
            }
            continue;
        }
        if k == "cage" {
            let all = list(value, k)?;
            let clued: Vec<Value> = all
                .iter()
                .filter(|c| !cage_is_cosmetic(c))
                .cloned()
                .collect();
            if all.len() > clued.len() {
                p.cosmetic.push((key.clone(), all.len() - clued.len()));
            }
            if !clued.is_empty() {
                p.constraints.insert(key.clone(), Value::Array(clued));
            }
            continue;
        }
        if COSMETIC.contains(&k) {
            // Userscript copies of a rule's drawing name it (`fromConstraint`,
            // or `isNewConstraint` on a renban's or whispers' line); the rule
            // has its own key.
            let own = value
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .filter(|(_, d)| {
                    d.get("fromConstraint").is_none() && d.get("isNewConstraint").is_none()
                });
            let mut passed = 0;
            for (i, item) in own {
                match drawn(k, item, opts) {
                    Some(d) => {
                        check_cells(item, k, i, n)?;
                        p.drawn.extend(d);
                    }
                    None => passed += 1,
                }
            }
            if passed > 0 {
                p.cosmetic.push((key.clone(), passed));
            }
            continue;
        }
        if LISTS.contains(&k) {
            let items = list(value, k)?;
            for (i, item) in items.iter().enumerate() {
                check_cells(item, k, i, n)?;
            }
            if !items.is_empty() {
                p.constraints.insert(key.clone(), value.clone());
            }
            continue;
        }
        // A key an element claims is its hook's to check.
        if crate::elements::by_fpuzzles_key(k).is_some() {
            p.constraints.insert(key.clone(), value.clone());
            continue;
        }
        if opts.ignore_unknown {
            p.ignored.push(key.clone());
            continue;
        }
        return Err(Fault::key(
            top(k),
            format!(
                "f-puzzles key `{}` is unknown to smtgrid: pass --ignore-unknown to read the \
                 puzzle without it",
                super::short_key(k)
            ),
        ));
    }
    contradictions(&p)?;
    // A cell's `parity` joins the `odd` or `even` list, which the
    // odd-even element reads; a cell both lists and `parity` name is
    // one statement, not two.
    for &((r, c), key) in &p.parity {
        let item = json!({ "cell": format!("R{}C{}", r + 1, c + 1) });
        match p
            .constraints
            .entry(key.to_string())
            .or_insert_with(|| json!([]))
        {
            Value::Array(items) if items.contains(&item) => {}
            Value::Array(items) => items.push(item),
            o => {
                return Err(Fault::value(
                    top(key),
                    format!("f-puzzles `{key}` is {}, not a list", type_of(o)),
                ));
            }
        }
    }
    Ok(p)
}

/// An f-puzzles drawing whose colour was given a meaning, as the drawings
/// SudokuPad reads ([`super::drawn_meanings`]): each polyline of a `line`
/// (colour `outlineC`) its own line, a `circle` or `rectangle` an overlay
/// on its cells (colour `baseC`, or `outlineC` where the fill is none or
/// transparent; a shape on two cells stands on the border between them,
/// as f-puzzles draws it) with its `value` as text. `None` for a drawing
/// no meaning was given to, which stays decoration.
fn drawn(key: &str, item: &Value, opts: &Options) -> Option<Vec<Drawn>> {
    let cells = |v: Option<&Value>| -> Vec<(usize, usize)> {
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| cell_ref(c.as_str()?))
            .filter_map(|(r, c)| Some((usize::try_from(r).ok()?, usize::try_from(c).ok()?)))
            .collect()
    };
    let (what, colour) = match key {
        "line" => (DrawnKind::Line, colour(item.get("outlineC"))),
        "circle" | "rectangle" => {
            let fill = colour(item.get("baseC"));
            let clear = fill == "none"
                || fill == "transparent"
                || (fill.len() == 8 && fill.ends_with("00"));
            let c = if clear {
                colour(item.get("outlineC"))
            } else {
                fill
            };
            (DrawnKind::Overlay, c)
        }
        _ => return None,
    };
    opts.meaning(what, &colour)?;
    let text = super::drawn_text(item.get("value"));
    Some(match what {
        DrawnKind::Line => item
            .get("lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|l| {
                let cells = cells(Some(l));
                Drawn {
                    what,
                    colour: colour.clone(),
                    // Where it is, for a message, when it names no cell.
                    at: "(no cells)".into(),
                    cells,
                    text: None,
                }
            })
            .collect(),
        _ => {
            let cells = cells(item.get("cells"));
            vec![Drawn {
                what,
                colour,
                at: "(no cells)".into(),
                cells,
                text,
            }]
        }
    })
}

/// The list a rule key holds.
fn list<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, Fault> {
    match v {
        Value::Array(a) => Ok(a),
        o => Err(Fault::value(
            top(key),
            format!("f-puzzles `{key}` is {}, not a list", type_of(o)),
        )),
    }
}

/// A cosmetic `cage` has no value, or one that SudokuPad reads as the
/// puzzle's title, author, rules or solution; any other value is a clue
/// whose meaning the rules text gives.
fn cage_is_cosmetic(c: &Value) -> bool {
    match c.get("value") {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => {
            let s = s.trim().to_ascii_lowercase();
            s.is_empty()
                || ["title:", "author:", "rules:", "solution:", "msgcorrect:"]
                    .iter()
                    .any(|m| s.starts_with(m))
        }
        Some(_) => false,
    }
}

fn read_grid(g: &Value, p: &mut FPuzzle, opts: &Options) -> Result<(), Fault> {
    let n = p.size;
    let grid = top("grid");
    let rows = match g {
        Value::Array(rows) if rows.len() == n => rows,
        Value::Array(rows) => {
            return Err(Fault::value(
                grid,
                format!(
                    "f-puzzles `grid` has {}, but `size` is {n}",
                    crate::output::plural(rows.len(), "row", "rows")
                ),
            ));
        }
        o => {
            return Err(Fault::value(
                grid,
                format!("f-puzzles `grid` is {}, not a list of rows", type_of(o)),
            ));
        }
    };
    for (r, row) in rows.iter().enumerate() {
        let cells = match row {
            Value::Array(c) if c.len() == n => c,
            _ => {
                return Err(Fault::value(
                    grid.index(r),
                    format!("f-puzzles `grid` row {} is not a list of {n} cells", r + 1),
                ));
            }
        };
        for (c, cell) in cells.iter().enumerate() {
            // Built only for a message: a grid's every cell need not be.
            let at = || grid.index(r).index(c);
            let Value::Object(cell) = cell else {
                if cell.is_null() {
                    continue;
                }
                return Err(Fault::value(
                    at(),
                    format!("f-puzzles cell {} is {}", rc(r, c), type_of(cell)),
                ));
            };
            for key in cell.keys() {
                if !CELL_KEYS.contains(&key.as_str()) && !opts.ignore_unknown {
                    return Err(Fault::key(
                        at().key(key),
                        format!(
                            "f-puzzles cell {} has the key `{}`, unknown to smtgrid: pass \
                             --ignore-unknown to read the puzzle without it",
                            rc(r, c),
                            super::short_key(key)
                        ),
                    ));
                }
                if !CELL_KEYS.contains(&key.as_str()) {
                    let k = format!("cell key {key}");
                    if !p.ignored.contains(&k) {
                        p.ignored.push(k);
                    }
                }
            }
            let given = matches!(cell.get("given"), Some(Value::Bool(true)));
            // A value without `given` is a solver's entry, not a clue.
            if let Some(v) = cell.get("value").filter(|v| !v.is_null() && given) {
                let d = int(v)
                    .filter(|d| (1..=n as i64).contains(d))
                    .ok_or_else(|| {
                        Fault::value(
                            at().key("value"),
                            format!(
                                "f-puzzles cell {} has the value {v}, but a {n}×{n} grid holds 1 \
                                 to {n}",
                                rc(r, c)
                            ),
                        )
                    })?;
                p.givens[r][c] = Some(d as u32);
            }
            match cell.get("region") {
                None => {}
                Some(Value::Null) => p.regions[r][c] = CellRegion::Nothing,
                Some(v) => {
                    let k = int(v)
                        .filter(|k| (0..=4 * n as i64).contains(k))
                        .ok_or_else(|| {
                            Fault::value(
                                at().key("region"),
                                format!(
                                    "f-puzzles cell {} has the region {v}, not a region number",
                                    rc(r, c)
                                ),
                            )
                        })?;
                    p.regions[r][c] = CellRegion::Id(k);
                }
            }
            match cell.get("parity") {
                None | Some(Value::Null) => {}
                Some(Value::String(s)) if s.eq_ignore_ascii_case("odd") => {
                    p.parity.push(((r, c), "odd"));
                }
                Some(Value::String(s)) if s.eq_ignore_ascii_case("even") => {
                    p.parity.push(((r, c), "even"));
                }
                Some(v) => {
                    return Err(Fault::value(
                        at().key("parity"),
                        format!(
                            "f-puzzles cell {} has the parity {v}: write \"Odd\" or \"Even\"",
                            rc(r, c)
                        ),
                    ));
                }
            }
            if let Some(Value::Array(marks)) = cell.get("givenPencilMarks")
                && !marks.is_empty()
            {
                let ds = marks
                    .iter()
                    .map(|m| {
                        int(m)
                            .filter(|d| (1..=n as i64).contains(d))
                            .map(|d| d as u32)
                    })
                    .collect::<Option<Vec<u32>>>()
                    .ok_or_else(|| {
                        Fault::value(
                            at().key("givenPencilMarks"),
                            format!(
                                "f-puzzles cell {} has given pencil marks out of 1 to {n}",
                                rc(r, c)
                            ),
                        )
                    })?;
                p.pencil_marks.push(((r, c), ds));
            }
        }
    }
    Ok(())
}

/// A solution: n² digits, as numbers or strings; a list holding blanks
/// is no solution.
fn solution(s: &Value, n: usize) -> Result<Option<Grid>, Fault> {
    let Value::Array(ds) = s else {
        return Err(Fault::value(
            top("solution"),
            format!(
                "f-puzzles `solution` is {}, not a list of digits",
                type_of(s)
            ),
        ));
    };
    if ds.len() != n * n {
        return Err(Fault::value(
            top("solution"),
            format!(
                "f-puzzles `solution` has {} digits, but a {n}×{n} grid has {}",
                ds.len(),
                n * n
            ),
        ));
    }
    let mut g = vec![vec![None; n]; n];
    for (k, d) in ds.iter().enumerate() {
        match int(d) {
            Some(v) if (1..=n as i64).contains(&v) => g[k / n][k % n] = Some(v as u32),
            _ => {
                return Err(Fault::value(
                    top("solution").index(k),
                    format!(
                        "f-puzzles `solution` has {d} at {}, not a digit from 1 to {n}",
                        rc(k / n, k % n)
                    ),
                ));
            }
        }
    }
    Ok(Some(g))
}

/// Checks that every cell the `index`-th instance of `key` names
/// (`cells`, `cell`, `lines`, `cloneCells`) is in the grid, or just
/// outside it where a clue stands.
fn check_cells(item: &Value, key: &str, index: usize, n: usize) -> Result<(), Fault> {
    let at = top(key).index(index);
    let Value::Object(o) = item else {
        if key == "negative" && item.is_string() {
            return Ok(());
        }
        return Err(Fault::value(
            at,
            format!(
                "an f-puzzles `{key}` entry is {}, not an object",
                type_of(item)
            ),
        ));
    };
    // Each name with where it is: (field, line, place in it).
    let mut names: Vec<(&str, Option<usize>, usize, &Value)> = Vec::new();
    for field in ["cells", "cloneCells"] {
        if let Some(Value::Array(cs)) = o.get(field) {
            names.extend(cs.iter().enumerate().map(|(j, c)| (field, None, j, c)));
        }
    }
    if let Some(Value::Array(lines)) = o.get("lines") {
        for (l, line) in lines.iter().enumerate() {
            if let Value::Array(cs) = line {
                names.extend(cs.iter().enumerate().map(|(j, c)| ("lines", Some(l), j, c)));
            }
        }
    }
    if let Some(c) = o.get("cell") {
        names.push(("cell", None, 0, c));
    }
    for (field, line, j, c) in names {
        let outside_ok = field == "cell";
        let lo = if outside_ok { -1 } else { 0 };
        let hi = if outside_ok { n as i64 } else { n as i64 - 1 };
        let ok = c
            .as_str()
            .and_then(cell_ref)
            .is_some_and(|(r, c)| (lo..=hi).contains(&r) && (lo..=hi).contains(&c));
        if !ok {
            let path = match (field, line) {
                ("cell", _) => at.key(field),
                (_, Some(l)) => at.key(field).index(l).index(j),
                (_, None) => at.key(field).index(j),
            };
            return Err(Fault::value(
                path,
                format!(
                    "an f-puzzles `{key}` names the cell {c}, which is not a cell of the {n}×{n} \
                     grid"
                ),
            ));
        }
    }
    Ok(())
}

/// Keys that contradict each other: a cell marked both odd and even or
/// given a value of the other parity (by the givens, then the cells'
/// `parity`, then the `odd` and `even` lists), refused at the later of
/// the two as every reader's odd and even cells are ([`first_clash`]).
/// Killer cages that share a cell do not: each keeps its own sum and
/// distinct digits, as ISS's and a TOML file's do.
fn contradictions(p: &FPuzzle) -> Result<(), Fault> {
    // Each cell an instance of `key` names in `field`, with its path.
    let cells_of = |key: &str, field: &str| -> Vec<((i64, i64), JsonPath)> {
        let mut out = Vec::new();
        let items = p.constraints.get(key).and_then(Value::as_array);
        for (i, item) in items.into_iter().flatten().enumerate() {
            let at = || top(key).index(i).key(field);
            match item.get(field) {
                Some(Value::Array(cs)) => out.extend(
                    cs.iter()
                        .enumerate()
                        .filter_map(|(j, c)| Some((cell_ref(c.as_str()?)?, at().index(j)))),
                ),
                Some(Value::String(s)) => out.extend(cell_ref(s).map(|c| (c, at()))),
                _ => {}
            }
        }
        out
    };
    // The givens first: a mark against one is the mark's fault.
    let n = p.size;
    let mut marks: Vec<(Holds, JsonPath)> = held_by_givens(&p.givens)
        .map(|h| {
            let (r, c) = h.cell;
            (h, top("grid").index(r).index(c).key("value"))
        })
        .collect();
    marks.extend(p.parity.iter().filter_map(|&((r, c), key)| {
        let mark = Marked {
            cell: (r, c),
            kind: Parity::of_key(key),
        };
        Some((mark.holds(n)?, top("grid").index(r).index(c).key("parity")))
    }));
    for &key in Parity::FPUZZLES {
        // An item may name its cell as `cell` or in `cells`; a cell out of
        // the grid is the element's to refuse.
        for field in ["cell", "cells"] {
            marks.extend(cells_of(key, field).into_iter().filter_map(|((r, c), at)| {
                let cell = (usize::try_from(r).ok()?, usize::try_from(c).ok()?);
                let kind = Parity::of_key(key);
                Some((Marked { cell, kind }.holds(n)?, at))
            }));
        }
    }
    if let Some((k, why)) = first_clash(marks.iter().map(|(h, _)| h.clone())) {
        return Err(Fault::value(marks[k].1.clone(), why));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Mapping to a Puzzle: the grid's own keys here, every other rule key to the
// element that claims it (its `from_fpuzzles` hook).
// ---------------------------------------------------------------------------

/// The puzzle `p` states: givens, regions, both diagonals together and
/// the solution read here; every other rule key (killer cages, one
/// diagonal, each entry of `negative`) read by the element whose hook
/// claims it ([`crate::elements::by_fpuzzles_key`]), and refused by name
/// when none does; drawings given a meaning read by it as SudokuPad's are
/// (`import::drawn_meanings`).
pub fn to_plain(p: &FPuzzle, opts: &Options) -> Result<Plain, Fault> {
    let n = p.size;
    if let Some(((r, c), ds)) = p.pencil_marks.first() {
        let at = top("grid").index(*r).index(*c).key("givenPencilMarks");
        return Err(Fault::value(
            at,
            format!(
                "f-puzzles given pencil marks ({} {} cells, first {} with {}): not yet supported",
                p.pencil_marks.len(),
                if p.pencil_marks.len() == 1 {
                    "cell"
                } else {
                    "cells"
                },
                rc(*r, *c),
                ds.iter().map(u32::to_string).collect::<Vec<_>>().join("")
            ),
        ));
    }
    let mut plain = Plain::blank(n);
    plain.title = p.title.clone();
    plain.about.author = p.author.clone();
    plain.about.rules = p.ruleset.clone();
    plain.givens = p.givens.clone();
    plain.solution = p.solution.clone();
    let boxes = box_labels(n, default_box(n));
    // Explicit region numbers share one numbering with the default boxes.
    plain.regions = p
        .regions
        .iter()
        .zip(&boxes)
        .map(|(row, boxes)| {
            row.iter()
                .zip(boxes)
                .map(|(region, default)| match region {
                    CellRegion::Default => *default,
                    CellRegion::Nothing => None,
                    CellRegion::Id(k) => Some(*k),
                })
                .collect()
        })
        .collect();
    // Both diagonals are the kinds' sudoku-X; one alone is its element.
    let both = p.constraints.contains_key("diagonal+") && p.constraints.contains_key("diagonal-");
    plain.diagonals = both;
    for (key, value) in &p.constraints {
        match key.as_str() {
            "diagonal+" | "diagonal-" if both => {}
            "negative" => plain.elements.extend(negatives(value, n)?),
            k if let Some(entry) = crate::elements::by_fpuzzles_key(k) => {
                let read = (entry.from_fpuzzles)(k, value, n).map_err(|m| {
                    Fault::key(top(k), format!("f-puzzles `{k}` ({}): {m}", entry.name))
                })?;
                plain.elements.extend(read);
            }
            _ => {
                let count = value.as_array().map_or(1, Vec::len);
                let what = if key == "cage" {
                    " with a clue in its value".to_string()
                } else {
                    String::new()
                };
                let instances = if value.is_boolean() {
                    String::new()
                } else {
                    format!(" ({count} instance{})", if count == 1 { "" } else { "s" })
                };
                return Err(Fault::key(
                    top(key),
                    format!("f-puzzles key `{key}`{what}{instances}: not yet supported"),
                ));
            }
        }
    }
    plain
        .elements
        .extend(super::drawn_meanings("f-puzzles", &p.drawn, opts, n)?);
    Ok(plain)
}

/// f-puzzles' `negative`: a list of marker keys (`"ratio"`, `"xv"`, …)
/// whose every unmarked pair breaks the marker's relation. Each entry goes
/// to the element that claims the marker's key, which reads the entries it
/// is given under the key `negative`.
fn negatives(value: &Value, n: usize) -> Result<Vec<crate::elements::Element>, Fault> {
    let mut groups: Vec<(&'static crate::elements::Entry, Vec<Value>)> = Vec::new();
    for (i, item) in list(value, "negative")?.iter().enumerate() {
        let at = || top("negative").index(i);
        let key = item.as_str().ok_or_else(|| {
            Fault::value(
                at(),
                format!(
                    "f-puzzles `negative` holds {}, not a marker's key such as \"ratio\"",
                    type_of(item)
                ),
            )
        })?;
        let Some(entry) = crate::elements::by_fpuzzles_key(key) else {
            return Err(Fault::value(
                at(),
                format!(
                    "f-puzzles `negative` entry `{}`: not yet supported",
                    super::short_key(key)
                ),
            ));
        };
        match groups.iter_mut().find(|(e, _)| std::ptr::eq(*e, entry)) {
            Some((_, items)) => items.push(item.clone()),
            None => groups.push((entry, vec![item.clone()])),
        }
    }
    let mut out = Vec::new();
    for (entry, items) in groups {
        let read = (entry.from_fpuzzles)("negative", &Value::Array(items), n).map_err(|m| {
            Fault::key(
                top("negative"),
                format!("f-puzzles `negative` ({}): {m}", entry.name),
            )
        })?;
        out.extend(read);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Writing: today's Puzzle as f-puzzles JSON.
// ---------------------------------------------------------------------------

/// Whether f-puzzles holds puzzles of `kind` on a grid of `rows` by
/// `cols`: sudoku, killer and jigsaw, square, from 4×4 to 16×16; else why
/// not.
pub fn holds(kind: Kind, rows: usize, cols: usize) -> Result<(), String> {
    if !matches!(kind, Kind::Sudoku | Kind::Killer | Kind::Jigsaw) {
        return Err(format!(
            "a {} puzzle has no f-puzzles form: f-puzzles holds sudoku, killer and jigsaw here",
            kind.name()
        ));
    }
    if !SIZES.contains(&rows) || cols != rows {
        return Err(format!(
            "the grid is {rows}×{cols}, but f-puzzles holds {}×{} to {}×{}",
            SIZES.start(),
            SIZES.start(),
            SIZES.end(),
            SIZES.end()
        ));
    }
    Ok(())
}

/// The f-puzzles JSON of a sudoku, killer (sum clues, no repeats) or
/// jigsaw from 4×4 to 16×16, with or without both diagonals.
pub fn from_puzzle(p: &Puzzle) -> Result<Value, String> {
    let n = p.rows;
    holds(p.kind, p.rows, p.cols)?;
    if p.kind == Kind::Killer && !p.distinct_cages() {
        return Err("f-puzzles killer cages never repeat a digit, but this killer's may".into());
    }
    let mut region = vec![vec![None; n]; n];
    match p.box_shape() {
        Some(shape) if shape != default_box(n) => region = box_labels(n, shape),
        Some(_) => {}
        None => {
            for (k, cells) in p.regions().iter().enumerate() {
                for &(r, c) in cells {
                    region[r][c] = Some(k as i64);
                }
            }
        }
    }
    let grid: Vec<Value> = (0..n)
        .map(|r| {
            Value::Array(
                (0..n)
                    .map(|c| {
                        let mut cell = Map::new();
                        if let Some(v) = p.givens[r][c] {
                            cell.insert("value".into(), json!(v));
                            cell.insert("given".into(), json!(true));
                        }
                        if let Some(k) = region[r][c] {
                            cell.insert("region".into(), json!(k));
                        }
                        Value::Object(cell)
                    })
                    .collect(),
            )
        })
        .collect();
    let mut top = Map::new();
    top.insert("size".into(), json!(n));
    for (key, text) in [
        ("title", &p.title),
        ("author", &p.about.author),
        ("ruleset", &p.about.rules),
    ] {
        if let Some(t) = text {
            top.insert(key.into(), json!(t));
        }
    }
    top.insert("grid".into(), Value::Array(grid));
    if p.diagonals() {
        top.insert("diagonal+".into(), json!(true));
        top.insert("diagonal-".into(), json!(true));
    }
    if !p.cages().is_empty() {
        let mut cages = Vec::new();
        for cage in p.cages() {
            let Clue::Sum(s) = cage.clue else {
                return Err(format!(
                    "cage '{}' has the clue {}, but an f-puzzles killer cage holds a sum",
                    cage.label, cage.clue_text
                ));
            };
            let cells: Vec<String> = cage
                .cells
                .iter()
                .map(|&(r, c)| format!("R{}C{}", r + 1, c + 1))
                .collect();
            cages.push(json!({"cells": cells, "value": s.to_string()}));
        }
        top.insert("killercage".into(), Value::Array(cages));
    }
    // Every other element writes itself under its own keys.
    for entry in crate::elements::REGISTRY {
        (entry.to_fpuzzles)(&p.elements, &mut top)
            .map_err(|m| format!("{m}: f-puzzles cannot hold this puzzle"))?;
    }
    if let Some(sol) = &p.solution {
        let ds: Vec<Value> = sol
            .iter()
            .flatten()
            .map(|v| json!(v.unwrap_or(0)))
            .collect();
        top.insert("solution".into(), Value::Array(ds));
    }
    Ok(Value::Object(top))
}
