//! The native format: one puzzle per TOML file.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{InputError, Location, did_you_mean, escape_controls};
use crate::puzzle::{Kind, Puzzle};

use super::one_of;
use crate::elements::boxes::Boxes;
use crate::elements::cages::Cages;
use crate::elements::cages::syntax as cages;
use crate::elements::givens;
use crate::elements::grid_text::{self as grid, TextOrigin, line_col, split_rows};
use crate::elements::kakuro::syntax as kakuro;
use crate::elements::{self, ElementType, TomlReader};
use crate::kinds;

/// The keys a puzzle file may hold. Strings keep their spans so that
/// messages about grid rows can name the real line of the file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Raw {
    kind: Spanned<String>,
    title: Option<String>,
    #[serde(rename = "box")]
    box_shape: Option<Spanned<String>>,
    givens: Option<Spanned<String>>,
    solution: Option<Spanned<String>>,
    cages: Option<Spanned<String>>,
    clues: Option<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    default_clue: Option<Spanned<String>>,
    distinct_cages: Option<Spanned<bool>>,
    grid: Option<Spanned<String>>,
    regions: Option<Spanned<String>>,
    /// Checked here (its type, and that the kind allows it); read by
    /// [`crate::elements::diagonals::Diagonals`].
    diagonals: Option<Spanned<bool>>,
    top: Option<Spanned<String>>,
    bottom: Option<Spanned<String>>,
    left: Option<Spanned<String>>,
    right: Option<Spanned<String>>,
    /// How a generated puzzle was made (`smtgrid generate`); not read.
    #[allow(dead_code)]
    source: Option<toml::Table>,
    /// A generated puzzle's grade; not read.
    #[allow(dead_code)]
    grade: Option<toml::Table>,
}

/// Which grid keys each kind may use, besides `kind`, `title`,
/// `solution`, a generated puzzle's `[source]` and `[grade]`, and the
/// registry's element keys.
fn allowed(kind: Kind) -> &'static [&'static str] {
    kinds::grid_keys(kind)
}

/// Every key a puzzle file may hold: `kind`, `title`, `solution`, every
/// kind's grid keys and every element's keys.
fn known_keys() -> Vec<&'static str> {
    let mut known: Vec<&str> = vec!["kind", "title", "solution", "source", "grade"];
    for k in Kind::ALL.iter().flat_map(|&k| allowed(k).iter().copied()) {
        if !known.contains(&k) {
            known.push(k);
        }
    }
    for k in elements::REGISTRY
        .iter()
        .flat_map(|e| e.keys.iter().copied())
    {
        if !known.contains(&k) {
            known.push(k);
        }
    }
    known
}

/// Where top-level key `key` is written: the start of its `key = …` line
/// or of its `[key]` / `[[key]]` header.
fn key_offset(text: &str, key: &str) -> Option<usize> {
    let mut offset = 0;
    let mut top = true;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let at = offset + (line.len() - t.len());
        offset += line.len();
        let header = t.trim_start_matches('[');
        if t.starts_with('[') {
            let name = header
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches(['"', '\'']);
            if name == key {
                return Some(at);
            }
            top = false;
            continue;
        }
        if !top {
            continue;
        }
        if let Some((k, _)) = t.split_once('=')
            && k.trim().trim_matches(['"', '\'']) == key
        {
            return Some(at);
        }
    }
    None
}

/// A located view of the source text.
struct Src<'a> {
    text: &'a str,
    file: &'a Location,
}

impl Src<'_> {
    fn loc(&self, offset: usize) -> Location {
        let (l, c) = line_col(self.text, offset);
        self.file.at(l, c)
    }
    fn origin<T>(&self, s: &Spanned<T>) -> TextOrigin {
        TextOrigin::toml_string(self.file, self.text, s.span().start)
    }
}

