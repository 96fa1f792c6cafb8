//! The MCP tools of the served env: the tools of its tool wrappers (`--wrappers python_tool`
//! offers `tool:python` as `python`). A tool reads its calls from text, as it does inside the
//! wrapper, so each takes one argument, `action`: the text holding the call in the format its
//! description gives. A call runs on the session's own tool instances, outside the episode
//! (no turn, no reward: OpenEnv's direct tool access).

use crate::config::ServeConfig;
use crate::sessions::lock_any;
use crate::wire::{Code, Failure};
use geode_runtime::tool::Tool;
use geode_runtime::{Limits, Registry, WrapperSpec};
use serde_json::{Value, json};
use std::sync::Mutex;

/// The tools every session offers, and their MCP descriptions (made once, on first listing).
pub struct Toolbox {
    tools: Vec<(String, Value)>,
    limits: Limits,
    listing: Mutex<Option<Vec<Value>>>,
}

impl Toolbox {
    /// The tools of `config`'s tool wrappers, in order.
    pub fn new(config: &ServeConfig) -> Self {
        let tools = config
            .wrappers
            .iter()
            .filter_map(|spec| match spec {
                WrapperSpec::Tools { tools, .. } => Some(tools.iter().cloned()),
                _ => None,
            })
            .flatten()
            .collect();
        Toolbox {
            tools,
            limits: config.make_options().limits,
            listing: Mutex::new(None),
        }
    }

    /// The MCP name of tool `index` (its id after the last `:`: `python`).
    fn name(&self, index: usize) -> &str {
        let id = &self.tools[index].0;
        id.rsplit(':').next().unwrap_or(id)
    }

    /// The position of the tool named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        (0..self.tools.len()).find(|&i| self.name(i) == name)
    }

    /// The MCP descriptions (`name`, `description`, `inputSchema`) of the tools; an empty list
    /// when the env has no tool wrapper.
    pub fn list(&self, registry: &Registry) -> Result<Vec<Value>, Failure> {
        let mut listing = lock_any(&self.listing);
        if let Some(tools) = &*listing {
            return Ok(tools.clone());
        }
        let mut tools = Vec::new();
        for (index, mut tool) in self.make(registry)?.into_iter().enumerate() {
            let description = tool.instructions().map_err(|e| Failure::env(&e))?;
            tools.push(json!({
                "name": self.name(index),
                "description": description,
                "inputSchema": {
                    "type": "object",
                    "properties": {"action": {
                        "type": "string",
                        "description": "Text holding the call, in the format the description gives",
                    }},
                    "required": ["action"],
                    "additionalProperties": false,
                },
            }));
        }
        *listing = Some(tools.clone());
        Ok(tools)
    }

    fn make(&self, registry: &Registry) -> Result<Vec<Box<dyn Tool>>, Failure> {
        self.tools
            .iter()
            .map(|(id, config)| registry.make_tool(id, config, &self.limits))
            .collect::<geode_runtime::Result<_>>()
            .map_err(|e| {
                Failure::new(Code::FactoryError, e.to_string())
                    .with("kind", crate::wire::error_kind(&e))
            })
    }
}

/// A session's instances of the toolbox's tools, made on its first call.
#[derive(Default)]
pub struct SessionTools(Option<Vec<Box<dyn Tool>>>);

impl SessionTools {
    /// Runs tool `index` of `toolbox` on `action`: MCP's call result, whose text also goes in
    /// `data` (what OpenEnv's MCP client returns). A tool error or an action holding no call
    /// to the tool is a result with `isError`; a trap or a limit is a failure.
    pub fn call(
        &mut self,
        toolbox: &Toolbox,
        registry: &Registry,
        index: usize,
        action: &str,
    ) -> Result<Value, Failure> {
        if self.0.is_none() {
            self.0 = Some(toolbox.make(registry)?);
        }
        let tool = self
            .0
            .as_mut()
            .and_then(|tools| tools.get_mut(index))
            .ok_or_else(|| Failure::new(Code::ExecutionError, "no such tool"))?;
        let (text, is_error) = match tool.execute(action).map_err(|e| Failure::env(&e))? {
            Some(out) => (out.observation, out.has_error),
            None => (
                format!(
                    "no call to tool `{}` in the action: write it as the tool's description says",
                    toolbox.name(index)
                ),
                true,
            ),
        };
        Ok(json!({
            "content": [{"type": "text", "text": text}],
            "isError": is_error,
            "data": text,
        }))
    }
}
