//! Pictures are laid out so that nothing collides: for every example
//! puzzle and a set of generated ones (killers with 1- to 9-cell cages,
//! calcudoku with long clues, futoshiki full of signs, skyscrapers,
//! kakuro, Squares-style rules; sizes 4 to 25), solved, no two texts,
//! clue boxes or signs come closer than `overlaps::GAP`, and none leaves
//! the picture (the check, tests/it/common/overlaps.rs, is shared with
//! tests/it/elements.rs, which runs it on every registered element).

use std::path::Path;

use smtgrid::elements::{cages::Cages, signs::Signs};
use smtgrid::parse;
use smtgrid::puzzle::{Cage, Clue, EdgeClues, Inequality, KakuroCell, Kind, Puzzle};
use smtgrid::render::png::{ImageFormat, options};
use smtgrid::render::svg::{UNDER_DIGITS, svg};

use crate::common;
use crate::common::overlaps;
use common::{puzzle_files, smtgrid};
use overlaps::{Box2, assert_clear};
use resvg::usvg;

/// A Latin square, as a solution every cell of an `n`×`n` grid shows.
fn latin(n: usize) -> Vec<Vec<Option<i64>>> {
    (0..n)
        .map(|r| (0..n).map(|c| Some(((r + c) % n + 1) as i64)).collect())
        .collect()
}

/// The cells of an `n`×`n` grid in snake order (left to right, then back),
/// cut into cages of `k` cells: each cage is connected.
fn snake_cages(n: usize, k: usize, clue: impl Fn(usize, usize) -> Clue) -> Vec<Cage> {
    let order: Vec<(usize, usize)> = (0..n)
        .flat_map(|r| {
            let cols: Vec<usize> = if r % 2 == 0 {
                (0..n).collect()
            } else {
                (0..n).rev().collect()
            };
            cols.into_iter().map(move |c| (r, c))
        })
        .collect();
    order
        .chunks(k)
        .enumerate()
        .map(|(i, cells)| {
            let mut cells = cells.to_vec();
            cells.sort();
            Cage {
                label: format!("c{i}"),
                clue_text: String::new(),
                clue: clue(i, cells.len()),
                cells,
            }
        })
        .collect()
}

const SIZES: [usize; 12] = [4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 20, 25];

fn check(p: &Puzzle) {
    let solution = latin(p.rows);
    let name = format!("{} ({}x{})", p.name, p.rows, p.cols);
    assert_clear(&name, &svg(p, Some(&solution)));
}

#[test]
fn example_puzzles_keep_their_texts_apart() {
    let mut files = puzzle_files();
    files.push(Path::new("puzzles/hardest.txt").to_path_buf());
    for file in files {
        for p in parse::load(&file, None).expect("example puzzles load") {
            let solution = p.solution.as_ref().map(|s| {
                s.iter()
                    .map(|row| row.iter().map(|v| v.map(i64::from)).collect())
                    .collect::<Vec<Vec<Option<i64>>>>()
            });
            let name = file.display().to_string();
            assert_clear(&name, &svg(&p, solution.as_ref()));
            assert_clear(&name, &svg(&p, None));
        }
    }
}

/// Every line element on one 9×9 grid (arrows with a circle and a pill,
/// between-line circles and lockout diamonds at the ends) leaves the
/// digits and texts clear.
#[test]
fn line_elements_keep_the_texts_apart() {
    let text = r#"kind = "sudoku"
givens = """
.........
.........
.........
.........
.........
.........
.........
.........
.........
"""

[[arrow]]
cells = "r1c1 r1c2 r2c3 r3c3"
circle = 2

[[arrow]]
cells = "r5c5 r5c6 r6c7"

[[double-arrow]]
cells = "r1c5 r1c6 r1c7"

[[whispers]]
cells = "r2c7 r3c8 r4c9"

[[renban]]
cells = "r4c1 r4c2 r4c3"

[[palindrome]]
cells = "r6c1 r7c2 r8c1"

[[between-line]]
cells = "r9c1 r9c2 r9c3 r9c4"

[[region-sum-line]]
cells = "r7c4 r7c5 r8c6 r8c7"

[[zipper-line]]
cells = "r6c3 r7c3 r8c3"

[[entropic-line]]
cells = "r3c5 r4c6 r4c7"

[[modular-line]]
cells = "r6c9 r7c9 r8c9"

[[nabner]]
cells = "r9c6 r9c7"

[[lockout-line]]
cells = "r2c1 r3c2 r3c1"
"#;
    let loc = smtgrid::error::Location::file("lines.toml");
    let p = parse::parse_str(text, &loc, None).expect("the puzzle parses");
    check(&p[0]);
}