/// Parses a TOML puzzle file. `name` is the puzzle's name (the file stem).
pub(crate) fn parse(text: &str, file: &Location, name: &str) -> Result<Puzzle, InputError> {
    let src = Src { text, file };
    if text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return Err(InputError::new(
            file.clone(),
            "the file is empty: a puzzle file needs at least kind = \"...\" and its grid \
             (`smtgrid new sudoku` prints a starter)",
        ));
    }
    let raw: Raw = toml::from_str(text).map_err(|e| toml_error(&src, &e))?;
    let Some(kind) = Kind::from_name(raw.kind.get_ref().trim()) else {
        return Err(InputError::new(
            src.loc(raw.kind.span().start),
            format!(
                "unknown kind '{}': write kind = {}",
                raw.kind.get_ref(),
                one_of(Kind::ALL.map(|k| format!("\"{}\"", k.name())))
            ),
        ));
    };
    let table: toml::Table = text.parse().map_err(|e| toml_error(&src, &e))?;
    let known = known_keys();
    let mut keys: Vec<(usize, &str)> = table
        .keys()
        .map(|k| (key_offset(text, k).unwrap_or(0), k.as_str()))
        .collect();
    keys.sort_unstable();
    if let Some(&(at, key)) = keys.iter().find(|(_, k)| !known.contains(k)) {
        let hint = did_you_mean(key, known.iter().copied());
        return Err(InputError::new(
            src.loc(at),
            format!(
                "`{key}` is no key of a puzzle file{hint}; the keys a puzzle file may hold are {}",
                known.join(", ")
            ),
        ));
    }
    // The registry's element keys, in the order they are written; a
    // kind's grid key that an element reads (`diagonals`) is the kind's
    // to allow, below.
    let element_keys: Vec<(usize, &str)> = keys
        .iter()
        .copied()
        .filter(|(_, k)| elements::by_key(k).is_some() && !kinds::is_grid_key(k))
        .collect();
    if let Some(&(at, key)) = element_keys.first()
        && !kinds::takes_elements(kind)
    {
        return Err(InputError::new(
            src.loc(at),
            format!(
                "`{key}` does not apply to a {} puzzle: elements such as {key} need a square grid \
                 of values 1..n",
                kind.name()
            ),
        ));
    }
    let at = |s: &Option<Spanned<String>>| s.as_ref().map(|s| s.span().start);
    let present: [(&str, Option<usize>); 13] = [
        ("box", raw.box_shape.as_ref().map(|s| s.span().start)),
        ("givens", raw.givens.as_ref().map(|s| s.span().start)),
        ("cages", raw.cages.as_ref().map(|s| s.span().start)),
        ("clues", raw.clues.as_ref().map(|s| s.span().start)),
        (
            "default-clue",
            raw.default_clue.as_ref().map(|s| s.span().start),
        ),
        (
            "distinct-cages",
            raw.distinct_cages.as_ref().map(|s| s.span().start),
        ),
        ("grid", raw.grid.as_ref().map(|s| s.span().start)),
        ("regions", at(&raw.regions)),
        ("diagonals", raw.diagonals.as_ref().map(|s| s.span().start)),
        ("top", at(&raw.top)),
        ("bottom", at(&raw.bottom)),
        ("left", at(&raw.left)),
        ("right", at(&raw.right)),
    ];
    for (key, at) in present {
        if let Some(at) = at
            && !allowed(kind).contains(&key)
        {
            let mut keys: Vec<&str> = vec!["kind", "title"];
            keys.extend(allowed(kind));
            keys.push("solution");
            // Cage keys in a sudoku most likely mean a killer.
            let hint = if kind == Kind::Sudoku && allowed(Kind::Killer).contains(&key) {
                " (a sudoku has no cages: for a sudoku with cages write kind = \"killer\")"
            } else {
                ""
            };
            return Err(InputError::new(
                src.loc(at),
                format!(
                    "`{key}` does not apply to a {} puzzle{hint}; its keys are {}",
                    kind.name(),
                    keys.join(", ")
                ),
            ));
        }
    }
    let mut p = Puzzle {
        title: raw.title.clone(),
        ..Puzzle::blank(name, kind, 0)
    };
    let key_at = |k: &str| key_offset(text, k);
    let solution_locs = match kind {
        Kind::Kakuro => {
            grid_by_elements(&src, &raw, &mut p, &key_at)?;
            kakuro_solution(&src, &raw, &mut p)?
        }
        Kind::Jigsaw => {
            grid_by_elements(&src, &raw, &mut p, &key_at)?;
            jigsaw_givens(&src, &raw, &mut p)?;
            latin_solution(&src, &raw, &mut p)?
        }
        Kind::Futoshiki => {
            grid_by_elements(&src, &raw, &mut p, &key_at)?;
            latin_solution(&src, &raw, &mut p)?
        }
        Kind::Skyscrapers => {
            grid_by_elements(&src, &raw, &mut p, &key_at)?;
            latin_solution(&src, &raw, &mut p)?
        }
        Kind::Sudoku | Kind::Killer | Kind::Calcudoku => latin_puzzle(&src, &raw, &mut p, &key_at)?,
    };
    // Every element key, the kind's grid keys that an element reads
    // (`diagonals`) first: the kind's grid is read by then.
    let mut read_keys: Vec<(bool, usize, &str)> = keys
        .iter()
        .filter(|(_, k)| elements::by_key(k).is_some() && !kinds::makes_grid(k))
        .map(|&(at, k)| (!kinds::is_grid_key(k), at, k))
        .collect();
    read_keys.sort_unstable();
    for (_, _, key) in read_keys {
        let Some(entry) = elements::by_key(key) else {
            continue;
        };
        let read = {
            let r = TomlReader {
                text,
                file,
                kind,
                rows: p.rows,
                cols: p.cols,
                elements: &p.elements,
                givens: &p.givens,
                key_at: &key_at,
            };
            (entry.read)(key, &r)?
        };
        for e in read {
            p.add(e);
        }
    }
    if let Some(s) = &raw.solution {
        p.check_solution(&solution_locs, &src.origin(s).start)?;
    }
    Ok(p)
}

