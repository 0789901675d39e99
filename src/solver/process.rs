//! Starting a solver process and ending it together with everything it
//! started, wherever that went.
//!
//! Three things make sure nothing outlives a run:
//!
//! 1. Each solver leads a process group of its own: one `killpg` ends it
//!    and every descendant that stayed in the group, and the terminal's
//!    Ctrl-C reaches only smtgrid, which then ends the groups itself.
//! 2. smtgrid makes itself a *child subreaper*
//!    (`prctl(PR_SET_CHILD_SUBREAPER)`, Linux ≥ 3.4): a solver's
//!    descendant whose parent dies is re-parented to smtgrid instead of to
//!    init, even after `setsid` took it out of the solver's group and
//!    session, so it cannot get out of smtgrid's reach.
//! 3. Each solver is started with `SMTGRID_RUN=<smtgrid's pid>.<n>` in its
//!    environment, which its descendants inherit. When a run ends, smtgrid
//!    kills and reaps every child of its own that carries that run's mark
//!    (or is in the run's process group), and repeats until none is left:
//!    killing a process orphans its children, which then become smtgrid's
//!    in turn.
//!
//! 4. If smtgrid itself is killed outright (SIGKILL, an OOM kill), none of
//!    that can run: each solver is started with a parent-death signal
//!    (`prctl(PR_SET_PDEATHSIG, SIGKILL)` in the child before `exec`), so
//!    the kernel kills it when smtgrid dies. The kernel sends it when the
//!    *thread* that forked the child ends, so every solver is forked by one
//!    thread that lives as long as smtgrid (sessions outlive the workers
//!    that started them). A child whose parent died before the `prctl`
//!    took effect sees another parent and exits at once.
//!
//! A descendant that both leaves the group and clears its environment
//! (`setsid env -i …`) is still re-parented to smtgrid but cannot be told
//! apart from a process the embedding program started itself, so it is
//! left alone; no solver does that. A control group would catch even that,
//! but needs a delegated cgroup tree, which an ordinary user does not have.

use super::measure::Usage;
use std::io;
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Once, OnceLock};

/// The environment variable that marks a run's processes.
const MARK_VAR: &str = "SMTGRID_RUN";
/// How many rounds of "kill the marked children, reap them, look again"
/// a sweep does at most: one per level of a tree that keeps escaping.
const MAX_SWEEPS: usize = 64;

/// A command in a process group of its own that dies with smtgrid (see
/// the module doc).
pub(crate) fn group_command(program: &Path, args: &[String]) -> Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(program);
    cmd.args(args).process_group(0);
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the child between fork and exec and
    // only makes async-signal-safe calls (prctl, getppid, signal, _exit).
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // smtgrid died before the prctl above: no signal will come.
            if libc::getppid() != parent {
                libc::_exit(127);
            }
            // A disposition smtgrid set to SIG_IGN would survive the exec.
            for &sig in crate::signals::IGNORED {
                libc::signal(sig, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    cmd
}

/// What a run's cleanup needs: the solver's process group and the mark
/// its descendants carry.
#[derive(Debug, Clone)]
pub(crate) struct Tree {
    pgid: u32,
    mark: String,
}

/// Starts `cmd` (made by [`group_command`]) marked as a run of its own.
pub(crate) fn spawn(mut cmd: Command) -> io::Result<(Child, Tree)> {
    static SUBREAPER: Once = Once::new();
    static NEXT: AtomicU64 = AtomicU64::new(1);
    SUBREAPER.call_once(|| {
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer and
        // touches no memory. If it fails (not Linux ≥ 3.4), escaped
        // descendants go to init as before; groups are still killed.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0);
        }
    });
    let mark = format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    cmd.env(MARK_VAR, &mark);
    let child = spawn_from_keeper(cmd)?;
    let pgid = child.id();
    Ok((child, Tree { pgid, mark }))
}

/// A request to the thread that forks every solver.
type SpawnRequest = (Command, Sender<io::Result<Child>>);

/// Starts `cmd` on the one thread that lives as long as smtgrid, so that
/// the child's parent-death signal comes only when smtgrid dies, never
/// when the worker thread that asked for it ends.
fn spawn_from_keeper(cmd: Command) -> io::Result<Child> {
    static KEEPER: OnceLock<Option<Sender<SpawnRequest>>> = OnceLock::new();
    let keeper = KEEPER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        std::thread::Builder::new()
            .name("smtgrid-spawner".into())
            .spawn(move || {
                for (mut cmd, reply) in rx {
                    let _ = reply.send(cmd.spawn());
                }
            })
            .ok()
            .map(|_| tx)
    });
    let gone = || io::Error::other("the thread that starts solvers is gone");
    let keeper = keeper.as_ref().ok_or_else(gone)?;
    let (tx, rx) = mpsc::channel();
    keeper.send((cmd, tx)).map_err(|_| gone())?;
    rx.recv().map_err(|_| gone())?
}

