//! Solving: runs solvers on encoded puzzles, reads their answers, and
//! verifies every grid with the model's checker before anyone sees it.
//! Wires the stages together; the solver module starts the processes.
//!
//! - [`schedule`]: the one scheduler: every job (puzzle × solver ×
//!   encoding) within `--jobs`, a stop rule per result line, results in
//!   input order as they complete.
//! - [`outcome`]: how a run ends, as types; reports and the exit status
//!   are derived from them.
//! - this module: what the jobs are ([`Mode`]) and how one runs.
//! - [`ResetSessions`]: sessions that answer whole scripts one after
//!   another, for runs that would each start a process (`generate`'s
//!   grading).

mod effort;
mod incremental;
pub mod outcome;
mod reset;
pub mod schedule;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::encode::{Encoded, Encoding, Interrupted, Options, Shared, encode_cancellable};
use crate::lower::lower;
use crate::model::{CellId, Model, ValueGrid};
use crate::puzzle::{Kind, Puzzle};
use crate::smtlib::reply::{read_answer_until, says_any};
use crate::smtlib::{Answer, CheckSat, Script, Value};
use crate::solver::{
    Cancel, Limits, MachineSample, MemoryLimit, RunEnd, RunOutput, Session, SessionError, Solver,
    Statistics, Transcripts, Usage, Variant, auto_order_for, read_versions, run_recorded,
};

use effort::Totals;
pub use effort::{Stats, StatsUse};
use incremental::{Fit, Sessions};
pub use outcome::{
    ErrorKind, Expect, Finding, Line, Measured, Outcome, PuzzleResult, Run, RunMode, RunReport,
    Status, Tried, Uniqueness, Verdict,
};
pub use reset::ResetSessions;
use schedule::{JobCtx, JobEnd, Jobs, Slot, SlotEnd, StopRule};

/// How long the first pair of a race runs alone before the next one
/// starts: most puzzles are answered well within it (the 95 of top95 in
/// 7 ms median, KrazyDad's killers in about 20 ms), and then no second
/// solver is started and stopped for nothing; a hard puzzle loses at most
/// this much when the second pair is the one that answers.
const RACE_STAGGER: Duration = Duration::from_millis(100);

/// A race's budget (`budget_ms` in the profiles) is CPU time of the
/// solver's own: on a busy machine it may take longer than that in wall
/// time, up to this many times the budget.
const BUDGET_STRETCH: u32 = 10;

/// How many of a core's worth must have stood idle since a puzzle's race
/// began for a solver's second thread to get a core (see
/// [`Work::within_free_cores`]).
const IDLE_FOR_A_THREAD: f64 = 0.5;

/// The most puzzles a worker asks of one session in one exchange under
/// `--mode incremental`: their questions go out in one write and the
/// answers are read as they come, so the solver and smtgrid each wake
/// once per batch instead of once per puzzle. On the 17-clue set a
/// round trip per puzzle cost smtgrid more CPU than all its other work.
const SESSION_BATCH: usize = 16;

/// About how long a batch of session questions may take: batches grow
/// (doubling from one puzzle) only while their puzzles are answered fast
/// enough for this. A batch is a fixed share of the queue, so a batch of
/// slow puzzles could keep one worker busy while the other idles at the
/// end of a run; puzzles that take longer than this each run alone.
const BATCH_SPAN: Duration = Duration::from_millis(20);

/// The longest `--timeout` accepted: one week. Longer limits overflow the
/// clock arithmetic of the runner and the solvers' own limit flags.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(7 * 24 * 3600);

/// Which jobs run for each puzzle, and which result lines they give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Every solver on each of these encodings: one line per pair.
    Fixed(Vec<Encoding>),
    /// `auto` with solvers named: each solver races its own encodings in
    /// the measured order and gives one line.
    EachSolver,
    /// `auto` without solvers named: every solver × encoding pair races
    /// for one line per puzzle.
    Portfolio,
}

/// When a puzzle is asked in an incremental session (see [`RunMode`])
/// rather than in a process of its own (with `--unique`, both its
/// questions). Solvers without an interactive mode always run as
/// processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionUse {
    /// Never.
    Never,
    /// From the second puzzle of a shape on: a file of many puzzles of
    /// one shape runs in sessions, a single puzzle as a process, and so
    /// does every puzzle on a solver that does not take the session's
    /// logic.
    Repeated,
    /// Always.
    Always,
}

/// What to solve and how.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The solvers to run.
    pub solvers: Vec<Solver>,
    /// Which jobs run.
    pub mode: Mode,
    /// Encoder options.
    pub options: Options,
    /// The limit for one solver's answer to one puzzle; a solver's
    /// encodings raced under `auto` share it.
    pub limits: Limits,
    /// How many solver processes may run at once.
    pub jobs: usize,
    /// Whether to ask for a second solution.
    pub unique: bool,
    /// When to use incremental sessions.
    pub sessions: SessionUse,
    /// Whether puzzles may be asked of a session in batches (under
    /// [`SessionUse::Always`]): faster, but a puzzle's time and CPU time
    /// are then as smtgrid read them, so `bench`, which measures each
    /// puzzle, asks one at a time.
    pub batches: bool,
    /// With `--transcript DIR`: where each solver conversation is written.
    pub transcript: Option<Transcripts>,
    /// Of which solvers to ask for statistics after each answer.
    pub stats: StatsUse,
    /// Sessions that take the whole scripts of the runs a process would
    /// answer, `(reset)` between them (`solve`: one Glucose per worker
    /// instead of one per killer), possibly kept beyond this plan's run
    /// for the next one (`generate`'s grading: one z3 per worker instead
    /// of one per puzzle); not for a pair raced with a budget, nor under
    /// `--unique` with a memory limit.
    pub reset_sessions: Option<Arc<ResetSessions>>,
}

/// A question to a session: `commands`, then `check-sat` and the model
/// of its answer, which [`Asker::settle`] reads.
fn check_and_model(commands: &str) -> String {
    format!("{commands}(check-sat)\n(get-model)\n")
}

/// The limit for one answer when none is given: a minute.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

impl Plan {
    /// A plan for `solvers` in `mode`, with the defaults [`PlanBuilder`]
    /// names; `solve`, `bench` and `render` all build theirs this way.
    pub fn builder(solvers: Vec<Solver>, mode: Mode) -> PlanBuilder {
        PlanBuilder {
            plan: Plan {
                solvers,
                mode,
                options: Options::default(),
                limits: Limits::timeout(DEFAULT_TIMEOUT),
                jobs: 0,
                unique: false,
                sessions: SessionUse::Repeated,
                batches: false,
                transcript: None,
                stats: StatsUse::Auto,
                reset_sessions: None,
            },
            jobs: None,
            reuse: false,
        }
    }
}

/// Builds a [`Plan`]. Defaults: simplified encodings,
/// [`DEFAULT_TIMEOUT`], no uniqueness check, sessions from the second
/// puzzle of a shape on ([`SessionUse::Repeated`]) and
/// [`default_jobs`] solver processes at once.
#[derive(Debug, Clone)]
pub struct PlanBuilder {
    plan: Plan,
    jobs: Option<usize>,
    reuse: bool,
}

impl PlanBuilder {
    /// Encoder options.
    pub fn options(mut self, options: Options) -> Self {
        self.plan.options = options;
        self
    }
    /// The limit for one solver's answer to one puzzle.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.plan.limits.timeout = timeout;
        self
    }
    /// The limit on a solver's resident memory, if any.
    pub fn memory(mut self, memory: Option<MemoryLimit>) -> Self {
        self.plan.limits.memory = memory;
        self
    }
    /// Solver processes run at once; `None` for [`default_jobs`].
    pub fn jobs(mut self, jobs: Option<usize>) -> Self {
        self.jobs = jobs;
        self
    }
    /// Whether to ask for a second solution.
    pub fn unique(mut self, unique: bool) -> Self {
        self.plan.unique = unique;
        self
    }
    /// When to use incremental sessions.
    pub fn sessions(mut self, sessions: SessionUse) -> Self {
        self.plan.sessions = sessions;
        self
    }
    /// Whether puzzles may be asked of a session in batches.
    pub fn batches(mut self, batches: bool) -> Self {
        self.plan.batches = batches;
        self
    }
    /// Where each solver conversation is written, if anywhere.
    pub fn transcript(mut self, transcript: Option<Transcripts>) -> Self {
        self.plan.transcript = transcript;
        self
    }
    /// Of which solvers to ask for statistics.
    pub fn stats(mut self, stats: StatsUse) -> Self {
        self.plan.stats = stats;
        self
    }
    /// Where runs that would start a process for a whole script ask a
    /// reused session instead, if anywhere.
    pub fn reset_sessions(mut self, pool: Option<Arc<ResetSessions>>) -> Self {
        self.plan.reset_sessions = pool;
        self
    }
    /// Runs that would start a process for a whole script ask a session
    /// of this run's own, one idle per worker at most, reset between
    /// scripts (for solvers that answer after `(reset)` as a new
    /// process): a run of many puzzles starts such a solver once per
    /// worker, not once per puzzle. Not under [`SessionUse::Never`].
    pub fn reuse_sessions(mut self) -> Self {
        self.reuse = true;
        self
    }
    /// The plan.
    pub fn build(self) -> Plan {
        let mut plan = self.plan;
        plan.jobs = self.jobs.unwrap_or_else(|| default_jobs(plan.sessions));
        // `--mode process` asks for a process per puzzle.
        if self.reuse && plan.reset_sessions.is_none() && plan.sessions != SessionUse::Never {
            plan.reset_sessions = Some(Arc::new(ResetSessions::new(plan.jobs)));
        }
        plan
    }
}

