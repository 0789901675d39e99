//! `bench`'s progress bar, and the arithmetic of its rate and ETA kept
//! apart from the terminal ([`Pace`]) so it can be tested on given times.
//!
//! indicatif's own estimate counts the seconds in which nothing finished:
//! a bench whose runs take minutes each swung from an ETA of 3 minutes to
//! 5 days and back. [`Pace`] moves only when runs finish, and each
//! finished run moves it by a bounded factor.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::Record;
use crate::solve::Status;

/// The weight of one finished run in the smoothed time per run: the
/// estimate is an exponentially weighted average over about the last
/// `1 / WEIGHT` runs.
const WEIGHT: f64 = 0.1;

/// How far from the bench's mean time per run so far one run's time may
/// count: a run 1000 times slower (or faster) than the mean counts as
/// `CLAMP` times, so one outlier moves a steady estimate by less than a
/// factor of 2. Relative to the mean, not to the estimate, so that slow
/// runs that keep coming (timeouts among quick runs) are not clipped away.
const CLAMP: f64 = 10.0;

/// The shortest time per run the estimate takes (a burst of runs finishing
/// at one instant would otherwise give an infinite rate).
const SHORTEST_RUN: f64 = 1e-6;

/// How fast runs finish: a time per run smoothed over the recent ones,
/// from which the rate and the ETA are read. Times are given since the
/// start of the bench, so the arithmetic needs no clock.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pace {
    /// Seconds per run, smoothed; `None` until runs have finished.
    per_run: Option<f64>,
    /// When runs last finished, since the start.
    last: Duration,
    /// Runs finished so far.
    runs: u64,
}

impl Pace {
    /// No runs finished yet: no rate, no ETA.
    pub fn new() -> Pace {
        Pace::default()
    }

    /// `runs` runs finished at `at` (since the start). Runs that finish
    /// together share the time since the previous ones.
    pub fn finished(&mut self, at: Duration, runs: u64) {
        if runs == 0 {
            return;
        }
        let each = (at.saturating_sub(self.last).as_secs_f64() / runs as f64).max(SHORTEST_RUN);
        self.per_run = Some(match self.per_run {
            None => each,
            Some(old) => {
                // `runs` samples of `each`, folded in one at a time.
                let keep = (1.0 - WEIGHT).powi(i32::try_from(runs).unwrap_or(i32::MAX));
                // The mean before these runs: an outlier does not widen its own bounds.
                let mean = self.last.as_secs_f64().max(SHORTEST_RUN) / self.runs.max(1) as f64;
                let each = each.clamp(mean / CLAMP, mean * CLAMP);
                keep * old + (1.0 - keep) * each
            }
        });
        self.last = self.last.max(at);
        self.runs += runs;
    }

    /// Runs per second, once runs have finished.
    pub fn per_second(&self) -> Option<f64> {
        self.per_run.map(|s| 1.0 / s)
    }

    /// The time left for `remaining` runs at `now` (since the start), once
    /// runs have finished. Between finishes it counts down, by at most one
    /// run's time: a slow run holds it rather than driving it to zero.
    pub fn eta(&self, now: Duration, remaining: u64) -> Option<Duration> {
        let per_run = self.per_run?;
        let waited = now.saturating_sub(self.last).as_secs_f64().min(per_run);
        let left = (remaining as f64 * per_run - waited).max(0.0);
        Duration::try_from_secs_f64(left).ok()
    }
}

/// `x` with `digits` significant digits (at least the integer part):
/// `12.3`, `0.412`, `1234`.
pub fn significant(x: f64, digits: u32) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "0".into();
    }
    let decimals = |x: f64| (digits as i32 - 1 - x.log10().floor() as i32).max(0) as usize;
    let mut d = decimals(x);
    // Rounding may carry into one more integer digit (9.996 -> 10.00).
    let rounded: f64 = format!("{x:.d$}").parse().unwrap_or(x);
    if rounded > 0.0 {
        d = d.min(decimals(rounded));
    }
    format!("{x:.d$}")
}

