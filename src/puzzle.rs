//! The puzzle as the user wrote it, before it is lowered into the
//! constraint model. Parsers produce it; `lower` consumes it. How its
//! cells, givens and elements become a model is said here
//! (`Puzzle::lowering`), so that a reader checks a recorded solution
//! without reaching for a later stage.

use serde::Serialize;

use crate::elements::boxes::Boxes;
use crate::elements::cages::Cages;
use crate::elements::diagonals::Diagonals;
use crate::elements::kakuro::Kakuro;
use crate::elements::regions::Regions;
use crate::elements::signs::Signs;
use crate::elements::{Element, Lowering, Member, Says, lower_all};
use crate::error::{InputError, Location};
use crate::model::{Cell, Group, Model, Rule, What, given_origin, rc};

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
    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

pub use crate::elements::cages::{Cage, Clue};
pub use crate::elements::edge_clues::EdgeClues;
pub use crate::elements::kakuro::KakuroCell;
pub use crate::elements::signs::Inequality;

/// A grid of optional digits (givens or a solution); `None` is blank.
pub type Grid = Vec<Vec<Option<u32>>>;

/// What a file says about a puzzle besides its title, grid and elements:
/// carried from reader to writer so that `convert` keeps it (or says
/// where the target format cannot hold it); nothing that solves reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct About {
    /// Who set the puzzle (TOML `author`, f-puzzles `author`, SudokuPad's
    /// `author`).
    pub author: Option<String>,
    /// The rules in the setter's words (TOML `rules`, f-puzzles
    /// `ruleset`, SudokuPad's `rules`).
    pub rules: Option<String>,
    /// The tables a generated puzzle ends with, `[source]` and `[grade]`
    /// (any TOML file may hold them): each name with its TOML text, header
    /// included, as the native format writes it back.
    pub tables: Vec<(String, String)>,
}

impl About {
    /// `text` as a piece of metadata: `None` for a blank one, as every
    /// format's reader takes it.
    pub fn text(text: Option<&str>) -> Option<String> {
        text.filter(|t| !t.trim().is_empty()).map(str::to_string)
    }
}

