//! Solving: runs solvers on encoded puzzles, reads their answers, and
//! verifies every grid with the model's checker before anyone sees it.
//! Wires the stages together; the solver module starts the processes.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::encode::{Encoded, Encoding, Options, encode};
use crate::lower::lower;
use crate::model::Model;
use crate::puzzle::{Kind, Puzzle};
use crate::render::ValueGrid;
use crate::smtlib::reply::read_answer;
use crate::smtlib::sexp::parse_all;
use crate::smtlib::{Answer, CheckSat, Value};
use crate::solver::{Cancel, Limits, RunEnd, Session, SessionError, Solver, run};

/// The fixed status vocabulary of a run (as in BenchExec and SMT-COMP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
    /// The solver failed: crashed, printed nothing, printed garbage, or
    /// reported an error.
    Error,
    /// The solver's model breaks a rule of the puzzle.
    InvalidModel,
    /// The solver does not take this script's logic.
    Unsupported,
}

impl Status {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
            Status::Timeout => "timeout",
            Status::Error => "error",
            Status::InvalidModel => "invalid-model",
            Status::Unsupported => "unsupported",
        }
    }
    /// Whether this is a definite, trusted answer (sat and verified, or
    /// unsat).
    pub fn is_definite(self) -> bool {
        matches!(self, Status::Sat | Status::Unsat)
    }
}

/// One (puzzle, solver, encoding) run, as reported in JSON Lines: exactly
/// these fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The puzzle's name.
    pub puzzle: String,
    /// Its kind.
    pub kind: Kind,
    /// The solver's label.
    pub solver: String,
    /// The solver's version, if known.
    pub solver_version: Option<String>,
    /// The encoding used.
    pub encoding: Encoding,
    /// How the run ended.
    pub status: Status,
    /// Whether the checker accepted the grid.
    pub verified: bool,
    /// With `--unique`: whether the solution is the only one.
    pub unique: Option<bool>,
    /// Wall-clock time of the solver run in milliseconds.
    pub time_ms: u64,
    /// The verified grid; `null` cells where no cell is; `null` without a
    /// model.
    pub grid: Option<ValueGrid>,
    /// What went wrong, or `null`.
    pub error: Option<String>,
    /// A second, different verified grid (when `--unique` found one).
    #[serde(skip)]
    pub second_grid: Option<ValueGrid>,
}

/// The result of one puzzle: its runs, and whether they disagree.
#[derive(Debug, Clone)]
pub struct PuzzleResult {
    /// Index of the puzzle in the input list.
    pub index: usize,
    /// Its runs, in a stable order (solvers as given, then encodings).
    pub runs: Vec<RunReport>,
    /// With `--encoding auto`: the state of each pair that did not win.
    pub others: Vec<String>,
    /// When solvers disagree: what about.
    pub disagreement: Option<String>,
}

/// Which encodings to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodingChoice {
    /// Each of these, with each solver.
    These(Vec<Encoding>),
    /// Race solver × encoding pairs; the first verified answer wins.
    Auto,
}

/// What to solve and how.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The solvers to run.
    pub solvers: Vec<Solver>,
    /// The encodings.
    pub encodings: EncodingChoice,
    /// Encoder options.
    pub options: Options,
    /// Time limit per run.
    pub limits: Limits,
    /// How many solver processes may run at once.
    pub jobs: usize,
    /// Whether to ask for a second solution.
    pub unique: bool,
}