/// The most solver processes (and worker threads) `--jobs` may ask for:
/// each job is a thread and a solver process, so a larger count would
/// exhaust the process table before it sped anything up.
pub const MAX_JOBS: usize = 1024;

/// Solver processes run at once by default: the number of cores; twice
/// that for incremental sessions, whose workers wait on their solver about
/// half the time (measured: 10,000 17-clue sudokus, yices2/onehot, 2 cores:
/// best of three 4.9 s with 2 jobs, 3.8 s with 4).
pub fn default_jobs(sessions: SessionUse) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    match sessions {
        SessionUse::Always => 2 * cores,
        SessionUse::Never | SessionUse::Repeated => cores,
    }
}

/// Solves every puzzle, pulling them from `puzzles` as work frees up (only
/// the puzzles in flight are held), and calls `emit` with each puzzle's
/// result in input order as soon as it and every earlier one are done.
/// When `emit` returns [`ControlFlow::Break`] (e.g. its output is closed)
/// every solver is stopped at once and nothing more runs.
pub fn solve_all(
    puzzles: impl Iterator<Item = Puzzle>,
    plan: &Plan,
    cancel: &Cancel,
    mut emit: impl FnMut(&Puzzle, &PuzzleResult) -> ControlFlow<()>,
) {
    solve_to(puzzles, plan, cancel, &mut emit);
}

/// Where [`solve_to`] hands each puzzle's result. A closure that takes
/// them is one.
pub trait Sink {
    /// Takes one puzzle's result; [`ControlFlow::Break`] stops the run.
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> ControlFlow<()>;

    /// Every puzzle decided so far has been handed over, and the run now
    /// waits for solvers or input: the moment to push out held output.
    /// [`ControlFlow::Break`] stops the run as [`Sink::puzzle`]'s does.
    fn idle(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<F: FnMut(&Puzzle, &PuzzleResult) -> ControlFlow<()>> Sink for F {
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> ControlFlow<()> {
        self(p, r)
    }
}

/// [`solve_all`] into a [`Sink`], which is also told when the run waits,
/// so that output can be held while results come fast and pushed out
/// before a wait.
pub fn solve_to(
    puzzles: impl Iterator<Item = Puzzle>,
    plan: &Plan,
    cancel: &Cancel,
    sink: &mut impl Sink,
) {
    solve_groups(puzzles.map(|p| (p, None)), plan, cancel, sink);
}

/// Like [`solve_all`], but each puzzle comes with the (solver index into
/// `plan.solvers`, encoding) pairs to run on it, one result line per pair
/// in that order; `plan.mode` is not used. For `bench`, whose run list
/// (repeats, shards, resumed files) is decided per run.
pub fn solve_pairs(
    items: impl Iterator<Item = (Puzzle, Vec<(usize, Encoding)>)>,
    plan: &Plan,
    cancel: &Cancel,
    mut emit: impl FnMut(&Puzzle, &PuzzleResult) -> ControlFlow<()>,
) {
    solve_groups(
        items.map(|(p, pairs)| (p, Some(pairs))),
        plan,
        cancel,
        &mut emit,
    );
}

fn solve_groups(
    items: impl Iterator<Item = (Puzzle, Option<Vec<(usize, Encoding)>>)>,
    plan: &Plan,
    cancel: &Cancel,
    sink: &mut impl Sink,
) {
    let (racers, origin) = racers(&plan.solvers, plan.jobs);
    let work = Work {
        plan,
        cancel,
        versions: racers.iter().map(|_| VersionProbe::default()).collect(),
        // One idle session per worker and per solver × encoding pair is
        // enough for a run that interleaves every pair.
        sessions: Sessions::new((plan.jobs + plan.solvers.len() * Encoding::ALL.len()).min(64)),
        batch_limits: (0..racers.len() * Encoding::COUNT)
            .map(|_| AtomicUsize::new(1))
            .collect(),
        racers,
        origin,
    };
    let batch = match plan.sessions {
        SessionUse::Always if plan.batches => SESSION_BATCH,
        _ => 1,
    };
    let limits = schedule::Limits {
        jobs: plan.jobs.max(1),
        // Enough look-ahead to keep every worker busy with a whole batch
        // while the front puzzle finishes, and no more.
        window: 2 * plan.jobs.max(1) * batch + 2,
        stagger: RACE_STAGGER,
        batch,
    };
    let groups = items
        .enumerate()
        .map(|(index, (puzzle, pairs))| PuzzleWork {
            index,
            puzzle,
            pairs,
            model: OnceLock::new(),
            fit: OnceLock::new(),
            scripts: Default::default(),
            deadlines: Mutex::new(HashMap::new()),
            began: OnceLock::new(),
        });
    let to = ToSink { work: &work, sink };
    schedule::schedule_to(&work, groups, limits, cancel, to);
}

/// The scheduler's ended groups as results for a [`Sink`].
struct ToSink<'w, 'p, S> {
    work: &'w Work<'p>,
    sink: &'w mut S,
}

impl<S: Sink> schedule::Emit<PuzzleWork, Job, Run> for ToSink<'_, '_, S> {
    fn emit(&mut self, w: &PuzzleWork, ends: Vec<SlotEnd<Job, Run>>) -> ControlFlow<()> {
        let result = self.work.result(w.index, ends);
        self.sink.puzzle(&w.puzzle, &result)
    }

    fn idle(&mut self) -> ControlFlow<()> {
        self.sink.idle()
    }
}

/// One job: a solver on an encoding, for one result line (`slot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Job {
    slot: usize,
    /// Index into [`Work::racers`].
    solver: usize,
    encoding: Encoding,
    /// Under `auto`: when it gives its place to the next pair of its race
    /// (see [`with_budgets`]).
    budget: Option<Duration>,
    /// With a budget: on a puzzle whose propagation leaves this
    /// percentage of the values open or more, it gives its place at once.
    open_below_pct: Option<u8>,
}

/// A puzzle in flight, with what its jobs build lazily: the model when
/// the first job starts, each script when the first job on it starts (so
/// a slow encoding never holds back a fast one).
struct PuzzleWork {
    index: usize,
    puzzle: Puzzle,
    /// The pairs to run, one line each, instead of the plan's mode.
    pairs: Option<Vec<(usize, Encoding)>>,
    model: OnceLock<Model>,
    /// Its shape and givens, for sessions.
    fit: OnceLock<Fit>,
    scripts: PerEncoding<Encoded>,
    /// When each line's racers must have answered (see [`Racers`]): set
    /// when their first job starts, so the pairs that race for one answer
    /// share one limit.
    deadlines: Mutex<HashMap<(usize, Racers), Instant>>,
    /// The machine's CPU counters when its first job started, to see how
    /// many cores stood idle while it ran (see [`Work::within_free_cores`]).
    began: OnceLock<Option<MachineSample>>,
}

impl PuzzleWork {
    fn model(&self) -> &Model {
        self.model.get_or_init(|| lower(&self.puzzle))
    }

    fn fit(&self, sessions: &Sessions) -> &Fit {
        self.fit
            .get_or_init(|| sessions.fit(&self.puzzle, || self.model()))
    }

    /// The script in encoding `e`, built by the first job that needs it.
    /// A job stopped while encoding leaves nothing behind, so the next job
    /// that needs the script builds it anew.
    fn encoded(
        &self,
        e: Encoding,
        options: &Options,
        cancel: &Cancel,
    ) -> Result<&Encoded, Interrupted> {
        self.scripts
            .get_or_build(e, || encode_cancellable(self.model(), e, options, cancel))
    }

    fn deadline(&self, racers: Racers, job: &Job, limit: Duration) -> Instant {
        let mut d = schedule::lock(&self.deadlines);
        *d.entry((job.slot, racers))
            .or_insert_with(|| Instant::now() + limit)
    }
}

/// Who shares one `--timeout`: the whole portfolio (one answer per puzzle,
/// so a puzzle costs the limit however many pairs race for it), or one
/// solver's encodings (a line per solver, each with the limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Racers {
    Portfolio,
    Solver(usize),
}

/// One value per encoding, each built by the first job that needs it. A
/// build stopped by Ctrl-C leaves nothing behind, so the next job that
/// needs the value builds it anew; a slow build for one encoding never
/// holds back a job on another.
struct PerEncoding<T>([OnceLock<T>; Encoding::COUNT]);

impl<T> Default for PerEncoding<T> {
    fn default() -> Self {
        PerEncoding(std::array::from_fn(|_| OnceLock::new()))
    }
}

impl<T> PerEncoding<T> {
    fn get_or_build(
        &self,
        e: Encoding,
        build: impl FnOnce() -> Result<T, Interrupted>,
    ) -> Result<&T, Interrupted> {
        let slot = &self.0[e.index()];
        if let Some(done) = slot.get() {
            return Ok(done);
        }
        let built = build()?;
        Ok(slot.get_or_init(|| built))
    }
}

struct Work<'a> {
    plan: &'a Plan,
    /// The plan's solvers, then each variant of one that an `auto` race
    /// may start (`glucose@2threads`); jobs index this list.
    racers: Vec<Solver>,
    /// Per racer, the plan's solver it runs and as which variant.
    origin: Vec<(usize, Variant)>,
    /// Ctrl-C, which also stops a version probe.
    cancel: &'a Cancel,
    /// Each racer's version, probed once per process beside its first job.
    versions: Vec<VersionProbe>,
    /// Shapes and idle incremental sessions.
    sessions: Sessions,
    /// Per batch key (solver × encoding): how many puzzles the next batch
    /// may hold (see [`BATCH_SPAN`]).
    batch_limits: Vec<AtomicUsize>,
}

