//! Runtime errors as Python exceptions. The exception classes live in `geode/errors.py` (so they
//! can inherit from both `GeodeError` and a builtin such as `ValueError`); this module picks the
//! class for each [`Error`] variant and fills in its attributes.

use geode_runtime::Error;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The Python module holding the exception classes.
const ERRORS_MODULE: &str = "geode.errors";

/// The exception class name for `error`, and its extra attributes.
fn classify(error: &Error) -> (&'static str, Vec<(&'static str, String)>) {
    #[allow(unreachable_patterns)] // variants added to the runtime later fall back to GeodeError
    match error {
        Error::OutOfFuel { env, call, .. } => ("OutOfFuelError", env_call(env, call)),
        Error::Deadline { env, call, .. } => ("DeadlineExceededError", env_call(env, call)),
        Error::MemoryLimit { env, call, .. } => ("MemoryLimitError", env_call(env, call)),
        Error::StackOverflow { env, call } => ("StackOverflowError", env_call(env, call)),
        Error::GuestTrap { env, call, .. } => ("GuestTrapError", env_call(env, call)),
        Error::Contract { env, call, .. } => ("ContractError", env_call(env, call)),
        Error::Refused {
            env, call, kind, ..
        } => {
            let mut attrs = env_call(env, call);
            attrs.push(("kind", format!("{kind:?}")));
            ("EnvRefusedError", attrs)
        }
        Error::BadConfig { id, key, .. } => (
            "BadConfigError",
            vec![("env_id", id.clone()), ("key", key.clone())],
        ),
        Error::UnknownEnv { id, .. } => ("UnknownEnvError", vec![("env_id", id.clone())]),
        Error::NotAPlugin { .. } => ("NotAPluginError", Vec::new()),
        Error::DuplicateId { id, .. } => ("DuplicateIdError", vec![("env_id", id.clone())]),
        Error::InputTooLarge { env, .. } => ("InputTooLargeError", vec![("env_id", env.clone())]),
        Error::InvalidState { env, .. } => ("InvalidStateError", vec![("env_id", env.clone())]),
        Error::InvalidArgument(_) => ("InvalidArgumentError", Vec::new()),
        Error::Io { .. } => ("PluginIOError", Vec::new()),
        _ => ("GeodeError", Vec::new()),
    }
}

fn env_call(env: &str, call: &str) -> Vec<(&'static str, String)> {
    vec![("env_id", env.to_owned()), ("call", call.to_owned())]
}

/// Builds an exception instance of class `name` from `geode.errors` (a `RuntimeError` when that
/// module cannot be imported).
fn instance<'py>(
    py: Python<'py>,
    name: &str,
    message: String,
    attrs: &[(&str, String)],
) -> Bound<'py, PyAny> {
    let built = (|| -> PyResult<Bound<'py, PyAny>> {
        let class = py.import(ERRORS_MODULE)?.getattr(name)?;
        let exc = class.call1((message.clone(),))?;
        for (key, value) in attrs {
            exc.setattr(*key, value)?;
        }
        Ok(exc)
    })();
    built.unwrap_or_else(|_| {
        PyRuntimeError::new_err(message)
            .into_value(py)
            .into_bound(py)
            .into_any()
    })
}

/// The exception instance for `error` (not raised: vector results carry one per failed slot).
pub fn exception<'py>(py: Python<'py>, error: &Error) -> Bound<'py, PyAny> {
    let (name, attrs) = classify(error);
    let exc = instance(py, name, error.to_string(), &attrs);
    if let Error::UnknownEnv { suggestions, .. } = error {
        let _ = exc.setattr("suggestions", suggestions.clone());
    }
    exc
}

/// `error` as a Python exception to raise.
pub fn to_py(py: Python<'_>, error: &Error) -> PyErr {
    PyErr::from_value(exception(py, error))
}

/// Converts runtime results to Python results.
pub trait IntoPyResult<T> {
    /// Maps the error to its Python exception.
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, Error> {
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, &e))
    }
}

/// A `BadConfigError` for a value given from Python that cannot become configuration.
pub fn bad_config(py: Python<'_>, key: &str, message: &str) -> PyErr {
    let attrs = [("key", key.to_owned())];
    PyErr::from_value(instance(
        py,
        "BadConfigError",
        format!("bad config key `{key}`: {message}"),
        &attrs,
    ))
}

/// An `InvalidArgumentError` raised from the bindings themselves.
pub fn invalid_argument(py: Python<'_>, message: String) -> PyErr {
    to_py(py, &Error::InvalidArgument(message))
}
