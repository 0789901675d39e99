//! `explain` against a real solver (z3), its claims checked here by
//! brute-force enumeration of small puzzles: a broken statement of every
//! kind is in a conflict that really has no solution and loses it without
//! any one statement; candidates are exactly each cell's values over all
//! solutions; the suggested given makes the puzzle unique; each redundant
//! given can go with the puzzle still unique.

use crate::common;

use std::time::Duration;

use common::{root, solver};
use smtgrid::explain::{Options, Search, Verdict, explain};
use smtgrid::lower::lower_with_statements;
use smtgrid::model::{Model, Rule, Statement, What};
use smtgrid::parse::load;
use smtgrid::puzzle::{Clue, Puzzle};
use smtgrid::solver::Cancel;

fn puzzle(file: &str) -> Puzzle {
    let mut ps = load(&root().join("puzzles").join(file), None).expect("the puzzle loads");
    ps.remove(0)
}

fn opts() -> Options {
    Options {
        count: 2,
        time_limit: Duration::from_secs(120),
        recorded: None,
    }
}

/// Every solution of `model` restricted to the constraints `keep` (all
/// when `None`), up to `limit`: plain backtracking, all-different checked
/// as each cell gets a value and every rule once its last cell has one.
/// Cells no kept constraint mentions stay at their lowest value, so
/// solutions are counted over the others.
fn solutions(model: &Model, keep: Option<&[usize]>, limit: usize) -> Vec<Vec<i64>> {
    let kept: Vec<&Rule> = match keep {
        Some(k) => k.iter().map(|&i| &model.constraints[i].rule).collect(),
        None => model.constraints.iter().map(|c| &c.rule).collect(),
    };
    let n = model.cells.len();
    let mut s = Enumeration {
        model,
        used: vec![false; n],
        due: vec![Vec::new(); n],
        apart: vec![Vec::new(); n],
        values: model.cells.iter().map(|c| c.lo).collect(),
        found: Vec::new(),
        limit,
    };
    for r in &kept {
        for &c in r.cells() {
            s.used[c] = true;
        }
        if let Some(&last) = r.cells().iter().max() {
            s.due[last].push(*r);
        }
        if let Rule::AllDifferent { cells } = r {
            for &a in cells {
                s.apart[a].extend(cells.iter().copied().filter(|&b| b < a));
            }
        }
    }
    s.go(0);
    s.found
}

struct Enumeration<'a> {
    model: &'a Model,
    used: Vec<bool>,
    /// Per cell, the rules whose last cell it is.
    due: Vec<Vec<&'a Rule>>,
    /// Per cell, the earlier cells it must differ from.
    apart: Vec<Vec<usize>>,
    values: Vec<i64>,
    found: Vec<Vec<i64>>,
    limit: usize,
}

impl Enumeration<'_> {
    fn go(&mut self, i: usize) {
        if self.found.len() >= self.limit {
            return;
        }
        if i == self.values.len() {
            self.found.push(self.values.clone());
            return;
        }
        let c = &self.model.cells[i];
        let hi = if self.used[i] { c.hi } else { c.lo };
        for v in c.lo..=hi {
            if self.apart[i].iter().any(|&b| self.values[b] == v) {
                continue;
            }
            self.values[i] = v;
            let ok = self.due[i].iter().all(|r| {
                let vals: Vec<i64> = r.cells().iter().map(|&x| self.values[x]).collect();
                r.holds(&vals)
            });
            if ok {
                self.go(i + 1);
            }
        }
        self.values[i] = c.lo;
    }
}

fn constraints_of(statements: &[Statement], on: &[usize]) -> Vec<usize> {
    on.iter()
        .flat_map(|&k| statements[k].constraints.iter().copied())
        .collect()
}

