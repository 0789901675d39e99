//! `smtgrid generate` against real solvers: every kind generates; what it
//! made is unique and minimal by another solver than the one that made it
//! (a separate `solve --unique` run on the whole puzzle and on the puzzle
//! without each clue, every answer checked by the solve layer); the seed
//! makes the same puzzles again; grading in one z3 session per worker
//! gives the grades of a process each.

use crate::common;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{assert_gone, require, root, smtgrid, solver, top95_head};
use smtgrid::elements::edge_clues::EdgeClues;
use smtgrid::elements::signs::Signs;
use smtgrid::encode::Encoding;
use smtgrid::generate::Symmetry;
use smtgrid::generate::grade::{Grade, grade, grade_in};
use smtgrid::parse::load;
use smtgrid::puzzle::Puzzle;
use smtgrid::solve::{Mode, Plan, ResetSessions, SessionUse, solve_all};
use smtgrid::solver::{Cancel, Solver};

/// Runs `smtgrid generate ARGS -o DIR` and returns its puzzles, by name.
fn generate(args: &[&str], dir: &Path) -> Vec<(String, String)> {
    let mut all = args.to_vec();
    let d = dir.to_str().expect("a UTF-8 temporary path");
    all.extend(["-o", d]);
    let out = smtgrid(&all);
    assert!(
        out.status.success(),
        "generate {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("the output folder")
        .map(|e| {
            let p = e.expect("an entry").path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("a puzzle file"))
        })
        .collect();
    files.sort();
    files
}

/// Whether each puzzle is unique by `by`, in one `solve --unique` run
/// each: `Some(true)` unique, `Some(false)` with a second, checked
/// solution, `None` when the run gave neither.
fn unique(puzzles: Vec<Puzzle>, by: &str) -> Vec<Option<bool>> {
    let plan = Plan::builder(vec![solver(by)], Mode::Fixed(vec![Encoding::Lia]))
        .timeout(Duration::from_secs(60))
        .unique(true)
        .sessions(SessionUse::Never)
        .build();
    let mut found = Vec::new();
    solve_all(puzzles.into_iter(), &plan, &Cancel::new(), |_, r| {
        found.push(r.lines[0].run.outcome.unique());
        ControlFlow::Continue(())
    });
    found
}

/// The puzzle without each of its clues in turn: a given, a sign, an edge
/// clue.
fn each_without_one(p: &Puzzle) -> Vec<Puzzle> {
    let mut out = Vec::new();
    for r in 0..p.rows {
        for c in 0..p.cols {
            if p.givens[r][c].is_some() {
                let mut q = p.clone();
                q.givens[r][c] = None;
                out.push(q);
            }
        }
    }
    for i in 0..p.inequalities().len() {
        let mut q = p.clone();
        if let Some(signs) = q.get_mut::<Signs>() {
            signs.0.remove(i);
        }
        out.push(q);
    }
    if let Some(e) = p.edges() {
        for side in 0..4 {
            let len = [&e.top, &e.bottom, &e.left, &e.right][side].len();
            for i in 0..len {
                let mut q = p.clone();
                let edges = q.get_mut::<EdgeClues>().unwrap();
                let line = [
                    &mut edges.top,
                    &mut edges.bottom,
                    &mut edges.left,
                    &mut edges.right,
                ][side]
                    .get_mut(i)
                    .unwrap();
                if line.take().is_some() {
                    out.push(q);
                }
            }
        }
    }
    out
}

/// The symmetry recorded in a generated puzzle's `[source]`.
fn symmetry_of(text: &str) -> Symmetry {
    let name = text
        .lines()
        .find_map(|l| l.strip_prefix("symmetry = "))
        .expect("a recorded symmetry")
        .trim_matches('"');
    *Symmetry::ALL
        .iter()
        .find(|s| s.name() == name)
        .expect("a known symmetry")
}

