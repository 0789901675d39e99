//! Bad input: every case gives a clear message naming the file, the line
//! (and column where it helps) and what is wrong — never a panic.

use std::path::Path;

use smtgrid::Location;
use smtgrid::parse::{InputFormat, load, parse_str};

use crate::common;

/// Loads a file of `tests/fixtures/bad/` that must be refused, and returns
/// the whole message (`FILE:LINE:COL: what is wrong`).
fn refused(name: &str) -> String {
    let path = Path::new("tests/fixtures/bad").join(name);
    assert!(path.exists(), "missing fixture {}", path.display());
    match load(&path, None) {
        Ok(ps) => panic!("{name} was accepted: {} puzzle(s)", ps.len()),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.starts_with(&format!("tests/fixtures/bad/{name}")),
                "the message must start with the file: {msg}"
            );
            assert!(!msg.contains('\n'), "one line: {msg}");
            msg
        }
    }
}

/// Asserts that `msg` contains every one of `parts`.
fn has(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "expected {p:?} in: {msg}");
    }
}

/// [`refused`], and asserts that the message contains every one of `parts`.
fn refused_with(name: &str, parts: &[&str]) -> String {
    let msg = refused(name);
    has(&msg, parts);
    msg
}

/// The parse error for `text` read as the file `name` (in `format`, or the
/// one its name implies), asserting that it contains every one of `parts`.
fn parse_error(text: &str, name: &str, format: Option<InputFormat>, parts: &[&str]) {
    let Err(e) = parse_str(text, &Location::file(name), format) else {
        panic!("{name} was accepted");
    };
    has(&e.to_string(), parts);
}

/// One `#[test]` per case: `name { "FILE": ["fragment", ...], ... }` loads
/// each FILE of `tests/fixtures/bad/` and asserts that it is refused with a
/// message containing every fragment.
macro_rules! refused {
    ($($test:ident { $($file:literal: [$($part:literal),+ $(,)?]),+ $(,)? })+) => {
        $(
            #[test]
            fn $test() {
                $(refused_with($file, &[$($part),+]);)+
            }
        )+
    };
}

