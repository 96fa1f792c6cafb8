//! `make_vec` and [`PyVectorEnv`], the one native vector env of `geode.make_vec`: GEM's
//! synchronous whole-batch calls and EnvPool's `send`/`recv` on the same slots (an
//! [`AsyncPool`] whose workers start with the first job sent).

use crate::batch::{InfoCache, row_to_py};
use crate::bridge::Steps;
use crate::columns::{self, Columns, LastResult};
use crate::convert::{self, mode_name, resets_to_py, slot_id};
use crate::errors::{self, IntoPyResult, invalid_argument};
use crate::registry;
use crate::seed::{self, Seed};
use crate::slot_env::{PySlotEnv, SlotHost, SlotOwner};
use geode_runtime::{AsyncPool, AutoresetMode, Error, Result, Slot, SlotStep, UnitStep, VecSpec};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

/// Makes one env per id (config `configs[i]`, the native `wrappers` in order) and returns a
/// `VectorEnv`. With `async_mode`, its slots are laid out for `send`/`recv` (one unit per core,
/// see `auto_group_size`) and `num_threads` workers (0: one per core) serve them once the first
/// job is sent; without, the layout of a synchronous vector env and no worker ever starts.
/// `group_size` is the number of envs per unit (shared component instance): 0 (the default)
/// picks it from the slot count and the cores, 1 gives each env its own (see
/// `VecSpec::group_size`). `seeds[i]` seeds slot i's first reset that names no seed
/// (`VecSpec::seeds`; configs are taken as given).
#[pyfunction]
#[pyo3(signature = (env_ids, configs=None, wrappers=None, autoreset_mode="SameStep", limits=None, async_mode=false, num_threads=0, group_size=0, seeds=None))]
#[allow(clippy::too_many_arguments)]
pub fn make_vec(
    py: Python<'_>,
    env_ids: Vec<String>,
    configs: Option<Vec<Option<Bound<'_, PyDict>>>>,
    wrappers: Option<&Bound<'_, PyList>>,
    autoreset_mode: &str,
    limits: Option<&Bound<'_, PyDict>>,
    async_mode: bool,
    num_threads: usize,
    group_size: usize,
    seeds: Option<Vec<Option<Seed>>>,
) -> PyResult<Py<PyAny>> {
    let mode: AutoresetMode = autoreset_mode.parse().py_err(py)?;
    let wrappers = registry::wrapper_specs(wrappers)?;
    let limits = convert::limits(limits)?;
    let configs: Vec<Value> = match configs {
        None => vec![Value::Null; env_ids.len()],
        Some(list) if list.len() == env_ids.len() => list
            .iter()
            .map(|c| convert::overrides(c.as_ref()))
            .collect::<PyResult<_>>()?,
        Some(list) => {
            return Err(invalid_argument(
                py,
                format!("{} configs for {} envs", list.len(), env_ids.len()),
            ));
        }
    };
    if env_ids.is_empty() {
        return Err(invalid_argument(
            py,
            "a vector env needs at least one env id".into(),
        ));
    }
    let spec = VecSpec {
        ids: env_ids.clone(),
        wrappers,
        configs,
        seed: None,
        seeds: seed::unwrap_all(seeds.unwrap_or_default()),
        autoreset: mode,
        limits,
        group_size,
    };
    let pool = py
        .detach(|| {
            let spec = if async_mode { spec.for_pool() } else { spec };
            Ok(registry::current()?.make_vec(&spec)?.into_pool(num_threads))
        })
        .py_err(py)?;
    Ok(Py::new(py, PyVectorEnv::new(py, pool, env_ids)?)?.into_any())
}

/// A vector env: GEM's synchronous whole-batch calls (`step_all`, `step_some`, `reset_some`, run
/// on the calling thread and the runtime's helper threads) and EnvPool's asynchronous ones
/// (`send`/`recv`, and `step_one` for asyncio, served by worker threads started by the first
/// job). Use it through `geode.make_vec`, which adds GEM's return types.
#[pyclass(name = "VectorEnv", module = "geode._geode", frozen)]
pub struct PyVectorEnv {
    /// The slots; `None` once closed.
    pool: RwLock<Option<Arc<AsyncPool>>>,
    ids: Vec<String>,
    /// Results sent through the shared queue and not yet received.
    outstanding: AtomicUsize,
    /// Held by the synchronous whole-batch calls and slot visits: concurrent ones take turns.
    batch: Mutex<()>,
    /// Steps started by `step_one`, by token, until the asyncio loop collects them.
    steps: Steps<Result<SlotStep>>,
    /// The last whole-batch step's result (see [`LastResult`]).
    last: LastResult,
}

