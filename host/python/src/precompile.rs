//! `precompile`: compiles every shipped component ahead of time into the package's
//! `geode-precompiled` directory (or another), which the runtime searches before its cache.

use crate::errors::IntoPyResult;
use pyo3::prelude::*;
use std::path::PathBuf;

/// One component's row: name, file, size in bytes, compiled by this call, seconds.
type Row = (String, PathBuf, u64, bool, f64);

/// Compiles the built-in plugins, the Python runners and the math grader into `dir` (default:
/// `geode-precompiled` in the installed package) and returns, per component, its name, file,
/// size in bytes, whether this call compiled it (False: already there) and the seconds taken.
#[pyfunction]
#[pyo3(signature = (dir=None))]
pub fn precompile(py: Python<'_>, dir: Option<PathBuf>) -> PyResult<Vec<Row>> {
    let dir = match dir.or_else(geode_runtime::shipped_precompiled_dir) {
        Some(dir) => dir,
        None => {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "cannot tell where the geode package is; pass dir=",
            ));
        }
    };
    let entries = py
        .detach(|| {
            // A runtime of its own: the registry would first compile the plugins into the cache.
            let runtime = geode_runtime::Runtime::new()
                .map_err(|e| geode_runtime::Error::Internal(format!("starting wasmtime: {e:#}")))?;
            geode_builtins::precompile(&runtime, &dir, |_| {})
        })
        .py_err(py)?;
    Ok(entries
        .into_iter()
        .map(|e| {
            let secs = e.elapsed.as_secs_f64();
            (e.name, e.file.path, e.file.bytes, e.file.compiled, secs)
        })
        .collect())
}
