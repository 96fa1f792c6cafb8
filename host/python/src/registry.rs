//! The process-wide registry (built-in plugins plus `GEODE_PLUGIN_PATH`, loaded on first use)
//! and the functions that list ids, load plugins and parse wrapper specs.

use crate::convert::{self, map_to_py};
use crate::errors::IntoPyResult;
use geode_runtime::{Error, Registry, Runtime, WrapperSpec};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};

static REGISTRY: RwLock<Option<Arc<Registry>>> = RwLock::new(None);

/// The registry, loading it on first use.
pub fn current() -> Result<Arc<Registry>, Error> {
    if let Some(registry) = REGISTRY
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
    {
        return Ok(registry.clone());
    }
    let mut slot = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    if let Some(registry) = slot.as_ref() {
        return Ok(registry.clone());
    }
    let runtime =
        Runtime::new().map_err(|e| Error::Internal(format!("starting wasmtime: {e:#}")))?;
    let registry = Arc::new(geode_builtins::standard(runtime)?);
    *slot = Some(registry.clone());
    Ok(registry)
}

/// Loads a plugin file (`.wasm`) or every plugin in a directory into the registry; returns the
/// ids it added.
#[pyfunction]
pub fn load_plugin(py: Python<'_>, path: PathBuf) -> PyResult<Vec<String>> {
    py.detach(|| {
        let base = current()?;
        let mut registry = (*base).clone();
        let plugins = if path.is_dir() {
            registry.add_dir(&path)?
        } else {
            vec![registry.add_file(&path)?]
        };
        let ids = plugins
            .iter()
            .flat_map(|p| p.specs().iter().map(|s| s.id.clone()))
            .collect();
        *REGISTRY.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(registry));
        Ok(ids)
    })
    .py_err(py)
}

/// Adds a data directory: an env's `dataset` key may then name a `.jsonl` or `.parquet` file
/// inside it (as a relative path). `GEODE_DATA_PATH` adds directories at start-up.
#[pyfunction]
pub fn add_data_dir(py: Python<'_>, path: PathBuf) -> PyResult<()> {
    py.detach(|| current()?.runtime().datasets().add_root(&path))
        .py_err(py)
}

/// Every id: a list of `(id, kind, source, description, default_config)` tuples, sorted by id
/// (plugins' ids and the ones the host provides itself: code envs, `tool:python`).
#[pyfunction]
pub fn list_envs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let registry = py.detach(current).py_err(py)?;
    let list = PyList::empty(py);
    for entry in registry.entries() {
        let row = PyTuple::new(
            py,
            [
                entry.id().into_pyobject(py)?.into_any(),
                entry.kind.to_string().into_pyobject(py)?.into_any(),
                entry.provider.source().into_pyobject(py)?.into_any(),
                entry.spec.description.clone().into_pyobject(py)?.into_any(),
                map_to_py(py, &entry.spec.default_config)?.into_any(),
            ],
        )?;
        list.append(row)?;
    }
    list.sort()?;
    Ok(list)
}

/// The WIT contract version this build of geode speaks.
#[pyfunction]
pub fn contract_version() -> &'static str {
    geode_runtime::CONTRACT_VERSION
}

/// Native wrapper specs from Python `(name, config)` pairs, parsed by [`WrapperSpec::from_name`]:
/// GEM's names, `tools`, or a wrapper plugin's id with its options.
pub fn wrapper_specs(specs: Option<&Bound<'_, PyList>>) -> PyResult<Vec<WrapperSpec>> {
    let Some(specs) = specs else {
        return Ok(Vec::new());
    };
    specs
        .iter()
        .map(|item| {
            let (name, config): (String, Option<Bound<'_, PyDict>>) = item.extract()?;
            wrapper_spec(item.py(), &name, config.as_ref())
        })
        .collect()
}

/// The options of the tools layer a tool wrapper name stands for (GEM's `python_tool` and
/// `search_tool` names, or `tools`), resolved by [`WrapperSpec::from_name`]: what a Python-only
/// env's `ToolEnvWrapper` is built from. `None` for other wrappers.
#[pyfunction]
#[pyo3(signature = (name, options=None))]
pub fn wrapper_tools<'py>(
    py: Python<'py>,
    name: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let spec = wrapper_spec(py, name, options)?;
    spec.tools_options()
        .map(|options| convert::value_to_py(py, &options))
        .transpose()
}

fn wrapper_spec(
    py: Python<'_>,
    name: &str,
    config: Option<&Bound<'_, PyDict>>,
) -> PyResult<WrapperSpec> {
    let options = match config {
        Some(dict) => serde_json::Value::Object(convert::dict_to_map(dict, name)?),
        None => serde_json::Value::Null,
    };
    WrapperSpec::from_name(name, options).py_err(py)
}
