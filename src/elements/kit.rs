//! What element modules share: the model being lowered ([`Lowering`]),
//! reading their TOML keys with located errors ([`TomlReader`]), writing
//! them ([`TomlWriter`]), and cell lists such as `"r1c1 r1c2 r1c3"`.

use std::marker::PhantomData;

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use toml::Spanned;

use super::grid_text::TextOrigin;
use super::{Element, Member};
use crate::error::{InputError, Location};
use crate::model::{CellId, Constraint, Group, Model, Rule, Statement, What, rc};
use crate::puzzle::{Grid, Kind};

/// A model being built from a puzzle's elements, keeping each statement's
/// constraints when `explain` asks for them.
pub struct Lowering<'a> {
    /// The model so far: every cell, then the constraints of the elements
    /// lowered before.
    pub m: Model,
    /// The statements so far, if kept.
    pub(crate) statements: Option<Vec<Statement>>,
    /// Every element of the puzzle (a negative constraint reads the
    /// markers of its element).
    pub elements: &'a [Element],
    /// What the elements' rules imply ([`Lowering::imply`]), in
    /// [`Group::Derived`]: [`crate::lower::lower`] states them after the
    /// puzzle's rules; a model with statements (`explain`) and the
    /// checker go without them.
    pub(crate) implied: Vec<Constraint>,
}

/// What a statement is, before its constraints are known.
#[derive(Debug, Default)]
pub struct Says {
    /// Its label (a cage's letter, a diagonal's name, an edge's side).
    pub label: Option<String>,
    /// Its number from 1 (row, column, box, region, thermometer).
    pub index: Option<usize>,
    /// Its clue as written.
    pub clue: Option<String>,
    /// A given's value.
    pub value: Option<i64>,
}

impl<'a> Lowering<'a> {
    /// An empty model for a `rows`×`cols` grid of `elements`.
    pub(crate) fn new(model: Model, elements: &'a [Element], statements: bool) -> Lowering<'a> {
        Lowering {
            m: model,
            statements: statements.then(Vec::new),
            elements,
            implied: Vec::new(),
        }
    }

    /// Starts a statement: the constraints pushed from now on belong to
    /// it. Its name and what it says are made only if statements are kept
    /// (solving lowers whole files of puzzles without them).
    pub fn begin(
        &mut self,
        what: What,
        name: impl FnOnce() -> String,
        says: impl FnOnce() -> Says,
    ) {
        let Some(statements) = &mut self.statements else {
            return;
        };
        let says = says();
        statements.push(Statement {
            what,
            label: says.label,
            index: says.index,
            clue: says.clue,
            value: says.value,
            cells: Vec::new(),
            constraints: Vec::new(),
            name: name(),
        });
    }

    /// Adds a rule to the model, in the statement begun last.
    pub fn push(&mut self, group: Group, origin: String, rule: Rule) {
        if let Some(st) = self.statements.as_mut().and_then(|s| s.last_mut()) {
            st.constraints.push(self.m.constraints.len());
            for &id in rule.cells() {
                let c = &self.m.cells[id];
                if !st.cells.contains(&(c.row, c.col)) {
                    st.cells.push((c.row, c.col));
                }
            }
        }
        self.m.constraints.push(Constraint {
            rule,
            origin,
            group,
        });
    }

    /// Adds that the cell at 0-based (`row`, `col`) holds one of `values`,
    /// as a one-cell table (an odd or even cell, a cell's candidates).
    pub fn push_one_of(
        &mut self,
        group: Group,
        origin: String,
        (row, col): (usize, usize),
        values: impl IntoIterator<Item = i64>,
    ) {
        let cell = self.cell(row, col);
        let tuples = values.into_iter().map(|v| vec![v]).collect();
        self.push(
            group,
            origin,
            Rule::Table {
                cells: vec![cell],
                tuples,
            },
        );
    }

    /// Adds a rule the element's own rules imply, for the solver to see at
    /// once: in no statement, and not a rule answers are checked by.
    pub fn imply(&mut self, origin: String, rule: Rule) {
        self.implied.push(Constraint {
            rule,
            origin,
            group: Group::Derived,
        });
    }

    /// The cell at 0-based (`row`, `col`). Parsing checked every cell an
    /// element names, so a square without a cell is a bug of the element.
    pub fn cell(&self, row: usize, col: usize) -> CellId {
        super::cell_id(&self.m, row, col).unwrap_or_else(|| {
            panic!(
                "no cell at {}: the parser lets no element name it",
                rc(row, col)
            )
        })
    }

    /// The cell at 0-based (`row`, `col`), if that square holds one.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<CellId> {
        super::cell_id(&self.m, row, col)
    }

