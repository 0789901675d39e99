//! Saying why: which statements of a puzzle conflict when it has no
//! solution, where its solutions differ and what each cell can hold when
//! it has several, which given would make it unique, and which givens are
//! redundant when it has one.
//!
//! Statements are what the puzzle says, as its maker would name them (see
//! [`Statement`]): givens, cages, runs, signs, edge clues and the kind's
//! rules as units (`row 4`, `box 5`). Every question goes to one solver
//! session that holds each statement under a Bool of its own
//! ([`crate::encode::encode_guarded`]) and is asked with
//! `check-sat-assuming` over the statements that are on, plus conditions
//! between `push` and `pop`. Every solution the solver gives is checked
//! against exactly the statements that were on before it counts:
//!
//! - **No solution**: the solver's unsat core, shrunk by deletion until
//!   each statement, left out, makes the rest solvable — shown by a
//!   solution of the rest that the checker accepted. `minimal` says
//!   whether every statement was shown so before the time limit.
//! - **Several solutions**: up to `count` solutions (each checked); the
//!   cells where the first two differ; each cell's candidates (asked as
//!   "some cell holds a value no solution found so far gives it", until
//!   the solver says no, so the questions are about one per new value,
//!   not one per cell and value); then one given that makes the puzzle
//!   unique, or a greedy set of givens when no single one does.
//! - **One solution**: each given whose removal keeps it unique.

mod all;
pub(crate) mod ask;
mod text;

use std::time::{Duration, Instant};

use crate::cancel::Cancel;
use crate::model::{CellId, Model, Statement, What};
use crate::solver::Solver;
pub use all::{AllReport, Enumeration, MAX_ALL, all_text, enumerate};
pub use ask::Stop;
use ask::{Answer, Asker, Extra};
pub use text::{Picture, Report, render_text};

/// The most statements of an unminimised core a line names.
const CORE_NAMED: usize = 8;

/// One line saying why `p` has no solution, for `solve`: propagation's
/// reason when it finds one, else the statements of the solver's
/// unminimised unsat `core` when there is one, and where to get a minimal
/// conflict.
pub fn no_solution_line(p: &crate::puzzle::Puzzle, core: Option<&[String]>) -> String {
    const MINIMAL: &str = "`smtgrid explain` names a minimal set of conflicting statements";
    let model = crate::lower::lower(p);
    match (crate::encode::propagation_conflict(&model), core) {
        (Some(why), _) => format!("no solution: {why}; {MINIMAL}"),
        (None, Some(core)) if !core.is_empty() => {
            let named: Vec<&str> = core.iter().take(CORE_NAMED).map(String::as_str).collect();
            let more = match core.len().saturating_sub(CORE_NAMED) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            format!(
                "no solution: these {} statements cannot all hold (the solver's unsat core, not \
                 minimised): {}{more}; {MINIMAL}",
                core.len(),
                named.join("; ")
            )
        }
        (None, _) => format!("no solution; {MINIMAL}"),
    }
}

/// The statements the solver's unsat core blames for `p` having no
/// solution: one `check-sat-assuming` over every statement in a session
/// of `solver`, until `deadline`. Not minimised (that is what [`explain`]
/// does); `None` when the solver gives no core, answers otherwise, or
/// cannot take the question.
pub fn unminimised_core(
    p: &crate::puzzle::Puzzle,
    solver: &Solver,
    deadline: Instant,
    cancel: &Cancel,
) -> Option<Vec<String>> {
    let (model, statements) = crate::lower::lower_with_statements(p);
    let mut asker = Asker::start(&model, &statements, solver, deadline, cancel).ok()?;
    let all: Vec<usize> = (0..statements.len()).collect();
    match asker.ask(&all, &[]).ok()? {
        Answer::Unsat(core) if asker.gave_core() => {
            Some(core.iter().map(|&k| statements[k].name.clone()).collect())
        }
        _ => None,
    }
}

/// Limits of one explanation, and what the puzzle file says besides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Solutions to count up to (at least 2 to tell unique from not).
    pub count: usize,
    /// Time for the whole explanation of one puzzle; what is not done by
    /// then is reported as not done.
    pub time_limit: Duration,
    /// The solution the puzzle file records (checked when it was read),
    /// in the model's cell order: it refutes any `unsat`.
    pub recorded: Option<Vec<i64>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            count: 2,
            time_limit: Duration::from_secs(60),
            recorded: None,
        }
    }
}

/// Why an `unsat` is a solver fault when the puzzle file records a
/// solution: the one wording of `solve`, `emit --benchmark` and `explain`.
pub const RECORDED_REFUTES_UNSAT: &str = "the puzzle file records a solution that the checker \
                                          accepts: the solver is wrong (a disagreement with the \
                                          file, not a verdict)";

