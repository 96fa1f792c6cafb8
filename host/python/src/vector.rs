//! `make_vec` and [`PyVectorEnv`]: the synchronous vector env (slots stepped in parallel on the
//! runtime's thread pool, GIL released) behind `geode.make_vec(..., async_mode=False)`.

use crate::columns::{self, LastResult};
use crate::convert::{self, mode_name, resets_to_py, slot_id};
use crate::errors::{IntoPyResult, invalid_argument};
use crate::pool::PyAsyncPool;
use crate::registry;
use crate::seed::{self, Seed};
use crate::slot_env::{PySlotEnv, SlotHost, SlotOwner};
use geode_runtime::{Actions, AutoresetMode, Result, Slot, Units, VecSpec, VectorEnv};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use serde_json::Value;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Makes one env per id (config `configs[i]`, the native `wrappers` in order) and returns a
/// `VectorEnv`, or an `AsyncPool` with `num_threads` workers (0: one per core) when
/// `async_mode`. `group_size` is the number of envs per unit (shared component instance): 0
/// (the default) picks it from the slot count and the cores, 1 gives each env its own (see
/// `VecSpec::group_size`). Seeding is left to the caller (`reset_some`).
#[pyfunction]
#[pyo3(signature = (env_ids, configs=None, wrappers=None, autoreset_mode="SameStep", limits=None, async_mode=false, num_threads=0, group_size=0))]
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
    // Seeds are the caller's (GEM's rules, applied at `reset_some`).
    let spec = VecSpec {
        ids: env_ids.clone(),
        wrappers,
        configs,
        seed: None,
        autoreset: mode,
        limits,
        group_size,
    };
    if async_mode {
        let pool = py
            .detach(|| registry::current()?.make_pool(&spec, num_threads))
            .py_err(py)?;
        let pool = PyAsyncPool::new(py, pool, env_ids)?;
        return Ok(Py::new(py, pool)?.into_any());
    }
    let vec = py
        .detach(|| registry::current()?.make_vec(&spec))
        .py_err(py)?;
    let vec = PyVectorEnv {
        vec: Mutex::new(vec),
        ids: env_ids,
        last: LastResult::default(),
    };
    Ok(Py::new(py, vec)?.into_any())
}

/// A synchronous vector env. Use it through `geode.make_vec`, which adds GEM's return types.
#[pyclass(name = "VectorEnv", module = "geode._geode", frozen)]
pub struct PyVectorEnv {
    vec: Mutex<VectorEnv>,
    ids: Vec<String>,
    /// The last step's result (see [`LastResult`]).
    last: LastResult,
}

impl PyVectorEnv {
    fn lock(&self) -> MutexGuard<'_, VectorEnv> {
        self.vec.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on slot `index` (see [`VectorEnv::with_slot`]).
    pub fn with_slot<R>(&self, index: usize, f: impl FnOnce(&mut Slot) -> Result<R>) -> Result<R> {
        self.lock().with_slot(index, f)
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
            self.lock().step_streamed(Actions::All(texts), take)
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
            self.lock().step_streamed(Actions::Some(&texts), take)
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
            .detach(|| self.lock().reset_some(&indices, &seeds))
            .py_err(py)?;
        resets_to_py(py, observations, &infos)
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
    fn autoreset_mode(&self, py: Python<'_>) -> &'static str {
        // Never wait for the lock holding the GIL: a step holding the lock takes the GIL.
        mode_name(py.detach(|| self.lock().autoreset_mode()))
    }

    /// Changes the autoreset mode of the steps that follow; episodes go on where they are.
    fn set_autoreset_mode(&self, py: Python<'_>, mode: &str) -> PyResult<()> {
        let mode: AutoresetMode = mode.parse().py_err(py)?;
        py.detach(|| self.lock().set_autoreset_mode(mode));
        Ok(())
    }

    /// Slot `index`, driven like a single env (GEM's `vec.envs[index]`).
    fn slot(slf: Py<Self>, py: Python<'_>, index: usize) -> PyResult<PySlotEnv> {
        let id = slot_id(py, &slf.get().ids, index)?;
        Ok(PySlotEnv::new(SlotOwner::new(slf), index, id))
    }

    /// Frees every slot's env; the vector env is empty afterwards.
    fn close(&self, py: Python<'_>) {
        py.detach(|| {
            let empty = VectorEnv::new(Units::default(), AutoresetMode::default(), None);
            drop(std::mem::replace(&mut *self.lock(), empty));
        });
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
