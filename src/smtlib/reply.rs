//! Reading what solvers answer: `sat`/`unsat`/`unknown`, models, values,
//! errors.
//!
//! Everything goes through the S-expression reader in [`super::sexp`]; no
//! line is ever matched as text. Two ways in:
//!
//! * [`read_answer`] reads the whole stdout of a one-shot run.
//! * `classify` reads one reply at a time, for an interactive session that
//!   takes expressions off its pipe one at a time.
//!
//! Model formats understood (all recorded from real solvers under
//! `tests/fixtures/replies/`):
//!
//! * z3 and cvc5: `(` `(define-fun x () Int 5)` … `)`;
//! * cvc4 and old z3: the same inside `(model …)`;
//! * a bare sequence of top-level `(define-fun …)`;
//! * yices-smt2 (without `--smt2-model-format`): a sequence of top-level
//!   `(= x 5)` expressions, one per constant;
//! * `(get-value …)` replies: `((x 5) (y (- 3)))`.
//!
//! Values read: integers (`5`, `(- 3)`), Booleans, bit-vectors (`#b0101`,
//! `#x1f`, `(_ bv5 4)`; wider than 128 bits as [`Value::Bits`], up to
//! [`MAX_BITS`]), reals (`3.0`, `(/ 7 2)`, `(- (/ 7.0 2.0))`), and numbers
//! too large for those as [`Value::TooLarge`] (whoever uses the value says
//! what is wrong with it). Values of any other shape (arrays,
//! functions with arguments, datatypes) are skipped, not errors: smtgrid
//! never declares such constants, and solvers may add helpers of their own.
//!
//! A model is read one entry at a time (see `Stream` in the S-expression reader) and
//! may hold at most [`MAX_MODEL_ENTRIES`] constants, so that what a reply
//! costs in memory is bounded however it is made.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use super::sexp::{ReadError, Sexp, Stream, Word};

/// How many constants a model may assign. A 64×64 sudoku in the onehot
/// encoding without propagation, the largest model smtgrid asks for, has
/// 1.29 million (with the counters' auxiliary ones); each costs about 100
/// bytes in the model map.
pub const MAX_MODEL_ENTRIES: usize = 2 << 20;

/// The widest bit-vector read as a value ([`Value::Bits`], a byte per
/// bit); a wider one is [`Value::TooLarge`]. Sessions read a one-hot grid
/// back packed into bit-vectors of up to 1024 bits.
pub const MAX_BITS: u32 = 1 << 16;

/// Result of `(check-sat)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckSat {
    /// `sat`
    Sat,
    /// `unsat`
    Unsat,
    /// `unknown`
    Unknown,
}

/// A value in a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i128),
    /// A Boolean.
    Bool(bool),
    /// A bit-vector.
    BitVec {
        /// Its value.
        value: u128,
        /// Its width.
        width: u32,
    },
    /// A bit-vector wider than 128 bits: its bits, most significant
    /// first.
    Bits(Vec<bool>),
    /// A real number, in lowest terms (`3.0` is 3/1).
    Real {
        /// The numerator, with the sign.
        numerator: i64,
        /// The denominator, at least 1.
        denominator: u64,
    },
    /// A number that does not fit the types above (a 41-digit integer, a
    /// 200-bit vector), as the solver wrote it, shortened to 60 characters.
    TooLarge(String),
}

impl Value {
    /// The bits of a bit-vector of any width, most significant first
    /// (a wide one's own, not a copy: a session reads one per puzzle);
    /// `None` for any other value.
    pub fn bits(&self) -> Option<Cow<'_, [bool]>> {
        match self {
            Value::BitVec { value, width } => Some(Cow::Owned(
                (0..*width).rev().map(|i| value >> i & 1 == 1).collect(),
            )),
            Value::Bits(bits) => Some(Cow::Borrowed(bits)),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    /// In SMT-LIB syntax, for messages: `5`, `-3`, `true`, `#b0101`,
    /// `3.0`, `7/2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::BitVec { value, width } => {
                write!(f, "#b{value:0w$b}", w = *width as usize)
            }
            Value::Bits(bits) => {
                let digits: String = bits.iter().map(|&b| if b { '1' } else { '0' }).collect();
                f.write_str(&shortened(&format!("#b{digits}")))
            }
            Value::Real {
                numerator,
                denominator: 1,
            } => write!(f, "{numerator}.0"),
            Value::Real {
                numerator,
                denominator,
            } => write!(f, "{numerator}/{denominator}"),
            Value::TooLarge(text) => f.write_str(text),
        }
    }
}

/// Everything a solver said in a one-shot run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// Each `check-sat` result, in order.
    pub results: Vec<CheckSat>,
    /// The model: every constant the solver assigned.
    pub model: std::collections::BTreeMap<String, Value>,
    /// Error messages.
    pub errors: Vec<String>,
    /// Whether it said `unsupported`.
    pub unsupported: bool,
}

/// What one top-level reply of a solver is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `sat`, `unsat` or `unknown`.
    CheckSat(CheckSat),
    /// `unsupported` (an option or command the solver does not know).
    Unsupported,
    /// `success` (printed after each command under `:print-success`).
    Success,
    /// `(error "…")`, with the message unescaped. Also a model of more
    /// than [`MAX_MODEL_ENTRIES`] constants: the message then starts with
    /// "smtgrid cannot read".
    Error(String),
    /// A model or a `(get-value …)` reply: constant name (without `|bars|`)
    /// to value. A yices model arrives as one `Model` per `(= x 5)` line;
    /// an interactive caller merges consecutive ones (see [`is_echo`] for
    /// how to know where such a model ends).
    Model(BTreeMap<String, Value>),
    /// Anything else: `echo` output, an unrecognised word such as z3's
    /// `timeout`, a model of a shape not understood.
    Other(Sexp),
}

