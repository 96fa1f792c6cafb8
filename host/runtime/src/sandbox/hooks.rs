//! How the registry reaches the native code envs and the Python tool: ids the host provides
//! itself, next to the ids of plugins.

use super::code_env::{CODE_ENV_IDS, CodeEnv, default_config};
use super::python_tool::{PYTHON_TOOL_ID, PythonTool};
use crate::env::Env;
use crate::limits::Limits;
use crate::plugin::EnvSpec;
use crate::registry::Registry;
use crate::tool::Tool;
use crate::{Error, Result};
use serde_json::Value;

/// What listings show as the provider of the host's own ids (code envs, `tool:python`).
pub const NATIVE_SOURCE: &str = "native (sandbox)";

impl Registry {
    /// The tool ids the host itself provides (`tool:python`), with descriptions.
    pub fn native_tool_ids(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        [(
            PYTHON_TOOL_ID,
            "Runs the first <python> or fenced python block in the sandbox (GEM's PythonCodeTool)",
        )]
        .into_iter()
    }

    /// The env ids the host itself provides (the code and math envs), with descriptions.
    pub fn native_env_ids(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        let math = crate::math::MATH_IDS.iter().map(|m| (m.id, m.description));
        CODE_ENV_IDS.iter().copied().chain(math)
    }

    /// The spec (id, default configuration, description) of native env `id`, if it is one.
    pub fn native_env_spec(&self, id: &str) -> Option<EnvSpec> {
        let (id, description) = self.native_env_ids().find(|(known, _)| *known == id)?;
        let config = match crate::math::math_id(id) {
            Some(_) => crate::math::default_config(),
            None => default_config(),
        };
        Some(EnvSpec {
            id: id.to_owned(),
            default_config: config.as_object().cloned().unwrap_or_default(),
            description: description.to_owned(),
        })
    }

    /// Makes a native env when `id` is one (`None` otherwise).
    pub fn make_native_env(
        &self,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Option<Result<Box<dyn Env>>> {
        self.native_env_spec(id)?;
        Some((|| {
            if crate::math::math_id(id).is_some() {
                let grader = self.runtime().math_grader()?;
                let datasets = self.runtime().datasets();
                let env = crate::math::MathEnv::new(id, grader, datasets, overrides, limits)?;
                return Ok(Box::new(env) as Box<dyn Env>);
            }
            let sandbox = self.runtime().sandbox()?;
            let env = CodeEnv::new(id, sandbox, self.runtime().datasets(), overrides, limits)?;
            Ok(Box::new(env) as Box<dyn Env>)
        })())
    }

    /// Makes env `id`, native or from a plugin.
    pub fn make_any_env(
        &self,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        match self.make_native_env(id, overrides, limits) {
            Some(env) => env,
            None => Ok(Box::new(self.make_with_limits(
                id,
                overrides,
                limits.clone(),
            )?)),
        }
    }

    /// Makes tool `id`: the native Python tool (`tool:python`) or one from a tool plugin.
    pub fn make_any_tool(
        &self,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        if id == PYTHON_TOOL_ID {
            let sandbox = self.runtime().sandbox()?;
            return Ok(Box::new(PythonTool::new(sandbox, overrides)?));
        }
        Ok(Box::new(self.make_tool(id, overrides, limits.clone())?))
    }
}

/// The error for a runtime whose sandbox cannot run.
pub(crate) fn sandbox_unavailable(reason: String) -> Error {
    Error::Internal(format!("code sandbox unavailable: {reason}"))
}