refused! {
    empty_file {
        "empty.toml": ["empty.toml: the file is empty"],
        "comments-only.toml": ["the file is empty"],
    }
    // The string on line 2 is never closed.
    toml_syntax_error { "syntax.toml": ["syntax.toml:2:", "TOML"] }
    unknown_kind {
        "unknown-kind.toml": ["unknown-kind.toml:2:8:", "unknown kind 'hexoku'", "sudoku", "kakuro"],
    }
    unknown_key_lists_the_allowed_ones {
        "unknown-key.toml": ["unknown-key.toml:2:1:", "givnes", "givens", "solution"],
    }
    key_of_another_kind {
        "key-for-other-kind.toml": ["key-for-other-kind.toml:8:", "`cages` does not apply to a sudoku"],
    }
    rows_of_different_lengths {
        "ragged.toml": ["ragged.toml:6:1:", "row 3 of givens has 8 cells, but the grid is 9 wide"],
    }
    grid_not_square {
        "not-square.toml": ["not-square.toml:2:", "3 rows but is 4 wide", "square"],
    }
    value_out_of_range {
        "out-of-range.toml": ["out-of-range.toml:5:5:", "7 is out of range: values go from 1 to 4"],
        "not-a-value.toml": ["not-a-value.toml:4:5:", "'a' is not a value"],
    }
    given_repeated_in_a_row {
        "repeat-row.toml": ["repeat-row.toml:4:19:", "5 appears twice in row 2 (r2c2 and r2c8)"],
    }
    given_repeated_in_a_column {
        "repeat-column.toml": ["repeat-column.toml:6:1:", "1 appears twice in column 1 (r1c1 and r4c1)"],
    }
    given_repeated_in_a_box {
        "repeat-box.toml": ["repeat-box.toml:4:3:", "1 appears twice in box 1 (r1c1 and r2c2)"],
    }
    box_shape_that_does_not_fit {
        "box-misfit.toml": [
            "box-misfit.toml:2:7:",
            "box 2x4 does not fit a 9×9 grid",
            "box = \"3x3\"",
        ],
    }
    cage_label_without_clue {
        "cage-no-clue.toml": [
            "cage-no-clue.toml:5:5:",
            "cage label 'q' has no clue",
            "q = \"12+\"",
            "default-clue",
        ],
    }
    clue_for_a_label_not_on_the_grid {
        "clue-not-on-grid.toml": [
            "clue-not-on-grid.toml:18:5:",
            "clue for 'z'",
            "no cell of the cages grid is labelled 'z'",
        ],
    }
    malformed_clue {
        "bad-clue.toml": ["bad-clue.toml:11:5:", "'8%' is not a clue", "N+", "N*", "N-", "N/", "square"],
    }
    clue_that_cannot_apply {
        "clue-cannot-apply.toml": [
            "clue-cannot-apply.toml:12:5:",
            "'3-'",
            "cage 'c'",
            "at least two cells",
            "r2c2",
        ],
    }
    cage_in_separate_pieces {
        "cage-in-pieces.toml": ["cage-in-pieces.toml:7:7:", "cage 'a' is in separate pieces", "r4c4"],
    }
    unknown_kakuro_token {
        "kakuro-token.kakuro": ["kakuro-token.kakuro:3:6:", "unknown kakuro square 'y'", "_", "D|A"],
        "kakuro-toml-token.toml": ["kakuro-toml-token.toml:6:8:", "unknown kakuro square '?'"],
    }
    kakuro_run_without_clue {
        "kakuro-no-clue.kakuro": [
            "kakuro-no-clue.kakuro:2:3:",
            "white cell r2c2 is in an across run with no clue",
        ],
    }
    kakuro_clue_without_run {
        "kakuro-empty-run.kakuro": [
            "kakuro-empty-run.kakuro:1:",
            "r1c4 gives a down sum of 5, but no white cell is below it",
        ],
    }
    kakuro_run_longer_than_nine {
        "kakuro-long-run.kakuro": [
            "kakuro-long-run.kakuro:2:1:",
            "the across run at r2c1 has 10 cells",
            "at most 9",
        ],
    }
    file_not_utf8 { "not-utf8.toml": ["not-utf8.toml:2:", "not UTF-8", "0xe9", "offset 28"] }
    size_over_the_maximum { "too-big.toml": ["too-big.toml:3:", "65×65", "maximum of 64×64"] }
    bad_sudoku_lines {
        "bad-line.txt": ["bad-line.txt:3:50:", "'a' is not a value of a 9×9 sudoku"],
        "short-line.txt": ["short-line.txt:2:1:", "81 for a 9×9", "has 80"],
    }
    solution_with_a_blank {
        "solution-blank.toml": ["solution-blank.toml:12:7:", "leaves r4c4 blank"],
    }
    wrong_type_names_the_key_and_what_it_must_be {
        "kind-datetime.toml": [
            "kind-datetime.toml:1:8:",
            "kind must be a string: one of sudoku, killer, calcudoku, kakuro, jigsaw, futoshiki or skyscrapers",
            "not a datetime",
        ],
        "bool-as-string.toml": [
            "bool-as-string.toml:2:18:",
            "distinct-cages must be true or false, not a string",
        ],
    }
    jigsaw_regions {
        "jigsaw-region-size.toml": [
            "jigsaw-region-size.toml:5:1:",
            "region 'c' has 5 cells, but every region of a 4×4 jigsaw has 4",
        ],
        "jigsaw-no-regions.toml": ["a jigsaw puzzle needs its regions: add regions ="],
        "jigsaw-repeat-region.toml": [
            "jigsaw-repeat-region.toml:11:3:",
            "1 appears twice in region 1 (r1c1 and r3c2)",
        ],
    }
    sudoku_with_an_empty_clues_table {
        "sudoku-empty-clues.toml": [
            "sudoku-empty-clues.toml:8:1:",
            "a sudoku has no cages",
            "kind = \"killer\"",
        ],
    }
    diagonals {
        "diagonal-repeat.toml": [
            "diagonal-repeat.toml:2:13:",
            "diagonals = true, but 1 appears twice in the main diagonal (r1c1 and r3c3)",
        ],
        "diagonals-on-futoshiki.toml": [
            "diagonals-on-futoshiki.toml:2:",
            "`diagonals` does not apply to a futoshiki puzzle",
        ],
    }
    // A given repeated in an extra region is refused where the region is
    // written; left to the solver it was only "no solution".
    extra_regions {
        "extra-region-repeat.toml": [
            "extra-region-repeat.toml:14:9:",
            "1 appears twice in extra-region 2 (r1c1 and r4c4): correct one of the two givens or the region's cells",
        ],
        "windoku-repeat.toml": [
            "windoku-repeat.toml:2:1:",
            "windoku = true, but 5 appears twice in window 1 (r2c2 and r4c4): correct one of the two givens",
        ],
    }
    futoshiki_signs {
        "futoshiki-sign-misplaced.toml": [
            "futoshiki-sign-misplaced.toml:4:3:",
            "not under a cell of row 1",
        ],
        "futoshiki-sign-at-edge.toml": [
            "futoshiki-sign-at-edge.toml:4:1:",
            "'<' must stand between two cells",
        ],
        "futoshiki-sign-contradicts.toml": [
            "futoshiki-sign-contradicts.toml:4:3:",
            "this sign says r2c1 < r2c2, but the givens there are 3 and 2",
        ],
        "futoshiki-glued.toml": [
            "futoshiki-glued.toml:4:1:",
            "separate values and signs with spaces",
        ],
    }
    // An f-puzzles JSON file's errors point where a TOML file's do: at
    // the mistake, the value or the key, by line and column.
    fpuzzles_files_name_the_line_and_column {
        "fpuzzles-syntax.json": ["fpuzzles-syntax.json:6:5:", "not valid JSON: expected `,` or `]`"],
        "fpuzzles-size.json": ["fpuzzles-size.json:2:11:", "f-puzzles `size` is 17", "4 to 16"],
        "fpuzzles-cell.json": ["fpuzzles-cell.json:11:43:", "`thermometer` names the cell \"R10C1\""],
        "fpuzzles-type.json": ["fpuzzles-type.json:3:12:", "f-puzzles `title` is a list, not a string"],
        "fpuzzles-value.json": ["fpuzzles-value.json:5:24:", "cell r2c3 has the value 7"],
        "fpuzzles-rule.json": ["fpuzzles-rule.json:9:3:", "f-puzzles `arrow` (arrow)", "at least 2 cells"],
        // What the parts say together, at the cell to blame: the second
        // of two givens, the solution's cell.
        "fpuzzles-given-repeat.json": [
            "fpuzzles-given-repeat.json:4:53:",
            "1 appears twice in row 1 (r1c1 and r1c4): correct one of the two",
        ],
        "fpuzzles-wrong-solution.json": [
            "fpuzzles-wrong-solution.json:11:11:",
            "the recorded solution is wrong: row 2 is broken",
        ],
        "fpuzzles-solution-given.json": [
            "fpuzzles-solution-given.json:10:5:",
            "the recorded solution has 3 at r1c1, but the given there is 4",
        ],
    }
    // serde_json keeps the last of two keys silently; which one the
    // setter meant is theirs to say.
    fpuzzles_key_given_twice {
        "fpuzzles-repeated-key.json": [
            "fpuzzles-repeated-key.json:10:3:",
            "f-puzzles key `size` comes twice in one object",
            "keep one",
        ],
    }
    // One check for every reader, at the statement that leaves a cell no
    // value (a mark, a given, candidates): in a TOML file the later in
    // the file whichever key comes first (the givens first), in
    // f-puzzles JSON the givens, then a cell's `parity`, then the lists.
    cell_left_no_value {
        "given-against-odd.toml": [
            "given-against-odd.toml:11:15:",
            "r1c2 has the given 2 and an odd mark, which contradict each other",
        ],
        "candidates-apart.toml": [
            "candidates-apart.toml:18:15:",
            "r2c2 has the candidates 1 or 2 and the candidates 3 or 4",
        ],
        "candidates-against-mark.toml": [
            "candidates-against-mark.toml:14:10:",
            "r2c2 has an even mark and the candidates 1 or 3",
        ],
        "fpuzzles-given-odd.json": [
            "fpuzzles-given-odd.json:9:20:",
            "r1c1 has the given 2 and an odd mark",
        ],
        "odd-and-even.toml": [
            "odd-and-even.toml:17:15:",
            "r3c3 has an even mark and an odd mark, which contradict each other: correct or remove one",
        ],
        "fpuzzles-odd-even.json": [
            "fpuzzles-odd-even.json:10:39:",
            "r2c2 has an odd mark and an even mark",
        ],
    }
    skyscrapers_clues {
        "skyscrapers-clue-count.toml": [
            "skyscrapers-clue-count.toml:3:8:",
            "left has 3 clues, but the grid is 4×4: give one per row",
        ],
        "skyscrapers-no-clues.toml": ["a skyscrapers puzzle needs edge clues"],
        "skyscrapers-clue-range.toml": [
            "skyscrapers-clue-range.toml:2:12:",
            "5 is out of range: values go from 1 to 4",
        ],
    }
}