    /// The grid's side (rows) of a square grid.
    pub fn n(&self) -> usize {
        self.m.rows
    }

    /// Every instance of element `T` in the puzzle.
    pub fn all<T: Member>(&self) -> impl Iterator<Item = &'a T> + 'a {
        self.elements.iter().filter_map(T::of)
    }
}

/// A line of cells as statements name it, `r1c1→r1c2→r1c4`
/// (`thermometer 3 (r1c1→r1c2→r1c4)`).
pub fn path(cells: &[(usize, usize)]) -> String {
    join_cells(cells, "→")
}

/// `word` after its indefinite article, for messages that name an element
/// ("an arrow", "a thermometer", "an x-sum"): `an` before a vowel, and
/// before `x-`, said "ex".
pub fn a(word: &str) -> String {
    let vowel = word.starts_with(['a', 'e', 'i', 'o', 'u']) || word.starts_with("x-");
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// A cell list as the TOML convention writes it: `r1c1 r1c2 r1c3`.
pub fn cell_list(cells: &[(usize, usize)]) -> String {
    join_cells(cells, " ")
}

fn join_cells(cells: &[(usize, usize)], sep: &str) -> String {
    let names: Vec<String> = cells.iter().map(|&(r, c)| rc(r, c)).collect();
    names.join(sep)
}

/// The first of `cells` that comes again later, if any: a set, so that a
/// long list costs no more than its length.
pub fn first_repeat(cells: impl IntoIterator<Item = (usize, usize)>) -> Option<(usize, usize)> {
    let mut seen = std::collections::HashSet::new();
    cells.into_iter().find(|&c| !seen.insert(c))
}

/// Whether two cells are orthogonal neighbours.
pub fn adjacent(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1
}

/// The two cells of a marker on a border (a kropki dot, an XV letter),
/// which must share a side; the message names the `marker`.
pub fn neighbours(cells: &[(usize, usize)], marker: &str) -> Result<[(usize, usize); 2], String> {
    let [a, b] = cells[..] else {
        return Err(format!(
            "a {marker} joins two cells, not {}: write cells = \"r1c1 r1c2\"",
            cells.len()
        ));
    };
    if !adjacent(a, b) {
        return Err(format!(
            "{} and {} are not neighbours: a {marker} sits between two cells that share a side",
            rc(a.0, a.1),
            rc(b.0, b.1)
        ));
    }
    Ok([a, b])
}

/// Two cells, 0-based (row, column): a border marker's neighbours.
pub type Pair = [(usize, usize); 2];

/// Every pair of orthogonal neighbours, both holding cells, that is not
/// one of `marked` (in either order): what a negative constraint ("all
/// dots are given") speaks of, with the pair's cell ids.
pub fn unmarked_pairs(l: &Lowering, marked: &[Pair]) -> Vec<(Pair, [CellId; 2])> {
    let (rows, cols) = (l.m.rows, l.m.cols);
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let p = (r, c);
            for q in [(r, c + 1), (r + 1, c)] {
                if q.0 >= rows || q.1 >= cols || marked.iter().any(|m| *m == [p, q] || *m == [q, p])
                {
                    continue;
                }
                if let (Some(x), Some(y)) = (l.cell_at(p.0, p.1), l.cell_at(q.0, q.1)) {
                    out.push(([p, q], [x, y]));
                }
            }
        }
    }
    out
}

/// An ISS argument as a message names it: quoted and cut short, or said
/// to be empty (`~~`, a trailing `~`), which quotes would hide.
pub fn iss_arg(arg: &str) -> String {
    if arg.is_empty() {
        "an empty argument (a `~` too many)".into()
    } else {
        format!("`{}`", crate::import::short_key(arg))
    }
}

/// Refuses any argument to an ISS rule that takes none (`.AntiKnight`,
/// `.StrictKropki`, `.Windoku`, `.NoBoxes`). ISS passes over them, so an
/// argument there is a slip in the string (a cell meant for another
/// constraint, a rule of another type), which the user is told of rather
/// than the string read as if it held no such thing.
pub fn iss_flag(name: &str, args: &[&str]) -> Result<(), super::HookError> {
    match args.first() {
        None => Ok(()),
        Some(first) => Err(format!(
            "`.{name}` takes no argument, got {}: write `.{name}` alone",
            iss_arg(first)
        )),
    }
}

