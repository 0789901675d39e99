//! Encodings: each turns a [`Model`] into an SMT-LIB2 script and knows how
//! to read the cells back from the solver's model. Encodings build scripts
//! only; they never start a process.

mod bv;
mod layered;
mod lia;
mod onehot;
mod propagate;

use std::collections::BTreeMap;

use crate::model::{Cell, Constraint, Group, Model};
use crate::smtlib::script::quoted_symbol_text;
use crate::smtlib::{Script, Term, Value};

/// An encoding of the constraint model into SMT-LIB2.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// One `Int` per cell, `distinct`, linear sums (the source documents'
    /// encoding); QF_LIA, or QF_NIA when products appear.
    Lia,
    /// One Bool per (cell, value); pure propositional logic (QF_UF).
    Onehot,
    /// One bit-vector per cell; QF_BV.
    Bv,
}

impl Encoding {
    /// Every encoding.
    pub const ALL: [Encoding; 3] = [Encoding::Lia, Encoding::Onehot, Encoding::Bv];
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Lia => "lia",
            Encoding::Onehot => "onehot",
            Encoding::Bv => "bv",
        }
    }
    /// The encoding called `name`.
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
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

impl Decoder {
    /// The value of every cell, or a message naming the first constant the
    /// solver's model lacks or gives a value of the wrong sort.
    pub fn decode(&self, model: &BTreeMap<String, Value>) -> Result<Vec<i64>, String> {
        self.cells.iter().map(|c| read_cell(c, model)).collect()
    }

    /// Whether every cell's value is known without a solver's model.
    pub fn all_known(&self) -> bool {
        self.cells.iter().all(|c| matches!(c, CellRead::Known(_)))
    }

    /// A term that excludes exactly this assignment, to ask for another
    /// solution (only cells the solver decides are mentioned).
    pub fn block(&self, values: &[i64]) -> Term {
        let mut lits = Vec::new();
        for (c, &v) in self.cells.iter().zip(values) {
            match c {
                CellRead::Known(_) => {}
                CellRead::Int(name) => {
                    lits.push(Term::not(Term::eq(Term::sym(name), Term::Int(v))));
                }
                CellRead::Bv(name, width) => {
                    let lit = Term::Bv {
                        value: v as u64,
                        width: *width,
                    };
                    lits.push(Term::not(Term::eq(Term::sym(name), lit)));
                }
                CellRead::OneHot(vars) => {
                    if let Some((_, name)) = vars.iter().find(|(val, _)| *val == v) {
                        lits.push(Term::not(Term::sym(name)));
                    }
                }
            }
        }
        Term::or(lits)
    }
}