/// Every cell mark (odd, even, minimum, maximum, indexers), clones and
/// quadruples of one to four digits on one 9×9 grid, and on a 16×16 one
/// whose two-digit numbers are wider, leave the digits and texts clear.
#[test]
fn cell_elements_keep_the_texts_apart() {
    let marks = r#"
[[odd]]
cells = "r1c1 r5c5"

[[even]]
cells = "r1c2 r9c9"

[[minimum]]
cells = "r3c3"

[[maximum]]
cells = "r3c4 r7c7"

[[column-indexer]]
cells = "r4c1 r5c1"

[[row-indexer]]
cells = "r8c2"

[[box-indexer]]
cells = "r9c5"

[[clone]]
cells = "r2c6 r2c7"
copies = ["r6c6 r6c7", "r8c8 r8c9"]

[[quadruple]]
cells = "r1c3 r1c4 r2c3 r2c4"
values = [1]

[[quadruple]]
cells = "r4c4 r4c5 r5c4 r5c5"
values = [1, 2]

[[quadruple]]
cells = "r6c1 r6c2 r7c1 r7c2"
values = [1, 2, 3]

[[quadruple]]
cells = "r8c4 r8c5 r9c4 r9c5"
values = [6, 7, 8, 9]

[[quadruple]]
cells = "r5c6 r5c7 r6c6 r6c7"
values = [9, 9]
"#;
    for (n, marks) in [
        (9, marks.to_string()),
        (
            16,
            marks
                .replace("[1]", "[12, 3]")
                .replace("[6, 7, 8, 9]", "[13, 14, 15, 16]")
                .replace("[9, 9]", "[16, 10]"),
        ),
    ] {
        let row = vec!["."; n].join(" ");
        let givens = vec![row; n].join("\n");
        let text = format!("kind = \"sudoku\"\ngivens = \"\"\"\n{givens}\n\"\"\"\n{marks}");
        let loc = smtgrid::error::Location::file("cells.toml");
        let p = parse::parse_str(&text, &loc, None).expect("the puzzle parses");
        check(&p[0]);
    }
}

/// Killer cages on a sudoku (sums in the corners, one without), one
/// diagonal, an extra region and greater-than signs around a given leave
/// the digits and texts clear.
#[test]
fn cages_regions_and_signs_keep_the_texts_apart() {
    let text = r#"kind = "sudoku"
anti-diagonal = true
windoku = true
givens = """
1........
.........
.........
.........
....5....
.........
.........
.........
........9
"""

[[killer-cage]]
cells = "r1c1 r1c2 r2c1"
sum = 12

[[killer-cage]]
cells = "r2c2 r2c3"

[[killer-cage]]
cells = "r1c8 r1c9 r2c9"
sum = 23

[[extra-region]]
cells = "r9c1 r9c2"

[[greater-than]]
cells = "r5c5 r5c6"

[[greater-than]]
cells = "r4c5 r5c5"

[[greater-than]]
cells = "r5c4 r5c5"

[[greater-than]]
cells = "r6c5 r5c5"
"#;
    let loc = smtgrid::error::Location::file("cages.toml");
    let p = parse::parse_str(text, &loc, None).expect("the puzzle parses");
    check(&p[0]);
}

/// How many cells of an n×n grid the diagonal from square `at` (row or
/// column 0 or n+1) takes in direction `d`.
fn diagonal_len(n: usize, at: (i64, i64), d: (i64, i64)) -> i64 {
    let inside = |v: i64| (1..=n as i64).contains(&v);
    let (mut y, mut x, mut len) = (at.0 + d.0, at.1 + d.1, 0);
    while inside(y) && inside(x) {
        len += 1;
        y += d.0;
        x += d.1;
    }
    len
}

/// A little killer's table at square `at` pointing `d`, with the widest
/// sum of its `len` cells.
fn little_killer(n: usize, (r, c): (i64, i64), d: (i64, i64), len: i64) -> String {
    let name = match d {
        (1, 1) => "DR",
        (1, -1) => "DL",
        (-1, 1) => "UR",
        _ => "UL",
    };
    format!(
        "[[little-killer]]\nat = \"r{r}c{c}\"\ndirection = \"{name}\"\nvalue = {}\n",
        len * n as i64
    )
}

