//! Kinds as presets of elements. A puzzle file's `kind` names the grid
//! keys it reads (the givens, a cages grid, a kakuro or futoshiki grid)
//! and the elements the puzzle starts with; any element key of the
//! registry ([`crate::elements::REGISTRY`]) may be added to any kind with
//! a square grid of values 1..n (every kind but kakuro).
//!
//! | kind        | elements                    |
//! |-------------|-----------------------------|
//! | sudoku      | latin, boxes                |
//! | killer      | latin, boxes, cages         |
//! | calcudoku   | latin, cages                |
//! | kakuro      | kakuro                      |
//! | jigsaw      | latin, regions              |
//! | futoshiki   | latin, signs                |
//! | skyscrapers | latin, edge-clues           |

use crate::elements::boxes::Boxes;
use crate::elements::latin::Latin;
use crate::elements::{Element, ElementType};
use crate::puzzle::Kind;

/// The elements a puzzle of `kind` has before its grid keys are read:
/// those that need no data (Latin rows and columns).
pub fn base(kind: Kind) -> Vec<Element> {
    match kind {
        Kind::Kakuro => Vec::new(),
        _ => vec![Element::Latin(Latin)],
    }
}

/// The names of the elements a puzzle of `kind` is made of, in the
/// registry's order.
pub fn preset(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Sudoku => &["latin", "boxes"],
        Kind::Killer => &["latin", "boxes", "cages"],
        Kind::Calcudoku => &["latin", "cages"],
        Kind::Kakuro => &["kakuro"],
        Kind::Jigsaw => &["latin", "regions"],
        Kind::Futoshiki => &["latin", "signs"],
        Kind::Skyscrapers => &["latin", "edge-clues"],
    }
}

/// The grid keys each kind reads itself (its preset elements' data),
/// besides `kind`, `title` and `solution`.
pub fn grid_keys(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Sudoku => &["box", "givens", "diagonals"],
        Kind::Killer => &[
            "box",
            "givens",
            "cages",
            "clues",
            "default-clue",
            "distinct-cages",
            "diagonals",
        ],
        Kind::Calcudoku => &["givens", "cages", "clues", "default-clue"],
        Kind::Kakuro => &["grid"],
        Kind::Jigsaw => &["regions", "givens", "diagonals"],
        Kind::Futoshiki => &["grid"],
        Kind::Skyscrapers => &["givens", "top", "bottom", "left", "right"],
    }
}

/// The order in which a puzzle of `kind` writes its grid keys, each
/// through the element that holds it ([`crate::elements::ElementType::write_key`]),
/// and the puzzle's own `givens` and `solution`, which are no element's.
/// The presets' element order cannot give it: the givens and the solution
/// fall between a killer's `distinct-cages` and its `cages`, and a jigsaw
/// writes `diagonals` (an element outside its preset) before its
/// `regions`, the registry's order the other way round.
pub fn written_keys(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Kakuro | Kind::Futoshiki => &["grid", "solution"],
        Kind::Sudoku | Kind::Killer | Kind::Calcudoku | Kind::Jigsaw | Kind::Skyscrapers => &[
            "box",
            "diagonals",
            "top",
            "regions",
            "distinct-cages",
            "givens",
            "solution",
            "cages",
        ],
    }
}

/// Whether a puzzle of `kind` writes its givens when none is given: a
/// sudoku, whose givens alone give its size, and a jigsaw, as it always
/// has; the other kinds' grid keys give their size.
pub fn writes_blank_givens(kind: Kind) -> bool {
    matches!(kind, Kind::Sudoku | Kind::Jigsaw)
}

/// Whether `key` is a grid key of some kind: the kinds say where it is
/// allowed, even where an element reads it (`diagonals`).
pub fn is_grid_key(key: &str) -> bool {
    Kind::ALL.iter().any(|&k| grid_keys(k).contains(&key))
}

/// Whether `key` is one of the grid keys that make a kind's grid (its
/// size, givens and preset elements), which the kind's preset elements
/// read in the steps of [`crate::elements::GridStep`] before any element's
/// `read` hook: every grid key but those an element reads once the grid
/// is known (`diagonals`).
pub fn makes_grid(key: &str) -> bool {
    is_grid_key(key) && key != "diagonals"
}

/// Whether a puzzle of `kind` may carry the registry's element keys: its
/// grid is square with values 1..n.
pub fn takes_elements(kind: Kind) -> bool {
    kind != Kind::Kakuro
}

/// Whether the kind's preset holds boxes (sudoku, killer): the one place
/// that decides it. Readers set a [`crate::elements::boxes::Boxes`]
/// element only for such kinds (other kinds take no box shape, even
/// where a game ID gives one), and checking and drawing then go by that
/// element alone ([`crate::puzzle::Puzzle::box_shape`]).
pub fn has_boxes(kind: Kind) -> bool {
    preset(kind).contains(&<Boxes as ElementType>::NAME)
}
