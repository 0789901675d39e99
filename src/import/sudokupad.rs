//! SudokuPad's own puzzle format (`scl…`/`ctc…` links). Layer 1 undoes
//! SudokuPad's key abbreviation ([`unzip`]); layer 2 reads what the format
//! states unambiguously ([`Scl`]: size, givens, regions, cages, the recorded
//! solution) and keeps every line, arrow and overlay with its colour and
//! cells, since their meaning lives only in the rules text;
//! [`to_plain`] maps today's vocabulary and refuses the rest by name.

use serde_json::{Map, Number, Value};

use super::build::{Blamed, Plain, SIZES};
use super::place::{Fault, JsonPath};
use super::{Drawn, Options, colour};
use crate::error::rc;
use crate::puzzle::{About, Grid};

/// How deep objects and lists may nest in a payload.
const MAX_DEPTH: usize = 64;

/// SudokuPad's abbreviated keys and the keys they stand for.
const KEYS: &[(&str, &str)] = &[
    ("c", "color"),
    ("ca", "cages"),
    ("ct", "center"),
    ("c1", "borderColor"),
    ("c2", "backgroundColor"),
    ("ce", "cells"),
    ("cs", "cellSize"),
    ("a", "arrows"),
    ("o", "overlays"),
    ("u", "underlays"),
    ("w", "width"),
    ("h", "height"),
    ("v", "value"),
    ("l", "lines"),
    ("r", "rounded"),
    ("re", "regions"),
    ("fs", "fontSize"),
    ("th", "thickness"),
    ("hl", "headLength"),
    ("wp", "wayPoints"),
    ("t", "title"),
    ("te", "text"),
    ("vd", "videos"),
    ("d", "duration"),
    ("d2", "d"),
];

/// SudokuPad puzzle text as JSON: plain JSON as it is, the "zipped" form
/// (abbreviated and unquoted keys, `'` strings, `t`/`f`, colour shorthands,
/// empty objects left out of lists) unzipped.
pub fn unzip(text: &str) -> Result<Value, String> {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return Ok(v);
    }
    let mut p = Unzip {
        s: text,
        i: 0,
        depth: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.error("text after the end of the puzzle"));
    }
    Ok(v)
}

struct Unzip<'a> {
    s: &'a str,
    i: usize,
    depth: usize,
}