impl Work<'_> {
    /// The racer that runs solver `solver` (an index into the plan's
    /// solvers) as `variant` on this run's cores, if there is one.
    fn racer(&self, solver: usize, variant: Variant) -> Option<usize> {
        let variant = variant.within(self.plan.jobs);
        self.origin.iter().position(|&o| o == (solver, variant))
    }

    /// `job`, its solver's threads cut to the cores free for it: at most
    /// the `given` cores the scheduler gave it (one while other puzzles
    /// wait), and of those the one it runs on and one more for each
    /// [`IDLE_FOR_A_THREAD`] of a core's worth that stood idle on the
    /// machine since its puzzle's first job started (`began`, while that
    /// job held our other core, when long enough ago to tell) or that
    /// stands idle now by the run queue, whichever is more. With another
    /// job beside it on 2 cores, Glucose's two threads lost to one
    /// (docs/killers.md).
    fn within_free_cores(&self, job: &Job, began: Option<&MachineSample>, given: usize) -> Job {
        let (solver, variant) = self.origin[job.solver];
        if variant.threads.is_none() {
            return *job;
        }
        // Since the race began (when long enough ago to tell) and by the
        // run queue now: the more idle of the two, as a job beside us
        // keeps both busy, while our own work since the race began (its
        // script, when the pair before gave its place at once) shows in
        // the first alone. One core given leaves nothing to measure (the
        // run queue's reads take milliseconds).
        let idle = || {
            let since = began.and_then(|b| MachineSample::now()?.idle_cores_since(b));
            match (since, MachineSample::idle_cores_now()) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            }
        };
        let free = match given {
            0 | 1 => 1,
            _ => idle().map_or(given, |idle| free_cores(idle).min(given)),
        };
        match self.racer(solver, variant.within(free)) {
            Some(racer) => Job {
                solver: racer,
                ..*job
            },
            None => *job,
        }
    }
}

/// The cores a job that starts now may use, with `idle` cores' worth
/// idle on average lately: its own and one per [`IDLE_FOR_A_THREAD`].
fn free_cores(idle: f64) -> usize {
    1 + (idle + 1.0 - IDLE_FOR_A_THREAD).floor().max(0.0) as usize
}

impl Jobs for Work<'_> {
    type Group = PuzzleWork;
    type Job = Job;
    type Output = Run;

    fn slots(&self, w: &PuzzleWork) -> Vec<Slot<Job>> {
        let solvers = &self.plan.solvers;
        let single = |slot, solver, encoding| Slot {
            jobs: vec![Job {
                slot,
                solver,
                encoding,
                budget: None,
                open_below_pct: None,
            }],
            stop: StopRule::None,
        };
        if let Some(pairs) = &w.pairs {
            return pairs
                .iter()
                .enumerate()
                .map(|(slot, &(solver, encoding))| single(slot, solver, encoding))
                .collect();
        }
        let race = |slot, runs: Vec<AutoRun>| Slot {
            jobs: with_budgets(runs)
                .into_iter()
                .filter_map(|r| {
                    Some(Job {
                        slot,
                        solver: self.racer(r.solver, r.variant)?,
                        encoding: r.encoding,
                        budget: r.budget,
                        open_below_pct: r.open_below_pct,
                    })
                })
                .collect(),
            stop: StopRule::FirstDecisive,
        };
        match &self.plan.mode {
            Mode::Fixed(encs) => (0..solvers.len())
                .flat_map(|s| encs.iter().map(move |&e| (s, e)))
                .enumerate()
                .map(|(slot, (solver, encoding))| single(slot, solver, encoding))
                .collect(),
            Mode::EachSolver => (0..solvers.len())
                .map(|slot| {
                    let runs = auto_pairs(solvers, w.puzzle.kind)
                        .into_iter()
                        .filter(|r| r.solver == slot)
                        .collect();
                    race(slot, runs)
                })
                .collect(),
            Mode::Portfolio => vec![race(0, auto_pairs(solvers, w.puzzle.kind))],
        }
    }

    fn run(&self, w: &PuzzleWork, job: &Job, ctx: &JobCtx) -> Run {
        let began = w.began.get_or_init(MachineSample::now);
        let job = &self.within_free_cores(job, began.as_ref(), ctx.cores());
        let solver = &self.racers[job.solver];
        let fit = self.in_session(w, solver).then(|| w.fit(&self.sessions));
        let mode = match fit {
            Some(_) => RunMode::Incremental,
            None => RunMode::Process,
        };
        let mut run = self.new_run(job, ctx, mode);
        if ctx.cancel().is_cancelled() {
            return run;
        }
        let script = match fit {
            Some(fit) => fit
                .script(job.encoding, ctx.cancel())
                .map(|shared| Asked::Shape(fit, shared)),
            None => w
                .encoded(job.encoding, &self.plan.options, ctx.cancel())
                .map(Asked::Whole),
        };
        let Ok(mut script) = script else {
            return run;
        };
        // A pair that would give its place at its budget gives it at once
        // on a puzzle propagation leaves mostly open (only as a process,
        // as its budget).
        if let (Asked::Whole(enc), Some(_), Some(pct)) = (script, job.budget, job.open_below_pct) {
            let open = enc.open_percent(w.model());
            if open >= pct {
                run.outcome = Outcome::Timeout(format!(
                    "not started: propagation leaves {open} % of the values open, so it gives \
                     its place at once ({pct} % or more: `open_below_pct` in the profiles)"
                ));
                run.gave_way = true;
                return run;
            }
        }
        // Its version is probed beside its first run (not for a pair that
        // gave its place at once: that would start a process for nothing
        // and look like another job to the run queue).
        self.versions[job.solver].start(solver, self.plan.limits.timeout, self.cancel);
        // Sessions from a shape's second puzzle on are only a speed-up: a
        // solver that does not take the session's logic (onehot's packed
        // read-back needs bit-vectors) runs the puzzle as a process.
        if let Asked::Shape(_, shared) = script
            && self.plan.sessions == SessionUse::Repeated
            && !solver.accepts_logic(shared.logic)
        {
            let Ok(enc) = w.encoded(job.encoding, &self.plan.options, ctx.cancel()) else {
                return run;
            };
            script = Asked::Whole(enc);
            run.mode = RunMode::Process;
        }
        let (commands, logic) = match script {
            Asked::Whole(enc) => (&enc.commands, enc.logic),
            Asked::Shape(_, shared) => (&shared.commands, shared.logic),
        };
        if let Some(why) = unsupported(solver, commands, logic, job.encoding) {
            run.outcome = Outcome::Unsupported(why);
            return run;
        }
        let limit = self.plan.limits.timeout;
        let racers = match (&w.pairs, &self.plan.mode) {
            (None, Mode::Portfolio) => Racers::Portfolio,
            _ => Racers::Solver(self.origin[job.solver].0),
        };
        let shared_deadline = w.deadline(racers, job, limit);
        // A budget ends the job early, within the race's own limit; only
        // for a process: a puzzle asked in a session (every one under
        // `--mode incremental`) is asked of the pairs after it in sessions
        // too, which the one it would give way to may not take (Glucose
        // takes no bit-vectors), so it keeps its limit.
        let now = Instant::now();
        let budget = job
            .budget
            .filter(|&b| matches!(script, Asked::Whole(_)) && now + b < shared_deadline);
        let deadline = budget.map_or(shared_deadline, |b| now + b);
        if Instant::now() >= deadline {
            let secs = limit.as_secs_f64();
            run.outcome = Outcome::Timeout(match racers {
                Racers::Portfolio => {
                    format!("not started: the other pairs used up the puzzle's {secs} s")
                }
                Racers::Solver(_) => {
                    format!(
                        "not started: {}'s other encodings used up its {secs} s",
                        solver.label
                    )
                }
            });
            return run;
        }
        let fit = match script {
            Asked::Shape(fit, _) => Some(fit),
            Asked::Whole(_) => None,
        };
        let mut asker = self.asker(w, job, ctx, deadline, fit);
        asker.budget = budget;
        asker.cpu_budget = budget.map(|b| (b, (now + b * BUDGET_STRETCH).min(shared_deadline)));
        let (outcome, took) = match script {
            Asked::Whole(enc) => asker.solve(enc, self.plan.unique),
            Asked::Shape(fit, shared) => {
                let (outcome, took) =
                    asker.incremental(&self.sessions, job.solver, fit, shared, self.plan.unique);
                if fit.seen_before {
                    self.resize_batches(job, &[took]);
                }
                (outcome, took)
            }
        };
        Self::conclude(&mut run, w, ctx, asker, outcome, took);
        run.gave_way = budget.is_some() && matches!(run.outcome, Outcome::Timeout(_));
        run
    }

    fn batch_key(&self, w: &PuzzleWork, job: &Job) -> Option<usize> {
        let solver = &self.racers[job.solver];
        // Only under `SessionUse::Always`, where `in_session` decides
        // without lowering the puzzle (this runs under the scheduler's
        // lock); a statistics question after each answer would undo the
        // batch.
        let batched = self.plan.sessions == SessionUse::Always
            && self.plan.batches
            && self.in_session(w, solver)
            && self
                .plan
                .stats
                .asks(solver.profile.statistics.as_ref(), true)
                .is_none();
        batched.then(|| batch_key(job))
    }

    fn batch_limit(&self, key: usize) -> usize {
        self.batch_limits
            .get(key)
            .map_or(1, |l| l.load(Ordering::Relaxed))
    }

    fn run_batch(&self, jobs: &[(&PuzzleWork, &Job, &JobCtx)]) -> Vec<Run> {
        let mut runs: Vec<Option<Run>> = jobs.iter().map(|_| None).collect();
        // The puzzles of the first one's shape are asked together; any
        // other (a file that mixes shapes), and any the session could not
        // answer, alone.
        if let Some(&(w0, job0, ctx0)) = jobs.first()
            && let solver = &self.racers[job0.solver]
            && let fit0 = w0.fit(&self.sessions)
            && let Ok(shared) = fit0.script(job0.encoding, ctx0.cancel())
            && unsupported(solver, &shared.commands, shared.logic, job0.encoding).is_none()
        {
            let together: Vec<usize> = (0..jobs.len())
                .filter(|&i| {
                    let fit = jobs[i].0.fit(&self.sessions);
                    Arc::ptr_eq(&fit.shape, &fit0.shape) && !jobs[i].2.cancel().is_cancelled()
                })
                .collect();
            let limit = self.plan.limits.timeout;
            let start = Instant::now();
            let askers = together
                .iter()
                .map(|&i| {
                    let (w, job, ctx) = jobs[i];
                    let fit = w.fit(&self.sessions);
                    (
                        self.asker(w, job, ctx, start + limit, Some(fit)),
                        &*fit.givens,
                    )
                })
                .collect();
            let answered =
                self.sessions
                    .ask_batch(job0.solver, &fit0.shape, shared, askers, self.plan.unique);
            let took: Vec<Duration> = answered
                .iter()
                .filter_map(|(_, a)| a.as_ref())
                .map(|a| a.1)
                .collect();
            self.resize_batches(job0, &took);
            for (&i, (asker, answer)) in together.iter().zip(answered) {
                if let Some((outcome, took)) = answer {
                    let (w, job, ctx) = jobs[i];
                    let mut run = self.new_run(job, ctx, RunMode::Incremental);
                    Self::conclude(&mut run, w, ctx, asker, outcome, took);
                    runs[i] = Some(run);
                }
            }
        }
        runs.into_iter()
            .zip(jobs)
            .map(|(run, &(w, job, ctx))| run.unwrap_or_else(|| self.run(w, job, ctx)))
            .collect()
    }

    fn decisive(&self, run: &Run) -> bool {
        // An answer whose uniqueness question got no definite answer (a
        // budget cut it short, say) leaves the race to the pairs that may
        // still settle it.
        let open = matches!(&run.outcome, Outcome::Sat { unique: Some(u), .. } if u.is_open());
        run.outcome.is_definite() && !open
    }

    fn weight(&self, job: &Job) -> usize {
        self.origin[job.solver].1.weight()
    }
}

