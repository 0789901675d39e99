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
    /// A sudoku whose boxes are irregular regions of n cells.
    Jigsaw,
    /// A Latin square with inequality signs between neighbouring cells.
    Futoshiki,
    /// A Latin square of tower heights with "towers seen" clues on the edges.
    Skyscrapers,
}

impl Kind {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sudoku => "sudoku",
            Kind::Killer => "killer",
            Kind::Calcudoku => "calcudoku",
            Kind::Kakuro => "kakuro",
            Kind::Jigsaw => "jigsaw",
            Kind::Futoshiki => "futoshiki",
            Kind::Skyscrapers => "skyscrapers",
        }
    }
    /// Every kind, in the order of the docs.
    pub const ALL: [Kind; 7] = [
        Kind::Sudoku,
        Kind::Killer,
        Kind::Calcudoku,
        Kind::Kakuro,
        Kind::Jigsaw,
        Kind::Futoshiki,
        Kind::Skyscrapers,
    ];
    /// Every kind's name, for messages: "sudoku, killer, … or skyscrapers".
    pub fn names() -> String {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        let (last, rest) = names.split_last().unwrap_or((&"", &[]));
        format!("{} or {last}", rest.join(", "))
    }
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

/// An inequality between two orthogonally adjacent cells (futoshiki):
/// the value at `less` is smaller than the value at `greater`. Cells are
/// 0-based (row, column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inequality {
    /// The cell holding the smaller value.
    pub less: (usize, usize),
    /// The cell holding the larger value.
    pub greater: (usize, usize),
}

/// Skyscrapers clues: for each edge, one optional count per line, "this
/// many towers are seen looking in from here" (a tower hides every lower
/// one behind it). Each list has one entry per column (`top`, `bottom`,
/// left to right) or per row (`left`, `right`, top to bottom).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EdgeClues {
    /// Seen looking down each column from above.
    pub top: Vec<Option<u32>>,
    /// Seen looking up each column from below.
    pub bottom: Vec<Option<u32>>,
    /// Seen looking along each row from the left.
    pub left: Vec<Option<u32>>,
    /// Seen looking along each row from the right.
    pub right: Vec<Option<u32>>,
}

/// A grid of optional digits (givens or a solution); `None` is blank.
pub type Grid = Vec<Vec<Option<u32>>>;

/// A parsed puzzle of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// A name for reports: the file stem, or `FILE:LINE` for line files.
    pub name: String,
    /// What tells the puzzle apart from every other of a run, in records,
    /// resume keys, disagreement checks and output file names: the path as
    /// given for a puzzle that is a whole file (`easy/1.toml`, where the
    /// name is only `1`), `FILE:LINE` for one of a line or `.sgt` file,
    /// `stdin` or `stdin:LINE` for standard input.
    pub id: String,
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
    /// Jigsaw regions, each the 0-based (row, column) of its cells in
    /// row-major order; regions ordered by their first cell. Empty for
    /// other kinds.
    pub regions: Vec<Vec<(usize, usize)>>,
    /// Whether both main diagonals must also hold different values
    /// (sudoku-X; sudoku, killer and jigsaw).
    pub diagonals: bool,
    /// Futoshiki inequality signs (empty for other kinds).
    pub inequalities: Vec<Inequality>,
    /// Skyscrapers edge clues (skyscrapers only).
    pub edges: Option<EdgeClues>,
}

impl Puzzle {
    /// `NAME "TITLE": KIND RxC`, with control characters escaped, as
    /// reports head a puzzle.
    pub fn describe(&self) -> String {
        use crate::error::escape_controls;
        let title = self
            .title
            .as_ref()
            .map(|t| format!(" \"{}\"", escape_controls(t)))
            .unwrap_or_default();
        format!(
            "{}{title}: {} {}x{}",
            escape_controls(&self.name),
            self.kind.name(),
            self.rows,
            self.cols
        )
    }

    /// Whether this puzzle has the rules of `other` and differs at most in
    /// its givens, names and recorded solution: then it lowers into
    /// `other`'s model with other givens, and a session holding that
    /// model's rules can answer it. Every field is named, so a new one
    /// must be placed on one side or the other.
    pub fn same_rules(&self, other: &Puzzle) -> bool {
        let Puzzle {
            name: _,
            id: _,
            title: _,
            givens,
            solution: _,
            kind,
            rows,
            cols,
            box_shape,
            cages,
            distinct_cages,
            kakuro,
            regions,
            diagonals,
            inequalities,
            edges,
        } = self;
        *kind == other.kind
            && *rows == other.rows
            && *cols == other.cols
            && givens.len() == other.givens.len()
            && givens
                .iter()
                .zip(&other.givens)
                .all(|(a, b)| a.len() == b.len())
            && *box_shape == other.box_shape
            && *distinct_cages == other.distinct_cages
            && *diagonals == other.diagonals
            && *cages == other.cages
            && *kakuro == other.kakuro
            && *regions == other.regions
            && *inequalities == other.inequalities
            && *edges == other.edges
    }

    /// A blank `n`×`n` puzzle of `kind` named `name`: no givens, cages,
    /// regions, signs or clues; callers fill in what their kind needs.
    pub fn blank(name: &str, kind: Kind, n: usize) -> Puzzle {
        Puzzle {
            name: name.to_string(),
            id: name.to_string(),
            title: None,
            kind,
            rows: n,
            cols: n,
            box_shape: None,
            givens: vec![vec![None; n]; n],
            cages: Vec::new(),
            distinct_cages: kind == Kind::Killer,
            kakuro: None,
            solution: None,
            regions: Vec::new(),
            diagonals: false,
            inequalities: Vec::new(),
            edges: None,
        }
    }
}