impl Unzip<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn error(&self, what: &str) -> String {
        format!(
            "the SudokuPad puzzle text is broken at character {}: {what}",
            self.s[..self.i.min(self.s.len())].chars().count() + 1
        )
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        match self.peek() {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::list),
            Some(q @ (b'\'' | b'"')) => self.string(q).map(Value::String),
            Some(_) => Ok(self.bare()),
            None => Err(self.error("it ends where a value should be")),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<Value, String>) -> Result<Value, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("lists and objects nest too deep"));
        }
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn object(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut m = Map::new();
        loop {
            self.ws();
            let at = self.i;
            match self.peek() {
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Value::Object(m));
                }
                Some(q @ (b'\'' | b'"')) => {
                    let k = self.string(q)?;
                    self.member(&mut m, k, at)?;
                }
                Some(_) => {
                    let start = self.i;
                    while self.peek().is_some_and(|b| {
                        !matches!(b, b':' | b',' | b'}') && !b.is_ascii_whitespace()
                    }) {
                        self.i += 1;
                    }
                    if self.i == start {
                        return Err(self.error("a key is missing"));
                    }
                    let k = self.s[start..self.i].to_string();
                    self.member(&mut m, k, at)?;
                }
                None => return Err(self.error("an object is not closed")),
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return Err(self.error("expected , or } after a value")),
            }
        }
    }

    /// Reads the value of `key`, written at byte `at`, into `m`; a key
    /// `m` holds already (written again, or short once and long once)
    /// is refused, as in SudokuPad's JSON (`fpuzzles::refuse_repeats`).
    fn member(&mut self, m: &mut Map<String, Value>, key: String, at: usize) -> Result<(), String> {
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.error("expected : after a key"));
        }
        self.i += 1;
        self.ws();
        let v = if matches!(self.peek(), Some(b',' | b'}')) {
            Value::Null
        } else {
            self.value()?
        };
        let long = KEYS
            .iter()
            .find(|(short, _)| *short == key)
            .map_or_else(|| key.clone(), |(_, long)| (*long).to_string());
        if m.contains_key(&long) {
            return Err(format!(
                "the SudokuPad puzzle text at character {}: {}",
                self.s[..at].chars().count() + 1,
                super::place::twice("SudokuPad", &key)
            ));
        }
        m.insert(long, v);
        Ok(())
    }

    fn list(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.ws();
            // A place left empty held an empty object.
            let item = if matches!(self.peek(), Some(b',' | b']')) {
                Value::Object(Map::new())
            } else {
                self.value()?
            };
            items.push(item);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected , or ] in a list")),
            }
        }
    }

    fn string(&mut self, quote: u8) -> Result<String, String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let rest = &self.s[self.i..];
            let Some(ch) = rest.chars().next() else {
                return Err(self.error("a string is not closed"));
            };
            self.i += ch.len_utf8();
            if ch as u32 == u32::from(quote) {
                return Ok(out);
            }
            if ch != '\\' {
                out.push(ch);
                continue;
            }
            let Some(e) = self.s[self.i..].chars().next() else {
                return Err(self.error("a string ends in \\"));
            };
            self.i += e.len_utf8();
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let hex = self.s.get(self.i..self.i + 4).unwrap_or("");
                    let c = u32::from_str_radix(hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .unwrap_or('\u{fffd}');
                    self.i += hex.len();
                    out.push(c);
                }
                other => out.push(other),
            }
        }
    }

    fn bare(&mut self) -> Value {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|b| !matches!(b, b',' | b']' | b'}' | b':') && !b.is_ascii_whitespace())
        {
            self.i += 1;
        }
        let t = &self.s[start..self.i];
        match t {
            "t" | "true" => return Value::Bool(true),
            "f" | "false" => return Value::Bool(false),
            "null" | "undefined" | "" => return Value::Null,
            "#0" => return Value::String("#000000".into()),
            "#F" | "#f" => return Value::String("#FFFFFF".into()),
            _ => {}
        }
        let hex6 = t.len() == 6 && t.bytes().all(|b| b.is_ascii_hexdigit());
        if hex6 && t.bytes().any(|b| b.is_ascii_alphabetic()) {
            return Value::String(format!("#{t}"));
        }
        if let Ok(i) = t.parse::<i64>() {
            return Value::Number(i.into());
        }
        if let Some(n) = t.parse::<f64>().ok().and_then(Number::from_f64) {
            return Value::Number(n);
        }
        Value::String(t.to_string())
    }
}

/// One cage of a SudokuPad puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SclCage {
    /// Its cells.
    pub cells: Vec<(usize, usize)>,
    /// Its value as written (trimmed), if any.
    pub value: Option<String>,
    /// Its place in the JSON (`cages[3]`).
    pub at: JsonPath,
}

/// A SudokuPad puzzle, read but not yet interpreted.
#[derive(Debug, Clone, PartialEq)]
pub struct Scl {
    /// The grid side.
    pub n: usize,
    /// The title.
    pub title: Option<String>,
    /// The author and the rules in words.
    pub about: About,
    /// Given digits.
    pub givens: Grid,
    /// Each cell's region, when the puzzle draws regions.
    pub regions: Option<Vec<Vec<Option<i64>>>>,
    /// Cages with cells (the title/author/rules/solution ones left out).
    pub cages: Vec<SclCage>,
    /// The recorded solution.
    pub solution: Option<Grid>,
    /// Where the solution is written (`metadata.solution`, or a cage's
    /// `value`).
    pub solution_at: JsonPath,
    /// Lines, arrows and overlays, whose meaning the rules text gives.
    pub drawn: Vec<Drawn>,
    /// Rules stated as flags (`metadata` booleans, `global` entries),
    /// each with its place.
    pub flags: Vec<(String, JsonPath)>,
    /// Unknown keys passed over under `--ignore-unknown`.
    pub ignored: Vec<String>,
}

