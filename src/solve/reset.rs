//! Sessions that answer one whole script after another, `(reset)` between
//! them: for a caller that solves many unrelated puzzles one at a time,
//! each through its own [`super::solve_all`] (`generate` grading every
//! puzzle it made), so that the solver starts once per worker rather than
//! once per puzzle (z3 takes about 24 ms of CPU time to start, more than
//! most of its answers on a 9×9).
//!
//! After `(reset)` z3 answers a script with the same model and the same
//! search statistics as a process of its own (checked on 153 `onehot`
//! scripts, killers of up to 189,417 conflicts among them, in two orders),
//! so a grade measured in a reused session is the grade of a fresh
//! process. Every answer is verified as in a process run. A session that
//! timed out, failed, or gave anything but a verified `sat` or an `unsat`
//! is not put back: the next script starts a fresh one.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::effort::Totals;
use super::incremental::{first_outcome, keep_idle};
use super::schedule::lock;
use super::{Asker, Outcome, check_and_model};
use crate::encode::Encoded;
use crate::solver::{Session, SessionError, Solver};

/// What a reused session's next script starts with: it clears what the
/// script before it declared, asserted and set.
const RESET: &str = "(reset)\n";

/// Idle sessions kept between the runs that share them ([`super::Plan`]'s
/// `reset_sessions`). Dropping the pool kills every idle session; a
/// session in use is killed by its run if that is cancelled. A script's
/// statistics are read as a new process's, for a solver whose counters
/// start again at `(reset)`, as z3's do.
pub struct ResetSessions {
    idle: Mutex<VecDeque<Session>>,
    /// The most idle sessions kept; the one idle longest goes first.
    keep: usize,
}

impl std::fmt::Debug for ResetSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResetSessions")
            .field("idle", &lock(&self.idle).len())
            .field("keep", &self.keep)
            .finish()
    }
}

impl ResetSessions {
    /// A pool that keeps at most `keep` idle sessions: one per worker
    /// that uses it is enough.
    pub fn new(keep: usize) -> ResetSessions {
        ResetSessions {
            idle: Mutex::new(VecDeque::new()),
            keep: keep.max(1),
        }
    }

    /// How many sessions are idle now.
    pub fn idle(&self) -> usize {
        lock(&self.idle).len()
    }

    /// An idle session that runs `solver` exactly as a new one for a
    /// script in `logic` would (the same path and arguments), if any.
    pub(super) fn take(&self, solver: &Solver, logic: &str) -> Option<Session> {
        let args = solver.interactive_args(Some(logic))?;
        let path = solver.path.display().to_string();
        let same = |s: &Session| {
            s.command_line()
                .split_first()
                .is_some_and(|(p, a)| *p == path && a == args.as_slice())
        };
        let mut idle = lock(&self.idle);
        let i = idle.iter().rposition(same)?;
        idle.remove(i)
    }

    /// Gives `session` back for the next script.
    pub(super) fn put(&self, session: Session) {
        keep_idle(&self.idle, session, self.keep);
    }
}

impl Asker<'_> {
    /// The answer to the whole script of `enc` from a session of `pool`
    /// (one idle there, reset first, or a new one), and how long it took;
    /// `None` when the solver has no interactive mode. A reused session
    /// that ends before it answers (it may have died while idle, or of
    /// what the scripts before left) is replaced by a new one for the same
    /// script, within the same deadline: only a new session's failure is
    /// the script's, as a process's would be.
    pub(super) fn in_reset_session(
        &self,
        enc: &Encoded,
        pool: &ResetSessions,
    ) -> Option<(Outcome, Duration)> {
        self.solver.interactive_args(Some(enc.logic))?;
        let start = Instant::now();
        let (outcome, session) = match self.first_in_pool(enc, pool, &mut Totals::new()) {
            Err(e) => (self.session_failed(&e), None),
            Ok((reply, s, _)) => (first_outcome(self, self.settle(enc, reply)), Some(s)),
        };
        if let Some(s) = session
            && matches!(outcome, Outcome::Sat { .. } | Outcome::Unsat)
            && !s.is_ended()
        {
            pool.put(s);
        }
        Some((outcome, start.elapsed()))
    }

    /// Asks the whole script of `enc` of a session from `pool` (one idle
    /// there, reset first, or a new one), with the session and its usage
    /// before the question (`None` for a new one, which counts from its
    /// start). A reused session that ends before it answers (it may have
    /// died while idle, or of what the scripts before left) is replaced
    /// by a new one for the same script, within the same deadline: only a
    /// new session's failure is the script's, as a process's would be.
    pub(super) fn first_in_pool(
        &self,
        enc: &Encoded,
        pool: &ResetSessions,
        totals: &mut Totals,
    ) -> Result<(super::Reply, Session, Option<crate::solver::Usage>), SessionError> {
        let mut reused = pool.take(self.solver, enc.logic);
        loop {
            let (mut s, before, reset) = match reused.take() {
                Some(mut s) => {
                    s.set_cancel(self.ctx.cancel());
                    s.set_run(&self.run);
                    s.set_memory_limit(self.limits.memory);
                    let before = s.last_usage();
                    (s, before, RESET)
                }
                None => (self.start(enc.logic)?, None, ""),
            };
            let question = format!("{reset}{}", check_and_model(enc.body()));
            match self.ask_script(&mut s, &question, before, totals) {
                Err(SessionError::Died { .. } | SessionError::Protocol { .. })
                    if !reset.is_empty() =>
                {
                    *totals = Totals::new();
                }
                Err(e) => return Err(e),
                Ok(reply) => return Ok((reply, s, before)),
            }
        }
    }
}
