//! The `smtgrid` binary end to end, against real solvers (z3, cvc5,
//! yices-smt2) and fake ones that misbehave. A missing solver fails these
//! tests with a message saying how to install it; nothing is skipped.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{
    PROFILES, assert_all_gone, bin, fake_solver, per_solver, puzzle_files, recorded_pids, require,
    root, second_z3, smtgrid, sorted_keys,
};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// The path of the fake solver `name` of `tests/fake_solvers/`.
fn fake(name: &str) -> String {
    root()
        .join("tests/fake_solvers")
        .join(name)
        .display()
        .to_string()
}

/// `smtgrid solve ARGS…`.
fn solve(args: &[&str]) -> Output {
    smtgrid(&[&["solve"], args].concat())
}

/// `smtgrid solve ARGS… --format jsonl`: the output and its JSON lines.
fn solve_json(args: &[&str]) -> (Output, Vec<Value>) {
    let o = solve(&[args, &["--format", "jsonl"]].concat());
    let runs = json_lines(&o);
    (o, runs)
}

/// [`solve_json`] on one puzzle file with `--solver SOLVERS --encoding
/// ENCODING`.
fn solve_on(puzzle: &str, solvers: &str, encoding: &str) -> (Output, Vec<Value>) {
    solve_json(&[puzzle, "--solver", solvers, "--encoding", encoding])
}

/// The text output of `smtgrid solve PUZZLES… --solver SOLVER --encoding
/// ENCODING --unique`.
fn unique_text(puzzles: &[&str], solver: &str, encoding: &str) -> String {
    let o = solve(
        &[
            puzzles,
            &["--solver", solver, "--encoding", encoding, "--unique"],
        ]
        .concat(),
    );
    stdout(&o)
}

/// The arguments for the 4×4 sudoku on the lia encoding by `--solver
/// SOLVERS`, followed by `more`.
fn lia_on_4x4<'a>(solvers: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let on = [
        "puzzles/sudoku-4x4.toml",
        "--solver",
        solvers,
        "--encoding",
        "lia",
    ];
    [&on[..], more].concat()
}

/// Asserts that smtgrid exited 2 (a usage or input error) with a message
/// containing `says` and no panic; `case` names the case in a failure.
fn exits_2_saying(o: &Output, says: &str, case: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{case}: {err}");
    assert!(
        err.contains(says) && !err.contains("panicked"),
        "{case}: {err}"
    );
}

per_solver!(every_puzzle_is_solved_and_verified);