/// The puzzle without each orbit of its givens under `s` in turn (its
/// signs and edge clues, which go one by one, as [`each_without_one`]);
/// asserts the givens are symmetric.
fn each_without_one_orbit(p: &Puzzle, s: Symmetry) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in 0..p.rows {
        for c in 0..p.cols {
            if p.givens[r][c].is_none() || !seen.insert((r, c)) {
                continue;
            }
            let orbit = s.orbit(p.rows, (r, c));
            let mut q = p.clone();
            for &(r2, c2) in &orbit {
                assert!(p.givens[r2][c2].is_some(), "{}: not symmetric", p.name);
                seen.insert((r2, c2));
                q.givens[r2][c2] = None;
            }
            out.push(q);
        }
    }
    let mut no_givens = p.clone();
    no_givens.givens = vec![vec![None; p.cols]; p.rows];
    let others = each_without_one(&no_givens).into_iter().map(|mut q| {
        q.givens = p.givens.clone();
        q
    });
    out.extend(others);
    out
}

/// Generates with `prover` and re-proves with `checker`: the puzzle is
/// unique and minimal in the sense it records — with `--symmetry none`
/// leaving out any one clue gives a second solution (and `explain` finds
/// no redundant given); with a symmetry the givens are symmetric and
/// leaving out any one orbit of them, or any other clue, gives one.
fn reproved(args: &[&str], prover: &str, checker: &str) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut all = args.to_vec();
    all.extend(["--solver", prover, "--seed", "11", "--time-limit", "60"]);
    let files = generate(&all, dir.path());
    assert!(!files.is_empty(), "{args:?} made nothing");
    for (name, text) in &files {
        let symmetry = symmetry_of(text);
        let by_orbits = symmetry != Symmetry::None;
        let said_minimal = if by_orbits {
            "minimal = \"orbits\""
        } else {
            "minimal = \"clues\""
        };
        assert!(text.contains(said_minimal), "{name}:\n{text}");
        assert!(text.contains("symmetric = true"), "{name}:\n{text}");
        assert!(text.contains("[grade]"), "{name}:\n{text}");
        let p = load(&dir.path().join(name), None)
            .expect("a generated puzzle loads")
            .remove(0);
        assert!(p.solution.is_some(), "{name} records its solution");
        if !by_orbits {
            // What `explain` says of it, asked of the checker's solver.
            let file = dir.path().join(name);
            let said = smtgrid(&["explain", file.to_str().unwrap(), "--solver", checker]);
            let said = String::from_utf8_lossy(&said.stdout);
            let none = said.contains("it has no givens");
            assert!(
                none || said.contains("no given is redundant"),
                "{name}: {said}"
            );
        }
        assert_eq!(unique(vec![p.clone()], checker), [Some(true)], "{name}");
        let fewer = if by_orbits {
            each_without_one_orbit(&p, symmetry)
        } else {
            each_without_one(&p)
        };
        let n = fewer.len();
        assert_eq!(
            unique(fewer, checker),
            vec![Some(false); n],
            "{name}: a clue or orbit could go"
        );
    }
}

#[test]
fn sudokus_are_unique_and_minimal_by_another_solver() {
    require(&["yices2", "cvc5"]);
    // The default symmetry, rotational: symmetric and orbit-minimal.
    reproved(&["generate", "sudoku", "--count", "2"], "yices2", "cvc5");
    reproved(
        &["generate", "sudoku-x", "--size", "6", "--symmetry", "none"],
        "yices2",
        "cvc5",
    );
}

#[test]
fn every_other_kind_is_unique_and_minimal_by_another_solver() {
    require(&["yices2", "z3", "cvc5"]);
    reproved(&["generate", "killer", "--size", "6"], "yices2", "z3");
    reproved(
        &["generate", "calcudoku", "--size", "4", "--ops", "+-"],
        "z3",
        "cvc5",
    );
    reproved(&["generate", "kakuro", "--size", "5"], "yices2", "z3");
    reproved(&["generate", "jigsaw", "--size", "6"], "yices2", "z3");
    reproved(&["generate", "futoshiki", "--size", "4"], "yices2", "z3");
    reproved(&["generate", "skyscrapers", "--size", "4"], "yices2", "z3");
}

