//! Search effort (`stats` in records): real solvers report plausible
//! counters in process and session mode, `--stats` decides whom smtgrid
//! asks, bench records and `inspect --solve` carry them, and a solver whose
//! statistics reply is garbage, big or a flood still gives its verified
//! answer.

use crate::common;

use common::{require, root, smtgrid, top95_head};
use serde_json::Value;

/// Two puzzles of puzzles/top95.txt that need search on onehot.
fn two_hard() -> (tempfile::TempDir, String) {
    let (dir, path) = top95_head(2);
    let path = path.to_str().expect("utf-8").to_string();
    (dir, path)
}

fn records(o: &std::process::Output) -> Vec<Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn solve(puzzles: &str, more: &[&str]) -> Vec<Value> {
    let args = [
        &["solve", puzzles, "-e", "onehot", "--format", "jsonl"],
        more,
    ]
    .concat();
    records(&smtgrid(&args))
}

/// A count the search made: present, and within what a 9×9 on onehot can
/// take (each decision and conflict propagates at least once).
fn plausible(r: &Value) {
    let s = &r["stats"];
    let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k} in {r}"));
    let (c, d, p) = (n("conflicts"), n("decisions"), n("propagations"));
    assert!((1..1_000_000).contains(&d), "{r}");
    assert!(c <= d + 1, "{r}");
    assert!(p >= d && p < 100_000_000, "{r}");
    assert!(s["raw"].is_object(), "{r}");
}

#[test]
fn every_solver_reports_plausible_counts_in_processes_and_sessions() {
    require(&["z3", "yices2", "cvc5", "cvc4"]);
    let (_dir, two) = two_hard();
    for solver in ["z3", "yices2", "cvc5", "cvc4"] {
        for mode in ["process", "incremental"] {
            let rs = solve(
                &two,
                &["--solver", solver, "--mode", mode, "--stats", "always"],
            );
            assert_eq!(rs.len(), 2, "{solver} {mode}");
            for r in &rs {
                assert_eq!(r["status"], "sat", "{r}");
                assert_eq!(r["mode"], mode, "{r}");
                plausible(r);
            }
        }
    }
}

#[test]
fn session_counts_are_each_questions_own_not_the_sessions_total() {
    require(&["z3"]);
    let (dir, two) = two_hard();
    let tr = dir.path().join("transcripts");
    let both = solve(
        &two,
        &[
            "--solver",
            "z3",
            "--mode",
            "incremental",
            "--stats",
            "always",
            "--jobs",
            "1",
            "--transcript",
        ]
        .into_iter()
        .chain([tr.to_str().expect("utf-8")])
        .collect::<Vec<_>>(),
    );
    // What z3 printed: its decisions so far in the session, after each
    // question (it counts in `decisions` or, on its SAT solver,
    // `sat-decisions`).
    let mut totals = Vec::new();
    for f in std::fs::read_dir(&tr).expect("transcripts") {
        let text = std::fs::read_to_string(f.expect("entry").path()).expect("read");
        for line in text.lines() {
            let e: Value = serde_json::from_str(line).expect("a transcript line");
            let Some(got) = e["received"].as_str().filter(|t| t.starts_with("(:")) else {
                continue;
            };
            let words: Vec<&str> = got.split_whitespace().collect();
            let sum: u64 = words
                .windows(2)
                .filter(|w| w[0] == ":decisions" || w[0] == ":sat-decisions")
                .map(|w| w[1].trim_end_matches(')').parse::<u64>().expect("a count"))
                .sum();
            totals.push(sum);
        }
    }
    assert_eq!(
        totals.len(),
        2,
        "one statistics reply per question: {totals:?}"
    );
    let d = |r: &Value| r["stats"]["decisions"].as_u64().expect("decisions");
    assert_eq!(d(&both[0]), totals[0], "{}", both[0]);
    assert_eq!(d(&both[1]), totals[1] - totals[0], "{}", both[1]);
    plausible(&both[1]);
}

#[test]
fn stats_flag_decides_whom_smtgrid_asks() {
    require(&["z3", "cvc5"]);
    let (_dir, two) = two_hard();
    let auto = solve(&two, &["--solver", "z3,cvc5", "--mode", "process"]);
    for r in &auto {
        match r["solver"].as_str() {
            Some("z3") => plausible(r),
            _ => assert_eq!(r["stats"], Value::Null, "cvc5 is not cheap: {r}"),
        }
    }
    for r in solve(&two, &["--solver", "z3", "--stats", "never"]) {
        assert_eq!(r["stats"], Value::Null, "{r}");
    }
}

#[test]
fn bench_records_and_inspect_solve_carry_the_counts() {
    require(&["yices2"]);
    let (dir, two) = two_hard();
    let out = dir.path().join("r.jsonl");
    let o = smtgrid(&[
        "bench",
        &two,
        "--solver",
        "yices2",
        "-e",
        "onehot",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).expect("records");
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).expect("a record");
        assert_eq!(r["asked_stats"], "auto", "{r}");
        plausible(&r);
    }
    let o = smtgrid(&[
        "inspect",
        &two,
        "--solve",
        "--solver",
        "yices2",
        "-e",
        "onehot,lia",
    ]);
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        shown.contains("conflicts") && shown.contains("decisions"),
        "{shown}"
    );
    let rows: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("yices2") && l.contains(" sat "))
        .collect();
    assert_eq!(rows.len(), 4, "2 puzzles × 2 encodings:\n{shown}");
    let o = smtgrid(&[
        "inspect", &two, "--solve", "--solver", "yices2", "-e", "lia", "--format", "jsonl",
    ]);
    for r in records(&o) {
        let solved = &r["solved"][0];
        assert_eq!(solved["status"], "sat", "{r}");
        plausible(solved);
    }
}

#[test]
fn a_garbled_big_or_flooding_statistics_reply_costs_only_the_statistics() {
    require(&["z3"]);
    let (_dir, two) = two_hard();
    let fake = root().join("tests/fake_solvers/bad_stats.py");
    let solver = format!("z3={}", fake.display());
    for (kind, modes) in [
        ("garbage", &["process", "incremental"][..]),
        ("big", &["process", "incremental"]),
        ("flood", &["process", "incremental"]),
    ] {
        for mode in modes {
            let o = common::bin()
                .args([
                    "solve", &two, "-e", "onehot", "--format", "jsonl", "--mode", mode,
                ])
                .args(["--solver", &solver])
                .env("SMTGRID_FAKE_STATS", kind)
                .current_dir(root())
                .output()
                .expect("runs");
            let rs = records(&o);
            assert_eq!(rs.len(), 2, "{kind} {mode}");
            for r in rs {
                assert_eq!(r["status"], "sat", "{kind} {mode}: {r}");
                assert_eq!(r["verified"], true, "{kind} {mode}: {r}");
                assert_eq!(r["stats"], Value::Null, "{kind} {mode}: {r}");
                assert_eq!(r["error"], Value::Null, "{kind} {mode}: {r}");
            }
        }
    }
}
