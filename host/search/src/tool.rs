//! [`SearchTool`] (`tool:search`): GEM's `SearchTool`. The first `<search>…</search>` of an
//! action is the query; the passages come back as
//! `\n\n<information>Doc 1(Title: …) …\n…</information>\n\n`, and a failed search as
//! `[SearchTool Error: …]` with `has_error`.

use crate::config::{Backend, SEARCH_TOOL_ID, SearchConfig};
use crate::format::{INSTRUCTIONS, error_text, information, parse_search, passages_to_string};
use crate::index::LocalIndex;
use crate::remote::RemoteSearch;
use crate::store::{Corpus, shared_index};
use geode_runtime::tool::{Tool, ToolOutput};
use geode_runtime::{Datasets, Result};
use std::sync::Arc;

/// What a search tool searches.
#[derive(Debug, Clone)]
pub enum Searcher {
    /// A local index, shared with every other tool over the same corpus.
    Local(Arc<LocalIndex>),
    /// A retrieval server.
    Remote(RemoteSearch),
}

impl Searcher {
    /// The passages' contents for `query`, best first, or the error message.
    pub fn search(&self, query: &str, topk: u64) -> std::result::Result<Vec<String>, String> {
        match self {
            Searcher::Local(index) => index
                .search(query, usize::try_from(topk).unwrap_or(usize::MAX))
                .map(|hits| hits.into_iter().map(|hit| hit.contents).collect())
                .map_err(|e| e.to_string()),
            Searcher::Remote(client) => client.search(query, topk).map(|response| {
                response
                    .result
                    .into_iter()
                    .map(|scored| scored.document.contents)
                    .collect()
            }),
        }
    }
}

/// The search tool.
#[derive(Debug, Clone)]
pub struct SearchTool {
    searcher: Searcher,
    topk: u64,
}

impl SearchTool {
    /// A tool with `overrides` over the default configuration. A corpus path is looked up in
    /// `datasets`' data directories unless it is absolute or starts with `~/`; its index is
    /// built (or opened from the disk cache) on first use in the process.
    pub fn new(datasets: &Datasets, overrides: &serde_json::Value) -> Result<Self> {
        let search_url = std::env::var(crate::config::SEARCH_URL_VAR).ok();
        let config = SearchConfig::parse(overrides, search_url)?;
        let searcher = match &config.backend {
            Backend::Local(None) => Searcher::Local(shared_index(&Corpus::Shipped)?),
            Backend::Local(Some(path)) => {
                let file = datasets
                    .locate(path)
                    .map_err(|e| geode_runtime::Error::BadConfig {
                        id: SEARCH_TOOL_ID.to_owned(),
                        key: "corpus".to_owned(),
                        message: e.to_string(),
                    })?;
                Searcher::Local(shared_index(&Corpus::File(file))?)
            }
            Backend::Remote(url) => Searcher::Remote(RemoteSearch::new(url, config.timeout)),
        };
        Ok(SearchTool::with_searcher(searcher, config.topk))
    }

    /// A tool over `searcher` returning `topk` passages per search.
    pub fn with_searcher(searcher: Searcher, topk: u64) -> Self {
        SearchTool { searcher, topk }
    }

    /// What the tool searches.
    pub fn searcher(&self) -> &Searcher {
        &self.searcher
    }
}

impl Tool for SearchTool {
    fn id(&self) -> &str {
        SEARCH_TOOL_ID
    }

    fn tool_type(&self) -> &str {
        "search"
    }

    fn instructions(&mut self) -> Result<String> {
        Ok(INSTRUCTIONS.to_owned())
    }

    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>> {
        let Some(call) = parse_search(action) else {
            return Ok(None);
        };
        let (result, has_error) = match self.searcher.search(&call.query, self.topk) {
            Ok(contents) => (
                passages_to_string(contents.iter().map(String::as_str)),
                false,
            ),
            Err(message) => (error_text(&message), true),
        };
        Ok(Some(ToolOutput {
            observation: information(&result),
            has_error,
            parsed_action: call.parsed_action,
        }))
    }

    fn spawn(&self) -> Result<Box<dyn Tool>> {
        Ok(Box::new(self.clone()))
    }
}
