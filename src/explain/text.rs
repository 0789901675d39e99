//! An explanation as a report: the JSON object (cells counted from 1) and
//! the text grid with marked cells and pencil marks.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Explanation, Search, Stop, Verdict};
use crate::error::escape_controls;
use crate::model::{Model, Statement, What, rc};
use crate::render::svg::{Anchor, Layout, Rect, Svg};

/// A cell as `[row, column]`, counted from 1.
type At = [usize; 2];

/// One statement in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatementReport {
    /// What it is (`given`, `row`, `cage`, …).
    pub what: What,
    /// Its label, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Its number, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// Its clue, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clue: Option<String>,
    /// A given's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Its cells.
    pub cells: Vec<At>,
    /// Its one-line name.
    pub name: String,
}

/// A suggested given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    /// The cell.
    pub cell: At,
    /// Its value.
    pub value: i64,
}

/// The report of one puzzle, as `explain --format json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The puzzle's name.
    pub puzzle: String,
    /// The solver asked.
    pub solver: String,
    /// `unique`, `multiple`, `none` or `unknown`.
    pub verdict: Verdict,
    /// No solution: the conflicting statements.
    pub conflict: Vec<StatementReport>,
    /// Whether the conflict was shown minimal.
    pub minimal: bool,
    /// Solutions found while counting.
    pub solutions: usize,
    /// Whether those are all.
    pub count_complete: bool,
    /// Whether counting stopped early (`stopped` says why) after two or
    /// more solutions.
    pub count_stopped: bool,
    /// Cells where the first two solutions differ.
    pub differs: Vec<At>,
    /// Per row, per square, the values its cell takes over all solutions
    /// (empty where no cell is); `null` if not known. When the search
    /// stopped early, the values of the solutions found.
    pub candidates: Option<Vec<Vec<Vec<i64>>>>,
    /// Whether `candidates` are every value of every solution.
    pub candidates_complete: bool,
    /// Givens that make the puzzle unique.
    pub suggest: Vec<Suggestion>,
    /// How `suggest` was searched.
    pub suggest_search: Option<Search>,
    /// Givens each removable with the puzzle still unique.
    pub redundant_givens: Vec<At>,
    /// Whether every given was tried for `redundant_givens`.
    pub redundant_complete: bool,
    /// Why the explanation stopped early, if it did.
    pub stopped: Option<String>,
    /// Solver questions asked.
    pub questions: usize,
    /// Time taken, in seconds.
    pub seconds: f64,
    /// The first solution found, row by row (`null` where no cell is).
    #[serde(skip)]
    pub grid: Option<Vec<Vec<Option<i64>>>>,
    /// The givens as a grid, for the text and the picture.
    #[serde(skip)]
    pub givens: Vec<Vec<Option<i64>>>,
    /// Where the search stopped, in words: `at the limit` or `early`.
    #[serde(skip)]
    stop_words: &'static str,
    /// For each square that holds no cell (a kakuro clue or block), its
    /// text: the clue as `down\across`, or `#`; `None` for a cell.
    #[serde(skip)]
    pub squares: Vec<Vec<Option<String>>>,
}

