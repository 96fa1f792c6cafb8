//! [`search_provider`]: registers `tool:search` as an id the host provides.

use crate::config::{SEARCH_TOOL_ID, default_config};
use crate::tool::SearchTool;
use geode_runtime::{EnvSpec, ToolProvider};

/// What listings show as the provider of `tool:search`.
pub const SEARCH_SOURCE: &str = "native (search)";

const ABOUT: &str = "Searches a corpus for the first <search> query of an action: a local BM25 index \
(the shipped corpus by default) or GEM's retrieval server (GEM's SearchTool)";

/// The provider of `tool:search`.
pub fn search_provider() -> ToolProvider {
    let spec = EnvSpec::new(SEARCH_TOOL_ID, ABOUT, &default_config());
    ToolProvider::new(SEARCH_SOURCE, spec, |runtime, overrides| {
        Ok(Box::new(SearchTool::new(runtime.datasets(), overrides)?))
    })
}
