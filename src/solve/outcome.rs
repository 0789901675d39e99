//! How runs end, as types: every report (text, JSON Lines, "also tried",
//! warnings) and the exit status are derived from these, here.

use serde::{Deserialize, Serialize};

use super::schedule::StopCause;
use crate::encode::Encoding;
use crate::model::ValueGrid;
use crate::puzzle::{Kind, Puzzle};

/// How a solver was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunMode {
    /// A process of its own, given the whole script (or, with the plan's
    /// `reset_sessions`, a reused session after `(reset)`, which answers
    /// as a new process would).
    Process,
    /// A question in a running solver that holds the rules of the
    /// puzzle's shape (`push`, givens, `check-sat`, `pop`).
    Incremental,
}

impl RunMode {
    /// Every mode.
    pub const ALL: [RunMode; 2] = [RunMode::Process, RunMode::Incremental];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            RunMode::Process => "process",
            RunMode::Incremental => "incremental",
        }
    }
}

/// The fixed status vocabulary of a run (as in BenchExec and SMT-COMP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A model was found and the checker accepted it.
    Sat,
    /// The solver proved there is no solution.
    Unsat,
    /// The solver gave up.
    Unknown,
    /// The time limit passed.
    Timeout,
    /// smtgrid stopped the run before it answered (Ctrl-C, or its output
    /// was closed).
    Stopped,
    /// The solver failed: crashed, printed nothing, printed garbage, or
    /// reported an error.
    Error,
    /// The solver's model breaks a rule of the puzzle.
    InvalidModel,
    /// The solver does not take this script's logic or commands.
    Unsupported,
    /// The solver used more memory than `--memory-limit` and was stopped.
    Memout,
}

impl Status {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
            Status::Timeout => "timeout",
            Status::Stopped => "stopped",
            Status::Error => "error",
            Status::InvalidModel => "invalid-model",
            Status::Unsupported => "unsupported",
            Status::Memout => "memout",
        }
    }
}

/// What kind of failure an [`Outcome::Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The solver could not be started.
    Start,
    /// Its output could not be read as SMT-LIB.
    Unreadable,
    /// It printed more than smtgrid takes and was killed.
    TooMuchOutput,
    /// It ended without an answer.
    NoAnswer,
    /// It reported errors instead of an answer.
    Reported,
    /// It said sat but printed no model.
    NoModel,
    /// It broke the session protocol (an answer before its question).
    Protocol,
    /// It answered `unsat` to a puzzle whose file records a solution the
    /// checker accepts, or whose every cell propagation decides into a
    /// grid the checker accepts.
    Refuted,
}

/// With `--unique`: what the second question ("another solution?") gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Uniqueness {
    /// No other solution: the solver said unsat.
    Unique,
    /// Another solution, verified and different from the first.
    NotUnique(ValueGrid),
    /// The second question got no definite answer.
    Unsettled(String),
    /// The solver said there is no other solution, but a solution the
    /// checker accepts and that differs from the first denies it: a
    /// solver fault, never a verdict.
    Refuted(String),
}

impl Uniqueness {
    /// Whether the second question is still open: no definite answer,
    /// or an answer refuted.
    pub fn is_open(&self) -> bool {
        matches!(self, Uniqueness::Unsettled(_) | Uniqueness::Refuted(_))
    }
}

/// How one run (one solver on one encoded puzzle) ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A model the checker accepted.
    Sat {
        /// The verified grid.
        grid: ValueGrid,
        /// With `--unique`: the answer to the second question.
        unique: Option<Uniqueness>,
    },
    /// No solution, says the solver.
    Unsat,
    /// The solver gave up.
    Unknown(String),
    /// No answer within the limit.
    Timeout(String),
    /// Stopped over the memory limit.
    Memout(String),
    /// smtgrid stopped the run.
    Stopped(StopCause),
    /// The solver failed.
    Error(ErrorKind, String),
    /// A model that breaks a rule.
    InvalidModel {
        /// The broken rule (or why the model cannot be read).
        rule: String,
        /// The first grid, verified, when it was the second answer (under
        /// `--unique`) that broke a rule.
        first: Option<ValueGrid>,
    },
    /// The solver cannot take this script.
    Unsupported(String),
}

impl Outcome {
    /// Its status word.
    pub fn status(&self) -> Status {
        match self {
            Outcome::Sat { .. } => Status::Sat,
            Outcome::Unsat => Status::Unsat,
            Outcome::Unknown(_) => Status::Unknown,
            Outcome::Timeout(_) => Status::Timeout,
            Outcome::Memout(_) => Status::Memout,
            Outcome::Stopped(_) => Status::Stopped,
            Outcome::Error(..) => Status::Error,
            Outcome::InvalidModel { .. } => Status::InvalidModel,
            Outcome::Unsupported(_) => Status::Unsupported,
        }
    }