impl Report {
    /// The report of `ex` on `model` and its `statements`.
    pub fn new(model: &Model, statements: &[Statement], solver: &str, ex: &Explanation) -> Report {
        let at = |id: usize| {
            let c = &model.cells[id];
            [c.row + 1, c.col + 1]
        };
        let statement = |k: usize| {
            let st = &statements[k];
            StatementReport {
                what: st.what,
                label: st.label.clone(),
                index: st.index,
                clue: st.clue.clone(),
                value: st.value,
                cells: st.cells.iter().map(|&(r, c)| [r + 1, c + 1]).collect(),
                name: st.name.clone(),
            }
        };
        let candidates = ex.candidates.as_ref().map(|cands| {
            let mut grid = vec![vec![Vec::new(); model.cols]; model.rows];
            for (c, list) in model.cells.iter().zip(cands) {
                grid[c.row][c.col] = list.clone();
            }
            grid
        });
        let mut givens = vec![vec![None; model.cols]; model.rows];
        for st in statements.iter().filter(|s| s.what == What::Given) {
            if let (Some(&(r, c)), Some(v)) = (st.cells.first(), st.value) {
                givens[r][c] = Some(v);
            }
        }
        let mut squares = vec![vec![Some("#".to_string()); model.cols]; model.rows];
        for c in &model.cells {
            squares[c.row][c.col] = None;
        }
        let mut sums = vec![vec![(None, None); model.cols]; model.rows];
        for st in statements {
            let clue = st.clue.clone();
            match (st.what, st.cells.first()) {
                (What::AcrossRun, Some(&(r, c))) if c > 0 => sums[r][c - 1].1 = clue,
                (What::DownRun, Some(&(r, c))) if r > 0 => sums[r - 1][c].0 = clue,
                _ => {}
            }
        }
        for (row, line) in squares.iter_mut().zip(&sums) {
            for (square, sum) in row.iter_mut().zip(line) {
                if square.is_some() && *sum != (None, None) {
                    let (down, across) = sum.clone();
                    *square = Some(format!(
                        "{}\\{}",
                        down.unwrap_or_default(),
                        across.unwrap_or_default()
                    ));
                }
            }
        }
        Report {
            puzzle: model.name.clone(),
            solver: solver.to_string(),
            verdict: ex.verdict,
            conflict: ex.conflict.iter().map(|&k| statement(k)).collect(),
            minimal: ex.minimal,
            solutions: ex.solutions.len(),
            count_complete: ex.count_complete,
            count_stopped: ex.count_stopped,
            differs: ex.differs.iter().map(|&c| at(c)).collect(),
            candidates,
            candidates_complete: ex.candidates_complete,
            suggest: ex
                .suggest
                .iter()
                .map(|&(c, value)| Suggestion { cell: at(c), value })
                .collect(),
            suggest_search: ex.search.clone(),
            redundant_givens: ex
                .redundant_givens
                .iter()
                .filter_map(|&k| statements[k].cells.first())
                .map(|&(r, c)| [r + 1, c + 1])
                .collect(),
            redundant_complete: ex.redundant_complete,
            stopped: ex.stopped.as_ref().map(|s| s.to_string()),
            questions: ex.questions,
            seconds: ex.elapsed.as_secs_f64(),
            grid: ex.solutions.first().map(|s| model.to_grid(s)),
            givens,
            stop_words: match ex.stopped {
                Some(Stop::TimeLimit) => "at the limit",
                _ => "early",
            },
            squares,
        }
    }

    /// The cells a picture or text marks: the conflict's cells, or where
    /// the first two solutions differ, or the redundant givens.
    pub fn marked(&self) -> Vec<At> {
        let mut m: Vec<At> = match self.verdict {
            Verdict::None => self.conflict.iter().flat_map(|s| s.cells.clone()).collect(),
            Verdict::Multiple => self.differs.clone(),
            Verdict::Unique => self.redundant_givens.clone(),
            Verdict::Unknown => Vec::new(),
        };
        m.sort_unstable();
        m.dedup();
        m
    }
}