/// Classifies one top-level reply. Taken whole, so that an unrecognised
/// reply (which can be as long as a solver's output) becomes
/// [`Reply::Other`] without a copy.
fn classify(sexp: Sexp) -> Reply {
    match sexp {
        Sexp::Atom(a) => match classify_atom(&a) {
            Some(reply) => reply,
            None => Reply::Other(Sexp::Atom(a)),
        },
        Sexp::List(items) if items.first().is_some_and(|h| h.is_atom("error")) => {
            Reply::Error(error_message(&items[1..]))
        }
        sexp => match model_of(&sexp) {
            Some(Ok(model)) => Reply::Model(model),
            Some(Err(why)) => Reply::Error(format!(
                "smtgrid cannot read this model: {}",
                crate::error::escape_controls(&why)
            )),
            None => Reply::Other(sexp),
        },
    }
}

/// The reply a top-level atom is, unless it is a word no solver answers
/// with (then it is [`Reply::Other`]).
fn classify_atom(atom: &str) -> Option<Reply> {
    Some(match atom {
        "sat" => Reply::CheckSat(CheckSat::Sat),
        "unsat" => Reply::CheckSat(CheckSat::Unsat),
        "unknown" => Reply::CheckSat(CheckSat::Unknown),
        "unsupported" => Reply::Unsupported,
        "success" => Reply::Success,
        _ => return None,
    })
}

/// Gathers replies, one at a time, into an [`Answer`]: what [`read_answer`]
/// does with a whole stdout, for a session that reads replies as they come.
#[derive(Debug, Clone, Default)]
struct Collector {
    answer: Answer,
    /// Set by a check-sat result: the next model replaces the current one.
    fresh: bool,
}

impl Collector {
    /// A collector that has seen nothing.
    pub fn new() -> Self {
        Collector::default()
    }

    /// Takes one reply into account. `check-sat` results are appended; the
    /// first model after a result replaces the model, later ones (the
    /// further `(= x 5)` lines of a yices model, `(get-value …)` replies)
    /// are added to it; errors are appended; `unsupported` is noted;
    /// `success` and other replies are passed over.
    pub fn add(&mut self, reply: Reply) {
        match reply {
            Reply::CheckSat(r) => {
                self.answer.results.push(r);
                self.fresh = true;
            }
            Reply::Unsupported => self.answer.unsupported = true,
            Reply::Error(e) => self.answer.errors.push(e),
            Reply::Model(model) => {
                if std::mem::take(&mut self.fresh) || self.answer.model.is_empty() {
                    // Replacing rather than merging saves re-inserting a
                    // big model entry by entry.
                    self.answer.model = model;
                } else {
                    self.answer.model.extend(model);
                }
            }
            Reply::Success | Reply::Other(_) => {}
        }
    }

    /// What was gathered.
    pub fn finish(self) -> Answer {
        self.answer
    }
}

/// The message of `(error …)`: normally one string literal. Its control
/// characters (line breaks aside) are escaped here, where the solver's text enters smtgrid, so
/// that no report, note or record can pass them to a terminal.
fn error_message(rest: &[Sexp]) -> String {
    let text = match rest {
        [Sexp::Str(s)] | [Sexp::Atom(s)] => s.clone(),
        _ => rest
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    };
    crate::error::escape_controls_by_line(&text)
}

/// Whether `sexp` is what a solver prints for `(echo "text")`. z3 and
/// yices print the text bare (an atom, if `text` is one word), cvc5 and
/// cvc4 print it as a string literal; this accepts both.
///
/// An interactive caller uses this to frame replies whose length it cannot
/// know, above all yices models, which are a sequence of top-level
/// `(= x 5)` expressions: send `(get-model)` then `(echo "smtgrid-end")`,
/// merge every [`Reply::Model`] read until `is_echo(&sexp, "smtgrid-end")`
/// (a `Collector` does the merging).
/// Keep `text` to letters, digits and `-`: z3 and yices print it raw, and
/// yices 2.6.5 does not understand `""` inside strings.
pub fn is_echo(sexp: &Sexp, text: &str) -> bool {
    match sexp {
        Sexp::Atom(a) | Sexp::Str(a) => a == text,
        Sexp::List(_) => false,
    }
}

/// Reads the whole stdout of a one-shot run of a script such as
/// `… (check-sat) (get-model) (get-value …)`, possibly with several
/// `check-sat`s.
///
/// Each reply is `classify`-ed and given to a `Collector`: `results`
/// gets each `check-sat` result in order; `model` holds the last model
/// read, with later `(get-value …)` replies and the further `(= x 5)` lines
/// of a yices model added to it; `errors` gets each `(error …)` message;
/// `success`, `echo` output and unrecognised replies are passed over.
/// Empty stdout gives an `Answer` with no results: whether that is a
/// failure is the caller's decision (it knows the exit status and stderr).
///
/// Replies are read one at a time, and a model one entry at a time, so a
/// huge output never becomes one huge tree.
///
/// Errors: text that is not S-expressions (truncated, a stray `)`), an
/// expression of more than [`super::sexp::MAX_NODES`] atoms and lists, and
/// a model of more than [`MAX_MODEL_ENTRIES`] constants.
pub fn read_answer(stdout: &str) -> Result<Answer, ReadError> {
    read_answer_until(stdout, None).map(|(answer, _)| answer)
}