impl PyVectorEnv {
    /// The Python face of `pool`, whose slots are envs `ids`.
    fn new(py: Python<'_>, pool: AsyncPool, ids: Vec<String>) -> PyResult<Self> {
        Ok(PyVectorEnv {
            pool: RwLock::new(Some(Arc::new(pool))),
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

    /// The slots, or the error of a closed vector env.
    fn pool(&self) -> Result<Arc<AsyncPool>> {
        let pool = self.pool.read().unwrap_or_else(PoisonError::into_inner);
        pool.clone().ok_or_else(|| Error::InvalidState {
            env: "vector env".into(),
            message: "the vector env is closed".into(),
        })
    }

    /// Runs `f` on slot `index` (see [`AsyncPool::with_slot`]) once the running synchronous
    /// call returned; fails while the slot has a sent job in flight.
    pub fn with_slot<R>(&self, index: usize, f: impl FnOnce(&mut Slot) -> Result<R>) -> Result<R> {
        let _turn = self.batch.lock().unwrap_or_else(PoisonError::into_inner);
        self.pool()?.with_slot(index, f)
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

    /// Runs the synchronous whole-batch call `f` on the slots once earlier ones returned;
    /// refused while sent results wait to be received.
    fn batch<R>(&self, f: impl FnOnce(&AsyncPool) -> Result<R>) -> Result<R> {
        let _turn = self.batch.lock().unwrap_or_else(PoisonError::into_inner);
        self.no_pending_results()?;
        f(&*self.pool()?)
    }
}

#[pymethods]
impl PyVectorEnv {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        self.last.traverse(&visit)
    }

    fn __clear__(&self) {
        drop(self.last.take());
    }

    /// Steps every slot with one action each; returns the raw result tuple. The actions are
    /// read in place from the Python strings (no copy) while the envs step, and finished
    /// slots are converted to Python objects while the others still step.
    fn step_all<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        columns::step_all(py, actions, &self.last, |texts, take| {
            self.batch(|pool| pool.step_all_now(texts, take))
        })
    }

    /// Steps the slots named in `(index, action)` pairs; results in the same order.
    fn step_some<'py>(
        &self,
        py: Python<'py>,
        pairs: Vec<(usize, Bound<'py, PyString>)>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let texts = pairs
            .iter()
            .map(|(i, a)| Ok((*i, a.to_str()?)))
            .collect::<PyResult<Vec<(usize, &str)>>>()?;
        columns::step_some(py, &texts, |take| {
            self.batch(|pool| pool.step_some_now(&texts, take))
        })
    }

    /// Resets the given slots with the given seeds: `(observations, infos)`.
    fn reset_some<'py>(
        &self,
        py: Python<'py>,
        indices: Vec<usize>,
        seeds: Vec<Option<Seed>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seeds = seed::unwrap_all(seeds);
        let (observations, infos) = py
            .detach(|| self.batch(|pool| pool.reset_some_now(&indices, &seeds)))
            .py_err(py)?;
        resets_to_py(py, observations, &infos)
    }

    /// Starts a step of each `(index, action)`; returns at once.
    fn send(&self, py: Python<'_>, pairs: Vec<(usize, String)>) -> PyResult<()> {
        let n = pairs.len();
        py.detach(|| self.pool()?.send(pairs)).py_err(py)?;
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
        py.detach(|| self.pool()?.send_reset(pairs)).py_err(py)?;
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
        let pool = self.pool().py_err(py)?;
        let done = py.detach(|| pool.recv(min_batch, timeout));
        self.outstanding.fetch_sub(done.len(), Ordering::AcqRel);
        let mut columns = Columns::new(done.iter().map(|row| row.index).collect(), None);
        for row in done {
            columns.take(py, &UnitStep::from_slot(row.index, row.step));
        }
        columns.finish(py)
    }

    /// Starts a step of slot `index` under `token`; when it is done `wakeup_fd` becomes readable
    /// and `drain` returns it. The result does not go through `recv`.
    fn step_one(&self, py: Python<'_>, index: usize, action: String, token: u64) -> PyResult<()> {
        let pool = self.pool().py_err(py)?;
        self.steps
            .start(token, async move { pool.step_one(index, action).await });
        Ok(())
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
        self.pool().is_ok_and(|pool| pool.is_in_flight(index))
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
    fn autoreset_mode(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(mode_name(self.pool().py_err(py)?.autoreset_mode()))
    }

    /// Changes the autoreset mode of the steps that start from now on; episodes go on where
    /// they are.
    fn set_autoreset_mode(&self, py: Python<'_>, mode: &str) -> PyResult<()> {
        let mode: AutoresetMode = mode.parse().py_err(py)?;
        self.pool().py_err(py)?.set_autoreset_mode(mode);
        Ok(())
    }

    /// Slot `index`, driven like a single env (GEM's `vec.envs[index]`); fails while the slot
    /// has a job in flight.
    fn slot(slf: Py<Self>, py: Python<'_>, index: usize) -> PyResult<PySlotEnv> {
        let id = slot_id(py, &slf.get().ids, index)?;
        Ok(PySlotEnv::new(SlotOwner::new(slf), index, id))
    }

    /// Frees every slot's env (and stops the workers) once running calls return; every later
    /// call fails as closed.
    fn close(&self, py: Python<'_>) {
        let pool = self
            .pool
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        py.detach(|| drop(pool));
    }
}

impl SlotHost for Py<PyVectorEnv> {
    fn visit_slot(
        &self,
        index: usize,
        visit: &mut (dyn FnMut(&mut Slot) -> Result<()> + Send),
    ) -> Result<()> {
        self.get().with_slot(index, visit)
    }
}
