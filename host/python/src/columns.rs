//! [`Columns`]: a vector step's result tuple, filled while the step runs. The stepping threads
//! hand finished slots to the calling thread (see `VectorEnv::step_streamed`), which takes the
//! GIL for a moment and turns them into Python objects while the other threads keep stepping.

use crate::batch::InfoCache;
use crate::errors;
use geode_runtime::vector::SlotStep;
use geode_runtime::{Error, Info};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// The raw tuple of a vector step over all slots (see `batch::step_to_py` for its layout),
/// under construction: the lists exist from the start at their final length, the numeric
/// columns and the rare per-slot extras stay in Rust until [`Columns::finish`].
pub struct Columns {
    observations: Py<PyList>,
    infos: Py<PyList>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    /// Empty until some slot has an entry; then one per slot.
    final_observations: Vec<Option<String>>,
    final_infos: Vec<Option<Info>>,
    errors: Vec<Option<Error>>,
    info_cache: InfoCache,
    /// The first conversion that failed; the step's result is this error.
    failure: Option<PyErr>,
}

impl Columns {
    /// Columns for `n` slots, every entry still unset.
    pub fn new(py: Python<'_>, n: usize) -> PyResult<Self> {
        let unset = || PyList::new(py, (0..n).map(|_| py.None())).map(Bound::unbind);
        Ok(Columns {
            observations: unset()?,
            infos: unset()?,
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_observations: Vec::new(),
            final_infos: Vec::new(),
            errors: Vec::new(),
            info_cache: InfoCache::default(),
            failure: None,
        })
    }

    /// Fills in the entries of finished slots, `(slot index, result)`.
    pub fn take(&mut self, py: Python<'_>, ready: &mut dyn Iterator<Item = (usize, SlotStep)>) {
        for (index, step) in ready {
            if self.failure.is_none()
                && let Err(e) = self.put(py, index, step)
            {
                self.failure = Some(e);
            }
        }
    }

    fn put(&mut self, py: Python<'_>, index: usize, step: SlotStep) -> PyResult<()> {
        let n = self.rewards.len();
        self.observations
            .bind(py)
            .set_item(index, PyString::new(py, &step.observation))?;
        self.infos
            .bind(py)
            .set_item(index, self.info_cache.get(py, &step.info)?)?;
        self.rewards[index] = step.reward;
        self.terminated[index] = step.terminated;
        self.truncated[index] = step.truncated;
        set_rare(
            &mut self.final_observations,
            n,
            index,
            step.final_observation,
        );
        set_rare(&mut self.final_infos, n, index, step.final_info);
        set_rare(&mut self.errors, n, index, step.error);
        Ok(())
    }

    /// The finished tuple, or the first conversion error.
    pub fn finish(self, py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        if let Some(e) = self.failure {
            return Err(e);
        }
        let n = self.rewards.len();
        let mut info_cache = self.info_cache;
        let none = || py.None().into_bound(py);
        let final_observations = if self.final_observations.is_empty() {
            none()
        } else {
            PyList::new(py, self.final_observations)?.into_any()
        };
        let final_infos = if self.final_infos.is_empty() {
            none()
        } else {
            let dicts = self
                .final_infos
                .iter()
                .map(|info| info.as_ref().map(|i| info_cache.get(py, i)).transpose())
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, dicts)?.into_any()
        };
        let errors = if self.errors.is_empty() {
            none()
        } else {
            let exceptions = self
                .errors
                .iter()
                .map(|e| e.as_ref().map(|e| errors::exception(py, e)));
            PyList::new(py, exceptions)?.into_any()
        };
        PyTuple::new(
            py,
            [
                PyList::new(py, 0..n)?.into_any(),
                self.observations.into_bound(py).into_any(),
                self.rewards.into_pyarray(py).into_any(),
                self.terminated.into_pyarray(py).into_any(),
                self.truncated.into_pyarray(py).into_any(),
                self.infos.into_bound(py).into_any(),
                final_observations,
                final_infos,
                errors,
            ],
        )
    }
}

/// Sets entry `index` of a column that stays empty until its first entry (of `n`).
fn set_rare<T>(column: &mut Vec<Option<T>>, n: usize, index: usize, value: Option<T>) {
    if value.is_some() {
        if column.is_empty() {
            column.resize_with(n, || None);
        }
        column[index] = value;
    }
}
