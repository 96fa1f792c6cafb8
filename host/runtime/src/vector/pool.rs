//! [`AsyncPool`]: EnvPool-style asynchronous stepping. `send` hands actions to worker threads
//! and returns at once; `recv` returns whichever slots finished first. Each episode moves at its
//! own pace: a slow step holds back only the slots of its own unit.
//!
//! Work is queued per unit: the jobs waiting for a unit's slots when a worker takes the unit up
//! run as one batch, with one step call into the unit (see [`super::advance`]).

use super::engine::Engine;
use super::slot::{AutoresetMode, Slot, SlotStep};
use super::unit_step::UnitStep;
use super::units::Units;
use crate::env::Info;
use crate::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
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

/// The jobs waiting for one unit's slots. At most one worker job for the unit is queued or
/// running at a time; jobs sent meanwhile wait for the next one.
#[derive(Default)]
struct Waiting {
    jobs: Vec<(usize, Job, Reply)>,
    /// The unit is queued or running.
    queued: bool,
}

/// Where a finished job's result goes.
enum Reply {
    /// The shared completion queue read by `recv`.
    Queue,
    /// A single waiter (`step_one`).
    One(flume::Sender<SlotStep>),
}

struct Shared {
    engine: Engine,
    waiting: Vec<Mutex<Waiting>>,
    /// Which slots a job, a slot visit or a partial call holds.
    in_flight: Vec<AtomicBool>,
    /// How many of `in_flight` are set: a whole-batch step checks this instead of every slot.
    claimed: AtomicUsize,
    /// A whole-batch step runs; slots cannot be claimed meanwhile.
    whole_batch: AtomicBool,
    /// Queues a unit's next batch from a worker (weak: dropping the pool still ends the
    /// workers).
    requeue: flume::WeakSender<usize>,
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

    fn push_all(&self, done: impl IntoIterator<Item = Completed>) {
        let mut ready = self.lock();
        ready.results.extend(done);
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
    jobs: Option<flume::Sender<usize>>,
    /// The workers' end of `jobs`, cloned for each worker when they start.
    queue: flume::Receiver<usize>,
    /// How many workers start with the first job sent.
    threads: usize,
    /// The workers, started by the first job sent: a pool used only through its whole-batch
    /// calls (`step_all_now`, `step_some_now`, `reset_some_now`) never starts a thread.
    workers: Mutex<Vec<std::thread::JoinHandle<()>>>,
    started: AtomicBool,
}

impl AsyncPool {
    /// A pool over `units` with `threads` workers (0 = one per core), started when the first
    /// job is sent.
    pub fn new(units: Units, mode: AutoresetMode, threads: usize) -> Result<Self> {
        Ok(Self::over(Engine::new(units), mode, threads))
    }

    /// A pool over the slots of `engine` (see [`AsyncPool::new`]).
    pub(crate) fn over(engine: Engine, mode: AutoresetMode, threads: usize) -> Self {
        let in_flight = (0..engine.num_envs())
            .map(|_| AtomicBool::new(false))
            .collect();
        let waiting = (0..engine.num_units()).map(|_| Mutex::default()).collect();
        let (jobs, queue) = flume::unbounded::<usize>();
        let shared = Arc::new(Shared {
            engine,
            waiting,
            in_flight,
            claimed: AtomicUsize::new(0),
            whole_batch: AtomicBool::new(false),
            requeue: jobs.downgrade(),
            mode: AtomicU8::new(mode_index(mode)),
            done: Completions::default(),
        });
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        AsyncPool {
            shared,
            jobs: Some(jobs),
            queue,
            threads,
            workers: Mutex::new(Vec::new()),
            started: AtomicBool::new(false),
        }
    }

    /// Starts the workers unless they run already.
    fn start_workers(&self) -> Result<()> {
        if self.started.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut workers = self.workers.lock().unwrap_or_else(PoisonError::into_inner);
        if !workers.is_empty() {
            return Ok(());
        }
        for i in 0..self.threads {
            let shared = self.shared.clone();
            let queue = self.queue.clone();
            let worker = std::thread::Builder::new()
                .name(format!("geode-pool-{i}"))
                .spawn(move || {
                    while let Some(unit) = next_job(&queue) {
                        shared.run_unit(unit);
                    }
                })
                .map_err(|e| Error::Internal(format!("cannot start pool threads: {e}")))?;
            workers.push(worker);
        }
        self.started.store(true, Ordering::Release);
        Ok(())
    }

    /// How many worker threads run: none until the first job is sent, then all of them.
    pub fn running_workers(&self) -> usize {
        self.workers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.shared.engine.num_envs()
    }

