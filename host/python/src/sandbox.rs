//! `_geode.sandbox_run` and `_geode.sandbox_run_gem`: the runtime's code sandbox (the one
//! `tool:python` and the code envs run programs in) for `geode.sandbox` and
//! `geode.utils.sandbox`, with the GIL released while programs run.

use crate::errors::{IntoPyResult, invalid_argument};
use crate::registry::current;
use geode_runtime::sandbox::{FUEL_PER_SECOND, RunOutcome, RunRequest, Sandbox};
use pyo3::prelude::*;
use std::time::Duration;

/// One program from Python: (code, stdin, timeout in seconds, memory cap in bytes, fuel, seed).
/// `None` limits take the sandbox's defaults; a timeout without fuel gets the fuel of that
/// many seconds of a tight loop, as the code envs' `timeout` does.
type RequestTuple = (String, String, Option<f64>, Option<u64>, Option<u64>, u64);

/// One outcome for Python: (status, stdout, stderr, exit code, fuel used, elapsed seconds).
type OutcomeTuple = (&'static str, String, String, i32, u64, f64);

/// Registers this module's functions and constants on the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sandbox_run, m)?)?;
    m.add_function(wrap_pyfunction!(sandbox_run_gem, m)?)?;
    m.add("FUEL_PER_SECOND", FUEL_PER_SECOND)?;
    m.add("BASE_IMPORTS", geode_builtins::gem::BASE_IMPORTS)?;
    Ok(())
}

/// Runs every request, each in a fresh interpreter instance, in parallel on the host's threads;
/// the outcomes come back in order.
#[pyfunction]
pub fn sandbox_run(py: Python<'_>, requests: Vec<RequestTuple>) -> PyResult<Vec<OutcomeTuple>> {
    let requests = requests
        .into_iter()
        .map(|r| to_request(py, r))
        .collect::<PyResult<Vec<_>>>()?;
    let outcomes = py
        .detach(|| Ok::<_, geode_runtime::Error>(sandbox()?.run_many(&requests)))
        .py_err(py)?;
    Ok(outcomes.into_iter().map(outcome).collect())
}

/// Runs one request as GEM's `run_python` does: once, then again with GEM's `BASE_IMPORTS`
/// prepended when it failed on a name that "is not defined".
#[pyfunction]
pub fn sandbox_run_gem(py: Python<'_>, request: RequestTuple) -> PyResult<OutcomeTuple> {
    let request = to_request(py, request)?;
    let done = py
        .detach(|| {
            Ok::<_, geode_runtime::Error>(geode_builtins::gem::run_python(&sandbox()?, &request))
        })
        .py_err(py)?;
    Ok(outcome(done))
}

/// The runtime's sandbox (loaded on first use).
fn sandbox() -> geode_runtime::Result<Sandbox> {
    current()?.runtime().sandbox()
}

/// A request from its Python tuple; a timeout that is not a positive, finite number of seconds
/// is an `InvalidArgumentError`.
fn to_request(py: Python<'_>, tuple: RequestTuple) -> PyResult<RunRequest> {
    let (code, stdin, timeout, memory_bytes, fuel, seed) = tuple;
    let timeout = timeout
        .map(|seconds| {
            Duration::try_from_secs_f64(seconds)
                .ok()
                .filter(|t| !t.is_zero())
                .ok_or_else(|| {
                    invalid_argument(
                        py,
                        format!("timeout must be a positive number of seconds, not {seconds}"),
                    )
                })
        })
        .transpose()?;
    // Float-to-integer casts saturate: a huge timeout gets the most fuel there is.
    let fuel = fuel.or_else(|| timeout.map(|t| (t.as_secs_f64() * FUEL_PER_SECOND as f64) as u64));
    Ok(RunRequest {
        timeout,
        memory_bytes,
        fuel,
        seed,
        ..RunRequest::python(code, stdin)
    })
}

/// An outcome as its Python tuple.
fn outcome(done: RunOutcome) -> OutcomeTuple {
    (
        done.status.as_str(),
        done.stdout,
        done.stderr,
        done.exit_code,
        done.fuel_used,
        done.elapsed.as_secs_f64(),
    )
}
