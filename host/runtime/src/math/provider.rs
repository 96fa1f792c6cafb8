//! [`MathProvider`]: the registry's way to the math envs, ids the host provides itself.

use super::env::{MathEnv, default_config};
use super::ids::MATH_IDS;
use crate::env::Env;
use crate::limits::Limits;
use crate::plugin::{EnvSpec, PluginKind};
use crate::provider::NativeProvider;
use crate::runtime::Runtime;
use crate::tool::Tool;
use crate::{Error, Result};
use serde_json::Value;

/// What listings show as the provider of the math envs.
pub const MATH_SOURCE: &str = "native (math grader)";

/// Provides the math envs, all grading on the runtime's shared math grader.
#[derive(Debug, Clone, Copy, Default)]
pub struct MathProvider;

impl NativeProvider for MathProvider {
    fn name(&self) -> &str {
        MATH_SOURCE
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        let config = default_config().as_object().cloned().unwrap_or_default();
        MATH_IDS
            .iter()
            .map(|known| {
                let spec = EnvSpec {
                    id: known.id.to_owned(),
                    default_config: config.clone(),
                    description: known.description.to_owned(),
                };
                (PluginKind::Env, spec)
            })
            .collect()
    }

    fn make_env(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        let grader = runtime.math_grader()?;
        let env = MathEnv::new(id, grader, runtime.datasets(), overrides, limits)?;
        Ok(Box::new(env))
    }

    fn make_tool(
        &self,
        _runtime: &Runtime,
        id: &str,
        _overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        Err(Error::Internal(format!("{MATH_SOURCE} has no tool `{id}`")))
    }
}
