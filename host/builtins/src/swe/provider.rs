//! [`SweProvider`]: the registry's way to the coding envs: `swe:all` (every shipped task, or
//! the tasks of the file its `dataset` names) and `swe:<task>` for each shipped task.

use super::config::{SweConfig, default_config};
use super::env::SweEnv;
use super::taskset;
use crate::gem::NATIVE_SOURCE;
use geode_runtime::{Env, EnvSpec, Error, Limits, NativeProvider, PluginKind, Result, Runtime};
use serde_json::Value;
use std::sync::Arc;

/// The id of the env over every shipped task (or a dataset's).
pub const ALL_TASKS_ID: &str = "swe:all";

/// Provides the coding envs, running code in the runtime's sandbox.
#[derive(Debug, Clone, Copy, Default)]
pub struct SweProvider;

impl NativeProvider for SweProvider {
    fn name(&self) -> &str {
        NATIVE_SOURCE
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        let config = default_config();
        let mut specs = vec![(
            PluginKind::Env,
            EnvSpec::new(
                ALL_TASKS_ID,
                "Agentic coding: fix a bug in a Python repository with editor, python, pytest and search tools; hidden tests decide (every shipped task, or `dataset`'s)",
                &config,
            ),
        )];
        if let Ok(tasks) = taskset::shipped() {
            for task in tasks.iter() {
                let about = format!(
                    "Agentic coding task `{}` (one shipped repository and bug)",
                    task.id
                );
                specs.push((
                    PluginKind::Env,
                    EnvSpec::new(&format!("swe:{}", task.id), &about, &config),
                ));
            }
        }
        specs
    }

    fn make_env(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        let config = SweConfig::new(id, overrides, limits)?;
        let tasks = taskset::load(
            Some(runtime.datasets()),
            &config.dataset,
            config.repos.as_deref(),
        )?;
        let tasks = match id.strip_prefix("swe:") {
            Some("all") => tasks,
            Some(name) => {
                let one: Vec<_> = tasks.iter().filter(|t| t.id == name).cloned().collect();
                if one.is_empty() {
                    return Err(Error::InvalidArgument(format!(
                        "no coding task `{name}` in {}",
                        if config.dataset.is_empty() {
                            "the shipped tasks"
                        } else {
                            &config.dataset
                        }
                    )));
                }
                Arc::new(one)
            }
            None => {
                return Err(Error::InvalidArgument(format!(
                    "`{id}` is not a coding env id"
                )));
            }
        };
        Ok(Box::new(SweEnv::new(id, runtime.sandbox()?, tasks, config)))
    }
}