    /// Number of units the slots are stepped in.
    pub fn num_units(&self) -> usize {
        self.shared.engine.num_units()
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
    pub fn with_slot<R>(
        &self,
        index: usize,
        f: impl FnOnce(&mut Slot<'_>) -> Result<R>,
    ) -> Result<R> {
        let _claimed = Claimed::all(self, std::iter::once(index))?;
        let (unit, member) = self.shared.engine.layout.locate(index)?;
        f(&mut self.shared.engine.lock(unit).slot(member))
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
        let claimed = Claimed::all(self, jobs.iter().map(|(i, _)| *i))?;
        // The jobs own their slots now: each is released when its result is delivered.
        std::mem::forget(claimed);
        for (index, job) in jobs {
            self.submit(index, job, Reply::Queue)?;
        }
        Ok(())
    }

    /// Queues a job for a claimed slot, with its unit's waiting jobs.
    fn submit(&self, index: usize, job: Job, reply: Reply) -> Result<()> {
        let (unit, _) = self.shared.engine.layout.locate(index)?;
        self.start_workers()?;
        {
            let mut waiting = self.shared.waiting(unit);
            waiting.jobs.push((index, job, reply));
            if std::mem::replace(&mut waiting.queued, true) {
                return Ok(());
            }
        }
        self.jobs
            .as_ref()
            .expect("pool is running")
            .send(unit)
            .map_err(|_| Error::Internal("pool workers stopped".into()))
    }

    /// Claims slot `index` for a job, a visit or a partial call (see [`Shared::release`]).
    fn claim(&self, index: usize) -> Result<()> {
        let shared = &*self.shared;
        let n = self.num_envs();
        let flag = shared.in_flight.get(index).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "env index {index} is out of range (num_envs = {n})"
            ))
        })?;
        // Counted before the whole-batch flag is read, and the whole-batch step sets its flag
        // before it reads the count (all sequentially consistent): one of the two sees the
        // other.
        shared.claimed.fetch_add(1, Ordering::SeqCst);
        let problem = if shared.whole_batch.load(Ordering::SeqCst) {
            format!("env {index} still has a step in flight (a whole-batch step); wait for it")
        } else if flag
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            format!("env {index} still has a step in flight; recv its result before sending again")
        } else {
            return Ok(());
        };
        shared.claimed.fetch_sub(1, Ordering::SeqCst);
        Err(Error::InvalidArgument(problem))
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
        self.submit(index, Job::Step(action), Reply::One(tx))?;
        rx.recv_async()
            .await
            .map_err(|_| Error::Internal("pool worker stopped".into()))
    }
}

impl Drop for AsyncPool {
    fn drop(&mut self) {
        self.jobs = None;
        let workers = self
            .workers
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        for worker in workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl Shared {
    fn mode(&self) -> AutoresetMode {
        MODES[usize::from(self.mode.load(Ordering::Acquire)) % MODES.len()]
    }

    fn waiting(&self, n: usize) -> MutexGuard<'_, Waiting> {
        self.waiting[n]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs the jobs waiting for unit `n`: its resets in one call, its steps in one batch. Jobs
    /// that arrive meanwhile go back on the queue as the unit's next batch.
    fn run_unit(&self, n: usize) {
        let jobs = std::mem::take(&mut self.waiting(n).jobs);
        let start = self.engine.layout.starts[n];
        let mut steps: Vec<(usize, &str)> = Vec::with_capacity(jobs.len());
        let mut resets: Vec<(usize, Option<u64>)> = Vec::new();
        for (index, job, _) in &jobs {
            match job {
                Job::Step(action) => steps.push((index - start, action.as_str())),
                Job::Reset(seed) => resets.push((index - start, *seed)),
            }
        }
        let mut results: Vec<SlotStep> = Vec::with_capacity(jobs.len());
        {
            let mut unit = self.engine.lock(n);
            for first in unit.reset(&resets) {
                results.push(match first {
                    Ok((observation, info)) => SlotStep::reset(observation, info),
                    Err(error) => SlotStep {
                        error: Some(error),
                        ..SlotStep::reset(String::new(), Info::empty())
                    },
                });
            }
            if !steps.is_empty() {
                results.extend(unit.advance(&steps, self.mode()).unpack());
            }
        }
        // Results are in resets-then-steps order; hand each to its job.
        let (reset_jobs, step_jobs): (Vec<_>, Vec<_>) = jobs
            .into_iter()
            .partition(|(_, job, _)| matches!(job, Job::Reset(_)));
        let finished = reset_jobs.into_iter().chain(step_jobs).zip(results);
        self.deliver(finished.map(|((index, _, reply), step)| (index, step, reply)));
        let mut waiting = self.waiting(n);
        if waiting.jobs.is_empty() {
            waiting.queued = false;
        } else if let Some(requeue) = self.requeue.upgrade() {
            drop(waiting);
            let _ = requeue.send(n);
        }
    }

    /// Frees slot `index`, claimed by [`AsyncPool::claim`].
    fn release(&self, index: usize) {
        self.in_flight[index].store(false, Ordering::Release);
        self.claimed.fetch_sub(1, Ordering::SeqCst);
    }

    /// Frees the slots of finished jobs and hands their results over.
    fn deliver(&self, results: impl Iterator<Item = (usize, SlotStep, Reply)>) {
        let mut queued = Vec::new();
        for (index, step, reply) in results {
            self.release(index);
            match reply {
                Reply::Queue => queued.push(Completed { index, step }),
                Reply::One(tx) => {
                    let _ = tx.send(step);
                }
            }
        }
        if !queued.is_empty() {
            self.done.push_all(queued);
        }
    }
}

/// Slots claimed for a whole-batch call (the first `count` of `indices`), released when
/// dropped, also while unwinding.
struct Claimed<'a, I: Iterator<Item = usize> + Clone> {
    pool: &'a AsyncPool,
    indices: I,
    count: usize,
}

impl<'a, I: Iterator<Item = usize> + Clone> Claimed<'a, I> {
    /// Claims every slot of `indices` (all or none): fails when one is out of range, repeated
    /// or has a job in flight.
    fn all(pool: &'a AsyncPool, indices: I) -> Result<Self> {
        let mut claimed = Claimed {
            pool,
            indices: indices.clone(),
            count: 0,
        };
        for index in indices {
            pool.claim(index)?;
            claimed.count += 1;
        }
        Ok(claimed)
    }
}

impl<I: Iterator<Item = usize> + Clone> Drop for Claimed<'_, I> {
    fn drop(&mut self) {
        for index in self.indices.clone().take(self.count) {
            self.pool.shared.release(index);
        }
    }
}