/// Explains a puzzle broken on purpose; the conflict must name the
/// broken statement, have no solution, and have one without any single
/// statement.
fn broken(p: &Puzzle, broken_name: &str) {
    let (model, statements) = lower_with_statements(p);
    let ex = explain(&model, &statements, &solver("z3"), &opts(), &Cancel::new());
    assert_eq!(ex.verdict, Verdict::None, "{}: {ex:?}", p.name);
    assert!(ex.minimal, "{}: not shown minimal: {ex:?}", p.name);
    let names: Vec<&str> = ex
        .conflict
        .iter()
        .map(|&k| statements[k].name.as_str())
        .collect();
    assert!(
        names.contains(&broken_name),
        "{}: the conflict {names:?} lacks {broken_name}",
        p.name
    );
    assert!(
        names.len() < statements.len(),
        "{}: the whole puzzle is no explanation",
        p.name
    );
    let all = constraints_of(&statements, &ex.conflict);
    assert!(
        solutions(&model, Some(&all), 1).is_empty(),
        "{}: the conflict {names:?} has a solution",
        p.name
    );
    for &k in &ex.conflict {
        let rest: Vec<usize> = ex.conflict.iter().copied().filter(|&x| x != k).collect();
        let rest = constraints_of(&statements, &rest);
        assert_eq!(
            solutions(&model, Some(&rest), 1).len(),
            1,
            "{}: without {} the conflict still has no solution",
            p.name,
            statements[k].name
        );
    }
}

fn set_clue(p: &mut Puzzle, label: &str, clue: Clue, text: &str) {
    let cage = p
        .get_mut::<smtgrid::elements::cages::Cages>()
        .expect("cages")
        .cages
        .iter_mut()
        .find(|c| c.label == label)
        .expect("the cage exists");
    cage.clue = clue;
    cage.clue_text = text.to_string();
}

#[test]
fn a_broken_given_is_in_a_minimal_conflict() {
    let mut p = puzzle("sudoku-4x4.toml");
    // r1c1 = 4 in the solution; 2 clashes with r2c2 = 2 in box 1.
    p.givens[0][0] = Some(2);
    broken(&p, "given r1c1 = 2");
    let mut p = puzzle("jigsaw-6x6.toml");
    p.givens[0][3] = Some(5);
    broken(&p, "given r1c4 = 5");
}

#[test]
fn a_broken_cage_is_in_a_minimal_conflict() {
    let mut p = puzzle("killer-4x4.toml");
    set_clue(&mut p, "a", Clue::Sum(8), "8");
    broken(&p, "cage a: 8, 2 cells");
    let mut p = puzzle("calcudoku-4x4.toml");
    set_clue(&mut p, "b", Clue::Product(6), "6*");
    broken(&p, "cage b: 6*, 2 cells");
}

#[test]
fn a_broken_run_sign_or_edge_clue_is_in_a_minimal_conflict() {
    let mut p = puzzle("kakuro-small.toml");
    let layout = &mut p
        .get_mut::<smtgrid::elements::kakuro::Kakuro>()
        .expect("a kakuro layout")
        .0;
    // The across run of row 2 sums to 6 over three cells: 5 is too small.
    layout[1][0] = smtgrid::puzzle::KakuroCell::Clue {
        down: None,
        across: Some(5),
    };
    broken(&p, "across run at r2c1: 5, 3 cells");
    // Futoshiki: turning any one sign round of the shipped puzzles still
    // leaves a solution, so a sign is added that cannot hold: r2c1 is
    // given as 5, the largest value, and the new sign says it is smaller
    // than r2c2.
    let mut p = puzzle("futoshiki-5x5.toml");
    p.givens[1][0] = Some(5);
    p.get_mut::<smtgrid::elements::signs::Signs>()
        .expect("signs")
        .0
        .push(smtgrid::puzzle::Inequality {
            less: (1, 0),
            greater: (1, 1),
        });
    broken(&p, "r2c1 < r2c2");
    let mut p = puzzle("skyscrapers-4x4.toml");
    p.get_mut::<smtgrid::puzzle::EdgeClues>()
        .expect("edge clues")
        .top[0] = Some(2);
    broken(&p, "top clue 2 of column 1");
}

