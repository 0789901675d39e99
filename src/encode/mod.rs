//! Encodings: each turns a [`Model`] into an SMT-LIB2 script and knows how
//! to read the cells back from the solver's model. Encodings build scripts
//! only; they never start a process.
//!
//! Every encoding's cost is polynomial in the model: each module states
//! the bound on its script's size, `tests/it/bounds.rs` checks it on random
//! puzzles and single-cage grids, and `scripts/bench-bounds` measures time
//! and memory on 16×16 to 64×64 grids that are one big cage. Encoding
//! checks a [`Cancel`] flag at its loops ([`encode_cancellable`]).

mod layered;
mod propagate;
mod shared;

use std::collections::BTreeMap;

use crate::cancel::Cancel;
use crate::model::{Cell, Constraint, Group, Model, Rule, Stretch, Target};
use crate::smtlib::script::quoted_symbol_text;
use crate::smtlib::{Script, Sort, Term, Value};
pub use shared::{Shared, encode_shared};

/// What every encoding module provides: one row of the encoder table.
struct Encoder {
    /// Builds the script's body.
    build: fn(&Model, &Settings, &Cancel) -> Result<Body, Interrupted>,
    /// Symbol occurrences the body has at most (see [`size_bound`]).
    symbols: fn(&Model, &Dims) -> u64,
}

/// The encoder table. An encoding is one module (with `encode` and
/// `symbols`) and one line here: the line makes the [`Encoding`] variant,
/// its name, its dispatch, its size bound and its index in per-encoding
/// slots ([`Encoding::index`]), so none of them can disagree.
macro_rules! encoder_table {
    ($($(#[doc = $doc:literal])+ $variant:ident = $module:ident, $summary:literal;)+) => {
        $(mod $module;)+

        /// An encoding of the constraint model into SMT-LIB2.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Encoding {
            $($(#[doc = $doc])+ $variant,)+
        }

        /// One row per [`Encoding`], in the order of its variants.
        /// Each encoding's name on the command line, in reports and in
        /// records: its module's name.
        const NAMES: &[&str] = &[$(stringify!($module),)+];

        /// Each encoding in a few words, for `--help`.
        const SUMMARIES: &[&str] = &[$($summary,)+];

        const ENCODERS: &[Encoder] = &[$(Encoder {
            build: $module::encode,
            symbols: $module::symbols,
        },)+];

        impl Encoding {
            /// Every encoding, in table order.
            pub const ALL: [Encoding; ENCODERS.len()] = [$(Encoding::$variant,)+];
        }
    };
}

encoder_table! {
    /// One `Int` per cell, `distinct`, linear sums (the source documents'
    /// encoding); QF_LIA, or QF_NIA when products appear.
    Lia = lia, "Integers (QF_LIA, or QF_NIA with products)";
    /// One Bool per (cell, value); pure propositional logic (QF_UF).
    Onehot = onehot, "One Bool per cell and value (QF_UF)";
    /// One bit-vector per cell; QF_BV.
    Bv = bv, "Bit-vectors (QF_BV)";
}

impl Encoding {
    /// How many encodings there are: the size of per-encoding slots.
    pub const COUNT: usize = ENCODERS.len();
    /// The encoding's position in [`Encoding::ALL`], below
    /// [`Encoding::COUNT`]: the index of its per-encoding slot.
    pub fn index(self) -> usize {
        // Variants are declared in table order with default discriminants.
        self as usize
    }
    fn encoder(self) -> &'static Encoder {
        &ENCODERS[self.index()]
    }
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }
    /// The encoding in a few words, e.g. "Bit-vectors (QF_BV)".
    pub fn summary(self) -> &'static str {
        SUMMARIES[self.index()]
    }
    /// The encoding called `name`.
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl serde::Serialize for Encoding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Encoding {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Encoding::from_name(&name).ok_or_else(|| serde::de::Error::unknown_variant(&name, NAMES))
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Choices that change the script but not its meaning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Emit the unsimplified form: no propagation of givens (onehot, bv).
    pub plain: bool,
}

/// Encoding stopped because its cancellation flag was set (Ctrl-C).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// How to read one cell's value back from a solver's model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellRead {
    /// The encoder already knows the value (a given, or propagated).
    Known(i64),
    /// An `Int` constant holds the value.
    Int(String),
    /// A bit-vector constant of this width holds the value.
    Bv(String, u32),
    /// One Bool per candidate value; the true one is the value.
    OneHot(Vec<(i64, String)>),
}

/// Reads cell values out of a solver's model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoder {
    /// One entry per cell of the model, in order.
    pub cells: Vec<CellRead>,
}

