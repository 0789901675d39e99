//! Bad input: every case gives a clear message naming the file, the line
//! (and column where it helps) and what is wrong — never a panic.

use std::path::Path;

use smtgrid::Location;
use smtgrid::parse::{InputFormat, load, parse_str};

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

#[test]
fn empty_file() {
    let m = refused("empty.toml");
    has(&m, &["empty.toml: the file is empty"]);
    let m = refused("comments-only.toml");
    has(&m, &["the file is empty"]);
}

#[test]
fn empty_line_and_kakuro_files() {
    for (fmt, what) in [
        (InputFormat::Lines, "no puzzles"),
        (InputFormat::Kakuro, "the file is empty"),
    ] {
        let e = parse_str("\n# nothing\n", &Location::file("x.in"), Some(fmt)).expect_err("empty");
        has(&e.to_string(), &["x.in: ", what]);
    }
}

#[test]
fn toml_syntax_error() {
    let m = refused("syntax.toml");
    // The string on line 2 is never closed.
    has(&m, &["syntax.toml:2:", "TOML"]);
}

#[test]
fn unknown_kind() {
    let m = refused("unknown-kind.toml");
    has(
        &m,
        &[
            "unknown-kind.toml:2:8:",
            "unknown kind 'hexoku'",
            "sudoku",
            "kakuro",
        ],
    );
}

#[test]
fn unknown_key_lists_the_allowed_ones() {
    let m = refused("unknown-key.toml");
    has(
        &m,
        &["unknown-key.toml:2:1:", "givnes", "givens", "solution"],
    );
}

#[test]
fn key_of_another_kind() {
    let m = refused("key-for-other-kind.toml");
    has(
        &m,
        &[
            "key-for-other-kind.toml:8:",
            "`cages` does not apply to a sudoku",
        ],
    );
}

#[test]
fn rows_of_different_lengths() {
    let m = refused("ragged.toml");
    has(
        &m,
        &[
            "ragged.toml:6:1:",
            "row 3 of givens has 8 cells, but the grid is 9 wide",
        ],
    );
}

#[test]
fn grid_not_square() {
    let m = refused("not-square.toml");
    has(
        &m,
        &["not-square.toml:2:", "3 rows but is 4 wide", "square"],
    );
}

#[test]
fn value_out_of_range() {
    let m = refused("out-of-range.toml");
    has(
        &m,
        &[
            "out-of-range.toml:5:5:",
            "7 is out of range: values go from 1 to 4",
        ],
    );
    let m = refused("not-a-value.toml");
    has(&m, &["not-a-value.toml:4:5:", "'a' is not a value"]);
}

#[test]
fn given_repeated_in_a_row() {
    let m = refused("repeat-row.toml");
    has(
        &m,
        &[
            "repeat-row.toml:4:19:",
            "5 appears twice in row 2 (r2c2 and r2c8)",
        ],
    );
}

#[test]
fn given_repeated_in_a_column() {
    let m = refused("repeat-column.toml");
    has(
        &m,
        &[
            "repeat-column.toml:6:1:",
            "1 appears twice in column 1 (r1c1 and r4c1)",
        ],
    );
}

#[test]
fn given_repeated_in_a_box() {
    let m = refused("repeat-box.toml");
    has(
        &m,
        &[
            "repeat-box.toml:4:3:",
            "1 appears twice in box 1 (r1c1 and r2c2)",
        ],
    );
}

#[test]
fn box_shape_that_does_not_fit() {
    let m = refused("box-misfit.toml");
    has(
        &m,
        &[
            "box-misfit.toml:2:7:",
            "box 2x4 does not fit a 9×9 grid",
            "box = \"3x3\"",
        ],
    );
}

#[test]
fn box_shape_required_when_not_square() {
    let m = refused("box-missing.toml");
    has(
        &m,
        &["box-missing.toml:2:", "needs a box shape", "box = \"2x3\""],
    );
    for (n, shape) in [(8, "2x4"), (12, "3x4")] {
        let row = vec!["."; n].join(" ");
        let text = format!(
            "kind = \"sudoku\"\ngivens = \"\"\"\n{}\"\"\"\n",
            format!("{row}\n").repeat(n)
        );
        let e = parse_str(&text, &Location::file("g.toml"), None).expect_err("no box");
        has(&e.to_string(), &[&format!("box = \"{shape}\"")]);
    }
}

