//! Propagated scripts state only what is left to find: for every puzzle
//! of `puzzles/` (and the first puzzles of its line files) and every
//! encoding, no assertion without a constant (`(assert (= #b1100 #b1100))`,
//! `(assert true)`), no section heading without a command under it, and
//! `inspect`'s cell counts add up.

use smtgrid::cancel::Cancel;
use smtgrid::encode::{Encoding, Options, encode};
use smtgrid::inspect::Inspection;
use smtgrid::lower::lower;
use smtgrid::model::Group;
use smtgrid::parse;
use smtgrid::puzzle::Puzzle;
use smtgrid::smtlib::Sexp;
use smtgrid::smtlib::sexp::parse_all;

use crate::common;
use common::root;

/// Every group's heading, as the encoders write them.
const GROUPS: [Group; 12] = [
    Group::Givens,
    Group::Rows,
    Group::Columns,
    Group::Boxes,
    Group::Regions,
    Group::Diagonals,
    Group::Cages,
    Group::AcrossRuns,
    Group::DownRuns,
    Group::Inequalities,
    Group::EdgeClues,
    Group::Derived,
];

/// The puzzles of every file in puzzles/ (a line file's first three).
fn puzzles() -> Vec<Puzzle> {
    let dir = root().join("puzzles");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("puzzles/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml" || x == "txt"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in files {
        let rel = f.strip_prefix(root()).expect("inside");
        let ps = parse::load(rel, None).unwrap_or_else(|e| panic!("{e}"));
        all.extend(ps.into_iter().take(3));
    }
    assert!(all.len() > 30, "{}", all.len());
    all
}

/// The atoms of a term, operators included.
fn atoms<'a>(t: &'a Sexp, out: &mut Vec<&'a str>) {
    match t {
        Sexp::Atom(a) => out.push(a),
        Sexp::Str(_) => {}
        Sexp::List(items) => items.iter().for_each(|i| atoms(i, out)),
    }
}

