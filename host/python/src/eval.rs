//! `geode.eval(...)`: `geode eval` from Python, with the same options, returning the summary.

use crate::errors::IntoPyResult;
use geode_eval::EvalOptions;
use geode_eval::settings::Sampling;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::time::Duration;

/// Runs a model on envs through an OpenAI-compatible API (see `geode eval --help`); writes
/// `out` (trajectories, summary, report) and returns the summary as JSON text.
#[pyfunction]
#[pyo3(signature = (
    ids, base_url, model, *, api_key_env=None, episodes=None, samples=1, concurrency=64,
    max_turns=32, temperature=None, top_p=None, max_tokens=None, seed=None, env_seed=0,
    system=None, config=None, wrappers=Vec::new(), success_threshold=1.0,
    out=PathBuf::from("geode-eval"), resume=false, stream=false, timeout=120.0, max_retries=8,
    backoff=0.5, ca_cert=None, http2=false, logprobs=false, return_token_ids=false, fuel=None,
    seat=None, opponent=String::from("random"), user_model=None, user_base_url=None,
    user_temperature=None, user_api_key_env=None,
))]
#[allow(clippy::too_many_arguments)]
pub fn eval_json(
    py: Python<'_>,
    ids: Vec<String>,
    base_url: String,
    model: String,
    api_key_env: Option<String>,
    episodes: Option<u64>,
    samples: u32,
    concurrency: usize,
    max_turns: u32,
    temperature: Option<f64>,
    top_p: Option<f64>,
    max_tokens: Option<u32>,
    seed: Option<u64>,
    env_seed: u64,
    system: Option<String>,
    config: Option<String>,
    wrappers: Vec<String>,
    success_threshold: f64,
    out: PathBuf,
    resume: bool,
    stream: bool,
    timeout: f64,
    max_retries: u32,
    backoff: f64,
    ca_cert: Option<PathBuf>,
    http2: bool,
    logprobs: bool,
    return_token_ids: bool,
    fuel: Option<u64>,
    seat: Option<String>,
    opponent: String,
    user_model: Option<String>,
    user_base_url: Option<String>,
    user_temperature: Option<f64>,
    user_api_key_env: Option<String>,
) -> PyResult<String> {
    if ids.is_empty() {
        return Err(PyValueError::new_err("eval: give at least one env id"));
    }
    let config = match config {
        None => serde_json::Value::Null,
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| PyValueError::new_err(format!("eval: config is not JSON: {e}")))?,
    };
    let mut options = EvalOptions::new(ids, base_url, model);
    options.api_key_env = api_key_env;
    options.episodes = episodes;
    options.samples = samples;
    options.concurrency = concurrency;
    options.max_turns = max_turns;
    options.sampling = Sampling {
        temperature,
        top_p,
        max_tokens,
        seed,
    };
    options.env_seed = env_seed;
    options.system = system;
    options.config = config;
    options.wrappers = wrappers;
    options.success_threshold = success_threshold;
    options.out = out;
    options.resume = resume;
    options.stream = stream;
    options.timeout = Duration::from_secs_f64(timeout.max(0.001));
    options.max_retries = max_retries;
    options.backoff = Duration::from_secs_f64(backoff.max(0.0));
    options.ca_cert = ca_cert;
    options.http2 = http2;
    options.logprobs = logprobs;
    options.return_token_ids = return_token_ids;
    options.fuel = fuel;
    options.seat = seat;
    options.opponent = opponent;
    options.user_model = user_model;
    options.user_base_url = user_base_url;
    options.user_temperature = user_temperature;
    options.user_api_key_env = user_api_key_env;
    let registry = crate::registry::current().py_err(py)?;
    py.detach(move || -> anyhow::Result<String> {
        let run = options.into_run(&registry)?;
        let summary = geode_eval::run(registry, run)?;
        Ok(serde_json::to_string(&summary)?)
    })
    .map_err(|e| PyRuntimeError::new_err(format!("{e:#}")))
}
