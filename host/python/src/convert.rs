//! Conversions between Python objects and the JSON values, infos and limits of the runtime.

use crate::errors::{bad_config, invalid_argument};
use geode_runtime::{AutoresetMode, Info, InfoStr, Limits, StepOutput};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};
use std::time::Duration;

/// A Python `str` of `text`. ASCII text (most observations) is copied straight into a new
/// compact string: CPython's UTF-8 decoder would check it again byte by byte, which was the
/// largest single cost of converting a vector step (a third of it for GuessTheNumber's long
/// first observations).
pub fn str_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    if !text.is_ascii() {
        return Ok(PyString::new(py, text).into_any());
    }
    let len = ffi::Py_ssize_t::try_from(text.len())
        .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("text too long"))?;
    // SAFETY: `PyUnicode_New` returns a new compact ASCII string of `len` characters (its data
    // buffer holds `len` bytes and a terminating NUL it wrote), or NULL with an exception set;
    // ASCII bytes are valid content for it.
    unsafe {
        let string = Bound::from_owned_ptr_or_err(py, ffi::PyUnicode_New(len, 127))?;
        let data = ffi::PyUnicode_1BYTE_DATA(string.as_ptr());
        std::ptr::copy_nonoverlapping(text.as_ptr(), data, text.len());
        Ok(string)
    }
}

/// A JSON value as a Python object (`dict`, `list`, `str`, `int`, `float`, `bool`, `None`).
pub fn value_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => map_to_py(py, map)?.into_any(),
    })
}

/// A JSON object as a Python `dict`.
pub fn map_to_py<'py>(py: Python<'py>, map: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in map {
        dict.set_item(key, value_to_py(py, value)?)?;
    }
    Ok(dict)
}

/// An env's info as a Python `dict` (GEM's info).
pub fn info_to_py<'py>(py: Python<'py>, info: &InfoStr) -> PyResult<Bound<'py, PyDict>> {
    if info.as_json() == "{}" {
        return Ok(PyDict::new(py));
    }
    match serde_json::from_str::<Value>(info.as_json()) {
        Ok(Value::Object(map)) => map_to_py(py, &map),
        _ => Ok(PyDict::new(py)),
    }
}

/// GEM's step result: `(observation, reward, terminated, truncated, info)`.
pub type StepTuple<'py> = (String, f64, bool, bool, Bound<'py, PyDict>);

/// A single env's step output as GEM's tuple.
pub fn step_to_py<'py>(py: Python<'py>, out: StepOutput) -> PyResult<StepTuple<'py>> {
    let info = info_to_py(py, &out.info)?;
    Ok((
        out.observation,
        out.reward,
        out.terminated,
        out.truncated,
        info,
    ))
}

