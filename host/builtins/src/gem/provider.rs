//! [`GemProvider`] and [`python_tool_provider`]: the registry's way to the code envs and
//! `tool:python`, ids the host provides itself next to the ids of plugins.

use super::code_env::{CODE_ENV_IDS, CodeEnv, default_config};
use super::python_tool::{self, PYTHON_TOOL_ID, PythonTool};
use geode_runtime::{
    Env, EnvSpec, Limits, NativeProvider, PluginKind, Result, Runtime, ToolProvider,
};
use serde_json::Value;

/// What listings show as the provider of the host's own ids (code envs, `tool:python`).
pub const NATIVE_SOURCE: &str = "native (sandbox)";

/// The description of `tool:python`.
const PYTHON_TOOL_ABOUT: &str =
    "Runs the first <python> or fenced python block in the sandbox (GEM's PythonCodeTool)";

/// Provides the code envs, all running code in the runtime's sandbox.
#[derive(Debug, Clone, Copy, Default)]
pub struct GemProvider;

impl NativeProvider for GemProvider {
    fn name(&self) -> &str {
        NATIVE_SOURCE
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        let config = default_config();
        CODE_ENV_IDS
            .iter()
            .map(|(id, about)| (PluginKind::Env, EnvSpec::new(id, about, &config)))
            .collect()
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
}

/// Provides `tool:python`, running code blocks in the runtime's sandbox.
pub fn python_tool_provider() -> ToolProvider {
    let spec = EnvSpec::new(
        PYTHON_TOOL_ID,
        PYTHON_TOOL_ABOUT,
        &python_tool::default_config(),
    );
    ToolProvider::new(NATIVE_SOURCE, spec, |runtime, overrides| {
        Ok(Box::new(PythonTool::new(runtime.sandbox()?, overrides)?))
    })
}
