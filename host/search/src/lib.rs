//! # geode-search
//!
//! `tool:search`, GEM's `SearchTool` on the host: the first `<search>…</search>` of an action is
//! searched and the best passages come back inside `<information>…</information>`. Two
//! backends:
//!
//! - **local** ([`index`], [`store`]): a BM25 index built with tantivy over a JSONL corpus in
//!   GEM's layout (`{"id", "contents"}`, the title on the first line of `contents`), built once,
//!   cached on disk next to the corpus and shared by every tool in the process. No server. The
//!   default is the corpus shipped with geode, which answers the shipped QA samples.
//! - **remote** ([`remote`], [`protocol`]): GEM's retrieval-server protocol (msgpack over HTTP to
//!   `search_url` or `SEARCH_URL`), reached by the host only, with a timeout.
//!   `geode-search-server` ([`server`]) speaks that protocol over a local index.
//!
//! Register the tool with `registry.add_native(Arc::new(search_provider()))`.

#![deny(missing_docs)]

pub mod config;
pub mod corpus;
pub mod format;
pub mod index;
pub mod protocol;
mod provider;
pub mod remote;
pub mod server;
pub mod store;
mod tool;

pub use config::{SEARCH_TOOL_ID, SEARCH_URL_VAR, SearchConfig};
pub use index::{Hit, LocalIndex};
pub use provider::{SEARCH_SOURCE, search_provider};
pub use tool::{SearchTool, Searcher};
