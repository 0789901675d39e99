//! An interactive solver over pipes, used to ask the same solver again
//! (e.g. for a second solution under `--unique`).
//!
//! Replies are framed without parsing SMT-LIB: each [`Session::command`]
//! ends with `(echo "smtgrid-sentinel-N")`, and everything the solver
//! prints before that line is the reply. z3 and yices-smt2 print the
//! string bare, cvc5 and cvc4 with its quotes; both are recognised.

use super::measure::{Counters, MemoryLimit, Usage, WATCH_EVERY};
use super::pipe::{Keep, Kept, Pipe, Polled, excerpt, into_text};
use super::process::{Tree, group_command, kill_and_reap, spawn};
use super::run::{STDOUT_CAP, read_output, tail_lines};
use super::transcript::{Transcript, Transcripts};
use super::{Cancel, Solver};
use crate::output::{set_nonblocking, wait_writable};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long a solver that closed its output gets to exit before it is
/// killed, so that its exit status can be reported.
const EXIT_WAIT: Duration = Duration::from_millis(500);
/// How much of a solver's unfinished reply an error message quotes.
const QUOTE_BYTES: usize = 300;
/// How often a waiting command checks its deadline and its [`Cancel`].
const TICK: Duration = Duration::from_millis(5);

/// The first wait for a reply while later questions are queued behind it
/// (see [`Session::answer`]): about the time yices2 takes for a 17-clue
/// sudoku.
const FIRST_NAP: Duration = Duration::from_micros(100);

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
        "{solver} stopped before answering ({status}) after {:.1} s; {}",
        elapsed.as_secs_f64(),
        last_words(output, stderr_tail)
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
    /// The solver broke the session's protocol: it printed the end of a
    /// reply before the question was sent (it answers without reading, or
    /// is not an SMT-LIB solver in interactive mode). It was killed.
    #[error("{solver} broke the session protocol after {:.1} s: {what}", elapsed.as_secs_f64())]
    Protocol {
        /// The solver's display name.
        solver: String,
        /// What it did.
        what: String,
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

/// What a solver that died printed last, or that it printed nothing.
fn last_words(output: &str, stderr_tail: &str) -> String {
    if output.trim().is_empty() && stderr_tail.trim().is_empty() {
        "it printed nothing".into()
    } else {
        format!("its last words:\n{output}{stderr_tail}")
    }
}

impl SessionError {
    /// Time from the start of the session to the error, if it started.
    pub fn elapsed(&self) -> Option<Duration> {
        match self {
            SessionError::Died { elapsed, .. }
            | SessionError::TimedOut { elapsed, .. }
            | SessionError::Protocol { elapsed, .. }
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
    /// The solver's stdin, non-blocking: every write waits for room with
    /// the command's deadline and the cancel flag in view.
    input: Option<ChildStdin>,
    /// Stdout; what it holds is the unanswered part of the replies.
    output: Polled,
    stderr: Pipe,
    next_sentinel: u64,
    /// Questions asked and not yet answered.
    unanswered: usize,
    cancel: Cancel,
    /// `--memory-limit`, watched while a command waits.
    memory: Option<MemoryLimit>,
    /// Set once the solver is gone: how it ended.
    ended: Option<String>,
    /// The solver's CPU and memory counters, and their last reading.
    counters: Option<Counters>,
    last_usage: Option<Usage>,
    /// With [`Session::set_cpu_budget`]: the CPU time the solver may use
    /// before its commands' deadlines hold, and when they hold anyway.
    cpu_budget: Option<(Duration, Instant)>,
    /// With `--transcript`: the conversation's file.
    transcript: Option<Transcript>,
    /// The run the current command belongs to, for the transcript.
    run: String,
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
        Session::start_recorded(solver, logic, cancel, None)
    }

    /// [`Session::start`], writing the conversation into a transcript in
    /// `transcripts` if given.
    pub fn start_recorded(
        solver: &Solver,
        logic: Option<&str>,
        cancel: &Cancel,
        transcripts: Option<&Transcripts>,
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
        let input = child.stdin.take();
        if let Some(fd) = &input {
            set_nonblocking(fd.as_raw_fd());
        }
        // The cap bounds the unanswered part only: each reply is taken out
        // as soon as it is complete.
        // Replies are read by the thread that waits for them; stderr,
        // which nobody waits for, on a thread of its own.
        let output = Polled::new(child.stdout.take(), Keep::Head(STDOUT_CAP));
        let (_, stderr) = read_output(&mut child);
        let child_pid = child.id();
        let transcript = transcripts.map(|t| t.open(&name, child_pid, &solver.path, &args));
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
            counters: Counters::open(child_pid),
            last_usage: None,
            cpu_budget: None,
            transcript,
            run: String::new(),
        })
    }

    /// Makes `cancel` the flag that stops commands from now on, for a
    /// session that serves one job after another.
    pub fn set_cancel(&mut self, cancel: &Cancel) {
        self.cancel = cancel.clone();
    }

    /// Names the run that the following commands belong to, for the
    /// transcript.
    pub fn set_run(&mut self, run: &str) {
        self.run = run.to_string();
    }

    /// Kills the solver when its process group uses more resident memory
    /// than `memory` while a command waits for its reply.
    pub fn set_memory_limit(&mut self, memory: Option<MemoryLimit>) {
        self.memory = memory;
    }

    /// Gives the solver `cpu` of CPU time, counted from its start: a
    /// command whose deadline passes before the solver has used it waits
    /// on for the rest, but never past `until`. On a busy machine a
    /// deadline in wall-clock time would cut a solver short for the time
    /// other processes held its core; this cuts it for what it did.
    pub fn set_cpu_budget(&mut self, cpu: Duration, until: Instant) {
        self.cpu_budget = Some((cpu, until));
    }

    /// The solver's counters now (CPU time so far, peak memory since it
    /// started; see `measure.rs`), or `None` once it is gone.
    pub fn usage(&mut self) -> Option<Usage> {
        if self.ended.is_some() {
            return None;
        }
        self.last_usage = self.counters.as_mut()?.read();
        self.last_usage
    }

    /// [`Session::usage`] with only the CPU time read anew; the peak
    /// memory is the one read last.
    pub fn cpu_usage(&mut self) -> Option<Usage> {
        if self.ended.is_some() {
            return None;
        }
        let cpu_ms = self.counters.as_mut()?.cpu_ms()?;
        let usage = Usage {
            cpu_ms,
            max_rss_kb: self.last_usage.map_or(0, |u| u.max_rss_kb),
        };
        self.last_usage = Some(usage);
        self.last_usage
    }

    /// The counters as [`Session::usage`] last read them. A session waits
    /// for its next question after each reply, so for a pooled session
    /// this is where its next question's figures start, with no reading
    /// of its own.
    pub fn last_usage(&self) -> Option<Usage> {
        self.last_usage
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
    /// assertions, which print nothing unless they fail), waiting for room
    /// in the pipe until `deadline` at most.
    pub fn send(&mut self, commands: &str, deadline: Instant) -> Result<(), SessionError> {
        let text = with_newline(commands);
        self.write(text.as_bytes(), deadline, None)?;
        self.record(|t, run| t.sent(run, &text));
        Ok(())
    }

    /// Adds to the transcript, if there is one.
    fn record(&mut self, event: impl FnOnce(&mut Transcript, &str)) {
        if let Some(t) = &mut self.transcript {
            event(t, &self.run);
        }
    }

    /// Sends `commands` and returns everything the solver printed in
    /// response, waiting until `deadline`. On the deadline or a cancel the
    /// solver is killed.
    pub fn command(&mut self, commands: &str, deadline: Instant) -> Result<String, SessionError> {
        let asked = self.ask(commands, deadline)?;
        self.answer(asked, deadline)
    }

    /// Sends `commands` without waiting for their reply, which
    /// [`Session::answer`] reads. Writing waits for room in the pipe until
    /// `deadline` at most.
    pub fn ask(&mut self, commands: &str, deadline: Instant) -> Result<Asked, SessionError> {
        let mut asked = self.ask_all(&[commands], deadline)?;
        asked.pop().ok_or_else(|| unreachable!())
    }

    /// Sends several questions in one write, without waiting for their
    /// replies, which [`Session::answer`] reads in the order asked (more
    /// may be asked before they are all answered). One write wakes the
    /// solver once for all of them.
    pub fn ask_all(
        &mut self,
        questions: &[&str],
        deadline: Instant,
    ) -> Result<Vec<Asked>, SessionError> {
        let mut text = String::new();
        let mut asked = Vec::with_capacity(questions.len());
        for q in questions {
            let sentinel = format!("smtgrid-sentinel-{}", self.next_sentinel);
            self.next_sentinel += 1;
            text.push_str(&with_newline(q));
            text.push_str(&format!("(echo \"{sentinel}\")\n"));
            asked.push(Asked {
                sentinel,
                scanned: Scan::default(),
            });
        }
        // Only the last reply can never come before the whole text is
        // written: the solver may answer the first questions meanwhile.
        if let Some(last) = asked.last_mut() {
            self.write(
                text.as_bytes(),
                deadline,
                Some((&last.sentinel, &mut last.scanned)),
            )?;
        }
        // Recorded once wholly written: the questions are in the solver's
        // pipe before anything is read as their answers.
        self.record(|t, run| t.sent(run, &text));
        // How far the search went is kept only for the oldest question:
        // the replies before a later one's are taken out of the buffer
        // before it is answered, and its search starts again.
        if self.unanswered > 0 || asked.len() > 1 {
            for a in &mut asked {
                a.scanned = Scan::default();
            }
        }
        self.unanswered += asked.len();
        Ok(asked)
    }

    /// Reads the reply to `asked`, the oldest question not yet answered,
    /// waiting until `deadline`. On the deadline or a cancel the solver is
    /// killed.
    pub fn answer(&mut self, asked: Asked, mut deadline: Instant) -> Result<String, SessionError> {
        let Asked {
            sentinel,
            mut scanned,
        } = asked;
        let mut next_watch = Instant::now() + WATCH_EVERY;
        let mut nap = FIRST_NAP;
        // What was read while writing, or while answering the questions
        // before this one, may hold the reply already: searched before
        // any wait. With nothing read, the reply can only follow, so the
        // first step is a wait.
        let mut kept = if self.output.kept().bytes.is_empty() {
            let wait = deadline.saturating_duration_since(Instant::now()).min(TICK);
            self.output.wait(wait)
        } else {
            self.output.kept()
        };
        loop {
            if let Some((start, end)) = find_sentinel(&kept.bytes, &mut scanned, &sentinel) {
                let mut reply = take_front(&mut kept.bytes, end);
                // Copied for the transcript alone: `find_sentinel` takes
                // only a line of about the sentinel's length.
                let line = self
                    .transcript
                    .is_some()
                    .then(|| String::from_utf8_lossy(&reply[start..]).into_owned());
                reply.truncate(start);
                let reply = into_text(reply, STDOUT_CAP);
                self.unanswered = self.unanswered.saturating_sub(1);
                if let Some(line) = line {
                    self.record(|t, run| t.received_parts(run, &[&reply, &line]));
                }
                return Ok(reply);
            }
            if let Some(e) = output_failure(kept) {
                return Err(self.fail(e));
            }
            if let Some(e) = self.check_time(&mut deadline) {
                return Err(self.fail(e));
            }
            let now = Instant::now();
            if let Some(m) = self.memory
                && now >= next_watch
            {
                next_watch = now + WATCH_EVERY;
                if m.exceeded_by(&self.tree) {
                    self.kill();
                    self.ended = Some("killed over the memory limit".into());
                    return Err(SessionError::MemoryLimit {
                        solver: self.name.clone(),
                        mb: m.mb,
                        elapsed: self.elapsed(),
                    });
                }
            }
            let mut wait = deadline.saturating_duration_since(now).min(TICK);
            if self.memory.is_some() {
                wait = wait.min(next_watch.saturating_duration_since(now));
            }
            kept = if self.unanswered > 1 {
                // The solver has more questions to go on with, so nothing
                // is lost by reading later: a nap, longer each time, wakes
                // this thread once for several pieces of reply where a
                // poll would wake it for each (yices2 writes a `get-value`
                // reply in eight pieces).
                std::thread::sleep(nap.min(wait));
                nap = (nap * 2).min(TICK);
                self.output.now()
            } else {
                self.output.wait(wait)
            };
        }
    }

    /// Writes all of `text` to the solver's stdin. The pipe is
    /// non-blocking: when it is full this waits for room, at most until
    /// `deadline`, and a cancel stops it, so a solver that does not read
    /// can never hold the thread. With `answer`, it first checks that the
    /// reply ending in that sentinel has not arrived: a reply to a question
    /// not yet (wholly) sent is a protocol error.
    fn write(
        &mut self,
        mut text: &[u8],
        mut deadline: Instant,
        mut answer: Option<(&str, &mut Scan)>,
    ) -> Result<(), SessionError> {
        if let Some(status) = self.ended.clone() {
            return Err(self.died(status));
        }
        while !text.is_empty() {
            if let Some((sentinel, scan)) = answer.as_mut()
                && find_sentinel(&self.output.now().bytes, scan, sentinel).is_some()
            {
                let what = format!(
                    "it printed `{sentinel}` before the command that asks for it was sent \
                     (it answers without reading its input)"
                );
                return Err(self.fail(Failure::Protocol(what)));
            }
            let Some(fd) = self.input.as_ref().map(|i| i.as_raw_fd()) else {
                let status = self.reap_after_eof();
                return Err(self.died(status));
            };
            // SAFETY: `fd` is the open stdin pipe this session owns; the
            // buffer is valid for `text.len()` bytes.
            let n = unsafe { libc::write(fd, text.as_ptr().cast(), text.len()) };
            if n >= 0 {
                text = &text[n as usize..];
                continue;
            }
            match std::io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::EAGAIN) => {
                    if let Some(e) = self.check_time(&mut deadline) {
                        return Err(self.fail(e));
                    }
                    let wait = deadline.saturating_duration_since(Instant::now()).min(TICK);
                    wait_writable(fd, wait);
                }
                // EPIPE: the solver closed its input, it is ending.
                _ => {
                    let status = self.reap_after_eof();
                    return Err(self.died(status));
                }
            }
        }
        Ok(())
    }

    /// Whether the cancel flag or the deadline ends the command. A
    /// deadline that passed while CPU budget is left moves on by what is
    /// left (see [`Session::set_cpu_budget`]).
    fn check_time(&mut self, deadline: &mut Instant) -> Option<Failure> {
        if self.cancel.is_cancelled() {
            return Some(Failure::Cancelled);
        }
        let now = Instant::now();
        if now < *deadline {
            return None;
        }
        match self.budget_left(now) {
            Some(left) => {
                *deadline = now + left;
                None
            }
            None => Some(Failure::TimedOut),
        }
    }

    /// With a CPU budget, how much longer the solver may run from `now`:
    /// the CPU time it has not used yet (at least a [`TICK`]), up to the
    /// budget's end; `None` once it has used it all, the end has come or
    /// its CPU time cannot be read.
    fn budget_left(&mut self, now: Instant) -> Option<Duration> {
        let (cpu, until) = self.cpu_budget?;
        let end = until.checked_duration_since(now).filter(|d| !d.is_zero())?;
        let used = self.cpu_usage()?.cpu_ms;
        let left = cpu.checked_sub(Duration::from_secs_f64(used.max(0.0) / 1000.0))?;
        (!left.is_zero()).then(|| left.max(TICK).min(end))
    }

    /// Ends the session for `why` and makes the caller's error.
    fn fail(&mut self, why: Failure) -> SessionError {
        match why {
            Failure::Flood => {
                self.kill();
                self.died(format!(
                    "killed after printing more than {} MiB without finishing its reply",
                    STDOUT_CAP >> 20
                ))
            }
            Failure::Closed => {
                let status = self.reap_after_eof();
                self.died(status)
            }
            Failure::Cancelled => self.stop("cancelled", |solver, elapsed| {
                SessionError::Cancelled { solver, elapsed }
            }),
            Failure::TimedOut => self.stop("killed after a timeout", |solver, elapsed| {
                SessionError::TimedOut { solver, elapsed }
            }),
            Failure::Protocol(what) => {
                self.kill();
                self.ended = Some("killed after a protocol error".into());
                SessionError::Protocol {
                    solver: self.name.clone(),
                    what,
                    elapsed: self.elapsed(),
                }
            }
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
        let last = self.output.take();
        self.record(|t, run| t.received(run, &String::from_utf8_lossy(&last)));
        let output = excerpt(&last, QUOTE_BYTES);
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
        if let Some(t) = &mut self.transcript {
            t.ended(
                self.ended
                    .as_deref()
                    .unwrap_or("killed when smtgrid closed the session"),
            );
        }
    }
}

