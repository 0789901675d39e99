//! Reading what solvers answer: `sat`/`unsat`/`unknown`, models, values,
//! errors.
//!
//! Everything goes through the S-expression reader in [`super::sexp`]; no
//! line is ever matched as text. Two ways in:
//!
//! * [`read_answer`] reads the whole stdout of a one-shot run.
//! * [`classify`] reads one reply at a time, for an interactive session that
//!   takes expressions off its pipe with [`super::sexp::parse_prefix`].
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
//! `#x1f`, `(_ bv5 4)`). Values of any other shape (reals, arrays,
//! functions with arguments, datatypes) are skipped, not errors: smtgrid
//! never declares such constants, and solvers may add helpers of their own.

use std::collections::BTreeMap;

use super::sexp::{ReadError, Sexp, parse_all_at};

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
    /// `(error "…")`, with the message unescaped. Also a model whose
    /// numbers do not fit in 128 bits: the message then starts with
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

/// Classifies one top-level reply.
pub fn classify(sexp: &Sexp) -> Reply {
    classify_checked(sexp)
        .unwrap_or_else(|why| Reply::Error(format!("smtgrid cannot read this model: {why}")))
}

/// [`classify`], with a model whose numbers do not fit as an error.
fn classify_checked(sexp: &Sexp) -> Result<Reply, String> {
    Ok(match sexp {
        Sexp::Atom(a) => match a.as_str() {
            "sat" => Reply::CheckSat(CheckSat::Sat),
            "unsat" => Reply::CheckSat(CheckSat::Unsat),
            "unknown" => Reply::CheckSat(CheckSat::Unknown),
            "unsupported" => Reply::Unsupported,
            "success" => Reply::Success,
            _ => Reply::Other(sexp.clone()),
        },
        Sexp::List(items) if items.first().is_some_and(|h| h.is_atom("error")) => {
            Reply::Error(error_message(&items[1..]))
        }
        _ => match model_of(sexp) {
            Some(model) => Reply::Model(model?),
            None => Reply::Other(sexp.clone()),
        },
    })
}

/// Gathers replies, one at a time, into an [`Answer`]: what [`read_answer`]
/// does with a whole stdout, for a session that reads replies as they come.
#[derive(Debug, Clone, Default)]
pub struct Collector {
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

    /// What has been gathered so far.
    pub fn answer(&self) -> &Answer {
        &self.answer
    }

    /// What was gathered.
    pub fn finish(self) -> Answer {
        self.answer
    }
}

