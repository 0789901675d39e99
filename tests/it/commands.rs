//! One command line: every command that reads puzzles takes many and
//! creates its output folder; `-o` everywhere; one meaning per `--format`
//! value (`json` one document, `jsonl` a record per line); time limits
//! with units; "did you mean" for mistyped names; completions and a man
//! page from the same definitions.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common;
use common::{bin, names_in, require, smtgrid};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    stdout(o)
}

fn usage_error(o: &Output, says: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for s in says {
        assert!(err.contains(s), "`{s}` missing from: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

fn lines(o: &Output) -> Vec<Value> {
    ok(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

const TWO: [&str; 2] = ["puzzles/sudoku-4x4.toml", "puzzles/classic.toml"];

#[test]
fn every_command_that_reads_puzzles_takes_many_and_creates_its_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (command, ext) in [("emit", "smt2"), ("convert", "toml"), ("render", "svg")] {
        let out = dir.path().join(format!("new/{command}/"));
        let out = format!("{}/", out.display());
        let o = smtgrid(&[command, TWO[0], TWO[1], "-o", &out]);
        ok(&o);
        assert_eq!(
            names_in(Path::new(&out)),
            [format!("classic.{ext}"), format!("sudoku-4x4.{ext}")],
            "{command}"
        );
        // Many puzzles need a folder.
        let o = smtgrid(&[command, TWO[0], TWO[1]]);
        usage_error(&o, &["more than one puzzle", "-o DIR/"]);
    }
    let o = smtgrid(&["inspect", TWO[0], TWO[1], "--format", "jsonl"]);
    let names: Vec<Value> = lines(&o).iter().map(|r| r["puzzle"].clone()).collect();
    assert_eq!(names, ["sudoku-4x4", "classic"]);
}

#[test]
fn two_puzzles_never_share_one_output_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Different puzzle files whose names differ only in a character a
    // file name is not given: both would be `a_b.smt2`.
    for name in ["a b.toml", "a_b.toml"] {
        std::fs::copy(TWO[0], dir.path().join(name)).expect("copy");
    }
    let o = bin()
        .args(["emit", "a b.toml", "a_b.toml", "-o", "out/"])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    usage_error(&o, &["would both be written to", "a_b.smt2"]);
}

/// Defect 02 of the third adversarial pass: `easy/1.toml` and `hard/1.toml`
/// are two puzzles, in records, resume keys, disagreement checks and
/// output file names alike.
#[test]
fn puzzles_of_one_name_in_other_folders_stay_two_puzzles() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let at = |p: &str| dir.path().join(p);
    for (copy, from) in [
        ("easy/1.toml", TWO[0]),
        ("k1/x.toml", "puzzles/killer-4x4.toml"),
        ("k2/x.toml", "puzzles/calcudoku-4x4.toml"),
    ] {
        std::fs::create_dir_all(at(copy).parent().expect("a folder")).expect("mkdir");
        std::fs::copy(common::root().join(from), at(copy)).expect("copy");
    }
    std::fs::create_dir_all(at("hard")).expect("mkdir");
    // No value is left for r1c1: the same stem, another puzzle, unsat.
    std::fs::write(
        at("hard/1.toml"),
        "kind = \"sudoku\"\ngivens = \"\"\"\n. 1 2 .\n3 . . .\n4 . . .\n. . . .\n\"\"\"\n",
    )
    .expect("write");
    let run = |args: &[&str]| {
        bin()
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("runs")
    };
    let bench = |files: &[&str], solver: &str, out: &str, more: &[&str]| {
        let args = [
            &["bench"],
            files,
            &["--solver", solver, "--encoding", "onehot", "--out", out],
            more,
        ];
        ok(&run(&args.concat()))
    };
    let puzzles = |file: &str| -> Vec<String> {
        let text = std::fs::read_to_string(at(file)).expect("results");
        let mut p: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("a record")["puzzle"].to_string())
            .collect();
        p.sort();
        p
    };
    let both = ["\"easy/1.toml\"", "\"hard/1.toml\""];
    let pair = ["easy/1.toml", "hard/1.toml"];

    let summary = bench(&pair, "yices2", "a.jsonl", &[]);
    assert_eq!(puzzles("a.jsonl"), both, "{summary}");

    bench(&pair[..1], "yices2", "b.jsonl", &[]);
    bench(&pair, "yices2", "b.jsonl", &["--resume"]);
    assert_eq!(
        puzzles("b.jsonl"),
        both,
        "the resumed run makes hard/1's run"
    );

    bench(&pair[..1], "yices2,z3", "easy.jsonl", &[]);
    bench(&pair[1..], "yices2,z3", "hard.jsonl", &[]);
    let report = ok(&run(&["report", "easy.jsonl", "hard.jsonl"]));
    assert!(!report.contains("DISAGREE"), "{report}");

    ok(&run(&[
        "solve",
        "k1/x.toml",
        "k2/x.toml",
        "--solver",
        "yices2",
        "--svg",
        "svg/",
    ]));
    let title = |f: &str| std::fs::read_to_string(at(f)).expect("a picture");
    assert!(title("svg/k1/x.svg").contains("Killer 4x4"));
    assert!(title("svg/k2/x.svg").contains("Calcudoku 4x4"));
    ok(&run(&["emit", "k1/x.toml", "k2/x.toml", "-o", "smt2/"]));
    assert_eq!(names_in(&at("smt2")), ["k1", "k2"]);
    assert_eq!(names_in(&at("smt2/k1")), ["x.smt2"]);
}

/// Issue 35: outputs are named by the inputs' names when those are
/// distinct, never by a copy of an absolute path (`r3/tmp/…/killer-4x4.svg`).
#[test]
fn outputs_of_absolute_inputs_are_named_by_their_names() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("my")).expect("mkdir");
    std::fs::copy(TWO[0], dir.path().join("my/x.toml")).expect("copy");
    let killer = common::root().join("puzzles/killer-4x4.toml");
    let killer = killer.to_str().expect("a UTF-8 path");
    for (command, out) in [&["render"][..], &["explain", "--svg"]]
        .iter()
        .zip(["r3/", "ex/"])
    {
        let mut args = command.to_vec();
        if command[0] == "render" {
            args.extend(["my/x.toml", killer, "-o", out]);
        } else {
            args.extend([out, "my/x.toml", killer, "--solver", "z3"]);
        }
        let o = bin()
            .args(&args)
            .current_dir(dir.path())
            .output()
            .expect("runs");
        ok(&o);
        assert_eq!(
            names_in(&dir.path().join(out)),
            ["killer-4x4.svg", "x.svg"],
            "{args:?}"
        );
    }
}

