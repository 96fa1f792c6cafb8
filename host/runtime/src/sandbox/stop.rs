//! [`StopSignal`]: what ties the runs of one answer together. Any of them can stop all of them
//! (the first failed test makes the others pointless when the reward is all-or-nothing), and
//! together they may not run longer than the answer's wall-clock budget ([`AnswerBudget`]).
//!
//! The budget counts the time during which at least one of the answer's runs is running, not
//! the time its runs wait for a free core: on a busy machine (a trainer grading hundreds of
//! answers on a shared pool) a queued test must not eat the budget, or a right answer would be
//! refused for the load it met.
//!
//! A running program notices within [`CHECK_INTERVAL`]: the run's epoch deadline wakes it that
//! often to look at the signal (a relaxed atomic load and a clock read).

use crate::engine::{EPOCH_TICK, deadline_ticks};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wasmtime::{Store, UpdateDeadline};

/// How often a running program checks its stop signal.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(5);

/// The wall-clock budget the runs of one answer share: it runs down only while at least one
/// of them is running. Share it as `Arc<AnswerBudget>` between the answer's [`StopSignal`]s.
#[derive(Debug)]
pub struct AnswerBudget {
    budget: Duration,
    busy: Mutex<Busy>,
}

/// How much of an [`AnswerBudget`] is spent, and since when runs are going on.
#[derive(Debug, Default)]
struct Busy {
    running: usize,
    spent: Duration,
    since: Option<Instant>,
}

impl Busy {
    fn spent_at(&self, now: Instant) -> Duration {
        self.spent + self.since.map_or(Duration::ZERO, |since| now - since)
    }
}

impl AnswerBudget {
    /// A budget of `budget` of running time.
    pub fn new(budget: Duration) -> Arc<Self> {
        Arc::new(AnswerBudget {
            budget,
            busy: Mutex::new(Busy::default()),
        })
    }

    /// What is left now.
    pub fn remaining(&self) -> Duration {
        let busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        self.budget.saturating_sub(busy.spent_at(Instant::now()))
    }

    /// Marks a run as started; returns what is left of the budget (while this run goes on,
    /// the budget runs down in real time, so the run may last that long) and a guard that
    /// marks the run as ended when dropped.
    fn start_run(self: &Arc<Self>) -> (Duration, RunningGuard) {
        let now = Instant::now();
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        if busy.running == 0 {
            busy.since = Some(now);
        }
        busy.running += 1;
        let left = self.budget.saturating_sub(busy.spent_at(now));
        (left, RunningGuard(self.clone()))
    }
}

/// Marks one run of an [`AnswerBudget`] as ended when dropped.
#[derive(Debug)]
pub struct RunningGuard(Arc<AnswerBudget>);

impl Drop for RunningGuard {
    fn drop(&mut self) {
        let mut busy = self.0.busy.lock().unwrap_or_else(|e| e.into_inner());
        busy.running -= 1;
        if busy.running == 0 {
            let now = Instant::now();
            busy.spent = busy.spent_at(now);
            busy.since = None;
        }
    }
}

/// A stop shared by related runs: a flag any of them (or the caller) may raise, and an optional
/// [`AnswerBudget`] they share. Share it as `Arc<StopSignal>`.
#[derive(Debug, Default)]
pub struct StopSignal {
    stopped: AtomicBool,
    budget: Option<Arc<AnswerBudget>>,
}

impl StopSignal {
    /// A signal that is never raised and sets no budget.
    pub fn new() -> Arc<Self> {
        Arc::new(StopSignal::default())
    }

    /// A signal whose runs draw on `budget` (which other signals may share).
    pub fn with_budget(budget: Arc<AnswerBudget>) -> Arc<Self> {
        Arc::new(StopSignal {
            stopped: AtomicBool::new(false),
            budget: Some(budget),
        })
    }

    /// Stops every run sharing this signal (those running end within [`CHECK_INTERVAL`]; those
    /// not started yet do not start).
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether [`stop`](Self::stop) was called.
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// What is left of the budget (`None`: no budget).
    pub fn remaining(&self) -> Option<Duration> {
        self.budget.as_ref().map(|budget| budget.remaining())
    }

    /// Marks a run as started: what is left of the budget for it (`None`: no budget), and a
    /// guard to keep until the run ends.
    pub fn start_run(&self) -> (Option<Duration>, Option<RunningGuard>) {
        match &self.budget {
            Some(budget) => {
                let (left, guard) = budget.start_run();
                (Some(left), Some(guard))
            }
            None => (None, None),
        }
    }
}

/// Why a run was interrupted, recorded by the epoch callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    /// The run's own wall-clock limit (or the answer budget that shortened it) passed.
    Deadline,
    /// Its stop signal was raised.
    Stopped,
}

/// Access to the slot where a run records why it was interrupted.
pub trait HasInterrupt {
    /// The slot.
    fn interrupted(&mut self) -> &mut Option<Interrupted>;
}

/// Arms `store` to stop at `timeout` from now (never early: the epoch deadline is only a
/// wake-up, the callback checks the real clock) or when `stop` is raised, whichever comes first.
pub fn arm<T: HasInterrupt + 'static>(
    store: &mut Store<T>,
    timeout: Duration,
    stop: Arc<StopSignal>,
) {
    let until = Instant::now() + timeout;
    let check = deadline_ticks(CHECK_INTERVAL).saturating_sub(1).max(1);
    let next = move |left: Duration| deadline_ticks(left).min(check);
    store.set_epoch_deadline(next(timeout));
    store.epoch_deadline_callback(move |mut context| {
        if stop.is_stopped() {
            *context.data_mut().interrupted() = Some(Interrupted::Stopped);
            return Ok(UpdateDeadline::Interrupt);
        }
        let now = Instant::now();
        if now >= until {
            *context.data_mut().interrupted() = Some(Interrupted::Deadline);
            return Ok(UpdateDeadline::Interrupt);
        }
        Ok(UpdateDeadline::Continue(next(until - now)))
    });
    debug_assert!(CHECK_INTERVAL >= EPOCH_TICK);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_run_down_only_while_a_run_goes_on_and_stops_stick() {
        let budget = AnswerBudget::new(Duration::from_secs(60));
        let signal = StopSignal::with_budget(budget.clone());
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(
            signal.remaining(),
            Some(Duration::from_secs(60)),
            "no run yet"
        );
        let (left, guard) = signal.start_run();
        assert_eq!(left, Some(Duration::from_secs(60)));
        let (_, second) = StopSignal::with_budget(budget.clone()).start_run();
        std::thread::sleep(Duration::from_millis(20));
        drop(guard);
        std::thread::sleep(Duration::from_millis(20));
        drop(second);
        let spent = Duration::from_secs(60) - budget.remaining();
        assert!(spent >= Duration::from_millis(40), "{spent:?}");
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(
            Duration::from_secs(60) - budget.remaining(),
            spent,
            "idle time is free"
        );
        assert!(!signal.is_stopped());
        signal.stop();
        assert!(signal.is_stopped());
        assert_eq!(StopSignal::new().remaining(), None);
    }
}