/// The batch key of `job` (see [`Jobs::batch_key`]): its solver and
/// encoding, an index of [`Work::batch_limits`].
fn batch_key(job: &Job) -> usize {
    job.solver * Encoding::COUNT + job.encoding.index()
}

/// What a job sends its solver.
#[derive(Clone, Copy)]
enum Asked<'a> {
    /// The puzzle's whole script, to a process of its own.
    Whole(&'a Encoded),
    /// Its givens, to a session holding its shape's rules.
    Shape(&'a Fit, &'a Shared),
}

impl Work<'_> {
    /// Sizes the next batches of `job`'s solver and encoding by how long
    /// its last puzzles took in a session (`took`, one each): twice the
    /// last size at most, and as many as fit in [`BATCH_SPAN`] at their
    /// mean time.
    fn resize_batches(&self, job: &Job, took: &[Duration]) {
        let limit = self.batch_limits.get(batch_key(job));
        let (Some(limit), Ok(n)) = (limit, u32::try_from(took.len())) else {
            return;
        };
        if n == 0 {
            return;
        }
        let mean = took.iter().sum::<Duration>() / n;
        let fit = (BATCH_SPAN.as_nanos() / mean.as_nanos().max(1)).min(SESSION_BATCH as u128);
        let grown = limit.load(Ordering::Relaxed).saturating_mul(2);
        limit.store((fit as usize).clamp(1, grown), Ordering::Relaxed);
    }

    /// A run of `job` that has not asked anything yet.
    fn new_run(&self, job: &Job, ctx: &JobCtx, mode: RunMode) -> Run {
        Run {
            solver: self.racers[job.solver].label.clone(),
            version: None,
            encoding: job.encoding,
            mode,
            time_ms: 0.0,
            measured: Measured::default(),
            outcome: Outcome::Stopped(ctx.stop_cause()),
            core: None,
            gave_way: false,
        }
    }

    /// The asker of `job` on puzzle `w`, answering by `deadline`; with
    /// the puzzle's `fit` when it asks a session holding its shape (whose
    /// model and the puzzle's givens then check the answers, so the
    /// puzzle itself need not be lowered).
    fn asker<'s>(
        &'s self,
        w: &'s PuzzleWork,
        job: &Job,
        ctx: &'s JobCtx<'s>,
        deadline: Instant,
        fit: Option<&'s Fit>,
    ) -> Asker<'s> {
        let solver = &self.racers[job.solver];
        let model = fit.map_or_else(|| w.model(), |f| &f.shape.model);
        Asker {
            solver,
            model,
            // The shape's model has the puzzle's cells.
            recorded: crate::lower::recorded_solution(&w.puzzle, model),
            puzzle_model: w.model(),
            givens: fit.map_or(&[], |f| &f.givens),
            deadline,
            limit: self.plan.limits.timeout,
            budget: None,
            cpu_budget: None,
            limits: self.plan.limits,
            ctx,
            run: format!("{} {}/{}", w.puzzle.id, solver.label, job.encoding),
            transcripts: self.plan.transcript.as_ref(),
            meter: RefCell::default(),
            stats: self
                .plan
                .stats
                .asks(solver.profile.statistics.as_ref(), fit.is_some()),
            reset_sessions: self.plan.reset_sessions.as_deref(),
        }
    }

    /// Fills `run` with how `asker`'s questions ended.
    fn conclude(
        run: &mut Run,
        w: &PuzzleWork,
        ctx: &JobCtx,
        asker: Asker,
        outcome: Outcome,
        took: Duration,
    ) {
        run.time_ms = ms(took);
        let (solver, deadline) = (asker.solver, asker.deadline);
        run.measured = asker.meter.into_inner();
        // No solution and no reason from propagation: the solver's own
        // unsat core, one more question within the same limit (not in
        // the run's time).
        if outcome == Outcome::Unsat && crate::encode::propagation_conflict(w.model()).is_none() {
            run.core = crate::explain::unminimised_core(&w.puzzle, solver, deadline, ctx.cancel());
        }
        run.outcome = outcome;
    }

    /// Whether `w` is asked of `solver` in an incremental session.
    fn in_session(&self, w: &PuzzleWork, solver: &Solver) -> bool {
        if solver.interactive_args(None).is_none() {
            return false;
        }
        match self.plan.sessions {
            SessionUse::Never => false,
            SessionUse::Always => true,
            SessionUse::Repeated => w.fit(&self.sessions).seen_before,
        }
    }

    /// Turns a puzzle's slot ends into its result: the reported run of
    /// each line (with its version), the others, and what they show
    /// together.
    fn result(&self, index: usize, slots: Vec<SlotEnd<Job, Run>>) -> PuzzleResult {
        let mut lines = Vec::new();
        let mut unreported = Vec::new();
        for slot in slots {
            let shown = slot.winner.or_else(|| {
                // Without a definite answer the first run that ran stands
                // for the line, so its status (timeout, unknown, …) shows;
                // one that gave its place away at its budget only when no
                // other ran.
                slot.jobs
                    .iter()
                    .position(|(_, e)| matches!(e, JobEnd::Ran(r) if !r.gave_way))
                    .or_else(|| {
                        slot.jobs
                            .iter()
                            .position(|(_, e)| matches!(e, JobEnd::Ran(_)))
                    })
            });
            let mut run = None;
            let mut also = Vec::new();
            for (i, (job, end)) in slot.jobs.into_iter().enumerate() {
                let solver = &self.racers[job.solver];
                match end {
                    JobEnd::Ran(r) if Some(i) == shown => run = Some((job, r)),
                    JobEnd::Ran(r) => {
                        unreported.push(r.clone());
                        also.push(Tried::Ran(Box::new(r)));
                    }
                    JobEnd::NotStarted(cause) if run.is_none() && shown.is_none() && i == 0 => {
                        run = Some((
                            job,
                            Run {
                                solver: solver.label.clone(),
                                version: None,
                                encoding: job.encoding,
                                mode: RunMode::Process,
                                time_ms: 0.0,
                                measured: Measured::default(),
                                outcome: Outcome::Stopped(cause),
                                core: None,
                                gave_way: false,
                            },
                        ));
                    }
                    JobEnd::NotStarted(cause) => also.push(Tried::NotStarted {
                        label: format!("{} on {}", solver.label, job.encoding),
                        cause,
                    }),
                }
            }
            if let Some((job, mut run)) = run {
                run.version = self.version(job.solver);
                if !run.measured.command.is_empty() {
                    run.measured.solver_sha256 =
                        crate::provenance::sha256(&self.racers[job.solver].path);
                }
                lines.push(Line { run, also });
            }
        }
        let mut findings = outcome::disagreements(
            lines
                .iter()
                .map(|l| &l.run)
                .chain(unreported.iter())
                .collect::<Vec<_>>()
                .into_iter(),
        );
        for r in &unreported {
            if let Outcome::InvalidModel { rule, .. } = &r.outcome {
                findings.push(Finding::InvalidModel {
                    run: r.label(),
                    rule: rule.clone(),
                });
            }
        }
        PuzzleResult {
            index,
            lines,
            findings,
        }
    }

    fn version(&self, solver: usize) -> Option<String> {
        let limit = self.plan.limits.timeout;
        self.versions[solver].read(&self.racers[solver], limit, self.cancel)
    }
}

