//! An interactive solver over pipes, used to ask the same solver again
//! (e.g. for a second solution under `--unique`).
//!
//! Replies are framed without parsing SMT-LIB: each [`Session::command`]
//! ends with `(echo "smtgrid-sentinel-N")`, and everything the solver
//! prints before that line is the reply. z3 and yices-smt2 print the
//! string bare, cvc5 and cvc4 with its quotes; both are recognised.

use super::measure::{MemoryLimit, Usage, WATCH_EVERY};
use super::pipe::{Pipe, excerpt};
use super::process::{Tree, group_command, kill_and_reap, spawn};
use super::run::{STDOUT_CAP, read_output, tail_lines};
use super::{Cancel, Solver};
use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long a solver that closed its output gets to exit before it is
/// killed, so that its exit status can be reported.
const EXIT_WAIT: Duration = Duration::from_millis(500);
/// How much of a solver's unfinished reply an error message quotes.
const QUOTE_BYTES: usize = 300;
/// How often a waiting command checks its deadline and its [`Cancel`].
const TICK: Duration = Duration::from_millis(5);

/// Why a session command failed. After any of these but
/// [`SessionError::NoInteractiveMode`] and [`SessionError::Spawn`], the
/// solver is gone and the session answers every later command with
/// [`SessionError::Died`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The solver's profile has no interactive mode (or it is custom).
    #[error("{0} has no interactive mode smtgrid knows how to use")]
    NoInteractiveMode(String),
    /// The solver could not be started.
    #[error("cannot start {solver}: {why}")]
    Spawn {
        /// The solver's display name.
        solver: String,
        /// What the operating system said.
        why: String,
    },
    /// The solver ended (or was ended) before answering.
    #[error(
        "{solver} stopped before answering ({status}) after {:.1} s; its last words:\n{output}{stderr_tail}",
        elapsed.as_secs_f64()
    )]
    Died {
        /// The solver's display name.
        solver: String,
        /// How it ended.
        status: String,
        /// What it printed on stdout since the last complete reply (cvc5
        /// and yices print their error messages there), shortened to a
        /// few hundred bytes.
        output: String,
        /// The last lines of its stderr.
        stderr_tail: String,
        /// Time from the start of the session.
        elapsed: Duration,
    },
    /// The deadline passed; the solver was killed.
    #[error("{solver} did not answer in time ({:.1} s after it started)", elapsed.as_secs_f64())]
    TimedOut {
        /// The solver's display name.
        solver: String,
        /// Time from the start of the session.
        elapsed: Duration,
    },
    /// The solver used more resident memory than the limit; it was
    /// killed.
    #[error("{solver} went over the memory limit of {mb} MiB; killed after {:.1} s", elapsed.as_secs_f64())]
    MemoryLimit {
        /// The solver's display name.
        solver: String,
        /// The limit.
        mb: u64,
        /// Time from the start of the session.
        elapsed: Duration,
    },
    /// The session was cancelled (Ctrl-C); the solver was killed.
    #[error("{solver} was cancelled after {:.1} s", elapsed.as_secs_f64())]
    Cancelled {
        /// The solver's display name.
        solver: String,
        /// Time from the start of the session.
        elapsed: Duration,
    },
}

impl SessionError {
    /// Time from the start of the session to the error, if it started.
    pub fn elapsed(&self) -> Option<Duration> {
        match self {
            SessionError::Died { elapsed, .. }
            | SessionError::TimedOut { elapsed, .. }
            | SessionError::MemoryLimit { elapsed, .. }
            | SessionError::Cancelled { elapsed, .. } => Some(*elapsed),
            SessionError::NoInteractiveMode(_) | SessionError::Spawn { .. } => None,
        }
    }
}