/// Issue 35: `report --compare` prints the comparison first and alone
/// (the table with --details), and the spread warning goes to standard
/// error in every format.
#[test]
fn compare_comes_alone_and_the_spread_warning_goes_to_stderr() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut text = String::new();
    for (puzzle, solver, repeat, ms) in [
        ("p", "z3", 0, 100),
        ("p", "z3", 1, 900),
        ("q", "z3", 0, 120),
        ("q", "z3", 1, 130),
        ("p", "yices2", 0, 10),
        ("p", "yices2", 1, 11),
        ("q", "yices2", 0, 12),
        ("q", "yices2", 1, 12),
    ] {
        text.push_str(&format!(
            "{{\"puzzle\":\"{puzzle}.toml\",\"kind\":\"sudoku\",\"size\":\"4x4\",\
             \"solver\":\"{solver}\",\"solver_version\":\"1\",\"encoding\":\"onehot\",\
             \"mode\":\"process\",\"status\":\"sat\",\"verified\":true,\"time_ms\":{ms},\
             \"timeout_ms\":10000,\"repeat\":{repeat},\"machine\":{{\"cores\":2,\
             \"os\":\"linux x86_64\",\"smtgrid\":\"0.1.0\"}},\"error\":null}}\n"
        ));
    }
    let file = dir.path().join("r.jsonl");
    std::fs::write(&file, text).expect("write");
    let file = file.to_str().expect("utf-8");
    let pairs = "yices2/onehot,z3/onehot";
    for format in ["table", "markdown", "csv", "json"] {
        let o = smtgrid(&["report", file, "--format", format]);
        assert!(
            !stdout(&o).contains("vary a lot"),
            "{format}: {}",
            stdout(&o)
        );
        assert!(
            stderr(&o).contains("vary a lot"),
            "{format}: {}",
            stderr(&o)
        );
    }
    let o = smtgrid(&["report", file, "--compare", pairs]);
    let cmp = ok(&o);
    assert_eq!(cmp.lines().count(), 1, "{cmp}");
    assert!(cmp.starts_with("yices2/onehot is "), "{cmp}");
    assert!(stderr(&o).contains("vary a lot"), "{}", stderr(&o));
    let more = ok(&smtgrid(&["report", file, "--compare", pairs, "--details"]));
    assert!(more.starts_with(&cmp), "{more}");
    assert!(more.contains("virtual best"), "{more}");
    let doc = ok(&smtgrid(&[
        "report",
        file,
        "--compare",
        pairs,
        "--details",
        "--format",
        "json",
    ]));
    let doc: Value = serde_json::from_str(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
    assert!(
        doc["comparison"].is_object() && doc["details"].is_object(),
        "{doc}"
    );
}

