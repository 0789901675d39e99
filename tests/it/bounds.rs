//! Script sizes stay within each encoding's stated bound
//! (`encode::size_bound`) on grids that are one big cage, and one such
//! cage is solved in the encoding's large form. Time and memory of the
//! same shapes up to 64×64 are measured by `scripts/bench-bounds`.

use std::time::Duration;

use smtgrid::elements::cages::Cages;
use smtgrid::encode::{Encoded, Encoding, Options, encode, size_bound};
use smtgrid::lower::lower;
use smtgrid::model::{Cell, Constraint, Model};
use smtgrid::puzzle::{Cage, Clue, Kind, Puzzle};
use smtgrid::smtlib::CheckSat;
use smtgrid::smtlib::reply::read_answer;
use smtgrid::solver::{Cancel, Limits, Solver, run};

use crate::common;
use common::solver;

/// Asserts that every encoding's script of `model` stays within its stated
/// bound (`what` names the case in a failure); returns each one's script.
fn assert_within_bounds(model: &Model, what: &str) -> Vec<(Encoding, String)> {
    Encoding::ALL
        .into_iter()
        .map(|e| {
            let script = encode(model, e, &Options::default()).script;
            let (bytes, bound) = (script.len(), size_bound(model, e));
            assert!(
                bytes as u64 <= bound,
                "{e} {what}: {bytes} bytes, bound {bound}"
            );
            (e, script)
        })
        .collect()
}

/// Runs `enc`, a script of `model`, on `solver` (60 s) and asserts the
/// answer: with `sat`, a grid the checker accepts, else unsat. `what`
/// names the case in a failure.
fn assert_answer(solver: &Solver, model: &Model, enc: &Encoded, sat: bool, what: &str) {
    let limits = Limits::timeout(Duration::from_secs(60));
    let out = run(
        solver,
        &enc.script,
        Some(enc.logic),
        &limits,
        &Cancel::new(),
    );
    let answer = read_answer(&out.stdout).expect("a reply");
    let want = if sat { CheckSat::Sat } else { CheckSat::Unsat };
    assert_eq!(
        answer.results.first(),
        Some(&want),
        "{what}\n{}",
        out.stdout
    );
    if sat {
        let values = enc.decoder.decode(&answer.model).expect("every cell");
        model
            .check(&values)
            .unwrap_or_else(|v| panic!("{what}: {v}"));
    }
}

/// A one-row model of `n` cells, each of 1..=`hi`, under `constraints`.
fn one_row(name: String, n: usize, hi: i64, constraints: Vec<Constraint>) -> Model {
    let cell = |col| Cell {
        row: 0,
        col,
        lo: 1,
        hi,
    };
    Model {
        name,
        title: None,
        rows: 1,
        cols: n,
        cells: (0..n).map(cell).collect(),
        constraints,
    }
}

/// An n×n calcudoku whose cages are the given (clue, rows) bands, with
/// the clues computed from the Latin square (r + c) mod n + 1.
fn banded(n: usize, bands: &[(&str, std::ops::Range<usize>)]) -> Puzzle {
    let value = |r: usize, c: usize| ((r + c) % n + 1) as u64;
    let cages = bands
        .iter()
        .enumerate()
        .map(|(i, (op, rows))| {
            let cells: Vec<(usize, usize)> = rows
                .clone()
                .flat_map(|r| (0..n).map(move |c| (r, c)))
                .collect();
            let clue = match *op {
                "*" => Clue::Product(cells.iter().map(|&(r, c)| value(r, c)).product()),
                _ => Clue::Sum(cells.iter().map(|&(r, c)| value(r, c)).sum()),
            };
            Cage {
                label: format!("c{i}"),
                clue_text: format!("{clue:?}"),
                clue,
                cells,
            }
        })
        .collect();
    let mut p = Puzzle::blank(&format!("banded-{n}"), Kind::Calcudoku, n);
    p.set(Cages {
        cages,
        distinct: false,
    });
    p
}

#[test]
fn single_cage_grids_stay_within_the_bounds() {
    for n in [16, 32] {
        let model = lower(&banded(n, &[("+", 0..n)]));
        for (e, script) in assert_within_bounds(&model, &format!("{n}×{n}")) {
            assert!(script.len() < 200_000_000, "{e} {n}×{n}");
        }
    }
}

