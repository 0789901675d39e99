//! Incremental sessions: a solver process that holds the rules of one
//! puzzle shape answers one puzzle of that shape after another (`push`,
//! the puzzle's givens, `check-sat`, `get-value`, `pop`), so the rules are
//! parsed once instead of once per puzzle.
//!
//! Sessions are kept between jobs in a bounded pool, keyed by solver,
//! encoding and shape. A session whose solver failed, timed out or was
//! stopped is never put back: the next job starts a fresh one, and the run
//! goes on. Every grid is verified by the model's checker as in a process
//! run.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::effort::Totals;
use super::schedule::lock;
use super::{Asker, ErrorKind, Outcome, PerEncoding, Reply, ms};
use crate::encode::{Encoding, Interrupted, Shared, encode_shared};
use crate::lower::given_digits;
use crate::model::{CellId, Model};
use crate::puzzle::Puzzle;
use crate::solver::{Cancel, Session, SessionError, Usage, excerpt};

/// Shapes remembered at once. A file that keeps switching between more
/// shapes than this still works; it just starts more sessions.
const SHAPES_KEPT: usize = 8;

/// How much of a rejected setup's reply a message quotes.
const QUOTE_BYTES: usize = 300;

/// A puzzle shape met in this run, with its session scripts once built.
pub(super) struct Shape {
    /// The first puzzle met of this shape, whose rules later puzzles are
    /// compared with before they are lowered.
    puzzle: Puzzle,
    /// The rules of the shape: its puzzles' model without the givens.
    pub model: Model,
    scripts: PerEncoding<Shared>,
}

/// What a puzzle needs to be asked in a session.
pub(super) struct Fit {
    /// Its shape.
    pub shape: Arc<Shape>,
    /// Its givens.
    pub givens: Vec<(CellId, i64)>,
    /// Whether an earlier puzzle of the run had this shape.
    pub seen_before: bool,
}

impl Fit {
    /// The shape's script in `encoding`, built by the first job that needs
    /// it.
    pub fn script(&self, encoding: Encoding, cancel: &Cancel) -> Result<&Shared, Interrupted> {
        let shape = &self.shape;
        shape
            .scripts
            .get_or_build(encoding, || encode_shared(&shape.model, encoding, cancel))
    }
}

struct Idle {
    solver: usize,
    encoding: Encoding,
    shape: Arc<Shape>,
    session: Session,
    /// The statistics its solver reported last.
    totals: Totals,
}

/// The shapes of a run and its idle sessions.
pub(super) struct Sessions {
    shapes: Mutex<VecDeque<Arc<Shape>>>,
    idle: Mutex<VecDeque<Idle>>,
    /// The most idle sessions kept; the least recently used goes first.
    keep: usize,
}

impl Sessions {
    /// A pool that keeps at most `keep` idle sessions.
    pub fn new(keep: usize) -> Sessions {
        Sessions {
            shapes: Mutex::new(VecDeque::new()),
            idle: Mutex::new(VecDeque::new()),
            keep: keep.max(1),
        }
    }

