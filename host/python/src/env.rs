//! [`PyEnv`]: one env (or a native wrapper layer over one) as a Python object with GEM's API.
//! Every call into the env runs with the GIL released.

use crate::convert::{self, StepTuple, info_to_py, step_to_py};
use crate::errors::{IntoPyResult, invalid_argument};
use crate::registry;
use crate::seed::Seed;
use geode_runtime::{Env, Error, Limits, MakeOptions, ResetOutput, Result, StepOutput};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// An env owned jointly by its Python object and the wrapper layers built over it.
type Shared = Arc<Mutex<Box<dyn Env>>>;

fn lock(env: &Shared) -> MutexGuard<'_, Box<dyn Env>> {
    env.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The inner env of a wrapper layer: the same env the inner Python object steps.
struct SharedEnv {
    id: String,
    inner: Shared,
}

impl Env for SharedEnv {
    fn id(&self) -> &str {
        &self.id
    }
    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        lock(&self.inner).reset(seed)
    }
    fn step(&mut self, action: &str) -> Result<StepOutput> {
        lock(&self.inner).step(action)
    }
    fn sample_random_action(&mut self) -> Result<String> {
        lock(&self.inner).sample_random_action()
    }
    fn get_state(&mut self) -> Result<Vec<u8>> {
        lock(&self.inner).get_state()
    }
    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        lock(&self.inner).set_state(state)
    }
    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        lock(&self.inner).spawn(same_state)
    }
    fn seek_episode(&mut self, number: u64) -> Result<()> {
        lock(&self.inner).seek_episode(number)
    }
}

/// What a closed env becomes: every call fails with a clear message.
struct ClosedEnv {
    id: String,
}

impl ClosedEnv {
    fn closed<T>(&self) -> Result<T> {
        Err(Error::InvalidState {
            env: self.id.clone(),
            message: "the env is closed".into(),
        })
    }
}

impl Env for ClosedEnv {
    fn id(&self) -> &str {
        &self.id
    }
    fn reset(&mut self, _seed: Option<u64>) -> Result<ResetOutput> {
        self.closed()
    }
    fn step(&mut self, _action: &str) -> Result<StepOutput> {
        self.closed()
    }
    fn sample_random_action(&mut self) -> Result<String> {
        self.closed()
    }
    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.closed()
    }
    fn set_state(&mut self, _state: &[u8]) -> Result<()> {
        self.closed()
    }
    fn spawn(&mut self, _same_state: bool) -> Result<Box<dyn Env>> {
        self.closed()
    }
}

/// A geode env: `reset`, `step`, `sample_random_action`, `spawn`, `get_state`, `set_state`,
/// `close`, as in GEM. Made by `geode.make`; `wrap` puts a native wrapper layer over it.
#[pyclass(name = "Env", module = "geode._geode", frozen)]
pub struct PyEnv {
    env: Shared,
    id: String,
    /// Seed for the first reset that is not given one (`make(..., seed=...)`).
    seed: Mutex<Option<u64>>,
    /// The layer below, when this object is a wrapper.
    inner: Option<Py<PyEnv>>,
    /// The wrapper name of this layer.
    layer: Option<String>,
    /// Config overrides and limits it was made with (unwrapped envs), for `spawn(**kwargs)`.
    made_with: Option<(Map<String, Value>, Limits)>,
}

impl PyEnv {
    fn new(env: Box<dyn Env>, seed: Option<u64>) -> Self {
        PyEnv {
            id: env.id().to_owned(),
            env: Arc::new(Mutex::new(env)),
            seed: Mutex::new(seed),
            inner: None,
            layer: None,
            made_with: None,
        }
    }

    fn take_seed(&self, explicit: Option<u64>) -> Option<u64> {
        let pending = self
            .seed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        explicit.or(pending)
    }
}

