//! Multi-agent envs for Python: [`PyMultiAgentEnv`] (one env, GEM's `MultiAgentEnv` call
//! shapes: dicts keyed by agent id) and [`PyMultiAgentVec`] (self-play over many envs, stepped
//! in parallel with the GIL released, each env's error its own).

use crate::convert::{self, info_to_py};
use crate::errors::{self, IntoPyResult};
use crate::registry;
use crate::seed::Seed;
use geode_runtime::multiagent::{AgentOutput, VecEnvStep};
use geode_runtime::{AutoresetMode, MultiAgentEnv, MultiAgentVec, Result};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// `(observations, infos)` dicts of a reset.
type ResetDicts<'py> = (Bound<'py, PyDict>, Bound<'py, PyDict>);

fn reset_to_py<'py>(py: Python<'py>, outputs: &[AgentOutput]) -> PyResult<ResetDicts<'py>> {
    let (obs, infos) = (PyDict::new(py), PyDict::new(py));
    for out in outputs {
        obs.set_item(&out.agent, &out.observation)?;
        infos.set_item(&out.agent, info_to_py(py, &out.info)?)?;
    }
    Ok((obs, infos))
}

/// `(observations, rewards, terminations, truncations, infos)`, dicts keyed by agent.
fn step_to_py<'py>(py: Python<'py>, outputs: &[AgentOutput]) -> PyResult<Bound<'py, PyTuple>> {
    let dicts: [Bound<'py, PyDict>; 5] = std::array::from_fn(|_| PyDict::new(py));
    for out in outputs {
        dicts[0].set_item(&out.agent, &out.observation)?;
        dicts[1].set_item(&out.agent, out.reward)?;
        dicts[2].set_item(&out.agent, out.terminated)?;
        dicts[3].set_item(&out.agent, out.truncated)?;
        dicts[4].set_item(&out.agent, info_to_py(py, &out.info)?)?;
    }
    PyTuple::new(py, dicts)
}

/// `{agent: action}` as `(agent, action)` pairs, in the dict's order.
fn actions_from_py(actions: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let dict = actions.cast::<PyDict>().map_err(|_| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "Actions must be a dict of agent id to action text, got {}",
            actions
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    dict.iter()
        .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<String>()?)))
        .collect()
}

/// A multi-agent env made by `geode.make` for a multi-agent id.
#[pyclass(name = "MultiAgentEnv", module = "geode._geode", frozen)]
pub struct PyMultiAgentEnv {
    env: Mutex<Box<dyn MultiAgentEnv>>,
    id: String,
    seed: Mutex<Option<u64>>,
}

impl PyMultiAgentEnv {
    fn lock(&self) -> MutexGuard<'_, Box<dyn MultiAgentEnv>> {
        self.env.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn MultiAgentEnv) -> Result<T> + Send,
    ) -> PyResult<T> {
        py.detach(|| f(self.lock().as_mut())).py_err(py)
    }
}

/// Makes multi-agent env `env_id` with config overrides, limits and a first-reset seed.
#[pyfunction]
#[pyo3(signature = (env_id, config=None, limits=None, seed=None))]
pub fn make_multiagent(
    py: Python<'_>,
    env_id: &str,
    config: Option<&Bound<'_, PyDict>>,
    limits: Option<&Bound<'_, PyDict>>,
    seed: Option<Seed>,
) -> PyResult<PyMultiAgentEnv> {
    let overrides = convert::overrides(config)?;
    let limits = convert::limits(limits)?;
    let env = py
        .detach(|| registry::current()?.make_multiagent(env_id, &overrides, &limits))
        .py_err(py)?;
    Ok(PyMultiAgentEnv {
        id: env.id().to_owned(),
        env: Mutex::new(env),
        seed: Mutex::new(seed.map(|s| s.0)),
    })
}

#[pymethods]
impl PyMultiAgentEnv {
    /// The env id.
    #[getter]
    fn env_id(&self) -> &str {
        &self.id
    }

    /// Every agent an episode may have, in turn order.
    #[getter]
    fn possible_agents(&self) -> Vec<String> {
        self.lock().possible_agents().to_vec()
    }

    /// The live agents, in turn order.
    #[getter]
    fn agents(&self) -> Vec<String> {
        self.lock().agents().to_vec()
    }

    /// The agents whose actions the next `step` takes.
    fn active_agents(&self) -> Vec<String> {
        self.lock().active_agents().to_vec()
    }