/// Solves every puzzle; calls `emit` with each puzzle's result in input
/// order, as soon as it and every earlier one are done.
pub fn solve_all(
    puzzles: &[Puzzle],
    plan: &Plan,
    cancel: &Cancel,
    mut emit: impl FnMut(&Puzzle, &PuzzleResult),
) {
    match &plan.encodings {
        EncodingChoice::Auto => {
            // Puzzles one after another; each races its pairs on all jobs.
            for (i, p) in puzzles.iter().enumerate() {
                if cancel.is_cancelled() {
                    break;
                }
                let r = race(i, p, plan, cancel);
                emit(p, &r);
            }
        }
        EncodingChoice::These(encs) => {
            let tasks: Vec<(usize, usize, Encoding)> = (0..puzzles.len())
                .flat_map(|p| {
                    (0..plan.solvers.len()).flat_map(move |s| encs.iter().map(move |&e| (p, s, e)))
                })
                .collect();
            let per_puzzle = plan.solvers.len() * encs.len();
            let next = AtomicUsize::new(0);
            let models: Mutex<BTreeMap<usize, Arc<Model>>> = Mutex::new(BTreeMap::new());
            let (tx, rx) = mpsc::channel::<(usize, RunReport)>();
            std::thread::scope(|scope| {
                for _ in 0..plan.jobs.max(1).min(tasks.len().max(1)) {
                    let tx = tx.clone();
                    let (next, models, tasks) = (&next, &models, &tasks);
                    scope.spawn(move || {
                        loop {
                            let t = next.fetch_add(1, Ordering::SeqCst);
                            let Some(&(pi, si, enc)) = tasks.get(t) else {
                                break;
                            };
                            if cancel.is_cancelled() {
                                break;
                            }
                            let model = model_for(models, pi, &puzzles[pi]);
                            let encoded = encode(&model, enc, &plan.options);
                            let solver = &plan.solvers[si];
                            let report =
                                run_one(&puzzles[pi], &model, &encoded, solver, plan, cancel);
                            if tx.send((t, report)).is_err() {
                                break;
                            }
                        }
                    });
                }
                drop(tx);
                // Reports arrive in any order; each puzzle is emitted once it
                // and every earlier one are complete, so output is stable.
                let mut done: Vec<Option<RunReport>> = vec![None; tasks.len()];
                let mut printed = 0;
                for (t, report) in rx {
                    done[t] = Some(report);
                    while printed < puzzles.len() {
                        let lo = printed * per_puzzle;
                        let slice = &mut done[lo..lo + per_puzzle];
                        if slice.iter().any(Option::is_none) {
                            break;
                        }
                        let runs: Vec<RunReport> =
                            slice.iter_mut().filter_map(Option::take).collect();
                        models
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .remove(&printed);
                        emit(&puzzles[printed], &finish(printed, runs, Vec::new()));
                        printed += 1;
                    }
                }
            });
        }
    }
}

fn model_for(models: &Mutex<BTreeMap<usize, Arc<Model>>>, pi: usize, p: &Puzzle) -> Arc<Model> {
    let mut m = models.lock().unwrap_or_else(|e| e.into_inner());
    m.entry(pi).or_insert_with(|| Arc::new(lower(p))).clone()
}
/// Looks for disagreement between the runs of one puzzle.
fn finish(index: usize, runs: Vec<RunReport>, others: Vec<String>) -> PuzzleResult {
    let sat: Vec<&RunReport> = runs.iter().filter(|r| r.status == Status::Sat).collect();
    let unsat: Vec<&RunReport> = runs.iter().filter(|r| r.status == Status::Unsat).collect();
    let mut disagreement = None;
    if let (Some(s), Some(u)) = (sat.first(), unsat.first()) {
        disagreement = Some(format!(
            "{} ({}) found a verified solution but {} ({}) says there is none",
            s.solver, s.encoding, u.solver, u.encoding
        ));
    } else if let Some(u) = runs.iter().find(|r| r.unique == Some(true)) {
        let grid = &u.grid;
        if let Some(o) = sat.iter().find(|r| r.grid != *grid) {
            disagreement = Some(format!(
                "{} ({}) says the solution is unique, but {} ({}) found a different one",
                u.solver, u.encoding, o.solver, o.encoding
            ));
        }
    }
    PuzzleResult {
        index,
        runs,
        others,
        disagreement,
    }
}

fn blank_report(p: &Puzzle, solver: &Solver, enc: Encoding) -> RunReport {
    RunReport {
        puzzle: p.name.clone(),
        kind: p.kind,
        solver: solver.label.clone(),
        solver_version: solver.version.clone(),
        encoding: enc,
        status: Status::Error,
        verified: false,
        unique: None,
        time_ms: 0,
        grid: None,
        error: None,
        second_grid: None,
    }
}

/// What one question to a solver gave.
enum Reply {
    Model(BTreeMap<String, Value>),
    Unsat,
    Other(Status, String),
}

