//! Puzzles in from where setters publish them: f-puzzles links and JSON,
//! SudokuPad links (f-puzzles and SudokuPad payloads) and Interactive
//! Sudoku Solver strings.
//!
//! Three layers, each independent of what a puzzle may hold:
//! 1. [`links`]: a link or string into the text it carries (URL and
//!    lz-string decoding, bounded), SudokuPad's abbreviations undone
//!    ([`sudokupad::unzip`]), ISS strings split into (type, arguments)
//!    ([`iss::tokens`]);
//! 2. typed readers ([`fpuzzles::read_value`], [`sudokupad::read`],
//!    [`iss::read`]) that check what the format says (sizes, cells inside
//!    the grid, values in range, unknown keys) and keep every constraint
//!    raw for the elements to come;
//! 3. one mapping per format (`to_plain`) from today's vocabulary (givens,
//!    regions, both diagonals together, a recorded solution; every other
//!    rule, killer cages included, through the element registry)
//!    into [`build::Plain`], refusing the rest by name, and [`build::to_puzzle`].
//!
//! Only layer 3 knows today's [`Puzzle`]; the element registry will
//! replace it with dispatch to each element's hooks.

pub mod build;
pub mod fpuzzles;
pub mod iss;
pub mod links;
pub mod place;
pub mod sudokupad;

use crate::error::{InputError, Location, note};
use crate::puzzle::Puzzle;
use place::{Fault, Spot};

/// What a drawing without a rule of its own is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawnKind {
    /// A polyline (SudokuPad `lines`, f-puzzles `line`).
    Line,
    /// An arrow (SudokuPad `arrows`).
    Arrow,
    /// A shape on or between cells (SudokuPad `overlays` and `underlays`,
    /// f-puzzles `circle` and `rectangle`).
    Overlay,
}

impl DrawnKind {
    /// The name used in flags (`--line`) and messages.
    pub fn name(self) -> &'static str {
        match self {
            DrawnKind::Line => "line",
            DrawnKind::Arrow => "arrow",
            DrawnKind::Overlay => "overlay",
        }
    }
}

/// A drawing whose meaning the rules text gives (SudokuPad's lines,
/// arrows and overlays; f-puzzles' `line`, `circle` and `rectangle`).
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// Line, arrow or overlay.
    pub what: DrawnKind,
    /// Its colour: lower-case hex without `#` (`67f067`), or `none`.
    pub colour: String,
    /// The cells whose centres it passes through.
    pub cells: Vec<(usize, usize)>,
    /// Where it starts, in cell units (`(y, x)`), for one not on a centre.
    pub at: String,
    /// Its text (an overlay's clue), if any.
    pub text: Option<String>,
}

/// What a drawing of one colour may be declared to mean: `ignore` (it is
/// decoration) or a constraint of the variant vocabulary, which the
/// element modules will read.
pub const MEANINGS: &[&str] = &[
    "ignore",
    "thermo",
    "slowthermo",
    "arrow",
    "doublearrow",
    "whispers",
    "renban",
    "palindrome",
    "between",
    "lockout",
    "regionsum",
    "zipper",
    "entropic",
    "modular",
    "nabner",
    "kropki-white",
    "kropki-black",
    "x",
    "v",
    "odd",
    "even",
    "minimum",
    "maximum",
    "quadruple",
    "diagonal",
    "extraregion",
];

/// Meanings no drawing of one colour can state: clues outside the grid
/// (a little killer's, a sandwich's, an X-sum's, a skyscraper's) are a
/// number there, which SudokuPad and f-puzzles draw as a text apart from
/// any arrow or line, with nothing tying the two, so `--line`, `--arrow`
/// and `--overlay` refuse them by name (each name, the element's and its
/// f-puzzles key).
const OUTSIDE_CLUES: &[&str] = &[
    "littlekiller",
    "little-killer",
    "littlekillersum",
    "sandwich",
    "sandwichsum",
    "x-sum",
    "xsum",
    "skyscraper",
];

