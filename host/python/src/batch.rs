//! Per-slot results of vector steps and pool receives, converted to the raw tuples the Python
//! layer (`geode/vector`) turns into GEM's return values.

use crate::convert::{info_to_py, str_to_py};
use crate::errors;
use geode_runtime::vector::{Completed, SlotStep};
use geode_runtime::{InfoStr, VectorStep};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The result of one slot: its index and its step (a pool's completion, or a vector step's row).
pub type Row = Completed;

/// Converts infos, copying the previous dict when the JSON text repeats (slots of one game
/// mostly return the same info, and a dict copy is cheaper than parsing). It holds no GIL-bound
/// reference, so it can live across the GIL being released and taken again.
#[derive(Default)]
pub struct InfoCache {
    last: Option<(String, Py<PyDict>)>,
}

impl InfoCache {
    /// A fresh dict for `info`.
    pub fn get<'py>(&mut self, py: Python<'py>, info: &InfoStr) -> PyResult<Bound<'py, PyDict>> {
        if let Some((json, dict)) = &self.last
            && json == info.as_json()
        {
            return dict.bind(py).copy();
        }
        let dict = info_to_py(py, info)?;
        self.last = Some((info.as_json().to_owned(), dict.copy()?.unbind()));
        Ok(dict)
    }
}

/// `(indices, observations, rewards, terminated, truncated, infos, final_observations,
/// final_infos, errors)`: rewards and flags as numpy arrays (float64, bool), the rest lists; the
/// last three are `None` when no entry has one. Columns go to Python as they are: the numeric
/// ones without a copy, each list allocated once at its final size.
pub fn step_to_py<'py>(py: Python<'py>, step: VectorStep) -> PyResult<Bound<'py, PyTuple>> {
    let mut cache = InfoCache::default();
    let info_dicts = step
        .infos()
        .map(|info| cache.get(py, info))
        .collect::<PyResult<Vec<_>>>()?;
    let none = || py.None().into_bound(py);
    let (final_observations, final_infos) = if step.any_final() {
        let entries = 0..step.len();
        let dicts = entries
            .clone()
            .map(|k| {
                step.final_info(k)
                    .map(|info| cache.get(py, info))
                    .transpose()
            })
            .collect::<PyResult<Vec<_>>>()?;
        let observations = entries
            .map(|k| step.final_observation(k).map(|o| str_to_py(py, o)))
            .map(Option::transpose)
            .collect::<PyResult<Vec<_>>>()?;
        (
            PyList::new(py, observations)?.into_any(),
            PyList::new(py, dicts)?.into_any(),
        )
    } else {
        (none(), none())
    };
    let errors = if step.errors.iter().any(Option::is_some) {
        let exceptions = step
            .errors
            .iter()
            .map(|e| e.as_ref().map(|e| errors::exception(py, e)));
        PyList::new(py, exceptions)?.into_any()
    } else {
        none()
    };
    let observations = step.observations().map(|o| str_to_py(py, o));
    let observations = PyList::new(py, observations.collect::<PyResult<Vec<_>>>()?)?.into_any();
    PyTuple::new(
        py,
        [
            PyList::new(py, step.indices)?.into_any(),
            observations,
            step.rewards.into_pyarray(py).into_any(),
            step.terminated.into_pyarray(py).into_any(),
            step.truncated.into_pyarray(py).into_any(),
            PyList::new(py, info_dicts)?.into_any(),
            final_observations,
            final_infos,
            errors,
        ],
    )
}

/// One slot's result for `step_async`: `(observation, reward, terminated, truncated, info,
/// final_observation, final_info, error)`. `infos` is shared by the results converted together.
pub fn row_to_py<'py>(
    py: Python<'py>,
    row: SlotStep,
    infos: &mut InfoCache,
) -> PyResult<Bound<'py, PyTuple>> {
    let final_info = match &row.final_info {
        Some(info) => infos.get(py, info)?.into_any(),
        None => py.None().into_bound(py),
    };
    let error = match &row.error {
        Some(e) => errors::exception(py, e),
        None => py.None().into_bound(py),
    };
    (
        str_to_py(py, &row.observation)?,
        row.reward,
        row.terminated,
        row.truncated,
        infos.get(py, &row.info)?,
        row.final_observation
            .map(|o| str_to_py(py, &o))
            .transpose()?,
        final_info,
        error,
    )
        .into_pyobject(py)
}