#[test]
fn empty_line_and_kakuro_files() {
    for (fmt, what) in [
        (InputFormat::Lines, "no puzzles"),
        (InputFormat::Kakuro, "the file is empty"),
    ] {
        parse_error("\n# nothing\n", "x.in", Some(fmt), &["x.in: ", what]);
    }
}

#[test]
fn box_shape_required_when_not_square() {
    refused_with(
        "box-missing.toml",
        &["box-missing.toml:2:", "needs a box shape", "box = \"2x3\""],
    );
    for (n, shape) in [(8, "2x4"), (12, "3x4")] {
        let row = vec!["."; n].join(" ");
        let text = format!(
            "kind = \"sudoku\"\ngivens = \"\"\"\n{}\"\"\"\n",
            format!("{row}\n").repeat(n)
        );
        parse_error(&text, "g.toml", None, &[&format!("box = \"{shape}\"")]);
    }
}

#[test]
fn kakuro_unreachable_sum() {
    parse_error(
        "x,3|,20|\n|3,_,_\n|20,_,_\n",
        "k.kakuro",
        None,
        &[
            "k.kakuro:1:",
            "has 2 cells, so its sum must be between 3 and 17, not 20",
        ],
    );
}

#[test]
fn line_files_name_each_puzzle_by_line() {
    let text = "# two\n1234341221434321\n\n................\n";
    let ps =
        parse_str(text, &Location::file("d/two.txt"), Some(InputFormat::Lines)).expect("parses");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["d/two.txt:2", "d/two.txt:4"]);
    parse_error(
        "1..1............\n",
        "r.txt",
        Some(InputFormat::Lines),
        &["r.txt:1:4:", "1 appears twice in row 1 (r1c1 and r1c4)"],
    );
    parse_error(
        &".".repeat(36),
        "six.txt",
        Some(InputFormat::Lines),
        &["six.txt:1:1:", "box = \"2x3\""],
    );
}