/// The f-puzzles key a meaning stands for where the two names differ
/// (SudokuPad's flags use the community's short names).
const MEANING_KEYS: &[(&str, &str)] = &[
    ("thermo", "thermometer"),
    ("slowthermo", "slowthermometer"),
    ("between", "betweenline"),
    ("regionsum", "regionsumline"),
    ("zipper", "zipperline"),
    ("entropic", "entropicline"),
    ("modular", "modularline"),
    ("slow-thermometer", "slowthermometer"),
];

/// The element a meaning names and the f-puzzles key its hook reads it
/// under: the meaning as an f-puzzles key (after [`MEANING_KEYS`]), or an
/// element's name (its first f-puzzles key).
fn element_of(meaning: &str) -> Option<(&'static crate::elements::Entry, &'static str)> {
    let key = MEANING_KEYS
        .iter()
        .find(|(m, _)| *m == meaning)
        .map_or(meaning, |(_, k)| k);
    if let Some(e) = crate::elements::by_fpuzzles_key(key) {
        let key = e.fpuzzles.iter().find(|k| **k == key)?;
        return Some((e, key));
    }
    let e = crate::elements::REGISTRY
        .iter()
        .find(|e| e.name == meaning)?;
    Some((e, e.fpuzzles.first()?))
}

/// How importing reads what it does not know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Pass over unknown keys and constraint types (listed as ignored)
    /// instead of refusing the puzzle.
    pub ignore_unknown: bool,
    /// What drawings of a colour mean (SudokuPad's, and f-puzzles' own
    /// `line`, `circle` and `rectangle`): (kind, colour, meaning).
    pub meanings: Vec<(DrawnKind, String, String)>,
    /// Rules over the whole grid that the rules text states and the
    /// payload does not (`--with anti-knight`): each an element's name or
    /// f-puzzles key, read as that key set to `true`.
    pub with: Vec<String>,
}

impl Options {
    /// Adds `COLOR=MEANING` for drawings of `what`, or says what is wrong
    /// with it.
    pub fn add_meaning(&mut self, what: DrawnKind, spec: &str) -> Result<(), String> {
        let flag = what.name();
        let Some((colour, meaning)) = spec.split_once('=') else {
            return Err(format!(
                "--{flag} {spec}: write COLOR=MEANING, e.g. --{flag} 67f067=whispers"
            ));
        };
        let colour = colour.trim().trim_start_matches('#').to_ascii_lowercase();
        let hex = (colour.len() == 6 || colour.len() == 8)
            && colour.bytes().all(|b| b.is_ascii_hexdigit());
        // `none`: drawn without a colour (text-only overlays).
        if !hex && colour != "none" {
            return Err(format!(
                "--{flag} {spec}: the colour must be 6 (or 8) hex digits, e.g. 67f067, or none"
            ));
        }
        let meaning = meaning.trim().to_ascii_lowercase();
        if OUTSIDE_CLUES.contains(&meaning.as_str()) {
            return Err(format!(
                "--{flag} {spec}: `{meaning}` is a clue outside the grid, a number that \
                 SudokuPad and f-puzzles draw as a text apart from its arrow or line, so no \
                 {flag} can say it; little killers, sandwich, X-sum and skyscraper clues are \
                 read from f-puzzles links (SudokuPad's fpuzzles… links too) and ISS strings \
                 (.LittleKiller, .Sandwich, .XSum, .Skyscraper)"
            ));
        }
        if !MEANINGS.contains(&meaning.as_str()) && element_of(&meaning).is_none() {
            return Err(format!(
                "--{flag} {spec}: `{meaning}` is no meaning smtgrid knows; give one of {}",
                MEANINGS.join(", ")
            ));
        }
        // Which of two meanings the user meant is theirs to say: the first
        // one was kept silently.
        if let Some((_, _, before)) = self
            .meanings
            .iter()
            .find(|(w, c, m)| *w == what && *c == colour && *m != meaning)
        {
            return Err(format!(
                "--{flag} {spec}: {colour} is already given the meaning {before}; give each \
                 colour one meaning"
            ));
        }
        self.meanings.push((what, colour, meaning));
        Ok(())
    }

