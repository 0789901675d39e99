//! Incremental sessions (`--mode incremental`) against real solvers: one
//! solver process answers many puzzles of one shape, goes on after an
//! unsat one, and is replaced when it crashes or times out mid-batch.
//! Faults come from wrappers around yices2 that sed cuts or stalls at one
//! puzzle's givens.

use crate::common;

use common::{per_solver, require, smtgrid};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// No 9 fits r1c9: the row holds 1–8 and r2c9 holds the 9. Parses (no
/// given repeats), but has no solution.
const UNSAT: &str =
    "12345678.........9...............................................................";

/// A temp dir holding a file of top95's first `n` puzzles with `extra`
/// lines after the `at`-th one, and that file's path.
fn puzzles(n: usize, at: usize, extra: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let top95 = std::fs::read_to_string(common::root().join("puzzles/top95.txt"))
        .expect("puzzles/top95.txt is readable");
    let mut lines: Vec<&str> = top95
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .collect();
    for (i, l) in extra.iter().enumerate() {
        lines.insert(at + i, l);
    }
    let path = dir.path().join("set.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("writes the puzzle file");
    let path = path.display().to_string();
    (dir, path)
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// `smtgrid solve FILE --solver SOLVER --encoding ENCODING --format jsonl`
/// with `more` arguments: its records and its output.
fn solve(file: &str, solver: &str, encoding: &str, more: &[&str]) -> (Vec<Value>, Output) {
    let mut args = vec!["solve", file, "--solver", solver, "--encoding", encoding];
    args.extend_from_slice(&["--format", "jsonl"]);
    args.extend_from_slice(more);
    let o = smtgrid(&args);
    (json_lines(&o.stdout), o)
}

/// A wrapper around yices-smt2 that puts `filter` (a shell pipeline
/// stage) between smtgrid and the solver and logs each session start.
fn wrapped_yices(dir: &Path, filter: &str) -> (String, std::path::PathBuf) {
    let yices = common::solver("yices2").path;
    let log = dir.join("starts.log");
    let path = dir.join("yices-wrapper");
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *--incremental*) echo start >> '{}';; esac\n{filter} | exec '{}' \"$@\"\n",
        log.display(),
        yices.display()
    );
    common::write_script(&path, &script);
    (format!("yices2={}", path.display()), log)
}

fn starts(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |s| s.lines().count())
}

fn statuses(runs: &[Value]) -> Vec<&str> {
    runs.iter()
        .map(|r| r["status"].as_str().unwrap_or("?"))
        .collect()
}

fn many_puzzles_then_unsat_then_more(solver: &str) {
    require(&[solver]);
    let (_dir, file) = puzzles(4, 2, &[UNSAT]);
    let (runs, o) = solve(
        &file,
        solver,
        "onehot",
        &["--mode", "incremental", "--jobs", "1", "--timeout", "60"],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        statuses(&runs),
        ["sat", "sat", "unsat", "sat", "sat"],
        "{stderr}"
    );
    for r in &runs {
        assert_eq!(r["mode"], "incremental", "{r}");
        assert_eq!(r["verified"], r["status"] == "sat", "{r}");
    }
    assert_eq!(o.status.code(), Some(0), "{stderr}");
}
per_solver!(many_puzzles_then_unsat_then_more: z3, cvc5, yices2, bitwuzla);

#[test]
fn int_cells_are_read_back_by_name() {
    require(&["yices2"]);
    let (_dir, file) = puzzles(2, 0, &[]);
    let (runs, o) = solve(&file, "yices2", "lia", &["--mode", "incremental"]);
    assert_eq!(statuses(&runs), ["sat", "sat"], "{:?}", o);
    assert!(runs.iter().all(|r| r["mode"] == "incremental"));
}

#[test]
fn one_session_serves_the_whole_batch() {
    require(&["yices2"]);
    let (dir, file) = puzzles(6, 0, &[]);
    let (solver, log) = wrapped_yices(dir.path(), "cat");
    let (runs, o) = solve(
        &file,
        &solver,
        "onehot",
        &["--mode", "incremental", "--jobs", "1"],
    );
    assert_eq!(statuses(&runs), ["sat"; 6], "{o:?}");
    assert_eq!(starts(&log), 1);
}

