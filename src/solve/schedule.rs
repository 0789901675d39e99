//! The one scheduler behind `solve`: worker threads run jobs (puzzle ×
//! solver × encoding) within `--jobs`, and results come back per group, in
//! input order, as soon as a group and every earlier one are done.
//!
//! Groups are pulled lazily from an iterator, at most `window` at a time,
//! so a file of 50,000 puzzles streams with flat memory: only the groups in
//! flight are held. Each group holds slots (one per result line); a slot
//! is one job, or several that race under [`StopRule::FirstDecisive`]:
//! the first decisive result wins and the slot's other jobs are stopped
//! (running) or never started (queued).
//!
//! The scheduler knows nothing about solvers or puzzles: [`Jobs`] says what
//! a group's slots are and how to run one job.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::solver::Cancel;

/// When a slot's jobs stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopRule {
    /// Every job runs.
    None,
    /// The first decisive result wins; the slot's other jobs are stopped.
    FirstDecisive,
}

/// The jobs behind one result line, with their stop rule. Jobs start in
/// this order.
#[derive(Debug, Clone)]
pub struct Slot<J> {
    /// The jobs, best first.
    pub jobs: Vec<J>,
    /// When to stop them.
    pub stop: StopRule,
}

/// Why a job was stopped, or never started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopCause {
    /// Another job of its slot gave a decisive result first.
    Answered,
    /// The whole run was interrupted (Ctrl-C).
    Interrupted,
    /// The consumer of the results stopped taking them (e.g. stdout
    /// closed), so nothing more is worth running.
    Abandoned,
}

/// How one job of a slot ended.
#[derive(Debug, Clone, PartialEq)]
pub enum JobEnd<R> {
    /// It ran and gave this.
    Ran(R),
    /// It never started.
    NotStarted(StopCause),
}

/// The end of every job of one slot, in the slot's job order.
#[derive(Debug, Clone)]
pub struct SlotEnd<J, R> {
    /// Each job and how it ended.
    pub jobs: Vec<(J, JobEnd<R>)>,
    /// Under [`StopRule::FirstDecisive`]: the index of the job that won.
    pub winner: Option<usize>,
}

/// What a running job may ask of the scheduler.
#[derive(Debug)]
pub struct JobCtx<'a> {
    slot: &'a Cancel,
    all: &'a Cancel,
    root: &'a Cancel,
    cores: usize,
}

impl JobCtx<'_> {
    /// Falls when the job should stop: its slot was won by another job,
    /// the results are no longer wanted, or the run was interrupted.
    pub fn cancel(&self) -> &Cancel {
        self.slot
    }

    /// Why [`JobCtx::cancel`] fell (meaningful once it has).
    pub fn stop_cause(&self) -> StopCause {
        stop_cause(self.root, self.all)
    }

    /// How many cores the job was given: its [`Jobs::weight`], or 1 when
    /// it weighs more but other groups' jobs were waiting for a core.
    pub fn cores(&self) -> usize {
        self.cores
    }
}

fn stop_cause(root: &Cancel, all: &Cancel) -> StopCause {
    if root.is_cancelled() {
        StopCause::Interrupted
    } else if all.is_cancelled() {
        StopCause::Abandoned
    } else {
        StopCause::Answered
    }
}

/// The work the scheduler runs: what a group's slots are, how to run one
/// job, and which results are decisive.
pub trait Jobs: Sync {
    /// One unit of input, e.g. a puzzle with what it lazily builds.
    type Group: Send + Sync;
    /// One job, e.g. (solver, encoding).
    type Job: Clone + Send + Sync;
    /// What a job gives.
    type Output: Send;
    /// The slots of a group, one per result line.
    fn slots(&self, group: &Self::Group) -> Vec<Slot<Self::Job>>;
    /// Runs one job; it should return soon after `ctx.cancel()` falls.
    fn run(&self, group: &Self::Group, job: &Self::Job, ctx: &JobCtx) -> Self::Output;
    /// Whether a result ends its slot's race.
    fn decisive(&self, out: &Self::Output) -> bool;
    /// How many of the `--jobs` cores the job keeps busy: more than 1 for
    /// a solver that runs several threads. Jobs start while their weights
    /// add up to at most [`Limits::jobs`]; a heavier job starts alone.
    /// While jobs of other groups wait, a job that weighs more is given
    /// one core instead
    /// ([`JobCtx::cores`]): groups side by side use the cores better
    /// than one group's threads (a thread more rarely halves a search),
    /// so the cores go to the threads only for the last group.
    /// Called with the scheduler's lock held, so it must be cheap.
    fn weight(&self, _job: &Self::Job) -> usize {
        1
    }
    /// Jobs with the same key may run together, in one call of
    /// [`Jobs::run_batch`] (puzzles asked of one solver process in one
    /// exchange); `None`, the default, runs the job alone. Only the job of
    /// a slot that has no other is ever batched. Called with the
    /// scheduler's lock held, so it must be cheap.
    fn batch_key(&self, _group: &Self::Group, _job: &Self::Job) -> Option<usize> {
        None
    }
    /// The most jobs of batch key `key` worth running together now (the
    /// scheduler's own limit still applies), e.g. fewer when they have
    /// been slow, so that a batch never holds back much work another
    /// worker could do. Called with the scheduler's lock held.
    fn batch_limit(&self, _key: usize) -> usize {
        usize::MAX
    }
    /// Runs jobs that share a batch key and returns their outputs in the
    /// same order, one each; each should return soon after its
    /// `ctx.cancel()` falls. By default they run one after another.
    fn run_batch(&self, jobs: &[(&Self::Group, &Self::Job, &JobCtx)]) -> Vec<Self::Output> {
        jobs.iter().map(|(g, j, ctx)| self.run(g, j, ctx)).collect()
    }
}

/// How many jobs run at once and how many groups may be in flight.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Groups pulled from the input but not yet handed to `emit` (at
    /// least 1). Bounds memory.
    pub window: usize,
    /// How long a job after the first of a [`StopRule::FirstDecisive`]
    /// slot waits before it runs. A race the first job wins within it
    /// never starts the others: an easy question costs one solver, not
    /// the start and stop of every racer. A worker with such a job next
    /// takes any job that may start now first.
    pub stagger: Duration,
    /// The most jobs run together in one batch (see [`Jobs::batch_key`]);
    /// 1 runs every job alone. A worker takes fewer when fewer are queued,
    /// so that every worker gets a share.
    pub batch: usize,
}

