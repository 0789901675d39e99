//! `smtgrid bench` and `smtgrid report` end to end: records, repeats,
//! resuming, shards merged by the README's GNU parallel recipe, summaries,
//! disagreements and plots. Real yices-smt2 on tiny puzzles; a fake solver
//! for a disagreement; `report` on records written here for the plots.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;
use common::{bin, fake_solver, require, root, smtgrid, sorted_keys, top95_head};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Asserts that `o` exited with `code` and that `stream` (its stdout or
/// its stderr) contains `says`; a failure shows what it printed.
fn assert_exit(o: &Output, code: i32, stream: &[u8], says: &str) {
    let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(code), "{all}");
    let said = text(stream);
    assert!(said.contains(says), "expected {says:?} in: {said}");
}

/// Asserts that `o` exited with 0; returns its stdout.
fn ok_stdout(o: &Output) -> String {
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    out
}

/// `bench` on the 4×4 sudoku and the small kakuro, then `more`.
fn bench_two<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let two = [
        "bench",
        "puzzles/sudoku-4x4.toml",
        "puzzles/kakuro-small.toml",
    ];
    [&two[..], more].concat()
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn key(r: &Value) -> (String, String, String, u64) {
    (
        r["puzzle"].as_str().unwrap_or_default().into(),
        r["solver"].as_str().unwrap_or_default().into(),
        r["encoding"].as_str().unwrap_or_default().into(),
        r["repeat"].as_u64().unwrap_or(u64::MAX),
    )
}

#[test]
fn every_run_is_recorded_with_its_fields_and_repeats_interleave() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("r.jsonl");
    let o = smtgrid(&bench_two(&[
        "--solver",
        "yices2",
        "--encoding",
        "onehot,lia",
        "--repeat",
        "2",
        "--timeout",
        "30",
        "--out",
        out.to_str().expect("utf-8"),
    ]));
    let table = ok_stdout(&o);
    let rs = records(&out);
    assert_eq!(rs.len(), 2 * 2 * 2, "puzzles × encodings × repeats");
    assert_eq!(
        sorted_keys(&rs[0]),
        [
            "asked_mode",
            "asked_stats",
            "command",
            "cpu_ms",
            "date",
            "encoding",
            "error",
            "first_answer_ms",
            "kind",
            "machine",
            "max_rss_kb",
            "memory_limit_by",
            "memory_limit_mb",
            "mode",
            "plain",
            "puzzle",
            "repeat",
            "size",
            "solver",
            "solver_sha256",
            "solver_version",
            "stats",
            "status",
            "time_ms",
            "timeout_ms",
            "verified"
        ]
    );
    for r in &rs {
        assert_eq!(r["status"], "sat", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["mode"], "process", "{r}");
        assert_eq!(r["timeout_ms"], 30_000, "{r}");
        assert!(r["solver_version"].is_string(), "{r}");
        assert!(
            r["machine"]["cores"].as_u64().is_some_and(|c| c >= 1),
            "{r}"
        );
        assert!(r["machine"]["os"].is_string(), "{r}");
        assert_eq!(r["machine"]["smtgrid"], env!("CARGO_PKG_VERSION"), "{r}");
        // Measured like BenchExec, with the exact command line.
        assert!(r["time_ms"].as_f64().is_some_and(|t| t > 0.0), "{r}");
        assert!(r["cpu_ms"].as_f64().is_some_and(|t| t >= 0.0), "{r}");
        assert!(r["max_rss_kb"].as_u64().is_some_and(|m| m > 0), "{r}");
        let command = r["command"].as_array().expect("a command array");
        assert!(command.len() > 1, "{r}");
        assert_eq!(r["solver_sha256"].as_str().map(str::len), Some(64), "{r}");
        assert!(r["date"].is_string(), "{r}");
        assert!(
            r["machine"]["cpu"].is_string() && r["machine"]["kernel"].is_string(),
            "{r}"
        );
    }
    assert_eq!(rs[0]["size"], "4x4");
    assert_eq!(rs[0]["kind"], "sudoku");
    // Every triple once, then every triple again: never twice in a row.
    let repeats: Vec<u64> = rs
        .iter()
        .map(|r| r["repeat"].as_u64().expect("repeat"))
        .collect();
    assert_eq!(repeats, [0, 0, 0, 0, 1, 1, 1, 1]);
    assert!(table.contains("yices2/onehot"), "{table}");
    assert!(table.contains("yices2/lia"), "{table}");
    assert!(
        table.contains("virtual best: 2 of 2 puzzles solved"),
        "{table}"
    );
    assert!(
        table.contains("8 runs: 2 puzzles × 2 pairs × 2 repeats"),
        "{table}"
    );
    // No progress bar when stderr is not a terminal (the notes smtgrid
    // writes there, such as the spread warning on a busy machine, may
    // count runs).
    let stderr = text(&o.stderr);
    assert!(
        stderr
            .lines()
            .all(|l| l.starts_with("smtgrid:") || !l.contains("runs")),
        "{stderr}"
    );
}

