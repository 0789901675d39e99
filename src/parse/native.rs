//! The native format: one puzzle per TOML file.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{InputError, Location, did_you_mean, escape_controls};
use crate::puzzle::{About, Kind, Puzzle};

use super::one_of;
use crate::elements::givens;
use crate::elements::{self, TomlReader};
use crate::error::Lines;
use crate::kinds;

/// The keys a puzzle file may hold. Strings keep their spans so that
/// messages about grid rows can name the real line of the file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Raw {
    kind: Spanned<String>,
    title: Option<String>,
    author: Option<String>,
    rules: Option<String>,
    #[serde(rename = "box")]
    box_shape: Option<Spanned<String>>,
    givens: Option<Spanned<String>>,
    /// Checked here (its type); read by
    /// [`crate::elements::givens::read_solution`].
    #[allow(dead_code)]
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
    /// How a generated puzzle was made (`smtgrid generate`): kept, for
    /// the puzzle's writers, never read.
    source: Option<toml::Table>,
    /// A generated puzzle's grade: kept likewise.
    grade: Option<toml::Table>,
}

/// The TOML text of table `name` holding `table`, header included (a
/// table nested in it keeps its place under `name`).
fn table_text(name: &str, table: toml::Table) -> String {
    let mut top = toml::Table::new();
    top.insert(name.to_string(), toml::Value::Table(table));
    // A table of values read from TOML always writes back as TOML.
    toml::to_string(&top).unwrap_or_default()
}

/// Which grid keys each kind may use, besides `kind`, `title`, `author`,
/// `rules`, `solution`, a generated puzzle's `[source]` and `[grade]`,
/// and the registry's element keys.
fn allowed(kind: Kind) -> &'static [&'static str] {
    kinds::grid_keys(kind)
}

/// Every key a puzzle file may hold: `kind`, `title`, `author`, `rules`,
/// `solution`, `[source]`, `[grade]`, every kind's grid keys and every
/// element's keys.
fn known_keys() -> Vec<&'static str> {
    let mut known: Vec<&str> = vec![
        "kind", "title", "author", "rules", "solution", "source", "grade",
    ];
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
    lines: Lines<'a>,
}

impl Src<'_> {
    fn loc(&self, offset: usize) -> Location {
        let (l, c) = self.lines.line_col(offset);
        self.file.at(l, c)
    }
}

/// Parses a TOML puzzle file. `name` is the puzzle's name (the file stem).
pub(crate) fn parse(text: &str, file: &Location, name: &str) -> Result<Puzzle, InputError> {
    let src = Src {
        text,
        file,
        lines: Lines::new(text),
    };
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
    let mut raw: Raw = toml::from_str(text).map_err(|e| toml_error(&src, &e))?;
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
    p.about.author = About::text(raw.author.as_deref());
    p.about.rules = About::text(raw.rules.as_deref());
    for (table, body) in [("source", raw.source.take()), ("grade", raw.grade.take())] {
        if let Some(body) = body {
            p.about
                .tables
                .push((table.to_string(), table_text(table, body)));
        }
    }
    let key_at = |k: &str| key_offset(text, k);
    read_grid(&src, &mut p, &key_at)?;
    // The solution is checked once every element is read.
    let solution = givens::read_solution(&reader(&src, &p, &key_at))?;
    if let Some(s) = &solution {
        p.solution = Some(s.values.grid.clone());
    }
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
        let read = (entry.read)(key, &reader(&src, &p, &key_at))?;
        p.extend(read);
    }
    // Each table was checked where it is; this is the step every reader's
    // puzzle passes, for what a check across tables finds.
    elements::check_all(&p.elements, p.rows.max(p.cols))
        .map_err(|m| InputError::new(src.file.clone(), m))?;
    if let Some(s) = solution {
        p.check_solution(&s.values.locs, &s.at)?;
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

/// A reader of the file's keys for a puzzle `p` as far as it is read.
fn reader<'a>(
    src: &'a Src<'a>,
    p: &'a Puzzle,
    key_at: &'a dyn Fn(&str) -> Option<usize>,
) -> TomlReader<'a> {
    TomlReader {
        text: src.text,
        file: src.file,
        lines: &src.lines,
        kind: p.kind,
        rows: p.rows,
        cols: p.cols,
        elements: &p.elements,
        givens: &p.givens,
        key_at,
        clue_squares: Default::default(),
    }
}

/// Reads the kind's grid keys ([`kinds::makes_grid`]) in the steps of
/// [`elements::GridStep`], each over the kind's preset elements in the
/// registry's order: the grid's size, givens and the elements they make.
/// Where no element fixes the grid, the givens do.
fn read_grid(
    src: &Src,
    p: &mut Puzzle,
    key_at: &dyn Fn(&str) -> Option<usize>,
) -> Result<(), InputError> {
    let preset = kinds::preset(p.kind);
    let entries: Vec<&elements::Entry> = elements::REGISTRY
        .iter()
        .filter(|e| preset.contains(&e.name))
        .collect();
    // Step 1: the size.
    let mut read = None;
    for entry in &entries {
        let Some(g) = (entry.read_grid)(&reader(src, p, key_at))? else {
            continue;
        };
        if let Some(e) = g.element {
            p.add(e);
        }
        read = Some((g.shape, g.givens, g.at));
    }
    let ((rows, cols), values, at) = match read {
        Some(read) => read,
        None => match givens::read(&reader(src, p, key_at))? {
            Some(g) => {
                let n = g.values.grid.len();
                ((n, n), Some(g.values), g.at)
            }
            None => {
                return Err(InputError::new(
                    src.file.clone(),
                    format!(
                        "a {} puzzle needs its grid: add givens = \"\"\"...\"\"\"",
                        p.kind.name()
                    ),
                ));
            }
        },
    };
    (p.rows, p.cols) = (rows, cols);
    p.givens = values
        .as_ref()
        .map_or_else(|| vec![vec![None; cols]; rows], |v| v.grid.clone());
    // Step 2: what is read against the size alone.
    for entry in &entries {
        if let Some(e) = (entry.read_sized)(&reader(src, p, key_at), &at)? {
            p.add(e);
        }
    }
    // Step 3: the givens against every house, and the elements left.
    for entry in &entries {
        if let Some(e) = (entry.finish_grid)(&reader(src, p, key_at), values.as_ref())? {
            p.add(e);
        }
    }
    Ok(())
}

/// Fills in a kakuro puzzle's layout, size and (blank) givens.
pub(crate) fn set_kakuro(p: &mut Puzzle, cells: Vec<Vec<crate::puzzle::KakuroCell>>) {
    p.rows = cells.len();
    p.cols = cells.first().map_or(0, Vec::len);
    p.givens = vec![vec![None; p.cols]; p.rows];
    p.set(crate::elements::kakuro::Kakuro(cells));
}