struct SlotState<J, R> {
    jobs: Vec<J>,
    stop: StopRule,
    cancel: Cancel,
    ends: Vec<Option<JobEnd<R>>>,
    next: usize,
    /// When its first job was picked.
    started: Option<Instant>,
    winner: Option<usize>,
    /// A job of it runs on fewer cores than it weighs (others were
    /// waiting): the slot's later jobs wait for it to end, as they would
    /// had it taken its weight, so that the core it left goes to the
    /// other groups.
    held: bool,
}

impl<J, R> SlotState<J, R> {
    /// Marks every job not yet started as never started.
    fn close(&mut self, cause: StopCause) -> usize {
        let n = self.jobs.len() - self.next;
        for e in &mut self.ends[self.next..] {
            *e = Some(JobEnd::NotStarted(cause));
        }
        self.next = self.jobs.len();
        n
    }
}

struct GroupState<G, J, R> {
    group: Arc<G>,
    slots: Vec<SlotState<J, R>>,
    /// Jobs not yet ended (queued or running).
    open: usize,
}

struct State<G, J, R> {
    groups: VecDeque<GroupState<G, J, R>>,
    /// Sequence number of `groups[0]`.
    first: usize,
    /// No more groups will be added.
    closed: bool,
    /// [`Limits::stagger`].
    stagger: Duration,
    /// The weights (see [`Jobs::weight`]) of the jobs picked and not yet
    /// ended.
    busy: usize,
    /// [`Limits::jobs`]: the most weight that runs at once.
    cores: usize,
    /// A worker died of a panic: its jobs will never end, so the run
    /// stops rather than wait for them.
    died: bool,
}

struct Picked<G, J> {
    seq: usize,
    slot: usize,
    job: usize,
    group: Arc<G>,
    work: J,
    cancel: Cancel,
    /// How long to wait for the slot to be decided before running.
    delay: Duration,
    /// Its weight, held in [`State::busy`] until it ends.
    weight: usize,
    /// It got fewer cores than it weighs, and holds its slot (see
    /// [`SlotState::held`]) until it ends.
    shrunk: bool,
}

impl<G, J: Clone, R> State<G, J, R> {
    /// The first queued job in input order that may start now; when
    /// every queued job is a race's later job still inside its stagger,
    /// the first of those, with how long to wait (so a worker never idles
    /// on a stagger while another puzzle's job could run). A job whose
    /// `weight` does not fit beside the running ones is passed over while
    /// inside its stagger; once it could start, nothing after it starts
    /// before it, so it waits only for running jobs to end. Once the run
    /// is stopping, closes every queued job instead and sets
    /// `*closed_some`.
    fn pick(
        &mut self,
        root: &Cancel,
        all: &Cancel,
        closed_some: &mut bool,
        weight: impl Fn(&J) -> usize,
    ) -> Option<Picked<G, J>> {
        let stopping = root.is_cancelled() || all.is_cancelled();
        let now = Instant::now();
        // Whether jobs of groups other than the `gi`-th are queued (a held
        // slot's are not: they wait for a job of their own). Groups not
        // yet pulled do not count: a run of one puzzle would otherwise
        // cut its threads whenever a worker is quicker than the pull that
        // finds no more.
        let queued: Vec<bool> = self
            .groups
            .iter()
            .map(|g| g.slots.iter().any(|s| s.next < s.jobs.len() && !s.held))
            .collect();
        let others_wait = |gi: usize| queued.iter().enumerate().any(|(i, &q)| q && i != gi);
        let mut ready = None;
        let mut delayed = None;
        'groups: for (gi, g) in self.groups.iter_mut().enumerate() {
            for (si, s) in g.slots.iter_mut().enumerate() {
                if s.next >= s.jobs.len() {
                    continue;
                }
                if stopping {
                    g.open -= s.close(stop_cause(root, all));
                    *closed_some = true;
                    continue;
                }
                if s.held {
                    continue;
                }
                let delay = match (s.stop, s.started) {
                    // While the first job of a race runs, the next ones
                    // give it `stagger` from its start to win alone.
                    (StopRule::FirstDecisive, Some(first)) if s.ends[0].is_none() => {
                        (first + self.stagger).saturating_duration_since(now)
                    }
                    _ => Duration::ZERO,
                };
                let full = weight(&s.jobs[s.next]);
                let w = if full > 1 && others_wait(gi) { 1 } else { full };
                let fits = self.busy == 0 || self.busy + w <= self.cores;
                if delay.is_zero() {
                    if !fits {
                        return None;
                    }
                    ready = Some((gi, si, delay, w, w < full));
                    break 'groups;
                }
                if fits {
                    delayed.get_or_insert((gi, si, delay, w, w < full));
                }
            }
        }
        let (gi, si, delay, w, shrunk) = ready.or(delayed)?;
        self.busy += w;
        self.groups[gi].slots[si].held = shrunk;
        let mut picked = self.take(gi, si, now, delay);
        picked.weight = w;
        picked.shrunk = shrunk;
        Some(picked)
    }

    /// Takes the next job of slot `si` of group `gi` (the `gi`-th in
    /// flight), to run after `delay`; `now` is when its slot started if
    /// it is the slot's first.
    fn take(&mut self, gi: usize, si: usize, now: Instant, delay: Duration) -> Picked<G, J> {
        let g = &mut self.groups[gi];
        let s = &mut g.slots[si];
        let job = s.next;
        s.next += 1;
        if job == 0 {
            s.started = Some(now);
        }
        Picked {
            seq: self.first + gi,
            slot: si,
            job,
            group: Arc::clone(&g.group),
            work: s.jobs[job].clone(),
            cancel: s.cancel.clone(),
            delay,
            weight: 0,
            shrunk: false,
        }
    }

    /// The front group, taken out, when every job of it has ended.
    fn pop_ended(&mut self) -> Option<GroupState<G, J, R>> {
        let g = self.groups.pop_front_if(|g| g.open == 0)?;
        self.first += 1;
        Some(g)
    }

    fn has_queued(&self) -> bool {
        self.groups
            .iter()
            .any(|g| g.slots.iter().any(|s| s.next < s.jobs.len()))
    }
}

