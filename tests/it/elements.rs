//! Every element of the registry against a real solver (z3): one small
//! unique puzzle comes back as its solution, uniqueness proved, in every
//! encoding; one broken puzzle is unsat in every encoding and `explain`
//! names the element's instance in its conflict. Also: each element's TOML
//! reads back from what `convert` writes, bad values exit 2 naming the
//! file, line and column, and the picture draws each element.

use crate::common;
use crate::common::overlaps;

use std::path::{Path, PathBuf};

use common::{require, smtgrid};
use serde_json::Value;
use smtgrid::error::Location;
use smtgrid::parse::{parse_str, to_toml};

/// One element's two test puzzles.
struct Case {
    /// The element, for messages.
    element: &'static str,
    /// A puzzle the element makes unique.
    unique: &'static str,
    /// Its solution, row by row.
    solution: &'static [&'static str],
    /// A puzzle the element makes unsolvable.
    broken: &'static str,
    /// What `explain` names in the broken puzzle's conflict.
    conflict: &'static str,
    /// What the unique puzzle's picture holds (an SVG class), if the
    /// element draws.
    drawn: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        element: "thermometer",
        unique: r#"kind = "sudoku"
givens = """
....
....
....
..2.
"""

[[thermometer]]
cells = "r1c3 r2c4 r2c3 r1c4"

[[thermometer]]
cells = "r2c1 r1c1 r1c2 r2c2"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
2...
....
....
....
"""

[[thermometer]]
cells = "r1c1 r1c2 r1c3 r1c4"
"#,
        conflict: "thermometer 1 (r1c1→r1c2→r1c3→r1c4)",
        drawn: Some("class=\"thermometer\""),
    },
    Case {
        element: "slow-thermometer",
        unique: r#"kind = "sudoku"
givens = """
....
..3.
.2..
....
"""

[[slow-thermometer]]
cells = "r1c1 r1c2 r2c2 r3c3"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
4...
....
....
....
"""