#[test]
fn unreadable_file() {
    let e = load(Path::new("tests/fixtures/bad/no-such-file.toml"), None).expect_err("missing");
    has(&e.to_string(), &["no-such-file.toml: no such file"]);
}

/// A newcomer's first typo, a name a letter off or a folder that is not
/// there, is answered with the fix: the file meant, or where the folder
/// ends; else how to start a puzzle file.
#[test]
fn a_missing_file_names_the_file_meant() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let new = common::smtgrid(&["new", "killer"]);
    std::fs::write(dir.path().join("killer-9x9.toml"), &new.stdout).expect("written");
    let cases = [
        (
            "killer-9x9.tom",
            "no such file (did you mean `killer-9x9.toml`?)",
        ),
        (
            "kiler-9x9.toml",
            "no such file (did you mean `killer-9x9.toml`?)",
        ),
        (
            "puzles/killer-9x9.toml",
            "no such file: there is no folder `puzles`",
        ),
        (
            "sudoku.toml",
            "no such file: `smtgrid new sudoku > sudoku.toml` writes a starter",
        ),
    ];
    for (path, message) in cases {
        let o = common::smtgrid_in(dir.path(), &["solve", path]);
        assert_eq!(o.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.trim_end(),
            format!("smtgrid: {path}: {message}"),
            "{path}"
        );
    }
}