impl Encoded {
    /// The percentage (0 to 100) of `model`'s cell values the script
    /// leaves open: how much a solver's search has left to settle. A
    /// one-hot cell counts its candidates (propagation removed the
    /// others), a decided cell none, an integer or bit-vector cell its
    /// whole range.
    pub fn open_percent(&self, model: &Model) -> u8 {
        let range =
            |c: &crate::model::Cell| c.hi.saturating_sub(c.lo).saturating_add(1).max(0) as f64;
        let all: f64 = model.cells.iter().map(range).sum();
        let open: f64 = self
            .decoder
            .cells
            .iter()
            .zip(&model.cells)
            .map(|(read, cell)| match read {
                CellRead::Known(_) => 0.0,
                CellRead::OneHot(vars) => vars.len() as f64,
                CellRead::Int(_) | CellRead::Bv(..) => range(cell),
            })
            .sum();
        if all > 0.0 {
            (100.0 * open / all).round().clamp(0.0, 100.0) as u8
        } else {
            0
        }
    }
}

impl Decoder {
    /// The value of every cell, or a message naming the first constant the
    /// solver's model lacks or gives a value of the wrong sort.
    pub fn decode(&self, model: &BTreeMap<String, Value>) -> Result<Vec<i64>, String> {
        self.cells.iter().map(|c| read_cell(c, model)).collect()
    }

    /// The term "cell `cell` holds `v`" (`false` for a value it cannot
    /// hold or a cell that does not exist).
    pub fn holds(&self, cell: usize, v: i64) -> Term {
        self.cells
            .get(cell)
            .map_or_else(|| Term::sym("false"), |c| holds(c, v))
    }

    /// The constants a `get-value` must ask for to read every cell the
    /// solver decides (one-hot cells: each of their Bools).
    pub fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for c in &self.cells {
            match c {
                CellRead::Known(_) => {}
                CellRead::Int(n) | CellRead::Bv(n, _) => names.push(n.clone()),
                CellRead::OneHot(vars) => names.extend(vars.iter().map(|(_, n)| n.clone())),
            }
        }
        names
    }

    /// Whether every cell's value is known without a solver's model.
    pub fn all_known(&self) -> bool {
        self.cells.iter().all(|c| matches!(c, CellRead::Known(_)))
    }

    /// A term that excludes exactly this assignment, to ask for another
    /// solution (only cells the solver decides are mentioned).
    pub fn block(&self, values: &[i64]) -> Term {
        let lits = self
            .cells
            .iter()
            .zip(values)
            .filter(|(c, _)| !matches!(c, CellRead::Known(_)))
            .map(|(c, &v)| Term::not(holds(c, v)))
            .collect();
        Term::or(lits)
    }
}

/// The term "the cell holds `v`" (`false` when `v` is none of its
/// candidates).
fn holds(c: &CellRead, v: i64) -> Term {
    let no = || Term::sym("false");
    match c {
        CellRead::Known(k) => Term::sym(if *k == v { "true" } else { "false" }),
        CellRead::Int(name) => Term::eq(Term::sym(name), Term::Int(v)),
        CellRead::Bv(name, width) => match u64::try_from(v) {
            Ok(value) if *width >= 64 || value >> width == 0 => Term::eq(
                Term::sym(name),
                Term::Bv {
                    value,
                    width: *width,
                },
            ),
            _ => no(),
        },
        CellRead::OneHot(vars) => vars
            .iter()
            .find(|(val, _)| *val == v)
            .map_or_else(no, |(_, name)| Term::sym(name)),
    }
}

fn read_cell(c: &CellRead, model: &BTreeMap<String, Value>) -> Result<i64, String> {
    let get = |name: &str| {
        model
            .get(name)
            .ok_or_else(|| format!("the solver's model has no value for {name}"))
    };
    let wrong =
        |name: &str, v: &Value, expected: &str| format!("{name} is {v}, expected {expected}");
    match c {
        CellRead::Known(v) => Ok(*v),
        CellRead::Int(name) => {
            let v = get(name)?;
            let n = match v {
                Value::Int(n) => *n,
                // A real that is a whole number stands for that integer.
                Value::Real {
                    numerator,
                    denominator: 1,
                } => i128::from(*numerator),
                _ => return Err(wrong(name, v, "an integer")),
            };
            i64::try_from(n).map_err(|_| format!("{name} is {v}, out of range"))
        }
        CellRead::Bv(name, _) => match get(name)? {
            Value::BitVec { value, .. } => {
                i64::try_from(*value).map_err(|_| format!("{name} is {value}, out of range"))
            }
            other => Err(wrong(name, other, "a bit-vector")),
        },
        CellRead::OneHot(vars) => one_hot(vars, |_, name| match model.get(name) {
            // Model completion may leave out a Bool the solver never
            // needed; absent means false here, and the checker still
            // verifies the whole grid afterwards.
            Some(Value::Bool(b)) => Ok(*b),
            None => Ok(false),
            Some(other) => Err(wrong(name, other, "true or false")),
        }),
    }
}

/// The value whose variable is true, when exactly one is; `truth` reads a
/// variable by its place in `vars` or by name.
fn one_hot(
    vars: &[(i64, String)],
    mut truth: impl FnMut(usize, &str) -> Result<bool, String>,
) -> Result<i64, String> {
    let mut found = None;
    for (i, (v, name)) in vars.iter().enumerate() {
        if truth(i, name)? {
            if let Some(prev) = found {
                return Err(format!("{name} and the variable for {prev} are both true"));
            }
            found = Some(*v);
        }
    }
    found.ok_or_else(|| {
        let first = vars.first().map(|(_, n)| n.as_str()).unwrap_or("?");
        format!("no value variable is true for the cell of {first}")
    })
}