/// A racer's version and the SHA-256 of its binary, read on a thread of
/// their own from its first job's start, beside the solver: after the
/// answer they cost a killer that yices2 answers in 40 ms a further 12 ms
/// (the probe is a process start, the hash reads the 6 MB binary).
#[derive(Default)]
struct VersionProbe {
    /// The probe's thread and what stops it.
    running: Mutex<Option<(std::thread::JoinHandle<Option<String>>, Cancel)>>,
    read: OnceLock<Option<String>>,
}

impl VersionProbe {
    /// Starts the probe, which takes at most `limit` (the run's
    /// `--timeout`; see [`read_versions`]), unless it ran or runs; a
    /// thread that cannot be started leaves the probe to
    /// [`VersionProbe::read`].
    fn start(&self, solver: &Solver, limit: Duration, cancel: &Cancel) {
        let mut running = schedule::lock(&self.running);
        if running.is_some() || self.read.get().is_some() {
            return;
        }
        let (mut s, stop) = ([solver.clone()], cancel.child());
        let cancel = stop.clone();
        *running = std::thread::Builder::new()
            .name("version probe".into())
            .spawn(move || {
                // Hashed here to have it at hand when the line is reported
                // (the hash is kept per path and process).
                crate::provenance::sha256(&s[0].path);
                read_versions(&mut s, limit, &cancel);
                s[0].version.take()
            })
            .ok()
            .map(|probe| (probe, stop));
    }

    /// The version: the started probe's, else probed now within `limit`.
    fn read(&self, solver: &Solver, limit: Duration, cancel: &Cancel) -> Option<String> {
        self.read
            .get_or_init(|| match schedule::lock(&self.running).take() {
                Some((probe, _)) => probe.join().ok().flatten(),
                None => {
                    let mut s = [solver.clone()];
                    read_versions(&mut s, limit, cancel);
                    s[0].version.take()
                }
            })
            .clone()
    }
}

impl Drop for VersionProbe {
    /// Stops a probe whose version no line reported (a race's loser)
    /// and waits for its thread, so that no probe outlives the run nor
    /// holds back its end.
    fn drop(&mut self) {
        if let Some((probe, stop)) = schedule::lock(&self.running).take() {
            stop.cancel();
            let _ = probe.join();
        }
    }
}

/// Why `solver` cannot take a script of `encoding`, from its profile and
/// the script's structure (the commands it uses and its logic).
fn unsupported(
    solver: &Solver,
    commands: &[&str],
    logic: &str,
    encoding: Encoding,
) -> Option<String> {
    let rejected: Vec<&str> = commands
        .iter()
        .copied()
        .filter(|c| solver.profile.unsupported_commands.iter().any(|u| u == c))
        .collect();
    if !rejected.is_empty() {
        return Some(format!(
            "{} does not support {}, which the script uses",
            solver.display_name(),
            rejected.join(", ")
        ));
    }
    if !solver.accepts_logic(logic) {
        return Some(format!(
            "{} does not take {} (the {} encoding's logic); it takes {}",
            solver.label,
            logic,
            encoding,
            solver.profile.logics.join(", ")
        ));
    }
    None
}

/// Whether `solver` takes the scripts of at least one of `encodings`
/// (with `options`), judged as [`refusal`] judges each.
pub fn takes_any(solver: &Solver, encodings: &[Encoding], options: &Options) -> bool {
    encodings
        .iter()
        .any(|&e| refusal(solver, e, options).is_none())
}

/// Why `solver` does not take the scripts of `encoding` (with `options`),
/// or `None` if it does; judged like a run is, from the structure of a
/// small sudoku's script (its commands and logic).
pub fn refusal(solver: &Solver, encoding: Encoding, options: &Options) -> Option<String> {
    const SUDOKU: &str =
        "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n";
    let puzzles =
        crate::parse::parse_str(SUDOKU, &crate::Location::file("probe.toml"), None).ok()?;
    let model = lower(&puzzles[0]);
    let enc = crate::encode::encode(&model, encoding, options);
    unsupported(solver, &enc.commands, enc.logic, encoding)
}

/// One pair of `auto` as it starts: a solver (an index into the solver
/// list), an encoding, and what the kind's `auto_first` entry adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutoRun {
    /// Index into the solver list.
    pub solver: usize,
    /// The encoding it is given.
    pub encoding: Encoding,
    /// How it runs its solver: under a search seed (see `seed_args` in
    /// the profiles), with several threads (`threads_args`).
    pub variant: Variant,
    /// How long it runs before it gives its place to the entry listed
    /// after it; see [`with_budgets`].
    pub budget: Option<Duration>,
    /// With a budget: the percentage of a puzzle's values left open by
    /// propagation from which it gives its place at once.
    pub open_below_pct: Option<u8>,
    /// Its entry's position in the kind's order; pairs not listed come
    /// after every listed one.
    rank: usize,
}

/// Solver × encoding pairs for `auto` on puzzles of `kind`, in the order
/// they start: the profiles' measured order for the kind (an entry with
/// a seed only for a solver that takes one), then every other pair.
pub fn auto_pairs(solvers: &[Solver], kind: Kind) -> Vec<AutoRun> {
    let order = auto_order_for(kind.name());
    let mut runs = Vec::new();
    for (rank, a) in order.iter().enumerate() {
        let Some(encoding) = Encoding::ALL.into_iter().find(|e| e.name() == a.encoding) else {
            continue;
        };
        for (solver, s) in solvers.iter().enumerate() {
            if s.profile.name == a.solver && s.takes(a.variant()) {
                runs.push(AutoRun {
                    solver,
                    encoding,
                    variant: a.variant(),
                    budget: a.budget_ms.map(Duration::from_millis),
                    open_below_pct: a.open_below_pct,
                    rank,
                });
            }
        }
    }
    let listed = order.len();
    let mut rest: Vec<AutoRun> = (0..solvers.len())
        .flat_map(|solver| {
            Encoding::ALL.into_iter().map(move |encoding| AutoRun {
                solver,
                encoding,
                variant: Variant::PLAIN,
                budget: None,
                open_below_pct: None,
                rank: listed + encoding as usize,
            })
        })
        // A pair listed in any variant is not run again plainly.
        .filter(|r| {
            !runs
                .iter()
                .any(|l| l.solver == r.solver && l.encoding == r.encoding)
        })
        .collect();
    rest.sort_by_key(|r| (r.rank, r.solver));
    runs.extend(rest);
    runs
}

/// The solvers jobs may run: `solvers`, then a copy of each one for each
/// variant an `auto_first` entry names (`glucose@2threads`), its threads
/// cut to the run's `cores`; with, per racer, the index of the solver it
/// runs and its variant.
fn racers(solvers: &[Solver], cores: usize) -> (Vec<Solver>, Vec<(usize, Variant)>) {
    let mut racers = solvers.to_vec();
    let mut origin: Vec<(usize, Variant)> =
        (0..solvers.len()).map(|i| (i, Variant::PLAIN)).collect();
    for (name, variant) in crate::solver::auto_variants() {
        // Cut to one thread, a variant may be the plain run itself.
        let variant = variant.within(cores);
        if variant == Variant::PLAIN {
            continue;
        }
        for (i, s) in solvers.iter().enumerate() {
            if s.profile.name == name
                && !origin.contains(&(i, variant))
                && let Some(copy) = s.variant(variant)
            {
                racers.push(copy);
                origin.push((i, variant));
            }
        }
    }
    (racers, origin)
}

/// `runs` (one race, in start order) with each budget kept only where the
/// entry listed right after it races too: a pair gives its place to the
/// one that is meant to take it, never to whatever comes next (yices2
/// alone keeps its whole limit).
pub fn with_budgets(mut runs: Vec<AutoRun>) -> Vec<AutoRun> {
    for i in 0..runs.len() {
        let next = runs.get(i + 1).map(|n| n.rank);
        if next != Some(runs[i].rank + 1) {
            runs[i].budget = None;
            runs[i].open_below_pct = None;
        }
    }
    runs
}

/// Whether `grid` equals the solution recorded in the puzzle file, if it
/// records one. Squares without a cell are ignored on both sides (a
/// recorded kakuro solution may leave its blocks blank or not).
pub fn matches_recorded(p: &Puzzle, grid: &ValueGrid) -> Option<bool> {
    let sol = p.solution.as_ref()?;
    Some(
        grid.len() == sol.len()
            && grid.iter().zip(sol).all(|(x, y)| {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(u, v)| u.is_none() || v.is_none() || *u == v.map(i64::from))
            }),
    )
}

/// What one question to a solver gave.
enum Reply {
    Model(BTreeMap<String, Value>),
    Unsat,
    Other(Outcome),
}