/// Turns a solver's printed answer into a reply. `ended` says how the
/// process ended, for messages.
fn interpret(stdout: &str, stderr_tail: &str, ended: &str, over_time: bool) -> Reply {
    let answer: Answer = match read_answer(stdout) {
        Ok(a) => a,
        Err(e) => {
            return Reply::Other(
                Status::Error,
                format!("unreadable output ({e}); it {ended}{}", tail(stderr_tail)),
            );
        }
    };
    // `unsupported` may answer a mere option (cvc5 on an unknown one) while
    // the check-sat still gets answered, so results come first.
    match answer.results.first() {
        Some(CheckSat::Sat) => Reply::Model(answer.model),
        Some(CheckSat::Unsat) => Reply::Unsat,
        Some(CheckSat::Unknown) if over_time => {
            Reply::Other(Status::Timeout, "the solver's own time limit passed".into())
        }
        Some(CheckSat::Unknown) => {
            Reply::Other(Status::Unknown, format!("unknown{}", errors(&answer)))
        }
        None if !answer.errors.is_empty() => Reply::Other(Status::Error, answer.errors.join("; ")),
        None if answer.unsupported => {
            Reply::Other(Status::Unsupported, "the solver said: unsupported".into())
        }
        None if said_timeout(stdout) => {
            Reply::Other(Status::Timeout, "the solver's own time limit passed".into())
        }
        None => Reply::Other(
            Status::Error,
            format!("no answer: the solver {ended}{}", tail(stderr_tail)),
        ),
    }
}

