//! Tools: things an agent can call mid-episode (a calculator, a python runner, a search client).
//! [`Tool`] is the Rust trait; [`ComponentTool`] runs a tool plugin under limits.

use crate::bindings::tool_world::ToolPlugin;
use crate::component_env::{next_entropy, os_entropy};
use crate::guard::{self, Live};
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::{Error, Result};
use std::sync::Arc;

/// What a tool did with an action addressed to it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The text returned to the agent.
    pub observation: String,
    /// The tool ran but the call failed.
    pub has_error: bool,
    /// The part of the action the tool acted on.
    pub parsed_action: String,
}

/// A tool an agent can call.
pub trait Tool: Send {
    /// The tool's id, e.g. `tool:calculator`.
    fn id(&self) -> &str;
    /// How to call the tool, for the agent's prompt.
    fn instructions(&mut self) -> Result<String>;
    /// Runs the tool; `None` when the action is not addressed to it.
    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>>;
    /// A fresh tool of the same id and configuration.
    fn spawn(&self) -> Result<Box<dyn Tool>>;
}

/// A tool provided by a tool plugin. A trap discards the instance; the next call rebuilds it.
pub struct ComponentTool {
    plugin: Arc<Plugin>,
    id: String,
    config_json: String,
    limits: Limits,
    live: Option<Live<ToolPlugin>>,
    entropy: u64,
}

impl std::fmt::Debug for ComponentTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentTool")
            .field("id", &self.id)
            .field("live", &self.live.is_some())
            .finish()
    }
}

impl ComponentTool {
    /// Instantiates tool `id` of `plugin` with a merged configuration.
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        let mut tool = ComponentTool {
            plugin,
            id: id.to_owned(),
            config_json,
            limits,
            live: None,
            entropy: os_entropy(),
        };
        tool.live = Some(tool.instantiate()?);
        Ok(tool)
    }

    fn instantiate(&mut self) -> Result<Live<ToolPlugin>> {
        let mut store =
            self.plugin
                .new_store(&self.id, &self.limits, next_entropy(&mut self.entropy));
        let Template::Tool(pre) = &self.plugin.template else {
            return Err(Error::InvalidArgument(format!(
                "`{}` is not provided by a tool plugin",
                self.id
            )));
        };
        let classify = |store: &wasmtime::Store<_>, call, e| {
            guard::classify(&self.id, &self.limits, store.data(), call, e)
        };
        let api = pre
            .instantiate(&mut store)
            .map_err(|e| classify(&store, "instantiate", e))?;
        self.limits.arm(&mut store);
        let handle = match api
            .geode_env_tool()
            .call_create(&mut store, &self.id, &self.config_json)
        {
            Ok(Ok(handle)) => handle,
            Ok(Err(refusal)) => return Err(guard::refused(&self.id, "create", refusal)),
            Err(e) => return Err(classify(&store, "create", e)),
        };
        Ok(Live { store, api, handle })
    }

    fn ensure_live(&mut self) -> Result<()> {
        if self.live.is_none() {
            self.live = Some(self.instantiate()?);
        }
        Ok(())
    }

    fn check(&mut self, call: &'static str, text: &str) -> Result<()> {
        if text.len() > self.limits.max_observation_bytes {
            self.live = None;
            let message = format!(
                "output is {} bytes, over the limit of {}",
                text.len(),
                self.limits.max_observation_bytes
            );
            return Err(Error::Contract {
                env: self.id.clone(),
                call,
                message,
            });
        }
        Ok(())
    }
}

impl Tool for ComponentTool {
    fn id(&self) -> &str {
        &self.id
    }

    fn instructions(&mut self) -> Result<String> {
        self.ensure_live()?;
        let text = guard::call(
            &mut self.live,
            &self.id,
            &self.limits,
            "instructions",
            &mut |store, api, h| {
                api.geode_env_tool()
                    .instance()
                    .call_instructions(store, h)
                    .map(Ok)
            },
        )
        .map_err(|(e, _)| e)?;
        self.check("instructions", &text)?;
        Ok(text)
    }

    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>> {
        if action.len() > self.limits.max_action_bytes {
            let limit = self.limits.max_action_bytes;
            return Err(Error::InputTooLarge {
                env: self.id.clone(),
                what: "action",
                len: action.len(),
                limit,
            });
        }
        self.ensure_live()?;
        let out = guard::call(
            &mut self.live,
            &self.id,
            &self.limits,
            "execute",
            &mut |store, api, h| {
                api.geode_env_tool()
                    .instance()
                    .call_execute(store, h, action)
            },
        )
        .map_err(|(e, _)| e)?;
        let Some(out) = out else { return Ok(None) };
        self.check("execute", &out.observation)?;
        Ok(Some(ToolOutput {
            observation: out.observation,
            has_error: out.has_error,
            parsed_action: out.parsed_action,
        }))
    }

    fn spawn(&self) -> Result<Box<dyn Tool>> {
        Ok(Box::new(ComponentTool::new(
            self.plugin.clone(),
            &self.id,
            self.config_json.clone(),
            self.limits.clone(),
        )?))
    }
}