/// Clues outside the grid on every square around 4×4, 9×9 and 16×16
/// grids, at their widest values: little killers (a number and an arrow
/// each) all round one grid; sandwiches above and left, X-sums below and
/// skyscraper clues right of another.
#[test]
fn outside_clues_keep_the_texts_apart() {
    for n in [4usize, 9, 16] {
        let blank = vec![vec!["."; n].join(" "); n].join("\n");
        let head = format!("kind = \"sudoku\"\ngivens = \"\"\"\n{blank}\n\"\"\"\n");
        let ring = n + 1;
        let mut killers = head.clone();
        for r in 0..=ring {
            for c in 0..=ring {
                if r != 0 && r != ring && c != 0 && c != ring {
                    continue;
                }
                // The first direction whose diagonal enters the grid, and
                // its longest sum.
                let dirs = [(1i64, 1i64), (1, -1), (-1, 1), (-1, -1)];
                let Some((d, len)) = dirs.iter().find_map(|&d| {
                    let len = diagonal_len(n, (r as i64, c as i64), d);
                    (len > 0).then_some((d, len))
                }) else {
                    continue;
                };
                killers.push_str(&little_killer(n, (r as i64, c as i64), d, len));
            }
        }
        let mut sides = head.clone();
        let top = n * (n + 1) / 2;
        for k in 1..=n {
            let mut clue = |key: &str, at: String, value: usize| {
                sides.push_str(&format!("[[{key}]]\nat = \"{at}\"\nvalue = {value}\n"));
            };
            clue("sandwich", format!("r0c{k}"), top - 1 - n);
            clue("sandwich", format!("r{k}c0"), top - 1 - n);
            clue("x-sum", format!("r{ring}c{k}"), top);
            clue("skyscraper", format!("r{k}c{ring}"), n);
        }
        for (what, text) in [("little killers", killers), ("side clues", sides)] {
            let loc = smtgrid::error::Location::file(format!("{what} {n}.toml"));
            let p =
                parse::parse_str(&text, &loc, None).unwrap_or_else(|e| panic!("{what} {n}: {e}"));
            check(&p[0]);
        }
    }
}

/// Several clues on one square share it: on every square beside a 4×4,
/// 9×9 and 16×16 grid a little killer (its widest sum) and a side clue
/// (sandwich above and left, X-sum below, skyscraper right); above the
/// grid an X-sum too (three on a square); at their widest values.
#[test]
fn clues_sharing_a_square_keep_the_texts_apart() {
    for n in [4usize, 9, 16] {
        let blank = vec![vec!["."; n].join(" "); n].join("\n");
        let mut text = format!("kind = \"sudoku\"\ngivens = \"\"\"\n{blank}\n\"\"\"\n");
        let ring = n + 1;
        let top = n * (n + 1) / 2;
        for k in 1..=n {
            // The little killer runs from each square towards the far
            // half of the grid, with the widest sum its diagonal takes.
            let (k, ring) = (k as i64, ring as i64);
            let far = if k <= ring / 2 { 1 } else { -1 };
            for (r, c, d) in [
                (0, k, (1, far)),
                (ring, k, (-1, far)),
                (k, 0, (far, 1)),
                (k, ring, (far, -1)),
            ] {
                let len = diagonal_len(n, (r, c), d);
                text.push_str(&little_killer(n, (r, c), d, len));
            }
            let (k, ring) = (k as usize, ring as usize);
            let mut clue = |key: &str, at: String, value: usize| {
                text.push_str(&format!("[[{key}]]\nat = \"{at}\"\nvalue = {value}\n"));
            };
            clue("sandwich", format!("r0c{k}"), top - 1 - n);
            clue("x-sum", format!("r0c{k}"), top);
            clue("sandwich", format!("r{k}c0"), top - 1 - n);
            clue("x-sum", format!("r{ring}c{k}"), top);
            clue("skyscraper", format!("r{k}c{ring}"), n);
        }
        let loc = smtgrid::error::Location::file(format!("shared {n}.toml"));
        let p = parse::parse_str(&text, &loc, None).unwrap_or_else(|e| panic!("shared {n}: {e}"));
        check(&p[0]);
    }
}

/// Sets the cages of `p` (repeats forbidden in a killer, as its files say).
fn set_cages(p: &mut Puzzle, cages: Vec<Cage>) {
    let distinct = p.kind == Kind::Killer;
    p.set(Cages { cages, distinct });
}

