//! A cancellation flag shared by the stages of one command. It knows
//! nothing of solvers or encodings: the CLI's Ctrl-C handler sets it, solver
//! runs wait on it, and encoding checks it at its loops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

/// A cancellation flag shared by every run of one command. Cancelling it
/// wakes every run waiting on its solver, which then kills the solver's
/// process group. [`Cancel::child`] makes a flag that also falls when its
/// parent does (Ctrl-C), but can be cancelled on its own (e.g. to stop the
/// losers of a race).
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    inner: Arc<CancelInner>,
}

#[derive(Debug, Default)]
struct CancelInner {
    flag: AtomicBool,
    /// When the flag counts as set without anyone setting it.
    deadline: Option<Instant>,
    /// The children to cancel with this flag; also the mutex the condition
    /// variable waits on.
    children: Mutex<Vec<Weak<CancelInner>>>,
    wake: Condvar,
}

impl CancelInner {
    fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        // Taking the lock orders the store before any waiter's check, so
        // no waiter sleeps through the notification.
        let children = {
            let mut guard = self.children.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_all();
            std::mem::take(&mut *guard)
        };
        for c in children.iter().filter_map(Weak::upgrade) {
            c.cancel();
        }
    }
}

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A new flag that is set when this one is (now or later), and that
    /// can be set on its own without setting this one.
    pub fn child(&self) -> Cancel {
        self.adopt(Cancel::new())
    }

    /// Makes `child` fall with this flag.
    fn adopt(&self, child: Cancel) -> Cancel {
        let already = {
            let mut guard = self
                .inner
                .children
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            guard.retain(|w| w.strong_count() > 0);
            guard.push(Arc::downgrade(&child.inner));
            // Read under the lock: a concurrent cancel either sees the
            // child in the list or has already set the flag.
            self.is_cancelled()
        };
        if already {
            child.cancel();
        }
        child
    }

    /// A [`child`](Cancel::child) that also counts as set from `deadline`
    /// on: for work that has no process to kill, such as building a
    /// script, that must end at a time limit.
    pub fn until(&self, deadline: Instant) -> Cancel {
        let child = Cancel {
            inner: Arc::new(CancelInner {
                deadline: Some(deadline),
                ..CancelInner::default()
            }),
        };
        self.adopt(child)
    }

    /// Sets the flag (and its children's) and wakes every waiter.
    pub fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.inner.flag.load(Ordering::SeqCst)
            || self.inner.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Sleeps for at most `d`, returning early if the flag is set.
    /// Returns whether it is set.
    pub fn wait(&self, d: Duration) -> bool {
        let guard = self
            .inner
            .children
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if self.is_cancelled() {
            return true;
        }
        let d = self
            .inner
            .deadline
            .map_or(d, |at| d.min(at.saturating_duration_since(Instant::now())));
        let _ = self.inner.wake.wait_timeout(guard, d);
        self.is_cancelled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_flag_until_a_deadline_falls_then_or_with_its_parent() {
        let parent = Cancel::new();
        let later = parent.until(Instant::now() + Duration::from_secs(3600));
        let soon = parent.until(Instant::now() + Duration::from_millis(20));
        assert!(!later.is_cancelled() && !soon.is_cancelled());
        assert!(soon.wait(Duration::from_secs(10)));
        assert!(!later.is_cancelled() && !parent.is_cancelled());
        parent.cancel();
        assert!(later.is_cancelled());
    }

    #[test]
    fn cancel_wakes_a_waiter() {
        let c = Cancel::new();
        assert!(!c.wait(Duration::from_millis(1)));
        let c2 = c.clone();
        let t = std::thread::spawn(move || {
            let start = Instant::now();
            let set = c2.wait(Duration::from_secs(10));
            (set, start.elapsed())
        });
        std::thread::sleep(Duration::from_millis(50));
        c.cancel();
        let (set, took) = t.join().expect("waiter");
        assert!(set);
        assert!(took < Duration::from_secs(5), "{took:?}");
        assert!(c.is_cancelled());
    }

    #[test]
    fn children_fall_with_their_parent_only() {
        let parent = Cancel::new();
        let a = parent.child();
        let b = parent.child();
        let grandchild = a.child();
        a.cancel();
        assert!(a.is_cancelled() && grandchild.is_cancelled());
        assert!(!parent.is_cancelled() && !b.is_cancelled());
        let waiter = {
            let b = b.clone();
            std::thread::spawn(move || b.wait(Duration::from_secs(10)))
        };
        std::thread::sleep(Duration::from_millis(50));
        parent.cancel();
        assert!(waiter.join().expect("waiter"));
        assert!(b.is_cancelled());
        assert!(
            parent.child().is_cancelled(),
            "a child of a cancelled flag starts cancelled"
        );
    }
}