    /// A definite, trusted answer: a verified sat or an unsat.
    pub fn is_definite(&self) -> bool {
        matches!(self, Outcome::Sat { .. } | Outcome::Unsat)
    }

    /// The verified grid, if any (the first one, under `--unique`).
    pub fn grid(&self) -> Option<&ValueGrid> {
        match self {
            Outcome::Sat { grid, .. } => Some(grid),
            Outcome::InvalidModel { first, .. } => first.as_ref(),
            _ => None,
        }
    }

    /// Every verified grid: the first and, under `--unique`, the second.
    pub fn grids(&self) -> impl Iterator<Item = &ValueGrid> {
        let second = match self {
            Outcome::Sat {
                unique: Some(Uniqueness::NotUnique(g)),
                ..
            } => Some(g),
            _ => None,
        };
        self.grid().into_iter().chain(second)
    }

    /// With `--unique`, when a second solution was found: the cells
    /// (row, column, from 0) where it differs from the first.
    pub fn differs(&self) -> Option<Vec<(usize, usize)>> {
        let (first, second) = match self {
            Outcome::Sat {
                grid,
                unique: Some(Uniqueness::NotUnique(g)),
            } => (grid, g),
            _ => return None,
        };
        let mut cells = Vec::new();
        for (r, (x, y)) in first.iter().zip(second).enumerate() {
            for (c, (u, v)) in x.iter().zip(y).enumerate() {
                if u != v {
                    cells.push((r, c));
                }
            }
        }
        Some(cells)
    }

    /// With `--unique`: `Some(true)` unique, `Some(false)` another
    /// solution was found, `None` not asked or not settled.
    pub fn unique(&self) -> Option<bool> {
        match self {
            Outcome::Sat {
                unique: Some(Uniqueness::Unique),
                ..
            } => Some(true),
            Outcome::Sat {
                unique: Some(Uniqueness::NotUnique(_)),
                ..
            } => Some(false),
            _ => None,
        }
    }

    /// What went wrong, for the `error` field and the text report.
    pub fn message(&self) -> Option<String> {
        match self {
            Outcome::Sat {
                unique: Some(Uniqueness::Unsettled(why) | Uniqueness::Refuted(why)),
                ..
            } => Some(why.clone()),
            Outcome::Sat { .. } | Outcome::Unsat => None,
            Outcome::Unknown(why)
            | Outcome::Timeout(why)
            | Outcome::Memout(why)
            | Outcome::Error(_, why)
            | Outcome::Unsupported(why) => Some(why.clone()),
            Outcome::InvalidModel { rule, .. } => Some(rule.clone()),
            Outcome::Stopped(cause) => Some(
                match cause {
                    StopCause::Answered => "stopped: another run answered first",
                    StopCause::Interrupted => "stopped: interrupted",
                    StopCause::Abandoned => "stopped: the output was closed",
                }
                .into(),
            ),
        }
    }

    /// Whether this run, as a reported result, lets the exit status be 0:
    /// a verified sat (with uniqueness settled, if asked), an unsat, or a
    /// script the solver cannot take.
    fn acceptable(&self) -> bool {
        match self {
            Outcome::Sat { unique, .. } => !unique.as_ref().is_some_and(Uniqueness::is_open),
            Outcome::Unsat | Outcome::Unsupported(_) => true,
            _ => false,
        }
    }
}

/// One run: who, on what, how long, and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The solver's label.
    pub solver: String,
    /// Its version, once read (only reported runs are probed).
    pub version: Option<String>,
    /// The encoding.
    pub encoding: Encoding,
    /// How the solver was run.
    pub mode: RunMode,
    /// Wall-clock time of the solver's process(es) in milliseconds, with
    /// microsecond resolution; in a session, of the question (the first
    /// one also starts the solver). Under `--unique`, both questions.
    pub time_ms: f64,
    /// What the solver cost and how it ran (empty for a run that started
    /// no solver).
    pub measured: Measured,
    /// How it ended.
    pub outcome: Outcome,
    /// After `unsat` with no reason from propagation: the statements the
    /// solver's unsat core blames (not minimised), when it gave one.
    pub core: Option<Vec<String>>,
    /// It ran out of its budget in a race (see `budget_ms` in the
    /// profiles) and gave its place to the next pair: it stands for its
    /// line only when no other run does.
    pub gave_way: bool,
}