[[slow-thermometer]]
cells = "r1c1 r1c2"
"#,
        conflict: "slow-thermometer 1 (r1c1→r1c2)",
        drawn: Some("class=\"slow-thermometer\""),
    },
    Case {
        element: "kropki",
        unique: r#"kind = "sudoku"
kropki-negative = true
givens = """
....
....
....
....
"""

# Every dot of the solution, as an inline array of tables.
kropki = [
    { cells = "r1c1 r1c2" },
    { cells = "r1c1 r2c1" },
    { cells = "r1c2 r2c2" },
    { cells = "r1c4 r2c4", color = "black" },
    { cells = "r2c2 r2c3" },
    { cells = "r2c2 r3c2", color = "black" },
    { cells = "r2c3 r2c4" },
    { cells = "r2c3 r3c3" },
    { cells = "r2c4 r3c4" },
    { cells = "r3c1 r3c2" },
    { cells = "r3c1 r4c1" },
    { cells = "r3c2 r3c3", color = "black" },
    { cells = "r3c2 r4c2" },
    { cells = "r3c3 r4c3", color = "black" },
    { cells = "r4c2 r4c3" },
    { cells = "r4c3 r4c4" },
]
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
34..
....
....
....
"""

[[kropki]]
cells = "r1c1 r1c2"
color = "black"
"#,
        conflict: "kropki 1 (black 2, r1c1|r1c2)",
        drawn: Some("class=\"kropki\""),
    },
    Case {
        element: "anti-knight",
        unique: r#"kind = "sudoku"
anti-knight = true
givens = """
..3.
..2.
..1.
....
"""
"#,
        solution: &["1234", "4321", "3412", "2143"],
        broken: r#"kind = "sudoku"
anti-knight = true
givens = """
1...
..1.
....
....
"""
"#,
        conflict: "anti-knight from r1c1",
        drawn: None,
    },
    Case {
        element: "anti-king",
        unique: r#"kind = "sudoku"
box = "2x3"
anti-king = true
givens = """
3..61.
.2..5.
1.3...
......
......
......
"""
"#,
        solution: &["345612", "621453", "153264", "264531", "532146", "416325"],
        broken: r#"kind = "sudoku"
box = "2x3"
anti-king = true
givens = """
......
..1...
...1..
......
......
......
"""
"#,
        conflict: "anti-king from r2c3",
        drawn: None,
    },
    Case {
        element: "arrow",
        unique: r#"kind = "sudoku"
givens = """
.3..
1...
....
....
"""

[[arrow]]
cells = "r1c4 r2c3 r3c4"

[[arrow]]
cells = "r4c1 r3c1 r4c2"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[arrow]]
cells = "r1c1 r1c2 r2c2"
circle = 2
"#,
        conflict: "arrow 1 (r1c1→r1c2→r2c2)",
        drawn: Some("class=\"arrow\""),
    },
    Case {
        element: "double-arrow",
        unique: r#"kind = "sudoku"
givens = """
2.1.
1.3.
....
....
"""

[[double-arrow]]
cells = "r1c1 r2c1 r3c2 r4c2"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
4.3.
....
....
....
"""

[[double-arrow]]
cells = "r1c1 r1c2 r1c3"
"#,
        conflict: "double-arrow 1 (r1c1→r1c2→r1c3)",
        drawn: Some("class=\"double-arrow\""),
    },
    Case {
        element: "whispers",
        unique: r#"kind = "sudoku"
givens = """
2...
....
....
....
"""

[[whispers]]
cells = "r1c3 r1c4 r2c4 r3c3 r4c2"

[[whispers]]
cells = "r2c1 r3c1"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
.2..
....
....
....
"""

[[whispers]]
cells = "r1c1 r1c2 r1c3"
"#,
        conflict: "whispers 1 (r1c1→r1c2→r1c3)",
        drawn: Some("class=\"whispers\""),
    },
    Case {
        element: "renban",
        unique: r#"kind = "sudoku"
givens = """
2.1.
1.3.
....
....
"""

[[renban]]
cells = "r1c1 r1c2"

[[renban]]
cells = "r3c3 r4c3 r4c4"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
13..
....
....
....
"""

[[renban]]
cells = "r1c1 r1c2"
"#,
        conflict: "renban 1 (r1c1→r1c2)",
        drawn: Some("class=\"renban\""),
    },
    Case {
        element: "palindrome",
        unique: r#"kind = "sudoku"
givens = """
2.1.
1.3.
....
....
"""

[[palindrome]]
cells = "r1c1 r2c1 r3c2"

[[palindrome]]
cells = "r1c4 r2c3 r3c3"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[palindrome]]
cells = "r1c1 r1c2"
"#,
        conflict: "palindrome 1 (r1c1→r1c2)",
        drawn: Some("class=\"palindrome\""),
    },
    Case {
        element: "between-line",
        unique: r#"kind = "sudoku"
givens = """
2.1.
1...
....
....
"""

[[between-line]]
cells = "r1c3 r2c3 r3c3"

[[between-line]]
cells = "r4c2 r4c3 r4c4"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
1...
.2..
....
....
"""

[[between-line]]
cells = "r1c1 r2c1 r2c2"
"#,
        conflict: "between-line 1 (r1c1→r2c1→r2c2)",
        drawn: Some("class=\"between-line\""),
    },
    Case {
        element: "region-sum-line",
        unique: r#"kind = "sudoku"
givens = """
2.1.
1.3.
3...
....
"""

[[region-sum-line]]
cells = "r2c1 r2c2 r1c3 r1c4"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[region-sum-line]]
cells = "r1c2 r1c3"
"#,
        conflict: "region-sum-line 1 (r1c2→r1c3)",
        drawn: Some("class=\"region-sum-line\""),
    },
    Case {
        element: "zipper-line",
        unique: r#"kind = "sudoku"
givens = """
.3..
1...
3...
....
"""

[[zipper-line]]
cells = "r1c3 r1c4 r2c3"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
4...
....
....
....
"""

[[zipper-line]]
cells = "r1c1 r1c2 r1c3"
"#,
        conflict: "zipper-line 1 (r1c1→r1c2→r1c3)",
        drawn: Some("class=\"zipper-line\""),
    },
    Case {
        element: "entropic-line",
        unique: r#"kind = "sudoku"
box = "2x3"
givens = """
......
..1..3
.....4
.64.31
53....
......
"""

[[entropic-line]]
cells = "r3c1 r3c2 r3c3 r3c4 r3c5 r3c6"
"#,
        solution: &["345612", "621453", "153264", "264531", "532146", "416325"],
        broken: r#"kind = "sudoku"
box = "2x3"
givens = """
12....
......
......
......
......
......
"""

[[entropic-line]]
cells = "r1c1 r1c2"
"#,
        conflict: "entropic-line 1 (r1c1→r1c2)",
        drawn: Some("class=\"entropic-line\""),
    },
    Case {
        element: "modular-line",
        unique: r#"kind = "sudoku"
box = "2x3"
givens = """
......
...45.
..3..4
.64..1
53....
......
"""

[[modular-line]]
cells = "r1c1 r1c2 r1c3 r1c4 r1c5 r1c6"
"#,
        solution: &["345612", "621453", "153264", "264531", "532146", "416325"],
        broken: r#"kind = "sudoku"
box = "2x3"
givens = """
14....
......
......
......
......
......
"""

[[modular-line]]
cells = "r1c1 r1c2"
"#,
        conflict: "modular-line 1 (r1c1→r1c2)",
        drawn: Some("class=\"modular-line\""),
    },
    Case {
        element: "nabner",
        unique: r#"kind = "sudoku"
givens = """
2...
..3.
....
....
"""

[[nabner]]
cells = "r1c1 r2c2"

[[nabner]]
cells = "r1c3 r1c4"

[[nabner]]
cells = "r3c2 r3c3"

[[nabner]]
cells = "r4c1 r4c2"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
12..
....
....
....
"""

[[nabner]]
cells = "r1c1 r1c2"
"#,
        conflict: "nabner 1 (r1c1→r1c2)",
        drawn: Some("class=\"nabner\""),
    },
    Case {
        element: "lockout-line",
        unique: r#"kind = "sudoku"
givens = """
..1.
1...
3...
....
"""

[[lockout-line]]
cells = "r1c3 r1c4 r2c3"
difference = 2
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
1.4.
....
....
....
"""

[[lockout-line]]
cells = "r1c1 r1c2 r1c3"
"#,
        conflict: "lockout-line 1 (r1c1→r1c2→r1c3)",
        drawn: Some("class=\"lockout-line\""),
    },
    Case {
        element: "xv",
        unique: r#"kind = "sudoku"
xv-negative = true
givens = """
2...
.4..
..4.
...3
"""

xv = [
    { cells = "r1c1 r1c2", letter = "V" },
    { cells = "r1c3 r1c4", letter = "V" },
    { cells = "r2c1 r2c2", letter = "V" },
    { cells = "r2c3 r2c4", letter = "V" },
    { cells = "r3c1 r3c2", letter = "V" },
    { cells = "r3c3 r3c4", letter = "V" },
    { cells = "r4c1 r4c2", letter = "V" },
    { cells = "r4c3 r4c4", letter = "V" },
]
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
12..
....
....
....
"""

[[xv]]
cells = "r1c1 r1c2"
letter = "V"
"#,
        conflict: "xv 1 (V r1c1|r1c2)",
        drawn: Some("class=\"xv\""),
    },
    Case {
        element: "odd-even",
        unique: r#"kind = "sudoku"
givens = """
....
....
..4.
.1..
"""

[[odd]]
cells = "r2c1 r3c1 r4c4"

[[even]]
cells = "r2c4"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        // Not a given of the other parity, which is refused up front:
        // three odd cells in a row of 1 to 4.
        broken: r#"kind = "sudoku"
givens = """
1...
....
....
....
"""

[[odd]]
cells = "r1c2 r1c3"
"#,
        conflict: "odd (r1c2)",
        drawn: Some("class=\"odd\""),
    },
    Case {
        element: "candidates",
        unique: r#"kind = "sudoku"
givens = """
....
....
..4.
.1..
"""

[[candidates]]
cells = "r2c3 r3c1"
values = [3, 4]
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
2...
....
....
....
"""

[[candidates]]
cells = "r1c2"
values = [2]
"#,
        conflict: "candidates (r1c2 is 2)",
        drawn: Some("class=\"candidates\""),
    },
    Case {
        element: "min-max",
        unique: r#"kind = "sudoku"
givens = """
...4
....
3...
....
"""

[[minimum]]
cells = "r4c2 r3c4 r2c1"

[[maximum]]
cells = "r4c4 r4c1 r3c3 r2c2"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
....
....
....
...1
"""

[[maximum]]
cells = "r4c4"
"#,
        conflict: "maximum (r4c4)",
        drawn: Some("class=\"maximum\""),
    },
    Case {
        element: "clone",
        unique: r#"kind = "sudoku"
givens = """
.31.
....
....
..2.
"""

[[clone]]
cells = "r1c3 r2c3 r2c4"
copies = ["r2c1 r3c1 r3c2"]
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[clone]]
cells = "r1c1"
copies = ["r1c2"]
"#,
        conflict: "clone 1 (r1c1 = r1c2)",
        drawn: Some("class=\"clone\""),
    },
    Case {
        element: "quadruple",
        unique: r#"kind = "sudoku"
givens = """
..1.
....
....
....
"""

[[quadruple]]
cells = "r3c1 r3c2 r4c1 r4c2"
values = [3, 4]

[[quadruple]]
cells = "r2c3 r2c4 r3c3 r3c4"
values = [1, 2]

[[quadruple]]
cells = "r1c2 r1c3 r2c2 r2c3"
values = [3, 3, 4]
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[quadruple]]
cells = "r1c1 r1c2 r2c1 r2c2"
values = [1, 1]
"#,
        conflict: "quadruple 1 (1,1 at r1c1|r2c2)",
        drawn: Some("class=\"quadruple\""),
    },
    Case {
        element: "column-indexer",
        unique: r#"kind = "sudoku"
givens = """
2...
..3.
....
....
"""

[[column-indexer]]
cells = "r3c2 r2c3 r1c4 r2c1"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
23..
....
....
....
"""

[[column-indexer]]
cells = "r1c1"
"#,
        conflict: "column-indexer (r1c1)",
        drawn: Some("class=\"column-indexer\""),
    },
    Case {
        element: "row-indexer",
        unique: r#"kind = "sudoku"
givens = """
....
.4..
....
..2.
"""

[[row-indexer]]
cells = "r1c3 r1c1 r2c4 r2c1"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
2...
3...
....
....
"""

[[row-indexer]]
cells = "r1c1"
"#,
        conflict: "row-indexer (r1c1)",
        drawn: Some("class=\"row-indexer\""),
    },
    Case {
        element: "box-indexer",
        unique: r#"kind = "sudoku"
givens = """
....
1...
3...
....
"""

[[box-indexer]]
cells = "r1c3 r2c4 r2c2 r2c3"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
23..
....
....
....
"""

[[box-indexer]]
cells = "r1c1"
"#,
        conflict: "box-indexer (r1c1)",
        drawn: Some("class=\"box-indexer\""),
    },
    Case {
        element: "killer-cage",
        unique: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[killer-cage]]