#[test]
fn killers_with_cages_of_1_to_9_cells_keep_their_texts_apart() {
    for n in SIZES {
        for k in 1..=9 {
            let mut p = Puzzle::blank(&format!("killer-k{k}"), Kind::Killer, n);
            // The largest sums a cage of this size can have: the widest clues.
            set_cages(
                &mut p,
                snake_cages(n, k, |_, cells| {
                    Clue::Sum((n * (n + 1) / 2).min(cells * n) as u64)
                }),
            );
            // A given in every other cell, so both kinds of digit show.
            for r in 0..n {
                for c in (r % 2..n).step_by(2) {
                    p.givens[r][c] = Some(((r + c) % n + 1) as u32);
                }
            }
            check(&p);
        }
    }
}

#[test]
fn calcudoku_clues_short_and_long_keep_their_texts_apart() {
    for n in SIZES {
        for k in [1, 2, 3, 5, 8] {
            let mut p = Puzzle::blank("calcudoku", Kind::Calcudoku, n);
            set_cages(
                &mut p,
                snake_cages(n, k, |i, cells| match (i % 4, cells) {
                    (_, 1) => Clue::Sum(n as u64),
                    (0, _) => Clue::Sum((cells * n) as u64),
                    (1, _) => Clue::Product((n as u64).pow(cells.min(6) as u32)),
                    (2, _) => Clue::Difference(n as u64 - 1),
                    _ => Clue::Ratio(n as u64),
                }),
            );
            check(&p);
        }
    }
}

/// The caption and legend lines under the grid, joined by spaces.
fn notes(picture: &str) -> String {
    let doc = roxmltree::Document::parse(picture).expect("well-formed");
    let lines: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("note"))
        .filter_map(|n| n.text())
        .collect();
    lines.join(" ")
}

#[test]
fn shared_rules_and_long_clues_are_written_under_the_grid() {
    for n in SIZES {
        // Every cage the same set of sums: one caption.
        let mut p = Puzzle::blank("squares", Kind::Killer, n);
        set_cages(
            &mut p,
            snake_cages(n, 3, |_, _| Clue::SumIn(vec![4, 9, 16, 25])),
        );
        let picture = svg(&p, Some(&latin(n)));
        assert_eq!(
            notes(&picture),
            "Every cage sums to a perfect square: 4, 9, 16 or 25."
        );
        assert!(!picture.contains("class=\"clue\""), "no clue in the cages");
        assert_clear("squares", &picture);
        // Sets of sums too long for a corner, mixed with sums: keys and a
        // legend.
        set_cages(
            &mut p,
            snake_cages(n, 2, |i, _| match i % 3 {
                0 => Clue::SumIn(vec![4, 9, 16, 25]),
                1 => Clue::SumIn(vec![10, 11, 12, 13, 14]),
                _ => Clue::Square,
            }),
        );
        let picture = svg(&p, Some(&latin(n)));
        let legend = notes(&picture);
        assert!(
            legend.starts_with("A: sums to a perfect square: 4, 9, 16 or 25 B: sums to 10, 11,"),
            "{legend}"
        );
        assert_clear("long clues", &picture);
    }
}

#[test]
fn futoshiki_signs_everywhere_keep_clear_of_the_digits() {
    for n in SIZES.into_iter().filter(|&n| n <= 16) {
        let mut p = Puzzle::blank("futoshiki", Kind::Futoshiki, n);
        for r in 0..n {
            for c in 0..n {
                if c + 1 < n {
                    p.entry(|| Signs(Vec::new())).0.push(Inequality {
                        less: (r, c),
                        greater: (r, c + 1),
                    });
                }
                if r + 1 < n {
                    p.entry(|| Signs(Vec::new())).0.push(Inequality {
                        less: (r + 1, c),
                        greater: (r, c),
                    });
                }
            }
        }
        p.givens[0][0] = Some(1);
        check(&p);
    }
}

#[test]
fn skyscrapers_and_kakuro_keep_their_texts_apart() {
    for n in SIZES {
        let mut p = Puzzle::blank("skyscrapers", Kind::Skyscrapers, n);
        let all: Vec<Option<u32>> = (0..n).map(|i| Some((i % n + 1) as u32)).collect();
        p.set(EdgeClues {
            top: all.clone(),
            bottom: all.clone(),
            left: all.clone(),
            right: all,
        });
        check(&p);
        // Kakuro: clue squares with two-digit sums both ways on the
        // diagonal and the first row and column, white cells elsewhere.
        let mut k = Puzzle::blank("kakuro", Kind::Kakuro, n);
        let squares: Vec<Vec<KakuroCell>> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        if r == c || r == 0 || c == 0 {
                            KakuroCell::Clue {
                                down: Some(45),
                                across: Some(38),
                            }
                        } else {
                            KakuroCell::White
                        }
                    })
                    .collect()
            })
            .collect();
        let solution: Vec<Vec<Option<i64>>> = squares
            .iter()
            .map(|row| {
                row.iter()
                    .map(|sq| (*sq == KakuroCell::White).then_some(9))
                    .collect()
            })
            .collect();
        k.set(smtgrid::elements::kakuro::Kakuro(squares));
        assert_clear("kakuro", &svg(&k, Some(&solution)));
    }
}