/// Top-level keys of a SudokuPad puzzle.
const TOP: &[&str] = &[
    "id",
    "metadata",
    "cellSize",
    "cells",
    "regions",
    "cages",
    "lines",
    "arrows",
    "overlays",
    "underlays",
    "global",
    "settings",
    "duration",
    "videos",
];

/// Metadata keys that describe, not rule.
const META: &[&str] = &[
    "title",
    "author",
    "rules",
    "solution",
    "source",
    "id",
    "msgcorrect",
    "bgimage",
    "bgimageopacity",
    "publishedAt",
    "videos",
    "duration",
];

/// A 0-based cell from `[r, c]`, written at `at`: two whole numbers
/// inside the grid.
fn rc_pair(v: &Value, n: usize, at: JsonPath) -> Result<(usize, usize), Fault> {
    let whole = |x: &Value| {
        x.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < n as f64)
            .map(|f| f as usize)
    };
    match v.as_array().map(Vec::as_slice) {
        Some([r, c]) if let (Some(r), Some(c)) = (whole(r), whole(c)) => Ok((r, c)),
        _ => Err(Fault::value(
            at,
            format!(
                "a SudokuPad cell {} is not a cell of the {n}×{n} grid: write [ROW, COLUMN], \
                 each from 0 to {}",
                super::short_key(&v.to_string()),
                n - 1
            ),
        )),
    }
}

/// The list under `key` of `top`, if any: an entry of another type is
/// refused at its place rather than read as none.
fn list_of<'v>(top: &'v Map<String, Value>, key: &str) -> Result<&'v [Value], Fault> {
    match top.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(o) => Err(Fault::value(
            JsonPath::root().key(key),
            format!(
                "SudokuPad `{key}` is {}, not a list",
                super::fpuzzles::type_of(o)
            ),
        )),
    }
}

/// The cell whose centre is at `(y, x)`, if the point is a cell centre.
fn centre_cell(y: f64, x: f64, n: usize) -> Option<(usize, usize)> {
    let centre = |v: f64| (v - v.floor() - 0.5).abs() < 0.01 && v >= 0.0 && v < n as f64;
    (centre(y) && centre(x)).then_some((y as usize, x as usize))
}

