//! Running a solver once on a script file, with a wall-clock limit, and
//! leaving no process and no temporary file behind whatever happens.

use super::{Cancel, Solver};
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// How much of a solver's stdout is kept; the rest is read and dropped so
/// that a flooding solver never blocks on a full pipe.
pub const STDOUT_CAP: usize = 64 << 20;
/// How much of the end of a solver's stderr is kept.
pub const STDERR_CAP: usize = 64 << 10;
/// How long to wait for the pipes to close after the solver has gone. Only
/// a grandchild that left the process group can hold them open that long.
const DRAIN_WAIT: Duration = Duration::from_secs(2);
/// The solver's own time limit is set this much beyond smtgrid's wall
/// clock, so smtgrid's kill decides the outcome and the solver's flag only
/// stops it if smtgrid itself dies.
const OWN_LIMIT_MARGIN: Duration = Duration::from_secs(1);

/// Limits on one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time after which the solver's process group is killed.
    pub timeout: Duration,
}

impl Default for Limits {
    /// The command line's default, `--timeout 60`.
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(60),
        }
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
    /// smtgrid killed it because the run was cancelled (Ctrl-C).
    Cancelled,
    /// It could not be started (or waited for); the text says why.
    SpawnFailed(String),
}

impl fmt::Display for RunEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunEnd::Exited(c) => write!(f, "exited with status {c}"),
            RunEnd::Signaled(s) => write!(f, "killed by signal {s}{}", signal_name(*s)),
            RunEnd::TimedOut => write!(f, "timed out"),
            RunEnd::Cancelled => write!(f, "cancelled"),
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutput {
    /// Standard output (at most [`STDOUT_CAP`] bytes; invalid UTF-8 replaced).
    pub stdout: String,
    /// The last [`STDERR_CAP`] bytes of standard error.
    pub stderr: String,
    /// How the run ended.
    pub end: RunEnd,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
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

/// The last `n` lines of `text`.
pub(crate) fn tail_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs `solver` once on `script`, a script in `logic` (which picks the
/// profile's per-logic arguments; the caller knows it from how it built the
/// script): writes it to a temporary file, passes
/// the file's path as the last argument, and waits at most
/// `limits.timeout`. On timeout or cancel the solver's whole process group
/// is killed. In every outcome the process is reaped, the group is killed
/// (no stray grandchildren) and the temporary file is deleted before this
/// returns.
pub fn run(
    solver: &Solver,
    script: &str,
    logic: Option<&str>,
    limits: &Limits,
    cancel: &Cancel,
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
            };
        }
    };
    let own_limit = limits.timeout + OWN_LIMIT_MARGIN;
    let (program, args) = solver.oneshot_command(file.path(), logic, own_limit);
    let out = exec(&program, &args, limits.timeout, cancel);
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

/// A command in a process group of its own, so that one `killpg` ends the
/// solver and everything it started, and so that the terminal's Ctrl-C
/// reaches only smtgrid, which then kills the groups itself.
pub(crate) fn group_command(program: &Path, args: &[String]) -> Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(program);
    cmd.args(args).process_group(0);
    cmd
}

/// Sends SIGKILL to the process group led by `pid`. Harmless if the group
/// is already empty.
pub(crate) fn kill_group(pid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pid) else {
        return;
    };
    if pgid > 0 {
        // SAFETY: killpg has no memory-safety preconditions; `pgid` is the
        // group smtgrid created for its own child, never 0 or negative.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

/// Kills the child's group and reaps the child.
pub(crate) fn kill_and_reap(child: &mut Child) -> Option<ExitStatus> {
    kill_group(child.id());
    child.wait().ok()
}

/// Which part of a stream to keep.
#[derive(Clone, Copy)]
pub(crate) enum Keep {
    /// The first n bytes.
    Head(usize),
    /// The last n bytes.
    Tail(usize),
}

/// Reads `r` to its end on a thread of its own, keeping part of it, and
/// sends what it kept when the stream closes.
pub(crate) fn drain(mut r: impl Read + Send + 'static, keep: Keep) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => keep_bytes(&mut kept, &buf[..n], keep),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        let _ = tx.send(kept);
    });
    rx
}

