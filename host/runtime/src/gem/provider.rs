//! [`GemProvider`]: the registry's way to the code envs and `tool:python`, ids the host
//! provides itself next to the ids of plugins.

use super::code_env::{CODE_ENV_IDS, CodeEnv, default_config};
use super::python_tool::{self, PYTHON_TOOL_ID, PythonTool};
use crate::env::Env;
use crate::limits::Limits;
use crate::plugin::{EnvSpec, PluginKind};
use crate::provider::NativeProvider;
use crate::runtime::Runtime;
use crate::tool::Tool;
use crate::{Error, Result};
use serde_json::Value;

/// What listings show as the provider of the host's own ids (code envs, `tool:python`).
pub const NATIVE_SOURCE: &str = "native (sandbox)";

/// The description of `tool:python`.
const PYTHON_TOOL_ABOUT: &str =
    "Runs the first <python> or fenced python block in the sandbox (GEM's PythonCodeTool)";

/// Provides the code envs and the Python tool, all running code in the runtime's sandbox.
#[derive(Debug, Clone, Copy, Default)]
pub struct GemProvider;

impl NativeProvider for GemProvider {
    fn name(&self) -> &str {
        NATIVE_SOURCE
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        let spec = |id: &str, description: &str, config: Value| EnvSpec {
            id: id.to_owned(),
            default_config: config.as_object().cloned().unwrap_or_default(),
            description: description.to_owned(),
        };
        let envs = CODE_ENV_IDS
            .iter()
            .map(|(id, about)| (PluginKind::Env, spec(id, about, default_config())));
        let tool = (
            PluginKind::Tool,
            spec(
                PYTHON_TOOL_ID,
                PYTHON_TOOL_ABOUT,
                python_tool::default_config(),
            ),
        );
        envs.chain([tool]).collect()
    }

    fn make_env(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        let sandbox = runtime.sandbox()?;
        let env = CodeEnv::new(id, sandbox, runtime.datasets(), overrides, limits)?;
        Ok(Box::new(env))
    }

    fn make_tool(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        if id != PYTHON_TOOL_ID {
            return Err(Error::Internal(format!(
                "{NATIVE_SOURCE} has no tool `{id}`"
            )));
        }
        Ok(Box::new(PythonTool::new(runtime.sandbox()?, overrides)?))
    }
}