    /// Adds `--with`'s comma-separated rules over the whole grid, or says
    /// what is wrong with one: each must name an element whose f-puzzles
    /// form is a flag (`"antiknight": true`), as its hook says.
    pub fn add_with(&mut self, list: &str) -> Result<(), String> {
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let name = name.to_ascii_lowercase();
            let what = if element_of(&name).is_none() {
                "no element is called so".to_string()
            } else {
                // The size does not change whether a key is a flag.
                match grid_rule(&name, 9) {
                    Ok(_) => String::new(),
                    Err(m) => format!("not a rule over the whole grid ({m})"),
                }
            };
            if !what.is_empty() {
                return Err(format!(
                    "--with {name}: {what}; --with adds a rule over the whole grid that a \
                     puzzle has or has not, by its element's name or f-puzzles key, such as \
                     anti-knight, anti-king, disjointgroups, nonconsecutive, diagonal+ or diagonal-"
                ));
            }
            if !self.with.contains(&name) {
                self.with.push(name);
            }
        }
        Ok(())
    }

    /// The meaning given for drawings of `what` in `colour`: an 8-digit
    /// colour (with alpha) also answers to its first 6 digits.
    pub(crate) fn meaning(&self, what: DrawnKind, colour: &str) -> Option<&str> {
        self.meanings
            .iter()
            .find(|(w, c, _)| *w == what && (c == colour || colour.get(..6) == Some(c.as_str())))
            .map(|(_, _, m)| m.as_str())
    }
}

/// The rule over the whole grid `name` (an element's name or f-puzzles
/// key) for an `n`×`n` grid: the f-puzzles key set to `true`, read by the
/// element that claims it, as a SudokuPad rule flag and `--with` are.
pub(crate) fn grid_rule(name: &str, n: usize) -> Result<Vec<crate::elements::Element>, String> {
    let Some((entry, key)) = element_of(name) else {
        return Err(format!("`{}`: not yet supported", short_key(name)));
    };
    (entry.from_fpuzzles)(key, &serde_json::Value::Bool(true), n)
        .map_err(|m| format!("`{key}` ({}): {m}", entry.name))
}

/// The puzzle of `plain` with the rules `--with` adds (each once: one the
/// payload states already is not added again, as the puzzle keeps each
/// flag once), checked as every imported puzzle is ([`build::to_puzzle`]).
fn finish(mut plain: build::Plain, opts: &Options, name: &str) -> Result<Puzzle, build::Refusal> {
    for rule in &opts.with {
        plain
            .elements
            .extend(grid_rule(rule, plain.n).map_err(|m| format!("--with {m}"))?);
    }
    build::to_puzzle(plain, name)
}

/// A key or value from the input, cut short and safe for a message.
pub(crate) fn short_key(k: &str) -> String {
    crate::error::escape_controls(&links::shorten(k)).into_owned()
}

/// A colour as `--line` and messages spell it: lower-case hex without
/// `#` (`67f067`), or `none`.
pub(crate) fn colour(v: Option<&serde_json::Value>) -> String {
    let s = v.and_then(serde_json::Value::as_str).unwrap_or("none");
    s.trim().trim_start_matches('#').to_ascii_lowercase()
}

/// A drawing's text (a string trimmed, or a number), if it has one.
pub(crate) fn drawn_text(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) => Some(s.trim().to_string()),
        serde_json::Value::Number(x) => Some(x.to_string()),
        _ => None,
    }
    .filter(|t| !t.is_empty())
}