/// An ISS border marker `.NAME~R1C1~R1C2~R1C3` as ISS reads it: its
/// cells are a set, and every two of them that share a side are marked
/// (a `marker` between them), whether or not they come one after the
/// other in the list; each cell must touch another of the set, as ISS
/// requires. Each pair comes once, the cell listed first first (ISS's
/// greater-than reads "each cell greater than its later neighbours").
pub fn iss_pairs(
    name: &str,
    args: &[&str],
    size: usize,
    marker: &str,
) -> Result<Vec<[(usize, usize); 2]>, super::HookError> {
    // Without cells the marker would mark nothing, and be lost unsaid.
    if args.is_empty() {
        return Err(format!(
            "{name}: no cells: write the cells a {marker} sits between, .{name}~R1C1~R1C2"
        ));
    }
    let cells = args
        .iter()
        .map(|a| hook_cell(a, size))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(&(r, c)) = cells
        .iter()
        .find(|&&a| !cells.iter().any(|&b| adjacent(a, b)))
    {
        return Err(format!(
            "{name}: {} shares a side with none of its other cells: a {marker} sits between \
             two cells that share a side",
            rc(r, c)
        ));
    }
    let mut pairs = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        if cells[..i].contains(&a) {
            continue;
        }
        for &b in &cells[i + 1..] {
            if adjacent(a, b) && !cells[..i].contains(&b) && !pairs.contains(&[a, b]) {
                pairs.push([a, b]);
            }
        }
    }
    Ok(pairs)
}

/// The two cells of an f-puzzles border marker `{"cells": ["R1C1",
/// "R1C2"], …}` of `key`; `want` says the item's shape.
pub fn fpuzzles_pair(
    key: &str,
    item: &serde_json::Value,
    size: usize,
    marker: &str,
    want: &str,
) -> Result<[(usize, usize); 2], super::HookError> {
    let cells = item
        .get("cells")
        .and_then(|c| c.as_array())
        .ok_or_else(|| format!("{key}: expected a list of {want}"))?
        .iter()
        .map(|c| hook_cell(c.as_str().unwrap_or(""), size))
        .collect::<Result<Vec<_>, _>>()?;
    neighbours(&cells, marker).map_err(|m| format!("{key}: {m}"))
}

/// The cells of an f-puzzles cell list `["R1C1", "R1C2", …]` inside a
/// `size`×`size` grid; `bad` says what `key` expects, for a value that is
/// not a list.
pub fn fpuzzles_cells(
    v: &serde_json::Value,
    size: usize,
    bad: &dyn Fn() -> String,
) -> Result<Vec<(usize, usize)>, super::HookError> {
    v.as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|c| hook_cell(c.as_str().unwrap_or(""), size))
        .collect()
}

/// One f-puzzles line item (`{"lines": [[…]], …}`) and the cells of
/// each of its lines.
pub type LineItem<'v> = (&'v serde_json::Value, Vec<Vec<(usize, usize)>>);

/// An f-puzzles list of line items `[{"lines": [["R1C1", …], …], …}, …]`
/// of `key` (thermometers, whispers, arrows, …) inside a `size`×`size`
/// grid: each item with the cells of each of its lines, in order, so the
/// caller can read the item's other fields (`"value"`, an arrow's
/// `"cells"`).
pub fn fpuzzles_lines<'v>(
    key: &str,
    value: &'v serde_json::Value,
    size: usize,
) -> Result<Vec<LineItem<'v>>, super::HookError> {
    let bad = || format!("{key}: expected a list of {{\"lines\": [[\"R1C1\", …]]}}");
    value
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|item| {
            let lines = item
                .get("lines")
                .and_then(|l| l.as_array())
                .ok_or_else(bad)?
                .iter()
                .map(|line| fpuzzles_cells(line, size, &bad))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((item, lines))
        })
        .collect()
}

/// A cell as f-puzzles names it: `R1C1` for 0-based (0, 0).
pub fn fpuzzles_cell((r, c): (usize, usize)) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// Appends `item` to the f-puzzles list under `key` at the top level of
/// its JSON, starting the list if there is none.
pub fn fpuzzles_push(
    top: &mut serde_json::Map<String, serde_json::Value>,
    key: &str,
    item: serde_json::Value,
) {
    let list = top
        .entry(key)
        .or_insert_with(|| serde_json::Value::Array(Vec::new()));
    if let Some(l) = list.as_array_mut() {
        l.push(item);
    }
}

