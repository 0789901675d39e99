//! Pictures are laid out so that nothing collides: for every example
//! puzzle and a set of generated ones (killers with 1- to 9-cell cages,
//! calcudoku with long clues, futoshiki full of signs, skyscrapers,
//! kakuro, Squares-style rules; sizes 4 to 25), solved, no two texts,
//! clue boxes or signs come closer than [`GAP`], and none leaves the
//! picture. The boxes are those resvg draws: each text laid out in the
//! built-in font and measured by its glyphs' outlines, each clue box by
//! its rectangle, each sign by its stroked path.

use std::path::Path;

use resvg::usvg;
use smtgrid::elements::{cages::Cages, signs::Signs};
use smtgrid::parse;
use smtgrid::puzzle::{Cage, Clue, EdgeClues, Inequality, KakuroCell, Kind, Puzzle};
use smtgrid::render::png::{ImageFormat, options};
use smtgrid::render::svg::{CLEARANCE, svg};

mod common;
use common::{puzzle_files, smtgrid};

/// The least distance allowed between two items: the layout's clearance,
/// less a little for rounding to two decimals.
const GAP: f64 = CLEARANCE - 0.2;

/// A box in picture coordinates.
#[derive(Debug, Clone, Copy)]
struct Box2 {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Box2 {
    fn of(r: usvg::Rect) -> Box2 {
        Box2 {
            left: f64::from(r.left()),
            top: f64::from(r.top()),
            right: f64::from(r.right()),
            bottom: f64::from(r.bottom()),
        }
    }
    /// Whether the two boxes come closer than `gap` on both axes.
    fn near(&self, o: &Box2, gap: f64) -> bool {
        self.left < o.right + gap
            && o.left < self.right + gap
            && self.top < o.bottom + gap
            && o.top < self.bottom + gap
    }
    fn inside(&self, o: &Box2, gap: f64) -> bool {
        self.left >= o.left + gap
            && self.right <= o.right - gap
            && self.top >= o.top + gap
            && self.bottom <= o.bottom - gap
    }
}

/// One thing that must keep clear of the others, named for messages.
#[derive(Debug)]
struct Item {
    name: String,
    at: Box2,
}

fn text_of(t: &usvg::Text) -> String {
    t.chunks().iter().map(|c| c.text()).collect()
}

/// The items of a group, recursively: each text by its ink; each clue
/// box (a group `clue-N`) by its rectangle, after checking that its text
/// lies inside it; each sign (a path `sign-N`) by its stroke.
fn collect(g: &usvg::Group, items: &mut Vec<Item>, texts: &mut usize) {
    for node in g.children() {
        match node {
            usvg::Node::Group(inner) if inner.id().starts_with("clue-") => {
                let rect = inner
                    .children()
                    .iter()
                    .find_map(|n| match n {
                        usvg::Node::Path(p) => Some(Box2::of(p.abs_bounding_box())),
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{}: a clue box without its box", inner.id()));
                for n in inner.children() {
                    if let usvg::Node::Text(t) = n {
                        *texts += 1;
                        let ink = Box2::of(t.abs_stroke_bounding_box());
                        assert!(
                            ink.inside(&rect, 0.0),
                            "{:?} sticks out of its box: {ink:?} in {rect:?}",
                            text_of(t)
                        );
                        items.push(Item {
                            name: format!("box of clue {:?}", text_of(t)),
                            at: rect,
                        });
                    }
                }
            }
            usvg::Node::Group(inner) => collect(inner, items, texts),
            usvg::Node::Text(t) => {
                *texts += 1;
                items.push(Item {
                    name: format!("text {:?}", text_of(t)),
                    at: Box2::of(t.abs_stroke_bounding_box()),
                });
            }
            usvg::Node::Path(p) if p.id().starts_with("sign-") => items.push(Item {
                name: p.id().to_string(),
                at: Box2::of(p.abs_stroke_bounding_box()),
            }),
            _ => {}
        }
    }
}

/// Fails unless every text, clue box and sign of `picture` keeps [`GAP`]
/// from every other and from the picture's edge.
fn assert_clear(name: &str, picture: &str) {
    let tree = usvg::Tree::from_str(picture, &options())
        .unwrap_or_else(|e| panic!("{name}: not a picture resvg reads: {e}"));
    let mut items = Vec::new();
    let mut texts = 0;
    collect(tree.root(), &mut items, &mut texts);
    // A text resvg could not lay out would vanish from the tree unseen.
    assert_eq!(
        texts,
        picture.matches("<text").count(),
        "{name}: every text laid out"
    );
    let size = tree.size();
    let page = Box2 {
        left: 0.0,
        top: 0.0,
        right: f64::from(size.width()),
        bottom: f64::from(size.height()),
    };
    for it in &items {
        assert!(
            it.at.inside(&page, GAP),
            "{name}: {} leaves the picture: {:?} in {:?}",
            it.name,
            it.at,
            page
        );
    }
    // Sorted by left edge, each item is compared only with those that
    // start before it ends.
    items.sort_by(|a, b| a.at.left.total_cmp(&b.at.left));
    for (i, a) in items.iter().enumerate() {
        for b in items[i + 1..]
            .iter()
            .take_while(|b| b.at.left < a.at.right + GAP)
        {
            assert!(
                !a.at.near(&b.at, GAP),
                "{name}: {} {:?} and {} {:?} are closer than {GAP}",
                a.name,
                a.at,
                b.name,
                b.at
            );
        }
    }
}

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
                    let (mut y, mut x, mut len) = (r as i64 - 1 + d.0, c as i64 - 1 + d.1, 0);
                    while (0..n as i64).contains(&y) && (0..n as i64).contains(&x) {
                        len += 1;
                        y += d.0;
                        x += d.1;
                    }
                    (len > 0).then_some((d, len))
                }) else {
                    continue;
                };
                let name = match d {
                    (1, 1) => "DR",
                    (1, -1) => "DL",
                    (-1, 1) => "UR",
                    _ => "UL",
                };
                killers.push_str(&format!(
                    "[[little-killer]]\nat = \"r{r}c{c}\"\ndirection = \"{name}\"\nvalue = {}\n",
                    len * n as i64
                ));
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