/// [`read_answer`] up to the output of `(echo "MARKER")` (see
/// [`is_echo`]), if `marker` is given: the answer before it and, if the
/// marker was found, the text after it, unread. What follows the marker
/// (e.g. a statistics reply) can then be as garbled or as long as it
/// likes without making the answer unreadable.
pub fn read_answer_until<'a>(
    stdout: &'a str,
    marker: Option<&str>,
) -> Result<(Answer, Option<&'a str>), ReadError> {
    let mut collector = Collector::new();
    let mut stream = Stream::new(stdout);
    loop {
        // Words are looked at in place: a solver that prints one word of
        // 64 MiB costs no copy of it (each copy was as large as the output).
        if let Some(word) = stream.next_word() {
            if marker.is_some_and(|m| word.text() == m) {
                return Ok((collector.finish(), Some(stream.rest())));
            }
            if let Word::Atom(a) = word
                && let Some(reply) = classify_atom(a)
            {
                collector.add(reply);
            }
            continue;
        }
        let Some(open) = stream.open_list() else {
            match stream.next_expr()? {
                Some((_, sexp)) if marker.is_some_and(|m| is_echo(&sexp, m)) => {
                    return Ok((collector.finish(), Some(stream.rest())));
                }
                Some((_, sexp)) => collector.add(classify(sexp)),
                None => return Ok((collector.finish(), None)),
            }
            continue;
        };
        let too_many = |why: String| ReadError::at(stdout, open, &format!("in this model, {why}"));
        let fresh = || super::sexp::MAX_NODES;
        let reply = match stream.next_in_list(open, &mut fresh())? {
            None => Reply::Model(BTreeMap::new()),
            // `(model …)`, or a list of lists: possibly a model, read an
            // entry at a time.
            Some(head) if head.is_atom("model") || head.as_list().is_some() => {
                let mut entries = Entries::new(head.is_atom("model"));
                if !head.is_atom("model") {
                    entries.add(&head).map_err(too_many)?;
                }
                while let Some(item) = stream.next_in_list(open, &mut fresh())? {
                    entries.add(&item).map_err(too_many)?;
                }
                match entries.finish() {
                    Some(model) => Reply::Model(model),
                    // Not a model; nothing else of this shape counts.
                    None => continue,
                }
            }
            // Any other list is small: `(error …)`, `(= x 5)`,
            // `(define-fun …)`, … Its elements share one node budget.
            Some(head) => {
                // The list and its head (an atom or a string) count too.
                let mut budget = fresh() - 2;
                let mut items = vec![head];
                while let Some(item) = stream.next_in_list(open, &mut budget)? {
                    items.push(item);
                }
                classify(Sexp::List(items))
            }
        };
        collector.add(reply);
    }
}

/// Whether `stdout` reads as S-expressions and one of its top-level
/// expressions is an atom of `words` (z3's bare `timeout`). Words are
/// looked at in place, as [`read_answer`] does, so that a huge one costs
/// no copy.
pub fn says_any(stdout: &str, words: &[String]) -> bool {
    let mut stream = Stream::new(stdout);
    let mut said = false;
    loop {
        if let Some(word) = stream.next_word() {
            said |= matches!(word, Word::Atom(a) if words.iter().any(|w| w == a));
            continue;
        }
        match stream.next_expr() {
            Ok(Some(_)) => {}
            Ok(None) => return said,
            Err(_) => return false,
        }
    }
}

/// The constants a model or `(get-value …)` reply assigns, or `None` if
/// `sexp` is neither, or if it assigns more than [`MAX_MODEL_ENTRIES`]
/// ([`classify`] tells these apart).
#[cfg(test)]
fn read_model(sexp: &Sexp) -> Option<BTreeMap<String, Value>> {
    model_of(sexp)?.ok()
}

/// The value `sexp` denotes, if it is an integer, Boolean, bit-vector or
/// real literal (or one too large for those: [`Value::TooLarge`]).
pub fn value_of(sexp: &Sexp) -> Option<Value> {
    read_value(sexp)
}

/// Heads of the commands a model may hold besides `define-fun`: they are
/// reserved words, so no constant can be called that, and a list made of
/// such commands is a model.
const MODEL_COMMANDS: [&str; 10] = [
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "declare-fun",
    "declare-const",
    "declare-sort",
    "define-sort",
    "declare-datatype",
    "declare-datatypes",
    "forall",
];

/// Whether `sexp` is a command that can stand in a model.
fn is_model_command(sexp: &Sexp) -> bool {
    sexp.as_list()
        .and_then(|l| l.first())
        .and_then(Sexp::as_atom)
        .is_some_and(|h| MODEL_COMMANDS.contains(&h))
}