/// A solver running interactively. Dropping it kills the solver's process
/// group and reaps the solver.
pub struct Session {
    name: String,
    /// The solver's path and arguments.
    command: Vec<String>,
    child: Child,
    tree: Tree,
    started: Instant,
    input: Option<Input>,
    /// Stdout; what it holds is the unanswered part of the replies.
    output: Pipe,
    stderr: Pipe,
    next_sentinel: u64,
    /// Bytes sent since the solver's last complete reply.
    unanswered: usize,
    cancel: Cancel,
    /// `--memory-limit`, watched while a command waits.
    memory: Option<MemoryLimit>,
    /// Set once the solver is gone: how it ended.
    ended: Option<String>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("solver", &self.name)
            .field("pid", &self.child.id())
            .finish()
    }
}

impl Session {
    /// Starts `solver` with its profile's interactive arguments (and those
    /// for scripts in `logic`), in a process group of its own; `cancel`
    /// stops any command waiting on it.
    pub fn start(
        solver: &Solver,
        logic: Option<&str>,
        cancel: &Cancel,
    ) -> Result<Session, SessionError> {
        let name = solver.display_name();
        let Some(args) = solver.interactive_args(logic) else {
            return Err(SessionError::NoInteractiveMode(name));
        };
        let command = std::iter::once(solver.path.display().to_string())
            .chain(args.iter().cloned())
            .collect();
        let mut cmd = group_command(&solver.path, &args);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (mut child, tree) = spawn(cmd).map_err(|e| SessionError::Spawn {
            solver: name.clone(),
            why: format!("{}: {e}", solver.path.display()),
        })?;
        let input = child.stdin.take().map(Input::new);
        // The cap bounds the unanswered part only: each reply is taken out
        // as soon as it is complete.
        let (output, stderr) = read_output(&mut child);
        Ok(Session {
            name,
            command,
            child,
            tree,
            started: Instant::now(),
            input,
            output,
            stderr,
            next_sentinel: 1,
            unanswered: 0,
            cancel: cancel.clone(),
            memory: None,
            ended: None,
        })
    }

    /// Makes `cancel` the flag that stops commands from now on, for a
    /// session that serves one job after another.
    pub fn set_cancel(&mut self, cancel: &Cancel) {
        self.cancel = cancel.clone();
    }

    /// Kills the solver when its process group uses more resident memory
    /// than `memory` while a command waits for its reply.
    pub fn set_memory_limit(&mut self, memory: Option<MemoryLimit>) {
        self.memory = memory;
    }

    /// The solver's counters now (CPU time so far, peak memory since it
    /// started; see `measure.rs`), or `None` once it is gone.
    pub fn usage(&self) -> Option<Usage> {
        if self.ended.is_some() {
            return None;
        }
        Usage::of_running(self.pid())
    }

    /// Whether the solver is gone (it ended, or was killed).
    pub fn is_ended(&self) -> bool {
        self.ended.is_some()
    }

    /// The solver's display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The exact command line the solver runs with: its path, then its
    /// arguments.
    pub fn command_line(&self) -> &[String] {
        &self.command
    }

    /// The solver's process id, which is also its process group's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last `n_lines` lines the solver wrote to stderr.
    pub fn stderr_tail(&self, n_lines: usize) -> String {
        tail_lines(&self.stderr.text(), n_lines)
    }

    /// Time since the solver was started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Sends commands without waiting for a reply (e.g. declarations and
    /// assertions, which print nothing unless they fail).
    pub fn send(&mut self, commands: &str) -> Result<(), SessionError> {
        if let Some(status) = self.ended.clone() {
            return Err(self.died(status));
        }
        let mut text = commands.to_string();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let direct = self.unanswered + text.len() <= DIRECT_MAX;
        self.unanswered += text.len();
        let sent = self.input.as_ref().is_some_and(|i| i.send(text, direct));
        if sent {
            Ok(())
        } else {
            let status = self.reap_after_eof();
            Err(self.died(status))
        }
    }

