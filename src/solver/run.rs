//! Running a solver once on a script file, with a wall-clock limit, and
//! leaving no process and no temporary file behind whatever happens.

use super::measure::{MemoryLimit, Usage, WATCH_EVERY};
use super::pipe::{Keep, Pipe, into_text};
use super::process::{Tree, group_command, kill_group, spawn, wait_usage};
use super::transcript::Transcripts;
use super::{Cancel, Solver};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// How much of a solver's stdout smtgrid takes; a solver that prints more
/// is killed ([`RunEnd::OutputLimit`]), and a session's reply may not be
/// longer. The largest legitimate reply is a model of a 64×64 sudoku in
/// the onehot encoding without propagation (1.29 million Bool constants
/// with the counters' auxiliary ones): yices-smt2 printed 23 MB for it
/// (97 s), and z3, which prints about 40 bytes a constant (3.0 MB for the
/// 75 625 of a 25×25), about 52 MB. 64 MiB leaves room for that, no more:
/// what smtgrid keeps in memory for a reply is this text plus the model
/// read from it.
pub const STDOUT_CAP: usize = 64 << 20;
/// How much of the end of a solver's stderr is kept.
pub const STDERR_CAP: usize = 64 << 10;
/// How long to wait for the pipes to close after the solver and all it
/// started are gone. Only a process that got hold of the pipes some other
/// way (it would have to be given them over a socket) can keep them open.
const DRAIN_WAIT: Duration = Duration::from_secs(2);
/// The solver's own time limit is set this much beyond smtgrid's wall
/// clock, so smtgrid's kill decides the outcome and the solver's flag only
/// stops it if smtgrid itself dies.
const OWN_LIMIT_MARGIN: Duration = Duration::from_secs(1);

/// Starts reading the child's stdout (its first [`STDOUT_CAP`] bytes not
/// yet taken) and stderr (its last [`STDERR_CAP`] bytes), each on a thread
/// of its own; a stream the child does not have reads as closed and empty.
pub(super) fn read_output(child: &mut Child) -> (Pipe, Pipe) {
    let stdout = child.stdout.take().map_or_else(
        || Pipe::closed(Keep::Head(STDOUT_CAP)),
        |s| Pipe::read(s, Keep::Head(STDOUT_CAP)),
    );
    let stderr = child.stderr.take().map_or_else(
        || Pipe::closed(Keep::Tail(STDERR_CAP)),
        |s| Pipe::read(s, Keep::Tail(STDERR_CAP)),
    );
    (stdout, stderr)
}

/// Limits on one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time after which the solver's process group is killed.
    pub timeout: Duration,
    /// Resident memory past which the solver's process group is killed
    /// (`--memory-limit`), if any.
    pub memory: Option<MemoryLimit>,
}

impl Limits {
    /// A wall-clock limit and no memory limit.
    pub fn timeout(timeout: Duration) -> Limits {
        Limits {
            timeout,
            memory: None,
        }
    }
}

impl Default for Limits {
    /// The command line's default, `--timeout 60`.
    fn default() -> Self {
        Limits::timeout(Duration::from_secs(60))
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// The solver exited by itself with this status.
    Exited(i32),
    /// The solver was killed by this signal, not by smtgrid (a crash).
    Signaled(i32),
    /// smtgrid killed it when the wall-clock limit passed.
    TimedOut,
    /// smtgrid killed it when its processes used more resident memory
    /// than the limit.
    MemoryLimit,
    /// smtgrid killed it because the run was cancelled (Ctrl-C).
    Cancelled,
    /// smtgrid killed it because it printed more than [`STDOUT_CAP`]
    /// bytes on stdout; the first [`STDOUT_CAP`] bytes are kept.
    OutputLimit,
    /// It could not be started (or waited for); the text says why.
    SpawnFailed(String),
}

impl fmt::Display for RunEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunEnd::Exited(c) => write!(f, "exited with status {c}"),
            RunEnd::Signaled(s) => write!(f, "killed by signal {s}{}", signal_name(*s)),
            RunEnd::TimedOut => write!(f, "timed out"),
            RunEnd::MemoryLimit => write!(f, "was killed over the memory limit"),
            RunEnd::Cancelled => write!(f, "cancelled"),
            RunEnd::OutputLimit => write!(
                f,
                "was killed after printing more than {} MiB",
                STDOUT_CAP >> 20
            ),
            RunEnd::SpawnFailed(why) => write!(f, "could not run: {why}"),
        }
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        _ => "",
    }
}

/// What a run printed and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutput {
    /// Standard output: everything the solver printed there before it
    /// ended, at most [`STDOUT_CAP`] bytes; invalid UTF-8 replaced.
    pub stdout: String,
    /// The last [`STDERR_CAP`] bytes of standard error.
    pub stderr: String,
    /// How the run ended.
    pub end: RunEnd,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
    /// CPU time and peak memory of the solver and everything it started.
    pub usage: Usage,
    /// The exact command line that ran: the solver's path, then its
    /// arguments (smtgrid's added flags and the script's path included).
    pub command: Vec<String>,
}