/// Reads element keys from a puzzle file whose grid is known: each value
/// is deserialized from the document itself, so [`Spanned`] fields keep
/// their place in the file for messages.
pub struct TomlReader<'a> {
    /// The file's text.
    pub text: &'a str,
    /// The file.
    pub file: &'a Location,
    /// Where the file's lines start, for locating offsets.
    pub lines: &'a crate::error::Lines<'a>,
    /// The puzzle's kind.
    pub kind: Kind,
    /// Grid rows.
    pub rows: usize,
    /// Grid columns.
    pub cols: usize,
    /// The elements the puzzle has so far (its kind's, then those read
    /// before), for checks that need them.
    pub elements: &'a [Element],
    /// The given digits (all blank for kakuro), for checks against them.
    pub givens: &'a Grid,
    /// Where each top-level key starts, for messages about a whole value.
    pub(crate) key_at: &'a dyn Fn(&str) -> Option<usize>,
    /// Those of `elements` with clue squares, found once: each cell of
    /// every list is checked against them.
    pub(crate) clue_squares: std::cell::OnceCell<Vec<&'a Element>>,
}

/// Picks the value of one top-level key out of a TOML document.
struct Pick<'k, T> {
    key: &'k str,
    want: PhantomData<T>,
}

impl<'de, T: serde::Deserialize<'de>> DeserializeSeed<'de> for Pick<'_, T> {
    type Value = Option<T>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for Pick<'_, T> {
    type Value = Option<T>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a puzzle file")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Option<T>, A::Error> {
        let mut found = None;
        while let Some(k) = m.next_key::<String>()? {
            if k == self.key {
                found = Some(m.next_value::<T>()?);
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

impl<'a> TomlReader<'a> {
    /// The location of byte `offset` of the file.
    pub fn loc(&self, offset: usize) -> Location {
        let (l, c) = self.lines.line_col(offset);
        self.file.at(l, c)
    }

    /// An error at the start of `key`'s line.
    pub fn error_at_key(&self, key: &str, message: impl Into<String>) -> InputError {
        let loc = (self.key_at)(key).map_or_else(|| self.file.clone(), |at| self.loc(at));
        InputError::new(loc, message)
    }

    /// An error at a value.
    pub fn error_at<T>(&self, at: &Spanned<T>, message: impl Into<String>) -> InputError {
        InputError::new(self.loc(at.span().start), message)
    }

    /// The value of `key` as a `T` (which may hold [`Spanned`] fields);
    /// a value of the wrong shape is an error naming `key`, the place
    /// and `want` (what to write).
    pub fn value<T: DeserializeOwned>(&self, key: &str, want: &str) -> Result<T, InputError> {
        self.pick(key, want)?
            .ok_or_else(|| self.error_at_key(key, format!("{key}: no value; write {want}")))
    }

    /// The value of `key` as a `T`, if the file holds the key.
    fn pick<T: DeserializeOwned>(&self, key: &str, want: &str) -> Result<Option<T>, InputError> {
        let pick = Pick::<T> {
            key,
            want: PhantomData,
        };
        pick.deserialize(toml::Deserializer::new(self.text))
            .map_err(|e| {
                let loc = e.span().map_or_else(
                    || self.error_at_key(key, "").location,
                    |s| self.loc(s.start),
                );
                let msg = e.message().lines().next().unwrap_or("").trim().to_string();
                InputError::new(loc, format!("{key}: {msg}; write {want}"))
            })
    }

    /// The value of `key` as a `T`, or `None` where the file has no such
    /// key; a value of the wrong shape is an error as for
    /// [`TomlReader::value`].
    pub fn value_if_any<T: DeserializeOwned>(
        &self,
        key: &str,
        want: &str,
    ) -> Result<Option<T>, InputError> {
        // A line that only looks like the key (inside a multi-line string)
        // is no key: the TOML says.
        if (self.key_at)(key).is_none() {
            return Ok(None);
        }
        self.pick(key, want)
    }

    /// The string of a grid key its kind cannot do without (a futoshiki's
    /// `grid`); where the file has none, an error at the file saying
    /// `missing`.
    pub fn grid_string(&self, key: &str, missing: &str) -> Result<Spanned<String>, InputError> {
        let want = format!("{key} = \"\"\"...\"\"\"");
        self.value_if_any(key, &want)?
            .ok_or_else(|| InputError::new(self.file.clone(), missing))
    }

    /// Where the text of a string value starts, for a grid written in it.
    pub(crate) fn origin(&self, s: &Spanned<String>) -> TextOrigin {
        TextOrigin::toml_string(self.file, self.text, s.span().start)
    }

    /// The cells of a cell list `"r1c1 r1c2 …"` (case does not matter),
    /// 0-based, each checked to lie in the grid and to hold a cell.
    pub fn cells(&self, s: &Spanned<String>) -> Result<Vec<(usize, usize)>, InputError> {
        Ok(self
            .cells_at(s)?
            .into_iter()
            .map(|(cell, _)| cell)
            .collect())
    }

    /// [`TomlReader::cells`], each cell with the byte offset of its name
    /// in the file ([`TomlReader::loc`] makes it a place), for a message
    /// about one of them.
    pub fn cells_at(&self, s: &Spanned<String>) -> Result<Vec<Located>, InputError> {
        // The string's text starts after its opening quote(s); cell lists
        // hold no escapes, so offsets within it are offsets in the file.
        let start = s.span().start;
        let quote = self.text[start..]
            .chars()
            .take_while(|&c| c == '"' || c == '\'')
            .count()
            .min(3);
        let body = start + quote;
        let mut out = Vec::new();
        let text = s.get_ref();
        let mut offset = 0;
        for token in text.split_whitespace() {
            let at = offset + text[offset..].find(token).unwrap_or(0);
            offset = at + token.len();
            // Located only for a message: a file's every cell need not be.
            let loc = || self.loc(body + at);
            let cell = parse_rc(token).ok_or_else(|| {
                InputError::new(
                    loc(),
                    format!("`{token}` is not a cell: write cells as r1c1 r1c2 …, row then column from 1"),
                )
            })?;
            if cell.0 >= self.rows || cell.1 >= self.cols {
                return Err(InputError::new(
                    loc(),
                    format!(
                        "{token} is outside the {}×{} grid: rows and columns run from 1 to {}",
                        self.rows,
                        self.cols,
                        self.rows.max(self.cols)
                    ),
                ));
            }
            let clue_squares = self.clue_squares.get_or_init(|| {
                self.elements
                    .iter()
                    .filter(|e| e.has_clue_squares())
                    .collect()
            });
            if clue_squares.iter().any(|e| !e.holds_cell(cell.0, cell.1)) {
                return Err(InputError::new(
                    loc(),
                    format!("{token} is a clue square, not a cell to fill"),
                ));
            }
            out.push((cell, body + at));
        }
        if out.is_empty() {
            return Err(self.error_at(s, "the cell list is empty: write cells as \"r1c1 r1c2 …\""));
        }
        Ok(out)
    }
}

/// Reads a rule over the whole grid written `key = true` (anti-knight):
/// one instance when true, none when false.
pub fn read_flag<T>(key: &str, r: &TomlReader, rule: T) -> Result<Vec<T>, InputError> {
    let on: bool = r.value(key, &format!("{key} = true"))?;
    Ok(on.then_some(rule).into_iter().collect())
}

/// Reads an f-puzzles boolean key (`"antiknight": true`): one instance
/// when true, none when false.
pub fn fpuzzles_flag<T>(
    key: &str,
    value: &serde_json::Value,
    rule: T,
) -> Result<Vec<T>, super::HookError> {
    let on = value
        .as_bool()
        .ok_or_else(|| format!("{key}: expected true or false"))?;
    Ok(on.then_some(rule).into_iter().collect())
}

/// `r3c4` (or `R3C4`) as 0-based (row, column).
pub fn parse_rc(token: &str) -> Option<(usize, usize)> {
    let t = token.to_ascii_lowercase();
    let rest = t.strip_prefix('r')?;
    let (r, c) = rest.split_once('c')?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    (r >= 1 && c >= 1).then(|| (r - 1, c - 1))
}

/// A cell as ISS names it: `R` and `C` each followed by one character,
/// the row or column in base 17 (`1`–`9`, then `a`–`g` for 10 to 16, any
/// case: ISS's `makeCellId`), as 0-based (row, column). `R1C1` reads the
/// same as in f-puzzles; `R1Ca` is row 1, column 10.
pub fn iss_cell(token: &str) -> Option<(usize, usize)> {
    let b = token.as_bytes();
    let digit = |c: u8| {
        let d = char::from(c).to_digit(17)?;
        (d >= 1).then(|| d as usize - 1)
    };
    match b {
        [r, row, c, col] if r.eq_ignore_ascii_case(&b'R') && c.eq_ignore_ascii_case(&b'C') => {
            Some((digit(*row)?, digit(*col)?))
        }
        _ => None,
    }
}

/// An f-puzzles or ISS cell `R3C4` (or ISS's `R1Ca`, [`iss_cell`]) as
/// 0-based (row, column) inside a `size`×`size` grid; the message names
/// the cell.
pub fn hook_cell(token: &str, size: usize) -> Result<(usize, usize), super::HookError> {
    match parse_rc(token).or_else(|| iss_cell(token)) {
        Some((r, c)) if r < size && c < size => Ok((r, c)),
        Some(_) => Err(format!("{token} is outside the {size}×{size} grid")),
        None if token.is_empty() => Err(
            "an empty cell name where a cell such as R1C1 goes: name the cell, or leave the \
             empty one out"
                .into(),
        ),
        None => Err(format!(
            "`{}` is not a cell such as R1C1",
            crate::import::short_key(token)
        )),
    }
}

/// A puzzle's TOML being written: top-level `key = value` lines come
/// before every `[table]`, since a key after a table header belongs to
/// that table. It knows the puzzle's grid, for the elements whose text
/// spans it (a cages grid) or holds the givens (a futoshiki grid).
#[derive(Debug)]
pub struct TomlWriter {
    keys: String,
    tables: String,
    kind: Kind,
    rows: usize,
    cols: usize,
    givens: Grid,
}

impl TomlWriter {
    /// A writer for a puzzle of `kind` with `givens` (`rows`×`cols`).
    pub fn new(kind: Kind, rows: usize, cols: usize, givens: &Grid) -> Self {
        TomlWriter {
            keys: String::new(),
            tables: String::new(),
            kind,
            rows,
            cols,
            givens: givens.clone(),
        }
    }

    /// The puzzle's kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The grid's rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The puzzle's givens.
    pub fn givens(&self) -> &Grid {
        &self.givens
    }

    /// Adds a top-level `key = value` line (or block), `\n`-terminated.
    pub fn key(&mut self, text: &str) {
        self.keys.push_str(text);
    }

    /// Adds a table or array of tables (`[clues]`, `[[thermometer]]`),
    /// its header first, `\n`-terminated.
    pub fn table(&mut self, text: &str) {
        self.tables.push('\n');
        self.tables.push_str(text);
    }

    /// Adds one `[[key]]` table of an array of tables whose first field
    /// is `cells = "r1c1 r1c2 …"`, then each of `fields` as `name = value`
    /// (the value already TOML: `4`, `"black"`).
    pub fn cells_table(&mut self, key: &str, cells: &[(usize, usize)], fields: &[(&str, String)]) {
        let mut t = format!("[[{key}]]\ncells = {}\n", quoted(&cell_list(cells)));
        for (name, value) in fields {
            t.push_str(&format!("{name} = {value}\n"));
        }
        self.table(&t);
    }

    /// Adds a multi-line TOML string `key = """…"""` holding `body`
    /// (`\n`-terminated lines).
    pub fn block(&mut self, key: &str, body: &str) {
        self.key(&format!("{key} = \"\"\"\n{body}\"\"\"\n"));
    }

    /// The file's text: keys, then tables.
    pub fn finish(self) -> String {
        self.keys + &self.tables
    }
}

/// A grid of labels, one row per line, padded so columns line up; `None`
/// is `.`.
pub fn label_rows(labels: &[Vec<Option<String>>]) -> String {
    let width = labels
        .iter()
        .flatten()
        .flatten()
        .map(String::len)
        .max()
        .unwrap_or(1);
    labels
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|l| format!("{:<width$}", l.as_deref().unwrap_or(".")))
                .collect();
            format!("{}\n", cells.join(" ").trim_end())
        })
        .collect()
}