/// The text report: a headline, a grid (`*` marks cells; pencil marks
/// list a cell's candidates), and the details.
pub fn render_text(r: &Report) -> String {
    let mut out = String::new();
    let marked = r.marked();
    let is_marked = |row: usize, col: usize| marked.contains(&[row + 1, col + 1]);
    // The name comes from a file, the statements' names from its clues,
    // `stopped` may quote a solver: none reaches the terminal raw.
    let puzzle = escape_controls(&r.puzzle);
    let headline = match r.verdict {
        Verdict::None => format!(
            "{}: no solution; {} ({})",
            puzzle,
            match r.conflict.len() {
                1 => "1 statement contradicts itself".to_string(),
                n => format!("{n} statements conflict"),
            },
            if r.minimal {
                "proven minimal: without any one of them the rest has a checked solution"
            } else {
                "not shown minimal: the search stopped"
            }
        ),
        Verdict::Multiple if r.count_stopped => format!(
            "{}: more than one solution (at least {} found, count stopped {}), each checked",
            puzzle, r.solutions, r.stop_words
        ),
        Verdict::Multiple => format!(
            "{}: more than one solution; {}{} found, each checked",
            puzzle,
            if r.count_complete { "" } else { "at least " },
            r.solutions
        ),
        Verdict::Unique => format!("{}: exactly one solution (checked)", puzzle),
        Verdict::Unknown => format!("{}: unknown", puzzle),
    };
    let _ = writeln!(out, "{headline}");
    // Each square's text: the given (no solution), the candidates as
    // pencil marks (several solutions), the solution (one).
    let rows = r.givens.len();
    let cols = r.givens.first().map_or(0, Vec::len);
    let wide = r
        .candidates
        .iter()
        .flatten()
        .flatten()
        .flatten()
        .any(|&v| !(0..=9).contains(&v));
    let sep = if wide { "," } else { "" };
    let mut cells = vec![vec![String::new(); cols]; rows];
    for (row, line) in cells.iter_mut().enumerate() {
        for (col, text) in line.iter_mut().enumerate() {
            let cands = r
                .candidates
                .as_ref()
                .and_then(|g| g.get(row))
                .and_then(|l| l.get(col));
            let square = r
                .squares
                .get(row)
                .and_then(|l| l.get(col))
                .cloned()
                .flatten();
            *text = match (r.verdict, cands) {
                _ if square.is_some() => square.unwrap_or_default(),
                (Verdict::None | Verdict::Unknown, _) | (_, None) => {
                    r.givens[row][col].map_or(".".into(), |v| v.to_string())
                }
                (_, Some(list)) if list.is_empty() => " ".into(),
                (_, Some(list)) => list
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(sep),
            };
            if is_marked(row, col) {
                text.insert(0, '*');
            }
        }
    }
    let width = cells
        .iter()
        .flatten()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(1);
    for line in &cells {
        let texts: Vec<String> = line.iter().map(|t| format!("{t:>width$}")).collect();
        let _ = writeln!(out, "  {}", texts.join(" ").trim_end());
    }
    match r.verdict {
        Verdict::None => {
            let _ = writeln!(out, "conflict (cells marked *):");
            for s in &r.conflict {
                let _ = writeln!(out, "  {}", escape_controls(&s.name));
            }
        }
        Verdict::Multiple => {
            let cells: Vec<String> = r.differs.iter().map(|&[a, b]| rc(a - 1, b - 1)).collect();
            let marks = if r.candidates_complete {
                "each cell's values over all solutions".to_string()
            } else {
                format!(
                    "each cell's values in the solutions found (the search stopped {}; other solutions may add values)",
                    r.stop_words
                )
            };
            let _ = writeln!(
                out,
                "the first two solutions differ in {} (marked *); pencil marks are {marks}",
                cells.join(" ")
            );
            let given: Vec<String> = r
                .suggest
                .iter()
                .map(|s| format!("{} = {}", rc(s.cell[0] - 1, s.cell[1] - 1), s.value))
                .collect();
            match &r.suggest_search {
                Some(Search::Single) => {
                    let _ = writeln!(out, "one more given makes it unique: {}", given.join(", "));
                }
                Some(Search::Greedy) => {
                    let _ = writeln!(
                        out,
                        "no single given makes it unique (every cell's every candidate tried); these {} do (found greedily, not proven fewest): {}",
                        given.len(),
                        given.join(", ")
                    );
                }
                Some(Search::Unfinished) | None => {}
            }
        }
        Verdict::Unique => {
            let cells: Vec<String> = r
                .redundant_givens
                .iter()
                .map(|&[a, b]| rc(a - 1, b - 1))
                .collect();
            let has_givens = r.givens.iter().flatten().any(Option::is_some);
            if !has_givens {
                let _ = writeln!(out, "it has no givens: its clues alone make it unique");
            } else if cells.is_empty() {
                let _ = writeln!(
                    out,
                    "no given is redundant: each one is needed for uniqueness"
                );
            } else {
                let _ = writeln!(
                    out,
                    "redundant givens (marked *; each alone can be removed and the solution stays unique): {}",
                    cells.join(" ")
                );
            }
        }
        Verdict::Unknown => {}
    }
    if let Some(why) = &r.stopped {
        let _ = writeln!(out, "stopped early: {}", escape_controls(why));
    }
    let _ = writeln!(
        out,
        "{} questions to {} in {:.2} s",
        r.questions,
        escape_controls(&r.solver),
        r.seconds
    );
    out
}