/// A duration in milliseconds, to the microsecond.
fn ms(d: Duration) -> f64 {
    d.as_micros() as f64 / 1000.0
}

/// Asks one solver about one puzzle, within one deadline.
struct Asker<'a> {
    solver: &'a Solver,
    /// The rules answers are checked against, and whose cells they fill.
    model: &'a Model,
    /// Givens checked besides `model`'s rules: a session's puzzle's, as
    /// `model` is then its shape's (empty when `model` is the puzzle's).
    givens: &'a [(CellId, i64)],
    /// The solution the puzzle file records (checked when it was read),
    /// in `model`'s cell order: it refutes any `unsat`.
    recorded: Option<Vec<i64>>,
    /// The puzzle's own model, its givens among its rules (`model` may be
    /// its shape's): what propagation reads.
    puzzle_model: &'a Model,
    deadline: Instant,
    /// The whole limit, for messages.
    limit: Duration,
    /// Its budget in a race, when it has one shorter than the limit, for
    /// messages.
    budget: Option<Duration>,
    /// The CPU time its session may use before `deadline` holds, and
    /// until when at most (see [`Session::set_cpu_budget`]).
    cpu_budget: Option<(Duration, Instant)>,
    /// The plan's limits (the memory limit applies to every process).
    limits: Limits,
    ctx: &'a JobCtx<'a>,
    /// The run's name in transcripts: puzzle, solver, encoding.
    run: String,
    /// Where transcripts go, if anywhere.
    transcripts: Option<&'a Transcripts>,
    /// What the solver processes of this run cost, added up as they end.
    meter: RefCell<Measured>,
    /// How the solver reports statistics, if it is asked for them.
    stats: Option<&'a Statistics>,
    /// Where a whole script is asked instead of in a process of its own.
    reset_sessions: Option<&'a ResetSessions>,
}