/// The toml crate's error as one line that says what to write instead.
fn toml_error(src: &Src, e: &toml::de::Error) -> InputError {
    let at = e.span().map(|s| s.start);
    let loc = at.map_or_else(|| src.file.clone(), |a| src.loc(a));
    // The crate's message may run over several lines.
    let msg = e
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let kinds = one_of(Kind::ALL.map(|k| k.name().to_string()));
    let Ok(table) = src.text.parse::<toml::Table>() else {
        // Not TOML at all: say where, and what a puzzle file looks like.
        let bad = at
            .and_then(|a| src.text.get(a..))
            .and_then(|t| t.chars().next())
            .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'));
        let why = match bad {
            Some(c) => format!(
                "the character {} is not allowed in TOML text: remove it",
                escape_controls(&c.to_string())
            ),
            None => "a puzzle file holds key = \"value\" lines and [table] headers \
                     (`smtgrid new sudoku` prints a starter)"
                .to_string(),
        };
        return InputError::new(loc, format!("TOML syntax: {msg}; {why}"));
    };
    if msg.starts_with("missing field `kind`") {
        return InputError::new(
            loc,
            format!("the file has no `kind`: add kind = \"...\", one of {kinds}"),
        );
    }
    // A value of the wrong type: name the key and what it must be.
    let key = at.and_then(|a| key_at(src.text, a));
    let want = key.as_deref().and_then(|k| {
        Some(match k {
            "kind" => format!("a string: one of {kinds}"),
            "title" => "a string, such as title = \"My puzzle\"".into(),
            "box" => "a string such as box = \"3x3\" (rows x columns of one box)".into(),
            "givens" | "solution" | "cages" | "grid" => {
                "a string holding the grid, one row per line between \"\"\" quotes".into()
            }
            "clues" => "a table: a [clues] line, then one LABEL = \"CLUE\" per line".into(),
            "default-clue" => "a string such as default-clue = \"12+\"".into(),
            "distinct-cages" => "true or false".into(),
            _ => return None,
        })
    });
    match (key, want) {
        (Some(key), Some(want)) if msg.starts_with("invalid type") => {
            let found = table.get(&key).map_or("value", toml::Value::type_str);
            let a = if found.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            InputError::new(loc, format!("{key} must be {want}, not {a} {found}"))
        }
        _ => InputError::new(loc, format!("TOML: {msg}")),
    }
}

/// The top-level key whose value starts at byte `at` of `text`: the text
/// before `=` on that line, or the name of a `[table]` header there.
fn key_at(text: &str, at: usize) -> Option<String> {
    let before = text.get(..at)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let whole = text[before.len() - line.len()..]
        .lines()
        .next()
        .unwrap_or("");
    let key = match line.split_once('=') {
        Some((k, _)) => k,
        None => whole.trim().strip_prefix('[')?.split(']').next()?,
    };
    Some(key.trim().trim_matches(['"', '\'']).to_string())
}

/// Reads the value grid `s` (a solution) with values `1..=max`.
fn value_grid(
    src: &Src,
    s: &Spanned<String>,
    what: &str,
    max: u32,
) -> Result<givens::Values, InputError> {
    let origin = src.origin(s);
    let rows = split_rows(s.get_ref(), &origin);
    grid::check_shape(&rows, what, &origin)?;
    grid::values(&rows, max, what)
}