#[test]
fn single_line_strings_and_compact_rows() {
    // A grid in a one-line string still reports its line.
    let text = "kind = \"sudoku\"\nbox = \"1x2\"\ngivens = \"1 2\\n2 2\"\n";
    parse_error(text, "s.toml", None, &["s.toml:3", "2 appears twice"]);
    let text = "kind = \"sudoku\"\ngivens = \"\"\"\n1234567891\n\"\"\"\n";
    parse_error(
        text,
        "c.toml",
        None,
        &["c.toml:3:1:", "without spaces works only up to 9 wide"],
    );
}

#[test]
fn titles_and_labels_are_kept_as_given() {
    let text = "kind = \"killer\"\nbox = \"1x2\"\ntitle = \"two\\nlines\"\ncages = \"\"\"\nAb Ab\nc_1 c_1\n\"\"\"\n\
                [clues]\nAb = 3\nc_1 = \"3+\"\n";
    let ps = parse_str(text, &Location::file("t.toml"), None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ps[0].title.as_deref(), Some("two\nlines"));
    let labels: Vec<&str> = ps[0].cages().iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["Ab", "c_1"]);
    assert_eq!(ps[0].cages()[0].clue_text, "3");
    // A key written after [clues] belongs to the clues: here a clue named
    // `distinct-cages`, whose label is not on the grid.
    let text = format!("{text}distinct-cages = false\n");
    parse_error(
        &text,
        "t.toml",
        None,
        &["t.toml:11:18:", "clue for 'distinct-cages'"],
    );
}

#[test]
fn toml_syntax_errors_are_one_line_with_the_fix() {
    refused_with(
        "table-header.toml",
        &[
            "table-header.toml:8:7:",
            "invalid table header; expected",
            "[table] headers",
        ],
    );
    // A NUL is shown escaped, never raw.
    let m = refused_with(
        "nul-in-string.toml",
        &[
            "nul-in-string.toml:3:8:",
            "the character \\0 is not allowed",
        ],
    );
    assert!(!m.contains('\0'), "{m:?}");
}

#[test]
fn control_characters_in_a_line_are_escaped() {
    let m = refused_with(
        "line-with-nul.txt",
        &["line-with-nul.txt:1:41:", "'\\0' is not a value"],
    );
    assert!(!m.contains('\0'), "{m:?}");
}

#[test]
fn recorded_solution_that_breaks_a_rule() {
    refused_with(
        "wrong-solution.toml",
        &[
            "wrong-solution.toml:12:1:",
            "the recorded solution is wrong: column 1 is broken",
            "r3c1=1",
        ],
    );
    refused_with(
        "kakuro-wrong-solution.toml",
        &[
            "kakuro-wrong-solution.toml:11:3:",
            "down run at r1c2: sum 12 is broken",
        ],
    );
    // Breaking a given is named as such.
    let text =
        "kind = \"sudoku\"\nbox = \"1x2\"\ngivens = \"1 .\\n. .\"\nsolution = \"2 1\\n1 2\"\n";
    parse_error(text, "g.toml", None, &["g.toml:4:", "given r1c1 is broken"]);
}

