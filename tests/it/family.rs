//! SMT-LIB benchmark families against real solvers: a small family (a
//! unique puzzle, one with two solutions, an unsat one, a killer) is
//! written with `--unique`; every file must pass the library's header and
//! layout rules and `cvc5 --parse-only --strict-parsing`, every `sat` must
//! rest on a verified model and every `unsat` on two solvers.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use smtgrid::family;
use smtgrid::smtlib::benchmark::check;

/// Two solutions: r1c1, r1c3, r2c1, r2c3 hold 1 3 / 3 1 or 3 1 / 1 3.
const TWO_SOLUTIONS: &str = "kind = \"sudoku\"\ngivens = \"\"\"\n. 2 | . 4\n. 4 | . 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n\"\"\"\n";

/// The rules over every file below `root`, and strict parsing over every
/// `stride`-th of them in path order (1: all); returns how many files
/// there are.
pub fn check_family(root: &Path, stride: usize) -> usize {
    let files = family::files(root).expect("the family is readable");
    assert!(!files.is_empty(), "no .smt2 files under {}", root.display());
    for (rel, path) in &files {
        let text = std::fs::read_to_string(path).expect("UTF-8 file");
        let broken = check(rel, &text);
        assert!(broken.is_empty(), "{rel}: {broken:?}\n{text}");
    }
    let parse = |(rel, path): &(String, PathBuf)| {
        let out = Command::new("cvc5")
            .args(["--parse-only", "--strict-parsing"])
            .arg(path)
            .output()
            .expect("cvc5 runs");
        assert!(
            out.status.success() && out.stdout.is_empty(),
            "cvc5 --parse-only --strict-parsing {rel}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Two at a time: cvc5's start-up, not the parsing, is most of the cost.
    let picked: Vec<&(String, PathBuf)> = files.iter().step_by(stride).collect();
    let (a, b) = picked.split_at(picked.len() / 2);
    std::thread::scope(|s| {
        s.spawn(|| a.iter().for_each(|f| parse(f)));
        b.iter().for_each(|f| parse(f));
    });
    files.len()
}

#[test]
fn a_unique_family_passes_the_library_rules_with_trusted_statuses() {
    common::require(&["z3", "cvc5", "yices2"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let two = dir.path().join("two.toml");
    std::fs::write(&two, TWO_SOLUTIONS).expect("write");
    let out = dir.path().join("out");
    let o = common::smtgrid(&[
        "emit",
        "puzzles/sudoku-4x4.toml",
        "puzzles/classic.toml",
        two.to_str().expect("UTF-8 path"),
        "tests/fixtures/unsat/sudoku-search.txt",
        "puzzles/killer-4x4.toml",
        "--benchmark",
        out.to_str().expect("UTF-8 path"),
        "--unique",
        "--submitter",
        "Test Person",
        "--solver",
        "z3,cvc5,yices2",
        "--timeout",
        "30",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Issue 33 section 5: propagation decides every cell of sudoku-4x4
    // and killer-4x4, so no solver has to search them: they are left out
    // and counted (they were files of `(check-sat)` alone). The other three
    // puzzles are written whole, in 3 encodings each, and the 2 sat ones
    // also incrementally.
    assert!(
        err.contains("2 puzzles left out: propagation alone decides them"),
        "{err}"
    );
    assert!(!err.contains("duplicates"), "{err}");
    let files = check_family(&out, 1);
    assert_eq!(files, 9 + 6, "{err}");
    assert!(err.contains(&format!("wrote {files} files")), "{err}");
    let jsonl = std::fs::read_to_string(out.join("STATUS.jsonl")).expect("STATUS.jsonl");
    let records: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(records.len(), files);
    let statuses = |name: &str, top: &str| -> Vec<String> {
        records
            .iter()
            .filter(|r| {
                r["file"]
                    .as_str()
                    .is_some_and(|f| f.starts_with(top) && f.contains(name))
            })
            .map(|r| r["statuses"].to_string())
            .collect()
    };
    let sat = r#"["sat"]"#;
    let unsat = r#"["unsat"]"#;
    assert_eq!(statuses("/classic-", "non-"), [sat; 3]);
    assert_eq!(statuses("/sudoku-search", "non-"), [unsat; 3]);
    // classic has more than one solution (its file says so).
    assert_eq!(
        statuses("/classic-", "incremental"),
        [r#"["sat","sat"]"#; 3]
    );
    assert_eq!(statuses("/two-", "incremental"), [r#"["sat","sat"]"#; 3]);
    for r in &records {
        assert_eq!(r["disagreements"].as_array().map(Vec::len), Some(0), "{r}");
        let runs = r["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), 3, "{r}");
        // Every sat rests on a verified model, every unsat on two solvers.
        match r["statuses"][0].as_str() {
            Some("sat") => assert!(runs.iter().any(|a| a["verified"] == true), "{r}"),
            Some("unsat") => assert!(runs.iter().filter(|a| a["answer"] == "unsat").count() >= 2),
            _ => {}
        }
    }
    // The layout, and the header's structured lines and free text.
    let one = out.join(format!(
        "non-incremental/QF_LIA/{}-gridpuzzles-Test_Person/sudoku/classic-lia.smt2",
        family::Date::today().compact()
    ));
    let text = std::fs::read_to_string(&one).unwrap_or_else(|e| panic!("{}: {e}", one.display()));
    for line in [
        "Generated by: Test Person\n",
        "Generator: smtgrid ",
        "Target solver: z3 ",
        "Time limit: 30.0\n",
        "Made with: smtgrid emit puzzles/classic.toml --benchmark ",
        "Solver times on this script",
        "(set-info :license \"https://creativecommons.org/licenses/by/4.0/\")\n(set-info :category \"crafted\")\n(set-info :status sat)\n",
    ] {
        assert!(text.contains(line), "{line:?} missing from\n{text}");
    }
    assert!(text.ends_with("(check-sat)\n(exit)\n"), "{text}");
    let readme = std::fs::read_to_string(out.join("README.md")).expect("README.md");
    assert!(readme.contains("| incremental | QF_UF | "), "{readme}");
    assert!(
        readme.contains("2 puzzles were left out: propagation of their givens alone decides them"),
        "{readme}"
    );
    // The whole puzzle: every cell declared, the givens asserted.
    assert!(text.contains("(declare-const x_1_1 Int)"), "{text}");
}

/// The family shipped in `benchmarks/`, as `scripts/make-family` made it.
const SHIPPED: &str = "benchmarks";

/// The words of `scripts/make-family`'s `smtgrid emit` command after
/// `emit` (its inputs and options), line continuations joined.
fn make_family_command() -> Vec<String> {
    let script = std::fs::read_to_string(common::root().join("scripts/make-family"))
        .expect("scripts/make-family");
    let joined = script.replace("\\\n", " ");
    let line = joined
        .lines()
        .find(|l| l.contains("\" emit "))
        .expect("scripts/make-family runs `$bin emit …`");
    line.split_whitespace()
        .skip_while(|w| *w != "emit")
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// `pattern` (a path whose file name may hold one `*`) expanded in the
/// repository, sorted like the shell's `LC_ALL=C` glob.
fn expand(pattern: &str) -> Vec<String> {
    let Some((dir, name)) = pattern.rsplit_once('/') else {
        return vec![pattern.to_string()];
    };
    let Some((pre, post)) = name.split_once('*') else {
        return vec![pattern.to_string()];
    };
    let mut out: Vec<String> = std::fs::read_dir(common::root().join(dir))
        .expect("the script's input folder exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with(pre) && f.ends_with(post) && f.len() >= pre.len() + post.len())
        .map(|f| format!("{dir}/{f}"))
        .collect();
    out.sort();
    out
}

#[test]
fn the_shipped_family_passes_the_library_rules_and_matches_its_script() {
    common::require(&["cvc5"]);
    let root = common::root().join(SHIPPED);
    // Every file's rules; strict parsing of every 8th (sorted paths), so
    // the test stays within seconds: cvc5 costs ~0.1 s a file.
    let count = check_family(&root, 8);
    let jsonl = std::fs::read_to_string(root.join("STATUS.jsonl")).expect("STATUS.jsonl");
    let records: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(records.len(), count, "one STATUS.jsonl record per file");

    // The script's command: its options and its inputs.
    let words = make_family_command();
    let at = words
        .iter()
        .position(|w| w.starts_with("--"))
        .expect("options");
    let inputs: Vec<String> = words[..at].iter().flat_map(|w| expand(w)).collect();
    // Each option with its value; --jobs changes no file.
    let mut options: Vec<String> = Vec::new();
    for w in &words[at..] {
        match options.last_mut() {
            Some(last) if !w.starts_with("--") => *last = format!("{last} {w}"),
            _ => options.push(w.clone()),
        }
    }
    options.retain(|o| !o.starts_with("--jobs"));
    for flag in ["--benchmark benchmarks", "--unique"] {
        assert!(
            options.iter().any(|o| o == flag),
            "{flag} missing: {options:?}"
        );
    }
    let set = format!(
        "{}-gridpuzzles",
        family::Date::from_unix(1_795_478_400).compact()
    );

    // The files the script's inputs give: each puzzle in each encoding, in
    // the logic its encoding needs, written whole (every cell declared, no
    // propagation: the form `emit --benchmark` writes unless told
    // `--propagate`); an incremental one when it is sat. A puzzle that
    // propagation alone decides is no benchmark and has no files; an
    // encoding whose assertions repeat an earlier puzzle's has none either.
    assert!(
        !options.iter().any(|o| o == "--propagate"),
        "the shipped family is the whole-puzzle form: {options:?}"
    );
    let whole = smtgrid::encode::Options { plain: true };
    let mut expected = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut decided = Vec::new();
    for input in &inputs {
        let puzzles = smtgrid::parse::load(&common::root().join(input), None)
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        for p in puzzles {
            let model = smtgrid::lower::lower(&p);
            if family::decided_by_propagation(&model) {
                decided.push(p.name.clone());
                continue;
            }
            for e in smtgrid::encode::Encoding::ALL {
                let enc = smtgrid::encode::encode(&model, e, &whole);
                let required = seen.insert((e, enc.assertions_text().to_string()));
                let name = format!(
                    "{set}/{}/{}-{e}.smt2",
                    p.kind.name(),
                    smtgrid::output::file_stem(&p.name)
                );
                expected.push((format!("{}/{name}", enc.logic), input.clone(), required));
            }
        }
    }
    let mut by_file: std::collections::HashMap<&str, &serde_json::Value> = records
        .iter()
        .map(|r| (r["file"].as_str().expect("file"), r))
        .collect();
    for (name, input, required) in &expected {
        let file = format!("non-incremental/{name}");
        if !required {
            assert!(
                !by_file.contains_key(file.as_str()),
                "{file} (from {input}) repeats an earlier puzzle's assertions: run scripts/make-family"
            );
            continue;
        }
        let Some(r) = by_file.remove(file.as_str()) else {
            panic!("{file} (from {input}) is missing: run scripts/make-family");
        };
        let verified = r["runs"]
            .as_array()
            .expect("runs")
            .iter()
            .any(|a| a["verified"] == true);
        let inc = format!("incremental/{name}");
        assert_eq!(by_file.remove(inc.as_str()).is_some(), verified, "{inc}");
        for f in [file, inc].iter().filter(|f| root.join(f).exists()) {
            let text = std::fs::read_to_string(root.join(f)).expect("UTF-8");
            let made_with = text
                .lines()
                .find_map(|l| l.strip_prefix("Made with: "))
                .unwrap_or_else(|| panic!("{f}: no Made with line"));
            assert!(
                made_with.starts_with(&format!("smtgrid emit {input} ")),
                "{f}: {made_with}"
            );
            for o in &options {
                assert!(
                    made_with.contains(&format!(" {o}")),
                    "{f}: {o} missing from {made_with}"
                );
            }
        }
    }
    assert!(
        by_file.is_empty(),
        "files the script's inputs do not give: {:?}",
        by_file.keys()
    );
    // The puzzles left out are counted where a reader of the family looks.
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    if !decided.is_empty() {
        assert!(
            readme.contains(&format!(
                "{} puzzles were left out: propagation of their givens alone decides them",
                decided.len()
            )),
            "{readme}"
        );
    }

    // Each file's statuses are STATUS.jsonl's, and each rests on the
    // answers recorded: sat on a verified model, unsat on two solvers.
    for r in &records {
        let file = r["file"].as_str().expect("file");
        let text = std::fs::read_to_string(root.join(file)).expect("UTF-8");
        let in_file: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("(set-info :status "))
            .map(|s| s.trim_end_matches(')'))
            .collect();
        let recorded: Vec<&str> = r["statuses"]
            .as_array()
            .expect("statuses")
            .iter()
            .map(|s| s.as_str().expect("status"))
            .collect();
        assert_eq!(in_file, recorded, "{file}");
        let runs = r["runs"].as_array().expect("runs");
        let solvers = |key: &str, answer: &str| {
            let mut who: Vec<&str> = runs
                .iter()
                .filter(|a| a[key] == answer)
                .map(|a| a["solver"].as_str().expect("solver"))
                .collect();
            who.dedup();
            who.len()
        };
        match recorded[0] {
            "sat" => assert!(runs.iter().any(|a| a["verified"] == true), "{r}"),
            "unsat" => assert!(solvers("answer", "unsat") >= 2 && solvers("answer", "sat") == 0),
            _ => {}
        }
        if recorded.get(1) == Some(&"unsat") {
            assert!(solvers("second", "unsat") >= 2, "{r}");
        }
    }
}

/// top95's second puzzle: unique, and propagation alone does not solve it.
const NEEDS_SEARCH_UNIQUE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// top95's first puzzle with r1c4 given as 1: no solution, and
/// propagation alone does not find why (tests/fixtures/unsat/sudoku-search.txt).
const NEEDS_SEARCH_UNSAT: &str =
    "4..1..8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A 9×9 sudoku file with these givens (one line of 81, `.` blank).
fn sudoku_toml(line: &str) -> String {
    let rows: Vec<&str> = (0..9).map(|r| &line[9 * r..9 * r + 9]).collect();
    format!(
        "kind = \"sudoku\"\ngivens = \"\"\"\n{}\n\"\"\"\n",
        rows.join("\n")
    )
}

#[test]
fn two_puzzles_of_one_name_keep_one_name_each_across_both_trees() {
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    // 9×9s that need a search (issue 33 section 5 leaves out puzzles
    // propagation decides, as it would every 4×4 here).
    for (folder, givens) in [
        // No solution: no incremental file.
        ("a", NEEDS_SEARCH_UNSAT),
        // One solution.
        ("b", NEEDS_SEARCH_UNIQUE),
    ] {
        std::fs::create_dir(dir.path().join(folder)).expect("mkdir");
        let text = sudoku_toml(givens);
        std::fs::write(dir.path().join(folder).join("x.toml"), text).expect("write");
    }
    let o = common::bin()
        .current_dir(dir.path())
        .args(["emit", "a/x.toml", "b/x.toml", "--benchmark", "fam"])
        .args(["--solver", "z3", "--encoding", "lia", "--unique"])
        .output()
        .expect("smtgrid runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let status = std::fs::read_to_string(dir.path().join("fam/STATUS.jsonl")).expect("read");
    let records: Vec<serde_json::Value> = status
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let named = |top: &str| -> Vec<(String, String)> {
        records
            .iter()
            .filter(|r| r["file"].as_str().is_some_and(|f| f.starts_with(top)))
            .map(|r| {
                let file = r["file"].as_str().unwrap_or_default();
                let name = file.rsplit('/').next().unwrap_or_default().to_string();
                (name, r["puzzle"].as_str().unwrap_or_default().to_string())
            })
            .collect()
    };
    assert_eq!(
        named("non-incremental/"),
        [
            ("x-lia.smt2".to_string(), "a/x.toml".to_string()),
            ("x_2-lia.smt2".to_string(), "b/x.toml".to_string())
        ]
    );
    assert_eq!(
        named("incremental/"),
        [("x_2-lia.smt2".to_string(), "b/x.toml".to_string())]
    );
}

#[test]
fn a_family_is_replaced_whole_and_a_foreign_folder_is_refused() {
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, givens) in [("a", NEEDS_SEARCH_UNSAT), ("b", NEEDS_SEARCH_UNIQUE)] {
        let text = sudoku_toml(givens);
        std::fs::write(dir.path().join(format!("{name}.toml")), text).expect("write");
    }
    let emit = |args: &[&str], into: &str| {
        common::bin()
            .current_dir(dir.path())
            .args(["emit"])
            .args(args)
            .args(["--benchmark", into, "--solver", "z3", "--encoding", "lia"])
            .output()
            .expect("smtgrid runs")
    };
    let o = emit(&["a.toml", "b.toml"], "fam");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        family::files(&dir.path().join("fam")).expect("read").len(),
        2
    );
    // A second run replaces the family: no file of the first stays.
    let o = emit(&["b.toml"], "fam");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let files = family::files(&dir.path().join("fam")).expect("read");
    let status = std::fs::read_to_string(dir.path().join("fam/STATUS.jsonl")).expect("read");
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(status.lines().count(), 1, "{status}");
    assert!(files[0].0.ends_with("/b-lia.smt2"), "{files:?}");
    // Nothing hidden is left beside it.
    assert_eq!(common::names_in(dir.path()), ["a.toml", "b.toml", "fam"]);
    // A folder with a README.md smtgrid did not write is refused, untouched.
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).expect("mkdir");
    std::fs::write(mine.join("README.md"), "# my notes\n").expect("write");
    let o = emit(&["a.toml"], "mine");
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(common::names_in(&mine), ["README.md"]);
    assert_eq!(
        std::fs::read_to_string(mine.join("README.md")).expect("read"),
        "# my notes\n"
    );
    // So is a folder of puzzles.
    let o = emit(&["a.toml"], ".");
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The closing lines of `emit --benchmark` count files and check-sat
/// statuses apart (an incremental file holds two statuses), and a single
/// puzzle left out is "1 puzzle".
#[test]
fn the_closing_lines_count_files_and_statuses_apart() {
    common::require(&["z3", "yices2"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("fam");
    let fam = out.to_str().expect("UTF-8 path");
    // Propagation alone decides sudoku-4x4: it is left out.
    let (jigsaw, easy) = ("puzzles/jigsaw-9x9.toml", "puzzles/sudoku-4x4.toml");
    let solvers = "--solver=z3,yices2";
    let o = common::smtgrid(&[
        "emit",
        jigsaw,
        easy,
        "--unique",
        "--benchmark",
        fam,
        solvers,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // Three encodings, each written whole and incrementally: six files,
    // nine statuses (one each, and a second in each incremental file).
    assert!(
        err.contains("wrote 6 files to ")
            && err.contains(" (9 check-sat statuses: 6 sat, 3 unsat, 0 unknown); "),
        "{err}"
    );
    assert!(
        err.contains("smtgrid: 1 puzzle left out: propagation alone decides it, "),
        "{err}"
    );
    let readme = std::fs::read_to_string(out.join("README.md")).expect("README.md");
    assert!(
        readme.contains("1 puzzle was left out: propagation of its givens alone decides it "),
        "{readme}"
    );
}
