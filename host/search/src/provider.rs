//! [`SearchProvider`]: registers `tool:search` as an id the host provides.

use crate::config::{SEARCH_TOOL_ID, default_config};
use crate::tool::SearchTool;
use geode_runtime::tool::Tool;
use geode_runtime::{EnvSpec, Error, Limits, NativeProvider, PluginKind, Result, Runtime};
use serde_json::Value;

/// What listings show as the provider of `tool:search`.
pub const SEARCH_SOURCE: &str = "native (search)";

const ABOUT: &str = "Searches a corpus for the first <search> query of an action: a local BM25 index \
(the shipped corpus by default) or GEM's retrieval server (GEM's SearchTool)";

/// Provides `tool:search`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchProvider;

impl NativeProvider for SearchProvider {
    fn name(&self) -> &str {
        SEARCH_SOURCE
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        let spec = EnvSpec {
            id: SEARCH_TOOL_ID.to_owned(),
            default_config: default_config().as_object().cloned().unwrap_or_default(),
            description: ABOUT.to_owned(),
        };
        vec![(PluginKind::Tool, spec)]
    }

    fn make_env(
        &self,
        _runtime: &Runtime,
        id: &str,
        _overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn geode_runtime::Env>> {
        Err(Error::Internal(format!(
            "{SEARCH_SOURCE} has no env `{id}`"
        )))
    }

    fn make_tool(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        if id != SEARCH_TOOL_ID {
            return Err(Error::Internal(format!(
                "{SEARCH_SOURCE} has no tool `{id}`"
            )));
        }
        Ok(Box::new(SearchTool::new(runtime.datasets(), overrides)?))
    }
}
