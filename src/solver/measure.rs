//! What a run cost, as the kernel accounts it, and the memory limit.
//!
//! - A process run is measured when it is reaped: `wait4` gives the CPU
//!   time and peak resident memory of the solver and of every descendant
//!   it waited for itself; the descendants smtgrid reaps as their child
//!   subreaper (`process.rs`) are added. This is BenchExec's figure
//!   without a control group.
//! - A session serves many puzzles from one process, so its figures are
//!   the solver's counters before and after the puzzle: user + system CPU
//!   time of the process (its CPU-time clock, to the nanosecond) and of
//!   the children it reaped (`/proc/PID/stat`); its memory figure is
//!   `VmHWM` of `/proc/PID/status`, the process's peak resident memory
//!   *since it started*, which covers the earlier puzzles of the session
//!   too. Puzzles asked in one batch
//!   (`solve --mode incremental`) have their CPU read as each answer is
//!   read (so a puzzle whose answer was already waiting shows almost none
//!   and the one before it the rest; the batch's sum is exact) and the
//!   peak once, after the batch's last answer.
//! - `--memory-limit` is enforced by a watcher: while a run waits, the
//!   resident memory of the solver and of every descendant (in its group
//!   or not: `process.rs` knows them) is summed from `/proc` every
//!   [`WATCH_EVERY`] and the run is killed as soon as it is over the
//!   limit. A run whose accounted peak is over the limit anyway (it grew
//!   between two readings) ends as over the limit too. A control group (v2) would account memory exactly and stop an
//!   allocation at the limit, but needs a writable, delegated cgroup tree
//!   which smtgrid cannot count on (the machine it was written on has
//!   cgroup v1 only); each record says which mechanism held the limit.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How often the memory watcher sums a run's resident memory. A solver
/// can allocate past the limit for at most this long before it is
/// stopped.
pub const WATCH_EVERY: Duration = Duration::from_millis(10);

/// `ms` milliseconds to the microsecond, the resolution of the kernel's
/// CPU times: sums and differences of millisecond values gain binary noise
/// (`100.0 + 73.319` is `173.31900000000002`) that records would print.
pub fn to_us(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// What the kernel accounted for a set of processes: CPU time (to the
/// microsecond, see `to_us`) and peak resident memory.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    /// User plus system CPU time, in milliseconds.
    pub cpu_ms: f64,
    /// The largest peak resident set size of any of them, in KiB.
    pub max_rss_kb: u64,
}

impl Usage {
    /// The usage of two sets of processes together: CPU adds up, memory
    /// is the larger peak.
    pub fn and(self, other: Usage) -> Usage {
        Usage {
            cpu_ms: to_us(self.cpu_ms + other.cpu_ms),
            max_rss_kb: self.max_rss_kb.max(other.max_rss_kb),
        }
    }

    pub(crate) fn from_rusage(ru: &libc::rusage) -> Usage {
        let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
        Usage {
            cpu_ms: to_us(ms(ru.ru_utime) + ms(ru.ru_stime)),
            // Linux gives ru_maxrss in KiB.
            max_rss_kb: u64::try_from(ru.ru_maxrss).unwrap_or(0),
        }
    }

    /// The usage between `before` and `self` of one running process: CPU
    /// time is the difference, memory the peak so far.
    pub fn since(self, before: Usage) -> Usage {
        Usage {
            cpu_ms: to_us((self.cpu_ms - before.cpu_ms).max(0.0)),
            max_rss_kb: self.max_rss_kb,
        }
    }
}

/// A running process's counters, read as often as a session asks a
/// question: CPU time of it and of the children it reaped, and its peak
/// resident memory since it started (`VmHWM` of `/proc/PID/status`).
///
/// The process's own CPU time comes from its CPU-time clock
/// (`clock_getcpuclockid`): one system call, to the nanosecond, where
/// `/proc/PID/stat` gives clock ticks (10 ms, so an easy puzzle of a
/// session read 0 or 10 ms) and has the kernel write out fifty fields. The
/// children's time is in `stat` only, so it is taken from there at each
/// full reading ([`Counters::read`]) and added as last read in between.
/// Without the clock, `stat` gives both. The files stay open and are read
/// again from their start, into one buffer: opening them for each puzzle
/// cost more than the rest of smtgrid's work on an easy one.
#[derive(Debug)]
pub(crate) struct Counters {
    stat: std::fs::File,
    status: std::fs::File,
    clock: Option<libc::clockid_t>,
    /// The reaped children's CPU time at the last full reading, in ms.
    children_ms: f64,
    buf: Vec<u8>,
}