/// Reads drawings by the meanings given, for both formats that draw them
/// (`source`: "SudokuPad" or "f-puzzles"): one without a meaning is
/// refused naming its colour, cells and the flag to use (f-puzzles hands
/// over only the drawings given one: the rest stay decoration, listed in
/// a note); one declared `ignore` passes; a drawing whose meaning names
/// an element becomes that element, built by its f-puzzles hook from the
/// f-puzzles shape of a line (`[{"lines": [["R1C1", …]]}]`), so an element
/// with a hook needs no code here; any other meaning is refused as not yet
/// supported.
pub(crate) fn drawn_meanings(
    source: &str,
    drawn: &[Drawn],
    opts: &Options,
    n: usize,
) -> Result<Vec<crate::elements::Element>, String> {
    let mut elements = Vec::new();
    let mut groups: Vec<(DrawnKind, &str, Vec<&Drawn>)> = Vec::new();
    for d in drawn {
        match groups
            .iter_mut()
            .find(|(w, c, _)| *w == d.what && *c == d.colour)
        {
            Some(g) => g.2.push(d),
            None => groups.push((d.what, &d.colour, vec![d])),
        }
    }
    for (what, colour, items) in groups {
        let flag = what.name();
        let count = items.len();
        let first = items[0];
        let place = if first.cells.is_empty() {
            format!("at {}", first.at)
        } else {
            let cells: Vec<String> = first
                .cells
                .iter()
                .take(8)
                .map(|&(r, c)| crate::error::rc(r, c))
                .collect();
            format!(
                "on {}{}",
                cells.join("-"),
                if first.cells.len() > 8 { "-…" } else { "" }
            )
        };
        let text = first
            .text
            .as_deref()
            .map(|t| format!(" with the text `{}`", short_key(t)))
            .unwrap_or_default();
        let many = if count == 1 {
            String::new()
        } else {
            format!(" and {} more of that colour", count - 1)
        };
        match opts.meaning(what, colour) {
            Some("ignore") => {}
            Some(m) if let Some((entry, key)) = element_of(m) => {
                let lines: Vec<serde_json::Value> =
                    items.iter().copied().map(fpuzzles_entry).collect();
                let read = (entry.from_fpuzzles)(key, &serde_json::Value::Array(lines), n)
                    .map_err(|e| {
                        format!(
                            "{source} {flag}s #{colour} as {m} ({place}{many}): {e}; if the rules \
                             text gives them another meaning, say it with --{flag} {colour}=MEANING, \
                             or --{flag} {colour}=ignore for a decoration"
                        )
                    })?;
                elements.extend(read);
            }
            None => {
                return Err(format!(
                    "{source} {flag} #{colour} {place}{text}{many}: its meaning is in the rules \
                     text only; say what it is with --{flag} {colour}=MEANING (MEANING one of \
                     {}), or --{flag} {colour}=ignore for a decoration",
                    MEANINGS[1..].join(", ")
                ));
            }
            Some(m) => {
                return Err(format!(
                    "{source} {flag}s #{colour} as {m} ({count}): not yet supported"
                ));
            }
        }
    }
    Ok(elements)
}

/// A SudokuPad drawing in the f-puzzles shape its element's hook reads:
/// a line's cells as `{"lines": [[…]]}`; an arrow's also its first cell
/// (inside the circle) as the circle's `cells`; an overlay's cells as
/// `cells` (a dot on a border: the two cells it joins) and, on one cell,
/// `cell`; a text as `value`. Each hook reads the fields its shape has.
fn fpuzzles_entry(d: &Drawn) -> serde_json::Value {
    let names: Vec<String> = d
        .cells
        .iter()
        .map(|&(r, c)| format!("R{}C{}", r + 1, c + 1))
        .collect();
    let mut item = serde_json::json!({ "lines": [names.clone()] });
    match d.what {
        DrawnKind::Line => {}
        DrawnKind::Arrow => {
            item["cells"] = serde_json::json!(names.first().into_iter().collect::<Vec<_>>())
        }
        DrawnKind::Overlay => {
            if let [one] = &names[..] {
                item["cell"] = serde_json::json!(one);
            }
            item["cells"] = serde_json::json!(names);
        }
    }
    if let Some(t) = &d.text {
        item["value"] = serde_json::json!(t);
    }
    item
}

/// What `--ignore-unknown` passed over, as a note.
fn note_ignored(notes: &mut Vec<String>, what: &str, ignored: &[String]) {
    if !ignored.is_empty() {
        let keys: Vec<String> = ignored
            .iter()
            .map(|k| format!("`{}`", short_key(k)))
            .collect();
        notes.push(format!(
            "ignored (--ignore-unknown) {what} {}",
            keys.join(", ")
        ));
    }
}