#[test]
fn calcudoku_with_only_two_cell_operations_draws_cages_of_two() {
    // `-` and `/` take two cells; drawn cages of up to five found a design
    // that fits only by luck, and a run spun until its time limit.
    require(&["z3", "cvc5"]);
    reproved(
        &["generate", "calcudoku", "--size", "4", "--ops=-/"],
        "z3",
        "cvc5",
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let args = "generate calcudoku --size=5 --ops=- --seed=3 --time-limit=60";
    let args: Vec<&str> = args.split(' ').collect();
    for (name, text) in generate(&args, dir.path()) {
        let clues = text
            .split("[clues]")
            .nth(1)
            .and_then(|t| t.split("\n\n").next())
            .unwrap_or_else(|| panic!("{name}: no [clues]\n{text}"));
        for line in clues.lines().filter(|l| l.contains('=')) {
            let value = line.split('"').nth(1).unwrap_or_default();
            assert!(
                value.ends_with('-') || value.bytes().all(|b| b.is_ascii_digit()),
                "{name}: {line}"
            );
        }
    }
}

#[test]
fn a_sat_solver_proves_them_over_bools_and_another_solver_agrees() {
    // Glucose takes no integers: its session states the puzzle over Bools
    // alone, a killer's cages as choices of digit sets (the prover of
    // 16x16 and larger grids when installed).
    require(&["glucose", "yices2"]);
    reproved(&["generate", "killer", "--size", "6"], "glucose", "yices2");
    reproved(
        &["generate", "sudoku", "--symmetry", "none"],
        "glucose",
        "yices2",
    );
}

#[test]
fn merged_killers_have_fewer_cages_and_are_unique_and_minimal_by_another_solver() {
    require(&["yices2", "z3"]);
    let args = ["generate", "killer", "--size", "6", "--count", "3"];
    let merge = [&args[..], &["--cages", "merge", "--symmetry", "none"]].concat();
    reproved(&merge, "yices2", "z3");
    // The same seed's designs with their cages as drawn: merging only
    // joins cages, so there are never more, and here fewer.
    let cages = |extra: &[&str]| -> Vec<usize> {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let all = [&args[..], extra, &["--seed", "11"]].concat();
        generate(&all, dir.path())
            .iter()
            .map(|(name, text)| {
                if extra.contains(&"merge") {
                    assert!(text.contains("--cages merge"), "{name}:\n{text}");
                }
                let p = load(&dir.path().join(name), None).expect("a generated puzzle loads");
                p[0].cages().len()
            })
            .collect()
    };
    let (drawn, merged) = (cages(&[]), cages(&["--cages", "merge"]));
    assert_eq!(drawn.len(), merged.len());
    for (d, m) in drawn.iter().zip(&merged) {
        assert!(m < d, "{merged:?} cages merged from {drawn:?}");
    }
    let out = smtgrid(&["generate", "sudoku", "--cages", "merge", "-o", "unused"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cages applies to killer"), "{err}");
    assert!(!common::root().join("unused").exists());
}

#[test]
fn a_kakuro_larger_than_5_is_repaired_until_unique() {
    require(&["yices2", "z3"]);
    // A 5x5 white area: random fills are almost never unique as drawn;
    // squares where a second solution differs are blacked out. (Sizes 7
    // to 9 are measured by scripts/bench-generate.)
    reproved(&["generate", "kakuro", "--size", "6"], "yices2", "z3");
}

#[test]
fn propagation_spares_the_solver_most_removal_questions() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let args = [
        "generate",
        "sudoku",
        "--symmetry",
        "none",
        "--seed",
        "3",
        "--solver",
        "yices2",
    ];
    let files = generate(&args, dir.path());
    let (name, text) = &files[0];
    let number = |key: &str| -> usize {
        let line = text
            .lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("{name} has no {key}:\n{text}"));
        line.rsplit(' ').next().unwrap().parse().expect("a count")
    };
    // Without the removals propagation decides, each of the 81 givens is
    // asked about, after the first question: 82.
    let questions = number("questions = ");
    assert!(questions < 60, "{name}: {questions} questions:\n{text}");
    assert!(text.contains("minimal = \"clues\""), "{name}:\n{text}");
}

#[test]
fn a_seed_makes_the_same_puzzles_again_and_another_seed_others() {
    require(&["yices2", "z3"]);
    let make = |seed: &str| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let args = [
            "generate", "killer", "--size", "6", "--count", "3", "--seed", seed, "-j", "2",
        ];
        generate(&args, dir.path())
    };
    let (a, b, c) = (make("5"), make("5"), make("6"));
    assert_eq!(a.len(), 3);
    assert_eq!(a, b);
    let grids = |files: &[(String, String)]| -> Vec<String> {
        files
            .iter()
            .map(|(_, t)| t.split("[source]").next().unwrap().to_string())
            .collect()
    };
    assert_ne!(grids(&a), grids(&c));
    // A kakuro's repair blacks out a square where the solver's second
    // solution differs: with the same version, solver and seed the same
    // kakuro again.
    let kakuro = || {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let args = [
            "generate", "kakuro", "--size", "5", "--count", "2", "--seed", "5", "--solver",
            "yices2",
        ];
        generate(&args, dir.path())
    };
    let (k1, k2) = (kakuro(), kakuro());
    assert_eq!(k1.len(), 2);
    assert_eq!(k1, k2);
}