/// What a run cost, as the kernel accounts it, and the command that ran.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Measured {
    /// Under `--unique`: the wall-clock time to the first (verified)
    /// answer, in milliseconds; `time_ms` covers both questions.
    #[serde(default)]
    pub first_answer_ms: Option<f64>,
    /// User + system CPU time of the solver and every process it started,
    /// in milliseconds; `null` if no solver ran or it could not be read.
    #[serde(default)]
    pub cpu_ms: Option<f64>,
    /// The solver's peak resident memory in KiB (in a session: since the
    /// session started); `null` if no solver ran.
    #[serde(default)]
    pub max_rss_kb: Option<u64>,
    /// The exact command line: the solver's path first, then every
    /// argument (smtgrid's added flags and the script's path included).
    #[serde(default)]
    pub command: Vec<String>,
    /// The SHA-256 of the solver's binary (its path is `command[0]`).
    #[serde(default)]
    pub solver_sha256: Option<String>,
    /// The solver's search effort (conflicts, decisions, propagations),
    /// where it was asked and answered (`--stats`); `null` otherwise.
    #[serde(default)]
    pub stats: Option<Box<super::Stats>>,
}

impl Run {
    /// `solver on encoding`, for messages.
    pub fn label(&self) -> String {
        format!("{} on {}", self.solver, self.encoding)
    }

    /// The JSON Lines record of this run for puzzle `p`.
    pub fn report(&self, p: &Puzzle) -> RunReport {
        RunReport {
            puzzle: p.id.clone(),
            kind: p.kind,
            solver: self.solver.clone(),
            solver_version: self.version.clone(),
            encoding: self.encoding,
            mode: self.mode,
            status: self.outcome.status(),
            verified: self.outcome.grid().is_some(),
            unique: self.outcome.unique(),
            differs: self
                .outcome
                .differs()
                .map(|cells| cells.into_iter().map(|(r, c)| [r + 1, c + 1]).collect()),
            time_ms: self.time_ms,
            measured: self.measured.clone(),
            grid: self.outcome.grid().cloned(),
            error: match self.outcome {
                Outcome::Unsat => Some(crate::explain::no_solution_line(p, self.core.as_deref())),
                _ => self.outcome.message(),
            },
            provenance: None,
        }
    }
}

/// One (puzzle, solver, encoding) run as reported in JSON Lines: exactly
/// these fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The puzzle's identity ([`Puzzle::id`]): its file as given, or
    /// `FILE:LINE` for one of a file of many.
    pub puzzle: String,
    /// Its kind.
    pub kind: Kind,
    /// The solver's label.
    pub solver: String,
    /// The solver's version, if known.
    pub solver_version: Option<String>,
    /// The encoding used.
    pub encoding: Encoding,
    /// How the solver was run.
    pub mode: RunMode,
    /// How the run ended.
    pub status: Status,
    /// Whether the checker accepted the grid.
    pub verified: bool,
    /// With `--unique`: whether the solution is the only one.
    pub unique: Option<bool>,
    /// With `--unique`, when a second solution was found: the cells where
    /// it differs from the first, as `[row, column]` counted from 1.
    pub differs: Option<Vec<[usize; 2]>>,
    /// Wall-clock time of the solver run in milliseconds, with
    /// microsecond resolution (under `--unique`, of both questions).
    pub time_ms: f64,
    /// CPU time, memory, the first answer's time and the command line.
    #[serde(flatten)]
    pub measured: Measured,
    /// The verified grid; `null` cells where no cell is; `null` without a
    /// model.
    pub grid: Option<ValueGrid>,
    /// What went wrong, or `null`.
    pub error: Option<String>,
    /// The limits, options, machine and date of the run, when the caller
    /// records them (`solve --format json` does).
    #[serde(flatten)]
    pub provenance: Option<crate::provenance::Provenance>,
}

/// A run of a race that is not the reported one.
#[derive(Debug, Clone, PartialEq)]
pub enum Tried {
    /// It ran (or was stopped while running); boxed, as most races are
    /// reported without their other runs.
    Ran(Box<Run>),
    /// It never started.
    NotStarted {
        /// `solver on encoding`.
        label: String,
        /// Why.
        cause: StopCause,
    },
}

impl Tried {
    /// The "also tried" line.
    pub fn describe(&self) -> String {
        match self {
            Tried::Ran(r) => match &r.outcome {
                Outcome::Stopped(StopCause::Answered) => {
                    format!("{}: stopped after {:.0} ms", r.label(), r.time_ms)
                }
                o => format!(
                    "{}: {} after {:.0} ms{}",
                    r.label(),
                    o.status().name(),
                    r.time_ms,
                    o.message().map(|e| format!(" ({e})")).unwrap_or_default()
                ),
            },
            Tried::NotStarted { label, cause } => format!(
                "{label}: not started ({})",
                match cause {
                    StopCause::Answered => "an answer came first",
                    StopCause::Interrupted => "interrupted",
                    StopCause::Abandoned => "the output was closed",
                }
            ),
        }
    }
}

