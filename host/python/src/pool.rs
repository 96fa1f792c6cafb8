//! [`PyAsyncPool`]: the EnvPool-style asynchronous pool behind
//! `geode.make_vec(..., async_mode=True)`: `send`/`recv`, per-episode `step_one` for asyncio,
//! and GEM's synchronous `step`/`reset` on top of them.

use crate::batch::{InfoCache, Row, row_to_py};
use crate::bridge::Steps;
use crate::columns::{self, Columns, LastResult};
use crate::convert::{mode_name, resets_to_py, slot_id};
use crate::errors::{self, IntoPyResult, invalid_argument};
use crate::seed::{self, Seed};
use crate::slot_env::{PySlotEnv, SlotHost, SlotOwner};
use geode_runtime::{AsyncPool, AutoresetMode, Error, Info, Result, Slot, SlotStep, UnitStep};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::{PyTraverseError, PyVisit};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// An asynchronous pool of env slots served by worker threads.
#[pyclass(name = "AsyncPool", module = "geode._geode", frozen)]
pub struct PyAsyncPool {
    pool: Arc<AsyncPool>,
    ids: Vec<String>,
    /// Results sent through the shared queue and not yet received.
    outstanding: AtomicUsize,
    /// Held by the synchronous `step`/`reset`, which own the queue while they run.
    batch: Mutex<()>,
    /// Steps started by `step_one`, by token, until the asyncio loop collects them.
    steps: Steps<Result<SlotStep>>,
    /// The last whole-batch step's result (see [`LastResult`]).
    last: LastResult,
}

impl PyAsyncPool {
    /// The Python face of `pool`, whose slots are envs `ids`.
    pub fn new(py: Python<'_>, pool: AsyncPool, ids: Vec<String>) -> PyResult<Self> {
        Ok(PyAsyncPool {
            pool: Arc::new(pool),
            ids,
            outstanding: AtomicUsize::new(0),
            batch: Mutex::new(()),
            steps: Steps::new().map_err(|e| {
                errors::to_py(
                    py,
                    &Error::Internal(format!("cannot create the async wake-up socket: {e}")),
                )
            })?,
            last: LastResult::default(),
        })
    }

    /// Runs `f` on slot `index` (see [`AsyncPool::with_slot`]).
    pub fn with_slot<R>(&self, index: usize, f: impl FnOnce(&mut Slot) -> Result<R>) -> Result<R> {
        self.pool.with_slot(index, f)
    }

    fn received(&self, n: usize) {
        self.outstanding.fetch_sub(n, Ordering::AcqRel);
    }

    /// Refuses a synchronous step or reset while sent results wait to be received.
    fn no_pending_results(&self) -> Result<()> {
        let pending = self.outstanding.load(Ordering::Acquire);
        if pending > 0 {
            return Err(Error::InvalidArgument(format!(
                "{pending} sent results are not received yet; recv them before a synchronous step or reset"
            )));
        }
        Ok(())
    }

    /// Sends jobs for the slots `order` (all idle, queue empty) with `send`, and hands their
    /// results to `take` once they are all in. (Taking them in parts, to convert some while
    /// the workers step the rest, was measured slower: each part wakes the caller from its
    /// sleep, and on two cores the caller then competes with the workers.)
    fn run_batch(
        &self,
        order: &[usize],
        send: impl FnOnce() -> Result<()>,
        take: &mut dyn FnMut(Vec<Row>),
    ) -> Result<()> {
        let _owner = self.batch.lock().unwrap_or_else(PoisonError::into_inner);
        self.no_pending_results()?;
        send()?;
        let mut missing = order.len();
        while missing > 0 {
            let done = self.pool.recv(missing, None);
            if done.is_empty() {
                return Err(Error::Internal("the pool's workers stopped".into()));
            }
            missing = missing.saturating_sub(done.len());
            take(done);
        }
        Ok(())
    }
}