#[cfg(test)]
mod open_tests {
    use super::*;
    use crate::lower::lower;
    use crate::parse::parse_str;

    fn model(givens: &str) -> Model {
        let text = format!("kind = \"sudoku\"\ngivens = \"\"\"\n{givens}\"\"\"\n");
        let p = parse_str(&text, &crate::Location::file("t.toml"), None).expect("parses");
        lower(&p[0])
    }

    /// How open a puzzle is, as a race reads it off the script: none of
    /// a 4x4 that propagation fills, some of one it leaves partly open,
    /// all of it in the plain form and in encodings without candidates.
    #[test]
    fn open_percent_counts_the_candidates_propagation_leaves() {
        let filled = model("4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n");
        let open = |m: &Model, e: Encoding, plain: bool| {
            encode_cancellable(m, e, &Options { plain }, &Cancel::new())
                .expect("encodes")
                .open_percent(m)
        };
        assert_eq!(open(&filled, Encoding::Onehot, false), 0);
        assert_eq!(open(&filled, Encoding::Onehot, true), 100);
        assert_eq!(open(&filled, Encoding::Lia, true), 100);
        // Two givens: the rows, columns and boxes they are in lose a
        // value, the rest stays open.
        let partly = model("1 . . .\n. . . .\n. . . .\n. . . 2\n");
        let p = open(&partly, Encoding::Onehot, false);
        assert!((50..100).contains(&p), "{p}");
        let empty = model(". . . .\n. . . .\n. . . .\n. . . .\n");
        assert_eq!(open(&empty, Encoding::Onehot, false), 100);
    }
}

#[cfg(test)]
mod decode_tests {
    use super::*;

    fn decode(cell: CellRead, name: &str, v: Value) -> Result<Vec<i64>, String> {
        let model = BTreeMap::from([(name.to_string(), v)]);
        Decoder { cells: vec![cell] }.decode(&model)
    }

    #[test]
    fn values_of_the_wrong_sort_are_named_without_debug_output() {
        let int = || CellRead::Int("x_1_2".into());
        assert_eq!(
            decode(int(), "x_1_2", Value::Bool(true)),
            Err("x_1_2 is true, expected an integer".into())
        );
        let bv = Value::BitVec { value: 3, width: 4 };
        assert_eq!(
            decode(int(), "x_1_2", bv),
            Err("x_1_2 is #b0011, expected an integer".into())
        );
        assert_eq!(
            decode(CellRead::Bv("x_1_2".into(), 4), "x_1_2", Value::Int(3)),
            Err("x_1_2 is 3, expected a bit-vector".into())
        );
        let onehot = CellRead::OneHot(vec![(1, "x_1_2_1".into())]);
        assert_eq!(
            decode(onehot, "x_1_2_1", Value::Int(1)),
            Err("x_1_2_1 is 1, expected true or false".into())
        );
    }

    #[test]
    fn reals_and_huge_integers_in_int_cells() {
        let int = || CellRead::Int("x_1_2".into());
        let real = |numerator, denominator| Value::Real {
            numerator,
            denominator,
        };
        assert_eq!(decode(int(), "x_1_2", real(3, 1)), Ok(vec![3]));
        assert_eq!(
            decode(int(), "x_1_2", real(7, 2)),
            Err("x_1_2 is 7/2, expected an integer".into())
        );
        let huge = Value::TooLarge("1".repeat(41));
        assert_eq!(
            decode(int(), "x_1_2", huge),
            Err(format!("x_1_2 is {}, expected an integer", "1".repeat(41)))
        );
        assert_eq!(
            decode(int(), "x_1_2", Value::Int(1 << 70)),
            Err(format!("x_1_2 is {}, out of range", 1i128 << 70))
        );
    }
}

/// A complete script with what is needed to read its answer.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// Which encoding made it.
    pub encoding: Encoding,
    /// The logic named in `set-logic`.
    pub logic: &'static str,
    /// The whole script.
    pub script: String,
    /// Byte offset of the first command after the header (`set-info`,
    /// `set-option`, `set-logic`).
    header_end: usize,
    /// Byte offset of the closing `(check-sat)`: assertions added for a
    /// follow-up question go here.
    body_end: usize,
    /// Byte offset just past `(get-model)`, before `(exit)`: where
    /// [`Encoded::asking`] puts its further questions.
    model_end: usize,
    /// Number of `declare-const` commands.
    pub declarations: usize,
    /// Number of `assert` commands.
    pub assertions: usize,
    /// The SMT-LIB commands the script uses (`declare-const`, `get-model`,
    /// …), sorted: a solver that rejects one of them cannot take it.
    pub commands: Vec<&'static str>,
    /// Reads the grid back.
    pub decoder: Decoder,
    /// Per constraint of the model: where its commands are in `script`
    /// (byte range, comments left out); `None` for one that needed none
    /// (propagation decided its cells).
    pub spans: Vec<Option<(usize, usize)>>,
}