/// Why a command stops before its reply is complete.
enum Failure {
    /// The solver printed more than [`STDOUT_CAP`] without finishing.
    Flood,
    /// Its output closed.
    Closed,
    /// The cancel flag fell.
    Cancelled,
    /// The deadline passed.
    TimedOut,
    /// It broke the protocol, as described.
    Protocol(String),
}

/// Why waiting for a reply must end now, from what has been read.
fn output_failure(kept: &Kept) -> Option<Failure> {
    if kept.dropped > 0 {
        return Some(Failure::Flood);
    }
    kept.closed.then_some(Failure::Closed)
}

/// A reply at most this long is copied out of a session's buffer, which
/// keeps its room (and the memory it touched) for the next reply; a
/// longer one takes the buffer with it, so that it is never held twice.
const COPY_MAX: usize = 1 << 20;

/// Takes the first `end` bytes out of `buf`, leaving the rest.
fn take_front(buf: &mut Vec<u8>, end: usize) -> Vec<u8> {
    let end = end.min(buf.len());
    if end <= COPY_MAX {
        return buf.drain(..end).collect();
    }
    let rest = buf.split_off(end);
    std::mem::replace(buf, rest)
}

/// `text` ending with a newline.
fn with_newline(text: &str) -> String {
    let mut t = text.to_string();
    if !t.ends_with('\n') {
        t.push('\n');
    }
    t
}

/// A question sent with [`Session::ask`], whose reply is still to be
/// read.
#[derive(Debug)]
pub struct Asked {
    sentinel: String,
    scanned: Scan,
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
    fn a_silent_death_says_it_printed_nothing() {
        assert_eq!(last_words("", " \n"), "it printed nothing");
        assert_eq!(
            last_words("(error \"x\")\n", ""),
            "its last words:\n(error \"x\")\n"
        );
    }

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
    fn a_long_reply_takes_the_buffer_a_short_one_a_copy() {
        let mut buf = vec![b'x'; COPY_MAX + 1];
        buf.extend_from_slice(b"\nrest");
        let room = buf.capacity();
        let reply = take_front(&mut buf, COPY_MAX + 2);
        assert_eq!(reply.len(), COPY_MAX + 2);
        assert_eq!(reply.capacity(), room, "the buffer itself, not a copy");
        assert_eq!(buf, b"rest");
        let mut buf = Vec::with_capacity(100);
        buf.extend_from_slice(b"sat\nrest");
        assert_eq!(take_front(&mut buf, 4), b"sat\n");
        assert_eq!((&buf[..], buf.capacity()), (&b"rest"[..], 100));
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
