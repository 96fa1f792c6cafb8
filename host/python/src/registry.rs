//! The process-wide registry (built-in plugins plus `GEODE_PLUGIN_PATH`, loaded on first use)
//! and the functions that list ids, load plugins and parse wrapper specs.

use crate::convert::{self, map_to_py};
use crate::errors::{IntoPyResult, bad_config, invalid_argument};
use geode_runtime::wrappers::{ObservationMode, ToolRewards};
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
    let mut registry = Registry::standard(runtime)?;
    // `tool:search` (geode-search), unless the standard registry already provides it.
    if registry.lookup(geode_search::SEARCH_TOOL_ID).is_err() {
        registry.add_native(Arc::new(geode_search::SearchProvider))?;
    }
    let registry = Arc::new(registry);
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

/// Native wrapper specs from Python `(name, config)` pairs. Names: `concat`,
/// `concat_with_action` (config: `max_history_length`), `episode_tracking`, `tools` (config:
/// `tools`, `tool_reward`, `tool_success_reward`, `tool_execute_error_reward`, `max_tool_uses`),
/// or a wrapper plugin's id (config: its overrides).
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

fn wrapper_spec(
    py: Python<'_>,
    name: &str,
    config: Option<&Bound<'_, PyDict>>,
) -> PyResult<WrapperSpec> {
    let mut map = match config {
        Some(dict) => convert::dict_to_map(dict, name)?,
        None => serde_json::Map::new(),
    };
    let spec = match name {
        "concat" | "concat_with_action" => {
            let max_history = match map.remove("max_history_length") {
                None | Some(serde_json::Value::Null) => None,
                Some(v) => Some(v.as_u64().ok_or_else(|| {
                    bad_config(py, "max_history_length", "expected a non-negative integer")
                })? as usize),
            };
            let mode = if name == "concat" {
                ObservationMode::Concat
            } else {
                ObservationMode::ConcatWithAction
            };
            WrapperSpec::Observation { mode, max_history }
        }
        "episode_tracking" => WrapperSpec::EpisodeTracking,
        "tools" => tools_spec(py, &mut map)?,
        id if id.contains(':') => {
            return Ok(WrapperSpec::Plugin {
                id: id.to_owned(),
                config: serde_json::Value::Object(map),
            });
        }
        other => return WrapperSpec::by_name(other).py_err(py),
    };
    if let Some(key) = map.keys().next() {
        return Err(bad_config(
            py,
            &format!("{name}.{key}"),
            "unknown option for this wrapper",
        ));
    }
    Ok(spec)
}

fn tools_spec(
    py: Python<'_>,
    map: &mut serde_json::Map<String, serde_json::Value>,
) -> PyResult<WrapperSpec> {
    let mut rewards = ToolRewards::default();
    let mut number = |key: &str, into: &mut f64| -> PyResult<()> {
        if let Some(v) = map.remove(key) {
            *into = v
                .as_f64()
                .ok_or_else(|| bad_config(py, &format!("tools.{key}"), "expected a number"))?;
        }
        Ok(())
    };
    number("tool_reward", &mut rewards.tool_reward)?;
    number("tool_success_reward", &mut rewards.tool_success_reward)?;
    number(
        "tool_execute_error_reward",
        &mut rewards.tool_execute_error_reward,
    )?;
    if let Some(v) = map.remove("max_tool_uses") {
        rewards.max_tool_uses = match v {
            serde_json::Value::Null => None,
            v => Some(v.as_u64().ok_or_else(|| {
                bad_config(py, "tools.max_tool_uses", "expected a non-negative integer")
            })?),
        };
    }
    let list = match map.remove("tools") {
        Some(serde_json::Value::Array(list)) if !list.is_empty() => list,
        _ => {
            return Err(invalid_argument(
                py,
                "the tools wrapper needs `tools`: a list of tool ids or [id, config] pairs".into(),
            ));
        }
    };
    let tools = list
        .into_iter()
        .map(|entry| match entry {
            serde_json::Value::String(id) => Ok((id, serde_json::Value::Null)),
            serde_json::Value::Array(pair) if pair.len() == 2 && pair[0].is_string() => Ok((
                pair[0].as_str().unwrap_or_default().to_owned(),
                pair[1].clone(),
            )),
            other => Err(bad_config(
                py,
                "tools.tools",
                &format!("expected a tool id or an [id, config] pair, got {other}"),
            )),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(WrapperSpec::Tools { tools, rewards })
}
