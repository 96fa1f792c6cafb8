//! [`AsyncPool`]: EnvPool-style asynchronous stepping. `send` hands actions to worker threads
//! and returns at once; `recv` returns whichever slots finished first. Each episode moves at its
//! own pace: a slow step holds back only its own slot.

use super::slot::{AutoresetMode, Slot, SlotStep};
use crate::env::{Env, Info};
use crate::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long `recv` polls for results before it blocks.
const SPIN_BEFORE_SLEEP: Duration = Duration::from_micros(50);

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
    mode: AutoresetMode,
    done_tx: flume::Sender<Completed>,
}

/// An asynchronous pool of env slots served by dedicated worker threads. `send`/`recv` may be
/// called from any thread; `recv_async` and `step_one` from async code (tokio or any executor).
pub struct AsyncPool {
    shared: Arc<Shared>,
    jobs: Option<flume::Sender<(usize, Job, Reply)>>,
    workers: Vec<std::thread::JoinHandle<()>>,
    done_rx: flume::Receiver<Completed>,
}

impl AsyncPool {
    /// A pool over `envs` with `threads` workers (0 = one per core).
    pub fn new(envs: Vec<Box<dyn Env>>, mode: AutoresetMode, threads: usize) -> Result<Self> {
        let (done_tx, done_rx) = flume::unbounded();
        let in_flight = envs.iter().map(|_| AtomicBool::new(false)).collect();
        let slots = envs.into_iter().map(|e| Mutex::new(Slot::new(e))).collect();
        let shared = Arc::new(Shared {
            slots,
            in_flight,
            mode,
            done_tx,
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
                    while let Ok((index, job, reply)) = queue.recv() {
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
            done_rx,
        })
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.shared.slots.len()
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
        let mut out: Vec<Completed> = self.done_rx.try_iter().collect();
        // Results of quick steps arrive microseconds apart: yielding briefly before sleeping
        // saves a futex sleep and wake-up per result.
        let spin_until = Instant::now() + SPIN_BEFORE_SLEEP;
        while out.len() < min_batch && Instant::now() < spin_until {
            std::thread::yield_now();
            out.extend(self.done_rx.try_iter());
        }
        while out.len() < min_batch {
            let next = match deadline {
                Some(d) => self.done_rx.recv_deadline(d).ok(),
                None => self.done_rx.recv().ok(),
            };
            match next {
                Some(done) => out.push(done),
                None => break,
            }
            out.extend(self.done_rx.try_iter());
        }
        out
    }

    /// The async form of [`AsyncPool::recv`] (no timeout; wrap it in one if needed).
    pub async fn recv_async(&self, min_batch: usize) -> Vec<Completed> {
        let mut out: Vec<Completed> = self.done_rx.try_iter().collect();
        while out.len() < min_batch {
            match self.done_rx.recv_async().await {
                Ok(done) => out.push(done),
                Err(_) => break,
            }
            out.extend(self.done_rx.try_iter());
        }
        out
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
    fn execute(&self, index: usize, job: Job) -> SlotStep {
        let mut slot = self.slots[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match job {
            Job::Step(action) => slot.advance(&action, self.mode),
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
            Reply::Queue => {
                let _ = self.done_tx.send(Completed { index, step });
            }
            Reply::One(tx) => {
                let _ = tx.send(step);
            }
        }
    }
}
