//! Per-slot results converted for Python: the info dicts of every batch (`InfoCache`), and one
//! `step_async` result (`row_to_py`). Whole batches are converted by `columns`.

use crate::convert::{info_to_py, str_to_py};
use crate::errors;
use geode_runtime::InfoStr;
use geode_runtime::vector::SlotStep;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyString, PyTuple};

/// Converts infos, copying the previous dict when the JSON text repeats (slots of one game
/// mostly return the same info, and a dict copy is cheaper than parsing). Only dicts
/// whose values are immutable (text, numbers, booleans, `None`) are reused, so no two infos
/// share a list or a nested dict. It holds no GIL-bound reference, so it can live across the
/// GIL being released and taken again.
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
        self.last = if values_are_immutable(&dict) {
            Some((info.as_json().to_owned(), dict.copy()?.unbind()))
        } else {
            None
        };
        Ok(dict)
    }
}

/// Whether every value of `dict` is text, a number, a boolean (an `int` in Python) or `None`.
fn values_are_immutable(dict: &Bound<'_, PyDict>) -> bool {
    dict.values().iter().all(|value| {
        value.is_none()
            || value.is_instance_of::<PyString>()
            || value.is_instance_of::<PyInt>()
            || value.is_instance_of::<PyFloat>()
    })
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