/// With no `--solver`, bench runs every installed solver on the encodings
/// its profile takes, and nothing else: Boolector 1.5 takes none of the
/// scripts and Bitwuzla no `lia`, and neither adds `unsupported` records
/// (they would be charged by PAR-2 as if the solver had failed). Every
/// record is a run that happened, measured and with its command.
#[test]
fn a_default_bench_runs_only_what_each_installed_solver_takes() {
    let all = ["z3", "cvc5", "yices2", "cvc4", "boolector", "bitwuzla"];
    require(&all);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("r.jsonl");
    let o = smtgrid(&[
        "bench",
        "puzzles/sudoku-4x4.toml",
        "--timeout",
        "60",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    ok_stdout(&o);
    let err = text(&o.stderr);
    assert!(
        err.contains("left out bitwuzla/lia: bitwuzla does not take QF_LIA"),
        "{err}"
    );
    assert!(
        err.contains("left out glucose/bv: glucose does not take QF_BV"),
        "{err}"
    );
    let rs = records(&out);
    let pairs: BTreeSet<String> = rs
        .iter()
        .map(|r| {
            format!(
                "{}/{}",
                r["solver"].as_str().unwrap_or("?"),
                r["encoding"].as_str().unwrap_or("?")
            )
        })
        .collect();
    let mut want = BTreeSet::new();
    for s in ["z3", "cvc5", "yices2", "cvc4"] {
        for e in ["lia", "onehot", "bv"] {
            want.insert(format!("{s}/{e}"));
        }
    }
    want.insert("bitwuzla/onehot".into());
    want.insert("bitwuzla/bv".into());
    want.insert("glucose/onehot".into());
    assert_eq!(pairs, want);
    assert_eq!(rs.len(), want.len());
    for r in &rs {
        assert_eq!(r["status"], "sat", "{r}");
        assert!(r["cpu_ms"].as_f64().is_some_and(|t| t >= 0.0), "{r}");
        assert!(r["max_rss_kb"].as_u64().is_some_and(|m| m > 0), "{r}");
        let binary = r["command"][0].as_str().unwrap_or_default();
        assert!(
            std::path::Path::new(binary).is_file(),
            "the command starts with the solver's binary: {r}"
        );
    }
}

#[test]
fn resume_runs_only_what_is_missing_and_report_finds_it_complete() {
    require(&["yices2"]);
    let (dir, top) = top95_head(3);
    let out = dir.path().join("r.jsonl");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "bench",
            "puzzles/sudoku-4x4.toml",
            top.to_str().expect("utf-8"),
            "--solver",
            "yices2",
            "--encoding",
            "onehot",
            "--timeout",
            "30",
            "--out",
            out.to_str().expect("utf-8"),
            "--format",
            "json",
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        smtgrid(&a)
    };
    let o = run(args(&[]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let first = records(&out);
    assert_eq!(first.len(), 4);
    // Again without --resume: the results are not overwritten.
    let o = run(args(&[]));
    assert_exit(&o, 2, &o.stderr, "--resume");
    // Keep two runs and half of a third, as a killed run might.
    let body = std::fs::read_to_string(&out).expect("read");
    let lines: Vec<&str> = body.lines().collect();
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]);
    std::fs::write(&out, cut).expect("write");
    let o = run(args(&["--resume"]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("cut-off"), "{}", text(&o.stderr));
    let after = records(&out);
    assert_eq!(after.len(), 4);
    assert_eq!(after[..2], first[..2], "the kept runs are not made again");
    let keys: BTreeSet<_> = after.iter().map(key).collect();
    assert_eq!(keys, first.iter().map(key).collect());
    let summary: Value = serde_json::from_slice(&o.stdout).expect("a JSON summary");
    assert_eq!(summary["runs"], 4, "{summary}");
    assert_eq!(summary["pairs"][0]["solved"], 4, "{summary}");
    let o = smtgrid(&["report", out.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let t = text(&o.stdout);
    assert!(!t.contains("missing") && !t.contains("duplicated"), "{t}");
}

/// Runs made with other time limits are not one benchmark: `report`
/// refuses to merge them, naming a run of each side and the difference,
/// until `--keep` picks one side.
#[test]
fn report_refuses_runs_of_other_settings_unless_told_which_to_keep() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let bench = |timeout: &str, name: &str| {
        let out = dir.path().join(name);
        let o = smtgrid(&[
            "bench",
            "puzzles/sudoku-4x4.toml",
            "--solver",
            "yices2",
            "--encoding",
            "onehot,lia",
            "--timeout",
            timeout,
            "--out",
            out.to_str().expect("utf-8"),
        ]);
        ok_stdout(&o);
        out.to_str().expect("utf-8").to_string()
    };
    let (a, b) = (bench("20", "a.jsonl"), bench("30", "b.jsonl"));
    let o = smtgrid(&["report", &a, &b]);
    assert_exit(
        &o,
        2,
        &o.stderr,
        "timeout_ms (--timeout) is 20000 there but 30000 here",
    );
    let said = text(&o.stderr);
    assert!(
        said.contains(&format!("{b}:1:")) && said.contains(&format!("{a}:1")),
        "{said}"
    );
    assert!(
        said.contains("--keep timeout_ms=20000 or --keep timeout_ms=30000"),
        "{said}"
    );
    assert!(o.stdout.is_empty(), "nothing reported: {}", text(&o.stdout));
    let o = smtgrid(&[
        "report",
        &a,
        &b,
        "--keep",
        "timeout_ms=30000",
        "--format",
        "json",
    ]);
    let summary: Value = serde_json::from_str(&ok_stdout(&o)).expect("a JSON summary");
    assert_eq!(summary["runs"], 2, "only b's runs: {summary}");
    assert_exit(
        &o,
        0,
        &o.stderr,
        "--keep timeout_ms=30000: left out 2 of 4 runs",
    );
    let o = smtgrid(&["report", &a, "--keep", "timeout=30000"]);
    assert_exit(&o, 2, &o.stderr, "timeout_ms");
    let o = smtgrid(&["report", &a, "--keep", "timeout_ms=30000"]);
    assert_exit(&o, 2, &o.stderr, "keeps none of the 2 runs");
}

/// The README's GNU parallel recipe, over 4 local shards.
#[test]
fn parallel_shards_merge_into_exactly_the_unsharded_runs() {
    require(&["yices2"]);
    let (dir, top) = top95_head(4);
    let top = top.to_str().expect("utf-8");
    let d = dir.path().to_str().expect("utf-8");
    let bench = format!(
        "{} bench puzzles/sudoku-4x4.toml {top} --solver yices2 --encoding onehot --repeat 2 \
         --timeout 30 --jobs 1",
        env!("CARGO_BIN_EXE_smtgrid")
    );
    let o = Command::new("parallel")
        .args([
            "-j4",
            &format!("{bench} --shard {{}}/4 --out {d}/shard-{{}}.jsonl --format csv"),
            ":::",
            "0",
            "1",
            "2",
            "3",
        ])
        .current_dir(root())
        .output()
        .expect("GNU parallel runs (scripts/install-solvers --for-tests installs it)");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let shards: Vec<String> = (0..4).map(|k| format!("{d}/shard-{k}.jsonl")).collect();
    let whole = format!("{d}/whole.jsonl");
    let o = Command::new("sh")
        .args(["-c", &format!("{bench} --out {whole} --format csv")])
        .current_dir(root())
        .output()
        .expect("sh");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));

    let mut merged = Vec::new();
    for s in &shards {
        let rs = records(Path::new(s));
        assert!(rs.len() < 10, "{s}: a shard made every run");
        merged.extend(rs.iter().map(key));
    }
    merged.sort();
    let mut unsharded: Vec<_> = records(Path::new(&whole)).iter().map(key).collect();
    unsharded.sort();
    assert_eq!(unsharded.len(), 5 * 2);
    assert_eq!(
        merged, unsharded,
        "the shards make exactly the runs of one run"
    );

    let report = |files: &[String]| {
        let mut a = vec!["report", "--format", "json"];
        a.extend(files.iter().map(String::as_str));
        let o = smtgrid(&a);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let mut v: Value = serde_json::from_slice(&o.stdout).expect("a JSON summary");
        // Times differ from run to run; everything else must not.
        for p in v["pairs"].as_array_mut().expect("pairs") {
            for t in ["par2_s", "median_s", "total_s", "par2_over_best_s"] {
                p[t] = Value::Null;
            }
        }
        v["virtual_best"]["par2_s"] = Value::Null;
        // Which repeats vary a lot is a matter of timing too.
        v["noisy"] = Value::Null;
        v
    };
    let sharded = report(&shards);
    assert_eq!(sharded, report(std::slice::from_ref(&whole)));
    assert_eq!(sharded["runs"], 10);
    assert_eq!(sharded["missing"], Value::Array(vec![]));
    assert_eq!(sharded["duplicates"], Value::Array(vec![]));

    // Leaving a shard out, or giving one twice, is named.
    let o = smtgrid(&["report", &shards[0], &shards[0], &whole]);
    assert_exit(&o, 1, &o.stdout, "duplicated run");
}

#[test]
fn a_disagreement_is_listed_and_fails_the_bench() {
    require(&["yices2"]);
    let cmd = fake_solver("liar", "says_unsat.sh", Path::new("/dev/null"));
    let bench = |file: &str| {
        smtgrid(&[
            "bench",
            file,
            "--solver-cmd",
            &cmd,
            "--solver",
            "yices2,liar",
            "--encoding",
            "lia",
        ])
    };
    let o = bench("puzzles/sudoku-4x4.toml");
    // The file records its solution: the liar's unsat is refuted by it
    // (status error), a disagreement even without yices2's grid.
    assert_exit(
        &o,
        1,
        &o.stdout,
        "SOLVERS DISAGREE: puzzles/sudoku-4x4.toml: liar/lia (repeat 0) says there is no \
         solution: unsat, but the puzzle file records a solution",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    // Without a recorded solution, propagation completes this one: its
    // grid refutes the liar as the file's did.
    let text = std::fs::read_to_string(root().join("puzzles/sudoku-4x4.toml")).expect("read");
    let bare = dir.path().join("bare.toml");
    let cut = text.find("solution = ").expect("a recorded solution");
    std::fs::write(&bare, &text[..cut]).expect("write");
    let o = bench(bare.to_str().expect("UTF-8"));
    assert_exit(&o, 1, &o.stdout, "propagation alone decides every cell");
    // Nor this one, without givens: yices2's verified grid contradicts it.
    let open = dir.path().join("open.toml");
    let blank = ". . . .\n".repeat(4);
    std::fs::write(
        &open,
        format!("kind = \"sudoku\"\ngivens = \"\"\"\n{blank}\"\"\"\n"),
    )
    .expect("write");
    let o = bench(open.to_str().expect("UTF-8"));
    assert_exit(&o, 1, &o.stdout, "found a verified solution but liar/lia");
}

/// A new temporary directory, and in it a results file of `n` puzzles for
/// pairs a/onehot (fast, all solved) and b/lia (slower, the last one a
/// timeout).
fn synthetic(n: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut body = String::new();
    for i in 0..n {
        for (solver, enc, ms, status) in [
            ("a", "onehot", 10 + i as u64, "sat"),
            (
                "b",
                "lia",
                100 * (i as u64 + 1),
                if i + 1 == n { "timeout" } else { "sat" },
            ),
        ] {
            let r = serde_json::json!({
                "puzzle": format!("p{i}"), "kind": "sudoku", "size": "9x9",
                "solver": solver, "solver_version": "1.0", "encoding": enc,
                "mode": "process", "status": status, "verified": status == "sat",
                "time_ms": ms, "timeout_ms": 2000, "repeat": 0,
                "machine": {"cores": 2, "os": "linux x86_64", "smtgrid": "0.1.0"},
                "error": null
            });
            body.push_str(&format!("{r}\n"));
        }
    }
    let path = dir.path().join("synthetic.jsonl");
    std::fs::write(&path, body).expect("write");
    (dir, path)
}

fn svg_texts(path: &Path) -> (String, Vec<String>) {
    let svg = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&svg)
        .unwrap_or_else(|e| panic!("{} is not well-formed: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect();
    (svg, texts)
}

/// `report` on `synthetic(n)` drawing its cactus plot and the a/onehot vs
/// b/lia scatter into the files named `cactus` and `scatter`: the temp dir,
/// the two paths and the summary.
fn report_plots(
    n: usize,
    cactus: &str,
    scatter: &str,
) -> (tempfile::TempDir, PathBuf, PathBuf, String) {
    let (dir, results) = synthetic(n);
    let cactus = dir.path().join(cactus);
    let scatter = dir.path().join(scatter);
    let o = smtgrid(&[
        "report",
        results.to_str().expect("utf-8"),
        "--plot",
        cactus.to_str().expect("utf-8"),
        "--scatter",
        "a/onehot,b/lia",
        "--scatter-out",
        scatter.to_str().expect("utf-8"),
    ]);
    let t = ok_stdout(&o);
    (dir, cactus, scatter, t)
}

#[test]
fn report_draws_a_cactus_plot_and_a_scatter() {
    let (_dir, cactus, scatter, t) = report_plots(6, "cactus.svg", "ab.svg");
    assert!(t.contains("virtual best: 6 of 6 puzzles solved"), "{t}");
    assert!(t.contains("fastest per puzzle: a/onehot 6"), "{t}");

    let (svg, texts) = svg_texts(&cactus);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    // Axes and ticks are thin black polylines; each series thick ones
    // (a dashed line is many) in its solver's colour.
    let series: BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .filter_map(|n| n.attribute("stroke"))
        .collect();
    assert_eq!(series.len(), 2, "one line per pair: {series:?}");
    // Each encoding's points have their own marker, in the legend too:
    // a/onehot's triangles (7: six points and the legend's), b/lia's dots.
    let triangles = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("polygon")
                && n.attribute("points")
                    .is_some_and(|p| p.split(' ').filter(|s| !s.is_empty()).count() == 3)
        })
        .count();
    assert_eq!(
        triangles, 7,
        "a triangle for each onehot point and its legend"
    );
    for want in [
        "a/onehot (6 solved)",
        "b/lia (5 solved)",
        "puzzles solved",
        "time per puzzle (s, log scale)",
    ] {
        assert!(texts.iter().any(|t| t == want), "no `{want}` in {texts:?}");
    }
    log_axis_labels_read_plainly(&texts);
    let (_, texts) = svg_texts(&scatter);
    log_axis_labels_read_plainly(&texts);
    for want in [
        "a/onehot vs b/lia",
        "a/onehot: time (s, log scale)",
        "equal time",
        "solved by both (5)",
        "unsolved by one or both, at the limit (1)",
    ] {
        assert!(texts.iter().any(|t| t == want), "no `{want}` in {texts:?}");
    }
}

/// The width and height of a PNG file, from its header.
fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        b.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{} is no PNG",
        path.display()
    );
    let be = |at: usize| u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    (be(16), be(20))
}