    /// Where `puzzle` fits: its shape (the one already met, if any) and
    /// its givens. A puzzle with the rules of one met before takes that
    /// shape and its givens straight from the puzzle, so a file of many
    /// puzzles of one shape lowers only the first (`model` lowers it).
    pub fn fit<'m>(&self, puzzle: &Puzzle, model: impl FnOnce() -> &'m Model) -> Fit {
        let mut shapes = lock(&self.shapes);
        if let Some(i) = shapes.iter().position(|s| puzzle.same_rules(&s.puzzle))
            && let Some(givens) = given_digits(puzzle)
                .map(|(r, c, v)| Some((shapes[i].model.cell_at(r, c)?, v)))
                .collect::<Option<Vec<_>>>()
        {
            return Fit {
                shape: Self::met(&mut shapes, i),
                givens,
                seen_before: true,
            };
        }
        drop(shapes);
        let model = model();
        let mut shapes = lock(&self.shapes);
        // Compared in place: the shape is copied out only when it is new.
        if let Some(i) = shapes.iter().position(|s| model.has_shape(&s.model)) {
            return Fit {
                shape: Self::met(&mut shapes, i),
                givens: model.givens(),
                seen_before: true,
            };
        }
        let (shape, givens) = model.split_givens();
        let new = Arc::new(Shape {
            puzzle: puzzle.clone(),
            model: shape,
            scripts: Default::default(),
        });
        shapes.push_front(Arc::clone(&new));
        shapes.truncate(SHAPES_KEPT);
        Fit {
            shape: new,
            givens,
            seen_before: false,
        }
    }

    /// The `i`th shape, moved to the front as the one met last.
    fn met(shapes: &mut VecDeque<Arc<Shape>>, i: usize) -> Arc<Shape> {
        let found = shapes.remove(i).unwrap_or_else(|| unreachable!());
        shapes.push_front(Arc::clone(&found));
        found
    }

    fn take(
        &self,
        solver: usize,
        encoding: Encoding,
        shape: &Arc<Shape>,
    ) -> Option<(Session, Totals)> {
        let mut idle = lock(&self.idle);
        let i = idle.iter().position(|s| {
            s.solver == solver && s.encoding == encoding && Arc::ptr_eq(&s.shape, shape)
        })?;
        idle.remove(i).map(|s| (s.session, s.totals))
    }

    /// Asks the puzzles of `askers` (each with its givens), all of
    /// `shape`, in one session of solver `solver` holding `shared`: every
    /// question is written at once, then the answers are read in turn, so
    /// the solver and smtgrid wake once for the batch rather than once per
    /// puzzle. With `unique`, the uniqueness questions of the puzzles with
    /// a verified answer follow as a second batch (see [`Shared::another`]:
    /// the last puzzle's in its own scope, the others' with their givens
    /// stated again). A puzzle's limit and time run from when the answer
    /// before it was verified (the first's from the batch's start, which
    /// counts a new session's start), and cover both its questions; its
    /// CPU time is the solver's between the readings after the answer
    /// before it and after its own, for each question. Both are as smtgrid
    /// reads the answers, not as the solver gives them: an answer already
    /// waiting shows almost nothing, the one before it the rest; the
    /// batch's sums are exact. Its memory is the session's peak as read
    /// after the batch's last answer. Returns each asker with its outcome
    /// and time, `None` for the puzzles left unanswered once the session
    /// failed or gave an outcome after which it is not reused, which the
    /// caller asks again on their own.
    pub(super) fn ask_batch<'a>(
        &self,
        solver: usize,
        shape: &Arc<Shape>,
        shared: &Shared,
        mut askers: Vec<(Asker<'a>, &[(CellId, i64)])>,
        unique: bool,
    ) -> Vec<(Asker<'a>, Option<(Outcome, Duration)>)> {
        let mut answers: Vec<Option<(Outcome, Duration)>> = askers.iter().map(|_| None).collect();
        let start = Instant::now();
        let Some((first, _)) = askers.first() else {
            return Vec::new();
        };
        let Lent {
            mut session,
            totals,
            mut ended,
            mut before,
        } = match first.lend(self, solver, shape, shared) {
            Ok(lent) => lent,
            Err(o) => {
                answers[0] = Some((o, start.elapsed()));
                return askers.into_iter().map(|(a, _)| a).zip(answers).collect();
            }
        };
        // Lent to the first puzzle, the session names the batch's
        // questions after it in the transcript.
        let questions: Vec<String> = askers
            .iter()
            .map(|(_, givens)| {
                let q = format!("{ended}{}", shared.question(givens));
                ended = shared.end_question();
                q
            })
            .collect();
        let questions: Vec<&str> = questions.iter().map(String::as_str).collect();
        let (asked, unsent) = match session.ask_all(&questions, first.deadline) {
            Ok(asked) => (asked, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        let mut from = start;
        let mut healthy = true;
        let n_asked = asked.len();
        // With `unique`: the puzzles answered, with their verified values
        // and the time their first answer took.
        let mut answered = Vec::new();
        for (i, q) in asked.into_iter().enumerate() {
            let a = &mut askers[i].0;
            a.deadline = from + a.limit;
            session.set_run(&a.run);
            let text = session.answer(q, a.deadline);
            let first = a.judge_shared(&mut session, shared, text, before, false);
            before = session.last_usage();
            let now = Instant::now();
            match first {
                Ok(values) if unique => {
                    a.meter.borrow_mut().first_answer_ms = Some(ms(now - from));
                    answered.push((i, values, now - from));
                    healthy = !session.is_ended();
                }
                first => {
                    let outcome = first_outcome(a, first);
                    healthy = reusable(&outcome) && !session.is_ended();
                    answers[i] = Some((outcome, now - from));
                }
            }
            from = now;
            if !healthy {
                break;
            }
        }
        if healthy && unsent.is_none() && !answered.is_empty() {
            let last_open = answered.last().is_some_and(|a| a.0 + 1 == n_asked);
            healthy = Self::ask_others(
                &mut session,
                shared,
                &mut askers,
                answered,
                last_open,
                &mut answers,
                &mut before,
            );
        }
        // The peak memory since the session started, read once for the
        // batch after its last answer: every puzzle of it was asked by then.
        if let Some(peak) = session.usage().map(|u| u.max_rss_kb) {
            for (a, _) in &askers {
                let mut m = a.meter.borrow_mut();
                if m.max_rss_kb.is_some() {
                    m.max_rss_kb = Some(peak);
                }
            }
        }
        match unsent {
            // The question that could not be sent is the failed one when
            // every answer before it came.
            Some(e) if healthy => {
                let a = &askers[n_asked].0;
                answers[n_asked] = Some((a.session_failed(&e), from.elapsed()));
            }
            Some(_) => {}
            None if healthy => self.put(solver, shape, shared, session, totals),
            // Dropping it kills it and its unanswered questions.
            None => {}
        }
        askers.into_iter().map(|(a, _)| a).zip(answers).collect()
    }

    /// The second batch of [`Sessions::ask_batch`] under `--unique`: asks
    /// whether each puzzle of `answered` (an index of `askers`, its
    /// verified values and the time its first answer took) has another
    /// solution, and sets its outcome and whole time in `answers`; the CPU
    /// time counted from `before` is added to the first answer's. With
    /// `last_open`, the last of them is the last puzzle asked, whose scope
    /// is still open: asked first, in that scope. Returns whether the
    /// session may be used again.
    fn ask_others(
        session: &mut Session,
        shared: &Shared,
        askers: &mut [(Asker, &[(CellId, i64)])],
        mut answered: Vec<(usize, Vec<i64>, Duration)>,
        last_open: bool,
        answers: &mut [Option<(Outcome, Duration)>],
        before: &mut Option<Usage>,
    ) -> bool {
        if last_open {
            answered.rotate_right(1);
        }
        let questions: Vec<String> = answered
            .iter()
            .enumerate()
            .map(|(k, (i, values, _))| match k {
                0 if last_open => shared.another(values, None),
                _ => format!(
                    "{}{}",
                    shared.end_question(),
                    shared.another(values, Some(askers[*i].1))
                ),
            })
            .collect();
        let questions: Vec<&str> = questions.iter().map(String::as_str).collect();
        let mut from = Instant::now();
        let remaining = |a: &Asker, took: Duration| a.limit.saturating_sub(took);
        let (i0, _, took0) = &answered[0];
        let Ok(asked) = session.ask_all(&questions, from + remaining(&askers[*i0].0, *took0))
        else {
            return false;
        };
        for (q, (i, values, took)) in asked.into_iter().zip(&answered) {
            let a = &mut askers[*i].0;
            a.deadline = from + remaining(a, *took);
            session.set_run(&a.run);
            let text = session.answer(q, a.deadline);
            a.count_more(*before, session);
            *before = session.last_usage();
            let outcome = a.judge_another(session, shared, text, values);
            let healthy = reusable(&outcome) && !session.is_ended();
            let now = Instant::now();
            answers[*i] = Some((outcome, *took + (now - from)));
            from = now;
            if !healthy {
                return false;
            }
        }
        true
    }

    /// Puts `session`, holding `shared` of `shape` for solver `solver`,
    /// back in the pool for the next job.
    fn put(
        &self,
        solver: usize,
        shape: &Arc<Shape>,
        shared: &Shared,
        session: Session,
        totals: Totals,
    ) {
        let idle = Idle {
            solver,
            encoding: shared.encoding,
            shape: Arc::clone(shape),
            session,
            totals,
        };
        keep_idle(&self.idle, idle, self.keep);
    }
}

/// Puts `idle` at the back of `pool`, and ends the sessions that have
/// waited longest beyond the `keep` newest.
pub(super) fn keep_idle<T>(pool: &Mutex<VecDeque<T>>, idle: T, keep: usize) {
    let dropped = {
        let mut pool = lock(pool);
        pool.push_back(idle);
        let over = pool.len().saturating_sub(keep);
        pool.drain(..over).collect::<Vec<_>>()
    };
    // Dropping kills and reaps; not under the lock.
    drop(dropped);
}

/// A session lent to a job by [`Asker::lend`].
struct Lent {
    session: Session,
    /// The statistics its solver reported last.
    totals: Totals,
    /// What its first question starts with: the end of a pooled session's
    /// last puzzle, nothing for a new one.
    ended: &'static str,
    /// Where its first question's figures start; `None` for a new session,
    /// whose first puzzle counts its start.
    before: Option<Usage>,
}

/// Whether a session may answer more questions after giving `outcome`:
/// not after an error, a timeout or a stop, which may leave it in a state
/// of its own.
fn reusable(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Sat { .. } | Outcome::Unsat | Outcome::Unknown(_)
    )
}