/// A whole-batch step's hold on every slot: no slot is claimed while it lasts.
struct WholeBatch<'a>(&'a Shared);

impl<'a> WholeBatch<'a> {
    /// Holds every slot; fails when another whole-batch step runs or a slot is claimed.
    fn start(shared: &'a Shared) -> Result<Self> {
        if shared.whole_batch.swap(true, Ordering::SeqCst) {
            return Err(Error::InvalidArgument(
                "another whole-batch step of this pool is running".into(),
            ));
        }
        let batch = WholeBatch(shared);
        if shared.claimed.load(Ordering::SeqCst) > 0 {
            let busy = shared
                .in_flight
                .iter()
                .position(|f| f.load(Ordering::Acquire));
            return Err(Error::InvalidArgument(match busy {
                Some(index) => format!(
                    "env {index} still has a step in flight; recv its result before sending again"
                ),
                None => "a slot of this pool is in use; wait for it".into(),
            }));
        }
        Ok(batch)
    }
}

impl Drop for WholeBatch<'_> {
    fn drop(&mut self) {
        self.0.whole_batch.store(false, Ordering::SeqCst);
    }
}

impl AsyncPool {
    /// Steps every slot once, with one action each, and hands each unit's results to `take` as
    /// they finish, on the thread that stepped it (as
    /// [`VectorEnv::step_streamed`](crate::VectorEnv::step_streamed) does). The steps run on
    /// the calling thread and the process's helper threads, not on the pool's workers: when the
    /// caller waits for the whole batch anyway, queueing jobs only adds hand-offs. Fails
    /// without stepping anything when the action count is wrong or any slot has a job in
    /// flight; while it runs, jobs sent to any slot are refused as in flight.
    pub fn step_all_now<S: AsRef<str> + Sync>(
        &self,
        actions: &[S],
        take: &(dyn Fn(UnitStep) + Sync),
    ) -> Result<()> {
        self.shared.engine.check_action_count(actions.len())?;
        let _batch = WholeBatch::start(&self.shared)?;
        let engine = &self.shared.engine;
        let sinks = vec![(); engine.num_units()];
        engine.step_all(actions, self.shared.mode(), sinks, |(), slots, run| {
            take(UnitStep::new(slots, run))
        });
        Ok(())
    }

    /// Steps the slots named by `(index, action)` pairs now, like
    /// [`step_all_now`](Self::step_all_now) (one call per unit, on the calling thread and the
    /// helper threads), handing each unit's results to `take`. Fails without stepping anything
    /// when an index is out of range, repeated, or has a job in flight.
    pub fn step_some_now<S: AsRef<str> + Sync>(
        &self,
        pairs: &[(usize, S)],
        take: &(dyn Fn(UnitStep) + Sync),
    ) -> Result<()> {
        let _claimed = Claimed::all(self, pairs.iter().map(|(i, _)| *i))?;
        let mode = self.shared.mode();
        self.shared
            .engine
            .step_some(pairs, mode, |slots, run| take(UnitStep::new(slots, run)))?;
        Ok(())
    }

    /// Resets the given slots with the given seeds (same length) now, one call per unit: each
    /// slot's first observation and info, in the order given. Fails without resetting anything
    /// when an index is out of range, repeated, or has a job in flight.
    pub fn reset_some_now(
        &self,
        indices: &[usize],
        seeds: &[Option<u64>],
    ) -> Result<(Vec<String>, Vec<Info>)> {
        let _claimed = Claimed::all(self, indices.iter().copied())?;
        self.shared.engine.reset_some(indices, seeds)
    }
}