fn every_puzzle_is_solved_and_verified(solver: &str) {
    require(&[solver]);
    let files = puzzle_files();
    assert!(
        files.len() >= 17,
        "puzzles/ should hold the 5 seeds and 3 more per kind"
    );
    let mut args: Vec<String> = [
        "solve",
        "--solver",
        solver,
        "--encoding",
        "onehot",
        "--format",
        "jsonl",
    ]
    .map(String::from)
    .to_vec();
    args.extend(["--timeout", "120"].map(String::from));
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = smtgrid(&args);
    let runs = json_lines(&o);
    assert_eq!(
        runs.len(),
        files.len(),
        "one run per puzzle\n{}",
        stderr(&o)
    );
    for r in &runs {
        assert_eq!(r["status"], "sat", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert!(r["grid"].is_array(), "{r}");
        assert!(r["solver_version"].is_string(), "{r}");
    }
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn json_lines_carry_exactly_the_documented_fields() {
    require(&["z3"]);
    let (_, runs) = solve_on("puzzles/sudoku-4x4.toml", "z3", "lia");
    assert_eq!(runs.len(), 1);
    assert_eq!(
        sorted_keys(&runs[0]),
        [
            "command",
            "cpu_ms",
            "date",
            "differs",
            "encoding",
            "error",
            "first_answer_ms",
            "grid",
            "kind",
            "machine",
            "max_rss_kb",
            "memory_limit_by",
            "memory_limit_mb",
            "mode",
            "plain",
            "puzzle",
            "solver",
            "solver_sha256",
            "solver_version",
            "stats",
            "status",
            "time_ms",
            "timeout_ms",
            "unique",
            "verified"
        ]
    );
    let r = &runs[0];
    assert!(r["time_ms"].as_f64().is_some_and(|t| t > 0.0), "{r}");
    assert!(r["cpu_ms"].as_f64().is_some_and(|t| t >= 0.0), "{r}");
    assert!(r["max_rss_kb"].as_u64().is_some_and(|m| m > 0), "{r}");
    assert!(
        r["command"][0].as_str().is_some_and(|c| c.ends_with("z3")),
        "{r}"
    );
    assert_eq!(r["solver_sha256"].as_str().map(str::len), Some(64), "{r}");
    assert_eq!(r["first_answer_ms"], Value::Null, "{r}");
    assert_eq!(r["timeout_ms"], 60_000, "{r}");
    assert_eq!(r["plain"], false, "{r}");
    assert!(r["machine"]["kernel"].is_string(), "{r}");
    assert!(r["date"].as_str().is_some_and(|d| d.ends_with('Z')), "{r}");
    assert_eq!(runs[0]["kind"], "sudoku");
    assert_eq!(runs[0]["encoding"], "lia");
    assert_eq!(runs[0]["unique"], Value::Null);
    assert_eq!(runs[0]["grid"][0], serde_json::json!([4, 3, 1, 2]));
}

#[test]
fn kakuro_grids_have_null_for_squares_without_a_cell() {
    require(&["yices-smt2"]);
    let (o, runs) = solve_on("puzzles/kakuro-hard.toml", "yices2", "onehot");
    assert_eq!(runs[0]["status"], "sat", "{}", stderr(&o));
    assert_eq!(runs[0]["grid"][0][0], Value::Null);
    assert!(runs[0]["grid"][1][1].is_i64());
}

/// Under the default `--mode auto`, a file's later puzzles of one shape go
/// to a session; Glucose takes no bit-vectors, in which onehot's sessions
/// read the grid back, so it runs every puzzle as a process instead of
/// refusing all but the first.
#[test]
fn a_solver_without_the_session_logic_runs_each_puzzle_as_a_process() {
    require(&["glucose"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = common::many_sudokus(dir.path(), 3);
    let file = file.to_str().expect("a UTF-8 path");
    let (o, runs) = solve_on(file, "glucose", "onehot");
    assert_eq!(runs.len(), 3, "{}", stderr(&o));
    for r in &runs {
        assert_eq!(r["status"], "sat", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["mode"], "process", "{r}");
    }
    assert_eq!(o.status.code(), Some(0));
}

per_solver!(unique_tells_a_unique_puzzle_from_one_with_many_solutions: z3, cvc5, yices2, bitwuzla, glucose);

fn unique_tells_a_unique_puzzle_from_one_with_many_solutions(solver: &str) {
    require(&[solver]);
    // Bitwuzla takes no arithmetic and Glucose only Booleans: their
    // second question is asked in bit-vectors or Booleans, over their
    // interactive modes.
    let encoding = match solver {
        "bitwuzla" => "bv",
        "glucose" => "onehot",
        _ => "lia",
    };
    let (o, runs) = solve_json(&[
        "puzzles/sudoku-4x4.toml",
        "puzzles/classic.toml",
        "--unique",
        "--solver",
        solver,
        "--encoding",
        encoding,
    ]);
    assert_eq!(runs.len(), 2, "{}", stderr(&o));
    assert_eq!(runs[0]["unique"], true, "{solver}: {}", runs[0]);
    assert_eq!(runs[0]["differs"], Value::Null, "{solver}: {}", runs[0]);
    assert_eq!(runs[1]["unique"], false, "{solver}: {}", runs[1]);
    // The cells where the second solution differs, [row, column] from 1:
    // at least two (a grid differing in one cell breaks a rule), each in
    // the grid.
    let differs = runs[1]["differs"].as_array().expect("differs");
    assert!(differs.len() >= 2, "{solver}: {}", runs[1]);
    for cell in differs {
        let rc: Vec<u64> = cell
            .as_array()
            .expect("a pair")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        assert!(
            rc.len() == 2 && rc.iter().all(|&x| (1..=9).contains(&x)),
            "{}",
            runs[1]
        );
    }
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn unique_text_output_shows_the_second_solution() {
    require(&["z3"]);
    let text = unique_text(&["puzzles/classic.toml"], "z3", "lia");
    assert!(
        text.contains("NOT unique") && text.contains("a second solution"),
        "{text}"
    );
}

per_solver!(unsolvable_puzzles_are_unsat_in_every_encoding);

fn unsolvable_puzzles_are_unsat_in_every_encoding(solver: &str) {
    require(&[solver]);
    for f in ["sudoku-4x4.toml", "kakuro.kakuro", "calcudoku-3x3.toml"] {
        let path = format!("tests/fixtures/unsat/{f}");
        let (o, runs) = solve_on(&path, solver, "all");
        assert_eq!(runs.len(), 3, "{f}: {}", stderr(&o));
        for r in &runs {
            assert_eq!(r["status"], "unsat", "{f}: {r}");
            assert_eq!(r["grid"], Value::Null);
        }
        assert_eq!(o.status.code(), Some(0), "{f}");
    }
}

#[test]
fn two_versions_of_z3_run_side_by_side() {
    require(&["z3"]);
    let solvers = format!("z3,z3@debian={}", second_z3());
    let (o, runs) = solve_on("puzzles/sudoku-4x4.toml", &solvers, "lia");
    assert_eq!(runs.len(), 2, "{}", stderr(&o));
    assert_eq!(runs[0]["solver"], "z3");
    assert_eq!(runs[1]["solver"], "z3@debian");
    assert_ne!(runs[0]["solver_version"], runs[1]["solver_version"]);
    assert!(runs.iter().all(|r| r["status"] == "sat"));
}

#[test]
fn unsupported_logic_is_reported_not_an_error() {
    require(&["boolector"]);
    let (_, runs) = solve_on("puzzles/sudoku-4x4.toml", "boolector", "lia");
    assert_eq!(runs[0]["status"], "unsupported", "{}", runs[0]);
    assert!(
        runs[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("boolector"))
    );
}

/// Runs a fake solver on a puzzle; returns the JSON report, the exit code,
/// how long it took (only for the test of the time limit itself), and the
/// PIDs the fake recorded.
fn run_fake(fake: &str, timeout: &str) -> (Value, Option<i32>, Duration, Vec<i32>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("pids");
    let cmd = fake_solver("fake", fake, &pidfile);
    let start = Instant::now();
    let (o, runs) = solve_json(&lia_on_4x4(
        "fake",
        &["--solver-cmd", &cmd, "--timeout", timeout],
    ));
    let took = start.elapsed();
    assert_eq!(runs.len(), 1, "{}", stderr(&o));
    let traces = std::fs::read_to_string(&pidfile).unwrap_or_default();
    let pids = traces
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    // The fake records the script's path last: it must be deleted by now.
    let script = traces.split_whitespace().last().unwrap_or_default();
    assert!(
        !script.is_empty() && !Path::new(script).exists(),
        "temporary script {script:?} left behind"
    );
    (runs[0].clone(), o.status.code(), took, pids)
}

#[test]
fn a_hanging_solver_times_out_and_leaves_nothing_behind() {
    let (r, code, took, pids) = run_fake("hang.sh", "1");
    assert_eq!(r["status"], "timeout", "{r}");
    assert_eq!(code, Some(1));
    // The time limit is the behaviour under test: with `--timeout 1` the
    // run must end, not hang. The bound is generous so that a loaded
    // machine does not fail it; how fast it ends is for benchmarks.
    assert!(took < Duration::from_secs(30), "took {took:?}");
    assert_eq!(pids.len(), 2, "the fake records itself and its child");
    assert_all_gone(&pids);
}

#[test]
fn a_hanging_version_probe_ends_with_the_runs_time_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("pids");
    let z3 = format!("z3={}", fake("hangs_on_version.sh"));
    let args = lia_on_4x4(&z3, &["--timeout", "0.5", "--format", "jsonl"]);
    let start = Instant::now();
    let o = bin()
        .arg("solve")
        .args(args)
        .env("FAKE_PIDFILE", &pidfile)
        .current_dir(root())
        .output()
        .expect("the smtgrid binary runs");
    let took = start.elapsed();
    let runs = json_lines(&o);
    assert_eq!(runs.len(), 1, "{}", stderr(&o));
    assert_eq!(runs[0]["status"], "timeout", "{}", runs[0]);
    assert_eq!(runs[0]["solver_version"], Value::Null, "{}", runs[0]);
    // The probe's own bound, 15 s, was the run's whatever its --timeout;
    // now it is the smaller of the two (generously: a loaded machine).
    assert!(took < Duration::from_secs(8), "took {took:?}");
    let pids = recorded_pids(&pidfile);
    assert_eq!(pids.len(), 2, "the version probe and the run: {pids:?}");
    assert_all_gone(&pids);
}

#[test]
fn misbehaving_solvers_get_the_right_status() {
    let cases = [
        ("crash.sh", "error", "Segmentation fault"),
        ("garbage.sh", "error", "unreadable"),
        ("silent.sh", "error", "no answer"),
        ("unknown.sh", "unknown", "unknown"),
        ("wrong_grid.sh", "invalid-model", "is broken"),
        ("flood_stderr.sh", "error", "no model"),
    ];
    for (fake, status, says) in cases {
        // A limit these fakes never reach: they end with their own status.
        let (r, code, _, pids) = run_fake(fake, "60");
        assert_eq!(r["status"], status, "{fake}: {r}");
        assert_eq!(r["verified"], false, "{fake}");
        assert_eq!(
            r["grid"],
            Value::Null,
            "{fake}: an unchecked grid must not be shown"
        );
        let err = r["error"].as_str().unwrap_or_default();
        assert!(
            err.contains(says),
            "{fake}: error should mention `{says}`: {err}"
        );
        assert_eq!(code, Some(1), "{fake}");
        assert_all_gone(&pids);
    }
}

#[test]
fn solvers_that_disagree_are_reported_loudly() {
    require(&["z3"]);
    let cmd = format!("liar=sh {} /dev/null", fake("says_unsat.sh"));
    let o = solve(&lia_on_4x4("z3,liar", &["--solver-cmd", &cmd]));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("SOLVERS DISAGREE"), "{}", stderr(&o));
}

#[test]
fn an_unsat_against_the_recorded_solution_is_a_solver_fault_not_a_verdict() {
    // calcudoku-4x4.toml records its solution, checked when it is read.
    let cmd = format!("liar=sh {} /dev/null", fake("says_unsat.sh"));
    let args = [
        "puzzles/calcudoku-4x4.toml",
        "--solver-cmd",
        cmd.as_str(),
        "--solver",
        "liar",
        "--encoding",
        "lia",
    ];
    let (o, runs) = solve_json(&args);
    let [run] = &runs[..] else {
        panic!("one run: {runs:?}")
    };
    assert_eq!(run["status"], "error", "{run}");
    let err = run["error"].as_str().unwrap_or_default();
    assert!(err.contains("records a solution"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("SOLVERS DISAGREE"), "{}", stderr(&o));
    let text = stdout(&solve(&args));
    assert!(!text.contains("no solution"), "{text}");
}

#[test]
fn an_unsat_against_propagations_whole_grid_is_a_solver_fault() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("decided.toml");
    std::fs::write(&file, common::DECIDED_4X4).expect("the puzzle is written");
    let cmd = format!("liar=sh {} /dev/null", fake("says_unsat.sh"));
    // In the plain form (lia) as in the propagated one (onehot).
    for encoding in ["lia", "onehot"] {
        let args = [
            file.to_str().unwrap(),
            "--solver-cmd",
            cmd.as_str(),
            "--solver",
            "liar",
            "--encoding",
            encoding,
        ];
        let (o, runs) = solve_json(&args);
        let [run] = &runs[..] else {
            panic!("one run: {runs:?}")
        };
        assert_eq!(run["status"], "error", "{encoding}: {run}");
        let err = run["error"].as_str().unwrap_or_default();
        assert!(
            err.contains("propagation alone decides"),
            "{encoding}: {err}"
        );
        assert_eq!(o.status.code(), Some(1), "{encoding}: {}", stderr(&o));
        assert!(stderr(&o).contains("SOLVERS DISAGREE"), "{}", stderr(&o));
    }
}

#[test]
fn auto_races_pairs_and_reports_the_winner() {
    require(&["z3", "yices-smt2"]);
    let args = [
        "solve",
        "puzzles/calcudoku-hard.toml",
        "--solver",
        "z3,yices2",
        "--timeout",
        "60",
    ];
    let o = smtgrid(&[&args[..], &["--verbose"]].concat());
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    assert!(text.contains("sat, verified"), "{text}");
    assert!(
        text.contains("also tried"),
        "with --verbose the other pairs' states are listed: {text}"
    );
    // Without --verbose, one line per solver and nothing about the rest.
    let o = smtgrid(&args);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    assert!(text.contains("sat, verified"), "{text}");
    assert!(!text.contains("also tried"), "{text}");
}

#[test]
fn bad_input_exits_2_with_the_file_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "kind = \"sudoku\"\ngivens = \"\"\"\n1 2\n3\n\"\"\"\n").expect("write");
    for args in [
        vec!["emit", bad.to_str().unwrap_or_default()],
        vec!["solve", bad.to_str().unwrap_or_default()],
        vec!["inspect", "no/such/file.toml"],
        vec!["emit", "puzzles/classic.toml", "--encoding", "nope"],
        vec!["new", "hexagon"],
        vec![
            "solve",
            "puzzles/classic.toml",
            "--solver",
            "no-such-solver",
        ],
        vec!["frobnicate"],
    ] {
        let o = smtgrid(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if args.get(1).is_some_and(|a| a.ends_with("bad.toml")) {
            assert!(
                err.contains("bad.toml:"),
                "{args:?}: the message names the file: {err}"
            );
        }
    }
}

/// With `--format json` stdout is one whole JSON document even when the
/// first input is bad and stops the run before any puzzle (exit status
/// 2): an empty array, or `bench`'s summary of no runs. `solve` and
/// `bench` used to print nothing at all.
#[test]
fn a_bad_first_input_still_leaves_a_whole_json_document() {
    require(&["z3"]);
    let commands: [&[&str]; 5] = [
        &["solve", "--solver", "z3"],
        &["solve", "--all", "--solver", "z3"],
        &["explain", "--solver", "z3"],
        &["inspect"],
        &["bench", "--solver", "z3", "--encoding", "lia"],
    ];
    // The good puzzle after the bad one is never reached: the run stops
    // at the first bad input.
    let inputs = [
        "tests/fixtures/bad/not-square.toml",
        "puzzles/sudoku-4x4.toml",
    ];
    for command in commands {
        let args = [command, &inputs[..], &["--format", "json"]].concat();
        let o = smtgrid(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("not-square.toml"),
            "{args:?}: {}",
            stderr(&o)
        );
        let doc: Value = serde_json::from_str(&stdout(&o))
            .unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}): {}", stdout(&o)));
        match command[0] {
            "bench" => assert_eq!(doc["runs"], 0, "{doc}"),
            _ => assert_eq!(doc, serde_json::json!([]), "{args:?}"),
        }
    }
}

