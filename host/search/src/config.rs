//! The configuration of `tool:search`, checked key by key: which backend, which corpus or
//! server, `topk` and `timeout` (GEM's `SearchTool(search_url=None, topk=3, timeout=5)`).

use geode_runtime::config::merge_value;
use geode_runtime::{Error, Result};
use serde_json::{Value, json};
use std::time::Duration;

/// The id of the search tool.
pub const SEARCH_TOOL_ID: &str = "tool:search";
/// The environment variable GEM reads the retrieval server's address from.
pub const SEARCH_URL_VAR: &str = "SEARCH_URL";

/// The search tool's default configuration: the local index of the shipped corpus (unless
/// `SEARCH_URL` names a server: `backend` "auto"), 3 passages per search, 5 s per request.
pub fn default_config() -> Value {
    json!({
        "backend": "auto",
        "corpus": null,
        "search_url": null,
        "topk": 3,
        "timeout": 5.0,
    })
}

/// Where searches go.
#[derive(Debug, Clone, PartialEq)]
pub enum Backend {
    /// A local index of a corpus: `None` for the shipped corpus, else the path the user gave
    /// (absolute, `~/…`, or inside a data directory).
    Local(Option<String>),
    /// GEM's retrieval server at this address.
    Remote(String),
}

/// A checked configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchConfig {
    /// Where searches go.
    pub backend: Backend,
    /// Passages per search.
    pub topk: u64,
    /// The longest a remote search may take.
    pub timeout: Duration,
}

impl SearchConfig {
    /// Merges `overrides` (a JSON object or null) over [`default_config`] and checks it;
    /// `search_url_var` is the value of `SEARCH_URL`, if set.
    pub fn parse(overrides: &Value, search_url_var: Option<String>) -> Result<Self> {
        let config = merge_value(SEARCH_TOOL_ID, &default_config(), overrides)?;
        let text = |key: &str| match &config[key] {
            Value::Null => Ok(None),
            Value::String(text) => Ok(Some(text.clone())),
            other => Err(bad(key, format!("must be a string or null, got {other}"))),
        };
        let topk = match config["topk"].as_u64() {
            Some(topk) if topk > 0 => topk,
            _ => {
                return Err(bad(
                    "topk",
                    format!("must be a positive integer, got {}", config["topk"]),
                ));
            }
        };
        let timeout = match config["timeout"].as_f64() {
            Some(seconds) if seconds > 0.0 && seconds.is_finite() => {
                Duration::from_secs_f64(seconds)
            }
            _ => {
                return Err(bad(
                    "timeout",
                    format!(
                        "must be a positive number of seconds, got {}",
                        config["timeout"]
                    ),
                ));
            }
        };
        let corpus = text("corpus")?;
        let url = text("search_url")?.filter(|u| !u.is_empty());
        let env_url = search_url_var.filter(|u| !u.is_empty());
        let backend = match config["backend"].as_str().unwrap_or_default() {
            "local" if url.is_some() => {
                return Err(bad(
                    "search_url",
                    "is for backend \"remote\", not \"local\"".into(),
                ));
            }
            "local" => Backend::Local(corpus),
            "remote" if corpus.is_some() => {
                return Err(bad(
                    "corpus",
                    "is for backend \"local\", not \"remote\"".into(),
                ));
            }
            "remote" => match url.or(env_url) {
                Some(url) => Backend::Remote(url),
                None => {
                    return Err(bad(
                        "search_url",
                        format!(
                            "backend \"remote\" needs search_url (or {SEARCH_URL_VAR} in the environment)"
                        ),
                    ));
                }
            },
            "auto" => match (corpus, url) {
                (Some(_), Some(_)) => {
                    return Err(bad(
                        "corpus",
                        "give corpus (a local index) or search_url (a server), not both".into(),
                    ));
                }
                (Some(corpus), None) => Backend::Local(Some(corpus)),
                (None, Some(url)) => Backend::Remote(url),
                (None, None) => env_url.map_or(Backend::Local(None), Backend::Remote),
            },
            other => {
                return Err(bad(
                    "backend",
                    format!("unknown backend `{other}`; backends are auto, local, remote"),
                ));
            }
        };
        Ok(SearchConfig {
            backend,
            topk,
            timeout,
        })
    }
}

fn bad(key: &str, message: String) -> Error {
    Error::BadConfig {
        id: SEARCH_TOOL_ID.to_owned(),
        key: key.to_owned(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_to_the_shipped_corpus_unless_search_url_is_set() {
        let config = SearchConfig::parse(&Value::Null, None).unwrap();
        assert_eq!(config.backend, Backend::Local(None));
        assert_eq!((config.topk, config.timeout), (3, Duration::from_secs(5)));
        let fractional = SearchConfig::parse(&json!({"timeout": 2.5, "topk": 4}), None).unwrap();
        assert_eq!(
            (fractional.topk, fractional.timeout),
            (4, Duration::from_millis(2500))
        );
        let env = Some("http://127.0.0.1:9/retrieve".to_owned());
        let config = SearchConfig::parse(&Value::Null, env.clone()).unwrap();
        assert_eq!(config.backend, Backend::Remote(env.clone().unwrap()));
        let local = SearchConfig::parse(&json!({"backend": "local"}), env).unwrap();
        assert_eq!(local.backend, Backend::Local(None));
    }

    #[test]
    fn bad_keys_are_named() {
        let cases = [
            (json!({"topk": 0}), "topk"),
            (json!({"timeout": -1}), "timeout"),
            (json!({"backend": "cloud"}), "backend"),
            (json!({"backend": "remote"}), "search_url"),
            (
                json!({"corpus": "c.jsonl", "search_url": "http://x"}),
                "corpus",
            ),
            (json!({"top_k": 3}), "top_k"),
            (json!({"corpus": 3}), "corpus"),
            (json!({"search_url": false}), "search_url"),
            (json!({"topk": 2.5}), "topk"),
        ];
        for (overrides, key) in cases {
            match SearchConfig::parse(&overrides, None) {
                Err(Error::BadConfig { key: named, .. }) => assert_eq!(named, key, "{overrides}"),
                other => panic!("{overrides}: {other:?}"),
            }
        }
    }
}