#[test]
fn cage_label_without_clue() {
    let m = refused("cage-no-clue.toml");
    has(
        &m,
        &[
            "cage-no-clue.toml:5:5:",
            "cage label 'q' has no clue",
            "q = \"12+\"",
            "default-clue",
        ],
    );
}

#[test]
fn clue_for_a_label_not_on_the_grid() {
    let m = refused("clue-not-on-grid.toml");
    has(
        &m,
        &[
            "clue-not-on-grid.toml:18:5:",
            "clue for 'z'",
            "no cell of the cages grid is labelled 'z'",
        ],
    );
}

#[test]
fn malformed_clue() {
    let m = refused("bad-clue.toml");
    has(
        &m,
        &[
            "bad-clue.toml:11:5:",
            "'8%' is not a clue",
            "N+",
            "N*",
            "N-",
            "N/",
            "square",
        ],
    );
}

#[test]
fn clue_that_cannot_apply() {
    let m = refused("clue-cannot-apply.toml");
    has(
        &m,
        &[
            "clue-cannot-apply.toml:12:5:",
            "'3-'",
            "cage 'c'",
            "at least two cells",
            "r2c2",
        ],
    );
}

#[test]
fn cage_in_separate_pieces() {
    let m = refused("cage-in-pieces.toml");
    has(
        &m,
        &[
            "cage-in-pieces.toml:7:7:",
            "cage 'a' is in separate pieces",
            "r4c4",
        ],
    );
}

#[test]
fn unknown_kakuro_token() {
    let m = refused("kakuro-token.kakuro");
    has(
        &m,
        &[
            "kakuro-token.kakuro:3:6:",
            "unknown kakuro square 'y'",
            "_",
            "D|A",
        ],
    );
    let m = refused("kakuro-toml-token.toml");
    has(
        &m,
        &["kakuro-toml-token.toml:6:8:", "unknown kakuro square '?'"],
    );
}

#[test]
fn kakuro_run_without_clue() {
    let m = refused("kakuro-no-clue.kakuro");
    has(
        &m,
        &[
            "kakuro-no-clue.kakuro:2:3:",
            "white cell r2c2 is in an across run with no clue",
        ],
    );
}

#[test]
fn kakuro_clue_without_run() {
    let m = refused("kakuro-empty-run.kakuro");
    has(
        &m,
        &[
            "kakuro-empty-run.kakuro:1:",
            "r1c4 gives a down sum of 5, but no white cell is below it",
        ],
    );
}

#[test]
fn kakuro_run_longer_than_nine() {
    let m = refused("kakuro-long-run.kakuro");
    has(
        &m,
        &[
            "kakuro-long-run.kakuro:2:1:",
            "the across run at r2c1 has 10 cells",
            "at most 9",
        ],
    );
}

#[test]
fn kakuro_unreachable_sum() {
    let e = parse_str(
        "x,3|,20|\n|3,_,_\n|20,_,_\n",
        &Location::file("k.kakuro"),
        None,
    )
    .expect_err("20 in two cells");
    has(
        &e.to_string(),
        &[
            "k.kakuro:1:",
            "has 2 cells, so its sum must be between 3 and 17, not 20",
        ],
    );
}

#[test]
fn file_not_utf8() {
    let m = refused("not-utf8.toml");
    has(&m, &["not-utf8.toml:2:", "not UTF-8", "0xe9", "offset 28"]);
}

#[test]
fn size_over_the_maximum() {
    let m = refused("too-big.toml");
    has(&m, &["too-big.toml:3:", "65×65", "maximum of 64×64"]);
}

#[test]
fn bad_sudoku_lines() {
    let m = refused("bad-line.txt");
    has(
        &m,
        &["bad-line.txt:3:50:", "'a' is not a value of a 9×9 sudoku"],
    );
    let m = refused("short-line.txt");
    has(&m, &["short-line.txt:2:1:", "81 for a 9×9", "has 80"]);
}