/// z3 prints a bare `timeout` when its own limit (`-T`) stops it.
fn said_timeout(stdout: &str) -> bool {
    parse_all(stdout).is_ok_and(|items| items.iter().any(|x| x.is_atom("timeout")))
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

/// Decodes and checks a model. Returns the values, or the reason the
/// model is rejected (which makes the status `invalid-model`).
fn verify(
    model: &Model,
    enc: &Encoded,
    values: &BTreeMap<String, Value>,
) -> Result<Vec<i64>, String> {
    let v = enc.decoder.decode(values)?;
    model.check(&v).map_err(|e| e.message)?;
    Ok(v)
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

/// Runs one solver on one encoded puzzle (and, with `--unique`, asks it for
/// a second solution).
pub fn run_one(
    p: &Puzzle,
    model: &Model,
    enc: &Encoded,
    solver: &Solver,
    plan: &Plan,
    cancel: &Cancel,
) -> RunReport {
    let mut rep = blank_report(p, solver, enc.encoding);
    let rejected: Vec<&str> = solver
        .profile
        .unsupported_commands
        .iter()
        .map(String::as_str)
        .filter(|c| {
            enc.script.contains(&format!("({c} ")) || enc.script.contains(&format!("({c})"))
        })
        .collect();
    if !rejected.is_empty() {
        rep.status = Status::Unsupported;
        rep.error = Some(format!(
            "{} does not support {}, which the script uses",
            solver.display_name(),
            rejected.join(", ")
        ));
        return rep;
    }
    if !solver.accepts_logic(enc.logic) {
        rep.status = Status::Unsupported;
        rep.error = Some(format!(
            "{} does not take {} (the {} encoding's logic); it takes {}",
            solver.label,
            enc.logic,
            enc.encoding,
            solver.profile.logics.join(", ")
        ));
        return rep;
    }
    if plan.unique {
        match run_session(model, enc, solver, plan, cancel, &mut rep) {
            Ok(()) => return rep,
            // Solvers without an interactive mode answer both questions
            // in one-shot runs.
            Err(SessionError::NoInteractiveMode(_)) => {}
            Err(e) => {
                rep.status = session_status(&e);
                rep.error = Some(e.to_string());
                return rep;
            }
        }
    }
    let first = ask_oneshot(solver, &enc.script, plan, cancel);
    rep.time_ms = first.1;
    let Some(values) = settle(&mut rep, model, enc, first.0) else {
        return rep;
    };
    if plan.unique {
        let again = enc.with_assertions("a different solution", &[enc.decoder.block(&values)]);
        let (reply, _) = ask_oneshot(solver, &again, plan, cancel);
        settle_unique(&mut rep, model, enc, reply);
    }
    rep
}

fn ask_oneshot(solver: &Solver, script: &str, plan: &Plan, cancel: &Cancel) -> (Reply, u64) {
    let out = run(solver, script, &plan.limits, cancel);
    let ms = out.elapsed.as_millis() as u64;
    let reply = match &out.end {
        RunEnd::TimedOut => Reply::Other(
            Status::Timeout,
            format!("no answer within {} s", plan.limits.timeout.as_secs_f64()),
        ),
        RunEnd::Cancelled => Reply::Other(Status::Error, "interrupted".into()),
        RunEnd::SpawnFailed(why) => Reply::Other(Status::Error, why.clone()),
        RunEnd::OutputLimit => Reply::Other(Status::Error, format!("the solver {}", out.end)),
        end => {
            let over = out.elapsed >= plan.limits.timeout;
            interpret(&out.stdout, &out.stderr_tail(5), &end.to_string(), over)
        }
    };
    (reply, ms)
}

/// Records the first answer in `rep`; returns the verified values on sat.
fn settle(rep: &mut RunReport, model: &Model, enc: &Encoded, reply: Reply) -> Option<Vec<i64>> {
    match reply {
        // An empty model is fine only when propagation decided every cell.
        Reply::Model(m) if m.is_empty() && !enc.decoder.all_known() => {
            rep.status = Status::Error;
            rep.error = Some("sat, but no model was printed".into());
            None
        }
        Reply::Model(m) => match verify(model, enc, &m) {
            Ok(values) => {
                rep.status = Status::Sat;
                rep.verified = true;
                rep.grid = Some(model.to_grid(&values));
                Some(values)
            }
            Err(why) => {
                rep.status = Status::InvalidModel;
                rep.error = Some(why);
                None
            }
        },
        Reply::Unsat => {
            rep.status = Status::Unsat;
            None
        }
        Reply::Other(status, why) => {
            rep.status = status;
            rep.error = Some(why);
            None
        }
    }
}

/// Records the answer to "is there another solution?".
fn settle_unique(rep: &mut RunReport, model: &Model, enc: &Encoded, reply: Reply) {
    match reply {
        Reply::Unsat => rep.unique = Some(true),
        Reply::Model(m) => match verify(model, enc, &m) {
            Ok(values) => {
                rep.unique = Some(false);
                rep.second_grid = Some(model.to_grid(&values));
            }
            Err(why) => {
                rep.status = Status::InvalidModel;
                rep.error = Some(format!("second solution: {why}"));
            }
        },
        Reply::Other(status, why) => {
            rep.error = Some(format!("uniqueness not settled: {} ({why})", status.name()));
        }
    }
}

fn session_status(e: &SessionError) -> Status {
    match e {
        SessionError::TimedOut { .. } => Status::Timeout,
        _ => Status::Error,
    }
}

/// `--unique` on a solver with an interactive mode: one process answers
/// both questions, so the second one reuses what the first one learnt.
fn run_session(
    model: &Model,
    enc: &Encoded,
    solver: &Solver,
    plan: &Plan,
    cancel: &Cancel,
    rep: &mut RunReport,
) -> Result<(), SessionError> {
    let start = Instant::now();
    let deadline = start + plan.limits.timeout;
    let mut s = Session::start(solver, Some(enc.logic), cancel)?;
    let ask = |s: &mut Session, cmds: &str| -> Result<Reply, SessionError> {
        let text = s.command(cmds, deadline)?;
        let over = start.elapsed() >= plan.limits.timeout;
        Ok(interpret(&text, &s.stderr_tail(5), "answered", over))
    };
    let first = ask(&mut s, &format!("{}(check-sat)\n(get-model)\n", enc.body()))?;
    rep.time_ms = start.elapsed().as_millis() as u64;
    let Some(values) = settle(rep, model, enc, first) else {
        return Ok(());
    };
    let mut block = crate::smtlib::Script::new();
    block.assert(&enc.decoder.block(&values));
    let cmds = format!("{}(check-sat)\n(get-model)\n", block.as_str());
    match ask(&mut s, &cmds) {
        Ok(reply) => settle_unique(rep, model, enc, reply),
        Err(e) => rep.error = Some(format!("uniqueness not settled: {e}")),
    }
    Ok(())
}

/// The order in which `auto` starts solver × encoding pairs, best first.
/// From `scripts/bench-encodings` on this project's 2-core machine (the
/// README's "Encodings" table): yices2 on onehot is fastest everywhere
/// (top95 median 6 ms, hard calcudoku 19 ms, Squares 0.29 s); cvc5 on
/// onehot next (40 ms, 91 ms, 0.51 s), then z3 on onehot (44 ms, 0.17 s,
/// 1.0 s) and z3 on bv; lia is slowest everywhere. Profiles not listed
/// come after.
pub const AUTO_ORDER: &[(&str, Encoding)] = &[
    ("yices2", Encoding::Onehot),
    ("cvc5", Encoding::Onehot),
    ("z3", Encoding::Onehot),
    ("z3", Encoding::Bv),
    ("cvc4", Encoding::Onehot),
    ("yices2", Encoding::Bv),
    ("cvc5", Encoding::Bv),
    ("yices2", Encoding::Lia),
    ("z3", Encoding::Lia),
    ("cvc5", Encoding::Lia),
    ("cvc4", Encoding::Bv),
    ("cvc4", Encoding::Lia),
];

/// Solver × encoding pairs for `auto`, in the order they start.
pub fn auto_pairs(solvers: &[Solver]) -> Vec<(usize, Encoding)> {
    let rank = |s: &Solver, e: Encoding| {
        AUTO_ORDER
            .iter()
            .position(|&(name, enc)| name == s.profile.name && enc == e)
            .unwrap_or(AUTO_ORDER.len() + e as usize)
    };
    let mut pairs: Vec<(usize, Encoding)> = (0..solvers.len())
        .flat_map(|s| Encoding::ALL.into_iter().map(move |e| (s, e)))
        .collect();
    pairs.sort_by_key(|&(s, e)| (rank(&solvers[s], e), s));
    pairs
}

/// `--encoding auto`: starts pairs within `jobs`, takes the first definite
/// answer, stops the rest.
fn race(index: usize, p: &Puzzle, plan: &Plan, cancel: &Cancel) -> PuzzleResult {
    let model = lower(p);
    let pairs = auto_pairs(&plan.solvers);
    let encoded: BTreeMap<Encoding, Encoded> = Encoding::ALL
        .into_iter()
        .map(|e| (e, encode(&model, e, &plan.options)))
        .collect();
    let stop = cancel.child();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<(RunReport, Duration)>>> = Mutex::new(vec![None; pairs.len()]);
    let winner: Mutex<Option<usize>> = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..plan.jobs.max(1).min(pairs.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&(si, enc)) = pairs.get(i) else {
                        break;
                    };
                    if stop.is_cancelled() {
                        break;
                    }
                    let Some(e) = encoded.get(&enc) else { break };
                    let rep = run_one(p, &model, e, &plan.solvers[si], plan, &stop);
                    let definite = rep.status.is_definite();
                    let mut w = winner.lock().unwrap_or_else(|e| e.into_inner());
                    if definite && w.is_none() {
                        *w = Some(i);
                        stop.cancel();
                    }
                    drop(w);
                    let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                    r[i] = Some((rep, start.elapsed()));
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let winner = winner.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut runs = Vec::new();
    let mut others = Vec::new();
    let mut not_started = Vec::new();
    // Without a definite answer, the first pair that ran stands for the
    // puzzle, so its status (timeout, unknown, …) is what gets reported.
    let shown = winner.or_else(|| results.iter().position(Option::is_some));
    for (i, r) in results.into_iter().enumerate() {
        let (si, enc) = pairs[i];
        let label = format!("{} on {}", plan.solvers[si].label, enc);
        match r {
            Some((mut rep, _)) if Some(i) == shown => {
                let mut s = [plan.solvers[si].clone()];
                crate::solver::read_versions(&mut s, cancel);
                rep.solver_version = s[0].version.take();
                runs.push(rep);
            }
            Some((rep, _))
                if rep.error.as_deref() == Some("interrupted") && !cancel.is_cancelled() =>
            {
                others.push(format!("{label}: stopped after {} ms", rep.time_ms));
            }
            Some((rep, _)) => others.push(format!(
                "{label}: {} after {} ms{}",
                rep.status.name(),
                rep.time_ms,
                rep.error.map(|e| format!(" ({e})")).unwrap_or_default()
            )),
            None => not_started.push(label),
        }
    }
    if !not_started.is_empty() {
        others.push(format!(
            "not started (an answer came first): {}",
            not_started.join(", ")
        ));
    }
    finish(index, runs, others)
}