/// Issue 35: every encoding side by side, without solving anything.
#[test]
fn emit_writes_every_encoding_into_a_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = format!("{}/", dir.path().join("e").display());
    ok(&smtgrid(&[
        "emit",
        TWO[0],
        TWO[1],
        "--encoding",
        "all",
        "-o",
        &out,
    ]));
    let mut want = Vec::new();
    for p in ["classic", "sudoku-4x4"] {
        for e in ["bv", "lia", "onehot"] {
            want.push(format!("{p}-{e}.smt2"));
        }
    }
    assert_eq!(names_in(Path::new(&out)), want);
    let o = smtgrid(&["emit", TWO[0], "--encoding", "all"]);
    usage_error(&o, &["-o DIR/"]);
}

#[test]
fn json_is_one_document_and_jsonl_a_record_per_line() {
    for command in [&["inspect", TWO[0], TWO[1]][..], &["solvers"][..]] {
        let doc = ok(&smtgrid(&[command, &["--format", "json"]].concat()));
        let doc: Value = serde_json::from_str(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
        let records = lines(&smtgrid(&[command, &["--format", "jsonl"]].concat()));
        assert_eq!(doc.as_array(), Some(&records), "{command:?}");
    }
}

#[test]
fn solve_takes_a_list_of_encodings_and_json_is_one_document() {
    require(&["z3"]);
    let args = [
        "solve",
        TWO[0],
        "--solver",
        "z3",
        "--encoding",
        "lia,onehot",
        "--format",
        "json",
    ];
    let doc = ok(&smtgrid(&args));
    let doc: Value = serde_json::from_str(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
    let runs = doc.as_array().expect("an array of runs");
    let encodings: Vec<&str> = runs.iter().filter_map(|r| r["encoding"].as_str()).collect();
    assert_eq!(encodings, ["lia", "onehot"]);
    assert!(runs.iter().all(|r| r["verified"] == true), "{doc}");

    let o = smtgrid(&["solve", TWO[0], "--encoding", "auto,lia"]);
    usage_error(&o, &["auto", "alone"]);
}

#[test]
fn time_limits_take_units() {
    require(&["z3"]);
    for t in ["5s", "90s", "2m", "1h", "1500ms", "30", "0.5m"] {
        let o = smtgrid(&[
            "solve",
            TWO[0],
            "--solver",
            "z3",
            "--timeout",
            t,
            "--format",
            "jsonl",
        ]);
        let runs = lines(&o);
        assert_eq!(runs[0]["status"], "sat", "{t}");
    }
    for t in ["5x", "s", "2 weeks", "-1s", "8d", "605000s", "0ms"] {
        let o = smtgrid(&["solve", TWO[0], &format!("--timeout={t}")]);
        usage_error(&o, &["--timeout"]);
    }
}

#[test]
fn scatter_out_needs_scatter() {
    let o = smtgrid(&[
        "report",
        "tests/fixtures/none.jsonl",
        "--scatter-out",
        "s.svg",
    ]);
    usage_error(&o, &["--scatter-out", "--scatter"]);
}

#[test]
fn bench_writes_with_o_and_still_takes_out() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    for flag in ["-o", "--output", "--out"] {
        let file = dir.path().join(format!("r{flag}/results.jsonl"));
        let o = smtgrid(&[
            "bench",
            TWO[0],
            "--solver",
            "z3",
            "--encoding",
            "lia",
            flag,
            file.to_str().expect("UTF-8"),
        ]);
        ok(&o);
        let text = std::fs::read_to_string(&file).expect("the results file");
        assert_eq!(text.lines().count(), 1, "{flag}: {text}");
    }
}

#[test]
fn mistyped_names_get_a_suggestion() {
    let cases: [(&[&str], &str); 4] = [
        (&["solve", TWO[0], "--solver", "yices"], "yices2"),
        (&["solve", TWO[0], "--encoding", "onehott"], "onehot"),
        (&["inspect", TWO[0], "--encoding", "onehto"], "onehot"),
        (&["new", "kilerr"], "killer"),
    ];
    for (args, suggestion) in cases {
        let o = smtgrid(args);
        usage_error(&o, &[suggestion]);
        assert!(stderr(&o).contains("did you mean") || stderr(&o).contains("similar"));
    }
}

#[test]
fn a_mistyped_key_in_a_puzzle_file_gets_a_suggestion() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("k.toml");
    let text = std::fs::read_to_string("puzzles/killer-9x9.toml")
        .expect("the killer example")
        .replacen("cages =", "default_clue = \"5+\"\ncages =", 1);
    std::fs::write(&file, text).expect("write");
    let o = smtgrid(&["inspect", file.to_str().expect("UTF-8")]);
    usage_error(
        &o,
        &["k.toml:", "`default_clue`", "did you mean `default-clue`?"],
    );
}

