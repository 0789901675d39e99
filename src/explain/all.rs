//! `solve --all` / `-n N`: up to N distinct solutions of one puzzle, each
//! checked, found in one session by the counting of [`super::explain`]
//! (each new question rules out every solution found so far).

use std::time::{Duration, Instant};

use serde::Serialize;

use super::ask::{Asker, Stop};
use super::{Explanation, count, refutation};
use crate::cancel::Cancel;
use crate::error::escape_controls;
use crate::model::{Model, Statement, ValueGrid};
use crate::puzzle::Puzzle;
use crate::render::{TextOptions, grid_text_with};
use crate::solver::Solver;

/// The most solutions `solve --all` / `-n` shows: each is a question, a
/// grid kept in memory and a grid printed.
pub const MAX_ALL: usize = 1000;

/// The distinct solutions found of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enumeration {
    /// The solutions, in the order found, each accepted by the checker.
    pub solutions: Vec<Vec<i64>>,
    /// Whether the solver said there is no other solution.
    pub complete: bool,
    /// Why the search stopped before the limit or the last solution.
    pub stopped: Option<Stop>,
}

/// Asks `solver` for up to `n` (1 to [`MAX_ALL`]) distinct solutions of
/// `model` within `time_limit`. Any stop is recorded in
/// [`Enumeration::stopped`] with the solutions found before it (none
/// when the solver could not be started or the time limit passed before
/// the first question). `recorded` is the
/// solution the puzzle file records (checked when it was read): a solver
/// that says there is no further solution while that one is not among
/// those found is wrong, and the search says so instead of claiming it
/// found them all.
pub fn enumerate(
    model: &Model,
    statements: &[Statement],
    solver: &Solver,
    n: usize,
    time_limit: Duration,
    cancel: &Cancel,
    recorded: Option<&[i64]>,
) -> Enumeration {
    let deadline = Instant::now() + time_limit;
    let mut asker = match Asker::start(model, statements, solver, deadline, cancel) {
        Ok(asker) => asker,
        Err(stop) => {
            return Enumeration {
                solutions: Vec::new(),
                complete: false,
                stopped: Some(stop),
            };
        }
    };
    let mut ex = Explanation::new();
    let all: Vec<usize> = (0..statements.len()).collect();
    let counted = count(&mut asker, &mut ex, &all, n.clamp(1, MAX_ALL));
    if let Some(why) = ex
        .count_complete
        .then(|| refutation(model, &ex.solutions, recorded, cancel))
        .flatten()
    {
        return Enumeration {
            solutions: ex.solutions,
            complete: false,
            stopped: Some(Stop::Failed(format!(
                "the solver answered that there is no further solution, but {why}"
            ))),
        };
    }
    Enumeration {
        solutions: ex.solutions,
        complete: ex.count_complete,
        stopped: counted.err(),
    }
}

/// One puzzle's solutions as JSON.
#[derive(Debug, Serialize)]
pub struct AllReport {
    /// The puzzle's name.
    pub puzzle: String,
    /// The solver asked.
    pub solver: String,
    /// The solutions, each a grid of rows (`null` where no cell is).
    pub solutions: Vec<ValueGrid>,
    /// Whether these are all the solutions there are.
    pub complete: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
}

impl AllReport {
    /// The report of `en` for the puzzle of `model`.
    pub fn new(puzzle: &Puzzle, model: &Model, solver: &str, en: &Enumeration) -> AllReport {
        AllReport {
            puzzle: puzzle.name.clone(),
            solver: solver.to_string(),
            solutions: en.solutions.iter().map(|s| model.to_grid(s)).collect(),
            complete: en.complete,
            stopped: en.stopped.as_ref().map(ToString::to_string),
        }
    }
}

/// The solutions as text: each grid under "solution K of N" (or "of at
/// least N" while more may exist), then a closing line saying whether
/// there are no more, the limit `n` was reached, or the search stopped.
pub fn all_text(puzzle: &Puzzle, r: &AllReport, n: usize, opts: &TextOptions) -> String {
    let name = escape_controls(&r.puzzle);
    let found = r.solutions.len();
    let total = if r.complete {
        format!("{found}")
    } else {
        format!("at least {found}")
    };
    let mut out = String::new();
    for (k, grid) in r.solutions.iter().enumerate() {
        out.push_str(&format!("{name}: solution {} of {total}\n", k + 1));
        out.push_str(&grid_text_with(puzzle, grid, opts));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    let closing = match (&r.stopped, r.complete) {
        (_, true) if found == 0 => "no solution".to_string(),
        (_, true) => format!(
            "{}, no more",
            crate::output::plural(found, "solution", "solutions")
        ),
        (Some(why), false) => format!(
            "{} found, then stopped: {}",
            crate::output::plural(found, "solution", "solutions"),
            escape_controls(why)
        ),
        (None, false) => format!(
            "{} shown, stopped at {n} (there may be more)",
            crate::output::plural(found, "solution", "solutions")
        ),
    };
    out.push_str(&format!("{name}: {closing}\n"));
    out
}