impl Encoded {
    /// The script with `extra` asserted before `(check-sat)`, e.g. a
    /// blocking clause to ask for a second solution.
    pub fn with_assertions(&self, comment: &str, extra: &[Term]) -> String {
        self.asking(Some((comment, extra)), "")
    }
    /// The script with `extra` (a comment and assertions) asserted before
    /// `(check-sat)`, if given, and the commands `after` sent after
    /// `(get-model)`, before `(exit)`: e.g. a statistics question.
    pub fn asking(&self, extra: Option<(&str, &[Term])>, after: &str) -> String {
        let mut mid = Script::new();
        if let Some((comment, terms)) = extra {
            mid.comment(comment);
            for t in terms {
                mid.assert(t);
            }
        }
        let s = &self.script;
        format!(
            "{}{}{}{after}{}",
            &s[..self.body_end],
            mid.as_str(),
            &s[self.body_end..self.model_end],
            &s[self.model_end..]
        )
    }
    /// The script up to (not including) its closing `(check-sat)`, for an
    /// interactive session that sends its own questions.
    pub fn body(&self) -> &str {
        &self.script[..self.body_end]
    }
    /// The declarations and assertions alone: the script without its
    /// header and its closing commands.
    pub fn assertions_text(&self) -> &str {
        &self.script[self.header_end..self.body_end]
    }
    /// The script as a benchmark of the SMT-LIB library: `header` (which
    /// holds its one `:status`), the declarations and assertions exactly
    /// as the solvers were given them, `(check-sat)` and `(exit)`; no
    /// `set-option`, no `get-model`.
    pub fn benchmark(&self, header: &str) -> String {
        let mut tail = Script::new();
        tail.check_sat();
        tail.exit();
        format!("{header}{}{}", self.assertions_text(), tail.as_str())
    }
    /// The uniqueness question as an incremental benchmark, the way
    /// `--unique` asks it: `header` (without a status), the puzzle,
    /// `first` status and `(check-sat)`, then `block` (the found solution
    /// excluded), `second` status and `(check-sat)`, `(exit)`.
    pub fn incremental_benchmark(
        &self,
        header: &str,
        first: crate::smtlib::benchmark::Status,
        block: &Term,
        second: crate::smtlib::benchmark::Status,
    ) -> String {
        use crate::smtlib::benchmark::status_line;
        let mut tail = Script::new();
        tail.comment("is there a solution other than the one found?");
        tail.assert(block);
        format!(
            "{header}{}{}\n(check-sat)\n{}{}\n(check-sat)\n(exit)\n",
            self.assertions_text(),
            status_line(first),
            tail.as_str(),
            status_line(second),
        )
    }
}

/// What an encoder produces before the common header and tail are added.
pub(crate) struct Body {
    /// Declarations and assertions.
    pub script: Script,
    /// The logic the body needs.
    pub logic: &'static str,
    /// How to read cells back.
    pub decoder: Decoder,
    /// Per constraint of the model: where its commands are in `script`
    /// (byte range, comments left out); `None` for one that needed none.
    pub spans: Vec<Option<(usize, usize)>>,
}

/// Writes the comments before constraint `c`: its group's heading when the
/// group changes, and the origin of each cage and run. Shared by every
/// encoding so their scripts read alike.
pub(crate) fn comment_constraint(s: &mut Script, last: &mut Option<Group>, c: &Constraint) {
    if *last != Some(c.group) {
        *last = Some(c.group);
        s.comment(c.group.title());
    }
    if matches!(
        c.group,
        Group::Cages | Group::AcrossRuns | Group::DownRuns | Group::EdgeClues | Group::Derived
    ) {
        s.comment(&c.origin);
    }
}

/// Appends one constraint's commands, `part` (written into a script of
/// their own), after its comments ([`comment_constraint`]), and returns
/// where they are; a constraint
/// that needed no command (its cells all decided, a group of one open
/// cell) leaves no comment either, so a script has no empty group.
pub(crate) fn append_constraint(
    s: &mut Script,
    last: &mut Option<Group>,
    c: &Constraint,
    part: Script,
) -> Option<(usize, usize)> {
    if part.is_empty() {
        return None;
    }
    comment_constraint(s, last, c);
    let start = s.as_str().len();
    s.append(part);
    Some((start, s.as_str().len()))
}

/// The SMT-LIB name of a cell's constant: `x_R_C`, 1-based, as the source
/// documents name them.
pub fn cell_name(cell: &Cell) -> String {
    format!("x_{}_{}", cell.row + 1, cell.col + 1)
}

/// Encodes `model`; the same input always gives byte-identical output.
pub fn encode(model: &Model, encoding: Encoding, opts: &Options) -> Encoded {
    match encode_cancellable(model, encoding, opts, &Cancel::new()) {
        Ok(e) => e,
        // Nobody else holds the flag, so nobody can set it.
        Err(Interrupted) => unreachable!("a fresh cancellation flag was set"),
    }
}