/// Reads unzipped SudokuPad JSON, refusing with the place of what is
/// wrong (`cells[2][5].value`, `cages[1].cells[0]`).
pub fn read(v: &Value, opts: &Options) -> Result<Scl, Fault> {
    use super::fpuzzles::type_of;
    let root = JsonPath::root();
    let Value::Object(top) = v else {
        return Err(Fault::value(
            root,
            format!(
                "the SudokuPad puzzle is {}, not an object with `cells`",
                type_of(v)
            ),
        ));
    };
    let grid = root.key("cells");
    let rows = match top.get("cells") {
        Some(Value::Array(rows)) => rows,
        None => {
            return Err(Fault::value(
                root,
                "the SudokuPad puzzle has no `cells` grid: add \"cells\", a list of rows of cells",
            ));
        }
        Some(o) => {
            return Err(Fault::value(
                grid,
                format!("SudokuPad `cells` is {}, not a list of rows", type_of(o)),
            ));
        }
    };
    let n = rows.len();
    if !SIZES.contains(&n) {
        return Err(Fault::value(
            grid,
            format!(
                "the SudokuPad grid has {}; smtgrid imports grids from {} to {} wide",
                crate::output::plural(n, "row", "rows"),
                SIZES.start(),
                SIZES.end()
            ),
        ));
    }
    let mut s = Scl {
        n,
        title: None,
        about: About::default(),
        givens: vec![vec![None; n]; n],
        regions: None,
        cages: Vec::new(),
        solution: None,
        solution_at: root.key("metadata").key("solution"),
        drawn: Vec::new(),
        flags: Vec::new(),
        ignored: Vec::new(),
    };
    for (r, row) in rows.iter().enumerate() {
        let cells = row.as_array().filter(|c| c.len() == n).ok_or_else(|| {
            Fault::value(
                grid.index(r),
                format!(
                    "SudokuPad row {} is not {n} cells long: only square grids are read",
                    r + 1
                ),
            )
        })?;
        for (c, cell) in cells.iter().enumerate() {
            let at = || grid.index(r).index(c);
            let cell = match cell {
                Value::Object(o) => o,
                Value::Null => continue,
                o => {
                    return Err(Fault::value(
                        at(),
                        format!(
                            "SudokuPad cell {} is {}, not an object",
                            rc(r, c),
                            type_of(o)
                        ),
                    ));
                }
            };
            let Some(v) = cell.get("value").filter(|v| !v.is_null()) else {
                continue;
            };
            let d = match v {
                Value::Number(x) => x.as_i64(),
                Value::String(t) if t.trim().is_empty() => continue,
                Value::String(t) => t.trim().parse().ok(),
                _ => None,
            };
            match d {
                Some(d) if (1..=n as i64).contains(&d) => s.givens[r][c] = Some(d as u32),
                _ => {
                    return Err(Fault::value(
                        at().key("value"),
                        format!(
                            "SudokuPad cell {} holds {}, but a {n}×{n} grid holds 1 to {n}",
                            rc(r, c),
                            super::short_key(&v.to_string())
                        ),
                    ));
                }
            }
        }
    }
    let mut solution_text = None;
    match top.get("metadata") {
        None | Some(Value::Null) => {}
        Some(Value::Object(meta)) => {
            for (k, v) in meta {
                match (k.as_str(), v) {
                    ("title", Value::String(t)) => s.title = Some(t.clone()),
                    ("author", Value::String(t)) => s.about.author = About::text(Some(t)),
                    ("rules", Value::String(t)) => s.about.rules = About::text(Some(t)),
                    ("solution", Value::String(t)) => solution_text = Some(t.clone()),
                    (k, Value::Bool(true)) if !META.contains(&k) => {
                        s.flags.push((k.to_string(), root.key("metadata").key(k)));
                    }
                    _ => {}
                }
            }
        }
        Some(o) => {
            return Err(Fault::value(
                root.key("metadata"),
                format!("SudokuPad `metadata` is {}, not an object", type_of(o)),
            ));
        }
    }
    if top.get("regions").is_some_and(|r| !r.is_null()) {
        let mut labels = vec![vec![None; n]; n];
        for (k, region) in list_of(top, "regions")?.iter().enumerate() {
            let at = root.key("regions").index(k);
            let cells = region.as_array().ok_or_else(|| {
                Fault::value(
                    at.clone(),
                    format!(
                        "a SudokuPad region is {}, not a list of cells",
                        type_of(region)
                    ),
                )
            })?;
            for (j, cell) in cells.iter().enumerate() {
                let (r, c) = rc_pair(cell, n, at.index(j))?;
                labels[r][c] = Some(k as i64);
            }
        }
        s.regions = Some(labels);
    }
    for (i, cage) in list_of(top, "cages")?.iter().enumerate() {
        let at = root.key("cages").index(i);
        let value = match cage.get("value") {
            Some(Value::String(t)) => Some(t.trim().to_string()),
            Some(Value::Number(x)) => Some(x.to_string()),
            _ => None,
        }
        .filter(|t| !t.is_empty());
        let lower = value.as_deref().unwrap_or("").to_ascii_lowercase();
        if let Some(t) = lower.strip_prefix("solution:") {
            let v = value.as_deref().unwrap_or("");
            if solution_text.is_none() {
                solution_text = Some(v[v.len() - t.len()..].trim().to_string());
                s.solution_at = at.key("value");
            }
            continue;
        }
        // What follows `prefix` in the cage's value, in its own case
        // (`lower` has the same length: only ASCII letters were lowered).
        let after = |prefix: &str| {
            let v = value.as_deref().unwrap_or("");
            lower
                .strip_prefix(prefix)
                .map(|t| v[v.len() - t.len()..].trim().to_string())
        };
        let meta = [
            ("title:", &mut s.title),
            ("author:", &mut s.about.author),
            ("rules:", &mut s.about.rules),
        ];
        if let Some((text, field)) = meta
            .into_iter()
            .find_map(|(prefix, field)| after(prefix).map(|t| (t, field)))
        {
            // The metadata object's own value, where given, comes first.
            if field.is_none() {
                *field = About::text(Some(&text));
            }
            continue;
        }
        if ["msgcorrect:", "foglight"]
            .iter()
            .any(|m| lower.starts_with(m))
        {
            continue;
        }
        let cells = match cage.get("cells") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(cells)) => cells,
            Some(o) => {
                return Err(Fault::value(
                    at.key("cells"),
                    format!(
                        "a SudokuPad cage's `cells` is {}, not a list of cells",
                        type_of(o)
                    ),
                ));
            }
        };
        let cells = cells
            .iter()
            .enumerate()
            .map(|(j, c)| rc_pair(c, n, at.key("cells").index(j)))
            .collect::<Result<Vec<_>, _>>()?;
        if cells.is_empty() {
            continue;
        }
        s.cages.push(SclCage { cells, value, at });
    }
    if let Some(t) = solution_text {
        s.solution = Some(solution(&t, n).map_err(|m| Fault::value(s.solution_at.clone(), m))?);
    }
    for (key, what) in [
        ("lines", super::DrawnKind::Line),
        ("arrows", super::DrawnKind::Arrow),
        ("overlays", super::DrawnKind::Overlay),
        ("underlays", super::DrawnKind::Overlay),
    ] {
        for (i, item) in list_of(top, key)?.iter().enumerate() {
            s.drawn.push(drawn(item, what, n, root.key(key).index(i))?);
        }
    }
    for (i, g) in list_of(top, "global")?.iter().enumerate() {
        let flag = g.as_str().map_or_else(|| g.to_string(), str::to_string);
        s.flags.push((flag, root.key("global").index(i)));
    }
    for key in top.keys() {
        if TOP.contains(&key.as_str()) {
            continue;
        }
        if opts.ignore_unknown {
            s.ignored.push(key.clone());
        } else {
            return Err(Fault::key(
                root.key(key),
                format!(
                    "SudokuPad key `{}` is unknown to smtgrid: pass --ignore-unknown to read the \
                     puzzle without it",
                    super::short_key(key)
                ),
            ));
        }
    }
    Ok(s)
}