/// One result line: the reported run and, for a race, the others.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The reported run: the race's winner, else its first run.
    pub run: Run,
    /// The race's other runs, in start order.
    pub also: Vec<Tried>,
}

/// Something about a puzzle's runs taken together that fails the run.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// Two runs contradict each other.
    Disagreement(String),
    /// A run that is not reported on a line of its own (a race's loser)
    /// gave an invalid model.
    InvalidModel {
        /// `solver on encoding`.
        run: String,
        /// The broken rule.
        rule: String,
    },
}

impl Finding {
    /// The warning printed on stderr.
    pub fn message(&self) -> String {
        match self {
            Finding::Disagreement(d) => format!("SOLVERS DISAGREE: {d}"),
            Finding::InvalidModel { run, rule } => {
                format!("INVALID MODEL from {run}: {rule}")
            }
        }
    }
}

/// The result of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleResult {
    /// Index of the puzzle in the input.
    pub index: usize,
    /// Its result lines in a stable order (solvers as given, then
    /// encodings).
    pub lines: Vec<Line>,
    /// What its runs, taken together, show that fails the run.
    pub findings: Vec<Finding>,
}

/// What a puzzle's runs, taken together, show about it: the verdict that
/// `solve --expect` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A verified grid, shown unique.
    Unique,
    /// A verified grid and a second one: more than one solution.
    NotUnique,
    /// A verified grid, uniqueness not asked or not settled.
    Sat,
    /// No solution.
    Unsat,
    /// Nothing definite, or runs that contradict each other.
    Unknown,
}

impl Verdict {
    /// How a message says it.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Unique => "exactly one solution",
            Verdict::NotUnique => "more than one solution",
            Verdict::Sat => "a solution",
            Verdict::Unsat => "no solution",
            Verdict::Unknown => "no definite answer",
        }
    }
}

/// What `solve --expect` asserts of every puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Exactly one solution (asks for uniqueness).
    Unique,
    /// At least one solution.
    Sat,
    /// No solution.
    Unsat,
}

impl Expect {
    /// Every expectation, as the command line lists them.
    pub const ALL: [Expect; 3] = [Expect::Unique, Expect::Sat, Expect::Unsat];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Expect::Unique => "unique",
            Expect::Sat => "sat",
            Expect::Unsat => "unsat",
        }
    }

    /// Whether `verdict` meets it.
    pub fn met_by(self, verdict: Verdict) -> bool {
        matches!(
            (self, verdict),
            (Expect::Unique, Verdict::Unique)
                | (
                    Expect::Sat,
                    Verdict::Unique | Verdict::NotUnique | Verdict::Sat
                )
                | (Expect::Unsat, Verdict::Unsat)
        )
    }
}

impl PuzzleResult {
    /// The puzzle's verdict: from its reported runs' checked answers, the
    /// strongest one (a settled uniqueness over a bare grid); unknown when
    /// none is definite or when runs contradict each other.
    pub fn verdict(&self) -> Verdict {
        if !self.findings.is_empty() {
            return Verdict::Unknown;
        }
        let of = |o: &Outcome| match o {
            Outcome::Sat { unique, .. } => match unique {
                Some(Uniqueness::Unique) => Verdict::Unique,
                Some(Uniqueness::NotUnique(_)) => Verdict::NotUnique,
                _ => Verdict::Sat,
            },
            Outcome::Unsat => Verdict::Unsat,
            _ => Verdict::Unknown,
        };
        let rank = |v: &Verdict| match v {
            Verdict::Unique | Verdict::NotUnique | Verdict::Unsat => 2,
            Verdict::Sat => 1,
            Verdict::Unknown => 0,
        };
        self.lines
            .iter()
            .map(|l| of(&l.run.outcome))
            .max_by_key(rank)
            .unwrap_or(Verdict::Unknown)
    }

    /// Whether this puzzle lets the exit status be 0: every line is a
    /// verified sat (uniqueness settled if asked), an unsat or an
    /// unsupported script; at least one is definite; and nothing
    /// disagrees and no run gave an invalid model.
    pub fn succeeded(&self) -> bool {
        self.findings.is_empty()
            && self.lines.iter().any(|l| l.run.outcome.is_definite())
            && self.lines.iter().all(|l| l.run.outcome.acceptable())
    }
}

