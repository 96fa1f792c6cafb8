//! [`Gang`]: fork-join for callers outside any thread pool (a Python trainer, a plain loop).
//!
//! Handing a batch to rayon from such a thread parks the caller until the pool is done: two
//! sleeps and two wake-ups per batch, ~15 µs on these VMs, as much as a dozen env steps. Here the
//! calling thread works on the batch itself, next to helper threads that spin for a while
//! between batches before they park, and it never waits for a helper that has not joined yet.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long an idle helper polls for the next batch before it parks.
const SPIN: Duration = Duration::from_micros(200);

/// Set in [`Shared::state`] while the current batch accepts helpers; the low bits count the
/// helpers that joined it.
const OPEN: usize = 1 << (usize::BITS - 1);

/// A batch's work (given the participant's number), with the lifetime of its borrows erased
/// while it is published.
type Job = dyn Fn(usize) + Sync + 'static;

struct Shared {
    /// Bumped by the caller to publish a batch.
    generation: AtomicU64,
    /// The published batch. Written only by the caller while no helper is inside a batch; read
    /// by a helper only after it joined the batch (see [`Gang::run`]).
    job: Mutex<Option<&'static Job>>,
    /// [`OPEN`] plus the number of helpers that joined the current batch.
    state: AtomicUsize,
    /// Helpers that joined the current batch and finished it.
    finished: AtomicUsize,
    /// The first panic a helper caught, re-raised on the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    parked: Mutex<usize>,
    wake: Condvar,
    stop: AtomicBool,
}

/// A calling thread plus `helpers` threads that run batches together.
pub struct Gang {
    shared: Arc<Shared>,
    /// One batch at a time: a second caller finds it busy and uses another way.
    busy: Mutex<()>,
    helpers: Vec<std::thread::JoinHandle<()>>,
}

impl Gang {
    /// A gang with `helpers` helper threads.
    pub fn new(helpers: usize) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            generation: AtomicU64::new(0),
            job: Mutex::new(None),
            state: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            panic: Mutex::new(None),
            parked: Mutex::new(0),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let helpers = (0..helpers)
            .map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("geode-gang-{i}"))
                    .spawn(move || help(&shared, i + 1))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Gang {
            shared,
            busy: Mutex::new(()),
            helpers,
        })
    }

    /// Number of helper threads.
    pub fn helpers(&self) -> usize {
        self.helpers.len()
    }

    /// Runs `work` on the calling thread and on every helper that comes by while it runs, and
    /// returns once every participant is done. `work` must share out the batch itself (each
    /// participant calls it once, with its number: 0 for the caller, 1 to `helpers()` for the
    /// helpers; it should take items from shared counters until none is left). Returns `false`
    /// without running anything when another batch is in progress.
    pub fn run(&self, work: &(dyn Fn(usize) + Sync)) -> bool {
        self.run_with(work, &mut || work(0))
    }

    /// [`Gang::run`] where the calling thread runs `mine` instead of `work(0)`: its part of
    /// the batch, plus whatever only the caller may do meanwhile (it need not be `Sync`).
    pub fn run_with(&self, work: &(dyn Fn(usize) + Sync), mine: &mut dyn FnMut()) -> bool {
        let _batch = match self.busy.try_lock() {
            Ok(guard) => guard,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return false,
        };
        let shared = &*self.shared;
        drop(
            shared
                .panic
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take(),
        );
        // SAFETY: the reference is only used by helpers that joined this batch (the OPEN bit
        // was set when they joined), and `Close` below waits until all of them finished before
        // this function returns or unwinds, so it never outlives `work`.
        let job: &'static Job =
            unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static Job>(work) };
        *shared.job.lock().unwrap_or_else(PoisonError::into_inner) = Some(job);
        shared.finished.store(0, Ordering::Relaxed);
        shared.state.store(OPEN, Ordering::Release);
        shared.generation.fetch_add(1, Ordering::Release);
        if *shared.parked.lock().unwrap_or_else(PoisonError::into_inner) > 0 {
            shared.wake.notify_all();
        }
        let close = Close(shared);
        mine();
        drop(close);
        if let Some(panic) = shared
            .panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            resume_unwind(panic);
        }
        true
    }
}