#[test]
fn element_mixes_are_unique_and_minimal_by_another_solver() {
    require(&["yices2", "z3"]);
    // Instances drawn from the solution, given removal clue by clue.
    reproved(
        &[
            "generate",
            "sudoku",
            "--size",
            "6",
            "--with",
            "thermo,kropki",
            "--symmetry",
            "none",
        ],
        "yices2",
        "z3",
    );
    // A rule the fill keeps, lines, and the negative constraint (every X
    // and V drawn), by orbits.
    reproved(
        &[
            "generate",
            "sudoku",
            "--with",
            "anti-knight,whispers,xv-negative",
        ],
        "yices2",
        "z3",
    );
}

#[test]
fn element_mixes_hold_what_was_asked_and_the_seed_repeats_them() {
    require(&["yices2", "z3"]);
    let make = |seed: &str| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let args = [
            "generate",
            "sudoku",
            "--size",
            "6",
            "--with",
            "thermo,arrow,kropki-negative,anti-king",
            "--count",
            "2",
            "--seed",
            seed,
        ];
        generate(&args, dir.path())
    };
    let (a, b, c) = (make("3"), make("3"), make("4"));
    assert_eq!(a.len(), 2);
    assert_eq!(a, b);
    assert_ne!(a, c);
    for (name, text) in &a {
        for key in [
            "[[thermometer]]",
            "[[arrow]]",
            "[[kropki]]",
            "kropki-negative = true",
            "anti-king = true",
        ] {
            assert!(text.contains(key), "{name} lacks {key}:\n{text}");
        }
        assert!(
            text.contains("--with thermometer,arrow,kropki-negative,anti-king"),
            "{text}"
        );
    }
}