/// The message of `(error …)`: normally one string literal.
fn error_message(rest: &[Sexp]) -> String {
    match rest {
        [Sexp::Str(s)] | [Sexp::Atom(s)] => s.clone(),
        _ => rest
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Whether `sexp` is what a solver prints for `(echo "text")`. z3 and
/// yices print the text bare (an atom, if `text` is one word), cvc5 and
/// cvc4 print it as a string literal; this accepts both.
///
/// An interactive caller uses this to frame replies whose length it cannot
/// know, above all yices models, which are a sequence of top-level
/// `(= x 5)` expressions: send `(get-model)` then `(echo "smtgrid-end")`,
/// merge every [`Reply::Model`] read until `is_echo(&sexp, "smtgrid-end")`
/// (a [`Collector`] does the merging).
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
/// Each reply is [`classify`]-ed and given to a [`Collector`]: `results`
/// gets each `check-sat` result in order; `model` holds the last model
/// read, with later `(get-value …)` replies and the further `(= x 5)` lines
/// of a yices model added to it; `errors` gets each `(error …)` message;
/// `success`, `echo` output and unrecognised replies are passed over.
/// Empty stdout gives an `Answer` with no results: whether that is a
/// failure is the caller's decision (it knows the exit status and stderr).
///
/// Errors: text that is not S-expressions (truncated, a stray `)`), and
/// model values too large for 128 bits.
pub fn read_answer(stdout: &str) -> Result<Answer, ReadError> {
    let mut collector = Collector::new();
    for (offset, sexp) in parse_all_at(stdout)? {
        let reply = classify_checked(&sexp)
            .map_err(|why| ReadError::at(stdout, offset, &format!("in this model, {why}")))?;
        collector.add(reply);
    }
    Ok(collector.finish())
}

/// The constants a model or `(get-value …)` reply assigns, or `None` if
/// `sexp` is neither, or if one of its numbers does not fit in 128 bits
/// ([`classify`] tells these apart).
pub fn read_model(sexp: &Sexp) -> Option<BTreeMap<String, Value>> {
    model_of(sexp)?.ok()
}

/// The value `sexp` denotes, if it is an integer, Boolean or bit-vector
/// literal that fits in 128 bits.
pub fn value_of(sexp: &Sexp) -> Option<Value> {
    read_value(sexp).ok().flatten()
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
/// if it is but a number in it is too large.
fn model_of(sexp: &Sexp) -> Option<Result<BTreeMap<String, Value>, String>> {
    let items = sexp.as_list()?;
    let entries: Vec<(&str, &Sexp)> = match items {
        // `(model …)`: cvc4, old z3.
        [head, rest @ ..] if head.is_atom("model") => define_funs(rest),
        // One bare `(define-fun …)`.
        [head, ..] if head.is_atom("define-fun") => define_funs(std::slice::from_ref(sexp)),
        // yices: `(= x 5)`.
        [head, Sexp::Atom(name), value] if head.is_atom("=") => vec![(name.as_str(), value)],
        // `(…)` of define-funs: z3, cvc5; `()` is an empty model.
        _ if items.iter().all(is_model_command) => define_funs(items),
        // `((x 5) (y (- 3)))`: a get-value reply. Entries whose term is
        // not a constant name are skipped.
        _ if items
            .iter()
            .all(|i| i.as_list().is_some_and(|p| p.len() == 2)) =>
        {
            items
                .iter()
                .filter_map(|pair| match pair.as_list() {
                    Some([Sexp::Atom(name), value]) => Some((name.as_str(), value)),
                    _ => None,
                })
                .collect()
        }
        _ => return None,
    };
    let mut model = Vec::with_capacity(entries.len());
    for (name, value) in entries {
        match read_value(value) {
            Ok(Some(v)) => model.push((name.to_string(), v)),
            Ok(None) => {}
            Err(why) => return Some(Err(format!("the value of {name}: {why}"))),
        }
    }
    // Collecting sorts once and builds the tree in bulk, much faster than
    // inserting one by one; for a name given twice the later value wins.
    Some(Ok(model.into_iter().collect()))
}

/// The constants among model commands: `(define-fun name () Sort value)`.
/// Functions with arguments and other commands are skipped.
fn define_funs(items: &[Sexp]) -> Vec<(&str, &Sexp)> {
    items
        .iter()
        .filter_map(|item| match item.as_list()? {
            [head, Sexp::Atom(name), Sexp::List(args), _sort, value]
                if head.is_atom("define-fun") && args.is_empty() =>
            {
                Some((name.as_str(), value))
            }
            _ => None,
        })
        .collect()
}

/// Reads a value: `Ok(None)` for shapes smtgrid does not use (skipped),
/// `Err` for a literal of a known shape that does not fit in 128 bits.
fn read_value(sexp: &Sexp) -> Result<Option<Value>, String> {
    match sexp {
        Sexp::Atom(a) => match a.as_str() {
            "true" => Ok(Some(Value::Bool(true))),
            "false" => Ok(Some(Value::Bool(false))),
            _ => {
                if let Some(bits) = a.strip_prefix("#b") {
                    bitvec(bits, 2, 1)
                } else if let Some(hex) = a.strip_prefix("#x") {
                    bitvec(hex, 16, 4)
                } else if let Some(digits) = a.strip_prefix('-') {
                    // Not SMT-LIB (which writes `(- 3)`), but unambiguous.
                    negative(digits)
                } else if is_numeral(a) {
                    a.parse::<i128>()
                        .map(|n| Some(Value::Int(n)))
                        .map_err(|_| too_big(a, "integer", "a 128-bit signed integer"))
                } else {
                    Ok(None)
                }
            }
        },
        Sexp::List(items) => match items.as_slice() {
            [minus, Sexp::Atom(digits)] if minus.is_atom("-") => negative(digits),
            [underscore, Sexp::Atom(bv), Sexp::Atom(width)] if underscore.is_atom("_") => {
                match bv.strip_prefix("bv") {
                    Some(digits) if is_numeral(digits) && is_numeral(width) => {
                        indexed_bitvec(digits, width)
                    }
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        },
        Sexp::Str(_) => Ok(None),
    }
}

/// Whether `a` is a non-empty run of decimal digits.
fn is_numeral(a: &str) -> bool {
    !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit())
}

/// The message for a literal that does not fit.
fn too_big(literal: &str, what: &str, fits: &str) -> String {
    let shown: String = literal.chars().take(60).collect();
    let more = if literal.len() > shown.len() {
        "…"
    } else {
        ""
    };
    format!("the {what} {shown}{more} does not fit in {fits}")
}

/// `-digits`, down to `i128::MIN`.
fn negative(digits: &str) -> Result<Option<Value>, String> {
    if !is_numeral(digits) {
        return Ok(None);
    }
    let fail = || too_big(&format!("-{digits}"), "integer", "a 128-bit signed integer");
    let magnitude: u128 = digits.parse().map_err(|_| fail())?;
    0i128
        .checked_sub_unsigned(magnitude)
        .map(|n| Some(Value::Int(n)))
        .ok_or_else(fail)
}

/// `#b…` (radix 2, 1 bit a digit) or `#x…` (radix 16, 4 bits a digit).
fn bitvec(digits: &str, radix: u32, bits_per_digit: u32) -> Result<Option<Value>, String> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Ok(None);
    }
    let width = u32::try_from(digits.len())
        .ok()
        .and_then(|n| n.checked_mul(bits_per_digit))
        .filter(|&w| w <= 128)
        .ok_or_else(|| too_big(digits, "bit-vector", "128 bits"))?;
    let value = u128::from_str_radix(digits, radix)
        .map_err(|_| too_big(digits, "bit-vector", "128 bits"))?;
    Ok(Some(Value::BitVec { value, width }))
}

/// `(_ bvN W)`.
fn indexed_bitvec(digits: &str, width: &str) -> Result<Option<Value>, String> {
    let literal = || format!("(_ bv{digits} {width})");
    let width: u32 = match width.parse() {
        Ok(w) if (1..=128).contains(&w) => w,
        Ok(0) => return Ok(None),
        _ => return Err(too_big(&literal(), "bit-vector", "128 bits")),
    };
    let value: u128 = digits
        .parse()
        .ok()
        .filter(|&v: &u128| width == 128 || v >> width == 0)
        .ok_or_else(|| too_big(&literal(), "bit-vector", &format!("{width} bits")))?;
    Ok(Some(Value::BitVec { value, width }))
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
            // Shapes smtgrid does not use: skipped.
            ("1.5", None),
            ("(/ 1 2)", None),
            ("(- 1.5)", None),
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
    fn values_too_large_are_errors_with_a_message_never_panics() {
        for (text, says) in [
            ("170141183460469231731687303715884105728", "128-bit signed"),
            (
                "(- 170141183460469231731687303715884105729)",
                "128-bit signed",
            ),
            (
                "99999999999999999999999999999999999999999999",
                "128-bit signed",
            ),
            (&format!("#b{}", "1".repeat(129)), "128 bits"),
            (&format!("#x{}", "f".repeat(33)), "128 bits"),
            ("(_ bv16 4)", "4 bits"),
            ("(_ bv1 129)", "128 bits"),
            ("(_ bv1 99999999999)", "128 bits"),
            (
                "(_ bv999999999999999999999999999999999999999999 8)",
                "8 bits",
            ),
        ] {
            let why = read_value(&one(text)).unwrap_err();
            assert!(why.contains(says), "{text}: {why}");
            assert_eq!(value_of(&one(text)), None);
        }
        let text = "sat\n(\n(define-fun x () Int 999999999999999999999999999999999999999999)\n)\n";
        let e = read_answer(text).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(
            e.message.contains("the value of x: the integer 9999"),
            "{e}"
        );
        let model = one("((define-fun x () Int 999999999999999999999999999999999999999999))");
        assert_eq!(read_model(&model), None);
        match classify(&model) {
            Reply::Error(m) => assert!(m.starts_with("smtgrid cannot read"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn classify_each_kind_of_reply() {
        assert_eq!(classify(&one("sat")), Reply::CheckSat(CheckSat::Sat));
        assert_eq!(classify(&one("unsat")), Reply::CheckSat(CheckSat::Unsat));
        assert_eq!(
            classify(&one("unknown")),
            Reply::CheckSat(CheckSat::Unknown)
        );
        assert_eq!(classify(&one("unsupported")), Reply::Unsupported);
        assert_eq!(classify(&one("success")), Reply::Success);
        assert_eq!(
            classify(&one("(error \"a\nb\")")),
            Reply::Error("a\nb".into())
        );
        assert_eq!(classify(&one("(error)")), Reply::Error(String::new()));
        assert_eq!(
            classify(&one("(= x (- 5))")),
            Reply::Model(model(&[("x", int(-5))]))
        );
        assert_eq!(classify(&one("()")), Reply::Model(BTreeMap::new()));
        assert_eq!(classify(&one("timeout")), Reply::Other(one("timeout")));
        assert_eq!(classify(&one("\"sat\"")), Reply::Other(one("\"sat\"")));
        assert_eq!(classify(&one("(a b c)")), Reply::Other(one("(a b c)")));
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
            assert_eq!(classify(&one(text)), Reply::Model(want.clone()), "{text}");
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
        assert_eq!(read_model(&one(text)), Some(model(&[("x", int(7))])));
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
