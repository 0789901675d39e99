//! `solve --all` / `-n N` against a real solver (z3): a puzzle with
//! exactly two solutions shows both and says there are no more; one with
//! many stops at N with N distinct grids, each checked here again as a
//! 4x4 sudoku; JSON gives the solutions as a list; N past the bound is a
//! usage error.

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::{require, smtgrid};

/// Only the two 3/4 swaps of rows 1 and 4, columns 1 and 2 are open.
const TWO: &str = "kind = \"sudoku\"\ngivens = \"\"\"\n. . | 1 2\n1 2 | 4 3\n----+----\n\
                   2 1 | 3 4\n. . | 2 1\n\"\"\"\n";
/// An empty 4x4 sudoku: 288 solutions.
const MANY: &str = "kind = \"sudoku\"\ngivens = \"\"\"\n. . | . .\n. . | . .\n----+----\n\
                    . . | . .\n. . | . .\n\"\"\"\n";

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("the puzzle is written");
    path
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = smtgrid(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The solutions of a one-puzzle JSON document, each checked as a 4x4
/// sudoku agreeing with `givens` (0 for an empty cell).
fn checked_grids(json: &str, givens: &[[i64; 4]; 4]) -> (Vec<Vec<Vec<i64>>>, bool) {
    let v: serde_json::Value = serde_json::from_str(json).expect("one JSON document");
    let doc = &v[0];
    let grids: Vec<Vec<Vec<i64>>> =
        serde_json::from_value(doc["solutions"].clone()).expect("solutions are grids");
    for g in &grids {
        let want: BTreeSet<i64> = (1..=4).collect();
        for i in 0..4 {
            let row: BTreeSet<i64> = g[i].iter().copied().collect();
            let col: BTreeSet<i64> = (0..4).map(|r| g[r][i]).collect();
            let bx: BTreeSet<i64> = (0..4)
                .map(|k| g[(i / 2) * 2 + k / 2][(i % 2) * 2 + k % 2])
                .collect();
            assert_eq!((&row, &col, &bx), (&want, &want, &want), "{g:?}");
            for j in 0..4 {
                assert!(givens[i][j] == 0 || givens[i][j] == g[i][j], "{g:?}");
            }
        }
    }
    let distinct: BTreeSet<&Vec<Vec<i64>>> = grids.iter().collect();
    assert_eq!(distinct.len(), grids.len(), "the solutions are distinct");
    (grids, doc["complete"] == serde_json::Value::Bool(true))
}

#[test]
fn all_shows_both_solutions_and_says_no_more() {
    require(&["z3"]);
    let dir = tempfile::tempdir().unwrap();
    let two = write(&dir, "two.toml", TWO);
    let (code, out, err) = run(&["solve", "--all", "--solver", "z3", two.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("two: solution 1 of 2\n"), "{out}");
    assert!(out.contains("two: solution 2 of 2\n"), "{out}");
    assert!(out.ends_with("two: 2 solutions, no more\n"), "{out}");
    let givens = [[0, 0, 1, 2], [1, 2, 4, 3], [2, 1, 3, 4], [0, 0, 2, 1]];
    let (code, json, json_err) = run(&[
        "solve",
        "-a",
        "--solver",
        "z3",
        "--format",
        "json",
        two.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{json_err}");
    let (grids, complete) = checked_grids(&json, &givens);
    assert_eq!(grids.len(), 2);
    assert!(complete, "{json}");
}

#[test]
fn n_stops_at_n_distinct_checked_grids() {
    require(&["z3"]);
    let dir = tempfile::tempdir().unwrap();
    let many = write(&dir, "many.toml", MANY);
    let path = many.to_str().unwrap();
    let (code, out, err) = run(&["solve", "-n", "3", "--solver", "z3", path]);
    assert_eq!(code, 0, "{err}");
    for k in 1..=3 {
        assert!(
            out.contains(&format!("many: solution {k} of at least 3\n")),
            "{out}"
        );
    }
    assert!(!out.contains("solution 4"), "{out}");
    assert!(out.contains("stopped at 3"), "{out}");
    let (code, json, err) = run(&[
        "solve", "-n", "3", "--solver", "z3", "--format", "json", path,
    ]);
    assert_eq!(code, 0, "{err}");
    let (grids, complete) = checked_grids(&json, &[[0; 4]; 4]);
    assert_eq!(grids.len(), 3);
    assert!(!complete, "{json}");
}

#[test]
fn a_search_that_finds_none_is_a_definite_answer() {
    require(&["z3"]);
    // r1c1 = 4 at the bulb of a thermometer: no solution, as plain
    // `solve` says with exit status 0.
    let dir = tempfile::tempdir().expect("temp dir");
    let none = write(
        &dir,
        "none.toml",
        "kind = \"sudoku\"\ngivens = \"\"\"\n4...\n....\n....\n....\n\"\"\"\n\
         [[thermometer]]\ncells = \"r1c1 r1c2\"\n",
    );
    let path = none.to_str().expect("UTF-8");
    let (code, out, err) = run(&["solve", "--all", "--solver", "z3", "--format", "json", path]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(v[0]["solutions"], serde_json::json!([]), "{out}");
    assert_eq!(v[0]["complete"], true, "{out}");
    let (code, out, err) = run(&["solve", "--solver", "z3", path]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn n_past_the_bound_is_a_usage_error_naming_it() {
    let (code, _, err) = run(&["solve", "-n", "1001", "puzzles/sudoku-4x4.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("1000"), "{err}");
}

#[test]
fn a_solver_that_denies_a_known_solution_is_a_fault_not_no_solution() {
    // A session that answers unsat to every question. calcudoku-4x4.toml
    // records its (checked) solution, which refutes that answer; the
    // decided 4x4 records none, but propagation alone completes it.
    let liar = format!(
        "z3={}",
        common::root()
            .join("tests/fake_solvers/session_unsat.py")
            .display()
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let decided = write(&dir, "decided.toml", common::DECIDED_4X4);
    for (file, why) in [
        ("puzzles/calcudoku-4x4.toml", "records a solution"),
        (
            decided.to_str().expect("UTF-8"),
            "propagation alone decides",
        ),
    ] {
        let out = common::smtgrid(&[
            "solve",
            file,
            "--all",
            "--solver",
            &liar,
            "--timeout",
            "20s",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!text.contains("no solution"), "{file}: {text}");
        assert!(!text.contains("no more"), "{file}: {text}");
        assert!(format!("{text}{err}").contains(why), "{file}: {text}{err}");
        assert_eq!(out.status.code(), Some(1), "{file}: {text}{err}");
    }
}