impl Counters {
    /// Opens the counters of process `pid`; `None` when it is gone.
    pub(crate) fn open(pid: u32) -> Option<Counters> {
        let open = |name| std::fs::File::open(format!("/proc/{pid}/{name}")).ok();
        let mut clock: libc::clockid_t = 0;
        // SAFETY: `clock` is a valid place for the clock id.
        let found = unsafe { libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) } == 0;
        Some(Counters {
            stat: open("stat")?,
            status: open("status")?,
            clock: found.then_some(clock),
            // Until the first full reading: a solver reaps no child
            // before it is asked anything.
            children_ms: 0.0,
            buf: vec![0; 4096],
        })
    }

    /// The counters now; `None` once the process is gone.
    pub(crate) fn read(&mut self) -> Option<Usage> {
        let from_stat = self.read_stat()?;
        let cpu_ms = match self.clock {
            Some(_) => self.cpu_ms()?,
            None => from_stat,
        };
        let status = reread(&self.status, &mut self.buf)?;
        Some(Usage {
            cpu_ms,
            max_rss_kb: status_kb(status, "VmHWM:").unwrap_or(0),
        })
    }

    /// The CPU time now (the reaped children's as last read), without the
    /// peak memory: the kernel writes out all of `status` (dozens of
    /// lines) to give the one it has.
    pub(crate) fn cpu_ms(&mut self) -> Option<f64> {
        let Some(clock) = self.clock else {
            return self.read_stat();
        };
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write.
        if unsafe { libc::clock_gettime(clock, &mut t) } != 0 {
            return None;
        }
        let own = t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6;
        Some(to_us(own + self.children_ms))
    }

    /// Reads `stat`: keeps the reaped children's CPU time and returns the
    /// process's and theirs together, in ms.
    fn read_stat(&mut self) -> Option<f64> {
        let stat = reread(&self.stat, &mut self.buf)?;
        // After `pid (comm)`: state is field 3; utime, stime, cutime,
        // cstime are fields 14–17 (proc(5)).
        let mut ticks = [0.0; 4];
        let fields = stat.rsplit_once(')')?.1.split_ascii_whitespace();
        for (t, f) in ticks.iter_mut().zip(fields.skip(11)) {
            *t = f.parse::<f64>().unwrap_or(0.0);
        }
        let ms = |t: &[f64]| t.iter().sum::<f64>() * 1000.0 / clock_ticks();
        self.children_ms = ms(&ticks[2..]);
        Some(to_us(ms(&ticks)))
    }
}

/// The whole of a `/proc` file kept open, read again from its start into
/// `buf`: its text is generated anew by each read from offset 0, so one
/// `pread` at offset 0 gets all of it when `buf` is large enough (a
/// session reads two files per puzzle; a seek and a read to the end would
/// take three system calls each). A text that fills `buf` is read again
/// into a buffer twice the size, up to 64 KiB: a process's stat and
/// status are a few KiB, and the bound keeps a surprise from growing the
/// buffer without end.
fn reread<'b>(file: &std::fs::File, buf: &'b mut Vec<u8>) -> Option<&'b str> {
    use std::os::unix::fs::FileExt;
    loop {
        let n = loop {
            match file.read_at(buf, 0) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                r => break r.ok()?,
            }
        };
        if n < buf.len() {
            return std::str::from_utf8(&buf[..n]).ok();
        }
        if buf.len() >= 1 << 16 {
            return None;
        }
        buf.resize(buf.len() * 2, 0);
    }
}

/// The whole machine's CPU time so far, from the first line of
/// `/proc/stat`, to tell how many cores stood idle between two readings
/// ([`MachineSample::idle_cores_since`]): what a race goes by to choose a
/// solver's threads, as other users' jobs come and go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineSample {
    /// Idle and waiting-for-I/O ticks, summed over the cores.
    idle: u64,
    /// All ticks, summed over the cores.
    total: u64,
    /// How many cores `/proc/stat` lists.
    cores: usize,
    /// Tasks runnable at the moment of reading (`procs_running`), the
    /// reader among them.
    running: Option<usize>,
}

impl MachineSample {
    /// The counters now; `None` where `/proc/stat` cannot be read.
    pub fn now() -> Option<MachineSample> {
        MachineSample::parse(&std::fs::read_to_string("/proc/stat").ok()?)
    }

    /// The sample `/proc/stat`'s text gives: the `cpu` line's fields
    /// user, nice, system, idle, iowait, irq, softirq and steal, and a
    /// `cpuN` line per core.
    fn parse(text: &str) -> Option<MachineSample> {
        let first = text.lines().next()?;
        let mut fields = first.split_whitespace();
        if fields.next()? != "cpu" {
            return None;
        }
        let ticks: Vec<u64> = fields
            .take(8)
            .map(|f| f.parse().ok())
            .collect::<Option<_>>()?;
        if ticks.len() < 5 {
            return None;
        }
        let cores = text
            .lines()
            .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
            .count();
        let running = text
            .lines()
            .find_map(|l| l.strip_prefix("procs_running "))
            .and_then(|n| n.trim().parse().ok());
        Some(MachineSample {
            idle: ticks[3] + ticks[4],
            total: ticks.iter().sum(),
            cores: cores.max(1),
            running,
        })
    }

