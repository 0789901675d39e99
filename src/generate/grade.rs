//! Grading: how hard a puzzle is for a fixed solver and encoding (the
//! conflicts and decisions it reports for one solve, through the solve
//! layer with statistics) and how much propagation alone decides (the
//! share of open cells the `onehot` encoder fixes before any solver
//! runs). `--grade` names a band of conflicts calibrated on published
//! puzzles; see docs/generate.md.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use crate::cancel::Cancel;
use crate::encode::{Encoding, Options, propagated_values};
use crate::lower::lower;
use crate::model::ValueGrid;
use crate::puzzle::Puzzle;
use crate::solve::{Mode, Outcome, Plan, ResetSessions, SessionUse, StatsUse, solve_all};
use crate::solver::Solver;

/// The encoding grades are measured on.
pub const ENCODING: Encoding = Encoding::Onehot;

/// The grades by name, each a range of conflicts of the grading solver
/// (z3 on `onehot`), calibrated with `scripts/calibrate-grades` on 100
/// puzzles of each qqwing grade, top95 and the 17-clue set
/// (docs/generate.md): qqwing's simple and easy ones all take 0; its
/// intermediate ones a median of 1 (p90 3), its expert ones 2 (p90 4, max
/// 12); top95 a median of 8 (q1 4, q3 13, p90 23).
pub const BANDS: [(&str, u64, u64); 4] = [
    ("easy", 0, 0),
    ("medium", 1, 3),
    ("hard", 4, 12),
    ("fiendish", 13, u64::MAX),
];

/// The conflicts range of the grade called `name`.
pub fn band(name: &str) -> Option<(u64, u64)> {
    BANDS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, lo, hi)| (lo, hi))
}

/// A puzzle's grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    /// The band its conflicts fall in.
    pub name: &'static str,
    /// Conflicts of the grading solver.
    pub conflicts: u64,
    /// Decisions of the grading solver.
    pub decisions: u64,
    /// Share of the cells without a given that propagation decides, 0–1.
    pub propagated: f64,
    /// The grading solver's answer, which the checker accepted: a second
    /// witness that the generator holds up against the puzzle's solution.
    pub grid: ValueGrid,
}

/// Grades `p` with `solver` on [`ENCODING`], within `timeout`, in a
/// solver process of its own. Fails when the solver gives no verified
/// answer or no statistics.
pub fn grade(
    p: &Puzzle,
    solver: &Solver,
    timeout: Duration,
    cancel: &Cancel,
) -> Result<Grade, String> {
    grade_in(p, solver, None, timeout, cancel)
}

/// [`grade`] in a session of `sessions` if given: one left idle there by
/// an earlier puzzle, reset, or a new one, given back after a verified
/// answer. `generate` grades each worker's puzzles so, in one z3 that
/// starts once (a z3 process costs about 24 ms of CPU time to start,
/// most of a 9×9's grading); z3 gives the same conflicts and decisions
/// after `(reset)` as a new process (`solve::ResetSessions`), so the
/// grade is the same.
pub fn grade_in(
    p: &Puzzle,
    solver: &Solver,
    sessions: Option<&Arc<ResetSessions>>,
    timeout: Duration,
    cancel: &Cancel,
) -> Result<Grade, String> {
    let plan = Plan::builder(vec![solver.clone()], Mode::Fixed(vec![ENCODING]))
        .timeout(timeout.max(Duration::from_millis(1)))
        .jobs(Some(1))
        .sessions(SessionUse::Never)
        .stats(StatsUse::Always)
        .reset_sessions(sessions.cloned())
        .build();
    let mut result = None;
    solve_all(std::iter::once(p.clone()), &plan, cancel, |_, r| {
        result = Some(r.clone());
        ControlFlow::Continue(())
    });
    let run = result
        .and_then(|r| r.lines.into_iter().next())
        .map(|l| l.run)
        .ok_or("the grading run did not end")?;
    let Outcome::Sat { grid, .. } = run.outcome else {
        return Err(format!("grading: {}", run.outcome.status().name()));
    };
    let stats = run
        .measured
        .stats
        .ok_or("grading: the solver gave no statistics")?;
    let conflicts = stats.conflicts.unwrap_or(0);
    let decisions = stats.decisions.unwrap_or(0);
    Ok(Grade {
        name: name_of(conflicts),
        conflicts,
        decisions,
        propagated: propagated_share(p, cancel),
        grid,
    })
}

/// The band `conflicts` falls in.
pub fn name_of(conflicts: u64) -> &'static str {
    BANDS
        .iter()
        .find(|(_, lo, hi)| (*lo..=*hi).contains(&conflicts))
        .map_or("fiendish", |b| b.0)
}

/// The share of `p`'s cells without a given that propagation decides.
fn propagated_share(p: &Puzzle, cancel: &Cancel) -> f64 {
    let model = lower(p);
    let given: usize = p.givens.iter().flatten().filter(|g| g.is_some()).count();
    let Ok(values) = propagated_values(&model, &Options::default(), cancel) else {
        return 0.0;
    };
    let decided = values.iter().filter(|v| v.is_some()).count();
    let open = model.cells.len().saturating_sub(given);
    match open {
        0 => 1.0,
        _ => decided.saturating_sub(given) as f64 / open as f64,
    }
}