/// Top95's second puzzle is the first whose r1c1 holds a 5; a filter
/// matching its givens cuts or stalls the session there.
const SECOND: &str = "/^(assert (and x_1_1_5 /";

/// Runs the `n` puzzles of `file` (in `dir`) through a yices2 whose input
/// passes `filter`, which breaks the session at puzzle `broken` (from 0):
/// that one ends as `status`, the others are solved, and exactly one new
/// session replaces the broken one. Returns the broken run's record and
/// every text sent to the solvers, from the transcripts.
fn fault_at(
    dir: &Path,
    file: &str,
    n: usize,
    broken: usize,
    filter: &str,
    timeout: &str,
    status: &str,
) -> (Value, Vec<String>) {
    require(&["yices2"]);
    let (solver, log) = wrapped_yices(dir, filter);
    let transcripts = dir.join("transcripts");
    let (runs, o) = solve(
        file,
        &solver,
        "onehot",
        &[
            "--mode",
            "incremental",
            "--jobs",
            "1",
            "--timeout",
            timeout,
            "--transcript",
            &transcripts.display().to_string(),
        ],
    );
    let mut want = vec!["sat"; n];
    want[broken] = status;
    assert_eq!(statuses(&runs), want, "{o:?}");
    assert_eq!(starts(&log), 2, "the session after the fault is a new one");
    assert_eq!(o.status.code(), Some(1));
    let sent = common::transcripts(&transcripts)
        .into_iter()
        .flatten()
        .filter_map(|e| e["sent"].as_str().map(String::from))
        .collect();
    (runs[broken].clone(), sent)
}

/// Runs five puzzles of top95 with `fault_at`, broken at the second.
fn fault_mid_batch(filter: &str, timeout: &str, status: &str) -> Value {
    let (dir, file) = puzzles(5, 0, &[]);
    fault_at(dir.path(), &file, 5, 1, filter, timeout, status).0
}

#[test]
fn a_solver_that_crashes_mid_batch_is_replaced() {
    let run = fault_mid_batch(&format!("sed -u '{SECOND}Q'"), "60", "error");
    let error = run["error"].as_str().unwrap_or("");
    assert!(error.contains("stopped before answering"), "{error}");
}

#[test]
fn a_solver_that_times_out_mid_batch_is_replaced() {
    fault_mid_batch(&format!("sed -u '{SECOND}e sleep 60'"), "2", "timeout");
}

/// The only one of the 17-clue set's first twelve puzzles with a 2 in r1c9
/// and a 5 in r2c1 is the tenth.
const TENTH: &str = "/x_1_9_2 x_2_1_5 /";

/// Runs the 17-clue set's first twelve puzzles (easy for yices2, so they
/// go in growing batches: one, one, two, four, then the last four
/// together) with `fault_at`, broken at the tenth, second of the last
/// batch: the one before it in the batch is answered, the two queued
/// behind it are asked again in the new session. The broken question went
/// out with others.
fn fault_in_a_batch(filter: &str, timeout: &str, status: &str) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = common::many_sudokus(dir.path(), 12).display().to_string();
    let (_, sent) = fault_at(dir.path(), &file, 12, 9, filter, timeout, status);
    let batch = sent
        .iter()
        .find(|q| q.contains("x_1_9_2 x_2_1_5 "))
        .expect("the tenth puzzle's question");
    assert!(batch.matches("(check-sat)").count() > 1, "{batch}");
}

#[test]
fn a_solver_that_crashes_inside_a_batch_is_replaced_and_the_rest_asked_again() {
    fault_in_a_batch(&format!("sed -u '{TENTH}Q'"), "60", "error");
}

#[test]
fn a_puzzle_that_stalls_inside_a_batch_times_out_alone() {
    fault_in_a_batch(&format!("sed -u '{TENTH}e sleep 60'"), "2", "timeout");
}