    /// How many cores stood idle on average between `earlier` and
    /// `self`, from 0 to the machine's count; `None` when fewer than
    /// [`MachineSample::MIN_TICKS`] ticks passed, too few to tell (a
    /// tick is 10 ms of one core).
    pub fn idle_cores_since(&self, earlier: &MachineSample) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total)?;
        if total < Self::MIN_TICKS {
            return None;
        }
        let idle = self.idle.saturating_sub(earlier.idle).min(total);
        Some(idle as f64 / total as f64 * self.cores as f64)
    }

    /// How many cores stand idle at this moment by the run queue: the
    /// cores less the tasks runnable (the reader among them); `None`
    /// where `/proc/stat` does not say. One reading catches tasks passing
    /// through too: [`MachineSample::idle_cores_now`] takes several.
    fn idle_by_run_queue(&self) -> Option<f64> {
        Some(self.cores.saturating_sub(self.running?) as f64)
    }

    /// How many cores stand idle now, besides the caller's: the most of
    /// `RUN_QUEUE_READS` readings of the run queue a millisecond apart
    /// (a task that runs for a moment, a version probe say, does not make
    /// the machine busy); for a choice that cannot wait for
    /// [`MachineSample::idle_cores_since`]'s 100 ms.
    pub fn idle_cores_now() -> Option<f64> {
        let mut most: Option<f64> = None;
        for i in 0..RUN_QUEUE_READS {
            if i > 0 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            let idle = MachineSample::now()?.idle_by_run_queue()?;
            most = Some(most.map_or(idle, |m: f64| m.max(idle)));
        }
        most
    }

    /// The fewest ticks [`MachineSample::idle_cores_since`] judges by:
    /// 100 ms of two cores.
    pub const MIN_TICKS: u64 = 20;
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

pub(crate) fn page_kb() -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(p).map_or(4, |p| (p / 1024).max(1))
}

/// The value of a `Name:   123 kB` line of `/proc/PID/status`.
fn status_kb(status: &str, name: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// How `--memory-limit` was enforced for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryLimitBy {
    /// smtgrid summed the resident memory of the solver and its
    /// descendants from `/proc` every [`WATCH_EVERY`] and killed them over
    /// the limit.
    Watcher,
}

/// `--memory-limit`: the most resident memory a run's processes may use
/// together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimit {
    /// The limit in MiB.
    pub mb: u64,
}

impl MemoryLimit {
    /// The most `--memory-limit` takes: 1 TiB.
    pub const MAX_MB: u64 = 1 << 20;

    /// The mechanism that holds the limit on this machine.
    pub fn by(&self) -> MemoryLimitBy {
        MemoryLimitBy::Watcher
    }

    /// Whether the solver of `tree` and its descendants are over the
    /// limit now.
    pub(crate) fn exceeded_by(&self, tree: &super::process::Tree) -> bool {
        self.exceeded_at(tree.rss_kb())
    }

    /// Whether `kb` KiB of resident memory is over the limit.
    pub(crate) fn exceeded_at(&self, kb: u64) -> bool {
        kb > self.mb.saturating_mul(1024)
    }
}