impl Scl {
    /// Where the cell a refusal blames is written: a given's `value`, or
    /// the recorded solution (a string, whose message names the cell).
    pub fn path_of(&self, blamed: Blamed) -> JsonPath {
        match blamed {
            Blamed::Given(r, c) => JsonPath::root().key("cells").index(r).index(c).key("value"),
            Blamed::Solution(..) => self.solution_at.clone(),
        }
    }
}

/// A recorded solution: n² digits (1–9), as SudokuPad writes it.
fn solution(t: &str, n: usize) -> Result<Grid, String> {
    let ds: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    if n > 9 || ds.len() != n * n {
        return Err(format!(
            "the SudokuPad solution has {} characters, not the {} digits of a {n}×{n} grid",
            ds.len(),
            n * n
        ));
    }
    let mut g = vec![vec![None; n]; n];
    for (k, ch) in ds.iter().enumerate() {
        match ch.to_digit(10) {
            Some(d) if d >= 1 && d as usize <= n => g[k / n][k % n] = Some(d),
            _ => {
                return Err(format!(
                    "the SudokuPad solution has '{ch}' at {}, not a digit from 1 to {n}",
                    rc(k / n, k % n)
                ));
            }
        }
    }
    Ok(g)
}

/// A line, arrow or overlay written at `at`: its colour and the cells it
/// is drawn on. Each point must be two numbers, `[Y, X]` in cell units.
fn drawn(item: &Value, what: super::DrawnKind, n: usize, at: JsonPath) -> Result<Drawn, Fault> {
    let point = |p: &Value, at: JsonPath| match p.as_array().map(Vec::as_slice) {
        Some([y, x]) if let (Some(y), Some(x)) = (y.as_f64(), x.as_f64()) => Ok((y, x)),
        _ => Err(Fault::value(
            at,
            format!(
                "a SudokuPad {} point {} is not two numbers: write [Y, X] in cell units",
                what.name(),
                super::short_key(&p.to_string())
            ),
        )),
    };
    let points: Vec<(f64, f64)> = match (item.get("center"), item.get("wayPoints")) {
        (Some(c), _) => vec![point(c, at.key("center"))?],
        (None, Some(Value::Array(ps))) => ps
            .iter()
            .enumerate()
            .map(|(j, p)| point(p, at.key("wayPoints").index(j)))
            .collect::<Result<_, _>>()?,
        (None, None | Some(Value::Null)) => Vec::new(),
        (None, Some(o)) => {
            return Err(Fault::value(
                at.key("wayPoints"),
                format!(
                    "a SudokuPad {}'s `wayPoints` is {}, not a list of points",
                    what.name(),
                    super::fpuzzles::type_of(o)
                ),
            ));
        }
    };
    let colour = match what {
        super::DrawnKind::Overlay => {
            let bg = colour(item.get("backgroundColor"));
            if bg == "none" {
                colour(item.get("borderColor").or_else(|| item.get("color")))
            } else {
                bg
            }
        }
        _ => colour(item.get("color")),
    };
    let mut cells: Vec<(usize, usize)> = points
        .iter()
        .filter_map(|&(y, x)| centre_cell(y, x, n))
        .collect();
    if let Some(&(y, x)) = points.first()
        && centre_cell(y, x, n).is_none()
    {
        let inside = |v: f64| v >= 0.0 && v < n as f64;
        let on_line =
            |v: f64| (v - v.round()).abs() < 0.01 && v.round() >= 1.0 && v.round() < n as f64;
        let centred = |v: f64| (v - v.floor() - 0.5).abs() < 0.01;
        match what {
            // An arrow starts on its circle's edge, inside the circle's cell.
            super::DrawnKind::Arrow if inside(y) && inside(x) => {
                let c = (y as usize, x as usize);
                if cells.first() != Some(&c) {
                    cells.insert(0, c);
                }
            }
            // A dot on the middle of a border stands for the two cells it joins.
            super::DrawnKind::Overlay if centred(y) && on_line(x) && inside(y) => {
                let (r, c) = (y as usize, x.round() as usize);
                cells = vec![(r, c - 1), (r, c)];
            }
            super::DrawnKind::Overlay if centred(x) && on_line(y) && inside(x) => {
                let (r, c) = (y.round() as usize, x as usize);
                cells = vec![(r - 1, c), (r, c)];
            }
            _ => {}
        }
    }
    let place = points
        .first()
        .map(|&(y, x)| format!("({y}, {x})"))
        .unwrap_or_default();
    let text = super::drawn_text(item.get("text"));
    Ok(Drawn {
        what,
        colour,
        cells,
        at: place,
        text,
    })
}

