//! [`AsyncPool`]: EnvPool-style asynchronous stepping. `send` hands actions to worker threads
//! and returns at once; `recv` returns whichever slots finished first. Each episode moves at its
//! own pace: a slow step holds back only its own slot.
//!
//! Members of an env group are served together: the jobs waiting for a group's members when a
//! worker takes the group up run as one batch, with one step call into the guest.

mod whole_batch;

use super::grouped;
use super::runs::Run;
use super::share::Balance;
use super::slot::{AutoresetMode, Slot, SlotStep};
use crate::env::{Env, Info};
use crate::group::EnvGroup;
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

/// One unit of work for a pool thread.
enum Work {
    /// A job for a slot outside any env group.
    Slot(usize, Job, Reply),
    /// Whatever jobs wait for the members of env group number `n` (see [`GroupQueue`]).
    Group(usize),
}

/// The jobs waiting for one env group's members. At most one [`Work::Group`] for the group is
/// queued or running at a time; jobs sent meanwhile wait for the next one.
struct GroupQueue {
    group: Arc<Mutex<EnvGroup>>,
    waiting: Mutex<Waiting>,
}

#[derive(Default)]
struct Waiting {
    jobs: Vec<(usize, Job, Reply)>,
    /// A [`Work::Group`] for this group is queued or running.
    queued: bool,
}

impl GroupQueue {
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }
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
    /// Per slot: its env group's number in `groups` and its member index there.
    membership: Vec<Option<(usize, usize)>>,
    groups: Vec<GroupQueue>,
    /// Queues a group's next batch from a worker (weak: dropping the pool still ends the
    /// workers).
    requeue: flume::WeakSender<Work>,
    /// The [`AutoresetMode`] as its index in [`MODES`], changeable while the pool runs.
    mode: AtomicU8,
    done: Completions,
    /// The slots in runs of an env group's members and lone slots, as a vector env steps them,
    /// and the first slot of each (see [`AsyncPool::step_all_now`]).
    runs: Vec<Run>,
    starts: Vec<usize>,
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
        self.push_all(std::iter::once(done));
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
    jobs: Option<flume::Sender<Work>>,
    workers: Vec<std::thread::JoinHandle<()>>,
    /// How whole-batch steps were shared out among threads lately.
    balance: Mutex<Balance>,
}

impl AsyncPool {
    /// A pool over `envs` with `threads` workers (0 = one per core).
    pub fn new(envs: Vec<Box<dyn Env>>, mode: AutoresetMode, threads: usize) -> Result<Self> {
        let in_flight = envs.iter().map(|_| AtomicBool::new(false)).collect();
        let mut groups: Vec<GroupQueue> = Vec::new();
        let membership = envs
            .iter()
            .map(|env| {
                let (group, member) = env.group_member()?;
                let n = match groups.iter().position(|q| Arc::ptr_eq(&q.group, group)) {
                    Some(n) => n,
                    None => {
                        groups.push(GroupQueue {
                            group: group.clone(),
                            waiting: Mutex::default(),
                        });
                        groups.len() - 1
                    }
                };
                Some((n, member))
            })
            .collect();
        let runs = Run::find(&envs);
        let starts = Run::starts(&runs);
        let slots = envs.into_iter().map(|e| Mutex::new(Slot::new(e))).collect();
        let (jobs, queue) = flume::unbounded::<Work>();
        let shared = Arc::new(Shared {
            slots,
            in_flight,
            membership,
            groups,
            requeue: jobs.downgrade(),
            mode: AtomicU8::new(mode_index(mode)),
            done: Completions::default(),
            runs,
            starts,
        });
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        let mut workers = Vec::with_capacity(threads);
        for i in 0..threads {
            let shared = shared.clone();
            let queue = queue.clone();
            let worker = std::thread::Builder::new()
                .name(format!("geode-pool-{i}"))
                .spawn(move || {
                    while let Some(work) = next_job(&queue) {
                        match work {
                            Work::Slot(index, job, reply) => shared.finish(index, job, reply),
                            Work::Group(n) => shared.run_group(n),
                        }
                    }
                })
                .map_err(|e| Error::Internal(format!("cannot start pool threads: {e}")))?;
            workers.push(worker);
        }
        Ok(AsyncPool {
            shared,
            jobs: Some(jobs),
            workers,
            balance: Mutex::default(),
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
        for (index, job) in jobs {
            self.submit(index, job, Reply::Queue)?;
        }
        Ok(())
    }

    /// Queues a job for a claimed slot: on its own, or with its env group's waiting jobs.
    fn submit(&self, index: usize, job: Job, reply: Reply) -> Result<()> {
        let work = match self.shared.membership[index] {
            Some((n, _)) => {
                let mut waiting = self.shared.groups[n].lock();
                waiting.jobs.push((index, job, reply));
                if waiting.queued {
                    return Ok(());
                }
                waiting.queued = true;
                Work::Group(n)
            }
            None => Work::Slot(index, job, reply),
        };
        self.jobs
            .as_ref()
            .expect("pool is running")
            .send(work)
            .map_err(|_| Error::Internal("pool workers stopped".into()))
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
        self.submit(index, Job::Step(action), Reply::One(tx))?;
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

    /// Runs the jobs waiting for env group `n`: its steps in one batch, resets one by one. Jobs
    /// that arrive meanwhile go back on the queue as the group's next batch.
    fn run_group(&self, n: usize) {
        let queue = &self.groups[n];
        let jobs = std::mem::take(&mut queue.lock().jobs);
        let mut steps: Vec<(usize, String, Reply)> = Vec::with_capacity(jobs.len());
        let mut results: Vec<(usize, SlotStep, Reply)> = Vec::with_capacity(jobs.len());
        for (index, job, reply) in jobs {
            match job {
                Job::Step(action) => steps.push((index, action, reply)),
                reset @ Job::Reset(_) => results.push((index, self.execute(index, reset), reply)),
            }
        }
        if !steps.is_empty() {
            let mut guards: Vec<MutexGuard<'_, Slot>> = steps
                .iter()
                .map(|(index, ..)| self.slots[*index].lock().unwrap_or_else(|p| p.into_inner()))
                .collect();
            let mut slots: Vec<&mut Slot> = guards.iter_mut().map(|g| &mut **g).collect();
            let members: Vec<usize> = steps
                .iter()
                .map(|(index, ..)| self.membership[*index].map_or(0, |(_, member)| member))
                .collect();
            let actions: Vec<&str> = steps.iter().map(|(_, action, _)| action.as_str()).collect();
            let outcomes =
                grouped::advance_group(&queue.group, &members, &mut slots, &actions, self.mode())
                    .unpack();
            drop(slots);
            drop(guards);
            for ((index, _, reply), step) in steps.into_iter().zip(outcomes) {
                results.push((index, step, reply));
            }
        }
        self.deliver(results);
        let mut waiting = queue.lock();
        if waiting.jobs.is_empty() {
            waiting.queued = false;
        } else if let Some(requeue) = self.requeue.upgrade() {
            drop(waiting);
            let _ = requeue.send(Work::Group(n));
        }
    }

    /// Frees the slots of finished jobs and hands their results over.
    fn deliver(&self, results: Vec<(usize, SlotStep, Reply)>) {
        let mut queued = Vec::with_capacity(results.len());
        for (index, step, reply) in results {
            self.in_flight[index].store(false, Ordering::Release);
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
