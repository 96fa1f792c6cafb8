//! [`MathProvider`]: the registry's way to the math envs, ids the host provides itself.

use super::env::{MathEnv, default_config};
use super::ids::MATH_IDS;
use geode_runtime::{Env, EnvSpec, Limits, NativeProvider, PluginKind, Result, Runtime};
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
        let config = default_config();
        let spec = |known: &super::MathId| EnvSpec::new(known.id, known.description, &config);
        MATH_IDS
            .iter()
            .map(|known| (PluginKind::Env, spec(known)))
            .collect()
    }

    fn make_env(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        let grader = super::grader(runtime)?;
        let env = MathEnv::new(id, grader, runtime.datasets(), overrides, limits)?;
        Ok(Box::new(env))
    }
}