/// A TOML basic string holding `s`, quotes and escapes included.
pub fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Lowers a chess-move rule (anti-knight, anti-king): every two cells
/// whose row and column distances are one of `steps` (either way round)
/// hold different values, one statement per cell with the cells after it.
pub fn chess(l: &mut Lowering, name: &'static str, steps: &[(usize, usize)]) {
    let (rows, cols) = (l.m.rows, l.m.cols);
    for r in 0..rows {
        for c in 0..cols {
            let Some(a) = l.cell_at(r, c) else { continue };
            // Each pair once: the other cell later in row-major order.
            let mut later: Vec<(usize, usize)> = Vec::new();
            for &(dr, dc) in steps {
                for (dr, dc) in [(dr, dc), (dc, dr)] {
                    for q in [(r + dr, c + dc), (r + dr, c.wrapping_sub(dc))] {
                        if q.0 < rows && q.1 < cols && (q.0, q.1) > (r, c) && !later.contains(&q) {
                            later.push(q);
                        }
                    }
                }
            }
            later.sort_unstable();
            let others: Vec<_> = later
                .into_iter()
                .filter_map(|q| l.cell_at(q.0, q.1).map(|id| (q, id)))
                .collect();
            if others.is_empty() {
                continue;
            }
            let statement = format!("{name} from {}", rc(r, c));
            l.begin(
                What::Element(name),
                || statement.clone(),
                || Says {
                    label: Some(rc(r, c)),
                    ..Says::default()
                },
            );
            for (q, b) in others {
                l.push(
                    Group::Element(name),
                    format!("{name} {}|{}", rc(r, c), rc(q.0, q.1)),
                    Rule::AllDifferent { cells: vec![a, b] },
                );
            }
        }
    }
}