/// Fills in a sudoku, killer or calcudoku; returns where the solution's
/// cells are written (empty without a solution).
fn latin_puzzle(
    src: &Src,
    raw: &Raw,
    p: &mut Puzzle,
    key_at: &dyn Fn(&str) -> Option<usize>,
) -> Result<Vec<Vec<Location>>, InputError> {
    let kind = p.kind.name();
    let whole = src.file.clone();
    // The size comes from the givens, else from the cages grid.
    let givens = raw
        .givens
        .as_ref()
        .map(|g| givens_grid(src, g, kind))
        .transpose()?;
    let labels = match &raw.cages {
        Some(cg) => {
            let origin = src.origin(cg);
            let rows = split_rows(cg.get_ref(), &origin);
            let (h, w) = grid::check_shape(&rows, "the cages grid", &origin)?;
            grid::check_square(h, w, "the cages grid", kind, &origin.start)?;
            Some((cages::labels(&rows)?, origin))
        }
        None => None,
    };
    let n = match (&givens, &labels) {
        (Some((g, _)), Some((l, lo))) => {
            let (gn, ln) = (g.grid.len(), l.grid.len());
            if gn != ln {
                return Err(InputError::new(
                    lo.start.clone(),
                    format!("the cages grid is {ln}×{ln}, but the givens are {gn}×{gn}"),
                ));
            }
            gn
        }
        (Some((g, _)), None) => g.grid.len(),
        (None, Some((l, _))) => l.grid.len(),
        (None, None) => {
            let need = if p.kind == Kind::Sudoku {
                "givens = \"\"\"...\"\"\""
            } else {
                "cages = \"\"\"...\"\"\""
            };
            return Err(InputError::new(
                whole,
                format!("a {kind} puzzle needs its grid: add {need}"),
            ));
        }
    };
    if p.kind != Kind::Sudoku && labels.is_none() {
        return Err(InputError::new(
            whole,
            format!(
                "a {kind} puzzle needs cages: add cages = \"\"\"...\"\"\" (a grid of cage labels) and [clues]"
            ),
        ));
    }
    let boxes = match p.kind {
        k if kinds::has_boxes(k) => {
            let at = raw
                .box_shape
                .as_ref()
                .map(|b| (b.get_ref().as_str(), src.loc(b.span().start)));
            let loc = givens.as_ref().map_or_else(
                || labels.as_ref().map_or(whole.clone(), |l| l.1.start.clone()),
                |g| g.1.start.clone(),
            );
            Some(grid::box_shape(n, at, &loc)?)
        }
        _ => None,
    };
    if let Some((g, _)) = &givens {
        givens::check_repeats(g, boxes)?;
    }
    if labels.is_some() {
        // The cages grid has fixed the size; Cages reads the rest.
        let blank = Vec::new();
        let r = TomlReader {
            text: src.text,
            file: src.file,
            kind: p.kind,
            rows: n,
            cols: n,
            elements: &[],
            givens: &blank,
            key_at,
        };
        for e in <Cages as ElementType>::read("cages", &r)? {
            p.set(e);
        }
    }
    p.rows = n;
    p.cols = n;
    if let Some((rows, cols)) = boxes {
        p.set(Boxes { rows, cols });
    }
    p.givens = givens.map_or_else(|| vec![vec![None; n]; n], |(g, _)| g.grid);
    latin_solution(src, raw, p)
}

/// Reads an n×n grid of givens (values 1..=n, n its width).
fn givens_grid(
    src: &Src,
    g: &Spanned<String>,
    kind: &str,
) -> Result<(givens::Values, TextOrigin), InputError> {
    let origin = src.origin(g);
    let rows = split_rows(g.get_ref(), &origin);
    grid::check_compact(&rows, "givens")?;
    let (h, w) = grid::check_shape(&rows, "givens", &origin)?;
    grid::check_square(h, w, "givens", kind, &origin.start)?;
    Ok((grid::values(&rows, w as u32, "givens")?, origin))
}

/// Reads the optional `solution` of a `p.rows`×`p.rows` Latin puzzle;
/// returns where its cells are written (empty without a solution).
fn latin_solution(src: &Src, raw: &Raw, p: &mut Puzzle) -> Result<Vec<Vec<Location>>, InputError> {
    let n = p.rows;
    if let Some(s) = &raw.solution {
        let v = value_grid(src, s, "the solution", n as u32)?;
        let (h, w) = (v.grid.len(), v.grid.first().map_or(0, Vec::len));
        if (h, w) != (n, n) {
            return Err(InputError::new(
                src.origin(s).start,
                format!("the solution is {h}×{w}, but the puzzle is {n}×{n}"),
            ));
        }
        grid::check_filled(&v)?;
        p.solution = Some(v.grid);
        return Ok(v.locs);
    }
    Ok(Vec::new())
}