impl Asker<'_> {
    /// The answer (and, with `unique`, whether it is the only one), and
    /// how long the whole run took; under `unique` the first answer's
    /// time goes to the meter.
    fn solve(&self, enc: &Encoded, unique: bool) -> (Outcome, Duration) {
        let start = Instant::now();
        if !unique
            && let Some(pool) = self.pool()
            && let Some(done) = self.in_reset_session(enc, pool)
        {
            return done;
        }
        if unique {
            match self.session(enc, start) {
                Ok(done) => return done,
                // Solvers without an interactive mode answer both
                // questions in one-shot runs.
                Err(SessionError::NoInteractiveMode(_)) => {}
                Err(e) => return (self.session_failed(&e), start.elapsed()),
            }
        }
        let first = self.oneshot(enc, None);
        let values = match self.settle(enc, first) {
            Ok(v) => v,
            Err(o) => return (o, start.elapsed()),
        };
        if !unique {
            let grid = self.model.to_grid(&values);
            return (Outcome::Sat { grid, unique: None }, start.elapsed());
        }
        self.meter.borrow_mut().first_answer_ms = Some(ms(start.elapsed()));
        let block = [enc.decoder.block(&values)];
        let second = self.oneshot(enc, Some(("a different solution", &block)));
        (
            self.settle_unique(&values, second, |m| enc.decoder.decode(m)),
            start.elapsed(),
        )
    }

    /// Adds what a solver process cost to this run's figures; the first
    /// process's command line is the run's.
    fn count(&self, usage: Option<Usage>, command: &[String]) {
        let mut m = self.meter.borrow_mut();
        if let Some(u) = usage {
            let so_far = Usage {
                cpu_ms: m.cpu_ms.unwrap_or(0.0),
                max_rss_kb: m.max_rss_kb.unwrap_or(0),
            };
            let total = so_far.and(u);
            m.cpu_ms = Some(total.cpu_ms);
            m.max_rss_kb = Some(total.max_rss_kb);
        }
        if m.command.is_empty() {
            m.command = command.to_vec();
        }
    }

    /// Sets this run's figures from a session's counters: the CPU time
    /// since `before` (from the session's start without it) and its peak
    /// memory so far, read now with `peak`, else as read last. A session
    /// killed meanwhile leaves them as they were.
    fn count_session(&self, before: Option<Usage>, s: &mut Session, peak: bool) {
        let mut m = self.meter.borrow_mut();
        let now = match peak {
            true => s.usage(),
            false => s.cpu_usage(),
        };
        if let Some(now) = now {
            let u = now.since(before.unwrap_or_default());
            m.cpu_ms = Some(u.cpu_ms);
            m.max_rss_kb = Some(u.max_rss_kb);
        }
        if m.command.is_empty() {
            m.command = s.command_line().to_vec();
        }
    }

    /// Runs the script of `enc`, with `extra` asserted if given and the
    /// statistics question after it if the solver is asked one; the
    /// statistics go to the meter.
    fn oneshot(&self, enc: &Encoded, extra: Option<(&str, &[crate::smtlib::Term])>) -> Reply {
        let marker = self.stats.map(|_| effort::MARKER);
        let asked;
        let script = match (extra, marker) {
            (None, None) => enc.script.as_str(),
            (extra, _) => {
                let after = marker.map(|_| effort::question()).unwrap_or_default();
                asked = enc.asking(extra, &after);
                asked.as_str()
            }
        };
        let limits = Limits {
            timeout: self.deadline.saturating_duration_since(Instant::now()),
            memory: self.limits.memory,
        };
        let out: RunOutput = run_recorded(
            self.solver,
            script,
            Some(enc.logic),
            &limits,
            self.ctx.cancel(),
            self.transcripts.map(|t| (t, self.run.as_str())),
        );
        if !out.command.is_empty() && !matches!(out.end, RunEnd::SpawnFailed(_)) {
            self.count(Some(out.usage), &out.command);
        }
        let ended = out.end.to_string();
        let read = || self.interpret_until(&out.stdout, &out.stderr_tail(5), &ended, marker);
        match &out.end {
            RunEnd::TimedOut => Reply::Other(self.timed_out()),
            RunEnd::MemoryLimit => Reply::Other(self.memout()),
            RunEnd::Cancelled => Reply::Other(Outcome::Stopped(self.ctx.stop_cause())),
            RunEnd::SpawnFailed(why) => Reply::Other(Outcome::Error(ErrorKind::Start, why.clone())),
            // A flood of statistics after a complete answer costs only the
            // statistics.
            RunEnd::OutputLimit => match marker.map(|_| read()) {
                Some((reply, Some(_))) => reply,
                _ => Reply::Other(Outcome::Error(
                    ErrorKind::TooMuchOutput,
                    format!("the solver {}", out.end),
                )),
            },
            _ => {
                let (reply, stats) = read();
                if let (Some(text), Some(profile)) = (stats, self.stats) {
                    let read = Stats::read(text, profile, &mut Totals::new());
                    effort::add(&mut self.meter.borrow_mut().stats, read);
                }
                reply
            }
        }
    }

    /// Asks a session's solver for its statistics after an answer and adds
    /// them to the meter; `totals` are what it reported before. A solver
    /// that fails to answer leaves the run's answer as it is (the session
    /// is then ended and not used again).
    fn ask_stats(&self, s: &mut Session, totals: &mut Totals) {
        let Some(profile) = self.stats else { return };
        if s.is_ended() {
            return;
        }
        if let Ok(text) = s.command("(get-info :all-statistics)\n", self.deadline) {
            let read = Stats::read(&text, profile, totals);
            effort::add(&mut self.meter.borrow_mut().stats, read);
        }
    }

    fn timed_out(&self) -> Outcome {
        Outcome::Timeout(match self.budget {
            Some(b) => format!(
                "no answer within its budget of {} s of CPU time ({} s at most); \
                 the next pair took its place",
                b.as_secs_f64(),
                (b * BUDGET_STRETCH).as_secs_f64()
            ),
            None => format!("no answer within {} s", self.limit.as_secs_f64()),
        })
    }

    fn memout(&self) -> Outcome {
        Outcome::Memout(format!(
            "stopped over the memory limit of {} MiB",
            self.limits.memory.map_or(0, |m| m.mb)
        ))
    }

    fn over_time(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// Turns a solver's printed answer into a reply. `ended` says how the
    /// process ended, for messages.
    fn interpret(&self, stdout: &str, stderr_tail: &str, ended: &str) -> Reply {
        self.interpret_until(stdout, stderr_tail, ended, None).0
    }

    /// [`Asker::interpret`] of what comes before the echo of `marker`, if
    /// given, and the text after the marker, if it was found.
    fn interpret_until<'t>(
        &self,
        stdout: &'t str,
        stderr_tail: &str,
        ended: &str,
        marker: Option<&str>,
    ) -> (Reply, Option<&'t str>) {
        let (answer, rest): (Answer, _) = match read_answer_until(stdout, marker) {
            Ok(a) => a,
            Err(e) => {
                return (
                    Reply::Other(Outcome::Error(
                        ErrorKind::Unreadable,
                        format!("unreadable output ({e}); it {ended}{}", tail(stderr_tail)),
                    )),
                    None,
                );
            }
        };
        (self.reply_of(answer, stdout, stderr_tail, ended), rest)
    }

    /// The reply an answer read from `stdout` makes.
    fn reply_of(&self, answer: Answer, stdout: &str, stderr_tail: &str, ended: &str) -> Reply {
        let own_limit = || Outcome::Timeout("the solver's own time limit passed".into());
        // `unsupported` may answer a mere option (cvc5 on an unknown one)
        // while the check-sat still gets answered, so results come first.
        match answer.results.first() {
            Some(CheckSat::Sat) => Reply::Model(answer.model),
            Some(CheckSat::Unsat) => Reply::Unsat,
            Some(CheckSat::Unknown) if self.over_time() => Reply::Other(own_limit()),
            Some(CheckSat::Unknown) => {
                Reply::Other(Outcome::Unknown(format!("unknown{}", errors(&answer))))
            }
            None if !answer.errors.is_empty() => Reply::Other(Outcome::Error(
                ErrorKind::Reported,
                answer.errors.join("; "),
            )),
            None if answer.unsupported => {
                Reply::Other(Outcome::Unsupported("the solver said: unsupported".into()))
            }
            None if self.said_timeout(stdout) => Reply::Other(own_limit()),
            None => Reply::Other(Outcome::Error(
                ErrorKind::NoAnswer,
                format!("no answer: the solver {ended}{}", tail(stderr_tail)),
            )),
        }
    }

    /// Whether the solver printed one of its profile's words for "my own
    /// time limit stopped me" (z3: a bare `timeout`).
    fn said_timeout(&self, stdout: &str) -> bool {
        let words = &self.solver.profile.timeout_replies;
        !words.is_empty() && says_any(stdout, words)
    }

    /// Checks decoded values: the values, or the reason they are
    /// rejected.
    fn verify(&self, decoded: Result<Vec<i64>, String>) -> Result<Vec<i64>, String> {
        let v = decoded?;
        self.model
            .check_with(&v, self.givens)
            .map_err(|e| e.message)?;
        Ok(v)
    }

    /// The recorded solution, checked again here, when it is not `except`:
    /// a solution the solver's `unsat` denies, which makes that `unsat`
    /// a solver fault, never a verdict.
    fn refutation(&self, except: Option<&[i64]>) -> Option<&[i64]> {
        let r = self.recorded.as_deref()?;
        (except != Some(r) && self.model.check_with(r, self.givens).is_ok()).then_some(r)
    }

    /// Whether propagation alone decides every cell of the puzzle into a
    /// grid the checker accepts: a solution any `unsat` denies, whatever
    /// the encoding (worked out only when a solver says `unsat`).
    fn propagation_refutes(&self) -> bool {
        crate::encode::propagated_grid(self.puzzle_model, self.ctx.cancel())
            .is_some_and(|v| self.model.check_with(&v, self.givens).is_ok())
    }

    /// The verified values of a first answer, or how the run ended. The
    /// one place a reply becomes a status, whether it came from a process
    /// or a session (`decode` reads the model in the script's way;
    /// `all_known` says whether propagation decided every cell).
    fn settle_with(
        &self,
        reply: Reply,
        all_known: bool,
        decode: impl FnOnce(&BTreeMap<String, Value>) -> Result<Vec<i64>, String>,
    ) -> Result<Vec<i64>, Outcome> {
        match reply {
            // An empty model (`sat`, then an error or nothing instead of
            // values) is fine only when propagation decided every cell.
            Reply::Model(m) if m.is_empty() && !all_known => Err(Outcome::Error(
                ErrorKind::NoModel,
                "sat, but no model was printed".into(),
            )),
            Reply::Model(m) => self
                .verify(decode(&m))
                .map_err(|rule| Outcome::InvalidModel { rule, first: None }),
            Reply::Unsat if self.refutation(None).is_some() => Err(Outcome::Error(
                ErrorKind::Refuted,
                format!("unsat, but {}", crate::explain::RECORDED_REFUTES_UNSAT),
            )),
            Reply::Unsat if self.propagation_refutes() => Err(Outcome::Error(
                ErrorKind::Refuted,
                format!("unsat, but {}", crate::explain::PROPAGATION_REFUTES_UNSAT),
            )),
            Reply::Unsat => Err(Outcome::Unsat),
            Reply::Other(o) => Err(o),
        }
    }

    /// [`Asker::settle_with`] for a whole script.
    fn settle(&self, enc: &Encoded, reply: Reply) -> Result<Vec<i64>, Outcome> {
        self.settle_with(reply, enc.decoder.all_known(), |m| enc.decoder.decode(m))
    }

    /// The outcome once "is there another solution?" got `reply` (its
    /// model read with `decode`), after the verified first solution
    /// `first`; whether asked of a process or a session. A second grid
    /// equal to the first breaks the blocking clause: that is an invalid
    /// answer, not a proof of a second solution.
    fn settle_unique(
        &self,
        first: &[i64],
        reply: Reply,
        decode: impl FnOnce(&BTreeMap<String, Value>) -> Result<Vec<i64>, String>,
    ) -> Outcome {
        let grid = self.model.to_grid(first);
        let unique = match reply {
            Reply::Unsat if self.refutation(Some(first)).is_some() => Uniqueness::Refuted(format!(
                "the solver found no other solution, but {}, and it differs from this one",
                crate::explain::RECORDED_REFUTES_UNSAT
            )),
            Reply::Unsat => Uniqueness::Unique,
            Reply::Model(m) => match self.verify(decode(&m)) {
                Ok(second) if second == first => {
                    return Outcome::InvalidModel {
                        rule: "second solution: the solver gave the first grid again, which the \
                               blocking clause forbids"
                            .into(),
                        first: Some(grid),
                    };
                }
                Ok(second) => Uniqueness::NotUnique(self.model.to_grid(&second)),
                Err(why) => {
                    return Outcome::InvalidModel {
                        rule: format!("second solution: {why}"),
                        first: Some(grid),
                    };
                }
            },
            Reply::Other(o) => Uniqueness::Unsettled(format!(
                "uniqueness not settled: {}{}",
                o.status().name(),
                o.message().map(|m| format!(" ({m})")).unwrap_or_default()
            )),
        };
        Outcome::Sat {
            grid,
            unique: Some(unique),
        }
    }

    fn session_failed(&self, e: &SessionError) -> Outcome {
        match e {
            SessionError::TimedOut { .. } => self.timed_out(),
            SessionError::MemoryLimit { .. } => self.memout(),
            SessionError::Cancelled { .. } => Outcome::Stopped(self.ctx.stop_cause()),
            SessionError::Spawn { .. } | SessionError::NoInteractiveMode(_) => {
                Outcome::Error(ErrorKind::Start, e.to_string())
            }
            SessionError::Died { .. } => Outcome::Error(ErrorKind::NoAnswer, e.to_string()),
            SessionError::Protocol { .. } => Outcome::Error(ErrorKind::Protocol, e.to_string()),
        }
    }

    /// `--unique` on a solver with an interactive mode: one process
    /// answers both questions, so the second one reuses what the first one
    /// learnt.
    fn session(&self, enc: &Encoded, start: Instant) -> Result<(Outcome, Duration), SessionError> {
        let mut totals = Totals::new();
        let pool = self.pool().filter(|_| self.limits.memory.is_none());
        // A solver without an interactive mode fails either way with the
        // error the caller falls back on.
        let (first, mut s, before) = match pool {
            Some(pool) => self.first_in_pool(enc, pool, &mut totals)?,
            None => {
                let mut s = self.start(enc.logic)?;
                let first =
                    self.ask_script(&mut s, &check_and_model(enc.body()), None, &mut totals)?;
                (first, s, None)
            }
        };
        let values = match self.settle(enc, first) {
            Ok(v) => v,
            Err(o) => return Ok((o, start.elapsed())),
        };
        self.meter.borrow_mut().first_answer_ms = Some(ms(start.elapsed()));
        let mut block = Script::new();
        block.assert(&enc.decoder.block(&values));
        let cmds = check_and_model(block.as_str());
        let second = match self.ask_script(&mut s, &cmds, before, &mut totals) {
            Ok(reply) => reply,
            Err(e) => Reply::Other(self.session_failed(&e)),
        };
        let outcome = self.settle_unique(&values, second, |m| enc.decoder.decode(m));
        if let Some(pool) = pool
            && matches!(
                outcome,
                Outcome::Sat {
                    unique: Some(Uniqueness::Unique | Uniqueness::NotUnique(_)),
                    ..
                }
            )
            && !s.is_ended()
        {
            pool.put(s);
        }
        Ok((outcome, start.elapsed()))
    }

    /// Where this run asks a whole script instead of a process of its
    /// own: the plan's reused sessions, for a solver that answers after
    /// `(reset)` as a new process and a run without a budget (a budget
    /// counts a process's CPU time from its start, which a reused session
    /// does not). Under `--unique` only without a memory limit: a session
    /// holds memory from one puzzle to the next, which a new process would
    /// not be charged with.
    fn pool(&self) -> Option<&ResetSessions> {
        self.reset_sessions
            .filter(|_| self.budget.is_none() && self.solver.profile.resets_like_new)
    }

    /// Sends `cmds`, which end in a `check-sat` and its model, to a
    /// session whose scripts are sent whole, and reads the reply; then
    /// its statistics, if asked for (`totals`: what it reported before).
    /// The run's CPU time and memory are the session's since `before`
    /// (since it started without), read after every answer: a solver
    /// killed later has no counters left to read.
    fn ask_script(
        &self,
        s: &mut Session,
        cmds: &str,
        before: Option<Usage>,
        totals: &mut Totals,
    ) -> Result<Reply, SessionError> {
        let text = s.command(cmds, self.deadline);
        self.count_session(before, s, true);
        let text = text?;
        let reply = self.interpret(&text, &s.stderr_tail(5), "answered");
        self.ask_stats(s, totals);
        Ok(reply)
    }

    /// Starts a session of this run's solver, under its memory limit,
    /// named for this run in its transcript.
    fn start(&self, logic: &str) -> Result<Session, SessionError> {
        let mut s = Session::start_recorded(
            self.solver,
            Some(logic),
            self.ctx.cancel(),
            self.transcripts,
        )?;
        s.set_memory_limit(self.limits.memory);
        s.set_run(&self.run);
        if let Some((cpu, until)) = self.cpu_budget {
            s.set_cpu_budget(cpu, until);
        }
        Ok(s)
    }
}