/// Encodes `model` like [`encode`], but stops with [`Interrupted`] soon
/// after `cancel` is set.
pub fn encode_cancellable(
    model: &Model,
    encoding: Encoding,
    opts: &Options,
    cancel: &Cancel,
) -> Result<Encoded, Interrupted> {
    let settings = Settings {
        options: *opts,
        form: onehot::Form::Compact,
    };
    let body = encode_body(model, encoding, &settings, cancel)?;
    Ok(finish(model, encoding, body))
}

/// What an encoder may vary beyond the model: the user's [`Options`] and
/// how short at-most-one constraints are written.
pub(crate) struct Settings {
    /// The user's choices.
    pub options: Options,
    /// Compact for scripts run once, clauses for sessions.
    pub form: onehot::Form,
}

fn encode_body(
    model: &Model,
    encoding: Encoding,
    settings: &Settings,
    cancel: &Cancel,
) -> Result<Body, Interrupted> {
    (encoding.encoder().build)(model, settings, cancel)
}

/// The model's measures the encodings' size bounds are stated in.
pub(crate) struct Dims {
    /// Cells.
    pub n: u64,
    /// The most candidates of any cell.
    pub dmax: u64,
    /// The largest magnitude of any cell's upper bound.
    pub top: u64,
    /// Distinct values any cell may hold.
    pub span: u64,
}

impl Dims {
    fn of(model: &Model) -> Dims {
        let span = match (
            model.cells.iter().map(|c| c.lo).min(),
            model.cells.iter().map(|c| c.hi).max(),
        ) {
            (Some(lo), Some(hi)) => (hi.saturating_sub(lo).max(0) as u64).saturating_add(1),
            _ => 1,
        };
        Dims {
            n: model.cells.len() as u64,
            dmax: model.cells.iter().map(candidates).max().unwrap_or(1),
            top: model
                .cells
                .iter()
                .map(|c| c.hi.unsigned_abs())
                .max()
                .unwrap_or(1),
            span,
        }
    }
}

/// Why propagation alone proves that `model` has no solution, if it does:
/// the cheapest reason smtgrid has, found without a solver.
pub fn propagation_conflict(model: &Model) -> Option<String> {
    propagate::Prepared::new(model, false, &Cancel::new())
        .ok()?
        .conflict
}

/// The value propagation decides for each cell (`None`: still open), as
/// the `onehot` and `bv` scripts use it; every cell open in the plain form
/// or when propagation proves there is no solution.
pub fn propagated_values(
    model: &Model,
    options: &Options,
    cancel: &Cancel,
) -> Result<Vec<Option<i64>>, Interrupted> {
    let p = propagate::Prepared::new(model, options.plain, cancel)?;
    Ok((0..model.cells.len())
        .map(|c| p.decided(c).filter(|_| p.conflict.is_none()))
        .collect())
}

/// The grid propagation alone decides, in `model`'s cell order, when it
/// decides every cell without a conflict; `None` otherwise or when
/// cancelled. Not yet checked: a caller that relies on it checks it.
pub fn propagated_grid(model: &Model, cancel: &Cancel) -> Option<Vec<i64>> {
    propagated_values(model, &Options::default(), cancel)
        .ok()?
        .into_iter()
        .collect()
}

/// Clauses saying that at most one of `lits` is true: a sequential counter
/// (Sinz), linear in size, where `s_i` means "one of the first i+1 is
/// true". Its auxiliary Bools are declared in `s` as `{prefix}{n}`,
/// numbered on from `*aux`. With `off`, each clause also holds `off`, so
/// that the counter binds only while `off` is false.
pub(crate) fn sequential_counter(
    s: &mut Script,
    lits: &[Term],
    prefix: &str,
    aux: &mut usize,
    off: Option<&Term>,
) {
    let mut fresh = |s: &mut Script| {
        *aux += 1;
        let n = format!("{prefix}{aux}");
        s.declare_const(&n, Sort::Bool);
        Term::sym(n)
    };
    let clause = |s: &mut Script, mut lits: Vec<Term>| {
        if let Some(off) = off {
            lits.insert(0, off.clone());
        }
        s.assert(&Term::or(lits));
    };
    let Some((first, rest)) = lits.split_first() else {
        return;
    };
    let n = lits.len();
    let mut prev = fresh(s);
    clause(s, vec![Term::not(first.clone()), prev.clone()]);
    for (i, x) in rest.iter().enumerate().map(|(i, x)| (i + 1, x)) {
        let nx = Term::not(x.clone());
        clause(s, vec![nx.clone(), Term::not(prev.clone())]);
        if i + 1 < n {
            let next = fresh(s);
            clause(s, vec![nx, next.clone()]);
            clause(s, vec![Term::not(prev), next.clone()]);
            prev = next;
        }
    }
}