/// Sets the size and givens of an n×n puzzle, checking that the givens
/// (if any) are n×n and repeat nothing in a row or column.
fn set_givens(
    p: &mut Puzzle,
    n: usize,
    givens: Option<(givens::Values, TextOrigin)>,
    what: &str,
) -> Result<Option<givens::Values>, InputError> {
    p.rows = n;
    p.cols = n;
    let Some((g, origin)) = givens else {
        p.givens = vec![vec![None; n]; n];
        return Ok(None);
    };
    let gn = g.grid.len();
    if gn != n {
        return Err(InputError::new(
            origin.start,
            format!("the givens are {gn}×{gn}, but {what} is for {n}×{n}"),
        ));
    }
    givens::check_repeats(&g, None)?;
    p.givens = g.grid.clone();
    Ok(Some(g))
}

/// Reads a jigsaw's givens, once its regions set the grid, and checks
/// them against the regions.
fn jigsaw_givens(src: &Src, raw: &Raw, p: &mut Puzzle) -> Result<(), InputError> {
    let givens = raw
        .givens
        .as_ref()
        .map(|g| givens_grid(src, g, "jigsaw"))
        .transpose()?;
    if let Some(g) = set_givens(p, p.rows, givens, "the regions grid")? {
        let units = p
            .regions()
            .iter()
            .enumerate()
            .map(|(k, cells)| (format!("region {}", k + 1), cells.clone()))
            .collect();
        givens::check_units(&g, units)?;
    }
    Ok(())
}

/// Fills in the grid of a kind whose preset's elements read it
/// themselves ([`crate::elements::ElementType::read_grid`]: a futoshiki's
/// signs, a kakuro's squares, a jigsaw's regions, skyscrapers' edge
/// clues): its size, givens and those elements.
fn grid_by_elements(
    src: &Src,
    raw: &Raw,
    p: &mut Puzzle,
    key_at: &dyn Fn(&str) -> Option<usize>,
) -> Result<(), InputError> {
    let kind = p.kind.name();
    let givens = || {
        let read = raw.givens.as_ref().map(|g| givens_grid(src, g, kind));
        Ok(read.transpose()?.map(|(v, _)| v))
    };
    let blank = Vec::new();
    let r = TomlReader {
        text: src.text,
        file: src.file,
        kind: p.kind,
        rows: 0,
        cols: 0,
        elements: &[],
        givens: &blank,
        key_at,
    };
    let preset = kinds::preset(p.kind);
    for entry in elements::REGISTRY
        .iter()
        .filter(|e| preset.contains(&e.name))
    {
        let Some(g) = (entry.read_grid)(&r, &givens)? else {
            continue;
        };
        (p.rows, p.cols) = g.shape;
        p.givens = g
            .givens
            .unwrap_or_else(|| vec![vec![None; g.shape.1]; g.shape.0]);
        p.add(g.element);
    }
    Ok(())
}

/// Reads a kakuro's optional `solution`; returns where its cells are
/// written (empty without a solution).
fn kakuro_solution(src: &Src, raw: &Raw, p: &mut Puzzle) -> Result<Vec<Vec<Location>>, InputError> {
    let (Some(s), Some(layout)) = (&raw.solution, p.kakuro()) else {
        return Ok(Vec::new());
    };
    let so = src.origin(s);
    let rows = split_rows(s.get_ref(), &so);
    p.solution = Some(kakuro::solution(&rows, layout, &so)?);
    Ok(rows
        .iter()
        .map(|r| r.cells.iter().map(|t| t.loc.clone()).collect())
        .collect())
}

/// Fills in a kakuro puzzle's layout, size and (blank) givens.
pub(crate) fn set_kakuro(p: &mut Puzzle, cells: Vec<Vec<crate::puzzle::KakuroCell>>) {
    p.rows = cells.len();
    p.cols = cells.first().map_or(0, Vec::len);
    p.givens = vec![vec![None; p.cols]; p.rows];
    p.set(crate::elements::kakuro::Kakuro(cells));
}