/// One `[[key]]` table of cell marks (odd, minimum, an indexer): the
/// cells listed, each one mark.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkTable {
    cells: Spanned<String>,
}

/// A cell, 0-based, with the byte offset in the file of where it is
/// named.
pub type Located = ((usize, usize), usize);

/// What [`read_marks`] asks for.
fn marks_want(key: &str) -> String {
    format!("[[{key}]] tables, each with cells = \"r1c1 r2c2 …\" (each cell one mark)")
}

/// Reads `[[key]] cells = "r1c1 r3c3"` tables whose every listed cell is
/// one mark (an odd cell, a minimum, an indexer cell): the cells in file
/// order, each with where it is named, a cell listed twice refused where
/// it is named the second time.
pub fn read_marks(key: &str, r: &TomlReader) -> Result<Vec<Located>, InputError> {
    marks_of(key, r.value(key, &marks_want(key))?, r)
}

/// [`read_marks`] of a key the file may not hold (none then).
pub fn read_marks_if_any(key: &str, r: &TomlReader) -> Result<Vec<Located>, InputError> {
    match r.value_if_any(key, &marks_want(key))? {
        Some(tables) => marks_of(key, tables, r),
        None => Ok(Vec::new()),
    }
}

fn marks_of(key: &str, tables: Vec<MarkTable>, r: &TomlReader) -> Result<Vec<Located>, InputError> {
    let mut out = Vec::new();
    // Against the tables before too: the key's marks are written back as
    // one table ([`write_marks`]).
    let mut seen = std::collections::HashSet::new();
    for t in tables {
        let cells = r.cells_at(&t.cells)?;
        if let Some(&(c, at)) = cells.iter().find(|&&(c, _)| !seen.insert(c)) {
            return Err(InputError::new(r.loc(at), marked_twice(key, c)));
        }
        out.extend(cells);
    }
    Ok(out)
}