/// Symbol occurrences of [`encode_guarded`]'s script for `model` at most:
/// lia's for the arithmetic rules, a dozen per (cell, value) for its Bool
/// and the cell's exactly-one value, and per all-different group of k cells
/// (at most k·d (cell, value) pairs) 33 per pair for the at-most-one
/// clauses (pairwise up to `PAIRWISE_MAX` cells, a sequential counter
/// above) and ten per value for the at-least-one; five per given and per
/// statement.
pub fn guarded_symbols(model: &Model, statements: usize) -> u64 {
    let dims = Dims::of(model);
    let mut arith = model.clone();
    arith
        .constraints
        .retain(|c| !matches!(c.rule, Rule::Fixed { .. } | Rule::AllDifferent { .. }));
    let cells: u64 = model.cells.iter().map(|c| 12 * candidates(c) + 4).sum();
    let rules: u64 = model
        .constraints
        .iter()
        .map(|c| match &c.rule {
            Rule::Fixed { .. } => 5,
            Rule::AllDifferent { cells } => {
                let pairs = cells.len() as u64 * dims.dmax;
                33 * pairs + 10 * pairs.min(dims.span)
            }
            _ => 0,
        })
        .fold(0u64, u64::saturating_add);
    lia::symbols(&arith, &Dims::of(&arith))
        .saturating_add(cells)
        .saturating_add(rules)
        .saturating_add(5 * statements as u64)
}

/// An upper bound on the bytes of [`encode_guarded`]'s script for `model`
/// with `statements` statements, counted as [`size_bound`] counts.
///
/// With `bools` (the form over Bools alone, as `onehot` states the puzzle
/// without propagation): `onehot`'s bound, which holds for its plain form
/// too, with each assertion's guard (`or`, `not` and the Bool: three
/// symbols more on an assertion of at least one) at most four times its
/// symbols, and five symbols per statement for the guards' declarations.
pub fn guarded_size_bound(model: &Model, statements: usize, bools: bool) -> u64 {
    let symbols = match bools {
        true => ((Encoding::Onehot.encoder().symbols)(model, &Dims::of(model)))
            .saturating_mul(4)
            .saturating_add(5 * statements as u64),
        false => guarded_symbols(model, statements),
    };
    1024u64.saturating_add(BOUND_SYMBOL_BYTES.saturating_mul(symbols))
}

/// A script in which each statement of a puzzle can be switched on and
/// off, for a session that asks `check-sat-assuming` over any set of
/// statements (see `explain`): one `Int` per cell with arithmetic rules in
/// the lia form, and one Bool per (cell, value) tied to it, with givens
/// and all-different as clauses; every constraint under the Bool of its
/// statement and stated on its own, so that turning a statement off
/// removes exactly its rules. An all-different group's at-most-one per
/// value is pairwise over at most `PAIRWISE_MAX` cells and a sequential
/// counter above, as in `onehot`: O(k·d) for k cells over d values, so the
/// script stays within [`guarded_size_bound`] (pairwise clauses made a
/// 64×64's script O(d·k²) per group, 1.5 GB).
#[derive(Debug, Clone)]
pub struct Guarded {
    /// The logic the session is started for.
    pub logic: &'static str,
    /// Options, logic, declarations and the guarded assertions; sent once.
    pub setup: String,
    /// The Bool of each statement, in the order of the statements.
    pub guards: Vec<String>,
    /// The SMT-LIB commands the setup uses, sorted.
    pub commands: Vec<&'static str>,
    /// Reads the cells back from a `get-value` of [`Decoder::names`].
    pub decoder: Decoder,
}