// ---------------------------------------------------------------------------
// Mapping to a Puzzle: what SudokuPad states here, lines to the elements
// the meanings `--line` and friends give.
// ---------------------------------------------------------------------------

/// Today's vocabulary out of `s`: givens, regions, the solution; cages
/// (with a sum or none) read by the element of f-puzzles' `killercage`;
/// drawings need a meaning (`--line COLOR=…`, `--arrow`, `--overlay`): a
/// drawing read as the element its meaning names, `ignore` passed over,
/// the rest refused by name.
pub fn to_plain(s: &Scl, opts: &Options) -> Result<Plain, Fault> {
    let n = s.n;
    let mut elements = Vec::new();
    // A rule flag (`antiknight`) is the f-puzzles key of the same name set
    // to true, read by the element that claims it.
    for (f, at) in &s.flags {
        elements.extend(
            super::grid_rule(f, n)
                .map_err(|m| Fault::value(at.clone(), format!("SudokuPad rule {m}")))?,
        );
    }
    elements.extend(super::drawn_meanings("SudokuPad", &s.drawn, opts, n)?);
    let mut plain = Plain::blank(n);
    plain.elements = elements;
    plain.title = s.title.clone();
    plain.about = s.about.clone();
    plain.givens = s.givens.clone();
    plain.solution = s.solution.clone();
    plain.regions = s.regions.clone().unwrap_or_else(|| vec![vec![None; n]; n]);
    // Cages go to the element that reads f-puzzles' killer cages: with a
    // sum, or none (the cells only differ).
    let mut cages = Vec::new();
    for cage in &s.cages {
        let (r, c) = cage.cells[0];
        if let Some(v) = &cage.value
            && v.parse::<u64>().ok().filter(|s| *s > 0).is_none()
        {
            return Err(Fault::value(
                cage.at.key("value"),
                format!(
                    "SudokuPad cage at {} has the value `{}`, not a sum: its meaning is in the \
                     rules text, not yet supported",
                    rc(r, c),
                    super::short_key(v)
                ),
            ));
        }
        let cells: Vec<String> = cage
            .cells
            .iter()
            .map(|&(r, c)| format!("R{}C{}", r + 1, c + 1))
            .collect();
        cages.push(serde_json::json!({"cells": cells, "value": cage.value}));
    }
    if !cages.is_empty() {
        let entry = crate::elements::by_fpuzzles_key("killercage").ok_or_else(|| {
            Fault::from("SudokuPad cages: no element reads killer cages".to_string())
        })?;
        let read = (entry.from_fpuzzles)("killercage", &Value::Array(cages), n).map_err(|m| {
            Fault::key(
                JsonPath::root().key("cages"),
                format!("SudokuPad cages ({}): {m}", entry.name),
            )
        })?;
        plain.elements.extend(read);
    }
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipped_text_is_unzipped() {
        let v = unzip("{ce:[[,{v:3},],[{v:1},,]],c:#0,r:t,x:f,c2:CFCFCF,s:'it\\'s',n:-1.5}")
            .expect("unzips");
        assert_eq!(
            v,
            serde_json::json!({
                "cells": [[{}, {"value": 3}, {}], [{"value": 1}, {}, {}]],
                "color": "#000000", "rounded": true, "x": false,
                "backgroundColor": "#CFCFCF", "s": "it's", "n": -1.5
            })
        );
        // Plain JSON keeps its keys, `d` included.
        assert_eq!(
            unzip("{\"d\": 1}").expect("json"),
            serde_json::json!({"d": 1})
        );
        assert!(unzip("{ce:[[{v:3}]").is_err());
        // A key given twice, or short once and long once, as JSON's.
        for (text, at) in [("{v:1,v:2}", 6), ("{ce:[],cells:[]}", 8)] {
            let e = unzip(text).expect_err("a key twice");
            assert!(
                e.contains(&format!("at character {at}: SudokuPad key `")),
                "{e}"
            );
        }
        let deep = "[".repeat(200);
        assert!(unzip(&deep).expect_err("deep").contains("deep"));
    }
}
