//! Which signals smtgrid handles, and how: every signal that would end
//! the process and that a program may catch stops the command the way
//! Ctrl-C does, so that every solver is killed and every temporary file is
//! removed before smtgrid exits (with status 130). The module knows
//! nothing of solvers or files: it only sets the process's [`Cancel`]
//! flag, and the stages that wait or write look at it.
//!
//! - Handled like Ctrl-C: [`HANDLED`] (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
//!   SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO,
//!   SIGPWR, SIGSTKFLT) and the real-time signals SIGRTMIN..=SIGRTMAX.
//! - Ignored: SIGXFSZ (a file size limit, `ulimit -f`): the write that
//!   crosses the limit then fails with "File too large" and is reported
//!   and cleaned up like any failed write; SIGPIPE (Rust's runtime
//!   already ignores it: a closed pipe is an error of the write).
//! - Not caught, because they cannot be (SIGKILL, SIGSTOP, an OOM kill)
//!   or mean that smtgrid itself is broken (SIGSEGV, SIGBUS, SIGILL,
//!   SIGFPE, SIGTRAP, SIGABRT, SIGSYS): every solver is started with a
//!   parent-death signal, so it is killed when smtgrid dies this way (see
//!   `solver::process`); a temporary script file may then be left behind.
//!
//! Children get the default disposition of every signal back before they
//! start (`solver::process`).

use std::sync::OnceLock;

use crate::cancel::Cancel;

/// The signals that stop the command like Ctrl-C, besides the real-time
/// ones.
pub const HANDLED: &[libc::c_int] = &[
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGIO,
    libc::SIGPWR,
    libc::SIGSTKFLT,
];

/// The signals smtgrid ignores, so that what they report becomes an error
/// of the call that caused it.
pub const IGNORED: &[libc::c_int] = &[libc::SIGXFSZ];

static CANCEL: OnceLock<Cancel> = OnceLock::new();

/// Installs the handlers (once) and returns the process's cancel flag,
/// which every handled signal sets. The caller should let the command's
/// stages return (they kill and reap their solvers and delete their files
/// at once) and then exit with 130 if the flag is set.
pub fn install() -> Cancel {
    CANCEL
        .get_or_init(|| {
            let cancel = Cancel::new();
            for &sig in IGNORED {
                // SAFETY: setting a signal's disposition to SIG_IGN touches
                // no memory of this process.
                unsafe {
                    libc::signal(sig, libc::SIG_IGN);
                }
            }
            let mut signals: Vec<libc::c_int> = HANDLED.to_vec();
            signals.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
            match signal_hook::iterator::Signals::new(&signals) {
                Ok(mut it) => {
                    let c = cancel.clone();
                    std::thread::Builder::new()
                        .name("smtgrid-signals".into())
                        .spawn(move || {
                            for _ in it.forever() {
                                c.cancel();
                            }
                        })
                        .map_err(|e| {
                            crate::output::note(format!("warning: cannot watch for Ctrl-C: {e}"))
                        })
                        .ok();
                }
                // Without the handlers a signal still stops smtgrid; only
                // a solver running at that moment may survive it (until
                // its parent-death signal ends it).
                Err(e) => crate::output::note(format!("warning: cannot catch Ctrl-C: {e}")),
            }
            cancel
        })
        .clone()
}

/// The process's cancel flag, if [`install`] ran: what a blocking write
/// looks at so that a signal still stops it.
pub fn installed() -> Option<&'static Cancel> {
    CANCEL.get()
}