#[test]
fn with_refuses_what_it_cannot_make_naming_what_it_can() {
    for (list, says) in [
        ("cages", "cannot be generated yet"),
        ("nosuch", "no element is called so"),
        ("anti-k", "more than one element"),
        ("thermo,thermometer", "twice"),
    ] {
        let out = smtgrid(&["generate", "sudoku", "--with", list, "-o", "unused"]);
        assert_eq!(out.status.code(), Some(2), "{list}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{list}: {err}");
        if list != "anti-k" && list != "thermo,thermometer" {
            assert!(
                err.contains("thermometer") && err.contains("anti-knight"),
                "{err}"
            );
        }
    }
    let out = smtgrid(&["generate", "kakuro", "--with", "thermo", "-o", "unused"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!common::root().join("unused").exists());
}

#[test]
fn requests_no_puzzle_can_meet_are_refused_before_any_is_made() {
    let template = root().join("templates/thermo.toml");
    let template = template.to_str().unwrap();
    let jigsaw = root().join("puzzles/jigsaw-6x6.toml");
    let jigsaw = jigsaw.to_str().unwrap();
    for (args, says) in [
        (
            &["sudoku", "--givens", "90-100", "-o", "unused"][..],
            "81 squares",
        ),
        (
            &[
                "calcudoku",
                "--size",
                "4",
                "--format",
                "links",
                "-o",
                "unused",
            ][..],
            "no f-puzzles form",
        ),
        // A folder no file can be written into (the kernel's /proc).
        (
            &["sudoku", "--size", "4", "-o", "/proc"][..],
            "/proc: no file can be written into this folder",
        ),
        // A template whose thermometers the puzzles made would not have.
        (
            &[template, "-o", "unused"][..],
            "and not thermometer; remove them",
        ),
        // Rules no grid meets, proven by a search of every grid, at once
        // and not after the time limit's worth of designs.
        (
            &["sudoku", "--size=4", "--with=anti-king", "-o", "unused"][..],
            "no 4×4 sudoku grid keeps its rows, columns and boxes all different with \
             anti-king: smtgrid's own search tried every such grid and found none, so no \
             puzzle can be made; drop anti-king from --with, or give another --size",
        ),
        (
            &["sudoku-x", "--size=4", "--with=anti-knight", "-o", "unused"][..],
            "boxes and both diagonals all different with anti-knight: smtgrid's own search",
        ),
        // Whatever its regions: no 4×4 Latin square is anti-king.
        (
            &["jigsaw", "--size=4", "--with=anti-king", "-o", "unused"][..],
            "no 4×4 jigsaw grid keeps its rows and columns all different with anti-king",
        ),
        // A mistyped kind is named first, with the kind meant, -o given
        // or not; then a missing -o is.
        (
            &["kiler", "--size=4"][..],
            "`kiler` is neither a kind nor a puzzle file (did you mean `killer`?): the kinds \
             are sudoku, killer, calcudoku, kakuro, jigsaw, futoshiki, skyscrapers, sudoku-x",
        ),
        (
            &["killer", "--size=4"][..],
            "generate needs -o DIR: the folder to write the puzzles into",
        ),
        // --ops means something for calcudoku only.
        (
            &["sudoku", "--ops", "+", "-o", "unused"][..],
            "--ops +: applies to calcudoku only, not sudoku",
        ),
        (
            &[jigsaw, "--ops", "+*", "-o", "unused"][..],
            "applies to calcudoku only, not jigsaw (the template is a jigsaw)",
        ),
        // A number too large for a range is named so, not "not a range".
        (
            &[
                "sudoku",
                "--givens",
                "0-99999999999999999999",
                "-o",
                "unused",
            ][..],
            "99999999999999999999 is too large; the most is 18446744073709551615",
        ),
        (
            &["sudoku", "--effort", "99999999999999999999", "-o", "unused"][..],
            "99999999999999999999 is too large; the most is 18446744073709551615",
        ),
    ] {
        let all = [&["generate"][..], args].concat();
        let start = Instant::now();
        let out = smtgrid(&all);
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: {err}");
    }
    assert!(!common::root().join("unused").exists());
}

/// What `generate` refuses at once, no grid meeting the rules among it,
/// agrees with a solver: z3 finds no solution to the empty 4×4 anti-king
/// sudoku. Rules some grid meets still make puzzles (a 5×5 Latin square
/// shifted by two a row is anti-king).
#[test]
fn rules_no_grid_meets_have_no_solution_and_rules_one_meets_make_puzzles() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let empty = dir.path().join("empty.toml");
    let four = "....\n".repeat(4);
    let text = format!(
        "kind = \"sudoku\"\nbox = \"2x2\"\nanti-king = true\ngivens = \"\"\"\n{four}\"\"\"\n"
    );
    std::fs::write(&empty, text).unwrap();
    let out = smtgrid(&["solve", empty.to_str().unwrap(), "--solver", "z3"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("no solution"), "{said}");
    let args = [
        "generate",
        "futoshiki",
        "--size",
        "5",
        "--with",
        "anti-king",
        "--seed",
        "3",
    ];
    let made = generate(&args, &dir.path().join("new"));
    assert_eq!(made.len(), 1);
    assert!(made[0].1.contains("anti-king = true"), "{}", made[0].1);
}

#[test]
fn a_template_keeps_its_regions() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files = generate(
        &["generate", "puzzles/jigsaw-6x6.toml", "--seed", "2"],
        dir.path(),
    );
    let made = load(&dir.path().join(&files[0].0), None).unwrap().remove(0);
    let template = load(&common::root().join("puzzles/jigsaw-6x6.toml"), None)
        .unwrap()
        .remove(0);
    assert_eq!(made.regions(), template.regions());
}