/// Why an `unsat` is a solver fault when propagation alone decides every
/// cell into a grid the checker accepts: the one wording of `solve` and
/// `explain`.
pub const PROPAGATION_REFUTES_UNSAT: &str = "propagation alone decides every cell, into a grid \
                                             that the checker accepts: the solver is wrong (a \
                                             fault, not a verdict)";

/// The most solutions `--count` may ask for: each is a question and a
/// grid kept in memory.
pub const MAX_COUNT: usize = 10_000;

/// What the puzzle is, as far as the solver's checked answers show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// More than one solution.
    Multiple,
    /// No solution.
    None,
    /// The solver did not say (time limit, `unknown`, a failure).
    Unknown,
}

/// How the suggested givens were found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Search {
    /// Every (cell, candidate) pair was tried as the one extra given; the
    /// suggestion is one of them.
    Single,
    /// Every (cell, candidate) pair was tried and none makes the puzzle
    /// unique alone; the set was built greedily (each step fixes a cell
    /// where two remaining solutions differ to its value in the first),
    /// so it is a set that works, not proven the smallest.
    Greedy,
    /// The time limit passed before a suggestion was found.
    Unfinished,
}

/// An explanation of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// What the answers show.
    pub verdict: Verdict,
    /// No solution: the conflicting statements (indices into the
    /// statements), in the puzzle's order.
    pub conflict: Vec<usize>,
    /// Whether each statement of `conflict` was shown necessary (by a
    /// checked solution of the others).
    pub minimal: bool,
    /// The solutions found while counting, each checked (at most `count`).
    pub solutions: Vec<Vec<i64>>,
    /// Whether `solutions` are all there are.
    pub count_complete: bool,
    /// Whether counting itself stopped early (see `stopped`), with at
    /// least two solutions found.
    pub count_stopped: bool,
    /// Cells where the first two solutions differ.
    pub differs: Vec<CellId>,
    /// Per cell, the values it takes in some solution, sorted; `None`
    /// when the puzzle has no solution or none was found. When the search
    /// stopped early, the values of the solutions found (see
    /// `candidates_complete`).
    pub candidates: Option<Vec<Vec<i64>>>,
    /// Whether `candidates` are every value of every solution.
    pub candidates_complete: bool,
    /// Givens (cell, value) that make the puzzle unique.
    pub suggest: Vec<(CellId, i64)>,
    /// How `suggest` was searched (several solutions only).
    pub search: Option<Search>,
    /// One solution: the givens (statement indices) each of which can be
    /// removed with the puzzle still unique.
    pub redundant_givens: Vec<usize>,
    /// Whether every given was tried for `redundant_givens`.
    pub redundant_complete: bool,
    /// Why the explanation stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Solver questions asked.
    pub questions: usize,
    /// Time taken.
    pub elapsed: Duration,
}

impl Explanation {
    pub(crate) fn new() -> Explanation {
        Explanation {
            verdict: Verdict::Unknown,
            conflict: Vec::new(),
            minimal: false,
            solutions: Vec::new(),
            count_complete: false,
            count_stopped: false,
            differs: Vec::new(),
            candidates: None,
            candidates_complete: false,
            suggest: Vec::new(),
            search: None,
            redundant_givens: Vec::new(),
            redundant_complete: false,
            stopped: None,
            questions: 0,
            elapsed: Duration::ZERO,
        }
    }
}

/// Explains `model`, whose constraints belong to `statements` (see
/// [`crate::lower::lower_with_statements`]), with questions to `solver`.
/// Any stop is recorded in [`Explanation::stopped`] with everything found
/// until then: one before the first question (the solver cannot be
/// started, rejects the statements, or the time limit passes while the
/// script is built) leaves the verdict `unknown` and no question asked.
pub fn explain(
    model: &Model,
    statements: &[Statement],
    solver: &Solver,
    opts: &Options,
    cancel: &Cancel,
) -> Explanation {
    let start = Instant::now();
    let deadline = start + opts.time_limit;
    let mut ex = Explanation::new();
    // A puzzle stopped before its first question is still reported, like
    // one stopped later: a run's output has every puzzle it read.
    let asked = Asker::start(model, statements, solver, deadline, cancel).and_then(|mut asker| {
        let result = run(&mut asker, &mut ex, model, statements, opts, cancel);
        ex.questions = asker.questions;
        result
    });
    if let Err(Stop::Contradicted(_)) = &asked {
        withdraw_unsat_verdict(&mut ex);
    }
    ex.stopped = asked.err();
    ex.elapsed = start.elapsed();
    ex
}