impl RunOutput {
    /// The last `n_lines` lines of stderr, for error messages.
    pub fn stderr_tail(&self, n_lines: usize) -> String {
        tail_lines(&self.stderr, n_lines)
    }

    /// Whether the solver exited by itself with a status its profile calls
    /// normal (e.g. boolector's 10 and 20).
    pub fn exit_ok(&self, solver: &Solver) -> bool {
        matches!(self.end, RunEnd::Exited(c) if solver.profile.ok_exit_codes.contains(&c))
    }
}

/// The last `n` lines of `text` (a solver's stderr), each with its control
/// characters escaped: these lines go into messages for the terminal.
pub(crate) fn tail_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    crate::error::escape_controls_by_line(&lines[lines.len().saturating_sub(n)..].join("\n"))
}

/// Runs `solver` once on `script`, a script in `logic` (which picks the
/// profile's per-logic arguments; the caller knows it from how it built the
/// script): writes it to a temporary file, passes
/// the file's path as the last argument, and waits at most
/// `limits.timeout`. On timeout, cancel or too much output the solver is
/// killed. In every outcome the solver is reaped, everything it started is
/// killed and reaped (see `process.rs`) and the temporary file is
/// deleted before this returns. What the solver printed before it exited
/// counts even if a descendant still held its stdout open.
pub fn run(
    solver: &Solver,
    script: &str,
    logic: Option<&str>,
    limits: &Limits,
    cancel: &Cancel,
) -> RunOutput {
    run_recorded(solver, script, logic, limits, cancel, None)
}

/// [`run`], writing the script (as sent) and the solver's stdout (as
/// received) into a transcript in `record.0` for the run named `record.1`.
pub fn run_recorded(
    solver: &Solver,
    script: &str,
    logic: Option<&str>,
    limits: &Limits,
    cancel: &Cancel,
    record: Option<(&Transcripts, &str)>,
) -> RunOutput {
    let file = match write_temp(script) {
        Ok(f) => f,
        Err(e) => {
            return RunOutput {
                stdout: String::new(),
                stderr: String::new(),
                end: RunEnd::SpawnFailed(format!(
                    "cannot write the script to a temporary file: {e}"
                )),
                elapsed: Duration::ZERO,
                usage: Usage::default(),
                command: Vec::new(),
            };
        }
    };
    let own_limit = limits.timeout + OWN_LIMIT_MARGIN;
    let (program, args) = solver.oneshot_command(file.path(), logic, own_limit);
    let record = record.map(|(to, run)| Recording {
        to,
        solver: solver.display_name(),
        run,
        sent: script,
    });
    let out = exec(&program, &args, limits, cancel, record);
    // Deleted only now that the solver and its whole group are gone.
    drop(file);
    out
}

fn write_temp(script: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let mut file = tempfile::Builder::new()
        .prefix("smtgrid-")
        .suffix(".smt2")
        .tempfile()?;
    file.write_all(script.as_bytes())?;
    file.flush()?;
    Ok(file)
}

/// What a run's transcript records.
pub(crate) struct Recording<'a> {
    to: &'a Transcripts,
    solver: String,
    run: &'a str,
    sent: &'a str,
}

/// Starts `program args` with stdin closed, waits at most
/// `limits.timeout` (killing it over `limits.memory`) and collects its
/// output. Shared by [`run`] and the version probe.
pub(crate) fn exec(
    program: &Path,
    args: &[String],
    limits: &Limits,
    cancel: &Cancel,
    record: Option<Recording<'_>>,
) -> RunOutput {
    let start = Instant::now();
    let command: Vec<String> = std::iter::once(program.display().to_string())
        .chain(args.iter().cloned())
        .collect();
    let mut cmd = group_command(program, args);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (mut child, tree) = match spawn(cmd) {
        Ok(c) => c,
        Err(e) => {
            return RunOutput {
                stdout: String::new(),
                stderr: String::new(),
                end: RunEnd::SpawnFailed(format!("{}: {e}", program.display())),
                elapsed: start.elapsed(),
                usage: Usage::default(),
                command,
            };
        }
    };
    let mut transcript = record.as_ref().map(|r| {
        let mut t = r.to.open(&r.solver, child.id(), program, args);
        t.sent(r.run, r.sent);
        t
    });
    let (out, err) = read_output(&mut child);
    let (end, usage) = wait_until(
        child,
        &tree,
        start + limits.timeout,
        limits.memory,
        cancel,
        &out,
    );
    let elapsed = start.elapsed();
    // Whatever happened, nothing the solver started may outlive the run;
    // once it is all gone, nothing holds the pipes open any more, so what
    // the solver printed before it exited is complete.
    let usage = usage.and(tree.kill_all());
    // One of its processes alone was over the limit at its peak, between
    // two readings of the watcher: the run was over its limit.
    let end = match (end, limits.memory) {
        (RunEnd::Cancelled, _) => RunEnd::Cancelled,
        (_, Some(m)) if m.exceeded_at(usage.max_rss_kb) => RunEnd::MemoryLimit,
        (end, _) => end,
    };
    out.wait_closed(Instant::now() + DRAIN_WAIT);
    err.wait_closed(Instant::now() + DRAIN_WAIT);
    let stdout = into_text(out.take(), STDOUT_CAP);
    if let (Some(t), Some(r)) = (&mut transcript, &record) {
        t.received(r.run, &stdout);
        t.ended(&end.to_string());
    }
    RunOutput {
        stdout,
        stderr: err.text(),
        end,
        elapsed,
        usage,
        command,
    }
}