/// A parsed puzzle of any kind: a grid, its givens and its elements.
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
    /// The rest of what the file says about the puzzle.
    pub about: About,
    /// The file's label for its rules: which keys it reads and which
    /// elements it starts with ([`crate::kinds`]).
    pub kind: Kind,
    /// Grid height (kakuro: including clue squares).
    pub rows: usize,
    /// Grid width.
    pub cols: usize,
    /// Given digits, `rows` × `cols` (all blank for kakuro).
    pub givens: Grid,
    /// A known solution, when the file records one.
    pub solution: Option<Grid>,
    /// What the puzzle says besides its givens, in the registry's order
    /// ([`Element::rank`]; keep it so with [`Puzzle::add`]).
    pub elements: Vec<Element>,
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
            about: _,
            givens,
            solution: _,
            kind,
            rows,
            cols,
            elements,
        } = self;
        *kind == other.kind
            && *rows == other.rows
            && *cols == other.cols
            && givens.len() == other.givens.len()
            && givens
                .iter()
                .zip(&other.givens)
                .all(|(a, b)| a.len() == b.len())
            && *elements == other.elements
    }

    /// A blank `n`×`n` puzzle of `kind` named `name`, with the elements
    /// its kind always has ([`crate::kinds::base`]) and no givens, cages,
    /// regions, signs or clues; callers add what their kind needs.
    pub fn blank(name: &str, kind: Kind, n: usize) -> Puzzle {
        Puzzle {
            name: name.to_string(),
            id: name.to_string(),
            title: None,
            about: About::default(),
            kind,
            rows: n,
            cols: n,
            givens: vec![vec![None; n]; n],
            solution: None,
            elements: crate::kinds::base(kind),
        }
    }

    /// Adds an element in its place in the registry's order (after the
    /// instances of its own element already there); a flag
    /// ([`Element::is_flag`]) goes before them, once: one the puzzle has
    /// already is not added again.
    pub fn add(&mut self, e: impl Into<Element>) {
        let e = e.into();
        if e.is_flag() {
            // The flags of an element lead its instances and are each there
            // once, so this looks at a few elements, however many there are.
            let from = self.elements.partition_point(|x| x.rank() < e.rank());
            let flags = self.elements[from..]
                .iter()
                .take_while(|x| x.rank() == e.rank() && x.is_flag());
            if flags.clone().any(|x| *x == e) {
                return;
            }
            let at = from + flags.count();
            self.elements.insert(at, e);
            return;
        }
        let at = self.elements.partition_point(|x| x.rank() <= e.rank());
        self.elements.insert(at, e);
    }

    /// Adds `elements` as [`Puzzle::add`] adds each, in one pass: a file's
    /// thousands of tables put in place one by one would each move every
    /// element after it (the quadratic cost of a file whose late elements
    /// come first).
    pub fn extend(&mut self, elements: impl IntoIterator<Item = Element>) {
        let mut rest = Vec::new();
        for e in elements {
            if e.is_flag() {
                // Few, once each; placed while the list is still in order.
                self.add(e);
            } else {
                rest.push(e);
            }
        }
        if !rest.is_empty() {
            self.elements.append(&mut rest);
            // Stable: each new instance after those of its element there.
            self.elements.sort_by_key(Element::rank);
        }
    }

    /// Sets the one instance of element `T` (boxes, regions, cages, …),
    /// replacing any there was.
    pub fn set<T: Member>(&mut self, x: T) {
        self.elements.retain(|e| T::of(e).is_none());
        self.add(x.into_element());
    }

    /// The first instance of element `T`, if any.
    pub fn get<T: Member>(&self) -> Option<&T> {
        self.elements.iter().find_map(T::of)
    }

    /// The first instance of element `T`, added (made by `make`) if the
    /// puzzle has none, to change.
    pub fn entry<T: Member>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        if self.get::<T>().is_none() {
            self.add(make().into_element());
        }
        self.elements
            .iter_mut()
            .find_map(T::of_mut)
            .expect("the element was just added")
    }

    /// The first instance of element `T`, if any, to change.
    pub fn get_mut<T: Member>(&mut self) -> Option<&mut T> {
        self.elements.iter_mut().find_map(T::of_mut)
    }

    /// Every instance of element `T`.
    pub fn all<T: Member>(&self) -> impl Iterator<Item = &T> {
        self.elements.iter().filter_map(T::of)
    }

    /// Box shape (rows, columns) of a sudoku or killer.
    pub fn box_shape(&self) -> Option<(usize, usize)> {
        self.get::<Boxes>().map(|b| (b.rows, b.cols))
    }

    /// The cages (killer and calcudoku).
    pub fn cages(&self) -> &[Cage] {
        self.get::<Cages>().map_or(&[], |c| &c.cages)
    }

    /// Whether a cage may not repeat a digit (killer; default true).
    pub fn distinct_cages(&self) -> bool {
        self.get::<Cages>().is_some_and(|c| c.distinct)
    }

    /// The kakuro layout, `rows` × `cols` (kakuro only).
    pub fn kakuro(&self) -> Option<&Vec<Vec<KakuroCell>>> {
        self.get::<Kakuro>().map(|k| &k.0)
    }

    /// Jigsaw regions, each the 0-based (row, column) of its cells in
    /// row-major order; empty for other kinds.
    pub fn regions(&self) -> &[Vec<(usize, usize)>] {
        self.get::<Regions>().map_or(&[], |r| &r.0)
    }

    /// Whether both main diagonals must also hold different values.
    pub fn diagonals(&self) -> bool {
        self.get::<Diagonals>().is_some()
    }

    /// Futoshiki inequality signs (empty for other kinds).
    pub fn inequalities(&self) -> &[Inequality] {
        self.get::<Signs>().map_or(&[], |s| &s.0)
    }

    /// Skyscrapers edge clues (skyscrapers only).
    pub fn edges(&self) -> Option<&EdgeClues> {
        self.get::<EdgeClues>()
    }
}

impl<T: Member> From<T> for Element {
    fn from(x: T) -> Element {
        x.into_element()
    }
}