/// Takes back what rests on an `unsat` the solver contradicted: "no
/// solution" and its conflict, "unique" and its redundant givens. Checked
/// solutions stay facts, so "more than one" stands.
fn withdraw_unsat_verdict(ex: &mut Explanation) {
    if matches!(ex.verdict, Verdict::None | Verdict::Unique) {
        ex.verdict = Verdict::Unknown;
    }
    ex.conflict.clear();
    ex.minimal = false;
    ex.count_complete = false;
    ex.candidates_complete = false;
    ex.redundant_givens.clear();
    ex.redundant_complete = false;
}

/// Why a solver's "no further solution" after `found` is a fault, if it
/// is (`explain`'s `unsat` to the whole puzzle is one after none):
/// the recorded solution, accepted and not among them, or, when none
/// was found, the grid propagation alone decides (the unique
/// solution whenever it is whole, so it is among any solutions found;
/// worked out only after such an answer, as `solve` does).
pub(super) fn refutation(
    model: &Model,
    found: &[Vec<i64>],
    recorded: Option<&[i64]>,
    cancel: &Cancel,
) -> Option<&'static str> {
    let accepted = |v: &[i64]| model.check(v).is_ok();
    if recorded.is_some_and(|r| accepted(r) && !found.iter().any(|s| s.as_slice() == r)) {
        return Some(RECORDED_REFUTES_UNSAT);
    }
    found
        .is_empty()
        .then(|| crate::encode::propagated_grid(model, cancel))
        .flatten()
        .filter(|v| accepted(v))
        .map(|_| PROPAGATION_REFUTES_UNSAT)
}

fn run(
    asker: &mut Asker,
    ex: &mut Explanation,
    model: &Model,
    statements: &[Statement],
    opts: &Options,
    cancel: &Cancel,
) -> Result<(), Stop> {
    let all: Vec<usize> = (0..statements.len()).collect();
    match asker.ask(&all, &[])? {
        Answer::Unsat(_)
            if let Some(why) = refutation(model, &[], opts.recorded.as_deref(), cancel) =>
        {
            Err(Stop::Failed(format!(
                "the solver answered unsat, but {why}"
            )))
        }
        Answer::Unsat(core) => {
            ex.conflict = blamed(core)?;
            ex.verdict = Verdict::None;
            ex.count_complete = true;
            shrink(asker, ex)
        }
        Answer::Sat(first) => {
            ex.solutions.push(first);
            // Two checked solutions settle "more than one" even when the
            // count stops early: the stop is reported, the verdict kept.
            let counted = count(asker, ex, &all, opts.count.clamp(2, MAX_COUNT));
            if ex.solutions.len() == 1 {
                counted?;
                ex.verdict = Verdict::Unique;
                ex.candidates = Some(ex.solutions[0].iter().map(|&v| vec![v]).collect());
                ex.candidates_complete = true;
                redundant(asker, ex, statements)
            } else {
                ex.verdict = Verdict::Multiple;
                ex.differs = (0..model.cells.len())
                    .filter(|&c| ex.solutions[0][c] != ex.solutions[1][c])
                    .collect();
                let mut pool = ex.solutions.clone();
                // The values of the solutions in hand, then every value.
                let found = ex.candidates.insert(values_in(&pool));
                ex.count_stopped = counted.is_err();
                counted?;
                candidates(asker, &all, &mut pool, found)?;
                ex.candidates_complete = true;
                suggest(asker, ex, &all, &mut pool)
            }
        }
    }
}

/// The statements an `unsat` blamed, as a conflict: never none. With no
/// statement on, any grid of the cells' values is a solution, so an empty
/// core is a solver fault, and calling it a (minimal) conflict would be a
/// claim no answer proves.
fn blamed(core: Vec<usize>) -> Result<Vec<usize>, Stop> {
    if core.is_empty() {
        return Err(Stop::Failed(
            "the solver blamed no statement for the conflict (an empty unsat core), but without \
             any statement every grid of the cells' values is a solution: a solver fault"
                .into(),
        ));
    }
    Ok(core)
}

/// Deletion-based shrinking: each statement of the conflict in turn is
/// left out; if the rest still has no solution, the solver's core of the
/// rest replaces the conflict, else the statement is needed.
fn shrink(asker: &mut Asker, ex: &mut Explanation) -> Result<(), Stop> {
    let mut needed: Vec<usize> = Vec::new();
    loop {
        let Some(&s) = ex.conflict.iter().find(|s| !needed.contains(s)) else {
            ex.minimal = true;
            return Ok(());
        };
        let rest: Vec<usize> = ex.conflict.iter().copied().filter(|&k| k != s).collect();
        match asker.ask(&rest, &[])? {
            Answer::Unsat(core) => ex.conflict = blamed(core)?,
            Answer::Sat(_) => needed.push(s),
        }
    }
}

