//! [`Columns`]: a vector step's result tuple, filled while the step runs. The stepping threads
//! hand finished slots to the calling thread (see `VectorEnv::step_streamed`), which takes the
//! GIL for a moment and turns them into Python objects while the other threads keep stepping.

use crate::batch::InfoCache;
use crate::errors;
use geode_runtime::{Error, Info, VectorStep};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// The raw tuple of a vector step over all slots (see `batch::step_to_py` for its layout),
/// under construction: the lists exist from the start at their final length, the numeric
/// columns and the rare per-slot extras stay in Rust until [`Columns::finish`].
pub struct Columns {
    /// The slot index of each entry.
    indices: Vec<usize>,
    /// Each slot's entry (`u32::MAX` for slots not in this step).
    entry_of: Vec<u32>,
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
    /// Columns for a step of the slots `indices` (distinct), in that order, every entry still
    /// unset.
    pub fn new(py: Python<'_>, indices: Vec<usize>) -> PyResult<Self> {
        let n = indices.len();
        let slots = indices.iter().max().map_or(0, |&i| i + 1);
        let mut entry_of = vec![u32::MAX; slots];
        for (entry, &index) in indices.iter().enumerate() {
            entry_of[index] = entry as u32;
        }
        let unset = || PyList::new(py, (0..n).map(|_| py.None())).map(Bound::unbind);
        Ok(Columns {
            indices,
            entry_of,
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

    /// Fills in the entries of finished slots (`ready.indices` says which); takes their
    /// errors out of `ready`.
    pub fn take(&mut self, py: Python<'_>, ready: &mut VectorStep) {
        for k in 0..ready.len() {
            if self.failure.is_none()
                && let Err(e) = self.put(py, ready, k)
            {
                self.failure = Some(e);
            }
        }
    }

    fn put(&mut self, py: Python<'_>, ready: &mut VectorStep, k: usize) -> PyResult<()> {
        let n = self.rewards.len();
        let slot = ready.indices[k];
        let entry = match self.entry_of.get(slot) {
            Some(&entry) if entry != u32::MAX => entry as usize,
            _ => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "a result for slot {slot}, which this step did not include"
                )));
            }
        };
        self.observations
            .bind(py)
            .set_item(entry, PyString::new(py, ready.observation(k)))?;
        self.infos
            .bind(py)
            .set_item(entry, self.info_cache.get(py, ready.info(k))?)?;
        self.rewards[entry] = ready.rewards[k];
        self.terminated[entry] = ready.terminated[k];
        self.truncated[entry] = ready.truncated[k];
        let final_observation = ready.final_observation(k).map(str::to_owned);
        set_rare(&mut self.final_observations, n, entry, final_observation);
        let final_info = ready.final_info(k).map(ToOwned::to_owned);
        set_rare(&mut self.final_infos, n, entry, final_info);
        set_rare(&mut self.errors, n, entry, ready.errors[k].take());
        Ok(())
    }

    /// The finished tuple, or the first conversion error.
    pub fn finish(self, py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        if let Some(e) = self.failure {
            return Err(e);
        }
        let mut info_cache = self.info_cache;
        let final_observations = rare_list(py, self.final_observations, Ok)?;
        let final_infos = rare_list(py, self.final_infos, |i| info_cache.get(py, &i))?;
        let errors = rare_list(py, self.errors, |e| Ok(errors::exception(py, &e)))?;
        PyTuple::new(
            py,
            [
                PyList::new(py, self.indices)?.into_any(),
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

/// A rare column as a Python list (`None` for entries without a value), or `None` when no
/// entry has one.
fn rare_list<'py, T, P: IntoPyObject<'py>>(
    py: Python<'py>,
    column: Vec<Option<T>>,
    mut convert: impl FnMut(T) -> PyResult<P>,
) -> PyResult<Bound<'py, PyAny>> {
    if column.is_empty() {
        return Ok(py.None().into_bound(py));
    }
    let items = column
        .into_iter()
        .map(|value| value.map(&mut convert).transpose())
        .collect::<PyResult<Vec<Option<P>>>>()?;
    Ok(PyList::new(py, items)?.into_any())
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