cells = "r1c1 r2c1"
sum = 3

[[killer-cage]]
cells = "r1c2 r1c3"
sum = 4

[[killer-cage]]
cells = "r3c3 r4c3"
sum = 6

# Without a sum: the cells only differ (and make the puzzle unique).
[[killer-cage]]
cells = "r2c2 r3c2 r3c1"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
1...
....
.1..
....
"""

[[killer-cage]]
cells = "r1c1 r3c2"
"#,
        conflict: "killer-cage 1 (r1c1 r3c2)",
        drawn: Some("class=\"killer-cage\""),
    },
    Case {
        element: "diagonal",
        unique: r#"kind = "sudoku"
anti-diagonal = true
givens = """
1...
..3.
....
2...
"""
"#,
        solution: &["1324", "4231", "3142", "2413"],
        broken: r#"kind = "sudoku"
main-diagonal = true
givens = """
1...
....
..1.
....
"""
"#,
        conflict: "main diagonal",
        drawn: Some("class=\"diagonal\""),
    },
    Case {
        element: "disjoint-groups",
        unique: r#"kind = "sudoku"
disjoint-groups = true
givens = """
....
..12
....
2..3
"""
"#,
        solution: &["1234", "3412", "4321", "2143"],
        broken: r#"kind = "sudoku"
disjoint-groups = true
givens = """
1...
....
..1.
....
"""
"#,
        conflict: "disjoint-groups 1 (place 1 of every region, from r1c1)",
        drawn: Some("class=\"disjoint-groups\""),
    },
    Case {
        element: "extra-region",
        unique: r#"kind = "sudoku"
windoku = true
givens = """
.24.
...2
.3..
....
"""
"#,
        solution: &["1243", "3412", "4321", "2134"],
        // A given repeated in an extra region is refused on reading, so
        // the conflict is one the givens force: box 2 puts its 1 at r2c3.
        broken: r#"kind = "sudoku"
givens = """
1...
....
...1
....
"""

[[extra-region]]
cells = "r1c1 r2c3"
"#,
        conflict: "extra-region 1 (r1c1 r2c3)",
        drawn: Some("class=\"extra-region\""),
    },
    Case {
        element: "greater-than",
        unique: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[greater-than]]
cells = "r1c2 r1c1"

[[greater-than]]
cells = "r2c3 r2c4"

[[greater-than]]
cells = "r3c3 r2c3"

[[greater-than]]
cells = "r1c1 r2c1"
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
1...
....
....
....
"""