/// Cages too big for a diagram (27-cell products with thousands of
/// divisor states, a 27-cell sum) take onehot's binary form; yices solves
/// it to a grid the checker accepts, and a product clue the rows cannot
/// make is unsat.
#[test]
fn large_cages_solve_in_binary_form() {
    let yices = solver("yices2");
    let p = banded(9, &[("*", 0..3), ("+", 3..6), ("*", 6..9)]);
    let model = lower(&p);
    let enc = encode(&model, Encoding::Onehot, &Options::default());
    assert!(enc.script.contains("(xor "), "binary form expected");
    assert!((enc.script.len() as u64) <= size_bound(&model, Encoding::Onehot));
    assert_answer(&yices, &model, &enc, true, "the banded 9×9");

    // Each row holds 1..9 once, so three rows multiply to 9!³; half of it
    // times 3 has the same size but other exponents.
    let mut bad = p.clone();
    let Clue::Product(v) = bad.cages()[0].clue else {
        panic!("a product cage")
    };
    bad.get_mut::<Cages>().expect("cages").cages[0].clue = Clue::Product(v / 2 * 3);
    let model = lower(&bad);
    let enc = encode(&model, Encoding::Onehot, &Options::default());
    assert_answer(
        &yices,
        &model,
        &enc,
        false,
        "the banded 9×9, product 9!³ / 2 × 3",
    );
}

/// Difference and ratio cages of more than 8 cells take the forms through
/// one named sum or product in lia and bv, and the binary form in onehot
/// once their diagram is too big: a clue the cells can make is solved to
/// a checked grid, one just out of reach is unsat. Nine cells of 1..=16
/// with no other rule: the largest minus the others is at most 16 − 8,
/// the largest over the others' product at most 16.
#[test]
fn big_difference_and_ratio_cages_are_exact() {
    use smtgrid::model::{Group, Rule};
    let make = |rule: Rule| {
        let name = format!("{rule:?}");
        let cage = Constraint {
            rule,
            origin: "cage a".into(),
            group: Group::Cages,
        };
        one_row(name, 9, 16, vec![cage])
    };
    let cells: Vec<usize> = (0..9).collect();
    let cases = [
        (
            Rule::Difference {
                cells: cells.clone(),
                value: 8,
            },
            true,
        ),
        (
            Rule::Difference {
                cells: cells.clone(),
                value: 9,
            },
            false,
        ),
        (
            Rule::Ratio {
                cells: cells.clone(),
                value: 12,
            },
            true,
        ),
        (
            Rule::Ratio {
                cells: cells.clone(),
                value: 17,
            },
            false,
        ),
    ];
    let z3 = solver("z3");
    for (rule, sat) in cases {
        let model = make(rule);
        for e in Encoding::ALL {
            for plain in [false, true] {
                let enc = encode(&model, e, &Options { plain });
                let what = format!("{e} (plain: {plain}) of {}", model.name);
                assert_answer(&z3, &model, &enc, sat, &what);
            }
        }
    }
}

/// A 16×16 killer whose 12-cell cage asks 77, one below the least sum of
/// 12 distinct values: propagation names the cage at once instead of
/// enumerating tuples (this took hours before).
#[test]
fn an_unreachable_distinct_cage_is_named() {
    let mut p = banded(16, &[]);
    p.kind = Kind::Killer;
    p.set(smtgrid::elements::boxes::Boxes { rows: 4, cols: 4 });
    let cages = p.entry(|| Cages {
        cages: Vec::new(),
        distinct: true,
    });
    cages.distinct = true;
    cages.cages.push(Cage {
        label: "a".into(),
        clue_text: "77".into(),
        clue: Clue::Sum(77),
        cells: (0..12).map(|c| (0, c)).collect(),
    });
    let model = lower(&p);
    for e in [Encoding::Onehot, Encoding::Bv] {
        let enc = encode(&model, e, &Options::default());
        assert!(
            enc.script
                .contains("; no solution: cage a 77: no 12 distinct values of its cells reach it")
                && enc.script.contains("(assert false)"),
            "{e}: {}",
            &enc.script[..enc.script.len().min(2000)]
        );
    }
}

/// An n×n skyscrapers whose edge clues are the towers seen in the Latin
/// square (r + c) mod n + 1, from every side.
fn skyscrapers(n: usize) -> Puzzle {
    use smtgrid::model::visible;
    use smtgrid::puzzle::EdgeClues;
    let value = |r: usize, c: usize| ((r + c) % n + 1) as i64;
    let seen = |line: Vec<i64>| Some(visible(&line) as u32);
    let lines = |f: &dyn Fn(usize, usize) -> i64, rev: bool| -> Vec<Option<u32>> {
        (0..n)
            .map(|i| {
                let mut line: Vec<i64> = (0..n).map(|j| f(i, j)).collect();
                if rev {
                    line.reverse();
                }
                seen(line)
            })
            .collect()
    };
    let col = |c: usize, r: usize| value(r, c);
    let mut p = Puzzle::blank(&format!("skyscrapers-{n}"), Kind::Skyscrapers, n);
    p.set(EdgeClues {
        top: lines(&col, false),
        bottom: lines(&col, true),
        left: lines(&value, false),
        right: lines(&value, true),
    });
    p
}

