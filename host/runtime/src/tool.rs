//! Tools: things an agent can call mid-episode (a calculator, a python runner, a search client).
//! [`Tool`] is the Rust trait; [`ComponentTool`] runs a tool plugin under limits.

use crate::Result;
use crate::bindings::tool_world::ToolPlugin;
use crate::guard::{self, Live};
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::recipe::Recipe;
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
    /// What the tool wrapper reports as `tool_type` in the info of a tool turn (GEM's name for
    /// the kind of tool, `python_code` for the Python tool); the id unless a tool says otherwise.
    fn tool_type(&self) -> &str {
        self.id()
    }
    /// How to call the tool, for the agent's prompt.
    fn instructions(&mut self) -> Result<String>;
    /// Runs the tool; `None` when the action is not addressed to it.
    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>>;
    /// A fresh tool of the same id and configuration.
    fn spawn(&self) -> Result<Box<dyn Tool>>;
}

/// A tool provided by a tool plugin. A trap discards the instance; the next call rebuilds it.
pub struct ComponentTool {
    recipe: Recipe,
    live: Option<Live<ToolPlugin>>,
}

impl std::fmt::Debug for ComponentTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentTool")
            .field("id", &self.recipe.id)
            .field("live", &self.live.is_some())
            .finish()
    }
}

impl ComponentTool {
    /// Instantiates tool `id` of `plugin` with a merged configuration.
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        let mut tool = ComponentTool {
            recipe: Recipe::new(plugin, id, config_json, limits),
            live: None,
        };
        tool.live = Some(tool.instantiate()?);
        Ok(tool)
    }

    fn instantiate(&mut self) -> Result<Live<ToolPlugin>> {
        self.recipe.build(
            "a tool plugin",
            |plugin, store| match &plugin.template {
                Template::Tool(pre) => Some(pre.instantiate(store)),
                _ => None,
            },
            |api, store, id, config| api.geode_env_tool().call_create(store, id, config),
        )
    }

    fn ensure_live(&mut self) -> Result<()> {
        if self.live.is_none() {
            self.live = Some(self.instantiate()?);
        }
        Ok(())
    }

    fn check(&mut self, call: &'static str, text: &str) -> Result<()> {
        let limit = self.recipe.limits.max_observation_bytes;
        match self.recipe.oversize(call, "output", text.len(), limit) {
            Some(error) => {
                self.live = None;
                Err(error)
            }
            None => Ok(()),
        }
    }
}

impl Tool for ComponentTool {
    fn id(&self) -> &str {
        &self.recipe.id
    }

    fn instructions(&mut self) -> Result<String> {
        self.ensure_live()?;
        let text = guard::call(
            &mut self.live,
            &self.recipe.id,
            &self.recipe.limits,
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
        self.recipe.check_action(action)?;
        self.ensure_live()?;
        let out = guard::call(
            &mut self.live,
            &self.recipe.id,
            &self.recipe.limits,
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
        let mut tool = ComponentTool {
            recipe: self.recipe.twin(),
            live: None,
        };
        tool.live = Some(tool.instantiate()?);
        Ok(Box::new(tool))
    }
}