impl Tree {
    /// The resident memory, in KiB, of the solver and every descendant it
    /// has now, wherever it went: the solver's process group, every
    /// process below the solver (a child that made a session of its own
    /// is still its child) and every child of smtgrid that carries the
    /// run's mark (a descendant whose parent died, re-parented to smtgrid)
    /// with everything below it. One reading of `/proc`.
    pub(crate) fn rss_kb(&self) -> u64 {
        let me = std::process::id();
        let needle = format!("{MARK_VAR}={}", self.mark);
        let all = processes();
        let mut children: std::collections::HashMap<u32, Vec<usize>> = Default::default();
        for (i, p) in all.iter().enumerate() {
            children.entry(p.ppid).or_default().push(i);
        }
        let mut inside = vec![false; all.len()];
        let mut todo: Vec<usize> = all
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.pid == self.pgid
                    || p.pgrp == self.pgid
                    || (p.ppid == me && carries(p.pid as libc::pid_t, needle.as_bytes()))
            })
            .map(|(i, _)| i)
            .collect();
        while let Some(i) = todo.pop() {
            if std::mem::replace(&mut inside[i], true) {
                continue;
            }
            todo.extend(children.get(&all[i].pid).into_iter().flatten().copied());
        }
        let page = super::measure::page_kb();
        all.iter()
            .zip(&inside)
            .filter(|(_, inside)| **inside)
            .map(|(p, _)| p.rss_pages * page)
            .sum()
    }

    /// Kills the solver's group, then kills and reaps every descendant
    /// that escaped it. Call it after the solver itself was reaped: only
    /// then are its children re-parented to smtgrid.
    /// Returns what the kernel accounted for the descendants it reaped.
    pub fn kill_all(&self) -> Usage {
        kill_group(self.pgid);
        sweep(self.pgid, &self.mark)
    }
}

/// Waits for the child `pid` and returns its wait status with what the
/// kernel accounted for it and for every descendant it reaped itself
/// (`wait4`): the figures BenchExec reports.
pub(crate) fn wait_usage(pid: u32) -> io::Result<(ExitStatus, Usage)> {
    use std::os::unix::process::ExitStatusExt;
    let pid = libc::pid_t::try_from(pid).map_err(|_| io::Error::other("pid out of range"))?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waits for one specific child of this process; `status`
        // and `ru` are valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        if r == pid {
            return Ok((ExitStatus::from_raw(status), Usage::from_rusage(&ru)));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Kills the solver's group, reaps the solver, then kills and reaps what
/// escaped the group. Returns the solver's exit status if it could be read.
pub(crate) fn kill_and_reap(child: &mut Child, tree: &Tree) -> Option<ExitStatus> {
    kill_group(tree.pgid);
    let status = child.wait().ok();
    tree.kill_all();
    status
}

/// Sends SIGKILL to the process group `pgid`. Harmless if the group is
/// already empty.
pub(crate) fn kill_group(pgid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
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

/// Kills and reaps the children of smtgrid that belong to the run whose
/// group is `pgid` and whose mark is `mark`, until none is left, and
/// returns what the kernel accounted for them. The group leader itself
/// must already be reaped.
fn sweep(pgid: u32, mark: &str) -> Usage {
    let me = std::process::id();
    let needle = format!("{MARK_VAR}={mark}");
    let mut usage = Usage::default();
    for _ in 0..MAX_SWEEPS {
        let found: Vec<libc::pid_t> = children_of(me)
            .into_iter()
            .filter(|c| c.pid as u32 != pgid)
            .filter(|c| c.pgrp as u32 == pgid || carries(c.pid, needle.as_bytes()))
            .map(|c| c.pid)
            .collect();
        if found.is_empty() {
            return usage;
        }
        for &pid in &found {
            // SAFETY: `pid` is an unreaped child of this process (only this
            // sweep reaps marked children), so it cannot have been reused.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        for &pid in &found {
            // Its exit re-parents its own children to smtgrid, which the
            // next round finds.
            if let Ok((_, u)) = wait_usage(pid as u32) {
                usage = usage.and(u);
            }
        }
    }
    usage
}

/// A process as `/proc/PID/stat` describes it.
struct ProcStat {
    pid: libc::pid_t,
    pgrp: libc::pid_t,
}

/// The children of `parent`, from `/proc` (this kernel may not have
/// `/proc/PID/task/TID/children`).
fn children_of(parent: u32) -> Vec<ProcStat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let name = e.ok()?.file_name();
        let pid: libc::pid_t = name.to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid pgrp …`; comm may hold spaces and `)`.
        let mut rest = stat.rsplit_once(')')?.1.split_whitespace();
        let _state = rest.next()?;
        let ppid: u32 = rest.next()?.parse().ok()?;
        let pgrp: libc::pid_t = rest.next()?.parse().ok()?;
        (ppid == parent).then_some(ProcStat { pid, pgrp })
    })
    .collect()
}

/// A process as the memory watcher sees it in `/proc/PID/stat`.
struct Resident {
    pid: u32,
    ppid: u32,
    pgrp: u32,
    rss_pages: u64,
}

/// Every process of the machine that can be read now.
fn processes() -> Vec<Resident> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let name = e.ok()?.file_name();
        let pid: u32 = name.to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // After `pid (comm)`: ppid is field 4, pgrp 5, rss (in pages) 24.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        Some(Resident {
            pid,
            ppid: fields.get(1)?.parse().ok()?,
            pgrp: fields.get(2)?.parse().ok()?,
            rss_pages: fields.get(21)?.parse().ok()?,
        })
    })
    .collect()
}

/// Whether the environment `pid` started with holds `needle`
/// (`NAME=VALUE`).
fn carries(pid: libc::pid_t, needle: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|&b| b == 0).any(|kv| kv == needle))
}