#[test]
fn links_are_f_puzzles_links_of_the_puzzles_made() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let made = dir.path().join("made");
    let out = smtgrid(&[
        "generate",
        "sudoku",
        "--size",
        "6",
        "--with",
        "thermo,kropki-negative,anti-knight,arrow,whispers",
        "--count",
        "2",
        "--seed",
        "8",
        "--format",
        "links",
        "-o",
        made.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let links = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = links.lines().collect();
    assert_eq!(lines.len(), 2, "{links}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("https://www.f-puzzles.com/?load="))
    );
    let file = dir.path().join("made.links");
    std::fs::write(&file, &links).expect("write the links");
    let back = dir.path().join("back");
    let back_dir = format!("{}/", back.display());
    let out = smtgrid(&["convert", file.to_str().unwrap(), "-o", &back_dir]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut tomls: Vec<_> = std::fs::read_dir(&made)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let mut imported: Vec<_> = std::fs::read_dir(&back)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    tomls.sort();
    imported.sort();
    for (t, i) in tomls.iter().zip(&imported) {
        let p = load(t, None).unwrap().remove(0);
        let q = load(i, None).unwrap().remove(0);
        assert_eq!(q.givens, p.givens, "{}", t.display());
        let names = |p: &Puzzle| {
            let mut n: Vec<&str> = p.elements.iter().map(|e| e.name()).collect();
            n.sort_unstable();
            n
        };
        assert_eq!(names(&q), names(&p), "{}", t.display());
        let mut q = q;
        q.solution = p.solution.clone();
        assert_eq!(unique(vec![q], "z3"), [Some(true)], "{}", i.display());
    }
    // A kind f-puzzles does not hold: exit 2, naming why.
    let out = smtgrid(&[
        "generate",
        "futoshiki",
        "--size",
        "4",
        "--seed",
        "1",
        "--format",
        "links",
        "-o",
        dir.path().join("f").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no f-puzzles"));
}

/// Puzzles of every kind whose grading searches (top95's hard sudokus, a
/// killer, a jigsaw, a calcudoku) or does not (kakuro, futoshiki,
/// skyscrapers), to grade one after another.
fn to_grade() -> Vec<Puzzle> {
    let (_dir, top95) = top95_head(5);
    let mut all = load(&top95, None).expect("top95 loads");
    for file in [
        "killer-9x9.toml",
        "jigsaw-9x9.toml",
        "calcudoku-hard.toml",
        "kakuro-8x8.toml",
        "futoshiki-6x6.toml",
        "skyscrapers-6x6.toml",
    ] {
        all.extend(load(&root().join("puzzles").join(file), None).expect("a shipped puzzle"));
    }
    all
}

/// z3's profile, its sessions started as `FAKE LOG Z3 ARGS…` (a fake of
/// tests/fake_solvers that logs its process id to `log`, then runs or
/// stands for the real z3).
fn z3_session_through(fake: &str, log: &Path) -> Solver {
    let mut z3 = solver("z3");
    let real = z3.path.display().to_string();
    z3.path = root().join("tests/fake_solvers").join(fake);
    z3.profile.interactive_args = Some(vec![
        log.display().to_string(),
        real,
        "-in".into(),
        "-smt2".into(),
    ]);
    z3
}

/// The process ids a fake of [`z3_session_through`] logged.
fn logged(log: &Path) -> Vec<i32> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().expect("a process id"))
        .collect()
}

/// Each puzzle's grade from a z3 process of its own.
fn fresh_grades(puzzles: &[Puzzle]) -> Vec<Grade> {
    let z3 = solver("z3");
    puzzles
        .iter()
        .map(|p| grade(p, &z3, Duration::from_secs(60), &Cancel::new()).expect("graded"))
        .collect()
}

#[test]
fn grading_in_one_reset_session_gives_the_grades_of_a_process_each() {
    require(&["z3"]);
    let puzzles = to_grade();
    let fresh = fresh_grades(&puzzles);
    assert!(
        fresh.iter().any(|g| g.conflicts >= 4) && fresh.iter().any(|g| g.conflicts == 0),
        "{fresh:?}"
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log: PathBuf = dir.path().join("sessions");
    let z3 = z3_session_through("logged_session.sh", &log);
    let pool = Arc::new(ResetSessions::new(1));
    // Forwards, then backwards: each puzzle after others than before.
    let order: Vec<usize> = (0..puzzles.len()).chain((0..puzzles.len()).rev()).collect();
    for &i in &order {
        let g = grade_in(
            &puzzles[i],
            &z3,
            Some(&pool),
            Duration::from_secs(60),
            &Cancel::new(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", puzzles[i].id));
        assert_eq!(g, fresh[i], "{}", puzzles[i].id);
    }
    let pids = logged(&log);
    assert_eq!(pids.len(), 1, "one session for every puzzle: {pids:?}");
    assert_eq!(pool.idle(), 1);
    drop(pool);
    assert_gone(pids[0], "the grading session, once its pool is dropped");
}

#[test]
fn a_grading_session_that_dies_is_replaced_and_every_puzzle_graded() {
    require(&["z3"]);
    let puzzles: Vec<Puzzle> = to_grade().into_iter().take(3).collect();
    let fresh = fresh_grades(&puzzles);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = dir.path().join("sessions");
    let z3 = z3_session_through("dies_at_reset.py", &log);
    let pool = Arc::new(ResetSessions::new(1));
    for (p, want) in puzzles.iter().zip(&fresh) {
        let g = grade_in(p, &z3, Some(&pool), Duration::from_secs(60), &Cancel::new())
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert_eq!(&g, want, "{}", p.id);
    }
    // The first session answered the first puzzle and died at the
    // second's reset: a new one answered it, and so on.
    let pids = logged(&log);
    assert_eq!(pids.len(), 3, "{pids:?}");
    for &pid in &pids[..2] {
        assert_gone(pid, "a grading session that died");
    }
    assert_eq!(pool.idle(), 1);
    drop(pool);
    assert_gone(
        pids[2],
        "the last grading session, once its pool is dropped",
    );
}

#[test]
fn a_grading_session_that_hangs_fails_the_grade_at_its_time_limit_and_is_killed() {
    require(&["z3"]);
    let p = to_grade().remove(0);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = dir.path().join("sessions");
    let mut hangs = z3_session_through("logged_session.sh", &log);
    // `sh -c 'exec sleep 1000' ARGS…`: reads nothing, answers nothing.
    hangs.profile.interactive_args = Some(vec![
        log.display().to_string(),
        "/bin/sh".into(),
        "-c".into(),
        "exec sleep 1000".into(),
    ]);
    let pool = Arc::new(ResetSessions::new(1));
    let start = Instant::now();
    let got = grade_in(
        &p,
        &hangs,
        Some(&pool),
        Duration::from_secs(1),
        &Cancel::new(),
    );
    assert!(got.is_err(), "{got:?}");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(pool.idle(), 0, "a session that timed out is not kept");
    let pids = logged(&log);
    assert_eq!(pids.len(), 1, "{pids:?}");
    assert_gone(pids[0], "a grading session that timed out");
}

/// A prover that calls every puzzle unique is caught by the grader: z3's
/// verified grid of a 4×4 with its clues all gone is another solution
/// than the recorded one, so no puzzle is written and the run fails. One
/// that lies once (its second answer, a false unsat) is caught by its own
/// next answer, a second solution that keeps the clues it said could go.
#[test]
fn a_lying_prover_is_caught_by_the_graders_grid_or_its_own_next_answer() {
    require(&["z3"]);
    let fake = |name: &str| root().join("tests/fake_solvers").join(name);
    for (solver, says) in [
        (
            format!("yices2={}", fake("session_unsat.py").display()),
            "solvers disagree",
        ),
        (
            format!("z3={}", fake("lies_once.py").display()),
            "answered unsat, then gave a solution",
        ),
    ] {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let out = common::bin()
            .env("SMTGRID_FAKE_LIE_AT", "2")
            .args([
                "generate",
                "sudoku",
                "--size",
                "4",
                "--seed",
                "1",
                "--symmetry",
                "none",
                "--time-limit",
                "30",
                "--solver",
                &solver,
                "-o",
                dir.path().to_str().unwrap(),
            ])
            .output()
            .expect("smtgrid runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{solver}: {err}");
        assert!(err.contains(says), "{solver}: {err}");
        assert!(common::names_in(dir.path()).is_empty(), "{solver}: {err}");
    }
}

/// `generate` writes no file over another: not over its own template, not
/// over a file of the name it would write; and sudoku-x puzzles are not
/// named as plain sudokus of the same seed.
#[test]
fn generate_writes_over_no_file() {
    require(&["yices2", "z3"]);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let d = dir.path().to_str().unwrap();
    // The template, named as generate would name its output.
    let template = dir.path().join("jigsaw-1-0000.toml");
    let text = std::fs::read_to_string(root().join("puzzles/jigsaw-6x6.toml")).unwrap();
    std::fs::write(&template, &text).unwrap();
    let t = template.to_str().unwrap();
    let out = smtgrid(&["generate", t, "--seed", "1", "-o", d]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("exists already"), "{err}");
    assert_eq!(std::fs::read_to_string(&template).unwrap(), text);
    // A file of the user's own with a name a run would take.
    let own = dir.path().join("sudoku-7-0000.toml");
    std::fs::write(&own, "# my own\n").unwrap();
    let out = smtgrid(&["generate", "sudoku", "--size", "4", "--seed", "7", "-o", d]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&own).unwrap(), "# my own\n");
    // Sudoku-X of the same seed goes under a name of its own.
    let args = ["generate", "sudoku-x", "--size", "4", "--seed", "7"];
    let made = generate(&args, dir.path());
    assert!(
        made.iter().any(|(n, _)| n == "sudoku-x-7-0000.toml"),
        "{made:?}"
    );
    assert_eq!(std::fs::read_to_string(&own).unwrap(), "# my own\n");
}
