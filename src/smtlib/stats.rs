//! Reading a solver's reply to `(get-info :all-statistics)`: its counters
//! as (key, number) pairs, whatever they mean (the solver's profile says
//! that).
//!
//! Two shapes are in use, both read here without knowing the solver:
//!
//! * the standard one, a list of keyword–value pairs: z3's
//!   `(:decisions 4 :propagations 21 :memory 17.79)`, yices-smt2's
//!   `(:decisions 4 :conflicts 0 …)`;
//! * cvc5's and cvc4's, one keyword whose value is a list of
//!   `(name value)` lists: `(:all-statistics (("sat::conflicts" 3) …))`.
//!
//! Values that are not numbers (`0ms`, `-nan`, `{ AND: 1 }`, strings) are
//! left out. The reply is bounded before it is read: at most
//! [`MAX_STATISTICS_BYTES`] of text and [`MAX_STATISTICS_ENTRIES`] pairs,
//! so a solver that prints megabytes of statistics costs a refusal, not
//! memory.

use serde::{Deserialize, Serialize};

use super::sexp::{Sexp, parse_all};

/// The longest statistics reply read: cvc4's, the longest seen, is 23 KB.
pub const MAX_STATISTICS_BYTES: usize = 1 << 20;
/// The most (key, value) pairs taken from one reply; the rest is left
/// out. cvc5 1.0.3 prints about 400.
pub const MAX_STATISTICS_ENTRIES: usize = 4096;
/// Keys longer than this are left out.
const MAX_KEY_BYTES: usize = 200;

/// A number in a statistics reply.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Number {
    /// A numeral: a count.
    Count(u64),
    /// A decimal (`17.79`), e.g. megabytes or seconds.
    Decimal(f64),
}

impl Number {
    /// Reads an SMT-LIB numeral or decimal; anything else (`-nan`, `0ms`,
    /// a numeral beyond `u64`) is `None`.
    fn read(text: &str) -> Option<Number> {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match text.split_once('.') {
            None if digits(text) => text.parse().ok().map(Number::Count),
            Some((whole, frac)) if digits(whole) && digits(frac) => text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(Number::Decimal),
            _ => None,
        }
    }
}

/// The numeric statistics in `text`, the reply to
/// `(get-info :all-statistics)`, in the order printed, keys without their
/// leading `:`. An error says why there are none: the solver answered
/// with an error, `unsupported`, nothing, text that is not S-expressions,
/// or more than [`MAX_STATISTICS_BYTES`].
pub fn read_statistics(text: &str) -> Result<Vec<(String, Number)>, String> {
    if text.len() > MAX_STATISTICS_BYTES {
        return Err(format!(
            "the reply is {} bytes, more than the {MAX_STATISTICS_BYTES} smtgrid reads",
            text.len()
        ));
    }
    let items = parse_all(text).map_err(|e| e.to_string())?;
    for item in &items {
        let Some(list) = item.as_list() else {
            if let Some(word) = item.as_atom().filter(|w| *w != "success") {
                return Err(format!("the solver answered `{word}`"));
            }
            continue;
        };
        if list.first().is_some_and(|h| h.is_atom("error")) {
            return Err(format!("the solver answered {item}"));
        }
        let mut out = Vec::new();
        match list {
            // cvc5, cvc4: one keyword, a list of (name value) lists.
            [key, Sexp::List(pairs)] if is_keyword(key) => {
                for pair in pairs {
                    if let Some([name, value]) = pair.as_list() {
                        push(&mut out, name, value);
                    }
                }
            }
            // A keyword followed by a value; anything else is stepped over.
            _ => {
                let mut rest = list;
                while let [key, value, tail @ ..] = rest {
                    if is_keyword(key) && !is_keyword(value) {
                        push(&mut out, key, value);
                        rest = tail;
                    } else {
                        rest = &rest[1..];
                    }
                }
            }
        }
        return Ok(out);
    }
    Err("the solver printed no statistics".into())
}

fn is_keyword(s: &Sexp) -> bool {
    s.as_atom().is_some_and(|a| a.starts_with(':'))
}

/// Adds `key value` to `out` if the key is a name or keyword of a sane
/// length, the value a number, and `out` has room.
fn push(out: &mut Vec<(String, Number)>, key: &Sexp, value: &Sexp) {
    if out.len() >= MAX_STATISTICS_ENTRIES {
        return;
    }
    let key = match key {
        Sexp::Atom(a) | Sexp::Str(a) => a.strip_prefix(':').unwrap_or(a),
        Sexp::List(_) => return,
    };
    if key.is_empty() || key.len() > MAX_KEY_BYTES {
        return;
    }
    if let Some(n) = value.as_atom().and_then(Number::read) {
        out.push((key.to_string(), n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(k: &str, n: u64) -> (String, Number) {
        (k.to_string(), Number::Count(n))
    }

    #[test]
    fn keyword_pairs_as_z3_and_yices_print_them() {
        let z3 = "(:arith-lower 3\n :decisions 1\n :memory 17.79\n :time 0.00)\n";
        assert_eq!(
            read_statistics(z3).unwrap(),
            vec![
                count("arith-lower", 3),
                count("decisions", 1),
                ("memory".into(), Number::Decimal(17.79)),
                ("time".into(), Number::Decimal(0.0)),
            ]
        );
        let yices = "(\n :num-terms 16\n :decisions 1\n :conflicts 0\n)\n";
        assert_eq!(read_statistics(yices).unwrap().len(), 3);
    }

    #[test]
    fn named_pairs_as_cvc5_prints_them_non_numbers_left_out() {
        let cvc5 = "(:all-statistics ((\"cvc5::TERM\" { AND: 1, GT: 2 }) (\"driver::filename\" t.smt2) \
                    (\"global::totalTime\" 6ms) (\"sat::conflicts\" 0) (\"sat::decisions\" 1) \
                    (\"theory::arrays::avgIndexListLength\" -nan) (\"sat::propagations\" 8)))";
        assert_eq!(
            read_statistics(cvc5).unwrap(),
            vec![
                count("sat::conflicts", 0),
                count("sat::decisions", 1),
                count("sat::propagations", 8)
            ]
        );
    }

    #[test]
    fn errors_garbage_and_floods_are_refused_not_read() {
        assert!(
            read_statistics("(error \"no statistics\")")
                .unwrap_err()
                .contains("error")
        );
        assert!(
            read_statistics("unsupported")
                .unwrap_err()
                .contains("unsupported")
        );
        assert!(read_statistics("").is_err());
        assert!(read_statistics("(:decisions 3").is_err());
        let huge = format!("({})", ":k 1 ".repeat(MAX_STATISTICS_BYTES / 5 + 1));
        assert!(read_statistics(&huge).unwrap_err().contains("more than"));
        let many = format!(
            "({})",
            (0..2 * MAX_STATISTICS_ENTRIES)
                .map(|i| format!(":k{i} {i} "))
                .collect::<String>()
        );
        assert_eq!(
            read_statistics(&many).unwrap().len(),
            MAX_STATISTICS_ENTRIES
        );
        let odd = "(:a 1 :b :c 2 x 3 :d 99999999999999999999999 :e 1e5)";
        assert_eq!(
            read_statistics(odd).unwrap(),
            vec![count("a", 1), count("c", 2)]
        );
    }
}