impl Asker<'_> {
    /// Asks the puzzle of `fit` in a session of solver `solver` (an index
    /// of the plan's solvers) holding `shared`: one from the pool, or a new
    /// one; with `unique`, then whether its verified answer is the only
    /// one. Returns the outcome and the time from asking to the verified
    /// answer (for a new session, from its start).
    pub(super) fn incremental(
        &self,
        sessions: &Sessions,
        solver: usize,
        fit: &Fit,
        shared: &Shared,
        unique: bool,
    ) -> (Outcome, Duration) {
        let start = Instant::now();
        let Lent {
            mut session,
            mut totals,
            ended,
            before,
        } = match self.lend(sessions, solver, &fit.shape, shared) {
            Ok(lent) => lent,
            Err(o) => return (o, start.elapsed()),
        };
        let question = format!("{ended}{}", shared.question(&fit.givens));
        let text = session.command(&question, self.deadline);
        let first = self.judge_shared(&mut session, shared, text, before, true);
        let outcome = match first {
            // In the puzzle's scope, right after its answer: the solver
            // goes on from what it learnt.
            Ok(values) if unique => {
                self.meter.borrow_mut().first_answer_ms = Some(ms(start.elapsed()));
                let text = session.command(&shared.another(&values, None), self.deadline);
                self.count_session(before, &mut session, true);
                self.judge_another(&session, shared, text, &values)
            }
            first => first_outcome(self, first),
        };
        let took = start.elapsed();
        // Asked after the answer is timed: the question is smtgrid's, not
        // part of solving the puzzle.
        if reusable(&outcome) {
            self.ask_stats(&mut session, &mut totals);
        }
        if reusable(&outcome) && !session.is_ended() {
            sessions.put(solver, &fit.shape, shared, session, totals);
        }
        (outcome, took)
    }

    /// A session of solver `solver` holding `shared` of `shape` for this
    /// run: one from the pool (it still holds its last puzzle's givens),
    /// or a new one.
    fn lend(
        &self,
        sessions: &Sessions,
        solver: usize,
        shape: &Arc<Shape>,
        shared: &Shared,
    ) -> Result<Lent, Outcome> {
        match sessions.take(solver, shared.encoding, shape) {
            Some((mut session, totals)) => {
                session.set_cancel(self.ctx.cancel());
                session.set_run(&self.run);
                session.set_memory_limit(self.limits.memory);
                let before = session.last_usage();
                Ok(Lent {
                    session,
                    totals,
                    ended: shared.end_question(),
                    before,
                })
            }
            None => self.start_session(shared).map(|session| Lent {
                session,
                totals: Totals::new(),
                ended: "",
                before: None,
            }),
        }
    }

    /// Starts a session and states the shape's rules, which print nothing
    /// unless the solver rejects them.
    fn start_session(&self, shared: &Shared) -> Result<Session, Outcome> {
        let fail = |e| self.session_failed(&e);
        let mut s = self.start(shared.logic).map_err(fail)?;
        let reply = s.command(&shared.setup, self.deadline);
        self.count_session(None, &mut s, true);
        let reply = reply.map_err(fail)?;
        if reply.trim().is_empty() {
            Ok(s)
        } else {
            Err(Outcome::Error(
                ErrorKind::Reported,
                format!(
                    "the solver rejected the rules of the puzzle's shape: {}",
                    excerpt(reply.trim().as_bytes(), QUOTE_BYTES)
                ),
            ))
        }
    }

    /// Adds the session's CPU time since `before` to this run's: the time
    /// of a second question asked apart from the first.
    fn count_more(&self, before: Option<Usage>, s: &mut Session) {
        let first = self.meter.borrow_mut().cpu_ms.take();
        self.count_session(before, s, false);
        let mut m = self.meter.borrow_mut();
        m.cpu_ms = match (first, m.cpu_ms) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }

    /// The verified values of a session's reply `text` to a puzzle's
    /// question, or how the question ended (its figures counted from
    /// `before`, the peak memory read anew with `peak`).
    fn judge_shared(
        &self,
        s: &mut Session,
        shared: &Shared,
        text: Result<String, SessionError>,
        before: Option<Usage>,
        peak: bool,
    ) -> Result<Vec<i64>, Outcome> {
        self.count_session(before, s, peak);
        let reply = self
            .session_reply(s, text)
            .map_err(|e| self.session_failed(&e))?;
        self.settle_with(reply, shared.all_known(), |m| shared.decode(m))
    }

    /// The outcome of a session's reply `text` to the uniqueness question
    /// of a puzzle whose verified solution is `first`. A session that
    /// failed leaves uniqueness unsettled, as a failed second process
    /// does.
    fn judge_another(
        &self,
        s: &Session,
        shared: &Shared,
        text: Result<String, SessionError>,
        first: &[i64],
    ) -> Outcome {
        let reply = self
            .session_reply(s, text)
            .unwrap_or_else(|e| Reply::Other(self.session_failed(&e)));
        self.settle_unique(first, reply, |m| shared.decode(m))
    }

    fn session_reply(
        &self,
        s: &Session,
        text: Result<String, SessionError>,
    ) -> Result<Reply, SessionError> {
        Ok(self.interpret(&text?, &s.stderr_tail(5), "answered"))
    }
}