/// Makes env `env_id` (a plugin's, or one the host provides such as `code:CodeContest`) with
/// config overrides `config`, limits (see `geode.make`) and a seed for its first reset.
#[pyfunction]
#[pyo3(signature = (env_id, config=None, limits=None, seed=None))]
pub fn make(
    py: Python<'_>,
    env_id: &str,
    config: Option<&Bound<'_, PyDict>>,
    limits: Option<&Bound<'_, PyDict>>,
    seed: Option<Seed>,
) -> PyResult<PyEnv> {
    let seed = seed.map(|s| s.0);
    let overrides = convert::overrides(config)?;
    let limits = convert::limits(limits)?;
    let env = py
        .detach(|| {
            let registry = registry::current()?;
            let options = MakeOptions::overrides(overrides.clone()).with_limits(limits.clone());
            registry.make(env_id, options)
        })
        .py_err(py)?;
    let mut made = PyEnv::new(env, seed);
    made.made_with = Some((overrides.as_object().cloned().unwrap_or_default(), limits));
    Ok(made)
}

#[pymethods]
impl PyEnv {
    /// Starts an episode: `(observation, info)`. Without a seed the env continues its own
    /// randomness (the first reset uses `make`'s `seed` if one was given). `idx` (dataset envs,
    /// as in GEM) poses row `idx` of the env's walk, and later resets go on from there.
    #[pyo3(signature = (seed=None, idx=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<Seed>,
        idx: Option<u64>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let seed = self.take_seed(seed.map(|s| s.0));
        let out = py
            .detach(|| {
                let mut env = lock(&self.env);
                match idx {
                    Some(idx) => env.seek_episode(idx).and_then(|()| env.reset(None)),
                    None => env.reset(seed),
                }
            })
            .py_err(py)?;
        Ok((out.observation, info_to_py(py, &out.info)?))
    }

    /// Applies one action: `(observation, reward, terminated, truncated, info)`.
    fn step<'py>(&self, py: Python<'py>, action: &str) -> PyResult<StepTuple<'py>> {
        let out = py.detach(|| lock(&self.env).step(action)).py_err(py)?;
        step_to_py(py, out)
    }

    /// A random action valid in the current state.
    fn sample_random_action(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| lock(&self.env).sample_random_action())
            .py_err(py)
    }

    /// A snapshot of the env's full state (wrapper layers included), as bytes.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let state = py.detach(|| lock(&self.env).get_state()).py_err(py)?;
        Ok(PyBytes::new(py, &state))
    }

    /// Restores a snapshot taken with `get_state` (on an env of the same id and wrappers).
    fn set_state(&self, py: Python<'_>, state: Vec<u8>) -> PyResult<()> {
        py.detach(|| lock(&self.env).set_state(&state)).py_err(py)
    }

    /// A new env of the same id, config and wrappers; with `same_state`, in this env's state.
    /// Keyword arguments override the config (unwrapped envs only).
    #[pyo3(signature = (same_state=false, **kwargs))]
    fn spawn(
        &self,
        py: Python<'_>,
        same_state: bool,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEnv> {
        let overrides = match kwargs {
            Some(kw) if !kw.is_empty() => Some(convert::dict_to_map(kw, "")?),
            _ => None,
        };
        let Some(overrides) = overrides else {
            let twin = py.detach(|| lock(&self.env).spawn(same_state)).py_err(py)?;
            let mut spawned = PyEnv::new(twin, None);
            spawned.layer = self.layer.clone();
            spawned.made_with = self.made_with.clone();
            return Ok(spawned);
        };
        let Some((base, limits)) = &self.made_with else {
            return Err(invalid_argument(
                py,
                "spawn(**kwargs) overrides the config of unwrapped envs only; spawn the inner env and wrap it again".into(),
            ));
        };
        let mut config = base.clone();
        config.extend(overrides);
        let config = Value::Object(config);
        let env = py
            .detach(|| -> Result<Box<dyn Env>> {
                let registry = registry::current()?;
                let options = MakeOptions::overrides(config.clone()).with_limits(limits.clone());
                let mut env = registry.make(&self.id, options)?;
                if same_state {
                    let state = lock(&self.env).get_state()?;
                    env.set_state(&state)?;
                }
                Ok(env)
            })
            .py_err(py)?;
        let mut spawned = PyEnv::new(env, None);
        spawned.made_with = Some((
            config.as_object().cloned().unwrap_or_default(),
            limits.clone(),
        ));
        Ok(spawned)
    }

    /// A native wrapper layer over this env (`concat`, `concat_with_action`,
    /// `episode_tracking`, `tools` or a wrapper plugin id). This object stays usable and shares
    /// the env with the wrapper.
    #[pyo3(signature = (name, config=None, limits=None))]
    fn wrap(
        slf: &Bound<'_, Self>,
        name: String,
        config: Option<&Bound<'_, PyDict>>,
        limits: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEnv> {
        let py = slf.py();
        let this = slf.get();
        let pair = PyList::new(py, [(name.clone(), config)])?;
        let spec = registry::wrapper_specs(Some(&pair))?.remove(0);
        let limits = match (limits, &this.made_with) {
            (None, Some((_, made))) => made.clone(),
            (given, _) => convert::limits(given)?,
        };
        let shared = SharedEnv {
            id: this.id.clone(),
            inner: this.env.clone(),
        };
        let wrapped = py
            .detach(|| registry::current()?.wrap(Box::new(shared), &spec, &limits))
            .py_err(py)?;
        let mut layer = PyEnv::new(wrapped, None);
        layer.inner = Some(slf.clone().unbind());
        layer.layer = Some(name);
        Ok(layer)
    }

    /// Frees the env; later calls raise `InvalidStateError`. Wrapper layers over it close too.
    fn close(&self, py: Python<'_>) {
        let id = self.id.clone();
        py.detach(|| {
            let old = std::mem::replace(&mut *lock(&self.env), Box::new(ClosedEnv { id }));
            drop(old);
        });
    }

    /// The id this env was made from (GEM's `env.env_id`).
    #[getter]
    fn env_id(&self) -> &str {
        &self.id
    }

    /// The `seed` in the env's config (GEM's `env.seed` of dataset envs, which `spawn(seed=...)`
    /// changes); `None` when the config has none or the env is a wrapper layer.
    #[getter]
    fn seed(&self) -> Option<u64> {
        let (config, _) = self.made_with.as_ref()?;
        config.get("seed").and_then(Value::as_u64)
    }

    /// GEM's envs keep their constructor arguments as attributes (`env.max_turns`): any other
    /// attribute is the env's config value of that name (its default, or what `make` set); a
    /// wrapper layer answers with its inner env's.
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(inner) = &self.inner {
            return inner.bind(py).getattr(name);
        }
        let registry = py.detach(registry::current).py_err(py)?;
        let overridden = self.made_with.as_ref().and_then(|(c, _)| c.get(name));
        let value = match overridden {
            Some(value) => Some(value.clone()),
            None => registry
                .lookup(&self.id)
                .ok()
                .and_then(|entry| entry.spec.default_config.get(name).cloned()),
        };
        match value {
            Some(value) => convert::value_to_py(py, &value),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "'{}' env has no attribute or config key '{name}'",
                self.id
            ))),
        }
    }

    /// The env this wrapper layer wraps (`None` for an unwrapped env).
    #[getter]
    fn env(&self, py: Python<'_>) -> Option<Py<PyEnv>> {
        self.inner.as_ref().map(|i| i.clone_ref(py))
    }

    /// The name of this wrapper layer (`None` for an unwrapped env).
    #[getter]
    fn wrapper(&self) -> Option<&str> {
        self.layer.as_deref()
    }

    /// The innermost env.
    #[getter]
    fn unwrapped(slf: &Bound<'_, Self>) -> Py<PyEnv> {
        let py = slf.py();
        let mut current = slf.clone().unbind();
        while let Some(inner) = current.get().inner.as_ref().map(|i| i.clone_ref(py)) {
            current = inner;
        }
        current
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.close(py);
    }

    fn __repr__(&self) -> String {
        match &self.layer {
            Some(layer) => format!("<geode.Env {} wrapped in {layer}>", self.id),
            None => format!("<geode.Env {}>", self.id),
        }
    }
}
