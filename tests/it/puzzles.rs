//! The example puzzles of `puzzles/`: each parses, lowers, and its recorded
//! solution passes smtgrid's own checker.

use std::collections::BTreeMap;

use smtgrid::Location;
use smtgrid::lower::lower;
use smtgrid::parse::{InputFormat, load, parse_str};
use smtgrid::puzzle::{Grid, Kind, Puzzle};

use crate::common;
use common::{puzzle_files, root};

fn as_i64(g: &Grid) -> Vec<Vec<Option<i64>>> {
    g.iter()
        .map(|r| r.iter().map(|v| v.map(i64::from)).collect())
        .collect()
}

fn load_one(name: &str) -> Puzzle {
    let path = root().join("puzzles").join(name);
    let mut ps = load(&path, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ps.len(), 1);
    ps.remove(0)
}

#[test]
fn every_recorded_solution_passes_the_checker() {
    let files = puzzle_files();
    assert!(
        files.len() >= 19,
        "expected the example puzzles, found {}",
        files.len()
    );
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &files {
        let ps = load(f, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ps.len(), 1, "{}", f.display());
        let p = &ps[0];
        *per_kind.entry(p.kind.name()).or_default() += 1;
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        assert_eq!(p.name, stem);
        assert!(
            p.title.is_some(),
            "{}: every example has a title",
            f.display()
        );
        let sol = p
            .solution
            .as_ref()
            .unwrap_or_else(|| panic!("{}: no solution recorded", f.display()));
        let m = lower(p);
        assert!(!m.cells.is_empty());
        if let Err(v) = m.check_grid(&as_i64(sol)) {
            panic!("{}: the recorded solution fails: {v}", f.display());
        }
    }
    for kind in Kind::ALL {
        let n = per_kind.get(kind.name()).copied().unwrap_or(0);
        assert!(
            n >= 4,
            "{} examples of {}: expected at least 4",
            n,
            kind.name()
        );
    }
}

#[test]
fn the_five_source_puzzles_are_there() {
    let classic = load_one("classic.toml");
    assert_eq!(
        (classic.kind, classic.rows, classic.box_shape()),
        (Kind::Sudoku, 9, Some((3, 3)))
    );
    let givens = classic
        .givens
        .iter()
        .flatten()
        .filter(|v| v.is_some())
        .count();
    assert_eq!(givens, 17);
    let small = load_one("sudoku-4x4.toml");
    assert_eq!((small.rows, small.box_shape()), (4, Some((2, 2))));
    let squares = load_one("squares.toml");
    assert_eq!(squares.kind, Kind::Killer);
    assert!(!squares.distinct_cages());
    assert_eq!(squares.cages().len(), 24);
    assert!(squares.givens.iter().flatten().all(Option::is_none));
    let calc = load_one("calcudoku-hard.toml");
    assert_eq!(
        (calc.kind, calc.rows, calc.box_shape(), calc.cages().len()),
        (Kind::Calcudoku, 9, None, 33)
    );
    let kakuro = load_one("kakuro-hard.toml");
    assert_eq!(
        (kakuro.kind, kakuro.rows, kakuro.cols),
        (Kind::Kakuro, 10, 10)
    );
}

/// The puzzle `puzzles/NAME` and a grid written for it (a solution
/// printed with it): rows of digits, separated by single spaces.
fn with_grid(name: &str, rows: &str) -> (Puzzle, Vec<Vec<Option<i64>>>) {
    let grid = rows
        .split(' ')
        .map(|row| row.chars().map(|c| c.to_digit(10).map(i64::from)).collect())
        .collect();
    (load_one(name), grid)
}

#[test]
fn the_classic_published_solution_passes() {
    let (p, grid) = with_grid(
        "classic.toml",
        "438256971 659714238 217938465 145692783 873541629 926873154 794325816 382169547 561487392",
    );
    assert_eq!(Some(&grid), p.solution.as_ref().map(as_i64).as_ref());
    assert_eq!(lower(&p).check_grid(&grid), Ok(()));
}

#[test]
fn the_squares_printed_solution_breaks_a_column() {
    let (p, grid) = with_grid(
        "squares.toml",
        "634591872 821345796 579826431 367218945 192754683 458963127 745682319 913475268 286139754",
    );
    let err = lower(&p)
        .check_grid(&grid)
        .expect_err("the printed solution must fail");
    assert!(err.message.starts_with("column 6 is broken"), "{err}");
    // The recorded solution differs from the printed one only by the swap
    // of row 2, columns 6 and 7.
    let fixed = as_i64(p.solution.as_ref().expect("solution"));
    let diffs: Vec<(usize, usize)> = (0..9)
        .flat_map(|r| (0..9).map(move |c| (r, c)))
        .filter(|&(r, c)| fixed[r][c] != grid[r][c])
        .collect();
    assert_eq!(diffs, [(1, 5), (1, 6)]);
}

#[test]
fn the_calcudoku_examples_use_all_four_operations() {
    let p = load_one("calcudoku-6x6.toml");
    for op in ['+', '*', '-', '/'] {
        assert!(
            p.cages().iter().any(|c| c.clue_text.ends_with(op)),
            "no {op} cage"
        );
    }
}

#[test]
fn large_sudokus_are_there() {
    for (f, n) in [
        ("sudoku-6x6.toml", 6),
        ("sudoku-16x16.toml", 16),
        ("sudoku-25x25.toml", 25),
    ] {
        let p = load_one(f);
        assert_eq!(p.rows, n, "{f}");
    }
    assert_eq!(load_one("sudoku-6x6.toml").box_shape(), Some((2, 3)));
}

/// The collections shipped in `puzzles/` (the 17-clue one, gzip-compressed,
/// is not read here).
#[test]
fn the_datasets_parse_as_line_files() {
    let dir = root().join("puzzles");
    for f in ["top95.txt", "hardest.txt"] {
        let path = dir.join(f);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let count = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(count, if f == "top95.txt" { 95 } else { 12 }, "{f}");
        assert!(text.starts_with('#'), "{f} keeps its header line");
        let ps = load(&path, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ps.len(), count, "{f}");
        assert_eq!(ps[0].name, format!("{}:2", path.display()));
        assert!(ps.iter().all(|p| p.kind == Kind::Sudoku && p.rows == 9));
    }
}

#[test]
fn a_bare_kakuro_file_matches_the_toml_one() {
    let toml = load_one("kakuro-hard.toml");
    let text = "x,38|,29|,x,10|,14|,x,21|,16|,14|\n|14,_,_,|6,_,_,|16,_,_,_\n|16,_,_,5|13,_,_,13|23,_,_,_\n\
|26,_,_,_,_,12|16,_,_,33|,31|\n|10,_,_,_,21|15,_,_,_,_,_\n|6,_,_,14|22,_,_,_,9|15,_,_\n\
|16,_,_,_,_,_,12|7,_,_,_\nx,17|,5|9,_,_,8|30,_,_,_,_\n|11,_,_,_,|3,_,_,|17,_,_\n|19,_,_,_,|9,_,_,|3,_,_\n";
    for format in [None, Some(InputFormat::Kakuro)] {
        let ps = parse_str(text, &Location::file("hard.kakuro"), format)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ps[0].kakuro(), toml.kakuro());
        assert_eq!(ps[0].name, "hard");
    }
}