/// Notes what f-puzzles drawings were passed over: a setter who drew a rule
/// with plain lines or circles states it in the rules text only, which
/// smtgrid cannot read, so the user is told what the puzzle was read
/// without.
fn note_fpuzzles(notes: &mut Vec<String>, f: &fpuzzles::FPuzzle) {
    note_ignored(notes, "f-puzzles keys", &f.ignored);
    if !f.cosmetic.is_empty() {
        let list: Vec<String> = f.cosmetic.iter().map(|(k, n)| format!("{n} {k}")).collect();
        notes.push(format!(
            "note: read without the drawings that carry no rule of their own ({}); if the rules \
             text gives them one, the puzzle read is not the one published",
            list.join(", ")
        ));
    }
}

/// The puzzle a link or ISS string carries, named `name`; errors are at
/// `at` (`FILE:LINE`).
pub fn read_link(
    text: &str,
    name: &str,
    at: &Location,
    opts: &Options,
) -> Result<Puzzle, InputError> {
    let fail = |m: String| InputError::new(at.clone(), m);
    // The JSON inside a link is never seen: its faults name their path.
    let fault = |f: Fault| json_fault(f, at, None);
    let mut notes = Vec::new();
    let p = match links::decode(text).map_err(fail)? {
        links::Payload::Fpuzzles(text) => {
            let v = serde_json::from_str(&text)
                .map_err(|e| fault(fpuzzles::syntax(&text, &e, "f-puzzles")))?;
            read_json(&text, &v, true, name, opts, &mut notes).map_err(fault)?
        }
        // SudokuPad links may wrap f-puzzles JSON too.
        links::Payload::Scl(t) => {
            let v = sudokupad::unzip(&t).map_err(fail)?;
            read_json(&t, &v, false, name, opts, &mut notes).map_err(fault)?
        }
        links::Payload::Iss(t) => {
            let p = iss::read(&t, opts).map_err(fail)?;
            note_ignored(&mut notes, "ISS constraints", &p.ignored);
            let plain = iss::to_plain(&p).map_err(fail)?;
            finish(plain, opts, name).map_err(|r| fail(r.message))?
        }
    };
    told(at, &notes);
    Ok(p)
}

/// The puzzle named `name` of JSON `text` (read as `v`): f-puzzles JSON
/// when `fpuzzles` says so or it has `size` or `grid`, else SudokuPad's
/// own. Either is held to keys coming once (SudokuPad's abbreviated form,
/// which that check reads only as far as it is JSON, by `unzip`), and a
/// refusal of the whole puzzle points at the cell it blames where the
/// format writes it.
fn read_json(
    text: &str,
    v: &serde_json::Value,
    fpuzzles: bool,
    name: &str,
    opts: &Options,
    notes: &mut Vec<String>,
) -> Result<Puzzle, Fault> {
    if fpuzzles || v.get("size").is_some() || v.get("grid").is_some() {
        fpuzzles::refuse_repeats(text, "f-puzzles")?;
        let f = fpuzzles::read_value(v, opts)?;
        note_fpuzzles(notes, &f);
        let plain = fpuzzles::to_plain(&f, opts)?;
        let n = plain.n;
        finish(plain, opts, name).map_err(|r| fpuzzles::blamed(r, n))
    } else {
        fpuzzles::refuse_repeats(text, "SudokuPad")?;
        let s = sudokupad::read(v, opts)?;
        note_ignored(notes, "SudokuPad keys", &s.ignored);
        let plain = sudokupad::to_plain(&s, opts)?;
        finish(plain, opts, name).map_err(|r| Fault::blamed(r, |b| s.path_of(b)))
    }
}

/// Shows the notes of a puzzle that was read (none for one refused: its
/// error says enough).
fn told(at: &Location, notes: &[String]) {
    for n in notes {
        note(format_args!("{at}: {n}"));
    }
}