pub(crate) fn keep_bytes(kept: &mut Vec<u8>, data: &[u8], keep: Keep) {
    match keep {
        Keep::Head(cap) => {
            let room = cap.saturating_sub(kept.len());
            kept.extend_from_slice(&data[..data.len().min(room)]);
        }
        Keep::Tail(cap) => {
            kept.extend_from_slice(data);
            // Trim only once twice the cap is reached, so trimming costs
            // O(1) per byte read.
            if kept.len() > 2 * cap {
                let cut = kept.len() - cap;
                kept.drain(..cut);
            }
        }
    }
}

fn finish_tail(mut kept: Vec<u8>, cap: usize) -> String {
    if kept.len() > cap {
        let cut = kept.len() - cap;
        kept.drain(..cut);
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// Starts `program args` with stdin closed, waits at most `timeout` and
/// collects its output. Shared by [`run`] and the version probe.
pub(crate) fn exec(
    program: &Path,
    args: &[String],
    timeout: Duration,
    cancel: &Cancel,
) -> RunOutput {
    let start = Instant::now();
    let spawned = group_command(program, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            return RunOutput {
                stdout: String::new(),
                stderr: String::new(),
                end: RunEnd::SpawnFailed(format!("{}: {e}", program.display())),
                elapsed: start.elapsed(),
            };
        }
    };
    let out_rx = child
        .stdout
        .take()
        .map(|s| drain(s, Keep::Head(STDOUT_CAP)));
    let err_rx = child
        .stderr
        .take()
        .map(|s| drain(s, Keep::Tail(STDERR_CAP)));
    let pid = child.id();
    let end = wait_until(child, start + timeout, cancel);
    let elapsed = start.elapsed();
    // Whatever happened, nothing of the group may outlive the run.
    kill_group(pid);
    let stdout = collect(out_rx);
    let stderr = collect(err_rx);
    RunOutput {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: finish_tail(stderr, STDERR_CAP),
        end,
        elapsed,
    }
}

fn collect(rx: Option<Receiver<Vec<u8>>>) -> Vec<u8> {
    rx.and_then(|rx| rx.recv_timeout(DRAIN_WAIT).ok())
        .unwrap_or_default()
}

/// Waits until the child exits, the deadline passes or `cancel` fires; in
/// the last two cases kills its group. Always reaps the child.
///
/// A thread blocks in `wait` so that the exit is seen the moment it
/// happens (polling added milliseconds to every run, as much as a 9×9
/// takes to solve); this thread only wakes to check the deadline and
/// `cancel`.
fn wait_until(child: Child, deadline: Instant, cancel: &Cancel) -> RunEnd {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let mut child = child;
        let _ = tx.send(child.wait());
    });
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
            Ok(Ok(status)) => {
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
                    }
                    if killed.is_some() {
                        kill_group(pid);
                    }
                }
            }
        }
    };
    let _ = waiter.join();
    end
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
    fn tail_keeps_the_end() {
        let mut kept = Vec::new();
        for _ in 0..100 {
            keep_bytes(&mut kept, b"0123456789", Keep::Tail(25));
        }
        assert!(kept.len() <= 50);
        assert_eq!(finish_tail(kept, 25), "5678901234567890123456789");
    }

    #[test]
    fn head_keeps_the_start() {
        let mut kept = Vec::new();
        keep_bytes(&mut kept, b"abcdef", Keep::Head(4));
        keep_bytes(&mut kept, b"ghij", Keep::Head(4));
        assert_eq!(kept, b"abcd");
    }

    #[test]
    fn tail_lines_takes_last_lines() {
        assert_eq!(tail_lines("a\nb\nc\n", 2), "b\nc");
        assert_eq!(tail_lines("a", 5), "a");
        assert_eq!(tail_lines("", 5), "");
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