/// Why the marks under `key` (its cells, in order) cannot be: a cell
/// marked twice.
pub fn marks_once(key: &str, cells: &[(usize, usize)]) -> Result<(), String> {
    first_repeat(cells.iter().copied()).map_or(Ok(()), |c| Err(marked_twice(key, c)))
}

fn marked_twice(key: &str, (r, c): (usize, usize)) -> String {
    format!("{key}: {} is listed twice: list each cell once", rc(r, c))
}

/// Writes cell marks as [`read_marks`] reads them: for each key, in the
/// order it first comes in `marks`, one table listing its cells.
pub fn write_marks(marks: &[(&str, (usize, usize))], w: &mut TomlWriter) {
    let mut keys: Vec<&str> = Vec::new();
    for &(k, _) in marks {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for k in keys {
        let cells: Vec<(usize, usize)> = marks.iter().filter(|m| m.0 == k).map(|m| m.1).collect();
        w.table(&format!(
            "[[{k}]]\ncells = {}\n",
            quoted(&cell_list(&cells))
        ));
    }
}

/// The cells of an f-puzzles list of cell marks: `[{"cell": "R1C1"}, …]`
/// (odd, minimum) or `[{"cells": ["R1C1", …]}, …]` (indexers).
pub fn fpuzzles_marks(
    key: &str,
    value: &serde_json::Value,
    size: usize,
) -> Result<Vec<(usize, usize)>, super::HookError> {
    let want = || {
        format!("{key}: expected a list of {{\"cell\": \"R1C1\"}} or {{\"cells\": [\"R1C1\", …]}}")
    };
    let mut out = Vec::new();
    for item in value.as_array().ok_or_else(want)? {
        if let Some(one) = item.get("cell") {
            out.push(hook_cell(one.as_str().unwrap_or(""), size)?);
        } else {
            out.extend(fpuzzles_item_cells(item, "cells", size, want)?);
        }
    }
    Ok(out)
}

/// An f-puzzles list entry and its cells, 0-based.
pub type CellItem<'v> = (&'v serde_json::Value, Vec<(usize, usize)>);

