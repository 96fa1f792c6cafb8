//! The options of a run as a user gives them (`geode eval`'s flags, `geode.eval(...)`'s keyword
//! arguments), with their defaults, and how they become an [`EvalRun`].

use crate::client::ClientSettings;
use crate::plan;
use crate::runner::EvalRun;
use crate::settings::{EnvSettings, RunSettings, Sampling, UserModel};
use anyhow::Context;
use geode_runtime::{Limits, MakeOptions, Registry};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// Everything a user may set, defaults from [`EvalOptions::new`].
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// The env ids.
    pub ids: Vec<String>,
    /// The API's base URL (`.../v1`).
    pub base_url: String,
    /// The model name.
    pub model: String,
    /// The environment variable holding the API key.
    pub api_key_env: Option<String>,
    /// Tasks per env (`None`: every row of a dataset env).
    pub episodes: Option<u64>,
    /// Episodes per task.
    pub samples: u32,
    /// Episodes in flight.
    pub concurrency: usize,
    /// Most replies per episode.
    pub max_turns: u32,
    /// Sampling settings.
    pub sampling: Sampling,
    /// Seed of a seeded env's first task.
    pub env_seed: u64,
    /// A system message.
    pub system: Option<String>,
    /// Env configuration overrides (a JSON object or null).
    pub config: Value,
    /// Wrappers by GEM's names.
    pub wrappers: Vec<String>,
    /// Total reward that counts as a success.
    pub success_threshold: f64,
    /// The output directory.
    pub out: PathBuf,
    /// Continue the run in `out`.
    pub resume: bool,
    /// Stream replies.
    pub stream: bool,
    /// Bound of one request.
    pub timeout: Duration,
    /// Retries of a request.
    pub max_retries: u32,
    /// First backoff.
    pub backoff: Duration,
    /// Extra CA certificates (PEM).
    pub ca_cert: Option<PathBuf>,
    /// h2c to a plain-HTTP server.
    pub http2: bool,
    /// Ask for logprobs.
    pub logprobs: bool,
    /// Ask for token ids.
    pub return_token_ids: bool,
    /// Fuel per env call (`None`: the default limits').
    pub fuel: Option<u64>,
    /// Show a progress bar.
    pub progress: bool,
    /// Stop at Ctrl-C keeping what finished (the command line).
    pub catch_ctrl_c: bool,
    /// The agent the model plays in multi-agent envs (`None`: the first).
    pub seat: Option<String>,
    /// The other agents' policy in multi-agent envs.
    pub opponent: String,
    /// A model that plays the other agents of multi-agent envs instead of `opponent`.
    pub user_model: Option<String>,
    /// Its server (`None`: `base_url`).
    pub user_base_url: Option<String>,
    /// Its temperature (`None`: the server's default).
    pub user_temperature: Option<f64>,
    /// The environment variable holding its server's API key (`None`: `api_key_env`'s key
    /// when it shares the server, else none).
    pub user_api_key_env: Option<String>,
}

impl EvalOptions {
    /// The defaults for `ids` on `model` at `base_url`.
    pub fn new(ids: Vec<String>, base_url: String, model: String) -> Self {
        EvalOptions {
            ids,
            base_url,
            model,
            api_key_env: None,
            episodes: None,
            samples: 1,
            concurrency: 64,
            max_turns: 32,
            sampling: Sampling::default(),
            env_seed: 0,
            system: None,
            config: Value::Null,
            wrappers: Vec::new(),
            success_threshold: 1.0,
            out: PathBuf::from("geode-eval"),
            resume: false,
            stream: false,
            timeout: Duration::from_secs(120),
            max_retries: 8,
            backoff: Duration::from_millis(500),
            ca_cert: None,
            http2: false,
            logprobs: false,
            return_token_ids: false,
            fuel: None,
            progress: false,
            catch_ctrl_c: false,
            seat: None,
            opponent: "random".to_owned(),
            user_model: None,
            user_base_url: None,
            user_temperature: None,
            user_api_key_env: None,
        }
    }

    /// The run these options ask for; counts a dataset env's rows when `episodes` is `None`.
    pub fn into_run(self, registry: &Registry) -> anyhow::Result<EvalRun> {
        let key_of = |var: &Option<String>| -> anyhow::Result<Option<String>> {
            match var {
                None => Ok(None),
                Some(var) => Ok(Some(std::env::var(var).with_context(|| {
                    format!("api_key_env {var}: that environment variable is not set")
                })?)),
            }
        };
        let api_key = key_of(&self.api_key_env)?;
        let user_base_url = self
            .user_base_url
            .clone()
            .unwrap_or_else(|| self.base_url.clone());
        let user_api_key = match &self.user_api_key_env {
            Some(_) => key_of(&self.user_api_key_env)?,
            None if user_base_url == self.base_url => api_key.clone(),
            None => None,
        };
        let user_model = self.user_model.as_ref().map(|model| UserModel {
            base_url: user_base_url.clone(),
            model: model.clone(),
            sampling: Sampling {
                temperature: self.user_temperature,
                ..Sampling::default()
            },
        });
        let limits = Limits {
            fuel_per_call: self.fuel.or(Limits::default().fuel_per_call),
            ..Limits::default()
        };
        let mut envs = Vec::new();
        for id in &self.ids {
            let options = MakeOptions::overrides(self.config.clone()).with_limits(limits.clone());
            let tasks = match self.episodes {
                Some(n) => n,
                None if plan::is_dataset_env(registry, id)? => {
                    plan::count_rows(registry, id, &options)?
                }
                None => anyhow::bail!(
                    "{id} is not a dataset env: give the number of episodes (tasks are seeds)"
                ),
            };
            envs.push(EnvSettings {
                id: id.clone(),
                tasks,
                config: self.config.clone(),
                wrappers: self.wrappers.clone(),
                component_sha256: None,
            });
        }
        Ok(EvalRun {
            settings: RunSettings {
                geode_version: env!("CARGO_PKG_VERSION").to_owned(),
                base_url: self.base_url.clone(),
                model: self.model,
                sampling: self.sampling,
                system: self.system,
                max_turns: self.max_turns,
                samples: self.samples.max(1),
                concurrency: self.concurrency.max(1),
                success_threshold: self.success_threshold,
                env_seed: self.env_seed,
                seat: self.seat,
                opponent: self.opponent,
                user_model,
                envs,
            },
            user_client: self.user_model.as_ref().map(|_| ClientSettings {
                base_url: user_base_url,
                api_key: user_api_key,
                ca_cert: self.ca_cert.clone(),
                timeout: self.timeout.max(Duration::from_millis(1)),
                max_retries: self.max_retries,
                backoff: self.backoff,
                stream: false,
                http2_prior_knowledge: self.http2,
                max_idle_connections: self.concurrency.max(1),
            }),
            client: ClientSettings {
                base_url: self.base_url,
                api_key,
                ca_cert: self.ca_cert,
                timeout: self.timeout.max(Duration::from_millis(1)),
                max_retries: self.max_retries,
                backoff: self.backoff,
                stream: self.stream,
                http2_prior_knowledge: self.http2,
                max_idle_connections: self.concurrency.max(1),
            },
            out: self.out,
            resume: self.resume,
            logprobs: self.logprobs,
            return_token_ids: self.return_token_ids,
            progress: self.progress,
            limits,
            catch_ctrl_c: self.catch_ctrl_c,
        })
    }
}