#[test]
fn plots_named_png_are_drawn_as_png() {
    let (_dir, cactus, scatter, _) = report_plots(4, "cactus.png", "head-to-head.PNG");
    assert_eq!(png_size(&cactus), (960, 600));
    assert_eq!(
        png_size(&scatter).0,
        png_size(&scatter).1,
        "a square scatter"
    );
    // Labels are drawn: a plot with text has far more than a blank one's
    // few hundred bytes.
    let bytes = std::fs::metadata(&cactus).expect("the cactus plot").len();
    assert!(bytes > 10_000, "{bytes} bytes");
}

#[test]
fn bad_plot_names_and_pairs_are_usage_errors_before_any_run() {
    let (dir, results) = synthetic(2);
    let r = results.to_str().expect("utf-8");
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").expect("write");
    // A line that is no record names the file and line.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"puzzle\": 1}\n").expect("write");
    let four = "puzzles/sudoku-4x4.toml";
    let folder = dir.path().join("plot.svg");
    std::fs::create_dir(&folder).expect("mkdir");
    let folder = folder.to_str().expect("utf-8");
    let cases: [(Vec<&str>, &str); 8] = [
        (
            vec!["bench", four, "--solver", "z3", "--plot", folder],
            "that is a folder",
        ),
        (
            vec!["report", r, "--plot", "cactus.jpg"],
            "must end in .svg or .png",
        ),
        (vec!["report", r, "--scatter", "a/onehot"], ""),
        (
            vec![
                "report",
                r,
                "--scatter",
                "a/onehot,c/bv",
                "--scatter-out",
                "/dev/null/x.svg",
            ],
            "",
        ),
        (vec!["bench", four, "--shard", "4/4"], ""),
        (
            vec![
                "bench",
                four,
                "--solver",
                "yices2",
                "--encoding",
                "lia",
                "--scatter",
                "yices2/lia,yices2/bv",
            ],
            "yices2/bv: that pair is not benchmarked",
        ),
        (vec!["report", empty.to_str().expect("utf-8")], "no runs"),
        (vec!["report", bad.to_str().expect("utf-8")], "bad.jsonl:1:"),
    ];
    for (args, says) in cases {
        let o = smtgrid(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: expected {says:?} in: {err}");
    }
}

/// Under a terminal (`script` gives one; `TERM` names its kind, as a
/// terminal's session does, whatever the environment the suite runs in:
/// without it, or with `dumb`, no bar is drawn) the progress bar is drawn
/// on stderr, and stdout still carries only the summary.
#[test]
fn the_progress_bar_shows_on_a_terminal_only() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("summary.csv");
    let cmd = format!(
        "{} bench puzzles/sudoku-4x4.toml --solver yices2 --encoding onehot,lia --format csv > {}",
        env!("CARGO_BIN_EXE_smtgrid"),
        out.display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("TERM", "xterm")
        .current_dir(root())
        .output()
        .expect("script (util-linux) runs");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let tty = text(&o.stdout);
    assert!(
        tty.contains("2/2 runs"),
        "no progress bar on the terminal: {tty:?}"
    );
    assert!(tty.contains("0 failed"), "{tty:?}");
    // The smoothed rate, to 3 significant digits, once runs finished.
    assert!(tty.contains(" runs/s"), "{tty:?}");
    let csv = std::fs::read_to_string(&out).expect("summary");
    assert!(csv.starts_with("solver,encoding,solved,"), "{csv}");
    assert!(!csv.contains("runs"), "the bar leaked into stdout: {csv}");
}

/// Ctrl-C stops every solver, leaves a results file of whole records (no
/// run it stopped), and `--resume` makes only the runs it lacks. Stdout
/// holds the JSON summary of the runs that finished, as `solve` shows
/// what it decided (it used to be empty).
#[test]
fn ctrl_c_leaves_a_valid_file_that_resume_completes() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("pids");
    let out = dir.path().join("r.jsonl");
    let out_s = out.to_str().expect("utf-8");
    let cmd = fake_solver("hang", "hang.sh", &pidfile);
    let child = bin()
        .args(bench_two(&[
            "--solver-cmd",
            &cmd,
            "--solver",
            "yices2,hang",
            "--encoding",
            "lia",
            "--timeout",
            "60",
            "--out",
            out_s,
            "--format",
            "json",
        ]))
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("smtgrid starts");
    // Generous waits: the machine may be loaded; each ends as soon as it can.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&pidfile).map_or(true, |t| t.split_whitespace().count() < 3) {
        assert!(
            std::time::Instant::now() < until,
            "the fake solver never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: sends SIGINT to the smtgrid child this test started.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let o = child.wait_with_output().expect("smtgrid ends");
    assert_exit(&o, 130, &o.stderr, "--resume");
    let pids: Vec<i32> = std::fs::read_to_string(&pidfile)
        .expect("pid file")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    common::assert_all_gone(&pids);
    let kept = records(&out);
    assert!(
        kept.iter()
            .all(|r| r["status"] == "sat" && r["solver"] == "yices2"),
        "a stopped run was recorded: {kept:?}"
    );
    let summary: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not one JSON document ({e}): {}", text(&o.stdout)));
    assert_eq!(summary["runs"], kept.len(), "{summary}");
    // Two puzzles × two solvers: what did not finish is missing, whether
    // it started or not.
    assert_eq!(summary["missing_runs"], 4 - kept.len(), "{summary}");
    let o = smtgrid(&bench_two(&[
        "--solver",
        "yices2",
        "--encoding",
        "lia",
        "--out",
        out_s,
        "--resume",
    ]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let all = records(&out);
    assert_eq!(all[..kept.len()], kept[..]);
    let keys: BTreeSet<_> = all.iter().map(key).collect();
    assert_eq!((all.len(), keys.len()), (2, 2), "{all:?}");
}

#[test]
fn a_solver_over_the_memory_limit_is_a_memout_and_nothing_is_left() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pids = dir.path().join("pids");
    let out = dir.path().join("r.jsonl");
    let hog = fake_solver("hog", "memory_hog.sh", &pids);
    let o = smtgrid(&[
        "bench",
        "puzzles/sudoku-4x4.toml",
        "--solver-cmd",
        &hog,
        "--solver",
        "hog",
        "--encoding",
        "lia",
        "--timeout",
        "60",
        "--memory-limit",
        "100",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let table = text(&o.stdout);
    let rs = records(&out);
    assert_eq!(rs.len(), 1, "{table}{}", text(&o.stderr));
    let r = &rs[0];
    assert_eq!(r["status"], "memout", "{r}");
    assert_eq!(r["memory_limit_mb"], 100, "{r}");
    assert_eq!(r["memory_limit_by"], "watcher", "{r}");
    // The limit holds for the group together (the shell, its sleeping
    // child and the allocating python); the record has the largest peak
    // of one process.
    assert!(
        r["max_rss_kb"].as_u64().is_some_and(|k| k > 80 * 1024),
        "{r}"
    );
    // Stopped at the limit, long before the time limit.
    assert!(r["time_ms"].as_f64().is_some_and(|t| t < 30_000.0), "{r}");
    // A failure in the summary, charged twice the limit by PAR-2.
    let row = table
        .lines()
        .find(|l| l.starts_with("hog/lia"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(
        row.contains(" 120.000 ") || row.contains(" 120 "),
        "{table}"
    );
    assert!(table.contains("memout"), "{table}");
    let written = std::fs::read_to_string(&pids).expect("the fake wrote its pids");
    let ids: Vec<i32> = written
        .split_whitespace()
        .take(2)
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(ids.len(), 2, "{written}");
    common::assert_all_gone(&ids);
}

/// Runs headless Chromium on `page` and returns the DOM after its script
/// ran; fails loudly when Chromium is not installed.
fn rendered_dom(page: &Path) -> String {
    let chromium = which_chromium();
    let profile = tempfile::tempdir().expect("tempdir");
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
}

fn which_chromium() -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
        .expect("chromium is not installed: run scripts/install-solvers --for-tests")
}

#[test]
fn per_puzzle_tables_comparison_and_the_html_page() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("r.jsonl");
    let o = smtgrid(&bench_two(&[
        "--solver",
        "yices2,z3",
        "--encoding",
        "onehot",
        "--repeat",
        "2",
        "--out",
        out.to_str().expect("utf-8"),
    ]));
    ok_stdout(&o);
    let file = out.to_str().expect("utf-8");

    let md = ok_stdout(&smtgrid(&[
        "report",
        file,
        "--per-puzzle",
        "--format",
        "markdown",
    ]));
    assert!(
        md.starts_with("| puzzle | yices2/onehot | z3/onehot |\n|:---|---:|---:|\n"),
        "{md}"
    );
    assert_eq!(md.lines().count(), 4, "{md}");
    assert_eq!(md.matches("**").count(), 4, "one fastest per puzzle: {md}");
    assert!(md.contains(" ± "), "σ over the repeats: {md}");
    let tex = ok_stdout(&smtgrid(&["report", file, "--format", "latex"]));
    assert!(
        tex.contains("\\toprule") && tex.contains("\\bottomrule"),
        "{tex}"
    );
    assert!(tex.contains("yices2/onehot & 2 &"), "{tex}");
    let cmp = ok_stdout(&smtgrid(&[
        "report",
        file,
        "--compare",
        "yices2/onehot,z3/onehot",
    ]));
    assert!(cmp.contains("× faster than"), "{cmp}");
    assert!(
        cmp.contains("95 % CI") && cmp.contains("Wilcoxon signed-rank p"),
        "{cmp}"
    );
    assert!(cmp.contains("2 puzzles"), "{cmp}");

    let page = dir.path().join("report.html");
    ok_stdout(&smtgrid(&[
        "report",
        file,
        "--html",
        page.to_str().expect("utf-8"),
    ]));
    let html = std::fs::read_to_string(&page).expect("the page");
    // Self-contained: nothing is fetched.
    for external in ["src=", "href=", "http://", "https://", "@import"] {
        let hits: Vec<&str> = html.matches(external).collect();
        let only_svg_ns = hits.len() == html.matches("http://www.w3.org/").count();
        assert!(
            hits.is_empty() || (external == "http://" && only_svg_ns),
            "{external}"
        );
    }
    let dom = rendered_dom(&page);
    assert!(
        dom.contains("data-sortable=\"ready\""),
        "the script ran: {dom:.500}"
    );
    assert!(dom.contains("id=\"summary\"") && dom.contains("id=\"per-puzzle\""));
    assert_eq!(dom.matches("<svg").count(), 2, "cactus and scatter");
    assert!(dom.contains("Cactus plot") && dom.contains("yices2/onehot vs z3/onehot"));
    assert!(dom.contains("id=\"provenance\"") && dom.contains("sha256"));
    assert_eq!(
        dom.matches("<tr>").count(),
        1 + 3 + 1 + 2,
        "summary and per-puzzle rows"
    );
}
/// A results file is read within the same bound as a puzzle file: an
/// endless line is an input error, not an allocation.
#[test]
fn an_endless_results_file_is_an_input_error() {
    let o = smtgrid(&["report", "/dev/zero"]);
    assert_exit(&o, 2, &o.stderr, "/dev/zero:1");
}

/// `--out` must name a results file: a directory is refused with a
/// message that says so, and a file that is not results (here the puzzle
/// file itself) is refused and left as it was, with or without --resume.
#[test]
fn only_a_results_file_is_resumed_and_others_are_left_untouched() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let game = dir.path().join("game.sgt");
    let id = "keen:4:_a__a_a5_3aa,m3d2m24s2d2a4s1";
    std::fs::write(&game, id).expect("write");
    let g = game.to_str().expect("utf-8");
    for resume in [&["--resume"][..], &[]] {
        let args = [
            &[
                "bench",
                g,
                "--solver",
                "yices2",
                "--encoding",
                "onehot",
                "--out",
                g,
            ][..],
            resume,
        ]
        .concat();
        let o = smtgrid(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert_eq!(std::fs::read_to_string(&game).expect("read"), id);
    }
    let d = dir.path().to_str().expect("utf-8");
    for resume in [&["--resume"][..], &[]] {
        let args = [
            &[
                "bench",
                g,
                "--solver",
                "yices2",
                "--encoding",
                "onehot",
                "--out",
                d,
            ][..],
            resume,
        ]
        .concat();
        let o = smtgrid(&args);
        assert_exit(&o, 2, &o.stderr, "that is a folder; give a file name");
    }
}

/// A results file cut inside a multi-byte character reads like one cut
/// just before it: the cut line is dropped and named.
#[test]
fn a_results_file_cut_inside_a_character_is_reported() {
    let (dir, path) = synthetic(2);
    let mut body = std::fs::read(&path).expect("read");
    let line = serde_json::json!({"puzzle": "café", "solver": "a"}).to_string();
    let cut = line.find('é').expect("an é") + 1;
    body.extend_from_slice(&line.as_bytes()[..cut]);
    let cut_file = dir.path().join("cut.jsonl");
    std::fs::write(&cut_file, body).expect("write");
    let o = smtgrid(&["report", cut_file.to_str().expect("utf-8")]);
    assert_exit(
        &o,
        0,
        &o.stderr,
        "cut.jsonl:5: ignoring a cut-off last line",
    );
}

/// Labels and names from a results file reach neither the terminal nor
/// a plot raw.
#[test]
fn report_escapes_what_came_from_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut body = String::new();
    for (puzzle, solver, status) in [
        ("p\u{1b}[2J", "\u{1b}]0;owned\u{7}a", "sat"),
        ("p\u{1b}[2J", "b\u{fffe}", "unsat"),
        ("q", "b\u{fffe}", "sat"),
    ] {
        let r = serde_json::json!({
            "puzzle": puzzle, "kind": "sudoku", "size": "9x9",
            "solver": solver, "solver_version": "1.0", "encoding": "onehot",
            "mode": "process", "status": status, "verified": status == "sat",
            "time_ms": 5, "timeout_ms": 2000, "repeat": 0,
            "machine": {"cores": 2, "os": "linux x86_64", "smtgrid": "0.1.0"},
            "error": null
        });
        body.push_str(&format!("{r}\n"));
    }
    let results = dir.path().join("hostile.jsonl");
    std::fs::write(&results, body).expect("write");
    let r = results.to_str().expect("utf-8");
    for format in ["table", "csv", "json"] {
        let plot = dir.path().join(format!("{format}.svg"));
        let o = smtgrid(&[
            "report",
            r,
            "--format",
            format,
            "--plot",
            plot.to_str().expect("utf-8"),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        for stream in [&o.stdout, &o.stderr] {
            assert!(
                !stream.contains(&0x1b) && !stream.contains(&0x07),
                "{format}: {}",
                text(stream)
            );
        }
        let (_, texts) = svg_texts(&plot);
        assert!(
            texts.iter().any(|t| t.contains("\\u{1b}]0;owned")),
            "{texts:?}"
        );
    }
}

/// A plot is replaced whole or not at all: a write that fails part-way
/// leaves the previous plot as it was.
#[test]
fn a_failed_plot_write_keeps_the_previous_plot() {
    let (dir, results) = synthetic(40);
    let cactus = dir.path().join("cactus.svg");
    let args = [
        "report",
        results.to_str().expect("utf-8"),
        "--plot",
        cactus.to_str().expect("utf-8"),
    ];
    ok_stdout(&smtgrid(&args));
    let before = std::fs::read(&cactus).expect("a plot");
    assert!(before.len() > 8192, "{}", before.len());
    let mut c = bin();
    c.args(args);
    // SAFETY: between fork and exec this calls only setrlimit and signal,
    // which are async-signal-safe.
    unsafe {
        use std::os::unix::process::CommandExt;
        c.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 8192,
                rlim_max: 8192,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let o = c.output().expect("smtgrid runs");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&cactus).expect("the plot"), before);
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A plot's log-axis labels: every decade from the one under the least
/// time (10 ms, so 0.001 s) to the limit (2 s) labelled, each with the
/// digits it needs ("1", not "1.0").
fn log_axis_labels_read_plainly(texts: &[String]) {
    for want in ["0.001", "0.01", "0.1", "1"] {
        assert!(texts.iter().any(|t| t == want), "no `{want}` in {texts:?}");
    }
    assert!(
        !texts
            .iter()
            .any(|t| t.parse::<f64>().is_ok() && t.contains('.') && t.ends_with('0')),
        "a label with a needless 0: {texts:?}"
    );
}

/// A puzzle named like a spreadsheet formula goes into CSV as text (led
/// by `'`), and a `|` in a name is escaped in LaTeX, in the per-puzzle
/// tables that carry the names.
#[test]
fn names_from_files_cannot_become_formulas_or_markup() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["=cmd.toml", "a|b.toml"] {
        std::fs::copy(
            root().join("puzzles/sudoku-4x4.toml"),
            dir.path().join(name),
        )
        .expect("copy");
    }
    let run = |args: &[&str]| common::smtgrid_in(dir.path(), args);
    ok_stdout(&run(&[
        "bench",
        "=cmd.toml",
        "a|b.toml",
        "--solver",
        "z3",
        "--encoding",
        "onehot",
        "--out",
        "r.jsonl",
    ]));
    let csv = ok_stdout(&run(&[
        "report",
        "r.jsonl",
        "--per-puzzle",
        "--format",
        "csv",
    ]));
    assert!(csv.contains("\n'=cmd.toml,"), "{csv}");
    assert!(!csv.contains("\n=cmd"), "{csv}");
    let tex = ok_stdout(&run(&[
        "report",
        "r.jsonl",
        "--per-puzzle",
        "--format",
        "latex",
    ]));
    assert!(tex.contains("\na\\textbar{}b.toml & "), "{tex}");
}

/// Every text of `svg` (a plot `width`×`height`) lies inside the figure,
/// measured in the built-in font the PNG is drawn with; each text that
/// does not, with where it runs out.
fn texts_outside(svg: &str, width: f64, height: f64) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let mut out = Vec::new();
    for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let text = n.text().unwrap_or("").trim();
        let num = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
        let (Some(x), Some(y), Some(px)) = (num("x"), num("y"), num("font-size")) else {
            out.push(format!("`{text}` has no x, y or font-size"));
            continue;
        };
        let w = smtgrid::render::font::measure(text, px).advance;
        // Along the text: where it starts and ends, by its anchor.
        let (from, to) = match n.attribute("text-anchor") {
            Some("middle") => (-w / 2.0, w / 2.0),
            Some("end") => (-w, 0.0),
            _ => (0.0, w),
        };
        // Across it: its line, by the baseline shift plotters gives.
        let (above, below) = match n.attribute("dy") {
            Some("0.76em") => (0.0, px),
            Some("-0.5ex") => (px, 0.0),
            _ => (px / 2.0, px / 2.0),
        };
        let rotated = n
            .attribute("transform")
            .is_some_and(|t| t.starts_with("rotate(270"));
        // Turned a quarter left, the text runs up from (x, y).
        let (left, right, top, bottom) = if rotated {
            (x - above, x + below, y - to, y - from)
        } else {
            (x + from, x + to, y - above, y + below)
        };
        let slack = 0.5;
        if left < -slack || top < -slack || right > width + slack || bottom > height + slack {
            out.push(format!(
                "`{text}` at {px:.1} px spans x {left:.0}..{right:.0}, y {top:.0}..{bottom:.0}"
            ));
        }
    }
    out
}

/// Issue: at the smallest `--plot-size` the cactus title ran off the left
/// edge and the legends off the right. Every title, axis description and
/// legend now fits, at every size `--plot-size` takes, with labels far
/// longer than a solver's usual ones too; a smaller font, a second line
/// or a shorter wording, before a cut.
#[test]
fn plot_texts_fit_at_every_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    let long = "a-solver-with-a-long-label@debian-bookworm-4.13.0";
    let mut body = String::new();
    for i in 0..5 {
        for (solver, enc, solved) in [
            ("yices2", "onehot", true),
            ("z3", "onehot", true),
            ("z3", "lia", i > 0),
            (long, "bv", i % 2 == 0),
            ("cvc5", "bv", false),
        ] {
            let status = if solved { "sat" } else { "timeout" };
            let r = serde_json::json!({
                "puzzle": format!("p{i}"), "kind": "sudoku", "size": "9x9",
                "solver": solver, "solver_version": "1.0", "encoding": enc,
                "mode": "process", "status": status, "verified": solved,
                "time_ms": 10 * (i + 1), "timeout_ms": 20000, "repeat": 0,
                "machine": {"cores": 2, "os": "linux x86_64", "smtgrid": "0.1.0"},
                "error": null
            });
            body.push_str(&format!("{r}\n"));
        }
    }
    let results = dir.path().join("r.jsonl");
    std::fs::write(&results, body).expect("write");
    let pairs = [
        "z3/onehot,yices2/onehot".to_string(),
        format!("{long}/bv,z3/lia"),
    ];
    for (w, h) in [(300, 300), (960, 600), (4000, 300), (300, 4000), (450, 320)] {
        for (k, pair) in pairs.iter().enumerate() {
            let cactus = dir.path().join(format!("c{w}x{h}.svg"));
            let scatter = dir.path().join(format!("s{w}x{h}-{k}.svg"));
            ok_stdout(&smtgrid(&[
                "report",
                results.to_str().expect("utf-8"),
                "--plot",
                cactus.to_str().expect("utf-8"),
                "--plot-size",
                &format!("{w}x{h}"),
                "--scatter",
                pair,
                "--scatter-out",
                scatter.to_str().expect("utf-8"),
            ]));
            for file in [&cactus, &scatter] {
                let svg = std::fs::read_to_string(file).expect("the plot");
                let outside = texts_outside(&svg, f64::from(w), f64::from(h));
                assert!(outside.is_empty(), "{}: {outside:#?}", file.display());
            }
        }
    }
}