    /// Sends `commands` and returns everything the solver printed in
    /// response, waiting until `deadline`. On the deadline or a cancel the
    /// solver is killed.
    pub fn command(&mut self, commands: &str, deadline: Instant) -> Result<String, SessionError> {
        let n = self.next_sentinel;
        self.next_sentinel += 1;
        let sentinel = format!("smtgrid-sentinel-{n}");
        let mut text = commands.to_string();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("(echo \"{sentinel}\")\n"));
        self.send(&text)?;
        let mut scanned = Scan::default();
        let mut next_watch = Instant::now() + WATCH_EVERY;
        let mut kept = self.output.lock();
        loop {
            if let Some((start, end)) = find_sentinel(&kept.bytes, &mut scanned, &sentinel) {
                let reply = String::from_utf8_lossy(&kept.bytes[..start]).into_owned();
                kept.bytes.drain(..end);
                // The solver read everything before its echo.
                self.unanswered = 0;
                return Ok(reply);
            }
            if kept.dropped > 0 {
                drop(kept);
                self.kill();
                return Err(self.died(format!(
                    "killed after printing more than {} MiB without finishing its reply",
                    STDOUT_CAP >> 20
                )));
            }
            if kept.closed {
                drop(kept);
                let status = self.reap_after_eof();
                return Err(self.died(status));
            }
            if self.cancel.is_cancelled() {
                drop(kept);
                return Err(
                    self.stop("cancelled", |solver, elapsed| SessionError::Cancelled {
                        solver,
                        elapsed,
                    }),
                );
            }
            let now = Instant::now();
            if now >= deadline {
                drop(kept);
                return Err(self.stop("killed after a timeout", |solver, elapsed| {
                    SessionError::TimedOut { solver, elapsed }
                }));
            }
            if let Some(m) = self.memory
                && now >= next_watch
            {
                next_watch = now + WATCH_EVERY;
                if m.exceeded_by_group(self.pid()) {
                    drop(kept);
                    self.kill();
                    self.ended = Some("killed over the memory limit".into());
                    return Err(SessionError::MemoryLimit {
                        solver: self.name.clone(),
                        mb: m.mb,
                        elapsed: self.elapsed(),
                    });
                }
            }
            kept = self.output.wait(kept, (deadline - now).min(TICK));
        }
    }

    /// Kills the solver before it answered, records `ended` as how it
    /// ended, and makes the error for the caller.
    fn stop(&mut self, ended: &str, error: fn(String, Duration) -> SessionError) -> SessionError {
        self.kill();
        self.ended = Some(ended.into());
        error(self.name.clone(), self.elapsed())
    }

    fn died(&mut self, status: String) -> SessionError {
        // The solver is gone: everything unanswered is its last words.
        let output = excerpt(&self.output.take(), QUOTE_BYTES);
        let stderr_tail = self.stderr_tail(10);
        let stderr_tail = if stderr_tail.is_empty() {
            stderr_tail
        } else {
            format!("\nstderr:\n{stderr_tail}")
        };
        SessionError::Died {
            solver: self.name.clone(),
            status,
            output,
            stderr_tail,
            elapsed: self.elapsed(),
        }
    }

    /// The solver closed its output: give it a moment to exit, then make
    /// sure it and its group are gone. Returns how it ended.
    fn reap_after_eof(&mut self) -> String {
        if let Some(s) = &self.ended {
            return s.clone();
        }
        let until = Instant::now() + EXIT_WAIT;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(st)) => break st.to_string(),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => break "closed its output without exiting; killed".to_string(),
            }
        };
        self.kill();
        self.ended = Some(status.clone());
        status
    }

    fn kill(&mut self) {
        self.input = None;
        kill_and_reap(&mut self.child, &self.tree);
        if self.ended.is_none() {
            self.ended = Some("killed".into());
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.input = None;
        // Also reached when the solver exited by itself: this then ends
        // anything it left behind.
        kill_and_reap(&mut self.child, &self.tree);
    }
}

/// While the bytes sent since the solver's last complete reply stay within
/// this, they are written by the caller, with no hand-off to the writer
/// thread: the solver has read everything before that reply, so they fit
/// an empty pipe buffer (at least 4 KiB) and the write cannot block.
const DIRECT_MAX: usize = 4096;

/// The solver's stdin. Longer texts are written on a thread of its own,
/// so that a solver that stops reading cannot block smtgrid past its
/// deadline.
struct Input {
    stdin: Arc<Mutex<ChildStdin>>,
    /// Bytes handed to the thread and not yet written.
    queued: Arc<AtomicUsize>,
    tx: Sender<String>,
}