#[test]
fn auto_mode_uses_a_session_from_the_second_puzzle_of_a_shape_on() {
    require(&["yices2"]);
    let (_dir, file) = puzzles(3, 0, &[]);
    let (runs, o) = solve(&file, "yices2", "onehot", &["--jobs", "1"]);
    let modes: Vec<&str> = runs
        .iter()
        .map(|r| r["mode"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(modes, ["process", "incremental", "incremental"], "{o:?}");
    assert_eq!(statuses(&runs), ["sat"; 3]);
    // A single puzzle runs as a process.
    let (runs, _) = solve("puzzles/classic.toml", "yices2", "onehot", &[]);
    assert_eq!(runs[0]["mode"], "process");
}

#[test]
fn bench_records_say_how_each_run_was_made() {
    require(&["yices2"]);
    let (dir, file) = puzzles(3, 0, &[]);
    let out = dir.path().join("results.jsonl");
    let o = smtgrid(&[
        "bench",
        &file,
        "--solver",
        "yices2",
        "--encoding",
        "onehot",
        "--mode",
        "incremental",
        "--out",
        &out.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let runs = json_lines(&std::fs::read(&out).expect("the results file"));
    assert_eq!(runs.len(), 3);
    for r in &runs {
        assert_eq!(r["mode"], "incremental", "{r}");
        assert_eq!(r["status"], "sat", "{r}");
    }
}

/// Top95's first puzzle with only its first `keep` givens: with few enough
/// of them it has many solutions.
fn fewer_givens(keep: usize) -> String {
    let top95 = std::fs::read_to_string(common::root().join("puzzles/top95.txt"))
        .expect("puzzles/top95.txt is readable");
    let first = top95
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a puzzle");
    let mut seen = 0;
    first
        .chars()
        .map(|c| match c {
            '.' => '.',
            _ if seen < keep => {
                seen += 1;
                c
            }
            _ => '.',
        })
        .collect()
}

/// Five puzzles of one shape in `dir`: three unique (top95's), one with
/// many solutions, one with none.
fn unique_and_not(dir: &Path) -> String {
    let many = fewer_givens(8);
    let (from, file) = puzzles(3, 2, &[&many, UNSAT]);
    let path = dir.join("set.txt");
    std::fs::copy(&file, &path).expect("copies the puzzle file");
    drop(from);
    path.display().to_string()
}

/// Checks the records of `unique_and_not`'s puzzles: every verdict as a
/// process run gives it, the second solution verified and shown.
fn unique_verdicts(runs: &[Value], o: &Output) {
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        statuses(runs),
        ["sat", "sat", "sat", "unsat", "sat"],
        "{stderr}"
    );
    let unique: Vec<&Value> = runs.iter().map(|r| &r["unique"]).collect();
    assert_eq!(
        unique,
        [
            &Value::Bool(true),
            &Value::Bool(true),
            &Value::Bool(false),
            &Value::Null,
            &Value::Bool(true)
        ],
        "{runs:?}"
    );
    let differs = runs[2]["differs"]
        .as_array()
        .expect("the cells that differ");
    assert!(!differs.is_empty(), "{}", runs[2]);
    for r in runs {
        assert_eq!(r["verified"], r["status"] == "sat", "{r}");
    }
    assert_eq!(o.status.code(), Some(0), "{stderr}");
}

/// `--unique` asks both questions in the session that answers the first:
/// under `--mode incremental` in batches, one session for the whole file.
fn uniqueness_is_asked_in_the_session(solver: &str) {
    require(&[solver]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = unique_and_not(dir.path());
    let (runs, o) = solve(
        &file,
        solver,
        "onehot",
        &["--mode", "incremental", "--unique", "--jobs", "1"],
    );
    unique_verdicts(&runs, &o);
    assert!(runs.iter().all(|r| r["mode"] == "incremental"), "{runs:?}");
}
per_solver!(uniqueness_is_asked_in_the_session: z3, cvc5, yices2, bitwuzla);

#[test]
fn uniqueness_in_sessions_on_every_encoding_and_mode() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = unique_and_not(dir.path());
    let (solver, log) = wrapped_yices(dir.path(), "cat");
    for encoding in ["lia", "bv", "onehot"] {
        let (runs, o) = solve(
            &file,
            &solver,
            encoding,
            &["--mode", "incremental", "--unique", "--jobs", "1"],
        );
        unique_verdicts(&runs, &o);
    }
    assert_eq!(starts(&log), 3, "one session per encoding");
    // `--mode auto`: the first puzzle as a process, the others one at a
    // time in a session, each asked right after its answer.
    let (runs, o) = solve(&file, &solver, "onehot", &["--unique", "--jobs", "1"]);
    unique_verdicts(&runs, &o);
    let modes: Vec<&str> = runs
        .iter()
        .map(|r| r["mode"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(modes[..2], ["process", "incremental"], "{runs:?}");
}

/// A wrapper around yices2 in which the blocking clause (the only
/// assertion with three or more negated cells) becomes `replacement`.
fn lying_yices(dir: &Path, replacement: &str) -> (String, std::path::PathBuf) {
    let block = r"^(assert (or (not x_[0-9_]*) (not x_[0-9_]*) (not .*";
    wrapped_yices(dir, &format!("sed -u 's/{block}/{replacement}/'"))
}

#[test]
fn a_session_that_lies_about_uniqueness_is_caught_by_another_solver() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let many = fewer_givens(8);
    let (_set, file) = puzzles(3, 1, &[&many]);
    // Asked for another solution, it hears "false": unsat, "unique".
    let (liar, log) = lying_yices(dir.path(), "(assert false)");
    for mode in ["incremental", "auto"] {
        let (runs, o) = solve(
            &file,
            &format!("z3,{liar}"),
            "onehot",
            &["--mode", mode, "--unique", "--jobs", "1"],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        // Per puzzle a line for z3, then one for the liar.
        assert_eq!(runs.len(), 8, "{stderr}");
        assert_eq!(runs[2]["unique"], false, "{}", runs[2]);
        assert_eq!(runs[3]["unique"], true, "{}", runs[3]);
        assert_eq!(runs[3]["mode"], "incremental", "{}", runs[3]);
        assert!(
            stderr.contains("SOLVERS DISAGREE") && stderr.contains("says the solution is unique"),
            "{stderr}"
        );
        assert_eq!(o.status.code(), Some(1), "{stderr}");
    }
    assert!(starts(&log) >= 2, "the liar ran in sessions");
}

#[test]
fn a_session_that_gives_the_first_grid_again_proves_nothing() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let (_set, file) = puzzles(5, 0, &[]);
    // Asked for another solution, it hears nothing new: the same grid.
    let (liar, _) = lying_yices(dir.path(), "(assert true)");
    for mode in ["incremental", "auto"] {
        let (runs, o) = solve(
            &file,
            &liar,
            "onehot",
            &["--mode", mode, "--unique", "--jobs", "1"],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(runs.len(), 5, "{stderr}");
        for r in &runs {
            assert!(r["mode"] == "incremental" || mode == "auto", "{r}");
            common::assert_first_grid_again(r);
        }
        assert_eq!(o.status.code(), Some(1), "{stderr}");
    }
}

/// In a batch the uniqueness questions go out together after the first
/// answers: the last puzzle's in its own scope, the others' with their
/// givens stated again.
#[test]
fn uniqueness_questions_are_batched() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = common::many_sudokus(dir.path(), 12).display().to_string();
    let transcripts = dir.path().join("transcripts");
    let (runs, o) = solve(
        &file,
        "yices2",
        "onehot",
        &[
            "--mode",
            "incremental",
            "--unique",
            "--jobs",
            "1",
            "--transcript",
            &transcripts.display().to_string(),
        ],
    );
    assert_eq!(statuses(&runs), ["sat"; 12], "{o:?}");
    assert!(runs.iter().all(|r| r["unique"] == true), "{runs:?}");
    let sent: Vec<String> = common::transcripts(&transcripts)
        .into_iter()
        .flatten()
        .filter_map(|e| e["sent"].as_str().map(String::from))
        .collect();
    let block = "(assert (or (not x_";
    // A question that opens its scope again: its givens, then the block.
    let restated = |t: &str| {
        t.split("(push 1)\n").skip(1).any(|q| {
            let mut lines = q.lines();
            lines.next().is_some_and(|l| l.starts_with("(assert (and "))
                && lines.next().is_some_and(|l| l.starts_with(block))
        })
    };
    assert!(
        sent.iter()
            .any(|t| t.starts_with(block) && t.matches(block).count() > 1 && restated(t)),
        "{sent:?}"
    );
}