#[test]
fn every_line_ending_is_read() {
    let lf = std::fs::read_to_string("puzzles/classic.toml").expect("classic.toml");
    let want = parse_str(&lf, &Location::file("c.toml"), None).expect("LF");
    for ending in ["\r", "\r\n"] {
        let text = lf.replace('\n', ending);
        let got = parse_str(&text, &Location::file("c.toml"), None)
            .unwrap_or_else(|e| panic!("{ending:?}: {e}"));
        assert_eq!(got, want, "{ending:?}");
    }
    // Lines keep their numbers in messages.
    parse_error(
        "kind = \"sudoku\"\rbox = \"1x2\"\rgivens = \"\"\"\r1 2\r2 2\r\"\"\"\r",
        "cr.toml",
        None,
        &["cr.toml:5:3:", "2 appears twice"],
    );
    let ps = parse_str(
        "1234341221434321\r................\r",
        &Location::file("cr.txt"),
        None,
    )
    .expect("CR line file");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["cr.txt:1", "cr.txt:2"]);
}

#[test]
fn every_shipped_puzzle_loads_with_its_solution_checked() {
    // The collections in subdirectories (puzzles/killers/…) too.
    let mut dirs = vec![std::path::PathBuf::from("puzzles")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("puzzles/") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x != "md") {
                load(&path, None).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
}

/// The first error of each broken file of `tests/fixtures/grid-keys/`
/// (the keys that make a grid: givens, `box`, cages and clues, regions,
/// futoshiki and kakuro grids, edge clues, solutions), byte for byte as
/// `expected.txt` has it, one line per file in the order of their names.
/// It pins the order in which the grid keys are checked (a killer: the
/// givens, its cages grid's shape, the two sizes, the box shape, the
/// givens' repeats in rows, columns and boxes, then the clues), which the
/// steps of `elements::GridStep` decide.
#[test]
fn grid_keys_show_their_first_error() {
    let dir = Path::new("tests/fixtures/grid-keys");
    let expected = std::fs::read_to_string(dir.join("expected.txt"))
        .expect("tests/fixtures/grid-keys/expected.txt");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/fixtures/grid-keys/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), expected.lines().count(), "one line per file");
    assert!(files.len() >= 40);
    for (path, want) in files.iter().zip(expected.lines()) {
        let Err(e) = load(path, None) else {
            panic!("{} was accepted", path.display());
        };
        assert_eq!(e.to_string(), want, "{}", path.display());
    }
}

/// Reading a puzzle file costs time linear in its tables: each cell was
/// located by counting lines from the start of the file, checked against
/// every element read before, and each table put in place moved every
/// element after it, so 16,000 tables took 8.6 s and 100,000 never ended.
/// 40,000 tables, the later element's first, now read in about a second
/// (unoptimized); the old code took minutes.
// Parsed in this test process: not in tests/input_limits.rs, whose
// children's peak memory counts from the parent's size at the fork.
#[test]
fn a_file_of_many_tables_reads_in_linear_time() {
    const TABLES: usize = 20_000;
    let mut text = String::from("kind = \"sudoku\"\ngivens = \"\"\"\n");
    text.push_str(&".........\n".repeat(9));
    text.push_str("\"\"\"\n");
    text.push_str(&"[[extra-region]]\ncells = \"r1c1 r1c2\"\n".repeat(TABLES));
    text.push_str(&"[[thermometer]]\ncells = \"r1c1 r1c2\"\n".repeat(TABLES));
    let started = std::time::Instant::now();
    let p = smtgrid::parse::parse_str(&text, &smtgrid::Location::file("many.toml"), None)
        .expect("reads");
    let took = started.elapsed();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].elements.len(), 2 * TABLES + 2);
    assert!(
        took.as_secs() < 20,
        "{TABLES} + {TABLES} tables took {took:?}"
    );
}