/// How many times [`MachineSample::idle_cores_now`] reads the run queue.
const RUN_QUEUE_READS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_cores_come_from_the_ticks_between_two_samples() {
        let at = |idle: u64, busy: u64| {
            let text =
                format!("cpu  {busy} 0 0 {idle} 0 0 0 0 0 0\ncpu0 1 2 3 4\ncpu1 1 2 3 4\nintr 5\n");
            MachineSample::parse(&text).expect("a sample")
        };
        let start = at(1000, 5000);
        // 100 ticks, 50 of them idle, on two cores: one core idle.
        assert_eq!(at(1050, 5050).idle_cores_since(&start), Some(1.0));
        assert_eq!(at(1000, 5100).idle_cores_since(&start), Some(0.0));
        assert_eq!(at(1100, 5000).idle_cores_since(&start), Some(2.0));
        // The run queue: one task runnable (the reader) leaves one of
        // two cores idle, three leave none.
        let queue = |n: usize| {
            let text = format!("cpu  1 0 0 1 0 0 0 0\ncpu0 1\ncpu1 1\nprocs_running {n}\n");
            MachineSample::parse(&text).and_then(|s| s.idle_by_run_queue())
        };
        assert_eq!(queue(1), Some(1.0));
        assert_eq!(queue(2), Some(0.0));
        assert_eq!(queue(3), Some(0.0));
        assert_eq!(start.idle_by_run_queue(), None);
        // Too short a time to tell, or counters that went back.
        assert_eq!(at(1005, 5005).idle_cores_since(&start), None);
        assert_eq!(start.idle_cores_since(&at(1050, 5050)), None);
        assert_eq!(MachineSample::parse("intr 5\n"), None);
        assert_eq!(MachineSample::parse("cpu 1 2 x 4 5\n"), None);
        let here = MachineSample::now().expect("/proc/stat on Linux");
        assert!(here.cores >= 1 && here.total >= here.idle);
    }

    #[test]
    fn status_lines_are_read_by_name() {
        let s = "Name:\tz3\nVmPeak:\t  9000 kB\nVmHWM:\t    4242 kB\nVmRSS:\t 100 kB\n";
        assert_eq!(status_kb(s, "VmHWM:"), Some(4242));
        assert_eq!(status_kb(s, "VmSwap:"), None);
    }

    #[test]
    fn this_process_has_counters_and_they_read_again() {
        let mut c = Counters::open(std::process::id()).expect("/proc is there");
        let u = c.read().expect("counters");
        assert!(u.max_rss_kb > 0);
        assert!(u.cpu_ms >= 0.0);
        // Work that takes CPU shows in a later reading of the same files
        // (the kernel counts in ticks, and a loaded machine gives this
        // thread few of them: spin until one shows, within a bound).
        let spin = std::time::Instant::now();
        let mut again = u;
        while again.cpu_ms <= u.cpu_ms && spin.elapsed() < Duration::from_secs(20) {
            std::hint::black_box((0..10_000).sum::<u64>());
            again = c.read().expect("counters again");
        }
        assert!(again.cpu_ms > u.cpu_ms, "{u:?} then {again:?}");
    }

    #[test]
    fn a_child_s_cpu_time_is_read_to_the_microsecond_and_agrees_with_its_ticks() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh starts");
        let mut c = Counters::open(child.id()).expect("its counters");
        std::thread::sleep(Duration::from_millis(300));
        let clock = c.cpu_ms().expect("its clock");
        let ticks = c.read_stat().expect("its stat");
        let later = c.cpu_ms().expect("its clock again");
        let _ = child.kill();
        let _ = child.wait();
        assert!(c.clock.is_some());
        assert!(clock > 0.0, "{clock}");
        // Ticks are 10 ms; the clock is not (a multiple of 10 ms to the
        // microsecond is a chance in ten thousand).
        assert!((clock * 1000.0).round() % 10_000.0 != 0.0, "{clock}");
        assert!(
            ticks >= clock - 20.0 && ticks <= later + 20.0,
            "{clock} {ticks} {later}"
        );
    }

    #[test]
    fn a_proc_file_longer_than_the_buffer_is_read_whole() {
        let f = std::fs::File::open("/proc/self/status").expect("/proc is there");
        let mut buf = vec![0; 16];
        let text = reread(&f, &mut buf).expect("read").to_string();
        assert!(text.starts_with("Name:") && text.ends_with('\n'), "{text}");
        assert!(status_kb(&text, "VmHWM:").is_some_and(|kb| kb > 0));
        // Again from the start, with the buffer as it grew.
        let again = reread(&f, &mut buf).expect("read again");
        assert!(again.starts_with("Name:"));
    }

    #[test]
    fn usage_adds_cpu_and_keeps_the_larger_peak() {
        let a = Usage {
            cpu_ms: 1.5,
            max_rss_kb: 10,
        };
        let b = Usage {
            cpu_ms: 2.0,
            max_rss_kb: 7,
        };
        assert_eq!(
            a.and(b),
            Usage {
                cpu_ms: 3.5,
                max_rss_kb: 10
            }
        );
        assert_eq!(b.since(a).cpu_ms, 0.5);
    }

    /// Regression: records of the top95 bench held CPU times such as
    /// `173.31900000000002`, the float sum of user and system time.
    #[test]
    fn cpu_times_stay_at_microsecond_resolution() {
        let tv = |tv_sec, tv_usec| libc::timeval { tv_sec, tv_usec };
        // SAFETY: rusage is plain data; all zeroes is a valid value.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        ru.ru_utime = tv(0, 100_000);
        ru.ru_stime = tv(0, 73_319);
        ru.ru_maxrss = 1;
        let u = Usage::from_rusage(&ru);
        let json = |u: Usage| serde_json::to_string(&u.cpu_ms).expect("a number");
        assert_eq!(json(u), "173.319");
        let more = Usage {
            cpu_ms: 0.1,
            max_rss_kb: 1,
        };
        assert_eq!(json(u.and(more).and(more)), "173.519");
        assert_eq!(json(u.and(more).since(more)), "173.319");
        assert_eq!(
            json(
                Usage {
                    cpu_ms: 0.2,
                    ..more
                }
                .since(more)
            ),
            "0.1"
        );
    }
}