#[test]
fn completions_and_the_man_page_come_from_the_command_line() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef smtgrid"),
        ("fish", "complete -c smtgrid"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let text = ok(&smtgrid(&["completions", shell]));
        assert!(text.contains(marker), "{shell}: {text}");
        for word in ["solve", "bench", "encoding", "timeout", "onehot"] {
            assert!(text.contains(word), "{shell} completes {word}");
        }
    }
    // `--solver` completes to the solvers smtgrid knows, not to files.
    let bash = ok(&smtgrid(&["completions", "bash"]));
    let solver_cases: Vec<&str> = bash
        .split("--solver)")
        .skip(1)
        .map(|case| case.lines().nth(1).unwrap_or(""))
        .collect();
    assert!(!solver_cases.is_empty(), "{bash}");
    for case in solver_cases {
        assert!(case.contains("compgen -W \"z3 cvc5 yices2"), "{case}");
        assert!(case.contains(" all\""), "{case}");
    }
    // The user's own profiles are solvers too: `--profiles FILE` (or the
    // XDG file) is read before the script is written, so its names are
    // offered beside the built-in ones.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("profiles.toml");
    std::fs::write(
        &file,
        "[[solver]]\nname = \"myz3\"\nbinaries = [\"z3\"]\noneshot_args = [\"-in\"]\n",
    )
    .expect("write");
    let with_user = ok(&smtgrid(&[
        "--profiles",
        file.to_str().expect("UTF-8"),
        "completions",
        "bash",
    ]));
    assert!(with_user.contains("mathsat myz3 all\""), "{with_user}");
    let o = smtgrid(&["completions", "tcsh"]);
    usage_error(&o, &["tcsh"]);

    let page = ok(&smtgrid(&["man"]));
    assert!(
        page.starts_with(".ie") || page.contains(".TH smtgrid"),
        "{page}"
    );
    for word in ["solve", "bench", "render", "completions"] {
        assert!(page.contains(word), "the man page names {word}");
    }
    // Examples set line by line (no fill, no hyphenation), not as "EXTRA";
    // exit status and environment as the README documents them.
    assert!(!page.contains("EXTRA"), "{page}");
    for section in [
        ".SH EXAMPLES\n.nf\n.nh\n",
        ".SH \"EXIT STATUS\"",
        ".SH ENVIRONMENT",
        "SMTGRID_",
        "NO_COLOR",
        "CLICOLOR_FORCE",
        "XDG_CONFIG_HOME",
        "\\fBCLICOLOR\\fR",
    ] {
        assert!(page.contains(section), "{section}: {page}");
    }
    assert!(
        page.contains(
            "smtgrid solve puzzles/sudoku\\-4x4.toml puzzles/killer\\-4x4.toml \\-\\-solver all\n"
        ),
        "one example, one line: {page}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let out = format!("{}/", dir.path().join("man").display());
    ok(&smtgrid(&["man", "-o", &out]));
    let pages = names_in(Path::new(&out));
    for p in ["smtgrid.1", "smtgrid-solve.1", "smtgrid-bench.1"] {
        assert!(pages.iter().any(|n| n == p), "{p} missing from {pages:?}");
    }
    let solve = std::fs::read_to_string(Path::new(&out).join("smtgrid-solve.1")).expect("a page");
    assert!(
        solve.contains("z3@debian=/usr/bin/z3\n") && solve.contains(".SH \"EXIT STATUS\""),
        "{solve}"
    );
}
