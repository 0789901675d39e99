//! Text grids as `solve` prints them, snapshotted (insta, top-level
//! `snapshots/`): every example puzzle's recorded solution drawn for a
//! terminal (box-drawing) and in ASCII, showing its clues (cage sums and
//! calcudoku clues in the borders, a shared rule under the grid, kakuro
//! sums, futoshiki signs, skyscrapers clues); colour checked once, as
//! `--color always` writes it.

use std::path::Path;

use smtgrid::parse;
use smtgrid::render::{TextOptions, TextStyle, grid_text_with};

use crate::common;
use common::puzzle_files;

fn solution(p: &smtgrid::puzzle::Puzzle) -> Option<Vec<Vec<Option<i64>>>> {
    p.solution.as_ref().map(|s| {
        s.iter()
            .map(|row| row.iter().map(|v| v.map(i64::from)).collect())
            .collect()
    })
}

#[test]
fn text_grids_show_what_makes_each_puzzle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root.join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for file in puzzle_files() {
            let p = &parse::load(&file, None).expect("example puzzles load")[0];
            let Some(g) = solution(p) else { continue };
            let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("x");
            let both = [TextStyle::Boxes, TextStyle::Ascii]
                .map(|style| grid_text_with(p, &g, &TextOptions::plain(style)));
            insta::assert_snapshot!(format!("text-{stem}"), both.join("\n"));
        }
    });
}

#[test]
fn colour_tells_givens_from_solved_digits() {
    let p = &parse::load(Path::new("puzzles/sudoku-4x4.toml"), None).expect("loads")[0];
    let g = solution(p).expect("a recorded solution");
    let opts = TextOptions {
        color: true,
        ..TextOptions::plain(TextStyle::Ascii)
    };
    let text = grid_text_with(p, &g, &opts);
    // The given 4 in the top-left corner is bold, the solved 3 beside it blue.
    assert!(
        text.starts_with("\x1b[1m4\x1b[0m \x1b[34m3\x1b[0m"),
        "{text:?}"
    );
    let plain = grid_text_with(p, &g, &TextOptions::plain(TextStyle::Ascii));
    assert!(!plain.contains('\x1b'));
}

#[test]
fn every_colour_ends_before_its_line_does() {
    // A reset after the newline leaves the line's end (and a pager's next
    // line) coloured: each line must close every colour it opens, and none
    // may begin by closing the line before's.
    for file in puzzle_files() {
        let p = &parse::load(&file, None).expect("example puzzles load")[0];
        let Some(g) = solution(p) else { continue };
        for style in [TextStyle::Boxes, TextStyle::Ascii] {
            let opts = TextOptions {
                color: true,
                ..TextOptions::plain(style)
            };
            let text = grid_text_with(p, &g, &opts);
            assert!(text.contains("\x1b[0m"), "{}: no colour", file.display());
            for line in text.lines() {
                let mut open = false;
                for (i, code) in line.split("\x1b[").enumerate().skip(1) {
                    let reset = code.starts_with("0m");
                    assert!(i > 1 || !reset, "{}: {line:?}", file.display());
                    open = !reset;
                }
                assert!(!open, "{}: {line:?}", file.display());
            }
        }
    }
}