/// Closes the batch to late helpers and waits for those that joined, also while unwinding.
struct Close<'a>(&'a Shared);

impl Drop for Close<'_> {
    fn drop(&mut self) {
        let joined = self.0.state.fetch_and(!OPEN, Ordering::AcqRel) & !OPEN;
        while self.0.finished.load(Ordering::Acquire) < joined {
            std::hint::spin_loop();
        }
        *self.0.job.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Drop for Gang {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        {
            let _parked = self
                .shared
                .parked
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.shared.wake.notify_all();
        }
        for helper in self.helpers.drain(..) {
            let _ = helper.join();
        }
    }
}

/// A helper's life: wait for a batch (spinning, then parked), join it if still open, work as
/// participant `me`.
fn help(shared: &Shared, me: usize) {
    let mut seen = 0u64;
    loop {
        let generation = wait_for_batch(shared, seen);
        if shared.stop.load(Ordering::Acquire) {
            return;
        }
        seen = generation;
        if !join(shared) {
            continue;
        }
        let job = *shared.job.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(job) = job
            && let Err(panic) = catch_unwind(AssertUnwindSafe(|| job(me)))
        {
            shared
                .panic
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(panic);
        }
        shared.finished.fetch_add(1, Ordering::Release);
    }
}

/// Counts this helper into the current batch if it is still open.
fn join(shared: &Shared) -> bool {
    let mut state = shared.state.load(Ordering::Acquire);
    while state & OPEN != 0 {
        match shared.state.compare_exchange_weak(
            state,
            state + 1,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => return true,
            Err(now) => state = now,
        }
    }
    false
}

/// The generation of the next batch after `seen` (or the current one when stopping).
fn wait_for_batch(shared: &Shared, seen: u64) -> u64 {
    let spin_until = Instant::now() + SPIN;
    // The clock is read every 64 polls only: reading it costs more than a poll.
    for poll in 0u32.. {
        let generation = shared.generation.load(Ordering::Acquire);
        if generation != seen || shared.stop.load(Ordering::Acquire) {
            return generation;
        }
        if poll % 64 == 63 && Instant::now() >= spin_until {
            break;
        }
        std::hint::spin_loop();
    }
    let mut parked = shared.parked.lock().unwrap_or_else(PoisonError::into_inner);
    *parked += 1;
    loop {
        let generation = shared.generation.load(Ordering::Acquire);
        if generation != seen || shared.stop.load(Ordering::Acquire) {
            *parked -= 1;
            return generation;
        }
        parked = shared
            .wake
            .wait(parked)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum_in_parallel(gang: &Gang, n: usize) -> usize {
        let next = AtomicUsize::new(0);
        let total = AtomicUsize::new(0);
        let work = |_participant: usize| {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                total.fetch_add(i, Ordering::Relaxed);
            }
        };
        assert!(gang.run(&work));
        total.into_inner()
    }

    #[test]
    fn every_item_is_done_once_batch_after_batch() {
        let gang = Gang::new(2).unwrap();
        for n in [0, 1, 7, 1000] {
            for _ in 0..50 {
                assert_eq!(sum_in_parallel(&gang, n), n * n.saturating_sub(1) / 2);
            }
        }
        std::thread::sleep(SPIN * 3); // helpers park; the next batch must wake them
        assert_eq!(sum_in_parallel(&gang, 100), 4950);
    }

    #[test]
    fn a_panic_in_a_batch_reaches_the_caller_and_the_gang_goes_on() {
        let gang = Gang::new(1).unwrap();
        let hit = std::panic::catch_unwind(AssertUnwindSafe(|| {
            gang.run(&|_| panic!("boom"));
        }));
        assert!(hit.is_err());
        assert_eq!(sum_in_parallel(&gang, 10), 45);
    }
}