/// Reads a model-like reply: `None` if `sexp` is not one, an error message
/// if it holds more than [`MAX_MODEL_ENTRIES`] constants.
fn model_of(sexp: &Sexp) -> Option<Result<BTreeMap<String, Value>, String>> {
    let items = sexp.as_list()?;
    let (mut entries, items) = match items {
        // `(model …)`: cvc4, old z3.
        [head, rest @ ..] if head.is_atom("model") => (Entries::new(true), rest),
        // One bare `(define-fun …)`.
        [head, ..] if head.is_atom("define-fun") => {
            (Entries::new(true), std::slice::from_ref(sexp))
        }
        // yices: `(= x 5)`.
        [head, Sexp::Atom(name), value] if head.is_atom("=") => {
            let mut model = BTreeMap::new();
            if let Some(v) = read_value(value) {
                model.insert(name.clone(), v);
            }
            return Some(Ok(model));
        }
        // `(…)` of define-funs (z3, cvc5; `()` is an empty model) or of
        // `(x 5)` pairs (a get-value reply).
        _ => (Entries::new(false), items),
    };
    for item in items {
        if let Err(why) = entries.add(item) {
            return Some(Err(why));
        }
    }
    entries.finish().map(Ok)
}

/// The entries of a model-like list, gathered one element at a time: a
/// list of model commands (`(define-fun name () Sort value)`; other
/// commands and functions with arguments are skipped) or of `(name value)`
/// pairs (a get-value reply; pairs whose term is not a constant name are
/// skipped). A list that is neither, or mixes the two, is not a model.
struct Entries {
    /// Whether every element must be a model command (`(model …)`).
    commands_only: bool,
    /// Which kind the elements so far were: commands (true) or pairs.
    kind: Option<bool>,
    /// Set once an element fits neither kind.
    not_a_model: bool,
    model: BTreeMap<String, Value>,
}

impl Entries {
    fn new(commands_only: bool) -> Entries {
        Entries {
            commands_only,
            kind: commands_only.then_some(true),
            not_a_model: false,
            model: BTreeMap::new(),
        }
    }

    /// Takes one element; `Err` once the model holds too many constants.
    fn add(&mut self, item: &Sexp) -> Result<(), String> {
        if self.not_a_model {
            return Ok(());
        }
        let entry = match item.as_list() {
            Some(l) if is_model_command(item) => {
                self.same_kind(true);
                match l {
                    [_, Sexp::Atom(name), Sexp::List(args), _sort, value]
                        if l[0].is_atom("define-fun") && args.is_empty() =>
                    {
                        Some((name, value))
                    }
                    _ => None,
                }
            }
            Some(l) if l.len() == 2 && !self.commands_only => {
                self.same_kind(false);
                match l {
                    [Sexp::Atom(name), value] => Some((name, value)),
                    _ => None,
                }
            }
            _ if self.commands_only => None,
            _ => {
                self.not_a_model = true;
                None
            }
        };
        if self.not_a_model {
            return Ok(());
        }
        if let Some((name, value)) = entry
            && let Some(v) = read_value(value)
        {
            // For a name given twice the later value wins.
            self.model.insert(name.clone(), v);
            if self.model.len() > MAX_MODEL_ENTRIES {
                return Err(format!(
                    "there are more than {MAX_MODEL_ENTRIES} constants; smtgrid reads no more"
                ));
            }
        }
        Ok(())
    }

    fn same_kind(&mut self, commands: bool) {
        match self.kind {
            None => self.kind = Some(commands),
            Some(k) if k != commands => self.not_a_model = true,
            Some(_) => {}
        }
    }

    /// The model, or `None` if the list was not one.
    fn finish(self) -> Option<BTreeMap<String, Value>> {
        (!self.not_a_model).then_some(self.model)
    }
}

/// Reads a value: `None` for shapes smtgrid does not use (skipped).
fn read_value(sexp: &Sexp) -> Option<Value> {
    match sexp {
        Sexp::Atom(a) => match a.as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => {
                if let Some(bits) = a.strip_prefix("#b") {
                    bitvec(bits, 2, 1)
                } else if let Some(hex) = a.strip_prefix("#x") {
                    bitvec(hex, 16, 4)
                } else if let Some(digits) = a.strip_prefix('-') {
                    // Not SMT-LIB (which writes `(- 3)`), but unambiguous.
                    negative(digits)
                } else if is_numeral(a) {
                    Some(a.parse::<i128>().map_or_else(|_| too_large(a), Value::Int))
                } else {
                    real(sexp)
                }
            }
        },
        Sexp::List(items) => match items.as_slice() {
            [minus, Sexp::Atom(digits)] if minus.is_atom("-") && is_numeral(digits) => {
                negative(digits)
            }
            [underscore, Sexp::Atom(bv), Sexp::Atom(width)] if underscore.is_atom("_") => {
                match bv.strip_prefix("bv") {
                    Some(digits) if is_numeral(digits) && is_numeral(width) => {
                        indexed_bitvec(digits, width)
                    }
                    _ => None,
                }
            }
            _ => real(sexp),
        },
        Sexp::Str(_) => None,
    }
}

