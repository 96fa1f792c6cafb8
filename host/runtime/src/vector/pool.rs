//! [`AsyncPool`]: EnvPool-style asynchronous stepping. `send` hands actions to worker threads
//! and returns at once; `recv` returns whichever slots finished first. Each episode moves at its
//! own pace: a slow step holds back only its own slot.

use super::slot::{AutoresetMode, Slot, SlotStep};
use crate::env::{Env, Info};
use crate::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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

struct Shared {
    slots: Vec<Mutex<Slot>>,
    in_flight: Vec<AtomicBool>,
    mode: AutoresetMode,
    done_tx: flume::Sender<Completed>,
}

/// An asynchronous pool of env slots. `send`/`recv` may be called from any thread; `recv_async`
/// from async code (tokio or any executor).
pub struct AsyncPool {
    shared: Arc<Shared>,
    workers: rayon::ThreadPool,
    done_rx: flume::Receiver<Completed>,
}

impl AsyncPool {
    /// A pool over `envs` with `threads` workers (0 = one per core).
    pub fn new(envs: Vec<Box<dyn Env>>, mode: AutoresetMode, threads: usize) -> Result<Self> {
        let (done_tx, done_rx) = flume::unbounded();
        let in_flight = envs.iter().map(|_| AtomicBool::new(false)).collect();
        let slots = envs.into_iter().map(|e| Mutex::new(Slot::new(e))).collect();
        let workers = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("geode-pool-{i}"))
            .build()
            .map_err(|e| Error::Internal(format!("cannot start pool threads: {e}")))?;
        Ok(AsyncPool {
            shared: Arc::new(Shared {
                slots,
                in_flight,
                mode,
                done_tx,
            }),
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

    fn dispatch(&self, jobs: Vec<(usize, Job)>) -> Result<()> {
        let n = self.num_envs();
        let mut claimed: Vec<usize> = Vec::with_capacity(jobs.len());
        for (i, _) in &jobs {
            let claim = self
                .shared
                .in_flight
                .get(*i)
                .map(|f| f.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire));
            let problem = match claim {
                None => Some(format!("env index {i} is out of range (num_envs = {n})")),
                Some(Err(_)) => Some(format!(
                    "env {i} still has a step in flight; recv its result before sending again"
                )),
                Some(Ok(_)) => None,
            };
            if let Some(problem) = problem {
                for j in claimed {
                    self.shared.in_flight[j].store(false, Ordering::Release);
                }
                return Err(Error::InvalidArgument(problem));
            }
            claimed.push(*i);
        }
        for (index, job) in jobs {
            let shared = self.shared.clone();
            self.workers.spawn(move || shared.run(index, job));
        }
        Ok(())
    }

    /// Waits until at least `min_batch` results are ready (or `timeout` passes) and returns every
    /// ready result, in completion order.
    pub fn recv(&self, min_batch: usize, timeout: Option<Duration>) -> Vec<Completed> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut out: Vec<Completed> = self.done_rx.try_iter().collect();
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

    /// Sends one step and awaits exactly that slot's result (the per-episode async API).
    /// Other slots' results that arrive meanwhile stay queued for `recv`.
    pub async fn step_one(&self, index: usize, action: String) -> Result<SlotStep> {
        let (tx, rx) = flume::bounded(1);
        self.dispatch_with(index, Job::Step(action), tx)?;
        rx.recv_async()
            .await
            .map_err(|_| Error::Internal("pool worker stopped".into()))
    }

    fn dispatch_with(&self, index: usize, job: Job, reply: flume::Sender<SlotStep>) -> Result<()> {
        let n = self.num_envs();
        let flag = self.shared.in_flight.get(index).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "env index {index} is out of range (num_envs = {n})"
            ))
        })?;
        if flag
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return Err(Error::InvalidArgument(format!(
                "env {index} still has a step in flight"
            )));
        }
        let shared = self.shared.clone();
        self.workers.spawn(move || {
            let step = shared.execute(index, job);
            shared.in_flight[index].store(false, Ordering::Release);
            let _ = reply.send(step);
        });
        Ok(())
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

    fn run(&self, index: usize, job: Job) {
        let step = self.execute(index, job);
        self.in_flight[index].store(false, Ordering::Release);
        let _ = self.done_tx.send(Completed { index, step });
    }
}