    /// Starts an episode: `(observations, infos)`, dicts keyed by agent.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<Seed>) -> PyResult<ResetDicts<'py>> {
        let pending = self
            .seed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let seed = seed.map(|s| s.0).or(pending);
        let outputs = self.with(py, |env| env.reset(seed))?;
        reset_to_py(py, &outputs)
    }

    /// Steps the active agents with `{agent: action}`: `(observations, rewards, terminations,
    /// truncations, infos)`, dicts keyed by the agents live before the step.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = actions_from_py(actions)?;
        let outputs = self.with(py, |env| env.step(&actions))?;
        step_to_py(py, &outputs)
    }

    /// What `agent` sees now.
    fn observe(&self, py: Python<'_>, agent: &str) -> PyResult<String> {
        self.with(py, |env| env.observe(agent))
    }

    /// A random legal action for `agent` (default: the first active agent).
    #[pyo3(signature = (agent=None))]
    fn sample_random_action(&self, py: Python<'_>, agent: Option<String>) -> PyResult<String> {
        self.with(py, |env| {
            let agent = match agent {
                Some(a) => a,
                None => env.active_agents().first().cloned().unwrap_or_default(),
            };
            env.sample_random_action(&agent)
        })
    }

    /// Sends `message` from `from_agent` to `to_agent`.
    fn send_message(
        &self,
        py: Python<'_>,
        from_agent: &str,
        to_agent: &str,
        message: &str,
    ) -> PyResult<()> {
        self.with(py, |env| env.send_message(from_agent, to_agent, message))
    }

    /// Sends `message` from `from_agent` to every other live agent.
    fn broadcast_message(&self, py: Python<'_>, from_agent: &str, message: &str) -> PyResult<()> {
        self.with(py, |env| env.broadcast_message(from_agent, message))
    }

    /// Brings `agent_id` into the episode.
    fn add_agent(&self, py: Python<'_>, agent_id: &str) -> PyResult<()> {
        self.with(py, |env| env.add_agent(agent_id))
    }

    /// Takes `agent_id` out of the episode.
    fn remove_agent(&self, py: Python<'_>, agent_id: &str) -> PyResult<()> {
        self.with(py, |env| env.remove_agent(agent_id))
    }

    /// A snapshot of the full state, as bytes.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let state = self.with(py, |env| env.get_state())?;
        Ok(PyBytes::new(py, &state))
    }

    /// Restores a snapshot from `get_state`.
    fn set_state(&self, py: Python<'_>, state: Vec<u8>) -> PyResult<()> {
        self.with(py, |env| env.set_state(&state))
    }

    /// A fresh env of the same id and config.
    fn spawn(&self, py: Python<'_>) -> PyResult<PyMultiAgentEnv> {
        let env = self.with(py, |env| env.spawn())?;
        Ok(PyMultiAgentEnv {
            id: self.id.clone(),
            env: Mutex::new(env),
            seed: Mutex::new(None),
        })
    }

    /// A vector of `num_envs` envs like this one (fresh, not reset), for self-play, under
    /// `autoreset_mode` (`SameStep`, `NextStep` or `Disabled`, as for single-agent vectors).
    #[pyo3(signature = (num_envs, autoreset_mode="SameStep"))]
    fn vector(
        &self,
        py: Python<'_>,
        num_envs: usize,
        autoreset_mode: &str,
    ) -> PyResult<PyMultiAgentVec> {
        let mode: AutoresetMode = autoreset_mode.parse().py_err(py)?;
        let first = self.with(py, |env| env.spawn())?;
        let vec = py
            .detach(|| MultiAgentVec::new(first, num_envs).map(|v| v.with_mode(mode)))
            .py_err(py)?;
        Ok(PyMultiAgentVec {
            vec: Mutex::new(vec),
        })
    }
}

/// Many multi-agent envs stepped together (self-play), with autoreset.
#[pyclass(name = "MultiAgentVec", module = "geode._geode", frozen)]
pub struct PyMultiAgentVec {
    vec: Mutex<MultiAgentVec>,
}

impl PyMultiAgentVec {
    fn lock(&self) -> MutexGuard<'_, MultiAgentVec> {
        self.vec.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl PyMultiAgentVec {
    /// The number of envs.
    fn __len__(&self) -> usize {
        self.lock().len()
    }

    /// Each env's active agents.
    fn active_agents(&self) -> Vec<Vec<String>> {
        let vec = self.lock();
        (0..vec.len())
            .map(|i| vec.env(i).active_agents().to_vec())
            .collect()
    }

    /// Resets every env (env `i` gets `seed + i`): a list of `(observations, infos)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<Seed>) -> PyResult<Bound<'py, PyList>> {
        let outputs = py
            .detach(|| self.lock().reset(seed.map(|s| s.0)))
            .py_err(py)?;
        let list = PyList::empty(py);
        for out in &outputs {
            list.append(reset_to_py(py, out)?)?;
        }
        Ok(list)
    }

    /// Resets env `index` alone (what `Disabled` autoreset leaves to the caller):
    /// `(observations, infos)`.
    #[pyo3(signature = (index, seed=None))]
    fn reset_one<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        seed: Option<Seed>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = py
            .detach(|| self.lock().reset_one(index, seed.map(|s| s.0)))
            .py_err(py)?;
        Ok(reset_to_py(py, &out)?.into_pyobject(py)?.into_any())
    }

    /// Steps env `i` with `actions[i]` (`{agent: action}`). Returns one entry per env:
    /// `(step, reset)` where `step` is the 5-tuple of dicts or the exception of that env alone,
    /// and `reset` the `(observations, infos)` of the next episode when this one ended.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyList>,
    ) -> PyResult<Bound<'py, PyList>> {
        let actions: Vec<Vec<(String, String)>> = actions
            .iter()
            .map(|a| actions_from_py(&a))
            .collect::<PyResult<_>>()?;
        let steps = py.detach(|| self.lock().step(&actions)).py_err(py)?;
        let list = PyList::empty(py);
        for VecEnvStep { outputs, reset } in steps {
            let step = match outputs {
                Ok(out) => step_to_py(py, &out)?.into_any(),
                Err(e) => errors::exception(py, &e),
            };
            let reset = match reset {
                None => py.None().into_bound(py),
                Some(Ok(out)) => reset_to_py(py, &out)?.into_pyobject(py)?.into_any(),
                Some(Err(e)) => errors::exception(py, &e),
            };
            list.append((step, reset))?;
        }
        Ok(list)
    }

    /// A random legal action for every active agent of every env: a list of dicts.
    fn sample_random_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let actions = py
            .detach(|| self.lock().sample_random_actions())
            .py_err(py)?;
        let list = PyList::empty(py);
        for env_actions in actions {
            let dict = PyDict::new(py);
            for (agent, action) in env_actions {
                dict.set_item(agent, action)?;
            }
            list.append(dict)?;
        }
        Ok(list)
    }
}
