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
//! it started) outlives the run, and no temporary file either; a solver
//! whose smtgrid is killed outright (SIGKILL, an OOM kill) gets SIGKILL
//! from the kernel (its parent-death signal). Because the
//! groups are not the terminal's foreground group, Ctrl-C reaches only
//! smtgrid: the CLI must call [`install_ctrlc_handler`] first and pass its
//! [`Cancel`] to every run and version probe.
//!
//! Output is read by one loop (`pipe.rs`) into bounded buffers: at most
//! [`STDOUT_CAP`] bytes of stdout and [`STDERR_CAP`] of stderr are kept,
//! however much a solver prints and whether or not it ends its lines.

mod discover;
mod measure;
mod pipe;
mod process;
mod profile;
mod run;
mod session;
mod table;
mod transcript;

pub use discover::{
    Found, Solver, SolverRequest, discover, extract_version, parse_solver_cmd,
    parse_solver_override, read_versions, select,
};
pub use measure::{MachineSample, MemoryLimit, MemoryLimitBy, Usage, WATCH_EVERY};
pub(crate) use pipe::excerpt;
#[cfg(test)]
pub(crate) use profile::auto_first_kinds;
pub use profile::{
    AutoPair, Profile, Statistics, Variant, auto_order_for, auto_variants, default_solvers,
    env_var_for, parse_user_profiles, profile, profiles, set_user_profiles, user_file_of,
    user_profiles_file,
};
pub use run::{Limits, RunEnd, RunOutput, STDERR_CAP, STDOUT_CAP, run, run_recorded};
pub use session::{Asked, Session, SessionError};
pub use table::table;
pub use transcript::{TRANSCRIPT_CAP, Transcripts};

pub use crate::cancel::Cancel;

/// Makes Ctrl-C (and every other signal that would end smtgrid and can
/// be caught, see [`crate::signals`]) cancel every run that uses the
/// returned flag, instead of killing smtgrid and leaving its solvers
/// running in their own process groups. Calling it again returns the same
/// flag. The caller should let the runs return (they kill and reap their
/// solvers and delete their files at once) and then exit with 130 if the
/// flag is set.
pub fn install_ctrlc_handler() -> Cancel {
    crate::signals::install()
}