/// Counts solutions up to `n`, each new one differing from all before.
pub(crate) fn count(
    asker: &mut Asker,
    ex: &mut Explanation,
    all: &[usize],
    n: usize,
) -> Result<(), Stop> {
    while ex.solutions.len() < n {
        let extra: Vec<Extra> = ex.solutions.iter().cloned().map(Extra::Differs).collect();
        match asker.ask(all, &extra)? {
            Answer::Sat(s) => ex.solutions.push(s),
            Answer::Unsat(_) => {
                ex.count_complete = true;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Each cell's values in the solutions `pool`, sorted.
fn values_in(pool: &[Vec<i64>]) -> Vec<Vec<i64>> {
    let cells = pool.first().map_or(0, Vec::len);
    let mut seen: Vec<Vec<i64>> = vec![Vec::new(); cells];
    for s in pool {
        add_values(&mut seen, s);
    }
    seen
}

/// Adds solution `s`'s values to each cell's sorted list.
fn add_values(seen: &mut [Vec<i64>], s: &[i64]) {
    for (list, &v) in seen.iter_mut().zip(s) {
        if let Err(at) = list.binary_search(&v) {
            list.insert(at, v);
        }
    }
}

/// Each cell's values over all solutions: `seen` (the values of the
/// solutions in `pool`) extended by asking for a solution that gives some
/// cell a value none so far gives it, until there is none. New solutions
/// join `pool`; on a stop `seen` keeps what was found.
fn candidates(
    asker: &mut Asker,
    all: &[usize],
    pool: &mut Vec<Vec<i64>>,
    seen: &mut [Vec<i64>],
) -> Result<(), Stop> {
    loop {
        match asker.ask(all, &[Extra::SomeOutside(seen.to_vec())])? {
            Answer::Sat(s) => {
                add_values(seen, &s);
                pool.push(s);
            }
            Answer::Unsat(_) => return Ok(()),
        }
    }
}

/// One given that makes the puzzle unique: each candidate of each cell
/// with more than one is tried (cells where the first two solutions differ
/// first), skipping a pair two known solutions share; otherwise a greedy
/// set.
fn suggest(
    asker: &mut Asker,
    ex: &mut Explanation,
    all: &[usize],
    pool: &mut Vec<Vec<i64>>,
) -> Result<(), Stop> {
    ex.search = Some(Search::Unfinished);
    let Some(cands) = ex.candidates.clone() else {
        return Ok(());
    };
    let mut cells: Vec<CellId> = ex.differs.clone();
    cells.extend((0..cands.len()).filter(|c| cands[*c].len() > 1 && !ex.differs.contains(c)));
    for &c in &cells {
        for &v in &cands[c] {
            let mut having = pool.iter().filter(|s| s[c] == v);
            let Some(one) = having.next().cloned() else {
                continue;
            };
            if having.next().is_some() {
                continue;
            }
            match asker.ask(all, &[Extra::Is(c, v), Extra::Differs(one)])? {
                Answer::Unsat(_) => {
                    ex.suggest = vec![(c, v)];
                    ex.search = Some(Search::Single);
                    return Ok(());
                }
                Answer::Sat(s) => pool.push(s),
            }
        }
    }
    // No single given: fix cells of the first solution one at a time
    // where it and another remaining solution differ.
    let first = ex.solutions[0].clone();
    let mut given: Vec<Extra> = Vec::new();
    loop {
        let mut extra = given.clone();
        extra.push(Extra::Differs(first.clone()));
        match asker.ask(all, &extra)? {
            Answer::Unsat(_) => break,
            Answer::Sat(s) => {
                let Some(c) = (0..first.len()).find(|&c| s[c] != first[c]) else {
                    return Err(Stop::Failed(
                        "a solution said to differ is the same grid".into(),
                    ));
                };
                given.push(Extra::Is(c, first[c]));
                ex.suggest.push((c, first[c]));
            }
        }
    }
    ex.search = Some(Search::Greedy);
    Ok(())
}

/// Each given whose removal leaves the unique solution the only one.
fn redundant(
    asker: &mut Asker,
    ex: &mut Explanation,
    statements: &[Statement],
) -> Result<(), Stop> {
    let only = ex.solutions[0].clone();
    for (g, st) in statements.iter().enumerate() {
        if st.what != What::Given {
            continue;
        }
        let rest: Vec<usize> = (0..statements.len()).filter(|&k| k != g).collect();
        if let Answer::Unsat(_) = asker.ask(&rest, &[Extra::Differs(only.clone())])? {
            ex.redundant_givens.push(g);
        }
    }
    ex.redundant_complete = true;
    Ok(())
}
