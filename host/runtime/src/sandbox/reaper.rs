//! [`Reaper`]: drops the stores of finished runs on a background thread while a core is idle.
//!
//! Dropping a run's store returns its instance to the pooling allocator, which resets the
//! pages of the interpreter's linear memory that the run wrote back to the image (a scan of
//! the memory and a copy per dirty region). When fewer runs are going on than there are cores,
//! the reaper does that reset on an idle core and the caller gets its outcome sooner. When
//! every core is busy running programs, each run drops its own store as before, so saturated
//! throughput pays no extra thread hops.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

/// A background dropper of values of type `T` (started on first use), with a count of the
/// callers currently working so it only takes work when a core is free.
pub(crate) struct Reaper<T: Send + 'static> {
    sender: Mutex<Option<SyncSender<T>>>,
    /// Values handed over and not yet dropped.
    pending: Arc<AtomicUsize>,
    /// Callers between [`enter`](Self::enter) and the end of their guard.
    active: AtomicUsize,
    cores: usize,
}

/// A caller's presence, from [`Reaper::enter`] until dropped.
pub(crate) struct Active<'a>(&'a AtomicUsize);

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl<T: Send + 'static> Reaper<T> {
    /// A reaper for a machine with `std::thread::available_parallelism` cores.
    pub(crate) fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self::with_cores(cores)
    }

    /// A reaper that counts `cores` cores.
    pub(crate) fn with_cores(cores: usize) -> Self {
        Reaper {
            sender: Mutex::new(None),
            pending: Arc::new(AtomicUsize::new(0)),
            active: AtomicUsize::new(0),
            cores,
        }
    }

    /// Counts the caller as busy until the returned guard is dropped.
    pub(crate) fn enter(&self) -> Active<'_> {
        self.active.fetch_add(1, Ordering::Relaxed);
        Active(&self.active)
    }

    /// Drops `value` on the reaper thread when a core is free (busy callers, the caller itself
    /// included, plus values still waiting, are fewer than the cores); otherwise right here.
    pub(crate) fn dispose(&self, value: T) {
        let busy = self.active.load(Ordering::Relaxed) + self.pending.load(Ordering::Relaxed);
        if busy >= self.cores {
            return drop(value);
        }
        let Some(sender) = self.sender() else {
            return drop(value);
        };
        self.pending.fetch_add(1, Ordering::Relaxed);
        if let Err(TrySendError::Full(value) | TrySendError::Disconnected(value)) =
            sender.try_send(value)
        {
            self.pending.fetch_sub(1, Ordering::Relaxed);
            drop(value);
        }
    }

    /// The channel to the reaper thread, starting it on first use (`None` if it cannot start).
    fn sender(&self) -> Option<SyncSender<T>> {
        let mut slot = self.sender.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            let (sender, receiver) = sync_channel::<T>(self.cores);
            let pending = self.pending.clone();
            std::thread::Builder::new()
                .name("geode-sandbox-reaper".into())
                .spawn(move || {
                    for value in receiver {
                        drop(value);
                        pending.fetch_sub(1, Ordering::Relaxed);
                    }
                })
                .ok()?;
            *slot = Some(sender);
        }
        slot.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::Reaper;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// Counts its drops and records the thread that dropped it.
    struct Tracked(Arc<AtomicUsize>, Arc<Mutex<Vec<String>>>);

    impl Drop for Tracked {
        fn drop(&mut self) {
            let name = std::thread::current().name().unwrap_or("").to_owned();
            self.1.lock().unwrap().push(name);
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn wait_for(count: &AtomicUsize, n: usize) {
        let started = Instant::now();
        while count.load(Ordering::SeqCst) < n && started.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(count.load(Ordering::SeqCst), n);
    }

    #[test]
    fn a_lone_caller_hands_its_values_to_the_reaper() {
        let reaper = Reaper::with_cores(2);
        let (dropped, threads) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(Mutex::new(Vec::new())),
        );
        for n in 1..=20 {
            let _active = reaper.enter();
            reaper.dispose(Tracked(dropped.clone(), threads.clone()));
            wait_for(&dropped, n);
        }
        let names = threads.lock().unwrap();
        assert!(
            names.iter().all(|n| n == "geode-sandbox-reaper"),
            "{names:?}"
        );
    }

    #[test]
    fn busy_cores_drop_their_own_values() {
        let reaper = Reaper::with_cores(2);
        let (dropped, threads) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(Mutex::new(Vec::new())),
        );
        let _other = reaper.enter();
        for _ in 0..20 {
            let _active = reaper.enter();
            reaper.dispose(Tracked(dropped.clone(), threads.clone()));
        }
        assert_eq!(dropped.load(Ordering::SeqCst), 20);
        let names = threads.lock().unwrap();
        assert!(
            names.iter().all(|n| n != "geode-sandbox-reaper"),
            "{names:?}"
        );
    }

    #[test]
    fn one_core_never_starts_the_thread() {
        let reaper = Reaper::with_cores(1);
        let (dropped, threads) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(Mutex::new(Vec::new())),
        );
        let _active = reaper.enter();
        reaper.dispose(Tracked(dropped.clone(), threads.clone()));
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
        assert!(reaper.sender.lock().unwrap().is_none());
    }
}