/// A puzzle with several solutions: candidates equal the values over all
/// solutions (enumerated here), the suggestion makes it unique.
fn several(p: &Puzzle) {
    let (model, statements) = lower_with_statements(p);
    let all = solutions(&model, None, 100_000);
    assert!(all.len() > 1, "{}: {} solutions", p.name, all.len());
    let ex = explain(&model, &statements, &solver("z3"), &opts(), &Cancel::new());
    assert_eq!(ex.verdict, Verdict::Multiple, "{}: {ex:?}", p.name);
    assert!(ex.stopped.is_none(), "{ex:?}");
    for s in &ex.solutions {
        assert!(all.contains(s));
    }
    let d: Vec<usize> = (0..model.cells.len())
        .filter(|&c| ex.solutions[0][c] != ex.solutions[1][c])
        .collect();
    assert_eq!(ex.differs, d);
    let cands = ex.candidates.clone().expect("candidates");
    for (c, list) in cands.iter().enumerate() {
        let mut want: Vec<i64> = all.iter().map(|s| s[c]).collect();
        want.sort_unstable();
        want.dedup();
        assert_eq!(list, &want, "{}: candidates of cell {c}", p.name);
    }
    assert!(!ex.suggest.is_empty());
    let left = all
        .iter()
        .filter(|s| ex.suggest.iter().all(|&(c, v)| s[c] == v))
        .count();
    assert_eq!(
        left, 1,
        "{}: {:?} leaves {left} solutions",
        p.name, ex.suggest
    );
    if ex.search == Some(Search::Single) {
        assert_eq!(ex.suggest.len(), 1);
    } else {
        // Greedy only when no single given would do.
        for c in 0..model.cells.len() {
            for &v in &cands[c] {
                let n = all.iter().filter(|s| s[c] == v).count();
                assert!(n > 1, "{}: r{c} = {v} alone makes it unique", p.name);
            }
        }
    }
}

#[test]
fn candidates_and_a_suggestion_match_enumeration() {
    several(&puzzle("kakuro-small.toml"));
    let mut p = puzzle("sudoku-4x4.toml");
    p.givens[0][0] = None;
    p.givens[3][3] = None;
    p.givens[1][1] = None;
    several(&p);
    let two = root().join("docs/examples/calcudoku-two.toml");
    several(&load(&two, None).expect("the example loads")[0]);
}

#[test]
fn an_empty_grid_needs_a_greedy_set() {
    // A blank 4x4 sudoku: no single given makes it unique.
    let mut p = Puzzle::blank("blank", smtgrid::puzzle::Kind::Sudoku, 4);
    p.set(smtgrid::elements::boxes::Boxes { rows: 2, cols: 2 });
    several(&p);
}

#[test]
fn redundant_givens_can_each_go() {
    for file in ["sudoku-4x4.toml", "jigsaw-6x6.toml", "futoshiki-4x4.toml"] {
        let p = puzzle(file);
        let (model, statements) = lower_with_statements(&p);
        let ex = explain(&model, &statements, &solver("z3"), &opts(), &Cancel::new());
        assert_eq!(ex.verdict, Verdict::Unique, "{file}");
        assert!(ex.redundant_complete);
        for (k, st) in statements.iter().enumerate() {
            if st.what != What::Given {
                continue;
            }
            let rest: Vec<usize> = (0..statements.len()).filter(|&x| x != k).collect();
            let n = solutions(&model, Some(&constraints_of(&statements, &rest)), 2).len();
            assert_eq!(
                ex.redundant_givens.contains(&k),
                n == 1,
                "{file}: {} leaves {n} solutions",
                st.name
            );
        }
    }
}

