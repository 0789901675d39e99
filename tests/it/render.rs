//! Pictures: every example puzzle drawn as SVG is well-formed XML with one
//! text element per given, per clue and per solved cell; `render --solve`
//! and `solve --svg` draw only verified solutions, from real solvers.

use std::path::Path;

use smtgrid::parse;
use smtgrid::puzzle::{KakuroCell, Puzzle};
use smtgrid::render::svg::svg;

use crate::common;
use common::{puzzle_files, root, smtgrid};

/// The picture parsed; fails the test unless it is well-formed XML with
/// an `<svg>` root.
fn parse_svg(picture: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(picture)
        .unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{picture}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

/// How many `<text>` elements of `class` the picture holds.
fn count_texts(picture: &str, class: &str) -> usize {
    parse_svg(picture)
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some(class))
        .count()
}

/// How many `<text>` elements of each class (given, clue, solved) the
/// picture holds.
fn text_counts(picture: &str) -> (usize, usize, usize) {
    (
        count_texts(picture, "given"),
        count_texts(picture, "clue"),
        count_texts(picture, "solved"),
    )
}

fn givens(p: &Puzzle) -> usize {
    p.givens.iter().flatten().flatten().count()
}

/// Cage clues, for kakuro the down and across sums, for skyscrapers the
/// edge clues.
fn clues(p: &Puzzle) -> usize {
    if let Some(e) = &p.edges() {
        return [&e.top, &e.bottom, &e.left, &e.right]
            .iter()
            .map(|side| side.iter().flatten().count())
            .sum();
    }
    match &p.kakuro() {
        Some(layout) => layout
            .iter()
            .flatten()
            .map(|sq| match sq {
                KakuroCell::Clue { down, across } => {
                    usize::from(down.is_some()) + usize::from(across.is_some())
                }
                _ => 0,
            })
            .sum(),
        // A rule every cage shares is one caption, not a clue per cage.
        None if shared_rule(p) => 0,
        None => p.cages().len(),
    }
}

/// Whether every cage has the same set-of-sums or square clue.
fn shared_rule(p: &Puzzle) -> bool {
    use smtgrid::puzzle::Clue;
    p.cages().len() > 1
        && matches!(p.cages()[0].clue, Clue::SumIn(_) | Clue::Square)
        && p.cages().iter().all(|c| c.clue == p.cages()[0].clue)
}

#[test]
fn every_puzzle_draws_one_text_per_given_and_clue() {
    for file in puzzle_files() {
        for p in parse::load(&file, None).expect("example puzzles load") {
            let picture = svg(&p, None);
            let (g, c, s) = text_counts(&picture);
            assert_eq!(g, givens(&p), "{}: givens", file.display());
            assert_eq!(c, clues(&p), "{}: clues", file.display());
            let signs = parse_svg(&picture)
                .descendants()
                .filter(|n| n.attribute("class") == Some("sign"))
                .count();
            assert_eq!(
                signs,
                p.inequalities().len(),
                "{}: futoshiki signs",
                file.display()
            );
            assert_eq!(
                s,
                0,
                "{}: nothing solved without a solution",
                file.display()
            );
        }
    }
}

/// The thick (3-unit) `<line>` segments of a picture: box, cage and
/// region borders (the outer border is a `<rect>`).
fn thick_segments(picture: &str) -> usize {
    parse_svg(picture)
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("stroke-width") == Some("3"))
        .count()
}

/// Pairs of side-by-side cells in different regions.
fn region_boundary_edges(p: &Puzzle) -> usize {
    let mut region = vec![vec![usize::MAX; p.cols]; p.rows];
    for (i, cells) in p.regions().iter().enumerate() {
        for &(r, c) in cells {
            region[r][c] = i;
        }
    }
    let mut edges = 0;
    for r in 0..p.rows {
        for c in 0..p.cols {
            edges += usize::from(c + 1 < p.cols && region[r][c] != region[r][c + 1]);
            edges += usize::from(r + 1 < p.rows && region[r][c] != region[r + 1][c]);
        }
    }
    edges
}

#[test]
fn jigsaw_regions_get_one_thick_segment_per_boundary_edge() {
    let mut seen = 0;
    for file in puzzle_files() {
        for p in parse::load(&file, None).expect("example puzzles load") {
            if p.regions().is_empty() {
                continue;
            }
            seen += 1;
            let edges = region_boundary_edges(&p);
            assert!(edges > 0, "{}", file.display());
            assert_eq!(
                thick_segments(&svg(&p, None)),
                edges,
                "{}: region borders",
                file.display()
            );
        }
    }
    assert!(seen >= 3, "the jigsaw examples were found");
}