/// A rate of runs, to 3 significant digits: `12.3 runs/s`, `0.412 runs/s`.
pub fn runs_per_second(rate: f64) -> String {
    format!("{} runs/s", significant(rate, 3))
}

/// What the bar's `pace` field reads from.
#[derive(Debug)]
struct Shared {
    pace: Pace,
    start: Instant,
    /// The bench is over (done or interrupted): no ETA any more.
    over: bool,
}

/// The progress bar on stderr: runs done of all, elapsed time, ETA, runs
/// per second and failures so far. Drawn only when stderr is a terminal,
/// so nothing of it reaches a file or a pipe, and never on stdout.
pub struct Progress {
    bar: indicatif::ProgressBar,
    shared: Arc<Mutex<Shared>>,
    failures: u64,
}

impl Progress {
    /// A bar for `total` runs.
    pub fn new(total: u64) -> Progress {
        use std::io::IsTerminal;
        let bar = if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(total);
            // Elapsed time and ETA move on while a slow run holds the count.
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress::on(bar)
    }

    fn on(bar: indicatif::ProgressBar) -> Progress {
        let shared = Arc::new(Mutex::new(Shared {
            pace: Pace::new(),
            start: Instant::now(),
            over: false,
        }));
        let field = Arc::clone(&shared);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} runs  {elapsed} elapsed{pace}  {msg}",
        ) {
            bar.set_style(style.with_key(
                "pace",
                move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let s = field.lock().unwrap_or_else(PoisonError::into_inner);
                    let remaining = state.len().unwrap_or(0).saturating_sub(state.pos());
                    // Nothing is written before the first runs finish.
                    if !s.over
                        && remaining > 0
                        && let Some(eta) = s.pace.eta(s.start.elapsed(), remaining)
                    {
                        let _ = write!(w, "  ETA {}", indicatif::HumanDuration(eta));
                    }
                    if let Some(rate) = s.pace.per_second() {
                        let _ = write!(w, "  {}", runs_per_second(rate));
                    }
                },
            ));
        }
        bar.set_message("0 failed");
        Progress {
            bar,
            shared,
            failures: 0,
        }
    }

    fn shared(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts the records of a finished group: the runs that finished.
    /// Runs stopped by Ctrl-C have no record and are not counted. A
    /// failure is a run that is neither solved nor unsupported.
    pub fn add(&mut self, records: &[Record]) {
        self.failures += records
            .iter()
            .filter(|r| !r.solved() && r.status != Status::Unsupported)
            .count() as u64;
        {
            let mut s = self.shared();
            let at = s.start.elapsed();
            s.pace.finished(at, records.len() as u64);
        }
        self.bar.set_message(format!("{} failed", self.failures));
        self.bar.inc(records.len() as u64);
    }

    /// The runs counted so far.
    pub fn done(&self) -> u64 {
        self.bar.position()
    }

    /// Draws the bar's final state and leaves it on the terminal: the runs
    /// that finished (fewer than all after Ctrl-C), and no ETA.
    pub fn finish(&self) {
        self.shared().over = true;
        // `abandon`, not `finish`: `finish` would show every run as done.
        self.bar.abandon();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// A pace after `n` runs finishing one per `each` seconds.
    fn steady(n: u64, each: f64) -> Pace {
        let mut p = Pace::new();
        for i in 1..=n {
            p.finished(secs(i as f64 * each), 1);
        }
        p
    }

    #[test]
    fn no_eta_and_no_rate_before_the_first_runs_finish() {
        let p = Pace::new();
        assert_eq!(p.eta(secs(100.0), 10), None);
        assert_eq!(p.per_second(), None);
        let mut p = Pace::new();
        p.finished(secs(4.0), 0);
        assert_eq!(p.eta(secs(5.0), 10), None, "no run finished yet");
        p.finished(secs(6.0), 2);
        assert_eq!(p.per_second(), Some(1.0 / 3.0));
        assert_eq!(p.eta(secs(6.0), 10), Some(secs(30.0)));
    }

    #[test]
    fn a_steady_pace_gives_the_time_left() {
        let p = steady(20, 2.0);
        assert_eq!(p.per_second(), Some(0.5));
        assert_eq!(p.eta(secs(40.0), 5), Some(secs(10.0)));
    }

    #[test]
    fn the_eta_counts_down_between_finishes_by_one_run_at_most() {
        let p = steady(20, 2.0);
        assert_eq!(p.eta(secs(41.0), 5), Some(secs(9.0)));
        // A run far slower than the others: the ETA holds at the other
        // runs' time instead of reaching zero.
        assert_eq!(p.eta(secs(400.0), 5), Some(secs(8.0)));
    }

    #[test]
    fn one_slow_or_fast_run_moves_the_eta_by_less_than_twice() {
        for (gap, what) in [(1000.0, "slow"), (0.0, "fast")] {
            let mut p = steady(20, 1.0);
            let before = p.eta(secs(20.0), 100).expect("eta").as_secs_f64();
            p.finished(secs(20.0 + gap), 1);
            let after = p.eta(secs(20.0 + gap), 99).expect("eta").as_secs_f64();
            let swing = (after / before).max(before / after);
            assert!(swing < 2.0, "a {what} run: {before}s -> {after}s");
        }
    }

    #[test]
    fn the_eta_swings_less_than_a_raw_rate_over_an_uneven_bench() {
        // Mostly quick runs with a slow one every tenth: the raw rate of
        // the last run swings 1000-fold, the smoothed ETA far less.
        let (mut p, mut t) = (Pace::new(), 0.0);
        let (mut low, mut high) = (f64::MAX, 0.0f64);
        for i in 1..=200u64 {
            t += if i % 10 == 0 { 100.0 } else { 0.1 };
            p.finished(secs(t), 1);
            if i > 20 {
                let eta = p.eta(secs(t), 1000 - i).expect("eta").as_secs_f64();
                low = low.min(eta);
                high = high.max(eta);
            }
        }
        assert!(high / low < 10.0, "ETA from {low}s to {high}s");
    }

    #[test]
    fn the_pace_follows_a_lasting_change() {
        // Runs that become 10 times slower for good: after 40 of them the
        // estimate is within 10% of the new pace.
        let mut p = steady(20, 1.0);
        for i in 1..=40 {
            p.finished(secs(20.0 + 10.0 * i as f64), 1);
        }
        let rate = p.per_second().expect("rate");
        assert!((rate - 0.1).abs() < 0.01, "{rate}");
    }

    #[test]
    fn runs_finishing_together_share_the_time() {
        let mut p = Pace::new();
        p.finished(secs(10.0), 5);
        assert_eq!(p.per_second(), Some(0.5));
        // At one instant: a finite rate, still.
        p.finished(secs(10.0), 5);
        assert!(p.per_second().is_some_and(f64::is_finite));
    }

    #[test]
    fn rates_have_three_significant_digits() {
        for (rate, shown) in [
            (12.345, "12.3 runs/s"),
            (0.41, "0.410 runs/s"),
            (0.004123, "0.00412 runs/s"),
            (1.0, "1.00 runs/s"),
            (9.996, "10.0 runs/s"),
            (123.4, "123 runs/s"),
            (98765.4, "98765 runs/s"),
        ] {
            assert_eq!(runs_per_second(rate), shown);
        }
        assert_eq!(significant(f64::INFINITY, 3), "0");
    }

    #[test]
    fn the_bar_counts_finished_runs_and_leaves_them_after_finish() {
        let mut progress = Progress::on(indicatif::ProgressBar::hidden());
        progress.bar.set_length(10);
        progress.add(&[]);
        assert_eq!(progress.done(), 0, "a group whose runs were all stopped");
        progress.finish();
        assert_eq!(progress.done(), 0, "finish does not count the rest as done");
        assert!(progress.shared().over);
    }
}