impl Input {
    fn new(stdin: ChildStdin) -> Input {
        let stdin = Arc::new(Mutex::new(stdin));
        let queued = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = mpsc::channel::<String>();
        let (w, q) = (Arc::clone(&stdin), Arc::clone(&queued));
        thread::spawn(move || {
            for text in rx {
                let ok = write_to(&w, &text);
                q.fetch_sub(text.len(), Ordering::SeqCst);
                if !ok {
                    break;
                }
            }
        });
        Input { stdin, queued, tx }
    }

    /// Writes `text` at once when `direct` allows it and nothing is queued
    /// before it, else queues it; false once the solver's stdin is closed.
    fn send(&self, text: String, direct: bool) -> bool {
        if direct && self.queued.load(Ordering::SeqCst) == 0 {
            return write_to(&self.stdin, &text);
        }
        self.queued.fetch_add(text.len(), Ordering::SeqCst);
        self.tx.send(text).is_ok()
    }
}

fn write_to(stdin: &Mutex<ChildStdin>, text: &str) -> bool {
    let mut s = stdin.lock().unwrap_or_else(|e| e.into_inner());
    s.write_all(text.as_bytes())
        .and_then(|()| s.flush())
        .is_ok()
}

/// How far [`find_sentinel`] has looked.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Scan {
    /// Where the line being read starts.
    line: usize,
    /// How far the search for its end went: each byte is looked at once,
    /// however slowly a long line arrives.
    searched: usize,
}

/// Finds a complete line that is the sentinel, bare or quoted, going on
/// from where `scan` stopped. Returns the line's start and the offset just
/// past its newline.
fn find_sentinel(buf: &[u8], scan: &mut Scan, sentinel: &str) -> Option<(usize, usize)> {
    loop {
        let from = scan.searched.max(scan.line);
        let Some(nl) = buf.get(from..)?.iter().position(|&b| b == b'\n') else {
            scan.searched = buf.len();
            return None;
        };
        let start = scan.line;
        let end = from + nl + 1;
        *scan = Scan {
            line: end,
            searched: end,
        };
        // Only a line of the sentinel's length (and quotes, spaces) can be
        // it; longer ones are not copied.
        if end - start > sentinel.len() + 8 {
            continue;
        }
        let line = String::from_utf8_lossy(&buf[start..end - 1]);
        let line = line.trim();
        let bare = line
            .strip_prefix('"')
            .and_then(|l| l.strip_suffix('"'))
            .unwrap_or(line);
        if bare == sentinel {
            return Some((start, end));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinel_bare_and_quoted() {
        let s = "smtgrid-sentinel-3";
        let mut at = Scan::default();
        let buf = b"sat\n(\n  (define-fun x () Int 3)\n)\nsmtgrid-sentinel-3\n";
        assert_eq!(find_sentinel(buf, &mut at, s), Some((34, buf.len())));
        let mut at = Scan::default();
        let buf = b"unsat\n\"smtgrid-sentinel-3\"\r\nrest";
        assert_eq!(find_sentinel(buf, &mut at, s), Some((6, 28)));
        let mut at = Scan::default();
        assert_eq!(find_sentinel(b"sat\nsmtgrid-sentinel-3", &mut at, s), None);
        assert_eq!(at.line, 4);
        let mut at = Scan::default();
        assert_eq!(find_sentinel(b"smtgrid-sentinel-31\n", &mut at, s), None);
    }

    #[test]
    fn a_long_line_is_searched_once() {
        let s = "smtgrid-sentinel-1";
        let mut buf = vec![b'('; 1000];
        let mut at = Scan::default();
        assert_eq!(find_sentinel(&buf, &mut at, s), None);
        assert_eq!(
            at,
            Scan {
                line: 0,
                searched: 1000
            }
        );
        buf.extend_from_slice(b"\nsmtgrid-sentinel-1\n");
        assert_eq!(find_sentinel(&buf, &mut at, s), Some((1001, buf.len())));
    }
}
