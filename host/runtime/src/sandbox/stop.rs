//! [`StopSignal`]: what ties the runs of one answer together. Any of them can stop all of them
//! (the first failed test makes the others pointless when the reward is all-or-nothing), and
//! none runs past the answer's wall-clock budget.
//!
//! A running program notices within [`CHECK_INTERVAL`]: the run's epoch deadline wakes it that
//! often to look at the signal (a relaxed atomic load and a clock read).

use crate::engine::{EPOCH_TICK, deadline_ticks};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wasmtime::{Store, UpdateDeadline};

/// How often a running program checks its stop signal.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(5);

/// A stop shared by related runs: a flag any of them (or the caller) may raise, and an optional
/// instant none of them may run past. Share it as `Arc<StopSignal>`.
#[derive(Debug, Default)]
pub struct StopSignal {
    stopped: AtomicBool,
    until: Option<Instant>,
}

impl StopSignal {
    /// A signal that is never raised and sets no budget.
    pub fn new() -> Arc<Self> {
        Arc::new(StopSignal::default())
    }

    /// A signal whose runs must all end within `budget` from now.
    pub fn with_budget(budget: Duration) -> Arc<Self> {
        Arc::new(StopSignal {
            stopped: AtomicBool::new(false),
            until: Instant::now().checked_add(budget),
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

    /// The instant no run may pass, if any.
    pub fn until(&self) -> Option<Instant> {
        self.until
    }

    /// What is left of the budget (`None`: no budget).
    pub fn remaining(&self) -> Option<Duration> {
        self.until
            .map(|until| until.saturating_duration_since(Instant::now()))
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
    fn budgets_count_down_and_stops_stick() {
        let signal = StopSignal::with_budget(Duration::from_secs(60));
        assert!(signal.remaining().unwrap() <= Duration::from_secs(60));
        assert!(!signal.is_stopped());
        signal.stop();
        assert!(signal.is_stopped());
        assert_eq!(StopSignal::new().remaining(), None);
    }
}