/// Encodes `model` with constraint `i` under the Bool of statement
/// `statement_of[i]` (`stmt_1`, `stmt_2`, … for statements 0, 1, …).
/// Constraints without a statement are always on.
///
/// With `bools`, the puzzle over Bools alone, as `onehot` states it (one
/// clause each, no propagation: a given may be turned off), each clause
/// of a constraint with its statement's Bool: `QF_UF`, for a plain SAT
/// solver such as Glucose, which takes no `Int`; only for questions that
/// keep every sum and all-different on (a cage is a choice of digit sets,
/// which holds only while its all-different does).
pub fn encode_guarded(
    model: &Model,
    statement_of: &[usize],
    statements: usize,
    bools: bool,
    cancel: &Cancel,
) -> Result<Guarded, Interrupted> {
    let guards: Vec<String> = (1..=statements).map(|k| format!("stmt_{k}")).collect();
    if bools {
        let guard = |i: usize| {
            statement_of
                .get(i)
                .and_then(|&k| guards.get(k))
                .map(Term::sym)
        };
        let body = onehot::encode_guarded(model, &guard, cancel)?;
        // No unsat cores are asked of it (Glucose answers the option
        // `unsupported`): the questions it is for need none.
        return Ok(with_guards(guards, body, false));
    }
    let guard = |i: usize| match statement_of.get(i).and_then(|&k| guards.get(k)) {
        Some(g) => Term::sym(g),
        None => Term::sym("true"),
    };
    // Arithmetic goes to lia; givens and all-different become clauses over
    // one Bool per (cell, value), which solvers reason about as a SAT
    // solver would (lia's `distinct` made a 9x9's questions take seconds).
    let propositional = |r: &Rule| matches!(r, Rule::Fixed { .. } | Rule::AllDifferent { .. });
    let (mut arith, mut terms) = (model.clone(), Vec::new());
    arith.constraints.clear();
    for (i, c) in model.constraints.iter().enumerate() {
        if !propositional(&c.rule) {
            arith.constraints.push(c.clone());
            terms.push(guard(i));
        }
    }
    let mut body = lia::encode_guarded(&arith, Some(&terms), cancel)?;
    let s = &mut body.script;
    s.comment("one Bool per (cell, value), true when the cell holds the value");
    let lit = |c: usize, v: i64| Term::sym(format!("{}_{v}", cell_name(&model.cells[c])));
    for (id, c) in model.cells.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(Interrupted);
        }
        let name = cell_name(c);
        let mut any = Vec::new();
        for v in c.lo..=c.hi {
            s.declare_const(&format!("{name}_{v}"), Sort::Bool);
            s.assert(&Term::eq(
                lit(id, v),
                Term::eq(Term::sym(&name), Term::Int(v)),
            ));
            any.push(lit(id, v));
        }
        s.assert(&Term::or(any));
    }
    s.comment("givens and all-different, each under its statement's Bool");
    let mut aux = 0;
    for (i, c) in model.constraints.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err(Interrupted);
        }
        let off = Term::not(guard(i));
        match &c.rule {
            Rule::Fixed { cell, value } => s.assert(&Term::or(vec![off, lit(*cell, *value)])),
            Rule::AllDifferent { cells } => {
                let mut values: Vec<i64> = cells
                    .iter()
                    .flat_map(|&x| model.cells[x].lo..=model.cells[x].hi)
                    .collect();
                values.sort_unstable();
                values.dedup();
                for &v in &values {
                    if cancel.is_cancelled() {
                        return Err(Interrupted);
                    }
                    let has: Vec<usize> = cells
                        .iter()
                        .copied()
                        .filter(|&x| (model.cells[x].lo..=model.cells[x].hi).contains(&v))
                        .collect();
                    if has.len() <= onehot::PAIRWISE_MAX {
                        for (k, &a) in has.iter().enumerate() {
                            for &b in &has[k + 1..] {
                                let lits =
                                    vec![off.clone(), Term::not(lit(a, v)), Term::not(lit(b, v))];
                                s.assert(&Term::or(lits));
                            }
                        }
                    } else {
                        let lits: Vec<Term> = has.iter().map(|&x| lit(x, v)).collect();
                        sequential_counter(s, &lits, "amo_", &mut aux, Some(&off));
                    }
                    // As many values as cells: each value is somewhere.
                    if values.len() == cells.len() {
                        let mut lits = vec![off.clone()];
                        lits.extend(has.iter().map(|&x| lit(x, v)));
                        s.assert(&Term::or(lits));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(with_guards(guards, body, true))
}

/// The session's setup: options, logic, the statements' Bools, `body`;
/// unsat cores asked for with `cores`.
fn with_guards(guards: Vec<String>, body: Body, cores: bool) -> Guarded {
    let mut head = Script::new();
    // produce-models must come before set-logic: yices rejects it after.
    head.set_option("produce-models", "true");
    if cores {
        head.set_option("produce-unsat-assumptions", "true");
    }
    head.set_logic(body.logic);
    head.comment("statements: each one's constraints hold when its Bool is assumed");
    for g in &guards {
        head.declare_const(g, Sort::Bool);
    }
    let commands = Script::commands_of(&[&head, &body.script]);
    let mut setup = head.into_string();
    setup.push_str(body.script.as_str());
    Guarded {
        logic: body.logic,
        setup,
        guards,
        commands,
        decoder: body.decoder,
    }
}

/// A [`Rule::PositionalSum`] over a line of `len` cells as the integer
/// encodings write it: for each cell a Bool term "this cell is summed",
/// and the condition that the stretch exists. `is(i, v)` says cell `i`
/// holds `v`, `at_least(i, v)` that it holds at least `v`; `define` names
/// a Bool term. Linear in the line: a sandwich names, per cell, whether
/// each end's value was met before it (so "between" is one comparison of
/// two such names), an X-sum compares the first cell with each position.
pub(crate) fn stretch_terms(
    stretch: Stretch,
    len: usize,
    is: &dyn Fn(usize, i64) -> Term,
    at_least: &dyn Fn(usize, i64) -> Term,
    define: &mut dyn FnMut(Term) -> Term,
) -> (Vec<Term>, Term) {
    match stretch {
        Stretch::Between { a, b } => {
            // met[k]: the value is among the cells before cell k.
            let mut met = |v: i64| {
                let mut out = vec![Term::sym("false")];
                for i in 0..len {
                    let t = match i {
                        0 => is(0, v),
                        _ => Term::or(vec![out[i].clone(), is(i, v)]),
                    };
                    out.push(define(t));
                }
                out
            };
            let (ma, mb) = (met(a), met(b));
            // Cell k lies strictly between the first a and the first b
            // when one was met before it and the other is not met by it.
            // Nothing is met before the first cell: it is never between.
            let summed = (0..len)
                .map(|k| match k {
                    0 => Term::sym("false"),
                    k => Term::or(vec![
                        Term::and(vec![ma[k].clone(), Term::not(mb[k + 1].clone())]),
                        Term::and(vec![mb[k].clone(), Term::not(ma[k + 1].clone())]),
                    ]),
                })
                .collect();
            (summed, Term::and(vec![ma[len].clone(), mb[len].clone()]))
        }
        Stretch::Leading => {
            let top = i64::try_from(len).unwrap_or(i64::MAX);
            let summed = (0..len)
                .map(|k| match k {
                    0 => Term::sym("true"),
                    // Cell k (from 0) is summed when the first is above k.
                    k => at_least(0, i64::try_from(k).unwrap_or(i64::MAX).saturating_add(1)),
                })
                .collect();
            let exists = match len {
                0 => Term::sym("false"),
                _ => Term::and(vec![
                    at_least(0, 1),
                    Term::not(at_least(0, top.saturating_add(1))),
                ]),
            };
            (summed, exists)
        }
    }
}

/// `x` if `on` (a term of [`stretch_terms`]) holds, else `zero`: `x`
/// itself where `on` is `true`, nothing where it is `false`.
pub(crate) fn summed_if(on: Term, x: Term, zero: Term) -> Option<Term> {
    match &on {
        Term::Sym(b) if b == "true" => Some(x),
        Term::Sym(b) if b == "false" => None,
        _ => Some(Term::app("ite", vec![on, x, zero])),
    }
}

/// A cell's candidate count (at least 1).
pub(crate) fn candidates(c: &Cell) -> u64 {
    (c.hi - c.lo + 1).max(1) as u64
}

/// Alternatives of a sum clue `A|B|…`, or the (cell, value) equalities
/// a [`Rule::Contains`] is written as (0 for every other rule).
pub(crate) fn alternatives(rule: &Rule) -> u64 {
    match rule {
        Rule::Sum {
            target: Target::OneOf(vs),
            ..
        } => vs.len() as u64,
        Rule::Contains { cells, values } => {
            (cells.len() as u64).saturating_mul(values.len() as u64)
        }
        _ => 0,
    }
}

/// Bits to write `v`, plus one.
pub(crate) fn log2_ceil(v: u64) -> u64 {
    u64::from(64 - v.leading_zeros()) + 1
}

/// An upper bound on the bytes of `encoding`'s script for `model`, from
/// the size bounds stated in each encoding's module comment (its
/// `symbols`): a count of symbol occurrences, each at most
/// [`BOUND_SYMBOL_BYTES`] long with its parentheses and spaces, plus 1 KB
/// of header. Polynomial in the cells, the candidates per cell and the
/// constraints' sizes.
pub fn size_bound(model: &Model, encoding: Encoding) -> u64 {
    let symbols = (encoding.encoder().symbols)(model, &Dims::of(model));
    1024u64.saturating_add(BOUND_SYMBOL_BYTES.saturating_mul(symbols))
}

/// Bytes per symbol occurrence in [`size_bound`]: a name such as
/// `x_64_64_64` or `a1234567` with its parentheses, `not` and spaces.
pub const BOUND_SYMBOL_BYTES: u64 = 32;

/// What a script says about itself in its `:source`: the puzzle, the
/// encoding and the generator.
fn describe(model: &Model, encoding: Encoding) -> String {
    let title = match &model.title {
        Some(t) => format!("{} ({})", model.name, t),
        None => model.name.clone(),
    };
    format!(
        "Puzzle {title}, {} encoding. Generated by smtgrid {}.",
        encoding.name(),
        env!("CARGO_PKG_VERSION")
    )
}

fn finish(model: &Model, encoding: Encoding, body: Body) -> Encoded {
    // The benchmark library's header order (version, logic, source,
    // category, status) wherever solvers allow it: produce-models must
    // come before set-logic, because yices rejects it after.
    let mut head = Script::new();
    head.set_info("smt-lib-version", crate::smtlib::benchmark::SMT_LIB_VERSION);
    head.set_option("produce-models", "true");
    head.set_logic(body.logic);
    let source = describe(model, encoding);
    head.set_info("source", &format!("|{}|", quoted_symbol_text(&source)));
    head.set_info("category", "\"crafted\"");
    head.set_info("status", "unknown");
    let header_end = head.as_str().len();
    let declarations = body.script.declarations();
    let assertions = body.script.assertions();
    let mut ask = Script::new();
    ask.check_sat();
    ask.get_model();
    let mut end = Script::new();
    end.exit();
    let commands = Script::commands_of(&[&head, &body.script, &ask, &end]);
    let mut script = head.into_string();
    script.push_str(body.script.as_str());
    let body_end = script.len();
    script.push_str(ask.as_str());
    let model_end = script.len();
    script.push_str(end.as_str());
    Encoded {
        encoding,
        logic: body.logic,
        script,
        header_end,
        body_end,
        model_end,
        declarations,
        assertions,
        commands,
        decoder: body.decoder,
        spans: body
            .spans
            .iter()
            .map(|s| s.map(|(a, b)| (a + header_end, b + header_end)))
            .collect(),
    }
}