#[test]
fn nine_by_nine_puzzles_take_far_fewer_questions_than_cells_times_values() {
    let p = puzzle("jigsaw-9x9.toml");
    let (model, statements) = lower_with_statements(&p);
    let ex = explain(&model, &statements, &solver("z3"), &opts(), &Cancel::new());
    assert_eq!(ex.verdict, Verdict::Unique);
    assert!(ex.redundant_complete && ex.stopped.is_none(), "{ex:?}");
    let givens = statements.iter().filter(|s| s.what == What::Given).count();
    // One question for the solution, one for its uniqueness, one per given.
    assert_eq!(ex.questions, 2 + givens);
    // Without its first six givens it has several solutions.
    let mut p = p;
    let mut gone = 0;
    for cell in p.givens.iter_mut().flatten() {
        if gone < 6 && cell.take().is_some() {
            gone += 1;
        }
    }
    let (model, statements) = lower_with_statements(&p);
    let ex = explain(&model, &statements, &solver("z3"), &opts(), &Cancel::new());
    assert_eq!(ex.verdict, Verdict::Multiple, "{ex:?}");
    assert!(ex.stopped.is_none() && !ex.suggest.is_empty(), "{ex:?}");
    assert!(ex.questions < 200, "{} questions", ex.questions);
}

#[test]
fn counting_stopped_by_the_limit_keeps_the_solutions_in_hand() {
    let text = format!(
        "kind = \"sudoku\"\ngivens = \"\"\"\n{}\"\"\"\n",
        ". . . . . . . . .\n".repeat(9)
    );
    let p = smtgrid::parse::parse_str(&text, &smtgrid::Location::file("empty9.toml"), None)
        .expect("an empty 9x9")
        .remove(0);
    let (model, statements) = lower_with_statements(&p);
    let opts = Options {
        count: 10_000,
        time_limit: Duration::from_secs(2),
        recorded: None,
    };
    let ex = explain(&model, &statements, &solver("z3"), &opts, &Cancel::new());
    assert!(
        ex.solutions.len() >= 2 && ex.solutions.len() < 10_000,
        "{}",
        ex.solutions.len()
    );
    assert_eq!(ex.verdict, Verdict::Multiple, "{:?}", ex.stopped);
    assert!(ex.count_stopped && !ex.count_complete && !ex.candidates_complete);
    assert!(!ex.differs.is_empty());
    let cands = ex.candidates.clone().expect("the candidates found");
    for s in &ex.solutions {
        assert!(s.iter().zip(&cands).all(|(v, list)| list.contains(v)));
    }
    let report = smtgrid::explain::Report::new(&model, &statements, "z3", &ex);
    let shown = smtgrid::explain::render_text(&report);
    assert!(
        shown.contains(&format!(
            "more than one solution (at least {} found, count stopped at the limit)",
            ex.solutions.len()
        )),
        "{shown}"
    );
}