#[pymethods]
impl PyAsyncPool {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        self.last.traverse(&visit)
    }

    fn __clear__(&self) {
        drop(self.last.take());
    }

    /// Starts a step of each `(index, action)`; returns at once.
    fn send(&self, py: Python<'_>, pairs: Vec<(usize, String)>) -> PyResult<()> {
        let n = pairs.len();
        py.detach(|| self.pool.send(pairs)).py_err(py)?;
        self.outstanding.fetch_add(n, Ordering::AcqRel);
        Ok(())
    }

    /// Starts a reset of each `(index, seed)`; results arrive through `recv` like steps.
    fn send_reset(&self, py: Python<'_>, pairs: Vec<(usize, Option<Seed>)>) -> PyResult<()> {
        let pairs: Vec<(usize, Option<u64>)> = pairs
            .into_iter()
            .map(|(index, seed)| (index, seed.map(|s| s.0)))
            .collect();
        let n = pairs.len();
        py.detach(|| self.pool.send_reset(pairs)).py_err(py)?;
        self.outstanding.fetch_add(n, Ordering::AcqRel);
        Ok(())
    }

    /// Waits for at least `min_batch` results (or `timeout` seconds) and returns every ready
    /// one as the raw result tuple, in completion order.
    #[pyo3(signature = (min_batch=1, timeout=None))]
    fn recv<'py>(
        &self,
        py: Python<'py>,
        min_batch: usize,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let pending = self.outstanding.load(Ordering::Acquire);
        if timeout.is_none() && min_batch > pending {
            return Err(invalid_argument(
                py,
                format!(
                    "recv(min_batch={min_batch}) without a timeout would wait forever: {pending} results are pending"
                ),
            ));
        }
        let timeout = match timeout {
            Some(t) => Some(Duration::try_from_secs_f64(t.max(0.0)).map_err(|_| {
                invalid_argument(py, format!("timeout must be a number of seconds, got {t}"))
            })?),
            None => None,
        };
        let done = py.detach(|| self.pool.recv(min_batch, timeout));
        self.received(done.len());
        let mut columns = Columns::new(done.iter().map(|row| row.index).collect(), None);
        for row in done {
            columns.take(py, &UnitStep::from_slot(row.index, row.step));
        }
        columns.finish(py)
    }

    /// Steps every slot (GEM's synchronous step on the pool); raw result tuple in slot order.
    /// The whole batch runs on this thread and the process's helper threads, as a sync vector
    /// env's step does, and finished slots are converted while the others still step.
    fn step_all<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        columns::step_all(py, actions, &self.last, |texts, take| {
            let _owner = self.batch.lock().unwrap_or_else(PoisonError::into_inner);
            self.no_pending_results()?;
            self.pool.step_all_now(texts, take)
        })
    }

    /// Steps the slots named in `(index, action)` pairs and waits for them; results in order.
    fn step_some<'py>(
        &self,
        py: Python<'py>,
        pairs: Vec<(usize, String)>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let order: Vec<usize> = pairs.iter().map(|(i, _)| *i).collect();
        if let Some(index) = order.iter().find(|&&i| i >= self.ids.len()) {
            return Err(invalid_argument(
                py,
                format!(
                    "env index {index} is out of range (num_envs = {})",
                    self.ids.len()
                ),
            ));
        }
        let mut columns = Columns::new(order.clone(), None);
        py.detach(|| {
            let send = || self.pool.send(pairs);
            self.run_batch(&order, send, &mut |rows| {
                let ready: Vec<UnitStep> = rows
                    .into_iter()
                    .map(|row| UnitStep::from_slot(row.index, row.step))
                    .collect();
                Python::attach(|py| ready.iter().for_each(|part| columns.take(py, part)))
            })
        })
        .py_err(py)?;
        columns.finish(py)
    }

    /// Resets the given slots with the given seeds and waits: `(observations, infos)`.
    fn reset_some<'py>(
        &self,
        py: Python<'py>,
        indices: Vec<usize>,
        seeds: Vec<Option<Seed>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seeds = seed::unwrap_all(seeds);
        if indices.len() != seeds.len() {
            return Err(invalid_argument(
                py,
                format!("{} indices but {} seeds", indices.len(), seeds.len()),
            ));
        }
        let jobs: Vec<(usize, Option<u64>)> = indices.iter().copied().zip(seeds).collect();
        let mut rows: Vec<Option<Row>> = (0..self.ids.len()).map(|_| None).collect();
        py.detach(|| {
            let send = || self.pool.send_reset(jobs);
            self.run_batch(&indices, send, &mut |done| {
                for row in done {
                    let index = row.index;
                    rows[index] = Some(row);
                }
            })
        })
        .py_err(py)?;
        let rows: Vec<Row> = indices
            .iter()
            .filter_map(|&i| rows.get_mut(i).and_then(Option::take))
            .collect();
        let mut observations = Vec::with_capacity(rows.len());
        let mut infos: Vec<Info> = Vec::with_capacity(rows.len());
        for Row { step, .. } in rows {
            if let Some(error) = step.error {
                return Err(errors::to_py(py, &error));
            }
            observations.push(step.observation);
            infos.push(step.info);
        }
        resets_to_py(py, observations, &infos)
    }

    /// Starts a step of slot `index` under `token`; when it is done `wakeup_fd` becomes readable
    /// and `drain` returns it. The result does not go through `recv`.
    fn step_one(&self, index: usize, action: String, token: u64) {
        let pool = self.pool.clone();
        self.steps
            .start(token, async move { pool.step_one(index, action).await });
    }

    /// Every finished `step_one` result: `(token, ok, result)` tuples, `result` being the slot's
    /// 8-tuple, or the exception when the step could not start (`ok` False).
    fn drain<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let mut infos = InfoCache::default();
        self.steps
            .collect()
            .into_iter()
            .map(|(token, result)| match result {
                Ok(row) => (token, true, row_to_py(py, row, &mut infos)?).into_pyobject(py),
                Err(error) => (token, false, errors::exception(py, &error)).into_pyobject(py),
            })
            .collect()
    }

    /// The file descriptor that becomes readable when `step_one` results are waiting.
    #[getter]
    fn wakeup_fd(&self) -> i32 {
        self.steps.fd()
    }

    /// Whether slot `index` has a step or reset in flight.
    fn is_in_flight(&self, index: usize) -> bool {
        self.pool.is_in_flight(index)
    }

    /// Results sent through `send`/`send_reset` and not yet received.
    #[getter]
    fn pending(&self) -> usize {
        self.outstanding.load(Ordering::Acquire)
    }

    /// Number of slots.
    #[getter]
    fn num_envs(&self) -> usize {
        self.ids.len()
    }

    /// The id of each slot.
    #[getter]
    fn env_ids(&self) -> Vec<String> {
        self.ids.clone()
    }

    /// `SameStep`, `NextStep` or `Disabled`.
    #[getter]
    fn autoreset_mode(&self) -> &'static str {
        mode_name(self.pool.autoreset_mode())
    }

    /// Changes the autoreset mode of the jobs that start from now on.
    fn set_autoreset_mode(&self, py: Python<'_>, mode: &str) -> PyResult<()> {
        let mode: AutoresetMode = mode.parse().py_err(py)?;
        self.pool.set_autoreset_mode(mode);
        Ok(())
    }

    /// Slot `index`, driven like a single env (GEM's `vec.envs[index]`); fails while the slot
    /// has a job in flight.
    fn slot(slf: Py<Self>, py: Python<'_>, index: usize) -> PyResult<PySlotEnv> {
        let id = slot_id(py, &slf.get().ids, index)?;
        Ok(PySlotEnv::new(SlotOwner::new(slf), index, id))
    }
}

impl SlotHost for Py<PyAsyncPool> {
    fn visit_slot(
        &self,
        index: usize,
        visit: &mut (dyn FnMut(&mut Slot) -> Result<()> + Send),
    ) -> Result<()> {
        self.get().with_slot(index, visit)
    }
}