#[test]
fn propagated_scripts_hold_no_tautology_and_no_empty_section() {
    let headings: Vec<String> = GROUPS
        .iter()
        .map(|g| format!("; {}", g.title()))
        .chain(["; cells".to_string(), "; domains".to_string()])
        .collect();
    let is_heading = |l: &str| {
        headings
            .iter()
            .any(|h| l == h || l.starts_with(&format!("{h} (")) || l.starts_with(&format!("{h}:")))
    };
    let mut checked = 0;
    for p in puzzles() {
        let model = lower(&p);
        for e in Encoding::ALL {
            let script = encode(&model, e, &Options::default()).script;
            if script.contains("; no solution") {
                continue;
            }
            let items = parse_all(&script).expect("the script reads back");
            let mut names = std::collections::BTreeSet::new();
            for item in &items {
                if let Some([head, name, ..]) = item.as_list()
                    && (head.is_atom("declare-const") || head.is_atom("define-fun"))
                    && let Some(n) = name.as_atom()
                {
                    names.insert(n.to_string());
                }
            }
            for item in &items {
                if let Some([head, term]) = item.as_list()
                    && head.is_atom("assert")
                {
                    let mut seen = Vec::new();
                    atoms(term, &mut seen);
                    assert!(
                        seen.iter().any(|a| names.contains(*a)),
                        "{} {e}: an assertion about no constant: {item}",
                        p.name
                    );
                }
            }
            // Each heading has a command before the next heading or the
            // closing check-sat.
            let mut open: Option<&str> = None;
            for line in script.lines() {
                if is_heading(line) || line == "(check-sat)" {
                    assert!(open.is_none(), "{} {e}: empty section {open:?}", p.name);
                    open = is_heading(line).then_some(line);
                } else if line.starts_with('(') {
                    open = None;
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 90, "{checked}");
}

#[test]
fn inspect_cell_counts_add_up() {
    let mut decided = 0;
    for p in puzzles() {
        for options in [Options::default(), Options { plain: true }] {
            let i = Inspection::new(&p, &Encoding::ALL, &options, &Cancel::new())
                .expect("not cancelled");
            let n = i.counts();
            assert_eq!(
                n.cells,
                n.given + n.propagated + n.unknown,
                "{}: {n:?}",
                p.name
            );
            assert_eq!(n.cells, lower(&p).cells.len(), "{}", p.name);
            if options.plain {
                assert_eq!(n.propagated, 0, "{}: {n:?}", p.name);
            }
            decided += n.propagated;
            let text = i.text();
            assert!(
                text.contains(&format!(
                    "{} ({} given, {} decided by propagation, {} unknown)",
                    n.cells, n.given, n.propagated, n.unknown
                )),
                "{text}"
            );
        }
    }
    assert!(decided > 0, "propagation decides some cell somewhere");
}

#[test]
fn inspect_constraint_shows_one_statement_in_every_encoding() {
    let o = common::smtgrid(&[
        "inspect",
        "puzzles/calcudoku-4x4.toml",
        "--constraint",
        "cage a",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.starts_with("cage a: 12*, 3 cells (r1c1 r1c2 r2c1)\n"),
        "{text}"
    );
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {text}"))
    };
    // One after another, each under its name, with its declarations.
    let (lia, onehot, bv) = (
        at("  lia (QF_NIA)"),
        at("  onehot (QF_UF)"),
        at("  bv (QF_BV)"),
    );
    assert!(lia < onehot && onehot < bv, "{text}");
    assert!(at("(declare-const x_1_1 Int)") < at("(assert (= (* x_1_1 x_1_2 x_2_1) 12))"));
    assert!(at("(assert (= (* x_1_1 x_1_2 x_2_1) 12))") < onehot);
    let table = at("(assert (or (and x_1_1_1 x_1_2_3 x_2_1_4)");
    assert!(
        onehot < at("(declare-const x_1_1_1 Bool)") && table < bv,
        "{text}"
    );
    assert!(
        bv < at("(declare-const x_1_1 (_ BitVec 3))") && bv < at("(bvmul"),
        "{text}"
    );
    // No other statement leaks in: nothing about row 1's fourth cell.
    assert!(!text.contains("x_1_4"), "{text}");

    // Propagated: a killer row whose cells propagation decides needs no
    // command in onehot and bv; lia still states it.
    let o = common::smtgrid(&[
        "inspect",
        "puzzles/killer-9x9.toml",
        "--propagate",
        "--constraint",
        "row 3",
        "--format",
        "jsonl",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON line");
    let st = &j["statements"][0];
    assert_eq!(st["statement"], "row 3", "{j}");
    let encs = st["encodings"].as_array().expect("encodings");
    assert_eq!(encs.len(), 3, "{j}");
    assert!(
        encs[0]["commands"]
            .as_str()
            .is_some_and(|c| c.contains("(distinct x_3_1")),
        "{j}"
    );
    for e in &encs[1..] {
        assert_eq!(e["commands"], "", "{j}");
        assert!(
            e["note"]
                .as_str()
                .is_some_and(|n| n.contains("propagation decided")),
            "{j}"
        );
    }

    // `row 3` is not `row 30`, and a name that is no statement is a usage
    // error naming some that are.
    let o = common::smtgrid(&["inspect", "puzzles/classic.toml", "--constraint", "cage z"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no statement `cage z` in classic") && err.contains("given r1c6 = 6"),
        "{err}"
    );
}

/// Issue 33 section 5: plain `emit` printed a trivial script without a
/// word when propagation decided every cell (a killer in onehot: nine
/// lines, no declarations). `emit` and `inspect --encoding` write the
/// whole puzzle by default, every cell declared and the givens asserted;
/// `--propagate` asks for the propagated form.
#[test]
fn emit_and_inspect_write_the_whole_puzzle_unless_asked_to_propagate() {
    let emit = |more: &[&str]| {
        let o =
            common::smtgrid(&[&["emit", "puzzles/killer-4x4.toml", "-e", "onehot"], more].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let whole = emit(&[]);
    assert!(whole.contains("(declare-const x_1_1_1 Bool)"), "{whole}");
    assert!(whole.contains("(declare-const x_4_4_4 Bool)"), "{whole}");
    let propagated = emit(&["--propagate"]);
    assert!(propagated.len() < whole.len(), "{propagated}");
    assert_eq!(emit(&["--plain"]), whole);
    let o = common::smtgrid(&["inspect", "puzzles/killer-4x4.toml", "--encoding", "onehot"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("0 decided by propagation, 16 unknown"),
        "{text}"
    );
}