/// A first answer as its outcome: its grid, with uniqueness not asked.
pub(super) fn first_outcome(asker: &Asker, first: Result<Vec<i64>, Outcome>) -> Outcome {
    match first {
        Ok(v) => Outcome::Sat {
            grid: asker.model.to_grid(&v),
            unique: None,
        },
        Err(o) => o,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::lower::lower;
    use crate::puzzle::Clue;

    fn load(path: &str) -> Vec<Puzzle> {
        crate::parse::load(Path::new(path), None).expect("a puzzle file of the repository")
    }

    #[test]
    fn a_puzzle_with_the_rules_of_one_met_before_fits_as_its_lowering_would() {
        let sessions = Sessions::new(4);
        let sudokus = load("puzzles/hardest.txt");
        let killer = load("puzzles/killer-9x9.toml").remove(0);
        let mut given = killer.clone();
        given.givens[0][0] = given.givens[0][0].map_or(Some(5), |_| None);
        let mut caged = killer.clone();
        if let Some(c) = caged.get_mut::<crate::elements::cages::Cages>() {
            c.cages[0].clue = Clue::Sum(99);
        }
        let mut lowered_for = Vec::new();
        for (i, p) in sudokus.iter().chain([&killer, &given, &caged]).enumerate() {
            let whole = lower(p);
            let fit = sessions.fit(p, || {
                lowered_for.push(i);
                &whole
            });
            assert!(whole.has_shape(&fit.shape.model), "{}", p.id);
            assert_eq!(fit.givens, whole.givens(), "{}", p.id);
            assert_eq!(
                fit.seen_before,
                i != 0 && i != sudokus.len() && i != sudokus.len() + 2
            );
        }
        // Only the first of each shape is lowered.
        assert_eq!(lowered_for, [0, sudokus.len(), sudokus.len() + 2]);
    }

    #[test]
    fn a_shape_with_a_puzzle_s_givens_checks_as_the_puzzle_s_model() {
        let mut p = load("puzzles/sudoku-4x4.toml").remove(0);
        let solution = p.solution.clone().expect("the file records its solution");
        let values: Vec<i64> = solution
            .iter()
            .flatten()
            .map(|v| v.map_or(0, i64::from))
            .collect();
        let (shape, givens) = lower(&p).split_givens();
        assert!(shape.check_with(&values, &givens).is_ok());
        // The solution still fills every row, column and box, so only the
        // changed given is broken.
        p.givens[0][0] = Some(3);
        let whole = lower(&p).check(&values).expect_err("a given is broken");
        let (shape, givens) = lower(&p).split_givens();
        let split = shape
            .check_with(&values, &givens)
            .expect_err("a given is broken");
        assert_eq!(split.message, whole.message);
        assert_eq!(split.message, "given r1c1 is broken (r1c1=4)");
        assert!(
            shape.check(&values).is_ok(),
            "the shape alone has no givens"
        );
    }
}