#[test]
fn line_files_name_each_puzzle_by_line() {
    let text = "# two\n1234341221434321\n\n................\n";
    let ps =
        parse_str(text, &Location::file("d/two.txt"), Some(InputFormat::Lines)).expect("parses");
    let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["d/two.txt:2", "d/two.txt:4"]);
    let e = parse_str(
        "1..1............\n",
        &Location::file("r.txt"),
        Some(InputFormat::Lines),
    )
    .expect_err("repeat");
    has(
        &e.to_string(),
        &["r.txt:1:4:", "1 appears twice in row 1 (r1c1 and r1c4)"],
    );
    let e = parse_str(
        &".".repeat(36),
        &Location::file("six.txt"),
        Some(InputFormat::Lines),
    )
    .expect_err("6x6");
    has(&e.to_string(), &["six.txt:1:1:", "box = \"2x3\""]);
}

#[test]
fn solution_with_a_blank() {
    let m = refused("solution-blank.toml");
    has(&m, &["solution-blank.toml:12:7:", "leaves r4c4 blank"]);
}

#[test]
fn unreadable_file() {
    let e = load(Path::new("tests/fixtures/bad/no-such-file.toml"), None).expect_err("missing");
    has(&e.to_string(), &["no-such-file.toml: cannot read the file"]);
}

#[test]
fn single_line_strings_and_compact_rows() {
    // A grid in a one-line string still reports its line.
    let text = "kind = \"sudoku\"\nbox = \"1x2\"\ngivens = \"1 2\\n2 2\"\n";
    let e = parse_str(text, &Location::file("s.toml"), None).expect_err("repeat");
    has(&e.to_string(), &["s.toml:3", "2 appears twice"]);
    let text = "kind = \"sudoku\"\ngivens = \"\"\"\n1234567891\n\"\"\"\n";
    let e = parse_str(text, &Location::file("c.toml"), None).expect_err("compact 10");
    has(
        &e.to_string(),
        &["c.toml:3:1:", "without spaces works only up to 9 wide"],
    );
}

#[test]
fn titles_and_labels_are_kept_as_given() {
    let text = "kind = \"killer\"\nbox = \"1x2\"\ntitle = \"two\\nlines\"\ncages = \"\"\"\nAb Ab\nc_1 c_1\n\"\"\"\n\
                [clues]\nAb = 3\nc_1 = \"3+\"\n";
    let ps = parse_str(text, &Location::file("t.toml"), None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ps[0].title.as_deref(), Some("two\nlines"));
    let labels: Vec<&str> = ps[0].cages.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["Ab", "c_1"]);
    assert_eq!(ps[0].cages[0].clue_text, "3");
    // A key written after [clues] belongs to the clues: here a clue named
    // `distinct-cages`, whose label is not on the grid.
    let text = format!("{text}distinct-cages = false\n");
    let e = parse_str(&text, &Location::file("t.toml"), None).expect_err("key under [clues]");
    has(
        &e.to_string(),
        &["t.toml:11:18:", "clue for 'distinct-cages'"],
    );
}

#[test]
fn wrong_type_names_the_key_and_what_it_must_be() {
    let m = refused("kind-datetime.toml");
    has(
        &m,
        &[
            "kind-datetime.toml:1:8:",
            "kind must be a string: one of sudoku, killer, calcudoku, kakuro, jigsaw, futoshiki or skyscrapers",
            "not a datetime",
        ],
    );
    let m = refused("bool-as-string.toml");
    has(
        &m,
        &[
            "bool-as-string.toml:2:18:",
            "distinct-cages must be true or false, not a string",
        ],
    );
}

#[test]
fn jigsaw_regions() {
    let m = refused("jigsaw-region-size.toml");
    has(
        &m,
        &[
            "jigsaw-region-size.toml:5:1:",
            "region 'c' has 5 cells, but every region of a 4×4 jigsaw has 4",
        ],
    );
    let m = refused("jigsaw-no-regions.toml");
    has(&m, &["a jigsaw puzzle needs its regions: add regions ="]);
    let m = refused("jigsaw-region-pieces.toml");
    has(
        &m,
        &[
            "jigsaw-region-pieces.toml:6:1:",
            "region 'a' is in separate pieces (r4c1 is not connected to r1c1)",
        ],
    );
    let m = refused("jigsaw-repeat-region.toml");
    has(
        &m,
        &[
            "jigsaw-repeat-region.toml:11:3:",
            "1 appears twice in region 1 (r1c1 and r3c2)",
        ],
    );
}