/// `first`, and when it may run in a batch, the queued jobs that may run
/// with it: jobs of single-job slots with the same batch key, in input
/// order, up to `limits.batch` in all and to an even share of them per
/// worker (`workers`).
fn with_batch<W: Jobs>(
    work: &W,
    st: &mut State<W::Group, W::Job, W::Output>,
    first: Picked<W::Group, W::Job>,
    limits: &Limits,
    workers: usize,
) -> Vec<Picked<W::Group, W::Job>> {
    let single = |s: &SlotState<W::Job, W::Output>| s.jobs.len() == 1 && s.next == 0;
    let key = match st.groups.get(first.seq - st.first) {
        Some(g)
            if limits.batch > 1 && first.delay.is_zero() && g.slots[first.slot].jobs.len() == 1 =>
        {
            work.batch_key(&g.group, &first.work)
        }
        _ => None,
    };
    let Some(key) = key else {
        return vec![first];
    };
    let most = work.batch_limit(key).min(limits.batch);
    if most <= 1 {
        return vec![first];
    }
    // A worker's share is 1 + mates / workers, so counting stops once
    // that reaches `most`.
    let workers = workers.max(1);
    let mut mates = Vec::new();
    'groups: for (gi, g) in st.groups.iter().enumerate() {
        for (si, s) in g.slots.iter().enumerate() {
            if single(s) && work.batch_key(&g.group, &s.jobs[0]) == Some(key) {
                mates.push((gi, si));
                if mates.len() >= most * workers {
                    break 'groups;
                }
            }
        }
    }
    let share = (1 + mates.len() / workers).min(most);
    let now = Instant::now();
    let mut batch = vec![first];
    for (gi, si) in mates.into_iter().take(share - 1) {
        batch.push(st.take(gi, si, now, Duration::ZERO));
    }
    batch
}

/// Locks `m`; a panic elsewhere while it was held leaves data that is
/// still consistent here, so poisoning is ignored.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where a schedule hands each group's slot ends, in input order, on the
/// calling thread. A closure that takes them is one.
pub trait Emit<G, J, O> {
    /// Takes one group's slot ends; [`ControlFlow::Break`] stops the run.
    fn emit(&mut self, group: &G, ends: Vec<SlotEnd<J, O>>) -> ControlFlow<()>;

    /// Every group that has ended so far has been emitted, and the run now
    /// waits for a job or input: the moment to push out held output.
    /// [`ControlFlow::Break`] stops the run as [`Emit::emit`]'s does.
    fn idle(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<G, J, O, F> Emit<G, J, O> for F
where
    F: FnMut(&G, Vec<SlotEnd<J, O>>) -> ControlFlow<()>,
{
    fn emit(&mut self, group: &G, ends: Vec<SlotEnd<J, O>>) -> ControlFlow<()> {
        self(group, ends)
    }
}

/// Runs every job of every group and hands each group's slot ends to
/// `emit`, in input order, on the calling thread. When `emit` returns
/// [`ControlFlow::Break`], every running job is cancelled, nothing more
/// starts, and no more groups are pulled or emitted. When `root` falls
/// (Ctrl-C), running jobs are cancelled, no more groups are pulled, and
/// the groups in flight are still emitted with what they have.
pub fn schedule<W: Jobs>(
    work: &W,
    groups: impl Iterator<Item = W::Group>,
    limits: Limits,
    root: &Cancel,
    emit: impl FnMut(&W::Group, Vec<SlotEnd<W::Job, W::Output>>) -> ControlFlow<()>,
) {
    schedule_to(work, groups, limits, root, emit);
}

/// [`schedule`] into an [`Emit`], which is also told when the run waits.
pub fn schedule_to<W: Jobs>(
    work: &W,
    groups: impl Iterator<Item = W::Group>,
    limits: Limits,
    root: &Cancel,
    emit: impl Emit<W::Group, W::Job, W::Output>,
) {
    schedule_granted(work, groups, limits, root, emit, usize::MAX);
}

/// [`schedule`] on a system that grants at most `granted` worker threads
/// and refuses the rest, as it does when a limit on threads or memory is
/// reached: tests make the refusal, which the system rarely does on cue.
fn schedule_granted<W: Jobs>(
    work: &W,
    groups: impl Iterator<Item = W::Group>,
    limits: Limits,
    root: &Cancel,
    mut emit: impl Emit<W::Group, W::Job, W::Output>,
    granted: usize,
) {
    let all = root.child();
    let state: Mutex<State<W::Group, W::Job, W::Output>> = Mutex::new(State {
        groups: VecDeque::new(),
        first: 0,
        closed: false,
        stagger: limits.stagger,
        busy: 0,
        cores: limits.jobs.max(1),
        died: false,
    });
    let changed = Condvar::new();
    let mut groups = groups.fuse();
    std::thread::scope(|scope| {
        // A thread the system refuses (limits on threads or memory) is
        // not fatal: the run goes on with the workers it has, and the
        // calling thread works itself when it has none.
        let mut workers = 0;
        for n in 0..limits.jobs.max(1) {
            let spawned = match n < granted {
                true => std::thread::Builder::new()
                    .name("smtgrid-worker".into())
                    .spawn_scoped(scope, || {
                        worker(work, &state, &changed, &limits, root, &all)
                    })
                    .map(drop),
                false => Err(std::io::Error::from(std::io::ErrorKind::OutOfMemory)),
            };
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        // Whatever ends the loop, the workers must be told to finish.
        let finish = || {
            lock(&state).closed = true;
            changed.notify_all();
        };
        // When the emitter says stop: every running job too.
        let stop = || {
            all.cancel();
            finish();
        };
        loop {
            // Pull while the window has room; the iterator may be slow
            // (parsing), so it is called without the lock. Workers are
            // told once a batch's worth has come (or pulling stops), so
            // that a worker does not take a batch of one.
            let mut unannounced = 0;
            loop {
                let room = {
                    let st = lock(&state);
                    !st.closed && st.groups.len() < limits.window.max(1)
                };
                if !room {
                    break;
                }
                if root.is_cancelled() {
                    lock(&state).closed = true;
                    break;
                }
                match groups.next() {
                    None => {
                        lock(&state).closed = true;
                        break;
                    }
                    Some(g) => {
                        let slots = work.slots(&g);
                        let open = slots.iter().map(|s| s.jobs.len()).sum();
                        let slots = slots
                            .into_iter()
                            .map(|s| SlotState {
                                ends: s.jobs.iter().map(|_| None).collect(),
                                next: 0,
                                started: None,
                                winner: None,
                                held: false,
                                cancel: all.child(),
                                stop: s.stop,
                                jobs: s.jobs,
                            })
                            .collect();
                        lock(&state).groups.push_back(GroupState {
                            group: Arc::new(g),
                            slots,
                            open,
                        });
                    }
                }
                unannounced += 1;
                if unannounced >= limits.batch.max(1) {
                    unannounced = 0;
                    changed.notify_all();
                }
            }
            if unannounced > 0 {
                changed.notify_all();
            }
            let mut st = lock(&state);
            if st.died {
                // The scope joins the workers and then panics itself
                // with theirs: a bug stops the run loudly, not silently.
                drop(st);
                stop();
                return;
            }
            // Every group that has ended goes out, then `idle` once: the
            // next pull may block (standard input) and the next wait may
            // be long.
            let mut emitted = false;
            while let Some(g) = st.pop_ended() {
                emitted = true;
                drop(st);
                changed.notify_all();
                let ends = g
                    .slots
                    .into_iter()
                    .map(|s| SlotEnd {
                        jobs: s
                            .jobs
                            .into_iter()
                            .zip(s.ends)
                            .map(|(j, e)| {
                                (j, e.unwrap_or(JobEnd::NotStarted(StopCause::Abandoned)))
                            })
                            .collect(),
                        winner: s.winner,
                    })
                    .collect();
                if emit.emit(&g.group, ends).is_break() {
                    stop();
                    return;
                }
                st = lock(&state);
            }
            if emitted {
                drop(st);
                if emit.idle().is_break() {
                    stop();
                    return;
                }
                continue;
            }
            if st.closed && st.groups.is_empty() {
                drop(st);
                finish();
                return;
            }
            if workers == 0 {
                let mut closed_some = false;
                if let Some(picked) = st.pick(root, &all, &mut closed_some, |j| work.weight(j)) {
                    let picked = with_batch(work, &mut st, picked, &limits, 1);
                    drop(st);
                    run_picked(work, &state, picked, root, &all);
                    continue;
                }
                if closed_some {
                    continue;
                }
            }
            // Woken by a finished job or a pulled group; the timeout only
            // notices Ctrl-C while every worker is busy.
            let _ = changed.wait_timeout(st, Duration::from_millis(50));
        }
    });
}

fn worker<W: Jobs>(
    work: &W,
    state: &Mutex<State<W::Group, W::Job, W::Output>>,
    changed: &Condvar,
    limits: &Limits,
    root: &Cancel,
    all: &Cancel,
) {
    let _death = Death { state, changed };
    loop {
        let mut st = lock(state);
        let picked = loop {
            let mut closed_some = false;
            if let Some(p) = st.pick(root, all, &mut closed_some, |j| work.weight(j)) {
                break with_batch(work, &mut st, p, limits, limits.jobs);
            }
            if closed_some {
                // Groups may be complete now: the emitter must look.
                changed.notify_all();
            }
            if st.closed && !st.has_queued() {
                return;
            }
            st = changed
                .wait_timeout(st, Duration::from_millis(50))
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        };
        drop(st);
        run_picked(work, state, picked, root, all);
        changed.notify_all();
    }
}

/// Tells the scheduler when its worker unwinds: the jobs it held would
/// otherwise stay open, and the run would wait for them for ever.
struct Death<'a, G, J, R> {
    state: &'a Mutex<State<G, J, R>>,
    changed: &'a Condvar,
}

impl<G, J, R> Drop for Death<'_, G, J, R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            lock(self.state).died = true;
            self.changed.notify_all();
        }
    }
}

