//! [`Gang`]: fork-join for callers outside any thread pool (a Python trainer, a plain loop).
//!
//! Handing a batch to rayon from such a thread parks the caller until the pool is done: two
//! sleeps and two wake-ups per batch, ~15 µs on these VMs, as much as a dozen env steps. Here the
//! calling thread works on the batch itself, next to helper threads that spin for a while
//! between batches before they park, and it never waits for a helper that has not joined yet.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
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

/// What a batch's participants read when it starts, on one cache line (one transfer to a
/// helper's core per batch).
#[repr(align(128))]
struct Publish {
    /// Bumped by the caller to publish a batch.
    generation: AtomicU64,
    /// [`OPEN`] plus the number of helpers that joined the current batch.
    state: AtomicUsize,
    /// The published batch: the caller's `&Job`, valid while the batch is open or a helper that
    /// joined it has not finished (see [`Gang::run_with`]).
    job: AtomicPtr<&'static Job>,
}

/// Written by helpers as they leave a batch, on a line of its own.
#[repr(align(128))]
struct Finished(AtomicUsize);

struct Shared {
    publish: Publish,
    /// Helpers that joined the current batch and finished it.
    finished: Finished,
    /// Set once a helper caught a panic in the current batch (kept in `panic`).
    panicked: AtomicBool,
    /// The first panic a helper caught, re-raised on the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    /// Helpers parked on `wake` (or about to park: counted under `parking`).
    parked: AtomicUsize,
    parking: Mutex<()>,
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
            publish: Publish {
                generation: AtomicU64::new(0),
                state: AtomicUsize::new(0),
                job: AtomicPtr::new(std::ptr::null_mut()),
            },
            finished: Finished(AtomicUsize::new(0)),
            panicked: AtomicBool::new(false),
            panic: Mutex::new(None),
            parked: AtomicUsize::new(0),
            parking: Mutex::new(()),
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
        if shared.panicked.swap(false, Ordering::Acquire) {
            // Left by a batch whose caller unwound with a panic of its own.
            drop(
                shared
                    .panic
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take(),
            );
        }
        // SAFETY: the reference is only used by helpers that joined this batch (the OPEN bit
        // was set when they joined), and `Close` below waits until all of them finished before
        // this function returns or unwinds, so it never outlives `work` (nor `job`, which
        // lives on this frame).
        let mut job: &'static Job =
            unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static Job>(work) };
        let publish = &shared.publish;
        publish.job.store(&mut job, Ordering::Relaxed);
        shared.finished.0.store(0, Ordering::Relaxed);
        publish.state.store(OPEN, Ordering::Relaxed);
        publish.generation.fetch_add(1, Ordering::Release);
        // Pairs with the fence in `wait_for_batch`: either a parking helper sees the new
        // generation, or this load sees it parked.
        std::sync::atomic::fence(Ordering::SeqCst);
        if shared.parked.load(Ordering::Relaxed) > 0 {
            let _parking = shared
                .parking
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            shared.wake.notify_all();
        }
        let close = Close(shared);
        mine();
        drop(close);
        if shared.panicked.swap(false, Ordering::Acquire)
            && let Some(panic) = shared
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
        let joined = self.0.publish.state.fetch_and(!OPEN, Ordering::AcqRel) & !OPEN;
        while self.0.finished.0.load(Ordering::Acquire) < joined {
            std::hint::spin_loop();
        }
    }
}

impl Drop for Gang {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        {
            let _parking = self
                .shared
                .parking
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
        // SAFETY: this helper joined the open batch, so the caller's `&Job` lives until it
        // counts itself finished below (see `Gang::run_with`).
        let job: &Job = unsafe { *shared.publish.job.load(Ordering::Acquire) };
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| job(me))) {
            shared
                .panic
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(panic);
            shared.panicked.store(true, Ordering::Release);
        }
        shared.finished.0.fetch_add(1, Ordering::Release);
    }
}

/// Counts this helper into the current batch if it is still open.
fn join(shared: &Shared) -> bool {
    let state_of_batch = &shared.publish.state;
    let mut state = state_of_batch.load(Ordering::Acquire);
    while state & OPEN != 0 {
        match state_of_batch.compare_exchange_weak(
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
    let generation_of = || shared.publish.generation.load(Ordering::Acquire);
    for poll in 0u32.. {
        let generation = generation_of();
        if generation != seen || shared.stop.load(Ordering::Acquire) {
            return generation;
        }
        if poll % 64 == 63 && Instant::now() >= spin_until {
            break;
        }
        std::hint::spin_loop();
    }
    let mut parking = shared
        .parking
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    shared.parked.fetch_add(1, Ordering::Relaxed);
    // Pairs with the fence in `Gang::run_with` (see there).
    std::sync::atomic::fence(Ordering::SeqCst);
    loop {
        let generation = generation_of();
        if generation != seen || shared.stop.load(Ordering::Acquire) {
            shared.parked.fetch_sub(1, Ordering::Relaxed);
            return generation;
        }
        parking = shared
            .wake
            .wait(parking)
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
