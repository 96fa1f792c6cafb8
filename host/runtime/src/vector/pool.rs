//! [`AsyncPool`]: EnvPool-style asynchronous stepping. `send` hands actions to worker threads
//! and returns at once; `recv` returns whichever slots finished first. Each episode moves at its
//! own pace: a slow step holds back only its own slot.

use super::slot::{AutoresetMode, Slot, SlotStep};
use crate::env::{Env, Info};
use crate::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A finished step (or reset) of one slot.
#[derive(Debug)]
pub struct Completed {
    /// The slot index.
    pub index: usize,
    /// The slot's result; resets report reward 0 and no flags.
    pub step: SlotStep,
}

/// What a worker is asked to do for one slot.
enum Job {
    Step(String),
    Reset(Option<u64>),
}

/// Where a finished job's result goes.
enum Reply {
    /// The shared completion queue read by `recv`.
    Queue,
    /// A single waiter (`step_one`).
    One(flume::Sender<SlotStep>),
}

struct Shared {
    slots: Vec<Mutex<Slot>>,
    in_flight: Vec<AtomicBool>,
    /// The [`AutoresetMode`] as its index in [`MODES`], changeable while the pool runs.
    mode: AtomicU8,
    done: Completions,
}

/// How long an idle worker polls for the next job before it blocks: the next batch usually
/// follows within microseconds, and a blocked worker costs a wake-up per batch.
const WORKER_SPIN: Duration = Duration::from_micros(50);

/// The next job, or `None` once the pool is dropped.
fn next_job<T>(queue: &flume::Receiver<T>) -> Option<T> {
    let spin_until = Instant::now() + WORKER_SPIN;
    loop {
        match queue.try_recv() {
            Ok(job) => return Some(job),
            Err(flume::TryRecvError::Disconnected) => return None,
            Err(flume::TryRecvError::Empty) if Instant::now() < spin_until => {
                std::thread::yield_now()
            }
            Err(flume::TryRecvError::Empty) => return queue.recv().ok(),
        }
    }
}

/// The autoreset modes by their stored index.
const MODES: [AutoresetMode; 3] = [
    AutoresetMode::SameStep,
    AutoresetMode::NextStep,
    AutoresetMode::Disabled,
];

fn mode_index(mode: AutoresetMode) -> u8 {
    MODES.iter().position(|m| *m == mode).unwrap_or(0) as u8
}

/// Finished results waiting for `recv`. A waiter says how many it needs and is woken once, when
/// that many are ready, instead of once per result (a wake-up costs more than a quick step).
#[derive(Default)]
struct Completions {
    ready: Mutex<Ready>,
    /// Signals the blocked `recv` that its batch is complete.
    filled: Condvar,
    /// Signals `recv_async` that its batch is complete (keeps a permit if it is not waiting yet).
    filled_async: tokio::sync::Notify,
}

#[derive(Default)]
struct Ready {
    results: Vec<Completed>,
    /// The batch size the blocked `recv` waits for (0: none waits).
    wanted: usize,
    /// The batch size `recv_async` waits for (0: none waits).
    wanted_async: usize,
}

impl Completions {
    fn lock(&self) -> MutexGuard<'_, Ready> {
        self.ready.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, done: Completed) {
        let mut ready = self.lock();
        ready.results.push(done);
        let n = ready.results.len();
        let (sync_full, async_full) = (
            ready.wanted != 0 && n >= ready.wanted,
            ready.wanted_async != 0 && n >= ready.wanted_async,
        );
        drop(ready);
        if sync_full {
            self.filled.notify_one();
        }
        if async_full {
            self.filled_async.notify_one();
        }
    }
}

/// An asynchronous pool of env slots served by dedicated worker threads. `send`/`recv` may be
/// called from any thread; `recv_async` and `step_one` from async code (tokio or any executor).
pub struct AsyncPool {
    shared: Arc<Shared>,
    jobs: Option<flume::Sender<(usize, Job, Reply)>>,
    workers: Vec<std::thread::JoinHandle<()>>,
}

impl AsyncPool {
    /// A pool over `envs` with `threads` workers (0 = one per core).
    pub fn new(envs: Vec<Box<dyn Env>>, mode: AutoresetMode, threads: usize) -> Result<Self> {
        let in_flight = envs.iter().map(|_| AtomicBool::new(false)).collect();
        let slots = envs.into_iter().map(|e| Mutex::new(Slot::new(e))).collect();
        let shared = Arc::new(Shared {
            slots,
            in_flight,
            mode: AtomicU8::new(mode_index(mode)),
            done: Completions::default(),
        });
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        let (jobs, queue) = flume::unbounded::<(usize, Job, Reply)>();
        let mut workers = Vec::with_capacity(threads);
        for i in 0..threads {
            let shared = shared.clone();
            let queue = queue.clone();
            let worker = std::thread::Builder::new()
                .name(format!("geode-pool-{i}"))
                .spawn(move || {
                    while let Some((index, job, reply)) = next_job(&queue) {
                        shared.finish(index, job, reply);
                    }
                })
                .map_err(|e| Error::Internal(format!("cannot start pool threads: {e}")))?;
            workers.push(worker);
        }
        Ok(AsyncPool {
            shared,
            jobs: Some(jobs),
            workers,
        })
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.shared.slots.len()
    }

    /// The autoreset mode.
    pub fn autoreset_mode(&self) -> AutoresetMode {
        self.shared.mode()
    }

