//! [`PySlotEnv`]: one slot of a native vector env, driven like a single env (GEM's
//! `vec.envs[i]`): reset it, step it without autoreset, sample, snapshot and restore it.

use crate::convert::{StepTuple, info_to_py, step_to_py};
use crate::errors::IntoPyResult;
use crate::seed::Seed;
use geode_runtime::{Env, Result, Slot};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// What owns slots: the sync vector env or the async pool. Visiting runs `visit` on slot
/// `index` (the caller has released the GIL).
pub trait SlotHost: Send + Sync {
    /// Runs `visit` on slot `index`.
    fn visit_slot(
        &self,
        index: usize,
        visit: &mut (dyn FnMut(&mut Slot) -> Result<()> + Send),
    ) -> Result<()>;
}

/// The vector env a slot belongs to (shared by every view of its slots).
#[derive(Clone)]
pub struct SlotOwner(Arc<dyn SlotHost>);

impl SlotOwner {
    /// The slots of `host`.
    pub fn new(host: impl SlotHost + 'static) -> Self {
        SlotOwner(Arc::new(host))
    }

    fn with_slot<R>(
        &self,
        py: Python<'_>,
        index: usize,
        f: impl FnOnce(&mut Slot) -> Result<R> + Send,
    ) -> PyResult<R>
    where
        R: Send,
    {
        let mut f = Some(f);
        let mut out = None;
        py.detach(|| {
            self.0.visit_slot(index, &mut |slot| {
                let f = f.take().expect("a slot is visited once");
                out = Some(f(slot)?);
                Ok(())
            })
        })
        .py_err(py)?;
        Ok(out.expect("the visit ran"))
    }
}

/// One slot of a vector env. Calls go straight to the slot's env (its native wrappers
/// included, the vector's Python chat layers not); the GIL is released while it runs.
#[pyclass(name = "SlotEnv", module = "geode._geode", frozen)]
pub struct PySlotEnv {
    owner: SlotOwner,
    index: usize,
    id: String,
    /// Whether this is the `.env` view, the innermost env (whose own `.env` is `None`).
    innermost: bool,
}

impl PySlotEnv {
    /// Slot `index` of `owner`, whose env was made from `id`.
    pub fn new(owner: SlotOwner, index: usize, id: String) -> Self {
        PySlotEnv {
            owner,
            index,
            id,
            innermost: false,
        }
    }

    /// The same slot seen as its innermost env.
    fn innermost_view(&self) -> PySlotEnv {
        PySlotEnv {
            owner: self.owner.clone(),
            index: self.index,
            id: self.id.clone(),
            innermost: true,
        }
    }
}

#[pymethods]
impl PySlotEnv {
    /// Starts an episode in this slot: `(observation, info)`; `idx` as for a lone env.
    #[pyo3(signature = (seed=None, idx=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<Seed>,
        idx: Option<u64>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let seed = seed.map(|s| s.0);
        let (observation, info) = self.owner.with_slot(py, self.index, |slot| {
            if let Some(idx) = idx {
                slot.seek_episode(idx)?;
            }
            slot.reset(if idx.is_some() { None } else { seed })
        })?;
        Ok((observation, info_to_py(py, &info)?))
    }

    /// Makes the slot's next reset without a seed pose row `number` of its dataset walk (GEM's
    /// `reset(idx=number)`); envs without a dataset walk refuse.
    fn seek_episode(&self, py: Python<'_>, number: u64) -> PyResult<()> {
        self.owner
            .with_slot(py, self.index, |slot| slot.seek_episode(number))
    }

    /// Applies one action without autoreset: `(observation, reward, terminated, truncated, info)`.
    fn step<'py>(&self, py: Python<'py>, action: String) -> PyResult<StepTuple<'py>> {
        let out = self
            .owner
            .with_slot(py, self.index, |slot| slot.step_direct(&action))?;
        step_to_py(py, out)
    }

    /// A random action valid in the slot's current state.
    fn sample_random_action(&self, py: Python<'_>) -> PyResult<String> {
        self.owner
            .with_slot(py, self.index, |slot| slot.env_mut().sample_random_action())
    }

    /// A snapshot of the slot's env, as bytes.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let state = self
            .owner
            .with_slot(py, self.index, |slot| slot.env_mut().get_state())?;
        Ok(PyBytes::new(py, &state))
    }

    /// Restores a snapshot taken with `get_state`.
    fn set_state(&self, py: Python<'_>, state: Vec<u8>) -> PyResult<()> {
        self.owner
            .with_slot(py, self.index, |slot| slot.restore(&state))
    }

    /// The id the slot's env was made from.
    #[getter]
    fn env_id(&self) -> String {
        self.id.clone()
    }

    /// The slot's index in its vector env.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// GEM's `vec.envs[i].env`: the same slot seen as its innermost env. A native vector env
    /// runs a slot's wrappers inside the slot, and what callers reach through `.env` (a random
    /// action, the state, the id) is the same for the slot as for its innermost env. The
    /// innermost view's own `.env` is `None`, as for an unwrapped env, so loops that unwrap
    /// until no `.env` is left end.
    #[getter]
    fn env(&self) -> Option<PySlotEnv> {
        (!self.innermost).then(|| self.innermost_view())
    }

    /// The innermost env (see `env`).
    #[getter]
    fn unwrapped(&self) -> PySlotEnv {
        self.innermost_view()
    }

    fn __repr__(&self) -> String {
        format!("<geode.SlotEnv {} #{}>", self.id, self.index)
    }
}
