//! [`WrapperSpec`]: one layer of a wrapper stack, and the one parser of wrapper names
//! ([`WrapperSpec::from_name`]) that Python, the CLI, `geode eval` and `geode serve` share.

use crate::wrappers::{ObservationMode, ToolRewards};
use crate::{Error, Result};
use serde_json::{Map, Value};

/// One layer of a wrapper stack. Layers apply in list order, the first wrapping the env itself
/// (GEM's order is tools, then observation, then episode tracking).
#[derive(Debug, Clone)]
pub enum WrapperSpec {
    /// Tools the agent may call, tried in order: `(tool id, config overrides)`.
    Tools {
        /// Tool ids with their config overrides, tried in order.
        tools: Vec<(String, Value)>,
        /// How tool calls are rewarded.
        rewards: ToolRewards,
    },
    /// Fold the episode's history into each observation.
    Observation {
        /// What each observation folds in.
        mode: ObservationMode,
        /// Most past turns kept (`None`: all).
        max_history: Option<usize>,
    },
    /// Step counter and returns in info.
    EpisodeTracking,
    /// A wrapper plugin by id, with config overrides.
    Plugin {
        /// The wrapper plugin's id.
        id: String,
        /// Its config overrides.
        config: Value,
    },
}

/// The names [`WrapperSpec::from_name`] knows, for error messages.
const NAMES: &str = "concat, concat_with_action, episode_tracking, tools, search_tool, \
    search_tool_no_int_reward, python_tool, python_tool_no_int_reward, \
    python_tool_no_int_reward_last_line_error";

impl WrapperSpec {
    /// A wrapper by name with its options (`Value::Null` or a JSON object):
    /// - GEM's names: `concat`, `concat_with_action` (option `max_history_length`),
    ///   `episode_tracking`, `search_tool`, `search_tool_no_int_reward`, `python_tool`,
    ///   `python_tool_no_int_reward`, `python_tool_no_int_reward_last_line_error`;
    /// - `tools` (options `tools`: tool ids or `[id, overrides]` pairs, `tool_reward`,
    ///   `tool_success_reward`, `tool_execute_error_reward`, `max_tool_uses`); GEM's tool
    ///   wrappers take the same options over their own defaults;
    /// - a wrapper plugin's id (it has a `:`), whose options are its config overrides.
    ///
    /// An unknown name or option, or an option of the wrong type, is an error naming it.
    pub fn from_name(name: &str, options: Value) -> Result<Self> {
        let mut options = match options {
            Value::Null => Map::new(),
            Value::Object(map) => map,
            other => {
                return Err(bad(
                    name,
                    "<root>",
                    format!("expected an object, got {other}"),
                ));
            }
        };
        if name.contains(':') {
            return Ok(WrapperSpec::Plugin {
                id: name.to_owned(),
                config: Value::Object(options),
            });
        }
        let spec = match name {
            "concat" | "concat_with_action" => WrapperSpec::Observation {
                mode: match name {
                    "concat" => ObservationMode::Concat,
                    _ => ObservationMode::ConcatWithAction,
                },
                max_history: take_count(name, &mut options, "max_history_length")?
                    .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            },
            "episode_tracking" => WrapperSpec::EpisodeTracking,
            "tools" => tools(name, &mut options, None)?,
            "search_tool" => tools(name, &mut options, Some(search_tool(0.3)))?,
            "search_tool_no_int_reward" => tools(name, &mut options, Some(search_tool(0.0)))?,
            "python_tool" => tools(name, &mut options, Some(python_tool(0.05, 0.25, false)))?,
            "python_tool_no_int_reward" => {
                tools(name, &mut options, Some(python_tool(0.0, 0.0, false)))?
            }
            "python_tool_no_int_reward_last_line_error" => {
                tools(name, &mut options, Some(python_tool(0.0, 0.0, true)))?
            }
            other => {
                return Err(Error::InvalidArgument(format!(
                    "unknown wrapper `{other}`; native wrappers are {NAMES} (wrapper plugins go by their id)"
                )));
            }
        };
        match options.keys().next() {
            Some(key) => Err(bad(name, key, "unknown option for this wrapper".into())),
            None => Ok(spec),
        }
    }
}