#[test]
fn toml_syntax_errors_are_one_line_with_the_fix() {
    let m = refused("table-header.toml");
    has(
        &m,
        &[
            "table-header.toml:8:7:",
            "invalid table header; expected",
            "[table] headers",
        ],
    );
    // A NUL is shown escaped, never raw.
    let m = refused("nul-in-string.toml");
    has(
        &m,
        &[
            "nul-in-string.toml:3:8:",
            "the character \\0 is not allowed",
        ],
    );
    assert!(!m.contains('\0'), "{m:?}");
}

#[test]
fn control_characters_in_a_line_are_escaped() {
    let m = refused("line-with-nul.txt");
    has(&m, &["line-with-nul.txt:1:41:", "'\\0' is not a value"]);
    assert!(!m.contains('\0'), "{m:?}");
}

#[test]
fn sudoku_with_an_empty_clues_table() {
    let m = refused("sudoku-empty-clues.toml");
    has(
        &m,
        &[
            "sudoku-empty-clues.toml:8:1:",
            "a sudoku has no cages",
            "kind = \"killer\"",
        ],
    );
}

#[test]
fn diagonals() {
    let m = refused("diagonal-repeat.toml");
    has(
        &m,
        &[
            "diagonal-repeat.toml:2:13:",
            "diagonals = true, but 1 appears twice in the main diagonal (r1c1 and r3c3)",
        ],
    );
    let m = refused("diagonals-on-futoshiki.toml");
    has(
        &m,
        &[
            "diagonals-on-futoshiki.toml:2:",
            "`diagonals` does not apply to a futoshiki puzzle",
        ],
    );
}

#[test]
fn recorded_solution_that_breaks_a_rule() {
    let m = refused("wrong-solution.toml");
    has(
        &m,
        &[
            "wrong-solution.toml:12:1:",
            "the recorded solution is wrong: column 1 is broken",
            "r3c1=1",
        ],
    );
    let m = refused("kakuro-wrong-solution.toml");
    has(
        &m,
        &[
            "kakuro-wrong-solution.toml:11:3:",
            "down run at r1c2: sum 12 is broken",
        ],
    );
    // Breaking a given is named as such.
    let text =
        "kind = \"sudoku\"\nbox = \"1x2\"\ngivens = \"1 .\\n. .\"\nsolution = \"2 1\\n1 2\"\n";
    let e = parse_str(text, &Location::file("g.toml"), None).expect_err("given broken");
    has(&e.to_string(), &["g.toml:4:", "given r1c1 is broken"]);
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
    let e = parse_str(
        "kind = \"sudoku\"\rbox = \"1x2\"\rgivens = \"\"\"\r1 2\r2 2\r\"\"\"\r",
        &Location::file("cr.toml"),
        None,
    )
    .expect_err("repeat");
    has(&e.to_string(), &["cr.toml:5:3:", "2 appears twice"]);
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
    for entry in std::fs::read_dir("puzzles").expect("puzzles/") {
        let path = entry.expect("entry").path();
        load(&path, None).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn futoshiki_signs() {
    let m = refused("futoshiki-sign-misplaced.toml");
    has(
        &m,
        &[
            "futoshiki-sign-misplaced.toml:4:3:",
            "not under a cell of row 1",
        ],
    );
    let m = refused("futoshiki-sign-at-edge.toml");
    has(
        &m,
        &[
            "futoshiki-sign-at-edge.toml:4:1:",
            "'<' must stand between two cells",
        ],
    );
    let m = refused("futoshiki-sign-contradicts.toml");
    has(
        &m,
        &[
            "futoshiki-sign-contradicts.toml:4:3:",
            "this sign says r2c1 < r2c2, but the givens there are 3 and 2",
        ],
    );
    let m = refused("futoshiki-glued.toml");
    has(
        &m,
        &[
            "futoshiki-glued.toml:4:1:",
            "separate values and signs with spaces",
        ],
    );
}

#[test]
fn skyscrapers_clues() {
    let m = refused("skyscrapers-clue-count.toml");
    has(
        &m,
        &[
            "skyscrapers-clue-count.toml:3:8:",
            "left has 3 clues, but the grid is 4×4: give one per row",
        ],
    );
    let m = refused("skyscrapers-no-clues.toml");
    has(&m, &["a skyscrapers puzzle needs edge clues"]);
    let m = refused("skyscrapers-clue-range.toml");
    has(
        &m,
        &[
            "skyscrapers-clue-range.toml:2:12:",
            "5 is out of range: values go from 1 to 4",
        ],
    );
}
