//! An interactive solver over pipes, used to ask the same solver again
//! (e.g. for a second solution under `--unique`).
//!
//! Replies are framed without parsing SMT-LIB: each [`Session::command`]
//! ends with `(echo "smtgrid-sentinel-N")`, and everything the solver
//! prints before that line is the reply. z3 and yices-smt2 print the
//! string bare, cvc5 and cvc4 with its quotes; both are recognised.

use super::run::{
    Keep, STDERR_CAP, STDOUT_CAP, group_command, keep_bytes, kill_and_reap, tail_lines,
};
use super::{Cancel, Solver};
use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long a solver that closed its output gets to exit before it is
/// killed, so that its exit status can be reported.
const EXIT_WAIT: Duration = Duration::from_millis(500);

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
    #[error("{solver} stopped before answering ({status}); its last words:\n{output}{stderr_tail}")]
    Died {
        /// The solver's display name.
        solver: String,
        /// How it ended.
        status: String,
        /// What it printed on stdout since the last complete reply (cvc5
        /// and yices print their error messages there).
        output: String,
        /// The last lines of its stderr.
        stderr_tail: String,
    },
    /// The deadline passed; the solver was killed.
    #[error("{solver} did not answer in time")]
    TimedOut {
        /// The solver's display name.
        solver: String,
    },
    /// The session was cancelled (Ctrl-C); the solver was killed.
    #[error("{solver} was cancelled")]
    Cancelled {
        /// The solver's display name.
        solver: String,
    },
}

/// A solver running interactively. Dropping it kills the solver's process
/// group and reaps the solver.
pub struct Session {
    name: String,
    child: Child,
    input: Option<Sender<String>>,
    output: Receiver<Vec<u8>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    pending: Vec<u8>,
    next_sentinel: u64,
    cancel: Cancel,
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
        let args = match (&solver.profile.interactive_args, &solver.custom_args) {
            (Some(a), None) => {
                let mut a = a.clone();
                a.extend(solver.profile.args_for_logic(logic).iter().cloned());
                a
            }
            _ => return Err(SessionError::NoInteractiveMode(name)),
        };
        let mut child = group_command(&solver.path, &args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SessionError::Spawn {
                solver: name.clone(),
                why: format!("{}: {e}", solver.path.display()),
            })?;
        // Writing happens on a thread of its own so that a solver that
        // stops reading cannot block smtgrid past its deadline.
        let input = child.stdin.take().map(|mut stdin| {
            let (tx, rx) = mpsc::channel::<String>();
            thread::spawn(move || {
                for text in rx {
                    if stdin
                        .write_all(text.as_bytes())
                        .and_then(|()| stdin.flush())
                        .is_err()
                    {
                        break;
                    }
                }
            });
            tx
        });
        let output = match child.stdout.take() {
            Some(out) => stream(out),
            None => mpsc::channel().1,
        };
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(err) = child.stderr.take() {
            drain_into(err, Arc::clone(&stderr));
        }
        Ok(Session {
            name,
            child,
            input,
            output,
            stderr,
            pending: Vec::new(),
            next_sentinel: 1,
            cancel: cancel.clone(),
            ended: None,
        })
    }

    /// The solver's display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The solver's process id, which is also its process group's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last `n_lines` lines the solver wrote to stderr.
    pub fn stderr_tail(&self, n_lines: usize) -> String {
        let bytes = self
            .stderr
            .lock()
            .map(|b| b.clone())
            .unwrap_or_else(|e| e.into_inner().clone());
        tail_lines(&String::from_utf8_lossy(&bytes), n_lines)
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
        let sent = self.input.as_ref().is_some_and(|tx| tx.send(text).is_ok());
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
        let mut scanned = 0;
        loop {
            if let Some((start, end)) = find_sentinel(&self.pending, &mut scanned, &sentinel) {
                let reply = String::from_utf8_lossy(&self.pending[..start]).into_owned();
                self.pending.drain(..end);
                return Ok(reply);
            }
            if self.pending.len() > STDOUT_CAP {
                self.kill();
                return Err(self.died(format!(
                    "killed after printing more than {STDOUT_CAP} bytes"
                )));
            }
            if self.cancel.is_cancelled() {
                self.kill();
                self.ended = Some("cancelled".into());
                return Err(SessionError::Cancelled {
                    solver: self.name.clone(),
                });
            }
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                self.ended = Some("killed after a timeout".into());
                return Err(SessionError::TimedOut {
                    solver: self.name.clone(),
                });
            }
            match self
                .output
                .recv_timeout((deadline - now).min(Duration::from_millis(5)))
            {
                Ok(chunk) => self.pending.extend_from_slice(&chunk),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.reap_after_eof();
                    return Err(self.died(status));
                }
            }
        }
    }

    fn died(&mut self, status: String) -> SessionError {
        // Everything still queued belongs to the last words.
        while let Ok(chunk) = self.output.try_recv() {
            self.pending.extend_from_slice(&chunk);
        }
        let output = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
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
        kill_and_reap(&mut self.child);
        if self.ended.is_none() {
            self.ended = Some("killed".into());
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.input = None;
        // Also reached when the solver exited by itself: killing the group
        // then ends anything it left behind.
        kill_and_reap(&mut self.child);
    }
}

/// Reads `r` on a thread of its own until it closes (or `take` returns
/// false), handing each chunk to `take`.
fn read_chunks(
    mut r: impl Read + Send + 'static,
    mut take: impl FnMut(&[u8]) -> bool + Send + 'static,
) {
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if !take(&buf[..n]) {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
    });
}

/// Forwards what `r` prints, chunk by chunk, until it closes.
fn stream(r: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    read_chunks(r, move |chunk| tx.send(chunk.to_vec()).is_ok());
    rx
}

/// Keeps the tail of `r` in `tail` as it arrives, so that it can be shown
/// while the solver still runs.
fn drain_into(r: impl Read + Send + 'static, tail: Arc<Mutex<Vec<u8>>>) {
    read_chunks(r, move |chunk| {
        let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
        keep_bytes(&mut t, chunk, Keep::Tail(STDERR_CAP));
        true
    });
}

/// Finds a complete line that is the sentinel, bare or quoted, starting
/// the search at `*scanned` (advanced past complete lines). Returns the
/// line's start and the offset just past its newline.
fn find_sentinel(buf: &[u8], scanned: &mut usize, sentinel: &str) -> Option<(usize, usize)> {
    while let Some(nl) = buf.get(*scanned..)?.iter().position(|&b| b == b'\n') {
        let start = *scanned;
        let end = start + nl + 1;
        *scanned = end;
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
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinel_bare_and_quoted() {
        let s = "smtgrid-sentinel-3";
        let mut at = 0;
        let buf = b"sat\n(\n  (define-fun x () Int 3)\n)\nsmtgrid-sentinel-3\n";
        assert_eq!(find_sentinel(buf, &mut at, s), Some((34, buf.len())));
        let mut at = 0;
        let buf = b"unsat\n\"smtgrid-sentinel-3\"\r\nrest";
        assert_eq!(find_sentinel(buf, &mut at, s), Some((6, 28)));
        let mut at = 0;
        assert_eq!(find_sentinel(b"sat\nsmtgrid-sentinel-3", &mut at, s), None);
        assert_eq!(at, 4);
        let mut at = 0;
        assert_eq!(find_sentinel(b"smtgrid-sentinel-31\n", &mut at, s), None);
    }
}