impl WrapperSpec {
    /// A tools layer as the options of `tools` (`tools` as `[id, overrides]` pairs and the
    /// reward settings), for hosts that run the layer themselves; `None` for other layers.
    pub fn tools_options(&self) -> Option<Value> {
        let WrapperSpec::Tools { tools, rewards } = self else {
            return None;
        };
        Some(serde_json::json!({
            "tools": tools.iter().map(|(id, config)| serde_json::json!([id, config])).collect::<Vec<_>>(),
            "tool_reward": rewards.tool_reward,
            "tool_success_reward": rewards.tool_success_reward,
            "tool_execute_error_reward": rewards.tool_execute_error_reward,
            "max_tool_uses": rewards.max_tool_uses,
        }))
    }
}

fn bad(name: &str, key: &str, message: String) -> Error {
    Error::BadConfig {
        id: name.to_owned(),
        key: format!("{name}.{key}"),
        message,
    }
}

/// Removes `key` from `options` as a non-negative integer (`None` when absent or null).
fn take_count(name: &str, options: &mut Map<String, Value>, key: &str) -> Result<Option<u64>> {
    match options.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| bad(name, key, "expected a non-negative integer".into())),
    }
}

/// A tools layer from its options, over `base` (GEM's named tool wrappers) or from scratch
/// (`tools`, whose `tools` option is then required).
fn tools(
    name: &str,
    options: &mut Map<String, Value>,
    base: Option<WrapperSpec>,
) -> Result<WrapperSpec> {
    let (mut tools, mut rewards) = match base {
        Some(WrapperSpec::Tools { tools, rewards }) => (tools, rewards),
        _ => (Vec::new(), ToolRewards::default()),
    };
    for (key, into) in [
        ("tool_reward", &mut rewards.tool_reward),
        ("tool_success_reward", &mut rewards.tool_success_reward),
        (
            "tool_execute_error_reward",
            &mut rewards.tool_execute_error_reward,
        ),
    ] {
        if let Some(v) = options.remove(key) {
            *into = v
                .as_f64()
                .ok_or_else(|| bad(name, key, "expected a number".into()))?;
        }
    }
    if options.contains_key("max_tool_uses") {
        rewards.max_tool_uses = take_count(name, options, "max_tool_uses")?;
    }
    match options.remove("tools") {
        Some(Value::Array(list)) if !list.is_empty() => {
            tools = list
                .into_iter()
                .map(|entry| tool_entry(name, entry))
                .collect::<Result<_>>()?;
        }
        None if !tools.is_empty() => {}
        _ => {
            return Err(Error::InvalidArgument(format!(
                "the {name} wrapper needs `tools`: a list of tool ids or [id, config] pairs"
            )));
        }
    }
    Ok(WrapperSpec::Tools { tools, rewards })
}

/// One entry of a `tools` option: a tool id, or an `[id, config overrides]` pair.
fn tool_entry(name: &str, entry: Value) -> Result<(String, Value)> {
    match entry {
        Value::String(id) => Ok((id, Value::Null)),
        Value::Array(mut pair) if pair.len() == 2 && pair[0].is_string() => {
            let config = pair.pop().unwrap_or_default();
            let id = pair.pop().and_then(|v| v.as_str().map(str::to_owned));
            Ok((id.unwrap_or_default(), config))
        }
        other => Err(bad(
            name,
            "tools",
            format!("expected a tool id or an [id, config] pair, got {other}"),
        )),
    }
}

/// GEM's `search_tool` wrappers: `tool:search` with 3 passages and a 5 s timeout, at most 5
/// searches per episode, `tool_reward` per search (`tool:search` is registered by the
/// `geode-search` crate's provider).
fn search_tool(tool_reward: f64) -> WrapperSpec {
    WrapperSpec::Tools {
        tools: vec![(
            "tool:search".to_owned(),
            serde_json::json!({"topk": 3, "timeout": 5}),
        )],
        rewards: ToolRewards {
            tool_reward,
            max_tool_uses: Some(5),
            ..ToolRewards::default()
        },
    }
}

/// GEM's `python_tool` wrappers: `tool:python` with a 5 s timeout, at most 5 calls per episode
/// (`tool:python` is registered by `geode-builtins`).
fn python_tool(
    tool_reward: f64,
    tool_success_reward: f64,
    keep_error_last_line: bool,
) -> WrapperSpec {
    let mut config = serde_json::json!({"timeout": 5});
    if keep_error_last_line {
        config["keep_error_last_line"] = serde_json::json!(true);
    }
    WrapperSpec::Tools {
        tools: vec![("tool:python".to_owned(), config)],
        rewards: ToolRewards {
            tool_reward,
            tool_success_reward,
            max_tool_uses: Some(5),
            ..ToolRewards::default()
        },
    }
}