/// The entries of an f-puzzles list `[{"cells": ["R1C1", …], …}, …]`
/// under `key`, each with its cells read (0-based, inside a
/// `size`×`size` grid); `want` says an entry's shape, for messages.
pub fn fpuzzles_cell_items<'v>(
    key: &str,
    value: &'v serde_json::Value,
    size: usize,
    want: &str,
) -> Result<Vec<CellItem<'v>>, super::HookError> {
    let bad = || format!("{key}: expected a list of {want}");
    let mut out = Vec::new();
    for item in value.as_array().ok_or_else(bad)? {
        let cells = item
            .get("cells")
            .and_then(|c| c.as_array())
            .ok_or_else(bad)?
            .iter()
            .map(|c| hook_cell(c.as_str().unwrap_or(""), size))
            .collect::<Result<Vec<_>, _>>()?;
        out.push((item, cells));
    }
    Ok(out)
}

/// The cells listed under `field` of an f-puzzles item
/// (`{"cells": ["R1C1", …]}`); `want` says the item's shape.
pub fn fpuzzles_item_cells(
    item: &serde_json::Value,
    field: &str,
    size: usize,
    want: impl Fn() -> String,
) -> Result<Vec<(usize, usize)>, super::HookError> {
    fpuzzles_cells(
        item.get(field).unwrap_or(&serde_json::Value::Null),
        size,
        &want,
    )
}

/// Cells as f-puzzles names them: `R1C1`, from 1.
pub fn fpuzzles_names(cells: &[(usize, usize)]) -> Vec<String> {
    cells.iter().map(|&c| fpuzzles_cell(c)).collect()
}

/// The first cell (in row-major order) not orthogonally connected to the
/// first cell, if any.
pub fn first_unreached(cells: &[(usize, usize)]) -> Option<(usize, usize)> {
    let first = *cells.first()?;
    let set: std::collections::BTreeSet<(usize, usize)> = cells.iter().copied().collect();
    let mut seen = std::collections::BTreeSet::from([first]);
    let mut stack = vec![first];
    while let Some((r, c)) = stack.pop() {
        let near = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for p in near {
            if set.contains(&p) && seen.insert(p) {
                stack.push(p);
            }
        }
    }
    cells.iter().copied().find(|p| !seen.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connectivity() {
        assert_eq!(first_unreached(&[(0, 0), (0, 1), (1, 1)]), None);
        assert_eq!(first_unreached(&[(0, 0), (1, 1)]), Some((1, 1)));
    }

    #[test]
    fn iss_names_rows_and_columns_above_nine_in_letters() {
        assert_eq!(iss_cell("R1Ca"), Some((0, 9)));
        assert_eq!(iss_cell("rgCG"), Some((15, 15)));
        assert_eq!(iss_cell("R0C1"), None);
        assert_eq!(iss_cell("RhC1"), None);
        assert_eq!(hook_cell("R1Cb", 16), Ok((0, 10)));
        assert_eq!(hook_cell("R10C1", 16), Ok((9, 0)));
        assert!(hook_cell("R1Cb", 9).is_err());
    }

    #[test]
    fn iss_pairs_mark_every_touching_pair_once() {
        // A 2×2 block listed round: the fourth border (r2c1|r1c1) closes
        // it though its cells are not listed one after the other.
        let square = ["R1C1", "R1C2", "R2C2", "R2C1"];
        assert_eq!(
            iss_pairs("BlackDot", &square, 4, "dot").expect("reads"),
            vec![
                [(0, 0), (0, 1)],
                [(0, 0), (1, 0)],
                [(0, 1), (1, 1)],
                [(1, 1), (1, 0)]
            ]
        );
        // Two pairs apart in one list, and a cell listed again adds nothing.
        let apart = ["R1C1", "R1C2", "R3C3", "R3C4", "R1C2"];
        assert_eq!(
            iss_pairs("X", &apart, 4, "letter").expect("reads"),
            vec![[(0, 0), (0, 1)], [(2, 2), (2, 3)]]
        );
        let lone = iss_pairs("V", &["R1C1", "R1C2", "R4C4"], 4, "letter").unwrap_err();
        assert!(lone.contains("r4c4 shares a side with none"), "{lone}");
    }
}
