//! Per-slot results of vector steps and pool receives, converted to the raw tuples the Python
//! layer (`geode/vector`) turns into GEM's return values.

use crate::convert::info_to_py;
use crate::errors;
use geode_runtime::vector::{Completed, SlotStep};
use geode_runtime::{Info, VectorStep};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The result of one slot: its index and its step (a pool's completion, or a vector step's row).
pub type Row = Completed;

/// The rows of a vector step, in its order.
pub fn rows_of_step(step: VectorStep) -> Vec<Row> {
    let VectorStep {
        indices,
        observations,
        rewards,
        terminated,
        truncated,
        infos,
        final_observations,
        final_infos,
        errors,
    } = step;
    let mut rest = observations
        .into_iter()
        .zip(infos)
        .zip(final_observations.into_iter().zip(final_infos))
        .zip(errors);
    indices
        .into_iter()
        .enumerate()
        .filter_map(|(k, index)| {
            let (((observation, info), (final_observation, final_info)), error) = rest.next()?;
            let step = SlotStep {
                observation,
                reward: rewards[k],
                terminated: terminated[k],
                truncated: truncated[k],
                info,
                final_observation,
                final_info,
                error,
            };
            Some(Row { index, step })
        })
        .collect()
}

/// Converts infos, copying the previous dict when the JSON text repeats (slots of one game
/// mostly return the same info, and a dict copy is cheaper than parsing).
#[derive(Default)]
pub struct InfoCache<'py> {
    last: Option<(String, Bound<'py, PyDict>)>,
}

impl<'py> InfoCache<'py> {
    /// A fresh dict for `info`.
    pub fn get(&mut self, py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
        if let Some((json, dict)) = &self.last
            && json == info.as_json()
        {
            return dict.copy();
        }
        let dict = info_to_py(py, info)?;
        self.last = Some((info.as_json().to_owned(), dict.copy()?));
        Ok(dict)
    }
}

/// `(indices, observations, rewards, terminated, truncated, infos, final_observations,
/// final_infos, errors)`: rewards and flags as numpy arrays (float64, bool), the rest lists; the
/// last three are `None` when no row has one.
pub fn rows_to_py<'py>(py: Python<'py>, rows: Vec<Row>) -> PyResult<Bound<'py, PyTuple>> {
    let n = rows.len();
    let mut indices = Vec::with_capacity(n);
    let mut rewards = Vec::with_capacity(n);
    let mut terminated = Vec::with_capacity(n);
    let mut truncated = Vec::with_capacity(n);
    let observations = PyList::empty(py);
    let infos = PyList::empty(py);
    let any_final = rows.iter().any(|r| r.step.final_observation.is_some());
    let any_error = rows.iter().any(|r| r.step.error.is_some());
    let finals_obs = PyList::empty(py);
    let finals_info = PyList::empty(py);
    let errs = PyList::empty(py);
    let mut cache = InfoCache::default();
    for Row { index, step: row } in rows {
        indices.push(index);
        rewards.push(row.reward);
        terminated.push(row.terminated);
        truncated.push(row.truncated);
        observations.append(row.observation)?;
        infos.append(cache.get(py, &row.info)?)?;
        if any_final {
            finals_obs.append(row.final_observation)?;
            match &row.final_info {
                Some(info) => finals_info.append(cache.get(py, info)?)?,
                None => finals_info.append(py.None())?,
            }
        }
        if any_error {
            match &row.error {
                Some(e) => errs.append(errors::exception(py, e))?,
                None => errs.append(py.None())?,
            }
        }
    }
    let none = || py.None().into_bound(py);
    PyTuple::new(
        py,
        [
            PyList::new(py, indices)?.into_any(),
            observations.into_any(),
            rewards.into_pyarray(py).into_any(),
            terminated.into_pyarray(py).into_any(),
            truncated.into_pyarray(py).into_any(),
            infos.into_any(),
            if any_final {
                finals_obs.into_any()
            } else {
                none()
            },
            if any_final {
                finals_info.into_any()
            } else {
                none()
            },
            if any_error { errs.into_any() } else { none() },
        ],
    )
}

/// One slot's result for `step_async`: `(observation, reward, terminated, truncated, info,
/// final_observation, final_info, error)`. `infos` is shared by the results converted together.
pub fn row_to_py<'py>(
    py: Python<'py>,
    row: SlotStep,
    infos: &mut InfoCache<'py>,
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
        row.observation,
        row.reward,
        row.terminated,
        row.truncated,
        infos.get(py, &row.info)?,
        row.final_observation,
        final_info,
        error,
    )
        .into_pyobject(py)
}