#[test]
fn a_picture_rasterises_to_png() {
    let p = &parse::load(Path::new("puzzles/killer-4x4.toml"), None).expect("loads")[0];
    let png = ImageFormat::Png.encode(&svg(p, None), 2.0).expect("a PNG");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height, big-endian, in the IHDR chunk: twice the SVG's.
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    assert_eq!(width, 2 * (4 * 40 + 20));
    assert_eq!(ImageFormat::of(Path::new("x.PNG")), Some(ImageFormat::Png));
    assert_eq!(ImageFormat::of(Path::new("x.svg")), Some(ImageFormat::Svg));
    assert_eq!(ImageFormat::of(Path::new("x.txt")), None);
}

#[test]
fn the_check_sees_overlaps_and_texts_off_the_picture() {
    let page = |body: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" font-family="DejaVu Sans">{body}</svg>"#
        )
    };
    let fails = |picture: String| std::panic::catch_unwind(|| assert_clear("t", &picture)).is_err();
    let text = |x: u32, y: u32| format!(r#"<text x="{x}" y="{y}" font-size="12">24</text>"#);
    assert!(!fails(page(&(text(10, 20) + &text(50, 20)))));
    assert!(fails(page(&(text(10, 20) + &text(20, 24)))), "overlap");
    assert!(fails(page(&text(90, 20))), "off the right edge");
    let sign = r#"<path id="sign-0" d="M 10 14 L 20 18" stroke="black" stroke-width="2"/>"#;
    assert!(fails(page(&(text(10, 20) + sign))), "a sign on a text");
}

#[test]
fn render_to_a_png_file_writes_a_png() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("k.png");
    let path = out.to_str().expect("utf-8 path");
    let o = smtgrid(&["render", "puzzles/killer-4x4.toml", "-o", path]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let png = std::fs::read(&out).expect("the picture");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Many puzzles cannot go into one image.
    let o = smtgrid(&["render", "puzzles/top95.txt", "-o", path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("-o DIR/"));
}

/// The digits' ink boxes (texts outside clue boxes) and the dashed
/// lines' stroke boxes of a picture.
fn digits_and_dashes(g: &usvg::Group, digits: &mut Vec<Box2>, dashes: &mut Vec<Box2>) {
    for node in g.children() {
        match node {
            usvg::Node::Group(inner) if inner.id().starts_with("clue-") => {}
            usvg::Node::Group(inner) => digits_and_dashes(inner, digits, dashes),
            usvg::Node::Text(t) => digits.push(Box2::of(t.abs_stroke_bounding_box())),
            usvg::Node::Path(p) if p.stroke().is_some_and(|s| s.dasharray().is_some()) => {
                dashes.push(Box2::of(p.abs_stroke_bounding_box()));
            }
            _ => {}
        }
    }
}

#[test]
fn killer_digits_keep_clear_of_the_dashed_cage_lines() {
    // The digits sat low in their cells, 1 to 2 units over the dashed
    // outline of the cage below them: they seemed to stand on it.
    let want = UNDER_DIGITS - 1.2;
    for file in [
        "puzzles/killer-9x9.toml",
        "puzzles/killer-6x6.toml",
        "puzzles/killer-4x4.toml",
    ] {
        let p = &parse::load(Path::new(file), None).expect("example puzzles load")[0];
        let solution = latin(p.rows);
        let picture = svg(p, Some(&solution));
        let tree = usvg::Tree::from_str(&picture, &options()).expect("resvg reads the picture");
        let (mut digits, mut dashes) = (Vec::new(), Vec::new());
        digits_and_dashes(tree.root(), &mut digits, &mut dashes);
        assert_eq!(
            digits.len(),
            p.rows * p.cols,
            "{file}: a digit in every cell"
        );
        assert!(!dashes.is_empty(), "{file}: cages drawn dashed");
        for d in &digits {
            for line in &dashes {
                assert!(
                    !d.near(line, want),
                    "{file}: digit {d:?} within {want} of {line:?}"
                );
            }
        }
    }
}
