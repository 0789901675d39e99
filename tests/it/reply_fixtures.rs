//! The reply reader on real solver output, recorded under
//! `tests/fixtures/replies/` (see the README there). No solver is run.

use std::collections::BTreeMap;
use std::path::PathBuf;

use smtgrid::smtlib::reply::{Answer, CheckSat, Value, read_answer};

use CheckSat::{Sat, Unknown, Unsat};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replies")
}

fn int(n: i128) -> Value {
    Value::Int(n)
}
fn bool(b: bool) -> Value {
    Value::Bool(b)
}
fn bv(value: u128, width: u32) -> Value {
    Value::BitVec { value, width }
}

fn answer(
    results: &[CheckSat],
    model: &[(&str, Value)],
    errors: &[&str],
    unsupported: bool,
) -> Answer {
    Answer {
        results: results.to_vec(),
        model: model
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        errors: errors.iter().map(|e| e.to_string()).collect(),
        unsupported,
    }
}

/// What the reader must make of each recorded stdout.
fn expected() -> BTreeMap<String, Answer> {
    let lia = [
        ("x", int(-3)),
        ("y", int(10)),
        ("cell (1,2)", int(-99)),
        ("big", int(123_456_789_012_345_678_901_234_567_890)),
    ];
    let bvs = [("a", bv(5, 4)), ("b", bv(0x1f, 8)), ("c", bv(0xe1, 8))];
    let bools = [("p", bool(true)), ("q", bool(false)), ("r", bool(true))];
    let mut want = BTreeMap::new();
    let mut put = |name: &str, a: Answer| {
        want.insert(name.to_string(), a);
    };
    for s in ["z3", "z3old", "cvc5", "cvc4", "yices"] {
        put(&format!("{s}-lia-sat"), answer(&[Sat], &lia, &[], false));
        put(&format!("{s}-lia-unsat"), answer(&[Unsat], &[], &[], false));
        put(&format!("{s}-bv"), answer(&[Sat], &bvs, &[], false));
        put(&format!("{s}-uf-bool"), answer(&[Sat], &bools, &[], false));
        // Two models (x = 11, then x = 12) between an unsat: the last wins.
        put(
            &format!("{s}-multi"),
            answer(&[Sat, Unsat, Sat], &[("x", int(12))], &[], false),
        );
    }
    // z3 goes on after an error; cvc5, cvc4 and yices stop.
    for s in ["z3", "z3old"] {
        let error = "line 4 column 13: unknown constant undeclared_y";
        put(
            &format!("{s}-syntax-error"),
            answer(&[Sat], &[("x", int(2))], &[error], false),
        );
    }
    for s in ["cvc5", "cvc4"] {
        let error = format!(
            "Parse Error: {s}-syntax-error.smt2:4.25: Symbol undeclared_y is not declared.\n\n  \
             (assert (= x undeclared_y))\n               ^\n"
        );
        put(
            &format!("{s}-syntax-error"),
            answer(&[], &[], &[&error], false),
        );
    }
    put(
        "yices-syntax-error",
        answer(
            &[],
            &[],
            &["at line 4, column 14: undefined term: undeclared_y"],
            false,
        ),
    );
    // `(set-option :timeout 1)`: z3 honours it; cvc5 and cvc4 say
    // `unsupported` and give up on the nonlinear problem anyway; z3 4.8.12
    // run with -T:1 prints the bare word `timeout`, which is no result.
    put("z3-unknown", answer(&[Unknown], &[], &[], false));
    put("cvc5-unknown", answer(&[Unknown], &[], &[], true));
    put("cvc4-unknown", answer(&[Unknown], &[], &[], true));
    put("z3old-unknown", answer(&[], &[], &[], false));
    // The echo of `"a ""b"" (c) |d|"` is printed raw by z3 and with 2.5-style
    // `\"` by cvc4: both must be passed over, and the symbol with quotes
    // and parentheses in it read.
    for s in ["z3", "z3old", "cvc5", "cvc4"] {
        put(
            &format!("{s}-echo"),
            answer(&[Sat], &[("a \"b\" (c)", bool(true))], &[], false),
        );
    }
    // Reals in lowest terms; yices writes the Real 3 as `3`. The 41-digit
    // Int is kept as text: the decoder names it in an invalid model.
    for s in ["z3", "cvc5", "yices"] {
        let real = |numerator, denominator| Value::Real {
            numerator,
            denominator,
        };
        let w = if s == "yices" { int(3) } else { real(3, 1) };
        let big = Value::TooLarge("12345678901234567890123456789012345678901".into());
        put(
            &format!("{s}-real"),
            answer(
                &[Sat],
                &[
                    ("r", real(7, 2)),
                    ("w", w),
                    ("n", real(-11, 2)),
                    ("big", big),
                ],
                &[],
                false,
            ),
        );
    }
    // Bitwuzla (PyPI's library behind scripts/bitwuzla-launcher): bit-vector
    // values in binary, echo with its quotes, `success` lines read over;
    // its errors go to stderr (exit status 1), so stdout holds none.
    put("bitwuzla-bv", answer(&[Sat], &bvs, &[], false));
    put("bitwuzla-uf-bool", answer(&[Sat], &bools, &[], false));
    put(
        "bitwuzla-echo",
        answer(&[Sat], &[("a \"b\" (c)", bool(true))], &[], false),
    );
    put(
        "bitwuzla-multi",
        answer(&[Sat, Unsat, Sat], &[("x", bv(12, 8))], &[], false),
    );
    put("bitwuzla-syntax-error", answer(&[], &[], &[], false));
    // boolector 1.5's `-m` model (`a 0101` lines) is not SMT-LIB: only the
    // result is read.
    put("boolector-bv", answer(&[Sat], &[], &[], false));
    put("boolector-bv-unsat", answer(&[Unsat], &[], &[], false));
    want
}

fn recorded() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let entries = std::fs::read_dir(dir()).expect("tests/fixtures/replies must exist");
    for entry in entries {
        let path = entry.expect("readable directory").path();
        if path.extension().is_some_and(|e| e == "out") {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("UTF-8 name")
                .to_string();
            let text = std::fs::read_to_string(&path).expect("UTF-8 fixture");
            out.insert(name, text);
        }
    }
    out
}

#[test]
fn every_recorded_reply_reads_as_expected() {
    let want = expected();
    let got = recorded();
    let names: Vec<&String> = got.keys().collect();
    assert_eq!(
        names,
        want.keys().collect::<Vec<_>>(),
        "fixtures and expectations differ"
    );
    for (name, stdout) in &got {
        let answer = read_answer(stdout).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&answer, &want[name], "{name}");
    }
}

#[test]
fn every_fixture_has_its_script_and_stderr() {
    for name in recorded().keys() {
        for ext in ["smt2", "err"] {
            let path = dir().join(format!("{name}.{ext}"));
            assert!(path.is_file(), "missing {}", path.display());
        }
    }
}