/// The puzzle of a JSON file: f-puzzles JSON, or SudokuPad's own (plain
/// JSON, as a SudokuPad link's payload decodes to), told apart by
/// `read_json`.
pub fn read_json_file(
    text: &str,
    name: &str,
    at: &Location,
    opts: &Options,
) -> Result<Puzzle, InputError> {
    if text.len() > links::MAX_DECODED {
        return Err(InputError::new(
            at.clone(),
            format!(
                "the file is larger than {} MB, more than an f-puzzles or SudokuPad puzzle holds",
                links::MAX_DECODED >> 20
            ),
        ));
    }
    let fault = |f: Fault| json_fault(f, at, Some(text));
    let v = serde_json::from_str(text)
        .map_err(|e| fault(fpuzzles::syntax(text, &e, "f-puzzles or SudokuPad")))?;
    let mut notes = Vec::new();
    let p = read_json(text, &v, false, name, opts, &mut notes).map_err(fault)?;
    told(at, &notes);
    Ok(p)
}

/// `fault` as an input error at `at`. In a JSON file (`file`, its text)
/// it is at the line and column of its place, as a TOML file's errors
/// are, or, where the text does not show that place, at the file with
/// the path; in a link, whose JSON the user never sees, its place is
/// named by its JSON path (`grid[3][4].value: …`) below the top level,
/// or by the line and column of the JSON for a syntax error.
fn json_fault(fault: Fault, at: &Location, file: Option<&str>) -> InputError {
    let path = |p: &place::JsonPath| {
        // A top-level key's messages name it already.
        if p.0.len() > 1 {
            format!("{p}: ")
        } else {
            String::new()
        }
    };
    let Some(text) = file else {
        let spot = match &fault.at {
            Some(Spot::Text(line, column)) => format!("line {line}, column {column} of the JSON: "),
            Some(Spot::Value(p) | Spot::Key(p) | Spot::Found(p, _)) => path(p),
            None => String::new(),
        };
        return InputError::new(at.clone(), format!("{spot}{}", fault.message));
    };
    let offset = match &fault.at {
        Some(Spot::Text(line, column)) => {
            return InputError::new(at.at(*line, *column), fault.message);
        }
        Some(Spot::Found(_, offset)) => Some(*offset),
        Some(Spot::Value(p)) => place::place(text, p).map(|p| p.value),
        Some(Spot::Key(p)) => place::place(text, p).map(|p| p.key.unwrap_or(p.value)),
        None => None,
    };
    match (offset, &fault.at) {
        (Some(o), _) => {
            let (line, column) = crate::error::line_col(text, o);
            InputError::new(at.at(line, column), fault.message)
        }
        (None, Some(Spot::Value(p) | Spot::Key(p))) => {
            InputError::new(at.clone(), format!("{}{}", path(p), fault.message))
        }
        (None, _) => InputError::new(at.clone(), fault.message),
    }
}

/// The f-puzzles link of `p` (`https://www.f-puzzles.com/?load=…`), or why
/// it has none.
pub fn fpuzzles_link(p: &Puzzle) -> Result<String, String> {
    let json = fpuzzles::from_puzzle(p)?;
    Ok(format!(
        "https://www.f-puzzles.com/?load={}",
        links::lz_compress(&json.to_string())
    ))
}

/// What of `p` its f-puzzles link leaves out, said as a note: f-puzzles
/// holds a title, an author and the rules in words, but has no place for
/// the tables a generated puzzle ends with (`[source]`, `[grade]`).
/// `None` when the link holds it all.
pub fn fpuzzles_leaves_out(p: &Puzzle) -> Option<String> {
    if p.about.tables.is_empty() {
        return None;
    }
    let tables: Vec<String> = p
        .about
        .tables
        .iter()
        .map(|(name, _)| format!("[{name}]"))
        .collect();
    Some(format!(
        "{}: f-puzzles has no place for {} {}: the link leaves {} out (--to toml keeps {})",
        p.name,
        tables.join(" and "),
        if tables.len() == 1 { "table" } else { "tables" },
        if tables.len() == 1 { "it" } else { "them" },
        if tables.len() == 1 { "it" } else { "them" },
    ))
}

/// A name for a link given where a puzzle file goes: `link-` and eight hex
/// digits of its SHA-256, so that two links never share a name and a
/// link's name does not change between runs.
pub fn link_name(link: &str) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(link.trim().as_bytes());
    format!(
        "link-{}",
        d.iter()
            .take(4)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}