[[greater-than]]
cells = "r1c1 r1c2"
"#,
        conflict: "greater-than 1 (r1c1 > r1c2)",
        drawn: Some("class=\"greater-than\""),
    },
    Case {
        element: "little-killer",
        unique: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

# The corner's only diagonal needs no direction.
[[little-killer]]
at = "r0c0"
value = 13

[[little-killer]]
at = "r4c5"
direction = "up-left"
value = 7

[[little-killer]]
at = "r3c5"
direction = "DL"
value = 3

[[little-killer]]
at = "r5c4"
direction = "up-left"
value = 5
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
2...
....
....
....
"""

[[little-killer]]
at = "r0c0"
value = 4
"#,
        conflict: "little-killer 1 (r0c0 DR: 4)",
        drawn: Some("class=\"little-killer\""),
    },
    Case {
        element: "sandwich",
        unique: r#"kind = "sudoku"
givens = """
..1.
1...
....
....
"""

[[sandwich]]
at = "r5c2"
value = 2

[[sandwich]]
at = "r5c4"
value = 2
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
14..
....
....
....
"""

[[sandwich]]
at = "r1c0"
value = 5
"#,
        conflict: "sandwich 1 (r1c0: 5)",
        drawn: Some("class=\"sandwich\""),
    },
    Case {
        element: "x-sum",
        unique: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[x-sum]]