/// A Python value as JSON; `what` names it in the error (a config key).
pub fn py_to_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(bad_config(
            obj.py(),
            what,
            "integer out of the 64-bit range",
        ));
    }
    if obj.is_instance_of::<PyFloat>() {
        let f: f64 = obj.extract()?;
        return Number::from_f64(f).map(Value::Number).ok_or_else(|| {
            bad_config(
                obj.py(),
                what,
                "NaN and infinity are not valid config values",
            )
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        return dict_to_map(dict, what).map(Value::Object);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items = obj
            .try_iter()?
            .enumerate()
            .map(|(i, item)| py_to_value(&item?, &format!("{what}[{i}]")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::Array(items));
    }
    let type_name = obj.get_type().name()?;
    Err(bad_config(
        obj.py(),
        what,
        &format!("cannot pass a `{type_name}` as configuration (use JSON-like values)"),
    ))
}

/// A Python `dict` with string keys as a JSON object.
pub fn dict_to_map(dict: &Bound<'_, PyDict>, what: &str) -> PyResult<Map<String, Value>> {
    let mut map = Map::new();
    for (key, value) in dict.iter() {
        let key: String = key
            .extract()
            .map_err(|_| bad_config(dict.py(), what, "configuration keys must be strings"))?;
        let path = if what.is_empty() {
            key.clone()
        } else {
            format!("{what}.{key}")
        };
        map.insert(key, py_to_value(&value, &path)?);
    }
    Ok(map)
}

/// Config overrides from an optional `dict` (`None` means no overrides).
pub fn overrides(config: Option<&Bound<'_, PyDict>>) -> PyResult<Value> {
    match config {
        None => Ok(Value::Null),
        Some(dict) => dict_to_map(dict, "").map(Value::Object),
    }
}

/// Default limits with the entries of `dict` applied. Sizes are bytes; `deadline_per_call` is in
/// seconds; `None` lifts `fuel_per_call` or `deadline_per_call`.
pub fn limits(dict: Option<&Bound<'_, PyDict>>) -> PyResult<Limits> {
    let mut limits = Limits::default();
    let Some(dict) = dict else {
        return Ok(limits);
    };
    for (key, value) in dict.iter() {
        let key: String = key.extract()?;
        let py = dict.py();
        let size = |v: &Bound<'_, PyAny>| -> PyResult<usize> {
            v.extract::<usize>().map_err(|_| {
                bad_config(
                    py,
                    &format!("limits.{key}"),
                    "expected a non-negative integer",
                )
            })
        };
        match key.as_str() {
            "fuel_per_call" => {
                limits.fuel_per_call = if value.is_none() {
                    None
                } else {
                    Some(size(&value)? as u64)
                }
            }
            "deadline_per_call" => {
                limits.deadline_per_call = if value.is_none() {
                    None
                } else {
                    let secs: f64 = value.extract().map_err(|_| {
                        bad_config(
                            py,
                            "limits.deadline_per_call",
                            "expected seconds as a number",
                        )
                    })?;
                    Some(Duration::try_from_secs_f64(secs).map_err(|_| {
                        bad_config(
                            py,
                            "limits.deadline_per_call",
                            "expected a positive number of seconds",
                        )
                    })?)
                }
            }
            "max_memory_bytes" => limits.max_memory_bytes = size(&value)? as u64,
            "max_observation_bytes" => limits.max_observation_bytes = size(&value)?,
            "max_action_bytes" => limits.max_action_bytes = size(&value)?,
            "max_info_bytes" => limits.max_info_bytes = size(&value)?,
            "max_state_bytes" => limits.max_state_bytes = size(&value)?,
            "max_table_elements" => limits.max_table_elements = size(&value)?,
            "max_resource_handles" => limits.max_resource_handles = size(&value)?,
            _ => {
                return Err(bad_config(
                    py,
                    &format!("limits.{key}"),
                    "unknown limit; known limits are fuel_per_call, deadline_per_call, \
                     max_memory_bytes, max_observation_bytes, max_action_bytes, max_info_bytes, \
                     max_state_bytes, max_table_elements, max_resource_handles",
                ));
            }
        }
    }
    Ok(limits)
}

/// The id of slot `index`, or an error naming the valid range.
pub fn slot_id(py: Python<'_>, ids: &[String], index: usize) -> PyResult<String> {
    ids.get(index).cloned().ok_or_else(|| {
        invalid_argument(
            py,
            format!(
                "env index {index} is out of range (num_envs = {})",
                ids.len()
            ),
        )
    })
}

/// The name GEM gives an autoreset mode.
pub fn mode_name(mode: AutoresetMode) -> &'static str {
    match mode {
        AutoresetMode::SameStep => "SameStep",
        AutoresetMode::NextStep => "NextStep",
        AutoresetMode::Disabled => "Disabled",
    }
}

/// Observations and infos of resets as Python lists.
pub fn resets_to_py<'py>(
    py: Python<'py>,
    observations: Vec<String>,
    infos: &[Info],
) -> PyResult<Bound<'py, PyTuple>> {
    let infos = infos
        .iter()
        .map(|i| info_to_py(py, i))
        .collect::<PyResult<Vec<_>>>()?;
    (PyList::new(py, observations)?, PyList::new(py, infos)?).into_pyobject(py)
}
