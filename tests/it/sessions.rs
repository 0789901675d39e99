//! Sessions seen from the command line: a reply gets one status whatever
//! the mode, and a solver that answers before it is asked is an error of
//! that solver, never a hang (see docs/processes.md).

use crate::common;

use std::time::{Duration, Instant};

use common::root;

fn fake(name: &str) -> String {
    format!(
        "z3={}",
        root().join("tests/fake_solvers").join(name).display()
    )
}

/// lia, asked in one session at a time.
const ONE_SESSION_LIA: [&str; 6] = ["--encoding", "lia", "--mode", "incremental", "--jobs", "1"];

/// The JSON lines of `smtgrid solve ARGS… --format jsonl`.
fn solve_json(args: &[&str]) -> Vec<serde_json::Value> {
    solve_json_in(args, None)
}

/// [`solve_json`] with `TMPDIR` set to `tmp`, when given.
fn solve_json_in(args: &[&str], tmp: Option<&std::path::Path>) -> Vec<serde_json::Value> {
    let mut c = common::bin();
    c.arg("solve")
        .args(args)
        .args(["--format", "jsonl"])
        .current_dir(root());
    if let Some(t) = tmp {
        c.env("TMPDIR", t);
    }
    let o = c.output().expect("the smtgrid binary runs");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn sat_without_values_is_one_status_in_every_mode() {
    let z3 = fake("sat_without_model.py");
    let mut seen = Vec::new();
    for mode in ["process", "incremental"] {
        let lines = solve_json(&[
            "puzzles/classic.toml",
            "--solver",
            &z3,
            "--encoding",
            "lia",
            "--mode",
            mode,
            "--timeout",
            "30",
        ]);
        assert_eq!(lines.len(), 1, "{mode}: {lines:?}");
        let r = &lines[0];
        assert_eq!(r["mode"], mode, "{r}");
        seen.push((r["status"].clone(), r["error"].clone()));
    }
    assert_eq!(seen[0], seen[1], "process and incremental differ");
    assert_eq!(seen[0].0, "error", "{seen:?}");
}

#[test]
fn a_solver_that_answers_before_it_is_asked_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("many4.txt");
    std::fs::write(&file, "4.1..2.....3.4.1\n".repeat(12)).expect("write");
    let z3 = fake("early_sentinels.py");
    let start = Instant::now();
    // The fake leaves a mark in the temporary folder: this test's own.
    let lines = solve_json_in(
        &[
            &[file.to_str().expect("utf-8"), "--solver", &z3][..],
            &ONE_SESSION_LIA,
            &["--timeout", "2"],
        ]
        .concat(),
        Some(dir.path()),
    );
    assert!(
        start.elapsed() < Duration::from_secs(300),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(lines.len(), 12);
    assert!(lines.iter().all(|r| r["status"] != "sat"), "{lines:?}");
    assert!(
        lines.iter().any(|r| r["error"]
            .as_str()
            .is_some_and(|e| e.contains("broke the session protocol"))),
        "{lines:?}"
    );
}

#[test]
fn transcripts_show_each_question_sent_before_its_answer() {
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("eight.txt");
    std::fs::write(&file, "4.1..2.....3.4.1\n".repeat(8)).expect("write");
    let out = dir.path().join("transcripts");
    let lines = solve_json(
        &[
            &[file.to_str().expect("utf-8"), "--solver", "z3"][..],
            &ONE_SESSION_LIA,
            &["--transcript", out.to_str().expect("utf-8")],
        ]
        .concat(),
    );
    assert_eq!(lines.len(), 8);
    assert!(lines.iter().all(|r| r["status"] == "sat"), "{lines:?}");
    let files = common::transcripts(&out);
    assert_eq!(files.len(), 1, "one session, one file: {files:?}");
    let events = &files[0];
    assert_eq!(events[0]["solver"], "z3");
    assert!(events[0]["pid"].as_u64().is_some(), "{}", events[0]);
    let mut runs = std::collections::BTreeSet::new();
    let mut sent: Vec<&serde_json::Value> = Vec::new();
    let mut answers = 0;
    for e in &events[1..] {
        if e.get("sent").is_some() {
            sent.push(e);
        } else if let Some(got) = e["received"].as_str() {
            // One framer: every reply ends with the sentinel line of a
            // question sent before it.
            let sentinel = got.trim_end().lines().last().expect("a line");
            assert!(sentinel.starts_with("smtgrid-sentinel-"), "{got}");
            let echo = format!("(echo \"{sentinel}\")");
            let asked = sent
                .iter()
                .find(|q| q["sent"].as_str().is_some_and(|t| t.contains(&echo)))
                .unwrap_or_else(|| panic!("no question before the answer {got}"));
            assert!(asked["ms"].as_f64() <= e["ms"].as_f64(), "{asked} / {e}");
            runs.insert(e["run"].as_str().expect("run").to_string());
            answers += 1;
        }
    }
    // The rules, then per puzzle its question (`--stats auto` asks
    // nothing in a session).
    assert_eq!(answers, 1 + 8, "{events:?}");
    assert_eq!(runs.len(), 8, "each puzzle is a run of its own: {runs:?}");
    // Under `--mode incremental` the puzzles of a worker go to the session
    // in batches that grow while they are answered fast (one, one, two,
    // four): fewer writes than questions.
    let writes = sent
        .iter()
        .filter(|q| {
            q["sent"]
                .as_str()
                .is_some_and(|t| t.contains("(check-sat)"))
        })
        .count();
    assert!(writes < 8, "{sent:?}");
    assert!(events.last().expect("events").get("ended").is_some());

    // A process run: the script as sent, the whole stdout as received.
    let out = dir.path().join("process");
    let lines = solve_json(&[
        "puzzles/sudoku-4x4.toml",
        "--solver",
        "z3",
        "--encoding",
        "lia",
        "--mode",
        "process",
        "--transcript",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(lines[0]["status"], "sat");
    let files = common::transcripts(&out);
    assert_eq!(files.len(), 1);
    let e = &files[0];
    assert!(
        e[1]["sent"]
            .as_str()
            .is_some_and(|s| s.contains("(check-sat)"))
    );
    assert!(
        e[2]["received"]
            .as_str()
            .is_some_and(|s| s.starts_with("sat"))
    );
    assert_eq!(e[3]["ended"], "exited with status 0");
}