fn errors(a: &Answer) -> String {
    if a.errors.is_empty() {
        String::new()
    } else {
        format!(" ({})", a.errors.join("; "))
    }
}

fn tail(stderr_tail: &str) -> String {
    let t = stderr_tail.trim();
    if t.is_empty() {
        String::new()
    } else {
        format!("; stderr: {t}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::encode;
    use crate::solver::{Profile, auto_first_kinds, profile};

    fn solver(name: &str) -> Solver {
        Solver {
            label: name.into(),
            profile: profile(name)
                .cloned()
                .unwrap_or_else(|| Profile::plain(name)),
            path: "/bin/true".into(),
            version: None,
            custom_args: None,
        }
    }

    #[test]
    fn auto_order_is_profile_data_and_every_entry_is_an_encoding() {
        for kind in Kind::ALL {
            for a in auto_order_for(kind.name()) {
                assert!(Encoding::from_name(&a.encoding).is_some(), "{a:?}");
            }
        }
        for name in auto_first_kinds() {
            assert!(
                Kind::from_name(name).is_some(),
                "auto_first: {name} is not a kind"
            );
        }
        let solvers = [solver("z3"), solver("mine"), solver("yices2")];
        let pairs = plain(auto_pairs(&solvers, Kind::Sudoku));
        assert_eq!(pairs[0], (2, Encoding::Onehot));
        assert_eq!(pairs[1], (0, Encoding::Onehot));
        assert_eq!(pairs[2], (0, Encoding::Bv));
        assert_eq!(pairs.len(), 9);
        // A solver with no measured order comes last, lia first.
        assert_eq!(pairs[6], (1, Encoding::Lia));
    }

    /// The (solver, encoding) of each run, whatever its variant.
    fn plain(runs: Vec<AutoRun>) -> Vec<(usize, Encoding)> {
        runs.into_iter().map(|r| (r.solver, r.encoding)).collect()
    }

    #[test]
    fn a_kind_with_measured_pairs_starts_them_first_and_keeps_every_pair() {
        let solvers = [
            solver("z3"),
            solver("cvc5"),
            solver("yices2"),
            solver("glucose"),
        ];
        let sudoku = plain(auto_pairs(&solvers, Kind::Sudoku));
        assert_eq!(sudoku[..2], [(2, Encoding::Onehot), (1, Encoding::Onehot)]);
        let killer = plain(auto_pairs(&solvers, Kind::Killer));
        assert_eq!(killer[..2], [(2, Encoding::Onehot), (3, Encoding::Onehot)]);
        let kakuro = plain(auto_pairs(&solvers, Kind::Kakuro));
        assert_eq!(kakuro[..2], [(2, Encoding::Bv), (2, Encoding::Onehot)]);
        for mut order in [killer, kakuro] {
            order.sort();
            let mut all = sudoku.clone();
            all.sort();
            assert_eq!(order, all);
        }
    }

    /// On killers yices2 races first with a budget, then Glucose, then
    /// Glucose under seed 1; the budget holds only while the pair listed
    /// after it races too, and a seed only for a solver that takes one.
    #[test]
    fn a_budget_gives_way_only_to_the_next_listed_pair() {
        let with = [solver("yices2"), solver("glucose")];
        let runs = with_budgets(auto_pairs(&with, Kind::Killer));
        let two = Variant {
            seed: None,
            threads: Some(2),
        };
        let head: Vec<_> = runs[..3]
            .iter()
            .map(|r| (r.solver, r.encoding, r.variant, r.budget))
            .collect();
        assert_eq!(
            head,
            [
                (
                    0,
                    Encoding::Onehot,
                    Variant::PLAIN,
                    Some(Duration::from_millis(200))
                ),
                (1, Encoding::Onehot, two, None),
                // Glucose on onehot is listed with two threads: not
                // started again plainly.
                (0, Encoding::Bv, Variant::PLAIN, None),
            ]
        );
        // Without Glucose, or in yices2's own line, yices2 keeps its
        // whole limit.
        let alone = with_budgets(auto_pairs(&[solver("yices2")], Kind::Killer));
        assert!(alone.iter().all(|r| r.budget.is_none()), "{alone:?}");
        let own: Vec<AutoRun> = auto_pairs(&with, Kind::Killer)
            .into_iter()
            .filter(|r| r.solver == 0)
            .collect();
        assert!(with_budgets(own).iter().all(|r| r.budget.is_none()));
        // A solver without threads arguments gets no run with threads:
        // it runs plainly.
        let mut single = solver("glucose");
        single.profile.threads_args.clear();
        let runs = auto_pairs(&[solver("yices2"), single], Kind::Killer);
        assert!(runs.iter().all(|r| r.variant == Variant::PLAIN), "{runs:?}");
        assert!(runs.iter().any(|r| r.solver == 1));
        // A variant passes its arguments in both ways of starting it.
        let both = Variant {
            seed: Some(1),
            threads: Some(2),
        };
        let copy = solver("glucose").variant(both).expect("glucose takes both");
        assert_eq!(copy.label, "glucose@seed1@2threads");
        for args in [
            copy.profile.oneshot_args.clone(),
            copy.interactive_args(None).expect("glucose has sessions"),
        ] {
            assert!(args.contains(&"--seed=1".to_string()), "{args:?}");
            assert!(args.contains(&"--threads=2".to_string()), "{args:?}");
        }
        assert!(solver("yices2").variant(both).is_none());
        assert!(solver("yices2").variant(Variant::PLAIN).is_some());
    }

    /// A probe started within `limit` on a fake solver whose `--version`
    /// runs `body` (a shell script's); the solver's directory lives as
    /// long as it is kept.
    fn probing(body: &str, limit: Duration) -> (tempfile::TempDir, Solver, VersionProbe) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fake-solver");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut profile = Profile::plain("fake");
        profile.version_args = vec!["--version".into()];
        let fake = Solver {
            path,
            profile,
            ..solver("fake")
        };
        let probe = VersionProbe::default();
        probe.start(&fake, limit, &Cancel::new());
        (dir, fake, probe)
    }

    #[test]
    fn a_started_version_probe_gives_the_version_when_read() {
        let (_dir, fake, probe) = probing("echo 'Fake 1.2.3'", DEFAULT_TIMEOUT);
        probe.start(&fake, DEFAULT_TIMEOUT, &Cancel::new());
        let read = || probe.read(&fake, DEFAULT_TIMEOUT, &Cancel::new());
        assert_eq!(read().as_deref(), Some("1.2.3"));
        assert_eq!(read().as_deref(), Some("1.2.3"));
    }

    #[test]
    fn a_hanging_version_probe_ends_with_the_runs_time_limit() {
        let start = Instant::now();
        let limit = Duration::from_millis(300);
        let (_dir, fake, probe) = probing("sleep 30", limit);
        assert_eq!(probe.read(&fake, limit, &Cancel::new()), None);
        // Its own bound is 15 s.
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_version_probe_nobody_read_is_stopped_at_the_end_not_awaited() {
        let (_dir, _, probe) = probing("sleep 30", DEFAULT_TIMEOUT);
        std::thread::sleep(Duration::from_millis(100));
        let start = Instant::now();
        drop(probe);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_second_thread_needs_half_a_core_idle() {
        assert_eq!(free_cores(0.0), 1);
        assert_eq!(free_cores(0.49), 1);
        assert_eq!(free_cores(0.5), 2);
        assert_eq!(free_cores(1.2), 2);
        assert_eq!(free_cores(1.6), 3);
        // Counters never give less than nothing idle; nor does this.
        assert_eq!(free_cores(-1.0), 1);
    }

    #[test]
    fn threads_are_cut_to_the_runs_cores() {
        let solvers = [solver("yices2"), solver("glucose")];
        // On 2 cores the race runs Glucose with two threads, as a racer
        // of its own that weighs 2.
        let (run, origin) = racers(&solvers, 2);
        assert_eq!(run.len(), 3);
        assert_eq!(run[2].label, "glucose@2threads");
        assert_eq!(origin[2].1.weight(), 2);
        // On 1 core (`--jobs 1`) it runs plainly: no extra racer.
        let (run, origin) = racers(&solvers, 1);
        assert_eq!(run.len(), 2);
        assert!(origin.iter().all(|o| o.1 == Variant::PLAIN));
    }

    #[test]
    fn unsupported_comes_from_the_scripts_structure() {
        let p = crate::parse::parse_str(
            "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n",
            &crate::Location::file("mini.toml"),
            None,
        )
        .expect("parses");
        let m = lower(&p[0]);
        let bv = encode(&m, Encoding::Bv, &Options { plain: true });
        let of = |s: &str, e: &Encoded| unsupported(&solver(s), &e.commands, e.logic, e.encoding);
        let why = of("boolector", &bv).expect("boolector rejects it");
        assert!(
            why.contains("declare-const") && why.contains("get-model"),
            "{why}"
        );
        assert!(of("z3", &bv).is_none());
        let lia = encode(&m, Encoding::Lia, &Options::default());
        assert!(of("yices2", &lia).is_none());
    }
}