/// A real: a decimal (`3.0`), `(- r)` or `(/ r r)` of those and numerals;
/// `None` for any other shape.
fn real(sexp: &Sexp) -> Option<Value> {
    // Numerator and denominator as i128 while reading; any overflow makes
    // the whole value too large.
    fn ratio(sexp: &Sexp) -> Option<Option<(i128, i128)>> {
        match sexp {
            Sexp::Atom(a) => {
                let (int, frac) = match a.split_once('.') {
                    Some((int, frac)) if is_numeral(frac) => (int, frac),
                    Some(_) => return None,
                    None => (a.as_str(), ""),
                };
                if !is_numeral(int) {
                    return None;
                }
                let den = u32::try_from(frac.len())
                    .ok()
                    .and_then(|n| 10i128.checked_pow(n));
                let num = format!("{int}{frac}").parse::<i128>().ok();
                Some(num.zip(den))
            }
            Sexp::List(items) => match items.as_slice() {
                [minus, x] if minus.is_atom("-") => {
                    Some(ratio(x)?.and_then(|(n, d)| Some((n.checked_neg()?, d))))
                }
                [slash, a, b] if slash.is_atom("/") => {
                    let (a, b) = (ratio(a)?, ratio(b)?);
                    if b.is_some_and(|(bn, _)| bn == 0) {
                        return None;
                    }
                    Some(a.zip(b).and_then(|((an, ad), (bn, bd))| {
                        Some((an.checked_mul(bd)?, ad.checked_mul(bn)?))
                    }))
                }
                _ => None,
            },
            Sexp::Str(_) => None,
        }
    }
    // Only what has a decimal point or a division is a real; `5` and
    // `(- 5)` are integers, read elsewhere.
    let text = sexp.to_string();
    if !(text.contains('.') || text.contains('/')) {
        return None;
    }
    let Some((mut n, mut d)) = ratio(sexp)? else {
        return Some(too_large(&text));
    };
    if d < 0 {
        (n, d) = (-n, -d);
    }
    let g = gcd(n.unsigned_abs(), d.unsigned_abs()).max(1);
    let (n, d) = (n / g as i128, d / g as i128);
    Some(match (i64::try_from(n), u64::try_from(d)) {
        (Ok(numerator), Ok(denominator)) => Value::Real {
            numerator,
            denominator,
        },
        _ => too_large(&text),
    })
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A literal that does not fit: kept as (at most 60 characters of) text.
fn too_large(literal: &str) -> Value {
    Value::TooLarge(shortened(literal))
}

/// At most 60 characters of `literal`, for messages.
fn shortened(literal: &str) -> String {
    let shown: String = literal.chars().take(60).collect();
    let more = if literal.len() > shown.len() {
        "…"
    } else {
        ""
    };
    format!("{shown}{more}")
}

/// Whether `a` is a non-empty run of decimal digits.
fn is_numeral(a: &str) -> bool {
    !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit())
}

/// `-digits`, down to `i128::MIN`.
fn negative(digits: &str) -> Option<Value> {
    if !is_numeral(digits) {
        return None;
    }
    let n = digits
        .parse::<u128>()
        .ok()
        .and_then(|m| 0i128.checked_sub_unsigned(m));
    Some(n.map_or_else(|| too_large(&format!("-{digits}")), Value::Int))
}

/// `#b…` (radix 2, 1 bit a digit) or `#x…` (radix 16, 4 bits a digit).
fn bitvec(digits: &str, radix: u32, bits_per_digit: u32) -> Option<Value> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let prefix = if radix == 2 { "#b" } else { "#x" };
    let width = u32::try_from(digits.len())
        .ok()
        .and_then(|n| n.checked_mul(bits_per_digit))
        .filter(|&w| w <= MAX_BITS);
    let Some(width) = width else {
        return Some(too_large(&format!("{prefix}{digits}")));
    };
    if width > 128 {
        // Sized up front: a session reads one of these per puzzle.
        if radix == 2 {
            return Some(Value::Bits(digits.bytes().map(|b| b == b'1').collect()));
        }
        let mut bits = Vec::with_capacity(width as usize);
        for c in digits.chars() {
            let d = c.to_digit(radix).unwrap_or(0);
            bits.extend((0..bits_per_digit).rev().map(|i| d >> i & 1 == 1));
        }
        return Some(Value::Bits(bits));
    }
    let value = u128::from_str_radix(digits, radix).ok();
    Some(match value {
        Some(value) => Value::BitVec { value, width },
        None => too_large(&format!("{prefix}{digits}")),
    })
}

/// `(_ bvN W)`.
fn indexed_bitvec(digits: &str, width: &str) -> Option<Value> {
    let literal = || too_large(&format!("(_ bv{digits} {width})"));
    let width: u32 = match width.parse() {
        Ok(w) if (1..=MAX_BITS).contains(&w) => w,
        Ok(0) => return None,
        _ => return Some(literal()),
    };
    if width > 128 {
        return Some(wide_decimal(digits, width).map_or_else(literal, Value::Bits));
    }
    let value = digits
        .parse()
        .ok()
        .filter(|&v: &u128| width == 128 || v >> width == 0);
    Some(value.map_or_else(literal, |value| Value::BitVec { value, width }))
}