#[test]
fn emit_is_deterministic_and_writes_one_file_per_puzzle() {
    let a = smtgrid(&["emit", "puzzles/killer-9x9.toml"]);
    let b = smtgrid(&["emit", "puzzles/killer-9x9.toml"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let text = stdout(&a);
    let opt = text
        .find("(set-option :produce-models true)")
        .expect("produce-models");
    let logic = text.find("(set-logic").expect("set-logic");
    assert!(
        opt < logic,
        "produce-models comes before set-logic (yices needs it)"
    );
    assert!(text.ends_with("(check-sat)\n(get-model)\n(exit)\n"));

    let dir = tempfile::tempdir().expect("temp dir");
    let lines = dir.path().join("three.txt");
    let top95 =
        std::fs::read_to_string(root().join("puzzles/top95.txt")).expect("puzzles/top95.txt");
    let three: Vec<&str> = top95
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .collect();
    std::fs::write(&lines, three.join("\n")).expect("write");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    let o = smtgrid(&["emit", lines.to_str().unwrap_or_default()]);
    assert_eq!(o.status.code(), Some(2), "many puzzles need -o DIR");
    let o = smtgrid(&[
        "emit",
        lines.to_str().unwrap_or_default(),
        "-o",
        out.to_str().unwrap_or_default(),
        "--encoding",
        "onehot",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .expect("out dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["three-00001.smt2", "three-00002.smt2", "three-00003.smt2"]
    );
}

#[test]
fn inspect_reports_every_encoding() {
    let o = smtgrid(&[
        "inspect",
        "puzzles/calcudoku-hard.toml",
        "--encoding",
        "all",
        "--format",
        "jsonl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = &json_lines(&o)[0];
    assert_eq!(j["cells"], 81);
    let encs = j["encodings"].as_array().expect("encodings");
    let logics: Vec<&str> = encs.iter().filter_map(|e| e["logic"].as_str()).collect();
    assert_eq!(logics, ["QF_NIA", "QF_UF", "QF_BV"]);
    assert!(encs.iter().all(|e| e["bytes"].as_u64().unwrap_or(0) > 0));
    let o = smtgrid(&["inspect", "puzzles/classic.toml"]);
    let text = stdout(&o);
    assert!(
        text.contains("81 (17 given, 0 decided by propagation, 64 unknown)"),
        "{text}"
    );
}

#[test]
fn new_prints_templates_that_parse() {
    for kind in ["sudoku", "killer", "calcudoku", "kakuro"] {
        let o = smtgrid(&["new", kind]);
        assert_eq!(o.status.code(), Some(0), "{kind}");
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join(format!("{kind}.toml"));
        std::fs::write(&f, &o.stdout).expect("write");
        let o = smtgrid(&["inspect", f.to_str().unwrap_or_default()]);
        assert_eq!(o.status.code(), Some(0), "{kind}: {}", stderr(&o));
    }
}

#[test]
fn solvers_lists_known_and_custom_solvers() {
    let o = smtgrid(&[
        "solvers",
        "--format",
        "jsonl",
        "--solver-cmd",
        "mine=/bin/true",
    ]);
    let rows = json_lines(&o);
    let names: Vec<&str> = rows.iter().filter_map(|r| r["name"].as_str()).collect();
    for &n in PROFILES.iter().chain(&["mine"]) {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    let tested = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} row"))["tested"]
            .clone()
    };
    // Bitwuzla and Glucose run here through scripts/bitwuzla-launcher and
    // scripts/glucose-smt2 (installed as smtgrid-bitwuzla and
    // smtgrid-glucose); OpenSMT's profile comes from its documentation.
    assert_eq!(tested("bitwuzla"), true);
    assert_eq!(tested("glucose"), true);
    assert_eq!(tested("opensmt"), false);
}

/// The launchers scripts/install-solvers writes have names of their own
/// (`smtgrid-bitwuzla`, `smtgrid-glucose`): a real `bitwuzla` binary a user
/// installs is found first, and the launcher only where there is none.
#[test]
fn a_real_bitwuzla_comes_before_the_launcher() {
    let dir = tempfile::tempdir().expect("temp dir");
    let make = |name: &str| {
        let path = dir.path().join(name);
        common::write_script(&path, "#!/bin/sh\necho 0.10.0\n");
        path
    };
    let found = |path_var: &Path| -> Value {
        let o = bin()
            .args(["solvers", "--format", "jsonl"])
            .env("PATH", path_var)
            .env_remove("SMTGRID_BITWUZLA")
            .output()
            .expect("smtgrid runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        json_lines(&o)
            .into_iter()
            .find(|r| r["name"] == "bitwuzla")
            .expect("a bitwuzla row")["path"]
            .clone()
    };
    let launcher = make("smtgrid-bitwuzla");
    assert_eq!(found(dir.path()), launcher.display().to_string());
    let real = make("bitwuzla");
    assert_eq!(found(dir.path()), real.display().to_string());
}

#[test]
fn every_bad_input_fixture_exits_2_naming_the_file_for_every_command() {
    let dir = root().join("tests/fixtures/bad");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/bad exists")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 20);
    for f in &files {
        let rel = f.strip_prefix(root()).expect("inside the repository");
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 name");
        for cmd in ["emit", "inspect", "solve"] {
            let mut args = vec![cmd, rel.to_str().expect("UTF-8 path")];
            if cmd == "solve" {
                // The input is rejected before any solver is looked for.
                args.extend(["--solver-cmd", "never=/bin/false", "--solver", "never"]);
            }
            let o = smtgrid(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {name}: {err}");
            assert!(
                err.contains(name),
                "{cmd} {name}: the message names the file: {err}"
            );
            assert!(
                !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
                "{cmd} {name}: {err}"
            );
            assert_eq!(
                err.trim().lines().count(),
                1,
                "{cmd} {name}: one clear line: {err}"
            );
        }
    }
}

/// Starts `smtgrid solve ARGS…` with stderr piped.
fn spawn_solve(args: &[&str], stdout: std::process::Stdio) -> std::process::Child {
    bin()
        .arg("solve")
        .args(args)
        .current_dir(root())
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("smtgrid starts")
}

/// Starts `solve` of two 4×4 puzzles, one at a time, on a fake that
/// answers the first at once and never the second, writing `--format
/// FORMAT` to a pipe; the fake logs each later run to the returned file.
fn first_then_hang(format: &str) -> (tempfile::TempDir, PathBuf, std::process::Child) {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("log");
    let cmd = fake_solver("fake", "first_then_hang.sh", &log);
    let args = lia_on_4x4(
        "fake",
        &[
            "puzzles/sudoku-4x4.toml",
            "--solver-cmd",
            &cmd,
            "--timeout",
            "120",
            "--jobs",
            "1",
            "--format",
            format,
        ],
    );
    let child = spawn_solve(&args, std::process::Stdio::piped());
    (dir, log, child)
}

/// Waits (a minute at most: the machine may be loaded) until the second,
/// hanging run has started, so that a signal finds it running and it must
/// die with smtgrid; then sends SIGINT to smtgrid.
fn interrupt_once_the_second_run_hangs(child: &std::process::Child, log: &Path) {
    let hung = || {
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .lines()
            .count()
            > 1
    };
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while !hung() && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(hung(), "the second run never started");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: sends SIGINT to the smtgrid child this test started.
    unsafe { libc::kill(pid, libc::SIGINT) };
}

#[test]
fn each_result_shows_while_a_later_puzzle_is_still_being_solved() {
    // Results are held while they come fast and pushed out whenever the
    // run waits: the first puzzle's line must not wait for the second.
    use std::io::BufRead;
    let (_dir, log, mut child) = first_then_hang("jsonl");
    let out = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let _ = tx.send(line.unwrap_or_default());
        }
    });
    // Generous: the machine may be loaded; the wait ends with the line.
    let first = rx.recv_timeout(Duration::from_secs(60));
    let running = child.try_wait().expect("wait").is_none();
    interrupt_once_the_second_run_hangs(&child, &log);
    let status = child.wait().expect("wait");
    let first = first.expect("the first puzzle's line while the second was still being solved");
    assert!(
        running,
        "smtgrid ended before the second puzzle was decided"
    );
    let r: Value = serde_json::from_str(&first).expect("a JSON line");
    assert_eq!(r["status"], "sat", "{r}");
    assert_eq!(r["verified"], true, "{r}");
    assert_eq!(status.code(), Some(130));
    let pids = recorded_pids(&log);
    assert_eq!(pids.len(), 1, "the second run hung");
    assert_all_gone(&pids);
}

#[test]
fn ctrl_c_leaves_a_json_document_of_what_was_decided() {
    // The array is closed on the way out, so what stdout holds parses.
    let (_dir, log, child) = first_then_hang("json");
    interrupt_once_the_second_run_hangs(&child, &log);
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).expect("a whole JSON document");
    let runs = doc.as_array().expect("an array");
    // The decided puzzle, then the one the interruption stopped.
    assert_eq!(runs.len(), 2, "{doc}");
    assert_eq!(runs[0]["status"], "sat", "{doc}");
    assert_eq!(runs[1]["status"], "stopped", "{doc}");
}

#[test]
fn ctrl_c_stops_every_solver_and_exits_130() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("pids");
    let cmd = fake_solver("fake", "hang.sh", &pidfile);
    let mut child = spawn_solve(
        &lia_on_4x4("fake", &["--solver-cmd", &cmd, "--timeout", "60"]),
        std::process::Stdio::null(),
    );
    // Wait until the fake solver is running (generously: the machine may be
    // loaded; the wait ends as soon as it runs).
    let until = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&pidfile).map_or(true, |t| t.split_whitespace().count() < 3) {
        assert!(Instant::now() < until, "the fake solver never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: sends SIGINT to the smtgrid child this test started.
    unsafe { libc::kill(pid, libc::SIGINT) };
    // Stopping is the behaviour under test (the solver's own limit is 60 s):
    // a generous bound, not a measure of speed.
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "smtgrid did not stop after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
    let traces = std::fs::read_to_string(&pidfile).expect("pid file");
    let pids: Vec<i32> = traces
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(pids.len(), 2);
    assert_all_gone(&pids);
}

#[test]
fn text_output_compares_the_grid_with_the_recorded_solution() {
    require(&["yices-smt2"]);
    let text = unique_text(
        &["puzzles/sudoku-4x4.toml", "puzzles/sudoku-16x16.toml"],
        "yices2",
        "onehot",
    );
    // 4x4 has one solution, so the grid found is the recorded one; the
    // 16x16 has several, and yices finds another.
    assert!(text.contains("unique  (= recorded solution)"), "{text}");
    assert!(
        text.contains("NOT unique: a second solution differs in ")
            && text.contains(
                "(differs from the recorded solution: the puzzle has more than one solution)"
            ),
        "{text}"
    );
}

/// A file of `n` copies of a 4×4 sudoku with two givens whose solutions
/// include the grid of `tests/fake_solvers/s4.model`.
fn sparse_4x4s(dir: &Path, n: usize) -> PathBuf {
    let f = dir.join("sparse.txt");
    std::fs::write(&f, "4..............1\n".repeat(n)).expect("write");
    f
}

#[test]
fn timeout_out_of_range_is_a_usage_error() {
    // 1e19 and 1e20 used to panic (and 1e19 left z3 running).
    for t in ["1e19", "1e20", "604801", "0", "1e-300", "-1", "NaN", "inf"] {
        let timeout = format!("--timeout={t}");
        let o = solve(&lia_on_4x4(
            "never",
            &["--solver-cmd", "never=/bin/false", &timeout],
        ));
        exits_2_saying(&o, "--timeout", &timeout);
    }
}

#[test]
fn a_second_solution_equal_to_the_first_proves_nothing() {
    // One-shot runs (a custom solver) and an interactive session (a fake
    // z3) that give the first grid again when asked for a different one.
    let cmd = format!("liar=sh {}", fake("same_model.sh"));
    let (oneshot, _) = solve_json(&lia_on_4x4("liar", &["--solver-cmd", &cmd, "--unique"]));
    let z3 = format!("z3={}", fake("inter_same.py"));
    let (session, _) = solve_json(&lia_on_4x4(&z3, &["--unique"]));
    for o in [oneshot, session] {
        let runs = json_lines(&o);
        assert_eq!(runs.len(), 1, "{}", stderr(&o));
        common::assert_first_grid_again(&runs[0]);
        assert_eq!(o.status.code(), Some(1));
    }
}

#[test]
fn an_unsettled_uniqueness_question_fails() {
    let cmd = format!("liar=sh {}", fake("unique_hang.sh"));
    let (o, runs) = solve_json(&lia_on_4x4(
        "liar",
        &["--solver-cmd", &cmd, "--unique", "--timeout", "1"],
    ));
    assert_eq!(runs.len(), 1, "{}", stderr(&o));
    assert_eq!(runs[0]["status"], "sat", "{}", runs[0]);
    assert_eq!(runs[0]["unique"], Value::Null, "{}", runs[0]);
    assert!(
        runs[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("uniqueness not settled: timeout")),
        "{}",
        runs[0]
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_unique_claim_is_checked_against_second_solutions() {
    require(&["z3"]);
    let cmd = format!("liar=sh {}", fake("unique_liar.sh"));
    // Without its recorded solution, which would refute the claim itself
    // (uniqueness unsettled): here z3's second solution must.
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(root().join("puzzles/classic.toml")).expect("read");
    let cut = text.find("solution = ").expect("a recorded solution");
    let bare = dir.path().join("classic.toml");
    std::fs::write(&bare, &text[..cut]).expect("write");
    let (o, runs) = solve_json(&[
        bare.to_str().expect("UTF-8"),
        "--solver-cmd",
        &cmd,
        "--solver",
        "z3,liar",
        "--encoding",
        "lia",
        "--unique",
        "--jobs",
        "1",
    ]);
    assert_eq!(runs.len(), 2, "{}", stderr(&o));
    assert_eq!(runs[0]["unique"], false, "{}", runs[0]);
    assert_eq!(runs[1]["unique"], true, "{}", runs[1]);
    assert!(
        stderr(&o).contains("SOLVERS DISAGREE") && stderr(&o).contains("liar on lia says"),
        "{}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_unique_claim_the_recorded_solution_refutes_is_a_disagreement() {
    require(&["z3"]);
    // classic.toml records a solution other than z3's first: the liar's
    // "no other solution" is refuted by it, as a first `unsat` would be.
    let cmd = format!("liar=sh {}", fake("unique_liar.sh"));
    let (o, runs) = solve_json(&[
        "puzzles/classic.toml",
        "--solver-cmd",
        &cmd,
        "--solver",
        "liar",
        "--encoding",
        "lia",
        "--unique",
    ]);
    assert_eq!(runs.len(), 1, "{}", stderr(&o));
    assert_eq!(runs[0]["unique"], serde_json::Value::Null, "{}", runs[0]);
    assert!(
        stderr(&o).contains("SOLVERS DISAGREE: liar on lia: the solver found no other solution"),
        "{}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn auto_with_named_solvers_compares_every_answer() {
    // `a` says unsat, `b` gives a verified grid: each named solver gets
    // its own line, so the contradiction is always seen.
    let a = format!("a=sh {}", fake("late_unsat.sh"));
    let b = format!("b=sh {}", fake("late_model.sh"));
    for format in ["jsonl", "text"] {
        let o = smtgrid(&[
            "solve",
            "puzzles/sudoku-4x4.toml",
            "--solver-cmd",
            &a,
            "--solver-cmd",
            &b,
            "--solver",
            "a,b",
            "--jobs",
            "2",
            "--format",
            format,
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("SOLVERS DISAGREE"), "{}", stderr(&o));
        if format == "jsonl" {
            let runs = json_lines(&o);
            assert_eq!(runs.len(), 2);
            // The file records its solution, which refutes a's unsat.
            assert_eq!(runs[0]["status"], "error");
            assert_eq!(runs[1]["status"], "sat");
            assert_eq!(runs[1]["verified"], true);
        }
    }
}

#[test]
fn an_invalid_model_from_a_losing_pair_is_reported_and_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzle = sparse_4x4s(dir.path(), 1);
    let cmd = format!("w=sh {}", fake("wrong_fast_right_slow.sh"));
    let (o, runs) = solve_json(&[
        puzzle.to_str().unwrap_or_default(),
        "--solver-cmd",
        &cmd,
        "--solver",
        "w",
        "--jobs",
        "3",
    ]);
    assert_eq!(runs.len(), 1, "{}", stderr(&o));
    // lia wins with the right grid, after onehot and bv gave invalid ones.
    assert_eq!(runs[0]["status"], "sat", "{}", runs[0]);
    assert_eq!(runs[0]["encoding"], "lia");
    let err = stderr(&o);
    assert!(err.contains("INVALID MODEL from w on onehot"), "{err}");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn auto_names_each_solver_with_its_own_verified_answer() {
    require(&["z3", "cvc5", "yices-smt2"]);
    let (o, runs) = solve_json(&["puzzles/calcudoku-hard.toml", "--solver", "z3,cvc5,yices2"]);
    let solvers: Vec<&str> = runs.iter().filter_map(|r| r["solver"].as_str()).collect();
    assert_eq!(solvers, ["z3", "cvc5", "yices2"], "{}", stderr(&o));
    for r in &runs {
        assert_eq!(r["status"], "sat", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert!(r["solver_version"].is_string(), "{r}");
    }
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_solvers_encodings_share_one_time_limit_under_auto() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("runs");
    let cmd = format!("h=sh {} {}", fake("hang_logged.sh"), log.display());
    let o = smtgrid(&[
        "solve",
        "puzzles/sudoku-4x4.toml",
        "--solver-cmd",
        &cmd,
        "--solver",
        "h",
        "--timeout",
        "2",
        "--jobs",
        "1",
        "--verbose",
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("timeout"), "{text}");
    // The first encoding used up the limit: the others never started.
    let runs = std::fs::read_to_string(&log).expect("the fake ran");
    assert_eq!(runs.lines().count(), 1, "{runs}\n{text}");
    assert_eq!(
        text.matches("other encodings used up its 2 s").count(),
        2,
        "{text}"
    );
}

#[test]
fn the_portfolio_shares_one_time_limit_per_puzzle() {
    require(&["yices-smt2"]);
    // yices2 on onehot, first in the portfolio, needs seconds to prove
    // this killer's solution unique: once it has used up the puzzle's
    // second, no other pair may start with a second of its own.
    let o = smtgrid(&[
        "solve",
        "puzzles/killers/mathemagic-14.toml",
        "--unique",
        "--timeout",
        "1",
        "--jobs",
        "1",
        "--verbose",
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert_eq!(text.matches("no answer within 1 s").count(), 1, "{text}");
    let others = text.matches("also tried").count();
    let unstarted = text
        .matches("not started: the other pairs used up the puzzle's 1 s")
        .count();
    let unsupported = text.matches(": unsupported after").count();
    // yices2 gives its place to Glucose at once: propagation leaves
    // most of this killer open (`open_below_pct` in profiles.toml).
    let gave_way = text
        .matches("not started: propagation leaves 96 % of the values open, so it gives its place at once")
        .count();
    assert_eq!(gave_way, 1, "{text}");
    assert!(others > 1, "{text}");
    assert_eq!(unstarted + unsupported + gave_way, others, "{text}");
}

/// On a hard killer yices2 gives its core away at once (the message is
/// checked above), and Glucose, which waited for both cores, takes them
/// and proves the answer unique: with two threads unless the machine
/// was busy while the race began (the machine decides, so either is
/// right here, but the label, the command and the run's figures must
/// agree). (Its CPU time is 1.75x its wall time alone, but
/// only 1.25x beside another test, so that is not asserted.)
#[test]
fn the_killer_race_hands_both_cores_to_glucose_with_two_threads() {
    require(&["yices2", "glucose"]);
    let o = smtgrid(&[
        "solve",
        "puzzles/killers/mathemagic-05.toml",
        "--unique",
        "--timeout",
        "30",
        "--jobs",
        "2",
        "--format",
        "json",
    ]);
    let text = stdout(&o);
    let v: Value = serde_json::from_str(&text).expect("JSON");
    let r = &v[0];
    assert_eq!(r["unique"], true, "{text}");
    let command = r["command"].to_string();
    match r["solver"].as_str() {
        Some("glucose@2threads") => assert!(command.contains("--threads=2"), "{text}"),
        Some("glucose") => assert!(!command.contains("--threads"), "{text}"),
        _ => panic!("not Glucose: {text}"),
    }
}

/// The killer race decides from the puzzle: on a killer propagation
/// leaves mostly decided yices2 runs (its start costs far less than
/// Glucose's), on one it leaves mostly open yices2 gives its place at
/// once. Several hard killers in one run each get one Glucose thread
/// while another waits, so that they run side by side; the last one may
/// get both cores.
#[test]
fn the_killer_race_chooses_by_how_much_propagation_leaves_open() {
    require(&["yices2", "glucose"]);
    let o = smtgrid(&[
        "solve",
        "puzzles/killers/krazydad/KD_Killer_IM1-B1-P2.toml",
        "puzzles/killers/wecoc-1.toml",
        "puzzles/killers/wecoc-2.toml",
        "puzzles/killers/wecoc-1-mod-a.toml",
        "--unique",
        "--timeout",
        "30",
        "--jobs",
        "2",
        "--format",
        "jsonl",
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}\n{}", stderr(&o));
    let runs = json_lines(&o);
    assert_eq!(runs.len(), 4, "{text}");
    assert!(runs.iter().all(|r| r["unique"] == true), "{text}");
    assert_eq!(runs[0]["solver"], "yices2", "{text}");
    let glucose = |r: &Value| {
        r["solver"]
            .as_str()
            .is_some_and(|s| s.starts_with("glucose"))
    };
    assert!(runs[1..].iter().all(glucose), "{text}");
    // The first two hard ones started while another waited: one thread.
    assert!(
        runs[1..3].iter().all(|r| r["solver"] == "glucose"),
        "{text}"
    );
    let o = smtgrid(&[
        "solve",
        "puzzles/killers/wecoc-2.toml",
        "--unique",
        "--verbose",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("not started: propagation leaves 95 % of the values open"),
        "{text}"
    );
}

/// A run of several puzzles asks Glucose, which answers after `(reset)`
/// as a new process, in one session per worker: the same answers and the
/// same search (conflicts, decisions) as a process per puzzle, each
/// verified and proven unique, without Python's start per puzzle.
#[test]
fn one_glucose_session_answers_a_runs_killers_as_new_processes_would() {
    require(&["glucose"]);
    let killers = [
        "puzzles/killers/hs-killer-03.toml",
        "puzzles/killers/wecoc-2.toml",
        "puzzles/killers/wecoc-1.toml",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    let glucose = ["--solver", "glucose", "--encoding", "onehot", "--unique"];
    let searched = |o: &Output| -> Vec<(Value, Value, Value)> {
        json_lines(o)
            .into_iter()
            .map(|r| {
                assert_eq!(r["unique"], true, "{r}");
                assert_eq!(r["verified"], true, "{r}");
                (
                    r["grid"].clone(),
                    r["stats"]["conflicts"].clone(),
                    r["stats"]["decisions"].clone(),
                )
            })
            .collect()
    };
    let mut args = vec!["solve"];
    args.extend(killers);
    args.extend(glucose);
    let transcripts = dir.path().display().to_string();
    args.extend([
        "--jobs",
        "1",
        "--format",
        "jsonl",
        "--transcript",
        &transcripts,
    ]);
    let o = smtgrid(&args);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}\n{}", stderr(&o));
    let reused = searched(&o);
    let sessions = std::fs::read_dir(dir.path()).expect("transcripts").count();
    assert_eq!(sessions, 1, "{text}");
    let mut fresh = Vec::new();
    for k in killers {
        let mut args = vec!["solve", k];
        args.extend(glucose);
        args.extend(["--format", "jsonl"]);
        fresh.extend(searched(&smtgrid(&args)));
    }
    assert_eq!(reused, fresh);
}

/// Under `--mode incremental` every puzzle is asked in a session, which
/// Glucose cannot take (bit-vectors): yices2 keeps its whole limit.
#[test]
fn in_sessions_yices2_keeps_its_limit_on_killers() {
    require(&["yices2", "glucose"]);
    let o = smtgrid(&[
        "solve",
        "puzzles/killers/mathemagic-14.toml",
        "--mode",
        "incremental",
        "--timeout",
        "1",
        "--verbose",
    ]);
    let text = stdout(&o);
    assert!(!text.contains("budget"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("yices2 ") && l.contains(" timeout ")),
        "{text}"
    );
    assert!(text.contains("no answer within 1 s"), "{text}");
}

/// Issue 35: the main job says once which solvers took no part and why,
/// not once per puzzle, and closes with a line of totals.
#[test]
fn solvers_that_took_no_part_are_named_once_with_a_closing_line() {
    require(&["boolector", "yices2"]);
    let o = smtgrid(&[
        "solve",
        "puzzles/sudoku-4x4.toml",
        "puzzles/classic.toml",
        "--solver",
        "yices2,boolector",
        "--encoding",
        "onehot",
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(!text.contains(" unsupported "), "{text}");
    let absent: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("took no part: "))
        .collect();
    assert!(absent[0].starts_with("took no part: boolector"), "{text}");
    assert!(absent[0].ends_with(", in 2 runs"), "{text}");
    // Each reason once, with the runs it holds for.
    let reasons = &absent[1..absent.len() - 1];
    assert!(
        reasons
            .iter()
            .all(|l| l.starts_with("    boolector does not support") && l.ends_with(" (1 run)")),
        "{text}"
    );
    assert_eq!(
        reasons.len(),
        2,
        "the two scripts use other commands: {text}"
    );
    assert!(
        absent[absent.len() - 1].starts_with("2 puzzles, 2 answers verified, "),
        "{text}"
    );
    // With --verbose each run is listed where it happened, too.
    let o = smtgrid(&[
        "solve",
        "puzzles/sudoku-4x4.toml",
        "--solver",
        "yices2,boolector",
        "--encoding",
        "onehot",
        "--verbose",
    ]);
    assert!(stdout(&o).contains(" unsupported "), "{}", stdout(&o));
}

/// A reason a solver took no part counts runs (one a script), not
/// puzzles: one puzzle in every encoding is three runs, never "3 puzzles".
#[test]
fn a_reason_for_taking_no_part_counts_runs() {
    require(&["boolector"]);
    let four = "puzzles/sudoku-4x4.toml";
    let o = smtgrid(&["solve", four, "--solver", "boolector", "--encoding", "all"]);
    let text = stdout(&o);
    let absent: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("took no part: "))
        .collect();
    assert!(absent[0].ends_with(", in 3 runs"), "{text}");
    let reasons = &absent[1..absent.len() - 1];
    let counts: Vec<&str> = reasons
        .iter()
        .filter_map(|l| l.rsplit_once(" (").map(|(_, n)| n))
        .collect();
    assert_eq!(counts.len(), reasons.len(), "{text}");
    assert!(
        counts
            .iter()
            .all(|n| n.ends_with(" run)") || n.ends_with(" runs)")),
        "{text}"
    );
    assert!(!text.contains("puzzles)"), "one puzzle: {text}");
    // Nothing took part, so the one puzzle was not solved as asked.
    assert!(
        absent[absent.len() - 1].starts_with("1 puzzle (1 not solved as asked), "),
        "{text}"
    );
}

/// Issue 35: a solver the installer does not install is not sent to it,
/// and `bench --help` names every summary format in its words.
#[test]
fn small_facts_are_true() {
    let o = smtgrid(&["solve", "puzzles/sudoku-4x4.toml", "--solver", "mathsat"]);
    let err = stderr(&o);
    // Only where no mathsat is on PATH is there anything to say.
    if o.status.code() == Some(2) {
        assert!(err.contains("is not available"), "{err}");
        assert!(
            !err.contains("install it (scripts/install-solvers)"),
            "{err}"
        );
        assert!(
            err.contains("scripts/install-solvers does not install it"),
            "{err}"
        );
    }
    let help = stdout(&smtgrid(&["bench", "--help"]));
    let words = help
        .split("--format <FORMAT>")
        .nth(1)
        .and_then(|h| h.split("[default").next())
        .expect("--format in the help");
    for name in ["table", "CSV", "json", "Markdown", "LaTeX"] {
        assert!(words.contains(name), "{name}: {words}");
    }
}

/// Every command that takes `--solver` says in its help which solvers it
/// uses without one: `explain` and `inspect --solve` ask one, `emit
/// --benchmark` every installed one, and a newcomer cannot tell which
/// from the flag's words alone.
#[test]
fn every_solver_flag_names_its_default() {
    for command in [
        "solve", "bench", "render", "generate", "solvers", "explain", "inspect", "emit",
    ] {
        let help = stdout(&smtgrid(&[command, "--help"]));
        let flag = help
            .split_once("--solver <")
            .and_then(|(_, h)| h.split("\n\n").next())
            .unwrap_or_else(|| panic!("{command}: no --solver in:\n{help}"));
        let words = flag.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(". Default: "), "{command}: {words}");
    }
}

/// Issue 35: colour follows NO_COLOR, CLICOLOR and CLICOLOR_FORCE.
#[test]
fn colour_follows_the_environment() {
    require(&["yices2"]);
    let run = |env: &[(&str, &str)]| {
        let o = bin()
            .args(["solve", "puzzles/sudoku-4x4.toml", "--solver", "yices2"])
            .current_dir(common::root())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR")
            .env_remove("CLICOLOR_FORCE")
            .envs(env.iter().copied())
            .output()
            .expect("runs");
        stdout(&o).contains('\u{1b}')
    };
    assert!(!run(&[]), "a pipe gets no colour");
    assert!(run(&[("CLICOLOR_FORCE", "1")]));
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    assert!(!run(&[("CLICOLOR_FORCE", "")]), "set but empty is unset");
}

#[test]
fn nothing_answered_is_not_success() {
    require(&["boolector"]);
    let o = smtgrid(&["solve", "puzzles/sudoku-4x4.toml", "--solver", "boolector"]);
    assert!(stdout(&o).contains("unsupported"), "{}", stdout(&o));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_closed_output_stops_the_run_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzles = sparse_4x4s(dir.path(), 200);
    let log = dir.path().join("runs");
    let cmd = format!("c=sh {} {}", fake("counted.sh"), log.display());
    let args = [puzzles.to_str().unwrap_or_default(), "--solver-cmd", &cmd];
    let mut child = spawn_solve(
        &[
            &args[..],
            &["--solver", "c", "--encoding", "lia", "--format", "jsonl"],
        ]
        .concat(),
        std::process::Stdio::piped(),
    );
    let mut first = String::new();
    {
        use std::io::BufRead;
        let out = child.stdout.take().expect("stdout");
        std::io::BufReader::new(out)
            .read_line(&mut first)
            .expect("a line");
        // Dropping the reader closes the pipe, as `| head -1` does.
    }
    let o = child.wait_with_output().expect("smtgrid ends");
    assert!(first.contains("\"status\":\"sat\""), "{first}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let runs = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        runs.lines().count() < 100,
        "{} of 200 puzzles were solved after the output closed",
        runs.lines().count()
    );
}

#[test]
fn a_full_disk_is_an_error() {
    let cmd = format!("liar=sh {}", fake("same_model.sh"));
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let o = spawn_solve(&lia_on_4x4("liar", &["--solver-cmd", &cmd]), full.into())
        .wait_with_output()
        .expect("smtgrid ends");
    exits_2_saying(&o, "cannot write", "/dev/full");
}

#[test]
fn solve_into_a_closed_pipe_exits_0_and_leaves_no_solver_running() {
    require(&["yices-smt2"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("pids");
    // Real yices under a wrapper that records its PID and script path.
    let cmd = fake_solver("rec", "then_yices.sh", &pidfile);
    // The reader has gone before smtgrid writes anything.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let o = bin()
        .args([
            "solve",
            "puzzles/sudoku-4x4.toml",
            "puzzles/classic.toml",
            "puzzles/sudoku-6x6.toml",
            "--solver-cmd",
            &cmd,
            "--solver",
            "rec",
            "--encoding",
            "lia",
            "--jobs",
            "1",
        ])
        .current_dir(root())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("the smtgrid binary runs");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
    let traces = std::fs::read_to_string(&pidfile).expect("yices ran");
    let pids: Vec<i32> = traces
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_all_gone(&pids);
    for script in traces.lines().filter_map(|l| l.split_whitespace().nth(2)) {
        assert!(
            !Path::new(script).exists(),
            "temporary script {script} left behind"
        );
    }
}

/// Issue 33 section 6: `solve --expect` asserts each puzzle's verdict like
/// a test: exit 1 naming each puzzle whose verdict differs, 0 when every
/// one is as expected. Before it, "no solution" and "NOT unique" both
/// exited 0.
#[test]
fn expect_fails_naming_each_puzzle_whose_verdict_differs() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let many = dir.path().join("many.txt");
    std::fs::write(&many, "4...............\n").expect("write");
    let many = many.to_str().expect("UTF-8");
    let unique = "puzzles/sudoku-4x4.toml";
    let unsat = "tests/fixtures/unsat/sudoku-search.txt";
    let run = |files: &[&str], expect: &str| {
        solve(&[files, &["--solver", "z3", "--expect", expect]].concat())
    };
    for (files, expect, code, named) in [
        (&[unique][..], "unique", 0, None),
        (
            &[many, unique][..],
            "unique",
            1,
            Some("many.txt:1: expected unique, found more than one solution"),
        ),
        (&[many, unique][..], "sat", 0, None),
        (
            &[unsat][..],
            "sat",
            1,
            Some("sudoku-search.txt:2: expected sat, found no solution"),
        ),
        (&[unsat][..], "unsat", 0, None),
        (
            &[unique][..],
            "unsat",
            1,
            Some("expected unsat, found a solution"),
        ),
    ] {
        let o = run(files, expect);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{files:?} {expect}: {err}");
        match named {
            Some(n) => assert!(err.contains(n), "{files:?} {expect}: {err}"),
            None => assert!(!err.contains("expected"), "{files:?} {expect}: {err}"),
        }
    }
}

/// Issue 33 section 6: `render --solve` on a puzzle with several solutions
/// says so on stderr and which one it draws.
#[test]
fn render_solve_says_when_a_puzzle_has_several_solutions() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let many = dir.path().join("many.txt");
    std::fs::write(&many, "4...............\n").expect("write");
    let o = smtgrid(&[
        "render",
        many.to_str().expect("UTF-8"),
        "--solve",
        "--solver",
        "z3",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("more than one solution; drawing the first one found (a second differs in r"),
        "{err}"
    );
    let o = smtgrid(&[
        "render",
        "puzzles/sudoku-4x4.toml",
        "--solve",
        "--solver",
        "z3",
    ]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}
