//! A race's next pair started ahead of its turn. On a killer yices2 runs
//! first with a budget of 200 ms of CPU time, alone on one core; Glucose,
//! which takes its place on both cores when the budget is spent, first
//! has to start Python and read and convert the puzzle's script (about
//! 0.2 s of CPU on a 9x9 killer, docs/killers.md). Started when yices2
//! starts, on the core the race leaves idle, it has done that by its
//! turn and only `check-sat` is left to ask.
//!
//! A warm session is owned by its puzzle: the job it was started for
//! takes it; if that job never comes (yices2 answered), or comes as
//! another variant (fewer threads on a busy machine), it is dropped,
//! which stops its writing and kills its process group.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::encode::Encoding;
use crate::solver::{
    Asked, Cancel, Counters, MemoryLimit, Session, SessionError, Solver, Transcripts,
};

/// A session of a race's next pair, started ahead of its job, reading the
/// puzzle's declarations and assertions on a thread of its own.
pub(super) struct Warm {
    /// The racer (index of `Work::racers`) and encoding it was started
    /// for.
    racer: usize,
    encoding: Encoding,
    /// The session's cancel flag until a job takes it: falls when the
    /// warm session is dropped, or with the run's own flag.
    stop: Cancel,
    /// The solver's CPU counters, read while the thread still writes.
    counters: Option<Counters>,
    /// Sends the script; gives back the session and the question whose
    /// answer holds what the solver said to the script (nothing, unless
    /// it refused part of it).
    thread: Option<JoinHandle<(Session, Result<Asked, SessionError>)>>,
}

/// A warm session taken by its job: its script sent, the reply to it
/// still to be read.
pub(super) struct Taken {
    pub session: Session,
    pub body: Asked,
}

/// Where a warm session's conversation goes and what bounds it.
pub(super) struct Setting<'a> {
    pub cancel: &'a Cancel,
    pub transcripts: Option<&'a Transcripts>,
    pub run: &'a str,
    pub memory: Option<MemoryLimit>,
    pub deadline: Instant,
}

impl Warm {
    /// Starts `solver` interactively for scripts in `logic` and sends it
    /// `body` (a script without its questions) on a thread of its own,
    /// within `set.deadline`. `None` if it cannot be started: the job
    /// then starts it itself, as without this, and says why.
    pub fn start(
        solver: &Solver,
        (racer, encoding): (usize, Encoding),
        logic: &str,
        body: String,
        set: Setting,
    ) -> Option<Warm> {
        let stop = set.cancel.child();
        let mut s = Session::start_recorded(solver, Some(logic), &stop, set.transcripts).ok()?;
        s.set_memory_limit(set.memory);
        s.set_run(set.run);
        let counters = Counters::open(s.pid());
        let deadline = set.deadline;
        // A failed spawn drops the closure and with it the session.
        let thread = std::thread::Builder::new()
            .name("smtgrid-warm".into())
            .spawn(move || {
                let asked = s.ask(&body, deadline);
                (s, asked)
            })
            .ok()?;
        Some(Warm {
            racer,
            encoding,
            stop,
            counters,
            thread: Some(thread),
        })
    }

    /// Whether it was started for this racer and encoding.
    pub fn is_for(&self, racer: usize, encoding: Encoding) -> bool {
        (self.racer, self.encoding) == (racer, encoding)
    }

    /// The CPU time the solver has used so far (zero once it is gone).
    pub fn cpu(&mut self) -> Duration {
        let ms = self.counters.as_mut().and_then(Counters::cpu_ms);
        Duration::from_secs_f64(ms.unwrap_or(0.0).max(0.0) / 1000.0)
    }

    /// The session once its script is sent (waiting for that), its
    /// commands stopped from now on by `cancel`; `None` if sending failed
    /// (the session is then killed).
    pub fn take(mut self, cancel: &Cancel) -> Option<Taken> {
        let (mut session, body) = self.thread.take()?.join().ok()?;
        let body = body.ok()?;
        session.set_cancel(cancel);
        Some(Taken { session, body })
    }
}

impl Drop for Warm {
    fn drop(&mut self) {
        // Stops a write still waiting for room in the pipe; the session,
        // given back by the thread, is killed as it is dropped here.
        self.stop.cancel();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::discover;
    use std::time::Duration;

    /// The installed Glucose front end; fails loudly when it is missing.
    fn glucose() -> Solver {
        let found = discover(&[], &[], &Cancel::new());
        let g = found
            .iter()
            .find(|f| f.label == "glucose")
            .expect("a glucose profile");
        g.solver().unwrap_or_else(|| {
            panic!(
                "this test needs smtgrid-glucose ({}): run scripts/install-solvers and put \
                 the folder it prints on PATH",
                g.error.as_deref().unwrap_or("not found")
            )
        })
    }

    fn start(body: String, cancel: &Cancel) -> Warm {
        let set = Setting {
            cancel,
            transcripts: None,
            run: "test",
            memory: None,
            deadline: Instant::now() + Duration::from_secs(30),
        };
        Warm::start(&glucose(), (0, Encoding::Onehot), "QF_UF", body, set).expect("started")
    }

    /// Whether process `pid` is gone (reaped, as Session's drop does).
    fn gone(pid: u32) -> bool {
        // SAFETY: signal 0 only asks whether the process exists.
        unsafe { libc::kill(pid as libc::pid_t, 0) != 0 }
    }

    #[test]
    fn a_session_started_ahead_has_read_its_script_when_taken() {
        let cancel = Cancel::new();
        let body = "(set-logic QF_UF)\n(declare-const a Bool)\n(declare-const b Bool)\n\
                    (assert (or a b))\n(assert (not a))\n(assert (bvadd a))\n";
        let mut warm = start(body.into(), &cancel);
        assert!(warm.is_for(0, Encoding::Onehot) && !warm.is_for(1, Encoding::Onehot));
        let _ = warm.cpu();
        let Taken { mut session, body } = warm.take(&cancel).expect("sent");
        let deadline = Instant::now() + Duration::from_secs(30);
        // What it said to the script: the one command it refused.
        let said = session.answer(body, deadline).expect("an answer");
        assert!(
            said.starts_with("(error") && said.contains("bvadd"),
            "{said}"
        );
        let reply = session
            .command("(check-sat)\n(get-value (b))\n", deadline)
            .expect("a reply");
        assert_eq!(
            reply.split_whitespace().collect::<Vec<_>>(),
            ["sat", "((b", "true))"]
        );
    }

    #[test]
    fn a_session_started_ahead_and_never_taken_is_killed() {
        let cancel = Cancel::new();
        let mut warm = start(
            "(set-logic QF_UF)\n(declare-const a Bool)\n".into(),
            &cancel,
        );
        // Its pid: the thread is done once the short script is sent.
        let (session, asked) = warm
            .thread
            .take()
            .expect("a thread")
            .join()
            .expect("joined");
        let pid = session.pid();
        warm.thread = Some(std::thread::spawn(move || (session, asked)));
        assert!(!gone(pid));
        drop(warm);
        assert!(gone(pid), "the front end {pid} is still running");
    }

    /// A script far larger than a pipe holds, dropped while it is being
    /// written: the write stops at once and the process is killed.
    #[test]
    fn dropping_one_still_reading_stops_its_writing_and_kills_it() {
        let cancel = Cancel::new();
        let body: String = (0..200_000)
            .map(|i| format!("(declare-const v{i} Bool)\n"))
            .collect();
        let began = Instant::now();
        let warm = start(body, &cancel);
        drop(warm);
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "{:?}",
            began.elapsed()
        );
    }
}