/// The `width` bits (most significant first) of the decimal numeral
/// `digits`, if it fits.
fn wide_decimal(digits: &str, width: u32) -> Option<Vec<bool>> {
    if !is_numeral(digits) {
        return None;
    }
    // Little-endian 64-bit limbs, times ten plus each digit.
    let mut limbs: Vec<u64> = Vec::new();
    for d in digits.bytes() {
        let mut carry = u128::from(d - b'0');
        for limb in &mut limbs {
            let x = u128::from(*limb) * 10 + carry;
            *limb = x as u64;
            carry = x >> 64;
        }
        if carry > 0 {
            limbs.push(carry as u64);
        }
        if limbs.len() as u64 * 64 > u64::from(width) + 64 {
            return None;
        }
    }
    let bit = |i: u32| {
        limbs
            .get((i / 64) as usize)
            .is_some_and(|l| l >> (i % 64) & 1 == 1)
    };
    let fits = (width..limbs.len() as u32 * 64).all(|i| !bit(i));
    fits.then(|| (0..width).rev().map(bit).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smtlib::sexp::parse_all;

    fn int(n: i128) -> Value {
        Value::Int(n)
    }
    fn bv(value: u128, width: u32) -> Value {
        Value::BitVec { value, width }
    }
    fn real(numerator: i64, denominator: u64) -> Value {
        Value::Real {
            numerator,
            denominator,
        }
    }
    fn model(entries: &[(&str, Value)]) -> BTreeMap<String, Value> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }
    fn one(text: &str) -> Sexp {
        let mut all = parse_all(text).unwrap();
        assert_eq!(all.len(), 1, "{text}");
        all.remove(0)
    }

    #[test]
    fn values() {
        for (text, want) in [
            ("5", Some(int(5))),
            ("0", Some(int(0))),
            ("(- 3)", Some(int(-3))),
            ("-3", Some(int(-3))),
            ("true", Some(Value::Bool(true))),
            ("false", Some(Value::Bool(false))),
            ("#b0101", Some(bv(5, 4))),
            ("#x1f", Some(bv(31, 8))),
            ("#xE1", Some(bv(0xe1, 8))),
            ("(_ bv5 4)", Some(bv(5, 4))),
            ("(_ bv255 8)", Some(bv(255, 8))),
            (
                "170141183460469231731687303715884105727",
                Some(int(i128::MAX)),
            ),
            (
                "(- 170141183460469231731687303715884105728)",
                Some(int(i128::MIN)),
            ),
            (&format!("#b{}", "1".repeat(128)), Some(bv(u128::MAX, 128))),
            ("(_ bv0 128)", Some(bv(0, 128))),
            ("1.5", Some(real(3, 2))),
            ("3.0", Some(real(3, 1))),
            ("(/ 1 2)", Some(real(1, 2))),
            ("(/ 6.0 4.0)", Some(real(3, 2))),
            ("(- 1.5)", Some(real(-3, 2))),
            ("(- (/ 7 2))", Some(real(-7, 2))),
            ("(/ (- 7) 2)", Some(real(-7, 2))),
            // Shapes smtgrid does not use: skipped.
            ("(/ 1 0)", None),
            ("(/ 1 x)", None),
            ("1.", None),
            ("((as const (Array Int Int)) 0)", None),
            ("\"5\"", None),
            ("x", None),
            ("#b", None),
            ("#b012", None),
            ("(_ bv5 0)", None),
            ("(_ bvx 4)", None),
            ("-", None),
        ] {
            assert_eq!(value_of(&one(text)), want, "{text}");
        }
    }

    #[test]
    fn values_too_large_are_kept_as_text_never_panics() {
        for (text, shown) in [
            (
                "170141183460469231731687303715884105728",
                "170141183460469231731687303715884105728",
            ),
            (
                "(- 170141183460469231731687303715884105729)",
                "-170141183460469231731687303715884105729",
            ),
            (
                &format!("#b{}", "1".repeat(MAX_BITS as usize + 1)),
                &format!("#b{}…", "1".repeat(58)),
            ),
            (
                &format!("#x{}", "f".repeat(MAX_BITS as usize / 4 + 1)),
                &format!("#x{}…", "f".repeat(58)),
            ),
            ("(_ bv16 4)", "(_ bv16 4)"),
            ("(_ bv1 99999999999)", "(_ bv1 99999999999)"),
            (
                "(_ bv680564733841876926926749214863536422912 129)",
                "(_ bv680564733841876926926749214863536422912 129)",
            ),
            ("(/ 1 99999999999999999999)", "(/ 1 99999999999999999999)"),
        ] {
            assert_eq!(
                value_of(&one(text)),
                Some(Value::TooLarge(shown.to_string())),
                "{text}"
            );
        }
        // A 41-digit integer is a value; whoever reads the model decides.
        let digits = "9".repeat(41);
        let text = format!("sat\n(\n(define-fun x () Int {digits})\n)\n");
        let answer = read_answer(&text).unwrap();
        assert_eq!(answer.model["x"], Value::TooLarge(digits.clone()));
        assert_eq!(answer.model["x"].to_string(), digits);
    }

    #[test]
    fn bit_vectors_wider_than_128_bits_are_read_whole() {
        let ones = |n: usize| Value::Bits(vec![true; n]);
        assert_eq!(
            value_of(&one(&format!("#b{}", "1".repeat(129)))),
            Some(ones(129))
        );
        assert_eq!(
            value_of(&one(&format!("#x{}", "f".repeat(33)))),
            Some(ones(132))
        );
        // 2^128 + 5 in 130 bits, in each notation solvers use.
        let mut bits = vec![false; 130];
        bits[1] = true;
        bits[127] = true;
        bits[129] = true;
        let want = Some(Value::Bits(bits));
        let b = format!("#b01{}101", "0".repeat(125));
        assert_eq!(value_of(&one(&b)), want);
        assert_eq!(
            value_of(&one("(_ bv340282366920938463463374607431768211461 130)")),
            want
        );
        // 2^129 - 1, the widest that fits 129 bits.
        assert_eq!(
            value_of(&one("(_ bv680564733841876926926749214863536422911 129)")),
            Some(ones(129))
        );
        assert_eq!(ones(3).bits().as_deref(), Some(&[true; 3][..]));
        assert_eq!(
            bv(5, 4).bits().as_deref(),
            Some(&[false, true, false, true][..])
        );
        assert_eq!(int(5).bits(), None);
        // Messages show the start of a wide one.
        assert_eq!(ones(200).to_string(), format!("#b{}…", "1".repeat(58)));
    }

    #[test]
    fn values_print_as_smtlib() {
        assert_eq!(int(-3).to_string(), "-3");
        assert_eq!(Value::Bool(true).to_string(), "true");
        assert_eq!(bv(3, 4).to_string(), "#b0011");
        assert_eq!(real(3, 1).to_string(), "3.0");
        assert_eq!(real(-7, 2).to_string(), "-7/2");
    }

    #[test]
    fn huge_replies_are_too_large_or_streamed_never_huge_trees() {
        // One list of more atoms than a tree may hold.
        let text = format!("sat\n(x{})\n", " x".repeat(crate::smtlib::sexp::MAX_NODES));
        let e = read_answer(&text).unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
        // The same number of atoms at the top level are read one by one.
        let text = format!(
            "sat\n{}\n",
            "x ".repeat(crate::smtlib::sexp::MAX_NODES + 10)
        );
        assert_eq!(read_answer(&text).unwrap().results, [CheckSat::Sat]);
        // A model's entries are read one at a time, each within its own
        // budget.
        let mut text = String::from("sat\n(\n");
        for i in 0..(crate::smtlib::sexp::MAX_NODES / 5) {
            text.push_str(&format!("(define-fun a{i} () Bool true)\n"));
        }
        text.push_str(")\n");
        let answer = read_answer(&text).unwrap();
        assert_eq!(answer.model.len(), crate::smtlib::sexp::MAX_NODES / 5);
    }

    #[test]
    fn classify_each_kind_of_reply() {
        assert_eq!(classify(one("sat")), Reply::CheckSat(CheckSat::Sat));
        assert_eq!(classify(one("unsat")), Reply::CheckSat(CheckSat::Unsat));
        assert_eq!(classify(one("unknown")), Reply::CheckSat(CheckSat::Unknown));
        assert_eq!(classify(one("unsupported")), Reply::Unsupported);
        assert_eq!(classify(one("success")), Reply::Success);
        assert_eq!(
            classify(one("(error \"a\nb\")")),
            Reply::Error("a\nb".into())
        );
        // A solver's text reaches no terminal raw: an OSC sequence in an
        // error reply arrives escaped.
        assert_eq!(
            classify(one("(error \"\u{1b}]0;PWNED\u{7}bad\")")),
            Reply::Error("\\u{1b}]0;PWNED\\u{7}bad".into())
        );
        assert_eq!(classify(one("(error)")), Reply::Error(String::new()));
        assert_eq!(
            classify(one("(= x (- 5))")),
            Reply::Model(model(&[("x", int(-5))]))
        );
        assert_eq!(classify(one("()")), Reply::Model(BTreeMap::new()));
        assert_eq!(classify(one("timeout")), Reply::Other(one("timeout")));
        assert_eq!(classify(one("\"sat\"")), Reply::Other(one("\"sat\"")));
        assert_eq!(classify(one("(a b c)")), Reply::Other(one("(a b c)")));
        assert!(is_echo(&one("\"end-1\""), "end-1"));
        assert!(is_echo(&one("end-1"), "end-1"));
        assert!(!is_echo(&one("(end-1)"), "end-1"));
        assert!(!is_echo(&one("end-2"), "end-1"));
    }

    #[test]
    fn models_of_every_shape() {
        let want = model(&[
            ("x", int(5)),
            ("y", int(-3)),
            ("b", Value::Bool(true)),
            ("cell (1,2)", bv(5, 4)),
        ]);
        let z3_new = "(\n  (define-fun x () Int\n    5)\n  (define-fun y () Int\n    (- 3))\n  \
                      (define-fun b () Bool\n    true)\n  (define-fun |cell (1,2)| () (_ BitVec 4)\n    #x5)\n)";
        let z3_old = "(model \n  (define-fun x () Int 5)\n  (define-fun y () Int (- 3))\n  \
                      (define-fun b () Bool true)\n  (define-fun |cell (1,2)| () (_ BitVec 4) (_ bv5 4))\n)";
        let cvc5 = "(\n(define-fun x () Int 5)\n(define-fun y () Int (- 3))\n\
                    (define-fun b () Bool true)\n(define-fun |cell (1,2)| () (_ BitVec 4) #b0101)\n)";
        let get_value = "((x 5) (y (- 3)) (b true) (|cell (1,2)| #b0101))";
        for text in [z3_new, z3_old, cvc5, get_value] {
            assert_eq!(read_model(&one(text)), Some(want.clone()), "{text}");
            assert_eq!(classify(one(text)), Reply::Model(want.clone()), "{text}");
            let answer = read_answer(&format!("sat\n{text}\n")).unwrap();
            assert_eq!(answer.model, want, "{text}");
        }
        // Bare define-funs and yices lines: one model from consecutive ones.
        let bare = "sat\n(define-fun x () Int 5)\n(define-fun y () Int (- 3))\n\
                    (define-fun b () Bool true)\n(define-fun |cell (1,2)| () (_ BitVec 4) #b0101)\n";
        let yices = "sat\n(= x 5)\n(= y (- 3))\n(= b true)\n(= |cell (1,2)| #b0101)\n";
        for text in [bare, yices] {
            let answer = read_answer(text).unwrap();
            assert_eq!(answer.results, [CheckSat::Sat]);
            assert_eq!(answer.model, want, "{text}");
        }
    }

    #[test]
    fn other_values_and_model_commands_are_skipped() {
        let text = "(\n;; universe for U:\n(declare-fun U!val!0 () U)\n\
                    (forall ((x U)) (= x U!val!0))\n\
                    (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 3))\n\
                    (define-fun a () (Array Int Int) ((as const (Array Int Int)) 0))\n\
                    (define-fun r () Real (/ 1.0 2.0))\n\
                    (define-fun u () U U!val!0)\n\
                    (define-fun x () Int 7)\n)";
        assert_eq!(
            read_model(&one(text)),
            Some(model(&[("x", int(7)), ("r", real(1, 2))]))
        );
        let answer = read_answer(&format!("sat\n{text}\n")).unwrap();
        assert_eq!(answer.model, model(&[("x", int(7)), ("r", real(1, 2))]));
        // A name given twice: the later value wins.
        assert_eq!(
            read_model(&one("((x 1) (x 2))")),
            Some(model(&[("x", int(2))]))
        );
        // get-value of a term that is not a constant: that entry skipped.
        assert_eq!(
            read_model(&one("(((+ x 1) 8) (x 7))")),
            Some(model(&[("x", int(7))]))
        );
    }

    #[test]
    fn errors_unsupported_success_and_echo() {
        let text = "success\nunsupported\n(error \"line 4 column 13: unknown constant y\")\n\
                    (error \"Parse Error: a.smt2:4.25: Symbol y is not declared.\n\n  (assert (= x y))\n               ^\n\")\n\
                    \"sentinel\"\nsentinel\nsat\n(\n(define-fun x () Int 2)\n)\nsuccess\n";
        let answer = read_answer(text).unwrap();
        assert_eq!(
            answer,
            Answer {
                results: vec![CheckSat::Sat],
                model: model(&[("x", int(2))]),
                errors: vec![
                    "line 4 column 13: unknown constant y".into(),
                    "Parse Error: a.smt2:4.25: Symbol y is not declared.\n\n  (assert (= x y))\n               ^\n"
                        .into(),
                ],
                unsupported: true,
            }
        );
    }

    #[test]
    fn several_check_sats_keep_the_last_model_and_add_get_values() {
        let text = "sat\n(\n(define-fun x () Int 11)\n(define-fun z () Int 1)\n)\nunsat\n\
                    sat\n(\n(define-fun x () Int 12)\n)\n((y (- 1)))\n";
        let answer = read_answer(text).unwrap();
        assert_eq!(
            answer.results,
            [CheckSat::Sat, CheckSat::Unsat, CheckSat::Sat]
        );
        assert_eq!(answer.model, model(&[("x", int(12)), ("y", int(-1))]));
        // A check-sat with no model after it leaves the last model read.
        let answer = read_answer("sat\n(= x 1)\n(= y 2)\nunsat\n").unwrap();
        assert_eq!(answer.model, model(&[("x", int(1)), ("y", int(2))]));
        let answer = read_answer("sat\n(= x 1)\n(= y 2)\nsat\n(= x 3)\n").unwrap();
        assert_eq!(answer.model, model(&[("x", int(3))]));
    }

    #[test]
    fn empty_garbage_and_truncated_output() {
        assert_eq!(read_answer("").unwrap(), Answer::default());
        assert_eq!(read_answer("\n  \n").unwrap(), Answer::default());
        // Words that are not replies are passed over.
        assert_eq!(
            read_answer("Segmentation fault\n").unwrap(),
            Answer::default()
        );
        // A model cut short, an error message cut short, a stray paren.
        for text in [
            "sat\n(\n(define-fun x () Int 5)\n",
            "(error \"Parse Error: line 1\n",
            "sat\n)\n",
            "sat (model (define-fun |x () Int 5)))",
        ] {
            let e = read_answer(text).unwrap_err();
            assert!(e.message.starts_with("line "), "{e}");
        }
        // Binary junk: an error or an answer, never a panic or a hang.
        let junk: String = (0u8..=255).cycle().take(5000).map(char::from).collect();
        let _ = read_answer(&junk);
        let _ = read_answer(&"(".repeat(1_000_000));
    }

    #[test]
    fn a_big_z3_model_reads_fast() {
        // A one-hot 25x25 sudoku: 15 625 Bool constants, as z3 prints them.
        let mut text = String::from("sat\n(\n");
        for r in 1..=25 {
            for c in 1..=25 {
                for v in 1..=25 {
                    let val = if (r + c + v) % 25 == 0 {
                        "true"
                    } else {
                        "false"
                    };
                    text.push_str(&format!(
                        "  (define-fun x_{r}_{c}_{v} () Bool\n    {val})\n"
                    ));
                }
            }
        }
        text.push_str(")\n");
        let start = std::time::Instant::now();
        let answer = read_answer(&text).unwrap();
        let took = start.elapsed();
        assert_eq!(answer.model.len(), 15_625);
        assert_eq!(answer.model["x_1_1_23"], Value::Bool(true));
        assert_eq!(answer.model["x_1_1_22"], Value::Bool(false));
        // A few milliseconds in a release build; the bound leaves room for
        // unoptimised builds on a busy machine.
        assert!(took.as_millis() < 1500, "{took:?} for {} bytes", text.len());
    }
}
