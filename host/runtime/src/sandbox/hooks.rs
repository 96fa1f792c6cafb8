//! How the registry reaches the native code envs and the Python tool: ids the host provides
//! itself, next to the ids of plugins.

use super::code_env::{CODE_ENV_IDS, CodeEnv};
use super::python_tool::{PYTHON_TOOL_ID, PythonTool};
use crate::env::Env;
use crate::limits::Limits;
use crate::registry::Registry;
use crate::tool::Tool;
use crate::{Error, Result};
use serde_json::Value;

impl Registry {
    /// The env ids the host itself provides (the code envs), with descriptions.
    pub fn native_env_ids(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        CODE_ENV_IDS.iter().copied()
    }

    /// Makes a native env when `id` is one (`None` otherwise).
    pub fn make_native_env(
        &self,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Option<Result<Box<dyn Env>>> {
        if !CODE_ENV_IDS.iter().any(|(known, _)| *known == id) {
            return None;
        }
        Some((|| {
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