/// Background of a conflict's cells.
const SHADE: &str = "#f6c6c6";
/// Outline of the cells where two solutions differ.
const RING: &str = "#c01c28";
/// Colour of pencil marks.
const PENCIL: &str = "#1a5fb4";

/// What the picture of an explanation draws over the puzzle: the
/// conflict's cells shaded, candidates as pencil marks (cells with one
/// candidate get it as a solved digit), differing cells (or redundant
/// givens) outlined. Cells are 0-based.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picture {
    shaded: Vec<(usize, usize)>,
    pencil: Vec<(usize, usize, Vec<i64>)>,
    ringed: Vec<(usize, usize)>,
    /// The digits drawn as a solution: the unique solution, or each cell
    /// with one candidate.
    pub digits: Option<crate::model::ValueGrid>,
}

impl Picture {
    /// The picture of report `r`.
    pub fn of(r: &Report) -> Picture {
        let cells = |v: &[At]| v.iter().map(|&[a, b]| (a - 1, b - 1)).collect();
        let marked = r.marked();
        let mut p = Picture::default();
        match r.verdict {
            Verdict::None => p.shaded = cells(&marked),
            Verdict::Multiple => {
                p.ringed = cells(&marked);
                let mut digits = r.givens.clone();
                for (row, line) in r.candidates.iter().flatten().enumerate() {
                    for (col, list) in line.iter().enumerate() {
                        match list.as_slice() {
                            [] => {}
                            [v] => digits[row][col] = Some(*v),
                            _ => p.pencil.push((row, col, list.clone())),
                        }
                    }
                }
                p.digits = Some(digits);
            }
            Verdict::Unique | Verdict::Unknown => {
                p.ringed = cells(&marked);
                p.digits = r.grid.clone();
            }
        }
        p
    }
}

impl crate::render::svg::Overlay for Picture {
    fn under(&self, layout: &Layout, out: &mut Svg) {
        for &(r, c) in &self.shaded {
            out.rect(
                layout.cell(r, c),
                &format!(r#"class="shaded" fill="{SHADE}""#),
            );
        }
    }

    fn background(&self, row: usize, col: usize) -> Option<&'static str> {
        self.shaded.contains(&(row, col)).then_some(SHADE)
    }

    fn over(&self, layout: &Layout, out: &mut Svg) {
        for (r, c, values) in &self.pencil {
            // Each value at its fixed place in a grid of ⌈√n⌉ columns (1-9
            // as on a phone's keypad), in the part of the cell clues leave,
            // so a value is found at the same spot in every cell.
            let free = layout.free(*r, *c);
            let per_row = (1..).find(|k| k * k >= layout.max_value()).unwrap_or(1);
            let lines = layout.max_value().div_ceil(per_row);
            let (dx, dy) = (
                free.width / (per_row as f64 + 0.5),
                free.height / (lines as f64 + 0.5),
            );
            let size = dx.min(dy) * 0.8;
            for v in values {
                let i = usize::try_from(v - 1).unwrap_or(0);
                let at = (
                    free.x + dx * (0.75 + (i % per_row) as f64),
                    free.y + dy * (0.75 + (i / per_row) as f64) + size * 0.36,
                );
                let fill = format!(r#"fill="{PENCIL}""#);
                out.text("pencil", at, size, Anchor::Middle, &fill, &v.to_string());
            }
        }
        for &(r, c) in &self.ringed {
            let cell = layout.cell(r, c);
            let inner = Rect {
                x: cell.x + 2.0,
                y: cell.y + 2.0,
                width: cell.width - 4.0,
                height: cell.height - 4.0,
            };
            out.rect(
                inner,
                &format!(r#"class="ringed" fill="none" stroke="{RING}" stroke-width="2.5""#),
            );
        }
    }
}
