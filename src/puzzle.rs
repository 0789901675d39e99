//! The puzzle as the user wrote it, before it is lowered into the
//! constraint model. Parsers produce it; `lower` consumes it.

use serde::Serialize;

/// The largest grid side smtgrid accepts (sudoku, calcudoku, kakuro).
pub const MAX_SIZE: usize = 64;

/// Which rules a puzzle follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// n×n with rows, columns and boxes all different.
    Sudoku,
    /// A sudoku with cages that carry clues.
    Killer,
    /// KenKen: a Latin square with arithmetic cages.
    Calcudoku,
    /// Cross sums: white cells 1–9, runs all different and summing to a clue.
    Kakuro,
}

impl Kind {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sudoku => "sudoku",
            Kind::Killer => "killer",
            Kind::Calcudoku => "calcudoku",
            Kind::Kakuro => "kakuro",
        }
    }
    /// Every kind, in the order of the docs.
    pub const ALL: [Kind; 4] = [Kind::Sudoku, Kind::Killer, Kind::Calcudoku, Kind::Kakuro];
    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A cage's clue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Clue {
    /// The cells sum to N (`N`, `N+`).
    Sum(u64),
    /// The cells multiply to N (`N*`, `Nx`).
    Product(u64),
    /// Largest minus the sum of the others is N (`N-`).
    Difference(u64),
    /// Largest divided by the product of the others is exactly N (`N/`).
    Ratio(u64),
    /// The sum is one of these (`4|9|16`).
    SumIn(Vec<u64>),
    /// The sum is a perfect square (`square`).
    Square,
}

/// A cage: cells sharing a label, and its clue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    /// The label in the `cages` grid.
    pub label: String,
    /// The clue text as written, for messages and comments.
    pub clue_text: String,
    /// The parsed clue.
    pub clue: Clue,
    /// 0-based (row, column) of each cell, in row-major order.
    pub cells: Vec<(usize, usize)>,
}

/// One square of a kakuro grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KakuroCell {
    /// A cell to fill with 1–9.
    White,
    /// A black square without clues.
    Block,
    /// A black square with a down clue, an across clue, or both.
    Clue {
        /// Sum of the run below.
        down: Option<u32>,
        /// Sum of the run to the right.
        across: Option<u32>,
    },
}

/// A grid of optional digits (givens or a solution); `None` is blank.
pub type Grid = Vec<Vec<Option<u32>>>;

/// A parsed puzzle of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// A name for reports: the file stem, or `FILE:LINE` for line files.
    pub name: String,
    /// The optional title from the file.
    pub title: Option<String>,
    /// The rules.
    pub kind: Kind,
    /// Grid height (kakuro: including clue squares).
    pub rows: usize,
    /// Grid width.
    pub cols: usize,
    /// Box shape (rows, columns) for sudoku and killer.
    pub box_shape: Option<(usize, usize)>,
    /// Given digits, `rows` × `cols` (all blank for kakuro).
    pub givens: Grid,
    /// Cages (killer and calcudoku).
    pub cages: Vec<Cage>,
    /// Whether a cage may not repeat a digit (killer; default true).
    pub distinct_cages: bool,
    /// The kakuro layout, `rows` × `cols` (kakuro only).
    pub kakuro: Option<Vec<Vec<KakuroCell>>>,
    /// A known solution, when the file records one.
    pub solution: Option<Grid>,
}