/// Visibility counts along 32-cell lines are too big for a diagram (24-
/// and 28-cell lines still take one); every encoding stays within its
/// bound, onehot through its compact form, which counts in binary.
#[test]
fn big_skyscrapers_stay_within_the_bounds() {
    for (e, script) in assert_within_bounds(&lower(&skyscrapers(32)), "32×32 skyscrapers") {
        assert!(
            e != Encoding::Onehot || script.contains("(xor "),
            "onehot: binary count expected"
        );
    }
}

/// Renban lines on a 16×16 (of 3, 9 and 16 cells) with the values and
/// classes they imply (`Rule::Contains`, one clause each in onehot, kept at
/// any length) stay within the bounds, plain and propagated.
#[test]
fn renban_lines_stay_within_the_bounds() {
    let row = |r: usize, len: usize| -> String {
        (1..=len)
            .map(|c| format!("r{r}c{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let text = format!(
        "kind = \"sudoku\"\ngivens = \"\"\"\n{}\"\"\"\n\
         [[renban]]\ncells = \"{}\"\n[[renban]]\ncells = \"{}\"\n[[renban]]\ncells = \"{}\"\n",
        format!("{}\n", vec!["."; 16].join(" ")).repeat(16),
        row(1, 3),
        row(2, 9),
        row(3, 16)
    );
    let loc = smtgrid::error::Location::file("renban.toml");
    let p = smtgrid::parse::parse_str(&text, &loc, None).unwrap_or_else(|e| panic!("{e}"));
    let model = lower(&p[0]);
    assert!(
        model
            .counts_by_kind()
            .iter()
            .any(|&(k, n)| k == "contains" && n > 0),
        "{:?}",
        model.counts_by_kind()
    );
    assert_within_bounds(&model, "16×16 renbans");
    for e in Encoding::ALL {
        let bytes = encode(&model, e, &Options { plain: true }).script.len();
        assert!(
            bytes as u64 <= size_bound(&model, e),
            "{e} plain: {bytes} bytes"
        );
    }
}

/// A 40-cell line of distinct towers 1..=40 seen 10 times from the left
/// and 4 times from the right: too big for a diagram, so onehot counts in
/// binary; yices solves it to a line the checker accepts, and 40 from the
/// left with 2 from the right (only an ascending line shows 40) is unsat.
#[test]
fn long_visibility_lines_are_exact() {
    use smtgrid::model::{Group, Rule};
    let make = |left: i64, right: i64| {
        let cells: Vec<usize> = (0..40).collect();
        let rule = |rule: Rule| Constraint {
            rule,
            origin: "clue".into(),
            group: Group::EdgeClues,
        };
        let constraints = vec![
            rule(Rule::AllDifferent {
                cells: cells.clone(),
            }),
            rule(Rule::Visible {
                cells: cells.clone(),
                count: left,
            }),
            rule(Rule::Visible {
                cells: cells.iter().rev().copied().collect(),
                count: right,
            }),
        ];
        one_row(format!("line {left} {right}"), 40, 40, constraints)
    };
    let yices = solver("yices2");
    for (left, right, sat) in [(10, 4, true), (40, 2, false)] {
        let model = make(left, right);
        for plain in [false, true] {
            let enc = encode(&model, Encoding::Onehot, &Options { plain });
            let what = format!("{} (plain: {plain})", model.name);
            assert!(
                enc.script.contains("(xor "),
                "{what}: binary count expected"
            );
            assert!((enc.script.len() as u64) <= size_bound(&model, Encoding::Onehot));
            assert_answer(&yices, &model, &enc, sat, &what);
        }
    }
}

/// A sum clue with many alternatives (`A|B|C|…`) names its sum once: the
/// script grows with cells plus alternatives, not their product (a
/// 122 KB killer file made a lia script of gigabytes). Every encoding
/// stays within its bound, and the cells' terms appear once each in lia.
#[test]
fn sum_alternatives_name_the_sum_once() {
    use smtgrid::model::{Group, Rule, Target};
    let (k, alternatives) = (30usize, 400i64);
    let rule = Rule::Sum {
        cells: (0..k).collect(),
        target: Target::OneOf((1..=alternatives).map(|a| 2 * a + k as i64).collect()),
    };
    let model = one_row(
        "alternatives".into(),
        k,
        9,
        vec![Constraint {
            rule,
            origin: "cage a".into(),
            group: Group::Cages,
        }],
    );
    let scripts = assert_within_bounds(&model, "sum with 400 alternatives");
    for (e, script) in &scripts {
        let bytes = script.len();
        // About 20 bytes per cell and per alternative; the product form
        // was over 100 KB. (onehot builds a diagram of the sum.)
        assert!(
            *e == Encoding::Onehot || bytes < 30_000,
            "{e}: {bytes} bytes"
        );
    }
    let (_, lia) = scripts
        .iter()
        .find(|(e, _)| *e == Encoding::Lia)
        .expect("lia is one of the encodings");
    // Its declaration, its two bounds, the named sum.
    let uses = lia.matches("x_1_7 ").count() + lia.matches("x_1_7)").count();
    assert_eq!(uses, 4, "x_1_7:\n{lia}");
}

/// Regression (issue 33 #03): explain's script, every statement under a
/// Bool of its own, wrote each all-different group's at-most-one pairwise,
/// O(d·k²) for k cells over d values (an empty 49×49: 1.5 GB, built before
/// its time limit counted). It stays within its stated bound, which grows
/// as k·d per group, and the bound of an empty 64×64 is under explain's
/// limit.
#[test]
fn explain_scripts_stay_within_their_bound() {
    use smtgrid::encode::{encode_guarded, guarded_size_bound};
    use smtgrid::lower::lower_with_statements;
    use smtgrid::solver::Cancel;
    // With `bools` (generate's sessions for a solver of Bools alone), the
    // same puzzles as onehot states them, each clause under its guard.
    let guarded_bytes = |p: &Puzzle, bools: bool| {
        let (model, statements) = lower_with_statements(p);
        let mut statement_of = vec![usize::MAX; model.constraints.len()];
        for (k, st) in statements.iter().enumerate() {
            for &i in &st.constraints {
                statement_of[i] = k;
            }
        }
        let g = encode_guarded(
            &model,
            &statement_of,
            statements.len(),
            bools,
            &Cancel::new(),
        )
        .expect("not cancelled");
        let bytes = g.setup.len() as u64;
        let bound = guarded_size_bound(&model, statements.len(), bools);
        assert!(
            bytes <= bound,
            "{} ({bools}): {bytes} bytes, bound {bound}",
            p.name
        );
        bytes
    };
    for bools in [false, true] {
        for n in [4, 9, 16, 25] {
            let p = Puzzle::blank(&format!("sudoku-{n}"), Kind::Sudoku, n);
            guarded_bytes(&p, bools);
        }
        guarded_bytes(
            &banded(16, &[("+", 0..4), ("*", 4..5), ("+", 5..16)]),
            bools,
        );
        for file in [
            "puzzles/killer-4x4.toml",
            "puzzles/killers/mathemagic-01.toml",
        ] {
            for p in smtgrid::parse::load(&common::root().join(file), None).expect("parses") {
                guarded_bytes(&p, bools);
            }
        }
    }
    // Linear in the pairs of a group: the 25×25 is a few MB, not tens.
    let p = Puzzle::blank("sudoku-25", Kind::Sudoku, 25);
    assert!(guarded_bytes(&p, false) < 8_000_000);
    let (model, statements) = lower_with_statements(&Puzzle::blank("s64", Kind::Sudoku, 64));
    assert!(guarded_size_bound(&model, statements.len(), false) < 1 << 30);
}

/// Regression (issue 33 #03): `explain` refuses a puzzle whose script
/// could exceed its limit, naming the bound, before building anything.
#[test]
fn explain_refuses_a_script_over_its_limit() {
    use smtgrid::model::{Group, Rule};
    let row = Constraint {
        rule: Rule::AllDifferent {
            cells: (0..64).collect(),
        },
        origin: "row 1".into(),
        group: Group::Rows,
    };
    let model = one_row("wide".into(), 64, 1_000_000, vec![row]);
    let start = std::time::Instant::now();
    let ex = smtgrid::explain::explain(
        &model,
        &[],
        &solver("z3"),
        &smtgrid::explain::Options::default(),
        &Cancel::new(),
    );
    let why = match (&ex.stopped, ex.questions) {
        (Some(smtgrid::explain::Stop::Failed(why)), 0) => why,
        _ => panic!("{ex:?}"),
    };
    assert!(
        why.contains("too large to explain") && why.contains("limit of 1024 MB"),
        "{why}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}
