//! Finding and running external SMT solvers. This is the only module that
//! starts processes; it knows SMT-LIB only as text.
//!
//! - [`profiles`]: the table of known solvers, kept as data in
//!   `profiles.toml` (flags, time-limit flag, version flag, logics, quirks).
//! - [`discover`] / [`select`] / [`SolverRequest`]: which solvers are
//!   installed (PATH, `SMTGRID_<NAME>`, `--solver NAME=PATH`,
//!   `--solver-cmd`) and which ones a command asked for. A tagged label
//!   such as `--solver z3@debian=/usr/bin/z3` runs a second version of a
//!   solver side by side with the first.
//! - [`run`]: one run on a script file with a wall-clock limit.
//! - [`Session`]: an interactive solver over pipes, for asking again
//!   (`--unique`).
//!
//! Every solver runs in a process group of its own, which smtgrid kills as
//! a whole on timeout, on Ctrl-C and at the end of every run; smtgrid is
//! the *child subreaper* of everything its solvers start and marks each
//! run's processes, so a descendant that left the group with `setsid` is
//! found and killed too (see `process.rs`). No solver process (nor anything
//! it started) outlives the run, and no temporary file either. Because the
//! groups are not the terminal's foreground group, Ctrl-C reaches only
//! smtgrid: the CLI must call [`install_ctrlc_handler`] first and pass its
//! [`Cancel`] to every run and version probe.
//!
//! Output is read by one loop (`pipe.rs`) into bounded buffers: at most
//! [`STDOUT_CAP`] bytes of stdout and [`STDERR_CAP`] of stderr are kept,
//! however much a solver prints and whether or not it ends its lines.

mod discover;
mod pipe;
mod process;
mod profile;
mod run;
mod session;

pub use discover::{
    Found, Solver, SolverRequest, discover, extract_version, parse_solver_cmd,
    parse_solver_override, read_versions, select,
};
pub use profile::{AutoPair, Profile, auto_order, default_solvers, env_var_for, profile, profiles};
pub use run::{Limits, RunEnd, RunOutput, STDERR_CAP, STDOUT_CAP, run};
pub use session::{Session, SessionError};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::Duration;

/// A cancellation flag shared by every run of one command. Cancelling it
/// wakes every run waiting on its solver, which then kills the solver's
/// process group. [`Cancel::child`] makes a flag that also falls when its
/// parent does (Ctrl-C), but can be cancelled on its own (e.g. to stop the
/// losers of a race).
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    inner: Arc<CancelInner>,
}

#[derive(Debug, Default)]
struct CancelInner {
    flag: AtomicBool,
    /// The children to cancel with this flag; also the mutex the condition
    /// variable waits on.
    children: Mutex<Vec<Weak<CancelInner>>>,
    wake: Condvar,
}

impl CancelInner {
    fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        // Taking the lock orders the store before any waiter's check, so
        // no waiter sleeps through the notification.
        let children = {
            let mut guard = self.children.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_all();
            std::mem::take(&mut *guard)
        };
        for c in children.iter().filter_map(Weak::upgrade) {
            c.cancel();
        }
    }
}

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A new flag that is set when this one is (now or later), and that
    /// can be set on its own without setting this one.
    pub fn child(&self) -> Cancel {
        let child = Cancel::new();
        let already = {
            let mut guard = self
                .inner
                .children
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            guard.retain(|w| w.strong_count() > 0);
            guard.push(Arc::downgrade(&child.inner));
            // Read under the lock: a concurrent cancel either sees the
            // child in the list or has already set the flag.
            self.is_cancelled()
        };
        if already {
            child.cancel();
        }
        child
    }

    /// Sets the flag (and its children's) and wakes every waiter.
    pub fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.inner.flag.load(Ordering::SeqCst)
    }

    /// Sleeps for at most `d`, returning early if the flag is set.
    /// Returns whether it is set.
    pub fn wait(&self, d: Duration) -> bool {
        let guard = self
            .inner
            .children
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if self.is_cancelled() {
            return true;
        }
        let _ = self.inner.wake.wait_timeout(guard, d);
        self.is_cancelled()
    }
}

/// Makes Ctrl-C (and SIGTERM, SIGHUP) cancel every run that uses the
/// returned flag, instead of killing smtgrid and leaving its solvers
/// running in their own process groups. Calling it again returns the same
/// flag. The caller should let the runs return (they kill and reap their
/// solvers and delete their files at once) and then exit with 130 if the
/// flag is set.
pub fn install_ctrlc_handler() -> Cancel {
    static CANCEL: OnceLock<Cancel> = OnceLock::new();
    CANCEL
        .get_or_init(|| {
            let cancel = Cancel::new();
            let c = cancel.clone();
            if let Err(e) = ctrlc::set_handler(move || c.cancel()) {
                // Without the handler Ctrl-C still stops smtgrid; only a
                // solver that is running at that moment may survive.
                eprintln!("smtgrid: warning: cannot catch Ctrl-C: {e}");
            }
            cancel
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn cancel_wakes_a_waiter() {
        let c = Cancel::new();
        assert!(!c.wait(Duration::from_millis(1)));
        let c2 = c.clone();
        let t = std::thread::spawn(move || {
            let start = Instant::now();
            let set = c2.wait(Duration::from_secs(10));
            (set, start.elapsed())
        });
        std::thread::sleep(Duration::from_millis(50));
        c.cancel();
        let (set, took) = t.join().expect("waiter");
        assert!(set);
        assert!(took < Duration::from_secs(5), "{took:?}");
        assert!(c.is_cancelled());
    }

    #[test]
    fn children_fall_with_their_parent_only() {
        let parent = Cancel::new();
        let a = parent.child();
        let b = parent.child();
        let grandchild = a.child();
        a.cancel();
        assert!(a.is_cancelled() && grandchild.is_cancelled());
        assert!(!parent.is_cancelled() && !b.is_cancelled());
        let waiter = {
            let b = b.clone();
            std::thread::spawn(move || b.wait(Duration::from_secs(10)))
        };
        std::thread::sleep(Duration::from_millis(50));
        parent.cancel();
        assert!(waiter.join().expect("waiter"));
        assert!(b.is_cancelled());
        assert!(
            parent.child().is_cancelled(),
            "a child of a cancelled flag starts cancelled"
        );
    }
}