/// Compares every definite answer of a puzzle's runs (reported or not):
/// a verified grid against an unsat, and a "unique" claim against every
/// other verified grid, second solutions included.
pub fn disagreements<'a>(runs: impl Iterator<Item = &'a Run> + Clone) -> Vec<Finding> {
    let mut found = Vec::new();
    let sat = runs.clone().find(|r| r.outcome.grid().is_some());
    for r in runs.clone() {
        if let Outcome::Error(ErrorKind::Refuted, why)
        | Outcome::Sat {
            unique: Some(Uniqueness::Refuted(why)),
            ..
        } = &r.outcome
        {
            found.push(Finding::Disagreement(format!("{}: {why}", r.label())));
        }
    }
    let unsat = runs.clone().find(|r| r.outcome == Outcome::Unsat);
    if let (Some(s), Some(u)) = (sat, unsat) {
        found.push(Finding::Disagreement(format!(
            "{} found a verified solution but {} says there is none",
            s.label(),
            u.label()
        )));
    }
    for u in runs.clone().filter(|r| r.outcome.unique() == Some(true)) {
        let Some(mine) = u.outcome.grid() else {
            continue;
        };
        let other = runs.clone().find(|o| o.outcome.grids().any(|g| g != mine));
        if let Some(o) = other {
            found.push(Finding::Disagreement(format!(
                "{} says the solution is unique, but {} found a different one",
                u.label(),
                o.label()
            )));
            break;
        }
    }
    found
}

/// Runs of one-cell grids, for the tests that judge answers together.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// `solver`'s run on lia that ended with `outcome`.
    pub(crate) fn run(solver: &str, outcome: Outcome) -> Run {
        Run {
            solver: solver.into(),
            version: None,
            encoding: Encoding::Lia,
            mode: RunMode::Process,
            time_ms: 1.0,
            measured: Measured::default(),
            outcome,
            core: None,
            gave_way: false,
        }
    }

    /// The one-cell grid holding `v`.
    pub(crate) fn grid(v: i64) -> ValueGrid {
        vec![vec![Some(v)]]
    }

    /// A verified sat with the grid holding `v`.
    pub(crate) fn sat(v: i64, unique: Option<Uniqueness>) -> Outcome {
        Outcome::Sat {
            grid: grid(v),
            unique,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{grid, run, sat};
    use super::*;

    #[test]
    fn sat_against_unsat_disagrees() {
        let runs = [run("a", Outcome::Unsat), run("b", sat(1, None))];
        let f = disagreements(runs.iter());
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message()
                .contains("b on lia found a verified solution")
        );
    }

    #[test]
    fn a_unique_claim_meets_every_other_grid_second_solutions_included() {
        let liar = run("liar", sat(1, Some(Uniqueness::Unique)));
        let honest = run("z3", sat(1, Some(Uniqueness::NotUnique(grid(2)))));
        let f = disagreements([liar.clone(), honest].iter());
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message()
                .contains("liar on lia says the solution is unique")
        );
        let same = run("z3", sat(1, Some(Uniqueness::Unique)));
        assert!(disagreements([liar, same].iter()).is_empty());
    }

    #[test]
    fn exit_rules() {
        let line = |o| Line {
            run: run("a", o),
            also: vec![],
        };
        let result = |lines| PuzzleResult {
            index: 0,
            lines,
            findings: vec![],
        };
        assert!(
            result(vec![
                line(sat(1, None)),
                line(Outcome::Unsupported("x".into()))
            ])
            .succeeded()
        );
        assert!(result(vec![line(Outcome::Unsat)]).succeeded());
        // Nothing answered is not success.
        assert!(!result(vec![line(Outcome::Unsupported("x".into()))]).succeeded());
        assert!(!result(vec![]).succeeded());
        let unsettled = sat(1, Some(Uniqueness::Unsettled("timeout".into())));
        assert!(!result(vec![line(unsettled)]).succeeded());
        assert!(!result(vec![line(Outcome::Timeout("t".into()))]).succeeded());
        let mut r = result(vec![line(sat(1, None))]);
        r.findings.push(Finding::InvalidModel {
            run: "b on bv".into(),
            rule: "row 1".into(),
        });
        assert!(!r.succeeded());
    }

    #[test]
    fn not_started_says_why() {
        let t = |cause| {
            Tried::NotStarted {
                label: "z3 on bv".into(),
                cause,
            }
            .describe()
        };
        assert_eq!(
            t(StopCause::Answered),
            "z3 on bv: not started (an answer came first)"
        );
        assert_eq!(
            t(StopCause::Interrupted),
            "z3 on bv: not started (interrupted)"
        );
    }
}