#[test]
fn an_empty_or_refuted_conflict_is_a_solver_fault() {
    common::require(&["z3"]);
    let fake = |name: &str| {
        format!(
            "z3={}",
            root().join("tests/fake_solvers").join(name).display()
        )
    };
    // A session that answers unsat to everything and blames nothing.
    let liar = fake("session_unsat.py");
    // z3 but for its first answer, a false unsat.
    let lies_once = fake("lies_once.py");
    // calcudoku-4x4.toml records its solution; killer-broken.toml has none;
    // propagation completes the third; calcudoku-two.toml has two
    // solutions, one of which the next question shows.
    let dir = tempfile::tempdir().expect("temp dir");
    let decided = dir.path().join("decided.toml");
    std::fs::write(&decided, common::DECIDED_4X4).expect("the puzzle is written");
    for (file, solver, says) in [
        ("puzzles/calcudoku-4x4.toml", &liar, "records a solution"),
        (
            "docs/examples/killer-broken.toml",
            &liar,
            "empty unsat core",
        ),
        (
            decided.to_str().unwrap(),
            &liar,
            "propagation alone decides",
        ),
        (
            "docs/examples/calcudoku-two.toml",
            &lies_once,
            "answered unsat, then gave a solution",
        ),
    ] {
        let out = common::smtgrid(&["explain", file, "--solver", solver, "--timeout", "20s"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("minimal"), "{file}: {text}");
        assert!(!text.contains("no solution"), "{file}: {text}");
        assert!(
            text.contains(": unknown") && text.contains(says),
            "{file}: {text}"
        );
        assert_eq!(out.status.code(), Some(1), "{file}: {text}");
    }
}

#[test]
fn the_command_line_reports_json_text_and_pictures() {
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let svg_dir = dir.path().to_str().expect("a UTF-8 path");
    let out = common::smtgrid(&[
        "explain",
        "docs/examples/killer-broken.toml",
        "docs/examples/calcudoku-two.toml",
        "--solver",
        "z3",
        "--format",
        "jsonl",
        "--svg",
        svg_dir,
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let reports: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let [killer, calcudoku] = &reports[..] else {
        panic!("two reports: {text}");
    };
    assert_eq!(killer["verdict"], "none");
    assert_eq!(killer["minimal"], true);
    let cage = killer["conflict"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|s| s["what"] == "cage")
        .expect("the cage is in the conflict");
    assert_eq!(cage["label"], "c");
    assert_eq!(cage["clue"], "7");
    assert_eq!(cage["cells"], serde_json::json!([[1, 5], [2, 5]]));
    assert_eq!(calcudoku["verdict"], "multiple");
    assert_eq!(calcudoku["candidates"][0][0], serde_json::json!([1, 4]));
    let picture = std::fs::read_to_string(dir.path().join("killer-broken.svg"))
        .expect("the killer's picture");
    assert!(picture.contains(r#"class="shaded""#));
    clue_boxes_take_the_shading(&picture);
    let picture = std::fs::read_to_string(dir.path().join("calcudoku-two.svg"))
        .expect("the calcudoku's picture");
    assert!(picture.contains(r#"class="pencil""#) && picture.contains(r#"class="ringed""#));
    // `solve` says why in one line and points to `explain`.
    let out = common::smtgrid(&[
        "solve",
        "docs/examples/killer-broken.toml",
        "--solver",
        "z3",
        "--encoding",
        "onehot",
        "--format",
        "jsonl",
    ]);
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON record");
    assert_eq!(run["status"], "unsat");
    let error = run["error"].as_str().expect("an error line");
    assert!(error.contains("smtgrid explain"), "{error}");
}

#[test]
fn solve_names_the_solvers_core_when_propagation_has_no_reason() {
    // A wrong given that singles do not refute: without it the puzzle has
    // a solution, so every unsat core holds it.
    let file = "tests/fixtures/unsat/sudoku-search.txt";
    for (format, mode) in [("jsonl", "process"), ("text", "incremental")] {
        let out = common::smtgrid(&[
            "solve",
            file,
            "--solver",
            "z3",
            "--encoding",
            "onehot",
            "--format",
            format,
            "--mode",
            mode,
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        let said = match format {
            "jsonl" => {
                let r: serde_json::Value = serde_json::from_str(&text).expect("a record");
                assert_eq!(r["status"], "unsat", "{r}");
                r["error"].as_str().expect("error").to_string()
            }
            _ => text.to_string(),
        };
        assert!(
            said.contains("the solver's unsat core, not minimised")
                && said.contains("given r1c4 = 1")
                && said.contains("`smtgrid explain` names a minimal set"),
            "{mode}: {said}"
        );
        assert_eq!(out.status.code(), Some(0), "{mode}");
    }
}

/// Regression (issue 33 #10): explain's text report printed the puzzle's
/// name raw (a file named `x ESC[2J y` cleared the screen), and the text of
/// a solver's `(error …)` reply reached the terminal raw from `solve`, as a
/// process and in a session, and from `explain`.
#[test]
fn no_text_from_a_file_or_a_solver_reaches_the_terminal_raw() {
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let named = dir.path().join("x\u{1b}[2Jy.toml");
    std::fs::write(
        &named,
        "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n3 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n",
    )
    .expect("write");
    let named = named.to_str().expect("a UTF-8 path");
    let liar = format!(
        "z3={}",
        root()
            .join("tests/fake_solvers/error_controls.py")
            .display()
    );
    let runs: [&[&str]; 5] = [
        &["explain", named, "--solver", "z3"],
        &["solve", named, "--solver", "z3"],
        &[
            "solve",
            "puzzles/sudoku-4x4.toml",
            "--solver",
            &liar,
            "--mode",
            "process",
        ],
        &[
            "solve",
            "puzzles/sudoku-4x4.toml",
            "--solver",
            &liar,
            "--mode",
            "incremental",
        ],
        &["explain", "puzzles/sudoku-4x4.toml", "--solver", &liar],
    ];
    for args in runs {
        let out = common::smtgrid(args);
        let all = [out.stdout.as_slice(), out.stderr.as_slice()].concat();
        let text = String::from_utf8_lossy(&all);
        assert!(
            !all.contains(&0x1b) && !all.contains(&0x07),
            "{args:?}: {text:?}"
        );
        assert!(
            text.contains("x\\u{1b}[2Jy") || text.contains("\\u{1b}]0;PWNED\\u{7}bad"),
            "{args:?}: {text}"
        );
    }
}

/// Regression (issue 33 #03): explain built its whole script before its
/// time limit counted: an empty 64×64 with `--timeout 1s` took a minute
/// and 4.5 GB. Building counts against the limit now.
#[test]
fn building_the_script_counts_against_the_time_limit() {
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = common::smtgrid(&["new", "sudoku", "--size", "64"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let file = dir.path().join("s64.toml");
    std::fs::write(&file, &out.stdout).expect("write");
    let start = std::time::Instant::now();
    let out = common::smtgrid(&[
        "explain",
        file.to_str().expect("a UTF-8 path"),
        "--solver",
        "z3",
        "--timeout",
        "1s",
    ]);
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("stopped early: the time limit passed"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// A puzzle whose time limit passes before its first question (here a
/// "z3" that never answers the statements) has its record like one
/// stopped later: verdict `unknown`, the reason in `stopped`, no
/// question; and the puzzles after it are still explained. It used to
/// get only a line on stderr, missing from the JSON. `solve --all`
/// likewise.
#[test]
fn a_puzzle_stopped_before_its_first_question_has_its_record() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let z3 = format!(
        "z3={}",
        root().join("tests/fake_solvers/pid_then_hang.sh").display()
    );
    for command in [&["explain"][..], &["solve", "--all"]] {
        let args = [
            command,
            &[
                "puzzles/sudoku-4x4.toml",
                "docs/examples/calcudoku-two.toml",
                "--solver",
                &z3,
                "--timeout",
                "1s",
                "--format",
                "json",
            ],
        ]
        .concat();
        let out = common::bin()
            .args(&args)
            .current_dir(root())
            .env("SMTGRID_TEST_PIDS", dir.path().join("pids"))
            .output()
            .expect("the smtgrid binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {err}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON document");
        let records = doc.as_array().expect("an array");
        assert_eq!(records.len(), 2, "{command:?}: {doc}");
        for r in records {
            assert_eq!(r["stopped"], "the time limit passed", "{command:?}: {r}");
            match command {
                ["explain"] => {
                    assert_eq!(r["verdict"], "unknown", "{r}");
                    assert_eq!(r["questions"], 0, "{r}");
                }
                _ => assert_eq!(r["solutions"], serde_json::json!([]), "{r}"),
            }
        }
    }
}

/// Issue 35: the text says what holds for a puzzle with no givens,
/// counts in words that agree, and draws kakuro's clue squares.
#[test]
fn the_text_reads_right_on_puzzles_without_givens_and_on_kakuro() {
    common::require(&["z3"]);
    let text = |file: &str| {
        let out = common::smtgrid(&["explain", file, "--solver", "z3"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let killer = text("puzzles/killer-4x4.toml");
    assert!(!killer.contains("no given is redundant"), "{killer}");
    assert!(killer.contains("it has no givens"), "{killer}");
    let kakuro = text("puzzles/kakuro-small.toml");
    let grid: Vec<&str> = kakuro.lines().skip(1).take(4).collect();
    assert!(grid.iter().all(|l| !l.trim().is_empty()), "{kakuro}");
    assert!(
        grid[0].contains("12\\") && grid[1].trim_start().starts_with("\\6"),
        "{kakuro}"
    );
    let broken = text("docs/examples/killer-broken.toml");
    assert!(
        broken.contains(" statements conflict (") || broken.contains("1 statement contradicts"),
        "{broken}"
    );
}

/// The number after `name="` in an SVG element.
fn attr(element: &str, name: &str) -> f64 {
    let at = element.find(&format!(" {name}=\"")).expect("the attribute") + name.len() + 3;
    let end = element[at..].find('"').expect("a closing quote") + at;
    element[at..end].parse().expect("a number")
}

/// Every cage clue's box in a shaded cell is filled with the shading,
/// not white: a white box on the shaded conflict looked like a hole.
fn clue_boxes_take_the_shading(picture: &str) {
    let shaded: Vec<(f64, f64, f64)> = picture
        .lines()
        .filter(|l| l.starts_with("<rect") && l.contains(r#"class="shaded""#))
        .map(|l| (attr(l, "x"), attr(l, "y"), attr(l, "width")))
        .collect();
    let mut boxes = picture.split("<g id=\"clue-").skip(1).peekable();
    assert!(boxes.peek().is_some(), "cage clues drawn: {picture}");
    let mut in_shade = 0;
    for g in boxes {
        let rect = g
            .lines()
            .find(|l| l.starts_with("<rect"))
            .expect("a clue box");
        let (x, y) = (attr(rect, "x"), attr(rect, "y"));
        let shade = shaded
            .iter()
            .any(|&(sx, sy, side)| (sx..sx + side).contains(&x) && (sy..sy + side).contains(&y));
        if shade {
            in_shade += 1;
            assert!(
                rect.contains(r##"fill="#f6c6c6""##),
                "a white box on the shading: {rect}"
            );
        } else {
            assert!(rect.contains(r#"fill="white""#), "{rect}");
        }
    }
    assert!(in_shade > 0, "a clue in the conflict's cells: {picture}");
}

#[test]
fn kakuro_pencil_marks_sit_at_fixed_places() {
    // A 3x3 kakuro with 41 solutions: cells have different candidates,
    // and each value must be drawn at the same spot in every cell (1-9 on
    // a 3x3 keypad), not flowed as running text.
    common::require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("open.toml");
    std::fs::write(
        &file,
        "kind = \"kakuro\"\ngrid = \"\"\"\n  x, 12|,  6|, 13|\n |6,   _,   _,   _\n|13,   _,   _,   _\n|12,   _,   _,   _\n\"\"\"\n",
    )
    .expect("written");
    let out = common::smtgrid(&[
        "explain",
        file.to_str().expect("a UTF-8 path"),
        "--solver",
        "z3",
        "--svg",
        dir.path().to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let picture = std::fs::read_to_string(dir.path().join("open.svg")).expect("the picture");
    let mut places: std::collections::BTreeMap<String, (i64, i64)> = Default::default();
    let mut marks = 0;
    for text in picture.split("<text class=\"pencil\"").skip(1) {
        let element = &text[..text.find('>').expect("a tag")];
        let value = text[text.find('>').expect("a tag") + 1..]
            .split('<')
            .next()
            .unwrap_or_default()
            .to_string();
        // The place inside the 40-unit cell (the grid starts 10 units in).
        let at = |name: &str| ((attr(element, name) - 10.0) * 100.0).round() as i64 % 4000;
        let place = (at("x"), at("y"));
        marks += 1;
        assert_eq!(
            *places.entry(value.clone()).or_insert(place),
            place,
            "value {value} drawn at two places in its cells"
        );
    }
    assert!(
        marks > places.len(),
        "some value marked in several cells: {picture}"
    );
    let distinct: std::collections::BTreeSet<_> = places.values().collect();
    assert_eq!(distinct.len(), places.len(), "each value its own place");
}