    /// Sets the autoreset mode of the jobs that start from now on; slots keep their episodes.
    pub fn set_autoreset_mode(&self, mode: AutoresetMode) {
        self.shared.mode.store(mode_index(mode), Ordering::Release);
    }

    /// Runs `f` on slot `index` on the calling thread (GEM's `vec.envs[index]`). Fails when the
    /// slot has a job in flight; no job can start on it until `f` returns.
    pub fn with_slot<R>(&self, index: usize, f: impl FnOnce(&mut Slot) -> Result<R>) -> Result<R> {
        self.claim(index)?;
        let result = {
            let mut slot = self.shared.slots[index]
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            f(&mut slot)
        };
        self.shared.in_flight[index].store(false, Ordering::Release);
        result
    }

    /// Whether slot `index` has a step or reset in flight.
    pub fn is_in_flight(&self, index: usize) -> bool {
        self.shared
            .in_flight
            .get(index)
            .is_some_and(|f| f.load(Ordering::Acquire))
    }

    /// Starts a step of each `(index, action)`. Fails without sending anything when an index is
    /// out of range, repeated, or still in flight.
    pub fn send(&self, actions: Vec<(usize, String)>) -> Result<()> {
        self.dispatch(
            actions
                .into_iter()
                .map(|(i, a)| (i, Job::Step(a)))
                .collect(),
        )
    }

    /// Starts a reset of each `(index, seed)`; results arrive through `recv` like steps.
    pub fn send_reset(&self, seeds: Vec<(usize, Option<u64>)>) -> Result<()> {
        self.dispatch(seeds.into_iter().map(|(i, s)| (i, Job::Reset(s))).collect())
    }

    /// Claims every index (all or nothing), then queues the jobs.
    fn dispatch(&self, jobs: Vec<(usize, Job)>) -> Result<()> {
        let mut claimed: Vec<usize> = Vec::with_capacity(jobs.len());
        for (i, _) in &jobs {
            if let Err(problem) = self.claim(*i) {
                for j in claimed {
                    self.shared.in_flight[j].store(false, Ordering::Release);
                }
                return Err(problem);
            }
            claimed.push(*i);
        }
        let queue = self.jobs.as_ref().expect("pool is running");
        for (index, job) in jobs {
            queue
                .send((index, job, Reply::Queue))
                .map_err(|_| Error::Internal("pool workers stopped".into()))?;
        }
        Ok(())
    }

    fn claim(&self, index: usize) -> Result<()> {
        let n = self.num_envs();
        let flag = self.shared.in_flight.get(index).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "env index {index} is out of range (num_envs = {n})"
            ))
        })?;
        flag.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .map(|_| ())
            .map_err(|_| {
                Error::InvalidArgument(format!(
                    "env {index} still has a step in flight; recv its result before sending again"
                ))
            })
    }

    /// Waits until at least `min_batch` results are ready (or `timeout` passes) and returns every
    /// ready result, in completion order.
    pub fn recv(&self, min_batch: usize, timeout: Option<Duration>) -> Vec<Completed> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let done = &self.shared.done;
        let mut ready = done.lock();
        while ready.results.len() < min_batch {
            ready.wanted = min_batch;
            ready = match deadline {
                None => done.filled.wait(ready).unwrap_or_else(|p| p.into_inner()),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        break;
                    }
                    done.filled
                        .wait_timeout(ready, deadline - now)
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            };
        }
        ready.wanted = 0;
        std::mem::take(&mut ready.results)
    }

    /// The async form of [`AsyncPool::recv`] (no timeout; wrap it in one if needed).
    pub async fn recv_async(&self, min_batch: usize) -> Vec<Completed> {
        let done = &self.shared.done;
        loop {
            {
                let mut ready = done.lock();
                if ready.results.len() >= min_batch {
                    ready.wanted_async = 0;
                    return std::mem::take(&mut ready.results);
                }
                ready.wanted_async = min_batch;
            }
            done.filled_async.notified().await;
        }
    }

    /// Steps one slot and awaits exactly its result: the per-episode async API. Results of other
    /// slots stay queued for `recv`.
    pub async fn step_one(&self, index: usize, action: String) -> Result<SlotStep> {
        self.claim(index)?;
        let (tx, rx) = flume::bounded(1);
        let queue = self.jobs.as_ref().expect("pool is running");
        queue
            .send((index, Job::Step(action), Reply::One(tx)))
            .map_err(|_| Error::Internal("pool workers stopped".into()))?;
        rx.recv_async()
            .await
            .map_err(|_| Error::Internal("pool worker stopped".into()))
    }
}

impl Drop for AsyncPool {
    fn drop(&mut self) {
        self.jobs = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl Shared {
    fn mode(&self) -> AutoresetMode {
        MODES[usize::from(self.mode.load(Ordering::Acquire)) % MODES.len()]
    }

    fn execute(&self, index: usize, job: Job) -> SlotStep {
        let mut slot = self.slots[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match job {
            Job::Step(action) => slot.advance(&action, self.mode()),
            Job::Reset(seed) => match slot.reset(seed) {
                Ok((observation, info)) => SlotStep::reset(observation, info),
                Err(error) => SlotStep {
                    error: Some(error),
                    ..SlotStep::reset(String::new(), Info::empty())
                },
            },
        }
    }

    fn finish(&self, index: usize, job: Job, reply: Reply) {
        let step = self.execute(index, job);
        self.in_flight[index].store(false, Ordering::Release);
        match reply {
            Reply::Queue => self.done.push(Completed { index, step }),
            Reply::One(tx) => {
                let _ = tx.send(step);
            }
        }
    }
}