/// Waits until the child exits, the deadline passes, it and its
/// descendants go over `memory`, `cancel` fires or `out` overflows; in all but the first case
/// kills its group. Always reaps the child, and returns what the kernel
/// accounted for it.
///
/// A thread blocks in `wait` so that the exit is seen the moment it
/// happens (polling added milliseconds to every run, as much as a 9×9
/// takes to solve); this thread only wakes to check the deadline and
/// `cancel`.
fn wait_until(
    child: Child,
    tree: &Tree,
    deadline: Instant,
    memory: Option<MemoryLimit>,
    cancel: &Cancel,
    out: &Pipe,
) -> (RunEnd, Usage) {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    // `wait4` rather than `Child::wait`, for the kernel's accounting; the
    // `Child` is only dropped, which neither waits nor kills.
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(wait_usage(pid));
        drop(child);
    });
    let mut usage = Usage::default();
    let mut next_watch = Instant::now() + WATCH_EVERY;
    // How often the deadline and `cancel` are checked while the solver
    // runs: often enough that the losers of an `auto` race stop at once.
    const TICK: Duration = Duration::from_millis(2);
    let mut killed: Option<RunEnd> = None;
    let end = loop {
        let wait = match killed {
            // After the kill the exit comes at once.
            Some(_) => TICK,
            None => TICK.min(deadline.saturating_duration_since(Instant::now())),
        };
        match rx.recv_timeout(wait) {
            Ok(Ok((status, u))) => {
                usage = u;
                break killed.unwrap_or(match (status.code(), status.signal()) {
                    (Some(c), _) => RunEnd::Exited(c),
                    (None, Some(s)) => RunEnd::Signaled(s),
                    (None, None) => RunEnd::SpawnFailed(format!("unexpected wait status {status}")),
                });
            }
            Ok(Err(e)) => {
                kill_group(pid);
                break RunEnd::SpawnFailed(format!("waiting for the solver failed: {e}"));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                kill_group(pid);
                break killed
                    .unwrap_or_else(|| RunEnd::SpawnFailed("the waiting thread died".into()));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if killed.is_none() {
                    if cancel.is_cancelled() {
                        killed = Some(RunEnd::Cancelled);
                    } else if Instant::now() >= deadline {
                        killed = Some(RunEnd::TimedOut);
                    } else if out.overflowed() {
                        killed = Some(RunEnd::OutputLimit);
                    } else if let Some(m) = memory
                        && Instant::now() >= next_watch
                    {
                        next_watch = Instant::now() + WATCH_EVERY;
                        if m.exceeded_by(tree) {
                            killed = Some(RunEnd::MemoryLimit);
                        }
                    }
                    if killed.is_some() {
                        kill_group(pid);
                    }
                }
            }
        }
    };
    let _ = waiter.join();
    (end, usage)
}

/// Where a program named on the command line lives: a name with a `/` is
/// taken as a path, any other name is looked up on PATH.
pub(crate) fn resolve_program(program: &str) -> Result<PathBuf, String> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        check_executable(&p)?;
        Ok(p)
    } else {
        which::which(program).map_err(|_| format!("`{program}` is not on PATH"))
    }
}

/// Whether `path` is an executable file, with the reason if not.
pub(crate) fn check_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(path) {
        Err(e) => Err(format!("{}: {e}", path.display())),
        Ok(m) if !m.is_file() => Err(format!("{}: not a file", path.display())),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => {
            Err(format!("{}: not executable (chmod +x it)", path.display()))
        }
        Ok(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_lines_takes_last_lines() {
        assert_eq!(tail_lines("a\nb\nc\n", 2), "b\nc");
        assert_eq!(tail_lines("a", 5), "a");
        assert_eq!(tail_lines("", 5), "");
        assert_eq!(tail_lines("x\n\x1b]0;t\x07\n", 1), "\\u{1b}]0;t\\u{7}");
    }
}

#[cfg(test)]
mod logic_tests {
    #[test]
    fn cvc5_and_cvc4_skip_the_symmetry_breaker_on_qf_uf() {
        for name in ["cvc5", "cvc4"] {
            let p = crate::solver::profile(name).expect("in the table");
            assert_eq!(p.args_for_logic(Some("QF_UF")), ["--no-symmetry-breaker"]);
            assert!(p.args_for_logic(Some("QF_LIA")).is_empty());
            let nia = p.args_for_logic(Some("QF_NIA"));
            assert_eq!(nia.is_empty(), name == "cvc4", "{name}: {nia:?}");
            assert!(p.args_for_logic(None).is_empty());
        }
    }
}