fn read_cell(c: &CellRead, model: &BTreeMap<String, Value>) -> Result<i64, String> {
    let get = |name: &str| {
        model
            .get(name)
            .ok_or_else(|| format!("the solver's model has no value for {name}"))
    };
    match c {
        CellRead::Known(v) => Ok(*v),
        CellRead::Int(name) => match get(name)? {
            Value::Int(v) => i64::try_from(*v).map_err(|_| format!("{name} = {v} is out of range")),
            other => Err(format!(
                "{name} should be an Int, the solver gave {other:?}"
            )),
        },
        CellRead::Bv(name, _) => match get(name)? {
            Value::BitVec { value, .. } => {
                i64::try_from(*value).map_err(|_| format!("{name} = {value} is out of range"))
            }
            other => Err(format!(
                "{name} should be a bit-vector, the solver gave {other:?}"
            )),
        },
        CellRead::OneHot(vars) => {
            let mut found = None;
            for (v, name) in vars {
                // Model completion may leave out a Bool the solver never
                // needed; absent means false here, and the checker still
                // verifies the whole grid afterwards.
                match model.get(name) {
                    Some(Value::Bool(true)) => {
                        if let Some(prev) = found {
                            return Err(format!(
                                "{name} and the variable for {prev} are both true"
                            ));
                        }
                        found = Some(*v);
                    }
                    Some(Value::Bool(false)) | None => {}
                    Some(other) => {
                        return Err(format!(
                            "{name} should be a Bool, the solver gave {other:?}"
                        ));
                    }
                }
            }
            found.ok_or_else(|| {
                let first = vars.first().map(|(_, n)| n.as_str()).unwrap_or("?");
                format!("no value variable is true for the cell of {first}")
            })
        }
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
    /// Byte offset of the closing `(check-sat)`: assertions added for a
    /// follow-up question go here.
    body_end: usize,
    /// Number of `declare-const` commands.
    pub declarations: usize,
    /// Number of `assert` commands.
    pub assertions: usize,
    /// The SMT-LIB commands the script uses (`declare-const`, `get-model`,
    /// …), sorted: a solver that rejects one of them cannot take it.
    pub commands: Vec<&'static str>,
    /// Reads the grid back.
    pub decoder: Decoder,
}

impl Encoded {
    /// The script with `extra` asserted before `(check-sat)`, e.g. a
    /// blocking clause to ask for a second solution.
    pub fn with_assertions(&self, comment: &str, extra: &[Term]) -> String {
        let mut mid = Script::new();
        mid.comment(comment);
        for t in extra {
            mid.assert(t);
        }
        let (head, tail) = self.script.split_at(self.body_end);
        format!("{head}{}{tail}", mid.as_str())
    }
    /// The script up to (not including) its closing `(check-sat)`, for an
    /// interactive session that sends its own questions.
    pub fn body(&self) -> &str {
        &self.script[..self.body_end]
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
}

/// Writes the comments before constraint `c`: its group's heading when the
/// group changes (with `givens_note` under the givens heading), and the
/// origin of each cage and run. Shared by every encoding so their scripts
/// read alike.
pub(crate) fn comment_constraint(
    s: &mut Script,
    last: &mut Option<Group>,
    c: &Constraint,
    givens_note: Option<&str>,
) {
    if *last != Some(c.group) {
        *last = Some(c.group);
        s.comment(c.group.title());
        if let (Group::Givens, Some(note)) = (c.group, givens_note) {
            s.comment(note);
        }
    }
    if matches!(c.group, Group::Cages | Group::AcrossRuns | Group::DownRuns) {
        s.comment(&c.origin);
    }
}

/// The SMT-LIB name of a cell's constant: `x_R_C`, 1-based, as the source
/// documents name them.
pub fn cell_name(cell: &Cell) -> String {
    format!("x_{}_{}", cell.row + 1, cell.col + 1)
}

/// Encodes `model`; the same input always gives byte-identical output.
pub fn encode(model: &Model, encoding: Encoding, opts: &Options) -> Encoded {
    let body = match encoding {
        Encoding::Lia => lia::encode(model),
        Encoding::Onehot => onehot::encode(model, opts),
        Encoding::Bv => bv::encode(model, opts),
    };
    finish(model, encoding, body)
}

fn finish(model: &Model, encoding: Encoding, body: Body) -> Encoded {
    let mut head = Script::new();
    let title = match &model.title {
        Some(t) => format!("{} ({})", model.name, t),
        None => model.name.clone(),
    };
    head.comment(&format!(
        "{title}: {} encoding, generated by smtgrid",
        encoding.name()
    ));
    head.set_info("smt-lib-version", "2.6");
    let source = format!(
        "Puzzle {title}, {} encoding. Generated by smtgrid {}.",
        encoding.name(),
        env!("CARGO_PKG_VERSION")
    );
    head.set_info("source", &format!("|{}|", quoted_symbol_text(&source)));
    head.set_info("category", "\"crafted\"");
    head.set_info("status", "unknown");
    // produce-models must come before set-logic: yices rejects it after.
    head.set_option("produce-models", "true");
    head.set_logic(body.logic);
    let declarations = body.script.declarations();
    let assertions = body.script.assertions();
    let mut tail = Script::new();
    tail.check_sat();
    tail.get_model();
    tail.exit();
    let mut commands: Vec<&'static str> = head
        .commands()
        .chain(body.script.commands())
        .chain(tail.commands())
        .collect();
    commands.sort_unstable();
    commands.dedup();
    let mut script = head.into_string();
    script.push_str(body.script.as_str());
    let body_end = script.len();
    script.push_str(tail.as_str());
    Encoded {
        encoding,
        logic: body.logic,
        script,
        body_end,
        declarations,
        assertions,
        commands,
        decoder: body.decoder,
    }
}