/// Runs picked jobs (one, or a batch) and records how each ended.
fn run_picked<W: Jobs>(
    work: &W,
    state: &Mutex<State<W::Group, W::Job, W::Output>>,
    picked: Vec<Picked<W::Group, W::Job>>,
    root: &Cancel,
    all: &Cancel,
) {
    let ctxs: Vec<JobCtx> = picked
        .iter()
        .map(|p| JobCtx {
            slot: &p.cancel,
            all,
            root,
            cores: p.weight.max(1),
        })
        .collect();
    let mut ends: Vec<JobEnd<W::Output>> = match (picked.as_slice(), ctxs.as_slice()) {
        ([p], [ctx]) => {
            vec![if !p.delay.is_zero() && p.cancel.wait(p.delay) {
                JobEnd::NotStarted(ctx.stop_cause())
            } else {
                JobEnd::Ran(work.run(&p.group, &p.work, ctx))
            }]
        }
        _ => {
            let jobs: Vec<_> = picked
                .iter()
                .zip(&ctxs)
                .map(|(p, ctx)| (&*p.group, &p.work, ctx))
                .collect();
            work.run_batch(&jobs).into_iter().map(JobEnd::Ran).collect()
        }
    };
    // A batch that gave too few outputs leaves its other jobs unrun
    // rather than the scheduler waiting on them for ever.
    debug_assert_eq!(ends.len(), picked.len());
    ends.resize_with(picked.len(), || JobEnd::NotStarted(StopCause::Abandoned));
    drop(ctxs);
    let mut st = lock(state);
    // A batch runs in one process: it holds its first job's weight.
    st.busy -= picked.first().map_or(0, |p| p.weight);
    let first = st.first;
    for (p, end) in picked.into_iter().zip(ends) {
        let decisive = matches!(&end, JobEnd::Ran(out) if work.decisive(out));
        drop(p.group);
        if let Some(g) = st.groups.get_mut(p.seq - first) {
            g.open -= 1;
            let s = &mut g.slots[p.slot];
            s.ends[p.job] = Some(end);
            if p.shrunk {
                s.held = false;
            }
            if decisive && s.stop == StopRule::FirstDecisive && s.winner.is_none() {
                s.winner = Some(p.job);
                s.cancel.cancel();
                g.open -= s.close(StopCause::Answered);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fake job: sleeps `ms` (or until cancelled), then gives `value`;
    /// decisive when `value` is even. A negative `value` panics, as a bug
    /// in a job would.
    #[derive(Debug, Clone, PartialEq)]
    struct Fake {
        ms: u64,
        value: i32,
    }

    #[derive(Debug, Clone, PartialEq)]
    enum Out {
        Value(i32),
        Stopped(StopCause),
    }

    struct FakeJobs {
        slots: fn(usize) -> Vec<Slot<Fake>>,
        fixed: Vec<Slot<Fake>>,
        started: AtomicUsize,
        /// The values of the jobs run, in the order they started.
        order: Mutex<Vec<i32>>,
    }

    impl FakeJobs {
        fn new(fixed: Vec<Slot<Fake>>) -> FakeJobs {
            FakeJobs {
                slots: |_| Vec::new(),
                fixed,
                started: AtomicUsize::new(0),
                order: Mutex::new(Vec::new()),
            }
        }
        fn by_group(slots: fn(usize) -> Vec<Slot<Fake>>) -> FakeJobs {
            FakeJobs {
                slots,
                fixed: Vec::new(),
                started: AtomicUsize::new(0),
                order: Mutex::new(Vec::new()),
            }
        }
    }

    impl Jobs for FakeJobs {
        type Group = usize;
        type Job = Fake;
        type Output = Out;
        fn slots(&self, g: &usize) -> Vec<Slot<Fake>> {
            if self.fixed.is_empty() {
                (self.slots)(*g)
            } else {
                self.fixed.clone()
            }
        }
        fn run(&self, _: &usize, job: &Fake, ctx: &JobCtx) -> Out {
            self.started.fetch_add(1, Ordering::SeqCst);
            lock(&self.order).push(job.value);
            assert!(job.value >= 0, "a bug in job {}", job.value);
            if ctx.cancel().wait(Duration::from_millis(job.ms)) {
                Out::Stopped(ctx.stop_cause())
            } else {
                Out::Value(job.value)
            }
        }
        fn decisive(&self, out: &Out) -> bool {
            matches!(out, Out::Value(v) if v % 2 == 0)
        }
    }

    /// Limits without a stagger: races start every job at once.
    fn unstaggered(jobs: usize, window: usize) -> Limits {
        Limits {
            jobs,
            window,
            stagger: Duration::ZERO,
            batch: 1,
        }
    }

    fn one(ms: u64, value: i32) -> Slot<Fake> {
        Slot {
            jobs: vec![Fake { ms, value }],
            stop: StopRule::None,
        }
    }

    fn ends(slot: &SlotEnd<Fake, Out>) -> Vec<JobEnd<Out>> {
        slot.jobs.iter().map(|(_, e)| e.clone()).collect()
    }

    #[test]
    fn a_job_that_panics_stops_the_run_with_its_panic_instead_of_a_wait() {
        // Group 3's job panics; those after it take long unless
        // cancelled, so the run ends quickly only if the panic stops it.
        let faulty = FakeJobs::by_group(|g| match g {
            0..3 => vec![one(0, 0)],
            3 => vec![one(0, -1)],
            _ => vec![one(30_000, 0)],
        });
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let run = std::panic::catch_unwind(|| {
                schedule(&faulty, 0..8, unstaggered(2, 8), &Cancel::new(), |_, _| {
                    ControlFlow::Continue(())
                })
            });
            let _ = tx.send(run.is_err());
        });
        let panicked = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the run waited for a worker that had died");
        assert!(panicked, "the worker's panic was swallowed");
    }

    #[test]
    fn results_come_in_input_order_whatever_finishes_first() {
        // Group i's job sleeps less the later the group comes.
        struct Backwards;
        impl Jobs for Backwards {
            type Group = usize;
            type Job = u64;
            type Output = usize;
            fn slots(&self, g: &usize) -> Vec<Slot<u64>> {
                vec![Slot {
                    jobs: vec![(20 - *g as u64) * 3],
                    stop: StopRule::None,
                }]
            }
            fn run(&self, g: &usize, ms: &u64, _: &JobCtx) -> usize {
                std::thread::sleep(Duration::from_millis(*ms));
                *g
            }
            fn decisive(&self, _: &usize) -> bool {
                false
            }
        }
        let mut seen = Vec::new();
        let limits = unstaggered(4, 6);
        schedule(&Backwards, 0..20, limits, &Cancel::new(), |g, slots| {
            assert_eq!(slots[0].jobs[0].1, JobEnd::Ran(*g));
            seen.push(*g);
            ControlFlow::Continue(())
        });
        assert_eq!(seen, (0..20).collect::<Vec<_>>());
    }

    /// Odd groups have one job, even groups race two jobs; every job
    /// has the same batch key, and the work allows `limit` per batch.
    struct Keyed {
        calls: Mutex<Vec<Vec<i32>>>,
        limit: usize,
    }

    impl Jobs for Keyed {
        type Group = usize;
        type Job = i32;
        type Output = i32;
        fn slots(&self, g: &usize) -> Vec<Slot<i32>> {
            let g = *g as i32;
            vec![match g % 2 {
                1 => Slot {
                    jobs: vec![g],
                    stop: StopRule::None,
                },
                _ => Slot {
                    jobs: vec![g, -g],
                    stop: StopRule::FirstDecisive,
                },
            }]
        }
        fn run(&self, _: &usize, job: &i32, _: &JobCtx) -> i32 {
            lock(&self.calls).push(vec![*job]);
            *job
        }
        fn decisive(&self, _: &i32) -> bool {
            true
        }
        fn batch_key(&self, _: &usize, _: &i32) -> Option<usize> {
            Some(7)
        }
        fn batch_limit(&self, key: usize) -> usize {
            assert_eq!(key, 7);
            self.limit
        }
        fn run_batch(&self, jobs: &[(&usize, &i32, &JobCtx)]) -> Vec<i32> {
            lock(&self.calls).push(jobs.iter().map(|(_, j, _)| **j).collect());
            // Slow enough that the other worker finds a queue.
            std::thread::sleep(Duration::from_millis(20));
            jobs.iter().map(|(_, j, _)| **j).collect()
        }
    }

    /// Runs 40 groups of [`Keyed`] with `limit` and a scheduler batch of
    /// 4; returns the calls, each the jobs it ran.
    fn keyed_batches(limit: usize) -> Vec<Vec<i32>> {
        let w = Keyed {
            calls: Mutex::new(Vec::new()),
            limit,
        };
        let limits = Limits {
            batch: 4,
            ..unstaggered(2, 40)
        };
        let mut seen = Vec::new();
        schedule(&w, 0..40, limits, &Cancel::new(), |g, slots| {
            let (job, end) = &slots[0].jobs[slots[0].winner.unwrap_or(0)];
            assert_eq!(end, &JobEnd::Ran(*job));
            seen.push(*g);
            ControlFlow::Continue(())
        });
        assert_eq!(seen, (0..40).collect::<Vec<_>>());
        let calls = lock(&w.calls).clone();
        let ran: std::collections::BTreeSet<i32> = calls
            .iter()
            .flatten()
            .copied()
            .filter(|j| j % 2 != 0)
            .collect();
        assert_eq!(ran, (0..40).filter(|g| g % 2 == 1).collect());
        for c in calls.iter().filter(|c| c.len() > 1) {
            assert!(c.iter().all(|j| j % 2 != 0), "a race was batched: {c:?}");
        }
        calls
    }

    #[test]
    fn jobs_that_share_a_key_run_in_shared_batches_and_races_never_do() {
        let calls = keyed_batches(usize::MAX);
        assert!(calls.iter().all(|c| c.len() <= 4), "{calls:?}");
        assert!(calls.iter().any(|c| c.len() > 1), "{calls:?}");
    }

    #[test]
    fn a_batch_holds_no_more_than_the_work_allows() {
        let calls = keyed_batches(2);
        assert!(calls.iter().all(|c| c.len() <= 2), "{calls:?}");
        assert!(calls.iter().any(|c| c.len() == 2), "{calls:?}");
        assert!(keyed_batches(1).iter().all(|c| c.len() == 1));
    }

    #[test]
    fn refused_threads_leave_fewer_workers_and_with_none_the_caller_works() {
        // Records which threads ran the jobs.
        struct Where(Mutex<std::collections::BTreeSet<String>>);
        impl Jobs for Where {
            type Group = usize;
            type Job = u64;
            type Output = usize;
            fn slots(&self, _: &usize) -> Vec<Slot<u64>> {
                vec![Slot {
                    jobs: vec![3, 1],
                    stop: StopRule::None,
                }]
            }
            fn run(&self, g: &usize, ms: &u64, _: &JobCtx) -> usize {
                std::thread::sleep(Duration::from_millis(*ms));
                let me = std::thread::current();
                lock(&self.0).insert(me.name().unwrap_or("caller").to_string());
                *g
            }
            fn decisive(&self, _: &usize) -> bool {
                false
            }
        }
        let caller = std::thread::current()
            .name()
            .unwrap_or("caller")
            .to_string();
        for (granted, ran_on) in [(0, vec![caller]), (1, vec!["smtgrid-worker".into()])] {
            let w = Where(Mutex::new(Default::default()));
            let mut seen = Vec::new();
            let limits = unstaggered(4, 3);
            schedule_granted(
                &w,
                0..8,
                limits,
                &Cancel::new(),
                |g: &usize, slots: Vec<SlotEnd<_, _>>| {
                    let ran: Vec<_> = slots[0].jobs.iter().map(|(_, e)| e.clone()).collect();
                    assert_eq!(ran, [JobEnd::Ran(*g), JobEnd::Ran(*g)], "granted {granted}");
                    seen.push(*g);
                    ControlFlow::Continue(())
                },
                granted,
            );
            assert_eq!(seen, (0..8).collect::<Vec<_>>(), "granted {granted}");
            let threads: Vec<String> = lock(&w.0).iter().cloned().collect();
            assert_eq!(threads, ran_on, "granted {granted}");
        }
    }

    /// Records what a schedule hands it: `Some(group)` per emitted group,
    /// `None` per idle.
    struct Events(Vec<Option<usize>>);

    impl Emit<usize, Fake, Out> for &mut Events {
        fn emit(&mut self, g: &usize, _: Vec<SlotEnd<Fake, Out>>) -> ControlFlow<()> {
            self.0.push(Some(*g));
            ControlFlow::Continue(())
        }

        fn idle(&mut self) -> ControlFlow<()> {
            self.0.push(None);
            ControlFlow::Continue(())
        }
    }

    #[test]
    fn idle_follows_every_run_of_emitted_groups_and_nothing_else() {
        // A slow first group, so that later ones end together behind it.
        let w = FakeJobs::by_group(|g| vec![one(if g == 0 { 200 } else { 1 }, 1)]);
        let mut events = Events(Vec::new());
        schedule_to(&w, 0..6, unstaggered(2, 6), &Cancel::new(), &mut events);
        let emitted: Vec<usize> = events.0.iter().flatten().copied().collect();
        assert_eq!(emitted, (0..6).collect::<Vec<_>>());
        // Never idle twice in a row or before anything was emitted, and
        // idle after the last group: no output is left held.
        assert_eq!(events.0.first(), Some(&Some(0)), "{:?}", events.0);
        assert_eq!(events.0.last(), Some(&None), "{:?}", events.0);
        assert!(
            events
                .0
                .windows(2)
                .all(|w| w[0].is_some() || w[1].is_some()),
            "{:?}",
            events.0
        );
        // Groups that ended while the first one ran go out together.
        assert!(
            events.0.iter().filter(|e| e.is_none()).count() < 6,
            "{:?}",
            events.0
        );
    }

    #[test]
    fn without_a_stop_rule_every_job_runs() {
        let w = FakeJobs::new(vec![one(5, 2), one(1, 4), one(3, 1)]);
        let mut got = Vec::new();
        let limits = unstaggered(2, 2);
        schedule(&w, 0..3, limits, &Cancel::new(), |_, slots| {
            got.push(
                slots
                    .iter()
                    .map(|s| (ends(s)[0].clone(), s.winner))
                    .collect::<Vec<_>>(),
            );
            ControlFlow::Continue(())
        });
        assert_eq!(got.len(), 3);
        for g in got {
            assert_eq!(
                g,
                [
                    (JobEnd::Ran(Out::Value(2)), None),
                    (JobEnd::Ran(Out::Value(4)), None),
                    (JobEnd::Ran(Out::Value(1)), None)
                ]
            );
        }
    }

    #[test]
    fn a_race_the_first_job_wins_within_the_stagger_never_starts_the_others() {
        let race = |first_ms| Slot {
            jobs: vec![
                Fake {
                    ms: first_ms,
                    value: 2,
                },
                Fake { ms: 1, value: 4 },
            ],
            stop: StopRule::FirstDecisive,
        };
        let limits = Limits {
            jobs: 2,
            window: 1,
            stagger: Duration::from_millis(500),
            batch: 1,
        };
        // The first answers in 5 ms: the second never runs.
        let w = FakeJobs::new(vec![race(5)]);
        let mut got = Vec::new();
        schedule(&w, 0..1, limits, &Cancel::new(), |_, slots| {
            got = ends(&slots[0]);
            ControlFlow::Continue(())
        });
        assert_eq!(
            got,
            [
                JobEnd::Ran(Out::Value(2)),
                JobEnd::NotStarted(StopCause::Answered)
            ]
        );
        assert_eq!(w.started.load(Ordering::SeqCst), 1);
        // The first runs past the stagger: the second starts after it
        // and wins.
        let w = FakeJobs::new(vec![race(5_000)]);
        let start = Instant::now();
        schedule(&w, 0..1, limits, &Cancel::new(), |_, slots| {
            got = ends(&slots[0]);
            ControlFlow::Continue(())
        });
        assert_eq!(got[1], JobEnd::Ran(Out::Value(4)));
        assert_eq!(got[0], JobEnd::Ran(Out::Stopped(StopCause::Answered)));
        assert!(start.elapsed() >= Duration::from_millis(500));
        assert!(start.elapsed() < Duration::from_millis(4_000));
        assert_eq!(w.started.load(Ordering::SeqCst), 2);
    }

    /// Jobs `(name, ms, weight)`; records each job's start (with the
    /// cores it was given) and end, and the most cores that ever ran at
    /// once.
    struct Weighted {
        slots: Vec<Vec<Slot<(char, u64, usize)>>>,
        busy: AtomicUsize,
        most: AtomicUsize,
        log: Mutex<Vec<(char, bool, usize)>>,
    }

    impl Weighted {
        fn new(slots: Vec<Vec<Slot<(char, u64, usize)>>>) -> Weighted {
            Weighted {
                slots,
                busy: AtomicUsize::new(0),
                most: AtomicUsize::new(0),
                log: Mutex::new(Vec::new()),
            }
        }

        /// Runs every group on 2 cores; the log.
        fn run_all(&self) -> Vec<(char, bool, usize)> {
            let groups = self.slots.len();
            schedule(
                self,
                0..groups,
                unstaggered(2, groups),
                &Cancel::new(),
                |_, _| ControlFlow::Continue(()),
            );
            lock(&self.log).clone()
        }
    }

    impl Jobs for Weighted {
        type Group = usize;
        type Job = (char, u64, usize);
        type Output = char;
        fn slots(&self, g: &usize) -> Vec<Slot<Self::Job>> {
            self.slots[*g].clone()
        }
        fn run(&self, _: &usize, &(name, ms, _): &Self::Job, ctx: &JobCtx) -> char {
            let cores = ctx.cores();
            let now = self.busy.fetch_add(cores, Ordering::SeqCst) + cores;
            self.most.fetch_max(now, Ordering::SeqCst);
            lock(&self.log).push((name, true, cores));
            ctx.cancel().wait(Duration::from_millis(ms));
            lock(&self.log).push((name, false, cores));
            self.busy.fetch_sub(cores, Ordering::SeqCst);
            name
        }
        fn decisive(&self, out: &char) -> bool {
            out.is_ascii_uppercase()
        }
        fn weight(&self, job: &Self::Job) -> usize {
            job.2
        }
    }

    fn light(name: char, ms: u64) -> Slot<(char, u64, usize)> {
        Slot {
            jobs: vec![(name, ms, 1)],
            stop: StopRule::None,
        }
    }

    /// Where `(name, start)` is in `log`, and the cores it was given.
    fn at(log: &[(char, bool, usize)], name: char, start: bool) -> (usize, usize) {
        log.iter()
            .enumerate()
            .find_map(|(i, &(n, s, c))| (n == name && s == start).then_some((i, c)))
            .unwrap_or_else(|| panic!("{name} {start} not in {log:?}"))
    }

    #[test]
    fn a_heavy_job_alone_runs_on_its_weight_and_is_not_overtaken() {
        // One group: a light job that does not answer (`a`), then a heavy
        // one (`H`, weight 2). Nothing else waits, so `H` gets both cores,
        // once `a` has ended.
        let w = Weighted::new(vec![vec![Slot {
            jobs: vec![('a', 60, 1), ('H', 40, 2)],
            stop: StopRule::FirstDecisive,
        }]]);
        let log = w.run_all();
        assert!(at(&log, 'a', false).0 < at(&log, 'H', true).0, "{log:?}");
        assert_eq!(at(&log, 'H', true).1, 2);
        // A job heavier than every core runs alone on all it weighs.
        let w = Weighted::new(vec![vec![Slot {
            jobs: vec![('X', 20, 5)],
            stop: StopRule::None,
        }]]);
        let log = w.run_all();
        assert_eq!(at(&log, 'X', true).1, 5);
        assert_eq!(w.most.load(Ordering::SeqCst), 5);
    }

    #[test]
    fn a_heavy_job_gets_one_core_while_other_groups_wait_and_holds_its_slot() {
        // Group 0 races `H` (weight 2, does not answer) and then `z`;
        // groups 1 and 2 have a light job each. While they wait, `H` runs
        // on one core beside them instead of holding both; `z`, its
        // slot's later job, starts only after `H` ended, so the core `H`
        // left went to the other groups. Group 3's heavy job, the last,
        // gets both cores.
        let w = Weighted::new(vec![
            vec![Slot {
                jobs: vec![('h', 300, 2), ('z', 10, 1)],
                stop: StopRule::FirstDecisive,
            }],
            vec![light('b', 50)],
            vec![light('c', 50)],
            vec![Slot {
                jobs: vec![('L', 30, 2)],
                stop: StopRule::None,
            }],
        ]);
        let log = w.run_all();
        let (h, cores) = at(&log, 'h', true);
        assert_eq!(cores, 1, "{log:?}");
        // `b` and `c` ran beside `h`, one after the other.
        assert!(at(&log, 'c', false).0 < at(&log, 'h', false).0, "{log:?}");
        assert!(h < at(&log, 'c', true).0, "{log:?}");
        assert!(at(&log, 'h', false).0 < at(&log, 'z', true).0, "{log:?}");
        assert_eq!(at(&log, 'L', true).1, 2, "{log:?}");
        assert_eq!(w.most.load(Ordering::SeqCst), 2, "{log:?}");
    }

    #[test]
    fn a_worker_runs_another_puzzle_rather_than_wait_out_a_stagger() {
        // Puzzle 0's race runs past the stagger; puzzle 1's first job is
        // ready at once. The second worker must start it, not sit out
        // puzzle 0's stagger and only then start puzzle 0's second job.
        let limits = Limits {
            jobs: 2,
            window: 2,
            stagger: Duration::from_millis(500),
            batch: 1,
        };
        let w = FakeJobs::by_group(|g| {
            let (first, second) = match g {
                0 => (2, 4),
                _ => (8, 10),
            };
            let ms = if g == 0 { 800 } else { 5 };
            vec![Slot {
                jobs: vec![
                    Fake { ms, value: first },
                    Fake {
                        ms: 400,
                        value: second,
                    },
                ],
                stop: StopRule::FirstDecisive,
            }]
        });
        let mut got = Vec::new();
        schedule(&w, 0..2, limits, &Cancel::new(), |_, slots| {
            got.push(ends(&slots[0]));
            ControlFlow::Continue(())
        });
        // Which of the first two starts first is up to the threads; the
        // second job of puzzle 0 can only start after the stagger.
        let order = lock(&w.order).clone();
        let at = |v: i32| order.iter().position(|&x| x == v);
        assert!(at(8) < at(4) && at(4).is_some(), "{order:?}");
        assert_eq!(got[1][0], JobEnd::Ran(Out::Value(8)));
        assert_eq!(got[1][1], JobEnd::NotStarted(StopCause::Answered));
    }

    #[test]
    fn the_first_decisive_result_stops_its_slot_only() {
        // Three workers: the first three jobs start at once; the fourth
        // when the first ends; the fifth never.
        let race = Slot {
            jobs: vec![
                Fake { ms: 1, value: 1 },
                Fake { ms: 20, value: 2 },
                Fake {
                    ms: 10_000,
                    value: 4,
                },
                Fake {
                    ms: 2_000,
                    value: 6,
                },
                Fake { ms: 1, value: 10 },
            ],
            stop: StopRule::FirstDecisive,
        };
        let w = FakeJobs::new(vec![race, one(40, 8)]);
        let mut got = None;
        let start = Instant::now();
        let limits = unstaggered(3, 1);
        schedule(&w, 0..1, limits, &Cancel::new(), |_, slots| {
            got = Some(slots);
            ControlFlow::Continue(())
        });
        assert!(start.elapsed() < Duration::from_secs(5), "the loser ran on");
        let slots = got.expect("emitted");
        assert_eq!(slots[0].winner, Some(1));
        assert_eq!(
            ends(&slots[0]),
            [
                JobEnd::Ran(Out::Value(1)),
                JobEnd::Ran(Out::Value(2)),
                JobEnd::Ran(Out::Stopped(StopCause::Answered)),
                JobEnd::Ran(Out::Stopped(StopCause::Answered)),
                JobEnd::NotStarted(StopCause::Answered),
            ]
        );
        // The other slot is not stopped by its neighbour's win.
        assert_eq!(ends(&slots[1]), [JobEnd::Ran(Out::Value(8))]);
        assert_eq!(w.started.load(Ordering::SeqCst), 5);
    }

    #[test]
    fn groups_are_pulled_lazily_within_the_window() {
        let pulled = AtomicUsize::new(0);
        let input = (0..1000).inspect(|_| {
            pulled.fetch_add(1, Ordering::SeqCst);
        });
        let w = FakeJobs::new(vec![one(1, 2)]);
        let mut most = 0;
        let mut emitted = 0;
        let limits = unstaggered(2, 4);
        schedule(&w, input, limits, &Cancel::new(), |g, _| {
            // Pulled ahead of what is emitted: at most the window.
            most = most.max(pulled.load(Ordering::SeqCst) - g);
            emitted += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(emitted, 1000);
        assert!(most <= 4 + 1, "pulled {most} groups ahead");
    }

    #[test]
    fn a_consumer_that_stops_stops_everything_at_once() {
        let pulled = AtomicUsize::new(0);
        let input = (0..1000).inspect(|_| {
            pulled.fetch_add(1, Ordering::SeqCst);
        });
        // Group 0 is quick; every later one hangs until cancelled.
        let w = FakeJobs::by_group(|g| vec![one(if g == 0 { 1 } else { 100_000 }, 2)]);
        let start = Instant::now();
        let mut emitted = Vec::new();
        let limits = unstaggered(2, 3);
        schedule(&w, input, limits, &Cancel::new(), |g, _| {
            emitted.push(*g);
            ControlFlow::Break(())
        });
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "hanging jobs ran on"
        );
        assert_eq!(emitted, [0]);
        assert!(pulled.load(Ordering::SeqCst) <= 3 + 1);
        assert!(w.started.load(Ordering::SeqCst) <= 3);
    }

    #[test]
    fn an_interrupt_stops_running_jobs_and_says_why() {
        let w = FakeJobs::by_group(|_| vec![one(100_000, 2), one(100_000, 4)]);
        let root = Cancel::new();
        let r2 = root.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            r2.cancel();
        });
        let start = Instant::now();
        let mut got = Vec::new();
        let limits = unstaggered(3, 2);
        schedule(&w, 0..1000, limits, &root, |_, slots| {
            got.extend(slots.iter().map(|s| ends(s)[0].clone()));
            ControlFlow::Continue(())
        });
        canceller.join().expect("canceller");
        assert!(start.elapsed() < Duration::from_secs(5));
        // The groups in flight are emitted, saying why nothing came.
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(
            got.iter()
                .filter(|e| **e == JobEnd::Ran(Out::Stopped(StopCause::Interrupted)))
                .count(),
            3
        );
        assert!(got.contains(&JobEnd::NotStarted(StopCause::Interrupted)));
    }
}