at = "r0c1"
value = 3

[[x-sum]]
at = "r5c3"
value = 6

[[x-sum]]
at = "r1c5"
value = 10
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
1...
....
....
....
"""

[[x-sum]]
at = "r1c0"
value = 2
"#,
        conflict: "x-sum 1 (r1c0: 2)",
        drawn: Some("class=\"x-sum\""),
    },
    Case {
        element: "skyscraper",
        unique: r#"kind = "sudoku"
givens = """
....
....
....
....
"""

[[skyscraper]]
at = "r2c5"
value = 3

[[skyscraper]]
at = "r3c0"
value = 2

[[skyscraper]]
at = "r0c3"
value = 3

[[skyscraper]]
at = "r5c2"
value = 3
"#,
        solution: &["2314", "1432", "3241", "4123"],
        broken: r#"kind = "sudoku"
givens = """
4...
....
....
....
"""

[[skyscraper]]
at = "r1c0"
value = 2
"#,
        conflict: "skyscraper 1 (r1c0: 2)",
        drawn: Some("class=\"skyscraper\""),
    },
];

/// Writes `text` as `NAME.toml` in `dir`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).expect("the puzzle is written");
    path
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn each_element_makes_its_puzzle_unique_in_every_encoding() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for case in CASES {
        let path = write(dir.path(), case.element, case.unique);
        let path = path.to_str().expect("a UTF-8 path");
        let o = smtgrid(&[
            "solve",
            path,
            "--solver",
            "z3",
            "--encoding",
            "all",
            "--unique",
            "--format",
            "jsonl",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        let runs = json_lines(&o.stdout);
        assert_eq!(runs.len(), 3, "{}: {err}", case.element);
        let want: Vec<Vec<u64>> = case
            .solution
            .iter()
            .map(|row| row.bytes().map(|b| u64::from(b - b'0')).collect())
            .collect();
        for r in &runs {
            assert_eq!(r["status"], "sat", "{}: {r}", case.element);
            assert_eq!(r["unique"], true, "{}: {r}", case.element);
            assert_eq!(r["grid"], serde_json::json!(want), "{}: {r}", case.element);
        }
    }
}

#[test]
fn each_element_breaks_its_broken_puzzle_and_explain_names_it() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for case in CASES {
        let path = write(dir.path(), &format!("{}-broken", case.element), case.broken);
        let path = path.to_str().expect("a UTF-8 path");
        let o = smtgrid(&[
            "solve",
            path,
            "--solver",
            "z3",
            "--encoding",
            "all",
            "--format",
            "jsonl",
        ]);
        let runs = json_lines(&o.stdout);
        assert_eq!(
            runs.len(),
            3,
            "{}: {}",
            case.element,
            String::from_utf8_lossy(&o.stderr)
        );
        for r in &runs {
            assert_eq!(r["status"], "unsat", "{}: {r}", case.element);
        }
        let o = smtgrid(&["explain", path, "--solver", "z3"]);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains(case.conflict),
            "{}: explain should name {}:\n{text}{}",
            case.element,
            case.conflict,
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn each_element_reads_back_from_what_is_written() {
    for case in CASES {
        for text in [case.unique, case.broken] {
            let loc = Location::file("t.toml");
            let p = parse_str(text, &loc, None).expect("the puzzle parses");
            let written = to_toml(&p[0]);
            let back = parse_str(&written, &loc, None)
                .unwrap_or_else(|e| panic!("{}: {e}\n{written}", case.element));
            assert_eq!(back, p, "{}:\n{written}", case.element);
        }
    }
}

#[test]
fn each_element_is_drawn() {
    let loc = Location::file("t.toml");
    for case in CASES {
        let Some(class) = case.drawn else { continue };
        let p = parse_str(case.unique, &loc, None).expect("the puzzle parses");
        let picture = smtgrid::render::svg::svg(&p[0], None);
        assert!(picture.contains(class), "{}: {picture}", case.element);
    }
}

/// Every element of the registry is drawn, with its texts apart (the
/// check of tests/it/pictures.rs), on a puzzle that carries it: its case's
/// unique puzzle (solved and not) or, for the elements a kind's own grid
/// makes (Latin, boxes, cages, kakuro, …), an example puzzle (whose
/// pictures tests/it/pictures.rs checks). A new element without a case
/// fails here.
#[test]
fn every_registered_element_is_drawn_with_its_texts_apart() {
    let loc = Location::file("t.toml");
    let mut puzzles = Vec::new();
    for case in CASES {
        let p = parse_str(case.unique, &loc, None).expect("the puzzle parses");
        let solution: Vec<Vec<Option<i64>>> = case
            .solution
            .iter()
            .map(|row| row.bytes().map(|b| Some(i64::from(b - b'0'))).collect())
            .collect();
        puzzles.push((case.element.to_string(), p[0].clone(), Some(solution)));
    }
    let mut examples = Vec::new();
    for file in common::puzzle_files() {
        examples.extend(smtgrid::parse::load(&file, None).expect("example puzzles load"));
    }
    for entry in smtgrid::elements::REGISTRY {
        let carried =
            |p: &smtgrid::puzzle::Puzzle| p.elements.iter().any(|e| e.name() == entry.name);
        assert!(
            puzzles.iter().any(|(_, p, _)| carried(p)) || examples.iter().any(carried),
            "no puzzle carries {}: add its case to CASES",
            entry.name
        );
    }
    for (name, p, solution) in &puzzles {
        overlaps::assert_clear(name, &smtgrid::render::svg::svg(p, None));
        if let Some(s) = solution {
            overlaps::assert_clear(name, &smtgrid::render::svg::svg(p, Some(s)));
        }
    }
}

/// A bad element value exits 2 naming the file, line and column.
#[test]
fn bad_element_values_name_the_place_and_the_fix() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let four = "kind = \"sudoku\"\ngivens = \"\"\"\n....\n....\n....\n....\n\"\"\"\n";
    let cases = [
        (
            "[[thermometer]]\ncells = \"r1c1 r1c5\"\n",
            "10:15:",
            "r1c5 is outside the 4×4 grid",
        ),
        (
            "[[thermometer]]\ncells = \"r1c1 r3c1\"\n",
            "10:9:",
            "do not touch",
        ),
        (
            "[[thermometer]]\ncells = \"r1c1 x\"\n",
            "10:15:",
            "`x` is not a cell",
        ),
        (
            "[[kropki]]\ncells = \"r1c1 r2c2\"\n",
            "10:9:",
            "are not neighbours",
        ),
        (
            "[[kropki]]\ncells = \"r1c1 r1c2\"\ncolor = \"red\"\n",
            "11:9:",
            "write color = \"white\" or \"black\"",
        ),
        (
            "[[xv]]\ncells = \"r1c1 r1c2\"\nletter = \"Y\"\n",
            "11:10:",
            "write letter = \"X\" (sum 10) or \"V\" (sum 5)",
        ),
        (
            "[[xv]]\ncells = \"r1c1 r3c1\"\nletter = \"X\"\n",
            "10:9:",
            "are not neighbours",
        ),
        ("anti-knight = 3\n", "9:15:", "anti-knight = true"),
        (
            "[[little-killer]]\nat = \"r2c2\"\nvalue = 5\n",
            "10:6:",
            "r2c2 is inside the grid",
        ),
        (
            "[[little-killer]]\nat = \"r0c2\"\nvalue = 5\n",
            "10:6:",
            "more than one diagonal from r0c2 enters the grid",
        ),
        (
            "[[little-killer]]\nat = \"r0c2\"\ndirection = \"left\"\nvalue = 5\n",
            "11:13:",
            "write \"down-right\"",
        ),
        (
            "[[little-killer]]\nat = \"r0c2\"\ndirection = \"up-left\"\nvalue = 5\n",
            "11:13:",
            "does not enter the grid: point it down-right or down-left",
        ),
        (
            "[[little-killer]]\nat = \"r0c1\"\nvalue = 20\n",
            "11:9:",
            "sum to 3 to 12",
        ),
        (
            "[[sandwich]]\nat = \"r0c0\"\nvalue = 2\n",
            "10:6:",
            "r0c0 is a corner",
        ),
        (
            "[[sandwich]]\nat = \"r0c1\"\nvalue = 6\n",
            "11:9:",
            "write a sum from 0 to 5",
        ),
        (
            "[[x-sum]]\nat = \"r7c1\"\nvalue = 6\n",
            "10:6:",
            "beyond the squares around the 4×4 grid",
        ),
        (
            "[[skyscraper]]\nat = \"r1c5\"\nvalue = 5\n",
            "11:9:",
            "write a count from 1 to 4",
        ),
        (
            "[[killer-cage]]\ncells = \"r1c1 r1c2\"\nsum = 8\n",
            "11:7:",
            "add up to 3 to 7",
        ),
        (
            "[[extra-region]]\ncells = \"r1c1 r2c2 r1c1\"\n",
            "10:9:",
            "named twice",
        ),
        (
            "[[greater-than]]\ncells = \"r1c1 r2c2\"\n",
            "10:9:",
            "are not neighbours",
        ),
        ("[[thermometer]]\nbulb = \"r1c1\"\n", "", "thermometer"),
        (
            "[[whispers]]\ncells = \"r1c1 r1c2\"\ndifference = 9\n",
            "11:14:",
            "write a difference from 1 to 3",
        ),
        (
            "[[renban]]\ncells = \"r1c1 r1c2 r1c3 r1c4 r2c4\"\n",
            "10:9:",
            "holds no more cells than a row",
        ),
        (
            "[[arrow]]\ncells = \"r1c1 r3c3\"\n",
            "10:9:",
            "does not touch the circle",
        ),
        (
            "[[palindrome]]\ncells = \"r1c1 r1c2\"\ncircle = 2\n",
            "11:10:",
            "takes no `circle`",
        ),
        (
            "[[odd]]\ncells = \"r1c1 r1c1\"\n",
            "10:15:",
            "r1c1 is listed twice",
        ),
        // A mark in two tables: `convert` writes a key's marks as one.
        (
            "[[odd]]\ncells = \"r1c1\"\n\n[[odd]]\ncells = \"r2c2 r1c1\"\n",
            "13:15:",
            "r1c1 is listed twice",
        ),
        (
            "[[minimum]]\ncells = \"r2c2 r4c5\"\n",
            "10:15:",
            "r4c5 is outside the 4×4 grid",
        ),
        (
            "[[clone]]\ncells = \"r1c1 r1c2\"\ncopies = [\"r3c3\"]\n",
            "11:11:",
            "a copy of 2 cells lists 1",
        ),
        (
            "[[quadruple]]\ncells = \"r1c1 r1c2 r2c2 r2c3\"\nvalues = [1]\n",
            "10:9:",
            "is not a 2×2",
        ),
        (
            "[[quadruple]]\ncells = \"r1c1 r1c2 r2c1 r2c2\"\nvalues = [1, 5]\n",
            "11:10:",
            "5 is no digit of a 4×4 grid",
        ),
    ];
    for (k, (extra, at, says)) in cases.iter().enumerate() {
        let text = format!("{four}\n{extra}");
        let path = write(dir.path(), &format!("bad{k}"), &text);
        let o = smtgrid(&["solve", path.to_str().expect("UTF-8"), "--solver", "z3"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra}: {err}");
        assert!(
            err.contains(&format!("bad{k}.toml:{at}"))
                && err.contains(says)
                && !err.contains("panicked"),
            "{extra}: {err}"
        );
    }
    // A kakuro has no square grid of 1..n: elements do not apply.
    let text = "kind = \"kakuro\"\nanti-knight = true\ngrid = \"\"\"\nx,3|\n|3,_\n\"\"\"\n";
    let path = write(dir.path(), "kakuro", text);
    let o = smtgrid(&["solve", path.to_str().expect("UTF-8"), "--solver", "z3"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("kakuro.toml:2:1:") && err.contains("does not apply to a kakuro"),
        "{err}"
    );
}

/// Every 4×4 sudoku grid (2×2 boxes), row by row.
fn sudokus4() -> Vec<Vec<Vec<u8>>> {
    fn fill(g: &mut Vec<Vec<u8>>, k: usize, out: &mut Vec<Vec<Vec<u8>>>) {
        if k == 16 {
            out.push(g.clone());
            return;
        }
        let (r, c) = (k / 4, k % 4);
        for v in 1..=4 {
            let clash = (0..4).any(|i| (i < c && g[r][i] == v) || (i < r && g[i][c] == v))
                || (0..4).any(|i| {
                    let (br, bc) = (r / 2 * 2 + i / 2, c / 2 * 2 + i % 2);
                    (br, bc) < (r, c) && g[br][bc] == v
                });
            if !clash {
                g[r][c] = v;
                fill(g, k + 1, out);
                g[r][c] = 0;
            }
        }
    }
    let mut out = Vec::new();
    fill(&mut vec![vec![0; 4]; 4], 0, &mut out);
    out
}

/// The checker (`Rule::holds`) refuses a recorded solution that keeps the
/// givens, rows, columns and boxes but is not the element's: each 4×4
/// unique puzzle with another sudoku grid that agrees with its givens (the
/// element alone rules it out) is refused, naming the element.
#[test]
fn the_checker_refuses_a_grid_the_element_rules_out() {
    let loc = Location::file("t.toml");
    let grids = sudokus4();
    assert_eq!(grids.len(), 288);
    let mut checked = Vec::new();
    for case in CASES {
        let p = &parse_str(case.unique, &loc, None).expect("the puzzle parses")[0];
        if p.rows != 4 {
            continue;
        }
        let right: Vec<Vec<u8>> = case
            .solution
            .iter()
            .map(|r| r.bytes().map(|b| b - b'0').collect())
            .collect();
        // A case whose givens decide the grid by themselves has no such
        // grid to try.
        let Some(wrong) = grids.iter().find(|g| {
            **g != right
                && (0..16).all(|k| {
                    p.givens[k / 4][k % 4]
                        .is_none_or(|v| u64::from(v) == u64::from(g[k / 4][k % 4]))
                })
        }) else {
            continue;
        };
        checked.push(case.element);
        let rows: Vec<String> = wrong
            .iter()
            .map(|r| r.iter().map(ToString::to_string).collect())
            .collect();
        let text = case.unique.replacen(
            "kind = \"sudoku\"\n",
            &format!(
                "kind = \"sudoku\"\nsolution = \"\"\"\n{}\n\"\"\"\n",
                rows.join("\n")
            ),
            1,
        );
        let err = parse_str(&text, &loc, None)
            .expect_err("the wrong grid is refused")
            .to_string();
        let entry = smtgrid::elements::REGISTRY
            .iter()
            .find(|e| e.name == case.element || e.keys.contains(&case.element))
            .expect("the element is registered");
        assert!(
            err.contains("the recorded solution is wrong")
                && entry
                    .keys
                    .iter()
                    .chain([&entry.name])
                    .any(|k| err.contains(k)),
            "{}: {err}",
            case.element
        );
    }
    for element in [
        "odd-even",
        "min-max",
        "clone",
        "quadruple",
        "column-indexer",
        "row-indexer",
        "box-indexer",
    ] {
        assert!(checked.contains(&element), "{element} was not checked");
    }
}

/// As in SudokuSolver, a minimum is not compared with a neighbouring
/// minimum: two side by side hold 1 and 2 (compared, each would have to
/// be below the other).
#[test]
fn neighbouring_minimums_are_not_compared() {
    let loc = Location::file("t.toml");
    let puzzle = |cells: &str| {
        format!(
            "kind = \"sudoku\"\ngivens = \"\"\"\n....\n....\n....\n....\n\"\"\"\n\
             solution = \"\"\"\n1234\n3412\n2143\n4321\n\"\"\"\n\n[[minimum]]\ncells = \"{cells}\"\n"
        )
    };
    parse_str(&puzzle("r1c1 r1c2"), &loc, None).expect("both minimums hold");
    let err = parse_str(&puzzle("r1c2"), &loc, None).expect_err("r1c1 = 1 is below r1c2 = 2");
    assert!(err.to_string().contains("minimum r1c2<r1c1"), "{err}");
}