#[test]
fn diagonals_are_shaded_once_per_cell() {
    let p = &parse::load(Path::new("puzzles/sudoku-x.toml"), None).expect("loads")[0];
    assert!(p.diagonals());
    let picture = svg(p, None);
    let shaded = parse_svg(&picture)
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some("diagonal"))
        .count();
    // Both diagonals of a 9x9 cross in the middle cell.
    assert_eq!(shaded, 17);
}

#[test]
fn a_solution_fills_every_cell_that_is_not_given() {
    for file in puzzle_files() {
        for p in parse::load(&file, None).expect("example puzzles load") {
            let Some(sol) = &p.solution else { continue };
            let grid: Vec<Vec<Option<i64>>> = sol
                .iter()
                .map(|row| row.iter().map(|v| v.map(i64::from)).collect())
                .collect();
            let cells = smtgrid::lower::lower(&p).cells.len();
            let (g, _, s) = text_counts(&svg(&p, Some(&grid)));
            assert_eq!(g + s, cells, "{}: every cell shows a digit", file.display());
        }
    }
}

#[test]
fn titles_cannot_break_the_markup() {
    let text =
        "kind = \"sudoku\"\ntitle = \"<b>&\\u001b\\\"\"\ngivens = \"1 .\\n. .\"\nbox = \"1x2\"\n";
    let loc = smtgrid::Location::file("t.toml");
    let ps = parse::parse_str(text, &loc, None).expect("a valid puzzle");
    let picture = svg(&ps[0], None);
    text_counts(&picture);
    assert!(picture.contains("&lt;b&gt;&amp;"), "{picture}");
}

/// `smtgrid render FILE --solve --solver SOLVER -o OUT`.
fn render_solve(file: &str, solver: &str, out: &Path) -> std::process::Output {
    let out = out.to_str().expect("utf-8 path");
    smtgrid(&["render", file, "--solve", "--solver", solver, "-o", out])
}

#[test]
fn render_solve_draws_the_verified_solution() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("k.svg");
    let o = render_solve("puzzles/killer-4x4.toml", "yices2", &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let picture = std::fs::read_to_string(&out).expect("the picture");
    let p = &parse::load(Path::new("puzzles/killer-4x4.toml"), None).expect("loads")[0];
    let (g, c, s) = text_counts(&picture);
    assert_eq!((g, c), (givens(p), clues(p)));
    assert_eq!(g + s, 16, "every cell drawn");
}

/// `render --solve` exits as `solve` does on the same runs: 0 on a
/// proven unsat (the puzzle drawn alone), 1 when a solver's answer is
/// invalid (here: the first grid again for the second question).
#[test]
fn render_solve_exits_as_solve_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("k.svg");
    let o = render_solve("docs/examples/killer-broken.toml", "yices2", &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("no solution; drawing the puzzle alone"),
        "{err}"
    );
    let same = format!(
        "z3={}",
        root().join("tests/fake_solvers/inter_same.py").display()
    );
    let o = render_solve("puzzles/sudoku-4x4.toml", &same, &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
}

#[test]
fn solve_svg_writes_one_picture_per_solved_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("utf-8 path");
    let o = smtgrid(&[
        "solve",
        "puzzles/sudoku-4x4.toml",
        "puzzles/calcudoku-4x4.toml",
        "--solver",
        "z3",
        "--encoding",
        "onehot",
        "--svg",
        d,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["calcudoku-4x4.svg", "sudoku-4x4.svg"]);
    for n in names {
        let picture = std::fs::read_to_string(dir.path().join(n)).expect("picture");
        let (g, _, s) = text_counts(&picture);
        assert_eq!(g + s, 16);
    }
}

#[test]
fn render_into_a_missing_directory_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let two = dir.path().join("two.txt");
    std::fs::write(&two, "1.3.\n.4.1\n").expect("write");
    let o = smtgrid(&[
        "render",
        two.to_str().expect("utf-8"),
        "-o",
        "/nonexistent-dir/",
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A title may hold any character, also those XML 1.0 cannot (control
/// characters, U+FFFE, U+FFFF): the picture stays well-formed and keeps
/// the rest of the title.
#[test]
fn titles_with_characters_xml_forbids_still_make_well_formed_svg() {
    let path = common::root().join("puzzles/sudoku-4x4.toml");
    let mut p = parse::load(&path, None).expect("parses").remove(0);
    let hostile = "a\u{fffe}b\u{ffff}c\u{1b}]0;x\u{7}d\u{0}<e>&\u{fffd}";
    p.title = Some(hostile.into());
    let picture = svg(&p, None);
    let doc = parse_svg(&picture);
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .expect("a title");
    assert!(
        title.starts_with("a b c ]0;x d <e>&\u{fffd} ("),
        "{title:?}"
    );
}