/// How a puzzle becomes its constraint model ([`crate::lower`] adds a
/// killer's implied sums and hands out the statements), and the check of
/// a recorded solution that every reader makes with it: here, beside the
/// puzzle, so that readers need no later stage.
impl Puzzle {
    /// Lowers the puzzle, keeping its statements if `statements`: its cells (every
    /// square some element does not take away, values 1 to the grid's side
    /// unless an element says otherwise), its givens, then its elements in the
    /// registry's order.
    pub(crate) fn lowering(&self, statements: bool) -> Lowering<'_> {
        let hi = self
            .elements
            .iter()
            .find_map(Element::max_value)
            .unwrap_or(self.rows as i64);
        let mut cells = Vec::with_capacity(self.rows * self.cols);
        for row in 0..self.rows {
            for col in 0..self.cols {
                if self.elements.iter().all(|e| e.holds_cell(row, col)) {
                    cells.push(Cell {
                        row,
                        col,
                        lo: 1,
                        hi,
                    });
                }
            }
        }
        let model = Model {
            name: self.name.clone(),
            title: self.title.clone(),
            rows: self.rows,
            cols: self.cols,
            cells,
            constraints: Vec::new(),
        };
        let mut l = Lowering::new(model, &self.elements, statements);
        for (r, c, value) in given_digits(self) {
            let says = || Says {
                value: Some(value),
                ..Says::default()
            };
            l.begin(
                What::Given,
                || format!("given {} = {value}", rc(r, c)),
                says,
            );
            let rule = Rule::Fixed {
                cell: l.cell(r, c),
                value,
            };
            l.push(Group::Givens, given_origin(r, c), rule);
        }
        lower_all(&self.elements, &mut l);
        l
    }

    /// Checks a recorded solution against the puzzle's own rules, the way a
    /// solver's answer is checked: lowered, then [`crate::model::Model::check_grid`].
    /// `locs` are the solution's cells in the file; `at` is the solution.
    pub(crate) fn check_solution(
        &self,
        locs: &[Vec<Location>],
        at: &Location,
    ) -> Result<(), InputError> {
        let Some(sol) = &self.solution else {
            return Ok(());
        };
        let grid: Vec<Vec<Option<i64>>> = sol
            .iter()
            .map(|r| r.iter().map(|v| v.map(i64::from)).collect())
            .collect();
        // Without a killer's implied sums (`crate::lower::lower`): they
        // follow from the puzzle's own rules, which come first, so the first
        // rule a wrong solution breaks is the same.
        let model = self.lowering(false).m;
        let Err(v) = model.check_grid(&grid) else {
            return Ok(());
        };
        // Point at the cell that breaks the rule: a repeated value's second
        // cell, else the rule's first cell.
        let cell = v.constraint.and_then(|i| {
            let ids = model.constraints.get(i)?.rule.cells();
            let value = |id: usize| {
                let c = &model.cells[id];
                grid[c.row][c.col]
            };
            let repeat = ids
                .iter()
                .enumerate()
                .find(|&(k, &id)| ids[..k].iter().any(|&o| value(o) == value(id)));
            let id = repeat.map_or(*ids.first()?, |(_, &id)| id);
            Some((model.cells[id].row, model.cells[id].col))
        });
        let loc = cell
            .and_then(|(r, c)| locs.get(r)?.get(c).cloned())
            .unwrap_or_else(|| at.clone());
        Err(InputError::new(
            loc,
            format!("the recorded solution is wrong: {v}; correct it, or remove `solution`"),
        ))
    }
}

/// The puzzle's given digits as (row, column, value), in the order
/// [`crate::lower::lower`] states them: each becomes a [`Rule::Fixed`] of the cell at
/// that square, and nothing else in the model depends on them.
pub fn given_digits(p: &Puzzle) -> impl Iterator<Item = (usize, usize, i64)> + '_ {
    p.givens.iter().enumerate().flat_map(|(r, line)| {
        line.iter()
            .enumerate()
            .filter_map(move |(c, g)| g.map(|v| (r, c, i64::from(v))))
    })
}
